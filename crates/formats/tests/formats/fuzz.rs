//! Fuzzing on stable Rust, with proptest: every reader of this crate is fed
//! mutations of valid inputs of every format (and random text), and must never
//! panic; what a reader accepts must write and read back to the same puzzle.
//!
//! * puzzle strings: game IDs, web-player URLs, K6C/D6C (with progress), SudokuWiki
//!   URLs, the text format, letter grids;
//! * batch inputs ([`batch_input::from_reader`]): JSON arrays, NDJSON, category objects
//!   and one-per-line text built from puzzle strings and junk elements, then
//!   mutated byte by byte. Unmutated, every element is one entry, in order, and a
//!   puzzle string comes back as it was; mutated, the entries are still numbered
//!   1, 2, … and as many as announced;
//! * positions ([`state::read`]): plain grids and K6C/D6C strings with progress.
//!
//! Each property runs with a fixed seed, so a run is repeatable and a failure
//! comes with its (shrunk) input. `KENKEN_FUZZ_CASES` sets the number of inputs of
//! each property (the default keeps the whole file within a few seconds); the
//! ignored `fuzz_at_scale` runs a million puzzle strings and a few hundred thousand
//! batches and positions:
//!
//! ```sh
//! cargo test --release -p kenken-formats --test formats -- --ignored --nocapture
//! ```

use kenken_formats::batch_input;
use kenken_formats::{
    detect, letter_grid, read_any, state, sudokuwiki, tatham, text, write, CellProgress, Format,
    Strictness,
};
use kenken_model::{Digits, Puzzle, Size};
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use std::cell::Cell;
use std::time::Instant;

const SEEDS: &[&str] = &[
    "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2",
    "4:a__a_aa__a_3ac,a6a8s0m2s0m12a2",
    "4:_a_7a4_a3,m2m3d2d2a7s1s2a3",
    "3:a_3cb_,m12s1a7",
    "9:a3_a3_a__a__a_7a_21a_5a__a_aba4_a3_3a3__a3_a3_a3_a3_6a_aa_aa_,d4m18s4m6a11a11d3a7s5m8m12s1s3m20a8m8m7a10a15s5m24d2s3a12a10s3s1m6s5s4a11s3a14m180d2m72a19d2",
    "9:z5s,a405",
    "6dh#12345",
    "https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/keen.html#4:_a_7a4_a3,m2m3d2d2a7s1s2a3",
    "# 3\n+ 3 A1 B1\n+ 5 A2 B2\n! 1 A3\n+ 5 B3 C3\n+ 4 C1 C2",
    "#3\r\n× 3 a1 b1\n– 5 A2 B2\n! 1 A3\n÷ 5 B3 C3\n+ 4 C1 C2\n",
    "3\nAAB\nCDB\nCD1\n\nA 3+\nB 2/\nC 3x\nD 5+\n",
    "3\nA A B\nC D B\nC D 1\n\n3+\n2/\n3*\n5+\n",
    "https://www.sudokuwiki.org/KenKen6x6.aspx?bd=112112322332311211323232123432114411,2-,,9+,6x,,3-,18x,,,5+,,,,2-,,3-,6+,,,3/,7+,,2-,12x,20x,,,24x,,,,,,,2/,,",
];

const ALPHABETS: &[&str] = &[
    "_abcdefghijklmnopqrstuvwxyz0123456789,:#smad",
    "0123456789abcdefghijklmnopqrstuvwxyzKDC6",
    "# 0123456789+-*/!x×÷–ABCDEFGHIJKLMNOPabc\n\r\t ",
    "ABCDEabcde0123456789\n +-x*/:=",
    "\u{0}\u{7f}é€😀:#,_/.%&?=abc123 \n",
    "[]{}\",:\\u0dc01e400 puzzle\n",
    ".0_123456789abcdefg[](){}|-+= \n#",
];

/// Long numbers a mutation may insert (repeat counts, clues, sizes).
const NUMBERS: &[&str] = &[
    "0",
    "9",
    "99",
    "2048",
    "4294967297",
    "99999999999999999999999",
];

/// The puzzle the position seeds belong to (the example of `docs/formats.md`).
fn six() -> Puzzle {
    tatham::read(SEEDS[0]).unwrap()
}

/// K6C and D6C strings, with and without progress, and a SudokuWiki URL.
fn packed_seeds() -> Vec<String> {
    let p = six();
    let k = Puzzle::new_kendoku(p.size(), p.cages().to_vec(), 2, 3).unwrap();
    let state = progress();
    vec![
        sudokuwiki::write_k6c(&p, None).unwrap(),
        sudokuwiki::write_k6c(&p, Some(&state)).unwrap(),
        sudokuwiki::write_d6c(&k, Some(&state)).unwrap(),
        format!(
            "https://www.sudokuwiki.org/KenKen6x6.aspx?bd={}&x=1",
            sudokuwiki::write_k6c(&p, None).unwrap()
        ),
    ]
}

/// A position of the 6×6 with digits and pencil marks.
fn progress() -> Vec<CellProgress> {
    let mut state = vec![CellProgress::Unknown; 36];
    state[3] = CellProgress::Solved(6);
    state[4] = CellProgress::Candidates(Digits::from_iter([2, 3, 5]));
    state[20] = CellProgress::Solved(1);
    state[35] = CellProgress::Candidates(Digits::from_iter([1, 4]));
    state
}

fn string_seeds() -> Vec<String> {
    let mut seeds: Vec<String> = SEEDS.iter().map(|s| s.to_string()).collect();
    seeds.extend(packed_seeds());
    seeds
}

// ---- mutation ----

/// One edit of a text, at positions given as fractions of its length.
#[derive(Clone, Debug)]
enum Edit {
    Remove(Index),
    Insert(Index, char),
    Replace(Index, char),
    Truncate(Index),
    /// Copy up to `len` characters from the first place to the second.
    Duplicate(Index, usize, Index),
    Number(Index, &'static str),
    Swap(Index),
}

fn edit(alphabet: Vec<char>) -> impl Strategy<Value = Edit> {
    let c = select(alphabet);
    prop_oneof![
        any::<Index>().prop_map(Edit::Remove),
        (any::<Index>(), c.clone()).prop_map(|(i, c)| Edit::Insert(i, c)),
        (any::<Index>(), c).prop_map(|(i, c)| Edit::Replace(i, c)),
        any::<Index>().prop_map(Edit::Truncate),
        (any::<Index>(), 1..12usize, any::<Index>()).prop_map(|(a, n, b)| Edit::Duplicate(a, n, b)),
        (any::<Index>(), select(NUMBERS)).prop_map(|(i, n)| Edit::Number(i, n)),
        any::<Index>().prop_map(Edit::Swap),
    ]
}

fn apply<T: Clone>(items: &mut Vec<T>, edit: &Edit, convert: impl Fn(char) -> Vec<T>) {
    let len = items.len();
    match edit {
        Edit::Remove(i) if len > 0 => {
            items.remove(i.index(len));
        }
        Edit::Insert(i, c) => {
            let at = i.index(len + 1);
            items.splice(at..at, convert(*c));
        }
        Edit::Replace(i, c) if len > 0 => {
            let at = i.index(len);
            items.splice(at..=at, convert(*c));
        }
        Edit::Truncate(i) if len > 0 => items.truncate(i.index(len)),
        Edit::Duplicate(a, n, b) if len > 0 => {
            let a = a.index(len);
            let piece = items[a..(a + n).min(len)].to_vec();
            let at = b.index(len + 1);
            items.splice(at..at, piece);
        }
        Edit::Number(i, digits) => {
            let at = i.index(len + 1);
            items.splice(at..at, digits.chars().flat_map(&convert));
        }
        Edit::Swap(i) if len > 1 => items.swap(i.index(len - 1), i.index(len - 1) + 1),
        _ => {}
    }
}

/// A seed with one to four edits over characters of one alphabet.
fn mutated(seeds: Vec<String>) -> impl Strategy<Value = String> {
    (select(seeds), select(ALPHABETS)).prop_flat_map(|(seed, alphabet)| {
        let edits = prop::collection::vec(edit(alphabet.chars().collect()), 1..5);
        edits.prop_map(move |edits| {
            let mut chars: Vec<char> = seed.chars().collect();
            for e in &edits {
                apply(&mut chars, e, |c| vec![c]);
            }
            chars.into_iter().collect()
        })
    })
}

/// Up to 200 characters of one alphabet.
fn random_text() -> impl Strategy<Value = String> {
    select(ALPHABETS).prop_flat_map(|alphabet| {
        let chars: Vec<char> = alphabet.chars().collect();
        prop::collection::vec(select(chars), 0..200).prop_map(|v| v.into_iter().collect())
    })
}

// ---- running ----

/// Inputs per property: `KENKEN_FUZZ_CASES`, or `default`.
fn cases(default: u32) -> u32 {
    std::env::var("KENKEN_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `property` on `cases` inputs of `strategy` from a fixed seed; panics (with
/// the shrunk input) on the first failure, a panic inside `property` included.
/// Returns the number of inputs tried.
fn fuzz<S: Strategy>(
    name: &str,
    cases: u32,
    strategy: S,
    property: impl Fn(S::Value) -> Result<(), TestCaseError>,
) -> u64 {
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 2_000,
        ..Config::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let tried = Cell::new(0u64);
    let started = Instant::now();
    let result = runner.run(&strategy, |input| {
        tried.set(tried.get() + 1);
        property(input)
    });
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
    eprintln!(
        "{name}: {} inputs, no failure, {:.1} s",
        tried.get(),
        started.elapsed().as_secs_f64()
    );
    tried.get()
}

// ---- puzzle strings ----

/// Everything a user could do with one input; a panic is a failure. Checks the
/// round trip of whatever was accepted, and says whether some reader accepted it.
fn exercise(input: &str) -> Result<bool, TestCaseError> {
    let _ = detect(input);
    let mut accepted = false;
    for format in [None].into_iter().chain(Format::ALL.into_iter().map(Some)) {
        if let Ok(imported) = read_any(input, format) {
            accepted = true;
            for to in Format::ALL {
                let _ = write(&imported.puzzle, to, imported.progress.as_deref());
            }
            check_round_trips(&imported.puzzle)?;
        }
    }
    if let Ok((p, relaxed)) = tatham::read_with(input, Strictness::Lenient) {
        let id = tatham::write(&p).unwrap();
        let (back, _) = tatham::read_with(&id, Strictness::Lenient).unwrap();
        prop_assert_eq!(&back, &p, "{:?} -> {:?}", input, id);
        if relaxed.is_empty() {
            prop_assert_eq!(&tatham::read(&id).unwrap(), &p, "{:?} -> {:?}", input, id);
        }
    }
    let _ = text::read(input);
    let _ = letter_grid::read(input);
    let _ = sudokuwiki::read_packed(input);
    Ok(accepted)
}

fn check_round_trips(p: &Puzzle) -> Result<(), TestCaseError> {
    if p.is_kendoku() {
        if let Ok(s) = sudokuwiki::write_d6c(p, None) {
            prop_assert_eq!(&sudokuwiki::read(&s).unwrap(), p, "{}", s);
        }
        return Ok(());
    }
    if p.has_hidden_ops() {
        // Only the text format can show a hidden operation; the others refuse.
        let t = text::write(p).unwrap();
        prop_assert_eq!(&text::read(&t).unwrap(), p, "{}", t);
        prop_assert!(tatham::write(p).is_err());
        prop_assert!(sudokuwiki::write_k6c(p, None).is_err());
        return Ok(());
    }
    let id = tatham::write(p).unwrap();
    let (back, _) = tatham::read_with(&id, Strictness::Lenient).unwrap();
    prop_assert_eq!(&back, p, "{}", id);
    let t = text::write(p).unwrap();
    prop_assert_eq!(&text::read(&t).unwrap(), p, "{}", t);
    if let Ok(s) = sudokuwiki::write_k6c(p, None) {
        prop_assert_eq!(&sudokuwiki::read(&s).unwrap(), p, "{}", s);
    }
    Ok(())
}

fn puzzle_strings() -> impl Strategy<Value = String> {
    prop_oneof![4 => mutated(string_seeds()), 1 => random_text()]
}

fn fuzz_readers(cases: u32) -> u64 {
    let accepted = Cell::new(0u64);
    let tried = fuzz("puzzle strings", cases, puzzle_strings(), |s| {
        accepted.set(accepted.get() + u64::from(exercise(&s)?));
        Ok(())
    });
    // Mutations that break every input would test only the readers' first checks.
    assert!(
        accepted.get() * 20 > tried,
        "only {} of {tried} inputs were read as puzzles",
        accepted.get()
    );
    eprintln!(
        "  {} of them read as a puzzle by some reader",
        accepted.get()
    );
    tried
}

// ---- batch inputs ----

/// An element of a batch input.
#[derive(Clone, Debug)]
enum Element {
    /// A puzzle string (one line).
    Puzzle(&'static str),
    /// `{"puzzle": …}`.
    Object(&'static str),
    /// Some other JSON value, or text that is not JSON.
    Junk(&'static str),
}

/// Junk elements: a number, a lone surrogate, a number out of range, objects and
/// arrays that are not puzzles, control characters, text.
const JUNK: &[&str] = &[
    "42",
    "\"\\udc00\"",
    "1e400",
    "null",
    "true",
    "{\"name\": \"x\"}",
    "{\"puzzle\": 5}",
    "[\"4:_a_7a4_a3,m2m3d2d2a7s1s2a3\"]",
    "\"\\u0007\\t\"",
    "\"not a puzzle\"",
    "\"ünïcödé 😀\"",
];

/// The one-line puzzle strings of [`SEEDS`].
fn one_line_seeds() -> Vec<&'static str> {
    SEEDS
        .iter()
        .copied()
        .filter(|s| !s.contains('\n'))
        .collect()
}

fn element() -> impl Strategy<Value = Element> {
    let seeds = one_line_seeds();
    prop_oneof![
        4 => select(seeds.clone()).prop_map(Element::Puzzle),
        1 => select(seeds).prop_map(Element::Object),
        2 => select(JUNK).prop_map(Element::Junk),
    ]
}

impl Element {
    fn json(&self) -> String {
        match self {
            Element::Puzzle(s) => serde_json::to_string(s).unwrap(),
            Element::Object(s) => format!("{{\"puzzle\": {}}}", serde_json::to_string(s).unwrap()),
            Element::Junk(j) => j.to_string(),
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum BatchShape {
    Array,
    Ndjson,
    Categories,
    Lines,
}

/// A batch input: its shape, its elements, a split of them into categories,
/// whether lines end in CRLF and start with a byte-order mark.
#[derive(Clone, Debug)]
struct Doc {
    shape: BatchShape,
    elements: Vec<Element>,
    split: Index,
    crlf: bool,
    bom: bool,
}

impl Doc {
    fn bytes(&self) -> Vec<u8> {
        let nl = if self.crlf { "\r\n" } else { "\n" };
        let json: Vec<String> = self.elements.iter().map(Element::json).collect();
        let text = match self.shape {
            BatchShape::Array => format!("[{}]", json.join(&format!(",{nl} "))),
            BatchShape::Ndjson => json.iter().map(|j| format!("{j}{nl}")).collect(),
            BatchShape::Categories => {
                let cut = self.split.index(json.len() + 1);
                format!(
                    "{{{nl} \"first\": [{}],{nl} \"second\": [{}]{nl}}}",
                    json[..cut].join(", "),
                    json[cut..].join(", ")
                )
            }
            BatchShape::Lines => self
                .elements
                .iter()
                .map(|e| match e {
                    Element::Puzzle(s) | Element::Object(s) => format!("{s}{nl}"),
                    Element::Junk(j) => format!("{j}{nl}"),
                })
                .collect(),
        };
        let mut bytes = if self.bom {
            b"\xEF\xBB\xBF".to_vec()
        } else {
            Vec::new()
        };
        bytes.extend_from_slice(text.as_bytes());
        bytes
    }

    /// What the entries must be, unmutated: per element, its puzzle string when
    /// it is one (`None`: anything, as long as there is an entry).
    fn expected(&self) -> Vec<Option<&'static str>> {
        self.elements
            .iter()
            .map(|e| match e {
                Element::Puzzle(s) | Element::Object(s) => Some(*s),
                Element::Junk(_) => None,
            })
            .collect()
    }
}

fn doc() -> impl Strategy<Value = Doc> {
    let shape = prop_oneof![
        Just(BatchShape::Array),
        Just(BatchShape::Ndjson),
        Just(BatchShape::Categories),
        Just(BatchShape::Lines)
    ];
    (
        shape,
        prop::collection::vec(element(), 0..12),
        any::<Index>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(shape, mut elements, split, crlf, bom)| {
            // NDJSON and plain lines are told by their first line: a puzzle
            // string.
            if matches!(shape, BatchShape::Ndjson | BatchShape::Lines) {
                elements.insert(0, Element::Puzzle(SEEDS[2]));
            }
            Doc {
                shape,
                elements,
                split,
                crlf,
                bom,
            }
        })
}

/// Byte edits of a batch input: `Some` characters are inserted or replaced as
/// UTF-8, `None` as a stray byte (invalid UTF-8).
fn byte_edits() -> impl Strategy<Value = Vec<(Edit, Option<()>)>> {
    let chars: Vec<char> = "[]{}\",:\\ \n\r\t0123456789e-.aé😀\u{0}\u{7f}"
        .chars()
        .collect();
    prop::collection::vec((edit(chars), prop::option::of(Just(()))), 1..4)
}

/// The entries of a batch input, checking what holds of any input: no panic,
/// entries numbered 1, 2, …, as many as announced when the input reads to its
/// end, and no more bytes counted than the input has. `Err` if the input was
/// refused (whole) or stopped.
fn entries_of(bytes: &[u8]) -> Result<Result<Vec<batch_input::Entry>, String>, TestCaseError> {
    let entries = match batch_input::from_reader(bytes, "fuzz input", Some(bytes.len() as u64)) {
        Ok(entries) => entries,
        Err(e) => return Ok(Err(e.to_string())),
    };
    let total = entries.total();
    let mut out = Vec::new();
    let mut bytes_seen = 0u64;
    for item in entries {
        match item {
            Ok(entry) => {
                prop_assert_eq!(entry.index, out.len() + 1);
                bytes_seen += entry.bytes;
                out.push(entry);
            }
            Err(e) => return Ok(Err(e.to_string())),
        }
    }
    if let Some(total) = total {
        prop_assert_eq!(out.len(), total, "entries against the announced total");
    }
    prop_assert!(
        bytes_seen <= bytes.len() as u64,
        "{} bytes counted of {}",
        bytes_seen,
        bytes.len()
    );
    Ok(Ok(out))
}

fn check_doc(doc: &Doc, edits: &[(Edit, Option<()>)], mutate: bool) -> Result<(), TestCaseError> {
    let mut bytes = doc.bytes();
    if !mutate {
        let entries =
            entries_of(&bytes)?.map_err(|e| TestCaseError::fail(format!("refused: {e}")))?;
        let expected = doc.expected();
        prop_assert_eq!(
            entries.len(),
            expected.len(),
            "{:?}",
            String::from_utf8_lossy(&bytes)
        );
        for (entry, want) in entries.iter().zip(&expected) {
            if let Some(puzzle) = want {
                prop_assert_eq!(entry.puzzle(), Some(*puzzle), "{:?}", entry);
            }
        }
        return Ok(());
    }
    for (e, as_char) in edits {
        let stray = |c: char| match as_char {
            Some(()) => c.to_string().into_bytes(),
            None => vec![0xC0 | (c as u32 as u8 & 0x1F)],
        };
        apply(&mut bytes, e, stray);
    }
    entries_of(&bytes)?.ok();
    Ok(())
}

fn fuzz_batches(cases: u32) -> u64 {
    let strategy = (doc(), byte_edits(), any::<bool>());
    fuzz("batch inputs", cases, strategy, |(doc, edits, mutate)| {
        check_doc(&doc, &edits, mutate)
    })
}

// ---- positions ----

fn position_seeds() -> Vec<String> {
    let p = six();
    let mut seeds = vec![
        state::write_grid(p.size(), &progress()),
        "6 . . . . .\n[12] [123] . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . [56]\n"
            .to_string(),
        "# a comment\n1 2 3 4 5 6\n------------\n. . . . . .\n(12)(34){56}...\n. . . . . .\n. . . . . .\n. . . . . .\n"
            .to_string(),
        ".".repeat(36),
    ];
    seeds.extend(packed_seeds());
    seeds
}

fn check_position(input: &str) -> Result<(), TestCaseError> {
    let p = six();
    for size in [p.size(), Size::new(4).unwrap(), Size::new(16).unwrap()] {
        if let Ok(cells) = state::read_grid(size, input) {
            prop_assert_eq!(cells.len(), size.cell_count());
            let again = state::write_grid(size, &cells);
            prop_assert_eq!(
                state::read_grid(size, &again).unwrap(),
                cells,
                "{:?}",
                again
            );
        }
    }
    if let Ok(cells) = state::read(&p, input) {
        prop_assert_eq!(cells.len(), 36);
    }
    Ok(())
}

fn fuzz_positions(cases: u32) -> u64 {
    let strategy = prop_oneof![4 => mutated(position_seeds()), 1 => random_text()];
    fuzz("positions", cases, strategy, |s| check_position(&s))
}

// ---- tests ----

#[test]
fn puzzle_readers_never_panic_and_round_trip() {
    fuzz_readers(cases(10_000));
}

#[test]
fn batch_reader_gives_every_element_once() {
    fuzz_batches(cases(2_000));
}

#[test]
fn position_reader_never_panics() {
    fuzz_positions(cases(2_000));
}

#[test]
#[ignore = "minutes: a million puzzle strings, 200 000 batches, 200 000 positions"]
fn fuzz_at_scale() {
    let total = fuzz_readers(1_000_000) + fuzz_batches(200_000) + fuzz_positions(200_000);
    eprintln!("{total} inputs, no panic, every round trip and entry count right");
}
