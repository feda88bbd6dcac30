use crate::intern::NameId;

record_family! {
    /// Collective communication operations (NCCL, RCCL, HCCL).
    columns CollectiveColumns;
    /// One collective operation on one device.
    row CollectiveRow {
        /// Start, ns on the vendor's clock.
        start: u64,
        /// End, ns on the vendor's clock.
        end: u64,
        /// Device.
        device: u32,
        /// Stream or queue id.
        stream: u64,
        /// Correlation id linking the operation to its API call.
        correlation: u64,
        /// Operation name (e.g. `AllReduce`).
        name: NameId,
        /// Communicator name.
        comm_name: NameId,
        /// Element count.
        count: u64,
        /// Bytes moved.
        bytes: u64,
        /// Bandwidth in GB/s as reported (0.0 when not reported).
        bandwidth_gbps: f64,
        /// The vendor's raw data type.
        data_type: u32,
        /// Algorithm name (`NameId::NONE` when not reported).
        algorithm: NameId,
    }
}
