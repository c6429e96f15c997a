//! Every choice the formats leave open (`docs/formats.md`) and
//! the few places where we knowingly differ from a format's original program, in one
//! place so they can be reviewed and changed together. The format modules use these
//! items rather than repeating the decisions.

use kenken_model::{Digits, Op};

// ---------------------------------------------------------------------------------
// Tatham Keen game IDs
// ---------------------------------------------------------------------------------

/// Lenient mode (the reference solver's reading) accepts `s` / `d` on cages of any
/// area, with the generalised meaning of `docs/ladder.md` (largest minus / divided by the
/// rest); on a single cell both mean "the digit is the clue" (a given). Strict mode
/// (Tatham's) requires area 2. (`docs/formats.md`, Tatham's Keen game ID).
pub const LENIENT_SUB_DIV_ANY_AREA: bool = true;

/// Lenient mode accepts a block structure that ends one position short, without the
/// final virtual line (`4:a__a_aa__a_3ac,…`), as the reference's decoder does.
/// (`docs/formats.md`, Tatham's Keen game ID).
pub const LENIENT_SHORT_BLOCK_STRUCTURE: bool = true;

/// Lenient mode also accepts grid sizes up to this (the model's limit), so puzzles
/// from other formats larger than Tatham's 9x9 can round-trip through a game ID.
/// Our extension, reported as a relaxed rule like the others.
pub const LENIENT_MAX_SIZE: usize = kenken_model::MAX_SIZE;

/// Tatham's largest grid (his `validate_params`).
pub const TATHAM_MAX_SIZE: usize = 9;

/// A clue letter with no digits after it (`…a,` or `am6`) is accepted by Tatham's
/// validator and read by his `atol` as 0; we do the same (not a choice, recorded
/// here because it is surprising).
pub const TATHAM_MISSING_CLUE_VALUE: u64 = 0;

/// Tatham's `atol` clamps a clue of more than 19 digits; we reject clues that do not
/// fit in a `u64` instead (no real game ID comes near: 9x9 clues have at most 6
/// digits). A deliberate difference from sgt-keen.
pub const TATHAM_REJECT_CLUES_OVER_U64: bool = true;

/// The block-structure letters follow Tatham's *encoder*: `y` = 25 non-lines then a
/// line, `z` = 25 non-lines and no line. (His decoder treats `y` as the no-line
/// letter, an off-by-one no generated ID hits.) (`docs/formats.md`, Tatham's Keen game ID); the one known difference
/// from `sgt-keen` on acceptance.
pub const Z_MEANS_25_WITHOUT_LINE: bool = true;

/// An ID without a description (bare parameters `6dh`, or a random seed `6dh#12345`)
/// is rejected with a clear message, although Tatham's program would generate a
/// fresh puzzle from it. (`docs/formats.md`, Tatham's Keen game ID).
pub const REJECT_SEED_IDS: bool = true;

/// Whitespace around a game ID is ignored (IDs pasted from files or terminals carry
/// a newline); sgt-keen would reject trailing whitespace. Inside the ID it is an
/// invalid character, as for Tatham.
pub const TRIM_SURROUNDING_WHITESPACE: bool = true;

/// A web-player URL is recognised by a `#` whose prefix contains a `/` or `.htm`
/// (`…/keen.html#6:…`); game IDs never contain either, so a `#` inside a real ID
/// keeps Tatham's meaning (seed separator, or an invalid character).
pub fn is_web_player_prefix(before_hash: &str) -> bool {
    before_hash.contains('/') || before_hash.to_ascii_lowercase().contains(".htm")
}

// ---------------------------------------------------------------------------------
// SudokuWiki K6C / D6C and the unpacked URL
// ---------------------------------------------------------------------------------

/// Operator numbers of the packed formats, our reading of the published
/// "4 (+-x/)" column: 1 = +, 2 = −, 3 = ×, 4 = ÷. (`docs/formats.md`, SudokuWiki packed strings).
pub const PACKED_OPERATOR_CODES: [(Op, u32); 4] =
    [(Op::Add, 1), (Op::Sub, 2), (Op::Mul, 3), (Op::Div, 4)];

/// The packed operator number of an operation (`None` for a given, which stores no
/// operator).
pub fn packed_operator_code(op: Op) -> Option<u32> {
    PACKED_OPERATOR_CODES
        .iter()
        .find(|&&(o, _)| o == op)
        .map(|&(_, c)| c)
}

/// The operation of a packed operator number.
pub fn packed_operator(code: u32) -> Option<Op> {
    PACKED_OPERATOR_CODES
        .iter()
        .find(|&&(_, c)| c == code)
        .map(|&(o, _)| o)
}

/// A cell whose candidates were never noted is written as its full candidate mask
/// when a solver state is written, and as 0 ("nothing known") for a bare puzzle.
/// (`docs/formats.md`, SudokuWiki packed strings).
pub fn unnoted_candidates(size: usize) -> Digits {
    Digits::full(size)
}

/// Packed strings are read with a case-insensitive prefix (`k6c…` too), and may be
/// pasted inside a SudokuWiki address (`…?bd=K6C…`): the part from the prefix on is
/// read. `docs/formats.md` only says the base-36 digits may be either case.
pub const PACKED_PREFIX_ANY_CASE: bool = true;

/// In the unpacked URL a single-cell cage's entry is its value with no operator
/// (`4`), since a given has none; other cages write `<clue><op>` with
/// `+ - x /`. `docs/formats.md` names only the four operators.
pub fn unpacked_url_entry(op: Op, clue: u64) -> String {
    match op {
        Op::Given => clue.to_string(),
        Op::Add => format!("{clue}+"),
        Op::Sub => format!("{clue}-"),
        Op::Mul => format!("{clue}x"),
        Op::Div => format!("{clue}/"),
        // (Refused before: the URL cannot hide an operation.)
        Op::Hidden => clue.to_string(),
    }
}

/// Reads an unpacked URL entry (see [`unpacked_url_entry`]) of a cage of `cells`
/// cells: `<clue><op>` with `+ - x * /`, or a bare value for a single cell. `None`
/// when it is neither.
pub fn parse_unpacked_url_entry(entry: &str, cells: usize) -> Option<(Op, u64)> {
    let digits = entry.bytes().take_while(u8::is_ascii_digit).count();
    let clue: u64 = entry[..digits].parse().ok()?;
    let op = match &entry[digits..] {
        "" if cells == 1 => Op::Given,
        "+" => Op::Add,
        "-" => Op::Sub,
        "x" | "X" | "*" => Op::Mul,
        "/" => Op::Div,
        _ => return None,
    };
    Some((op, clue))
}

// ---------------------------------------------------------------------------------
// Writers
// ---------------------------------------------------------------------------------

/// A KenDoku (boxes) can only be written as D6C: the other formats have no way to
/// say "and the 2x3 boxes", and writing the cages alone would silently make a
/// different puzzle, so those writers return an error instead. Likewise D6C
/// refuses a puzzle without 2x3 boxes.
pub const WRITERS_REFUSE_KENDOKU: bool = true;

/// Writers return the string without a trailing newline (the command line adds
/// one); the text format separates its lines with `\n`.
pub const NO_TRAILING_NEWLINE: bool = true;

// ---------------------------------------------------------------------------------
// Text and letter-grid formats
// ---------------------------------------------------------------------------------

/// Operator spellings read by the text and letter-grid formats: `docs/formats.md`'s
/// `+ - * / !` and `– x × ÷`, plus `X` and the Unicode minus `−` (U+2212), which
/// people paste from typeset puzzles, and `?` for a hidden operation. Written:
/// `+ - * / ! ?`.
pub const OPERATOR_SPELLINGS: [(&str, Op); 12] = [
    ("+", Op::Add),
    ("-", Op::Sub),
    ("\u{2013}", Op::Sub),
    ("\u{2212}", Op::Sub),
    ("*", Op::Mul),
    ("x", Op::Mul),
    ("X", Op::Mul),
    ("\u{d7}", Op::Mul),
    ("/", Op::Div),
    ("\u{f7}", Op::Div),
    ("!", Op::Given),
    ("?", Op::Hidden),
];

/// The operation an operator spelling means.
pub fn operator_from_spelling(s: &str) -> Option<Op> {
    OPERATOR_SPELLINGS
        .iter()
        .find(|&&(sp, _)| sp == s)
        .map(|&(_, op)| op)
}

/// Text format: blank lines are ignored, `#3` is read like `# 3`, cell names may be
/// lower case (`b3`), and lines may end in `\r\n`. Only the first line may be a
/// `#` line.
pub const TEXT_FORGIVING_SPELLING: bool = true;

/// Letter-grid format: letters are case-sensitive (`A` and `a` are different
/// cages, so 9x9 grids can have more than 26), spaces between grid letters are
/// ignored, any decimal digit marks a given of that value, and unlabelled clues are
/// matched to cages in ASCII letter order (`A`…`Z` then `a`…`z`), not in order of
/// appearance. A clue without an operator is a given on a single cell, and a
/// hidden operation on a larger cage.
/// A labelled clue's letter may be followed by a space, `:` or `=`.
pub fn letter_order_key(c: char) -> u32 {
    c as u32
}
