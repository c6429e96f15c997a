//! Places in the whole input: what was skipped before a text, byte offsets
//! turned into lines and columns, and where a serde_json error points.

use super::Location;
use std::io::{self, BufRead};

/// What was skipped before the text a position is counted in: bytes (for progress)
/// and where in the whole input the text starts.
#[derive(Clone, Copy, Debug)]
pub(super) struct Prefix {
    pub(super) bytes: u64,
    pub(super) line: usize,
    pub(super) column: usize,
}

impl Default for Prefix {
    fn default() -> Prefix {
        Prefix {
            bytes: 0,
            line: 1,
            column: 1,
        }
    }
}

/// Turns byte offsets into a text (increasing, as elements come in order) into
/// locations in the whole input.
pub(super) struct Tracker {
    start: Prefix,
    offset: usize,
    at: Location,
}

impl Tracker {
    pub(super) fn new(start: Prefix) -> Tracker {
        Tracker {
            start,
            offset: 0,
            at: Location {
                line: start.line,
                column: start.column,
            },
        }
    }

    pub(super) fn locate(&mut self, text: &str, offset: usize) -> Location {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        if offset < self.offset {
            *self = Tracker::new(self.start);
        }
        for c in text[self.offset..offset].chars() {
            if c == '\n' {
                self.at.line += 1;
                self.at.column = 1;
            } else {
                self.at.column += 1;
            }
        }
        self.offset = offset;
        self.at
    }
}

/// The byte offset in `text` of a serde_json error's line and column (1-based; its
/// column counts bytes).
pub(super) fn serde_offset(text: &str, e: &serde_json::Error) -> usize {
    let mut start = 0;
    for _ in 1..e.line() {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let mut offset = (start + e.column().saturating_sub(1)).min(text.len());
    // The column may point inside a character (at the end of an unterminated
    // string, say): its first byte then.
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// A serde_json error's message without its " at line L column C".
pub(super) fn serde_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    full.strip_suffix(&suffix).unwrap_or(&full).to_string()
}

/// Skips white space (counting it into `prefix`); the first other byte, unread.
pub(super) fn skip_white_space(
    reader: &mut dyn BufRead,
    prefix: &mut Prefix,
) -> io::Result<Option<u8>> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(None);
        }
        let n = buf
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(buf.len());
        for &b in &buf[..n] {
            if b == b'\n' {
                prefix.line += 1;
                prefix.column = 1;
            } else {
                prefix.column += 1;
            }
        }
        let first = buf.get(n).copied();
        reader.consume(n);
        prefix.bytes += n as u64;
        if first.is_some() {
            return Ok(first);
        }
    }
}
