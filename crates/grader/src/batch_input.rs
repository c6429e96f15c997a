//! A batch's input, read lazily as a stream of puzzle strings. Three shapes, told
//! apart by the first character that is not white space:
//!
//! * `[`: a JSON array of puzzle strings (the reference's batch input). The text is
//!   read whole and checked once (which also counts the puzzles, for the progress
//!   bar); the elements are then parsed one at a time.
//! * `"`, or `{` with a complete JSON value on the first line: NDJSON, one puzzle
//!   string or one `{"puzzle": …}` object per line.
//! * `{` otherwise: one JSON object whose values are arrays of puzzle strings (the
//!   reference's test-grid file, puzzles by category): the puzzles of every array,
//!   in document order. Read whole.
//! * anything else: one puzzle string per line.
//!
//! NDJSON and plain lines are read line by line, so memory does not grow with the
//! input. Blank lines are skipped. An element or line that is not a puzzle string
//! (a number, bad JSON, bad UTF-8) still becomes an entry, with the problem noted, so
//! the batch reports it in that row and goes on.

use anyhow::Context;
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};

/// One puzzle of the input.
#[derive(Debug)]
pub struct Entry {
    /// 1-based position among the puzzles.
    pub index: usize,
    /// The puzzle string; when `problem` is set, the text that is not one.
    pub text: String,
    /// Why this entry is not a puzzle string.
    pub problem: Option<String>,
}

/// The input as a whole cannot be read as a batch (for example, a JSON array with a
/// syntax error). Exit code 2, unlike an I/O failure.
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// The entries of an input, in order.
pub struct Entries {
    source: Source,
    next_index: usize,
    /// The number of puzzles when known in advance (JSON arrays).
    pub total: Option<usize>,
}

enum Source {
    /// A JSON array's text, and where the next element starts.
    Array {
        text: String,
        pos: usize,
    },
    /// The puzzles of a JSON object of arrays.
    Items(std::vec::IntoIter<Value>),
    Lines {
        reader: Box<dyn BufRead>,
        json: bool,
        line: usize,
    },
    Done,
}

/// Opens a batch input: a file, or `-` for standard input.
pub fn open(path: &str) -> anyhow::Result<Entries> {
    if path == "-" {
        return from_reader(Box::new(io::stdin().lock()), "standard input");
    }
    let name = format!("file {path}");
    let file = File::open(path).map_err(|e| {
        if e.kind() == io::ErrorKind::NotFound {
            anyhow::Error::new(BadInput(format!("cannot read {name}: no such file")))
        } else {
            anyhow::Error::new(e).context(format!("cannot read {name}"))
        }
    })?;
    from_reader(Box::new(BufReader::with_capacity(1 << 16, file)), &name)
}

/// The entries of an input; `name` says what it is in messages.
fn from_reader(mut reader: Box<dyn BufRead>, name: &str) -> anyhow::Result<Entries> {
    let io_error = |e: io::Error| anyhow::Error::new(e).context(format!("cannot read {name}"));
    let (source, total) = match first_byte(&mut *reader).map_err(io_error)? {
        None => (Source::Done, Some(0)),
        Some(b'[') => {
            let text = read_text(reader, Vec::new(), name)?;
            // Checks the whole array before any row is written, and counts it.
            let total = serde_json::from_str::<Vec<IgnoredAny>>(&text)
                .map_err(|e| {
                    BadInput(format!(
                        "{name} starts with '[' but is not a valid JSON array: {e}"
                    ))
                })?
                .len();
            (Source::Array { text, pos: 1 }, Some(total))
        }
        Some(b'{') => {
            let mut first = Vec::new();
            reader.read_until(b'\n', &mut first).map_err(io_error)?;
            if serde_json::from_slice::<IgnoredAny>(&first).is_ok() {
                let reader = Box::new(io::Cursor::new(first).chain(reader));
                (
                    Source::Lines {
                        reader,
                        json: true,
                        line: 0,
                    },
                    None,
                )
            } else {
                let text = read_text(reader, first, name)?;
                let Categories(items) = serde_json::from_str(&text).map_err(|e| {
                    BadInput(format!(
                        "{name} starts with '{{' but is neither NDJSON (its first line is not a JSON value) nor a JSON object of puzzle arrays: {e}"
                    ))
                })?;
                let total = items.len();
                (Source::Items(items.into_iter()), Some(total))
            }
        }
        Some(c) => (
            Source::Lines {
                reader,
                json: c == b'"',
                line: 0,
            },
            None,
        ),
    };
    Ok(Entries {
        source,
        next_index: 1,
        total,
    })
}

/// The rest of a reader after `start`, as text.
fn read_text(mut reader: Box<dyn BufRead>, start: Vec<u8>, name: &str) -> anyhow::Result<String> {
    let mut bytes = start;
    reader
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {name}"))?;
    String::from_utf8(bytes).map_err(|e| {
        BadInput(format!(
            "{name} is not valid UTF-8 (at byte {})",
            e.utf8_error().valid_up_to()
        ))
        .into()
    })
}

/// The values of every array of a JSON object, in document order (a map would sort
/// the keys).
struct Categories(Vec<Value>);

impl<'de> Deserialize<'de> for Categories {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Categories, D::Error> {
        struct Flatten;
        impl<'de> Visitor<'de> for Flatten {
            type Value = Categories;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object whose values are arrays of puzzle strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Categories, A::Error> {
                let mut items = Vec::new();
                while let Some((_, list)) = map.next_entry::<IgnoredAny, Vec<Value>>()? {
                    items.extend(list);
                }
                Ok(Categories(items))
            }
        }
        d.deserialize_map(Flatten)
    }
}

/// Skips a UTF-8 byte-order mark and white space; the first other byte, left unread.
fn first_byte(reader: &mut dyn BufRead) -> io::Result<Option<u8>> {
    let buf = reader.fill_buf()?;
    if buf.starts_with(b"\xEF\xBB\xBF") {
        reader.consume(3);
    }
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(None);
        }
        match buf.iter().position(|b| !b.is_ascii_whitespace()) {
            Some(i) => {
                let first = buf[i];
                reader.consume(i);
                return Ok(Some(first));
            }
            None => {
                let n = buf.len();
                reader.consume(n);
            }
        }
    }
}

impl Iterator for Entries {
    /// An error ends the input: I/O failure, or [`BadInput`].
    type Item = anyhow::Result<Entry>;

    fn next(&mut self) -> Option<anyhow::Result<Entry>> {
        let item = match &mut self.source {
            Source::Done => return None,
            Source::Array { text, pos } => next_element(text, pos),
            Source::Items(items) => Ok(items.next().map(|v| puzzle_of(v, "the array element"))),
            Source::Lines { reader, json, line } => next_line(&mut **reader, *json, line),
        };
        let (text, problem) = match item {
            Ok(Some(found)) => found,
            Ok(None) => {
                self.source = Source::Done;
                return None;
            }
            Err(e) => {
                self.source = Source::Done;
                return Some(Err(e));
            }
        };
        let index = self.next_index;
        self.next_index += 1;
        Some(Ok(Entry {
            index,
            text,
            problem,
        }))
    }
}

type Found = Option<(String, Option<String>)>;

/// The next element of a JSON array (already checked whole), `pos` just past the
/// `[` or the previous element.
fn next_element(text: &str, pos: &mut usize) -> anyhow::Result<Found> {
    let skip_ws = |pos: &mut usize| {
        while text
            .as_bytes()
            .get(*pos)
            .is_some_and(u8::is_ascii_whitespace)
        {
            *pos += 1;
        }
    };
    skip_ws(pos);
    if matches!(text.as_bytes().get(*pos), None | Some(b']')) {
        return Ok(None);
    }
    let mut stream = serde_json::Deserializer::from_str(&text[*pos..]).into_iter::<Value>();
    let value = match stream.next() {
        Some(Ok(v)) => v,
        Some(Err(e)) => return Err(BadInput(format!("malformed JSON array: {e}")).into()),
        None => return Ok(None),
    };
    *pos += stream.byte_offset();
    skip_ws(pos);
    if text.as_bytes().get(*pos) == Some(&b',') {
        *pos += 1;
    }
    Ok(Some(puzzle_of(value, "the array element")))
}

/// The next non-blank line: a puzzle string, or for NDJSON a JSON string or object.
fn next_line(reader: &mut dyn BufRead, json: bool, line: &mut usize) -> anyhow::Result<Found> {
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if reader.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(None);
        }
        *line += 1;
        let text = match std::str::from_utf8(&bytes) {
            Ok(t) => t.trim(),
            Err(_) => {
                let lossy = String::from_utf8_lossy(&bytes).trim().to_string();
                return Ok(Some((
                    lossy,
                    Some(format!("line {line} is not valid UTF-8")),
                )));
            }
        };
        if text.is_empty() {
            continue;
        }
        if !json {
            return Ok(Some((text.to_string(), None)));
        }
        return Ok(Some(match serde_json::from_str::<Value>(text) {
            Ok(v) => puzzle_of(v, &format!("line {line}")),
            Err(e) => (
                text.to_string(),
                Some(format!("line {line} is not valid JSON: {e}")),
            ),
        }));
    }
}

/// The puzzle string of a JSON value: a string, or an object's `puzzle` string.
fn puzzle_of(value: Value, what: &str) -> (String, Option<String>) {
    match value {
        Value::String(s) => (s, None),
        Value::Object(mut map) => match map.remove("puzzle") {
            Some(Value::String(s)) => (s, None),
            _ => (
                Value::Object(map).to_string(),
                Some(format!("{what} is an object without a \"puzzle\" string")),
            ),
        },
        other => (
            other.to_string(),
            Some(format!(
                "{what} is not a puzzle string (nor an object with a \"puzzle\" string)"
            )),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(input: &str) -> Vec<(usize, String, Option<String>)> {
        let reader = Box::new(io::Cursor::new(input.as_bytes().to_vec()));
        from_reader(reader, "the test input")
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.index, e.text, e.problem)
            })
            .collect()
    }

    #[test]
    fn bad_arrays_are_refused_whole() {
        let reader = Box::new(io::Cursor::new(b"[\"a\", \"b\"".to_vec()));
        let e = from_reader(reader, "the test input").err().unwrap();
        assert!(e.downcast_ref::<BadInput>().is_some(), "{e}");
        assert!(e.to_string().contains("not a valid JSON array"), "{e}");
    }

    #[test]
    fn json_arrays() {
        let got = entries(" \n[\"a\" , \"b\\\"c\",\n{\"puzzle\":\"d\"}, 42 ]\n");
        assert_eq!(got.len(), 4);
        assert_eq!(got[0], (1, "a".into(), None));
        assert_eq!(got[1], (2, "b\"c".into(), None));
        assert_eq!(got[2], (3, "d".into(), None));
        assert_eq!(got[3].1, "42");
        assert!(got[3].2.as_ref().unwrap().contains("not a puzzle string"));
        assert!(entries("[]").is_empty());
        assert!(entries("[ ]").is_empty());
    }

    #[test]
    fn json_objects_of_categories() {
        let got = entries("{\n \"Four\": [\"b\", \"a\"],\n \"Easy\": [\"c\"]\n}\n");
        let texts: Vec<&str> = got.iter().map(|e| e.1.as_str()).collect();
        assert_eq!(texts, ["b", "a", "c"]);
        let reader = Box::new(io::Cursor::new(b"{\n \"Four\": 3\n}".to_vec()));
        let e = from_reader(reader, "the test input").err().unwrap();
        assert!(
            e.to_string().contains("JSON object of puzzle arrays"),
            "{e}"
        );
    }

    #[test]
    fn ndjson_and_lines() {
        let got = entries("\"a\"\n\n{\"puzzle\": \"b\", \"x\": 1}\n{oops\n");
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], (1, "a".into(), None));
        assert_eq!(got[1], (2, "b".into(), None));
        assert_eq!(got[2].1, "{oops");
        assert!(got[2]
            .2
            .as_ref()
            .unwrap()
            .starts_with("line 4 is not valid JSON"));

        let got = entries("\u{feff}4:abc\r\n\n  5:def  \n");
        assert_eq!(
            got,
            vec![(1, "4:abc".into(), None), (2, "5:def".into(), None)]
        );
        assert!(entries("").is_empty());
    }
}
