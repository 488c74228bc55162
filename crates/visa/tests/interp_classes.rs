//! The execution classes of issue 25 on hand-written kernels, each the smallest
//! instance of what IGC emits: reads into a buffer's allocation padding, integer
//! division by zero, `%cr0`'s float modes (denormal flushing, round toward zero) and
//! the dotted names IGC 1.0.5353 gives cloned functions. (The same classes on IGC's
//! own output are the `class-*` cases of `tests/cli/visa-run`.)

use gpukit_visa::interp::{self, Launch, Memory, Payload};

fn kernel(decls: &str, body: &str) -> gpukit_visa::Object {
    let text = format!(
        ".version 3.6\n.kernel \"k\"\n{decls}\n.kernel_attr Target=\"3d\"\n.function \"main_0\"\n\nmain_0:\n{body}\n"
    );
    gpukit_visa::text::parse_text(&text).unwrap_or_else(|d| panic!("{}", d.render("k", &text)))
}

/// SIMD8, one work-group of `items`, local IDs X at GRF 1, buffer pointers at bytes 64 and 72.
fn launch(items: u32, a: u64, b: u64) -> Launch {
    let mut cross = a.to_le_bytes().to_vec();
    cross.extend(b.to_le_bytes());
    Launch {
        simd: 8,
        grf_bytes: 32,
        global: [items, 1, 1],
        local: [items, 1, 1],
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

fn dwords(mem: &Memory, index: usize) -> Vec<u32> {
    mem.buffers[index]
        .data
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

const DECLS: &str = "\
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
    let object = kernel(DECLS, BLOCK_COPY);
    let mut mem = Memory::default();
    let a = mem.add(
        "a",
        [1u32, 2, 3].iter().flat_map(|v| v.to_le_bytes()).collect(),
    );
    let b = mem.add("b", vec![0xFF; 16]);
    let stats = interp::run(&object.kernels[0].body, &launch(1, a, b), &mut mem, None).unwrap();
    assert_eq!(dwords(&mem, 1), [1, 2, 3, 0]);
    assert_eq!(stats.findings.over_read, 1);
    // Writes get no padding: 16 bytes into the 12-byte buffer is out of bounds.
    let mut mem = Memory::default();
    let a = mem.add("a", vec![0; 16]);
    let b = mem.add("b", vec![0; 12]);
    let e = interp::run(&object.kernels[0].body, &launch(1, a, b), &mut mem, None).unwrap_err();
    assert!(e.message.contains("out-of-bounds"), "{e}");
}

#[test]
fn a_read_past_the_allocation_is_out_of_bounds() {
    let object = kernel(DECLS, BLOCK_COPY);
    let mut mem = Memory::default();
    let a = mem.add("a", vec![0; 4096 - 8]);
    let b = mem.add("b", vec![0; 16]);
    let shifted = a + 4096 - 8;
    let e = interp::run(
        &object.kernels[0].body,
        &launch(1, shifted, b),
        &mut mem,
        None,
    )
    .unwrap_err();
    assert!(e.message.contains("out-of-bounds"), "{e}");
    let stats = interp::run(
        &object.kernels[0].body,
        &launch(1, a + 4096 - 16, b),
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
        let object = kernel(DECLS, &body);
        let mut mem = Memory::default();
        let a = mem.add("a", (0u32..6).flat_map(|v| v.to_le_bytes()).collect());
        let b = mem.add("b", vec![0; 24]);
        let stats = interp::run(&object.kernels[0].body, &launch(6, a, b), &mut mem, None)
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
    kernel(DECLS, &body)
}

fn run_floats(object: &gpukit_visa::Object, input: [f32; 8]) -> Vec<f32> {
    let mut mem = Memory::default();
    let a = mem.add("a", input.iter().flat_map(|v| v.to_le_bytes()).collect());
    let b = mem.add("b", vec![0; 32]);
    interp::run(&object.kernels[0].body, &launch(8, a, b), &mut mem, None).unwrap();
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
        let object = kernel(DECLS, &body(cr0));
        let mut mem = Memory::default();
        let b = mem.add("b", vec![0; 32]);
        interp::run(&object.kernels[0].body, &launch(8, b, b), &mut mem, None).unwrap();
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
    let object = kernel(DECLS, body);
    let mut mem = Memory::default();
    let a = mem.add("a", vec![0; 32]);
    interp::run(&object.kernels[0].body, &launch(8, a, a), &mut mem, None).unwrap();
    assert_eq!(dwords(&mem, 0), [42, 43, 44, 45, 46, 47, 48, 49]);
}
