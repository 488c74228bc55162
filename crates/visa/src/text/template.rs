//! Renders instruction templates (`crate::isa::syntax`). The parser walks the same
//! templates in `parser.rs`.

use crate::isa::syntax::Format;

/// One piece of a template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'t> {
    Literal(&'t str),
    Pred,
    Exec,
    Mnemonic,
    Sat,
    Rest,
    Field(&'t str, Option<Format>),
}

/// Splits a template into pieces. Templates are static data checked by a unit test,
/// so an unknown formatter name is a programming error reported as a literal.
pub fn pieces(template: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = template;
    while !rest.is_empty() {
        match rest.find('{') {
            Some(0) => {
                let end = rest.find('}').unwrap_or(rest.len() - 1);
                let inner = &rest[1..end];
                out.push(match inner {
                    "P" => Piece::Pred,
                    "E" => Piece::Exec,
                    "MN" => Piece::Mnemonic,
                    "SAT" => Piece::Sat,
                    "*" => Piece::Rest,
                    _ => match inner.split_once(':') {
                        Some((name, fmt)) => Piece::Field(name, format_by_name(fmt)),
                        None => Piece::Field(inner, None),
                    },
                });
                rest = &rest[end + 1..];
            }
            Some(n) => {
                out.push(Piece::Literal(&rest[..n]));
                rest = &rest[n..];
            }
            None => {
                out.push(Piece::Literal(rest));
                rest = "";
            }
        }
    }
    out
}

pub fn format_by_name(name: &str) -> Option<Format> {
    use Format::*;
    Some(match name {
        "Surface" => Surface,
        "Channels" => Channels,
        "Relop" => Relop,
        "MinMax" => MinMax,
        "Atomic" => Atomic,
        "Owords" => Owords,
        "Blocks" => Blocks,
        "EltSize" => EltSize,
        "GatherExec" => GatherExec,
        "Modified" => Modified,
        "Hex" => Hex,
        "Label" => Label,
        "CallTarget" => CallTarget,
        "LabelList" => LabelList,
        "Str" => Str,
        "Quoted" => Quoted,
        "MediaLdModifier" => MediaLdModifier,
        "MediaStModifier" => MediaStModifier,
        "SimdMode" => SimdMode,
        "SamplerOp3d" => SamplerOp3d,
        "SingleChannel" => SingleChannel,
        "InfoOp" => InfoOp,
        "UnormFormat" => UnormFormat,
        "AvsControl" => AvsControl,
        "AvsExecMode" => AvsExecMode,
        "RtWriteMode" => RtWriteMode,
        "Fence" => Fence,
        "SplitBarrier" => SplitBarrier,
        "Lifetime" => Lifetime,
        "LifetimeTarget" => LifetimeTarget,
        "AddressOf" => AddressOf,
        "RawSend" => RawSend,
        "RawSends" => RawSends,
        "EndOfThread" => EndOfThread,
        "SvmBlock" => SvmBlock,
        "SvmBlockType" => SvmBlockType,
        "LscSfid" => LscSfid,
        "LscCaching" => LscCaching,
        "LscData" => LscData,
        "LscAddress" => LscAddress,
        "LscTypedAddress" => LscTypedAddress,
        "LscData2d" => LscData2d,
        "LscBlock2dAddress" => LscBlock2dAddress,
        "LscRaw" => LscRaw,
        "LscSurface" => LscSurface,
        "LscFenceOp" => LscFenceOp,
        "LscScope" => LscScope,
        "BfnControl" => BfnControl,
        "DpasInfo" => DpasInfo,
        "NoRegion" => NoRegion,
        "WhenSignal" => WhenSignal,
        "RawSendg" => RawSendg,
        "HexUpper" => HexUpper,
        "Descriptor64" => Descriptor64,
        "LfsrControl" => LfsrControl,
        "DnsclConversion" => DnsclConversion,
        "DnsclMode" => DnsclMode,
        "DnsclRounding" => DnsclRounding,
        "Symbol" => Symbol,
        "Sampler" => Sampler,
        _ => return None,
    })
}

/// Names of the fields a template mentions explicitly (the rest go to `{*}`).
pub fn named_fields<'t>(pieces: &[Piece<'t>]) -> Vec<&'t str> {
    pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Field(n, _) => Some(*n),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_names_real_fields_and_formatters() {
        for (op, sub, template) in crate::isa::syntax::all_syntax(crate::Version::LATEST_TEXT)
            .chain(crate::isa::syntax::all_syntax(crate::Version::OLDEST))
        {
            let Some(layout) = op.layout(sub) else {
                continue;
            };
            for p in pieces(template) {
                if let Piece::Field(name, fmt) = p {
                    assert!(
                        layout.fields.iter().any(|f| f.name == name),
                        "{template}: no field {name} in {}",
                        layout.mnemonic
                    );
                    let spelled = template.contains(&format!("{{{name}:"));
                    assert!(
                        !spelled || fmt.is_some(),
                        "{template}: unknown formatter for {name}"
                    );
                }
            }
        }
    }
}
