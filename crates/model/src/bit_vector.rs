//! A run of bits of any length kept in 64-bit words, the same on every target
//! (64-bit machines and `wasm32` alike): bit `b` of word `w` is index `64w + b`,
//! and the bits of the last word past the length are always clear, so that the
//! words can be copied, counted and compared as they are.

use crate::bits;
use std::fmt;
use std::ops::Index;

/// An owned run of bits: a cage's live combinations ([`crate::Combinations::live`]).
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct BitVector {
    words: Vec<u64>,
    len: usize,
}

impl BitVector {
    /// `len` bits, all set to `value`.
    pub fn repeat(value: bool, len: usize) -> BitVector {
        let mut v = BitVector {
            words: vec![0; len.div_ceil(64)],
            len,
        };
        v.fill(value);
        v
    }

    /// How many bits there are, set or not.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bit `i`; panics past the length, as a slice does.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.view().get(i)
    }

    /// Sets bit `i` to `value`; panics past the length.
    #[inline]
    pub fn set(&mut self, i: usize, value: bool) {
        assert!(i < self.len, "bit {i} of a run of {} bits", self.len);
        if value {
            bits::insert(&mut self.words, i);
        } else {
            bits::remove(&mut self.words, i);
        }
    }

    /// Sets every bit to `value`.
    pub fn fill(&mut self, value: bool) {
        for (w, word) in self.words.iter_mut().enumerate() {
            *word = if value {
                bits::tail_mask(self.len, w)
            } else {
                0
            };
        }
    }

    /// How many bits are set.
    pub fn count_ones(&self) -> usize {
        bits::count(&self.words)
    }

    /// The indices of the set bits, ascending.
    pub fn iter_ones(&self) -> impl Iterator<Item = usize> + Clone + '_ {
        bits::ones_in(&self.words)
    }

    /// The words (the last one's bits past the length clear).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The bits as a borrowed view.
    pub fn view(&self) -> BitView<'_> {
        BitView {
            words: &self.words,
            len: self.len,
        }
    }
}

/// A borrowed run of bits: `len` bits at the start of `words` (the bits past
/// them may hold anything).
#[derive(Clone, Copy)]
pub struct BitView<'a> {
    words: &'a [u64],
    len: usize,
}

impl<'a> BitView<'a> {
    /// The first `len` bits of `words`; panics when the words are too few.
    pub fn new(words: &'a [u64], len: usize) -> BitView<'a> {
        assert!(
            words.len() * 64 >= len,
            "{len} bits in {} words",
            words.len()
        );
        BitView { words, len }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bit `i`; panics past the length.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        assert!(i < self.len, "bit {i} of a run of {} bits", self.len);
        bits::contains(self.words, i)
    }

    /// How many of the bits are set.
    pub fn count_ones(&self) -> usize {
        self.words
            .iter()
            .enumerate()
            .map(|(w, word)| (word & bits::tail_mask(self.len, w)).count_ones() as usize)
            .sum()
    }

    /// The indices of the set bits, ascending.
    pub fn iter_ones(&self) -> impl Iterator<Item = usize> + Clone + 'a {
        let len = self.len;
        self.words.iter().enumerate().flat_map(move |(w, &word)| {
            bits::ones(word & bits::tail_mask(len, w)).map(move |b| w * 64 + b)
        })
    }
}

impl Index<usize> for BitVector {
    type Output = bool;

    fn index(&self, i: usize) -> &bool {
        if self.get(i) {
            &true
        } else {
            &false
        }
    }
}

impl Index<usize> for BitView<'_> {
    type Output = bool;

    fn index(&self, i: usize) -> &bool {
        if self.get(i) {
            &true
        } else {
            &false
        }
    }
}

impl fmt::Debug for BitVector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.view().fmt(f)
    }
}

impl fmt::Debug for BitView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bits: String = (0..self.len)
            .map(|i| if self.get(i) { '1' } else { '0' })
            .collect();
        write!(f, "[{bits}]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_keeps_the_bits_past_its_length_clear() {
        for len in [0, 1, 63, 64, 65, 130] {
            let mut v = BitVector::repeat(true, len);
            assert_eq!(v.len(), len);
            assert_eq!(v.count_ones(), len);
            assert_eq!(v.words().len(), len.div_ceil(64));
            assert_eq!(v.iter_ones().count(), len);
            v.fill(false);
            assert_eq!(v.count_ones(), 0);
            assert_eq!(v, BitVector::repeat(false, len));
            if len > 0 {
                v.set(len - 1, true);
                assert!(v[len - 1] && v.get(len - 1));
                assert_eq!(v.iter_ones().collect::<Vec<_>>(), [len - 1]);
                v.set(len - 1, false);
                assert!(!v[len - 1]);
            }
        }
    }

    #[test]
    fn a_view_reads_only_its_length() {
        let words = [u64::MAX, u64::MAX];
        let view = BitView::new(&words, 70);
        assert_eq!(view.count_ones(), 70);
        assert_eq!(view.iter_ones().last(), Some(69));
        assert!(view[69]);
        let owned = BitVector::repeat(true, 70);
        assert_eq!(owned.view().count_ones(), 70);
        assert_eq!(format!("{:?}", BitVector::repeat(true, 3)), "[111]");
    }

    #[test]
    #[should_panic(expected = "bit 3 of a run of 3 bits")]
    fn past_the_length_is_refused() {
        let _ = BitVector::repeat(false, 3)[3];
    }
}
