//! Text shown in rows and messages: cut to a bounded length, escaped for TSV,
//! times in milliseconds, and the warning for a game ID read leniently.

use kenken_formats::Imported;
use std::borrow::Cow;
use std::time::Duration;

/// The most characters of an entry that is not a valid puzzle shown in a row or
/// a message (a 9×9 game ID is shown whole; a 16×16 one has about 650).
const SHOWN_CHARS: usize = 200;

/// Text cut at [`SHOWN_CHARS`] characters, with `…` where it was cut.
pub fn clip(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]).into(),
        None => text.into(),
    }
}

/// The most characters of an error message shown: a rule broken may quote a
/// word of the input (a size, a clue, a cell name), which may be any length.
const MESSAGE_CHARS: usize = 500;

/// An error message cut at [`MESSAGE_CHARS`] characters, with `…` where it was
/// cut.
pub fn clip_message(message: String) -> String {
    match message.char_indices().nth(MESSAGE_CHARS) {
        Some((cut, _)) => format!("{}…", &message[..cut]),
        None => message,
    }
}

/// For serde's `skip_serializing_if`: a flag left out of a row when it is off.
pub fn is_false(flag: &bool) -> bool {
    !*flag
}

/// A duration in milliseconds, to the microsecond.
pub fn millis(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// A TSV cell: tabs, line breaks and backslashes escaped as `\t`, `\n`, `\r`, `\\`
/// (puzzles in the text formats span lines), and any other control or
/// non-printing character as `\u{…}`, so that a row is one line of plain text.
pub fn tsv_field(s: &str) -> Cow<'_, str> {
    let plain = |c: char| {
        !matches!(c, '\t' | '\n' | '\r' | '\\')
            && (c.is_ascii_graphic() || c == ' ' || {
                // Beyond ASCII: what Rust's debug formatting would escape.
                !c.is_ascii() && c.escape_debug().nth(1).is_none()
            })
    };
    if s.chars().all(plain) {
        return s.into();
    }
    let mut escaped = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\t' => escaped.push_str("\\t"),
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            '\\' => escaped.push_str("\\\\"),
            c if plain(c) => escaped.push(c),
            c => escaped.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
        }
    }
    escaped.into()
}

/// For a Tatham ID read leniently: which of Tatham's rules it breaks and which
/// rules the lenient reading relaxed.
pub fn relaxed_warning(imported: &Imported) -> Option<String> {
    if imported.relaxed.is_empty() {
        return None;
    }
    let rules: Vec<String> = imported.relaxed.iter().map(|r| r.to_string()).collect();
    let strict = imported
        .strict_error
        .as_ref()
        .map(|e| format!(" ({})", e.rule))
        .unwrap_or_default();
    Some(format!(
        "not a valid game ID by Tatham's rules{strict}; read it leniently, relaxing: {}",
        rules.join("; ")
    ))
}

/// The message of a caught panic.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_fields_are_escaped() {
        assert_eq!(tsv_field("4:_a_7a4_a3,m2"), "4:_a_7a4_a3,m2");
        assert_eq!(tsv_field("# 3\n+ 3\tA1\\"), "# 3\\n+ 3\\tA1\\\\");
        assert_eq!(
            tsv_field("a\u{0}b\u{1b}[0m\u{7f}"),
            "a\\u{0}b\\u{1b}[0m\\u{7f}"
        );
        assert_eq!(tsv_field("× ÷ – \u{202e}"), "× ÷ – \\u{202e}");
    }

    #[test]
    fn long_messages_are_cut() {
        assert_eq!(clip_message("short".into()), "short");
        let long = clip_message("y".repeat(10 * MESSAGE_CHARS));
        assert_eq!(long.chars().count(), MESSAGE_CHARS + 1);
    }

    #[test]
    fn long_texts_are_cut() {
        assert_eq!(clip("abc"), "abc");
        let long = "é".repeat(SHOWN_CHARS + 1);
        assert_eq!(clip(&long), format!("{}…", "é".repeat(SHOWN_CHARS)));
        assert_eq!(clip(&long[..2 * SHOWN_CHARS]), long[..2 * SHOWN_CHARS]);
    }

    #[test]
    fn millis_keep_microseconds() {
        assert_eq!(millis(Duration::from_nanos(1_234_567)), 1.235);
    }
}
