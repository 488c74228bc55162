//! THE text syntax of every instruction, as templates over the layout's field names.
//! The printer renders them and the parser matches them, so text and table can never
//! drift apart. A template is literal text with placeholders:
//!
//! | placeholder | prints |
//! |---|---|
//! | `{P}` | the predicate prefix `(!P1.any) `, or nothing |
//! | `{E}` | the execution size and mask `(M1, 16)` |
//! | `{MN}` | the mnemonic (the sub-opcode's, for families) |
//! | `{SAT}` | `.sat` when the destination saturates |
//! | `{name}` | field `name` in its kind's generic form (vector and raw operands with their leading space; numbers bare) |
//! | `{name:fmt}` | field `name` through the formatter `fmt` (see [`Format`]) |
//! | `{*}` | every field the template does not name, in layout order, generically |
//!
//! Templates follow IGC 1.0.5353's dumps, including their quirks (a predicate that some
//! families never print, a modifier printed twice); where later releases print
//! differently, [`crate::text::Style`] picks a variant.

use super::table::Opcode;
use crate::version::Version;

/// Formatters: how a field's value is spelled when its generic form is not enough.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Surface id as a name: `%slm`, `T1`, ..., `T6`.
    Surface,
    /// Channel mask letters from bits 0-3 (`RGBA`, possibly empty).
    Channels,
    /// `cmp` relation: `.eq`, or `n.eq` for cmpn.
    Relop,
    /// `fminmax` selector: `min` / `max`.
    MinMax,
    /// Atomic operation: `.add`, `.inc.16`, `.cmpxchg.64`.
    Atomic,
    /// OWord count from its log2 code.
    Owords,
    /// Block count from its log2 code (bits 0-1).
    Blocks,
    /// Gather/scatter element size code: 1, 2 or 4 bytes.
    EltSize,
    /// Gather/scatter element count and mask: `(M1, 16)`.
    GatherExec,
    /// `.mod` when bit 0 is set.
    Modified,
    /// A number in hex: `0x1f`.
    Hex,
    /// A label name.
    Label,
    /// A label name; subroutine labels carry their id (`name_3`).
    CallTarget,
    /// Labels in parentheses: `(a, b)`.
    LabelList,
    /// A string-pool entry, bare.
    Str,
    /// A string-pool entry, quoted.
    Quoted,
    /// `media_ld` modifier name.
    MediaLdModifier,
    /// `media_st` modifier name.
    MediaStModifier,
    /// `sample`/`load` SIMD mode from bits 4-5: 8 or 16.
    SimdMode,
    /// 3D sampler operation name with its flags and a trailing dot: `sample_lz.`, `load_3d.pixel_null_mask.`.
    SamplerOp3d,
    /// `gather4_3d` source channel: R, G, B or A.
    SingleChannel,
    /// `info_3d` operation, with `.channels` for resinfo and sampleinfo.
    InfoOp,
    /// `sample_unorm` output format from bits 4-5.
    UnormFormat,
    AvsControl,
    AvsExecMode,
    /// `rt_write_3d` mode flags: `.<RTI><A>...`.
    RtWriteMode,
    /// `fence` mask: `_sw`, `_global`, `_local.EI`.
    Fence,
    /// `sbarrier` mode: `.signal` / `.wait`.
    SplitBarrier,
    /// `lifetime` direction: `start` / `end`.
    Lifetime,
    /// `lifetime` target, a variable, address or predicate by the class bits.
    LifetimeTarget,
    /// `addr_add` source 0: an address register or `&var[byte offset]`.
    AddressOf,
    /// `raw_send` / `raw_sendc` by the modifier.
    RawSend,
    /// `raw_sends.` / `raw_sendsc.` by modifier bit 0.
    RawSends,
    /// `eot.` when modifier bit 1 is set.
    EndOfThread,
    /// SVM block properties: `.unaligned` and ` (N)` owords.
    SvmBlock,
    /// SVM gather/scatter block type: 1, 4 or 8 bytes.
    SvmBlockType,
    /// LSC shared function: `.ugm`, `.slm`, ...
    LscSfid,
    /// LSC L1/L3 caching on field `l1` (reads `l3` too): nothing when both default, else `.ca.ca`.
    LscCaching,
    /// LSC data operand: raw register (offset only when not 0), `:d32x4t`, `:d32.xyzw` for quads;
    /// also sets the data size, order, vector length and channel mask fields.
    LscData,
    /// LSC untyped address on field `addr_type`: `bti(0x2)[0x4*V12+0x10, pitch]:a32`;
    /// also sets surface, scale, src0, offset, pitch and address size.
    LscAddress,
    /// LSC typed address: `bti(0x2)[u, v, r, lod]:a32`.
    LscTypedAddress,
    /// LSC block2d data operand: `V12:d16.2x16x8nn`.
    LscData2d,
    /// LSC block2d address on field `surface_base`: `flat[base, width, height, pitch, x, y]`.
    LscBlock2dAddress,
    /// A raw operand without leading space, its offset only when not 0.
    LscRaw,
    /// The surface of `lsc_read_state_info`: `bti(0x4)`.
    LscSurface,
    LscFenceOp,
    LscScope,
    /// `bfn` boolean function: `x` and the table in hex (`.xd8`).
    BfnControl,
    /// `dpas` precisions and shape from the packed field: `.bf.bf.8.8` (W, A, depth, repeat).
    DpasInfo,
    /// A vector operand without its region (`dpas` src2).
    NoRegion,
    /// `nbarrier` thread count: shown only when signalling.
    WhenSignal,
    /// `raw_sendg.` / `raw_sendg_eot.` / `raw_sendgc.` / `raw_sendgc_eot.` by modifier bits
    /// 0 (conditional) and 1 (EOT).
    RawSendg,
    /// A number in hex with upper-case digits: `0xF`.
    HexUpper,
    /// The 64-bit `raw_sendg` descriptor on field `desc_lo` (reads `desc_hi` too): `0x2000000`.
    Descriptor64,
    /// `lfsr` function control: `b32`, `b16v2`, `b8v4`.
    LfsrControl,
    /// `dnscl` conversion type: `bftoe2m1`, ...
    DnsclConversion,
    /// `dnscl` mode: `mode0`-`mode3`.
    DnsclMode,
    /// `dnscl` rounding: `srnd` / `rne`.
    DnsclRounding,
    /// A string-pool entry, bare when it is an identifier, quoted otherwise.
    Symbol,
    /// A sampler index: `S<n>` (hand-written text may use the declared name).
    Sampler,
}

/// One template.
#[derive(Clone, Copy, Debug)]
pub struct Syntax {
    /// The first version whose IGC prints this form (later entries override earlier ones).
    pub since: Version,
    pub opcode: Opcode,
    /// The sub-opcode, for families; `None` matches any (the template uses `{MN}`).
    pub subop: Option<u8>,
    pub template: &'static str,
}

const V30: Version = Version::new(3, 0);
const V40: Version = Version::new(4, 0);

const fn t(opcode: Opcode, template: &'static str) -> Syntax {
    Syntax {
        since: V30,
        opcode,
        subop: None,
        template,
    }
}
const fn ts(opcode: Opcode, subop: u8, template: &'static str) -> Syntax {
    Syntax {
        since: V30,
        opcode,
        subop: Some(subop),
        template,
    }
}
/// A form IGC prints from vISA 4.0 (IGC 1.0.12504) on.
const fn t4(opcode: Opcode, template: &'static str) -> Syntax {
    Syntax {
        since: V40,
        opcode,
        subop: None,
        template,
    }
}
const fn ts4(opcode: Opcode, subop: u8, template: &'static str) -> Syntax {
    Syntax {
        since: V40,
        opcode,
        subop: Some(subop),
        template,
    }
}

/// Templates for instructions whose syntax is not the class default.
pub static SYNTAX: &[Syntax] = &[
    t(Opcode::CMP, "{P}cmp{relop:Relop}{SAT} {E}{*}"),
    t(Opcode::FMINMAX, "{P}{op:MinMax}{SAT} {E}{*}"),
    t(Opcode::ADDR_ADD, "{MN}{SAT} {E}{dst}{src0:AddressOf}{src1}"),
    t(Opcode::GOTO, "{P}goto {E} {label:Label}"),
    // sync
    t(Opcode::BARRIER, "barrier"),
    t(Opcode::SAMPLR_CACHE_FLUSH, "sampler_cache_flush"),
    t(Opcode::YIELD, "yield"),
    t(Opcode::WAIT, "wait{mask}"),
    t(Opcode::FENCE, "fence{mask:Fence}"),
    t(Opcode::SBARRIER, "sbarrier{mode:SplitBarrier}"),
    t(Opcode::NBARRIER, "nbarrier"),
    // vISA 4.2 (IGC 2.x): no corpus sample shows these; the forms follow IGC 2.x's
    // common printer (predicate, mnemonic, .sat, exec size, operands).
    t(Opcode::BREAKPOINT, "breakpoint"),
    t4(Opcode::NBARRIER, "nbarrier{mode:SplitBarrier}{id}{thread_count:WhenSignal}"),
    t(Opcode::BFN, "{P}bfn.{func_ctrl:BfnControl}{SAT} {E}{dst}{src0}{src1}{src2}"),
    t(Opcode::DPAS, "{P}dpas{precision_info:DpasInfo} {E}{dst}{src0}{src1}{src2:NoRegion}"),
    t(Opcode::DPASW, "{P}dpasw{precision_info:DpasInfo} {E}{dst}{src0}{src1}{src2:NoRegion}"),
    // vISA 4.2 forms of IGC 2.x's printer (`IsaDisassembly.cpp`), which its grammar
    // (`CISA.y`) reads back.
    t(
        Opcode::RAW_SENDG,
        "{P}{modifier:RawSendg}{sfid:HexUpper} {E}{dst}/{dst_len}{src0}/{src0_len}{src1}/{src1_len}{ind0}{ind1} {desc_lo:Descriptor64}",
    ),
    t(Opcode::SHFL_IDX4, "{P}shfl_idx4 {E}{dst}{src0}{src1}"),
    t(Opcode::LFSR, "{P}lfsr.{func_ctrl:LfsrControl}{SAT} {E}{dst}{src0}{src1}"),
    t(
        Opcode::BDPAS,
        "{P}bdpas{precision_info:DpasInfo} {E}{dst}{src0}{src1}{src2}{src3:NoRegion}{src4:NoRegion}",
    ),
    t(
        Opcode::DNSCL,
        "{P}dnscl.{conversion:DnsclConversion}.{mode:DnsclMode}.{rounding:DnsclRounding} {E}{dst}{src0}{src1}{src2}",
    ),
    // control flow (func and label are structural: see the printer)
    t(Opcode::JMP, "{P}jmp {E} {label:CallTarget}"),
    t(Opcode::CALL, "{P}call {E} {label:CallTarget}"),
    t(Opcode::RET, "{P}ret {E}"),
    t(Opcode::FRET, "{P}fret {E}"),
    t(Opcode::FCALL, "{P}fcall {E} {function:Str} {arg_size} {ret_size}"),
    t(Opcode::IFCALL, "{P}ifcall {E}{function_addr} {arg_size} {ret_size}"),
    t(Opcode::FADDR, "faddr {function:Str}{dst}"),
    t4(Opcode::FADDR, "faddr {function:Symbol}{dst}"),
    t(Opcode::SWITCHJMP, "{P}switchjmp {E}{index} {labels:LabelList}"),
    // SVM (IGC never prints their predicate)
    ts(Opcode::SVM, 1, "svm_block_ld{properties:SvmBlock}{address}{dst}"),
    ts(Opcode::SVM, 2, "svm_block_st{properties:SvmBlock}{address}{src}"),
    ts(Opcode::SVM, 3, "svm_gather.{block_type:SvmBlockType}.{num_blocks:Blocks} {E}{addresses}{dst}"),
    ts(Opcode::SVM, 4, "svm_scatter.{block_type:SvmBlockType}.{num_blocks:Blocks} {E}{addresses}{src}"),
    ts(Opcode::SVM, 5, "svm_atomic{op:Atomic} {E}{addresses}{dst}{src0}{src1}"),
    ts(Opcode::SVM, 6, "svm_gather4scaled.{chmask:Channels} {E}{address}{offsets}{dst}"),
    ts(Opcode::SVM, 7, "svm_scatter4scaled.{chmask:Channels} {E}{address}{offsets}{src}"),
    // IGC 1.0.12504 prints the SVM predicate.
    ts4(Opcode::SVM, 1, "{P}svm_block_ld{properties:SvmBlock}{address}{dst}"),
    ts4(Opcode::SVM, 2, "{P}svm_block_st{properties:SvmBlock}{address}{src}"),
    ts4(Opcode::SVM, 3, "{P}svm_gather.{block_type:SvmBlockType}.{num_blocks:Blocks} {E}{addresses}{dst}"),
    ts4(Opcode::SVM, 4, "{P}svm_scatter.{block_type:SvmBlockType}.{num_blocks:Blocks} {E}{addresses}{src}"),
    ts4(Opcode::SVM, 5, "{P}svm_atomic{op:Atomic} {E}{addresses}{dst}{src0}{src1}"),
    ts4(Opcode::SVM, 6, "{P}svm_gather4scaled.{chmask:Channels} {E}{address}{offsets}{dst}"),
    ts4(Opcode::SVM, 7, "{P}svm_scatter4scaled.{chmask:Channels} {E}{address}{offsets}{src}"),
    // data port
    t(
        Opcode::MEDIA_LD,
        "media_ld.{modifier:MediaLdModifier} ({block_width},{block_height}) {surface:Surface} {plane}{x_offset}{y_offset}{dst}",
    ),
    t(
        Opcode::MEDIA_ST,
        "media_st.{modifier:MediaStModifier} ({block_width},{block_height}) {surface:Surface} {plane}{x_offset}{y_offset}{src}",
    ),
    t(Opcode::OWORD_LD, "oword_ld{modifier:Modified} ({size:Owords}) {surface:Surface}{offset}{dst}"),
    t(Opcode::OWORD_LD_UNALIGNED, "oword_ld_unaligned{modifier:Modified} ({size:Owords}) {surface:Surface}{offset}{dst}"),
    t(Opcode::OWORD_ST, "oword_st ({size:Owords}) {surface:Surface}{offset}{src}"),
    t(
        Opcode::GATHER,
        "gather{modifier:Modified}.{elt_size:EltSize} {num_elts:GatherExec}{modifier:Modified} {surface:Surface}{global_offset}{element_offset}{dst}",
    ),
    t(Opcode::SCATTER, "scatter.{elt_size:EltSize} {num_elts:GatherExec} {surface:Surface}{global_offset}{element_offset}{src}"),
    t(Opcode::GATHER4_TYPED, "gather4_typed.{chmask:Channels} {E} {surface:Surface}{u}{v}{r}{lod}{dst}"),
    t(Opcode::SCATTER4_TYPED, "scatter4_typed.{chmask:Channels} {E} {surface:Surface}{u}{v}{r}{lod}{src}"),
    t(Opcode::GATHER4_SCALED, "{P}gather4_scaled.{chmask:Channels} {E} {surface:Surface}{global_offset}{offsets}{dst}"),
    t(Opcode::SCATTER4_SCALED, "{P}scatter4_scaled.{chmask:Channels} {E} {surface:Surface}{global_offset}{offsets}{src}"),
    t(Opcode::GATHER_SCALED, "{P}gather_scaled.{num_blocks:Blocks} {E} {surface:Surface}{global_offset}{offsets}{dst}"),
    t(Opcode::SCATTER_SCALED, "{P}scatter_scaled.{num_blocks:Blocks} {E} {surface:Surface}{global_offset}{offsets}{src}"),
    t(Opcode::RT_WRITE_3D, "{P}rt_write_3d{mode:RtWriteMode} {E} {surface:Surface}{*}"),
    t(Opcode::DWORD_ATOMIC, "{P}dword_atomic{op:Atomic} {E} {surface:Surface}{offsets}{src0}{src1}{dst}"),
    t(Opcode::TYPED_ATOMIC, "{P}typed_atomic{op:Atomic} {E} {surface:Surface}{u}{v}{r}{lod}{src0}{src1}{dst}"),
    t(Opcode::QW_GATHER, "{P}qw_gather.{num_blocks:Blocks} {E} {surface:Surface}{offsets}{dst}"),
    t(Opcode::QW_SCATTER, "{P}qw_scatter.{num_blocks:Blocks} {E} {surface:Surface}{offsets}{src}"),
    // sampler
    t(Opcode::SAMPLE, "sample.{mode:Channels} ({mode:SimdMode}) {sampler:Sampler} {surface:Surface}{u}{v}{r}{dst}"),
    t(Opcode::LOAD, "load.{mode:Channels} ({mode:SimdMode}) {surface:Surface}{u}{v}{r}{dst}"),
    t(Opcode::SAMPLE_3D, "{P}{op:SamplerOp3d}{chmask:Channels} {E} {aoffimmi} {sampler:Sampler} {surface:Surface}{dst}{params}"),
    t(Opcode::LOAD_3D, "{P}{op:SamplerOp3d}{chmask:Channels} {E} {aoffimmi} {surface:Surface}{dst}{params}"),
    t(Opcode::GATHER4_3D, "{P}{op:SamplerOp3d}{channel:SingleChannel} {E}{aoffimmi} {sampler:Sampler} {surface:Surface}{dst}{params}"),
    t(Opcode::INFO_3D, "{op:InfoOp} {E}  {surface:Surface}{lod}{dst}"),
    t(
        Opcode::SAMPLE_UNORM,
        "sample_unorm.{chmask:Channels}.{chmask:UnormFormat} {sampler:Sampler} {surface:Surface}{u_offset}{v_offset}{delta_u}{delta_v}{dst}",
    ),
    t(
        Opcode::AVS,
        "avs.{chmask:Channels} {surface:Surface} {sampler:Sampler}{u_offset}{v_offset}{delta_u}{delta_v}{u2d}{group_id}{vertical_block_number} {cntrl:AvsControl}{v2d} {exec_mode:AvsExecMode}{ief_bypass}{dst}",
    ),
    // misc
    t(Opcode::FILE, "FILE {file:Quoted}"),
    t(Opcode::LOC, "LOC {line}"),
    t(Opcode::RAW_SEND, "{P}{modifier:RawSend} {E} {ex_desc:Hex} {num_src} {num_dst} {desc}{src}{dst}"),
    t(
        Opcode::RAW_SENDS,
        "{P}{modifier:RawSends}{sfid}.{modifier:EndOfThread}{num_src0}.{num_src1}.{num_dst} {E} {ex_desc}{desc}{src0}{src1}{dst}",
    ),
    t(Opcode::VME_FBR, "vme_fbr ({fbr_mb_mode},{fbr_sub_mb_shape},{fbr_sub_pred_mode}) T{surface} {uni_input}{fbr_input}{dst}"),
    t(Opcode::VME_IME, "vme_ime({stream_mode},{search_ctrl}) T{surface} {uni_input}{ime_input}{ref0}{ref1}{cost_center}{dst}"),
    t(Opcode::VME_SIC, "vme_sic T{surface} {uni_input}{sic_input}{dst}"),
    t(Opcode::VME_IDM, "vme_idm T{surface} {uni_input}{idm_input}{dst}"),
    t(Opcode::URB_WRITE_3D, "{P}urb_write_3d {E} {num_out} {global_offset}{channel_mask}{urb_handle}{per_slot_offset}{vertex_data}"),
    t(Opcode::LIFETIME, "lifetime.{properties:Lifetime} {var:LifetimeTarget}"),
];

/// Forms the parser also accepts, for text written by hand or by older tools.
/// `raw_sends` without its SFID takes the SFID from the immediate extended descriptor
/// (bits 0-3), as IGC's assembler does; the printer uses this form for `raw_sendsc`,
/// the only one IGC's assembler reads for it.
pub static ALTERNATE_SYNTAX: &[Syntax] = &[t(
    Opcode::RAW_SENDS,
    "{P}{modifier:RawSends}{modifier:EndOfThread}{num_src0}.{num_src1}.{num_dst} {E} {ex_desc}{desc}{src0}{src1}{dst}",
)];

/// The class default: predicate, mnemonic, saturation, exec size, then every field.
pub const DEFAULT_SYNTAX: &str = "{P}{MN}{SAT} {E}{*}";
/// Families without a dedicated template (VA, VA+, LSC): mnemonic, exec size, fields.
pub const FAMILY_SYNTAX: &str = "{P}{MN} {E}{*}";

const LSC_UNTYPED_LOAD: &str =
    "{P}{MN}{sfid:LscSfid}{l1:LscCaching} {E}  {dst:LscData}  {addr_type:LscAddress}";
const LSC_UNTYPED_STORE: &str =
    "{P}{MN}{sfid:LscSfid}{l1:LscCaching} {E}  {addr_type:LscAddress}  {src1:LscData}";
const LSC_UNTYPED_ATOMIC: &str =
    "{P}{MN}{sfid:LscSfid}{l1:LscCaching} {E}  {dst:LscData}  {addr_type:LscAddress}  {src1:LscRaw}  {src2:LscRaw}";
const LSC_BLOCK2D_LOAD: &str =
    "{P}{MN}{sfid:LscSfid}{l1:LscCaching} {E}  {dst:LscData2d}  {surface_base:LscBlock2dAddress}";
const LSC_BLOCK2D_STORE: &str =
    "{P}{MN}{sfid:LscSfid}{l1:LscCaching} {E}  {surface_base:LscBlock2dAddress}  {src1:LscData2d}";
const LSC_TYPED_LOAD: &str =
    "{P}{MN}.tgm{l1:LscCaching} {E}  {dst:LscData}  {addr_type:LscTypedAddress}";
const LSC_TYPED_STORE: &str =
    "{P}{MN}.tgm{l1:LscCaching} {E}  {addr_type:LscTypedAddress}  {src1:LscData}";
const LSC_TYPED_ATOMIC: &str =
    "{P}{MN}.tgm{l1:LscCaching} {E}  {dst:LscData}  {addr_type:LscTypedAddress}  {src1:LscRaw}  {src2:LscRaw}";
const LSC_READ_STATE_INFO: &str =
    "{P}{MN}.tgm{l1:LscCaching}  {dst:LscRaw}  {addr_type:LscSurface}";
const LSC_FENCE: &str = "{P}lsc_fence{sfid:LscSfid}{fence_op:LscFenceOp}{scope:LscScope}";

/// LSC templates: the operation's kind decides whether data or address comes first.
fn lsc_syntax(opcode: Opcode, subop: u8) -> &'static str {
    use super::names::{lsc_kind, LscKind};
    match (opcode, subop, lsc_kind(subop)) {
        (Opcode::LSC_UNTYPED, 0x03, _) => LSC_BLOCK2D_LOAD,
        (Opcode::LSC_UNTYPED, 0x07, _) => LSC_BLOCK2D_STORE,
        (Opcode::LSC_UNTYPED, _, LscKind::Load) => LSC_UNTYPED_LOAD,
        (Opcode::LSC_UNTYPED, _, LscKind::Store) => LSC_UNTYPED_STORE,
        (Opcode::LSC_UNTYPED, _, LscKind::Atomic) => LSC_UNTYPED_ATOMIC,
        (_, 0x1E, _) => LSC_READ_STATE_INFO,
        (_, _, LscKind::Load) => LSC_TYPED_LOAD,
        (_, _, LscKind::Store) => LSC_TYPED_STORE,
        (_, _, LscKind::Atomic) => LSC_TYPED_ATOMIC,
    }
}

/// The template for an opcode (and sub-opcode) as the IGC that writes `version` prints it.
pub fn syntax(opcode: Opcode, subop: Option<u8>, version: Version) -> &'static str {
    if opcode == Opcode::LSC_FENCE {
        return LSC_FENCE;
    }
    if let (Opcode::LSC_UNTYPED | Opcode::LSC_TYPED, Some(s)) = (opcode, subop) {
        return lsc_syntax(opcode, s);
    }
    // The last matching entry wins: later entries are newer releases' forms.
    syntax_rows(opcode)
        .iter()
        .rev()
        .map(|&i| &SYNTAX[i as usize])
        .find(|s| (s.subop.is_none() || s.subop == subop) && s.since <= version)
        .map(|s| s.template)
        .unwrap_or(if opcode.has_subop() {
            FAMILY_SYNTAX
        } else {
            DEFAULT_SYNTAX
        })
}

/// The rows of [`SYNTAX`] for one opcode, in table order: an index built once, so a
/// lookup scans an opcode's few rows, not the table.
fn syntax_rows(opcode: Opcode) -> &'static [u16] {
    static ROWS: std::sync::OnceLock<Vec<Vec<u16>>> = std::sync::OnceLock::new();
    let rows = ROWS.get_or_init(|| {
        let mut rows = vec![Vec::new(); 256];
        for (i, s) in SYNTAX.iter().enumerate() {
            rows[s.opcode.0 as usize].push(i as u16);
        }
        rows
    });
    &rows[opcode.0 as usize]
}

/// Every (opcode, sub-opcode, template) triple of a version, for the parser's lookup.
pub fn all_syntax(version: Version) -> impl Iterator<Item = (Opcode, Option<u8>, &'static str)> {
    super::table::OPCODES.iter().flat_map(move |info| {
        let op = Opcode(info.code);
        let subs: Vec<Option<u8>> = if op.has_subop() {
            op.subops().map(|(s, _)| Some(s)).collect()
        } else {
            vec![None]
        };
        subs.into_iter()
            .map(move |s| (op, s, syntax(op, s, version)))
    })
}
