//! Runs `gpukit visa info --json FILE` in-process and prints what it wrote.
//!
//!     cargo run -p gpukit --example api -- kernel.isa
fn main() -> std::process::ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: api FILE.isa");
        return std::process::ExitCode::from(2);
    };
    let outcome = gpukit::api::command(["visa", "info", "--json", &path]);
    if outcome.code != 0 {
        eprintln!("error: {}", outcome.stderr);
        return std::process::ExitCode::from(outcome.code);
    }
    print!("{}", String::from_utf8_lossy(&outcome.stdout));
    std::process::ExitCode::SUCCESS
}
