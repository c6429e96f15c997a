//! Connected sets of cages: the walk that visits, in lexicographic order, exactly
//! the sets of n list positions that are connected in a graph (two positions are
//! linked when their cages can clash), and the graph's rows kept up to date as the
//! list changes.

use crate::technique::MAX_CAGE_SET;
use kenken_model::bits;
use std::ops::ControlFlow;

/// The candidates of a walk over cage sets (a bit set of list positions) and the
/// links between list positions, which the connectivity pruning needs.
pub(super) struct Walk<'a> {
    links: &'a ListLinks,
    cand: [u64; MAX_WORDS],
}

/// The links between the cages of a list, by list position: row i is the bit set
/// of the positions linked with position i.
#[derive(Clone, Debug)]
pub(super) struct ListLinks {
    words: usize,
    rows: Vec<u64>,
}

impl ListLinks {
    /// Positions `0..m`, `linked(i, j)` saying whether i and j are linked.
    pub(super) fn new(m: usize, linked: impl Fn(usize, usize) -> bool) -> ListLinks {
        let words = m.div_ceil(64).max(1);
        let mut rows = vec![0u64; m * words];
        for i in 0..m {
            for j in (0..m).filter(|&j| j != i && linked(i, j)) {
                rows[i * words + j / 64] |= 1 << (j % 64);
            }
        }
        ListLinks { words, rows }
    }

    #[inline]
    pub(super) fn row(&self, i: usize) -> &[u64] {
        &self.rows[i * self.words..(i + 1) * self.words]
    }

    /// Whether positions i and j are linked.
    pub(super) fn linked(&self, i: usize, j: usize) -> bool {
        self.row(i)[j / 64] & (1 << (j % 64)) != 0
    }

    /// Takes position `p` out of the list: its row goes, and in every row the bits
    /// of the later positions move down one.
    pub(super) fn remove(&mut self, p: usize) {
        let w = self.words;
        self.rows.drain(p * w..(p + 1) * w);
        for row in self.rows.chunks_exact_mut(w) {
            take_bit(row, p);
        }
    }

    /// Moves position `from` to `to` (before it); the positions in between move up
    /// one.
    pub(super) fn move_down(&mut self, from: usize, to: usize) {
        debug_assert!(to < from);
        let w = self.words;
        self.rows[to * w..(from + 1) * w].rotate_right(w);
        for row in self.rows.chunks_exact_mut(w) {
            let bit = take_bit(row, from);
            put_bit(row, to, bit);
        }
    }
}

/// Takes bit `p` out of a multi-word bit set (the bits above it move down one);
/// whether it was set.
fn take_bit(row: &mut [u64], p: usize) -> bool {
    let (w, b) = (p / 64, p % 64);
    let was = row[w] & (1 << b) != 0;
    let below = (1u64 << b) - 1;
    row[w] = (row[w] & below) | ((row[w] >> 1) & !below);
    for k in w..row.len() {
        if k > w {
            row[k] >>= 1;
        }
        if let Some(&next) = row.get(k + 1) {
            row[k] |= (next & 1) << 63;
        }
    }
    was
}

/// Puts a bit in at position `p` of a multi-word bit set, the bits from p on moving
/// up one (the top bit must be clear).
fn put_bit(row: &mut [u64], p: usize, bit: bool) {
    let (w, b) = (p / 64, p % 64);
    debug_assert!(row.last().is_none_or(|&l| l >> 63 == 0));
    for k in (w + 1..row.len()).rev() {
        row[k] = (row[k] << 1) | (row[k - 1] >> 63);
    }
    let below = (1u64 << b) - 1;
    row[w] = (row[w] & below) | ((row[w] & !below) << 1) | (u64::from(bit) << b);
}

impl<'a> Walk<'a> {
    /// A walk choosing from the list positions `cand`.
    pub(super) fn new(links: &'a ListLinks, cand: impl IntoIterator<Item = usize>) -> Walk<'a> {
        assert!(links.words <= MAX_WORDS, "at most 256 cages");
        let mut bits = [0u64; MAX_WORDS];
        for i in cand {
            bits[i / 64] |= 1 << (i % 64);
        }
        Walk { links, cand: bits }
    }

    /// The candidates at position `from` or later.
    pub(super) fn from(&self, from: usize) -> [u64; MAX_WORDS] {
        let mut out = self.cand;
        for (w, word) in out.iter_mut().enumerate() {
            let below = from.saturating_sub(w * 64).min(64);
            *word &= if below == 64 { 0 } else { u64::MAX << below };
        }
        out
    }

    /// How many candidates are at position `from` or later.
    pub(super) fn count_from(&self, from: usize) -> usize {
        self.from(from)
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    /// Extends `set` to n members with candidates in lexicographic order, calling
    /// `visit` on every completed set from `lo` (list positions, inclusive) up to
    /// `hi` (exclusive); breaks when `visit` does or `hi` is reached. Only connected
    /// sets are visited: a set is not extended when its linked groups cannot all be
    /// joined by the candidates after its last member, and the last member must link
    /// with every group of the others.
    pub(super) fn run(
        &self,
        set: &mut Partial,
        n: usize,
        lo: Option<&[usize]>,
        hi: Option<&[usize]>,
        visit: &mut impl FnMut(&Partial) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.extend(set, 0, n, lo, hi, visit)
    }

    fn extend(
        &self,
        set: &mut Partial,
        from: usize,
        n: usize,
        lo: Option<&[usize]>,
        hi: Option<&[usize]>,
        visit: &mut impl FnMut(&Partial) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if set.len == n {
            // Tight against `hi` all the way down: this is `hi` itself.
            return match hi {
                Some(_) => ControlFlow::Break(()),
                None => visit(set),
            };
        }
        let need = n - set.len;
        let joiners = match set.len {
            0 => None,
            _ => match self.joiners(set, from) {
                None => return ControlFlow::Continue(()),
                joiners => joiners,
            },
        };
        let depth = set.len - set.fixed;
        let first = lo.map_or(from, |lo| lo[depth].max(from));
        let mut next = self.from(first);
        if let Some(hi) = hi {
            // Up to hi[depth], inclusive.
            let past = self.from(hi[depth] + 1);
            for (x, p) in next.iter_mut().zip(past) {
                *x &= !p;
            }
        }
        if need == 1 {
            // The last member must link with every group of the others.
            if let Some(joiners) = joiners {
                for (x, j) in next.iter_mut().zip(joiners) {
                    *x &= j;
                }
            }
        }
        for (w, &word) in next.iter().enumerate() {
            for b in bits::ones(word) {
                let j = w * 64 + b;
                if need > 1 && self.count_from(j + 1) < need - 1 {
                    return ControlFlow::Continue(());
                }
                set.push(self, j);
                let child_lo = lo.filter(|lo| lo[depth] == j);
                let child_hi = hi.filter(|hi| hi[depth] == j);
                let flow = self.extend(set, j + 1, n, child_lo, child_hi, visit);
                set.pop();
                flow?;
            }
        }
        ControlFlow::Continue(())
    }

    /// For a non-empty set, per linked group of its cages, the candidates at
    /// position `from` or later linked with the group: `None` when some group has
    /// none (no completion of the set is connected), else the candidates linked with
    /// every group (those that connect the set when added last).
    pub(super) fn joiners(&self, set: &Partial, from: usize) -> Option<[u64; MAX_WORDS]> {
        let after = self.from(from);
        let mut all = [u64::MAX; MAX_WORDS];
        let mut left = all_of(set.len);
        while left != 0 {
            let group = first_group(&set.links, left);
            left &= !group;
            let mut reach = [0u64; MAX_WORDS];
            for k in bits::ones(u64::from(group)) {
                for ((r, l), a) in reach
                    .iter_mut()
                    .zip(self.links.row(set.members[k]))
                    .zip(&after)
                {
                    *r |= l & a;
                }
            }
            if reach.iter().all(|&r| r == 0) {
                return None;
            }
            for (x, r) in all.iter_mut().zip(reach) {
                *x &= r;
            }
        }
        Some(all)
    }
}

/// The links within a linked pair (see [`Partial::links`]).
pub(super) const PAIR_LINKS: [u8; MAX_CAGE_SET] = [0b10, 0b01, 0, 0, 0, 0, 0, 0];

/// Words of a bit set over the cages of a grid (at most 256 cells).
pub(super) const MAX_WORDS: usize = 4;

/// A set being built by a walk: its list positions and, per member, the bit set of
/// the members it is linked with.
#[derive(Default)]
pub(super) struct Partial {
    pub(super) members: [usize; MAX_CAGE_SET],
    pub(super) links: [u8; MAX_CAGE_SET],
    pub(super) len: usize,
    /// Members placed before the walk started (the lead of a dirty search).
    fixed: usize,
}

impl Partial {
    /// Adds list position `pos` before the walk starts (the lead of a dirty search).
    pub(super) fn push_fixed(&mut self, walk: &Walk, pos: usize) {
        self.push(walk, pos);
        self.fixed += 1;
    }

    /// Adds list position `pos`, noting its links with the members before it.
    pub(super) fn push(&mut self, walk: &Walk, pos: usize) {
        let k = self.len;
        self.members[k] = pos;
        self.links[k] = 0;
        let row = walk.links.row(pos);
        for t in 0..k {
            let other = self.members[t];
            if row[other / 64] & (1 << (other % 64)) != 0 {
                self.links[k] |= 1 << t;
                self.links[t] |= 1 << k;
            }
        }
        self.len += 1;
    }

    pub(super) fn pop(&mut self) {
        self.len -= 1;
        let bit = 1u8 << self.len;
        for l in &mut self.links[..self.len] {
            *l &= !bit;
        }
    }
}

/// The bit set of the first n cages of a set.
pub(super) fn all_of(n: usize) -> u8 {
    ((1u16 << n) - 1) as u8
}

/// Whether the cages of `members` (a bit set over the set) form one linked group.
pub(super) fn connected(links: &[u8; MAX_CAGE_SET], members: u8) -> bool {
    first_group(links, members) == members
}

/// The linked group, within `members` (a bit set over the set), of its first
/// cage; empty when `members` is.
fn first_group(links: &[u8; MAX_CAGE_SET], members: u8) -> u8 {
    let first = members & members.wrapping_neg();
    let (mut group, mut frontier) = (first, u64::from(first));
    while let Some(i) = bits::pop_first(&mut frontier) {
        let new = links[i] & members & !group;
        group |= new;
        frontier |= u64::from(new);
    }
    group
}

/// Whether some cage of a connected set of three or more is a cut cage: one whose
/// removal splits the rest into groups that are not linked to each other.
///
/// Such a set removes nothing once every smaller connected set removes nothing
/// (which holds when the levels are tried in order, as the ladder does): the
/// constraints between cages are pairwise, so the parts on either side of the cut
/// cage C only meet in C. Every combination of C extends to each part (the parts
/// with C are smaller connected sets, which remove nothing), and the extensions of
/// the parts combine, since nothing links them; and every combination of a cage of
/// a part extends to that part with some combination of C, and so to the rest.
/// In particular three cages in a row (A–B–C, A not linked to C) never remove
/// anything at level 3 — only a triangle can — and a set with a cage linked to just
/// one other never does.
pub(super) fn has_cut_cage(links: &[u8; MAX_CAGE_SET], n: usize) -> bool {
    let members = all_of(n);
    n >= 3 && (0..n).any(|v| !connected(links, members & !(1 << v)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Advances to the next n-combination of 0..m; false after the last.
    pub(crate) fn next_combination(idx: &mut [usize], m: usize) -> bool {
        let n = idx.len();
        for i in (0..n).rev() {
            if idx[i] < m - n + i {
                idx[i] += 1;
                for j in i + 1..n {
                    idx[j] = idx[j - 1] + 1;
                }
                return true;
            }
        }
        false
    }

    /// Every n-combination of 0..m in lexicographic order.
    fn all_combinations(m: usize, n: usize) -> Vec<Vec<usize>> {
        let mut v: Vec<usize> = (0..n).collect();
        let mut all = vec![v.clone()];
        while next_combination(&mut v, m) {
            all.push(v.clone());
        }
        all
    }

    /// The walk visits exactly the connected sets, in lexicographic order, within
    /// its bounds, on pseudo-random graphs of every density.
    #[test]
    fn walks_visit_the_connected_sets_in_order() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // Small lists with every level up to 5, and lists over several words of a
        // bit set (more than 64 and 128 cages) with sparse links, levels 2 and 3.
        for round in 0..64 {
            let (m, max_n) = match round {
                60 | 61 => (70, 3),
                62 | 63 => (130, 3),
                _ => (4 + round % 9, 5),
            };
            let density = if m > 64 { 1 } else { 1 + round % 5 };
            let mut edges = vec![false; m * m];
            for i in 0..m {
                for j in i + 1..m {
                    let e = random() % if m > 64 { 40 } else { 6 } < density as u64;
                    edges[i * m + j] = e;
                    edges[j * m + i] = e;
                }
            }
            let linked = |i: usize, j: usize| edges[i * m + j];
            let is_connected = |set: &[usize]| {
                let mut l = [0u8; MAX_CAGE_SET];
                for (a, &x) in set.iter().enumerate() {
                    for (b, &y) in set.iter().enumerate() {
                        if linked(x, y) {
                            l[a] |= 1 << b;
                        }
                    }
                }
                connected(&l, all_of(set.len()))
            };
            let links = ListLinks::new(m, linked);
            let walk = Walk::new(&links, 0..m);
            for n in 2..=m.min(max_n) {
                let expected: Vec<Vec<usize>> = all_combinations(m, n)
                    .into_iter()
                    .filter(|s| is_connected(s))
                    .collect();
                let collect = |lo: Option<&[usize]>, hi: Option<&[usize]>| {
                    let mut seen = Vec::new();
                    let _ = walk.run(&mut Partial::default(), n, lo, hi, &mut |s| {
                        for a in 0..s.len {
                            for b in 0..s.len {
                                let bit = s.links[a] & (1 << b) != 0;
                                assert_eq!(bit, linked(s.members[a], s.members[b]));
                            }
                        }
                        seen.push(s.members[..s.len].to_vec());
                        ControlFlow::Continue(())
                    });
                    seen
                };
                assert_eq!(collect(None, None), expected, "m {m} n {n}");
                // Split at a set (connected or not): from it on, then before it.
                let combos = all_combinations(m, n);
                let start = &combos[random() as usize % combos.len()];
                let mut both = collect(Some(start), None);
                assert!(both.iter().all(|s| s >= start));
                let before = collect(None, Some(start));
                assert!(before.iter().all(|s| s < start));
                both.extend(before);
                both.sort();
                assert_eq!(both, expected, "m {m} n {n} split at {start:?}");
                // A fixed first member and candidates without it.
                let lead = random() as usize % m;
                let others: Vec<usize> = (0..m).filter(|&i| i != lead).collect();
                let walk = Walk::new(&links, others.iter().copied());
                let mut set = Partial::default();
                set.push_fixed(&walk, lead);
                let mut seen = Vec::new();
                let _ = walk.run(&mut set, n, None, None, &mut |s| {
                    seen.push(s.members[..s.len].to_vec());
                    ControlFlow::Continue(())
                });
                let led: Vec<Vec<usize>> = all_combinations(m - 1, n - 1)
                    .into_iter()
                    .map(|pick| {
                        let mut s = vec![lead];
                        s.extend(pick.iter().map(|&p| others[p]));
                        s
                    })
                    .filter(|s| is_connected(s))
                    .collect();
                assert_eq!(seen, led, "m {m} n {n} lead {lead}");
            }
        }
    }

    /// Removing and moving list positions keeps the links those of the new list, on
    /// lists of one to three words.
    #[test]
    fn list_links_follow_removals_and_moves() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut random = move |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        for m in [5, 63, 64, 65, 130, 190] {
            let edges: Vec<bool> = (0..m * m).map(|_| random(4) == 0).collect();
            let linked = |a: usize, b: usize| a != b && edges[a.min(b) * m + a.max(b)];
            let mut list: Vec<usize> = (0..m).collect();
            let mut links = ListLinks::new(m, linked);
            for _ in 0..40 {
                if list.len() > 2 && random(3) == 0 {
                    let p = random(list.len());
                    list.remove(p);
                    links.remove(p);
                } else if list.len() > 1 {
                    let from = 1 + random(list.len() - 1);
                    let to = random(from);
                    list[to..=from].rotate_right(1);
                    links.move_down(from, to);
                }
                for i in 0..list.len() {
                    for j in 0..list.len() {
                        assert_eq!(links.linked(i, j), linked(list[i], list[j]), "m {m}");
                    }
                }
                assert!(links.rows.len() == list.len() * links.words);
            }
        }
    }

    /// Links of a set from an edge list (both directions).
    fn links(edges: &[(usize, usize)]) -> [u8; MAX_CAGE_SET] {
        let mut l = [0u8; MAX_CAGE_SET];
        for &(a, b) in edges {
            l[a] |= 1 << b;
            l[b] |= 1 << a;
        }
        l
    }

    #[test]
    fn cut_cages() {
        // A path of three: the middle cage cuts it; a triangle has no cut cage.
        assert!(has_cut_cage(&links(&[(0, 1), (1, 2)]), 3));
        assert!(!has_cut_cage(&links(&[(0, 1), (1, 2), (0, 2)]), 3));
        // A square has none; a square with a tail does; two triangles sharing a
        // cage (a bow tie) do.
        assert!(!has_cut_cage(&links(&[(0, 1), (1, 2), (2, 3), (3, 0)]), 4));
        assert!(has_cut_cage(
            &links(&[(0, 1), (1, 2), (2, 3), (3, 0), (3, 4)]),
            5
        ));
        assert!(has_cut_cage(
            &links(&[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2)]),
            5
        ));
        // Pairs are always searched.
        assert!(!has_cut_cage(&links(&[(0, 1)]), 2));
        assert!(connected(&links(&[(0, 1), (1, 2)]), all_of(3)));
        assert!(!connected(&links(&[(0, 1)]), all_of(3)));
    }
}
