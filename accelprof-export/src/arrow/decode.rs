use accelprof_core::intern::Interner;
use accelprof_core::{Batch, Family, NameId, Names};
use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int16Type, Int32Type, Int64Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::DataType;

use super::columns::{self, Declared, Visit};
use super::labels::CodeLabels;
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
        struct Append<'r, 'a, 'o> {
            reader: &'r mut Reader<'a>,
            out: &'o mut Batch,
        }
        impl Visit for Append<'_, '_, '_> {
            type Out = Result<(), Error>;
            fn visit<C: Declared>(self) -> Self::Out {
                columns::decode::<C>(self.reader, self.out)
            }
        }
        let mut reader = Reader { rb, interner: &mut self.interner };
        columns::visit(family, Append { reader: &mut reader, out })
            .unwrap_or_else(|| Err(Error::Schema(format!("no Arrow schema for {family:?}"))))
    }
}

/// Reads our columns out of one record batch, by name.
pub(crate) struct Reader<'a> {
    rb: &'a RecordBatch,
    interner: &'a mut Interner,
}

fn missing(name: &str) -> Error {
    Error::Schema(format!("column `{name}` is missing or has another type"))
}

impl Reader<'_> {
    /// Rows in the record batch.
    pub(crate) fn rows(&self) -> usize {
        self.rb.num_rows()
    }

    fn col(&self, name: &str) -> Result<&ArrayRef, Error> {
        self.rb.column_by_name(name).ok_or_else(|| missing(name))
    }

    pub(crate) fn u64s(&self, name: &str) -> Result<Vec<u64>, Error> {
        let a = self.col(name)?.as_primitive_opt::<Int64Type>().ok_or_else(|| missing(name))?;
        Ok(a.values().iter().map(|v| *v as u64).collect())
    }

    pub(crate) fn u32s(&self, name: &str) -> Result<Vec<u32>, Error> {
        let a = self.col(name)?.as_primitive_opt::<Int32Type>().ok_or_else(|| missing(name))?;
        Ok(a.values().iter().map(|v| *v as u32).collect())
    }

    pub(crate) fn u16s(&self, name: &str) -> Result<Vec<u16>, Error> {
        let a = self.col(name)?.as_primitive_opt::<Int16Type>().ok_or_else(|| missing(name))?;
        Ok(a.values().iter().map(|v| *v as u16).collect())
    }

    pub(crate) fn f64s(&self, name: &str) -> Result<Vec<f64>, Error> {
        let a = self.col(name)?.as_primitive_opt::<Float64Type>().ok_or_else(|| missing(name))?;
        Ok(a.values().to_vec())
    }

    pub(crate) fn bools(&self, name: &str) -> Result<Vec<bool>, Error> {
        let a = self.col(name)?.as_boolean_opt().ok_or_else(|| missing(name))?;
        Ok(a.values().iter().collect())
    }

    /// The text of each row of a string column (plain or dictionary), `None` where null.
    fn strings(&self, name: &str) -> Result<Vec<Option<String>>, Error> {
        strings(self.col(name)?).ok_or_else(|| missing(name))
    }

    pub(crate) fn names(&mut self, name: &str) -> Result<Vec<NameId>, Error> {
        let texts = self.strings(name)?;
        Ok(texts.iter().map(|t| t.as_deref().map_or(NameId::NONE, |t| self.interner.intern(t))).collect())
    }

    pub(crate) fn codes(&self, name: &str, labels: &CodeLabels) -> Result<Vec<u8>, Error> {
        self.strings(name)?
            .into_iter()
            .map(|t| {
                t.as_deref()
                    .and_then(|t| labels.code(t))
                    .ok_or_else(|| Error::Schema(format!("`{name}` holds a label we never write: {t:?}")))
            })
            .collect()
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
