//! Region enumeration (spec `5_operands.md`, "Region-based Addressing").

use std::fmt;

/// The execution sizes an instruction may have.
pub const EXEC_SIZES: [u32; 6] = [1, 2, 4, 8, 16, 32];
const LEGAL_WIDTHS: [u32; 5] = [1, 2, 4, 8, 16];
const LEGAL_VSTRIDES: [u32; 7] = [0, 1, 2, 4, 8, 16, 32];
const LEGAL_HSTRIDES: [u32; 4] = [0, 1, 2, 4];

/// Region parameters in elements. `vstride: None` is the null vertical stride that
/// makes an indirect source multi-address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RegionParams {
    pub vstride: Option<u32>,
    pub width: u32,
    pub hstride: u32,
}

impl RegionParams {
    pub fn new(vstride: u32, width: u32, hstride: u32) -> Self {
        RegionParams {
            vstride: Some(vstride),
            width,
            hstride,
        }
    }
    /// A destination region: only the horizontal stride means anything; the spec's
    /// destination pseudo-code is the source one with one row of `ExecSize` elements.
    pub fn dst(hstride: u32) -> Self {
        RegionParams {
            vstride: None,
            width: 1,
            hstride,
        }
    }
}

/// Why a region cannot be enumerated (the spec's "General Restrictions on Region
/// Parameters", numbered as there).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum RegionError {
    ExecSize(u32),
    /// Rule 1.
    Width(u32),
    /// Rule 2.
    VertStride(u32),
    /// Rule 3.
    HorzStride(u32),
    /// Rule 4.
    WidthAboveExecSize {
        width: u32,
        exec_size: u32,
    },
    /// Rule 5.
    DstHorzStrideZero,
    /// A direct source needs a vertical stride; only indirect sources may omit it.
    NullVertStride,
    /// The element size must be one of 1, 2, 4, 8 bytes and the GRF 32 or 64 bytes.
    ElementSize(u32),
    GrfSize(u32),
    /// A multi-address source got fewer address values than it has rows.
    MissingAddresses {
        needed: u32,
        given: u32,
    },
    /// An element offset does not fit 64 bits.
    Overflow,
}

impl fmt::Display for RegionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegionError::ExecSize(e) => write!(f, "exec size {e} is not one of 1, 2, 4, 8, 16, 32"),
            RegionError::Width(w) => write!(f, "width {w} is not one of 1, 2, 4, 8, 16"),
            RegionError::VertStride(v) => {
                write!(f, "vertical stride {v} is not one of 0, 1, 2, 4, 8, 16, 32")
            }
            RegionError::HorzStride(h) => {
                write!(f, "horizontal stride {h} is not one of 0, 1, 2, 4")
            }
            RegionError::WidthAboveExecSize { width, exec_size } => {
                write!(f, "width {width} exceeds exec size {exec_size}")
            }
            RegionError::DstHorzStrideZero => f.write_str("destination horizontal stride is 0"),
            RegionError::NullVertStride => {
                f.write_str("null vertical stride outside a multi-address indirect source")
            }
            RegionError::ElementSize(s) => write!(f, "element size {s} is not 1, 2, 4 or 8 bytes"),
            RegionError::GrfSize(g) => write!(f, "GRF size {g} is not 32 or 64 bytes"),
            RegionError::MissingAddresses { needed, given } => {
                write!(
                    f,
                    "multi-address region needs {needed} address values, {given} given"
                )
            }
            RegionError::Overflow => f.write_str("an element offset overflows 64 bits"),
        }
    }
}

/// One element an operand touches: the channel that reads or writes it and its byte
/// offset, relative to the variable (direct) or to the address space the address
/// values index (indirect).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Element {
    pub channel: u32,
    pub byte_offset: i64,
}

/// Every rule violation of a region for an exec size, in rule order. Destinations
/// are judged by rules 3 and 5 only (their vertical stride and width are ignored).
pub fn check_region(exec_size: u32, region: RegionParams, is_dst: bool) -> Vec<RegionError> {
    let mut errors = Vec::new();
    if !EXEC_SIZES.contains(&exec_size) {
        errors.push(RegionError::ExecSize(exec_size));
    }
    if !is_dst {
        if !LEGAL_WIDTHS.contains(&region.width) {
            errors.push(RegionError::Width(region.width));
        }
        if let Some(v) = region.vstride {
            if !LEGAL_VSTRIDES.contains(&v) {
                errors.push(RegionError::VertStride(v));
            }
        }
    }
    if !LEGAL_HSTRIDES.contains(&region.hstride) {
        errors.push(RegionError::HorzStride(region.hstride));
    }
    if !is_dst && region.width > exec_size && EXEC_SIZES.contains(&exec_size) {
        errors.push(RegionError::WidthAboveExecSize {
            width: region.width,
            exec_size,
        });
    }
    if is_dst && region.hstride == 0 {
        errors.push(RegionError::DstHorzStrideZero);
    }
    errors
}

fn check_sizes(elem_size: u32, grf_size: u32) -> Result<(), RegionError> {
    if !matches!(elem_size, 1 | 2 | 4 | 8) {
        return Err(RegionError::ElementSize(elem_size));
    }
    if !matches!(grf_size, 32 | 64) {
        return Err(RegionError::GrfSize(grf_size));
    }
    Ok(())
}

fn first_error(errors: Vec<RegionError>) -> Result<(), RegionError> {
    match errors.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The byte offsets of an operand's elements, one per channel in channel order: the
/// same evaluation as [`source_elements`] and [`destination_elements`], in a fixed
/// array (exec sizes are at most 32), for callers that evaluate regions per
/// instruction executed and should not allocate each time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offsets {
    len: u8,
    at: [i64; 32],
}

impl std::ops::Deref for Offsets {
    type Target = [i64];
    fn deref(&self) -> &[i64] {
        &self.at[..self.len as usize]
    }
}

impl Offsets {
    fn elements(&self) -> Vec<Element> {
        self.iter()
            .enumerate()
            .map(|(ch, &byte_offset)| Element {
                channel: ch as u32,
                byte_offset,
            })
            .collect()
    }
}

/// The elements of a source region `VN(row,col)<vstride;width,hstride>` (or, with
/// `origin_byte`, of a single-address indirect source whose origin is the address
/// value plus the immediate offset). `origin_byte` is the byte offset of element
/// `(row, col)` as the caller resolved it; use [`direct_origin`] for a direct operand.
pub fn source_elements(
    origin_byte: i64,
    elem_size: u32,
    grf_size: u32,
    exec_size: u32,
    region: RegionParams,
) -> Result<Vec<Element>, RegionError> {
    let mut offsets = Offsets::default();
    source_offsets(
        origin_byte,
        elem_size,
        grf_size,
        exec_size,
        region,
        &mut offsets,
    )?;
    Ok(offsets.elements())
}

/// [`source_elements`]' byte offsets into `out`, without allocating.
pub fn source_offsets(
    origin_byte: i64,
    elem_size: u32,
    grf_size: u32,
    exec_size: u32,
    region: RegionParams,
    out: &mut Offsets,
) -> Result<(), RegionError> {
    check_sizes(elem_size, grf_size)?;
    first_error(check_region(exec_size, region, false))?;
    let vstride = region.vstride.ok_or(RegionError::NullVertStride)?;
    let size = i64::from(elem_size);
    // check_region accepted the exec size: at most 32.
    out.len = exec_size as u8;
    for ch in 0..exec_size {
        let row = i64::from(ch / region.width);
        let col = i64::from(ch % region.width);
        let within = (row * i64::from(vstride) + col * i64::from(region.hstride)) * size;
        out.at[ch as usize] = origin_byte
            .checked_add(within)
            .ok_or(RegionError::Overflow)?;
    }
    Ok(())
}

/// The elements of a destination `VN(row,col)<hstride>`.
pub fn destination_elements(
    origin_byte: i64,
    elem_size: u32,
    grf_size: u32,
    exec_size: u32,
    hstride: u32,
) -> Result<Vec<Element>, RegionError> {
    let mut offsets = Offsets::default();
    destination_offsets(
        origin_byte,
        elem_size,
        grf_size,
        exec_size,
        hstride,
        &mut offsets,
    )?;
    Ok(offsets.elements())
}

/// [`destination_elements`]' byte offsets into `out`, without allocating.
pub fn destination_offsets(
    origin_byte: i64,
    elem_size: u32,
    grf_size: u32,
    exec_size: u32,
    hstride: u32,
    out: &mut Offsets,
) -> Result<(), RegionError> {
    check_sizes(elem_size, grf_size)?;
    first_error(check_region(exec_size, RegionParams::dst(hstride), true))?;
    let size = i64::from(elem_size);
    out.len = exec_size as u8;
    for ch in 0..exec_size {
        out.at[ch as usize] = origin_byte
            .checked_add(i64::from(ch) * i64::from(hstride) * size)
            .ok_or(RegionError::Overflow)?;
    }
    Ok(())
}

/// The byte offset of element `(row, col)` of a direct operand: the spec's
/// `FirstElementIndex = R * (GRF_Size_in_Bytes / sizeof(type)) + C`, in bytes.
pub fn direct_origin(row: u32, col: u32, elem_size: u32, grf_size: u32) -> i64 {
    i64::from(row) * i64::from(grf_size) + i64::from(col) * i64::from(elem_size)
}

/// The elements of a multi-address indirect source `r[A(k),offset]<;width,hstride>`:
/// row `i` starts at `addresses[i] + offset`. Needs `exec_size / width` addresses.
pub fn indirect_multi_elements(
    addresses: &[i64],
    offset: i64,
    elem_size: u32,
    grf_size: u32,
    exec_size: u32,
    width: u32,
    hstride: u32,
) -> Result<Vec<Element>, RegionError> {
    check_sizes(elem_size, grf_size)?;
    let region = RegionParams {
        vstride: None,
        width,
        hstride,
    };
    first_error(check_region(exec_size, region, false))?;
    let rows = exec_size / width;
    if (addresses.len() as u64) < u64::from(rows) {
        return Err(RegionError::MissingAddresses {
            needed: rows,
            given: addresses.len().min(u32::MAX as usize) as u32,
        });
    }
    let size = i64::from(elem_size);
    (0..exec_size)
        .map(|ch| {
            let row =
                addresses
                    .get((ch / width) as usize)
                    .ok_or(RegionError::MissingAddresses {
                        needed: rows,
                        given: addresses.len().min(u32::MAX as usize) as u32,
                    })?;
            let col = i64::from(ch % width);
            let byte_offset = row
                .checked_add(offset)
                .and_then(|start| start.checked_add(col * i64::from(hstride) * size))
                .ok_or(RegionError::Overflow)?;
            Ok(Element {
                channel: ch,
                byte_offset,
            })
        })
        .collect()
}

/// The GRFs a set of elements touches, relative to a GRF-aligned base.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GrfSpan {
    /// Every GRF touched, ascending, without repeats.
    pub grfs: Vec<i64>,
}

impl GrfSpan {
    /// The spec's rule 6: no more than two GRFs, and those adjacent.
    pub fn within_two_adjacent(&self) -> bool {
        match (self.grfs.first(), self.grfs.last()) {
            (Some(lo), Some(hi)) => hi - lo <= 1,
            _ => true,
        }
    }
}

/// The GRFs that elements of `elem_size` bytes at the given offsets touch, where
/// offset 0 is the start of a GRF.
pub fn grf_span(elements: &[Element], elem_size: u32, grf_size: u32) -> GrfSpan {
    let grf = i64::from(grf_size.max(1));
    let mut grfs: Vec<i64> = elements
        .iter()
        .flat_map(|e| {
            let first = e.byte_offset.div_euclid(grf);
            let last = e
                .byte_offset
                .saturating_add(i64::from(elem_size.max(1)) - 1)
                .div_euclid(grf);
            [first, last]
        })
        .collect();
    grfs.sort_unstable();
    grfs.dedup();
    GrfSpan { grfs }
}
