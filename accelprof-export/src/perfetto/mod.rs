//! Perfetto's native protobuf trace (feature `perfetto`).
//!
//! [`PerfettoWriter`] appends `TracePacket`s as batches arrive; [`read_perfetto`] and [`TraceSummary`] read
//! a file back with the same message definitions ([`protos`]), which are a hand-declared subset of
//! Perfetto's `trace.proto` (prost derive; no protoc at build time).

pub mod protos;
mod read;
mod tracks;
mod writer;

pub use read::{read_perfetto, TraceSummary};
pub use writer::{PerfettoOptions, PerfettoWriter};
