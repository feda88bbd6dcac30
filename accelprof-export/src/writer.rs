use std::path::PathBuf;

use accelprof_core::{Batch, Family, Names, PerFamily};

use crate::Error;

/// A trace writer fed batch by batch, the shape a tracer's sink drives: `write_batch` for each delivered
/// batch, `flush` when the tracer flushes, `finish` once at the end.
pub trait BatchWriter: Send {
    /// Writes every row of `batch` (`names` resolves its name ids). The batch can be reused as soon as this
    /// returns.
    fn write_batch(&mut self, batch: &Batch, names: &Names) -> Result<(), Error>;

    /// Makes what was written so far durable in the file's own terms (a Parquet row group ends; a Perfetto
    /// file's buffer goes to the OS).
    fn flush(&mut self) -> Result<(), Error>;

    /// Writes what remains (a Parquet footer), and renames the file into place.
    fn finish(self: Box<Self>) -> Result<Finished, Error>;
}

/// What a finished writer wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The file, under its final name.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// Rows written per family, in [`Family::ALL`] order.
    pub rows: PerFamily<u64>,
}

impl Finished {
    /// Rows written of every family.
    pub fn total_rows(&self) -> u64 {
        self.rows.iter().sum()
    }
}

/// Counts rows per family.
pub(crate) fn count_rows(rows: &mut PerFamily<u64>, batch: &Batch) {
    for family in Family::ALL {
        rows[family] += batch.len_of(family) as u64;
    }
}
