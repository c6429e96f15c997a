//! [`Options`]: which techniques a run may use and how deep cage combinations may
//! go. The registry's defaults and the mode-c ladder are made in
//! [`crate::registry`], which knows the rows.

use crate::{TechniqueKind, MAX_CAGE_SET};
use kenken_model::options::{self, OptionsError};

/// Which techniques may be used and how deep cage combinations may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The enabled kinds, a bit per [`TechniqueKind::index`].
    pub(crate) enabled: u32,
    /// The largest number of cages a cage-combination step may combine (2..=8).
    pub max_depth: usize,
}

pub(crate) fn bit(kind: TechniqueKind) -> u32 {
    1 << kind.index()
}

impl Options {
    pub fn is_enabled(&self, kind: TechniqueKind) -> bool {
        kind == TechniqueKind::PROPAGATION || self.enabled & bit(kind) != 0
    }

    /// Switches a technique off (propagation cannot be switched off).
    pub fn disable(&mut self, kind: TechniqueKind) {
        self.enabled &= !bit(kind);
    }

    pub fn enable(&mut self, kind: TechniqueKind) {
        self.enabled |= bit(kind);
    }
}

/// The fewest cages a cage-combination step combines.
pub const MIN_CAGE_SET: usize = 2;

impl Options {
    /// The largest number of cages a cage-combination step may combine, checked:
    /// [`MIN_CAGE_SET`] to [`MAX_CAGE_SET`].
    pub fn checked_max_depth(option: &'static str, depth: i64) -> Result<usize, OptionsError> {
        let range = MIN_CAGE_SET as i64..=MAX_CAGE_SET as i64;
        options::count_in(option, depth, range).map(|d| d as usize)
    }
}

impl TechniqueKind {
    /// The technique that can be switched on or off (every kind but propagation)
    /// whose id is `id`; the error lists the ids there are.
    pub fn switchable(option: &'static str, id: &str) -> Result<TechniqueKind, OptionsError> {
        let switchable = || TechniqueKind::all().filter(|&k| k != TechniqueKind::PROPAGATION);
        switchable().find(|k| k.id() == id).ok_or_else(|| {
            let known: Vec<&str> = switchable().map(TechniqueKind::id).collect();
            OptionsError::new(
                option,
                format!(
                    "takes technique ids (one of: {}), not {id:?}",
                    known.join(", ")
                ),
            )
        })
    }

    /// The techniques of a list of ids, each of which may also hold several ids
    /// separated by commas (as on the command line). An empty id (`""`, or the
    /// one after the comma of `"fish,"`) is refused like any unknown one; an
    /// empty list names none.
    pub fn switchable_list(
        option: &'static str,
        ids: &[String],
    ) -> Result<Vec<TechniqueKind>, OptionsError> {
        ids.iter()
            .flat_map(|s| s.split(','))
            .map(str::trim)
            .map(|id| TechniqueKind::switchable(option, id))
            .collect()
    }
}
