//! The files a scan reads, in a deterministic order: the PATH arguments in the order
//! given (`-`: one path a line from stdin), each directory walked depth-first with
//! its entries sorted by name (bytewise). Streamed: only the directories on the
//! current descent are held, never the whole list.
//!
//! Symbolic links are followed; each directory (by device and inode) is walked at
//! most once, so a link loop, or links that reach one directory by several ways,
//! cannot make the walk endless. Entries that are neither files nor directories
//! (FIFOs, sockets, devices) are listed with a reason and never opened: reading a
//! FIFO would block the scan.

use std::collections::HashSet;
use std::ffi::OsString;
use std::io::BufRead;
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// One thing the walk found.
pub enum Found {
    File(PathBuf),
    /// A path that is listed but not read, and why.
    Skipped(PathBuf, String),
    /// The existing file the scan's output replaces (`-o`, through links), and
    /// whether it was named as a root (an argument or a stdin line) rather than found
    /// in a directory: the scan decides whether it may replace it (`run`).
    Output(PathBuf, bool),
}

#[cfg(test)]
impl Found {
    pub fn path(&self) -> &Path {
        match self {
            Found::File(p) | Found::Skipped(p, _) | Found::Output(p, _) => p,
        }
    }
}

/// Where the roots come from.
enum Roots {
    Args(std::vec::IntoIter<PathBuf>),
    /// Paths from stdin (after the arguments that came before `-`).
    Stdin(std::io::StdinLock<'static>, std::vec::IntoIter<PathBuf>),
}

pub struct Walk {
    roots: Roots,
    /// Entries still to visit in each directory of the current descent.
    stack: Vec<std::vec::IntoIter<PathBuf>>,
    /// Directories already walked.
    walked: HashSet<(u64, u64)>,
    /// Files never listed (the temporary the output is written to).
    exclude: Vec<(u64, u64)>,
    /// The existing file the output replaces.
    output: Option<(u64, u64)>,
}

impl Walk {
    /// `paths` as given; a `-` among them switches to reading paths from stdin for
    /// its place (the arguments after it follow).
    pub fn new(paths: Vec<PathBuf>, exclude: Vec<(u64, u64)>, output: Option<(u64, u64)>) -> Walk {
        Walk {
            roots: Roots::Args(paths.into_iter()),
            stack: Vec::new(),
            walked: HashSet::new(),
            exclude,
            output,
        }
    }

    fn next_root(&mut self) -> Option<PathBuf> {
        loop {
            match &mut self.roots {
                Roots::Args(it) => {
                    let p = it.next()?;
                    if p.as_os_str() == "-" {
                        let rest = std::mem::take(it);
                        self.roots = Roots::Stdin(std::io::stdin().lock(), rest);
                        continue;
                    }
                    return Some(p);
                }
                Roots::Stdin(lock, rest) => {
                    let mut line = Vec::new();
                    match lock.read_until(b'\n', &mut line) {
                        Ok(0) | Err(_) => {
                            let rest = std::mem::take(rest);
                            self.roots = Roots::Args(rest);
                            continue;
                        }
                        Ok(_) => {
                            while line.last().is_some_and(|&c| c == b'\n' || c == b'\r') {
                                line.pop();
                            }
                            if line.is_empty() {
                                continue;
                            }
                            return Some(PathBuf::from(OsString::from_vec(line)));
                        }
                    }
                }
            }
        }
    }

    /// Classifies `path` (following links) and descends into directories.
    fn visit(&mut self, path: PathBuf, root: bool) -> Option<Found> {
        let m = match std::fs::metadata(&path) {
            Ok(m) => m,
            Err(e) => {
                // A dangling link, an unreadable parent, a vanished file: listed.
                let why = format!("cannot read: {e}");
                return Some(Found::Skipped(path, why));
            }
        };
        let id = (m.dev(), m.ino());
        if m.is_dir() {
            if !self.walked.insert(id) {
                return None;
            }
            match sorted_entries(&path) {
                Ok(entries) => {
                    self.stack.push(entries.into_iter());
                    None
                }
                Err(e) => Some(Found::Skipped(path, format!("cannot list directory: {e}"))),
            }
        } else if m.is_file() {
            if self.exclude.contains(&id) {
                return None;
            }
            if self.output == Some(id) {
                return Some(Found::Output(path, root));
            }
            Some(Found::File(path))
        } else {
            Some(Found::Skipped(
                path,
                "not a regular file (FIFO, socket or device); not read".into(),
            ))
        }
    }
}

impl Iterator for Walk {
    type Item = Found;
    fn next(&mut self) -> Option<Found> {
        loop {
            let (next, root) = match self.stack.last_mut() {
                Some(entries) => match entries.next() {
                    Some(p) => (p, false),
                    None => {
                        self.stack.pop();
                        continue;
                    }
                },
                None => (self.next_root()?, true),
            };
            if let Some(found) = self.visit(next, root) {
                return Some(found);
            }
        }
    }
}

fn sorted_entries(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut names: Vec<OsString> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.file_name()))
        .collect();
    names.sort_unstable();
    Ok(names.into_iter().map(|n| dir.join(n)).collect())
}

/// `--shard K/N`: the K-th of N interleaved parts (K counts from 1) of the walk's
/// list: entry i (from 0) belongs to shard `i % N + 1`. Interleaving needs no count
/// of the list in advance, so shards stream too, and it spreads big directories
/// over all shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    pub fn holds(self, index: u64) -> bool {
        index % self.n + 1 == self.k
    }
}

pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let (k, n) = s
        .split_once('/')
        .ok_or_else(|| format!("`{s}`: expected K/N, e.g. 1/8"))?;
    let k: u64 = k
        .trim()
        .parse()
        .map_err(|_| format!("`{s}`: K is not a number"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("`{s}`: N is not a number"))?;
    if n == 0 || k == 0 || k > n {
        return Err(format!("`{s}`: K counts from 1 to N (N >= 1)"));
    }
    Ok(Shard { k, n })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards() {
        assert_eq!(parse_shard("2/3"), Ok(Shard { k: 2, n: 3 }));
        assert!(parse_shard("0/3").is_err());
        assert!(parse_shard("4/3").is_err());
        assert!(parse_shard("1").is_err());
        let s = parse_shard("2/3").unwrap();
        let held: Vec<u64> = (0..7).filter(|&i| s.holds(i)).collect();
        assert_eq!(held, [1, 4]);
    }

    #[test]
    fn walk_is_sorted_and_survives_link_loops() {
        let dir = std::env::temp_dir().join(format!("gpukit-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("b/inner")).unwrap();
        std::fs::write(dir.join("c"), b"x").unwrap();
        std::fs::write(dir.join("a"), b"x").unwrap();
        std::fs::write(dir.join("b/inner/z"), b"x").unwrap();
        std::os::unix::fs::symlink(&dir, dir.join("b/inner/loop")).unwrap();
        std::os::unix::fs::symlink(dir.join("nowhere"), dir.join("d")).unwrap();
        let got: Vec<String> = Walk::new(vec![dir.clone()], vec![], None)
            .map(|f| {
                let rel = f.path().strip_prefix(&dir).unwrap().display().to_string();
                match f {
                    Found::File(_) => rel,
                    Found::Skipped(..) => format!("{rel} (skipped)"),
                    Found::Output(..) => format!("{rel} (output)"),
                }
            })
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(got, ["a", "b/inner/z", "c", "d (skipped)"]);
    }
}
