use accelprof_core::columns::{
    ApiRow, CollectiveRow, CopyKind, CounterRow, ExternalCorrelationRow, KernelRow, MarkerRow, MemcpyRow,
    MemoryKind, MemoryRow, MemsetRow, SyncRow,
};
use accelprof_core::intern::Interner;
use accelprof_core::{Batch, Family, NameId, Names};
use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int16Type, Int32Type, Int64Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::DataType;

use super::labels::{self, CodeLabels};
use crate::Error;

/// Turns record batches with our columns back into shared column batches: what a reader of our files uses
/// to re-export them (e.g. Parquet to Chrome JSON), and what the round-trip tests check.
///
/// Columns are found by name, so a batch read from Parquet (where dictionary keys are renumbered) or a
/// family's rows projected out of the events table both work. Names are interned into this decoder's own
/// interner: compare names by text, not by id.
#[derive(Debug, Default)]
pub struct ArrowDecoder {
    interner: Interner,
}

impl ArrowDecoder {
    /// A decoder with an empty interner.
    pub fn new() -> Self {
        ArrowDecoder::default()
    }

    /// The names of the ids this decoder gave out.
    pub fn names(&self) -> Names {
        self.interner.names()
    }

    /// Appends the rows of `rb`, records of `family`, to `out`.
    pub fn append(&mut self, family: Family, rb: &RecordBatch, out: &mut Batch) -> Result<(), Error> {
        let r = Reader { rb, interner: &mut self.interner };
        r.append(family, out)
    }
}

struct Reader<'a> {
    rb: &'a RecordBatch,
    interner: &'a mut Interner,
}

fn missing(name: &str) -> Error {
    Error::Schema(format!("column `{name}` is missing or has another type"))
}

impl Reader<'_> {
    fn col(&self, name: &str) -> Result<&ArrayRef, Error> {
        self.rb.column_by_name(name).ok_or_else(|| missing(name))
    }

    fn u64s(&self, name: &str) -> Result<Vec<u64>, Error> {
        let a = self.col(name)?.as_primitive_opt::<Int64Type>().ok_or_else(|| missing(name))?;
        Ok(a.values().iter().map(|v| *v as u64).collect())
    }

    fn u32s(&self, name: &str) -> Result<Vec<u32>, Error> {
        let a = self.col(name)?.as_primitive_opt::<Int32Type>().ok_or_else(|| missing(name))?;
        Ok(a.values().iter().map(|v| *v as u32).collect())
    }

    fn u16s(&self, name: &str) -> Result<Vec<u16>, Error> {
        let a = self.col(name)?.as_primitive_opt::<Int16Type>().ok_or_else(|| missing(name))?;
        Ok(a.values().iter().map(|v| *v as u16).collect())
    }

    fn f64s(&self, name: &str) -> Result<Vec<f64>, Error> {
        let a = self.col(name)?.as_primitive_opt::<Float64Type>().ok_or_else(|| missing(name))?;
        Ok(a.values().to_vec())
    }

    fn bools(&self, name: &str) -> Result<Vec<bool>, Error> {
        let a = self.col(name)?.as_boolean_opt().ok_or_else(|| missing(name))?;
        Ok(a.values().iter().collect())
    }

    /// The text of each row of a string column (plain or dictionary), `None` where null.
    fn strings(&self, name: &str) -> Result<Vec<Option<String>>, Error> {
        strings(self.col(name)?).ok_or_else(|| missing(name))
    }

    fn names(&mut self, name: &str) -> Result<Vec<NameId>, Error> {
        let texts = self.strings(name)?;
        Ok(texts.iter().map(|t| t.as_deref().map_or(NameId::NONE, |t| self.interner.intern(t))).collect())
    }

    fn codes(&self, name: &str, labels: &CodeLabels) -> Result<Vec<u8>, Error> {
        self.strings(name)?
            .into_iter()
            .map(|t| {
                t.as_deref()
                    .and_then(|t| labels.code(t))
                    .ok_or_else(|| Error::Schema(format!("`{name}` holds a label we never write: {t:?}")))
            })
            .collect()
    }

    fn append(mut self, family: Family, out: &mut Batch) -> Result<(), Error> {
        let n = self.rb.num_rows();
        match family {
            Family::KERNEL => {
                let (start, end) = (self.u64s("start_ns")?, self.u64s("end_ns")?);
                let (device, context) = (self.u32s("device")?, self.u32s("context")?);
                let (stream, correlation) = (self.u64s("stream")?, self.u64s("correlation")?);
                let name = self.names("name")?;
                let grid = [self.u32s("grid_x")?, self.u32s("grid_y")?, self.u32s("grid_z")?];
                let block = [self.u32s("block_x")?, self.u32s("block_y")?, self.u32s("block_z")?];
                let (shared_memory, registers) = (self.u32s("shared_memory")?, self.u16s("registers")?);
                for i in 0..n {
                    out.kernels.push(KernelRow {
                        start: start[i],
                        end: end[i],
                        device: device[i],
                        context: context[i],
                        stream: stream[i],
                        correlation: correlation[i],
                        grid_x: grid[0][i],
                        grid_y: grid[1][i],
                        grid_z: grid[2][i],
                        block_x: block[0][i],
                        block_y: block[1][i],
                        block_z: block[2][i],
                        shared_memory: shared_memory[i],
                        registers: registers[i],
                        name: name[i],
                    });
                }
            }
            Family::MEMCPY => {
                let (start, end) = (self.u64s("start_ns")?, self.u64s("end_ns")?);
                let (device, context) = (self.u32s("device")?, self.u32s("context")?);
                let (stream, correlation) = (self.u64s("stream")?, self.u64s("correlation")?);
                let bytes = self.u64s("bytes")?;
                let kind = self.codes("copy_kind", labels::copy_kinds())?;
                let src = self.codes("src_kind", labels::memory_kinds())?;
                let dst = self.codes("dst_kind", labels::memory_kinds())?;
                let is_async = self.bools("is_async")?;
                for i in 0..n {
                    out.memcpys.push(MemcpyRow {
                        start: start[i],
                        end: end[i],
                        device: device[i],
                        context: context[i],
                        stream: stream[i],
                        correlation: correlation[i],
                        bytes: bytes[i],
                        copy_kind: CopyKind(kind[i]),
                        src_kind: MemoryKind(src[i]),
                        dst_kind: MemoryKind(dst[i]),
                        is_async: is_async[i],
                    });
                }
            }
            Family::MEMSET => {
                let (start, end) = (self.u64s("start_ns")?, self.u64s("end_ns")?);
                let (device, context) = (self.u32s("device")?, self.u32s("context")?);
                let (stream, correlation) = (self.u64s("stream")?, self.u64s("correlation")?);
                let (bytes, value) = (self.u64s("bytes")?, self.u32s("memset_value")?);
                let kind = self.codes("memory_kind", labels::memory_kinds())?;
                for i in 0..n {
                    out.memsets.push(MemsetRow {
                        start: start[i],
                        end: end[i],
                        device: device[i],
                        context: context[i],
                        stream: stream[i],
                        correlation: correlation[i],
                        bytes: bytes[i],
                        value: value[i],
                        memory_kind: MemoryKind(kind[i]),
                    });
                }
            }
            Family::API => {
                let (start, end) = (self.u64s("start_ns")?, self.u64s("end_ns")?);
                let (process, thread) = (self.u32s("process")?, self.u64s("thread")?);
                let correlation = self.u64s("correlation")?;
                let name = self.names("name")?;
                let (domain, cbid) = (self.u32s("api_domain")?, self.u32s("cbid")?);
                for i in 0..n {
                    out.api_calls.push(ApiRow {
                        start: start[i],
                        end: end[i],
                        process: process[i],
                        thread: thread[i],
                        correlation: correlation[i],
                        domain: domain[i],
                        cbid: cbid[i],
                        name: name[i],
                    });
                }
            }
            Family::MARKER => {
                let (start, end, id) =
                    (self.u64s("start_ns")?, self.u64s("end_ns")?, self.u64s("marker_id")?);
                let (process, thread) = (self.u32s("process")?, self.u64s("thread")?);
                let (device, stream) = (self.u32s("device")?, self.u64s("stream")?);
                let (domain, name) = (self.names("domain")?, self.names("name")?);
                let flags = self.u32s("marker_flags")?;
                for i in 0..n {
                    out.markers.push(MarkerRow {
                        start: start[i],
                        end: end[i],
                        id: id[i],
                        process: process[i],
                        thread: thread[i],
                        device: device[i],
                        stream: stream[i],
                        domain: domain[i],
                        name: name[i],
                        flags: flags[i],
                    });
                }
            }
            Family::COLLECTIVE => {
                let (start, end) = (self.u64s("start_ns")?, self.u64s("end_ns")?);
                let (device, stream) = (self.u32s("device")?, self.u64s("stream")?);
                let correlation = self.u64s("correlation")?;
                let (name, comm_name) = (self.names("name")?, self.names("comm_name")?);
                let (count, bytes) = (self.u64s("elements")?, self.u64s("bytes")?);
                let bandwidth = self.f64s("bandwidth_gbps")?;
                let data_type = self.u32s("data_type")?;
                let algorithm = self.names("algorithm")?;
                for i in 0..n {
                    out.collectives.push(CollectiveRow {
                        start: start[i],
                        end: end[i],
                        device: device[i],
                        stream: stream[i],
                        correlation: correlation[i],
                        name: name[i],
                        comm_name: comm_name[i],
                        count: count[i],
                        bytes: bytes[i],
                        bandwidth_gbps: bandwidth[i],
                        data_type: data_type[i],
                        algorithm: algorithm[i],
                    });
                }
            }
            Family::MEMORY => {
                let (start, end) = (self.u64s("start_ns")?, self.u64s("end_ns")?);
                let (device, stream) = (self.u32s("device")?, self.u64s("stream")?);
                let correlation = self.u64s("correlation")?;
                let (address, bytes) = (self.u64s("address")?, self.u64s("bytes")?);
                let (op, kind) = (self.u32s("memory_op")?, self.u32s("memory_kind_raw")?);
                let process = self.u32s("process")?;
                for i in 0..n {
                    out.memory.push(MemoryRow {
                        start: start[i],
                        end: end[i],
                        device: device[i],
                        stream: stream[i],
                        correlation: correlation[i],
                        address: address[i],
                        bytes: bytes[i],
                        op: op[i],
                        memory_kind: kind[i],
                        process: process[i],
                    });
                }
            }
            Family::SYNC => {
                let (start, end) = (self.u64s("start_ns")?, self.u64s("end_ns")?);
                let (device, context) = (self.u32s("device")?, self.u32s("context")?);
                let (stream, correlation) = (self.u64s("stream")?, self.u64s("correlation")?);
                let (sync_type, event) = (self.u32s("sync_type")?, self.u64s("event")?);
                let name = self.names("name")?;
                for i in 0..n {
                    out.syncs.push(SyncRow {
                        start: start[i],
                        end: end[i],
                        device: device[i],
                        context: context[i],
                        stream: stream[i],
                        correlation: correlation[i],
                        sync_type: sync_type[i],
                        event: event[i],
                        name: name[i],
                    });
                }
            }
            Family::EXTERNAL_CORRELATION => {
                let kind = self.u32s("external_kind")?;
                let (id, correlation) = (self.u64s("external_id")?, self.u64s("correlation")?);
                for i in 0..n {
                    out.external_correlations.push(ExternalCorrelationRow {
                        external_kind: kind[i],
                        external_id: id[i],
                        correlation: correlation[i],
                    });
                }
            }
            Family::COUNTER => {
                let (start, end) = (self.u64s("start_ns")?, self.u64s("end_ns")?);
                let (device, correlation) = (self.u32s("device")?, self.u64s("correlation")?);
                let (counter, value) = (self.names("name")?, self.f64s("value")?);
                for i in 0..n {
                    out.counters.push(CounterRow {
                        correlation: correlation[i],
                        device: device[i],
                        counter: counter[i],
                        value: value[i],
                        start: start[i],
                        end: end[i],
                    });
                }
            }
            other => return Err(Error::Schema(format!("no Arrow schema for {other:?}"))),
        }
        Ok(())
    }
}

/// The text of each row of a `Utf8`, `LargeUtf8`, `Utf8View` or dictionary-of-those column; `None` for
/// another type.
pub(crate) fn strings(array: &ArrayRef) -> Option<Vec<Option<String>>> {
    let text = |values: &ArrayRef, i: usize| -> Option<Option<String>> {
        if values.is_null(i) {
            return Some(None);
        }
        Some(Some(match values.data_type() {
            DataType::Utf8 => values.as_string::<i32>().value(i).to_owned(),
            DataType::LargeUtf8 => values.as_string::<i64>().value(i).to_owned(),
            DataType::Utf8View => values.as_string_view().value(i).to_owned(),
            _ => return None,
        }))
    };
    match array.data_type() {
        DataType::Dictionary(_, _) => {
            let dict = array.as_any_dictionary_opt()?;
            let values = dict.values();
            if values.is_empty() {
                // Every row null (a reader gives an empty dictionary then).
                return (0..array.len()).map(|i| array.is_null(i).then_some(None)).collect();
            }
            let keys = dict.normalized_keys();
            let per_key: Vec<Option<Option<String>>> = (0..values.len()).map(|i| text(values, i)).collect();
            (0..array.len())
                .map(|i| if array.is_null(i) { Some(None) } else { per_key.get(keys[i]).cloned().flatten() })
                .collect()
        }
        _ => (0..array.len()).map(|i| text(array, i)).collect(),
    }
}
