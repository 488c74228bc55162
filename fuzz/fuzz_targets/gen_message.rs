//! Gen message decoding and execution on arbitrary descriptors and register
//! bytes: decode is Ok or Err, and a decoded message runs to Ok or Err against
//! any register contents and payload positions, never a panic.
#![no_main]
use gpukit_gen::message::{decode, execute, SendContext};
use gpukit_iga::read::text::parse_text;
use gpukit_iga::syntax::Gen;
use gpukit_visa::interp::{Findings, Memory};

const SFIDS: [&str; 10] = [
    "dc0", "dc1", "dcro", "ugm", "slm", "tgm", "gtwy", "ts", "smpl", "null",
];

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if data.len() < 16 {
        return;
    }
    let word = |i: usize| u32::from_le_bytes([data[i], data[i + 1], data[i + 2], data[i + 3]]);
    let (desc, ex_desc, channels) = (word(0), word(4), word(8));
    let pick = data[12];
    let Ok(listing) = parse_text("send.ugm (16|M0) r10 r20 r30:2 0x0 0x0\n", Some("12p72")) else {
        return;
    };
    let mut inst = listing.insts().next().unwrap().clone();
    inst.subop = Some(SFIDS[pick as usize % SFIDS.len()].to_string());
    inst.exec_size = [1, 8, 16, 32][(pick >> 4) as usize % 4];
    let platform = [Gen::Gen9, Gen::Xe, Gen::XeHpg, Gen::XeHpc][(pick >> 6) as usize];
    let Ok(msg) = decode(&inst, platform, desc, ex_desc) else {
        return;
    };
    let grf = if platform == Gen::XeHpc { 64 } else { 32 };
    let mut regs = vec![0u8; 128 * grf];
    for (r, b) in regs.iter_mut().zip(data[16..].iter().cycle()) {
        *r = *b;
    }
    let mut mem = Memory::default();
    mem.add("b0", vec![0; 256]);
    mem.bind(0, 0);
    let mut slm = vec![0u8; 256];
    let mut scratch = Vec::new();
    let mut findings = Findings::default();
    let indirect: Vec<u8> = (0..200).collect();
    let at = |b: u8| u32::from(b % 128) * grf as u32;
    let mut cx = SendContext {
        src0: at(data[13]),
        src1: (data[14] & 1 == 0).then(|| at(data[14] >> 1)),
        dst: (data[15] & 1 == 0).then(|| at(data[15] >> 1)),
        regs: &mut regs,
        grf_bytes: grf as u32,
        exec_size: inst.exec_size as u32,
        channels,
        mem: &mut mem,
        slm: &mut slm,
        scratch: &mut scratch,
        scratch_limit: 4096,
        findings: &mut findings,
        indirect: &indirect,
        group: [0; 3],
        thread: 0,
    };
    let _ = execute(&msg, &mut cx);
});
