use std::collections::BTreeMap;
fn main() {
    let mut hist: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let mut files = 0;
    for arg in std::env::args().skip(1) {
        let bytes = std::fs::read(&arg).unwrap();
        let Ok(obj) = gpukit_visa::read_lenient(&bytes) else {
            eprintln!("unreadable {arg}");
            continue;
        };
        files += 1;
        let platform = if arg.contains("/skl/") || arg.contains("/kbl/") {
            "skl"
        } else if arg.contains("icllp") {
            "icllp"
        } else if arg.contains("tgllp") {
            "tgllp"
        } else if arg.contains("pvc") {
            "pvc"
        } else {
            "dg2"
        };
        let opts = gpukit_visa::verify::Options {
            platform: gpukit_visa::verify::Platform::from_name(platform),
            strict: false,
        };
        for f in gpukit_visa::verify::verify(&obj, &opts) {
            let key = if f.rule == "VISA-OPND-006" {
                let i = match f.location.place {
                    gpukit_visa::verify::Place::Instruction {
                        routine: gpukit_visa::verify::RoutineRef::Kernel(k),
                        index,
                        ..
                    } => obj.kernels[k]
                        .body
                        .code
                        .instructions()
                        .map(|c| {
                            format!(
                                "{} {:?} {:?}",
                                c[index].mnemonic(),
                                c[index].exec().map(|e| e.exec_size()),
                                c[index].operand(
                                    &f.location.place.to_string().rsplit(' ').next().unwrap()
                                )
                            )
                        })
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                format!("{} {}", f.rule, i.replace("Some(", ""))
            } else {
                f.rule.to_string()
            };
            let e = hist.entry(key).or_insert((0, String::new()));
            e.0 += 1;
            if e.1.is_empty() {
                e.1 = format!("{arg}: {f}");
            }
        }
    }
    println!("{files} files");
    for (k, (n, ex)) in hist {
        println!("{k} {n}\n    {ex}");
    }
}
