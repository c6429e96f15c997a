//! NDJSON and one puzzle per line, read a line at a time; a line holding a
//! category object gives its puzzles one by one.

use super::json::{plain_json_string, puzzle_of, span_of, RawCategories};
use super::position::{serde_message, serde_offset, Prefix};
use super::{EntryError, Found, Item, Location, Text};
use serde_json::Value;
use std::collections::VecDeque;
use std::io::{self, BufRead};

pub(super) struct Lines<'a> {
    reader: Box<dyn BufRead + 'a>,
    json: bool,
    /// The line last read (1-based in the whole input).
    line: usize,
    /// The column (1-based, in the whole input) where the next line read starts:
    /// past the white space skipped before the first one, 1 afterwards.
    first_column: usize,
    /// Input bytes read since the last entry was given out.
    bytes: u64,
    /// The puzzles of a one-line category object not yet given out.
    pending: VecDeque<Text>,
    buf: Vec<u8>,
}

impl<'a> Lines<'a> {
    pub(super) fn new(reader: Box<dyn BufRead + 'a>, json: bool, skipped: Prefix) -> Lines<'a> {
        Lines {
            reader,
            json,
            line: skipped.line - 1,
            first_column: skipped.column,
            bytes: skipped.bytes,
            pending: VecDeque::new(),
            buf: Vec::new(),
        }
    }

    /// The next non-blank line's entry (or the next puzzle of a category line).
    pub(super) fn next(&mut self) -> io::Result<Option<Found>> {
        if let Some(found) = self.pending.pop_front() {
            return Ok(Some((found, std::mem::take(&mut self.bytes))));
        }
        loop {
            self.buf.clear();
            let n = self.reader.read_until(b'\n', &mut self.buf)?;
            if n == 0 {
                return Ok(None);
            }
            self.bytes += n as u64;
            self.line += 1;
            let column = std::mem::replace(&mut self.first_column, 1);
            let item = Item::Line(self.line);
            let raw = match std::str::from_utf8(&self.buf) {
                Ok(t) => t,
                Err(_) => {
                    let lossy = String::from_utf8_lossy(&self.buf).trim().to_string();
                    let problem = EntryError::NotUtf8 { item };
                    let found = Text::not_a_puzzle(lossy, problem);
                    return Ok(Some((found, std::mem::take(&mut self.bytes))));
                }
            };
            let text = raw.trim();
            if text.is_empty() {
                continue;
            }
            let found = if !self.json {
                Text::puzzle(text)
            } else if let Some(s) = plain_json_string(text) {
                Text::puzzle(s)
            } else if let Some(puzzles) = category_line(raw, self.line, column) {
                self.pending = puzzles;
                match self.pending.pop_front() {
                    Some(first) => first,
                    // Only empty arrays: no puzzle on this line.
                    None => continue,
                }
            } else {
                match serde_json::from_str::<Value>(text) {
                    Ok(value) => puzzle_of(value, item),
                    Err(e) => {
                        let lead = raw.len() - raw.trim_start().len();
                        let offset = lead + serde_offset(text, &e);
                        let at = Location {
                            line: self.line,
                            column: column + raw[..offset.min(raw.len())].chars().count(),
                        };
                        let message = serde_message(&e);
                        Text::not_a_puzzle(text, EntryError::NotJson { item, message, at })
                    }
                }
            };
            return Ok(Some((found, std::mem::take(&mut self.bytes))));
        }
    }
}

/// When a line (the `line`th, starting at `column`) holds a category object: its
/// puzzles, in document order. Each element is decoded on its own, so one that
/// cannot be is one entry in error, not the whole line.
fn category_line(text: &str, line: usize, column: usize) -> Option<VecDeque<Text>> {
    let trimmed = text.trim();
    if !trimmed.starts_with('{') {
        return None;
    }
    let lists = match serde_json::from_str::<RawCategories>(trimmed) {
        Ok(RawCategories(lists))
            if !lists.is_empty() && lists.iter().all(|(key, _)| key != "puzzle") =>
        {
            lists
        }
        _ => return None,
    };
    let lead = text.len() - text.trim_start().len();
    let mut puzzles = VecDeque::new();
    for (category, raws) in lists {
        for (i, raw) in raws.iter().enumerate() {
            let (start, _) = span_of(trimmed, raw);
            let column = column + text[..lead + start].chars().count();
            let item = Item::CategoryElement {
                category: category.clone(),
                number: i + 1,
                at: Location { line, column },
            };
            let found = match plain_json_string(raw.get()) {
                Some(s) => Text::puzzle(s),
                None => match serde_json::from_str::<Value>(raw.get()) {
                    Ok(v) => puzzle_of(v, item),
                    Err(e) => {
                        let at = Location {
                            line,
                            column: column
                                + raw.get()[..serde_offset(raw.get(), &e)].chars().count(),
                        };
                        let message = serde_message(&e);
                        Text::not_a_puzzle(raw.get(), EntryError::NotJson { item, message, at })
                    }
                },
            };
            puzzles.push_back(found);
        }
    }
    Some(puzzles)
}
