use crate::intern::NameId;

record_family! {
    /// Host API calls: CUDA runtime/driver, HIP, HSA, ACL, HCCL, ...
    columns ApiColumns;
    /// One API call.
    row ApiRow {
        /// Start, ns on the vendor's clock.
        start: u64,
        /// End, ns on the vendor's clock.
        end: u64,
        /// Process id.
        process: u32,
        /// Thread id (as the vendor reports it).
        thread: u64,
        /// Correlation id linking the call to the device work it launched.
        correlation: u64,
        /// The vendor's raw domain/kind of the call (e.g. runtime vs driver); the vendor crate names it.
        domain: u32,
        /// The vendor's raw callback/operation id within the domain.
        cbid: u32,
        /// The call's name (e.g. `cudaLaunchKernel`).
        name: NameId,
    }
}
