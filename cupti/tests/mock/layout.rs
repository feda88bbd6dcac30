//! Record field offsets measured with gcc on the CUDA 12.9 and 13.0 headers (`offsetof`), to
//! read the mock's records independently of the generated Rust structs.

pub fn u8_at(r: &[u8], off: usize) -> u8 {
    r[off]
}

pub fn u16_at(r: &[u8], off: usize) -> u16 {
    u16::from_ne_bytes(r[off..off + 2].try_into().expect("2 bytes"))
}

pub fn u32_at(r: &[u8], off: usize) -> u32 {
    u32::from_ne_bytes(r[off..off + 4].try_into().expect("4 bytes"))
}

pub fn u64_at(r: &[u8], off: usize) -> u64 {
    u64::from_ne_bytes(r[off..off + 8].try_into().expect("8 bytes"))
}

/// The C string a record's `const char*` field at `off` points to.
pub fn str_at(r: &[u8], off: usize) -> Option<String> {
    let p = u64_at(r, off) as usize as *const std::ffi::c_char;
    // SAFETY: the mock's record strings are interned for the life of the process.
    (!p.is_null()).then(|| unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

pub fn kind(r: &[u8]) -> u32 {
    u32_at(r, 0)
}

pub mod kinds {
    pub const MEMCPY: u32 = 1;
    pub const MEMSET: u32 = 2;
    pub const KERNEL: u32 = 3;
    pub const DRIVER: u32 = 4;
    pub const RUNTIME: u32 = 5;
    pub const CONCURRENT_KERNEL: u32 = 10;
    pub const MARKER: u32 = 12;
    pub const SYNCHRONIZATION: u32 = 38;
    pub const EXTERNAL_CORRELATION: u32 = 39;
    pub const MEMORY2: u32 = 49;
}

/// `CUpti_ActivityKernel9` (12.9, 208 bytes) and `Kernel10` (13.0, 216 bytes) share these.
pub mod kernel {
    pub const SIZE_12_9: usize = 208;
    pub const SIZE_13_0: usize = 216;
    pub const REGISTERS: usize = 6;
    pub const START: usize = 16;
    pub const END: usize = 24;
    pub const COMPLETED: usize = 32;
    pub const DEVICE: usize = 40;
    pub const CONTEXT: usize = 44;
    pub const STREAM: usize = 48;
    pub const GRID_X: usize = 52;
    pub const GRID_Y: usize = 56;
    pub const GRID_Z: usize = 60;
    pub const BLOCK_X: usize = 64;
    pub const BLOCK_Y: usize = 68;
    pub const BLOCK_Z: usize = 72;
    pub const DYNAMIC_SHARED: usize = 80;
    pub const CORRELATION: usize = 92;
    pub const NAME: usize = 104;
}

/// `CUpti_ActivityMemcpy6`, 96 bytes.
pub mod memcpy {
    pub const SIZE: usize = 96;
    pub const COPY_KIND: usize = 4;
    pub const SRC_KIND: usize = 5;
    pub const DST_KIND: usize = 6;
    pub const FLAGS: usize = 7;
    pub const BYTES: usize = 8;
    pub const START: usize = 16;
    pub const END: usize = 24;
    pub const STREAM: usize = 40;
    pub const CORRELATION: usize = 44;
    pub const COPY_COUNT: usize = 88;
}

/// `CUpti_ActivityMemset4`, 88 bytes.
pub mod memset {
    pub const SIZE: usize = 88;
    pub const VALUE: usize = 4;
    pub const BYTES: usize = 8;
    pub const STREAM: usize = 40;
    pub const CORRELATION: usize = 44;
    pub const FLAGS: usize = 48;
    pub const MEMORY_KIND: usize = 50;
}

/// `CUpti_ActivityAPI`, 40 bytes.
pub mod api {
    pub const SIZE: usize = 40;
    pub const CBID: usize = 4;
    pub const START: usize = 8;
    pub const END: usize = 16;
    pub const PROCESS: usize = 24;
    pub const THREAD: usize = 28;
    pub const CORRELATION: usize = 32;
    pub const RETURN_VALUE: usize = 36;
}

/// `CUpti_ActivitySynchronization2`, 56 bytes.
pub mod sync {
    pub const SIZE: usize = 56;
    pub const TYPE: usize = 4;
    pub const START: usize = 8;
    pub const END: usize = 16;
    pub const CORRELATION: usize = 24;
    pub const CONTEXT: usize = 28;
    pub const STREAM: usize = 32;
    pub const EVENT: usize = 36;
}

/// `CUpti_ActivityExternalCorrelation`, 24 bytes.
pub mod external {
    pub const SIZE: usize = 24;
    pub const KIND: usize = 4;
    pub const ID: usize = 8;
    pub const CORRELATION: usize = 16;
}

/// `CUpti_ActivityMarker2`, 56 bytes.
pub mod marker {
    pub const SIZE: usize = 56;
    pub const FLAGS: usize = 4;
    pub const TIMESTAMP: usize = 8;
    pub const ID: usize = 16;
    pub const OBJECT_KIND: usize = 20;
    pub const OBJECT_PROCESS: usize = 24;
    pub const NAME: usize = 40;
    pub const DOMAIN: usize = 48;
}

/// `CUpti_ActivityMemory4`, 128 bytes.
pub mod memory {
    pub const SIZE: usize = 128;
    pub const OPERATION: usize = 4;
    pub const MEMORY_KIND: usize = 8;
    pub const CORRELATION: usize = 12;
    pub const ADDRESS: usize = 16;
    pub const BYTES: usize = 24;
}
