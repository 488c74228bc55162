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
    let target = output.and_then(file_id);
    if let Some(id) = target {
        for p in &a.paths {
            if file_id(p) == Some(id) {
                return Err(CmdError::Usage(format!(
                    "{}: is one of the input files; refusing to overwrite it",
                    p.display()
                )));
            }
        }
    }
    let stream = open_stream(a.output.as_deref(), a.format == RowFormat::Parquet)?;
    // The scan's own output is never one of its rows (`gpukit scan dir -o dir/rows`).
    let exclude: Vec<(u64, u64)> = target
        .into_iter()
        .chain(stream.temp_path().and_then(file_id))
        .collect();
    let mut rows = writer::open(a.format, stream).map_err(write_error(output))?;

    let jobs = a.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let options = extract::Options { verify: a.verify };
    let shard = a.shard;
    let files = Walk::new(a.paths, exclude)
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
            Found::Skipped(path, why) => extract::skipped(&path, &why),
        },
        |file| {
            tally.files += 1;
            tally.bytes += file.bytes_read;
            for r in &file.rows {
                if r.file_error {
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
        extract::skipped(path, "internal error: the reader panicked (a gpukit bug)")
    })
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
    bytes: u64,
}

impl Tally {
    fn summary(&self, seconds: f64) -> String {
        let rate = |n: f64| if seconds > 0.0 { n / seconds } else { 0.0 };
        let mb = self.bytes as f64 / 1e6;
        format!(
            "scan: {} files, {} kernels, {} errors ({} files without kernels, {} kernels \
             not decoded), {mb:.1} MB read in {seconds:.2} s ({:.0} files/s, {:.1} MB/s)",
            self.files,
            self.kernels,
            self.file_errors + self.kernel_errors,
            self.file_errors,
            self.kernel_errors,
            rate(self.files as f64),
            rate(mb),
        )
    }
}
