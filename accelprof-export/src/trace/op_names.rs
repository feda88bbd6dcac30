use std::fmt::Write;

use accelprof_core::columns::{CopyKind, MemoryKind};

/// Kineto's name for a copy: `Memcpy HtoD (Pageable -> Device)`, or `Memcpy HtoD` when neither memory
/// kind is known.
pub fn memcpy_name(kind: CopyKind, src: MemoryKind, dst: MemoryKind) -> String {
    let mut name = String::new();
    write_memcpy_name(&mut name, kind, src, dst);
    name
}

/// Kineto's name for a set: `Memset (Device)`, or `Memset` when the memory kind is not known.
pub fn memset_name(kind: MemoryKind) -> String {
    let mut name = String::new();
    write_memset_name(&mut name, kind);
    name
}

pub(crate) fn write_memcpy_name(out: &mut String, kind: CopyKind, src: MemoryKind, dst: MemoryKind) {
    out.clear();
    let _ = write!(out, "Memcpy {}", kind.name());
    if src != MemoryKind::UNKNOWN || dst != MemoryKind::UNKNOWN {
        let _ = write!(out, " ({} -> {})", src.name(), dst.name());
    }
}

pub(crate) fn write_memset_name(out: &mut String, kind: MemoryKind) {
    out.clear();
    out.push_str("Memset");
    if kind != MemoryKind::UNKNOWN {
        let _ = write!(out, " ({})", kind.name());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_kineto() {
        assert_eq!(
            memcpy_name(CopyKind::HTOD, MemoryKind::PAGEABLE, MemoryKind::DEVICE),
            "Memcpy HtoD (Pageable -> Device)"
        );
        assert_eq!(
            memcpy_name(CopyKind::DTOH, MemoryKind::DEVICE, MemoryKind::PINNED),
            "Memcpy DtoH (Device -> Pinned)"
        );
        assert_eq!(memcpy_name(CopyKind::PTOP, MemoryKind::UNKNOWN, MemoryKind::UNKNOWN), "Memcpy PtoP");
        assert_eq!(memcpy_name(CopyKind(200), MemoryKind::UNKNOWN, MemoryKind::UNKNOWN), "Memcpy Unknown");
        assert_eq!(memset_name(MemoryKind::DEVICE), "Memset (Device)");
        assert_eq!(memset_name(MemoryKind::UNKNOWN), "Memset");
    }
}
