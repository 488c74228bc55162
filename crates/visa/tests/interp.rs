//! The interpreter on hand-written kernels whose results follow from the source:
//! ALU, SIMD divergence through goto, SVM stores, out-of-bounds reporting and
//! barrier deadlock; and the execution classes of issue 25, each the smallest
//! instance of what IGC emits: reads into a buffer's allocation padding, integer
//! division by zero, `%cr0`'s float modes (denormal flushing, round toward zero) and
//! the dotted names IGC 1.0.5353 gives cloned functions (the same classes on IGC's
//! own output are the `class-*` cases of `tests/cli/visa-run`).

use gpukit_visa::interp::{self, Launch, Memory, Payload};

const HEADER: &str = ".version 3.6\n.kernel \"k\"\n";

fn kernel(decls: &str, body: &str) -> gpukit_visa::Object {
    let text = format!(
        "{HEADER}{decls}\n.kernel_attr Target=\"3d\"\n.function \"main_0\"\n\nmain_0:\n{body}\n"
    );
    gpukit_visa::text::parse_text(&text).unwrap_or_else(|d| panic!("{}", d.render("k", &text)))
}

/// SIMD8, local IDs X at GRF 1, a buffer pointer at byte 64 of the payload.
/// Buffer `index`'s bytes as little-endian dwords.
fn dwords(mem: &Memory, index: usize) -> Vec<u32> {
    mem.buffers[index]
        .to_bytes()
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn launch(global: u32, local: u32, ptr: u64) -> Launch {
    let mut cross = vec![0u8; 8];
    cross.copy_from_slice(&ptr.to_le_bytes());
    Launch {
        simd: 8,
        grf_bytes: 32,
        global: [global, 1, 1],
        local: [local, 1, 1],
        payload: Payload {
            local_id: [true, false, false],
            cross_thread_offset: 64,
            cross_thread: cross,
        },
        slm_bytes: 0,
        max_instructions: 1_000_000,
        scratch_bytes: 1 << 20,
    }
}

/// [`launch`] of `items` work items with a second buffer pointer at byte 72.
fn launch2(items: u32, a: u64, b: u64) -> Launch {
    let mut l = launch(items, items, a);
    l.payload.cross_thread.extend(b.to_le_bytes());
    l
}

const DECLS: &str = "\
.decl V0033 v_type=G type=uq num_elts=1 align=qword
.decl V0034 v_type=G type=uw num_elts=8 align=GRF
.decl V0035 v_type=G type=ud num_elts=8 align=GRF
.decl V0036 v_type=G type=uq num_elts=8 align=GRF
.decl P1 v_type=P num_elts=8
.input V0034 offset=32 size=16
.input V0033 offset=64 size=8";

/// buf[lid] = lid < 3 ? lid * 3 : lid + 100, the two sides split by a goto.
const DIVERGENT: &str = "\
    mov (M1, 8) V0036(0,0)<1> V0034(0,0)<1;1,0>
    shl (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> 0x2:uq
    add (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> V0033(0,0)<0;1,0>
    cmp.lt (M1, 8) P1 V0034(0,0)<1;1,0> 0x3:uw
    (!P1) goto (M1, 8) big_0
    mul (M1, 8) V0035(0,0)<1> V0034(0,0)<1;1,0> 0x3:ud
    goto (M1, 8) join_0
big_0:
    add (M1, 8) V0035(0,0)<1> V0034(0,0)<1;1,0> 0x64:ud
join_0:
    svm_scatter.4.1 (M1, 8) V0036.0 V0035.0
    ret (M1, 1)";

#[test]
fn divergent_goto_and_svm_scatter() {
    let object = kernel(DECLS, DIVERGENT);
    let mut mem = Memory::default();
    let base = mem.add("buf", vec![0; 32]);
    let stats = interp::run(&object.kernels[0].body, &launch(8, 8, base), &mut mem, None).unwrap();
    let got = dwords(&mem, 0);
    assert_eq!(got, [0, 3, 6, 103, 104, 105, 106, 107]);
    assert_eq!(stats.threads, 1);
}

#[test]
fn out_of_bounds_names_the_buffer_and_offset() {
    let object = kernel(DECLS, DIVERGENT);
    let mut mem = Memory::default();
    let base = mem.add("buf", vec![0; 16]);
    let e = interp::run(&object.kernels[0].body, &launch(8, 8, base), &mut mem, None).unwrap_err();
    assert_eq!(e.mnemonic, "svm_scatter");
    assert!(e.message.contains("offset 16 of buf (16 bytes)"), "{e}");
}

#[test]
fn a_barrier_one_thread_never_reaches_is_a_deadlock() {
    // Thread 0 (r0.2 = 0) jumps past the barrier and ends; thread 1 waits forever.
    let decls = ".decl V0032 v_type=G type=ud num_elts=8 align=GRF alias=<%r0, 0>\n.decl P1 v_type=P num_elts=1";
    let body = "\
    cmp.eq (M1_NM, 1) P1 V0032(0,2)<0;1,0> 0x0:ud
    (P1) jmp (M1, 1) skip_0
    barrier
skip_0:
    ret (M1, 1)";
    let object = kernel(decls, body);
    let mut mem = Memory::default();
    let mut l = launch(16, 16, 0);
    l.payload.local_id = [false; 3];
    l.payload.cross_thread_offset = 32;
    l.payload.cross_thread.clear();
    let e = interp::run(&object.kernels[0].body, &l, &mut mem, None).unwrap_err();
    assert!(e.message.contains("barrier deadlock"), "{e}");
}

#[test]
fn unsupported_instruction_names_itself() {
    let body =
        "    sad2 (M1, 8) V0035(0,0)<1> V0034(0,0)<1;1,0> V0034(0,0)<1;1,0>\n    ret (M1, 1)";
    let object = kernel(DECLS, body);
    let mut mem = Memory::default();
    let e = interp::run(&object.kernels[0].body, &launch(8, 8, 0), &mut mem, None).unwrap_err();
    assert_eq!((e.index, e.mnemonic.as_str()), (Some(1), "sad2"));
}

/// buf[lid] = 10 * (sel + 1) through a switchjmp on the scalar sel = 1.
#[test]
fn switchjmp_takes_the_indexed_label() {
    let decls = format!("{DECLS}\n.decl V0037 v_type=G type=ud num_elts=1 align=dword");
    let body = "\
    mov (M1, 8) V0036(0,0)<1> V0034(0,0)<1;1,0>
    shl (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> 0x2:uq
    add (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> V0033(0,0)<0;1,0>
    mov (M1_NM, 1) V0037(0,0)<1> 0x1:ud
    switchjmp (M1, 1) V0037(0,0)<0;1,0> (case0_0, case1_0, case2_0)
case0_0:
    mov (M1, 8) V0035(0,0)<1> 0xa:ud
    jmp (M1, 1) done_0
case1_0:
    mov (M1, 8) V0035(0,0)<1> 0x14:ud
    jmp (M1, 1) done_0
case2_0:
    mov (M1, 8) V0035(0,0)<1> 0x1e:ud
done_0:
    svm_scatter.4.1 (M1, 8) V0036.0 V0035.0
    ret (M1, 1)";
    let object = kernel(&decls, body);
    let mut mem = Memory::default();
    let base = mem.add("buf", vec![0; 32]);
    interp::run(&object.kernels[0].body, &launch(8, 8, base), &mut mem, None).unwrap();
    let got = dwords(&mem, 0);
    assert_eq!(got, [20; 8]);
}

#[test]
fn raw_send_names_its_descriptors() {
    let body = "    raw_send (M1, 8) 0xc 2 1 0x2184000:ud V0035.0 V0035.0\n    ret (M1, 1)";
    let object = kernel(DECLS, body);
    let mut mem = Memory::default();
    let e = interp::run(&object.kernels[0].body, &launch(8, 8, 0), &mut mem, None).unwrap_err();
    assert_eq!(e.mnemonic, "raw_send");
    assert!(
        e.message
            .contains("SFID 0xc, descriptor 0x02184000, extended descriptor 0x0000000c"),
        "{e}"
    );
}

/// LSC untyped messages on flat A64 addresses: a gathering load and a scattering
/// store with an immediate offset, a transposed (block) load and store of 16 dwords,
/// an atomic add returning the old values, and a compare-and-swap whose operands
/// come expected value first, then the new one.
#[test]
fn lsc_loads_stores_and_atomics() {
    let decls = format!(
        "{DECLS}
.decl V0040 v_type=G type=ud num_elts=8 align=GRF
.decl V0041 v_type=G type=ud num_elts=16 align=GRF
.decl V0042 v_type=G type=ud num_elts=8 align=GRF
.decl V0043 v_type=G type=ud num_elts=8 align=GRF
.decl V0044 v_type=G type=ud num_elts=8 align=GRF"
    );
    let body = "\
    mov (M1, 8) V0036(0,0)<1> V0034(0,0)<1;1,0>
    shl (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> 0x2:uq
    add (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> V0033(0,0)<0;1,0>
    lsc_load.ugm (M1, 8)  V0040:d32  flat[V0036]:a64
    add (M1, 8) V0040(0,0)<1> V0040(0,0)<1;1,0> 0x64:ud
    lsc_store.ugm (M1, 8)  flat[V0036+0x20]:a64  V0040:d32
    lsc_load.ugm (M1_NM, 1)  V0041:d32x16t  flat[V0033]:a64
    lsc_store.ugm (M1_NM, 1)  flat[V0033+0x40]:a64  V0041:d32x16t
    lsc_atomic_iadd.ugm (M1, 8)  V0042:d32  flat[V0036]:a64  V0040  %null
    lsc_store.ugm (M1, 8)  flat[V0036+0xa0]:a64  V0042:d32
    add (M1, 8) V0043(0,0)<1> V0034(0,0)<1;1,0> 0x30:ud
    mov (M1, 8) V0044(0,0)<1> 0x7:ud
    lsc_atomic_icas.ugm (M1, 8)  %null:d32  flat[V0036+0xc0]:a64  V0043  V0044
    ret (M1, 1)";
    let object = kernel(&decls, body);
    let mut mem = Memory::default();
    let init: Vec<u8> = (0u32..64).flat_map(u32::to_le_bytes).collect();
    let base = mem.add("buf", init);
    interp::run(&object.kernels[0].body, &launch(8, 8, base), &mut mem, None).unwrap();
    let got = dwords(&mem, 0);
    let lanes = 0u32..8;
    let mut want: Vec<u32> = lanes.clone().map(|c| 2 * c + 100).collect();
    want.extend(lanes.clone().map(|c| c + 100));
    want.extend(lanes.clone());
    want.extend(lanes.clone().map(|c| c + 100));
    want.extend(32..40);
    want.extend(lanes.clone());
    want.extend([7; 8]);
    want.extend(56..64);
    assert_eq!(got, want);
}

/// A launch's shape and one work-group's register space are known before it runs,
/// so a caller can budget them; shape mistakes name no work-group or thread.
#[test]
fn shape_and_footprint_before_the_run() {
    let object = kernel(DECLS, DIVERGENT);
    let body = &object.kernels[0].body;
    let shape = interp::Shape::of(&launch(64, 32, 0)).unwrap();
    assert_eq!(
        (shape.groups, shape.group_items, shape.threads_per_group),
        ([2, 1, 1], 32, 4)
    );
    assert_eq!(shape.hardware_threads(), 8);
    let f = interp::footprint(body, &[], &launch(64, 32, 0)).unwrap();
    assert!(f.register_bytes_per_thread >= 3 * 32 && f.register_bytes_per_thread < 64 << 10);
    assert_eq!(f.register_bytes(), 4 * f.register_bytes_per_thread);
    for (global, local, message) in [
        (
            64,
            1024,
            "global size 64 is not a non-zero multiple of local size 1024 in dimension 0",
        ),
        (2048, 2048, "work-group of 2048 items exceeds 1024"),
        (
            8,
            0,
            "global size 8 is not a non-zero multiple of local size 0 in dimension 0",
        ),
    ] {
        assert_eq!(
            interp::Shape::of(&launch(global, local, 0)).unwrap_err(),
            message
        );
    }
    let huge = Launch {
        global: [1 << 31, 1 << 31, 1 << 31],
        local: [1, 1, 1],
        ..launch(8, 8, 0)
    };
    assert_eq!(
        interp::Shape::of(&huge).unwrap().hardware_threads(),
        u64::MAX
    );
}

/// `%hw_id` tells the threads of a work-group apart (IGC places private memory by it).
#[test]
fn hw_id_is_the_thread_index_in_its_work_group() {
    let decls = "\
.decl V0033 v_type=G type=uq num_elts=1 align=qword
.decl V0036 v_type=G type=uq num_elts=8 align=GRF
.decl V0037 v_type=G type=ud num_elts=8 align=GRF
.decl V0038 v_type=G type=ud num_elts=1 align=dword alias=<%hw_id, 0>
.input V0033 offset=64 size=8";
    // buf[hw_id] = hw_id + 1, from lane 0 of each thread.
    let body = "\
    mov (M1_NM, 8) V0037(0,0)<1> V0038(0,0)<0;1,0>
    add (M1_NM, 8) V0037(0,0)<1> V0037(0,0)<1;1,0> 0x1:ud
    mov (M1_NM, 8) V0036(0,0)<1> V0038(0,0)<0;1,0>
    shl (M1_NM, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> 0x2:uq
    add (M1_NM, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> V0033(0,0)<0;1,0>
    svm_scatter.4.1 (M1_NM, 1) V0036.0 V0037.0
    ret (M1, 1)";
    let object = kernel(decls, body);
    let mut mem = Memory::default();
    let base = mem.add("buf", vec![0; 16]);
    interp::run(
        &object.kernels[0].body,
        &launch(64, 32, base),
        &mut mem,
        None,
    )
    .unwrap();
    assert_eq!(dwords(&mem, 0), [1, 2, 3, 4]);
}

// ---- issue 25: the execution classes ----

const CLASS_DECLS: &str = "\
.decl V0033 v_type=G type=uq num_elts=1 align=qword
.decl V0037 v_type=G type=uq num_elts=1 align=qword
.decl V0034 v_type=G type=uw num_elts=8 align=GRF
.decl V0035 v_type=G type=ud num_elts=8 align=GRF
.decl V0036 v_type=G type=uq num_elts=8 align=GRF
.decl V0038 v_type=G type=d num_elts=8 align=GRF
.decl V0039 v_type=G type=f num_elts=8 align=GRF
.input V0034 offset=32 size=16
.input V0033 offset=64 size=8
.input V0037 offset=72 size=8";

/// An oword block load of 16 bytes from `a` stored to `b`.
const BLOCK_COPY: &str = "\
    svm_block_ld (1) V0033(0,0)<0;1,0> V0035.0
    svm_block_st (1) V0037(0,0)<0;1,0> V0035.0
    ret (M1, 1)";

#[test]
fn block_read_past_a_buffer_end_reads_its_allocation_padding() {
    let object = kernel(CLASS_DECLS, BLOCK_COPY);
    let mut mem = Memory::default();
    let a = mem.add(
        "a",
        [1u32, 2, 3].iter().flat_map(|v| v.to_le_bytes()).collect(),
    );
    let b = mem.add("b", vec![0xFF; 16]);
    let stats = interp::run(&object.kernels[0].body, &launch2(1, a, b), &mut mem, None).unwrap();
    assert_eq!(dwords(&mem, 1), [1, 2, 3, 0]);
    assert_eq!(stats.findings.over_read, 1);
    // Writes get no padding: 16 bytes into the 12-byte buffer is out of bounds.
    let mut mem = Memory::default();
    let a = mem.add("a", vec![0; 16]);
    let b = mem.add("b", vec![0; 12]);
    let e = interp::run(&object.kernels[0].body, &launch2(1, a, b), &mut mem, None).unwrap_err();
    assert!(e.message.contains("out-of-bounds"), "{e}");
}

#[test]
fn a_read_past_the_allocation_is_out_of_bounds() {
    let object = kernel(CLASS_DECLS, BLOCK_COPY);
    let mut mem = Memory::default();
    let a = mem.add("a", vec![0; 4096 - 8]);
    let b = mem.add("b", vec![0; 16]);
    let shifted = a + 4096 - 8;
    let e = interp::run(
        &object.kernels[0].body,
        &launch2(1, shifted, b),
        &mut mem,
        None,
    )
    .unwrap_err();
    assert!(e.message.contains("out-of-bounds"), "{e}");
    let stats = interp::run(
        &object.kernels[0].body,
        &launch2(1, a + 4096 - 16, b),
        &mut mem,
        None,
    )
    .unwrap();
    assert_eq!(stats.findings.over_read, 1);
}

#[test]
fn integer_division_by_zero_gives_the_hardware_value() {
    // b[lid] = a[lid] op (a[lid] & 3) for 6 work items in 8 channels: channels 6 and 7
    // are disabled and divide whatever their registers hold.
    for (op, want) in [
        ("div", [u32::MAX, 1, 1, 1, u32::MAX, 5]),
        ("mod", [0, 0, 0, 0, 4, 0]),
    ] {
        let body = format!(
            "    mov (M1, 8) V0036(0,0)<1> V0034(0,0)<1;1,0>
    shl (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> 0x2:uq
    add (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> V0033(0,0)<0;1,0>
    svm_gather.4.1 (M1, 8) V0036.0 V0035.0
    and (M1, 8) V0038(0,0)<1> V0035(0,0)<1;1,0> 0x3:d
    {op} (M1, 8) V0038(0,0)<1> V0035(0,0)<1;1,0> V0038(0,0)<1;1,0>
    mov (M1, 8) V0036(0,0)<1> V0034(0,0)<1;1,0>
    shl (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> 0x2:uq
    add (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> V0037(0,0)<0;1,0>
    svm_scatter.4.1 (M1, 8) V0036.0 V0038.0
    ret (M1, 1)"
        );
        let object = kernel(CLASS_DECLS, &body);
        let mut mem = Memory::default();
        let a = mem.add("a", (0u32..6).flat_map(|v| v.to_le_bytes()).collect());
        let b = mem.add("b", vec![0; 24]);
        let stats = interp::run(&object.kernels[0].body, &launch2(6, a, b), &mut mem, None)
            .unwrap_or_else(|e| panic!("{op}: {e}"));
        assert_eq!(dwords(&mem, 1), want, "{op}");
        // Items 0 and 4 divide by zero; the disabled channels 6 and 7 are not counted.
        assert_eq!(stats.findings.zero_divisor, 2, "{op}");
    }
}

/// b[lid] = a[lid] * 2^-100 * 2^-30 (denormal for |a| < 2^4), after the `%cr0` set-up `cr0`.
fn float_mode_kernel(cr0: &str) -> gpukit_visa::Object {
    let body = format!(
        "{cr0}    mov (M1, 8) V0036(0,0)<1> V0034(0,0)<1;1,0>
    shl (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> 0x2:uq
    add (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> V0033(0,0)<0;1,0>
    svm_gather.4.1 (M1, 8) V0036.0 V0039.0
    mul (M1, 8) V0039(0,0)<1> V0039(0,0)<1;1,0> 0xd800000:f
    mul (M1, 8) V0039(0,0)<1> V0039(0,0)<1;1,0> 0x30800000:f
    mov (M1, 8) V0036(0,0)<1> V0034(0,0)<1;1,0>
    shl (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> 0x2:uq
    add (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> V0037(0,0)<0;1,0>
    svm_scatter.4.1 (M1, 8) V0036.0 V0039.0
    ret (M1, 1)"
    );
    kernel(CLASS_DECLS, &body)
}

fn run_floats(object: &gpukit_visa::Object, input: [f32; 8]) -> Vec<f32> {
    let mut mem = Memory::default();
    let a = mem.add("a", input.iter().flat_map(|v| v.to_le_bytes()).collect());
    let b = mem.add("b", vec![0; 32]);
    interp::run(&object.kernels[0].body, &launch2(8, a, b), &mut mem, None).unwrap();
    dwords(&mem, 1).into_iter().map(f32::from_bits).collect()
}

#[test]
fn cr0_float_modes() {
    let input = [1.0, -3.0, 0.5, 7.0, 1e30, -1e30, 2.0, 3.0];
    // IGC's default: denormals kept.
    let kept = run_floats(
        &float_mode_kernel("    or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x4c0:ud\n"),
        input,
    );
    assert!(
        kept[0] != 0.0 && kept[0].abs() < f32::MIN_POSITIVE,
        "{kept:?}"
    );
    // -cl-denorms-are-zero: IGC sets only the DF bit; F denormals flush to signed zero.
    let flushed = run_floats(
        &float_mode_kernel("    or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x40:ud\n"),
        input,
    );
    assert_eq!(flushed[0].to_bits(), 0, "{flushed:?}");
    assert_eq!(flushed[1].to_bits(), (-0.0f32).to_bits(), "{flushed:?}");
    assert_eq!(flushed[4], kept[4], "normal results are unchanged");
    // A thread starts with %cr0 = 0: denormals flushed too.
    assert_eq!(run_floats(&float_mode_kernel(""), input)[2], 0.0);
}

#[test]
fn round_toward_zero_mode_rounds_results_toward_zero() {
    // inv(3) in f32: nearest is 0x3eaaaaab (above 1/3), toward zero 0x3eaaaaaa.
    let body = |cr0: &str| {
        format!(
            "    or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x4c0:ud
{cr0}    mov (M1, 8) V0036(0,0)<1> V0034(0,0)<1;1,0>
    shl (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> 0x2:uq
    add (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> V0037(0,0)<0;1,0>
    mov (M1, 8) V0039(0,0)<1> 0x40400000:f
    inv (M1, 8) V0039(0,0)<1> V0039(0,0)<1;1,0>
    svm_scatter.4.1 (M1, 8) V0036.0 V0039.0
    ret (M1, 1)"
        )
    };
    for (cr0, want) in [
        ("", 0x3eaa_aaabu32),
        (
            "    xor (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x30:ud\n",
            0x3eaa_aaaa,
        ),
    ] {
        let object = kernel(CLASS_DECLS, &body(cr0));
        let mut mem = Memory::default();
        let b = mem.add("b", vec![0; 32]);
        interp::run(&object.kernels[0].body, &launch2(8, b, b), &mut mem, None).unwrap();
        assert_eq!(dwords(&mem, 0), [want; 8], "{cr0:?}");
    }
}

/// IGC 1.0.5353 names a function it clones per call site `name.N_M`; calls name it so.
#[test]
fn dotted_subroutine_names_parse_and_run() {
    let body = "\
    mov (M1, 8) V0036(0,0)<1> V0034(0,0)<1;1,0>
    shl (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> 0x2:uq
    add (M1, 8) V0036(0,0)<1> V0036(0,0)<1;1,0> V0033(0,0)<0;1,0>
    call (M1, 8) i32_func_i32_i32.7_1
    svm_scatter.4.1 (M1, 8) V0036.0 V0035.0
    ret (M1, 1)

.function \"i32_func_i32_i32.7_1\"

i32_func_i32_i32.7_1:
    add (M1, 8) V0035(0,0)<1> V0034(0,0)<1;1,0> 0x2a:ud
    ret (M1, 8)";
    let object = kernel(CLASS_DECLS, body);
    let mut mem = Memory::default();
    let a = mem.add("a", vec![0; 32]);
    interp::run(&object.kernels[0].body, &launch2(8, a, a), &mut mem, None).unwrap();
    assert_eq!(dwords(&mem, 0), [42, 43, 44, 45, 46, 47, 48, 49]);
}
