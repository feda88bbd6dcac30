use crate::intern::NameId;

/// The `device` of a marker recorded on the host.
pub const HOST_DEVICE: u32 = u32::MAX;

record_family! {
    /// User markers and ranges: NVTX, ROCTx, MSTX. An instant has `end == start`.
    columns MarkerColumns;
    /// One marker or range.
    row MarkerRow {
        /// Start, ns on the vendor's clock.
        start: u64,
        /// End, ns on the vendor's clock (`== start` for an instant marker).
        end: u64,
        /// The vendor's marker/range id.
        id: u64,
        /// Process id of the thread that recorded it.
        process: u32,
        /// Thread id that recorded it.
        thread: u64,
        /// Device the range ran on, or [`HOST_DEVICE`] for a host marker.
        device: u32,
        /// Stream of a device range (0 for host markers).
        stream: u64,
        /// Domain name (NVTX domain; `NameId::NONE` for the default domain).
        domain: NameId,
        /// Message / range name.
        name: NameId,
        /// The vendor's raw flags.
        flags: u32,
    }
}
