//! Shared by `robustness.rs` and the `intel_read` fuzz target: reads a program
//! binary and computes every value `intel info` (and `visa run`) derives from the
//! model; none may panic, whatever the fields hold.

pub fn derived_values(bytes: &[u8]) {
    // scan's platform of a zebin: the ELF notes, read whether or not the program reads.
    let _ = gpukit_intel::gfxcore_family(bytes);
    let Ok(program) = gpukit_intel::read(bytes) else {
        return;
    };
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
}
