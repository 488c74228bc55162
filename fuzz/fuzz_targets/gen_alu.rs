//! The Gen ALU's text readers on arbitrary input: `bfn`'s function spelling (hex or
//! an `s0`/`s1`/`s2` expression) is a table or `None`, and the `$N` ids of an `.asm`
//! dump come out one per instruction line, never a panic; every row then evaluates
//! arbitrary lane values of every type pairing.
#![no_main]
use gpukit_gen::alu::{self, CondMod, Types};
use gpukit_gen::locate::visa_ids;
use gpukit_visa::interp::value::{decode, FloatMode, Val};
use gpukit_visa::isa::Type;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = alu::bfn_function(&text);
    let _ = visa_ids(&text);
    if data.len() < 28 {
        return;
    }
    let types = [
        Type::UD, Type::D, Type::UW, Type::W, Type::UB, Type::B, Type::DF, Type::F, Type::UQ,
        Type::Q, Type::HF, Type::BF,
    ];
    let ty = |b: u8| types[b as usize % types.len()];
    let t = Types {
        dst: ty(data[0]),
        src: [ty(data[1]), ty(data[2]), ty(data[3])],
    };
    let word = |i: usize| u64::from_le_bytes(data[i..i + 8].try_into().unwrap());
    let s = [decode(t.src[0], word(4)), decode(t.src[1], word(12)), decode(t.src[2], word(20))];
    let mode = FloatMode::from_cr0(u32::from(data[0]) << 4);
    for op in alu::ops() {
        let out = (op.eval)(&t, mode, &s, Val::I(i128::from(data[1])));
        let _ = alu::condition(CondMod::Ov, out.value, t.dst);
    }
});
