//! Every family's columns, declared once.
//!
//! One line per column: its name in Arrow and Parquet, the row field it holds and how it is stored
//! ([`kind`]), whether Parquet delta-encodes it, and where the Chrome trace writer puts it in an event's
//! `args` (Kineto's key, where it differs from the column's name). The Arrow schema
//! ([`schema`](super::schema)), the encoder, the decoder, the events table and the Parquet writer's
//! per-column settings are derived from these tables; the Chrome writer keeps its own hand-tuned loops,
//! and a test renders every declared column through it and checks each `args` key and value against the
//! declaration. Column names are what files already written hold: a name here is never changed, only
//! added.

use accelprof_core::columns::{
    ApiColumns, ApiRow, CollectiveColumns, CollectiveRow, CounterColumns, CounterRow,
    ExternalCorrelationColumns, ExternalCorrelationRow, KernelColumns, KernelRow, MarkerColumns, MarkerRow,
    MemcpyColumns, MemcpyRow, MemoryColumns, MemoryRow, MemsetColumns, MemsetRow, SyncColumns, SyncRow,
};
use accelprof_core::{Batch, Family};
use arrow_array::ArrayRef;
use arrow_schema::{DataType, Field};
use std::sync::Arc;

use self::kind::{Bool, CopyKindLabel, Float64, Int16, Int32, Int64, Kind, MemoryKindLabel, Name};
use super::decode::Reader;
use super::encode::Ctx;
use super::labels::{self, memcpy_name_key, memset_name_key};
use super::names::dictionary_column;
use crate::Error;

/// How a column is stored in Arrow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    /// A `u64` as `Int64` (same bits).
    Int64,
    /// A `u32` as `Int32` (same bits).
    Int32,
    /// A `u16` as `Int16` (same bits).
    Int16,
    /// An `f64`.
    Float64,
    /// A `bool`.
    Boolean,
    /// A `NameId` as `Dictionary(UInt32, Utf8)` over the interner's names; null for `NameId::NONE`.
    Name,
    /// A `CopyKind` as a `Dictionary(UInt8, Utf8)` label (key = code).
    CopyKind,
    /// A `MemoryKind` as a `Dictionary(UInt8, Utf8)` label (key = code).
    MemoryKind,
    /// Text derived from other columns (Kineto's copy and set names), `Dictionary(UInt32, Utf8)`; not read
    /// back (the columns it is made of are).
    Derived,
}

impl Ty {
    /// The Arrow type.
    pub(crate) fn data_type(self) -> DataType {
        let dictionary = |key: DataType| DataType::Dictionary(Box::new(key), Box::new(DataType::Utf8));
        match self {
            Ty::Int64 => DataType::Int64,
            Ty::Int32 => DataType::Int32,
            Ty::Int16 => DataType::Int16,
            Ty::Float64 => DataType::Float64,
            Ty::Boolean => DataType::Boolean,
            Ty::Name | Ty::Derived => dictionary(DataType::UInt32),
            Ty::CopyKind | Ty::MemoryKind => dictionary(DataType::UInt8),
        }
    }

    /// Whether the column has nulls (only names: `NameId::NONE`).
    pub(crate) fn nullable(self) -> bool {
        self == Ty::Name
    }
}

/// Where the Chrome trace writer puts a column's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chrome {
    /// Not in `args` (the event's own `ts`, `dur`, `name`, `pid`, `tid`, or not written).
    None,
    /// `args[key]`.
    Arg(&'static str),
    /// `args[key][index]` (a kernel's `grid` and `block`).
    Element(&'static str, usize),
    /// `args[<the row's name>]` (a counter's value, under the counter's name).
    UnderName,
}

/// What a column is, without the code that moves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Spec {
    /// The column's name in Arrow and Parquet.
    pub(crate) name: &'static str,
    /// How it is stored.
    pub(crate) ty: Ty,
    /// The row field it holds; `None` for a derived column.
    pub(crate) field: Option<&'static str>,
    /// Parquet: delta-encoded, no dictionary (values that grow with time).
    pub(crate) delta: bool,
    /// Where the Chrome trace writer puts it.
    pub(crate) chrome: Chrome,
}

impl Spec {
    /// The Arrow field.
    pub(crate) fn field(&self) -> Field {
        Field::new(self.name, self.ty.data_type(), self.ty.nullable())
    }
}

/// Encodes the column from family columns `C`.
type Encode<C> = fn(&C, &mut Ctx<'_>) -> Result<ArrayRef, Error>;
/// Reads the column named by its spec into rows `R`.
type Decode<R> = fn(&mut Reader<'_>, &'static str, &mut [R]) -> Result<(), Error>;

/// One declared column of the family columns `C` (rows `R`).
pub(crate) struct Column<C, R> {
    pub(crate) spec: Spec,
    pub(crate) encode: Encode<C>,
    /// `None` for a derived column.
    pub(crate) decode: Option<Decode<R>>,
}

impl<C, R> Column<C, R> {
    /// A column holding a row field (see `stored!`).
    pub(crate) const fn stored(
        name: &'static str,
        ty: Ty,
        field: &'static str,
        encode: Encode<C>,
        decode: Decode<R>,
    ) -> Self {
        let spec = Spec { name, ty, field: Some(field), delta: false, chrome: Chrome::None };
        Column { spec, encode, decode: Some(decode) }
    }

    /// A column derived from others: written, not read back.
    pub(crate) const fn derived(name: &'static str, encode: Encode<C>) -> Self {
        let spec = Spec { name, ty: Ty::Derived, field: None, delta: false, chrome: Chrome::None };
        Column { spec, encode, decode: None }
    }

    /// Parquet delta-encodes it.
    pub(crate) const fn delta(mut self) -> Self {
        self.spec.delta = true;
        self
    }

    /// The Chrome writer puts it in `args[key]`.
    pub(crate) const fn arg(mut self, key: &'static str) -> Self {
        self.spec.chrome = Chrome::Arg(key);
        self
    }

    /// The Chrome writer puts it in `args` under the column's own name.
    pub(crate) const fn same_arg(self) -> Self {
        let name = self.spec.name;
        self.arg(name)
    }

    /// The Chrome writer puts it in `args[key][index]`.
    pub(crate) const fn element(mut self, key: &'static str, index: usize) -> Self {
        self.spec.chrome = Chrome::Element(key, index);
        self
    }

    /// The Chrome writer puts it in `args` under the row's name.
    pub(crate) const fn under_name(mut self) -> Self {
        self.spec.chrome = Chrome::UnderName;
        self
    }
}

/// A column holding row field `$field` stored as `$kind` (a [`Kind`]): `stored!("start_ns", start: Int64)`,
/// in a `family!` declaration (`Self` is the family's columns struct).
macro_rules! stored {
    ($name:literal, $field:ident : $kind:ident) => {
        Column::<Self, <Self as Declared>::Row>::stored(
            $name,
            <$kind as Kind>::TY,
            stringify!($field),
            |columns, ctx| <$kind as Kind>::encode(columns.$field(), ctx),
            |reader, name, rows| {
                let values = <$kind as Kind>::decode(reader, name)?;
                for (row, value) in rows.iter_mut().zip(values) {
                    row.$field = value;
                }
                Ok(())
            },
        )
    };
}

/// A family's columns struct with its declared columns.
pub(crate) trait Declared: Sized + 'static {
    /// Its row.
    type Row: Copy + Default + std::fmt::Debug;
    /// Its family.
    #[cfg_attr(not(test), allow(dead_code))]
    const FAMILY: Family;
    /// Its columns, in schema order.
    const COLUMNS: &'static [Column<Self, Self::Row>];
    /// `args` keys the Chrome writer adds that hold no column (computed from several).
    #[cfg_attr(not(all(test, feature = "chrome")), allow(dead_code))]
    const CHROME_ONLY: &'static [&'static str];
    /// The family's columns in a batch.
    fn of(batch: &Batch) -> &Self;
    /// The family's columns in a batch, to append to.
    fn of_mut(batch: &mut Batch) -> &mut Self;
    /// Appends one row.
    fn push_row(&mut self, row: Self::Row);
}

/// Declares the columns of one family: its columns struct, row, family, field of [`Batch`], the Chrome
/// writer's computed `args` keys, then the columns in schema order.
macro_rules! family {
    (
        $columns:ident, $row:ident, $family:ident, $batch:ident, chrome_only: [$($extra:expr),*],
        [$($column:expr),+ $(,)?]
    ) => {
        impl Declared for $columns {
            type Row = $row;
            const FAMILY: Family = Family::$family;
            const COLUMNS: &'static [Column<Self, $row>] = &[$($column),+];
            const CHROME_ONLY: &'static [&'static str] = &[$($extra),*];
            fn of(batch: &Batch) -> &Self {
                &batch.$batch
            }
            fn of_mut(batch: &mut Batch) -> &mut Self {
                &mut batch.$batch
            }
            fn push_row(&mut self, row: $row) {
                self.push(row)
            }
        }
    };
}

/// The Chrome writer's key for a copy's or set's bandwidth, computed from `bytes` and the duration.
const BANDWIDTH: &str = "memory bandwidth (GB/s)";

family!(KernelColumns, KernelRow, KERNEL, kernels, chrome_only: [], [
    stored!("start_ns", start: Int64).delta(),
    stored!("end_ns", end: Int64).delta(),
    stored!("device", device: Int32).same_arg(),
    stored!("context", context: Int32).same_arg(),
    stored!("stream", stream: Int64).same_arg(),
    stored!("correlation", correlation: Int64).delta().same_arg(),
    stored!("name", name: Name),
    stored!("grid_x", grid_x: Int32).element("grid", 0),
    stored!("grid_y", grid_y: Int32).element("grid", 1),
    stored!("grid_z", grid_z: Int32).element("grid", 2),
    stored!("block_x", block_x: Int32).element("block", 0),
    stored!("block_y", block_y: Int32).element("block", 1),
    stored!("block_z", block_z: Int32).element("block", 2),
    stored!("shared_memory", shared_memory: Int32).arg("shared memory"),
    stored!("registers", registers: Int16).arg("registers per thread"),
]);

family!(MemcpyColumns, MemcpyRow, MEMCPY, memcpys, chrome_only: [BANDWIDTH], [
    stored!("start_ns", start: Int64).delta(),
    stored!("end_ns", end: Int64).delta(),
    stored!("device", device: Int32).same_arg(),
    stored!("context", context: Int32).same_arg(),
    stored!("stream", stream: Int64).same_arg(),
    stored!("correlation", correlation: Int64).delta().same_arg(),
    Column::derived("name", memcpy_names),
    stored!("bytes", bytes: Int64).same_arg(),
    stored!("copy_kind", copy_kind: CopyKindLabel),
    stored!("src_kind", src_kind: MemoryKindLabel),
    stored!("dst_kind", dst_kind: MemoryKindLabel),
    stored!("is_async", is_async: Bool),
]);

family!(MemsetColumns, MemsetRow, MEMSET, memsets, chrome_only: [BANDWIDTH], [
    stored!("start_ns", start: Int64).delta(),
    stored!("end_ns", end: Int64).delta(),
    stored!("device", device: Int32).same_arg(),
    stored!("context", context: Int32).same_arg(),
    stored!("stream", stream: Int64).same_arg(),
    stored!("correlation", correlation: Int64).delta().same_arg(),
    Column::derived("name", memset_names),
    stored!("bytes", bytes: Int64).same_arg(),
    stored!("memset_value", value: Int32).arg("value"),
    stored!("memory_kind", memory_kind: MemoryKindLabel),
]);

family!(ApiColumns, ApiRow, API, api_calls, chrome_only: [], [
    stored!("start_ns", start: Int64).delta(),
    stored!("end_ns", end: Int64).delta(),
    stored!("process", process: Int32),
    stored!("thread", thread: Int64),
    stored!("correlation", correlation: Int64).delta().same_arg(),
    stored!("name", name: Name),
    stored!("api_domain", domain: Int32),
    stored!("cbid", cbid: Int32).same_arg(),
]);

family!(MarkerColumns, MarkerRow, MARKER, markers, chrome_only: [], [
    stored!("start_ns", start: Int64).delta(),
    stored!("end_ns", end: Int64).delta(),
    stored!("marker_id", id: Int64).arg("id"),
    stored!("process", process: Int32),
    stored!("thread", thread: Int64),
    stored!("device", device: Int32),
    stored!("stream", stream: Int64),
    stored!("domain", domain: Name).same_arg(),
    stored!("name", name: Name),
    stored!("marker_flags", flags: Int32),
]);

family!(CollectiveColumns, CollectiveRow, COLLECTIVE, collectives, chrome_only: [], [
    stored!("start_ns", start: Int64).delta(),
    stored!("end_ns", end: Int64).delta(),
    stored!("device", device: Int32).same_arg(),
    stored!("stream", stream: Int64).same_arg(),
    stored!("correlation", correlation: Int64).delta().same_arg(),
    stored!("name", name: Name).arg("Collective name"),
    stored!("comm_name", comm_name: Name).arg("Process Group Name"),
    stored!("elements", count: Int64).arg("In msg nelems"),
    stored!("bytes", bytes: Int64).same_arg(),
    stored!("bandwidth_gbps", bandwidth_gbps: Float64).arg(BANDWIDTH),
    stored!("data_type", data_type: Int32).arg("dtype"),
    stored!("algorithm", algorithm: Name).same_arg(),
]);

family!(MemoryColumns, MemoryRow, MEMORY, memory, chrome_only: [], [
    stored!("start_ns", start: Int64).delta(),
    stored!("end_ns", end: Int64).delta(),
    stored!("device", device: Int32).arg("Device Id"),
    stored!("stream", stream: Int64),
    stored!("correlation", correlation: Int64).delta().same_arg(),
    stored!("address", address: Int64).arg("Addr"),
    stored!("bytes", bytes: Int64).arg("Bytes"),
    stored!("memory_op", op: Int32).arg("op"),
    stored!("memory_kind_raw", memory_kind: Int32).arg("memory kind"),
    stored!("process", process: Int32).same_arg(),
]);

family!(SyncColumns, SyncRow, SYNC, syncs, chrome_only: [], [
    stored!("start_ns", start: Int64).delta(),
    stored!("end_ns", end: Int64).delta(),
    stored!("device", device: Int32).same_arg(),
    stored!("context", context: Int32).same_arg(),
    stored!("stream", stream: Int64).same_arg(),
    stored!("correlation", correlation: Int64).delta().same_arg(),
    stored!("sync_type", sync_type: Int32).same_arg(),
    stored!("event", event: Int64).same_arg(),
    stored!("name", name: Name),
]);

family!(ExternalCorrelationColumns, ExternalCorrelationRow, EXTERNAL_CORRELATION, external_correlations,
    chrome_only: [], [
    stored!("external_kind", external_kind: Int32),
    stored!("external_id", external_id: Int64),
    stored!("correlation", correlation: Int64).delta(),
]);

family!(CounterColumns, CounterRow, COUNTER, counters, chrome_only: [], [
    stored!("start_ns", start: Int64).delta(),
    stored!("end_ns", end: Int64).delta(),
    stored!("device", device: Int32),
    stored!("correlation", correlation: Int64).delta(),
    stored!("name", counter: Name),
    stored!("value", value: Float64).under_name(),
]);

/// Kineto's copy names (`Memcpy HtoD (Pageable -> Device)`), keys into a fixed dictionary.
fn memcpy_names(m: &MemcpyColumns, _: &mut Ctx<'_>) -> Result<ArrayRef, Error> {
    let keys = (0..m.len()).map(|i| memcpy_name_key(m.copy_kind()[i], m.src_kind()[i], m.dst_kind()[i]));
    dictionary_column(keys.collect(), Arc::clone(labels::memcpy_names()), |_| true)
}

/// Kineto's set names (`Memset (Device)`), keys into a fixed dictionary.
fn memset_names(m: &MemsetColumns, _: &mut Ctx<'_>) -> Result<ArrayRef, Error> {
    let keys = m.memory_kind().iter().map(|k| memset_name_key(*k));
    dictionary_column(keys.collect(), Arc::clone(labels::memset_names()), |_| true)
}

/// Something done with one family's declared columns, whichever family it is (see [`visit`]).
pub(crate) trait Visit {
    type Out;
    fn visit<C: Declared>(self) -> Self::Out;
}

/// Runs `v` on the columns struct of `family`: the one place that maps a [`Family`] to its declaration.
/// `None` for a family this crate does not know.
pub(crate) fn visit<V: Visit>(family: Family, v: V) -> Option<V::Out> {
    Some(match family {
        Family::KERNEL => v.visit::<KernelColumns>(),
        Family::MEMCPY => v.visit::<MemcpyColumns>(),
        Family::MEMSET => v.visit::<MemsetColumns>(),
        Family::API => v.visit::<ApiColumns>(),
        Family::MARKER => v.visit::<MarkerColumns>(),
        Family::COLLECTIVE => v.visit::<CollectiveColumns>(),
        Family::MEMORY => v.visit::<MemoryColumns>(),
        Family::SYNC => v.visit::<SyncColumns>(),
        Family::EXTERNAL_CORRELATION => v.visit::<ExternalCorrelationColumns>(),
        Family::COUNTER => v.visit::<CounterColumns>(),
        _ => return None,
    })
}

/// The declared columns of `family` (empty for a family this crate does not know).
pub(crate) fn specs(family: Family) -> Vec<Spec> {
    struct Specs;
    impl Visit for Specs {
        type Out = Vec<Spec>;
        fn visit<C: Declared>(self) -> Vec<Spec> {
            C::COLUMNS.iter().map(|c| c.spec).collect()
        }
    }
    visit(family, Specs).unwrap_or_default()
}

/// The columns Parquet delta-encodes (each name once, in the order the families declare them).
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
pub(crate) fn delta_encoded() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for spec in Family::ALL.into_iter().flat_map(specs) {
        if spec.delta && !names.contains(&spec.name) {
            names.push(spec.name);
        }
    }
    names
}

/// Every declared column of `C`, encoded from its rows in `batch`.
pub(crate) fn encode<C: Declared>(batch: &Batch, ctx: &mut Ctx<'_>) -> Result<Vec<ArrayRef>, Error> {
    let columns = C::of(batch);
    C::COLUMNS.iter().map(|c| (c.encode)(columns, ctx)).collect()
}

/// Every row of the record batch `reader` reads, appended to `C`'s columns in `out` (nothing is appended
/// when a column is missing or has another type).
pub(crate) fn decode<C: Declared>(reader: &mut Reader<'_>, out: &mut Batch) -> Result<(), Error> {
    let mut rows = vec![C::Row::default(); reader.rows()];
    for column in C::COLUMNS {
        if let Some(decode) = column.decode {
            decode(reader, column.spec.name, &mut rows)?;
        }
    }
    let out = C::of_mut(out);
    for row in rows {
        out.push_row(row);
    }
    Ok(())
}

/// The storage kinds: how a row field's values become an Arrow array and back.
pub(crate) mod kind {
    use accelprof_core::columns::{CopyKind, MemoryKind};
    use accelprof_core::NameId;
    use arrow_array::ArrayRef;

    use super::super::decode::Reader;
    use super::super::encode::{bools, f64s, i16s, i32s, i64s, Ctx};
    use super::super::labels;
    use super::Ty;
    use crate::Error;

    /// A storage kind.
    pub(crate) trait Kind {
        /// The row field's type.
        type Value: Copy;
        /// How it is stored.
        const TY: Ty;
        /// The field's values as an array.
        fn encode(values: &[Self::Value], ctx: &mut Ctx<'_>) -> Result<ArrayRef, Error>;
        /// The column `name` as field values.
        fn decode(reader: &mut Reader<'_>, name: &str) -> Result<Vec<Self::Value>, Error>;
    }

    macro_rules! numeric {
        ($kind:ident, $value:ty, $ty:ident, $encode:ident, $decode:ident) => {
            pub(crate) struct $kind;
            impl Kind for $kind {
                type Value = $value;
                const TY: Ty = Ty::$ty;
                fn encode(values: &[$value], _: &mut Ctx<'_>) -> Result<ArrayRef, Error> {
                    Ok($encode(values))
                }
                fn decode(reader: &mut Reader<'_>, name: &str) -> Result<Vec<$value>, Error> {
                    reader.$decode(name)
                }
            }
        };
    }

    numeric!(Int64, u64, Int64, i64s, u64s);
    numeric!(Int32, u32, Int32, i32s, u32s);
    numeric!(Int16, u16, Int16, i16s, u16s);
    numeric!(Float64, f64, Float64, f64s, f64s);
    numeric!(Bool, bool, Boolean, bools, bools);

    pub(crate) struct Name;
    impl Kind for Name {
        type Value = NameId;
        const TY: Ty = Ty::Name;
        fn encode(values: &[NameId], ctx: &mut Ctx<'_>) -> Result<ArrayRef, Error> {
            ctx.names(values)
        }
        fn decode(reader: &mut Reader<'_>, name: &str) -> Result<Vec<NameId>, Error> {
            reader.names(name)
        }
    }

    pub(crate) struct CopyKindLabel;
    impl Kind for CopyKindLabel {
        type Value = CopyKind;
        const TY: Ty = Ty::CopyKind;
        fn encode(values: &[CopyKind], _: &mut Ctx<'_>) -> Result<ArrayRef, Error> {
            labels::copy_kinds().column(values.iter().map(|k| k.0))
        }
        fn decode(reader: &mut Reader<'_>, name: &str) -> Result<Vec<CopyKind>, Error> {
            Ok(reader.codes(name, labels::copy_kinds())?.into_iter().map(CopyKind).collect())
        }
    }

    pub(crate) struct MemoryKindLabel;
    impl Kind for MemoryKindLabel {
        type Value = MemoryKind;
        const TY: Ty = Ty::MemoryKind;
        fn encode(values: &[MemoryKind], _: &mut Ctx<'_>) -> Result<ArrayRef, Error> {
            labels::memory_kinds().column(values.iter().map(|k| k.0))
        }
        fn decode(reader: &mut Reader<'_>, name: &str) -> Result<Vec<MemoryKind>, Error> {
            Ok(reader.codes(name, labels::memory_kinds())?.into_iter().map(MemoryKind).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrow::decode::strings;
    use crate::arrow::{schema, ArrowDecoder, ArrowEncoder};
    use accelprof_core::Names;
    use arrow_array::types::UInt8Type;
    use arrow_array::{
        Array, BooleanArray, DictionaryArray, Float64Array, Int16Array, Int32Array, Int64Array, RecordBatch,
        StringArray, UInt8Array,
    };
    use std::collections::BTreeSet;

    #[test]
    fn visit_maps_each_family_to_its_own_declaration() {
        struct Which;
        impl Visit for Which {
            type Out = Family;
            fn visit<C: Declared>(self) -> Family {
                C::FAMILY
            }
        }
        for family in Family::ALL {
            assert_eq!(visit(family, Which), Some(family));
        }
        assert_eq!(visit(Family(200), Which), None);
        assert!(specs(Family(200)).is_empty());
    }

    /// The field names of a row, from its `Debug` (`KernelRow { start: 0, end: 0, .. }`).
    fn row_fields(debug: &str) -> Vec<String> {
        let body = &debug[debug.find('{').expect("a struct") + 1..debug.rfind('}').expect("a struct")];
        let (mut depth, mut fields, mut at_name) = (0, Vec::new(), true);
        let mut name = String::new();
        for ch in body.chars() {
            match ch {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                ',' if depth == 0 => at_name = true,
                ':' if depth == 0 && at_name => {
                    fields.push(name.trim().to_owned());
                    name.clear();
                    at_name = false;
                }
                _ if at_name => name.push(ch),
                _ => {}
            }
        }
        fields
    }

    #[test]
    fn every_row_field_is_exactly_one_declared_column_and_names_are_unique() {
        struct Check;
        impl Visit for Check {
            type Out = ();
            fn visit<C: Declared>(self) {
                let family = C::FAMILY;
                let fields = row_fields(&format!("{:?}", C::Row::default()));
                assert!(fields.len() >= 3, "{family:?}: {fields:?}");
                let mut declared: Vec<&str> = C::COLUMNS.iter().filter_map(|c| c.spec.field).collect();
                declared.sort_unstable();
                let mut fields: Vec<&str> = fields.iter().map(String::as_str).collect();
                fields.sort_unstable();
                assert_eq!(declared, fields, "{family:?}: the row's fields, each held by one column");
                let names: BTreeSet<&str> = C::COLUMNS.iter().map(|c| c.spec.name).collect();
                assert_eq!(names.len(), C::COLUMNS.len(), "{family:?}: a column name twice");
                for column in C::COLUMNS {
                    assert_eq!(column.decode.is_some(), column.spec.field.is_some(), "{}", column.spec.name);
                    assert_eq!(
                        column.decode.is_none(),
                        column.spec.ty == Ty::Derived,
                        "{}",
                        column.spec.name
                    );
                }
            }
        }
        for family in Family::ALL {
            visit(family, Check);
        }
    }

    /// Two rows of `family` as a record batch of its declared schema, every column with its own values
    /// (column `j`: `1000 * (j + 1) + row`, names `<column><row>`, labels code `j + row + 1`).
    fn synthetic(family: Family) -> RecordBatch {
        let columns: Vec<ArrayRef> = specs(family)
            .iter()
            .enumerate()
            .map(|(j, spec)| {
                let value = |row: usize| 1000 * (j as i64 + 1) + row as i64;
                let label = |row: usize| (j + row + 1) as u8;
                let text = |row: usize| format!("{}{row}", spec.name);
                let array: ArrayRef = match spec.ty {
                    Ty::Int64 => Arc::new(Int64Array::from_iter_values((0..2).map(value))),
                    Ty::Int32 => Arc::new(Int32Array::from_iter_values((0..2).map(|r| value(r) as i32))),
                    Ty::Int16 => Arc::new(Int16Array::from_iter_values((0..2).map(|r| value(r) as i16))),
                    Ty::Float64 => {
                        Arc::new(Float64Array::from_iter_values((0..2).map(|r| value(r) as f64 + 0.5)))
                    }
                    Ty::Boolean => Arc::new(BooleanArray::from(vec![true, false])),
                    Ty::Name | Ty::Derived => {
                        let keys = arrow_array::UInt32Array::from(vec![0, 1]);
                        let values = Arc::new(StringArray::from(vec![text(0), text(1)]));
                        Arc::new(DictionaryArray::try_new(keys, values).unwrap())
                    }
                    Ty::CopyKind | Ty::MemoryKind => {
                        let labels = if spec.ty == Ty::CopyKind {
                            labels::copy_kinds()
                        } else {
                            labels::memory_kinds()
                        };
                        let keys = UInt8Array::from_iter_values((0..2).map(label));
                        Arc::new(
                            DictionaryArray::<UInt8Type>::try_new(keys, Arc::clone(&labels.values)).unwrap(),
                        )
                    }
                };
                array
            })
            .collect();
        RecordBatch::try_new(schema(family), columns).expect("the declared schema")
    }

    /// A batch with two rows of every family, every declared field set (see [`synthetic`]).
    fn every_family() -> (Batch, Names) {
        let mut decoder = ArrowDecoder::new();
        let mut batch = Batch::new();
        for family in Family::ALL {
            decoder.append(family, &synthetic(family), &mut batch).expect("decodes");
            assert_eq!(batch.len_of(family), 2);
        }
        (batch, decoder.names())
    }

    #[test]
    fn every_declared_column_round_trips_through_the_shared_columns() {
        let (batch, names) = every_family();
        let mut encoder = ArrowEncoder::new();
        for family in Family::ALL {
            let original = synthetic(family);
            let encoded = encoder.encode_family(family, &batch, &names).unwrap();
            assert_eq!(encoded.schema(), schema(family));
            let declared: Vec<&str> = specs(family).iter().map(|s| s.name).collect();
            let schema = schema(family);
            let in_schema: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
            assert_eq!(in_schema, declared, "{family:?}");
            for (spec, (back, sent)) in
                specs(family).iter().zip(encoded.columns().iter().zip(original.columns()))
            {
                match spec.ty {
                    // Derived from other columns: what went in was a placeholder.
                    Ty::Derived => assert_eq!(back.null_count(), 0),
                    Ty::Name | Ty::CopyKind | Ty::MemoryKind => {
                        assert_eq!(strings(back), strings(sent), "{family:?} {}", spec.name)
                    }
                    _ => assert_eq!(back.to_data(), sent.to_data(), "{family:?} {}", spec.name),
                }
            }
        }
    }

    #[test]
    fn the_module_documentation_lists_the_declared_columns() {
        let doc = include_str!("mod.rs");
        let mut listed = 0;
        for line in doc.lines().filter_map(|l| l.strip_prefix("//! | ")) {
            let Some((family, cells)) = line.split_once(" | ") else { continue };
            let Some(family) = Family::ALL.into_iter().find(|f| f.name() == family) else { continue };
            // Drop the notes in parentheses, then take each `name`.
            let mut bare = String::new();
            let mut depth = 0;
            for ch in cells.chars() {
                match ch {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ if depth == 0 => bare.push(ch),
                    _ => {}
                }
            }
            let names: Vec<&str> = bare.split('`').skip(1).step_by(2).collect();
            let declared: Vec<&str> = specs(family).iter().map(|s| s.name).collect();
            assert_eq!(names, declared, "the table's {} row", family.name());
            listed += 1;
        }
        assert_eq!(listed, Family::ALL.len(), "a row per family");
    }

    /// The `args` keys the Chrome writer adds for `family` that hold no column.
    #[cfg(feature = "chrome")]
    fn chrome_only(family: Family) -> &'static [&'static str] {
        struct Only;
        impl Visit for Only {
            type Out = &'static [&'static str];
            fn visit<C: Declared>(self) -> Self::Out {
                C::CHROME_ONLY
            }
        }
        visit(family, Only).unwrap_or_default()
    }

    /// The value the Chrome writer should show for column `j` (`spec`) of row `row` of [`synthetic`].
    #[cfg(feature = "chrome")]
    fn chrome_value(j: usize, spec: &Spec, row: usize) -> serde_json::Value {
        let value = 1000 * (j as u64 + 1) + row as u64;
        match spec.ty {
            Ty::Int64 | Ty::Int32 | Ty::Int16 => value.into(),
            Ty::Float64 => (value as f64 + 0.5).into(),
            Ty::Boolean => (row == 0).into(),
            _ => format!("{}{row}", spec.name).into(),
        }
    }

    #[cfg(feature = "chrome")]
    #[test]
    fn the_chrome_writer_puts_each_declared_column_under_its_declared_args_key() {
        use crate::trace::{Categories, ChromeTrace, TimeMap};
        let (batch, names) = every_family();
        let meta = crate::synthetic::SyntheticRank::new(0, 1, 1, 1).meta();
        let mut trace = ChromeTrace::new(meta);
        trace.add_batch(&batch, &names, &TimeMap::from_pair(0, 0));
        let mut json = Vec::new();
        trace.write(&mut json).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&json).expect("a JSON trace");
        let events = json["traceEvents"].as_array().expect("events");
        let cats = Categories::default();
        let category = |family: Family| -> Option<&str> {
            Some(match family {
                Family::KERNEL => &cats.kernel,
                Family::MEMCPY => &cats.memcpy,
                Family::MEMSET => &cats.memset,
                Family::API => &cats.api,
                Family::MARKER => &cats.gpu_marker,
                Family::COLLECTIVE => &cats.collective,
                Family::MEMORY => &cats.memory,
                Family::SYNC => &cats.sync,
                Family::COUNTER => &cats.counter,
                _ => return None,
            })
        };
        for family in Family::ALL {
            let specs = specs(family);
            let Some(cat) = category(family) else {
                assert!(specs.iter().all(|s| s.chrome == Chrome::None), "{family:?} has no Chrome events");
                continue;
            };
            let rows: Vec<&serde_json::Value> = events.iter().filter(|e| e["cat"] == cat).collect();
            assert_eq!(rows.len(), 2, "{family:?}: an event per row");
            for event in rows {
                let args = &event["args"];
                let keys: BTreeSet<String> = args.as_object().expect("args").keys().cloned().collect();
                // Where column `spec` of row `row` shows, if declared.
                let shown = |spec: &Spec, row: usize| -> Option<(String, &serde_json::Value)> {
                    Some(match spec.chrome {
                        Chrome::None => return None,
                        Chrome::Arg(key) => (key.to_owned(), &args[key]),
                        Chrome::Element(key, index) => (key.to_owned(), &args[key][index]),
                        Chrome::UnderName => {
                            let name = format!("name{row}");
                            let value = &args[&name];
                            (name, value)
                        }
                    })
                };
                // Which row: the one whose values the event shows (else row 0, to say what differs).
                let row = (0..2)
                    .find(|r| {
                        specs.iter().enumerate().all(|(j, spec)| {
                            shown(spec, *r).is_none_or(|(_, value)| *value == chrome_value(j, spec, *r))
                        })
                    })
                    .unwrap_or(0);
                let mut expected: BTreeSet<String> =
                    chrome_only(family).iter().map(|k| (*k).to_owned()).collect();
                for (j, spec) in specs.iter().enumerate() {
                    if let Some((key, value)) = shown(spec, row) {
                        assert_eq!(value, &chrome_value(j, spec, row), "{family:?} {} as {key:?}", spec.name);
                        expected.insert(key);
                    }
                }
                assert_eq!(keys, expected, "{family:?}: the args keys, each declared once");
            }
        }
    }

    #[cfg(feature = "parquet")]
    #[test]
    fn parquet_delta_encodes_exactly_the_columns_declared_delta() {
        use crate::parquet::{ParquetOptions, ParquetWriter};
        use parquet::basic::Encoding;
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let delta = delta_encoded();
        assert_eq!(delta, ["start_ns", "end_ns", "correlation"]);
        let events = crate::arrow::events_schema();
        for name in &delta {
            assert!(events.field_with_name(name).is_ok(), "`{name}` is a column");
        }
        let dir = std::env::temp_dir().join(format!("accelprof-columns-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rank0.parquet");
        let (batch, names) = every_family();
        let meta = crate::synthetic::SyntheticRank::new(0, 1, 1, 1).meta();
        let mut writer = ParquetWriter::create(&path, &meta, ParquetOptions::default()).unwrap();
        writer.write_batch(&batch, &names).unwrap();
        writer.finish().unwrap();
        let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let row_group = reader.metadata().row_group(0);
        assert_eq!(row_group.num_columns(), events.fields().len());
        for chunk in row_group.columns() {
            let name = chunk.column_path().string();
            let is_delta = chunk.encodings().any(|e| e == Encoding::DELTA_BINARY_PACKED);
            assert_eq!(
                is_delta,
                delta.contains(&name.as_str()),
                "`{name}`: {:?}",
                chunk.encodings().collect::<Vec<_>>()
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
