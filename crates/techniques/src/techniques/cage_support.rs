//! The consistency check behind cage combinations: which live combinations of each
//! cage of a set extend to a clash-free choice for every other cage of the set.
//!
//! For each linked pair of cages, a table gives, per combination of one, the bit set
//! of compatible combinations of the other (cached for the whole search, since sets
//! share pairs). The search then chooses combinations depth-first with forward
//! checking: choosing one ANDs the compatible sets into every linked open cage's
//! domain, an empty domain backtracks at once, and the next cage is the one with the
//! fewest combinations left. Each full choice found marks all its combinations
//! supported, so most combinations never need a search of their own.

use crate::step::CageCut;
use crate::State;
use kenken_model::CageId;
use std::collections::HashMap;
use std::sync::Arc;

/// Pair tables kept from one search to the next, keyed by (cage, cage), with the
/// tick they were built at: a table stays valid while neither cage changes.
pub type PairCache = HashMap<(CageId, CageId), (u32, Arc<PairTable>)>;

/// Per combination (by position in the first cage's live list), the bit set of
/// compatible combinations (positions in the second cage's live list).
#[derive(Debug)]
pub struct PairTable {
    words: usize,
    bits: Vec<u64>,
}

impl PairTable {
    #[inline]
    fn row(&self, pos: usize) -> &[u64] {
        &self.bits[pos * self.words..(pos + 1) * self.words]
    }
}

/// Reusable buffers and caches for [`Scratch::unsupported`] over one state and one
/// list of cages (sets are given as positions in that list).
pub struct Scratch<'a> {
    state: &'a State,
    cages: &'a [CageId],
    /// Live combination indices per cage of the list.
    live: Vec<Vec<u32>>,
    /// Pair tables, `m × m`, taken from the cache or built on first use.
    pairs: Vec<Option<Arc<PairTable>>>,
    cache: &'a mut PairCache,
    clock: u32,
    changed_at: &'a [u32],
    /// Per depth, per cage of the set: the domain bit set.
    domains: Vec<Vec<Vec<u64>>>,
    chosen: Vec<u32>,
}

impl<'a> Scratch<'a> {
    /// A scratch over `cages` (the sets are positions in it); `cache`, `clock` and
    /// `changed_at` let pair tables of unchanged cages carry over between searches.
    pub fn new(
        state: &'a State,
        cages: &'a [CageId],
        cache: &'a mut PairCache,
        clock: u32,
        changed_at: &'a [u32],
    ) -> Scratch<'a> {
        let m = cages.len();
        Scratch {
            state,
            cages,
            live: cages
                .iter()
                .map(|&c| state.live_combinations(c).map(|i| i as u32).collect())
                .collect(),
            pairs: (0..m * m).map(|_| None).collect(),
            cache,
            clock,
            changed_at,
            domains: Vec::new(),
            chosen: Vec::new(),
        }
    }

    /// Builds the pair table of list positions (x, y) if needed.
    fn ensure_pair(&mut self, x: usize, y: usize) {
        let m = self.cages.len();
        if self.pairs[x * m + y].is_some() {
            return;
        }
        let (a, b) = (self.cages[x], self.cages[y]);
        if let Some((tick, t)) = self.cache.get(&(a, b)) {
            if self.changed_at[a.index()] <= *tick && self.changed_at[b.index()] <= *tick {
                self.pairs[x * m + y] = Some(Arc::clone(t));
                return;
            }
        }
        let (la, lb) = (&self.live[x], &self.live[y]);
        let layout = self.state.layout();
        let words = lb.len().div_ceil(64);
        let mut bits = vec![0u64; la.len() * words];
        for (p, &ia) in la.iter().enumerate() {
            let fa = layout.footprint(a, ia as usize);
            let row = &mut bits[p * words..(p + 1) * words];
            for (q, &ib) in lb.iter().enumerate() {
                let fb = layout.footprint(b, ib as usize);
                if fa.iter().zip(fb).all(|(x, y)| x & y == 0) {
                    row[q / 64] |= 1 << (q % 64);
                }
            }
        }
        let t = Arc::new(PairTable { words, bits });
        self.cache.insert((a, b), (self.clock, Arc::clone(&t)));
        self.pairs[x * m + y] = Some(t);
    }

    /// The cuts (combinations without support) of the set given as positions in the
    /// list, in set order; empty when every combination is supported.
    pub fn unsupported(&mut self, set: &[usize]) -> Vec<CageCut> {
        let n = set.len();
        let m = self.cages.len();
        let layout = self.state.layout();
        // links[k][j]: the pair table index of set cages k, j when they are linked.
        let mut links = [[usize::MAX; 8]; 8];
        for k in 0..n {
            for j in 0..n {
                if j != k && layout.linked(self.cages[set[k]], self.cages[set[j]]) {
                    self.ensure_pair(set[k], set[j]);
                    links[k][j] = set[k] * m + set[j];
                }
            }
        }
        let mut supported: Vec<Vec<bool>> = set
            .iter()
            .map(|&x| vec![false; self.live[x].len()])
            .collect();
        if self.domains.len() < n + 1 {
            self.domains.resize_with(n + 1, Vec::new);
        }
        for level in &mut self.domains {
            level.resize_with(n, Vec::new);
        }
        self.chosen.clear();
        self.chosen.resize(n, u32::MAX);

        // Depth 0: every live combination of every cage; deeper levels sized alike.
        for (k, &x) in set.iter().enumerate() {
            let len = self.live[x].len();
            let words = len.div_ceil(64);
            for level in &mut self.domains {
                level[k].clear();
                level[k].resize(words, 0);
            }
            let d = &mut self.domains[0][k];
            for (w, word) in d.iter_mut().enumerate() {
                let bits = (len - 64 * w).min(64);
                *word = if bits == 64 {
                    u64::MAX
                } else {
                    (1u64 << bits) - 1
                };
            }
        }
        // Leads with the most combinations first: each full choice found supports
        // one combination of every cage, so the largest cage bounds the number of
        // searches, and its searches cover the small cages along the way.
        let mut leads: [usize; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
        leads[..n].sort_by_key(|&k| std::cmp::Reverse(self.live[set[k]].len()));
        for &lead in &leads[..n] {
            for a in 0..self.live[set[lead]].len() {
                if supported[lead][a] {
                    continue;
                }
                self.chosen.iter_mut().for_each(|c| *c = u32::MAX);
                if self.choose(&links[..n], 0, lead, a as u32) {
                    for k in 0..n {
                        supported[k][self.chosen[k] as usize] = true;
                    }
                }
            }
        }

        let mut cuts = Vec::new();
        for (k, &x) in set.iter().enumerate() {
            let live = &self.live[x];
            let removed: Vec<u32> = live
                .iter()
                .zip(&supported[k])
                .filter(|(_, &s)| !s)
                .map(|(&i, _)| i)
                .collect();
            if !removed.is_empty() {
                let before = live.len();
                cuts.push(CageCut {
                    cage: self.cages[x],
                    before,
                    after: before - removed.len(),
                    removed,
                });
            }
        }
        cuts
    }

    /// Chooses position `pos` for cage `k` at `depth`, narrows the other open cages'
    /// domains into `depth + 1`, and continues; true when every cage got a choice.
    fn choose(&mut self, links: &[[usize; 8]], depth: usize, k: usize, pos: u32) -> bool {
        let n = links.len();
        self.chosen[k] = pos;
        let (before, after) = self.domains.split_at_mut(depth + 1);
        let (cur, next) = (&before[depth], &mut after[0]);
        let mut best: Option<(usize, u32)> = None;
        for j in 0..n {
            if self.chosen[j] != u32::MAX {
                continue;
            }
            let d = &mut next[j];
            let src = &cur[j];
            let mut count = 0u32;
            if links[k][j] != usize::MAX {
                let row = self.pairs[links[k][j]]
                    .as_ref()
                    .expect("built")
                    .row(pos as usize);
                for ((x, &a), &b) in d.iter_mut().zip(src).zip(row) {
                    *x = a & b;
                    count += x.count_ones();
                }
            } else {
                for (x, &a) in d.iter_mut().zip(src) {
                    *x = a;
                    count += a.count_ones();
                }
            }
            if count == 0 {
                self.chosen[k] = u32::MAX;
                return false;
            }
            if best.is_none_or(|(_, c)| count < c) {
                best = Some((j, count));
            }
        }
        let Some((j, _)) = best else {
            return true;
        };
        let words = self.domains[depth + 1][j].len();
        for w in 0..words {
            let mut bits = self.domains[depth + 1][j][w];
            while bits != 0 {
                let p = w as u32 * 64 + bits.trailing_zeros();
                bits &= bits - 1;
                if self.choose(links, depth + 1, j, p) {
                    return true;
                }
            }
        }
        self.chosen[k] = u32::MAX;
        false
    }
}
