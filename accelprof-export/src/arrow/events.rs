use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use accelprof_core::Family;
use arrow_array::types::UInt8Type;
use arrow_array::{
    new_null_array, Array, ArrayRef, BooleanArray, DictionaryArray, Int32Array, RecordBatch, UInt8Array,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use arrow_select::filter::filter_record_batch;

use super::decode::strings;
use super::encode::{schema, SCHEMA_VERSION};
use super::labels;
use crate::Error;

/// The events table: every family's rows in one table (what a Parquet file per rank holds), so that one SQL
/// table over a directory of files holds every rank's records.
///
/// Columns: `rank` (`Int32`), `family` (dictionary: `kernel`, `memcpy`, ...), then every family's columns
/// ([`schema`]), each once (a column name means the same thing, with the same type, in every family that
/// has it), nullable: a row has values in its family's columns and nulls elsewhere.
pub fn events_schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    Arc::clone(SCHEMA.get_or_init(|| {
        let mut fields =
            vec![Field::new("rank", DataType::Int32, false), Field::new("family", family_type(), false)];
        for family in Family::ALL {
            for field in schema(family).fields() {
                match fields.iter().find(|f| f.name() == field.name()) {
                    Some(seen) => assert_eq!(
                        seen.data_type(),
                        field.data_type(),
                        "column `{}` has two types",
                        field.name()
                    ),
                    None => fields.push(field.as_ref().clone().with_nullable(true)),
                }
            }
        }
        let metadata = HashMap::from([("accelprof.schema_version".to_owned(), SCHEMA_VERSION.to_owned())]);
        Arc::new(Schema::new_with_metadata(fields, metadata))
    }))
}

fn family_type() -> DataType {
    DataType::Dictionary(Box::new(DataType::UInt8), Box::new(DataType::Utf8))
}

/// Builds events-table batches from family batches, with the null columns shared across calls.
#[derive(Debug, Default)]
pub struct EventsTable {
    nulls: HashMap<DataType, ArrayRef>,
}

impl EventsTable {
    /// A builder.
    pub fn new() -> Self {
        EventsTable::default()
    }

    /// The rows of `rb` (records of `family`, as [`ArrowEncoder`](super::ArrowEncoder) gives them) as rows
    /// of the events table of `rank`. No column is copied: the family's arrays are reused, and the other
    /// columns are slices of one all-null array per type.
    pub fn widen(&mut self, rank: u32, family: Family, rb: &RecordBatch) -> Result<RecordBatch, Error> {
        let rows = rb.num_rows();
        let schema = events_schema();
        let mut columns: Vec<ArrayRef> = Vec::with_capacity(schema.fields().len());
        columns.push(Arc::new(Int32Array::from_value(rank as i32, rows)));
        let keys = UInt8Array::from_value(family.0, rows);
        columns.push(Arc::new(DictionaryArray::<UInt8Type>::try_new(
            keys,
            Arc::clone(&labels::families().values),
        )?));
        for field in schema.fields().iter().skip(2) {
            let column = match rb.column_by_name(field.name()) {
                Some(column) => Arc::clone(column),
                None => self.nulls(field.data_type(), rows),
            };
            columns.push(column);
        }
        Ok(RecordBatch::try_new(schema, columns)?)
    }

    fn nulls(&mut self, data_type: &DataType, rows: usize) -> ArrayRef {
        let cached = self.nulls.entry(data_type.clone()).or_insert_with(|| new_null_array(data_type, 0));
        if cached.len() < rows {
            *cached = new_null_array(data_type, rows.next_power_of_two());
        }
        cached.slice(0, rows)
    }
}

/// Splits rows of the events table (e.g. read from Parquet) by family: for each family present, its rows
/// with its own columns (by name, as in [`schema`]), in [`Family::ALL`] order.
pub fn split_events(rb: &RecordBatch) -> Result<Vec<(Family, RecordBatch)>, Error> {
    let family_column =
        rb.column_by_name("family").ok_or_else(|| Error::Schema("no `family` column".into()))?;
    let families: Vec<Option<String>> =
        strings(family_column).ok_or_else(|| Error::Schema("`family` is not a string column".into()))?;
    let mut out = Vec::new();
    for family in Family::ALL {
        let mask: BooleanArray = families.iter().map(|f| Some(f.as_deref() == Some(family.name()))).collect();
        if mask.true_count() == 0 {
            continue;
        }
        let rows = filter_record_batch(rb, &mask)?;
        let own = schema(family);
        let mut fields = Vec::new();
        let mut columns = Vec::new();
        for field in own.fields() {
            let Some((i, _)) = rows.schema().column_with_name(field.name()) else {
                return Err(Error::Schema(format!("no `{}` column for {family:?} rows", field.name())));
            };
            fields.push(rows.schema().field(i).clone());
            columns.push(Arc::clone(rows.column(i)));
        }
        out.push((family, RecordBatch::try_new(Arc::new(Schema::new(fields)), columns)?));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_name_has_one_type_in_every_family() {
        let events = events_schema();
        for family in Family::ALL {
            for field in schema(family).fields() {
                let (_, wide) = events.column_with_name(field.name()).unwrap();
                assert_eq!(wide.data_type(), field.data_type(), "{}", field.name());
            }
        }
        // Every column name appears once.
        let mut names: Vec<&String> = events.fields().iter().map(|f| f.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), events.fields().len());
    }
}
