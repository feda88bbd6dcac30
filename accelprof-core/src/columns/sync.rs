use crate::intern::NameId;

record_family! {
    /// Synchronizations (stream, event, context, device).
    columns SyncColumns;
    /// One synchronization.
    row SyncRow {
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
        /// Correlation id linking it to its API call.
        correlation: u64,
        /// The vendor's raw synchronization type.
        sync_type: u32,
        /// Event id/handle waited on (0 when none).
        event: u64,
        /// Display name of the synchronization type (e.g. `Stream Sync`), interned once by the vendor
        /// crate; `NameId::NONE` when the vendor crate gives none.
        name: NameId,
    }
}
