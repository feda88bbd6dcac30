//! Names stored once, referred to by a small id.
//!
//! Kernel, API and marker names repeat millions of times in a trace; the decode thread interns each
//! distinct name once ([`Interner`], owned by that thread) and the columns carry a [`NameId`]. Consumers
//! turn ids back into strings with [`Names`], a cheap, `Send + Sync` read handle that other threads may use
//! while the decode thread keeps interning (reads take no lock).

mod interner;
mod name_id;
mod names;

pub use interner::Interner;
pub use name_id::NameId;
pub use names::Names;
