//! The exhaustive solver on real puzzles: the reference corpus (Tatham Keen game IDs,
//! every one with exactly one solution) and a timing printout.
//!
//! The corpus is the repository's `reference/`. `hidden_ops` checks puzzles with
//! their operations hidden against a second solver written for the test.

use kenken_model::{Budget, Cage, Combinations, Digit, Limits, Op, Puzzle, Size};
use kenken_search::{
    count_solutions, count_solutions_prepared, count_solutions_with, solve, SearchTable, Verdict,
};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[path = "search/hidden_ops.rs"]
mod hidden_ops;

fn reference_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../reference")
}

fn read_reference(name: &str) -> String {
    let path = reference_dir().join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} ({e})", path.display()))
}

/// The game IDs of `reference-ratings.ndjson`, in file order.
fn reference_ids() -> Vec<String> {
    read_reference("reference-ratings.ndjson")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("bad NDJSON line");
            v["puzzle"].as_str().expect("no puzzle field").to_owned()
        })
        .collect()
}

/// A minimal Tatham Keen game ID reader, private to these tests so they do not
/// depend on the formats crate's progress. No error reporting: the corpus is
/// well formed, and any surprise panics with the ID.
fn parse_tatham(id: &str) -> Puzzle {
    let (params, desc) = id.split_once(':').expect("no ':'");
    let n: usize = params
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .expect("bad size");
    let (blocks, clues) = desc.split_once(',').expect("no ','");
    let size = Size::new(n).unwrap();

    // Edges: n(n-1) vertical ones row by row, then n(n-1) horizontal ones column
    // by column.
    let total = 2 * n * (n - 1);
    let mut edge = vec![false; total];
    let mut pos = 0;
    let bytes = blocks.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let letter = bytes[i];
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let repeat = if i > start {
            blocks[start..i].parse().unwrap()
        } else {
            1
        };
        for _ in 0..repeat {
            match letter {
                b'z' => pos += 25,
                b'_' | b'a'..=b'y' => {
                    pos += if letter == b'_' {
                        0
                    } else {
                        (letter - b'a' + 1) as usize
                    };
                    if pos < total {
                        edge[pos] = true;
                    }
                    pos += 1;
                }
                _ => panic!("bad block letter in {id}"),
            }
        }
    }

    let mut parent: Vec<usize> = (0..n * n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let half = n * (n - 1);
    for e in 0..half {
        let (r, c) = (e / (n - 1), e % (n - 1));
        if !edge[e] {
            let (a, b) = (
                root(&mut parent, r * n + c),
                root(&mut parent, r * n + c + 1),
            );
            parent[a] = b;
        }
        let (c, r) = (e / (n - 1), e % (n - 1));
        if !edge[half + e] {
            let (a, b) = (
                root(&mut parent, r * n + c),
                root(&mut parent, (r + 1) * n + c),
            );
            parent[a] = b;
        }
    }
    // Cages in order of their first cell, which is the clue order.
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for cell in 0..n * n {
        let r = root(&mut parent, cell);
        match groups.iter_mut().find(|(g, _)| *g == r) {
            Some((_, cells)) => cells.push(cell),
            None => groups.push((r, vec![cell])),
        }
    }

    let mut clue_list = Vec::new();
    let cb = clues.as_bytes();
    let mut i = 0;
    while i < cb.len() {
        let op = match cb[i] {
            b'a' => Op::Add,
            b's' => Op::Sub,
            b'm' => Op::Mul,
            b'd' => Op::Div,
            _ => panic!("bad clue letter in {id}"),
        };
        i += 1;
        let start = i;
        while i < cb.len() && cb[i].is_ascii_digit() {
            i += 1;
        }
        clue_list.push((op, clues[start..i].parse::<u64>().unwrap()));
    }
    assert_eq!(clue_list.len(), groups.len(), "clue count in {id}");
    let cages = groups
        .into_iter()
        .zip(clue_list)
        .map(|((_, cells), (op, clue))| {
            Cage::new(
                cells
                    .into_iter()
                    .map(|c| size.cell_at(c).unwrap())
                    .collect(),
                op,
                clue,
            )
        })
        .collect();
    Puzzle::new(size, cages).unwrap()
}

/// Independent check of a solution: range, rows, columns, boxes, cage clues.
fn assert_valid(p: &Puzzle, sol: &[Digit], id: &str) {
    let s = p.size();
    let n = s.get();
    assert_eq!(sol.len(), n * n, "{id}");
    for a in s.cells() {
        let d = sol[a.index()];
        assert!(
            (1..=n as Digit).contains(&d),
            "{id}: digit {d} out of range"
        );
        for b in s.cells() {
            assert!(
                !p.sees(a, b) || sol[b.index()] != d,
                "{id}: {a:?} and {b:?} both hold {d}"
            );
        }
    }
    for cage in p.cages() {
        let digits: Vec<Digit> = cage.cells.iter().map(|c| sol[c.index()]).collect();
        assert!(
            cage.op.holds(&digits, cage.clue),
            "{id}: cage {cage:?} gets {digits:?}"
        );
    }
}

#[test]
fn the_parser_reads_cage_shapes() {
    // From `docs/formats.md`: 3x3 whose cages are {r1c1,r2c1}, {r1c2,r2c2}, {r1c3},
    // {r2c3,r3c3}, {r3c1,r3c2}.
    let p = parse_tatham("3:_4a3_a,a3a5a1a5a4");
    assert_eq!(p.cages().len(), 5);
    let s = p.size();
    assert_eq!(p.cage_of(s.cell(0, 0)), p.cage_of(s.cell(1, 0)));
    assert_eq!(p.cage_of(s.cell(2, 0)), p.cage_of(s.cell(2, 1)));
    assert_eq!(p.cage(p.cage_of(s.cell(0, 2))).op, Op::Given);
    let out = solve(&p);
    assert_eq!(out.verdict, Verdict::Unique);
    assert_eq!(out.solution.unwrap(), vec![2, 3, 1, 1, 2, 3, 3, 1, 2]);
}

#[test]
fn every_reference_puzzle_is_unique() {
    let ids = reference_ids();
    assert!(ids.len() > 1000, "the corpus has {} puzzles", ids.len());
    for id in &ids {
        let p = parse_tatham(id);
        let out = solve(&p);
        assert_eq!(out.verdict, Verdict::Unique, "{id}");
        assert_eq!(out.solutions_found, 1, "{id}");
        assert_valid(&p, out.solution.as_ref().unwrap(), id);

        // With tables and candidates supplied, and with the solution pinned.
        let tables: Vec<Combinations> = p.cage_ids().map(|g| p.combinations(g).unwrap()).collect();
        let again = count_solutions_with(&p, &tables, None, 2);
        assert_eq!(again, out, "{id}");
    }
}

#[test]
fn prepared_tables_give_the_same_outcomes() {
    // Every reference puzzle, and a variant with its first clue changed (often
    // impossible or ambiguous): the same verdict, solution and node count from
    // tables in the search's form as from the model's, counting up to 2 and up to
    // 20 solutions.
    for id in reference_ids().iter().step_by(3) {
        let (head, clues) = id.split_once(',').unwrap();
        let digit = clues.find(|c: char| c.is_ascii_digit()).unwrap();
        let bumped = (clues.as_bytes()[digit] - b'0' + 1) % 10;
        let variant = format!("{head},{}{bumped}{}", &clues[..digit], &clues[digit + 1..]);
        for id in [id.as_str(), &variant] {
            let p = parse_tatham(id);
            let n = p.size().get();
            let tables: Vec<Combinations> =
                p.cage_ids().map(|g| p.combinations(g).unwrap()).collect();
            let prepared: Vec<SearchTable> =
                tables.iter().map(|t| SearchTable::new(t, n)).collect();
            for limit in [2, 20] {
                let plain = count_solutions_with(&p, &tables, None, limit);
                let mut budget = Budget::new(Limits::new());
                let fast = count_solutions_prepared(&p, &prepared, None, limit, &mut budget);
                assert_eq!(fast, plain, "{id}, limit {limit}");
            }
        }
    }
}

#[test]
fn impossible_only_after_branching() {
    // A reference 4×4 with its third clue changed from s1 to s2: every cage still
    // has combinations and propagation alone finds no contradiction, but every
    // branch fails.
    let p = parse_tatham("4:b_a__a_ba_a__a__,m24a5s2s1d2m3d2");
    let out = solve(&p);
    assert_eq!(out.verdict, Verdict::Impossible);
    assert_eq!(out.solutions_found, 0);
    assert_eq!(out.solution, None);
    assert!(out.nodes > 1, "needed {} nodes", out.nodes);
}

#[test]
fn a_wrong_digit_makes_a_reference_puzzle_impossible() {
    for id in reference_ids().iter().step_by(25) {
        let p = parse_tatham(id);
        let sol = solve(&p).solution.unwrap();
        let n = p.size().get();
        let tables: Vec<Combinations> = p.cage_ids().map(|g| p.combinations(g).unwrap()).collect();
        // Forbid the true digit of the middle cell.
        let mid = n * n / 2;
        let mut cands = vec![kenken_model::Digits::full(n); n * n];
        cands[mid].remove(sol[mid]);
        let out = count_solutions_with(&p, &tables, Some(&cands), 2);
        assert_eq!(out.verdict, Verdict::Impossible, "{id}");
    }
}

#[test]
fn reference_test_grids_are_solved() {
    // The reference solver's own test puzzles: some use − or ÷ on larger cages and
    // one omits the final virtual edge; all of them are expected to be unique.
    let text = read_reference("testgrids.json");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut seen = 0;
    for (category, list) in v.as_object().unwrap() {
        for id in list.as_array().unwrap() {
            let id = id.as_str().unwrap();
            let p = parse_tatham(id);
            let out = count_solutions(&p, 2);
            assert_eq!(out.verdict, Verdict::Unique, "{category}: {id}");
            assert_valid(&p, out.solution.as_ref().unwrap(), id);
            seen += 1;
        }
    }
    assert!(seen >= 40);
}

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i]
}

/// Best of a few runs, to keep scheduler noise out of a per-puzzle time.
fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed()
        })
        .min()
        .unwrap()
}

/// A 16×16 puzzle of horizontal dominoes over a (non-cyclic) Latin square, clues
/// cycling through + × − ÷, for timing the largest size.
fn sixteen_by_sixteen(seed: usize) -> Puzzle {
    let n = 16;
    let s = Size::new(n).unwrap();
    let f = |i: usize, k: usize| (i * k + seed) % n;
    let digit = |r: usize, c: usize| (f(f(r, 5) + f(c, 7), 3) % n + 1) as u64;
    let mut cages = Vec::new();
    for r in 0..n {
        for c in (0..n).step_by(2) {
            let (a, b) = (digit(r, c), digit(r, c + 1));
            let (op, clue) = match (r * n + c) / 2 % 4 {
                0 => (Op::Add, a + b),
                1 => (Op::Mul, a * b),
                2 => (Op::Sub, a.abs_diff(b)),
                _ if a.max(b) % a.min(b) == 0 => (Op::Div, a.max(b) / a.min(b)),
                _ => (Op::Add, a + b),
            };
            cages.push(Cage::new(vec![s.cell(r, c), s.cell(r, c + 1)], op, clue));
        }
    }
    Puzzle::new(s, cages).unwrap()
}

#[test]
#[ignore = "timing printout; run with --release -- --ignored --nocapture"]
fn timing_by_size() {
    let ids = reference_ids();
    let mut groups: Vec<(String, Vec<(Puzzle, &str)>)> = (3..=9)
        .map(|n| {
            let prefix = format!("{n}:");
            let group = ids
                .iter()
                .filter(|id| id.starts_with(&prefix))
                .map(|id| (parse_tatham(id), id.as_str()))
                .collect();
            (n.to_string(), group)
        })
        .collect();
    groups.push((
        "16*".into(),
        (0..8)
            .map(|seed| (sixteen_by_sixteen(seed), "16x16 dominoes"))
            .collect(),
    ));
    println!(
        "{:>4} {:>5} | {:>27} | {:>27} | {:>27} | {:>5} {:>6} {:>6}",
        "size",
        "count",
        "full solve med / p99 / max",
        "search only med / p99 / max",
        "tables only med / p99 / max",
        "root%",
        "nodes~",
        "nodes^"
    );
    let mut slowest = Vec::new();
    for (name, group) in &groups {
        let mut full = Vec::new();
        let mut search = Vec::new();
        let mut tables_only = Vec::new();
        let mut nodes = Vec::new();
        for (p, id) in group {
            let t = best_of(7, || solve(p));
            full.push(t);
            if p.size().get() <= 9 {
                slowest.push((t, *id));
            }
            let tables: Vec<Combinations> =
                p.cage_ids().map(|g| p.combinations(g).unwrap()).collect();
            search.push(best_of(7, || count_solutions_with(p, &tables, None, 2)));
            tables_only.push(best_of(7, || {
                p.cage_ids()
                    .map(|g| p.combinations(g).unwrap())
                    .collect::<Vec<_>>()
            }));
            nodes.push(solve(p).nodes);
        }
        full.sort();
        search.sort();
        tables_only.sort();
        nodes.sort();
        let fmt = |v: &[Duration]| {
            format!(
                "{:>7.1} / {:>7.1} / {:>7.1}",
                percentile(v, 0.5).as_secs_f64() * 1e6,
                percentile(v, 0.99).as_secs_f64() * 1e6,
                v.last().unwrap().as_secs_f64() * 1e6
            )
        };
        let at_root = nodes.iter().filter(|&&k| k == 1).count();
        println!(
            "{:>4} {:>5} | {} | {} | {} | {:>4.0}% {:>6} {:>6}",
            name,
            group.len(),
            fmt(&full),
            fmt(&search),
            fmt(&tables_only),
            100.0 * at_root as f64 / nodes.len() as f64,
            nodes[nodes.len() / 2],
            nodes.last().unwrap()
        );
    }
    println!(
        "µs per puzzle, best of 7 runs each. full = solve(); search only = \
         count_solutions_with() on prebuilt model tables; tables only = \
         Puzzle::combinations() for every cage (the model's enumerator, which solve() \
         calls first). root% = solved without branching; nodes: median, max. \
         16* = generated 16×16 dominoes (not Tatham)."
    );
    slowest.sort();
    println!("slowest reference puzzles (full solve):");
    for (t, id) in slowest.iter().rev().take(5) {
        println!("  {:>7.1} µs  {id}", t.as_secs_f64() * 1e6);
    }
}

/// A fixed workload for instruction-count profiling, which (unlike wall time) does
/// not depend on what else the machine is doing:
/// `valgrind --tool=callgrind --toggle-collect='*count_solutions*' <test binary>
/// --ignored --exact solve_corpus_once`.
#[test]
#[ignore = "profiling workload"]
fn solve_corpus_once() {
    let puzzles: Vec<Puzzle> = reference_ids().iter().map(|id| parse_tatham(id)).collect();
    let mut nodes = 0;
    for p in &puzzles {
        let out = solve(p);
        assert_eq!(out.verdict, Verdict::Unique);
        nodes += out.nodes;
    }
    println!("{} puzzles, {nodes} search nodes", puzzles.len());
}
