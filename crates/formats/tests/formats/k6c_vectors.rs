//! Hand-checked K6C / D6C vectors. Each cell is 4 base-36 digits of
//! `p = (colour << 18) + (field << 7) + progress`, so
//! `p = colour * 262144 + field * 128 + progress`. The full strings were also
//! computed by a separate throwaway implementation (Python) of the format; the
//! comments work a few cells out by hand.

use kenken_formats::{sudokuwiki, tatham, CellProgress};
use kenken_model::{Digits, Op, Puzzle};

/// The example of `docs/formats.md`. Cages in clue order: s2 (r1c1 r1c2), a9 (r1c3 r2c2
/// r2c3), m6 (r1c4 r1c5), s3 (r1c6 r2c6), m18 (r2c1 r3c1 r4c1), …
const README: &str = "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2";
const README_K6C: &str = "K6C007400745n5s00lc00ao5mkgbabk5m9s5mdcb91cb8n45mgwb8u8007400745mkg00lc003kb8jk5mkgb98g5mgwb8qo5ngg01z45mo0b8n4gx6ob8qo5mkg00ao0000gutcgv40007400e8";

/// The reference's HiddenPairs grid: its s2 cage at r1c6 is vertical, so the
/// operator goes *below* the clue cell.
const HIDDEN_PAIRS: &str =
    "6:ba_3a__a__a_abababa_a__a_4a__a_baa,m60d3s2a11a4m120m90m6m30s1a14m120a7";
const HIDDEN_PAIRS_K6C: &str = "K6C05xc00ao00005mkg5mo000745ncwb8xs5y4gbhfkb8u800745mdc00lc5mkg5m9sb8jkgxs05m9s00ao00005m9sgutcgv40003kb9xcb8n4b8jk0buo00ao00745myo5mdc5m9s00000000";

/// The reference's last Unreasonable grid: big cages, colour 3 in use.
const UNREASONABLE: &str = "6:ca__a_3a_a_3a__adca_3a_5a_3aca,a18a13s5s3a7a17s1s3s1a8a3a17";
const UNREASONABLE_K6C: &str = "K6C01s0003k000000005nk05mdc00005mrkb8u8gvi8guww5m9sba805mgwb8qo003k00745m9sb8n400ao00745mdcb9c05m9sb8jkgv40guww5mgwb8n401ogb8jkb8jk000000000000003k";

/// The 4 characters of cell `i` (0-based, reading order).
fn cell(s: &str, i: usize) -> &str {
    &s[3 + 4 * i..3 + 4 * i + 4]
}

#[test]
fn readme_puzzle() {
    let p = tatham::read(README).unwrap();
    let s = sudokuwiki::write_k6c(&p, None).unwrap();
    assert_eq!(s, README_K6C);
    // r1c1: first cell of cage 0 (s2), colour 0 (first cage), field = clue 2,
    //   progress 0: p = 0 + 2*128 + 0 = 256 = 7*36 + 4 -> "0074".
    assert_eq!(cell(&s, 0), "0074");
    // r1c2: right of the clue cell and in the cage, so it holds the operator:
    //   − = 2: p = 2*128 = 256 -> "0074" again.
    assert_eq!(cell(&s, 1), "0074");
    // r1c3: clue cell of a9 (cage 1), which touches cage 0: colour 1;
    //   p = 262144 + 9*128 = 263296 = 5*46656 + 23*1296 + 5*36 + 28 -> "5n5s".
    assert_eq!(cell(&s, 2), "5n5s");
    // r2c1: clue cell of m18 (cage 4), touching cage 0 (colour 0) and cage 1
    //   (colour 1): colour 2; p = 2*262144 + 18*128 = 526592
    //   = 11*46656 + 10*1296 + 11*36 + 20 -> "babk".
    assert_eq!(cell(&s, 6), "babk");
    // r2c2: in cage 1 (a9 = r1c3 r2c2 r2c3) but neither its clue cell nor its
    //   operator cell (r1c3's right neighbour r1c4 is not in the cage, so the
    //   operator goes below, to r2c3): field 0, p = 262144 = 5*46656 + 22*1296
    //   + 9*36 + 28 -> "5m9s".
    assert_eq!(cell(&s, 7), "5m9s");
    // r2c3: the operator cell of a9: p = 262144 + 1*128 = 262272 -> "5mdc".
    assert_eq!(cell(&s, 8), "5mdc");
    assert_eq!(sudokuwiki::read(&s).unwrap(), p);
}

#[test]
fn readme_puzzle_with_progress() {
    let p = tatham::read(README).unwrap();
    let mut state = vec![CellProgress::Unknown; 36];
    state[0] = CellProgress::Solved(4);
    state[1] = CellProgress::Candidates(Digits::from_iter([1, 6]));
    state[6] = CellProgress::Candidates(Digits::single(1));
    let s = sudokuwiki::write_k6c(&p, Some(&state)).unwrap();
    // r1c1 solved 4: progress 4 + 6 = 10; p = 256 + 10 = 266 = 7*36 + 14 -> "007e".
    assert_eq!(cell(&s, 0), "007e");
    // r1c2 candidates {1,6}: bits 0b100001 = 33, + 12 = 45; p = 256 + 45 = 301
    //   = 8*36 + 13 -> "008d".
    assert_eq!(cell(&s, 1), "008d");
    // r1c3 never noted, in a solver state: the full mask 63 + 12 = 75;
    //   p = 263296 + 75 = 263371 = 5*46656 + 23*1296 + 7*36 + 31 -> "5n7v".
    assert_eq!(cell(&s, 2), "5n7v");
    // r2c1 the single candidate 1: 1 + 12 = 13; p = 526592 + 13 = 526605
    //   = 11*46656 + 10*1296 + 11*36 + 33 -> "babx".
    assert_eq!(cell(&s, 6), "babx");
    let (q, progress) = sudokuwiki::read_packed(&s).unwrap();
    assert_eq!(q, p);
    assert_eq!(progress[0], CellProgress::Solved(4));
    assert_eq!(
        progress[1],
        CellProgress::Candidates(Digits::from_iter([1, 6]))
    );
    assert_eq!(progress[2], CellProgress::Candidates(Digits::full(6)));
    assert_eq!(progress[6], CellProgress::Candidates(Digits::single(1)));
    // Upper case reads the same.
    assert_eq!(
        sudokuwiki::read_packed(&s.to_uppercase()).unwrap().1,
        progress
    );
}

#[test]
fn hidden_pairs_vertical_operator() {
    let p = tatham::read(HIDDEN_PAIRS).unwrap();
    let s = sudokuwiki::write_k6c(&p, None).unwrap();
    assert_eq!(s, HIDDEN_PAIRS_K6C);
    // r1c1: m60, colour 0: p = 60*128 = 7680 = 5*1296 + 33*36 + 12 -> "05xc".
    assert_eq!(cell(&s, 0), "05xc");
    // r1c2: its operator × = 3: p = 384 = 10*36 + 24 -> "00ao".
    assert_eq!(cell(&s, 1), "00ao");
    // r1c6: clue of s2 (cage 2), colour 0 again (it touches only cage 1, colour 1,
    //   among earlier cages): p = 2*128 = 256 -> "0074".
    assert_eq!(cell(&s, 5), "0074");
    // r2c6: r1c6 has no right neighbour, so the operator − = 2 goes below:
    //   p = 2*128 = 256 -> "0074". Decoding: r2c6's upper neighbour has the same
    //   colour, so its non-zero field is that cage's operator.
    assert_eq!(cell(&s, 11), "0074");
    // r2c3: clue 120 of m120, colour 1: p = 262144 + 120*128 = 277504
    //   = 5*46656 + 34*1296 + 4*36 + 16 -> "5y4g".
    assert_eq!(cell(&s, 8), "5y4g");
    let q = sudokuwiki::read(&s).unwrap();
    assert_eq!(q, p);
    assert_eq!(q.cages()[2].op, Op::Sub);
    assert_eq!(q.cages()[2].clue, 2);
}

#[test]
fn unreasonable_and_d6c() {
    let p = tatham::read(UNREASONABLE).unwrap();
    let s = sudokuwiki::write_k6c(&p, None).unwrap();
    assert_eq!(s, UNREASONABLE_K6C);
    // r1c1: a18 (5 cells), colour 0: p = 18*128 = 2304 = 1*1296 + 28*36 + 0
    //   -> "01s0"; r1c2 its operator + = 1: p = 128 = 3*36 + 20 -> "003k".
    assert_eq!(cell(&s, 0), "01s0");
    assert_eq!(cell(&s, 1), "003k");
    // r1c3, r1c4: same cage, field 0 -> "0000".
    assert_eq!(cell(&s, 2), "0000");
    // r2c4: clue 7 of a7, colour 3 (touches colours 0, 1, 2):
    //   p = 3*262144 + 7*128 = 787328 = 16*46656 + 31*1296 + 17*36 + 8 -> "gvi8".
    assert_eq!(cell(&s, 9), "gvi8");
    assert_eq!(sudokuwiki::read(&s).unwrap(), p);

    // The same cages as a KenDoku: the D6C body is the same, the prefix differs,
    // and it reads back as new_kendoku(size, cages, 2, 3).
    let k = Puzzle::new_kendoku(p.size(), p.cages().to_vec(), 2, 3).unwrap();
    let d = sudokuwiki::write_d6c(&k, None).unwrap();
    assert_eq!(d, format!("D6C{}", &UNREASONABLE_K6C[3..]));
    let back = sudokuwiki::read(&d).unwrap();
    assert_eq!(back, k);
    assert_eq!(back.boxes(), Some((2, 3)));
}

#[test]
fn malformed_packed_strings() {
    use kenken_formats::Rule;
    let e = |s: &str| sudokuwiki::read(s).unwrap_err().rule;
    assert_eq!(e(&README_K6C[..146]), Rule::PackedLength(143));
    assert_eq!(
        e(&README_K6C.replacen("0074", "007!", 1)),
        Rule::Base36('!')
    );
    // Colour 5: p = 5*262144 = 1310720 = 28*46656 + 3*1296 + 12*36 + 32 -> "s3cw".
    assert_eq!(e(&README_K6C.replacen("0074", "s3cw", 1)), Rule::Colour(5));
    // Progress 5 is neither a digit nor a candidate set: 256 + 5 = 261 -> "0079".
    assert_eq!(
        e(&README_K6C.replacen("0074", "0079", 1)),
        Rule::Progress(5)
    );
    // Operator 5 in r1c2: 5*128 = 640 = 17*36 + 28 -> "00hs".
    let bad_op = format!("{}00hs{}", &README_K6C[..7], &README_K6C[11..]);
    assert_eq!(e(&bad_op), Rule::OperatorCode(5));
    assert_eq!(e("X6C0000"), Rule::PackedPrefix);
}
