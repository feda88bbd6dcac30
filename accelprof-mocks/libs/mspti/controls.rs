// The `mock_mspti_*` controls, declared once: `lib.rs` of the mock checks each against the function
// it defines (a different signature does not compile), and `accelprof-mocks`'s `src/mspti.rs`
// resolves them at `MockMspti::open` with these signatures. `pub`: a control that takes plain
// values, a safe method of `MockMspti` of the same name; `raw`: one that takes a pointer, called
// through a typed method (`&str`, `&[u8]`, a closure).
mock_controls! {
    /// Back to a freshly loaded library (no subscriber, no kinds, no callbacks, counters zero),
    /// except what the real one caches for the process: the two `LD_PRELOAD` answers.
    pub fn reset = mock_mspti_reset();
    /// Plays one API call: correlation id, ENTER, `body(arg)`, EXIT, its ACL_API record.
    raw fn api_call = mock_mspti_api_call(domain: u32, cbid: u32, name: *const c_char, body: Option<unsafe extern "C" fn(*mut c_void)>, arg: *mut c_void) -> u64;
    /// The correlation id of the innermost call being played on this thread (0 outside any).
    pub fn current_correlation = mock_mspti_current_correlation() -> u64;
    /// Takes the subscriber snapshot of a callback about to run, without running it (0: none).
    raw fn stall_callback = mock_mspti_stall_callback(domain: u32, cbid: u32, site: u32, name: *const c_char) -> u64;
    /// Runs a stalled callback now (1 if it existed).
    pub fn release_stalled = mock_mspti_release_stalled(token: u64) -> u32;
    /// An API-layout record of `kind`.
    raw fn api_record = mock_mspti_api_record(kind: u32, start: u64, end: u64, pid: u32, tid: u32, corr: u64, name: *const c_char);
    /// A kernel record.
    raw fn kernel = mock_mspti_kernel(start: u64, end: u64, device: u32, stream: u32, corr: u64, ty: *const c_char, name: *const c_char);
    /// A marker record.
    raw fn marker = mock_mspti_marker(flag: u32, source: u32, ts: u64, id: u64, a: u32, b: u32, name: *const c_char, domain: *const c_char);
    /// An HCCL record.
    raw fn hccl = mock_mspti_hccl(start: u64, end: u64, device: u32, stream: u32, bw: f64, name: *const c_char, comm: *const c_char);
    /// A memory record (`op`, `kind` as `msptiActivityMemoryOperationType` and
    /// `msptiActivityMemoryKind`).
    pub fn memory = mock_mspti_memory(op: u32, kind: u32, corr: u64, start: u64, end: u64, address: u64, bytes: u64, pid: u32, device: u32, stream: u32);
    /// A memset record.
    pub fn memset = mock_mspti_memset(value: u32, bytes: u64, start: u64, end: u64, device: u32, stream: u32, corr: u64, is_async: u8);
    /// A memcpy record (`kind` as `msptiActivityMemcpyKind`).
    pub fn memcpy = mock_mspti_memcpy(kind: u32, bytes: u64, start: u64, end: u64, device: u32, stream: u32, corr: u64, is_async: u8);
    /// A communication record.
    raw fn communication = mock_mspti_communication(data_type: u32, count: u64, device: u32, stream: u32, start: u64, end: u64, alg: *const c_char, name: *const c_char, comm: *const c_char, corr: u64);
    /// Raw bytes written as one record, whatever the kind.
    raw fn raw_record = mock_mspti_raw_record(bytes: *const u8, len: usize);
    /// Plays the lost activity manager thread of the real library (before the first activity
    /// session); 0: the default.
    raw fn lose_activity_manager = mock_mspti_lose_activity_manager(lost: u32);
    /// Delays each buffer completion by `us` microseconds (widens races).
    pub fn set_completion_delay_us = mock_mspti_set_completion_delay_us(us: u64);
    /// A counter of the mock by name (`u64::MAX`: unknown).
    raw fn counter = mock_mspti_counter(name: *const c_char) -> u64;
}
