//! Fixed dictionaries: the shared enums' labels (keys are the raw codes) and Kineto's copy and set names.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use crate::trace::{memcpy_name, memset_name};
use accelprof_core::columns::{CopyKind, MemoryKind};
use accelprof_core::Family;
use arrow_array::types::UInt8Type;
use arrow_array::{ArrayRef, DictionaryArray, StringArray, UInt8Array};

use crate::Error;

/// The label of a copy direction code: Kineto's (`HtoD`, ...), `Unknown` for 0, `Unknown(<code>)` for a
/// code the shared enum does not name (so that every code reads back as itself).
pub fn copy_kind_label(kind: CopyKind) -> String {
    match kind.name() {
        "Unknown" if kind != CopyKind::UNKNOWN => format!("Unknown({})", kind.0),
        name => name.to_owned(),
    }
}

/// The label of a memory kind code: Kineto's (`Pageable`, `Device`, ...), `Unknown` for 0, `Unknown(<code>)`
/// for a code the shared enum does not name.
pub fn memory_kind_label(kind: MemoryKind) -> String {
    match kind.name() {
        "Unknown" if kind != MemoryKind::UNKNOWN => format!("Unknown({})", kind.0),
        name => name.to_owned(),
    }
}

/// A 256-entry dictionary (entry `i` labels code `i`) and its reverse.
#[derive(Debug)]
pub(crate) struct CodeLabels {
    pub(crate) values: ArrayRef,
    by_label: HashMap<String, u8>,
}

impl CodeLabels {
    fn new(label: impl Fn(u8) -> String) -> CodeLabels {
        let labels: Vec<String> = (0..=255u8).map(label).collect();
        let by_label = labels.iter().enumerate().map(|(i, l)| (l.clone(), i as u8)).collect();
        CodeLabels { values: Arc::new(StringArray::from(labels)), by_label }
    }

    /// A `Dictionary(UInt8, Utf8)` column whose keys are the codes.
    pub(crate) fn column(&self, codes: impl Iterator<Item = u8>) -> Result<ArrayRef, Error> {
        let keys = UInt8Array::from_iter_values(codes);
        Ok(Arc::new(DictionaryArray::<UInt8Type>::try_new(keys, Arc::clone(&self.values))?))
    }

    /// The code of a label, if it is one of ours.
    pub(crate) fn code(&self, label: &str) -> Option<u8> {
        self.by_label.get(label).copied()
    }
}

pub(crate) fn copy_kinds() -> &'static CodeLabels {
    static LABELS: OnceLock<CodeLabels> = OnceLock::new();
    LABELS.get_or_init(|| CodeLabels::new(|c| copy_kind_label(CopyKind(c))))
}

pub(crate) fn memory_kinds() -> &'static CodeLabels {
    static LABELS: OnceLock<CodeLabels> = OnceLock::new();
    LABELS.get_or_init(|| CodeLabels::new(|c| memory_kind_label(MemoryKind(c))))
}

/// Families by name (`kernel`, `memcpy`, ...): the `family` column of the events table (keys are the
/// family codes).
pub(crate) fn families() -> &'static CodeLabels {
    static LABELS: OnceLock<CodeLabels> = OnceLock::new();
    LABELS.get_or_init(|| CodeLabels::new(|c| Family(c).name().to_owned()))
}

/// Copy kinds with a distinct name (`CopyKind` names 0..=10; 11 stands for every code past them).
const KINDS: u32 = 12;
/// Memory kinds with a distinct effect on a name (`MemoryKind` 0..=7; 8 stands for every other nonzero code,
/// which reads `Unknown` but, unlike 0, still shows the `(src -> dst)` part).
const MEMORIES: u32 = 9;

fn kind_slot(kind: CopyKind) -> u32 {
    u32::from(kind.0).min(KINDS - 1)
}

fn memory_slot(kind: MemoryKind) -> u32 {
    u32::from(kind.0).min(MEMORIES - 1)
}

/// Kineto's names of copies (`Memcpy HtoD (Pageable -> Device)`): a fixed dictionary with one entry per
/// distinct name-giving combination of codes, keyed by [`memcpy_name_key`]. The same strings as the JSON
/// trace writes (built by the same function).
pub(crate) fn memcpy_names() -> &'static ArrayRef {
    static NAMES: OnceLock<ArrayRef> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names = Vec::with_capacity((KINDS * MEMORIES * MEMORIES) as usize);
        for k in 0..KINDS {
            for s in 0..MEMORIES {
                for d in 0..MEMORIES {
                    names.push(memcpy_name(CopyKind(k as u8), MemoryKind(s as u8), MemoryKind(d as u8)));
                }
            }
        }
        Arc::new(StringArray::from(names))
    })
}

pub(crate) fn memcpy_name_key(kind: CopyKind, src: MemoryKind, dst: MemoryKind) -> u32 {
    (kind_slot(kind) * MEMORIES + memory_slot(src)) * MEMORIES + memory_slot(dst)
}

/// Kineto's names of sets (`Memset (Device)`), keyed by [`memset_name_key`].
pub(crate) fn memset_names() -> &'static ArrayRef {
    static NAMES: OnceLock<ArrayRef> = OnceLock::new();
    NAMES.get_or_init(|| {
        Arc::new(StringArray::from(
            (0..MEMORIES).map(|m| memset_name(MemoryKind(m as u8))).collect::<Vec<_>>(),
        ))
    })
}

pub(crate) fn memset_name_key(kind: MemoryKind) -> u32 {
    memory_slot(kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::cast::AsArray;

    #[test]
    fn labels_are_unique_so_every_code_reads_back() {
        for labels in [copy_kinds(), memory_kinds()] {
            for code in 0..=255u8 {
                let label = labels.values.as_string::<i32>().value(code as usize).to_owned();
                assert_eq!(labels.code(&label), Some(code), "{label}");
            }
        }
        assert_eq!(copy_kind_label(CopyKind::HTOD), "HtoD");
        assert_eq!(copy_kind_label(CopyKind(200)), "Unknown(200)");
        assert_eq!(memory_kind_label(MemoryKind::PINNED), "Pinned");
    }

    #[test]
    fn copy_and_set_names_are_kinetos_for_every_code() {
        let names = memcpy_names().as_string::<i32>();
        for k in [0u8, 1, 2, 8, 10, 11, 200] {
            for s in [0u8, 1, 3, 7, 8, 99] {
                for d in [0u8, 2, 3, 8, 255] {
                    let (k, s, d) = (CopyKind(k), MemoryKind(s), MemoryKind(d));
                    assert_eq!(names.value(memcpy_name_key(k, s, d) as usize), memcpy_name(k, s, d));
                }
            }
        }
        let names = memset_names().as_string::<i32>();
        for m in [0u8, 3, 7, 8, 200] {
            assert_eq!(names.value(memset_name_key(MemoryKind(m)) as usize), memset_name(MemoryKind(m)));
        }
    }
}
