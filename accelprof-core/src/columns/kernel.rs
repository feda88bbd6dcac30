use crate::intern::NameId;

record_family! {
    /// Kernel executions (CUDA kernels, HIP/HSA kernel dispatches, Ascend AI-core/AI-CPU tasks).
    columns KernelColumns;
    /// One kernel execution.
    row KernelRow {
        /// Start, ns on the vendor's clock.
        start: u64,
        /// End, ns on the vendor's clock.
        end: u64,
        /// Device (GPU/NPU ordinal or agent id).
        device: u32,
        /// Context (CUDA context id; 0 where the vendor has none).
        context: u32,
        /// Stream or queue id.
        stream: u64,
        /// Correlation id linking the kernel to the API call that launched it.
        correlation: u64,
        /// Grid size in blocks, x.
        grid_x: u32,
        /// Grid size in blocks, y.
        grid_y: u32,
        /// Grid size in blocks, z.
        grid_z: u32,
        /// Block size in threads, x.
        block_x: u32,
        /// Block size in threads, y.
        block_y: u32,
        /// Block size in threads, z.
        block_z: u32,
        /// Shared (LDS) memory per block in bytes, static + dynamic.
        shared_memory: u32,
        /// Registers per thread.
        registers: u16,
        /// Kernel name (as the vendor reports it; mangled where the vendor reports it mangled).
        name: NameId,
    }
}
