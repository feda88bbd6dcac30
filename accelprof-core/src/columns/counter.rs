use crate::intern::NameId;

record_family! {
    /// Hardware counter values, one row per (dispatch, counter).
    columns CounterColumns;
    /// One counter value.
    row CounterRow {
        /// Correlation or dispatch id the value belongs to.
        correlation: u64,
        /// Device or agent.
        device: u32,
        /// Counter name.
        counter: NameId,
        /// The value.
        value: f64,
        /// Start of the measured interval, ns on the vendor's clock.
        start: u64,
        /// End of the measured interval, ns on the vendor's clock.
        end: u64,
    }
}
