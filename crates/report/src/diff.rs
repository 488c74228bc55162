//! Structural comparison of two listings of one kernel (vISA text, IGA or Gen
//! assembly): what moved, block by block, with renumbering ignored.
//!
//! Each listing is read once into lines under one consistent renaming per routine:
//! the names a compiler numbers (`V0049`, `P3`, labels it defines, SBIDs `$8`) become
//! their class and order of first appearance (`V#1`), comments are dropped and blanks
//! collapsed. Two listings that differ only in that numbering have equal canonical
//! lines: [`Structural::same`]. For alignment a line is keyed by its *shape*, the
//! canonical line with the numbers erased (`V#`), so that one extra declaration does
//! not make every later line differ.
//!
//! Alignment is bounded so that two listings sharing nothing still diff in linear
//! time and memory: blocks (a label line starts one) are aligned first by LCS over
//! whole-block shapes, then the lines of paired blocks by LCS over line shapes; each
//! LCS table is at most [`MAX_CELLS`] cells and all of them together at most
//! [`BUDGET_CELLS_PER_LINE`] per input line (plus one table), past which a pair is
//! compared by common prefix and suffix only (its middle reported as replaced).

use serde::Serialize;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// Cells of one LCS table (a `u32` each: 16 MiB).
pub const MAX_CELLS: usize = 4 << 20;
/// LCS cells spent per input line over a whole comparison, past one table.
pub const BUDGET_CELLS_PER_LINE: usize = 64;
/// Changed lines kept for display per comparison (all are counted).
pub const SHOWN_EDITS: usize = 2_000;

/// One listing line as a comparison reads it.
#[derive(Clone, Debug)]
struct CanonLine {
    /// Canonical text (renamed by first appearance); equal texts mean equal code.
    text: String,
    /// Hash of the canonical text with the numbers of renamed names erased: lines
    /// aligned with different shapes changed (an immediate, a register, a type).
    shape: u64,
    /// Hash of the shape with every number erased: the alignment key, so that a line
    /// whose register or immediate changed still meets its counterpart.
    coarse: u64,
    label: bool,
}

/// The result of comparing two listings.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Structural {
    /// Equal up to renumbering (names, labels, SBIDs) and comments.
    pub same: bool,
    /// Lines compared (comments and blank lines excluded).
    pub lines_a: usize,
    pub lines_b: usize,
    /// Blocks (a label starts one; the lines before the first label form one).
    pub blocks_a: usize,
    pub blocks_b: usize,
    /// Lines only in A / only in B after alignment.
    pub removed: usize,
    pub added: usize,
    /// Lines aligned with a counterpart that differs in more than naming (a
    /// register, an immediate, a type).
    pub modified: usize,
    /// The blocks where something moved, in B's order (A's for removed blocks).
    pub changed_blocks: Vec<BlockChange>,
    /// Some block pairs were over the LCS budget and compared by prefix/suffix.
    pub approximate: bool,
    /// Changed lines beyond [`SHOWN_EDITS`] not kept in `changed_blocks`.
    pub edits_not_shown: usize,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct BlockChange {
    /// The block's first line in A and in B (its label, or the first line of the
    /// listing); `None` for a block only on the other side.
    pub start_a: Option<String>,
    pub start_b: Option<String>,
    pub removed: usize,
    pub added: usize,
    pub modified: usize,
    pub edits: Vec<Edit>,
}

impl Structural {
    /// `-removed +added ~changed lines in K of A / B blocks`, and whether the budget
    /// made part of it approximate.
    pub fn summary(&self) -> String {
        format!(
            "-{} +{} ~{} lines in {} of {} / {} blocks{}",
            self.removed,
            self.added,
            self.modified,
            self.changed_blocks.len(),
            self.blocks_a,
            self.blocks_b,
            if self.approximate {
                " (some blocks compared by prefix and suffix only: over the alignment budget)"
            } else {
                ""
            }
        )
    }
}

impl BlockChange {
    /// `A's first line | B's first line (-removed +added ~changed)`.
    pub fn heading(&self) -> String {
        format!(
            "{} | {} (-{} +{} ~{})",
            self.start_a.as_deref().unwrap_or("(not in A)"),
            self.start_b.as_deref().unwrap_or("(not in B)"),
            self.removed,
            self.added,
            self.modified
        )
    }
}

/// One changed line: `-` only in A, `+` only in B, with its text as listed.
#[derive(Clone, Debug, Serialize)]
pub struct Edit {
    pub sign: char,
    pub text: String,
}

/// Compares two listings (their lines in order; `label` marks label lines).
pub fn compare<'a>(
    a: impl IntoIterator<Item = (&'a str, bool)>,
    b: impl IntoIterator<Item = (&'a str, bool)>,
) -> Structural {
    let (a_raw, a) = canonical(a);
    let (b_raw, b) = canonical(b);
    let same = a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| x.text == y.text);
    let blocks_a = blocks(&a);
    let blocks_b = blocks(&b);
    let mut out = Structural {
        same,
        lines_a: a.len(),
        lines_b: b.len(),
        blocks_a: blocks_a.len(),
        blocks_b: blocks_b.len(),
        ..Structural::default()
    };
    if same {
        return out;
    }
    let mut budget = MAX_CELLS + BUDGET_CELLS_PER_LINE * (a.len() + b.len());
    let key = |lines: &[CanonLine], r: &std::ops::Range<usize>| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for l in &lines[r.clone()] {
            l.coarse.hash(&mut h);
        }
        h.finish()
    };
    let keys_a: Vec<u64> = blocks_a.iter().map(|r| key(&a, r)).collect();
    let keys_b: Vec<u64> = blocks_b.iter().map(|r| key(&b, r)).collect();
    let block_pairs = align(&keys_a, &keys_b, &mut budget, &mut out.approximate);
    let mut shown = 0usize;
    let mut push_edit =
        |change: &mut BlockChange, sign: char, text: &str, out_hidden: &mut usize| {
            if shown < SHOWN_EDITS {
                change.edits.push(Edit {
                    sign,
                    text: text.to_owned(),
                });
                shown += 1;
            } else {
                *out_hidden += 1;
            }
        };
    for step in block_pairs {
        let (ra, rb) = match step {
            Step::Same(i, j) | Step::Paired(i, j) => {
                (Some(blocks_a[i].clone()), Some(blocks_b[j].clone()))
            }
            Step::Removed(i) => (Some(blocks_a[i].clone()), None),
            Step::Added(j) => (None, Some(blocks_b[j].clone())),
        };
        let start = |raw: &[String], r: &Option<std::ops::Range<usize>>| {
            r.as_ref()
                .and_then(|r| raw.get(r.start))
                .map(|s| strip_comment(s).trim().to_owned())
        };
        let mut change = BlockChange {
            start_a: start(&a_raw, &ra),
            start_b: start(&b_raw, &rb),
            ..BlockChange::default()
        };
        let ra = ra.unwrap_or(0..0);
        let rb = rb.unwrap_or(0..0);
        let sa: Vec<u64> = a[ra.clone()].iter().map(|l| l.coarse).collect();
        let sb: Vec<u64> = b[rb.clone()].iter().map(|l| l.coarse).collect();
        for step in align(&sa, &sb, &mut budget, &mut out.approximate) {
            // A changed line shows as its A text (`-`) then its B text (`+`).
            let (minus, plus) = match step {
                Step::Same(i, j) if a[ra.start + i].shape != b[rb.start + j].shape => {
                    change.modified += 1;
                    (Some(i), Some(j))
                }
                Step::Same(..) => (None, None),
                Step::Removed(i) => {
                    change.removed += 1;
                    (Some(i), None)
                }
                Step::Added(j) => {
                    change.added += 1;
                    (None, Some(j))
                }
                Step::Paired(i, j) => {
                    change.removed += 1;
                    change.added += 1;
                    (Some(i), Some(j))
                }
            };
            if let Some(i) = minus {
                push_edit(
                    &mut change,
                    '-',
                    &a_raw[ra.start + i],
                    &mut out.edits_not_shown,
                );
            }
            if let Some(j) = plus {
                push_edit(
                    &mut change,
                    '+',
                    &b_raw[rb.start + j],
                    &mut out.edits_not_shown,
                );
            }
        }
        if change.added + change.removed + change.modified > 0 {
            out.removed += change.removed;
            out.added += change.added;
            out.modified += change.modified;
            out.changed_blocks.push(change);
        }
    }
    out
}

/// Lines of a listing with comments and blank lines dropped: the raw text of each
/// and its canonical form.
fn canonical<'a>(
    lines: impl IntoIterator<Item = (&'a str, bool)>,
) -> (Vec<String>, Vec<CanonLine>) {
    let kept: Vec<(&str, &str, bool)> = lines
        .into_iter()
        .filter_map(|(raw, label)| {
            let code = strip_comment(raw).trim();
            (!code.is_empty()).then_some((raw, code, label || is_label(code)))
        })
        .collect();
    // Names the listing defines as labels are renamed wherever they are used.
    let labels: std::collections::HashSet<&str> = kept
        .iter()
        .filter(|(_, _, label)| *label)
        .filter_map(|(_, code, _)| code.strip_suffix(':').map(str::trim))
        .collect();
    let mut order: HashMap<String, usize> = HashMap::new();
    let mut next: HashMap<char, usize> = HashMap::new();
    let mut raw_out = Vec::with_capacity(kept.len());
    let mut canon = Vec::with_capacity(kept.len());
    for (raw, code, label) in kept {
        let mut text = String::with_capacity(code.len());
        let mut shape = String::with_capacity(code.len());
        let bytes = code.as_bytes();
        let mut i = 0;
        let mut blank = false;
        while i < bytes.len() {
            let c = bytes[i];
            if c.is_ascii_whitespace() {
                blank = true;
                i += 1;
                continue;
            }
            if blank && !text.is_empty() {
                text.push(' ');
                shape.push(' ');
            }
            blank = false;
            if is_word(c) {
                let start = i;
                while i < bytes.len() && is_word(bytes[i]) {
                    i += 1;
                }
                let word = &code[start..i];
                match class_of(word, &labels) {
                    Some(class) => {
                        let n = match order.get(word) {
                            Some(&n) => n,
                            None => {
                                let counter = next.entry(class).or_insert(0);
                                *counter += 1;
                                order.insert(word.to_owned(), *counter);
                                *counter
                            }
                        };
                        text.push(class);
                        text.push('#');
                        text.push_str(&n.to_string());
                        shape.push(class);
                        shape.push('#');
                    }
                    None => {
                        text.push_str(word);
                        shape.push_str(word);
                    }
                }
            } else if c == b'$' {
                // An SBID (`$8`, `$8.dst`): the token number is the scheduler's choice.
                text.push('$');
                shape.push('$');
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            } else {
                let ch = code[i..].chars().next().unwrap_or(' ');
                text.push(ch);
                shape.push(ch);
                i += ch.len_utf8();
            }
        }
        let mut h = std::collections::hash_map::DefaultHasher::new();
        shape.hash(&mut h);
        let shape_hash = h.finish();
        let mut h = std::collections::hash_map::DefaultHasher::new();
        let mut digits = false;
        for c in shape.bytes() {
            let digit = c.is_ascii_digit();
            if !(digit && digits) {
                (if digit { b'#' } else { c }).hash(&mut h);
            }
            digits = digit;
        }
        raw_out.push(raw.to_owned());
        canon.push(CanonLine {
            text,
            shape: shape_hash,
            coarse: h.finish(),
            label,
        });
    }
    (raw_out, canon)
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'%'
}

/// The class a numbered name is renamed in, or `None` for words kept as written.
/// Labels the listing defines are class `L`; vISA's declared names are `V` (general),
/// `P` (predicates), `A` (addresses), `S` (samplers), `T` (surfaces) plus digits.
fn class_of(word: &str, labels: &std::collections::HashSet<&str>) -> Option<char> {
    if labels.contains(word) {
        return Some('L');
    }
    let mut chars = word.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    (matches!(first, 'V' | 'P' | 'A' | 'S' | 'T')
        && !rest.is_empty()
        && rest.bytes().all(|b| b.is_ascii_digit()))
    .then_some(first)
}

fn strip_comment(line: &str) -> &str {
    match line.find("//") {
        Some(at) => &line[..at],
        None => line,
    }
}

fn is_label(code: &str) -> bool {
    code.strip_suffix(':')
        .is_some_and(|name| !name.is_empty() && !name.contains(char::is_whitespace))
}

/// Line ranges of the blocks: a label line starts one.
fn blocks(lines: &[CanonLine]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, l) in lines.iter().enumerate() {
        if l.label && i > start {
            out.push(start..i);
            start = i;
        }
    }
    if start < lines.len() {
        out.push(start..lines.len());
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Same(usize, usize),
    Removed(usize),
    Added(usize),
    /// Unmatched on both sides at the same place: one replaced by the other.
    Paired(usize, usize),
}

/// Aligns two key sequences: common prefix and suffix, then LCS of the middle when
/// its table fits the budget, else the middle replaced. Unmatched runs between
/// matches are paired in order.
fn align(a: &[u64], b: &[u64], budget: &mut usize, approximate: &mut bool) -> Vec<Step> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut steps: Vec<Step> = (0..prefix).map(|i| Step::Same(i, i)).collect();
    let cells = (ma.len() + 1).saturating_mul(mb.len() + 1);
    let middle: Vec<(Option<usize>, Option<usize>)> =
        if !ma.is_empty() && !mb.is_empty() && cells <= MAX_CELLS && cells <= *budget {
            *budget -= cells;
            lcs(ma, mb)
        } else {
            if !ma.is_empty() && !mb.is_empty() {
                *approximate = true;
            }
            Vec::new()
        };
    // Matches of the middle (offsets into ma, mb), then the runs between them.
    let mut ia = 0;
    let mut ib = 0;
    let flush =
        |steps: &mut Vec<Step>, to_a: usize, to_b: usize, ia: &mut usize, ib: &mut usize| {
            while *ia < to_a && *ib < to_b {
                steps.push(Step::Paired(prefix + *ia, prefix + *ib));
                *ia += 1;
                *ib += 1;
            }
            while *ia < to_a {
                steps.push(Step::Removed(prefix + *ia));
                *ia += 1;
            }
            while *ib < to_b {
                steps.push(Step::Added(prefix + *ib));
                *ib += 1;
            }
        };
    for (x, y) in middle {
        if let (Some(x), Some(y)) = (x, y) {
            flush(&mut steps, x, y, &mut ia, &mut ib);
            steps.push(Step::Same(prefix + x, prefix + y));
            ia = x + 1;
            ib = y + 1;
        }
    }
    flush(&mut steps, ma.len(), mb.len(), &mut ia, &mut ib);
    let (ta, tb) = (a.len() - suffix, b.len() - suffix);
    steps.extend((0..suffix).map(|k| Step::Same(ta + k, tb + k)));
    steps
}

/// Longest common subsequence by the classic table; the matched pairs in order.
fn lcs(a: &[u64], b: &[u64]) -> Vec<(Option<usize>, Option<usize>)> {
    let w = b.len() + 1;
    let mut t = vec![0u32; (a.len() + 1) * w];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            t[i * w + j] = if a[i] == b[j] {
                t[(i + 1) * w + j + 1] + 1
            } else {
                t[(i + 1) * w + j].max(t[i * w + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            out.push((Some(i), Some(j)));
            i += 1;
            j += 1;
        } else if t[(i + 1) * w + j] >= t[i * w + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<(&str, bool)> {
        text.lines().map(|l| (l, false)).collect()
    }

    #[test]
    fn renumbering_is_no_change() {
        let a = ".decl V0049 v_type=G type=d\nmov (M1, 16) V0049(0,0)<1> 0x1:d /// $4\nBB_1:\n(P2) goto (M1, 1) BB_1\nsend {$3}\n";
        let b = ".decl V0051 v_type=G type=d\nmov (M1, 16) V0051(0,0)<1> 0x1:d /// $9\n_0_4:\n(P7) goto (M1, 1) _0_4\nsend {$12}\n";
        let s = compare(lines(a), lines(b));
        assert!(s.same, "{s:?}");
        assert_eq!((s.added, s.removed), (0, 0));
    }

    #[test]
    fn swapped_names_are_a_change() {
        let a = "add V1 V2 V3\nmul V2 V1 V3\n";
        let b = "add V1 V2 V3\nmul V1 V2 V3\n";
        let s = compare(lines(a), lines(b));
        assert!(!s.same);
        // Same shape: nothing moved, only the naming; no edits reported.
        assert_eq!((s.added, s.removed), (0, 0));
    }

    #[test]
    fn insertion_is_found_per_block() {
        let a = "mov V1 V2\nL1:\nadd V3 V1 V2\nmul V4 V3 V3\nret\n";
        let b = "mov V1 V2\nL1:\nadd V3 V1 V2\nshl V9 V3 0x2:d\nmul V4 V3 V3\nret\n";
        let s = compare(lines(a), lines(b));
        assert!(!s.same);
        assert_eq!((s.added, s.removed), (1, 0));
        assert_eq!(s.changed_blocks.len(), 1);
        assert_eq!(s.changed_blocks[0].start_b.as_deref(), Some("L1:"));
        assert_eq!(s.changed_blocks[0].edits[0].text, "shl V9 V3 0x2:d");
    }

    #[test]
    fn changed_operands_are_aligned() {
        let a = "mov (8|M0) r3.0<1>:ud r0.0<8;8,1>:ud {$1}\nadd (8|M0) r4.0<1>:d r3.0<1;1,0>:d 0x1:d\nsend.ugm (8|M0) null r4 null {$2}\n";
        let b = "mov (8|M0) r5.0<1>:ud r0.0<8;8,1>:ud {$7}\nadd (8|M0) r6.0<1>:d r5.0<1;1,0>:d 0x1:d\nsend.ugm (8|M0) null r6 null {$3}\n";
        let s = compare(lines(a), lines(b));
        assert!(!s.same);
        assert_eq!((s.added, s.removed, s.modified), (0, 0, 3));
        let edits = &s.changed_blocks[0].edits;
        assert_eq!(edits.len(), 6);
        assert_eq!((edits[0].sign, edits[1].sign), ('-', '+'));
    }

    #[test]
    fn disjoint_listings_stay_bounded() {
        let a: Vec<String> = (0..30_000).map(|i| format!("opa{i} x")).collect();
        let b: Vec<String> = (0..30_000).map(|i| format!("opb{i} y")).collect();
        let s = compare(
            a.iter().map(|l| (l.as_str(), false)),
            b.iter().map(|l| (l.as_str(), false)),
        );
        assert!(s.approximate);
        assert_eq!((s.added, s.removed), (30_000, 30_000));
        assert_eq!(
            s.changed_blocks
                .iter()
                .map(|c| c.edits.len())
                .sum::<usize>(),
            SHOWN_EDITS
        );
    }
}
