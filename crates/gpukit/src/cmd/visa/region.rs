//! `gpukit visa region OPERAND --exec-size N [--grf 32|64] [--addr A,B,..] [--svg OUT] [--json]`
//!
//! Exit status: 2 when the operand or a flag cannot be read (a usage error); 1 when
//! the operand reads but breaks a region rule of the spec (a finding, as in `verify`).
//!
//! What a region operand touches, by the spec's pseudo-code: each channel's element
//! offset, and a grid of the GRF bytes. Operands are written as in vISA text:
//! `V12(1,2)<8;4,2>:f` (source), `V12(1,2)<2>:f` (destination),
//! `r[A0(0),16]<8;4,2>:f` (single-address indirect; `--addr` gives A0(0)) and
//! `r[A0(0),16]<4,2>:f` (multi-address; `--addr` gives one value per row).

use crate::error::{CmdError, CmdResult};
use crate::output::{emit, JsonArg};
use gpukit_visa::isa::names::EMASK;
use gpukit_visa::isa::Type;
use gpukit_visa::semantics::{
    self, Element, ExecMask, MaskControl, PredControl, Predication, RegionParams,
};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The operand, e.g. 'V12(1,2)<8;4,2>:f', 'V3(0,0)<1>:d', 'r[A0(0),16]<4,2>:w'
    operand: String,
    /// Execution size of the instruction (1, 2, 4, 8, 16, 32)
    #[arg(long, value_parser = parse_exec_size)]
    exec_size: u32,
    /// GRF size in bytes (64 on Xe-HPC); default: the --platform's, else 32
    #[arg(long)]
    grf: Option<u32>,
    /// Platform whose GRF size to use: skl, icllp, tgllp, dg2, mtl, pvc
    #[arg(long, value_parser = crate::platform::parse, conflicts_with = "grf")]
    platform: Option<gpukit_visa::verify::Platform>,
    /// Address values for an indirect operand, in bytes, comma-separated (one per row for multi-address)
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    addr: Vec<i64>,
    /// Mask control: M1..M8, or M1_NM..M8_NM for NoMask
    #[arg(long, default_value = "M1")]
    mask: String,
    /// The dispatch's execution mask, bit n for channel n (hex with 0x, or decimal)
    #[arg(long, default_value = "0xffffffff", value_parser = parse_bits)]
    exec_mask: u32,
    /// Predicate value, bit n for element n of the predicate variable (no predicate when absent)
    #[arg(long, value_parser = parse_bits)]
    pred: Option<u32>,
    /// How predicate bits combine: seq (per channel), any, all
    #[arg(long, default_value = "seq", value_parser = ["seq", "any", "all"])]
    pred_control: String,
    /// Invert the (combined) predicate
    #[arg(long)]
    pred_inverse: bool,
    /// Also draw the grid as SVG into this file
    #[arg(long)]
    svg: Option<PathBuf>,
    #[command(flatten)]
    json: JsonArg,
}

impl Args {
    /// The GRF size in force (`run` settles it before anything reads it).
    fn grf_size(&self) -> u32 {
        self.grf.unwrap_or(32)
    }
}

fn parse_exec_size(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(n @ (1 | 2 | 4 | 8 | 16 | 32)) => Ok(n),
        _ => Err(format!("{s:?} is not one of 1, 2, 4, 8, 16, 32")),
    }
}

fn parse_bits(s: &str) -> Result<u32, String> {
    let parsed = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => s.parse(),
    };
    parsed.map_err(|_| format!("{s:?} is not a 32-bit value (hex with 0x, or decimal)"))
}

/// The channels that execute, by the spec's `EvaluateChEn`.
fn channel_enables(a: &Args) -> Result<(MaskControl, u32), CmdError> {
    let code = EMASK
        .iter()
        .position(|m| m.eq_ignore_ascii_case(&a.mask))
        .ok_or_else(|| {
            CmdError::Usage(format!("--mask {}: one of M1..M8, M1_NM..M8_NM", a.mask))
        })?;
    let mask = MaskControl::from_code(code as u8)
        .ok_or_else(|| CmdError::Usage(format!("--mask {}", a.mask)))?;
    let predicate = a.pred.map(|bits| Predication {
        bits,
        control: match a.pred_control.as_str() {
            "any" => PredControl::Any,
            "all" => PredControl::All,
            _ => PredControl::Sequential,
        },
        inverse: a.pred_inverse,
    });
    let enables = semantics::channel_enable(a.exec_size, mask, ExecMask(a.exec_mask), predicate)
        .map_err(|e| CmdError::Input(format!("{}: {e}", a.operand)))?;
    Ok((mask, enables))
}

/// A parsed operand.
#[derive(Debug, PartialEq)]
enum Operand {
    Direct { row: u32, col: u32, region: Shape },
    Indirect { offset: i64, region: Shape },
}

#[derive(Debug, PartialEq, Clone, Copy)]
enum Shape {
    Source(RegionParams),
    MultiAddress { width: u32, hstride: u32 },
    Destination { hstride: u32 },
}

#[derive(Serialize)]
struct Report {
    operand: String,
    exec_size: u32,
    grf_size: u32,
    #[serde(rename = "type")]
    ty: String,
    element_size: u32,
    mask: String,
    /// `ChEn`: bit n set when channel n executes.
    channel_enable: String,
    elements: Vec<ElementReport>,
    grfs: Vec<i64>,
    within_two_adjacent_grfs: bool,
}

#[derive(Serialize)]
struct ElementReport {
    channel: u32,
    enabled: bool,
    byte_offset: i64,
    grf: i64,
    subreg_byte: i64,
}

fn bad(operand: &str, why: impl std::fmt::Display) -> CmdError {
    CmdError::Usage(format!("operand {operand:?}: {why}"))
}

fn number<T: std::str::FromStr>(s: &str, operand: &str, what: &str) -> Result<T, CmdError> {
    s.trim()
        .parse()
        .map_err(|_| bad(operand, format!("{what} {:?} is not a number", s.trim())))
}

/// Splits `<...>:type` off the end of an operand.
fn split_region_type<'a>(rest: &'a str, operand: &str) -> Result<(&'a str, Type), CmdError> {
    let rest = rest.trim();
    let (region, ty) = rest
        .rsplit_once(':')
        .ok_or_else(|| bad(operand, "missing ':type'"))?;
    let ty = Type::from_name(ty.trim())
        .filter(|t| t.size().is_some())
        .ok_or_else(|| bad(operand, format!("unknown type {:?}", ty.trim())))?;
    let region = region
        .trim()
        .strip_prefix('<')
        .and_then(|r| r.strip_suffix('>'))
        .ok_or_else(|| bad(operand, "region must be written <...>"))?;
    Ok((region, ty))
}

fn parse_shape(region: &str, operand: &str, indirect: bool) -> Result<Shape, CmdError> {
    if let Some((v, wh)) = region.split_once(';') {
        let (w, h) = wh
            .split_once(',')
            .ok_or_else(|| bad(operand, "source region must be <vstride;width,hstride>"))?;
        let width = number(w, operand, "width")?;
        let hstride = number(h, operand, "horizontal stride")?;
        if v.trim().is_empty() && indirect {
            return Ok(Shape::MultiAddress { width, hstride });
        }
        let vstride = number(v, operand, "vertical stride")?;
        return Ok(Shape::Source(RegionParams::new(vstride, width, hstride)));
    }
    if let Some((w, h)) = region.split_once(',') {
        if !indirect {
            return Err(bad(
                operand,
                "<width,hstride> is a multi-address indirect region",
            ));
        }
        return Ok(Shape::MultiAddress {
            width: number(w, operand, "width")?,
            hstride: number(h, operand, "horizontal stride")?,
        });
    }
    Ok(Shape::Destination {
        hstride: number(region, operand, "horizontal stride")?,
    })
}

fn parse_operand(operand: &str) -> Result<(Operand, Type), CmdError> {
    let s = operand.trim();
    if let Some(inner) = s.strip_prefix("r[") {
        let (addr, rest) = inner
            .split_once(']')
            .ok_or_else(|| bad(operand, "missing ']'"))?;
        let offset = match addr.rsplit_once(',') {
            Some((_, off)) => number(off, operand, "indirect offset")?,
            None => 0,
        };
        let (region, ty) = split_region_type(rest, operand)?;
        let region = parse_shape(region, operand, true)?;
        return Ok((Operand::Indirect { offset, region }, ty));
    }
    let open = s
        .find('(')
        .ok_or_else(|| bad(operand, "expected NAME(row,col)<region>:type"))?;
    let close = s[open..]
        .find(')')
        .map(|i| open + i)
        .ok_or_else(|| bad(operand, "missing ')'"))?;
    let (row, col) = s[open + 1..close]
        .split_once(',')
        .ok_or_else(|| bad(operand, "origin must be (row,col)"))?;
    let row = number(row, operand, "row")?;
    let col = number(col, operand, "column")?;
    let (region, ty) = split_region_type(&s[close + 1..], operand)?;
    let region = parse_shape(region, operand, false)?;
    Ok((Operand::Direct { row, col, region }, ty))
}

fn elements(a: &Args, op: &Operand, size: u32) -> Result<Vec<Element>, CmdError> {
    let region_error = |e: semantics::RegionError| CmdError::Input(format!("{}: {e}", a.operand));
    let (origin, shape) = match op {
        Operand::Direct { row, col, region } => (
            semantics::direct_origin(*row, *col, size, a.grf_size()),
            *region,
        ),
        Operand::Indirect { offset, region } => {
            if let Shape::MultiAddress { width, hstride } = region {
                return semantics::indirect_multi_elements(
                    &a.addr,
                    *offset,
                    size,
                    a.grf_size(),
                    a.exec_size,
                    *width,
                    *hstride,
                )
                .map_err(region_error);
            }
            let base = a.addr.first().copied().ok_or_else(|| {
                CmdError::Usage("an indirect operand needs --addr with the address value".into())
            })?;
            let origin = base
                .checked_add(*offset)
                .ok_or_else(|| region_error(semantics::RegionError::Overflow))?;
            (origin, *region)
        }
    };
    match shape {
        Shape::Source(params) => {
            semantics::source_elements(origin, size, a.grf_size(), a.exec_size, params)
        }
        Shape::Destination { hstride } => {
            semantics::destination_elements(origin, size, a.grf_size(), a.exec_size, hstride)
        }
        // Only an indirect operand parses to a multi-address shape, and it returned above.
        Shape::MultiAddress { .. } => Err(semantics::RegionError::NullVertStride),
    }
    .map_err(region_error)
}

const CHANNEL_DIGITS: &[u8; 32] = b"0123456789abcdefghijklmnopqrstuv";

/// Per GRF touched, one cell per byte: the channel whose element covers it, or
/// `Many` where several channels read the same byte.
#[derive(Clone, Copy, PartialEq)]
enum Cell {
    Untouched,
    Channel(u32),
    Many,
}

fn grid(elements: &[Element], size: u32, grf: u32, grfs: &[i64]) -> Vec<(i64, Vec<Cell>)> {
    let mut rows: Vec<(i64, Vec<Cell>)> = grfs
        .iter()
        .map(|g| (*g, vec![Cell::Untouched; grf as usize]))
        .collect();
    let grf = i64::from(grf);
    for e in elements {
        for b in e.byte_offset..e.byte_offset.saturating_add(i64::from(size)) {
            let (g, sub) = (b.div_euclid(grf), b.rem_euclid(grf) as usize);
            if let Some((_, cells)) = rows.iter_mut().find(|(r, _)| *r == g) {
                cells[sub] = match cells[sub] {
                    Cell::Untouched => Cell::Channel(e.channel),
                    Cell::Channel(c) if c == e.channel => Cell::Channel(c),
                    _ => Cell::Many,
                };
            }
        }
    }
    rows
}

fn text_report(r: &Report, rows: &[(i64, Vec<Cell>)]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}  exec size {}  {} ({} bytes)  GRF {} bytes",
        r.operand, r.exec_size, r.ty, r.element_size, r.grf_size
    );
    let _ = writeln!(s, "mask {}  channel enables {}", r.mask, r.channel_enable);
    let _ = writeln!(s, "channel  byte  grf.byte  enabled");
    for e in &r.elements {
        let _ = writeln!(
            s,
            "{:>7}  {:>4}  {:<8}  {}",
            e.channel,
            e.byte_offset,
            format!("r{}.{}", e.grf, e.subreg_byte),
            if e.enabled { "yes" } else { "no" }
        );
    }
    let _ = writeln!(
        s,
        "GRFs touched: {} ({})",
        r.grfs
            .iter()
            .map(|g| format!("r{g}"))
            .collect::<Vec<_>>()
            .join(" "),
        if r.within_two_adjacent_grfs {
            "within two adjacent GRFs"
        } else {
            "more than two adjacent GRFs: breaks region rule 6"
        }
    );
    let _ = writeln!(
        s,
        "grid: one column per byte, the channel (0-9a-v) reading it, * several, . none"
    );
    let width = r.grf_size as usize;
    let mut ruler = String::from("        ");
    for b in (0..width).step_by(8) {
        let _ = write!(ruler, "{b:<8}");
    }
    let _ = writeln!(s, "{}", ruler.trim_end());
    for (g, cells) in rows {
        let line: String = cells
            .iter()
            .map(|c| match c {
                Cell::Untouched => '.',
                Cell::Many => '*',
                Cell::Channel(ch) => CHANNEL_DIGITS[(*ch as usize) % 32] as char,
            })
            .collect();
        let _ = writeln!(s, "{:>6}  {line}", format!("r{g}"));
    }
    s
}

/// The grid as SVG: one square per byte, coloured by the channel that touches it;
/// bytes of channels the masks disable are grey and hatched, with a legend, and the
/// title says which masks and predicate decided it.
fn svg(r: &Report, rows: &[(i64, Vec<Cell>)], a: &Args) -> String {
    const CELL: usize = 14;
    const LEFT: usize = 48;
    const TOP: usize = 52;
    let width = (LEFT + r.grf_size as usize * CELL + 8).max(760);
    let legend_y = TOP + rows.len() * (CELL + 4) + 10;
    let height = legend_y + CELL + 12;
    let enabled = |ch: u32| {
        r.elements
            .iter()
            .find(|e| e.channel == ch)
            .is_none_or(|e| e.enabled)
    };
    let esc = |t: &str| {
        t.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="monospace" font-size="9"><defs><pattern id="off" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="4" height="4" fill="#e6e6e6"/><line x1="0" y1="0" x2="0" y2="4" stroke="#a0a0a0" stroke-width="1.5"/></pattern></defs>"##
    );
    let predicate = match a.pred {
        Some(bits) => format!(
            ", predicate {}{bits:#x} ({})",
            if a.pred_inverse { "!" } else { "" },
            a.pred_control
        ),
        None => String::new(),
    };
    let _ = writeln!(
        s,
        r#"<text x="4" y="14" font-size="12" font-weight="bold">{} exec size {}, GRF {} bytes</text><text x="4" y="30" font-size="11">mask {}, execution mask {:#x}{}: channels enabled {}</text>"#,
        esc(&r.operand),
        r.exec_size,
        r.grf_size,
        esc(&r.mask),
        a.exec_mask,
        esc(&predicate),
        r.channel_enable
    );
    for b in (0..r.grf_size as usize).step_by(8) {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{b}</text>"#,
            LEFT + b * CELL,
            TOP - 6
        );
    }
    for (i, (g, cells)) in rows.iter().enumerate() {
        let y = TOP + i * (CELL + 4);
        let _ = writeln!(
            s,
            r#"<text x="4" y="{}" font-size="11">r{g}</text>"#,
            y + CELL - 3
        );
        for (b, c) in cells.iter().enumerate() {
            let x = LEFT + b * CELL;
            let (fill, label, ink) = match c {
                Cell::Untouched => ("#f8f8f8".to_string(), String::new(), "#000"),
                Cell::Many => ("#888888".to_string(), "*".to_string(), "#000"),
                Cell::Channel(ch) if enabled(*ch) => (
                    format!("hsl({}, 70%, 70%)", (ch * 360 / 32) % 360),
                    ch.to_string(),
                    "#000",
                ),
                Cell::Channel(ch) => ("url(#off)".to_string(), ch.to_string(), "#777"),
            };
            let _ = writeln!(
                s,
                r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#bbbbbb" stroke-width="0.5"/>"##
            );
            if !label.is_empty() {
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}" text-anchor="middle" fill="{ink}">{label}</text>"#,
                    x + CELL / 2,
                    y + CELL - 4
                );
            }
        }
    }
    let legend = [
        ("hsl(120, 70%, 70%)", "enabled channel (number: channel)"),
        ("url(#off)", "disabled channel"),
        ("#888888", "several channels"),
        ("#f8f8f8", "not touched"),
    ];
    let mut x = 4;
    for (fill, what) in legend {
        let _ = writeln!(
            s,
            r##"<rect x="{x}" y="{legend_y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#bbbbbb"/><text x="{}" y="{}" font-size="10">{what}</text>"##,
            x + CELL + 4,
            legend_y + CELL - 3
        );
        x += CELL + 10 + what.len() * 6;
    }
    s.push_str("</svg>\n");
    s
}

pub fn run(mut a: Args) -> CmdResult {
    let grf_size = a
        .grf
        .unwrap_or_else(|| a.platform.map_or(32, |p| p.grf_size()));
    a.grf = Some(grf_size);
    if !matches!(grf_size, 32 | 64) {
        return Err(CmdError::Usage(format!(
            "--grf {grf_size}: the GRF is 32 or 64 bytes"
        )));
    }
    let (op, ty) = parse_operand(&a.operand)?;
    let size = ty.size().unwrap_or(1) as u32;
    let elements = elements(&a, &op, size)?;
    let (mask, enables) = channel_enables(&a)?;
    let span = semantics::grf_span(&elements, size, grf_size);
    let grf = i64::from(grf_size);
    let report = Report {
        operand: a.operand.clone(),
        exec_size: a.exec_size,
        grf_size,
        ty: ty.name().unwrap_or("?").to_string(),
        element_size: size,
        mask: mask.name(),
        channel_enable: format!("{enables:#010x}"),
        elements: elements
            .iter()
            .map(|e| ElementReport {
                channel: e.channel,
                enabled: enables & (1 << e.channel) != 0,
                byte_offset: e.byte_offset,
                grf: e.byte_offset.div_euclid(grf),
                subreg_byte: e.byte_offset.rem_euclid(grf),
            })
            .collect(),
        within_two_adjacent_grfs: span.within_two_adjacent(),
        grfs: span.grfs.clone(),
    };
    let rows = grid(&elements, size, grf_size, &span.grfs);
    if let Some(path) = &a.svg {
        emit(Some(path), svg(&report, &rows, &a).as_bytes())?;
    }
    if a.json.enabled() {
        return a.json.emit_one(None, &report);
    }
    let out = { text_report(&report, &rows).into_bytes() };
    emit(None, &out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_three_forms() {
        let (op, ty) = parse_operand("V12(1,2)<8;4,2>:f").unwrap();
        assert_eq!(ty, Type::F);
        assert_eq!(
            op,
            Operand::Direct {
                row: 1,
                col: 2,
                region: Shape::Source(RegionParams::new(8, 4, 2))
            }
        );
        let (op, _) = parse_operand("V3(0,1)<2>:d").unwrap();
        assert_eq!(
            op,
            Operand::Direct {
                row: 0,
                col: 1,
                region: Shape::Destination { hstride: 2 }
            }
        );
        let (op, _) = parse_operand("r[A0(0),-16]<4,1>:w").unwrap();
        assert_eq!(
            op,
            Operand::Indirect {
                offset: -16,
                region: Shape::MultiAddress {
                    width: 4,
                    hstride: 1
                }
            }
        );
        assert!(parse_operand("V1(0,0)<1;1,0>").is_err());
        assert!(parse_operand("V1(0,0)<1;1,0>:zz").is_err());
        assert!(parse_operand("V1<1;1,0>:f").is_err());
    }
}
