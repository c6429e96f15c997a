//! What to generate: the grid, the rating band, the cage rules and the ladder's
//! options, checked once before any search.

use crate::GenerateError;
use kenken_model::{Op, MAX_SIZE, MIN_SIZE};
use kenken_techniques::{Options, Rating, TechniqueKind};
use std::fmt;
use std::ops::RangeInclusive;

/// The largest grid Tatham's Keen plays.
pub const STRICT_MAX_SIZE: usize = 9;

/// A set of clue operations (`--ops`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpSet {
    pub add: bool,
    pub sub: bool,
    pub mul: bool,
    pub div: bool,
}

impl OpSet {
    pub const ALL: OpSet = OpSet {
        add: true,
        sub: true,
        mul: true,
        div: true,
    };

    /// From symbols: `+`, `-`, `*` (or `x`), `/`; `None` for any other character.
    pub fn parse(symbols: &str) -> Option<OpSet> {
        let mut set = OpSet {
            add: false,
            sub: false,
            mul: false,
            div: false,
        };
        for c in symbols.chars() {
            match c {
                '+' => set.add = true,
                '-' => set.sub = true,
                '*' | 'x' | 'X' => set.mul = true,
                '/' => set.div = true,
                _ => return None,
            }
        }
        Some(set)
    }

    pub fn contains(self, op: Op) -> bool {
        match op {
            Op::Add => self.add,
            Op::Sub => self.sub,
            Op::Mul => self.mul,
            Op::Div => self.div,
            Op::Given | Op::Hidden => true,
        }
    }

    pub fn is_empty(self) -> bool {
        !(self.add || self.sub || self.mul || self.div)
    }
}

impl fmt::Display for OpSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (on, c) in [
            (self.add, '+'),
            (self.sub, '-'),
            (self.mul, '*'),
            (self.div, '/'),
        ] {
            if on {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// The shapes and clues a puzzle may have.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    /// Operations clues may use.
    pub ops: OpSet,
    /// Tatham's rules: − and ÷ on two-cell cages only.
    pub strict: bool,
    /// The sizes of cages of two or more cells.
    pub cage_sizes: RangeInclusive<usize>,
    /// The most single-cell cages (givens).
    pub max_givens: usize,
    /// The largest mean number of cells per cage. Searches towards hard bands
    /// merge cages, and without a bound drift to a few giant cages, far from the
    /// look of Tatham's puzzles (a mean of about 2.25 at every size).
    pub max_mean_cage_size: f64,
}

/// A generation request. Build it with [`Request::new`], change the public fields,
/// then let [`Request::check`] (called by the generator) validate it.
#[derive(Clone, Debug)]
pub struct Request {
    /// The grid size, 3..=16 (3..=9 with strict rules).
    pub size: usize,
    /// The lowest max rating wanted.
    pub min: Rating,
    /// The highest max rating wanted (None: no upper bound).
    pub max: Option<Rating>,
    pub rules: Rules,
    /// KenDoku: boxes as extra regions (shape from [`box_shape`]).
    pub kendoku: bool,
    /// Whether the puzzles show only their clues: unique, and rated, with every
    /// operation hidden (the clues still come from the operations of `rules`).
    pub hide_ops: bool,
    /// Techniques the solve path must use.
    pub require: Vec<TechniqueKind>,
    /// Techniques the solve path must not use.
    pub forbid: Vec<TechniqueKind>,
    /// The ladder the grader runs (mode n); mode c runs with the same depth.
    pub options: Options,
    /// Whether each puzzle gets mode c's depth ([`Generated::depth`]): one more
    /// grading per puzzle kept, which on a large grid can cost as much as the
    /// search that found it.
    ///
    /// [`Generated::depth`]: crate::Generated::depth
    pub mode_c_depth: bool,
    /// Mutations one attempt tries before it gives up.
    pub steps: usize,
    /// The work units (see [`kenken_model::Budget`]) one candidate's solution
    /// count, and separately its grading, may spend. A work limit, unlike a
    /// deadline, stops a candidate at the same point on every machine and every
    /// run, so results stay deterministic.
    pub work_per_candidate: u64,
}

impl Request {
    /// A request for `size`×`size` puzzles rated in `[min, max]` with the default
    /// rules: every operation, lenient (− and ÷ on larger cages too), cages of 2 to
    /// 5 cells, at most one given.
    pub fn new(size: usize, min: Rating, max: Option<Rating>) -> Request {
        Request {
            size,
            min,
            max,
            rules: Rules {
                ops: OpSet::ALL,
                strict: false,
                cage_sizes: 2..=5,
                max_givens: 1,
                max_mean_cage_size: 2.4,
            },
            kendoku: false,
            hide_ops: false,
            require: Vec::new(),
            forbid: Vec::new(),
            options: Options::default(),
            mode_c_depth: true,
            steps: default_steps(size),
            work_per_candidate: 1 << 28,
        }
    }

    /// The KenDoku box shape (rows, cols), when asked for.
    pub fn boxes(&self) -> Option<(usize, usize)> {
        if self.kendoku {
            box_shape(self.size)
        } else {
            None
        }
    }

    /// Whether a max rating lies in the band.
    pub fn in_band(&self, rating: Rating) -> bool {
        rating >= self.min && self.max.is_none_or(|m| rating <= m)
    }

    /// How far a max rating lies from the band, in tenths (0 inside).
    pub fn distance(&self, rating: Rating) -> u32 {
        if rating < self.min {
            self.min.0 - rating.0
        } else {
            self.max.map_or(0, |m| rating.0.saturating_sub(m.0))
        }
    }

    /// Checks the request; the generator calls it before searching.
    pub fn check(&self) -> Result<(), GenerateError> {
        let (min, max, why) = if self.rules.strict {
            (MIN_SIZE, STRICT_MAX_SIZE, " (Tatham's Keen, --strict)")
        } else {
            (MIN_SIZE, MAX_SIZE, "")
        };
        if !(min..=max).contains(&self.size) {
            return Err(GenerateError::Size {
                size: self.size as i64,
                min,
                max,
                why,
            });
        }
        if let Some(m) = self.max {
            if m < self.min {
                return Err(GenerateError::EmptyBand {
                    min: self.min.to_string(),
                    max: m.to_string(),
                });
            }
        }
        let (lo, hi) = (*self.rules.cage_sizes.start(), *self.rules.cage_sizes.end());
        let cells = self.size * self.size;
        if lo < 2 || hi < lo || hi > cells {
            return Err(GenerateError::CageSizes { lo, hi, cells });
        }
        // The most cages a layout can have: every given allowed, the rest in the
        // smallest multi-cell cages.
        let givens = self.rules.max_givens.min(cells);
        let most_cages = givens + (cells - givens) / lo;
        let least = cells as f64 / most_cages as f64;
        if self.rules.max_mean_cage_size < least {
            return Err(GenerateError::MeanCageSize {
                asked: self.rules.max_mean_cage_size,
                least,
                size: self.size,
                givens,
                lo,
            });
        }
        if self.rules.ops.is_empty() {
            return Err(GenerateError::NoOps);
        }
        if self.rules.strict && !self.rules.ops.add && !self.rules.ops.mul && lo > 2 {
            return Err(GenerateError::NoOpForCageSizes {
                ops: self.rules.ops.to_string(),
                lo,
            });
        }
        if self.kendoku {
            if self.rules.strict {
                return Err(GenerateError::StrictKendoku);
            }
            if box_shape(self.size).is_none() {
                return Err(GenerateError::NoBoxes { size: self.size });
            }
        }
        for t in &self.require {
            if self.forbid.contains(t) {
                return Err(GenerateError::RequiredAndForbidden(t.id()));
            }
            if !self.options.is_enabled(*t) {
                return Err(GenerateError::RequiredButDisabled(t.id()));
            }
        }
        Ok(())
    }

    /// The largest multi-cell cage the rules and operations allow: with strict
    /// rules and neither + nor ×, only two-cell cages get a clue.
    pub fn largest_cage(&self) -> usize {
        let hi = *self.rules.cage_sizes.end();
        if self.rules.strict && !self.rules.ops.add && !self.rules.ops.mul {
            hi.min(2)
        } else {
            hi
        }
    }
}

/// Mutations per attempt: enough to walk from a random layout to the rare bands
/// at each size, few enough that a hopeless attempt gives way to a fresh one. A
/// 5×5 gets more than its cell count suggests: on so small a grid most steps come
/// back to a candidate already judged, which costs next to nothing, and its rare
/// bands (4.6, 4.8) are found half as often a second with 4 000 steps as with
/// 8 000. A 4×4's walk settles within a few hundred steps on the few puzzles near
/// it, and a fresh solution and layout does better (1 200 steps find a third
/// fewer 4.4s a second than 600).
fn default_steps(size: usize) -> usize {
    match size {
        ..=4 => 600,
        5 => 8000,
        _ => 40 * size * size,
    }
}

/// The KenDoku box shape (rows, cols) of a grid: the most square factorisation
/// with at least two rows and two columns per box, rows ≤ cols (2×3 on a 6×6, as
/// SudokuWiki's D6C).
pub fn box_shape(size: usize) -> Option<(usize, usize)> {
    (2..=size)
        .filter(|r| size.is_multiple_of(*r) && r * r <= size && size / r >= 2)
        .max()
        .map(|r| (r, size / r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_shapes() {
        assert_eq!(box_shape(4), Some((2, 2)));
        assert_eq!(box_shape(6), Some((2, 3)));
        assert_eq!(box_shape(8), Some((2, 4)));
        assert_eq!(box_shape(9), Some((3, 3)));
        assert_eq!(box_shape(12), Some((3, 4)));
        assert_eq!(box_shape(7), None);
        assert_eq!(box_shape(3), None);
    }

    #[test]
    fn op_sets_parse_and_print() {
        assert_eq!(OpSet::parse("+-*/"), Some(OpSet::ALL));
        assert_eq!(OpSet::parse("x+").unwrap().to_string(), "+*");
        assert_eq!(OpSet::parse("+%"), None);
    }

    #[test]
    fn bad_requests_are_refused() {
        let ok = Request::new(6, Rating(40), Some(Rating(44)));
        assert!(ok.check().is_ok());
        let mut r = ok.clone();
        r.max = Some(Rating(30));
        assert!(matches!(r.check(), Err(GenerateError::EmptyBand { .. })));
        let mut r = ok.clone();
        r.size = 12;
        r.rules.strict = true;
        assert!(matches!(r.check(), Err(GenerateError::Size { .. })));
        let mut r = ok.clone();
        r.size = 7;
        r.kendoku = true;
        assert!(matches!(r.check(), Err(GenerateError::NoBoxes { .. })));
        let mut r = ok;
        r.require = vec![TechniqueKind::from_id("fish").unwrap()];
        r.forbid = vec![TechniqueKind::from_id("fish").unwrap()];
        assert!(r.check().is_err());
    }

    #[test]
    fn distance_to_the_band() {
        let r = Request::new(6, Rating(44), Some(Rating(46)));
        assert_eq!(r.distance(Rating(40)), 4);
        assert_eq!(r.distance(Rating(45)), 0);
        assert_eq!(r.distance(Rating(50)), 4);
        assert_eq!(Request::new(6, Rating(44), None).distance(Rating(80)), 0);
    }
}
