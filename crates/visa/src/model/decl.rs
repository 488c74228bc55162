//! Declarations: variables, addresses, predicates, labels, states, inputs, attributes.

use crate::isa::{Align, Type};

/// `var_info`: a general variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    pub name_index: u32,
    /// Bits 0-3 type, bits 4-7 alignment, as stored.
    pub bit_properties: u8,
    pub num_elements: u16,
    /// Variable id this one aliases (0 = no alias; ids below 32 are predefined).
    pub alias_index: u32,
    /// Byte offset into the alias target.
    pub alias_offset: u16,
    /// Must be 0 (local); 1 (global) is reserved.
    pub alias_scope: u8,
    pub attributes: Vec<Attribute>,
    /// A vISA 4.2 type (tf32, hf8, bf8, e2m1) that the 4-bit type field cannot hold;
    /// text only, since 4.2 has no binary form. When set it overrides bits 0-3.
    pub wide_type: Option<Type>,
    /// vISA 4.2 text's `alias=<%null, 0>`: an alias of the predefined %null (id 0), which
    /// `alias_index` 0 cannot say since 0 there means "no alias". Text only; IGC 2.x prints
    /// it for a variable whose root declaration is %null.
    pub aliases_null: bool,
}

impl Variable {
    pub fn ty(&self) -> Type {
        if let Some(t) = self.wide_type {
            return t;
        }
        Type(self.bit_properties & 0xF)
    }
    pub fn align(&self) -> Align {
        Align(self.bit_properties >> 4)
    }
    /// Whether this variable aliases another (including %null).
    pub fn is_alias(&self) -> bool {
        self.alias_index != 0 || self.aliases_null
    }
    pub fn set_type_align(&mut self, ty: Type, align: Align) {
        self.bit_properties = (ty.0 & 0xF) | (align.0 << 4);
        self.wide_type = (!ty.has_binary_form()).then_some(ty);
    }
    /// Size in bytes (element size times count); `None` for a type without a size.
    pub fn byte_size(&self) -> Option<usize> {
        self.ty().size().map(|s| s * self.num_elements as usize)
    }
}

/// `address_info`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddressVar {
    pub name_index: u32,
    pub num_elements: u16,
    pub attributes: Vec<Attribute>,
}

/// `predicate_info`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredicateVar {
    pub name_index: u32,
    pub num_elements: u16,
    pub attributes: Vec<Attribute>,
}

/// `label_info`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub name_index: u32,
    /// 0 block, 1 subroutine, 2 fc, 3 function.
    pub kind: u8,
    pub attributes: Vec<Attribute>,
}

impl Label {
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            0 => "block",
            1 => "subroutine",
            2 => "fc",
            3 => "function",
            4 => "divergent_resource_loop",
            _ => "unknown",
        }
    }
}

/// `sampler_info`, `surface_info`, `vme_info` (all `state_info`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateVar {
    pub name_index: u32,
    pub num_elements: u16,
    pub attributes: Vec<Attribute>,
}

/// `input_info`: one kernel input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input {
    /// Bits 0-2 class (0 general, 1 sampler, 2 surface), bits 3-7 implicit kind.
    pub kind: u8,
    /// Variable id (general), sampler index or surface id.
    pub index: u32,
    /// Byte offset in the GRF payload.
    pub offset: i16,
    pub size: u16,
}

/// What a kernel input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputClass {
    General,
    Sampler,
    Surface,
    Other(u8),
}

impl Input {
    pub fn class(&self) -> InputClass {
        match self.kind & 0x7 {
            0 => InputClass::General,
            1 => InputClass::Sampler,
            2 => InputClass::Surface,
            c => InputClass::Other(c),
        }
    }
    /// The implicit-argument kind (0 = an explicit, user argument).
    pub fn implicit_kind(&self) -> u8 {
        self.kind >> 3
    }
    /// The name IGC prints for the implicit kind (`.implicit_<NAME>`), or `None` for an explicit input.
    pub fn implicit_name(&self) -> Option<String> {
        match self.implicit_kind() {
            0 => None,
            1 => Some("LOCAL_SIZE".into()),
            2 => Some("GROUP_COUNT".into()),
            3 => Some("LOCAL_ID".into()),
            0x10 => Some("PSEUDO_INPUT".into()),
            k => Some(format!("UNDEFINED_{k}")),
        }
    }
}

/// `attribute_info`, with its value decoded by the attribute's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    pub name_index: u32,
    pub value: AttributeValue,
}

/// The value of an attribute. The binary does not store the type; it follows from the
/// name ([`crate::isa::attribute_kind`]). Encoded widths are kept for a lossless round trip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttributeValue {
    /// An integer or boolean attribute: `width` is the encoded size in bytes (0, 1, 2
    /// or 4; 0 means a flag with no value, read as 1). Narrow values are sign-extended.
    Int { value: i32, width: u8 },
    /// A string attribute (no terminator in the binary).
    Str(Vec<u8>),
    /// An attribute whose name gpukit does not know, or whose size does not fit its
    /// kind: the bytes as stored.
    Raw(Vec<u8>),
}

impl AttributeValue {
    pub fn encoded(&self) -> Vec<u8> {
        match self {
            AttributeValue::Int { value, width } => {
                value.to_le_bytes()[..(*width as usize).min(4)].to_vec()
            }
            AttributeValue::Str(b) | AttributeValue::Raw(b) => b.clone(),
        }
    }
}

/// A routine's string pool: every string's bytes in one buffer and where each ends,
/// so that a pool of many short strings costs a few bytes per string, not a vector
/// each (a hostile file can hold 131072 empty strings per routine).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct StringPool {
    bytes: Vec<u8>,
    ends: Vec<u32>,
}

impl StringPool {
    pub const fn new() -> Self {
        StringPool {
            bytes: Vec::new(),
            ends: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn get(&self, index: usize) -> Option<&[u8]> {
        let end = *self.ends.get(index)? as usize;
        let start = index.checked_sub(1).map_or(0, |i| self.ends[i] as usize);
        self.bytes.get(start..end)
    }

    /// Appends a string and returns its index. Strings come from inputs of at most
    /// a few gigabytes; the pool refuses to grow past 4 GiB of text.
    pub fn push(&mut self, s: &[u8]) -> Option<u32> {
        let end = u32::try_from(self.bytes.len().checked_add(s.len())?).ok()?;
        let index = u32::try_from(self.ends.len()).ok()?;
        self.bytes.extend_from_slice(s);
        self.ends.push(end);
        Some(index)
    }

    /// Keeps the first `len` strings.
    pub fn truncate(&mut self, len: usize) {
        if len < self.ends.len() {
            let end = len.checked_sub(1).map_or(0, |i| self.ends[i] as usize);
            self.ends.truncate(len);
            self.bytes.truncate(end);
        }
    }

    pub fn clear(&mut self) {
        self.truncate(0);
    }

    pub fn iter(&self) -> StringIter<'_> {
        StringIter {
            pool: self,
            next: 0,
        }
    }
}

pub struct StringIter<'a> {
    pool: &'a StringPool,
    next: usize,
}

impl<'a> Iterator for StringIter<'a> {
    type Item = &'a [u8];
    fn next(&mut self) -> Option<&'a [u8]> {
        let s = self.pool.get(self.next)?;
        self.next += 1;
        Some(s)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.pool.len().saturating_sub(self.next);
        (n, Some(n))
    }
}

impl ExactSizeIterator for StringIter<'_> {}

impl<'a> IntoIterator for &'a StringPool {
    type Item = &'a [u8];
    type IntoIter = StringIter<'a>;
    fn into_iter(self) -> StringIter<'a> {
        self.iter()
    }
}

impl std::ops::Index<usize> for StringPool {
    type Output = [u8];
    /// # Panics
    /// When `index` is past the pool (like slice indexing).
    fn index(&self, index: usize) -> &[u8] {
        match self.get(index) {
            Some(s) => s,
            None => panic!("string {index} of {}", self.len()),
        }
    }
}

impl std::fmt::Debug for StringPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.iter().map(String::from_utf8_lossy))
            .finish()
    }
}

impl<S: AsRef<[u8]>> FromIterator<S> for StringPool {
    /// # Panics
    /// Past 4 GiB of text or 2^32 strings, which no input within memory reaches;
    /// readers use [`StringPool::push`].
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Self {
        let mut pool = StringPool::new();
        for s in iter {
            pool.push(s.as_ref()).expect("string pool under 4 GiB");
        }
        pool
    }
}
