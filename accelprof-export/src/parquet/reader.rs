use std::fs::File;
use std::path::Path;

use accelprof_core::{Batch, Names, PerFamily};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::reader::{FileReader, SerializedFileReader};

use super::metadata::from_key_values;
use crate::arrow::{split_events, ArrowDecoder};
use crate::{Error, RunMeta};

/// A Parquet trace read back whole.
#[derive(Debug)]
pub struct ParquetTrace {
    /// The run's metadata.
    pub meta: RunMeta,
    /// Rows per family as the footer counts them (`None` for a file without the count).
    pub footer_rows: Option<PerFamily<u64>>,
    /// Every row.
    pub batch: Batch,
    /// The names of `batch`'s name ids.
    pub names: Names,
    /// Row groups in the file.
    pub row_groups: usize,
}

/// Reads only a file's metadata (the footer).
pub fn read_meta(path: impl AsRef<Path>) -> Result<RunMeta, Error> {
    let reader = SerializedFileReader::new(File::open(path)?)?;
    let kv = reader.metadata().file_metadata().key_value_metadata().cloned().unwrap_or_default();
    Ok(from_key_values(&kv)?.0)
}

/// Reads a whole file into one [`Batch`] (for re-export and tests; a query engine reads the columns it
/// needs instead).
pub fn read_parquet(path: impl AsRef<Path>) -> Result<ParquetTrace, Error> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path)?)?;
    let kv = builder.metadata().file_metadata().key_value_metadata().cloned().unwrap_or_default();
    let (meta, footer_rows) = from_key_values(&kv)?;
    let row_groups = builder.metadata().num_row_groups();
    let mut decoder = ArrowDecoder::new();
    let mut batch = Batch::new();
    for rb in builder.build()? {
        for (family, rows) in split_events(&rb?)? {
            decoder.append(family, &rows, &mut batch)?;
        }
    }
    Ok(ParquetTrace { meta, footer_rows, batch, names: decoder.names(), row_groups })
}
