//! In-process calls for language bindings: the command line, run as `gpukit` would
//! run it, with its stdout returned instead of printed.
//!
//! Every call is independent: the files a previous call read are forgotten (so the
//! "output is one of the inputs" check sees this call's inputs only), no signal
//! handler is installed (Ctrl-C stays the host's), and calls are serialised.

use std::sync::Mutex;

/// What one command did: its exit code (0 ok, 1 invalid input or findings, 2 usage),
/// what it wrote to stdout, and its error message (without the `error: ` prefix;
/// empty when it said everything on stdout). Warnings and per-file messages of
/// multi-file commands still go to the process's stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub code: u8,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// One command at a time: the capture of stdout and the list of inputs are global.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Runs `gpukit ARGS...` (without the program name), e.g.
/// `command(["visa", "verify", "--json", "k.isa"])`.
pub fn command<I, S>(args: I) -> Outcome
where
    I: IntoIterator<Item = S>,
    S: Into<std::ffi::OsString> + Clone,
{
    use clap::Parser;
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let argv =
        std::iter::once(std::ffi::OsString::from("gpukit")).chain(args.into_iter().map(Into::into));
    let cli = match crate::cli::Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        // --help and --version are "errors" that print to stdout and exit 0.
        Err(e) => {
            let text = e.render().to_string();
            let code = e.exit_code().clamp(0, 255) as u8;
            return if e.use_stderr() {
                Outcome {
                    code,
                    stdout: Vec::new(),
                    stderr: text.trim_end().trim_start_matches("error: ").to_string(),
                }
            } else {
                Outcome {
                    code,
                    stdout: text.into_bytes(),
                    stderr: String::new(),
                }
            };
        }
    };
    crate::input::forget_reads();
    let (result, stdout) = crate::output::capture_stdout(|| crate::cli::run(cli));
    crate::input::forget_reads();
    match result {
        Ok(()) => Outcome {
            code: 0,
            stdout,
            stderr: String::new(),
        },
        Err(e) => Outcome {
            code: e.exit_code(),
            stdout,
            stderr: crate::error::render_message(&e.to_string()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_errors_and_help_are_outcomes_not_exits() {
        let bad = command(["visa", "no-such-subcommand"]);
        assert_eq!(bad.code, 2);
        assert!(bad.stderr.contains("no-such-subcommand"), "{}", bad.stderr);
        let help = command(["--version"]);
        assert_eq!(help.code, 0);
        assert!(String::from_utf8_lossy(&help.stdout).starts_with("gpukit "));
    }

    #[test]
    fn stdout_is_captured_and_inputs_are_forgotten_between_calls() {
        let dir = std::env::temp_dir().join(format!("gpukit-api-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = dir.join("k.visaasm");
        let isa = dir.join("k.isa");
        let sample = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/visa/l02_local_sum__local_sum.isa"
        );
        let dis = command(["visa", "dis", sample]);
        assert_eq!(dis.code, 0, "{}", dis.stderr);
        assert!(
            dis.stdout.starts_with(b".version"),
            "{:?}",
            &dis.stdout[..20]
        );
        std::fs::write(&text, &dis.stdout).unwrap();
        let to = isa.to_str().unwrap();
        let asm = command(["visa", "asm", text.to_str().unwrap(), "-o", to]);
        assert_eq!(asm.code, 0, "{}", asm.stderr);
        // The next call reads k.isa and may write k.visaasm, an input of the last call.
        let back = command(["visa", "dis", to, "-o", text.to_str().unwrap()]);
        assert_eq!(back.code, 0, "{}", back.stderr);
        assert_eq!(std::fs::read(&text).unwrap(), dis.stdout);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
