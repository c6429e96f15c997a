use std::fmt;
use std::iter::Sum;
use std::ops::Add;

/// A difficulty rating in tenths (1.5 is `Rating(15)`), so totals add up exactly.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Rating(pub u32);

impl Rating {
    pub const ZERO: Rating = Rating(0);

    /// From tenths.
    pub const fn tenths(t: u32) -> Rating {
        Rating(t)
    }

    /// As a float (for JSON and arithmetic by callers).
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 10.0
    }
}

impl fmt::Display for Rating {
    /// The reference's style: `0`, `1`, `1.5`, `2.1`, `12`, `28.3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_multiple_of(10) {
            write!(f, "{}", self.0 / 10)
        } else {
            write!(f, "{}.{}", self.0 / 10, self.0 % 10)
        }
    }
}

impl Add for Rating {
    type Output = Rating;
    fn add(self, rhs: Rating) -> Rating {
        Rating(self.0 + rhs.0)
    }
}

impl Sum for Rating {
    fn sum<I: Iterator<Item = Rating>>(iter: I) -> Rating {
        iter.fold(Rating::ZERO, Add::add)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_like_the_reference() {
        assert_eq!(Rating(0).to_string(), "0");
        assert_eq!(Rating(15).to_string(), "1.5");
        assert_eq!(Rating(20).to_string(), "2");
        assert_eq!(Rating(283).to_string(), "28.3");
    }
}
