//! Mutated listings never panic the Gen engine: corpus kernels with numbers in their
//! instruction lines replaced (register numbers, subregisters, regions, execution
//! sizes and offsets, immediates, descriptors) or lines dropped, lowered with 32- and
//! 64-byte GRFs and run on a small launch with a small instruction budget. Lowering
//! or running may fail; it must fail with an error.

use gpukit_gen::{lower, run, RunOptions};
use gpukit_iga::read::text::parse_text;
use gpukit_visa::interp::{Launch, Memory, Payload};
use std::path::Path;

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const VALUES: [&str; 12] = [
    "0",
    "1",
    "2",
    "3",
    "7",
    "16",
    "31",
    "32",
    "127",
    "255",
    "65535",
    "4294967295",
];

/// Replaces one number of a random instruction line, or drops the line.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let code: Vec<usize> = (0..lines.len())
        .filter(|&i| !lines[i].trim_start().starts_with("//") && lines[i].contains('('))
        .collect();
    if code.is_empty() {
        return text.to_string();
    }
    let at = code[rng.below(code.len())];
    if rng.below(8) == 0 {
        lines.remove(at);
        return lines.join("\n");
    }
    let line = lines[at].split("//").next().unwrap_or("").to_string();
    let digits: Vec<usize> = line
        .char_indices()
        .filter(|(i, c)| {
            c.is_ascii_digit() && (*i == 0 || !line.as_bytes()[i - 1].is_ascii_digit())
        })
        .map(|(i, _)| i)
        .collect();
    if digits.is_empty() {
        return text.to_string();
    }
    let start = digits[rng.below(digits.len())];
    let end = line[start..]
        .find(|c: char| !c.is_ascii_alphanumeric())
        .map_or(line.len(), |e| start + e);
    let value = VALUES[rng.below(VALUES.len())];
    lines[at] = format!("{}{}{}", &line[..start], value, &line[end..]);
    lines.join("\n")
}

fn launch(grf: u32) -> Launch {
    Launch {
        simd: 16,
        grf_bytes: grf,
        global: [32, 1, 1],
        local: [16, 1, 1],
        payload: Payload {
            local_id: [true, false, false],
            cross_thread_offset: 2 * grf,
            cross_thread: vec![1; 2 * grf as usize],
        },
        slm_bytes: 1024,
        max_instructions: 20_000,
        scratch_bytes: 1024,
    }
}

#[test]
fn mutated_corpus_listings_fail_without_panicking() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/intel");
    if !root.is_dir() {
        return;
    }
    let mut rng = Rng(0x5EED);
    let mut runs = 0;
    for (device, grf) in [("tgllp", 32), ("skl", 32), ("acm-g10", 32), ("pvc", 64)] {
        let Ok(dir) = std::fs::read_dir(root.join(device)) else {
            continue;
        };
        let mut files: Vec<_> = dir
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.extension().is_some_and(|e| e == "asm")
                    && !p.to_string_lossy().ends_with(".iga.asm")
            })
            .collect();
        files.sort();
        for path in files.iter().step_by(2) {
            let text = std::fs::read_to_string(path).unwrap();
            for _ in 0..8 {
                let mutated = mutate(&text, &mut rng);
                let Ok(listing) = parse_text(&mutated, None) else {
                    continue;
                };
                for g in [grf, 96 - grf] {
                    let Ok(program) = lower(&listing, g) else {
                        continue;
                    };
                    let mut mem = Memory::default();
                    mem.add("buffer", vec![0; 4096]);
                    mem.bind(0, 0);
                    let _ = run(&program, &launch(g), &mut mem, &RunOptions::default());
                    runs += 1;
                }
            }
        }
    }
    assert!(runs > 0 || !root.join("tgllp").is_dir());
}
