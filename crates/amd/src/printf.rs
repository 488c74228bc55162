//! Format strings of `;printf_fmt`: the runtime reads exactly LEN decoded
//! bytes, turning `\n \r \a \b \f \v` into control characters. Any other
//! backslash stays a literal backslash and the next byte is read normally,
//! so `\t` is two bytes. Encoding is the inverse for those six characters.
//! A literal backslash followed by one of `n r a b f v` has no encoding the
//! runtime would read back; lines holding one keep their raw text.

/// Decodes from the start of `text` until `len` decoded bytes are produced.
/// Returns the bytes and how many input bytes were consumed, or `None` when
/// `text` ends first.
pub fn decode(text: &[u8], len: usize) -> Option<(Vec<u8>, usize)> {
    let mut out = Vec::with_capacity(len.min(text.len()));
    let mut pos = 0;
    while out.len() < len {
        let b = *text.get(pos)?;
        pos += 1;
        if b == b'\\' {
            let decoded = match text.get(pos) {
                Some(b'n') => Some(b'\n'),
                Some(b'r') => Some(b'\r'),
                Some(b'a') => Some(0x07),
                Some(b'b') => Some(0x08),
                Some(b'f') => Some(0x0c),
                Some(b'v') => Some(0x0b),
                _ => None,
            };
            if let Some(d) = decoded {
                pos += 1;
                out.push(d);
                continue;
            }
        }
        out.push(b);
    }
    Some((out, pos))
}

/// Encodes `format` the way AMD's compiler writes it.
pub fn encode(format: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(format.len() + 8);
    for &b in format {
        match b {
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            0x07 => out.extend_from_slice(b"\\a"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            0x0b => out.extend_from_slice(b"\\v"),
            _ => out.push(b),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_examples() {
        let (s, used) = decode(b"!---initizeWSDeque---!\\n;", 23).unwrap();
        assert_eq!(s, b"!---initizeWSDeque---!\n");
        assert_eq!(used, 24);
        let (s, _) = decode(b"Bottom: %d Top: %d InitialSize: %d\\n;", 35).unwrap();
        assert_eq!(s, b"Bottom: %d Top: %d InitialSize: %d\n");
        assert_eq!(encode(&s), b"Bottom: %d Top: %d InitialSize: %d\\n");
    }

    #[test]
    fn unknown_escape_is_literal() {
        let (s, used) = decode(b"a\\tb", 4).unwrap();
        assert_eq!(s, b"a\\tb");
        assert_eq!(used, 4);
        assert!(decode(b"ab", 3).is_none());
    }
}
