//! `--compare`'s locating step on `scale_copy` (`out[i] = in[i] * s`, tgllp, SIMD32):
//! the `visa run --compare` fixture whose `.asm` keeps IGC's `//.declare` table and has
//! one operand changed (`$17`'s multiply reads r8.5 instead of `s` in r8.4). With the
//! operand restored every checked Gen value equals its vISA instruction's; as broken,
//! the departure is `$17`.

use gpukit_gen::locate::{locate, visa_ids, Departure, Placement};
use gpukit_gen::lower;
use gpukit_iga::read::text::parse_text;
use gpukit_visa::interp::{Launch, Memory, Payload};
use std::path::Path;

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/gen/run")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const BROKEN: &str = "mul (16|M0)              r16.0<1>:f    r16.0<8;8,1>:f    r8.5<0;1,0>:f";

/// The launch the kernel's `.input`s describe: local ids in r1-r6, then from r7 the
/// global offset, `in` and `out` (bound at surfaces 0 and 1), `s`, the buffer
/// offsets and the local size.
fn launch() -> (Launch, Memory) {
    let mut mem = Memory::default();
    let input: Vec<u8> = (0..64u32).flat_map(|i| (i as f32).to_le_bytes()).collect();
    let a = mem.add("in".to_string(), input);
    let b = mem.add("out".to_string(), vec![0u8; 4 * 64]);
    mem.bind(0, 0);
    mem.bind(1, 1);
    let mut data = vec![0u8; 76];
    data[32..40].copy_from_slice(&a.to_le_bytes());
    data[40..48].copy_from_slice(&b.to_le_bytes());
    data[48..52].copy_from_slice(&0.5f32.to_le_bytes());
    data[64..68].copy_from_slice(&64u32.to_le_bytes());
    data[68..76].copy_from_slice(&[1, 0, 0, 0, 1, 0, 0, 0]);
    let launch = Launch {
        simd: 32,
        grf_bytes: 32,
        global: [64, 1, 1],
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
    let visa =
        gpukit_visa::text::parse_text(&fixture("scale_copy.tgllp-deb12.visaasm")).expect("visaasm");
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
fn the_dump_as_compiled_departs_nowhere() {
    let broken = fixture("scale_copy.tgllp-deb12.broken.asm");
    assert!(broken.contains(BROKEN));
    let asm = broken.replace(BROKEN, &BROKEN.replace("r8.5", "r8.4"));
    assert_eq!(run(&asm), None);
}

/// `$17` is `mul V0056 = V0056 * V0034` (`in[i] * s`): the first value to depart.
#[test]
fn a_changed_operand_is_located() {
    let d = run(&fixture("scale_copy.tgllp-deb12.broken.asm")).expect("a departure");
    assert_eq!((d.visa, d.variable.as_str()), (17, "V0056"), "{d:?}");
    assert_eq!(
        (d.group, d.thread, d.execution, d.byte),
        ([0, 0, 0], 0, 0, 7)
    );
    assert_ne!(d.expected, d.got);
    assert!(
        d.to_string()
            .starts_with("$17 (V0056) first differs at Gen instruction #17,"),
        "{d}"
    );
}
