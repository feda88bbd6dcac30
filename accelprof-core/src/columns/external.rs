record_family! {
    /// Links between the vendor's correlation ids and ids pushed by a framework (external correlation).
    columns ExternalCorrelationColumns;
    /// One link.
    row ExternalCorrelationRow {
        /// The vendor's raw external kind.
        external_kind: u32,
        /// The framework's id.
        external_id: u64,
        /// The vendor's correlation id.
        correlation: u64,
    }
}
