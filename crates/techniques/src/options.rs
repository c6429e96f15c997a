//! [`Options`]: which techniques a run may use and how deep cage combinations may
//! go. The registry's defaults and the mode-c ladder are made in
//! [`crate::registry`], which knows the rows.

use crate::TechniqueKind;

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
