//! `--compare`'s locating step on a tiny fixture: IGC's `.asm` and `.visaasm` of
//! `copy_gid` (`p[gid] = gid + bias`, tgllp, SIMD32; headers trimmed). As dumped,
//! every checked Gen value equals its vISA instruction's; with one operand of one
//! instruction changed, the departure is that instruction's `$N`.

use gpukit_gen::locate::{locate, visa_ids, Departure, Placement};
use gpukit_gen::lower;
use gpukit_iga::read::text::parse_text;
use gpukit_visa::interp::{Launch, Memory, Payload};
use std::path::Path;

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/locate")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The launch the kernel's `.input`s describe: local ids in r1-r6, then r7 (global
/// offset), r8.0 (the buffer), r8.2 (`bias`), r8.3 (local size).
fn launch() -> (Launch, Memory) {
    let mut mem = Memory::default();
    let base = mem.add("p".to_string(), vec![0u8; 4 * 128]);
    mem.bind(0, 0);
    let mut data = vec![0u8; 56];
    data[32..40].copy_from_slice(&base.to_le_bytes());
    data[40..44].copy_from_slice(&5u32.to_le_bytes());
    data[44..48].copy_from_slice(&64u32.to_le_bytes());
    data[48..56].copy_from_slice(&[1, 0, 0, 0, 1, 0, 0, 0]);
    let launch = Launch {
        simd: 32,
        grf_bytes: 32,
        global: [128, 1, 1],
        local: [64, 1, 1],
        payload: Payload {
            local_id: [true, true, true],
            cross_thread_offset: 224,
            cross_thread: data,
        },
        slm_bytes: 0,
        max_instructions: 100_000,
        scratch_bytes: 0,
    };
    (launch, mem)
}

fn run(asm: &str) -> Option<Departure> {
    let visa = gpukit_visa::text::parse_text(&fixture("copy_gid.visaasm")).expect("visaasm");
    let kernel = &visa.kernels[0].body;
    let listing = parse_text(asm, None).expect("asm parses");
    let program = lower(&listing, 32).expect("lowers");
    let alloc = gpukit_intel::asm_alloc::read(asm).expect("declarations");
    let placement = Placement {
        visa_ids: visa_ids(asm),
        variables: alloc
            .variables
            .iter()
            .filter_map(|d| Some((d.name.clone(), d.grf_bytes(alloc.grf_bytes)?)))
            .collect(),
    };
    assert_eq!(placement.visa_ids.len(), listing.insts().count());
    let (launch, mem) = launch();
    locate(kernel, &[], &listing, &program, &placement, &launch, &mem).expect("both run")
}

#[test]
fn the_dump_as_written_departs_nowhere() {
    assert_eq!(run(&fixture("copy_gid.asm")), None);
}

/// `$9` is `add V0051 = V0047 + V0034` (the address plus `bias`): reading r8.3
/// (the local size) instead of r8.2 (`bias`) breaks it, and only it.
#[test]
fn a_changed_operand_is_located() {
    let asm = fixture("copy_gid.asm");
    let good = "add (16|M0)              r11.0<1>:d    r5.0<8;8,1>:d     r8.2<0;1,0>:d";
    assert!(asm.contains(good));
    let broken = asm.replace(good, &good.replace("r8.2", "r8.3"));
    let d = run(&broken).expect("a departure");
    assert_eq!((d.visa, d.variable.as_str()), (9, "V0051"), "{d:?}");
    assert_eq!(
        (d.group, d.thread, d.execution, d.byte),
        ([0, 0, 0], 0, 0, 0)
    );
    assert_ne!(d.expected, d.got);
}
