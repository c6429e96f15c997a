//! [`TechniqueKind`], the name of a row of the technique registry. It is defined
//! apart from the registry so that the options and the techniques can name kinds
//! without depending on the table that lists the techniques themselves; what needs
//! the table (its id, name, rating rule) is implemented in [`crate::registry`].

/// A kind of step: a row of [`REGISTRY`](crate::registry::REGISTRY).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TechniqueKind(pub(crate) u8);

impl TechniqueKind {
    /// Propagation's kind (naked singles): the registry's first row.
    pub const PROPAGATION: TechniqueKind = TechniqueKind(0);

    /// Its place in the registry (0 for propagation).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
