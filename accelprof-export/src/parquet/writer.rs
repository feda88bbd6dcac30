use std::path::Path;

use accelprof_core::{Batch, Names, PerFamily};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression as Codec, Encoding};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;

use super::metadata::{rows_key_value, to_key_values};
use crate::arrow::{events_schema, ArrowEncoder, EventsTable};
use crate::atomic_file::GrowingFile;
use crate::writer::count_rows;
use crate::{BatchWriter, Error, Finished, RunMeta};

/// The columns whose chunks carry min/max statistics (the others carry none).
const STATISTICS_COLUMNS: &[&str] = &["rank", "start_ns", "end_ns"];

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
/// keys), with the rows per family added at finish. The file is written as `name.partial-<pid>.parquet`
/// next to `path` and renamed at [`finish`](Self::finish): a file under the final name is always complete.
/// Each row group goes to the file with a footer naming every row group so far, written over the previous
/// footer in one write, so the `.partial` file a killed process leaves is a readable Parquet file holding
/// every row group written before the kill (without the final footer's rows count); only a kill during
/// that one write can leave it without a footer. `crate::trace::recover` (and the launcher)
/// renames such a file into place.
///
/// Timestamps (`start_ns`, `end_ns`) and `correlation` are delta-encoded; the other columns dictionary-
/// then run-length encoded, which is what makes a kernel row cost tens of bytes rather than hundreds.
/// Only `rank`, `start_ns` and `end_ns` carry min/max statistics (per column chunk): what a reader can
/// skip row groups or files by; the others' cost a comparison per value for no use.
pub struct ParquetWriter {
    writer: ArrowWriter<GrowingFile>,
    /// Row groups whose footer is in the file (`None`: no footer yet).
    committed_row_groups: Option<usize>,
    /// The footer's schema (the writer's, converted the same way).
    schema_descr: std::sync::Arc<parquet::schema::types::SchemaDescriptor>,
    encoder: ArrowEncoder,
    table: EventsTable,
    rank: u32,
    /// What the footer will say (written at finish, so that what is learned later gets in).
    meta: RunMeta,
    /// Further footer pairs (the tracer's summary).
    extra_key_values: Vec<parquet::file::metadata::KeyValue>,
    max_row_group_bytes: usize,
    rows: PerFamily<u64>,
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
    /// Creates the file (under a temporary name until [`finish`](Self::finish)). `Err` for a rank above
    /// `i32::MAX` (the `rank` column is a signed 32-bit integer: it would read as a negative rank).
    pub fn create(path: impl AsRef<Path>, meta: &RunMeta, options: ParquetOptions) -> Result<Self, Error> {
        if i32::try_from(meta.rank).is_err() {
            return Err(Error::Schema(format!(
                "rank {} is above {}, the largest the `rank` column (a signed 32-bit integer) holds",
                meta.rank,
                i32::MAX
            )));
        }
        let file = GrowingFile::create(path.as_ref())?;
        let codec = match options.compression {
            Compression::Snappy => Codec::SNAPPY,
            #[cfg(feature = "zstd")]
            Compression::Zstd(level) => Codec::ZSTD(parquet::basic::ZstdLevel::try_new(level)?),
            Compression::Uncompressed => Codec::UNCOMPRESSED,
        };
        let mut props = WriterProperties::builder()
            .set_compression(codec)
            .set_max_row_group_row_count(Some(options.max_row_group_rows.max(1)))
            // Min/max statistics cost parquet-rs a comparison per value (a string comparison for the
            // dictionary columns): 420 to 460 instructions per record on the engine's own benchmark
            // (BENCHMARKS.md, engine record rate). They are kept only where a reader can skip data with
            // them: a time window (`start_ns`, `end_ns`) and, across the per-rank files, `rank`.
            .set_statistics_enabled(EnabledStatistics::None)
            .set_created_by(format!("accelprof-export {}", env!("CARGO_PKG_VERSION")));
        // Timestamps and correlation ids grow with time: deltas are small, a dictionary would not be. The
        // columns are the ones declared `delta` (arrow/columns.rs).
        for column in crate::arrow::delta_encoded() {
            let column = ColumnPath::from(column);
            props = props
                .set_column_dictionary_enabled(column.clone(), false)
                .set_column_encoding(column, Encoding::DELTA_BINARY_PACKED);
        }
        for column in STATISTICS_COLUMNS {
            props = props.set_column_statistics_enabled(ColumnPath::from(*column), EnabledStatistics::Chunk);
        }
        let writer = ArrowWriter::try_new(file, events_schema(), Some(props.build()))?;
        let schema_descr =
            std::sync::Arc::new(parquet::arrow::ArrowSchemaConverter::new().convert(&events_schema())?);
        let mut parquet = ParquetWriter {
            committed_row_groups: None,
            schema_descr,
            writer,
            encoder: ArrowEncoder::new(),
            table: EventsTable::new(),
            rank: meta.rank,
            meta: meta.clone(),
            extra_key_values: Vec::new(),
            max_row_group_bytes: options.max_row_group_bytes.max(1),
            rows: PerFamily::default(),
        };
        // From the start the file is a whole Parquet file (of no rows).
        parquet.commit_footer()?;
        Ok(parquet)
    }

    /// Once a row group more is in the file: writes it with a footer naming every row group so far
    /// (the run's metadata as known now, without the rows count of the final footer), over the previous
    /// footer, in one write: a process killed between two row groups leaves a readable file.
    fn commit_footer(&mut self) -> Result<(), Error> {
        use parquet::file::metadata::{FileMetaData, KeyValue, ParquetMetaData, ParquetMetaDataWriter};
        let row_groups = self.writer.flushed_row_groups().to_vec();
        if Some(row_groups.len()) == self.committed_row_groups {
            return Ok(());
        }
        let num_rows = row_groups.iter().map(|rg| rg.num_rows()).sum();
        let mut pairs: Vec<KeyValue> = to_key_values(&self.meta);
        pairs.extend(self.extra_key_values.iter().cloned());
        pairs.push(KeyValue::new(
            "ARROW:schema".to_owned(),
            parquet::arrow::encode_arrow_schema(&events_schema()),
        ));
        let file_meta = FileMetaData::new(
            1,
            num_rows,
            Some(format!("accelprof-export {}", env!("CARGO_PKG_VERSION"))),
            Some(pairs),
            std::sync::Arc::clone(&self.schema_descr),
            None,
        );
        let count = row_groups.len();
        // What the writer buffers goes to the file's pending bytes first.
        self.writer.sync()?;
        let mut footer = Vec::new();
        ParquetMetaDataWriter::new(&mut footer, &ParquetMetaData::new(file_meta, row_groups)).finish()?;
        self.writer.inner_mut().commit(&footer)?;
        self.committed_row_groups = Some(count);
        Ok(())
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
        // A row group the writer ended by itself (max_row_group_rows) goes to the file with its footer.
        self.commit_footer()
    }

    /// Ends the current row group (nothing happens when it is empty) and writes it to the file with a
    /// footer: the file is readable with every row group so far.
    pub fn flush(&mut self) -> Result<(), Error> {
        self.writer.flush()?;
        self.commit_footer()
    }

    /// Bytes buffered for the row group in progress (encoded, compressed): the writer's memory.
    pub fn buffered_bytes(&self) -> usize {
        self.writer.memory_size()
    }

    /// Rows written so far per family.
    pub fn rows(&self) -> &PerFamily<u64> {
        &self.rows
    }

    /// The run's metadata as the footer will have it: the footer is written at [`finish`](Self::finish),
    /// so what a tracer learns after the file began (the devices, once the driver describes them; the
    /// clock anchor, with the first batch) goes in by changing it here. The rank is the one given at
    /// creation (every row carries it).
    pub fn meta_mut(&mut self) -> &mut RunMeta {
        &mut self.meta
    }

    /// Adds a footer pair `accelprof.<key>` (e.g. the tracer's summary as JSON under `summary`).
    pub fn add_footer_key(&mut self, key: &str, value: String) {
        self.extra_key_values.push(parquet::file::metadata::KeyValue::new(format!("accelprof.{key}"), value));
    }

    /// The file being written until [`finish`](Self::finish) renames it (readable, with the row groups
    /// written so far).
    pub fn temporary_path(&self) -> &Path {
        self.writer.inner().temporary_path()
    }

    /// Writes the last row group and the footer (the run's metadata, with the rows per family), and
    /// renames the file into place.
    pub fn finish(self) -> Result<Finished, Error> {
        let ParquetWriter { mut writer, rows, mut meta, extra_key_values, rank, .. } = self;
        meta.rank = rank;
        for kv in to_key_values(&meta).into_iter().chain(extra_key_values) {
            writer.append_key_value_metadata(kv);
        }
        writer.append_key_value_metadata(rows_key_value(&rows));
        let file = writer.into_inner()?;
        let (path, bytes) = file.finish()?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::file::statistics::Statistics;

    #[test]
    fn only_rank_and_the_times_carry_statistics() {
        let dir = std::env::temp_dir().join(format!("accelprof-parquet-stats-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rank3.parquet");
        let spec = crate::synthetic::SyntheticRank::new(3, 4, 2, 5);
        let mut writer = ParquetWriter::create(&path, &spec.meta(), ParquetOptions::default()).unwrap();
        let (mut first_start, mut last_end) = (i64::MAX, i64::MIN);
        spec.run(|batch, names| {
            for (&start, &end) in batch.kernels.start().iter().zip(batch.kernels.end()) {
                first_start = first_start.min(start as i64);
                last_end = last_end.max(end as i64);
            }
            writer.write_batch(batch, names).unwrap();
        });
        writer.finish().unwrap();
        let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        assert_eq!(reader.metadata().num_row_groups(), 1);
        let row_group = reader.metadata().row_group(0);
        let mut with_statistics = Vec::new();
        for chunk in row_group.columns() {
            let name = chunk.column_path().string();
            match (name.as_str(), chunk.statistics()) {
                (_, None) => continue,
                ("rank", Some(Statistics::Int32(s))) => {
                    assert_eq!((s.min_opt(), s.max_opt()), (Some(&3), Some(&3)));
                }
                ("start_ns", Some(Statistics::Int64(s))) => {
                    assert!(*s.min_opt().unwrap() <= first_start, "{s:?} against {first_start}");
                }
                ("end_ns", Some(Statistics::Int64(s))) => {
                    assert!(*s.max_opt().unwrap() >= last_end, "{s:?} against {last_end}");
                }
                (_, Some(s)) => panic!("`{name}` has statistics: {s:?}"),
            }
            with_statistics.push(name);
        }
        assert_eq!(with_statistics, STATISTICS_COLUMNS);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A rank above i32::MAX was stored in the Int32 `rank` column as a negative rank.
    #[test]
    fn a_rank_the_rank_column_cannot_hold_is_refused() {
        let dir = std::env::temp_dir().join(format!("accelprof-parquet-rank-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.parquet");
        let meta = RunMeta { rank: i32::MAX as u32 + 1, world_size: u32::MAX, ..RunMeta::default() };
        let e = ParquetWriter::create(&path, &meta, ParquetOptions::default()).expect_err("refused");
        assert!(e.to_string().contains("rank 2147483648 is above 2147483647"), "{e}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "no file is left");
        let meta = RunMeta { rank: i32::MAX as u32, world_size: u32::MAX, ..RunMeta::default() };
        ParquetWriter::create(&path, &meta, ParquetOptions::default()).unwrap().finish().unwrap();
        assert_eq!(crate::parquet::read_meta(&path).unwrap().rank, i32::MAX as u32);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
