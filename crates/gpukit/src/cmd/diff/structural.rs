//! One matched pair compared: the figures' deltas and the structural diff of the two
//! listings (`gpukit_report::diff`: renumbering ignored, blocks then lines aligned).

use super::figures::{Side, METRICS};
use gpukit_report::diff::{compare, Structural};
use std::collections::BTreeMap;

/// A kernel of A against its match in B.
pub struct KernelDiff {
    /// The match key (folder/stem in directory mode, the kernel name for files).
    pub key: String,
    pub a: Side,
    pub b: Side,
    /// `None` when a side has no listing (a dump alone, an AMD or program binary).
    pub structural: Option<Structural>,
    /// Anything beyond naming differs: the listings, a figure, the mix or the sends.
    pub changed: bool,
}

impl KernelDiff {
    pub fn new(key: String, mut a: Side, mut b: Side) -> KernelDiff {
        let structural = listing_lines(&a).zip(listing_lines(&b)).map(|(la, lb)| {
            compare(
                la.iter().map(|(t, l)| (t.as_str(), *l)),
                lb.iter().map(|(t, l)| (t.as_str(), *l)),
            )
        });
        // Figures one side lacks (a Gen binary beside a text) are no change.
        let both = |x: &BTreeMap<String, i64>, y: &BTreeMap<String, i64>| {
            !x.is_empty() && !y.is_empty() && x != y
        };
        let figures_differ = METRICS
            .iter()
            .any(|m| matches!(((m.get)(&a), (m.get)(&b)), (Some(x), Some(y)) if x != y))
            || both(&a.opcodes(), &b.opcodes())
            || both(&a.send_kinds(), &b.send_kinds());
        let changed = figures_differ || structural.as_ref().is_some_and(|s| !s.same);
        // The listings (and the object they print from) are not needed past here: a
        // directory's comparisons keep only figures and pictures.
        for side in [&mut a, &mut b] {
            if let Some(page) = &mut side.page {
                page.listing = gpukit_report::Listing::default();
                page.tables.clear();
                page.findings.clear();
            }
        }
        KernelDiff {
            key,
            a,
            b,
            structural,
            changed,
        }
    }

    /// B minus A of a figure both sides have.
    pub fn delta(&self, get: fn(&Side) -> Option<i64>) -> Option<i64> {
        Some(get(&self.b)?.saturating_sub(get(&self.a)?))
    }

    /// Per-name change of two count maps (opcodes, send kinds), zeros left out,
    /// largest first.
    pub fn map_delta(a: &BTreeMap<String, i64>, b: &BTreeMap<String, i64>) -> Vec<(String, i64)> {
        let mut all: BTreeMap<&str, i64> = BTreeMap::new();
        for (k, v) in a {
            *all.entry(k).or_insert(0) -= v;
        }
        for (k, v) in b {
            *all.entry(k).or_insert(0) += v;
        }
        let mut out: Vec<(String, i64)> = all
            .into_iter()
            .filter(|(_, v)| *v != 0)
            .map(|(k, v)| (k.to_owned(), v))
            .collect();
        out.sort_by(|x, y| y.1.abs().cmp(&x.1.abs()).then(x.0.cmp(&y.0)));
        out
    }

    /// How much changed, for ordering: instructions, Gen instructions, spill bytes
    /// and listing lines that moved.
    pub fn size(&self) -> u64 {
        let d = |name: &str| {
            METRICS
                .iter()
                .find(|m| m.name == name)
                .and_then(|m| self.delta(m.get))
                .map_or(0, i64::unsigned_abs)
        };
        let moved = self
            .structural
            .as_ref()
            .map_or(0, |s| (s.added + s.removed + s.modified) as u64);
        d("instructions") + d("gen_instructions") + d("spill_bytes") + moved
    }
}

/// The lines of a side's listing as the report shows them, with label marks; for a
/// dump alone, its Gen listing (as many lines as a report page shows).
fn listing_lines(side: &Side) -> Option<Vec<(String, bool)>> {
    let Some(page) = side.page.as_ref().filter(|p| !p.listing.is_empty()) else {
        let dump = side.asm_file.as_ref().filter(|f| **f == side.file)?;
        let text = std::fs::read_to_string(dump).ok()?;
        return Some(
            text.lines()
                .take(gpukit_report::limits::LISTING_LINES)
                .map(|l| (l.to_owned(), false))
                .collect(),
        );
    };
    let mut lines = Vec::with_capacity(page.listing.len());
    page.listing.for_each_line(&mut |_, line| {
        lines.push((line.text.clone(), line.is_label));
        true
    });
    Some(lines)
}
