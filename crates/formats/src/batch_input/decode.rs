//! Input bytes as text: UTF-8 with or without a byte-order mark, or UTF-16 with
//! one (decoded whole); where UTF-8 breaks.

use super::position::{Prefix, Tracker};
use super::BatchError;
use std::io::{BufRead, Read};

/// Decodes the bytes of a text file holding one puzzle: UTF-8 (a byte-order mark
/// is dropped) or UTF-16 with a byte-order mark. `name` says what it is in
/// messages.
pub fn decode_text(bytes: Vec<u8>, name: &str) -> Result<String, BatchError> {
    if let Some(endian) = utf16_endian(&bytes) {
        return decode_utf16(&bytes[2..], endian).map_err(|offset| BatchError::BadUtf16 {
            name: name.to_string(),
            endian: endian.name(),
            offset: offset + 2,
        });
    }
    if looks_like_utf16_without_bom(&bytes) {
        return Err(BatchError::Utf16WithoutBom {
            name: name.to_string(),
        });
    }
    let skip = if bytes.starts_with(UTF8_BOM) { 3 } else { 0 };
    match String::from_utf8(bytes) {
        Ok(mut text) => {
            text.drain(..skip);
            Ok(text)
        }
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            // The bytes before `valid` are UTF-8: nothing is replaced.
            let text = String::from_utf8_lossy(&e.as_bytes()[skip..valid]);
            Err(BatchError::NotUtf8 {
                name: name.to_string(),
                at: Tracker::new(Prefix::default()).locate(&text, text.len()),
                offset: valid as u64,
            })
        }
    }
}

/// The rest of a reader after `start`, as UTF-8 text.
pub(super) fn read_text(
    mut reader: Box<dyn BufRead + '_>,
    start: Vec<u8>,
    name: &str,
    prefix: Prefix,
) -> Result<String, BatchError> {
    let mut bytes = start;
    reader
        .read_to_end(&mut bytes)
        .map_err(|source| BatchError::Io {
            name: name.to_string(),
            source,
        })?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        // The bytes before `valid` are UTF-8: nothing is replaced.
        let text = String::from_utf8_lossy(&e.as_bytes()[..valid]);
        BatchError::NotUtf8 {
            name: name.to_string(),
            at: Tracker::new(prefix).locate(&text, valid),
            offset: prefix.bytes + valid as u64,
        }
    })
}

pub(super) const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

#[derive(Clone, Copy)]
pub(super) enum Endian {
    Little,
    Big,
}

impl Endian {
    pub(super) fn name(self) -> &'static str {
        match self {
            Endian::Little => "little-endian",
            Endian::Big => "big-endian",
        }
    }
}

pub(super) fn utf16_endian(head: &[u8]) -> Option<Endian> {
    match head {
        [0xFF, 0xFE, ..] => Some(Endian::Little),
        [0xFE, 0xFF, ..] => Some(Endian::Big),
        _ => None,
    }
}

/// Two ASCII characters with NUL bytes between them, `x\0y\0` or `\0x\0y`: no
/// UTF-8 puzzle text starts like that.
pub(super) fn looks_like_utf16_without_bom(head: &[u8]) -> bool {
    let ascii = |b: u8| b != 0 && b.is_ascii();
    match head {
        [a, 0, b, 0, ..] | [0, a, 0, b, ..] => ascii(*a) && ascii(*b),
        _ => false,
    }
}

/// UTF-16 bytes (after the byte-order mark) as text; `Err` gives the offset of the
/// first bad code unit.
pub(super) fn decode_utf16(bytes: &[u8], endian: Endian) -> Result<String, u64> {
    let units = bytes.chunks(2).map(|pair| match (endian, pair) {
        (Endian::Little, [lo, hi]) => u16::from_le_bytes([*lo, *hi]),
        (Endian::Big, [hi, lo]) => u16::from_be_bytes([*hi, *lo]),
        // An odd last byte: never valid.
        _ => 0xDC00,
    });
    let mut text = String::with_capacity(bytes.len() / 2);
    let mut units_read = 0u64;
    for c in char::decode_utf16(units) {
        let c = c.map_err(|_| 2 * units_read)?;
        units_read += c.len_utf16() as u64;
        text.push(c);
    }
    Ok(text)
}
