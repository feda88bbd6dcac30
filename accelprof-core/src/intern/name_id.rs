/// The id of an interned name; `NameId::NONE` (0) means "no name".
///
/// Ids are dense and given out in interning order, starting at 1. An id is only meaningful with the
/// [`Names`](super::Names) of the [`Interner`](super::Interner) that produced it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct NameId(pub u32);

impl NameId {
    /// No name (a NULL string from C, or a record without one).
    pub const NONE: NameId = NameId(0);

    /// True for [`NameId::NONE`].
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }
}
