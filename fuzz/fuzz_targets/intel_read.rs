#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(program) = gpukit_intel::read(data) else {
        return;
    };
    // Every value `gpukit intel info` (and `visa run`) derives from the model.
    for k in &program.kernels {
        for grf in [0, 1, 32, 64, u32::MAX] {
            let _ = k.per_thread_bytes(grf);
        }
        for a in &k.args {
            let _ = a.payload_size();
            assert_eq!(k.arg(a.index).map(|found| found.index), Some(a.index));
        }
        for i in &k.implicit {
            let _ = i.kind.name();
        }
    }
});
