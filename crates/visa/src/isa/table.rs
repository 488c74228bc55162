//! THE description of the vISA instruction set: every opcode's mnemonic, class and
//! operand layout (per sub-opcode where the layout depends on one), with the version
//! gates of older files. The binary reader and writer both walk these tables; the
//! text side and the verifier read them too. A new opcode is one row here.
//!
//! Layouts follow IGC 1.0.12504's binary reader (`ByteCodeReaderNG.cpp`) for vISA 4.1
//! and its compatibility gates for 3.x; see `specs/visa-binary-facts.md` section 5 for
//! where IGC's own description tables disagree with its reader.

use super::layout::{f, when, Class, Cond, Field, FieldKind::*, Layout};
use crate::version::Version;

const E: Field = f("exec", Exec);
const P: Field = f("pred", Pred);
const fn v(name: &'static str) -> Field {
    f(name, Vector)
}
const fn r(name: &'static str) -> Field {
    f(name, Raw)
}
const fn b(name: &'static str) -> Field {
    f(name, U8)
}
const fn w(name: &'static str) -> Field {
    f(name, U16)
}
const fn d(name: &'static str) -> Field {
    f(name, U32)
}
const V3_1: Version = Version::new(3, 1);
const V3_2: Version = Version::new(3, 2);
const V3_6: Version = Version::new(3, 6);

// ---- common (Mov, Arith, Logic, Compare, Address) ----
const UNARY: &[Field] = &[E, P, v("dst"), v("src0")];
const BINARY: &[Field] = &[E, P, v("dst"), v("src0"), v("src1")];
const TERNARY: &[Field] = &[E, P, v("dst"), v("src0"), v("src1"), v("src2")];
const QUATERNARY: &[Field] = &[E, P, v("dst"), v("src0"), v("src1"), v("src2"), v("src3")];
const CARRY: &[Field] = &[E, P, v("dst"), v("carry"), v("src0"), v("src1")];
const SRND: &[Field] = &[E, v("dst"), v("src0"), v("src1")];
const UNPREDICATED_UNARY: &[Field] = &[E, v("dst"), v("src0")];
const BFN: &[Field] = &[
    E,
    P,
    v("dst"),
    v("src0"),
    v("src1"),
    v("src2"),
    b("func_ctrl"),
];
const ADDR_ADD: &[Field] = &[E, v("dst"), v("src0"), v("src1")];
const CMP: &[Field] = &[E, b("relop"), v("dst"), v("src0"), v("src1")];
const FMINMAX: &[Field] = &[E, b("op"), v("dst"), v("src0"), v("src1")];
const DPAS: &[Field] = &[
    E,
    r("dst"),
    r("src0"),
    r("src1"),
    v("src2"),
    d("precision_info"),
];

// ---- control flow ----
const LABEL: &[Field] = &[f("label", Label)];
const BRANCH: &[Field] = &[E, P, f("label", Label)];
const RET: &[Field] = &[E, P];
const FCALL: &[Field] = &[E, P, w("function"), b("arg_size"), b("ret_size")];
const IFCALL: &[Field] = &[E, P, v("function_addr"), b("arg_size"), b("ret_size")];
const FADDR: &[Field] = &[w("function"), v("dst")];
const SWITCHJMP: &[Field] = &[E, b("num_labels"), v("index"), f("labels", LabelList(1))];

// ---- data port ----
const OWORD_LD: &[Field] = &[
    b("size"),
    b("modifier"),
    b("surface"),
    v("offset"),
    r("dst"),
];
const OWORD_ST: &[Field] = &[b("size"), b("surface"), v("offset"), r("src")];
const MEDIA_LD: &[Field] = &[
    b("modifier"),
    b("surface"),
    b("plane"),
    b("block_width"),
    b("block_height"),
    v("x_offset"),
    v("y_offset"),
    r("dst"),
];
const MEDIA_ST: &[Field] = &[
    b("modifier"),
    b("surface"),
    b("plane"),
    b("block_width"),
    b("block_height"),
    v("x_offset"),
    v("y_offset"),
    r("src"),
];
const GATHER: &[Field] = &[
    b("elt_size"),
    b("modifier"),
    b("num_elts"),
    b("surface"),
    v("global_offset"),
    r("element_offset"),
    r("dst"),
];
const SCATTER: &[Field] = &[
    b("elt_size"),
    b("num_elts"),
    b("surface"),
    v("global_offset"),
    r("element_offset"),
    r("src"),
];
/// Before vISA 3.2 the channel mask came first and there was neither predicate nor LOD.
const GATHER4_TYPED: &[Field] = &[
    when("chmask", U8, Cond::Before(V3_2)),
    E,
    when("pred", Pred, Cond::Since(V3_2)),
    when("chmask", U8, Cond::Since(V3_2)),
    b("surface"),
    r("u"),
    r("v"),
    r("r"),
    when("lod", Raw, Cond::Since(V3_2)),
    r("dst"),
];
const SCATTER4_TYPED: &[Field] = &[
    when("chmask", U8, Cond::Before(V3_2)),
    E,
    when("pred", Pred, Cond::Since(V3_2)),
    when("chmask", U8, Cond::Since(V3_2)),
    b("surface"),
    r("u"),
    r("v"),
    r("r"),
    when("lod", Raw, Cond::Since(V3_2)),
    r("src"),
];
/// Optional operands follow the mode bits (field 2).
const RT_WRITE_3D: &[Field] = &[
    E,
    P,
    w("mode"),
    b("surface"),
    r("header"),
    when(
        "sample_index",
        Vector,
        Cond::Bits {
            field: 2,
            mask: 1 << 11,
        },
    ),
    when(
        "cps_counter",
        Vector,
        Cond::Bits {
            field: 2,
            mask: 1 << 8,
        },
    ),
    when(
        "rt_index",
        Vector,
        Cond::Bits {
            field: 2,
            mask: 1 << 2,
        },
    ),
    when(
        "s0a",
        Raw,
        Cond::Bits {
            field: 2,
            mask: 1 << 3,
        },
    ),
    when(
        "oM",
        Raw,
        Cond::Bits {
            field: 2,
            mask: 1 << 4,
        },
    ),
    r("R"),
    r("G"),
    r("B"),
    r("A"),
    when(
        "Z",
        Raw,
        Cond::Bits {
            field: 2,
            mask: 1 << 5,
        },
    ),
    when(
        "S",
        Raw,
        Cond::Bits {
            field: 2,
            mask: 1 << 6,
        },
    ),
];
const TYPED_ATOMIC: &[Field] = &[
    b("op"),
    E,
    P,
    b("surface"),
    r("u"),
    r("v"),
    r("r"),
    r("lod"),
    r("src0"),
    r("src1"),
    r("dst"),
];
const GATHER4_SCALED: &[Field] = &[
    E,
    P,
    b("chmask"),
    w("scale"),
    b("surface"),
    v("global_offset"),
    r("offsets"),
    r("dst"),
];
const SCATTER4_SCALED: &[Field] = &[
    E,
    P,
    b("chmask"),
    w("scale"),
    b("surface"),
    v("global_offset"),
    r("offsets"),
    r("src"),
];
const GATHER_SCALED: &[Field] = &[
    E,
    P,
    b("block_size"),
    b("num_blocks"),
    w("scale"),
    b("surface"),
    v("global_offset"),
    r("offsets"),
    r("dst"),
];
const SCATTER_SCALED: &[Field] = &[
    E,
    P,
    b("block_size"),
    b("num_blocks"),
    w("scale"),
    b("surface"),
    v("global_offset"),
    r("offsets"),
    r("src"),
];
const DWORD_ATOMIC: &[Field] = &[
    b("op"),
    E,
    P,
    b("surface"),
    r("offsets"),
    r("src0"),
    r("src1"),
    r("dst"),
];
const QW_GATHER: &[Field] = &[E, P, b("num_blocks"), b("surface"), r("offsets"), r("dst")];
const QW_SCATTER: &[Field] = &[E, P, b("num_blocks"), b("surface"), r("offsets"), r("src")];

// ---- sampler ----
const SAMPLE: &[Field] = &[
    b("mode"),
    b("sampler"),
    b("surface"),
    r("u"),
    r("v"),
    r("r"),
    r("dst"),
];
const SAMPLE_UNORM: &[Field] = &[
    b("chmask"),
    b("sampler"),
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    v("delta_u"),
    v("delta_v"),
    r("dst"),
];
const LOAD: &[Field] = &[b("mode"), b("surface"), r("u"), r("v"), r("r"), r("dst")];
const AVS: &[Field] = &[
    b("chmask"),
    b("sampler"),
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    v("delta_u"),
    v("delta_v"),
    v("u2d"),
    v("group_id"),
    v("vertical_block_number"),
    b("cntrl"),
    v("v2d"),
    b("exec_mode"),
    v("ief_bypass"),
    r("dst"),
];
const SAMPLE_3D: &[Field] = &[
    f("op", SamplerOp),
    E,
    P,
    b("chmask"),
    f("aoffimmi", Aoffimmi),
    b("sampler"),
    b("surface"),
    r("dst"),
    b("num_params"),
    f("params", RawList(8)),
];
const LOAD_3D: &[Field] = &[
    f("op", SamplerOp),
    E,
    P,
    b("chmask"),
    f("aoffimmi", Aoffimmi),
    b("surface"),
    r("dst"),
    b("num_params"),
    f("params", RawList(7)),
];
const GATHER4_3D: &[Field] = &[
    f("op", SamplerOp),
    E,
    P,
    b("channel"),
    f("aoffimmi", Aoffimmi),
    b("sampler"),
    b("surface"),
    r("dst"),
    b("num_params"),
    f("params", RawList(8)),
];
/// `resinfo` (op 10) carries a LOD operand; `sampleinfo` does not.
const INFO_3D: &[Field] = &[
    b("op"),
    E,
    b("chmask"),
    b("surface"),
    when(
        "lod",
        Raw,
        Cond::Equals {
            field: 0,
            value: 10,
        },
    ),
    r("dst"),
];

// ---- misc ----
const FILE: &[Field] = &[f("file", WideId)];
const LOC: &[Field] = &[d("line")];
const VME_IME: &[Field] = &[
    b("stream_mode"),
    b("search_ctrl"),
    r("uni_input"),
    r("ime_input"),
    b("surface"),
    r("ref0"),
    r("ref1"),
    r("cost_center"),
    r("dst"),
];
const VME_SIC: &[Field] = &[r("uni_input"), r("sic_input"), b("surface"), r("dst")];
const VME_FBR: &[Field] = &[
    r("uni_input"),
    r("fbr_input"),
    b("surface"),
    v("fbr_mb_mode"),
    v("fbr_sub_mb_shape"),
    v("fbr_sub_pred_mode"),
    r("dst"),
];
const VME_IDM: &[Field] = &[r("uni_input"), r("idm_input"), b("surface"), r("dst")];
const RAW_SEND: &[Field] = &[
    b("modifier"),
    E,
    P,
    d("ex_desc"),
    b("num_src"),
    b("num_dst"),
    v("desc"),
    r("src"),
    r("dst"),
];
/// The SFID byte exists from vISA 3.6 on.
const RAW_SENDS: &[Field] = &[
    b("modifier"),
    E,
    P,
    b("num_src0"),
    b("num_src1"),
    b("num_dst"),
    when("sfid", U8, Cond::Since(V3_6)),
    v("ex_desc"),
    v("desc"),
    r("src0"),
    r("src1"),
    r("dst"),
];
const URB_WRITE_3D: &[Field] = &[
    E,
    P,
    b("num_out"),
    r("channel_mask"),
    w("global_offset"),
    r("urb_handle"),
    r("per_slot_offset"),
    r("vertex_data"),
];
const LIFETIME: &[Field] = &[b("properties"), f("var", WideId)];

// ---- sync ----
const NONE: &[Field] = &[];
const WAIT: &[Field] = &[when("mask", Vector, Cond::Since(V3_1))];
const FENCE: &[Field] = &[b("mask")];
const NBARRIER: &[Field] = &[b("mode"), v("id"), v("thread_count")];
const SBARRIER: &[Field] = &[b("mode")];
const LSC_FENCE: &[Field] = &[E, P, b("sfid"), b("fence_op"), b("scope")];

// ---- SVM sub-opcodes ----
const SVM_BLOCK_LD: &[Field] = &[b("properties"), v("address"), r("dst")];
const SVM_BLOCK_ST: &[Field] = &[b("properties"), v("address"), r("src")];
const SVM_GATHER: &[Field] = &[
    E,
    P,
    b("block_type"),
    b("num_blocks"),
    r("addresses"),
    r("dst"),
];
const SVM_SCATTER: &[Field] = &[
    E,
    P,
    b("block_type"),
    b("num_blocks"),
    r("addresses"),
    r("src"),
];
const SVM_ATOMIC: &[Field] = &[
    E,
    P,
    b("op"),
    r("addresses"),
    r("src0"),
    r("src1"),
    r("dst"),
];
const SVM_GATHER4_SCALED: &[Field] = &[
    E,
    P,
    b("chmask"),
    w("scale"),
    v("address"),
    r("offsets"),
    r("dst"),
];
const SVM_SCATTER4_SCALED: &[Field] = &[
    E,
    P,
    b("chmask"),
    w("scale"),
    v("address"),
    r("offsets"),
    r("src"),
];

const fn l(mnemonic: &'static str, fields: &'static [Field]) -> Option<Layout> {
    Some(Layout { mnemonic, fields })
}

static SVM: [Option<Layout>; 8] = [
    None,
    l("svm_block_ld", SVM_BLOCK_LD),
    l("svm_block_st", SVM_BLOCK_ST),
    l("svm_gather", SVM_GATHER),
    l("svm_scatter", SVM_SCATTER),
    l("svm_atomic", SVM_ATOMIC),
    l("svm_gather4_scaled", SVM_GATHER4_SCALED),
    l("svm_scatter4_scaled", SVM_SCATTER4_SCALED),
];

// ---- VA (0x44) and VA+ (0x4D) sub-opcodes ----
const VA_CONVOLVE: &[Field] = &[
    b("sampler"),
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    b("properties"),
    r("dst"),
];
const VA_MINMAX: &[Field] = &[
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    v("mmf_mode"),
    r("dst"),
];
const VA_MINMAXFILTER: &[Field] = &[
    b("sampler"),
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    b("cntrl"),
    b("exec_mode"),
    v("mmf_mode"),
    r("dst"),
];
const VA_ERODE_DILATE: &[Field] = &[
    b("sampler"),
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    b("exec_mode"),
    r("dst"),
];
const VA_BOOLCENTROID: &[Field] = &[
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    v("v_size"),
    v("h_size"),
    r("dst"),
];
const VA_CENTROID: &[Field] = &[
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    v("v_size"),
    r("dst"),
];

static VA: [Option<Layout>; 8] = [
    None,
    l("va_convolve_2d", VA_CONVOLVE),
    l("va_minmax", VA_MINMAX),
    l("va_minmaxfilter", VA_MINMAXFILTER),
    l("va_erode", VA_ERODE_DILATE),
    l("va_dilate", VA_ERODE_DILATE),
    l("va_boolcentroid", VA_BOOLCENTROID),
    l("va_centroid", VA_CENTROID),
];

const VAP_CONVOLVE_1D: &[Field] = &[
    b("sampler"),
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    b("mode"),
    r("dst"),
];
const VAP_CONVOLVE_1PIXEL: &[Field] = &[
    b("sampler"),
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    b("mode"),
    r("offsets"),
    r("dst"),
];
const VAP_FLOODFILL: &[Field] = &[
    b("is_8_connect"),
    r("pixel_mask_h_direction"),
    v("pixel_mask_v_direction_left"),
    v("pixel_mask_v_direction_right"),
    v("loop_count"),
    r("dst"),
];
const VAP_LBPCREATION: &[Field] = &[
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    b("mode"),
    r("dst"),
];
const VAP_LBPCORRELATION: &[Field] = &[
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    v("disparity"),
    r("dst"),
];
const VAP_CORRELATIONSEARCH: &[Field] = &[
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    v("vertical_origin"),
    v("horizontal_origin"),
    v("x_direction_size"),
    v("y_direction_size"),
    v("x_direction_search_size"),
    v("y_direction_search_size"),
    r("dst"),
];
const HDC_CONVOLVE: &[Field] = &[
    b("sampler"),
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    b("properties"),
    b("dst_surface"),
    v("dst_x_offset"),
    v("dst_y_offset"),
];
const HDC_MMF: &[Field] = &[
    b("sampler"),
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    b("pixel_size"),
    b("mmf_mode"),
    b("dst_surface"),
    v("dst_x_offset"),
    v("dst_y_offset"),
];
const HDC_ERODE_DILATE: &[Field] = &[
    b("sampler"),
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    b("dst_surface"),
    v("dst_x_offset"),
    v("dst_y_offset"),
];
const HDC_LBPCORRELATION: &[Field] = &[
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    v("disparity"),
    b("dst_surface"),
    v("dst_x_offset"),
    v("dst_y_offset"),
];
const HDC_LBPCREATION: &[Field] = &[
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    b("mode"),
    b("dst_surface"),
    v("dst_x_offset"),
    v("dst_y_offset"),
];
const HDC_CONVOLVE_1D: &[Field] = &[
    b("sampler"),
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    b("pixel_size"),
    b("dst_surface"),
    v("dst_x_offset"),
    v("dst_y_offset"),
];
const HDC_CONVOLVE_1PIXEL: &[Field] = &[
    b("sampler"),
    b("surface"),
    v("u_offset"),
    v("v_offset"),
    b("pixel_size"),
    r("offsets"),
    b("dst_surface"),
    v("dst_x_offset"),
    v("dst_y_offset"),
];

static VA_PLUS: [Option<Layout>; 25] = [
    None,
    None,
    None,
    None,
    None,
    None,
    None,
    None,
    l("va_convolve_1d_v", VAP_CONVOLVE_1D),
    l("va_convolve_1d_h", VAP_CONVOLVE_1D),
    l("va_convolve_1pixel", VAP_CONVOLVE_1PIXEL),
    l("va_floodfill", VAP_FLOODFILL),
    l("va_lbpcreation", VAP_LBPCREATION),
    l("va_lbpcorrelation", VAP_LBPCORRELATION),
    None,
    l("va_correlationsearch", VAP_CORRELATIONSEARCH),
    l("va_hdc_convolve_2d", HDC_CONVOLVE),
    l("va_hdc_minmaxfilter", HDC_MMF),
    l("va_hdc_erode", HDC_ERODE_DILATE),
    l("va_hdc_dilate", HDC_ERODE_DILATE),
    l("va_hdc_lbpcorrelation", HDC_LBPCORRELATION),
    l("va_hdc_lbpcreation", HDC_LBPCREATION),
    l("va_hdc_convolve_1d_h", HDC_CONVOLVE_1D),
    l("va_hdc_convolve_1d_v", HDC_CONVOLVE_1D),
    l("va_hdc_convolve_1pixel", HDC_CONVOLVE_1PIXEL),
];

// ---- LSC sub-opcodes (LSC_OP) ----
const LSC_UNTYPED: &[Field] = &[
    E,
    P,
    b("sfid"),
    b("l1"),
    b("l3"),
    b("addr_type"),
    w("imm_scale"),
    f("imm_offset", I32),
    b("addr_size"),
    b("data_size"),
    b("data_order"),
    b("data_elems"),
    b("chmask"),
    v("surface"),
    r("dst"),
    r("src0"),
    r("src1"),
    r("src2"),
];
const LSC_STRIDED: &[Field] = &[
    E,
    P,
    b("sfid"),
    b("l1"),
    b("l3"),
    b("addr_type"),
    w("imm_scale"),
    f("imm_offset", I32),
    b("addr_size"),
    b("data_size"),
    b("data_order"),
    b("data_elems"),
    b("chmask"),
    v("surface"),
    r("dst"),
    r("src0"),
    v("src0_pitch"),
    r("src1"),
];
const LSC_BLOCK2D: &[Field] = &[
    E,
    P,
    b("sfid"),
    b("l1"),
    b("l3"),
    b("data_size"),
    b("data_order"),
    b("blocks"),
    w("block_width"),
    w("block_height"),
    b("vnni"),
    r("dst"),
    v("surface_base"),
    v("surface_width"),
    v("surface_height"),
    v("surface_pitch"),
    v("x"),
    v("y"),
    r("src1"),
];
const LSC_TYPED: &[Field] = &[
    E,
    P,
    b("l1"),
    b("l3"),
    b("addr_type"),
    b("addr_size"),
    b("data_size"),
    b("data_order"),
    b("data_elems"),
    b("chmask"),
    v("surface"),
    r("dst"),
    r("u"),
    r("v"),
    r("r"),
    r("lod"),
    r("src1"),
    r("src2"),
];

/// LSC operation names by `LSC_OP` code.
pub const LSC_OP_NAMES: [&str; 32] = [
    "load",
    "load_strided",
    "load_quad",
    "load_block2d",
    "store",
    "store_strided",
    "store_quad",
    "store_block2d",
    "atomic_iinc",
    "atomic_idec",
    "atomic_load",
    "atomic_store",
    "atomic_iadd",
    "atomic_isub",
    "atomic_smin",
    "atomic_smax",
    "atomic_umin",
    "atomic_umax",
    "atomic_icas",
    "atomic_fadd",
    "atomic_fsub",
    "atomic_fmin",
    "atomic_fmax",
    "atomic_fcas",
    "atomic_and",
    "atomic_or",
    "atomic_xor",
    "load_status",
    "store_uncompressed",
    "ccs_update",
    "read_state_info",
    "fence",
];

macro_rules! lsc_table {
    ($($op:literal => $mn:literal, $fields:ident;)*) => {{
        let mut t: [Option<Layout>; 32] = [None; 32];
        $( t[$op] = l($mn, $fields); )*
        t
    }};
}

static LSC_U: [Option<Layout>; 32] = lsc_table! {
    0x00 => "lsc_load", LSC_UNTYPED;
    0x01 => "lsc_load_strided", LSC_STRIDED;
    0x02 => "lsc_load_quad", LSC_UNTYPED;
    0x03 => "lsc_load_block2d", LSC_BLOCK2D;
    0x04 => "lsc_store", LSC_UNTYPED;
    0x05 => "lsc_store_strided", LSC_STRIDED;
    0x06 => "lsc_store_quad", LSC_UNTYPED;
    0x07 => "lsc_store_block2d", LSC_BLOCK2D;
    0x08 => "lsc_atomic_iinc", LSC_UNTYPED;
    0x09 => "lsc_atomic_idec", LSC_UNTYPED;
    0x0A => "lsc_atomic_load", LSC_UNTYPED;
    0x0B => "lsc_atomic_store", LSC_UNTYPED;
    0x0C => "lsc_atomic_iadd", LSC_UNTYPED;
    0x0D => "lsc_atomic_isub", LSC_UNTYPED;
    0x0E => "lsc_atomic_smin", LSC_UNTYPED;
    0x0F => "lsc_atomic_smax", LSC_UNTYPED;
    0x10 => "lsc_atomic_umin", LSC_UNTYPED;
    0x11 => "lsc_atomic_umax", LSC_UNTYPED;
    0x12 => "lsc_atomic_icas", LSC_UNTYPED;
    0x13 => "lsc_atomic_fadd", LSC_UNTYPED;
    0x14 => "lsc_atomic_fsub", LSC_UNTYPED;
    0x15 => "lsc_atomic_fmin", LSC_UNTYPED;
    0x16 => "lsc_atomic_fmax", LSC_UNTYPED;
    0x17 => "lsc_atomic_fcas", LSC_UNTYPED;
    0x18 => "lsc_atomic_and", LSC_UNTYPED;
    0x19 => "lsc_atomic_or", LSC_UNTYPED;
    0x1A => "lsc_atomic_xor", LSC_UNTYPED;
    0x1B => "lsc_load_status", LSC_UNTYPED;
    0x1C => "lsc_store_uncompressed", LSC_UNTYPED;
    0x1D => "lsc_ccs_update", LSC_UNTYPED;
};

static LSC_T: [Option<Layout>; 32] = lsc_table! {
    0x02 => "lsc_load_quad", LSC_TYPED;
    0x06 => "lsc_store_quad", LSC_TYPED;
    0x08 => "lsc_atomic_iinc", LSC_TYPED;
    0x09 => "lsc_atomic_idec", LSC_TYPED;
    0x0A => "lsc_atomic_load", LSC_TYPED;
    0x0B => "lsc_atomic_store", LSC_TYPED;
    0x0C => "lsc_atomic_iadd", LSC_TYPED;
    0x0D => "lsc_atomic_isub", LSC_TYPED;
    0x0E => "lsc_atomic_smin", LSC_TYPED;
    0x0F => "lsc_atomic_smax", LSC_TYPED;
    0x10 => "lsc_atomic_umin", LSC_TYPED;
    0x11 => "lsc_atomic_umax", LSC_TYPED;
    0x12 => "lsc_atomic_icas", LSC_TYPED;
    0x13 => "lsc_atomic_fadd", LSC_TYPED;
    0x14 => "lsc_atomic_fsub", LSC_TYPED;
    0x15 => "lsc_atomic_fmin", LSC_TYPED;
    0x16 => "lsc_atomic_fmax", LSC_TYPED;
    0x17 => "lsc_atomic_fcas", LSC_TYPED;
    0x18 => "lsc_atomic_and", LSC_TYPED;
    0x19 => "lsc_atomic_or", LSC_TYPED;
    0x1A => "lsc_atomic_xor", LSC_TYPED;
    0x1B => "lsc_load_status", LSC_TYPED;
    0x1C => "lsc_store_uncompressed", LSC_TYPED;
    0x1D => "lsc_ccs_update", LSC_TYPED;
    0x1E => "lsc_read_state_info", LSC_TYPED;
};

/// How an opcode's operands are laid out.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    Fixed(&'static [Field]),
    /// A sub-opcode byte follows the opcode and selects the layout.
    Sub(&'static [Option<Layout>]),
    /// Exists only in vISA 4.2 text, which has no binary form. The fields are those of
    /// IGC 2.x's description table; `None` where gpukit does not model the operands yet.
    TextOnly(Option<&'static [Field]>),
}

/// One row of the opcode table.
#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    pub code: u8,
    pub mnemonic: &'static str,
    pub class: Class,
    pub shape: Shape,
    /// The first version that has this opcode.
    pub since: Version,
}

macro_rules! opcodes {
    ($($code:literal $name:ident $mn:literal $class:ident $shape:expr, $since:expr;)*) => {
        /// An opcode byte. Constants name every real opcode; other values are reserved.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct Opcode(pub u8);

        #[allow(missing_docs)]
        impl Opcode {
            $(pub const $name: Opcode = Opcode($code);)*
        }

        /// Every real opcode, in code order.
        pub static OPCODES: &[OpInfo] = &[
            $(OpInfo { code: $code, mnemonic: $mn, class: Class::$class, shape: $shape, since: $since },)*
        ];
    };
}

const V30: Version = Version::new(3, 0);
const V42: Version = Version::new(4, 2);
use Shape::{Fixed as F, Sub as S, TextOnly as T};

// vISA 4.2 (IGC 2.x) operand layouts, text only.
const INVM: &[Field] = &[E, v("dst"), v("flag"), v("src0"), v("src1")];
const RSQTM: &[Field] = &[E, v("dst"), v("flag"), v("src0")];
// Operand order of IGC 2.x's builder (`VISAKernelImpl::AppendVISA*Inst`), which is the
// order its printer (`IsaDisassembly.cpp`) walks; exec and predicate as in its table.
const RAW_SENDG: &[Field] = &[
    b("modifier"),
    E,
    d("sfid"),
    P,
    r("dst"),
    d("dst_len"),
    r("src0"),
    d("src0_len"),
    r("src1"),
    d("src1_len"),
    v("ind0"),
    v("ind1"),
    d("desc_lo"),
    d("desc_hi"),
];
const SHFL_IDX4: &[Field] = &[E, P, r("dst"), v("src0"), v("src1")];
const LFSR: &[Field] = &[E, P, b("func_ctrl"), v("dst"), v("src0"), v("src1")];
const BDPAS: &[Field] = &[
    E,
    P,
    r("dst"),
    r("src0"),
    r("src1"),
    r("src2"),
    v("src3"),
    v("src4"),
    d("precision_info"),
];
const DNSCL: &[Field] = &[
    E,
    P,
    b("conversion"),
    b("mode"),
    b("rounding"),
    r("dst"),
    r("src0"),
    r("src1"),
    r("src2"),
];

opcodes! {
    0x01 ADD "add" Arith F(BINARY), V30;
    0x02 AVG "avg" Arith F(BINARY), V30;
    0x03 DIV "div" Arith F(BINARY), V30;
    0x04 DP2 "dp2" Arith F(BINARY), V30;
    0x05 DP3 "dp3" Arith F(BINARY), V30;
    0x06 DP4 "dp4" Arith F(BINARY), V30;
    0x07 DPH "dph" Arith F(BINARY), V30;
    0x08 EXP "exp" Arith F(UNARY), V30;
    0x09 FRC "frc" Arith F(UNARY), V30;
    0x0A LINE "line" Arith F(BINARY), V30;
    0x0B LOG "log" Arith F(UNARY), V30;
    0x0C MAD "mad" Arith F(TERNARY), V30;
    0x0D MULH "mulh" Arith F(BINARY), V30;
    0x0E LRP "lrp" Arith F(TERNARY), V30;
    0x0F MOD "mod" Arith F(BINARY), V30;
    0x10 MUL "mul" Arith F(BINARY), V30;
    0x11 POW "pow" Arith F(BINARY), V30;
    0x12 RNDD "rndd" Arith F(UNARY), V30;
    0x13 RNDU "rndu" Arith F(UNARY), V30;
    0x14 RNDE "rnde" Arith F(UNARY), V30;
    0x15 RNDZ "rndz" Arith F(UNARY), V30;
    0x16 SAD2 "sad2" Arith F(BINARY), V30;
    0x17 SIN "sin" Arith F(UNARY), V30;
    0x18 COS "cos" Arith F(UNARY), V30;
    0x19 SQRT "sqrt" Arith F(UNARY), V30;
    0x1A RSQRT "rsqrt" Arith F(UNARY), V30;
    0x1B INV "inv" Arith F(UNARY), V30;
    0x1C DPASW "dpasw" Misc F(DPAS), V30;
    0x1D FCVT "fcvt" Mov F(UNPREDICATED_UNARY), V30;
    0x1E SRND "srnd" Arith F(SRND), V30;
    0x1F LZD "lzd" Arith F(UNARY), V30;
    0x20 AND "and" Logic F(BINARY), V30;
    0x21 OR "or" Logic F(BINARY), V30;
    0x22 XOR "xor" Logic F(BINARY), V30;
    0x23 NOT "not" Logic F(UNARY), V30;
    0x24 SHL "shl" Logic F(BINARY), V30;
    0x25 SHR "shr" Logic F(BINARY), V30;
    0x26 ASR "asr" Logic F(BINARY), V30;
    0x27 CBIT "cbit" Logic F(UNARY), V30;
    0x28 ADDR_ADD "addr_add" Address F(ADDR_ADD), V30;
    0x29 MOV "mov" Mov F(UNARY), V30;
    0x2A SEL "sel" Mov F(BINARY), V30;
    0x2B SETP "setp" Mov F(UNPREDICATED_UNARY), V30;
    0x2C CMP "cmp" Compare F(CMP), V30;
    0x2D MOVS "movs" Mov F(UNPREDICATED_UNARY), V30;
    0x2E FBL "fbl" Logic F(UNARY), V30;
    0x2F FBH "fbh" Logic F(UNARY), V30;
    0x30 FUNC "func" Flow F(LABEL), V30;
    0x31 LABEL "label" Flow F(LABEL), V30;
    0x32 JMP "jmp" Flow F(BRANCH), V30;
    0x33 CALL "call" Flow F(BRANCH), V30;
    0x34 RET "ret" Flow F(RET), V30;
    0x35 OWORD_LD "oword_ld" DataPort F(OWORD_LD), V30;
    0x36 OWORD_ST "oword_st" DataPort F(OWORD_ST), V30;
    0x37 MEDIA_LD "media_ld" DataPort F(MEDIA_LD), V30;
    0x38 MEDIA_ST "media_st" DataPort F(MEDIA_ST), V30;
    0x39 GATHER "gather" DataPort F(GATHER), V30;
    0x3A SCATTER "scatter" DataPort F(SCATTER), V30;
    0x3C OWORD_LD_UNALIGNED "oword_ld_unaligned" DataPort F(OWORD_LD), V30;
    0x40 SAMPLE "sample" Sampler F(SAMPLE), V30;
    0x41 SAMPLE_UNORM "sample_unorm" Sampler F(SAMPLE_UNORM), V30;
    0x42 LOAD "load" Sampler F(LOAD), V30;
    0x43 AVS "avs" Sampler F(AVS), V30;
    0x44 VA "va" Sampler S(&VA), V30;
    0x45 FMINMAX "fminmax" Mov F(FMINMAX), V30;
    0x46 BFE "bfe" Logic F(TERNARY), V30;
    0x47 BFI "bfi" Logic F(QUATERNARY), V30;
    0x48 BFREV "bfrev" Logic F(UNARY), V30;
    0x49 ADDC "addc" Arith F(CARRY), V30;
    0x4A SUBB "subb" Arith F(CARRY), V30;
    0x4B GATHER4_TYPED "gather4_typed" DataPort F(GATHER4_TYPED), V30;
    0x4C SCATTER4_TYPED "scatter4_typed" DataPort F(SCATTER4_TYPED), V30;
    0x4D VA_SKL_PLUS "va_skl_plus" Sampler S(&VA_PLUS), V30;
    0x4E SVM "svm" Svm S(&SVM), V30;
    0x4F IFCALL "ifcall" Flow F(IFCALL), V30;
    0x50 FADDR "faddr" Flow F(FADDR), V30;
    0x51 FILE "file" Misc F(FILE), V30;
    0x52 LOC "loc" Misc F(LOC), V30;
    0x54 VME_IME "vme_ime" Misc F(VME_IME), V30;
    0x55 VME_SIC "vme_sic" Misc F(VME_SIC), V30;
    0x56 VME_FBR "vme_fbr" Misc F(VME_FBR), V30;
    0x57 VME_IDM "vme_idm" Misc F(VME_IDM), V30;
    0x59 BARRIER "barrier" Sync F(NONE), V30;
    0x5A SAMPLR_CACHE_FLUSH "sampler_cache_flush" Sync F(NONE), V30;
    0x5B WAIT "wait" Sync F(WAIT), V30;
    0x5C FENCE "fence" Sync F(FENCE), V30;
    0x5D RAW_SEND "raw_send" Misc F(RAW_SEND), V30;
    0x5F YIELD "yield" Sync F(NONE), V30;
    0x60 NBARRIER "nbarrier" Sync F(NBARRIER), V30;
    0x67 FCALL "fcall" Flow F(FCALL), V30;
    0x68 FRET "fret" Flow F(RET), V30;
    0x69 SWITCHJMP "switchjmp" Flow F(SWITCHJMP), V30;
    0x6A SAD2ADD "sad2add" Arith F(TERNARY), V30;
    0x6B PLANE "plane" Arith F(BINARY), V30;
    0x6C GOTO "goto" SimdFlow F(BRANCH), V30;
    0x6D SAMPLE_3D "sample_3d" Sampler F(SAMPLE_3D), V30;
    0x6E LOAD_3D "load_3d" Sampler F(LOAD_3D), V30;
    0x6F GATHER4_3D "gather4_3d" Sampler F(GATHER4_3D), V30;
    0x70 INFO_3D "info_3d" Sampler F(INFO_3D), V30;
    0x71 RT_WRITE_3D "rt_write_3d" DataPort F(RT_WRITE_3D), V30;
    0x72 URB_WRITE_3D "urb_write_3d" Misc F(URB_WRITE_3D), V30;
    0x73 TYPED_ATOMIC "typed_atomic" DataPort F(TYPED_ATOMIC), V30;
    0x74 GATHER4_SCALED "gather4_scaled" DataPort F(GATHER4_SCALED), V30;
    0x75 SCATTER4_SCALED "scatter4_scaled" DataPort F(SCATTER4_SCALED), V30;
    0x78 GATHER_SCALED "gather_scaled" DataPort F(GATHER_SCALED), V30;
    0x79 SCATTER_SCALED "scatter_scaled" DataPort F(SCATTER_SCALED), V30;
    0x7A RAW_SENDS "raw_sends" Misc F(RAW_SENDS), V30;
    0x7B LIFETIME "lifetime" Misc F(LIFETIME), V30;
    0x7C SBARRIER "sbarrier" Sync F(SBARRIER), V30;
    0x7D DWORD_ATOMIC "dword_atomic" DataPort F(DWORD_ATOMIC), V30;
    0x7E SQRTM "sqrtm" Arith F(UNARY), V30;
    0x7F DIVM "divm" Arith F(BINARY), V30;
    0x80 ROL "rol" Logic F(BINARY), V30;
    0x81 ROR "ror" Logic F(BINARY), V30;
    0x82 DP4A "dp4a" Arith F(TERNARY), V30;
    0x83 DPAS "dpas" Misc F(DPAS), V30;
    0x84 ADD3 "add3" Arith F(TERNARY), V30;
    0x85 BFN "bfn" Logic F(BFN), V30;
    0x86 QW_GATHER "qw_gather" DataPort F(QW_GATHER), V30;
    0x87 QW_SCATTER "qw_scatter" DataPort F(QW_SCATTER), V30;
    0x89 LSC_UNTYPED "lsc_untyped" Lsc S(&LSC_U), V30;
    0x8A LSC_TYPED "lsc_typed" Lsc S(&LSC_T), V30;
    0x8B LSC_FENCE "lsc_fence" Lsc F(LSC_FENCE), V30;
    0x91 MADW "madw" Arith F(TERNARY), V30;
    0x92 ADD3O "add3.o" Arith F(TERNARY), V30;
    0x93 RAW_SENDG "raw_sendg" Misc T(Some(RAW_SENDG)), V42;
    0x94 BREAKPOINT "breakpoint" Misc T(Some(NONE)), V42;
    0x95 SHFL_IDX4 "shfl_idx4" Mov T(Some(SHFL_IDX4)), V42;
    0x96 TANH "tanh" Arith T(Some(UNARY)), V42;
    0x97 SIGM "sigm" Arith T(Some(UNARY)), V42;
    0x98 LFSR "lfsr" Logic T(Some(LFSR)), V42;
    0x99 BDPAS "bdpas" Misc T(Some(BDPAS)), V42;
    0x9A DNSCL "dnscl" Mov T(Some(DNSCL)), V42;
    0x9B INVM "invm" Arith T(Some(INVM)), V42;
    0x9C RSQTM "rsqtm" Arith T(Some(RSQTM)), V42;
}

static INDEX: [u8; 256] = {
    let mut ix = [u8::MAX; 256];
    let mut i = 0;
    while i < OPCODES.len() {
        ix[OPCODES[i].code as usize] = i as u8;
        i += 1;
    }
    ix
};

impl Opcode {
    /// The table row, or `None` for a reserved code.
    pub fn info(self) -> Option<&'static OpInfo> {
        OPCODES.get(INDEX[self.0 as usize] as usize)
    }
    pub fn mnemonic(self) -> &'static str {
        self.info().map(|i| i.mnemonic).unwrap_or("reserved")
    }
    pub fn from_mnemonic(name: &str) -> Option<Opcode> {
        OPCODES
            .iter()
            .find(|o| o.mnemonic == name)
            .map(|o| Opcode(o.code))
    }
    /// True if a sub-opcode byte follows the opcode.
    pub fn has_subop(self) -> bool {
        matches!(self.info().map(|i| i.shape), Some(Shape::Sub(_)))
    }
    /// The layout for this opcode (and sub-opcode, for families that have one).
    pub fn layout(self, subop: Option<u8>) -> Option<Layout> {
        let info = self.info()?;
        match (info.shape, subop) {
            (Shape::Fixed(fields), None) => Some(Layout {
                mnemonic: info.mnemonic,
                fields,
            }),
            (Shape::Sub(table), Some(s)) => table.get(s as usize).copied().flatten(),
            (Shape::TextOnly(Some(fields)), None) => Some(Layout {
                mnemonic: info.mnemonic,
                fields,
            }),
            _ => None,
        }
    }
    /// The valid sub-opcodes of a family, with their layouts.
    pub fn subops(self) -> impl Iterator<Item = (u8, Layout)> {
        let table: &'static [Option<Layout>] = match self.info().map(|i| i.shape) {
            Some(Shape::Sub(t)) => t,
            _ => &[],
        };
        table
            .iter()
            .enumerate()
            .filter_map(|(i, l)| l.map(|l| (i as u8, l)))
    }
}
