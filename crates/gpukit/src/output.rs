//! Where command output goes. Every command writes through here, and this module
//! guarantees the output contract:
//!
//! - an output that is the same file as any input (through symlinks or hard links)
//!   is refused, and the input is untouched (`emit_streamed_in_place` is the one exception,
//!   for `visa fmt --in-place`);
//! - a regular file is replaced atomically: a temporary sibling with an
//!   unpredictable name, created exclusively, fsynced, renamed over the target; the
//!   existing file's mode (and owner, where the process may) is kept; a symlink is
//!   followed, so its target is replaced and the link stays;
//! - a FIFO, a character device or `/dev/stdout` is opened and written through, never
//!   replaced;
//! - on failure, SIGINT, SIGTERM or SIGHUP no temporary file is left and an existing
//!   output is unchanged;
//! - binary output to a terminal is refused unless `-o -` asks for it;
//! - text output has its control characters escaped, so a file cannot drive the
//!   user's terminal.

use crate::error::{CmdError, CmdResult};
use std::collections::hash_map::RandomState;
use std::fs::{File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{IsTerminal, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

/// What a command produces: text (escaped for safety) or bytes (written as they are).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    Binary,
    /// JSON from `write_json`, whose strings carry no control characters: written as is.
    Json,
    /// Records (CSV) whose fields must stay exact: written as they are into a file or
    /// a pipe, escaped like text only on a terminal.
    Records,
}

/// What `open_stream` writes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum StreamKind {
    /// Bytes (Parquet): refused on a terminal unless `-o -`.
    Binary,
    /// Text whose producer escapes its own control characters (NDJSON): as is.
    Escaped,
    /// Records that must stay exact in a file (CSV); escaped on a terminal only.
    Records,
}

/// Writes text to `out`, or to stdout when `out` is `None` or `-`.
pub fn emit(out: Option<&Path>, bytes: &[u8]) -> CmdResult {
    write_to(out, bytes, Kind::Text, false)
}

/// Writes text to `out` as `produce` makes it, for outputs too large to build whole
/// first; `produce` must write whole lines per call (control characters are escaped
/// per call).
pub fn emit_streamed(
    out: Option<&Path>,
    produce: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> CmdResult {
    write_with(out, Kind::Text, false, |stream| produce(stream))
}

/// Writes binary output (a `.isa`, Gen code) to `out`; refused on a terminal unless
/// the user said `-o -`.
pub fn emit_binary(out: Option<&Path>, bytes: &[u8]) -> CmdResult {
    write_to(out, bytes, Kind::Binary, false)
}

/// Rewrites an input file in place, atomically (`visa fmt --in-place`).
pub fn emit_streamed_in_place(
    path: &Path,
    produce: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> CmdResult {
    write_with(Some(path), Kind::Text, true, |stream| produce(stream))
}

/// Serialises a report as pretty JSON followed by a newline.
pub fn json<T: serde::Serialize>(value: &T) -> Vec<u8> {
    let mut v = Vec::new();
    let _ = write_json(&mut v, value, true);
    v
}

/// Writes `value` as JSON and a newline. Strings have DEL and the C1 controls escaped
/// as `\u00XX` too (serde_json leaves them raw), so JSON never needs the terminal
/// escaping of text output, which would make it invalid JSON.
fn write_json<W: Write, T: serde::Serialize + ?Sized>(
    w: &mut W,
    value: &T,
    pretty: bool,
) -> std::io::Result<()> {
    if pretty {
        let fmt = ControlsEscaped(serde_json::ser::PrettyFormatter::new());
        value.serialize(&mut serde_json::Serializer::with_formatter(&mut *w, fmt))?;
    } else {
        let fmt = ControlsEscaped(serde_json::ser::CompactFormatter);
        value.serialize(&mut serde_json::Serializer::with_formatter(&mut *w, fmt))?;
    }
    w.write_all(b"\n")
}

/// Opens `out` for JSON; serde_json writes in small pieces, batched here before
/// they reach the output.
fn write_json_with(
    out: Option<&Path>,
    produce: impl FnOnce(&mut std::io::BufWriter<&mut Stream>) -> std::io::Result<()>,
) -> CmdResult {
    write_with(out, Kind::Json, false, |stream| {
        let mut w = std::io::BufWriter::with_capacity(1 << 16, stream);
        produce(&mut w)?;
        w.flush()
    })
}

/// A JSON formatter that escapes what serde_json writes raw but a terminal obeys.
struct ControlsEscaped<F>(F);

/// Forwards a `Formatter` method to the wrapped formatter (the pretty one overrides them).
macro_rules! forward_formatter {
    ($($name:ident $(($arg:ident: $ty:ty))?;)*) => {$(
        fn $name<W: ?Sized + Write>(&mut self, w: &mut W $(, $arg: $ty)?) -> std::io::Result<()> {
            self.0.$name(w $(, $arg)?)
        }
    )*};
}

impl<F: serde_json::ser::Formatter> serde_json::ser::Formatter for ControlsEscaped<F> {
    forward_formatter! {
        begin_array; end_array; begin_array_value(first: bool); end_array_value;
        begin_object; end_object; begin_object_key(first: bool); end_object_key;
        begin_object_value; end_object_value;
    }
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if ('\u{7f}'..='\u{9f}').contains(&c) {
                w.write_all(&fragment.as_bytes()[start..i])?;
                write!(w, "\\u{:04x}", c as u32)?;
                start = i + c.len_utf8();
            }
        }
        w.write_all(&fragment.as_bytes()[start..])
    }
}

/// How `--json` prints: one pretty document, or one compact line per item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum JsonStyle {
    Pretty,
    Ndjson,
}

/// `--json[=pretty|ndjson]`, shared by every reporting command.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct JsonArg {
    /// Print the report as JSON (`--json=ndjson`: one compact line per item)
    #[arg(long, value_name = "STYLE", num_args = 0..=1, require_equals = true,
          default_missing_value = "pretty")]
    pub json: Option<JsonStyle>,
}

impl JsonArg {
    pub fn enabled(self) -> bool {
        self.json.is_some()
    }
    /// One report: pretty, or compact on one line for `ndjson`.
    pub fn one<T: serde::Serialize>(self, value: &T) -> Vec<u8> {
        let mut v = Vec::new();
        let _ = self.write_one(&mut v, value);
        v
    }
    /// Several items: a pretty array, or one compact line each for `ndjson`.
    pub fn many<T: serde::Serialize>(self, items: &[T]) -> Vec<u8> {
        let mut v = Vec::new();
        let _ = self.write_many(&mut v, items);
        v
    }
    /// Writes one report to `out` as it is serialised: JSON can be many times the
    /// size of the model it describes, so it is never held whole in memory.
    pub fn emit_one<T: serde::Serialize>(self, out: Option<&Path>, value: &T) -> CmdResult {
        write_json_with(out, |w| self.write_one(w, value))
    }
    /// Writes several items to `out` as they are serialised (see `emit_one`).
    pub fn emit_many<T: serde::Serialize>(self, out: Option<&Path>, items: &[T]) -> CmdResult {
        write_json_with(out, |w| self.write_many(w, items))
    }
    fn write_one<T: serde::Serialize>(self, w: &mut impl Write, value: &T) -> std::io::Result<()> {
        write_json(w, value, self.json != Some(JsonStyle::Ndjson))
    }
    fn write_many<T: serde::Serialize>(
        self,
        w: &mut impl Write,
        items: &[T],
    ) -> std::io::Result<()> {
        match self.json {
            Some(JsonStyle::Ndjson) => items.iter().try_for_each(|i| write_json(w, i, false)),
            _ => write_json(w, items, true),
        }
    }
}

/// Output written while it is produced (`gpukit scan`), for outputs too large to hold:
/// the same contract as `emit`, streamed. A regular file is written to a temporary
/// sibling that `finish` renames over the target; on an error, a drop without
/// `finish`, or a signal, the temporary is removed and the target is unchanged.
pub struct Stream {
    sink: StreamSink,
    kind: Kind,
}

enum StreamSink {
    Stdout(std::io::BufWriter<std::io::Stdout>),
    /// Stdout of an in-process run (`api`): kept for the caller, see `capture_stdout`.
    Captured(Vec<u8>),
    Through(std::io::BufWriter<File>, PathBuf),
    Temp {
        file: Option<std::io::BufWriter<File>>,
        tmp: PathBuf,
        real: PathBuf,
    },
}

/// Opens `out` (stdout when `None` or `-`) for streamed text, or for binary output
/// when `binary` (refused on a terminal unless `-o -` asks for it).
pub fn open_stream(out: Option<&Path>, kind: StreamKind) -> Result<Stream, CmdError> {
    let kind = match kind {
        StreamKind::Binary => Kind::Binary,
        StreamKind::Escaped => Kind::Json,
        StreamKind::Records => Kind::Records,
    };
    stream_to(resolve(out)?, kind)
}

/// A stream into a resolved target: every write of this module goes through here.
fn stream_to(target: Target, kind: Kind) -> Result<Stream, CmdError> {
    let binary = kind == Kind::Binary;
    let kind = match (kind, &target) {
        (Kind::Records, Target::Stdout { .. }) if std::io::stdout().is_terminal() => Kind::Text,
        (kind, _) => kind,
    };
    let sink = match target {
        Target::Stdout { .. } if in_process() => StreamSink::Captured(Vec::new()),
        Target::Stdout { explicit } => {
            let stdout = std::io::stdout();
            if binary && !explicit && stdout.is_terminal() {
                return Err(CmdError::Usage(
                    "refusing to write binary output to a terminal; give -o FILE, or -o - to \
                     force it"
                        .into(),
                ));
            }
            StreamSink::Stdout(std::io::BufWriter::with_capacity(1 << 16, stdout))
        }
        Target::Through(path) => {
            let f = OpenOptions::new().write(true).open(&path).map_err(|e| {
                CmdError::Io(format!("{}: cannot write: {e}", crate::error::name(&path)))
            })?;
            StreamSink::Through(std::io::BufWriter::with_capacity(1 << 16, f), path)
        }
        Target::Replace { real, existing } => {
            let io = |e: std::io::Error| {
                CmdError::Io(format!("{}: cannot write: {e}", crate::error::name(&real)))
            };
            let dir = match real.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            let name = real
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            watch_signals();
            let (tmp, file) = create_temp(&dir, &name).map_err(io)?;
            if let Some(m) = &existing {
                let _ = std::os::unix::fs::fchown(&file, Some(m.uid()), Some(m.gid()));
                if let Err(e) =
                    file.set_permissions(std::fs::Permissions::from_mode(m.mode() & 0o7777))
                {
                    discard_temp(&tmp);
                    return Err(io(e));
                }
            }
            StreamSink::Temp {
                file: Some(std::io::BufWriter::with_capacity(1 << 16, file)),
                tmp,
                real,
            }
        }
    };
    Ok(Stream { sink, kind })
}

/// Removes a temporary output and forgets it.
fn discard_temp(tmp: &Path) {
    let mut pending = PENDING.lock().unwrap_or_else(|p| p.into_inner());
    let _ = std::fs::remove_file(tmp);
    *pending = None;
}

impl Stream {
    /// The temporary file being written, if the output is a regular file (so that a
    /// directory walk can leave it out).
    pub fn temp_path(&self) -> Option<&Path> {
        match &self.sink {
            StreamSink::Temp { tmp, .. } => Some(tmp),
            _ => None,
        }
    }

    /// Flushes, and for a regular file syncs and renames the temporary into place.
    pub fn finish(mut self) -> CmdResult {
        match &mut self.sink {
            StreamSink::Stdout(w) => w
                .flush()
                .or_else(ignore_broken_pipe)
                .map_err(|e| CmdError::Io(format!("stdout: {e}"))),
            StreamSink::Captured(bytes) => {
                let mut capture = CAPTURE.lock().unwrap_or_else(|p| p.into_inner());
                if let Some(c) = capture.as_mut() {
                    c.append(bytes);
                }
                Ok(())
            }
            StreamSink::Through(w, path) => w.flush().or_else(ignore_broken_pipe).map_err(|e| {
                CmdError::Io(format!("{}: cannot write: {e}", crate::error::name(path)))
            }),
            StreamSink::Temp { file, tmp, real } => {
                let result = (|| -> std::io::Result<()> {
                    let f = file
                        .take()
                        .expect("a stream is finished once")
                        .into_inner()
                        .map_err(|e| e.into_error())?;
                    f.sync_all()?;
                    drop(f);
                    let mut pending = PENDING.lock().unwrap_or_else(|p| p.into_inner());
                    std::fs::rename(&*tmp, &*real)?;
                    *pending = None;
                    Ok(())
                })();
                match result {
                    Ok(()) => {
                        if let Some(d) = real.parent().and_then(|d| File::open(d).ok()) {
                            let _ = d.sync_all();
                        }
                        // Renamed: nothing left for `drop` to remove.
                        *tmp = PathBuf::new();
                        Ok(())
                    }
                    Err(e) => Err(CmdError::Io(format!(
                        "{}: cannot write: {e}",
                        crate::error::name(real)
                    ))),
                }
            }
        }
    }

    fn inner(&mut self) -> &mut dyn Write {
        match &mut self.sink {
            StreamSink::Stdout(w) => w,
            StreamSink::Captured(bytes) => bytes,
            StreamSink::Through(w, _) => w,
            StreamSink::Temp { file, .. } => match file {
                Some(w) => w,
                None => unreachable!("written after finish"),
            },
        }
    }
}

impl Write for Stream {
    /// Text has its control characters escaped; callers write whole records, so an
    /// escape never straddles two calls.
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.kind {
            Kind::Text => match escape_controls(buf) {
                Some(escaped) => self.inner().write_all(&escaped)?,
                None => self.inner().write_all(buf)?,
            },
            Kind::Binary | Kind::Json | Kind::Records => self.inner().write_all(buf)?,
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner().flush()
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        if let StreamSink::Temp { file, tmp, .. } = &mut self.sink {
            if !tmp.as_os_str().is_empty() {
                drop(file.take());
                discard_temp(tmp);
            }
        }
    }
}

/// Where the bytes go, once links are followed.
enum Target {
    Stdout {
        explicit: bool,
    },
    /// A FIFO, device or `/dev/...` path: opened and written, never replaced.
    Through(PathBuf),
    /// A regular file (existing or not) at its real location.
    Replace {
        real: PathBuf,
        existing: Option<std::fs::Metadata>,
    },
}

fn resolve(out: Option<&Path>) -> Result<Target, CmdError> {
    let Some(path) = out else {
        return Ok(Target::Stdout { explicit: false });
    };
    let s = path.as_os_str();
    if s == "-" || s == "/dev/stdout" || s == "/dev/fd/1" || s == "/proc/self/fd/1" {
        return Ok(Target::Stdout { explicit: true });
    }
    let usage = |what: &str| CmdError::Usage(format!("{}: {what}", crate::error::name(path)));
    match std::fs::metadata(path) {
        Ok(m) => {
            let same = crate::input::is_input((m.dev(), m.ino()));
            if m.is_dir() {
                return Err(usage("is a directory; give a file name"));
            }
            if same {
                return Err(usage(
                    "is one of the input files; refusing to overwrite it (write elsewhere, \
                     or use `visa fmt --in-place` to rewrite a text)",
                ));
            }
            let t = m.file_type();
            if t.is_fifo() || t.is_char_device() || t.is_block_device() || t.is_socket() {
                return Ok(Target::Through(path.to_path_buf()));
            }
            let real = std::fs::canonicalize(path)
                .map_err(|e| CmdError::Io(format!("{}: {e}", crate::error::name(path))))?;
            Ok(Target::Replace {
                real,
                existing: Some(m),
            })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Target::Replace {
            real: dangling_target(path),
            existing: None,
        }),
        Err(e) => Err(CmdError::Io(format!("{}: {e}", crate::error::name(path)))),
    }
}

/// Where a path that does not exist yet will be created: a dangling symlink's
/// (final) target, so that the link stays a link.
fn dangling_target(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    // Bounded as the kernel bounds symlink chains.
    for _ in 0..40 {
        let Ok(link) = std::fs::read_link(&p) else {
            break;
        };
        p = match p.parent() {
            Some(dir) => dir.join(link),
            None => link,
        };
    }
    p
}

/// Checks a command's outputs before it writes any: each must be a place `emit`
/// can write, and none may be one of the inputs declared so far
/// (`input::declare`, through symlinks and hard links). A command declares all its
/// inputs, then preflights all its outputs, so the order in which it reads and
/// writes them cannot matter.
pub fn preflight<'a>(outputs: impl IntoIterator<Item = &'a Path>) -> CmdResult {
    // Two outputs that are one file (a symlink from one page to another) would
    // leave only the last one written.
    let mut files = std::collections::HashSet::new();
    for o in outputs {
        if let Target::Replace { real, .. } = resolve(Some(o))? {
            if !files.insert(real) {
                return Err(CmdError::Usage(format!(
                    "{}: is the same file as another output of this command; refusing to \
                     write it twice",
                    crate::error::name(o)
                )));
            }
        }
    }
    Ok(())
}

fn write_to(out: Option<&Path>, bytes: &[u8], kind: Kind, in_place: bool) -> CmdResult {
    write_with(out, kind, in_place, |w| w.write_all(bytes))
}

/// Opens the output and lets `produce` write it; every whole-output write goes here.
fn write_with(
    out: Option<&Path>,
    kind: Kind,
    in_place: bool,
    produce: impl FnOnce(&mut Stream) -> std::io::Result<()>,
) -> CmdResult {
    let target = if in_place {
        in_place_target(out.expect("in-place output names its file"))?
    } else {
        resolve(out)?
    };
    let name = match &target {
        Target::Stdout { .. } => "stdout".to_string(),
        Target::Through(p) => crate::error::name(p),
        Target::Replace { real, .. } => crate::error::name(real),
    };
    let mut stream = stream_to(target, kind)?;
    // A reader that stops early (`| head`) is not an error; the temporary of a regular
    // file is removed when the stream is dropped unfinished.
    produce(&mut stream)
        .or_else(ignore_broken_pipe)
        .map_err(|e| CmdError::Io(format!("{name}: cannot write: {e}")))?;
    stream.finish()
}

fn in_place_target(path: &Path) -> Result<Target, CmdError> {
    let m = std::fs::metadata(path)
        .map_err(|e| CmdError::Io(format!("{}: {e}", crate::error::name(path))))?;
    if !m.is_file() {
        return Err(CmdError::Usage(format!(
            "{}: --in-place needs a regular file",
            crate::error::name(path)
        )));
    }
    let real = std::fs::canonicalize(path)
        .map_err(|e| CmdError::Io(format!("{}: {e}", crate::error::name(path))))?;
    Ok(Target::Replace {
        real,
        existing: Some(m),
    })
}

fn ignore_broken_pipe(e: std::io::Error) -> std::io::Result<()> {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Ok(())
    } else {
        Err(e)
    }
}

/// The temporary file being written, removed by the signal watcher if the process is
/// told to stop before it is renamed into place.
static PENDING: Mutex<Option<PathBuf>> = Mutex::new(None);
static WATCH_SIGNALS: Once = Once::new();

/// Installs (once) a thread that, on SIGINT/SIGTERM/SIGHUP, removes the pending
/// temporary file and exits with the conventional 128 + signal status.
fn watch_signals() {
    if in_process() {
        return;
    }
    WATCH_SIGNALS.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let pending = PENDING.lock().ok().and_then(|mut p| p.take());
                if let Some(tmp) = pending {
                    let _ = std::fs::remove_file(tmp);
                }
                std::process::exit(128 + signal);
            }
        });
    });
}

/// What in-process runs (`api`) wrote to stdout so far; `None` outside one. While it
/// is `Some`, stdout is captured here and no signal handler is installed: the host
/// process (Python) owns its stdout and its Ctrl-C.
static CAPTURE: Mutex<Option<Vec<u8>>> = Mutex::new(None);

fn in_process() -> bool {
    CAPTURE.lock().unwrap_or_else(|p| p.into_inner()).is_some()
}

/// Runs `run` with its stdout captured (returned beside its result) and without
/// signal handlers. Callers serialise in-process runs (`api` holds one lock).
pub(crate) fn capture_stdout<T>(run: impl FnOnce() -> T) -> (T, Vec<u8>) {
    *CAPTURE.lock().unwrap_or_else(|p| p.into_inner()) = Some(Vec::new());
    let result = run();
    let captured = CAPTURE.lock().unwrap_or_else(|p| p.into_inner()).take();
    (result, captured.unwrap_or_default())
}

/// Creates `.NAME.<random>.tmp` in `dir` exclusively (never opening a file someone
/// else placed there), registered for removal on a signal.
fn create_temp(dir: &Path, name: &str) -> std::io::Result<(PathBuf, File)> {
    let mut last = None;
    for attempt in 0..16u32 {
        let mut h = RandomState::new().build_hasher();
        h.write_u32(std::process::id());
        h.write_u32(attempt);
        if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            h.write_u128(t.as_nanos());
        }
        let tmp = dir.join(format!(".{name}.{:016x}.tmp", h.finish()));
        let mut pending = PENDING.lock().unwrap_or_else(|p| p.into_inner());
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o666)
            .open(&tmp)
        {
            Ok(f) => {
                *pending = Some(tmp.clone());
                return Ok((tmp, f));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no temporary name")))
}

/// Whether a byte (or the UTF-8 pair starting at it) is a control character that a
/// terminal may act on. Tab and newline are text; CR is text before LF.
/// Bytes that may begin a control character (`control_at` decides).
const MAY_START_CONTROL: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'\n' as usize] = false;
    t[b'\t' as usize] = false;
    t[0x7f] = true;
    t[0xc2] = true;
    t
};

fn control_at(bytes: &[u8], i: usize) -> Option<usize> {
    match bytes[i] {
        b'\n' | b'\t' => None,
        b'\r' if bytes.get(i + 1) == Some(&b'\n') => None,
        0x00..=0x1f | 0x7f => Some(1),
        // C1 controls, U+0080..U+009F, encoded as C2 80..C2 9F.
        0xc2 if matches!(bytes.get(i + 1), Some(0x80..=0x9f)) => Some(2),
        _ => None,
    }
}

/// `bytes` with control characters written as `\xNN`, or `None` when there are none
/// (the common case costs one scan and no copy).
pub fn escape_controls(bytes: &[u8]) -> Option<Vec<u8>> {
    // Text is nearly always clean: skip to the bytes that can start a control
    // character with one table lookup per byte, then look closer.
    let first = (0..bytes.len())
        .filter(|&i| MAY_START_CONTROL[bytes[i] as usize])
        .find(|&i| control_at(bytes, i).is_some())?;
    let mut out = Vec::with_capacity(bytes.len() + 16);
    out.extend_from_slice(&bytes[..first]);
    let mut i = first;
    while i < bytes.len() {
        match control_at(bytes, i) {
            Some(n) => {
                for b in &bytes[i..i + n] {
                    out.extend_from_slice(format!("\\x{b:02x}").as_bytes());
                }
                i += n;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    Some(out)
}

/// Appends `bytes` (valid UTF-8) to `out` with control characters escaped.
pub fn escape_controls_into(bytes: &[u8], out: &mut String) {
    match escape_controls(bytes) {
        Some(e) => out.push_str(&String::from_utf8_lossy(&e)),
        None => out.push_str(&String::from_utf8_lossy(bytes)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped() {
        assert_eq!(escape_controls(b"plain\ttext\r\n"), None);
        assert_eq!(
            escape_controls(b"a\x1b[2Jb\rc\xc2\x9bd").unwrap(),
            b"a\\x1b[2Jb\\x0dc\\xc2\\x9bd".to_vec()
        );
    }
}
