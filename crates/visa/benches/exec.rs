//! `visa run`'s execution speed: an escape-time loop (mandelbrot's inner loop, SIMD16,
//! divergent goto) written in vISA, run on the translated engine and on the generic
//! interpreter. Throughput is in channel-instructions. `bench/exec.py` compares the
//! whole `visa run` with Oclgrind and PoCL on IGC-compiled kernels.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gpukit_visa::interp::{self, Launch, Memory, Options, Payload};

const KERNEL: &str = r#".version 3.6
.kernel "escape"
.decl V0033 v_type=G type=uq num_elts=1 align=qword
.decl V0034 v_type=G type=uw num_elts=16 align=GRF
.decl V0036 v_type=G type=uq num_elts=16 align=GRF
.decl V0040 v_type=G type=f num_elts=16 align=GRF
.decl V0041 v_type=G type=f num_elts=16 align=GRF
.decl V0042 v_type=G type=f num_elts=16 align=GRF
.decl V0043 v_type=G type=f num_elts=16 align=GRF
.decl V0044 v_type=G type=ud num_elts=16 align=GRF
.decl V0045 v_type=G type=ud num_elts=1 align=dword
.decl V0046 v_type=G type=f num_elts=16 align=GRF
.decl V0047 v_type=G type=ud num_elts=8 align=GRF alias=<%r0, 0>
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=16
.input V0034 offset=32 size=32
.input V0033 offset=64 size=8
.kernel_attr Target="3d"
.function "main_0"

main_0:
    mov (M1, 16) V0044(0,0)<1> V0034(0,0)<1;1,0>
    mad (M1, 16) V0044(0,0)<1> V0047(0,1)<0;1,0> 0x10:ud V0044(0,0)<1;1,0>
    mov (M1, 16) V0040(0,0)<1> V0044(0,0)<1;1,0>
    mul (M1, 16) V0040(0,0)<1> V0040(0,0)<1;1,0> 0x3b800000:f
    add (M1, 16) V0040(0,0)<1> V0040(0,0)<1;1,0> 0xbfc00000:f
    mov (M1, 16) V0036(0,0)<1> V0044(0,0)<1;1,0>
    shl (M1, 16) V0036(0,0)<1> V0036(0,0)<1;1,0> 0x2:uq
    add (M1, 16) V0036(0,0)<1> V0036(0,0)<1;1,0> V0033(0,0)<0;1,0>
    mov (M1, 16) V0041(0,0)<1> 0x0:f
    mov (M1, 16) V0042(0,0)<1> 0x0:f
    mov (M1, 16) V0044(0,0)<1> 0x0:ud
    mov (M1_NM, 1) V0045(0,0)<1> 0x0:ud
loop_0:
    mul (M1, 16) V0043(0,0)<1> V0041(0,0)<1;1,0> V0041(0,0)<1;1,0>
    mad (M1, 16) V0043(0,0)<1> V0042(0,0)<1;1,0> (-)V0042(0,0)<1;1,0> V0043(0,0)<1;1,0>
    add (M1, 16) V0043(0,0)<1> V0043(0,0)<1;1,0> V0040(0,0)<1;1,0>
    mul (M1, 16) V0042(0,0)<1> V0042(0,0)<1;1,0> 0x40000000:f
    mad (M1, 16) V0042(0,0)<1> V0042(0,0)<1;1,0> V0041(0,0)<1;1,0> 0x3e800000:f
    mov (M1, 16) V0041(0,0)<1> V0043(0,0)<1;1,0>
    add (M1, 16) V0044(0,0)<1> V0044(0,0)<1;1,0> 0x1:ud
    add (M1_NM, 1) V0045(0,0)<1> V0045(0,0)<0;1,0> 0x1:ud
    mul (M1, 16) V0046(0,0)<1> V0041(0,0)<1;1,0> V0041(0,0)<1;1,0>
    mad (M1, 16) V0046(0,0)<1> V0042(0,0)<1;1,0> V0042(0,0)<1;1,0> V0046(0,0)<1;1,0>
    cmp.lt (M1_NM, 16) P1 V0045(0,0)<0;1,0> 0x100:ud
    cmp.le (M1, 16) P2 V0046(0,0)<1;1,0> 0x40800000:f
    and (M1, 16) P2 P2 P1
    (P2) goto (M1, 16) loop_0
    svm_scatter.4.1 (M1, 16) V0036.0 V0044.0
    ret (M1, 1)
"#;

const GROUPS: u32 = 64;

fn launch(base: u64) -> Launch {
    Launch {
        simd: 16,
        grf_bytes: 32,
        global: [16 * GROUPS, 1, 1],
        local: [16, 1, 1],
        payload: Payload {
            local_id: [true, false, false],
            cross_thread_offset: 64,
            cross_thread: base.to_le_bytes().to_vec(),
        },
        slm_bytes: 0,
        max_instructions: u64::MAX,
        scratch_bytes: interp::SCRATCH_BYTES as u32,
    }
}

fn run(object: &gpukit_visa::Object, translate: bool) -> interp::Stats {
    let mut mem = Memory::default();
    let base = mem.add("out", vec![0; 4 * 16 * GROUPS as usize]);
    let options = Options {
        translate,
        ..Options::default()
    };
    interp::run_with_options(
        &object.kernels[0].body,
        &[],
        &launch(base),
        &mut mem,
        None,
        &options,
    )
    .expect("the benchmark kernel runs")
}

fn bench(c: &mut Criterion) {
    let object = gpukit_visa::text::parse_text(KERNEL).expect("the benchmark kernel parses");
    let stats = run(&object, true);
    assert_eq!(stats, run(&object, false));
    let mut g = c.benchmark_group("visa_exec");
    g.throughput(Throughput::Elements(stats.channel_instructions));
    for (name, translate) in [("translated", true), ("generic", false)] {
        g.bench_with_input(BenchmarkId::new(name, "escape_loop"), &translate, |b, t| {
            b.iter(|| run(&object, *t))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
