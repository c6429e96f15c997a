use std::fmt;

/// A digit of the grid, 1..=16.
pub type Digit = u8;

/// A set of digits 1..=16, stored as a bitmask (digit `d` is bit `d - 1`).
///
/// It is `Copy` and every operation is a couple of machine instructions, which is
/// what the solver's inner loops need: candidates of a cell, digits of a line, digits
/// used by a cage.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Digits(u16);

impl Digits {
    /// The empty set.
    pub const EMPTY: Digits = Digits(0);

    /// Every digit 1..=n.
    #[inline]
    pub fn full(n: usize) -> Digits {
        debug_assert!(n <= 16);
        Digits(((1u32 << n) - 1) as u16)
    }

    /// The set holding only `d`.
    #[inline]
    pub fn single(d: Digit) -> Digits {
        debug_assert!((1..=16).contains(&d));
        Digits(1 << (d - 1))
    }

    /// Builds a set from its raw mask (bit `d - 1` for digit `d`).
    #[inline]
    pub const fn from_bits(bits: u16) -> Digits {
        Digits(bits)
    }

    /// The raw mask (bit `d - 1` for digit `d`).
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    #[inline]
    pub fn contains(self, d: Digit) -> bool {
        self.0 & (1 << (d - 1)) != 0
    }

    #[inline]
    pub fn insert(&mut self, d: Digit) {
        self.0 |= 1 << (d - 1);
    }

    #[inline]
    pub fn remove(&mut self, d: Digit) {
        self.0 &= !(1 << (d - 1));
    }

    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The digit when the set holds exactly one.
    #[inline]
    pub fn single_digit(self) -> Option<Digit> {
        if self.0 != 0 && self.0 & (self.0 - 1) == 0 {
            Some(self.0.trailing_zeros() as Digit + 1)
        } else {
            None
        }
    }

    /// The smallest digit, if any.
    #[inline]
    pub fn min(self) -> Option<Digit> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as Digit + 1)
    }

    /// The largest digit, if any.
    #[inline]
    pub fn max(self) -> Option<Digit> {
        (self.0 != 0).then(|| 16 - self.0.leading_zeros() as Digit)
    }

    #[inline]
    pub fn union(self, other: Digits) -> Digits {
        Digits(self.0 | other.0)
    }

    #[inline]
    pub fn intersection(self, other: Digits) -> Digits {
        Digits(self.0 & other.0)
    }

    /// The digits of `self` that are not in `other`.
    #[inline]
    pub fn difference(self, other: Digits) -> Digits {
        Digits(self.0 & !other.0)
    }

    #[inline]
    pub fn is_subset(self, other: Digits) -> bool {
        self.0 & !other.0 == 0
    }

    /// The digits in ascending order.
    #[inline]
    pub fn iter(self) -> DigitsIter {
        DigitsIter(self.0)
    }
}

impl std::ops::BitOr for Digits {
    type Output = Digits;
    fn bitor(self, rhs: Digits) -> Digits {
        self.union(rhs)
    }
}

impl std::ops::BitOrAssign for Digits {
    fn bitor_assign(&mut self, rhs: Digits) {
        self.0 |= rhs.0;
    }
}

impl std::ops::BitAnd for Digits {
    type Output = Digits;
    fn bitand(self, rhs: Digits) -> Digits {
        self.intersection(rhs)
    }
}

impl std::ops::BitAndAssign for Digits {
    fn bitand_assign(&mut self, rhs: Digits) {
        self.0 &= rhs.0;
    }
}

impl FromIterator<Digit> for Digits {
    fn from_iter<I: IntoIterator<Item = Digit>>(iter: I) -> Digits {
        let mut s = Digits::EMPTY;
        for d in iter {
            s.insert(d);
        }
        s
    }
}

impl IntoIterator for Digits {
    type Item = Digit;
    type IntoIter = DigitsIter;
    fn into_iter(self) -> DigitsIter {
        self.iter()
    }
}

/// Iterator over the digits of a [`Digits`], ascending.
#[derive(Clone, Copy, Debug)]
pub struct DigitsIter(u16);

impl Iterator for DigitsIter {
    type Item = Digit;
    #[inline]
    fn next(&mut self) -> Option<Digit> {
        if self.0 == 0 {
            return None;
        }
        let d = self.0.trailing_zeros() as Digit + 1;
        self.0 &= self.0 - 1;
        Some(d)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for DigitsIter {}

impl fmt::Debug for Digits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for (i, d) in self.iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            write!(f, "{d}")?;
        }
        write!(f, "}}")
    }
}

impl fmt::Display for Digits {
    /// Digits run together (`1359`); digits above 9 are comma separated.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let wide = self.max().is_some_and(|m| m > 9);
        for (i, d) in self.iter().enumerate() {
            if wide && i > 0 {
                write!(f, ",")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_set_operations() {
        let mut s = Digits::full(6);
        assert_eq!(s.len(), 6);
        s.remove(3);
        assert!(!s.contains(3));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![1, 2, 4, 5, 6]);
        assert_eq!(s.min(), Some(1));
        assert_eq!(s.max(), Some(6));
        assert_eq!(Digits::single(16).max(), Some(16));
        assert_eq!(Digits::single(7).single_digit(), Some(7));
        assert_eq!(Digits::full(16).len(), 16);
        assert_eq!(Digits::EMPTY.single_digit(), None);
        assert_eq!(format!("{}", Digits::from_iter([1, 3, 9])), "139");
        assert_eq!(format!("{}", Digits::from_iter([1, 12])), "1,12");
    }
}
