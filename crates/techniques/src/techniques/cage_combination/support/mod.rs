//! The consistency check behind cage combinations: which live combinations of each
//! cage of a set extend to a clash-free choice for every other cage of the set.
//!
//! For each linked pair of cages, a table gives, per combination of one, the bit set
//! of compatible combinations of the other (kept from step to step while neither
//! cage changes, since sets share pairs). The search then chooses combinations
//! depth-first with forward checking: choosing one ANDs the compatible sets into
//! every linked open cage's domain, an empty domain backtracks at once, and the next
//! cage is the one with the fewest combinations left. Each full choice found marks
//! all its combinations supported, so most combinations never need a search of their
//! own. When two cages are left open, every combination of one that leaves the
//! other a choice is tried, and all the other's combinations it leaves are marked
//! at once.
//!
//! A linked pair checked on its own is settled from its table once the run
//! searches sets of three cages (which reuse the tables); before that, it is
//! checked by testing footprints directly off the state, without building one.

use crate::step::CageCut;
use crate::{Layout, State};
use kenken_model::bits;
use kenken_model::{Budget, CageId, Exhausted};

/// Per combination (by position in the first cage's live list), the bit set of
/// compatible combinations (positions in the second cage's live list).
#[derive(Clone, Debug, Default)]
struct PairTable {
    words: usize,
    bits: Vec<u64>,
}

impl PairTable {
    #[inline]
    fn row(&self, pos: usize) -> &[u64] {
        &self.bits[pos * self.words..(pos + 1) * self.words]
    }
}

/// A cage's combinations as the support check numbers them.
///
/// Positions number the cage's *universe*: the combinations live when it was last
/// built. Pair tables are built over universes, so they stay valid while combinations
/// die (the live mask leaves the dead ones out of every search); the universe is
/// rebuilt, and the tables with it, only once fewer than half of it is live.
#[derive(Clone, Debug, Default)]
struct LiveList {
    /// The tick the live mask was read at (`None`: never read).
    tick: Option<u32>,
    /// The tick the universe was built at: pair tables built before are stale.
    rebased: u32,
    /// The universe: combination indices, ascending (position → index).
    combos: Vec<u32>,
    /// The positions still live, as a bit set.
    live: Vec<u64>,
    live_count: usize,
}

/// What the support check keeps between steps: per cage, its numbered combinations
/// and live mask, and per ordered pair of cages, the compatibility table with the
/// tick it was built at (valid while neither cage's universe is rebuilt).
#[derive(Clone, Debug, Default)]
pub struct SupportCache {
    cage_count: usize,
    lists: Vec<LiveList>,
    /// `cage_count²` entries, at [`SupportCache::pair_slot`].
    pairs: Vec<(Option<u32>, PairTable)>,
    /// Buffers for building pair tables.
    conflicts: Vec<u64>,
    bit_slot: Vec<u16>,
    /// The [`Scratch`] buffers, lent to each search so that none allocates anew.
    domains: Vec<u64>,
    supported: Vec<u64>,
}

impl SupportCache {
    pub fn new(cage_count: usize) -> SupportCache {
        // The lists and pair tables are allocated at first use: most gradings never
        // reach cage combinations.
        SupportCache {
            cage_count,
            lists: Vec::new(),
            pairs: Vec::new(),
            conflicts: Vec::new(),
            bit_slot: Vec::new(),
            domains: Vec::new(),
            supported: Vec::new(),
        }
    }

    /// Where the pair table of (a, b) sits in `pairs`.
    fn pair_slot(&self, a: CageId, b: CageId) -> usize {
        a.index() * self.cage_count + b.index()
    }

    /// Reads the live mask of `cage` again if it changed after it was read; rebuilds
    /// its universe when fewer than half of it is live.
    fn refresh_list(
        &mut self,
        state: &State,
        cage: CageId,
        clock: u32,
        changed_at: u32,
        budget: &mut Budget,
    ) -> Result<(), Exhausted> {
        if self.lists.is_empty() {
            budget.reserve(self.cage_count * size_of::<LiveList>())?;
            self.lists = (0..self.cage_count).map(|_| LiveList::default()).collect();
        }
        let list = &mut self.lists[cage.index()];
        if list.tick.is_some_and(|t| changed_at <= t) {
            return Ok(());
        }
        let live_now = state.live_count(cage);
        budget.spend(live_now as u64)?;
        if list.combos.is_empty() || 2 * live_now < list.combos.len() {
            list.combos.clear();
            resize_within(&mut list.combos, live_now, 0, budget)?;
            list.combos.clear();
            list.rebased = clock;
            list.combos
                .extend(state.live_combinations(cage).map(|i| i as u32));
        }
        list.tick = Some(clock);
        let (words, _) = state.live_words(cage);
        let word_bits = u64::BITS as usize;
        list.live.clear();
        resize_within(&mut list.live, list.combos.len().div_ceil(64), 0, budget)?;
        for (p, &i) in list.combos.iter().enumerate() {
            let i = i as usize;
            if words[i / word_bits] & (1 << (i % word_bits)) != 0 {
                list.live[p / 64] |= 1 << (p % 64);
            }
        }
        list.live_count = live_now;
        Ok(())
    }

    /// Whether the pair table of (a, b) is up to date (neither universe was rebuilt
    /// since it was built). Both lists must be fresh.
    fn pair_fresh(&self, a: CageId, b: CageId) -> bool {
        let slot = self.pair_slot(a, b);
        let rebased = self.lists[a.index()]
            .rebased
            .max(self.lists[b.index()].rebased);
        self.pairs
            .get(slot)
            .is_some_and(|(built, _)| built.is_some_and(|t| rebased <= t))
    }

    /// Builds the pair table of (a, b) over their universes if either was rebuilt
    /// since the table was. Both lists must be fresh.
    fn refresh_pair(
        &mut self,
        layout: &Layout,
        a: CageId,
        b: CageId,
        clock: u32,
        budget: &mut Budget,
    ) -> Result<(), Exhausted> {
        if self.pair_fresh(a, b) {
            return Ok(());
        }
        if self.pairs.is_empty() {
            // Allocated at the first table built: pairs checked on their own do
            // without (see `Scratch::set_pair_tables`).
            let slots = self.cage_count * self.cage_count;
            budget.reserve(slots * size_of::<(Option<u32>, PairTable)>())?;
            self.pairs = (0..slots).map(|_| (None, PairTable::default())).collect();
        }
        let slot = self.pair_slot(a, b);
        let (la, lb) = (&self.lists[a.index()].combos, &self.lists[b.index()].combos);
        let fp_words = layout.fp_words;
        let words = lb.len().div_ceil(64);
        // The table is not fresh until it is whole.
        self.pairs[slot].0 = None;
        if la.len() * lb.len() * fp_words <= DIRECT_PAIR_TESTS {
            // Small cages: test every pair of footprints (they clash exactly when
            // they share a bit), cheaper than numbering the shared bits first.
            let table = &mut self.pairs[slot].1;
            table.words = words;
            table.bits.clear();
            resize_within(&mut table.bits, la.len() * words, 0, budget)?;
            for (p, &ia) in la.iter().enumerate() {
                let fa = layout.footprint(a, ia as usize);
                let row = &mut table.bits[p * words..(p + 1) * words];
                for (q, &ib) in lb.iter().enumerate() {
                    let fb = layout.footprint(b, ib as usize);
                    if disjoint::<0>(fa, fb) {
                        row[q / 64] |= 1 << (q % 64);
                    }
                }
            }
            self.pairs[slot].0 = Some(clock);
            return Ok(());
        }
        // Only (region, digit) bits both cages can occupy can clash; number them.
        budget.spend(((la.len() + lb.len()) * fp_words) as u64)?;
        let mut shared = [0u64; 64];
        let mut union_b = [0u64; 64];
        let (shared, union_b) = (&mut shared[..fp_words], &mut union_b[..fp_words]);
        for &q in lb {
            for (u, f) in union_b.iter_mut().zip(layout.footprint(b, q as usize)) {
                *u |= f;
            }
        }
        for &p in la {
            for ((s, f), u) in shared
                .iter_mut()
                .zip(layout.footprint(a, p as usize))
                .zip(&*union_b)
            {
                *s |= f & u;
            }
        }
        self.bit_slot.clear();
        resize_within(&mut self.bit_slot, fp_words * 64, u16::MAX, budget)?;
        let mut slots = 0usize;
        for (w, &word) in shared.iter().enumerate() {
            for b in bits::ones(word) {
                self.bit_slot[w * 64 + b] = slots as u16;
                slots += 1;
            }
        }
        // Per shared bit, the combinations of b that occupy it.
        self.conflicts.clear();
        resize_within(&mut self.conflicts, slots * words, 0, budget)?;
        budget.spend((lb.len() * fp_words) as u64)?;
        for (q, &ib) in lb.iter().enumerate() {
            for (w, (&f, &s)) in layout
                .footprint(b, ib as usize)
                .iter()
                .zip(&*shared)
                .enumerate()
            {
                for b in bits::ones(f & s) {
                    let slot = self.bit_slot[w * 64 + b] as usize;
                    self.conflicts[slot * words + q / 64] |= 1 << (q % 64);
                }
            }
        }
        // A combination of a is compatible with those of b that occupy none of its
        // shared bits.
        let full_tail = match lb.len() % 64 {
            0 => u64::MAX,
            r => (1u64 << r) - 1,
        };
        let table = &mut self.pairs[slot].1;
        table.words = words;
        table.bits.clear();
        resize_within(&mut table.bits, la.len() * words, u64::MAX, budget)?;
        for (p, &ia) in la.iter().enumerate() {
            // A row costs a pass over its words per shared bit it occupies.
            budget.spend((words * fp_words) as u64 + 1)?;
            let row = &mut table.bits[p * words..(p + 1) * words];
            if let Some(last) = row.last_mut() {
                *last = full_tail;
            }
            for (w, (&f, &s)) in layout
                .footprint(a, ia as usize)
                .iter()
                .zip(&*shared)
                .enumerate()
            {
                for b in bits::ones(f & s) {
                    let slot = self.bit_slot[w * 64 + b] as usize;
                    for (r, c) in row.iter_mut().zip(&self.conflicts[slot * words..]) {
                        *r &= !c;
                    }
                }
            }
        }
        self.pairs[slot].0 = Some(clock);
        Ok(())
    }
}

/// Resizes `v` to `len` (filling with `fill`), reserving its capacity's growth on
/// the budget first: the search's tables grow with the cages' combinations, and
/// a pair of large cages would otherwise take gigabytes.
fn resize_within<T: Clone>(
    v: &mut Vec<T>,
    len: usize,
    fill: T,
    budget: &mut Budget,
) -> Result<(), Exhausted> {
    if len > v.capacity() {
        // The new buffer is reserved whole: the old one is held until the
        // elements have moved.
        budget.reserve(len.saturating_mul(size_of::<T>()))?;
        let mut grown = Vec::with_capacity(len);
        grown.extend_from_slice(v);
        budget.release(v.capacity() * size_of::<T>());
        *v = grown;
    }
    v.resize(len, fill);
    Ok(())
}

/// Reusable buffers for [`Scratch::unsupported`] over one state and one list of
/// cages (sets are given as positions in that list).
pub struct Scratch<'a> {
    state: &'a State,
    cages: &'a [CageId],
    cache: &'a mut SupportCache,
    clock: u32,
    /// Per cage, the tick of its last change: a live list is read again when its
    /// cage changed since (lists are brought up to date when a check needs them).
    changed_at: &'a [u32],
    /// Per depth, per cage of the set: the domain, a bit set over the cage's live
    /// positions; depth `d`, cage `k` is `domains[d * width + offset[k]..]`.
    domains: Vec<u64>,
    /// Where each set cage's words start within a depth, and (last) the width.
    offset: [usize; 9],
    chosen: [u32; 8],
    /// Per cage of the set (same offsets): the live positions supported so far.
    supported: Vec<u64>,
    /// The run's budget: every check spends its work and reserves its tables
    /// here, and gives up once it is exhausted.
    budget: &'a mut Budget,
    /// Whether a pair's check builds its pair table (kept for later checks) rather
    /// than testing footprints directly.
    pair_tables: bool,
}

/// The list's live lists and pair tables as [`Scratch::prepare_all`] left them,
/// read by position in the list.
pub struct Tables<'t> {
    state: &'t State,
    cages: &'t [CageId],
    cache: &'t SupportCache,
}

/// One linked pair's table as [`Tables::pair_rows`] lends it.
#[derive(Clone, Copy, Debug, Default)]
pub struct PairRows<'t> {
    words: usize,
    bits: &'t [u64],
}

impl<'t> PairRows<'t> {
    /// The combinations of the second cage that fit universe combination `p` of
    /// the first.
    #[inline]
    pub fn row(&self, p: usize) -> &'t [u64] {
        &self.bits[p * self.words..(p + 1) * self.words]
    }
}

impl<'t> Tables<'t> {
    pub fn list_len(&self) -> usize {
        self.cages.len()
    }

    fn list(&self, i: usize) -> &LiveList {
        &self.cache.lists[self.cages[i].index()]
    }

    /// The live mask of position `i`, over its universe.
    pub fn live_of(&self, i: usize) -> &[u64] {
        &self.list(i).live
    }

    /// The tick the universe of position `i` was built at: its positions number
    /// the same combinations while this stays the same.
    pub fn rebased(&self, i: usize) -> u32 {
        self.list(i).rebased
    }

    /// The universe position of table combination `combo` of position `i`.
    pub fn universe_position(&self, i: usize, combo: u32) -> Option<usize> {
        self.list(i).combos.binary_search(&combo).ok()
    }

    pub fn linked(&self, i: usize, j: usize) -> bool {
        i != j && self.state.layout().linked(self.cages[i], self.cages[j])
    }

    pub fn cage(&self, i: usize) -> CageId {
        self.cages[i]
    }

    /// How many words the state's store of live bits has.
    pub fn store_len(&self) -> usize {
        self.state.live_store().len()
    }

    /// Where universe combination `p` of position `i` is in the state's store of
    /// live bits (see [`State::live_store`]).
    pub fn store_bit(&self, i: usize, p: usize) -> usize {
        let (word, _) = self.state.layout().live_at(self.cages[i]);
        word * 64 + self.list(i).combos[p] as usize
    }

    /// The pair table of linked positions `i` and `j`: per universe combination of
    /// `i`, the combinations of `j` (a bit set over its universe) that fit it.
    pub fn pair_rows(&self, i: usize, j: usize) -> PairRows<'t> {
        let cache: &'t SupportCache = self.cache;
        let slot = cache.pair_slot(self.cages[i], self.cages[j]);
        let table = &cache.pairs[slot].1;
        PairRows {
            words: table.words,
            bits: &table.bits,
        }
    }
}

/// Pair tables needing at most this many footprint-word tests are built by testing
/// every pair directly (see [`SupportCache::refresh_pair`]).
const DIRECT_PAIR_TESTS: usize = 128;

impl<'a> Scratch<'a> {
    /// Whether a linked pair checked on its own builds its pair table (the default)
    /// or tests footprints directly. Tables pay when sets of three or more cages
    /// will use them; a pair check alone costs less without one.
    pub fn set_pair_tables(&mut self, build: bool) {
        self.pair_tables = build;
    }

    /// Spends `units` of work; true once the budget is exhausted.
    #[inline]
    fn out_of_budget(&mut self, units: u64) -> bool {
        self.budget.spend(units).is_err()
    }

    /// The run's budget (the set search spends a unit per set on it).
    pub fn budget(&mut self) -> &mut Budget {
        self.budget
    }

    /// A scratch over `cages` (the sets are positions in it); `cache`, `clock` and
    /// `changed_at` let live lists and pair tables of unchanged cages carry over
    /// between searches.
    pub fn new(
        state: &'a State,
        cages: &'a [CageId],
        cache: &'a mut SupportCache,
        clock: u32,
        changed_at: &'a [u32],
        budget: &'a mut Budget,
    ) -> Scratch<'a> {
        let domains = std::mem::take(&mut cache.domains);
        let supported = std::mem::take(&mut cache.supported);
        Scratch {
            state,
            cages,
            cache,
            clock,
            changed_at,
            domains,
            offset: [0; 9],
            chosen: [u32::MAX; 8],
            supported,
            budget,
            pair_tables: true,
        }
    }

    /// How many cages the list holds.
    pub fn list_len(&self) -> usize {
        self.cages.len()
    }

    /// Brings every cage's live list and every linked pair's table up to date.
    pub fn prepare_all(&mut self) -> Result<(), Exhausted> {
        for &cage in self.cages {
            let changed_at = self.changed_at[cage.index()];
            self.cache
                .refresh_list(self.state, cage, self.clock, changed_at, self.budget)?;
        }
        let layout = self.state.layout();
        for &a in self.cages {
            for &b in self.cages {
                if a != b && layout.linked(a, b) {
                    self.cache
                        .refresh_pair(layout, a, b, self.clock, self.budget)?;
                }
            }
        }
        Ok(())
    }

    /// The tables [`Scratch::prepare_all`] brought up to date, and the budget.
    pub fn tables(&mut self) -> (Tables<'_>, &mut Budget) {
        (
            Tables {
                state: self.state,
                cages: self.cages,
                cache: self.cache,
            },
            self.budget,
        )
    }

    /// Ends the scratch, handing its buffers back to the cache for the next one (a
    /// scratch merely dropped takes them with it).
    pub fn release(self) {
        self.cache.domains = self.domains;
        self.cache.supported = self.supported;
    }

    /// The numbered combinations of list cage `x`.
    #[inline]
    fn list(&self, x: usize) -> &LiveList {
        &self.cache.lists[self.cages[x].index()]
    }

    /// The cuts (combinations without support) of the set given as positions in the
    /// list, in set order; empty when every combination is supported. Fails when
    /// the budget runs out first.
    pub fn unsupported(&mut self, set: &[usize]) -> Result<Vec<CageCut>, Exhausted> {
        let n = set.len();
        // Before sets of three are searched (see `set_pair_tables`) no pair table
        // is built, so a pair is checked off the state, its cages' live lists left
        // as they are (they are brought up to date below, when a check reads them).
        if n == 2 && !self.pair_tables {
            let (a, b) = (self.cages[set[0]], self.cages[set[1]]);
            if self.state.layout().linked(a, b) {
                return self.direct_pair(a, b);
            }
        }
        for &x in set {
            let cage = self.cages[x];
            let changed_at = self.changed_at[cage.index()];
            self.cache
                .refresh_list(self.state, cage, self.clock, changed_at, self.budget)?;
        }
        for (k, &x) in set.iter().enumerate() {
            self.offset[k + 1] = self.offset[k] + self.list(x).live.len();
        }
        let width = self.offset[n];
        self.supported.clear();
        resize_within(&mut self.supported, width, 0, self.budget)?;

        let layout = self.state.layout();
        if n == 2 {
            let (a, b) = (self.cages[set[0]], self.cages[set[1]]);
            if layout.linked(a, b) {
                self.cache
                    .refresh_pair(layout, a, b, self.clock, self.budget)?;
                self.pair_support(set, self.cache.pair_slot(a, b))?;
                return Ok(self.cuts(set));
            }
        }
        // links[k][j]: the pair table slot of set cages k, j when they are linked.
        let mut links = [[usize::MAX; 8]; 8];
        for k in 0..n {
            for j in 0..n {
                let (a, b) = (self.cages[set[k]], self.cages[set[j]]);
                if j != k && layout.linked(a, b) {
                    self.cache
                        .refresh_pair(layout, a, b, self.clock, self.budget)?;
                    links[k][j] = self.cache.pair_slot(a, b);
                }
            }
        }

        // Depth 0: every live combination of every cage; deeper depths are written
        // before they are read.
        self.domains.clear();
        resize_within(&mut self.domains, (n + 1) * width, 0, self.budget)?;
        for (k, &x) in set.iter().enumerate() {
            let live = &self.cache.lists[self.cages[x].index()].live;
            self.domains[self.offset[k]..self.offset[k + 1]].copy_from_slice(live);
        }
        self.chosen = [u32::MAX; 8];

        // Leads with the fewest combinations first: the search then leaves the cages
        // with the most for last, where whole domains are supported at once (see
        // `last_two`), so few searches cover the large cages.
        let mut leads: [usize; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
        leads[..n].sort_by_key(|&k| self.list(set[k]).live_count);
        for &lead in &leads[..n] {
            for w in 0..self.offset[lead + 1] - self.offset[lead] {
                let open =
                    self.domains[self.offset[lead] + w] & !self.supported[self.offset[lead] + w];
                for b in bits::ones(open) {
                    let a = w * 64 + b;
                    if self.supported[self.offset[lead] + a / 64] & (1 << (a % 64)) != 0 {
                        continue;
                    }
                    self.chosen = [u32::MAX; 8];
                    if self.choose(&links[..n], 0, lead, a as u32) {
                        for k in 0..n {
                            let p = self.chosen[k] as usize;
                            self.supported[self.offset[k] + p / 64] |= 1 << (p % 64);
                        }
                    }
                    if let Some(why) = self.budget.exhausted() {
                        return Err(why);
                    }
                }
            }
        }

        Ok(self.cuts(set))
    }

    /// Marks the supported combinations of a linked pair (`slot`: its pair table)
    /// without a search: a combination of the first cage is supported when its
    /// table row is not empty, one of the second when some row holds it.
    fn pair_support(&mut self, set: &[usize], slot: usize) -> Result<(), Exhausted> {
        let table = &self.cache.pairs[slot].1;
        let live_a = &self.cache.lists[self.cages[set[0]].index()].live;
        let live_b = &self.cache.lists[self.cages[set[1]].index()].live;
        let (first, second) = self.supported.split_at_mut(self.offset[1]);
        for p in bits::ones_in(live_a) {
            self.budget.spend(live_b.len() as u64)?;
            let mut any = 0;
            for ((s, &r), &l) in second.iter_mut().zip(table.row(p)).zip(live_b) {
                let r = r & l;
                *s |= r;
                any |= r;
            }
            if any != 0 {
                first[p / 64] |= 1 << (p % 64);
            }
        }
        Ok(())
    }

    /// The cuts of a linked pair checked by testing footprints directly, without a
    /// pair table, read straight off the state (positions are combination indices):
    /// a combination of the first cage looks for partners among the second's not
    /// yet supported ones (marking every one it meets), then, if it has none, for
    /// one among the rest. Once every combination of the second cage is supported,
    /// each of the first stops at its first partner, so a pair that removes
    /// nothing, the usual case, costs little more than a test per combination.
    ///
    /// Pairs are nearly every set a small grid's search checks (a 4×4 checks a
    /// handful per step), so their fixed costs are most of its cage comparisons.
    fn direct_pair(&mut self, a: CageId, b: CageId) -> Result<Vec<CageCut>, Exhausted> {
        match self.state.layout().fp_words {
            1 => self.direct_pair_in::<1>(a, b),
            2 => self.direct_pair_in::<2>(a, b),
            3 => self.direct_pair_in::<3>(a, b),
            4 => self.direct_pair_in::<4>(a, b),
            _ => self.direct_pair_in::<0>(a, b),
        }
    }

    /// [`Scratch::direct_pair`] for footprints of `W` words (0: any).
    fn direct_pair_in<const W: usize>(
        &mut self,
        a: CageId,
        b: CageId,
    ) -> Result<Vec<CageCut>, Exhausted> {
        let state = self.state;
        let layout = state.layout();
        // A cage's live words, bits past its combinations cleared.
        let live = |cage: CageId| {
            let (words, len) = state.live_words(cage);
            move |w: usize| words[w] & bits::tail_mask(len, w)
        };
        let (live_a, live_b) = (live(a), live(b));
        let (words_a, words_b) = (
            state.live_words(a).1.div_ceil(64),
            state.live_words(b).1.div_ceil(64),
        );
        self.supported.clear();
        resize_within(&mut self.supported, words_a + words_b, 0, self.budget)?;
        let (first, second) = self.supported.split_at_mut(words_a);
        // The second cage's combinations not yet supported.
        let mut open_b: u32 = (0..words_b).map(|w| live_b(w).count_ones()).sum();
        // Each cage's footprints, `stride` words each (a constant when `W` is).
        let stride = if W > 0 { W } else { layout.fp_words };
        let (fps_a, fps_b) = (layout.footprints_of(a), layout.footprints_of(b));
        let tests = std::cell::Cell::new(0u64);
        let compatible = |fa: &[u64], q: usize| {
            tests.set(tests.get() + 1);
            disjoint::<W>(fa, &fps_b[q * stride..(q + 1) * stride])
        };
        for p in (0..words_a).flat_map(|w| bits::ones(live_a(w)).map(move |b| w * 64 + b)) {
            self.budget.spend(tests.replace(0) + 1)?;
            let fa = &fps_a[p * stride..(p + 1) * stride];
            let mut found = false;
            if open_b > 0 {
                for (w, s) in second.iter_mut().enumerate() {
                    for bit in bits::ones(live_b(w) & !*s) {
                        if compatible(fa, w * 64 + bit) {
                            *s |= 1 << bit;
                            open_b -= 1;
                            found = true;
                        }
                    }
                }
            }
            if !found {
                found = second.iter().enumerate().any(|(w, &s)| {
                    bits::ones(live_b(w) & s).any(|bit| compatible(fa, w * 64 + bit))
                });
            }
            // A mask, not a branch: whether it found a partner is the data.
            first[p / 64] |= u64::from(found) << (p % 64);
        }
        let mut cuts = Vec::new();
        for (cage, supported, live) in [(a, &*first, &live_a), (b, &*second, &live_b)] {
            cuts.extend(cut_of(
                cage,
                |p| p as u32,
                state.live_count(cage),
                supported.len(),
                |w| live(w) & !supported[w],
            ));
        }
        Ok(cuts)
    }

    /// The cuts of the set: its cages' live combinations not marked supported.
    fn cuts(&self, set: &[usize]) -> Vec<CageCut> {
        let mut cuts = Vec::new();
        for (k, &x) in set.iter().enumerate() {
            let list = self.list(x);
            let supported = &self.supported[self.offset[k]..self.offset[k + 1]];
            let words = list.live.len();
            let combo = |p: usize| list.combos[p];
            cuts.extend(cut_of(self.cages[x], combo, list.live_count, words, |w| {
                list.live[w] & !supported[w]
            }));
        }
        cuts
    }

    /// Chooses position `pos` for cage `k` at `depth`, narrows the other open cages'
    /// domains into `depth + 1`, and continues; true when every cage got a choice.
    fn choose(&mut self, links: &[[usize; 8]], depth: usize, k: usize, pos: u32) -> bool {
        let n = links.len();
        let width = self.offset[n];
        // A node ANDs a row into each open cage's domain: a pass over the set's words.
        if self.out_of_budget(width as u64 + 1) {
            return false;
        }
        self.chosen[k] = pos;
        let (before, after) = self.domains.split_at_mut((depth + 1) * width);
        let (cur, next) = (&before[depth * width..], &mut after[..width]);
        let mut best: Option<(usize, u32)> = None;
        let mut open = 0;
        for (j, &link) in links[k][..n].iter().enumerate() {
            if self.chosen[j] != u32::MAX {
                continue;
            }
            open += 1;
            let words = self.offset[j]..self.offset[j + 1];
            let d = &mut next[words.clone()];
            let src = &cur[words];
            let mut count = 0u32;
            if link != usize::MAX {
                let row = self.cache.pairs[link].1.row(pos as usize);
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
        let base = (depth + 1) * width;
        // (Sets of two never get here: `unsupported` settles them directly.)
        if open == 2 {
            if self.last_two(links, base, j) {
                return true;
            }
            self.chosen[k] = u32::MAX;
            return false;
        }
        // Any choice completing the set will do; trying the combinations not yet
        // supported first makes the one found mark as many new ones as it can, so
        // fewer of them need a search of their own.
        for unsupported_pass in [true, false] {
            for w in self.offset[j]..self.offset[j + 1] {
                let pass = if unsupported_pass {
                    !self.supported[w]
                } else {
                    self.supported[w]
                };
                for b in bits::ones(self.domains[base + w] & pass) {
                    let p = ((w - self.offset[j]) * 64 + b) as u32;
                    if self.choose(links, depth + 1, j, p) {
                        return true;
                    }
                }
            }
        }
        self.chosen[k] = u32::MAX;
        false
    }

    /// The last two open cages, `j` and the other one, with their domains at `base`:
    /// every combination of `j` that leaves the other a combination completes the
    /// choice, and so does every combination of the other it leaves; all of them are
    /// marked supported. True (with one such choice in `chosen`) when there is one.
    fn last_two(&mut self, links: &[[usize; 8]], base: usize, j: usize) -> bool {
        let n = links.len();
        let o = (0..n)
            .find(|&o| o != j && self.chosen[o] == u32::MAX)
            .expect("two open cages");
        let (oj, oo) = (self.offset[j], self.offset[o]);
        let other_words = self.offset[o + 1] - oo;
        let link = links[j][o];
        let mut found = false;
        for w in 0..self.offset[j + 1] - oj {
            for b in bits::ones(self.domains[base + oj + w]) {
                let p = w * 64 + b;
                if self.out_of_budget(other_words as u64 + 1) {
                    return false;
                }
                let mut first = None;
                for x in 0..other_words {
                    let mut d = self.domains[base + oo + x];
                    if link != usize::MAX {
                        d &= self.cache.pairs[link].1.row(p)[x];
                    }
                    if d != 0 {
                        self.supported[oo + x] |= d;
                        first.get_or_insert(x as u32 * 64 + d.trailing_zeros());
                    }
                }
                if let Some(q) = first {
                    self.supported[oj + p / 64] |= 1 << (p % 64);
                    if !found {
                        found = true;
                        self.chosen[j] = p as u32;
                        self.chosen[o] = q;
                    }
                }
            }
        }
        found
    }
}

/// The cut of a cage whose positions without support are `unsupported(w)` for words
/// `w < words` (`combo`: a position's combination index; `live_count`: the cage's
/// live combinations); `None` when there is none. Counted first: most checks cut
/// nothing, and a cut's list is then allocated once at its size.
#[inline]
fn cut_of(
    cage: CageId,
    combo: impl Fn(usize) -> u32,
    live_count: usize,
    words: usize,
    unsupported: impl Fn(usize) -> u64,
) -> Option<CageCut> {
    let count: u32 = (0..words).map(|w| unsupported(w).count_ones()).sum();
    if count == 0 {
        return None;
    }
    let mut removed = Vec::with_capacity(count as usize);
    for w in 0..words {
        removed.extend(bits::ones(unsupported(w)).map(|b| combo(w * 64 + b)));
    }
    Some(CageCut {
        cage,
        before: live_count,
        after: live_count - removed.len(),
        removed,
    })
}

/// Whether two footprints share no bit. `W` is their length in words when it is
/// known at compile time (0: any), so that the usual lengths (one to four words up to
/// 9×9) compile to a few ANDs without a loop.
#[inline(always)]
fn disjoint<const W: usize>(fa: &[u64], fb: &[u64]) -> bool {
    match (fa.first_chunk::<W>(), fb.first_chunk::<W>()) {
        (Some(x), Some(y)) if W > 0 => x.iter().zip(y).fold(0, |acc, (x, y)| acc | (x & y)) == 0,
        _ => fa.iter().zip(fb).all(|(x, y)| x & y == 0),
    }
}

#[cfg(test)]
mod tests;
