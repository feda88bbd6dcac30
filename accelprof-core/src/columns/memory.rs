record_family! {
    /// Device memory allocations and frees.
    columns MemoryColumns;
    /// One allocation or free.
    row MemoryRow {
        /// Start, ns on the vendor's clock.
        start: u64,
        /// End, ns on the vendor's clock (`== start` when the vendor reports one timestamp).
        end: u64,
        /// Device.
        device: u32,
        /// Stream or queue id (0 when none).
        stream: u64,
        /// Correlation id linking the operation to its API call.
        correlation: u64,
        /// Address allocated or freed.
        address: u64,
        /// Bytes allocated or freed.
        bytes: u64,
        /// The vendor's raw operation (alloc / free / ...).
        op: u32,
        /// The vendor's raw memory kind.
        memory_kind: u32,
        /// Process id.
        process: u32,
    }
}
