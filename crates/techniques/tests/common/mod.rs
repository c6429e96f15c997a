//! Shared test helpers: the reference data and a minimal Tatham reader.
#![allow(dead_code)]

use kenken_model::{Cage, CellId, Op, Puzzle, Size};
use std::path::PathBuf;

pub fn shared_reference(file: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/reference")
        .join(file);
    assert!(
        p.exists(),
        "missing {} (the shared reference data must sit beside the repository)",
        p.display()
    );
    p
}

/// Minimal lenient Tatham game-ID reader for tests.
pub fn tatham(id: &str) -> Puzzle {
    let (params, desc) = id.split_once(':').unwrap();
    let n: usize = params
        .trim_end_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .unwrap();
    let (blocks, clues) = desc.split_once(',').unwrap();
    let size = Size::new(n).unwrap();
    let edges = 2 * n * (n - 1);
    let mut wall = vec![false; edges];
    let mut pos = 0usize;
    let b = blocks.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let ch = b[i];
        i += 1;
        let mut rep = 0usize;
        while i < b.len() && b[i].is_ascii_digit() {
            rep = rep * 10 + (b[i] - b'0') as usize;
            i += 1;
        }
        let rep = rep.max(1);
        for _ in 0..rep {
            let (skip, line) = if ch == b'_' {
                (0, true)
            } else if ch == b'z' {
                (25, false)
            } else {
                ((ch - b'a' + 1) as usize, true)
            };
            pos += skip;
            if line && pos < edges {
                wall[pos] = true;
            }
            if line {
                pos += 1;
            }
        }
    }
    // union-find
    let mut parent: Vec<usize> = (0..n * n).collect();
    fn find(p: &mut Vec<usize>, x: usize) -> usize {
        let mut x = x;
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    let half = n * (n - 1);
    for r in 0..n {
        for c in 0..n - 1 {
            if !wall[r * (n - 1) + c] {
                let (a, b2) = (
                    find(&mut parent, r * n + c),
                    find(&mut parent, r * n + c + 1),
                );
                parent[a] = b2;
            }
        }
    }
    for c in 0..n {
        for r in 0..n - 1 {
            if !wall[half + c * (n - 1) + r] {
                let (a, b2) = (
                    find(&mut parent, r * n + c),
                    find(&mut parent, (r + 1) * n + c),
                );
                parent[a] = b2;
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut root_to: std::collections::HashMap<usize, usize> = Default::default();
    for cell in 0..n * n {
        let r = find(&mut parent, cell);
        let g = *root_to.entry(r).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(cell);
    }
    let cb = clues.as_bytes();
    let mut j = 0;
    let mut cages = Vec::new();
    for g in groups {
        let op = match cb[j] {
            b'a' => Op::Add,
            b's' => Op::Sub,
            b'm' => Op::Mul,
            b'd' => Op::Div,
            _ => panic!("bad clue"),
        };
        j += 1;
        let mut v = 0u64;
        while j < cb.len() && cb[j].is_ascii_digit() {
            v = v * 10 + (cb[j] - b'0') as u64;
            j += 1;
        }
        cages.push(Cage::new(g.into_iter().map(CellId::new).collect(), op, v));
    }
    Puzzle::new(size, cages).unwrap()
}
