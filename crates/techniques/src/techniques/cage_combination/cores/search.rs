//! The search for one combination's cores: splitting on witnesses (see the
//! parent module's documentation).

use super::super::support::PairRows;
use super::super::witnesses::{bit, Mask, WitnessTable};
use super::{positions, Between, Problem, Unanswered, MAX_CAGES, MAX_DOMAIN_WORDS};
use kenken_model::{bits, Budget, Exhausted};

/// Clash-free choices for n − 2 cages tried against every last cage at once (see
/// [`Search::last_cage`]). (All 80 hidden-operation 8×8s and 9×9s of
/// `hidden-ops.json`: 4 here, 0.98× the time; 16, 1.00×.)
const LAST_CAGE_CHOICES: usize = 8;

/// A branch splits on the cages a known witness misses when there are at most this
/// many, instead of growing a witness that may miss fewer: a grow costs more than
/// the branches it saves. (Measured against 3 on 2026-12-04, one core, the same
/// gradings: all 80 hidden-operation 8×8s and 9×9s of `hidden-ops.json` in mode
/// n, 103.5 s with 3, 90.1 s with 4, 85.4 s with 5, 90.3 s with 6; the slowest of
/// them (row 204) 9.8 s with 3, 7.9 s with 4, 7.3 s with 5, 7.4 s with 6 and 8.6 s
/// with 8; the seven-cage 9×9s in mode b 39.1 s with 3, 31.6 s with 5; hidden
/// generation, ten seeds, 86.5 s with 3, 88.0 s with 5, the same puzzles but one
/// (a candidate rated 5.2 that the judge's work limit stops with 3); the ordinary
/// corpus the same. With 7 in a combination's first search at branches two or
/// three cages short of a core, the 80 hidden ones 1.03×.)
pub(super) const SPLIT_WITHOUT_GROWING: u32 = 5;

/// A branch one cage short of a core grows a witness before it settles its
/// last cage when the known witnesses leave at least this many cages open.
/// (Measured against never growing there: all 80 hidden-operation 8×8s and 9×9s
/// of `hidden-ops.json`, 0.92× the time with 4, 6 or 10 here; README's 9×9 with
/// `--hide-ops` 0.91×; a seven-cage 9×9 in mode c 0.93×; hidden generation
/// 0.96–0.98×, the same puzzles; the ordinary corpus the same. Growing at every
/// such branch: the slowest hidden 9×9 1.05×. With splitting on witnesses that
/// miss up to five cages: 3 here, the 80 hidden ones 0.97×, the seven-cage
/// 9×9s in mode b 1.03× and hidden generation 0.99×; 4, 0.98×; 10, 1.05×.)
const GROW_FOR_LAST_CAGE: u32 = 6;

/// The search for the cores of one combination after another, with buffers reused
/// between them.
pub(super) struct Search<'p, 'b> {
    pub(super) p: &'p Problem<'p>,
    /// Cores have this many cages (n − 1).
    k: usize,
    pub(super) budget: &'b mut Budget,
    reserved: usize,
    /// The domains the assumption leaves the other cages.
    assumed: Vec<u64>,
    /// Domains per depth of a choice for `req` (`k + 1` levels), and of a grow.
    levels: Vec<u64>,
    grow: Vec<u64>,
    counts: Vec<u32>,
    choice: Vec<u32>,
    /// The witnesses of the combination searched.
    witnesses: WitnessTable,
    /// Whether the search is the combination's first (not a repair).
    first: bool,
    /// Positions one of which every core looked for holds (0: no such rule).
    window: Mask,
}

impl<'p, 'b> Search<'p, 'b> {
    pub(super) fn new(
        p: &'p Problem<'p>,
        k: usize,
        budget: &'b mut Budget,
    ) -> Result<Self, Exhausted> {
        let width = p.width();
        // The search's buffers, and the problem's index of the pair tables.
        let reserved = (width * (k + 3) + 2 * p.m) * 8 + p.pairs.len() * size_of::<PairRows>();
        budget.reserve(reserved)?;
        Ok(Search {
            p,
            k,
            budget,
            reserved,
            assumed: vec![0; width],
            levels: vec![0; width * (k + 1)],
            grow: vec![0; width],
            counts: vec![0; p.m],
            choice: vec![u32::MAX; p.m],
            witnesses: WitnessTable::default(),
            first: false,
            window: 0,
        })
    }

    /// Gives back what the search reserved on the budget.
    pub(super) fn release(mut self) {
        self.witnesses.release(self.budget);
        self.budget.release(self.reserved);
    }

    /// Adds the cores of combination `x` of position `a` that hold a cage of `among`
    /// (each with `a`) to `found`; `known` holds the witnesses of x so far, and
    /// those the search grows are added to it.
    pub(super) fn cores_holding(
        &mut self,
        a: usize,
        x: usize,
        among: Mask,
        known: &mut Vec<Mask>,
        found: &mut Vec<Mask>,
    ) -> Result<(), Unanswered> {
        let p = self.p;
        self.assume(a, x)?;
        let all = (Mask::MAX >> (MAX_CAGES - p.m)) & !bit(a);
        self.search_cores(a, (0, all), among, known, found)
    }

    /// [`Search::cores_holding`] for the cores that make a set of `range` with
    /// combination `x` of position `a` (and maybe others).
    pub(super) fn cores_within(
        &mut self,
        a: usize,
        x: usize,
        among: Mask,
        range: &Between,
        known: &mut Vec<Mask>,
        found: &mut Vec<Mask>,
    ) -> Result<(), Unanswered> {
        let p = self.p;
        self.assume(a, x)?;
        let all = (Mask::MAX >> (MAX_CAGES - p.m)) & !bit(a) & !range.below;
        let req = range.prefix & !bit(a);
        self.window = if range.window & bit(a) == 0 {
            range.window
        } else {
            0
        };
        let searched = self.search_cores(a, (req, all), among, known, found);
        self.window = 0;
        searched
    }

    /// Assumes combination `x` of position `a`: the domains it leaves the other
    /// cages.
    fn assume(&mut self, a: usize, x: usize) -> Result<(), Unanswered> {
        let p = self.p;
        self.budget.spend(p.width() as u64 + 1)?;
        self.assumed.copy_from_slice(&p.live);
        self.assumed[p.off[a]..p.off[a + 1]].fill(0);
        for j in positions(p.links[a]) {
            if !narrow(&mut self.assumed[p.off[j]..p.off[j + 1]], p.row(a, x, j)) {
                // A pair removes x: the smaller levels have not all found nothing.
                return Err(Unanswered::NotApplicable);
            }
        }
        Ok(())
    }

    /// The cores holding every cage of `req`, none outside `allowed` and a cage
    /// of `among` (with the assumption made), each added to `found` with `a`.
    fn search_cores(
        &mut self,
        a: usize,
        (req, allowed): (Mask, Mask),
        among: Mask,
        known: &mut Vec<Mask>,
        found: &mut Vec<Mask>,
    ) -> Result<(), Unanswered> {
        let start = found.len();
        self.witnesses
            .start(std::mem::take(known), self.p.m, self.k, self.budget)?;
        self.first = among & allowed == allowed;
        let size = req.count_ones() as usize;
        for (depth, c) in positions(req).enumerate() {
            self.witnesses.enter(depth + 1, c);
        }
        if size >= self.k {
            // `req` is the whole core, if any (a smaller part has a choice).
            if size == self.k && among & req != 0 {
                self.levels[..self.p.width()].copy_from_slice(&self.assumed);
                self.choice.fill(u32::MAX);
                if !self.choose(req, 0)? {
                    found.push(req);
                }
            }
        } else if self.first || among & req != 0 {
            self.split(req, allowed, found)?;
        } else if size + 1 == self.k {
            // One cage short of a core: the last must be one of `among`.
            self.split(req, req | (allowed & among), found)?;
        } else {
            self.split_on(req, allowed, among & allowed & !req, found)?;
        }
        *known = self.witnesses.take_masks();
        for set in &mut found[start..] {
            *set |= bit(a);
        }
        Ok(())
    }

    /// The cores holding every cage of `req` and none outside `allowed`. The
    /// witnesses covering `req` (at depth `|req|` of the table: met before, or
    /// grown in the branches above) guide it, and those it grows join them.
    fn split(&mut self, req: Mask, allowed: Mask, found: &mut Vec<Mask>) -> Result<(), Unanswered> {
        let size = req.count_ones() as usize;
        if size + ((allowed & !req).count_ones() as usize) < self.k {
            return Ok(());
        }
        if self.window != 0 && allowed & self.window == 0 {
            return Ok(());
        }
        self.budget
            .spend(self.witnesses.count(size) as u64 / 8 + 1)?;
        if size + 1 == self.k {
            // A cage a known witness covers (with `req`) makes no core with `req`.
            let mut open = allowed & !req;
            if self.window != 0 && req & self.window == 0 {
                open &= self.window;
            }
            for w in self.witnesses.covering(size) {
                open &= !w;
                if open == 0 {
                    return Ok(());
                }
            }
            // Many cages left open: a witness grown here may cover many of them,
            // and the branches beside this one can use it.
            if open.count_ones() >= GROW_FOR_LAST_CAGE {
                open &= !self.grow_witness(req, allowed, size)?;
                if open == 0 {
                    return Ok(());
                }
            }
            return self.last_cage(req, open, found);
        }
        // The known witness that misses the fewest allowed cages (the first met
        // of them).
        let mut best: Option<(Mask, u32)> = None;
        for w in self.witnesses.covering(size) {
            let missed = (allowed & !w).count_ones();
            if best.is_none_or(|(_, b)| missed < b) {
                best = Some((w, missed));
                if missed == 0 {
                    break;
                }
            }
        }
        let covered = match best {
            Some((w, missed)) if missed <= SPLIT_WITHOUT_GROWING => w,
            _ => {
                let grown = self.grow_witness(req, allowed, size)?;
                match best {
                    Some((w, missed)) if missed <= (allowed & !grown).count_ones() => w,
                    _ => grown,
                }
            }
        };
        self.split_on(req, allowed, allowed & !covered, found)
    }

    /// Grows a witness for the branch with required cages `req` (`size` of them)
    /// and allowed cages `allowed` (see [`Search::grow`]), and adds it to the
    /// branch's witnesses: the cages it covers.
    fn grow_witness(&mut self, req: Mask, allowed: Mask, size: usize) -> Result<Mask, Unanswered> {
        match self.grow(req, allowed)? {
            Some(grown) => {
                self.witnesses.push(grown, size, self.budget)?;
                Ok(grown)
            }
            // Fewer than n − 1 cages without a choice.
            None => Err(Unanswered::NotApplicable),
        }
    }

    /// The cores holding every cage of `req`, at least one of `on` and none outside
    /// `allowed`: the cores holding the first cage of `on`, those holding the
    /// second but not the first, and so on. First is by list position, so fewest
    /// live combinations first. (Measured against this on 30 hidden-operation
    /// 7×7–9×9s of 0.25–6 s: the reverse order, 1.18× the time; fewest
    /// combinations under the assumption first, 1.03×.)
    fn split_on(
        &mut self,
        req: Mask,
        allowed: Mask,
        on: Mask,
        found: &mut Vec<Mask>,
    ) -> Result<(), Unanswered> {
        let mut allowed = allowed;
        let depth = req.count_ones() as usize + 1;
        for c in positions(on) {
            self.witnesses.enter(depth, c);
            self.split(req | bit(c), allowed, found)?;
            allowed &= !bit(c);
        }
        Ok(())
    }

    /// A clash-free choice for the cages of `req` (with the assumption), extended
    /// greedily to as many cages of `allowed` as it can: the cages it covers
    /// (without the assumed one). `None` when `req` has no choice.
    fn grow(&mut self, req: Mask, allowed: Mask) -> Result<Option<Mask>, Exhausted> {
        let p = self.p;
        let width = p.width();
        self.budget.spend(width as u64 + p.m as u64)?;
        self.levels[..width].copy_from_slice(&self.assumed);
        self.choice.fill(u32::MAX);
        if !self.choose(req, 0)? {
            return Ok(None);
        }
        // The domains the choice for `req` leaves, then the greedy extension: the
        // open cage with the fewest combinations left first (dropping the cages
        // left with none), its solution combination when it is left, else its
        // first. (Measured against this on 30 hidden-operation 7×7–9×9s of
        // 0.25–6 s: taking first every open cage whose solution combination
        // fits, 1.29× the time, though on README's 9×9 with half the branches;
        // when the solution combination is gone, the one of the cage's first 3
        // or 8 that leaves its linked cages the most, the same time. On README's
        // 9×9: the order fixed by the first counts, a cage narrowed only when its
        // turn comes, 1.7×; never the solution combination first, about 1.7×.)
        let mut open = allowed & !req;
        self.budget
            .spend(u64::from(open.count_ones()) * u64::from(req.count_ones()))?;
        let mut queue = [0u8; MAX_CAGES];
        let mut queued = 0;
        for c in positions(open) {
            let d = &mut self.grow[p.off[c]..p.off[c + 1]];
            fitting(p, &self.assumed, &self.choice, req, c, d);
            self.counts[c] = count(d);
            queue[queued] = c as u8;
            queued += 1;
        }
        let mut covered = req;
        while queued > 0 {
            let (mut pick, mut fewest) = (usize::MAX, u32::MAX);
            let mut q = 0;
            while q < queued {
                let c = queue[q] as usize;
                let k = self.counts[c];
                if k == 0 {
                    queued -= 1;
                    queue[q] = queue[queued];
                    open &= !bit(c);
                    continue;
                }
                if k < fewest {
                    (pick, fewest) = (q, k);
                }
                q += 1;
            }
            if pick == usize::MAX {
                break;
            }
            let c = queue[pick] as usize;
            queued -= 1;
            queue[pick] = queue[queued];
            let d = &self.grow[p.off[c]..p.off[c + 1]];
            let v = p.seed_in(c, d).unwrap_or_else(|| first_one(d));
            self.choice[c] = v as u32;
            open &= !bit(c);
            covered |= bit(c);
            let linked_open = p.links[c] & open;
            self.budget.spend(u64::from(linked_open.count_ones()) + 1)?;
            for o in positions(linked_open) {
                let row = p.row(c, v, o);
                let d = &mut self.grow[p.off[o]..p.off[o + 1]];
                let mut k = 0;
                for (d, r) in d.iter_mut().zip(row) {
                    *d &= r;
                    k += d.count_ones();
                }
                self.counts[o] = k;
            }
        }
        Ok(Some(covered))
    }

    /// Chooses the cages of `req` not chosen yet, depth-first with forward checking
    /// over the cages still to choose (the cage with the fewest combinations left
    /// first, its solution combination first), their domains at `levels[depth]`.
    /// True with a choice in `choice`.
    fn choose(&mut self, req: Mask, depth: usize) -> Result<bool, Exhausted> {
        let mut done = false;
        self.each_choice(req, depth, &mut |_| {
            done = true;
            true
        })?;
        Ok(done)
    }

    /// Goes through the clash-free choices for `req` as [`Search::choose`] does,
    /// calling `visit` with each (in `choice`) until it returns true.
    fn each_choice(
        &mut self,
        req: Mask,
        depth: usize,
        visit: &mut dyn FnMut(&Search) -> bool,
    ) -> Result<bool, Exhausted> {
        let p = self.p;
        let width = p.width();
        let at = depth * width;
        let mut pick: Option<(usize, u32)> = None;
        let mut pending: Mask = 0;
        for c in positions(req) {
            if self.choice[c] == u32::MAX {
                pending |= bit(c);
                let k = count(&self.levels[at + p.off[c]..at + p.off[c + 1]]);
                if pick.is_none_or(|(_, best)| k < best) {
                    pick = Some((c, k));
                }
            }
        }
        let Some((c, k)) = pick else {
            return Ok(visit(self));
        };
        if k == 0 {
            return Ok(false);
        }
        let words = p.off[c + 1] - p.off[c];
        let mut values = [0u64; MAX_DOMAIN_WORDS];
        values[..words].copy_from_slice(&self.levels[at + p.off[c]..at + p.off[c + 1]]);
        let seed = p.seed_in(c, &values[..words]);
        let others = bits::ones_in(&values[..words]).filter(|&v| Some(v) != seed);
        pending &= !bit(c);
        for v in seed.into_iter().chain(others) {
            self.budget.spend(u64::from(pending.count_ones()) + 1)?;
            let next = (depth + 1) * width;
            let (cur, rest) = self.levels.split_at_mut(next);
            let nxt = &mut rest[..width];
            let mut dead = false;
            for o in positions(pending) {
                let range = p.off[o]..p.off[o + 1];
                let d = &mut nxt[range.clone()];
                d.copy_from_slice(&cur[at + range.start..at + range.end]);
                if p.links[c] & bit(o) != 0 && !narrow(d, p.row(c, v, o)) {
                    dead = true;
                    break;
                }
            }
            if dead {
                continue;
            }
            self.choice[c] = v as u32;
            if self.each_choice(req, depth + 1, visit)? {
                return Ok(true);
            }
            self.choice[c] = u32::MAX;
        }
        Ok(false)
    }

    /// The cores made of `req` and one more cage of `open` (cages outside `req`):
    /// a cage that some clash-free choice for `req` leaves a combination makes
    /// none. The first few choices are tried against every open cage at once; a
    /// cage none of them fits is checked with `req` on its own.
    fn last_cage(
        &mut self,
        req: Mask,
        open: Mask,
        found: &mut Vec<Mask>,
    ) -> Result<(), Unanswered> {
        let p = self.p;
        let width = p.width();
        self.budget.spend(width as u64)?;
        self.levels[..width].copy_from_slice(&self.assumed);
        self.choice.fill(u32::MAX);
        let mut open = open;
        let mut seen = 0;
        let mut domain = [0u64; MAX_DOMAIN_WORDS];
        self.each_choice(req, 0, &mut |search| {
            seen += 1;
            for o in positions(open) {
                let d = &mut domain[..p.off[o + 1] - p.off[o]];
                if fitting(p, &search.assumed, &search.choice, req, o, d) {
                    open &= !bit(o);
                }
            }
            open == 0 || seen == LAST_CAGE_CHOICES
        })?;
        if seen == 0 {
            // `req` itself has no choice.
            return Err(Unanswered::NotApplicable);
        }
        for c in positions(open) {
            self.levels[..width].copy_from_slice(&self.assumed);
            self.choice.fill(u32::MAX);
            let both = req | bit(c);
            if !self.choose(both, 0)? {
                found.push(both);
            }
        }
        Ok(())
    }
}

/// Writes into `domain` the combinations of position `c` that fit the assumption
/// (`assumed`) and the choices `choice` holds for the cages of `chosen`; true when
/// any does.
fn fitting(
    p: &Problem,
    assumed: &[u64],
    choice: &[u32],
    chosen: Mask,
    c: usize,
    domain: &mut [u64],
) -> bool {
    domain.copy_from_slice(&assumed[p.off[c]..p.off[c + 1]]);
    let mut any = domain.iter().any(|&w| w != 0);
    for r in positions(chosen & p.links[c]) {
        if !any {
            break;
        }
        any = narrow(domain, p.row(r, choice[r] as usize, c));
    }
    any
}

/// Keeps in `domain` the combinations `row` holds; true when any is left.
#[inline]
fn narrow(domain: &mut [u64], row: &[u64]) -> bool {
    let mut left = 0;
    for (d, r) in domain.iter_mut().zip(row) {
        *d &= r;
        left |= *d;
    }
    left != 0
}

fn count(words: &[u64]) -> u32 {
    words.iter().map(|w| w.count_ones()).sum()
}

fn first_one(words: &[u64]) -> usize {
    bits::ones_in(words).next().expect("a non-empty domain")
}
