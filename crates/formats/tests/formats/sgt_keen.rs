//! Conformance against Simon Tatham's own program, `/usr/games/sgt-keen` (Debian's
//! `sgt-puzzles`; `.ci/run` installs it):
//!
//! * fresh game IDs from `sgt-keen --generate` for every size 3–9 and every
//!   difficulty import and re-export identically;
//! * for several hundred mutated IDs, our strict reader accepts exactly those that
//!   `sgt-keen --print` accepts, and when both reject, with Tatham's message.
//!
//! The one allowed difference is `docs/formats.md`'s `y`/`z` off-by-one: Tatham's decoder
//! reads `y` as "25 non-lines, no line" and `z` as "26 non-lines and a line", we
//! read them as his encoder writes them. So each mutated ID is translated from the
//! decoder's meaning to ours before our reader sees it (`y` → `z`, `z` → `za`).
//! IDs without a description (where sgt-keen generates a random puzzle and our reader
//! rejects them) are not compared.

use kenken_formats::{tatham, Rule};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SGT_KEEN: &str = "/usr/games/sgt-keen";

fn sgt_keen() -> &'static Path {
    let p = Path::new(SGT_KEEN);
    assert!(
        p.exists(),
        "{SGT_KEEN} is missing: install Debian's sgt-puzzles (apt-get install sgt-puzzles; \
         CI's .ci/run installs it) — the format conformance tests need Tatham's program"
    );
    p
}

/// Runs sgt-keen with the given arguments and stdin, killing it after `limit`.
/// Returns (exit success, stdout, stderr).
fn run(args: &[&str], stdin: &str, limit: Duration) -> (bool, String, String) {
    let mut child = Command::new(sgt_keen())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start sgt-keen");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).unwrap();
    drop(input);
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        out.read_to_end(&mut s).ok();
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        err.read_to_end(&mut s).ok();
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            panic!("sgt-keen {args:?} took more than {limit:?} on input {stdin:?}");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let out = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    let err = String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned();
    (status.success(), out, err)
}

/// sgt-keen's verdict on a game ID: `Ok(())` or `Err(reason)`.
fn oracle(id: &str) -> Result<(), String> {
    let (ok, out, err) = run(
        &["--print", "1x1"],
        &format!("{id}\n"),
        Duration::from_secs(30),
    );
    if let Some(i) = err.find("error parsing '") {
        let rest = &err[i..];
        let reason = rest
            .find("': ")
            .map(|j| rest[j + 3..].lines().next().unwrap_or("").to_string())
            .unwrap_or_default();
        return Err(reason);
    }
    // Validation passed. sgt-keen then draws the puzzle, and its cage-outline code
    // aborts (`outline_block_structure: Assertion n < 2*w+2`) on cages with a long
    // perimeter for the grid, such as one cage covering a 5x5: that is still
    // acceptance, since validation came first.
    assert!(
        (ok && out.contains("%!PS")) || err.contains("outline_block_structure"),
        "sgt-keen neither printed nor rejected {id:?}: stderr {err:?}"
    );
    Ok(())
}

/// A tiny deterministic PRNG (SplitMix64).
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
        (self.next() % n as u64) as usize
    }
}

fn reference_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../reference")
}

fn seed_ids() -> Vec<String> {
    let text = std::fs::read_to_string(reference_dir().join("reference-ratings.ndjson"))
        .expect("cannot read reference-ratings.ndjson");
    let mut ids: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["puzzle"].as_str().unwrap().to_string()
        })
        .collect();
    let grids = std::fs::read_to_string(reference_dir().join("testgrids.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&grids).unwrap();
    for list in v.as_object().unwrap().values() {
        ids.extend(
            list.as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string()),
        );
    }
    ids
}

/// Characters mutations insert: the ID alphabet, some of Tatham's other letters,
/// and a few strangers. No `/`, `.` or whitespace (they would make a web-player URL
/// or be trimmed, which sgt-keen does not know about).
const ALPHABET: &[u8] = b"__aaabcdefghijklmnopqrstuvwxyzsmmd0123456789012345,,::#!-+AZ";

fn mutate(rng: &mut Rng, id: &str) -> String {
    let mut s: Vec<u8> = id.as_bytes().to_vec();
    let edits = 1 + rng.below(3);
    for _ in 0..edits {
        let len = s.len();
        match rng.below(6) {
            0 if len > 0 => {
                s.remove(rng.below(len));
            }
            1 => {
                let c = ALPHABET[rng.below(ALPHABET.len())];
                s.insert(rng.below(len + 1), c);
            }
            2 if len > 0 => {
                let c = ALPHABET[rng.below(ALPHABET.len())];
                s[rng.below(len)] = c;
            }
            3 if len > 1 => {
                // Swap two neighbours.
                let i = rng.below(len - 1);
                s.swap(i, i + 1);
            }
            4 if len > 0 => {
                // Truncate.
                s.truncate(rng.below(len));
            }
            _ => {
                // Change a clue letter into another (s/d on larger cages, etc.).
                let letters: Vec<usize> = (0..len)
                    .filter(|&i| matches!(s[i], b'a' | b's' | b'm' | b'd'))
                    .collect();
                if !letters.is_empty() {
                    let i = letters[rng.below(letters.len())];
                    s[i] = b"asmd"[rng.below(4)];
                }
            }
        }
    }
    String::from_utf8(s).unwrap()
}

/// Whether Tatham's midend finds a description (a ':' before any '#').
fn has_description(id: &str) -> bool {
    match (id.find(':'), id.find('#')) {
        (Some(c), Some(h)) => c < h,
        (Some(_), None) => true,
        _ => false,
    }
}

/// Rewrites the block structure from Tatham's decoder's meaning of `y`/`z` to ours
/// (the encoder's): his `y` (25, no line) is our `z`; his `z` (26 and a line) is our
/// `za`. Repeat counts are expanded, following his rule that a count right at the
/// end of the input does not repeat.
fn decoder_to_encoder(id: &str) -> String {
    let Some(colon) = id.find(':') else {
        return id.to_string();
    };
    let (head, desc) = id.split_at(colon + 1);
    let end = desc.find(',').unwrap_or(desc.len());
    let (block, tail) = desc.split_at(end);
    if !block.contains(['y', 'z']) {
        return id.to_string();
    }
    let b = block.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        i += 1;
        let d = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let digits = &block[d..i];
        let replacement = match c {
            b'y' => "z",
            b'z' => "za",
            _ => {
                out.push(c as char);
                out.push_str(digits);
                continue;
            }
        };
        let at_end = i == b.len() && tail.is_empty();
        let count = if digits.is_empty() || at_end {
            1
        } else {
            digits.parse::<usize>().unwrap_or(usize::MAX).clamp(1, 1000)
        };
        for _ in 0..count {
            out.push_str(replacement);
        }
    }
    format!("{head}{out}{tail}")
}

/// Runs `f` over `items` in `threads` threads, keeping the order.
fn parallel<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let chunk = items.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| s.spawn(|| part.iter().map(&f).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

#[test]
fn fresh_ids_round_trip() {
    sgt_keen();
    let started = Instant::now();
    // Every size, most difficulties and the multiplication-only option; combinations
    // that sgt-keen is slow to generate (9x9 Extreme, 9x9 multiplication-only, which
    // can take minutes) are left out to keep the test near a few seconds.
    let params: Vec<String> = [
        "3de", "3dn", "4de", "4dh", "4du", "5de", "5dx", "6dh", "6dx", "6du", "6dnm", "7de", "7dx",
        "7dem", "8dh", "8du", "9dh", "9du",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let generated = parallel(&params, 3, |p| {
        let (ok, out, err) = run(&["--generate", "5", p], "", Duration::from_secs(60));
        assert!(ok, "sgt-keen --generate 5 {p} failed: {err}");
        out.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect::<Vec<_>>()
    });
    let mut count = 0;
    for (p, ids) in params.iter().zip(&generated) {
        assert_eq!(ids.len(), 5, "sgt-keen --generate 5 {p}: {ids:?}");
        for id in ids {
            let puzzle = tatham::read(id).unwrap_or_else(|e| panic!("{p}: {id}: {e}"));
            assert_eq!(tatham::write(&puzzle).unwrap(), *id, "{p}");
            count += 1;
        }
    }
    eprintln!(
        "{count} fresh sgt-keen IDs round-tripped in {:?}",
        started.elapsed()
    );
}

#[test]
fn strict_reader_accepts_what_sgt_keen_accepts() {
    sgt_keen();
    let started = Instant::now();
    let seeds = seed_ids();
    let mut rng = Rng(0x6b65_656e_2d6d_7574);
    let mut cases: Vec<String> = Vec::new();
    while cases.len() < 600 {
        let seed = &seeds[rng.below(seeds.len())];
        let m = mutate(&mut rng, seed);
        if has_description(&m) && !cases.contains(&m) {
            cases.push(m);
        }
    }
    // A few whose block structure uses `y` and `z` (long runs), to check that the
    // only difference is their meaning.
    for id in [
        "4:y,a1",
        "4:za,a1",
        "4:yc,a24",
        "4:z_,a24",
        "5:zzc,a1",
        "5:yyy,a1",
        "9:z5s,a405",
        "9:y5t,a405",
        // Accepted by both once translated: one 25-cell cage ...
        "5:yo,a1",
        // ... and one with Tatham's z (26 and a line), a line inside the one cage.
        "5:zm,a1",
    ] {
        cases.push(id.to_string());
    }
    let verdicts = parallel(&cases, 4, |id| oracle(id));
    let (mut accepted, mut rejected) = (0, 0);
    let mut failures = Vec::new();
    for (id, verdict) in cases.iter().zip(&verdicts) {
        let ours = tatham::read(&decoder_to_encoder(id));
        match (verdict, &ours) {
            (Ok(()), Ok(_)) => accepted += 1,
            (Err(reason), Err(e)) => {
                rejected += 1;
                if e.rule == Rule::NoDescription || !e.rule.to_string().starts_with(reason.as_str())
                {
                    failures.push(format!("{id:?}: sgt-keen says {reason:?}, we say {e}"));
                }
            }
            (Ok(()), Err(e)) => failures.push(format!("{id:?}: sgt-keen accepts, we say {e}")),
            (Err(reason), Ok(_)) => {
                failures.push(format!("{id:?}: sgt-keen says {reason:?}, we accept"))
            }
        }
    }
    eprintln!(
        "{} mutated IDs: {accepted} accepted and {rejected} rejected by both, in {:?}",
        cases.len(),
        started.elapsed()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(accepted > 50 && rejected > 200, "{accepted} / {rejected}");
}
