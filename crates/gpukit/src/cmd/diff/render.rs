//! The comparison as text (largest change first), as JSON rows (one per kernel), and
//! the `--fail-on` thresholds checked against it. Every figure comes from
//! `figures::METRICS`.

use super::figures::{metric, Metric, Side, METRICS};
use super::structural::KernelDiff;
use serde_json::{json, Map, Value};
use std::fmt::Write as _;

/// A kernel (or a file of a group) found on one side only.
pub struct Unmatched {
    /// `A` or `B`.
    pub side: char,
    pub key: String,
    pub kernel: String,
    pub file: String,
}

fn signed(v: i64) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

fn percent(a: i64, b: i64) -> Option<f64> {
    (a != 0).then(|| (b - a) as f64 * 100.0 / a as f64)
}

/// The text report: a summary, then each changed kernel (largest change first) with
/// its figures, mix and send deltas and up to `lines` moved lines.
pub fn text(diffs: &[KernelDiff], unmatched: &[Unmatched], lines: usize) -> String {
    let mut s = String::new();
    let changed = diffs.iter().filter(|d| d.changed).count();
    let _ = writeln!(
        s,
        "{} kernels matched: {changed} changed, {} unchanged; {} only in A, {} only in B",
        diffs.len(),
        diffs.len() - changed,
        unmatched.iter().filter(|u| u.side == 'A').count(),
        unmatched.iter().filter(|u| u.side == 'B').count()
    );
    for d in diffs.iter().filter(|d| d.changed) {
        let _ = writeln!(s, "\n{} ({})", d.a.name, d.key);
        let _ = writeln!(s, "  A: {}\n  B: {}", d.a.files(), d.b.files());
        for m in METRICS {
            let (a, b) = ((m.get)(&d.a), (m.get)(&d.b));
            if a.is_none() && b.is_none() {
                continue;
            }
            let show = |v: Option<i64>| v.map_or("-".into(), |v| v.to_string());
            let change = match (a, b) {
                (Some(x), Some(y)) if x == y => "=".to_string(),
                (Some(x), Some(y)) => match percent(x, y) {
                    Some(p) => format!("{} ({p:+.1}%)", signed(y - x)),
                    None => signed(y - x),
                },
                _ => String::new(),
            };
            let _ = writeln!(
                s,
                "  {:<20} {:>9} {:>9}  {change}",
                m.name,
                show(a),
                show(b)
            );
        }
        for (title, delta) in [
            (
                "opcodes",
                KernelDiff::map_delta(&d.a.opcodes(), &d.b.opcodes()),
            ),
            (
                "sends by kind",
                KernelDiff::map_delta(&d.a.send_kinds(), &d.b.send_kinds()),
            ),
        ] {
            if !delta.is_empty() {
                let shown: Vec<String> = delta
                    .iter()
                    .take(12)
                    .map(|(k, v)| format!("{k} {}", signed(*v)))
                    .collect();
                let more = delta.len().saturating_sub(12);
                let _ = writeln!(
                    s,
                    "  {title}: {}{}",
                    shown.join(", "),
                    if more > 0 {
                        format!(", ... {more} more")
                    } else {
                        String::new()
                    }
                );
            }
        }
        if let Some(st) = &d.structural {
            let _ = writeln!(
                s,
                "  listing: {}; {}",
                if st.same {
                    "same up to renumbering"
                } else {
                    "differs"
                },
                st.summary()
            );
            let mut left = lines;
            'blocks: for b in &st.changed_blocks {
                if left == 0 {
                    break;
                }
                let _ = writeln!(s, "    @@ {}", b.heading());
                for e in &b.edits {
                    if left == 0 {
                        break 'blocks;
                    }
                    let _ = writeln!(s, "    {} {}", e.sign, e.text.trim());
                    left -= 1;
                }
            }
            let total = st.added + st.removed + 2 * st.modified;
            if total > lines {
                let _ = writeln!(
                    s,
                    "    ... {} more moved lines (--lines N shows more)",
                    total - lines.min(total)
                );
            }
        }
    }
    let unchanged: Vec<&str> = diffs
        .iter()
        .filter(|d| !d.changed)
        .map(|d| d.key.as_str())
        .collect();
    if !unchanged.is_empty() {
        let _ = writeln!(s, "\nunchanged: {}", unchanged.join(", "));
    }
    for u in unmatched {
        let _ = writeln!(s, "only in {}: {} ({})", u.side, u.kernel, u.file);
    }
    // Control characters from the files are escaped by `output` when written.
    s
}

/// One JSON row per matched kernel, then one per unmatched one.
pub fn rows(diffs: &[KernelDiff], unmatched: &[Unmatched]) -> Vec<Value> {
    let mut out = Vec::with_capacity(diffs.len() + unmatched.len());
    for d in diffs {
        let mut row = Map::new();
        row.insert("kernel".into(), json!(d.a.name));
        row.insert("key".into(), json!(d.key));
        row.insert("file_a".into(), json!(d.a.files()));
        row.insert("file_b".into(), json!(d.b.files()));
        row.insert("only_in".into(), Value::Null);
        row.insert("changed".into(), json!(d.changed));
        for m in METRICS {
            row.insert(format!("{}_a", m.name), json!((m.get)(&d.a)));
            row.insert(format!("{}_b", m.name), json!((m.get)(&d.b)));
            row.insert(format!("{}_delta", m.name), json!(d.delta(m.get)));
        }
        let map = |v: Vec<(String, i64)>| {
            Value::Object(v.into_iter().map(|(k, n)| (k, json!(n))).collect())
        };
        row.insert(
            "opcodes_delta".into(),
            map(KernelDiff::map_delta(&d.a.opcodes(), &d.b.opcodes())),
        );
        row.insert(
            "sends_by_kind_delta".into(),
            map(KernelDiff::map_delta(&d.a.send_kinds(), &d.b.send_kinds())),
        );
        row.insert(
            "listing".into(),
            serde_json::to_value(&d.structural).unwrap_or(Value::Null),
        );
        out.push(Value::Object(row));
    }
    for u in unmatched {
        out.push(json!({
            "kernel": u.kernel,
            "key": u.key,
            "only_in": u.side.to_string(),
            "file": u.file,
            "changed": true,
        }));
    }
    out
}

/// One `--fail-on` condition: `METRIC OP VALUE`. A plain value compares B's figure
/// (`spill_bytes>0`); a signed one the change (`instructions>+10`); one ending in
/// `%` the change relative to A (`instructions>+5%`).
#[derive(Clone, Debug)]
pub struct Threshold {
    pub text: String,
    metric: &'static str,
    op: &'static str,
    value: f64,
    of: Of,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Of {
    Value,
    Change,
    Percent,
}

/// `--fail-on`'s conditions.
#[derive(Clone, Debug)]
pub struct FailOn(pub Vec<Threshold>);

/// `--fail-on`'s value: conditions separated by commas.
pub fn parse_fail_on(s: &str) -> Result<FailOn, String> {
    s.split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|c| {
            let at = c
                .find(['>', '<', '=', '!'])
                .ok_or_else(|| format!("`{c}`: expected METRIC>VALUE (or >=, <, <=, ==, !=)"))?;
            let (name, rest) = c.split_at(at);
            let op = ["<=", ">=", "==", "!=", "<", ">"]
                .into_iter()
                .find(|op| rest.starts_with(op))
                .ok_or_else(|| format!("`{c}`: unknown comparison"))?;
            let value = rest[op.len()..].trim();
            let name = name.trim();
            let m = metric(name).ok_or_else(|| {
                let known: Vec<String> = METRICS
                    .iter()
                    .map(|m| format!("{}: {}", m.name, m.doc))
                    .collect();
                format!("`{name}` is not a figure; known:\n  {}", known.join("\n  "))
            })?;
            let (number, of) = match value.strip_suffix('%') {
                Some(v) => (v, Of::Percent),
                None if value.starts_with(['+', '-']) => (value, Of::Change),
                None => (value, Of::Value),
            };
            let value: f64 = number
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("`{c}`: `{value}` is not a number"))?;
            Ok(Threshold {
                text: c.to_owned(),
                metric: m.name,
                op,
                value,
                of,
            })
        })
        .collect::<Result<Vec<_>, String>>()
        .map(FailOn)
}

impl Threshold {
    /// The figure compared for this kernel, when both sides have what it needs.
    fn observed(&self, d: &KernelDiff) -> Option<f64> {
        let m: &Metric = metric(self.metric)?;
        let get = |s: &Side| (m.get)(s);
        match self.of {
            Of::Value => get(&d.b).map(|v| v as f64),
            Of::Change => d.delta(m.get).map(|v| v as f64),
            Of::Percent => {
                let (a, b) = (get(&d.a)?, get(&d.b)?);
                Some(match percent(a, b) {
                    Some(p) => p,
                    None if b > 0 => f64::INFINITY,
                    None => 0.0,
                })
            }
        }
    }

    /// A line saying how this kernel crosses the threshold, if it does.
    pub fn crossed(&self, d: &KernelDiff) -> Option<String> {
        let v = self.observed(d)?;
        let hit = match self.op {
            ">" => v > self.value,
            ">=" => v >= self.value,
            "<" => v < self.value,
            "<=" => v <= self.value,
            "==" => v == self.value,
            _ => v != self.value,
        };
        hit.then(|| {
            let shown = match self.of {
                Of::Value => format!("{v}"),
                Of::Change => format!("{v:+}"),
                Of::Percent => format!("{v:+.1}%"),
            };
            format!(
                "{} ({}): {} is {shown}: crosses `{}`",
                d.a.name, d.key, self.metric, self.text
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fail_on_conditions() {
        let FailOn(t) = parse_fail_on("spill_bytes>0, instructions>+5%,blocks<=-2").unwrap();
        assert_eq!(t.len(), 3);
        assert_eq!(
            (t[0].metric, t[0].op, t[0].of),
            ("spill_bytes", ">", Of::Value)
        );
        assert_eq!(
            (t[1].metric, t[1].value, t[1].of),
            ("instructions", 5.0, Of::Percent)
        );
        assert_eq!((t[2].op, t[2].value, t[2].of), ("<=", -2.0, Of::Change));
        for bad in [
            "spills>0",
            "instructions",
            "instructions>x",
            "instructions=>1",
            "sends>inf",
        ] {
            assert!(parse_fail_on(bad).is_err(), "{bad}");
        }
    }
}
