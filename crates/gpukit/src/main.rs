//! The `gpukit` command: everything is in the library (`cli`), shared with the bindings.
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    gpukit::cli::main()
}
