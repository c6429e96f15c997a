//! Products of digits, kept as prime exponents: a line's product on a 16×16 grid is
//! 16! (about 2^44), and a slice of lines multiplies that, past any integer type,
//! while its exponents stay small.

use crate::{Digit, MAX_SIZE};
use std::fmt;

/// The primes of the digits 1..=16.
const PRIMES: [u32; 6] = [2, 3, 5, 7, 11, 13];

/// A product of digits 1..=16, as the exponents of its primes (the largest is 2's
/// in (16!)^16, 240, so a byte each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Product([u8; 6]);

impl Product {
    /// The empty product, 1.
    pub const ONE: Product = Product([0; 6]);

    /// A digit 1..=16.
    pub fn of_digit(d: Digit) -> Product {
        debug_assert!((1..=MAX_SIZE as Digit).contains(&d));
        let mut out = [0u8; 6];
        let mut d = u32::from(d);
        for (e, &p) in out.iter_mut().zip(&PRIMES) {
            while d % p == 0 {
                d /= p;
                *e += 1;
            }
        }
        Product(out)
    }

    /// The product of some digits.
    pub fn of_digits(digits: impl IntoIterator<Item = Digit>) -> Product {
        digits
            .into_iter()
            .fold(Product::ONE, |p, d| p.times(Product::of_digit(d)))
    }

    /// 1 × 2 × … × n, `count` times over (the product of `count` lines of an n×n
    /// grid).
    pub fn factorial_power(n: usize, count: usize) -> Product {
        let line = Product::of_digits((1..=n).map(|d| d as Digit));
        (0..count).fold(Product::ONE, |p, _| p.times(line))
    }

    /// `self × other` (exponents saturate at 255, beyond any slice's product).
    pub fn times(self, other: Product) -> Product {
        let mut out = self.0;
        for (a, b) in out.iter_mut().zip(other.0) {
            *a = a.saturating_add(b);
        }
        Product(out)
    }

    /// `self / other` when `other` divides it.
    pub fn divided_by(self, other: Product) -> Option<Product> {
        let mut out = self.0;
        for (a, b) in out.iter_mut().zip(other.0) {
            *a = a.checked_sub(b)?;
        }
        Some(Product(out))
    }

    /// Whether `self` divides `other`.
    pub fn divides(self, other: Product) -> bool {
        self.0.iter().zip(other.0).all(|(&a, b)| a <= b)
    }

    /// The product as an integer, when it fits.
    pub fn value(self) -> Option<u128> {
        let mut v: u128 = 1;
        for (&e, &p) in self.0.iter().zip(&PRIMES) {
            for _ in 0..e {
                v = v.checked_mul(u128::from(p))?;
            }
        }
        Some(v)
    }
}

impl fmt::Display for Product {
    /// The integer (`720`), or when it does not fit 128 bits its factors
    /// (`2^240·3^96·…`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(v) = self.value() {
            return write!(f, "{v}");
        }
        let mut first = true;
        for (&e, &p) in self.0.iter().zip(&PRIMES) {
            if e > 0 {
                if !first {
                    f.write_str("·")?;
                }
                write!(f, "{p}^{e}")?;
                first = false;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_multiply_and_divide_as_integers() {
        assert_eq!(Product::of_digit(12).value(), Some(12));
        assert_eq!(Product::of_digits([3, 4, 5]).value(), Some(60));
        assert_eq!(Product::factorial_power(6, 2).value(), Some(720 * 720));
        let whole = Product::factorial_power(4, 1);
        let part = Product::of_digits([2, 3]);
        assert_eq!(whole.divided_by(part).and_then(Product::value), Some(4));
        assert_eq!(part.divided_by(whole), None);
        assert!(part.divides(whole));
        assert!(!whole.divides(part));
        assert_eq!(Product::ONE.to_string(), "1");
        let huge = Product::factorial_power(16, 16);
        assert_eq!(huge.value(), None);
        assert!(huge.to_string().starts_with("2^240·3^96·5^48"), "{huge}");
    }
}
