use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use accelprof_core::columns::{
    ApiColumns, CollectiveColumns, CounterColumns, ExternalCorrelationColumns, KernelColumns, MarkerColumns,
    MemcpyColumns, MemoryColumns, MemsetColumns, SyncColumns,
};
use accelprof_core::intern::Interner;
use accelprof_core::{Batch, Family, Names};
use arrow_array::{ArrayRef, BooleanArray, Float64Array, Int16Array, Int32Array, Int64Array, RecordBatch};
use arrow_buffer::{Buffer, ScalarBuffer};
use arrow_schema::{Field, Schema, SchemaRef};

use super::labels::{self, memcpy_name_key, memset_name_key};
use super::names::{dictionary_column, NameDictionary};
use crate::Error;

/// The version of the column layout, written into every schema's metadata (`accelprof.schema_version`).
pub const SCHEMA_VERSION: &str = "1";

/// Turns the shared column batches into Arrow record batches: one schema per family ([`schema`]), the same
/// for every vendor.
///
/// Fixed-width columns are copied into Arrow buffers with one bulk copy per column (the batch belongs to the
/// pipeline and is reused after delivery, so its `Vec`s cannot be taken over); unsigned values keep their
/// bits in signed Arrow types, which every engine reads (Spark, Trino and Hive have no unsigned 64-bit
/// integer). Names are dictionary columns whose keys are the interner's `NameId`s over a dictionary of all
/// names seen, kept across batches.
#[derive(Debug, Default)]
pub struct ArrowEncoder {
    names: NameDictionary,
}

impl ArrowEncoder {
    /// An encoder with an empty name dictionary.
    pub fn new() -> Self {
        ArrowEncoder::default()
    }

    /// One record batch per family that has rows, in [`Family::ALL`] order.
    pub fn encode(&mut self, batch: &Batch, names: &Names) -> Result<Vec<(Family, RecordBatch)>, Error> {
        Family::ALL
            .iter()
            .filter(|f| batch.len_of(**f) > 0)
            .map(|f| Ok((*f, self.encode_family(*f, batch, names)?)))
            .collect()
    }

    /// The rows of one family (an empty record batch when it has none).
    pub fn encode_family(
        &mut self,
        family: Family,
        batch: &Batch,
        names: &Names,
    ) -> Result<RecordBatch, Error> {
        self.names.refresh(names)?;
        let mut cols = Columns::default();
        fill(&mut cols, family, batch, &mut Ctx { dict: &mut self.names, names })?;
        Ok(RecordBatch::try_new(schema(family), cols.arrays)?)
    }
}

/// The Arrow schema of one family (the columns listed in the [module documentation](super)); its metadata
/// names the family (`accelprof.family`) and the layout version (`accelprof.schema_version`).
///
/// # Panics
/// For a family value outside [`Family::ALL`].
pub fn schema(family: Family) -> SchemaRef {
    static SCHEMAS: OnceLock<Vec<SchemaRef>> = OnceLock::new();
    let schemas = SCHEMAS.get_or_init(|| {
        // The schema is whatever encoding produces: encode an empty batch of each family.
        let interner = Interner::new();
        let names = interner.names();
        let batch = Batch::new();
        Family::ALL
            .iter()
            .map(|family| {
                let mut cols = Columns::default();
                let mut dict = NameDictionary::default();
                let mut ctx = Ctx { dict: &mut dict, names: &names };
                fill(&mut cols, *family, &batch, &mut ctx).expect("encoding empty columns cannot fail");
                let metadata = HashMap::from([
                    ("accelprof.family".to_owned(), family.name().to_owned()),
                    ("accelprof.schema_version".to_owned(), SCHEMA_VERSION.to_owned()),
                ]);
                Arc::new(Schema::new_with_metadata(cols.fields, metadata))
            })
            .collect()
    });
    let index = Family::ALL.iter().position(|f| *f == family).expect("a family of Family::ALL");
    Arc::clone(&schemas[index])
}

/// Appends the columns of `family`'s rows in `batch`.
fn fill(cols: &mut Columns, family: Family, batch: &Batch, ctx: &mut Ctx<'_>) -> Result<(), Error> {
    match family {
        Family::KERNEL => kernels(cols, &batch.kernels, ctx),
        Family::MEMCPY => memcpys(cols, &batch.memcpys),
        Family::MEMSET => memsets(cols, &batch.memsets),
        Family::API => api_calls(cols, &batch.api_calls, ctx),
        Family::MARKER => markers(cols, &batch.markers, ctx),
        Family::COLLECTIVE => collectives(cols, &batch.collectives, ctx),
        Family::MEMORY => memory(cols, &batch.memory),
        Family::SYNC => syncs(cols, &batch.syncs, ctx),
        Family::EXTERNAL_CORRELATION => external(cols, &batch.external_correlations),
        Family::COUNTER => counters(cols, &batch.counters, ctx),
        other => Err(Error::Schema(format!("no Arrow schema for {other:?}"))),
    }
}

/// Columns being assembled, with their fields.
#[derive(Default)]
struct Columns {
    fields: Vec<Field>,
    arrays: Vec<ArrayRef>,
}

impl Columns {
    fn add(&mut self, name: &str, array: ArrayRef, nullable: bool) {
        self.fields.push(Field::new(name, array.data_type().clone(), nullable));
        self.arrays.push(array);
    }

    fn req(&mut self, name: &str, array: ArrayRef) {
        self.add(name, array, false)
    }
}

struct Ctx<'a> {
    dict: &'a mut NameDictionary,
    names: &'a Names,
}

impl Ctx<'_> {
    fn names(&mut self, ids: &[accelprof_core::NameId]) -> Result<ArrayRef, Error> {
        self.dict.column(ids, self.names)
    }
}

/// `u64`s as `Int64` (same bits).
fn i64s(values: &[u64]) -> ArrayRef {
    let buffer = ScalarBuffer::<i64>::new(Buffer::from_slice_ref(values), 0, values.len());
    Arc::new(Int64Array::new(buffer, None))
}

/// `u32`s as `Int32` (same bits).
fn i32s(values: &[u32]) -> ArrayRef {
    let buffer = ScalarBuffer::<i32>::new(Buffer::from_slice_ref(values), 0, values.len());
    Arc::new(Int32Array::new(buffer, None))
}

/// `u16`s as `Int16` (same bits).
fn i16s(values: &[u16]) -> ArrayRef {
    let buffer = ScalarBuffer::<i16>::new(Buffer::from_slice_ref(values), 0, values.len());
    Arc::new(Int16Array::new(buffer, None))
}

fn f64s(values: &[f64]) -> ArrayRef {
    Arc::new(Float64Array::new(ScalarBuffer::from(Buffer::from_slice_ref(values)), None))
}

fn bools(values: &[bool]) -> ArrayRef {
    Arc::new(BooleanArray::from(values.to_vec()))
}

fn kernels(c: &mut Columns, k: &KernelColumns, ctx: &mut Ctx<'_>) -> Result<(), Error> {
    c.req("start_ns", i64s(k.start()));
    c.req("end_ns", i64s(k.end()));
    c.req("device", i32s(k.device()));
    c.req("context", i32s(k.context()));
    c.req("stream", i64s(k.stream()));
    c.req("correlation", i64s(k.correlation()));
    c.add("name", ctx.names(k.name())?, true);
    c.req("grid_x", i32s(k.grid_x()));
    c.req("grid_y", i32s(k.grid_y()));
    c.req("grid_z", i32s(k.grid_z()));
    c.req("block_x", i32s(k.block_x()));
    c.req("block_y", i32s(k.block_y()));
    c.req("block_z", i32s(k.block_z()));
    c.req("shared_memory", i32s(k.shared_memory()));
    c.req("registers", i16s(k.registers()));
    Ok(())
}

fn memcpys(c: &mut Columns, m: &MemcpyColumns) -> Result<(), Error> {
    c.req("start_ns", i64s(m.start()));
    c.req("end_ns", i64s(m.end()));
    c.req("device", i32s(m.device()));
    c.req("context", i32s(m.context()));
    c.req("stream", i64s(m.stream()));
    c.req("correlation", i64s(m.correlation()));
    let keys = (0..m.len()).map(|i| memcpy_name_key(m.copy_kind()[i], m.src_kind()[i], m.dst_kind()[i]));
    c.req("name", dictionary_column(keys.collect(), Arc::clone(labels::memcpy_names()), |_| true)?);
    c.req("bytes", i64s(m.bytes()));
    c.req("copy_kind", labels::copy_kinds().column(m.copy_kind().iter().map(|k| k.0))?);
    c.req("src_kind", labels::memory_kinds().column(m.src_kind().iter().map(|k| k.0))?);
    c.req("dst_kind", labels::memory_kinds().column(m.dst_kind().iter().map(|k| k.0))?);
    c.req("is_async", bools(m.is_async()));
    Ok(())
}

fn memsets(c: &mut Columns, m: &MemsetColumns) -> Result<(), Error> {
    c.req("start_ns", i64s(m.start()));
    c.req("end_ns", i64s(m.end()));
    c.req("device", i32s(m.device()));
    c.req("context", i32s(m.context()));
    c.req("stream", i64s(m.stream()));
    c.req("correlation", i64s(m.correlation()));
    let keys = m.memory_kind().iter().map(|k| memset_name_key(*k));
    c.req("name", dictionary_column(keys.collect(), Arc::clone(labels::memset_names()), |_| true)?);
    c.req("bytes", i64s(m.bytes()));
    c.req("memset_value", i32s(m.value()));
    c.req("memory_kind", labels::memory_kinds().column(m.memory_kind().iter().map(|k| k.0))?);
    Ok(())
}

fn api_calls(c: &mut Columns, a: &ApiColumns, ctx: &mut Ctx<'_>) -> Result<(), Error> {
    c.req("start_ns", i64s(a.start()));
    c.req("end_ns", i64s(a.end()));
    c.req("process", i32s(a.process()));
    c.req("thread", i64s(a.thread()));
    c.req("correlation", i64s(a.correlation()));
    c.add("name", ctx.names(a.name())?, true);
    c.req("api_domain", i32s(a.domain()));
    c.req("cbid", i32s(a.cbid()));
    Ok(())
}

fn markers(c: &mut Columns, m: &MarkerColumns, ctx: &mut Ctx<'_>) -> Result<(), Error> {
    c.req("start_ns", i64s(m.start()));
    c.req("end_ns", i64s(m.end()));
    c.req("marker_id", i64s(m.id()));
    c.req("process", i32s(m.process()));
    c.req("thread", i64s(m.thread()));
    c.req("device", i32s(m.device()));
    c.req("stream", i64s(m.stream()));
    c.add("domain", ctx.names(m.domain())?, true);
    c.add("name", ctx.names(m.name())?, true);
    c.req("marker_flags", i32s(m.flags()));
    Ok(())
}

fn collectives(c: &mut Columns, o: &CollectiveColumns, ctx: &mut Ctx<'_>) -> Result<(), Error> {
    c.req("start_ns", i64s(o.start()));
    c.req("end_ns", i64s(o.end()));
    c.req("device", i32s(o.device()));
    c.req("stream", i64s(o.stream()));
    c.req("correlation", i64s(o.correlation()));
    c.add("name", ctx.names(o.name())?, true);
    c.add("comm_name", ctx.names(o.comm_name())?, true);
    c.req("elements", i64s(o.count()));
    c.req("bytes", i64s(o.bytes()));
    c.req("bandwidth_gbps", f64s(o.bandwidth_gbps()));
    c.req("data_type", i32s(o.data_type()));
    c.add("algorithm", ctx.names(o.algorithm())?, true);
    Ok(())
}

fn memory(c: &mut Columns, m: &MemoryColumns) -> Result<(), Error> {
    c.req("start_ns", i64s(m.start()));
    c.req("end_ns", i64s(m.end()));
    c.req("device", i32s(m.device()));
    c.req("stream", i64s(m.stream()));
    c.req("correlation", i64s(m.correlation()));
    c.req("address", i64s(m.address()));
    c.req("bytes", i64s(m.bytes()));
    c.req("memory_op", i32s(m.op()));
    c.req("memory_kind_raw", i32s(m.memory_kind()));
    c.req("process", i32s(m.process()));
    Ok(())
}

fn syncs(c: &mut Columns, s: &SyncColumns, ctx: &mut Ctx<'_>) -> Result<(), Error> {
    c.req("start_ns", i64s(s.start()));
    c.req("end_ns", i64s(s.end()));
    c.req("device", i32s(s.device()));
    c.req("context", i32s(s.context()));
    c.req("stream", i64s(s.stream()));
    c.req("correlation", i64s(s.correlation()));
    c.req("sync_type", i32s(s.sync_type()));
    c.req("event", i64s(s.event()));
    c.add("name", ctx.names(s.name())?, true);
    Ok(())
}

fn external(c: &mut Columns, e: &ExternalCorrelationColumns) -> Result<(), Error> {
    c.req("external_kind", i32s(e.external_kind()));
    c.req("external_id", i64s(e.external_id()));
    c.req("correlation", i64s(e.correlation()));
    Ok(())
}

fn counters(c: &mut Columns, v: &CounterColumns, ctx: &mut Ctx<'_>) -> Result<(), Error> {
    c.req("start_ns", i64s(v.start()));
    c.req("end_ns", i64s(v.end()));
    c.req("device", i32s(v.device()));
    c.req("correlation", i64s(v.correlation()));
    c.add("name", ctx.names(v.counter())?, true);
    c.req("value", f64s(v.value()));
    Ok(())
}
