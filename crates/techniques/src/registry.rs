//! The technique registry: every kind of step of the ladder, easiest first, with
//! its id, name, rating rule, rung, default and one-line description, and the
//! finder that looks for it. This one table drives stepping ([`crate::Ladder`]),
//! the options' switches, `grader techniques`, the command line's `--disable` and
//! `--enable` values and the rating ranges the tests check; each rating is written
//! here once, and techniques rate their steps through [`TechniqueKind::rate`].
//!
//! Adding a technique: one file under `techniques/` with its [`Technique`], one
//! row here.

use crate::options;
use crate::technique::Technique;
use crate::techniques::{
    cage_combination, claiming, fish, hidden_single, hidden_subset, pointing, region,
};
use crate::{Layout, Rating};
use crate::{Options, TechniqueKind};
use std::fmt;
use std::ops::RangeInclusive;

/// One kind of step of the ladder.
#[derive(Debug)]
pub struct TechniqueRow {
    /// The identifier on the command line (`--disable hidden-subset`).
    pub id: &'static str,
    /// The name in step logs.
    pub name: &'static str,
    /// How its steps are rated.
    pub rating: RatingRule,
    /// Its rung: the ladder tries the rungs in order, and the finders of one rung
    /// size by size (for k = 2, 3, …: every finder's steps of size k).
    pub rung: u8,
    /// Whether a ladder uses it unless told otherwise.
    pub enabled: bool,
    /// What it finds, in one sentence.
    pub summary: &'static str,
    /// What looks for its steps.
    pub finder: Finder,
}

/// What looks for a kind's steps.
#[derive(Clone, Copy)]
pub enum Finder {
    /// Propagation, run after every step; no technique of its own.
    Propagation,
    /// A technique of its own, made for each run from the puzzle's layout and
    /// told its kinds: this row's, then those of the [`Finder::Above`] rows below
    /// it.
    New(fn(&Layout, &[TechniqueKind]) -> Box<dyn Technique>),
    /// The technique of the row above (one search that finds both kinds, in the
    /// order the ladder fixes (`docs/ladder.md`)).
    Above,
}

impl fmt::Debug for Finder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Finder::Propagation => "Propagation",
            Finder::New(_) => "New",
            Finder::Above => "Above",
        })
    }
}

/// How a kind's steps are rated, in tenths; `size` is the step's size parameter
/// (subset or fish size k, unknown parts u, cages n) and `lines` the lines of a
/// region slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RatingRule {
    /// Always the same.
    Fixed(u32),
    /// `base + per × (size − from)`, at most `cap`, plus `several_lines` when the
    /// step's slice has more than one line.
    Scaled {
        /// The size parameter's letter in the rule's text.
        letter: char,
        from: usize,
        base: u32,
        per: u32,
        cap: Option<u32>,
        several_lines: u32,
    },
}

impl RatingRule {
    /// The rating of a step of this size over this many lines.
    pub fn rate(&self, size: usize, lines: usize) -> Rating {
        match *self {
            RatingRule::Fixed(t) => Rating::tenths(t),
            RatingRule::Scaled {
                from,
                base,
                per,
                cap,
                several_lines,
                ..
            } => {
                let scaled = base + per * size.saturating_sub(from) as u32;
                let extra = if lines > 1 { several_lines } else { 0 };
                Rating::tenths(cap.map_or(scaled + extra, |c| (scaled + extra).min(c)))
            }
        }
    }

    /// The lowest and (when there is one) highest rating it gives.
    pub fn range(&self) -> (Rating, Option<Rating>) {
        match *self {
            RatingRule::Fixed(t) => (Rating::tenths(t), Some(Rating::tenths(t))),
            RatingRule::Scaled {
                base,
                per,
                cap,
                several_lines,
                ..
            } => {
                let high = if per == 0 {
                    Some(base + several_lines)
                } else {
                    cap
                };
                (Rating::tenths(base), high.map(Rating::tenths))
            }
        }
    }
}

impl fmt::Display for RatingRule {
    /// `1.5`; `2 + (k−2)/10, at most 2.9`; `3 + (u−1)/5, +0.1 over several lines,
    /// at most 3.9`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RatingRule::Fixed(t) => write!(f, "{}", Rating::tenths(t)),
            RatingRule::Scaled {
                letter,
                from,
                base,
                per,
                cap,
                several_lines,
            } => {
                if per == 0 && several_lines > 0 {
                    let several = Rating::tenths(base + several_lines);
                    return write!(
                        f,
                        "{} one line, {several} several lines",
                        Rating::tenths(base)
                    );
                }
                write!(f, "{}", Rating::tenths(base))?;
                if per > 0 {
                    // per tenths = 1/(10/per): 1 → "/10", 2 → "/5", 5 → "/2".
                    match 10 % per {
                        0 => write!(f, " + ({letter}-{from})/{}", 10 / per)?,
                        _ => write!(f, " + {}({letter}-{from})", Rating::tenths(per))?,
                    }
                }
                if several_lines > 0 {
                    write!(f, ", +{} over several lines", Rating::tenths(several_lines))?;
                }
                if let Some(cap) = cap {
                    write!(f, ", at most {}", Rating::tenths(cap))?;
                }
                Ok(())
            }
        }
    }
}

/// The ladder, easiest first.
pub static REGISTRY: &[TechniqueRow] = &[
    TechniqueRow {
        id: "naked-single",
        name: "Naked single",
        rating: RatingRule::Fixed(0),
        rung: 0,
        enabled: true,
        summary: "a cell with one candidate is placed; impossible cage combinations are dropped (propagation, after every step)",
        finder: Finder::Propagation,
    },
    TechniqueRow {
        id: "hidden-single",
        name: "Hidden single",
        rating: RatingRule::Fixed(10),
        rung: 1,
        enabled: true,
        summary: "a digit with one place left in a row or column",
        finder: Finder::New(hidden_single::finder),
    },
    TechniqueRow {
        id: "claiming",
        name: "Claiming candidates",
        rating: RatingRule::Fixed(15),
        rung: 2,
        enabled: true,
        summary: "a digit whose places in a line all lie in one cage: the cage must put it there",
        finder: Finder::New(claiming::finder),
    },
    TechniqueRow {
        id: "pointing",
        name: "Pointing candidates",
        rating: RatingRule::Fixed(15),
        rung: 3,
        enabled: true,
        summary: "every combination of a cage puts a digit in a line: the rest of the line loses it",
        finder: Finder::New(pointing::finder),
    },
    TechniqueRow {
        id: "hidden-subset",
        name: "Hidden subset",
        rating: RatingRule::Scaled {
            letter: 'k',
            from: 2,
            base: 20,
            per: 1,
            cap: Some(29),
            several_lines: 0,
        },
        rung: 4,
        enabled: true,
        summary: "k digits of a line confined to k cells: those cells lose every other digit",
        finder: Finder::New(hidden_subset::finder),
    },
    TechniqueRow {
        id: "fish",
        name: "Fish",
        rating: RatingRule::Scaled {
            letter: 'k',
            from: 2,
            base: 20,
            per: 1,
            cap: Some(29),
            several_lines: 0,
        },
        rung: 4,
        enabled: true,
        summary: "a digit confined to k columns in k rows (or the reverse): X-Wing, Swordfish, Jellyfish",
        finder: Finder::New(fish::finder),
    },
    TechniqueRow {
        id: "region-sum",
        name: "Region sum",
        rating: RatingRule::Scaled {
            letter: 'u',
            from: 1,
            base: 30,
            per: 2,
            cap: Some(39),
            several_lines: 1,
        },
        rung: 5,
        enabled: true,
        summary: "a slice of lines adds up to a known total: the unknown cage parts must make up the rest",
        finder: Finder::New(region::finder),
    },
    TechniqueRow {
        id: "region-parity",
        name: "Region parity",
        rating: RatingRule::Scaled {
            letter: 'u',
            from: 1,
            base: 30,
            per: 0,
            cap: None,
            several_lines: 1,
        },
        rung: 5,
        enabled: true,
        summary: "a slice of lines whose one unknown cage part must be odd or even",
        finder: Finder::Above,
    },
    TechniqueRow {
        id: "region-product",
        name: "Region product",
        rating: RatingRule::Scaled {
            letter: 'u',
            from: 1,
            base: 30,
            per: 2,
            cap: Some(39),
            several_lines: 1,
        },
        rung: 6,
        enabled: false,
        summary: "a slice of lines multiplies to a known product: the unknown cage parts must make up the rest",
        finder: Finder::New(region::product::finder),
    },
    TechniqueRow {
        id: "cage-combination",
        name: "Cage comparison",
        rating: RatingRule::Scaled {
            letter: 'n',
            from: 2,
            base: 40,
            per: 2,
            cap: None,
            several_lines: 0,
        },
        rung: 7,
        enabled: true,
        summary: "a combination of a cage that no combination of n-1 linked cages can accompany",
        finder: Finder::New(cage_combination::finder),
    },
];

/// A band of the rating scale: the rungs it covers and what a max rating in it
/// means to a solver. Its ratings come from the rows of those rungs.
#[derive(Debug)]
pub struct Band {
    pub rungs: RangeInclusive<u8>,
    pub meaning: &'static str,
}

/// The rating scale, a band per group of rungs, easiest first.
pub static SCALE: &[Band] = &[
    Band {
        rungs: 0..=0,
        meaning: "busywork: every step is a cell with one candidate left",
    },
    Band {
        rungs: 1..=1,
        meaning: "easy: each digit in turn has one place left in a row or column",
    },
    Band {
        rungs: 2..=3,
        meaning: "moderate: cages read against lines (a line's digit must come from one cage, or a cage forces a digit into a line)",
    },
    Band {
        rungs: 4..=4,
        meaning: "tricky: several digits or lines at once (hidden pairs and triples, X-Wings, Swordfish)",
    },
    Band {
        rungs: 5..=6,
        meaning: "hard: arithmetic over whole rows and columns (a slice of lines has a known total, and the cages crossing it must make it up)",
    },
    Band {
        rungs: 7..=u8::MAX,
        meaning: "very hard: cages played against each other (a combination of one cage fits no choice of its n-1 neighbours); each cage more adds 0.2",
    },
];

impl Band {
    /// The lowest and (when there is one) highest rating of its rows.
    pub fn ratings(&self) -> (Rating, Option<Rating>) {
        let rows = || REGISTRY.iter().filter(|e| self.rungs.contains(&e.rung));
        let low = rows().map(|e| e.rating.range().0).min();
        let high = rows()
            .map(|e| e.rating.range().1)
            .try_fold(Rating::tenths(0), |m, h| h.map(|h| m.max(h)));
        (low.unwrap_or(Rating::tenths(0)), high)
    }
}

impl fmt::Display for Band {
    /// `1.5: moderate: …`, `2-2.9: …`, `4 and up: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ratings() {
            (low, Some(high)) if low == high => write!(f, "{low}")?,
            (low, Some(high)) => write!(f, "{low}-{high}")?,
            (low, None) => write!(f, "{low} and up")?,
        }
        write!(f, ": {}", self.meaning)
    }
}

impl TechniqueKind {
    /// Every kind, in ladder order.
    pub fn all() -> impl Iterator<Item = TechniqueKind> + Clone {
        (0..REGISTRY.len()).map(|i| TechniqueKind(i as u8))
    }

    /// The kind whose id is `id` (see [`TechniqueRow::id`]).
    pub fn from_id(id: &str) -> Option<TechniqueKind> {
        TechniqueKind::all().find(|k| k.id() == id)
    }

    /// Its row.
    pub fn row(self) -> &'static TechniqueRow {
        &REGISTRY[self.0 as usize]
    }

    pub fn id(self) -> &'static str {
        self.row().id
    }

    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// The rating of one of its steps of this size over this many lines.
    pub fn rate(self, size: usize, lines: usize) -> Rating {
        self.row().rating.rate(size, lines)
    }

    /// The technique that finds this kind's steps, made for a run over a puzzle of
    /// this layout, with every kind it finds ([`Finder::New`] and the
    /// [`Finder::Above`] rows below it); `None` for propagation.
    pub fn technique(self, layout: &Layout) -> Option<Box<dyn Technique>> {
        let first = (0..=self.index())
            .rev()
            .find(|&i| !matches!(REGISTRY[i].finder, Finder::Above))?;
        let Finder::New(make) = REGISTRY[first].finder else {
            return None;
        };
        let kinds: Vec<TechniqueKind> = TechniqueKind::all()
            .skip(first)
            .take_while(|k| k.index() == first || matches!(k.row().finder, Finder::Above))
            .collect();
        Some(make(layout, &kinds))
    }

    /// Whether this kind's steps are found by the technique of the row above.
    pub(crate) fn shares_technique(self) -> bool {
        matches!(self.row().finder, Finder::Above)
    }
}

impl Default for Options {
    /// The registry's defaults (see [`TechniqueRow::enabled`](crate::registry::TechniqueRow)).
    fn default() -> Options {
        let enabled = TechniqueKind::all()
            .filter(|k| k.row().enabled)
            .fold(0, |m, k| m | options::bit(k));
        Options {
            enabled,
            max_depth: 8,
        }
    }
}

impl Options {
    /// The cage-combinations-only ladder of mode c: propagation and cage
    /// combinations.
    pub fn cage_combinations_only() -> Options {
        let cages = TechniqueKind::from_id("cage-combination").expect("a registry row");
        Options {
            enabled: options::bit(TechniqueKind::PROPAGATION) | options::bit(cages),
            ..Options::default()
        }
    }
}

impl fmt::Debug for TechniqueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl fmt::Display for TechniqueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_well_formed() {
        assert!(REGISTRY.len() <= 32, "options keep the kinds in a u32");
        assert!(matches!(REGISTRY[0].finder, Finder::Propagation));
        for (i, row) in REGISTRY.iter().enumerate() {
            assert_eq!(TechniqueKind::from_id(row.id), Some(TechniqueKind(i as u8)));
            if i > 0 {
                assert!(
                    row.rung >= REGISTRY[i - 1].rung,
                    "{}: rungs in order",
                    row.id
                );
                // Propagation is only the first row, and a shared finder is the
                // one of the row above, in the same rung.
                assert!(!matches!(row.finder, Finder::Propagation), "{}", row.id);
                if matches!(row.finder, Finder::Above) {
                    assert_eq!(row.rung, REGISTRY[i - 1].rung, "{}", row.id);
                }
            }
        }
    }

    #[test]
    fn the_scale_covers_every_rung_once() {
        let mut rungs: Vec<u8> = REGISTRY.iter().map(|e| e.rung).collect();
        rungs.dedup();
        for rung in rungs {
            let bands = SCALE.iter().filter(|b| b.rungs.contains(&rung)).count();
            assert_eq!(bands, 1, "rung {rung}");
        }
        let shown: Vec<String> = SCALE
            .iter()
            .map(|b| b.to_string().split(':').next().unwrap().to_string())
            .collect();
        assert_eq!(shown, ["0", "1", "1.5", "2-2.9", "3-3.9", "4 and up"]);
    }

    #[test]
    fn rules_rate_and_read_like_the_published_scale() {
        let rule = |id| TechniqueKind::from_id(id).unwrap().row().rating;
        let t = Rating::tenths;
        assert_eq!(rule("hidden-single").rate(1, 1), t(10));
        assert_eq!(rule("hidden-subset").rate(2, 1), t(20));
        assert_eq!(rule("fish").rate(4, 1), t(22));
        assert_eq!(rule("fish").rate(16, 1), t(29));
        assert_eq!(rule("region-sum").rate(1, 1), t(30));
        assert_eq!(rule("region-sum").rate(2, 3), t(33));
        assert_eq!(rule("region-sum").rate(9, 1), t(39));
        assert_eq!(rule("region-parity").rate(1, 1), t(30));
        assert_eq!(rule("region-parity").rate(1, 2), t(31));
        assert_eq!(rule("cage-combination").rate(2, 1), t(40));
        assert_eq!(rule("cage-combination").rate(8, 1), t(52));
        assert_eq!(rule("claiming").to_string(), "1.5");
        assert_eq!(rule("fish").to_string(), "2 + (k-2)/10, at most 2.9");
        assert_eq!(
            rule("region-sum").to_string(),
            "3 + (u-1)/5, +0.1 over several lines, at most 3.9"
        );
        assert_eq!(
            rule("region-parity").to_string(),
            "3 one line, 3.1 several lines"
        );
        assert_eq!(rule("cage-combination").to_string(), "4 + (n-2)/5");
    }
}
