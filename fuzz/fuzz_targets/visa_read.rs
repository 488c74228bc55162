//! The vISA binary reader on arbitrary bytes: Ok or Err, never a panic. A read keeps
//! instruction streams encoded, so every instruction is decoded on access too, both
//! ways (one at a time, and the whole list at once), and both must agree.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = gpukit_visa::read(data);
    if let Ok(obj) = gpukit_visa::read_lenient(data) {
        for r in obj.routines() {
            let list = r.code.instructions_or_empty();
            // Decoded one at a time (a clone: nothing decoded yet) and whole.
            let lazy = list.clone();
            let mut walk = lazy.walk();
            for whole in list.iter() {
                let (i, inst) = walk.next_instruction().expect("as many instructions");
                assert_eq!(inst, whole);
                let head = lazy.head(i).expect("a head per instruction");
                assert_eq!((head.opcode, head.subop), (inst.opcode, inst.subop));
            }
            assert!(walk.next_instruction().is_none());
        }
    }
});
