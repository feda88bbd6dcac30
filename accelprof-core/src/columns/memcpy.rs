use super::{CopyKind, MemoryKind};

record_family! {
    /// Memory copies executed by a device.
    columns MemcpyColumns;
    /// One memory copy.
    row MemcpyRow {
        /// Start, ns on the vendor's clock.
        start: u64,
        /// End, ns on the vendor's clock.
        end: u64,
        /// Device that executed the copy.
        device: u32,
        /// Context (0 where the vendor has none).
        context: u32,
        /// Stream or queue id.
        stream: u64,
        /// Correlation id linking the copy to its API call.
        correlation: u64,
        /// Bytes copied.
        bytes: u64,
        /// Direction.
        copy_kind: CopyKind,
        /// Kind of the source memory (`MemoryKind::UNKNOWN` where the vendor does not say).
        src_kind: MemoryKind,
        /// Kind of the destination memory (`MemoryKind::UNKNOWN` where the vendor does not say).
        dst_kind: MemoryKind,
        /// True for an asynchronous copy.
        is_async: bool,
    }
}
