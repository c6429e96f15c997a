//! Property test: no reader panics on any input, and whatever a reader accepts
//! writes and reads back to the same puzzle. Inputs are random strings over
//! format-flavoured alphabets and mutations of valid strings of every format, from
//! a tiny deterministic PRNG (no extra crates), tens of thousands of cases.

use kenken_formats::{
    detect, letter_grid, read_any, sudokuwiki, tatham, text, write, CellProgress, Format,
    Strictness,
};
use kenken_model::{Digits, Puzzle};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

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
];

fn packed_seeds() -> Vec<String> {
    let p = tatham::read(SEEDS[0]).unwrap();
    let mut state = vec![CellProgress::Unknown; 36];
    state[3] = CellProgress::Solved(6);
    state[4] = CellProgress::Candidates(Digits::from_iter([2, 3, 5]));
    let k = Puzzle::new_kendoku(p.size(), p.cages().to_vec(), 2, 3).unwrap();
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

fn mutate(rng: &mut Rng, seed: &str) -> String {
    let mut chars: Vec<char> = seed.chars().collect();
    let alphabet: Vec<char> = rng.pick(ALPHABETS).chars().collect();
    for _ in 0..1 + rng.below(4) {
        let len = chars.len();
        match rng.below(7) {
            0 if len > 0 => {
                chars.remove(rng.below(len));
            }
            1 => chars.insert(rng.below(len + 1), *rng.pick(&alphabet)),
            2 if len > 0 => chars[rng.below(len)] = *rng.pick(&alphabet),
            3 if len > 0 => chars.truncate(rng.below(len)),
            4 if len > 0 => {
                // Duplicate a slice.
                let a = rng.below(len);
                let b = (a + rng.below(12)).min(len);
                let piece: Vec<char> = chars[a..b].to_vec();
                let at = rng.below(len + 1);
                chars.splice(at..at, piece);
            }
            5 => {
                // A long number somewhere (repeat counts, clues, sizes).
                let digits = rng.pick(&[
                    "0",
                    "9",
                    "99",
                    "2048",
                    "4294967297",
                    "99999999999999999999999",
                ]);
                let at = rng.below(len + 1);
                chars.splice(at..at, digits.chars());
            }
            _ if len > 1 => {
                let i = rng.below(len - 1);
                chars.swap(i, i + 1);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

fn random_string(rng: &mut Rng) -> String {
    let alphabet: Vec<char> = rng.pick(ALPHABETS).chars().collect();
    let len = rng.below(200);
    (0..len).map(|_| *rng.pick(&alphabet)).collect()
}

/// Everything a user could do with one input; panics (caught by the caller) are
/// the failures. Also checks the round-trip property of what was accepted.
fn exercise(input: &str) -> bool {
    let _ = detect(input);
    let mut accepted = false;
    for format in [None].into_iter().chain(Format::ALL.into_iter().map(Some)) {
        if let Ok(imported) = read_any(input, format) {
            accepted = true;
            for to in Format::ALL {
                let _ = write(&imported.puzzle, to, imported.progress.as_deref());
            }
            check_round_trips(&imported.puzzle);
        }
    }
    if let Ok((p, relaxed)) = tatham::read_with(input, Strictness::Lenient) {
        let id = tatham::write(&p).unwrap();
        let (back, _) = tatham::read_with(&id, Strictness::Lenient).unwrap();
        assert_eq!(back, p, "{input:?} -> {id:?}");
        if relaxed.is_empty() {
            assert_eq!(tatham::read(&id).unwrap(), p, "{input:?} -> {id:?}");
        }
    }
    let _ = text::read(input);
    let _ = letter_grid::read(input);
    let _ = sudokuwiki::read_packed(input);
    accepted
}

fn check_round_trips(p: &Puzzle) {
    if p.is_kendoku() {
        if let Ok(s) = sudokuwiki::write_d6c(p, None) {
            assert_eq!(&sudokuwiki::read(&s).unwrap(), p, "{s}");
        }
        return;
    }
    let id = tatham::write(p).unwrap();
    let (back, _) = tatham::read_with(&id, Strictness::Lenient).unwrap();
    assert_eq!(&back, p, "{id}");
    let t = text::write(p).unwrap();
    assert_eq!(&text::read(&t).unwrap(), p, "{t}");
    if let Ok(s) = sudokuwiki::write_k6c(p, None) {
        assert_eq!(&sudokuwiki::read(&s).unwrap(), p, "{s}");
    }
}

#[test]
fn no_reader_panics_and_accepted_input_round_trips() {
    let mut rng = Rng(20_240_601);
    let mut seeds: Vec<String> = SEEDS.iter().map(|s| s.to_string()).collect();
    seeds.extend(packed_seeds());
    let mut failures = Vec::new();
    let mut accepted = 0;
    let cases = 30_000;
    let started = std::time::Instant::now();
    // Keep the panic messages of caught panics off the test output.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for i in 0..cases {
        let input = if i % 5 == 0 {
            random_string(&mut rng)
        } else {
            let seed = rng.pick(&seeds).clone();
            mutate(&mut rng, &seed)
        };
        match catch_unwind(AssertUnwindSafe(|| exercise(&input))) {
            Ok(true) => accepted += 1,
            Ok(false) => {}
            Err(e) => {
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!("{input:?}: {msg}"));
            }
        }
    }
    std::panic::set_hook(hook);
    eprintln!(
        "{cases} fuzz cases ({accepted} read by some reader) in {:?}",
        started.elapsed()
    );
    assert!(
        accepted > cases / 20,
        "only {accepted} inputs were accepted"
    );
    assert!(
        failures.is_empty(),
        "{} of {cases} inputs panicked:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
