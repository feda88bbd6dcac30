use std::fmt;

/// Kind of memory on one side of a copy or set. A newtype: the vendor crate maps its raw value onto these
/// constants; any other value stays representable (shown as `Unknown`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct MemoryKind(pub u8);

impl MemoryKind {
    /// Not known.
    pub const UNKNOWN: MemoryKind = MemoryKind(0);
    /// Pageable host memory.
    pub const PAGEABLE: MemoryKind = MemoryKind(1);
    /// Pinned (page-locked) host memory.
    pub const PINNED: MemoryKind = MemoryKind(2);
    /// Device memory.
    pub const DEVICE: MemoryKind = MemoryKind(3);
    /// Array memory.
    pub const ARRAY: MemoryKind = MemoryKind(4);
    /// Managed (unified) memory.
    pub const MANAGED: MemoryKind = MemoryKind(5);
    /// Static device memory.
    pub const DEVICE_STATIC: MemoryKind = MemoryKind(6);
    /// Static managed memory.
    pub const MANAGED_STATIC: MemoryKind = MemoryKind(7);

    /// The name Kineto uses in copy event names (`Pageable`, `Device`, ...), `Unknown` for other values.
    pub fn name(self) -> &'static str {
        match self {
            MemoryKind::PAGEABLE => "Pageable",
            MemoryKind::PINNED => "Pinned",
            MemoryKind::DEVICE => "Device",
            MemoryKind::ARRAY => "Array",
            MemoryKind::MANAGED => "Managed",
            MemoryKind::DEVICE_STATIC => "Device Static",
            MemoryKind::MANAGED_STATIC => "Managed Static",
            _ => "Unknown",
        }
    }
}

impl fmt::Debug for MemoryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MemoryKind({}: {})", self.0, self.name())
    }
}
