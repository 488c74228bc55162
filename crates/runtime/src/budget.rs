//! One memory budget for a launch: every allocation the runtime (and the engine, for
//! a live work-group) makes is counted here before it is made.
//!
//! Two limits apply. The whole launch stays within `limit` (`--max-memory`, 4 GiB by
//! default). Sizes an input file claims (a binary's SLM or private size, the register
//! space a kernel declares) are also held to 48 MiB + 16x the input bytes, so a small
//! file cannot make the process exceed the project's 64 MiB + 20x rule. A caller that
//! sets the limit explicitly takes responsibility for both.

use std::fmt;

/// `--max-memory` when not given.
pub const DEFAULT_MAX_MEMORY: u64 = 4 << 30;
/// What input files may claim: this much, plus [`CLAIM_PER_INPUT_BYTE`] per input byte.
pub const CLAIM_BASE: u64 = 48 << 20;
pub const CLAIM_PER_INPUT_BYTE: u64 = 16;

/// Who decided an allocation's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The caller asked for it (`zeros:`, `local:`, a file it names).
    Request,
    /// An input file claims it (SLM or private size, declared registers).
    Input,
}

/// An allocation refused by the [`Budget`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverBudget {
    /// What asked, e.g. "argument 0 (zeros:100000000000)".
    pub what: String,
    pub bytes: u64,
    /// The limit it would exceed, and what is left of it.
    pub limit: u64,
    pub available: u64,
    pub origin: Origin,
    /// Input bytes behind the claim allowance (for the message).
    pub input_bytes: u64,
    /// Within the budget, but the system would not allocate it (an address-space
    /// limit, `ulimit -v`).
    pub refused_by_system: bool,
}

impl std::error::Error for OverBudget {}

impl fmt::Display for OverBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} needs {} bytes", self.what, self.bytes)?;
        if self.refused_by_system {
            return write!(
                f,
                "; the system would not allocate them (a memory limit such as ulimit -v?)"
            );
        }
        match self.origin {
            Origin::Request => write!(
                f,
                "; {} of the {}-byte memory budget remain (raise it with --max-memory BYTES)",
                self.available, self.limit
            ),
            Origin::Input => write!(
                f,
                "; the inputs ({} bytes) may claim {} bytes (48 MiB + 16 per input byte), {} of them remain (raise the limit with --max-memory BYTES)",
                self.input_bytes, self.limit, self.available
            ),
        }
    }
}

/// Bytes a launch may still allocate.
#[derive(Clone, Debug)]
pub struct Budget {
    limit: u64,
    used: u64,
    /// `None` when the caller's `limit` governs input claims too.
    input_bytes: Option<u64>,
    claimed: u64,
}

impl Budget {
    /// A budget of `limit` bytes for everything, input claims included.
    pub fn new(limit: u64) -> Budget {
        Budget {
            limit,
            used: 0,
            input_bytes: None,
            claimed: 0,
        }
    }

    /// The default budget: [`DEFAULT_MAX_MEMORY`], and input claims held to
    /// 48 MiB + 16x `input_bytes` (more can be added with [`Budget::add_input`]).
    pub fn for_inputs(input_bytes: u64) -> Budget {
        Budget {
            input_bytes: Some(input_bytes),
            ..Budget::new(DEFAULT_MAX_MEMORY)
        }
    }

    /// Another input file of `bytes` was read (it widens what inputs may claim).
    pub fn add_input(&mut self, bytes: u64) {
        if let Some(n) = &mut self.input_bytes {
            *n = n.saturating_add(bytes);
        }
    }

    /// What input files may claim in all, when that is limited apart from the total.
    pub fn claim_limit(&self) -> Option<u64> {
        self.input_bytes.map(|n| {
            CLAIM_BASE
                .saturating_add(n.saturating_mul(CLAIM_PER_INPUT_BYTE))
                .min(self.limit)
        })
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    pub fn used(&self) -> u64 {
        self.used
    }

    /// Bytes an allocation of `origin` may still take.
    pub fn available(&self, origin: Origin) -> u64 {
        let total = self.limit.saturating_sub(self.used);
        match (origin, self.claim_limit()) {
            (Origin::Input, Some(claim)) => total.min(claim.saturating_sub(self.claimed)),
            _ => total,
        }
    }

    /// Counts `bytes` that `what` is about to allocate, or refuses them.
    pub fn charge(&mut self, what: &str, bytes: u64, origin: Origin) -> Result<(), OverBudget> {
        let refuse = |limit: u64, used: u64| OverBudget {
            what: what.to_owned(),
            bytes,
            limit,
            available: limit.saturating_sub(used),
            origin,
            input_bytes: self.input_bytes.unwrap_or(0),
            refused_by_system: false,
        };
        if let (Origin::Input, Some(claim_limit)) = (origin, self.claim_limit()) {
            if self.claimed.saturating_add(bytes) > claim_limit {
                return Err(refuse(claim_limit, self.claimed));
            }
        }
        if self.used.saturating_add(bytes) > self.limit {
            return Err(OverBudget {
                origin: Origin::Request,
                ..refuse(self.limit, self.used)
            });
        }
        self.used += bytes;
        if origin == Origin::Input {
            self.claimed += bytes;
        }
        Ok(())
    }

    /// A zero-filled buffer of `bytes`, counted first.
    pub fn zeros(&mut self, what: &str, bytes: u64, origin: Origin) -> Result<Vec<u8>, OverBudget> {
        self.charge(what, bytes, origin)?;
        // Within the budget, the system may still refuse (an address-space limit), and
        // `vec!` would abort: ask it first. The probe's pages are never touched.
        let size = usize::try_from(bytes)
            .ok()
            .filter(|n| Vec::<u8>::new().try_reserve_exact(*n).is_ok());
        let Some(size) = size else {
            self.used -= bytes;
            if origin == Origin::Input {
                self.claimed -= bytes;
            }
            return Err(OverBudget {
                what: what.to_owned(),
                bytes,
                limit: self.limit,
                available: self.limit.saturating_sub(self.used),
                origin,
                input_bytes: self.input_bytes.unwrap_or(0),
                refused_by_system: true,
            });
        };
        Ok(vec![0; size])
    }
}

/// `BYTES`, or a number with a K, M, G or T suffix (binary units): `--max-memory`.
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (digits, shift) = match s.as_bytes().last()?.to_ascii_uppercase() {
        b'K' => (&s[..s.len() - 1], 10),
        b'M' => (&s[..s.len() - 1], 20),
        b'G' => (&s[..s.len() - 1], 30),
        b'T' => (&s[..s.len() - 1], 40),
        _ => (s, 0),
    };
    let n: u64 = digits.parse().ok()?;
    n.checked_mul(1 << shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_counted_until_the_limit() {
        let mut b = Budget::new(1000);
        b.charge("a", 600, Origin::Request).unwrap();
        let e = b.charge("b", 401, Origin::Request).unwrap_err();
        assert_eq!((e.bytes, e.available, e.limit), (401, 400, 1000));
        assert!(e
            .to_string()
            .starts_with("b needs 401 bytes; 400 of the 1000-byte"));
        assert!(e.to_string().contains("--max-memory"));
        b.charge("c", 400, Origin::Request).unwrap();
        assert_eq!(b.used(), 1000);
        b.charge("nothing", 0, Origin::Request).unwrap();
    }

    #[test]
    fn input_claims_are_held_to_the_input_rule() {
        let mut b = Budget::for_inputs(1 << 20);
        assert_eq!(b.claim_limit(), Some((48 << 20) + (16 << 20)));
        b.charge("registers", 60 << 20, Origin::Input).unwrap();
        let e = b.charge("slm", 5 << 20, Origin::Input).unwrap_err();
        assert_eq!(e.origin, Origin::Input);
        assert_eq!(e.available, 4 << 20);
        assert!(e.to_string().contains("may claim"), "{e}");
        // A request is not an input claim: only the total limit holds it.
        b.charge("zeros", 1 << 30, Origin::Request).unwrap();
        b.add_input(1 << 20);
        assert_eq!(b.available(Origin::Input), 20 << 20);
        b.charge("slm", 5 << 20, Origin::Input).unwrap();
        assert_eq!(b.available(Origin::Input), 15 << 20);
    }

    #[test]
    fn an_explicit_limit_governs_input_claims() {
        let mut b = Budget::new(8 << 30);
        assert_eq!(b.claim_limit(), None);
        b.charge("registers", 4 << 30, Origin::Input).unwrap();
        assert!(b.charge("more", 5 << 30, Origin::Input).is_err());
    }

    #[test]
    fn huge_requests_do_not_overflow() {
        let mut b = Budget::new(u64::MAX - 1);
        b.charge("a", u64::MAX - 1, Origin::Request).unwrap();
        assert!(b.charge("b", u64::MAX, Origin::Request).is_err());
        let mut b = Budget::for_inputs(u64::MAX);
        assert_eq!(b.claim_limit(), Some(DEFAULT_MAX_MEMORY));
        assert!(b.zeros("z", u64::MAX, Origin::Request).is_err());
    }

    #[test]
    fn what_the_system_refuses_is_given_back() {
        // Within the budget, beyond any address space.
        let mut b = Budget::new(u64::MAX);
        let e = b.zeros("huge", u64::MAX / 2, Origin::Request).unwrap_err();
        assert!(
            e.refused_by_system && e.to_string().contains("ulimit"),
            "{e}"
        );
        assert_eq!(b.used(), 0);
        assert_eq!(b.zeros("small", 16, Origin::Request).unwrap(), vec![0; 16]);
    }

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(parse_size("4096"), Some(4096));
        assert_eq!(parse_size("4G"), Some(4 << 30));
        assert_eq!(parse_size("512m"), Some(512 << 20));
        assert_eq!(parse_size("1k"), Some(1024));
        assert_eq!(parse_size("99999999999T"), None);
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("G"), None);
        assert_eq!(parse_size("-1"), None);
    }
}
