//! The witnesses of one combination's search from the combinations' side (see
//! `cores`), indexed so that a branch finds the ones covering its cages by a
//! word-wise AND instead of a pass over every witness.
//!
//! Witnesses are numbered in the order they were met (the kept ones first). Per
//! list position, a bit set over the numbers says which witnesses cover that cage
//! (built the first time a branch adds the cage to its required ones); per depth
//! of the search, a bit set says which witnesses cover every required cage of the
//! branch at that depth. A branch one cage deeper ANDs its parent's set with the
//! cage's, and a witness grown in a branch covers the required cages of the
//! branch and of every branch above it, so it joins their sets.

use kenken_model::{bits, Budget, Exhausted};

/// A set of list positions.
pub(super) type Mask = u128;

/// The set of list position `p` alone.
pub(super) fn bit(p: usize) -> Mask {
    1 << p
}

/// The witnesses of one combination, with the sets that index them.
#[derive(Default)]
pub(super) struct WitnessTable {
    /// Each witness's cages, by number.
    masks: Vec<Mask>,
    /// Per list position, the witnesses covering it (`None`: not built yet).
    by_cage: Vec<Option<Vec<u64>>>,
    /// Per depth, the witnesses covering every required cage of the branch there.
    covering: Vec<Vec<u64>>,
    /// What the sets hold on the budget.
    reserved: usize,
}

impl WitnessTable {
    /// Starts a combination's search with `masks`, its witnesses so far, over a
    /// list of `m` positions and branches up to `depths` required cages deep.
    pub(super) fn start(
        &mut self,
        masks: Vec<Mask>,
        m: usize,
        depths: usize,
        budget: &mut Budget,
    ) -> Result<(), Exhausted> {
        self.masks = masks;
        self.by_cage.clear();
        self.by_cage.resize(m, None);
        self.covering.resize(depths + 1, Vec::new());
        let words = self.words();
        self.reserve(budget)?;
        let root = &mut self.covering[0];
        root.clear();
        root.resize(words, u64::MAX);
        if let Some(last) = root.last_mut() {
            *last = bits::tail_mask(self.masks.len(), words - 1);
        }
        Ok(())
    }

    /// Ends the search: its witnesses, the grown ones after the others.
    pub(super) fn take_masks(&mut self) -> Vec<Mask> {
        std::mem::take(&mut self.masks)
    }

    /// Gives back what the sets hold on the budget.
    pub(super) fn release(&mut self, budget: &mut Budget) {
        budget.release(self.reserved);
        self.reserved = 0;
    }

    fn words(&self) -> usize {
        self.masks.len().div_ceil(64)
    }

    /// Reserves on the budget what the sets take at the current number of
    /// witnesses (every per-cage set built, a set per depth).
    fn reserve(&mut self, budget: &mut Budget) -> Result<(), Exhausted> {
        let bytes = (self.by_cage.len() + self.covering.len()) * self.words() * 8;
        if bytes > self.reserved {
            budget.reserve(bytes - self.reserved)?;
            self.reserved = bytes;
        }
        Ok(())
    }

    /// How many witnesses cover the required cages of the branch at `depth`.
    pub(super) fn count(&self, depth: usize) -> usize {
        bits::count(&self.covering[depth])
    }

    /// The witnesses covering the required cages of the branch at `depth`, in the
    /// order they were met.
    pub(super) fn covering(&self, depth: usize) -> impl Iterator<Item = Mask> + '_ {
        bits::ones_in(&self.covering[depth]).map(|i| self.masks[i])
    }

    /// Enters the branch at `depth` that adds cage `c` to the required cages of
    /// the branch above it.
    pub(super) fn enter(&mut self, depth: usize, c: usize) {
        let words = self.words();
        let masks = &self.masks;
        let cage = self.by_cage[c].get_or_insert_with(|| {
            let mut set = vec![0u64; words];
            for (i, &w) in masks.iter().enumerate() {
                if w & bit(c) != 0 {
                    bits::insert(&mut set, i);
                }
            }
            set
        });
        let (above, below) = self.covering.split_at_mut(depth);
        let (parent, here) = (&above[depth - 1], &mut below[0]);
        here.clear();
        here.extend(parent.iter().zip(cage.iter()).map(|(p, c)| p & c));
    }

    /// Adds a witness grown in the branch at `depth`: it covers the required cages
    /// of that branch and of every branch above it.
    pub(super) fn push(
        &mut self,
        witness: Mask,
        depth: usize,
        budget: &mut Budget,
    ) -> Result<(), Exhausted> {
        let i = self.masks.len();
        self.masks.push(witness);
        let words = self.words();
        self.reserve(budget)?;
        for (c, set) in self.by_cage.iter_mut().enumerate() {
            if let Some(set) = set {
                set.resize(words, 0);
                if witness & bit(c) != 0 {
                    bits::insert(set, i);
                }
            }
        }
        for set in &mut self.covering[..=depth] {
            set.resize(words, 0);
            bits::insert(set, i);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The witnesses a branch sees are exactly those covering its required cages,
    /// in the order met, the grown ones joining every branch above; what the table
    /// reserved goes back to the budget.
    #[test]
    fn a_branch_sees_the_witnesses_covering_its_cages() {
        let mut budget = Budget::unlimited();
        let left = budget.memory_left();
        let mut table = WitnessTable::default();
        // 70 witnesses, so the sets take two words: witness i covers cage 0 when
        // i is even, cage 1 when i is a multiple of 3, and always cage 2.
        let masks: Vec<Mask> = (0..70)
            .map(|i| 0b100 | u128::from(i % 2 == 0) | (u128::from(i % 3 == 0) << 1))
            .collect();
        table.start(masks.clone(), 4, 3, &mut budget).unwrap();
        assert_eq!(table.count(0), 70);
        table.enter(1, 0);
        assert_eq!(table.count(1), 35);
        table.enter(2, 1);
        let seen: Vec<Mask> = table.covering(2).collect();
        assert_eq!(seen, vec![0b111; 12]);
        // Grown at depth 2: it covers cages 0 and 1, and joins depths 0 to 2.
        table.push(0b1011, 2, &mut budget).unwrap();
        assert_eq!(
            (table.count(0), table.count(1), table.count(2)),
            (71, 36, 13)
        );
        assert_eq!(table.covering(2).last(), Some(0b1011));
        // A sibling branch at depth 1 (cage 3) sees the grown witness only.
        table.enter(1, 3);
        assert_eq!(table.covering(1).collect::<Vec<_>>(), vec![0b1011]);
        let mut all = masks;
        all.push(0b1011);
        assert_eq!(table.take_masks(), all);
        table.release(&mut budget);
        assert_eq!(budget.memory_left(), left);
    }
}
