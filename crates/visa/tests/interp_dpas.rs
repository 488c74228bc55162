//! `dpas` on hand-written kernels, checked against the matrix view of
//! `instructions/DPAS.md` (D = C + A x B) rather than its register-level pseudo-code:
//! A's rows are row-major in `src2`; column n of B is channel n of `src1`'s register
//! view, its K elements packed one after the other down that column at B's precision;
//! C and D hold row r in register row r. Mixed integer precisions (u4 weights, s8
//! activations: two depths per dword of B) and bf16 are covered; IGC's own dpas (s8 and
//! bf16 on PVC) is the `class-dpas-pvc-deb12` CLI case.

use gpukit_visa::interp::{self, Launch, Memory, Payload};

/// SIMD8 on 32-byte GRFs (DG2's dpas width): loads 128 dwords at the buffer pointer
/// (A: 2 rows from byte 0, B: `b_bytes` from byte 64, C: 2 rows after B), runs `dpas`
/// with C and D of type `acc`, and returns D (stored at byte 512).
fn run(dpas: &str, acc: &str, b_bytes: usize, buffer: Vec<u8>) -> Vec<u32> {
    let c_at = 64 + b_bytes;
    let text = format!(
        ".version 4.1
.kernel \"k\"
.decl V0033 v_type=G type=uq num_elts=1 align=qword
.decl V0040 v_type=G type=ud num_elts=128 align=GRF
.decl V0041 v_type=G type=ud num_elts=16 align=GRF alias=<V0040, 0>
.decl V0042 v_type=G type=ud num_elts={b} align=GRF alias=<V0040, 64>
.decl V0043 v_type=G type={acc} num_elts=16 align=GRF alias=<V0040, {c_at}>
.decl V0044 v_type=G type={acc} num_elts=16 align=GRF
.decl V0045 v_type=G type=uq num_elts=1 align=qword
.decl V0046 v_type=G type=ud num_elts=64 align=GRF alias=<V0040, 256>
.input V0033 offset=64 size=8
.kernel_attr Target=\"3d\"
.function \"main_0\"

main_0:
    lsc_load.ugm (M1_NM, 1)  V0040:d32x64t  flat[V0033]:a64
    add (M1_NM, 1) V0045(0,0)<1> V0033(0,0)<0;1,0> 0x100:uq
    lsc_load.ugm (M1_NM, 1)  V0046:d32x64t  flat[V0045]:a64
    {dpas} (M1, 8) V0044.0 V0043.0 V0042.0 V0041(0,0)
    add (M1_NM, 1) V0045(0,0)<1> V0033(0,0)<0;1,0> 0x200:uq
    lsc_store.ugm (M1_NM, 1)  flat[V0045]:a64  V0044:d32x16t
    ret (M1, 1)
",
        b = b_bytes / 4
    );
    let object =
        gpukit_visa::text::parse_text(&text).unwrap_or_else(|d| panic!("{}", d.render("k", &text)));
    let mut mem = Memory::default();
    let mut data = buffer;
    data.resize(512 + 64, 0);
    let ptr = mem.add("x", data);
    let launch = Launch {
        simd: 8,
        grf_bytes: 32,
        global: [8, 1, 1],
        local: [8, 1, 1],
        payload: Payload {
            local_id: [true, false, false],
            cross_thread_offset: 64,
            cross_thread: ptr.to_le_bytes().to_vec(),
        },
        slm_bytes: 0,
        max_instructions: 1000,
        scratch_bytes: 0,
    };
    interp::run(&object.kernels[0].body, &launch, &mut mem, None).unwrap();
    mem.buffers[0].to_bytes()[512..]
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Packs `values` (each `bits` wide) one after another from bit 0 of `out`.
fn pack(out: &mut [u8], values: impl Iterator<Item = u32>, bits: usize) {
    for (i, v) in values.enumerate() {
        for b in 0..bits {
            if v >> b & 1 == 1 {
                let bit = i * bits + b;
                out[bit / 8] |= 1 << (bit % 8);
            }
        }
    }
}

/// B's element k of column n, written at its place in the register view: column n is
/// dword n of every register row, the K elements filling those dwords in order.
fn put_b(b: &mut [u8], n: usize, k: usize, bits: usize, v: u32) {
    let per_dword = 32 / bits;
    let (row, slot) = (k / per_dword, k % per_dword);
    let at = row * 32 + n * 4;
    let mut dw = u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    let mask = if bits == 32 {
        u32::MAX
    } else {
        (1 << bits) - 1
    };
    dw |= (v & mask) << (slot * bits);
    b[at..at + 4].copy_from_slice(&dw.to_le_bytes());
}

/// The kernel's buffer for matrices of 2 rows, `k` deep and 8 columns: A's elements
/// `a_bits` wide, B's `b_bits` wide, C's dwords; returns it with B's size in bytes.
fn operands(
    k: usize,
    (a_bits, a): (usize, &dyn Fn(usize, usize) -> u32),
    (b_bits, b): (usize, &dyn Fn(usize, usize) -> u32),
    c: &dyn Fn(usize, usize) -> u32,
) -> (Vec<u8>, usize) {
    let b_bytes = k * b_bits / 32 * 32;
    let mut buf = vec![0u8; 64 + b_bytes + 64];
    for r in 0..2 {
        pack(
            &mut buf[r * 32..r * 32 + 32],
            (0..k).map(|i| a(r, i)),
            a_bits,
        );
    }
    for n in 0..8 {
        for i in 0..k {
            put_b(&mut buf[64..64 + b_bytes], n, i, b_bits, b(i, n));
        }
        for r in 0..2 {
            let at = 64 + b_bytes + r * 32 + n * 4;
            buf[at..at + 4].copy_from_slice(&c(r, n).to_le_bytes());
        }
    }
    (buf, b_bytes)
}

#[test]
fn integer_dpas_with_u4_weights_and_s8_activations() {
    // K = 8 depths x 4 ops = 32; B's u4 elements take two depths a dword (4 registers).
    let a = |r: usize, k: usize| ((r * 7 + k * 5) % 23) as i32 - 11;
    let b = |k: usize, n: usize| ((k * 3 + n * 5) % 16) as u32;
    let c = |r: usize, n: usize| (r * 1000 + n) as i32 - 500;
    let (buf, b_bytes) = operands(32, (8, &|r, k| a(r, k) as u32), (4, &b), &|r, n| {
        c(r, n) as u32
    });
    let got = run("dpas.u4.s8.8.2", "d", b_bytes, buf);
    for r in 0..2 {
        for n in 0..8 {
            let want = c(r, n) + (0..32).map(|k| a(r, k) * b(k, n) as i32).sum::<i32>();
            assert_eq!(got[r * 8 + n] as i32, want, "D[{r}][{n}]");
        }
    }
}

#[test]
fn bf16_dpas_accumulates_in_f32() {
    // K = 8 depths x 2 ops = 16; small integers and halves: every sum is exact.
    let bf16 = |x: f32| x.to_bits() >> 16;
    let a = |r: usize, k: usize| ((r * 3 + k * 7) % 9) as f32 * 0.5 - 2.0;
    let b = |k: usize, n: usize| ((k + n * 3) % 5) as f32 - 2.0;
    let c = |r: usize, n: usize| (r * 8 + n) as f32 * 0.25;
    let (buf, b_bytes) = operands(
        16,
        (16, &|r, k| bf16(a(r, k))),
        (16, &|k, n| bf16(b(k, n))),
        &|r, n| c(r, n).to_bits(),
    );
    let got = run("dpas.bf.bf.8.2", "f", b_bytes, buf);
    for r in 0..2 {
        for n in 0..8 {
            let want = c(r, n) + (0..16).map(|k| a(r, k) * b(k, n)).sum::<f32>();
            assert_eq!(f32::from_bits(got[r * 8 + n]), want, "D[{r}][{n}]");
        }
    }
}
