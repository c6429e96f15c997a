//! JSON arrays and category objects, read whole: where each element lies, and
//! each element's puzzle string (or why it is not one) as the entries come.

use super::position::{serde_message, serde_offset, Prefix, Tracker};
use super::{BatchError, EntryError, Found, Item, Text};
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;
use std::fmt;

/// Where an element lies in the text, and which array it belongs to.
pub(super) struct Span {
    start: usize,
    end: usize,
    /// Index into `Elements::categories`, for a category object's element.
    category: Option<usize>,
    /// 1-based within its array.
    number: usize,
}

pub(super) struct Elements {
    text: String,
    pub(super) spans: std::vec::IntoIter<Span>,
    categories: Vec<String>,
    tracker: Tracker,
    /// Where the previous element ended (for [`Entry::bytes`](super::Entry::bytes)).
    done: usize,
    prefix_bytes: u64,
}

/// The byte range of a borrowed raw value within the text it was parsed from.
pub(super) fn span_of(text: &str, raw: &RawValue) -> (usize, usize) {
    let start = raw.get().as_ptr() as usize - text.as_ptr() as usize;
    (start, start + raw.get().len())
}

impl Elements {
    pub(super) fn array(text: String, prefix: Prefix, name: &str) -> Result<Elements, BatchError> {
        let mut tracker = Tracker::new(prefix);
        let spans = match serde_json::from_str::<Vec<&RawValue>>(&text) {
            Ok(raws) => raws
                .iter()
                .enumerate()
                .map(|(i, raw)| {
                    let (start, end) = span_of(&text, raw);
                    Span {
                        start,
                        end,
                        category: None,
                        number: i + 1,
                    }
                })
                .collect::<Vec<_>>(),
            Err(e) => {
                return Err(BatchError::BadArray {
                    name: name.to_string(),
                    message: serde_message(&e),
                    at: tracker.locate(&text, serde_offset(&text, &e)),
                })
            }
        };
        Ok(Elements {
            text,
            spans: spans.into_iter(),
            categories: Vec::new(),
            tracker,
            done: 0,
            prefix_bytes: prefix.bytes,
        })
    }

    pub(super) fn categories(
        text: String,
        prefix: Prefix,
        name: &str,
    ) -> Result<Elements, BatchError> {
        let mut tracker = Tracker::new(prefix);
        let (categories, spans) = match serde_json::from_str::<RawCategories>(&text) {
            Ok(RawCategories(lists)) => {
                let mut names = Vec::with_capacity(lists.len());
                let mut spans = Vec::new();
                for (c, (category, raws)) in lists.into_iter().enumerate() {
                    names.push(category);
                    spans.extend(raws.iter().enumerate().map(|(i, raw)| {
                        let (start, end) = span_of(&text, raw);
                        Span {
                            start,
                            end,
                            category: Some(c),
                            number: i + 1,
                        }
                    }));
                }
                (names, spans)
            }
            Err(e) => {
                return Err(BatchError::BadObject {
                    name: name.to_string(),
                    message: serde_message(&e),
                    at: tracker.locate(&text, serde_offset(&text, &e)),
                })
            }
        };
        Ok(Elements {
            text,
            spans: spans.into_iter(),
            categories,
            tracker,
            done: 0,
            prefix_bytes: prefix.bytes,
        })
    }

    pub(super) fn next(&mut self) -> Option<Found> {
        let span = self.spans.next()?;
        let raw = &self.text[span.start..span.end];
        let bytes = (span.end - self.done) as u64 + std::mem::take(&mut self.prefix_bytes);
        self.done = span.end;
        if let Some(s) = plain_json_string(raw) {
            return Some((Text::puzzle(s), bytes));
        }
        let at = self.tracker.locate(&self.text, span.start);
        let item = match span.category {
            None => Item::Element {
                number: span.number,
                at,
            },
            Some(c) => Item::CategoryElement {
                category: self.categories[c].clone(),
                number: span.number,
                at,
            },
        };
        let found = match serde_json::from_str::<Value>(raw) {
            Ok(value) => puzzle_of(value, item),
            Err(e) => {
                let at = self
                    .tracker
                    .locate(&self.text, span.start + serde_offset(raw, &e));
                let message = serde_message(&e);
                Text::not_a_puzzle(raw, EntryError::NotJson { item, message, at })
            }
        };
        Some((found, bytes))
    }
}

/// The arrays of a JSON object, by key, in document order (a map would sort the
/// keys), each element left as raw JSON.
pub(super) struct RawCategories<'a>(pub(super) Vec<(String, Vec<&'a RawValue>)>);

impl<'de> serde::Deserialize<'de> for RawCategories<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RawCategories<'de>, D::Error> {
        struct Lists;
        impl<'de> Visitor<'de> for Lists {
            type Value = RawCategories<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object whose values are arrays of puzzle strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut lists = Vec::new();
                while let Some(entry) = map.next_entry::<String, Vec<&'de RawValue>>()? {
                    lists.push(entry);
                }
                Ok(RawCategories(lists))
            }
        }
        d.deserialize_map(Lists)
    }
}

/// The content of a JSON string literal that has no escapes (the common case,
/// read without a JSON parser).
pub(super) fn plain_json_string(raw: &str) -> Option<&str> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20)).then_some(inner)
}

/// The puzzle string of a JSON value: a string, or an object's `puzzle` string
/// (with its `hide_ops` flag, false when absent).
pub(super) fn puzzle_of(value: Value, item: Item) -> Text {
    match value {
        Value::String(s) => Text::puzzle(s),
        Value::Object(map) => {
            let hide_ops = match map.get("hide_ops") {
                None | Some(Value::Bool(false)) => Some(false),
                Some(Value::Bool(true)) => Some(true),
                Some(_) => None,
            };
            match (map.get("puzzle"), hide_ops) {
                (Some(Value::String(s)), Some(hide_ops)) => Text {
                    text: s.clone(),
                    problem: None,
                    hide_ops,
                },
                (Some(Value::String(_)), None) => Text::not_a_puzzle(
                    Value::Object(map).to_string(),
                    EntryError::BadHideOps { item },
                ),
                _ => Text::not_a_puzzle(
                    Value::Object(map).to_string(),
                    EntryError::NoPuzzleKey { item },
                ),
            }
        }
        other => Text::not_a_puzzle(other.to_string(), EntryError::NotAString { item }),
    }
}
