//! Hash maps for the parser's name tables: aHash, faster than SipHash on short
//! names and, with per-process random keys, still not floodable by names crafted to
//! collide (the text is untrusted input; a fixed-key hash would let it go quadratic).

pub type FastMap<K, V> = std::collections::HashMap<K, V, ahash::RandomState>;

/// A map by name where names of up to 15 bytes (nearly all: `V0042`, `_0_028_r6`) are
/// keyed as one integer, so a lookup hashes and compares one `u128` instead of bytes
/// (`memcmp` calls) and an insert allocates nothing; longer names go to a map by bytes.
/// Names are bytes (`&str` or the string pool's `&[u8]`).
pub struct NameMap<V> {
    short: FastMap<u128, V>,
    long: FastMap<Box<[u8]>, V>,
}

impl<V> Default for NameMap<V> {
    fn default() -> Self {
        NameMap {
            short: FastMap::default(),
            long: FastMap::default(),
        }
    }
}

/// The bytes of a short name and its length in the last byte (so `a` and `a\0` differ).
/// Built from two fixed-size loads that may overlap (no `memcpy` of a variable length).
#[inline]
pub(crate) fn short_key(b: &[u8]) -> Option<u128> {
    let n = b.len();
    let bytes = match n {
        0 => 0,
        1..=3 => {
            // First, middle and last byte cover every length up to 3.
            u128::from(b[0])
                | u128::from(b[n / 2]) << (8 * (n / 2))
                | u128::from(b[n - 1]) << (8 * (n - 1))
        }
        4..=7 => {
            let lo = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            let hi = u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]);
            u128::from(lo) | u128::from(hi) << (8 * (n - 4))
        }
        8..=15 => {
            let lo = u64::from_le_bytes(first_8(b));
            let hi = u64::from_le_bytes(first_8(&b[n - 8..]));
            u128::from(lo) | u128::from(hi) << (8 * (n - 8))
        }
        _ => return None,
    };
    Some(bytes | (n as u128) << 120)
}

#[inline]
fn first_8(b: &[u8]) -> [u8; 8] {
    [b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]
}

impl<V> NameMap<V> {
    #[inline]
    pub fn get(&self, name: &(impl AsRef<[u8]> + ?Sized)) -> Option<&V> {
        let name = name.as_ref();
        match short_key(name) {
            Some(k) => self.short.get(&k),
            None => self.long.get(name),
        }
    }
    #[inline]
    pub fn get_mut(&mut self, name: &(impl AsRef<[u8]> + ?Sized)) -> Option<&mut V> {
        let name = name.as_ref();
        match short_key(name) {
            Some(k) => self.short.get_mut(&k),
            None => self.long.get_mut(name),
        }
    }
    /// The value of `name`, made by `make` first if the name is new (a long name is
    /// copied for the lookup: they are rare).
    pub fn get_or_insert_with(
        &mut self,
        name: &(impl AsRef<[u8]> + ?Sized),
        make: impl FnOnce() -> V,
    ) -> &mut V {
        let name = name.as_ref();
        match short_key(name) {
            Some(k) => self.short.entry(k).or_insert_with(make),
            None => self.long.entry(name.into()).or_insert_with(make),
        }
    }
    pub fn insert(&mut self, name: &(impl AsRef<[u8]> + ?Sized), value: V) -> Option<V> {
        let name = name.as_ref();
        match short_key(name) {
            Some(k) => self.short.insert(k, value),
            None => self.long.insert(name.into(), value),
        }
    }
    pub fn remove(&mut self, name: &(impl AsRef<[u8]> + ?Sized)) -> Option<V> {
        let name = name.as_ref();
        match short_key(name) {
            Some(k) => self.short.remove(&k),
            None => self.long.remove(name),
        }
    }
    pub fn len(&self) -> usize {
        self.short.len() + self.long.len()
    }
}

#[cfg(test)]
mod tests {
    use super::NameMap;

    #[test]
    fn short_and_long_names_are_kept_apart() {
        let mut m = NameMap::default();
        let long = "a_name_longer_than_fifteen_bytes";
        assert_eq!(m.insert("a", 1), None);
        assert_eq!(m.insert("a\0", 2), None);
        assert_eq!(m.insert(long, 3), None);
        assert_eq!(m.insert("a", 4), Some(1));
        assert_eq!(
            (m.get("a"), m.get("a\0"), m.get(long)),
            (Some(&4), Some(&2), Some(&3))
        );
        assert_eq!(m.get("b"), None);
        // Every length a short key covers, against the byte-by-byte layout.
        for n in 0..=15 {
            let name: Vec<u8> = (1..=n as u8).map(|i| i.wrapping_mul(37) | 1).collect();
            let mut want = [0u8; 16];
            want[..n].copy_from_slice(&name);
            want[15] = n as u8;
            assert_eq!(
                super::short_key(&name),
                Some(u128::from_le_bytes(want)),
                "{n}"
            );
        }
        assert_eq!(super::short_key(&[b'x'; 16]), None);
        assert_eq!(m.remove(long), Some(3));
        assert_eq!((m.get(long), m.len()), (None, 2));
    }
}
