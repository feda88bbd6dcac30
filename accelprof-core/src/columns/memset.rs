use super::MemoryKind;

record_family! {
    /// Memory sets executed by a device.
    columns MemsetColumns;
    /// One memory set.
    row MemsetRow {
        /// Start, ns on the vendor's clock.
        start: u64,
        /// End, ns on the vendor's clock.
        end: u64,
        /// Device.
        device: u32,
        /// Context (0 where the vendor has none).
        context: u32,
        /// Stream or queue id.
        stream: u64,
        /// Correlation id linking the set to its API call.
        correlation: u64,
        /// Bytes set.
        bytes: u64,
        /// The value written.
        value: u32,
        /// Kind of the memory set (`MemoryKind::UNKNOWN` where the vendor does not say).
        memory_kind: MemoryKind,
    }
}
