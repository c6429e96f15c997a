//! Bit sets: the set bits of a word or of a run of words, and a set of small
//! indices kept inline in a few words.

use std::fmt;

/// The set bits of a word, ascending.
#[derive(Clone, Copy, Debug)]
pub struct Ones(u64);

impl Iterator for Ones {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        pop_first(&mut self.0)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Ones {}

/// Clears the lowest set bit of a word and gives its index: the step of a
/// worklist whose word grows while it is worked through (`while let Some(i) =
/// pop_first(&mut frontier) { … frontier |= new; }`).
#[inline]
pub fn pop_first(word: &mut u64) -> Option<usize> {
    (*word != 0).then(|| {
        let b = word.trailing_zeros() as usize;
        *word &= *word - 1;
        b
    })
}

/// The set bits of a word, ascending.
#[inline]
pub fn ones(word: u64) -> Ones {
    Ones(word)
}

/// The set bits of a run of words (bit `b` of word `w` is index `64w + b`),
/// ascending.
#[inline]
pub fn ones_in(words: &[u64]) -> impl Iterator<Item = usize> + Clone + '_ {
    words
        .iter()
        .enumerate()
        .flat_map(|(w, &word)| ones(word).map(move |b| w * 64 + b))
}

/// Whether index `i` is set in a run of words.
#[inline]
pub fn contains(words: &[u64], i: usize) -> bool {
    words[i / 64] & (1 << (i % 64)) != 0
}

/// Sets index `i` in a run of words.
#[inline]
pub fn insert(words: &mut [u64], i: usize) {
    words[i / 64] |= 1 << (i % 64);
}

/// Clears index `i` in a run of words.
#[inline]
pub fn remove(words: &mut [u64], i: usize) {
    words[i / 64] &= !(1 << (i % 64));
}

/// How many indices are set in a run of words.
pub fn count(words: &[u64]) -> usize {
    words.iter().map(|w| w.count_ones() as usize).sum()
}

/// The bits of word `w` that lie inside a set of `len` bits (storage past the end
/// may hold anything).
#[inline]
pub fn tail_mask(len: usize, w: usize) -> u64 {
    match len.saturating_sub(w * 64) {
        n if n >= 64 => u64::MAX,
        n => (1 << n) - 1,
    }
}

/// The bits of word `w` at index `from` or later.
#[inline]
pub fn from_mask(from: usize, w: usize) -> u64 {
    match from.saturating_sub(w * 64) {
        n if n >= 64 => 0,
        n => u64::MAX << n,
    }
}

/// A set of indices below `64 × W`, kept inline: copied without an allocation.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BitSet<const W: usize>([u64; W]);

impl<const W: usize> Default for BitSet<W> {
    fn default() -> Self {
        BitSet([0; W])
    }
}

impl<const W: usize> BitSet<W> {
    /// The most indices a set holds.
    pub const CAPACITY: usize = 64 * W;

    pub fn new() -> Self {
        Self::default()
    }

    /// The set of `0..len`.
    pub fn first(len: usize) -> Self {
        let mut s = Self::default();
        for (w, word) in s.0.iter_mut().enumerate() {
            *word = tail_mask(len, w);
        }
        s
    }

    /// The set of the given indices.
    pub fn of(indices: impl IntoIterator<Item = usize>) -> Self {
        let mut s = Self::default();
        for i in indices {
            s.insert(i);
        }
        s
    }

    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        contains(&self.0, i)
    }

    #[inline]
    pub fn insert(&mut self, i: usize) {
        insert(&mut self.0, i);
    }

    /// Inserts `i` when `yes`, with a mask rather than a branch (for conditions
    /// that are the puzzle's data, which a branch would often mispredict).
    #[inline]
    pub fn insert_if(&mut self, i: usize, yes: bool) {
        self.0[i / 64] |= u64::from(yes) << (i % 64);
    }

    #[inline]
    pub fn remove(&mut self, i: usize) {
        remove(&mut self.0, i);
    }

    pub fn len(&self) -> usize {
        count(&self.0)
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The indices, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + Clone + '_ {
        ones_in(&self.0)
    }

    /// The indices at `from` or later.
    pub fn from(&self, from: usize) -> Self {
        let mut s = *self;
        for (w, word) in s.0.iter_mut().enumerate() {
            *word &= from_mask(from, w);
        }
        s
    }

    /// Takes the first index at `from` or later out of the set.
    #[inline]
    pub fn take_from(&mut self, from: usize) -> Option<usize> {
        let mut w = from / 64;
        let mut word = *self.0.get(w)? & from_mask(from, w);
        loop {
            if word != 0 {
                let b = word.trailing_zeros() as usize;
                self.0[w] &= !(1 << b);
                return Some(w * 64 + b);
            }
            w += 1;
            word = *self.0.get(w)?;
        }
    }

    pub fn words(&self) -> &[u64; W] {
        &self.0
    }

    pub fn words_mut(&mut self) -> &mut [u64; W] {
        &mut self.0
    }

    pub fn union(&self, other: &Self) -> Self {
        let mut s = *self;
        for (a, b) in s.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        s
    }

    pub fn intersection(&self, other: &Self) -> Self {
        let mut s = *self;
        for (a, b) in s.0.iter_mut().zip(other.0) {
            *a &= b;
        }
        s
    }

    pub fn difference(&self, other: &Self) -> Self {
        let mut s = *self;
        for (a, b) in s.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
        s
    }
}

impl<const W: usize> fmt::Debug for BitSet<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ones_of_words_and_runs() {
        assert_eq!(ones(0b1010_0001).collect::<Vec<_>>(), [0, 5, 7]);
        assert_eq!(ones(0).count(), 0);
        assert_eq!(ones(u64::MAX).len(), 64);
        let words = [1 << 63, 0, 0b11];
        assert_eq!(ones_in(&words).collect::<Vec<_>>(), [63, 128, 129]);
        assert_eq!(count(&words), 3);
        assert_eq!(tail_mask(70, 1), 0b11_1111);
        assert_eq!(tail_mask(64, 1), 0);
        assert_eq!(from_mask(66, 1), u64::MAX << 2);
        assert_eq!(from_mask(10, 1), u64::MAX);
        assert_eq!(from_mask(200, 1), 0);
    }

    #[test]
    fn sets_take_in_index_order_from_a_start() {
        for len in [0, 1, 63, 64, 65, 200, 256] {
            let all = BitSet::<4>::first(len);
            assert_eq!(all.len(), len);
            assert!(len == 0 || all.contains(len - 1));
            assert!(len == 256 || !all.contains(len));
        }
        let mut f = BitSet::<4>::of([3, 64, 70, 255]);
        assert_eq!(f.take_from(4), Some(64));
        assert_eq!(f.take_from(65), Some(70));
        assert_eq!(f.take_from(0), Some(3));
        assert_eq!(f.take_from(0), Some(255));
        assert_eq!(f.take_from(0), None);
        assert!(f.is_empty());
        let a = BitSet::<2>::of([1, 2, 100]);
        let b = BitSet::<2>::of([2, 100, 101]);
        assert_eq!(a.intersection(&b), BitSet::of([2, 100]));
        assert_eq!(a.union(&b).len(), 4);
        assert_eq!(a.difference(&b), BitSet::of([1]));
        assert_eq!(a.from(2), BitSet::of([2, 100]));
        let mut c = BitSet::<1>::new();
        c.insert_if(5, true);
        c.insert_if(6, false);
        assert_eq!(format!("{c:?}"), "{5}");
    }
}
