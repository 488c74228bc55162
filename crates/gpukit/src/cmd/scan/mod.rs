//! `gpukit scan PATH... [--format ndjson|csv|parquet] [-o OUT] [--jobs N] [--verify]
//! [--shard K/N]`: every kernel under the given files and directories, one row each
//! (`row.rs` has the columns), for DuckDB, Spark, pandas.
//!
//! `walk.rs` lists the files (sorted, streamed, sharded here), `extract.rs` turns
//! each into rows (`visa.rs`, `iga.rs`, `amd.rs`), `pipeline.rs` runs that on a
//! rayon pool and hands the rows back in order, and `writer.rs` / `parquet.rs` write
//! them through `output::Stream`. A bad file is a row with `error`, never the end
//! of the scan; the scan exits 0 once every row is written.

mod amd;
pub(crate) mod extract;
mod iga;
mod intel;
mod parquet;
mod pipeline;
pub(crate) mod row;
mod visa;
pub(crate) mod walk;
mod writer;

use crate::error::{CmdError, CmdResult};
use crate::output::{emit, json, open_stream};
use std::io::IsTerminal;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::Instant;
use walk::{Found, Shard, Walk};
use writer::RowFormat;

#[derive(clap::Args)]
pub struct Args {
    /// Files and directories (walked recursively, sorted by name); `-` reads paths
    /// from stdin, one a line
    #[arg(required_unless_present = "schema")]
    paths: Vec<PathBuf>,
    /// Row format
    #[arg(long, value_enum, default_value = "ndjson")]
    format: RowFormat,
    /// Output file, replaced atomically when the scan ends (stdout when absent;
    /// Parquet is not written to a terminal unless `-o -`)
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Worker threads (default: the CPUs available)
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Also run `visa verify`'s rules on vISA files (`verify_findings`, `verify_rules`)
    #[arg(long)]
    verify: bool,
    /// Only the K-th of N interleaved parts of the sorted file list (K from 1), for
    /// one task of an array job; the N outputs together are the whole scan
    #[arg(long, value_name = "K/N", value_parser = walk::parse_shard)]
    shard: Option<Shard>,
    /// CSV: put `'` before a cell that starts with `=`, `+`, `-`, `@`, tab or CR, so
    /// that a spreadsheet shows it instead of evaluating it (the cell then differs
    /// from NDJSON and Parquet)
    #[arg(long)]
    csv_formula_guard: bool,
    /// Print the JSON Schema of a row and exit
    #[arg(long, conflicts_with_all = ["paths", "shard", "verify"])]
    schema: bool,
}

/// Files the pool may read ahead of the writer, per worker thread.
const WINDOW_PER_JOB: usize = 64;

pub fn run(a: Args) -> CmdResult {
    if a.schema {
        return emit(a.output.as_deref(), &json(&row::json_schema()));
    }
    let output = a.output.as_deref().filter(|o| o.as_os_str() != "-");
    // The existing file `-o` replaces (a symlink's target), if the walk reaches it.
    let target = output.and_then(file_id);
    let stream = open_stream(a.output.as_deref(), a.format.stream_kind())?;
    // The temporary the rows go to is never one of them, nor is a file the shell
    // opened as stdout (`gpukit scan dir > dir/rows.ndjson`): it is this scan's
    // output, already truncated, and reading it would read rows.
    let stdout_file = output
        .is_none()
        .then(|| file_id(Path::new("/dev/stdout")))
        .flatten();
    let exclude: Vec<(u64, u64)> = stream
        .temp_path()
        .and_then(file_id)
        .into_iter()
        .chain(stdout_file)
        .collect();
    let csv = writer::CsvOptions {
        formula_guard: a.csv_formula_guard,
    };
    let mut rows = writer::open(a.format, stream, csv).map_err(write_error(output))?;

    let jobs = a.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let options = extract::Options { verify: a.verify };
    let shard = a.shard;
    // Set when the walk reaches the output and it is not a previous scan's rows: the
    // scan stops, its temporary is removed and the input is left as it was.
    let refused: std::cell::RefCell<Option<CmdError>> = std::cell::RefCell::new(None);
    let files = Walk::new(a.paths, exclude, target)
        .map_while(|found| match found {
            // Rows of an earlier scan found in a directory are the output run again.
            Found::Output(path, false) if previous_scan_output(&path) => Some(None),
            Found::Output(path, _) => {
                *refused.borrow_mut() = Some(output_is_input(&path, output));
                None
            }
            other => Some(Some(other)),
        })
        .flatten()
        .enumerate()
        .filter(move |(i, _)| shard.is_none_or(|s| s.holds(*i as u64)))
        .map(|(_, f)| f);

    let progress = progress_bar();
    let started = Instant::now();
    let mut tally = Tally::default();
    let result = pipeline::ordered(
        jobs,
        jobs * WINDOW_PER_JOB,
        files,
        |found| match found {
            Found::File(path) => scan_guarded(&path, options),
            Found::Skipped(path, why) => extract::skipped(&path, row::ErrorKind::Io, &why),
            Found::Output(..) => unreachable!("the output is taken out of the walk above"),
        },
        |file| {
            tally.files += 1;
            tally.bytes += file.bytes_read;
            for r in &file.rows {
                if r.skipped {
                    tally.skipped += 1;
                } else if r.file_error {
                    tally.file_errors += 1;
                } else {
                    tally.kernels += 1;
                    if r.error.is_some() {
                        tally.kernel_errors += 1;
                    }
                }
                rows.write(r)?;
            }
            progress.inc(1);
            Ok::<(), std::io::Error>(())
        },
    );
    progress.finish_and_clear();
    if let Some(e) = refused.into_inner() {
        // `rows` (and with it the temporary) is dropped unfinished: nothing is replaced.
        return Err(e);
    }
    let finished = result.and_then(|()| rows.finish());
    match finished {
        Ok(stream) => stream.finish()?,
        // The reader went away (`gpukit scan dir | head`): nothing more to say.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
        Err(e) => return Err(write_error(output)(e)),
    }
    eprintln!("{}", tally.summary(started.elapsed().as_secs_f64()));
    Ok(())
}

/// A file's rows; a panic in a reader (a bug, never expected) becomes that file's
/// error row instead of ending the scan.
fn scan_guarded(path: &Path, options: extract::Options) -> extract::FileRows {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        extract::scan_file(path, options)
    }))
    .unwrap_or_else(|_| {
        extract::skipped(
            path,
            row::ErrorKind::Internal,
            "internal error: the reader panicked (a gpukit bug)",
        )
    })
}

/// The refusal of an output the walk reads (exit 2, nothing written).
fn output_is_input(path: &Path, output: Option<&Path>) -> CmdError {
    let out = output.map_or_else(String::new, |o| format!(" (-o {})", crate::error::name(o)));
    CmdError::Usage(format!(
        "{}: is the output file{out} and one of the files scanned; refusing to replace \
         an input (write the rows outside the scanned paths)",
        crate::error::name(path)
    ))
}

/// Whether an existing file is rows of an earlier `gpukit scan` (or empty), which a
/// new scan may replace when it finds it among its inputs (`gpukit scan dir -o
/// dir/rows.ndjson`, run again). Told by content: NDJSON rows open with the `path`
/// column, CSV with the header, Parquet names gpukit scan as its writer in the footer.
fn previous_scan_output(path: &Path) -> bool {
    const TAIL: u64 = 64 * 1024;
    let Ok(mut input) = crate::input::open(path) else {
        return false;
    };
    let mut head = Vec::new();
    if input.read_up_to(&mut head, TAIL).is_err() {
        return false;
    }
    // A row's first line: the `path` column first, the `size_bytes` column in it
    // (NDJSON), or the header naming the columns (CSV, also before `path_escaped`).
    let first = head.split(|&b| b == b'\n').next().unwrap_or_default();
    let has = |needle: &[u8]| memchr::memmem::find(first, needle).is_some();
    if head.is_empty()
        || (first.starts_with(b"{\"path\":") && has(b",\"size_bytes\":"))
        || (first.starts_with(b"path,") && has(b",format,kernel,routine,size_bytes,"))
    {
        return true;
    }
    if !head.starts_with(b"PAR1") {
        return false;
    }
    // The footer (with `created_by`) is at the end.
    let mut tail = Vec::new();
    let at = input.size().saturating_sub(TAIL);
    if input.seek_to(at).is_err() || input.read_up_to(&mut tail, TAIL).is_err() {
        return false;
    }
    tail.ends_with(b"PAR1") && memchr::memmem::find(&tail, b"gpukit scan").is_some()
}

fn file_id(p: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(p)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| (m.dev(), m.ino()))
}

fn write_error(output: Option<&Path>) -> impl Fn(std::io::Error) -> CmdError + '_ {
    move |e| {
        let what = output.map_or_else(|| "stdout".to_string(), |o| o.display().to_string());
        CmdError::Io(format!("{what}: cannot write: {e}"))
    }
}

/// A spinner with the count and rate on stderr, only when stderr is a terminal (a
/// log file or CI gets the summary line alone).
fn progress_bar() -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} scan: {human_pos} files, {per_sec}, {elapsed}",
    ) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

#[derive(Default)]
struct Tally {
    files: u64,
    kernels: u64,
    kernel_errors: u64,
    file_errors: u64,
    skipped: u64,
    bytes: u64,
}

impl Tally {
    fn summary(&self, seconds: f64) -> String {
        let rate = |n: f64| if seconds > 0.0 { n / seconds } else { 0.0 };
        let mb = self.bytes as f64 / 1e6;
        format!(
            "scan: {} files, {} kernels, {} errors ({} files without kernels, {} kernels \
             not decoded), {} skipped (no GPU format), {mb:.1} MB read in {seconds:.2} s ({:.0} files/s, {:.1} MB/s)",
            self.files,
            self.kernels,
            self.file_errors + self.kernel_errors,
            self.file_errors,
            self.kernel_errors,
            self.skipped,
            rate(self.files as f64),
            rate(mb),
        )
    }
}
