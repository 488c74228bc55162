//! Launches one kernel as `gpukit visa run` does, through the library:
//! `cargo run -p gpukit-runtime --example launch -- K.visaasm PROGRAM.bin KERNEL GLOBAL LOCAL SPEC...`
//! (specs as `--arg`: `0=zeros:256`, `1=u32:7`, `2=file:input.bin`), then prints each
//! buffer argument's first words.

use gpukit_runtime::{launch, parse_arg, Budget, Code, Error, Kernel, Request};
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [text, binary, name, global, local, specs @ ..] = args.as_slice() else {
        return Err("usage: launch K.visaasm PROGRAM.bin KERNEL GLOBAL LOCAL SPEC...".into());
    };
    let object = gpukit_visa::text::parse_text(&std::fs::read_to_string(text)?)
        .map_err(|e| format!("{text}: {e:?}"))?;
    let program = gpukit_intel::read(&std::fs::read(binary)?)?;
    let routine = object
        .kernels
        .iter()
        .find(|k| k.name == name.as_bytes())
        .or(object.kernels.first())
        .ok_or("the text has no kernel")?;
    let mut budget = Budget::new(gpukit_runtime::DEFAULT_MAX_MEMORY);
    let mut read = |p: &Path| std::fs::read(p).map_err(|e| Error::Io(e.to_string()));
    let mut parsed = Vec::new();
    for s in specs {
        parsed.push(parse_arg(s, &mut budget, &mut read)?);
    }
    let buffers: Vec<_> = parsed.iter().map(|(arg, _)| arg.clone()).collect();
    let request = Request {
        global: [global.parse()?, 1, 1],
        local: [local.parse()?, 1, 1],
        work_dim: 1,
        args: parsed,
        max_instructions: None,
        options: Default::default(),
    };
    let kernel = Kernel {
        name,
        code: Code::Visa {
            body: &routine.body,
            functions: Vec::new(),
        },
    };
    let outcome = launch(&kernel, program, request, &mut budget, None)?;
    for arg in buffers {
        let i = outcome.arg_index(&arg).ok_or("no such argument")?;
        if let Some(data) = outcome.buffer(i) {
            let words: Vec<u32> = data
                .chunks_exact(4)
                .take(8)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect();
            println!("argument {i}: {words:?}");
        }
    }
    Ok(())
}
