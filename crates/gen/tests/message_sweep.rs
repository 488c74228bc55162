//! Descriptor sweep: messages decoded from pseudo-random descriptors on every
//! shared function and platform, then run against registers of random bytes
//! (with buffer addresses and small offsets planted), payloads anywhere in the
//! register file: every decode and every run is Ok or Err, never a panic.

use gpukit_gen::message::{decode, execute, SendContext};
use gpukit_iga::read::text::parse_text;
use gpukit_iga::syntax::Gen;
use gpukit_visa::interp::{Findings, Memory};

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const SFIDS: [&str; 10] = [
    "dc0", "dc1", "dcro", "ugm", "slm", "tgm", "gtwy", "ts", "smpl", "null",
];

/// Descriptor bits near the ones IGC emits: a corpus descriptor with a few bits flipped, or random.
const SEEDS: [u32; 8] = [
    0x0420_5E00,
    0x0414_AEFF,
    0x0248_4400,
    0x020F_1000,
    0x6428_0500,
    0x0820_0B80,
    0x0210_D580,
    0x0800_0792,
];

#[test]
fn random_descriptors_never_panic() {
    let template = parse_text("send.ugm (16|M0) r10 r20 r30:2 0x0 0x0\n", Some("12p72")).unwrap();
    let base = template.insts().next().unwrap().clone();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut decoded, mut ran_ok) = (0, 0);
    for _ in 0..20_000 {
        let mut inst = base.clone();
        inst.subop = Some(SFIDS[rng.below(SFIDS.len() as u64) as usize].to_string());
        inst.exec_size = [1, 8, 16, 32][rng.below(4) as usize];
        let platform = [Gen::Gen9, Gen::Xe, Gen::XeHpg, Gen::XeHpc][rng.below(4) as usize];
        let desc = match rng.below(3) {
            0 => rng.next() as u32,
            _ => SEEDS[rng.below(8) as usize] ^ (1 << rng.below(32)) ^ (1 << rng.below(32)),
        };
        let ex_desc = if rng.below(2) == 0 {
            rng.next() as u32
        } else {
            (rng.below(4) as u32) << 24
        };
        let Ok(msg) = decode(&inst, platform, desc, ex_desc) else {
            continue;
        };
        decoded += 1;
        let grf = if platform == Gen::XeHpc { 64 } else { 32 };
        let mut mem = Memory::default();
        let mut bases = Vec::new();
        for b in 0..3u32 {
            bases.push(mem.add(format!("b{b}"), vec![0; 64 << b]));
            mem.bind(b, b as usize);
        }
        let mut regs = vec![0u8; 128 * grf];
        for (i, chunk) in regs.chunks_mut(8).enumerate() {
            let v = match rng.below(4) {
                0 => bases[i % 3] + rng.below(300),
                1 => rng.below(300),
                2 => 0x1000_0000 + rng.below(300),
                _ => rng.next(),
            };
            chunk.copy_from_slice(&v.to_le_bytes());
        }
        let mut slm = vec![0u8; 256];
        let mut scratch = Vec::new();
        let mut findings = Findings::default();
        let indirect: Vec<u8> = (0..200).collect();
        let at = |r: &mut Rng| (r.below(128) * grf as u64) as u32;
        let mut cx = SendContext {
            src0: at(&mut rng),
            src1: (rng.below(2) == 0).then(|| at(&mut rng)),
            dst: (rng.below(4) != 0).then(|| at(&mut rng)),
            regs: &mut regs,
            grf_bytes: grf as u32,
            exec_size: inst.exec_size as u32,
            channels: rng.next() as u32,
            mem: &mut mem,
            slm: &mut slm,
            scratch: &mut scratch,
            scratch_limit: 4096,
            findings: &mut findings,
            indirect: &indirect,
            group: [0; 3],
            thread: 0,
            check: None,
        };
        ran_ok += execute(&msg, &mut cx).is_ok() as u32;
    }
    assert!(decoded > 1000, "only {decoded} descriptors decoded");
    assert!(ran_ok > 100, "only {ran_ok} messages ran");
}
