use std::path::Path;

use accelprof_core::{Batch, Family, Names};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression as Codec, Encoding};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;

use super::metadata::{rows_key_value, to_key_values};
use crate::arrow::{events_schema, ArrowEncoder, EventsTable};
use crate::atomic_file::AtomicFile;
use crate::writer::count_rows;
use crate::{BatchWriter, Error, Finished, RunMeta};

/// How the column chunks are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Compression {
    /// Snappy (pure Rust; what Spark writes by default).
    Snappy,
    /// Zstandard at a level (1 to 22); feature `zstd`.
    #[cfg(feature = "zstd")]
    Zstd(i32),
    /// None.
    Uncompressed,
}

/// How a [`ParquetWriter`] lays out its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParquetOptions {
    /// The codec (default Snappy).
    pub compression: Compression,
    /// A row group ends after this many rows even without a flush (default 1,048,576): what bounds the
    /// writer's memory between flushes.
    pub max_row_group_rows: usize,
    /// A row group ends once its encoded size reaches this many bytes (default 64 MiB).
    pub max_row_group_bytes: usize,
}

impl Default for ParquetOptions {
    fn default() -> Self {
        ParquetOptions {
            compression: Compression::Snappy,
            max_row_group_rows: 1 << 20,
            max_row_group_bytes: 64 << 20,
        }
    }
}

/// Writes one Parquet file per process/rank as batches arrive: every family's rows in the
/// [events table](crate::arrow::events_schema), a row group per [`flush`](Self::flush) (or per
/// [`ParquetOptions::max_row_group_rows`]), so that memory stays bounded by one row group's encoded size
/// whatever the run's length.
///
/// The run's [`RunMeta`] is in the file's key-value metadata ([`metadata`](super::metadata) lists the
/// keys), with the rows per family added at finish. The file is written under a temporary name next to
/// `path` and renamed at [`finish`](Self::finish): a file under the final name is always complete (a crash
/// leaves the temporary file, which has no footer and is not readable as Parquet).
///
/// Timestamps (`start_ns`, `end_ns`) and `correlation` are delta-encoded; the other columns dictionary-
/// then run-length encoded, which is what makes a kernel row cost tens of bytes rather than hundreds.
pub struct ParquetWriter {
    writer: ArrowWriter<AtomicFile>,
    encoder: ArrowEncoder,
    table: EventsTable,
    rank: u32,
    max_row_group_bytes: usize,
    rows: [u64; Family::ALL.len()],
}

impl std::fmt::Debug for ParquetWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetWriter")
            .field("path", &self.writer.inner().path())
            .field("rank", &self.rank)
            .field("rows", &self.rows)
            .finish_non_exhaustive()
    }
}

impl ParquetWriter {
    /// Creates the file (under a temporary name until [`finish`](Self::finish)).
    pub fn create(path: impl AsRef<Path>, meta: &RunMeta, options: ParquetOptions) -> Result<Self, Error> {
        let file = AtomicFile::create(path.as_ref())?;
        let codec = match options.compression {
            Compression::Snappy => Codec::SNAPPY,
            #[cfg(feature = "zstd")]
            Compression::Zstd(level) => Codec::ZSTD(parquet::basic::ZstdLevel::try_new(level)?),
            Compression::Uncompressed => Codec::UNCOMPRESSED,
        };
        let mut props = WriterProperties::builder()
            .set_compression(codec)
            .set_max_row_group_row_count(Some(options.max_row_group_rows.max(1)))
            .set_statistics_enabled(EnabledStatistics::Chunk)
            .set_key_value_metadata(Some(to_key_values(meta)))
            .set_created_by(format!("accelprof-export {}", env!("CARGO_PKG_VERSION")));
        // Timestamps and correlation ids grow with time: deltas are small, a dictionary would not be.
        for column in ["start_ns", "end_ns", "correlation"] {
            let column = ColumnPath::from(column);
            props = props
                .set_column_dictionary_enabled(column.clone(), false)
                .set_column_encoding(column, Encoding::DELTA_BINARY_PACKED);
        }
        let writer = ArrowWriter::try_new(file, events_schema(), Some(props.build()))?;
        Ok(ParquetWriter {
            writer,
            encoder: ArrowEncoder::new(),
            table: EventsTable::new(),
            rank: meta.rank,
            max_row_group_bytes: options.max_row_group_bytes.max(1),
            rows: [0; Family::ALL.len()],
        })
    }

    /// Writes every row of `batch` into the current row group.
    pub fn write_batch(&mut self, batch: &Batch, names: &Names) -> Result<(), Error> {
        for (family, rb) in self.encoder.encode(batch, names)? {
            let wide = self.table.widen(self.rank, family, &rb)?;
            self.writer.write(&wide)?;
        }
        count_rows(&mut self.rows, batch);
        if self.writer.in_progress_size() >= self.max_row_group_bytes {
            self.writer.flush()?;
        }
        Ok(())
    }

    /// Ends the current row group (nothing happens when it is empty).
    pub fn flush(&mut self) -> Result<(), Error> {
        self.writer.flush()?;
        self.writer.sync()?;
        Ok(())
    }

    /// Bytes buffered for the row group in progress (encoded, compressed): the writer's memory.
    pub fn buffered_bytes(&self) -> usize {
        self.writer.memory_size()
    }

    /// Rows written so far per family.
    pub fn rows(&self) -> &[u64; Family::ALL.len()] {
        &self.rows
    }

    /// Writes the last row group and the footer (with the rows per family), and renames the file into
    /// place.
    pub fn finish(self) -> Result<Finished, Error> {
        let ParquetWriter { mut writer, rows, .. } = self;
        writer.append_key_value_metadata(rows_key_value(&rows));
        let file = writer.into_inner()?;
        let bytes = file.written();
        let path = file.commit()?;
        Ok(Finished { path, bytes, rows })
    }
}

impl BatchWriter for ParquetWriter {
    fn write_batch(&mut self, batch: &Batch, names: &Names) -> Result<(), Error> {
        ParquetWriter::write_batch(self, batch, names)
    }

    fn flush(&mut self) -> Result<(), Error> {
        ParquetWriter::flush(self)
    }

    fn finish(self: Box<Self>) -> Result<Finished, Error> {
        ParquetWriter::finish(*self)
    }
}
