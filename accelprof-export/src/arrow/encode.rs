use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use accelprof_core::{Batch, Family, Names};
use arrow_array::{ArrayRef, BooleanArray, Float64Array, Int16Array, Int32Array, Int64Array, RecordBatch};
use arrow_buffer::{Buffer, ScalarBuffer};
use arrow_schema::{Schema, SchemaRef};

use super::columns::{self, Declared, Visit};
use super::names::NameDictionary;
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
        let arrays = fill(family, batch, &mut Ctx { dict: &mut self.names, names })?;
        Ok(RecordBatch::try_new(schema(family), arrays)?)
    }
}

/// The Arrow schema of one family (the columns listed in the [module documentation](super), declared in
/// `arrow/columns.rs`); its metadata names the family (`accelprof.family`) and the layout version
/// (`accelprof.schema_version`).
///
/// # Panics
/// For a family value outside [`Family::ALL`].
pub fn schema(family: Family) -> SchemaRef {
    static SCHEMAS: OnceLock<Vec<SchemaRef>> = OnceLock::new();
    let schemas = SCHEMAS.get_or_init(|| {
        Family::ALL
            .iter()
            .map(|family| {
                let fields: Vec<_> = columns::specs(*family).iter().map(|c| c.field()).collect();
                let metadata = HashMap::from([
                    ("accelprof.family".to_owned(), family.name().to_owned()),
                    ("accelprof.schema_version".to_owned(), SCHEMA_VERSION.to_owned()),
                ]);
                Arc::new(Schema::new_with_metadata(fields, metadata))
            })
            .collect()
    });
    let index = Family::ALL.iter().position(|f| *f == family).expect("a family of Family::ALL");
    Arc::clone(&schemas[index])
}

/// The columns of `family`'s rows in `batch`, in schema order.
fn fill(family: Family, batch: &Batch, ctx: &mut Ctx<'_>) -> Result<Vec<ArrayRef>, Error> {
    struct Fill<'b, 'c, 'd> {
        batch: &'b Batch,
        ctx: &'c mut Ctx<'d>,
    }
    impl Visit for Fill<'_, '_, '_> {
        type Out = Result<Vec<ArrayRef>, Error>;
        fn visit<C: Declared>(self) -> Self::Out {
            columns::encode::<C>(self.batch, self.ctx)
        }
    }
    columns::visit(family, Fill { batch, ctx })
        .unwrap_or_else(|| Err(Error::Schema(format!("no Arrow schema for {family:?}"))))
}

/// What encoding a name column needs: the encoder's dictionary and the interner's names.
pub(crate) struct Ctx<'a> {
    dict: &'a mut NameDictionary,
    names: &'a Names,
}

impl Ctx<'_> {
    pub(crate) fn names(&mut self, ids: &[accelprof_core::NameId]) -> Result<ArrayRef, Error> {
        self.dict.column(ids, self.names)
    }
}

/// `u64`s as `Int64` (same bits).
pub(crate) fn i64s(values: &[u64]) -> ArrayRef {
    let buffer = ScalarBuffer::<i64>::new(Buffer::from_slice_ref(values), 0, values.len());
    Arc::new(Int64Array::new(buffer, None))
}

/// `u32`s as `Int32` (same bits).
pub(crate) fn i32s(values: &[u32]) -> ArrayRef {
    let buffer = ScalarBuffer::<i32>::new(Buffer::from_slice_ref(values), 0, values.len());
    Arc::new(Int32Array::new(buffer, None))
}

/// `u16`s as `Int16` (same bits).
pub(crate) fn i16s(values: &[u16]) -> ArrayRef {
    let buffer = ScalarBuffer::<i16>::new(Buffer::from_slice_ref(values), 0, values.len());
    Arc::new(Int16Array::new(buffer, None))
}

pub(crate) fn f64s(values: &[f64]) -> ArrayRef {
    Arc::new(Float64Array::new(ScalarBuffer::from(Buffer::from_slice_ref(values)), None))
}

pub(crate) fn bools(values: &[bool]) -> ArrayRef {
    Arc::new(BooleanArray::from(values.to_vec()))
}
