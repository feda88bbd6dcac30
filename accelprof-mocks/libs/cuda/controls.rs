// The mock CUDA driver's controls, declared once: `lib.rs` of the mock checks each against the
// function it defines (a different signature does not compile), and `accelprof-mocks`'s
// `src/cuda.rs` resolves them at `MockCuda::open` with these signatures. `pub`: a safe method of
// `MockCuda` of the same name; `raw`: called through a method written by hand.
mock_controls! {
    /// `cuInit(flags)`, as the program's CUDA runtime calls it.
    raw fn cu_init = cuInit(flags: c_uint) -> c_int;
    /// Back to a freshly loaded driver: not initialized, one device.
    pub fn reset = mock_cuda_reset();
    /// The number of devices the driver reports (clamped to 0..=64).
    raw fn set_device_count = mock_cuda_set_device_count(count: c_int);
    /// Whether `cuInit` was called since the last reset (1/0).
    raw fn is_initialized = mock_cuda_is_initialized() -> c_int;
}
