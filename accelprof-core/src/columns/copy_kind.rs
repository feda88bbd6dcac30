use std::fmt;

/// Direction of a memory copy. A newtype, not an enum: the vendor crate maps its raw value onto these
/// constants, and any other value stays representable (shown as `Unknown`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct CopyKind(pub u8);

impl CopyKind {
    /// Direction not known.
    pub const UNKNOWN: CopyKind = CopyKind(0);
    /// Host to device.
    pub const HTOD: CopyKind = CopyKind(1);
    /// Device to host.
    pub const DTOH: CopyKind = CopyKind(2);
    /// Host to array.
    pub const HTOA: CopyKind = CopyKind(3);
    /// Array to host.
    pub const ATOH: CopyKind = CopyKind(4);
    /// Array to array.
    pub const ATOA: CopyKind = CopyKind(5);
    /// Array to device.
    pub const ATOD: CopyKind = CopyKind(6);
    /// Device to array.
    pub const DTOA: CopyKind = CopyKind(7);
    /// Device to device (same device).
    pub const DTOD: CopyKind = CopyKind(8);
    /// Host to host.
    pub const HTOH: CopyKind = CopyKind(9);
    /// Peer to peer (device to another device).
    pub const PTOP: CopyKind = CopyKind(10);

    /// The short name Kineto uses in copy event names (`HtoD`, ...), `Unknown` for other values.
    pub fn name(self) -> &'static str {
        match self {
            CopyKind::HTOD => "HtoD",
            CopyKind::DTOH => "DtoH",
            CopyKind::HTOA => "HtoA",
            CopyKind::ATOH => "AtoH",
            CopyKind::ATOA => "AtoA",
            CopyKind::ATOD => "AtoD",
            CopyKind::DTOA => "DtoA",
            CopyKind::DTOD => "DtoD",
            CopyKind::HTOH => "HtoH",
            CopyKind::PTOP => "PtoP",
            _ => "Unknown",
        }
    }
}

impl fmt::Debug for CopyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CopyKind({}: {})", self.0, self.name())
    }
}
