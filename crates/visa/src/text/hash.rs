//! Hash maps for the parser's name tables: aHash, faster than SipHash on short
//! names and, with per-process random keys, still not floodable by names crafted to
//! collide (the text is untrusted input; a fixed-key hash would let it go quadratic).

pub type FastMap<K, V> = std::collections::HashMap<K, V, ahash::RandomState>;
pub type FastSet<K> = std::collections::HashSet<K, ahash::RandomState>;
