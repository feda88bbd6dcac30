use std::path::{Path, PathBuf};
use std::sync::Arc;

use accelprof_export::arrow::events_schema;
use accelprof_export::parquet::read_meta;
use datafusion::arrow::array::{ArrayRef, AsArray, RecordBatch};
use datafusion::arrow::compute::{can_cast_types, cast, concat_batches};
use datafusion::arrow::datatypes::{DataType, Decimal128Type, Float64Type, Int64Type};
use datafusion::datasource::file_format::options::ReadOptions;
use datafusion::datasource::listing::{ListingTable, ListingTableConfig, ListingTableUrl};
use datafusion::execution::context::SQLOptions;
use datafusion::execution::memory_pool::FairSpillPool;
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use datafusion::parquet::arrow::ProjectionMask;
use datafusion::parquet::file::metadata::ColumnChunkMetaData;
use datafusion::parquet::file::statistics::Statistics;
use datafusion::prelude::{ParquetReadOptions, SessionConfig, SessionContext};

use crate::queries::{sql, Query, QueryOptions};
use crate::results::*;
use crate::rules::KernelType;
use crate::Error;

/// How the analysis runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// What the queries classify and include.
    pub queries: QueryOptions,
    /// The most memory the query engine may hold (default 1 GiB); sorts and aggregations past it spill to
    /// temporary files.
    pub memory_limit: usize,
    /// Where spills go (default the system's temporary directory).
    pub spill_dir: Option<PathBuf>,
    /// Parallel partitions (default the machine's cores).
    pub partitions: Option<usize>,
    /// Whether [`Analysis::query`] may run statements that write or read other files or change the
    /// session (`COPY ... TO`, `CREATE EXTERNAL TABLE`, `INSERT`, `CREATE VIEW`, `SET`); default `false`:
    /// queries only.
    pub allow_writes: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            queries: QueryOptions::default(),
            memory_limit: 1 << 30,
            spill_dir: None,
            partitions: None,
            allow_writes: false,
        }
    }
}

/// A directory of per-rank Parquet files, registered as the table `events` of an in-process DataFusion
/// session: run the shipped analyses ([`report`](Self::report) or one by one) or any SQL.
pub struct Analysis {
    ctx: SessionContext,
    runtime: tokio::runtime::Runtime,
    options: Options,
    ranks: Vec<RankInfo>,
}

impl std::fmt::Debug for Analysis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analysis").field("ranks", &self.ranks.len()).field("options", &self.options).finish()
    }
}

impl Analysis {
    /// Registers every `*.parquet` file of `dir` (each one rank's) as the table `events`.
    ///
    /// The files are the ones listed here, each given to the engine by its own path: the directory's name
    /// is never read as a pattern (`traces[1]/` is that directory). Each file must be one of ours (its
    /// metadata and the columns the queries need, its metadata's rank at most 2^31-1 and its `rank` column
    /// that rank, and no timestamp negative or null: [`Error::Values`]), and no two may hold the same rank ([`Error::SameRank`]: the analyses
    /// would add them together).
    pub fn open(dir: impl AsRef<Path>, options: Options) -> Result<Analysis, Error> {
        let dir = dir.as_ref();
        let listing = std::fs::read_dir(dir).map_err(|e| Error::Dir(dir.to_path_buf(), e))?;
        let mut files = Vec::new();
        for entry in listing {
            let path = entry.map_err(|e| Error::Dir(dir.to_path_buf(), e))?.path();
            if path.extension().is_some_and(|x| x == "parquet") && path.is_file() {
                files.push(path);
            }
        }
        files.sort();
        if files.is_empty() {
            return Err(Error::NoFiles(dir.to_path_buf()));
        }
        let mut ranks = Vec::with_capacity(files.len());
        for file in files {
            let meta = read_meta(&file).map_err(|e| Error::File(file.clone(), e))?;
            check_columns(&file)?;
            check_values(&file, meta.rank)?;
            ranks.push(RankInfo { file, meta });
        }
        ranks.sort_by(|a, b| a.meta.rank.cmp(&b.meta.rank).then_with(|| a.file.cmp(&b.file)));
        if let Some(pair) = ranks.windows(2).find(|w| w[0].meta.rank == w[1].meta.rank) {
            return Err(Error::SameRank {
                rank: pair[0].meta.rank,
                files: (pair[0].file.clone(), pair[1].file.clone()),
            });
        }
        let urls = ranks.iter().map(|r| file_url(&r.file)).collect::<Result<Vec<_>, _>>()?;

        let partitions = options
            .partitions
            .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2));
        let mut runtime_env =
            RuntimeEnvBuilder::new().with_memory_pool(Arc::new(FairSpillPool::new(options.memory_limit)));
        if let Some(spill) = &options.spill_dir {
            runtime_env = runtime_env.with_temp_file_path(spill.clone());
        }
        let config = SessionConfig::new().with_target_partitions(partitions).with_information_schema(false);
        let ctx = SessionContext::new_with_config_rt(config, runtime_env.build_arc()?);
        let runtime =
            tokio::runtime::Builder::new_multi_thread().worker_threads(partitions.max(1)).build()?;
        let listing_options = ParquetReadOptions::default()
            .to_listing_options(&ctx.copied_config(), ctx.copied_table_options());
        let table = ListingTable::try_new(
            ListingTableConfig::new_with_multi_paths(urls)
                .with_listing_options(listing_options)
                .with_schema(events_schema()),
        )?;
        ctx.register_table("events", Arc::new(table))?;
        Ok(Analysis { ctx, runtime, options, ranks })
    }

    /// The files, one per rank, in rank order.
    pub fn ranks(&self) -> &[RankInfo] {
        &self.ranks
    }

    /// Runs any query over `events` and returns every row.
    ///
    /// Read-only unless [`Options::allow_writes`]: a statement that writes or reads other files or
    /// changes the session (`COPY ... TO`, `CREATE EXTERNAL TABLE`, `INSERT`, `CREATE VIEW`, `SET`, ...)
    /// is refused before it runs.
    pub fn query(&self, sql: &str) -> Result<Vec<RecordBatch>, Error> {
        let allow = self.options.allow_writes;
        let access =
            SQLOptions::new().with_allow_ddl(allow).with_allow_dml(allow).with_allow_statements(allow);
        self.runtime.block_on(async {
            let df = self.ctx.sql_with_options(sql, access).await?;
            Ok(df.collect().await?)
        })
    }

    fn rows(&self, q: Query) -> Result<Rows, Error> {
        Rows::new(self.query(&sql(q, &self.options.queries))?)
    }

    /// Time per kernel name per rank.
    pub fn kernels(&self) -> Result<Vec<KernelStat>, Error> {
        let r = self.rows(Query::Kernels)?;
        let (rank, kind, name) = (r.ints("rank")?, r.kernel_types()?, r.strings("name")?);
        let (count, sum, min, max) =
            (r.ints("count")?, r.wide("sum_ns")?, r.ints("min_ns")?, r.ints("max_ns")?);
        let (mean, stddev) = (r.floats("mean_ns")?, r.floats("stddev_ns")?);
        (0..r.len())
            .map(|i| {
                let rank = self.rank(req(&rank, i)?)?;
                Ok(KernelStat {
                    rank,
                    kernel_type: kind[i],
                    name: name[i].clone(),
                    count: req(&count, i)? as u64,
                    sum_ns: self.fit(sum[i], rank, || format!("the total time of kernel `{}`", name[i]))?,
                    min_ns: req(&min, i)?,
                    max_ns: req(&max, i)?,
                    mean_ns: mean[i],
                    stddev_ns: stddev[i],
                })
            })
            .collect()
    }

    /// Time per kernel type per rank.
    pub fn categories(&self) -> Result<Vec<CategoryTime>, Error> {
        let r = self.rows(Query::Categories)?;
        let (rank, kind, count, sum) =
            (r.ints("rank")?, r.kernel_types()?, r.ints("count")?, r.wide("sum_ns")?);
        (0..r.len())
            .map(|i| {
                let rank = self.rank(req(&rank, i)?)?;
                Ok(CategoryTime {
                    rank,
                    kernel_type: kind[i],
                    count: req(&count, i)? as u64,
                    sum_ns: self.fit(sum[i], rank, || format!("the total time of {} kernels", kind[i]))?,
                })
            })
            .collect()
    }

    /// Time per overlap state per rank.
    pub fn breakdown(&self) -> Result<Vec<OverlapTime>, Error> {
        let r = self.rows(Query::Breakdown)?;
        let (rank, state, time) = (r.ints("rank")?, r.ints("state")?, r.ints("time_ns")?);
        (0..r.len())
            .map(|i| {
                Ok(OverlapTime {
                    rank: self.rank(req(&rank, i)?)?,
                    state: req(&state, i)? as u32,
                    time_ns: req(&time, i)?,
                })
            })
            .collect()
    }

    /// Idle time per rank.
    pub fn idle(&self) -> Result<Vec<IdleTime>, Error> {
        let r = self.rows(Query::Idle)?;
        let (rank, idle, compute) = (r.ints("rank")?, r.ints("idle_ns")?, r.ints("compute_ns")?);
        let (other, span) = (r.ints("non_compute_ns")?, r.ints("kernel_time_ns")?);
        (0..r.len())
            .map(|i| {
                Ok(IdleTime {
                    rank: self.rank(req(&rank, i)?)?,
                    idle_ns: req(&idle, i)?,
                    compute_ns: req(&compute, i)?,
                    non_compute_ns: req(&other, i)?,
                    kernel_time_ns: req(&span, i)?,
                })
            })
            .collect()
    }

    /// Steps per rank, in step then rank order.
    pub fn steps(&self) -> Result<Vec<StepTime>, Error> {
        let r = self.rows(Query::Steps)?;
        let (step, rank, start) = (r.strings("step")?, r.ints("rank")?, r.ints("start_ns")?);
        let (duration, comm) = (r.ints("duration_ns")?, r.ints("last_comm_start_ns")?);
        let mut steps = Vec::with_capacity(r.len());
        for i in 0..r.len() {
            let Some(n) = step_number(&step[i]) else { continue };
            steps.push(StepTime {
                step: n,
                rank: self.rank(req(&rank, i)?)?,
                start_ns: req(&start, i)?,
                duration_ns: req(&duration, i)?,
                last_comm_start_ns: comm[i],
            });
        }
        steps.sort_by_key(|s| (s.step, s.rank));
        Ok(steps)
    }

    /// Ranks compared per step, in step order.
    pub fn stragglers(&self) -> Result<Vec<Straggler>, Error> {
        let r = self.rows(Query::Stragglers)?;
        let (step, ranks) = (r.strings("step")?, r.ints("ranks")?);
        let (slowest, slowest_ns) = (r.ints("slowest_rank")?, r.ints("slowest_ns")?);
        let (fastest, fastest_ns, mean) =
            (r.ints("fastest_rank")?, r.ints("fastest_ns")?, r.floats("mean_ns")?);
        let (late, late_ns) = (r.ints("latest_comm_rank")?, r.ints("latest_comm_start_ns")?);
        let mut out = Vec::with_capacity(r.len());
        for i in 0..r.len() {
            let Some(n) = step_number(&step[i]) else { continue };
            out.push(Straggler {
                step: n,
                ranks: req(&ranks, i)? as u64,
                slowest_rank: self.rank(req(&slowest, i)?)?,
                slowest_ns: req(&slowest_ns, i)?,
                fastest_rank: self.rank(req(&fastest, i)?)?,
                fastest_ns: req(&fastest_ns, i)?,
                mean_ns: mean[i],
                latest_comm_rank: late[i].map(|v| self.rank(v)).transpose()?,
                latest_comm_start_ns: late_ns[i],
            });
        }
        out.sort_by_key(|s| s.step);
        Ok(out)
    }

    /// Communication kernels per rank and name.
    pub fn communication(&self) -> Result<Vec<CommStat>, Error> {
        let r = self.rows(Query::Communication)?;
        let (rank, name, count) = (r.ints("rank")?, r.strings("name")?, r.ints("count")?);
        let (sum, min, max, mean) =
            (r.wide("sum_ns")?, r.ints("min_ns")?, r.ints("max_ns")?, r.floats("mean_ns")?);
        (0..r.len())
            .map(|i| {
                let rank = self.rank(req(&rank, i)?)?;
                Ok(CommStat {
                    rank,
                    name: name[i].clone(),
                    count: req(&count, i)? as u64,
                    sum_ns: self.fit(sum[i], rank, || format!("the total time of kernel `{}`", name[i]))?,
                    min_ns: req(&min, i)?,
                    max_ns: req(&max, i)?,
                    mean_ns: mean[i],
                })
            })
            .collect()
    }

    /// Per rank, the rows every analysis leaves out because their end is before their start
    /// ([`FINISHED_SQL`](crate::FINISHED_SQL)); known sources: GPU activities not finished when the vendor
    /// handed their records over at the final flush, `ProfilerStep#N` ranges without an end. Their times
    /// would be negative.
    pub fn unfinished(&self) -> Result<Vec<Unfinished>, Error> {
        let r = Rows::new(self.query(&crate::queries::unfinished_sql())?)?;
        let (rank, count) = (r.ints("rank")?, r.ints("count")?);
        (0..r.len())
            .map(|i| Ok(Unfinished { rank: self.rank(req(&rank, i)?)?, count: req(&count, i)? as u64 }))
            .collect()
    }

    /// The rank of a `rank` value of a result: the rank of the file whose column holds it ([`Analysis::open`]
    /// checked that each file's column holds its metadata's rank, as the writer writes it: `rank as i32`).
    fn rank(&self, column: i64) -> Result<u32, Error> {
        self.ranks
            .iter()
            .find(|r| i64::from(r.meta.rank as i32) == column)
            .map(|r| r.meta.rank)
            .ok_or_else(|| Error::Unexpected(format!("rank {column}, which no file holds")))
    }

    /// `value`, a total of durations on `rank`, when it fits a figure (i64 nanoseconds, 292 years); past
    /// that, an error naming the rank's file, whose timestamps cannot be a trace's.
    fn fit(&self, value: Option<i128>, rank: u32, what: impl FnOnce() -> String) -> Result<i64, Error> {
        let value = value.ok_or_else(|| Error::Unexpected("a null total".into()))?;
        i64::try_from(value).map_err(|_| Error::TooLarge {
            what: format!("rank {rank}: {}", what()),
            value,
            files: self.ranks.iter().filter(|r| r.meta.rank == rank).map(|r| r.file.clone()).collect(),
        })
    }

    /// Every analysis.
    ///
    /// A time summed over ranks (the overlap breakdown's totals, [`Report::breakdown_totals`]) that does not
    /// fit a figure is [`Error::TooLarge`], naming the files that add to it.
    pub fn report(&self) -> Result<Report, Error> {
        let report = Report {
            ranks: self.ranks.clone(),
            kernels: self.kernels()?,
            categories: self.categories()?,
            breakdown: self.breakdown()?,
            idle: self.idle()?,
            steps: self.steps()?,
            stragglers: self.stragglers()?,
            communication: self.communication()?,
            unfinished: self.unfinished()?,
        };
        let mut totals: std::collections::BTreeMap<u32, i128> = Default::default();
        for row in &report.breakdown {
            *totals.entry(row.state).or_default() += i128::from(row.time_ns);
        }
        if let Some((&state, &value)) = totals.iter().find(|(_, &t)| i64::try_from(t).is_err()) {
            let ranks: Vec<u32> =
                report.breakdown.iter().filter(|b| b.state == state).map(|b| b.rank).collect();
            return Err(Error::TooLarge {
                what: format!("the time in state {} summed over ranks", state_label(state)),
                value,
                files: self
                    .ranks
                    .iter()
                    .filter(|r| ranks.contains(&r.meta.rank))
                    .map(|r| r.file.clone())
                    .collect(),
            });
        }
        Ok(report)
    }
}

/// Runs every analysis over the per-rank Parquet files of `dir`.
pub fn analyze(dir: impl AsRef<Path>, options: Options) -> Result<Report, Error> {
    Analysis::open(dir, options)?.report()
}

/// The engine's name of `file`: a `file://` URL of its absolute path, never a pattern.
fn file_url(file: &Path) -> Result<ListingTableUrl, Error> {
    let not_utf8 = || Error::NotUtf8(file.to_path_buf());
    // The engine's object store names files in UTF-8 only.
    file.to_str().ok_or_else(not_utf8)?;
    let absolute = std::path::absolute(file).map_err(|e| Error::Dir(file.to_path_buf(), e))?;
    let url = url::Url::from_file_path(&absolute).map_err(|()| not_utf8())?;
    ListingTableUrl::try_new(url, None).map_err(|e| Error::Schema(file.to_path_buf(), e.to_string()))
}

/// Whether `file` has the columns the table needs, of types the engine can read as the table's: a file
/// without them would fail later, in a query, with an error that does not name it.
fn check_columns(file: &Path) -> Result<(), Error> {
    let open = std::fs::File::open(file).map_err(|e| Error::File(file.to_path_buf(), e.into()))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(open)
        .map_err(|e| Error::Schema(file.to_path_buf(), e.to_string()))?;
    let found = reader.schema();
    for field in events_schema().fields() {
        match found.field_with_name(field.name()) {
            Ok(have) if !can_cast_types(have.data_type(), field.data_type()) => {
                let problem = format!(
                    "column `{}` is {}, the table's is {}",
                    field.name(),
                    have.data_type(),
                    field.data_type()
                );
                return Err(Error::Schema(file.to_path_buf(), problem));
            }
            Ok(_) => {}
            Err(_) if !field.is_nullable() => {
                let problem = format!("no column `{}` (every row needs one)", field.name());
                return Err(Error::Schema(file.to_path_buf(), problem));
            }
            Err(_) => {}
        }
    }
    Ok(())
}

/// N of `ProfilerStep#N` (HTA's `^ProfilerStep#(\d+)`).
fn step_number(name: &str) -> Option<u64> {
    let digits: String =
        name.strip_prefix("ProfilerStep#")?.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// A value a query never leaves null.
fn req(column: &[Option<i64>], i: usize) -> Result<i64, Error> {
    column[i].ok_or_else(|| Error::Unexpected(format!("a null in row {i}")))
}

/// A query's result as one batch, read a whole column at a time, by name.
struct Rows {
    batch: Option<RecordBatch>,
}

impl Rows {
    fn new(batches: Vec<RecordBatch>) -> Result<Rows, Error> {
        let Some(first) = batches.first() else { return Ok(Rows { batch: None }) };
        Ok(Rows { batch: Some(concat_batches(&first.schema(), &batches)?) })
    }

    fn len(&self) -> usize {
        self.batch.as_ref().map_or(0, RecordBatch::num_rows)
    }

    fn column(&self, name: &str, to: &DataType) -> Result<Option<ArrayRef>, Error> {
        let Some(batch) = self.batch.as_ref() else { return Ok(None) };
        let col =
            batch.column_by_name(name).ok_or_else(|| Error::Unexpected(format!("no column `{name}`")))?;
        Ok(Some(cast(col, to)?))
    }

    fn ints(&self, name: &str) -> Result<Vec<Option<i64>>, Error> {
        let Some(col) = self.column(name, &DataType::Int64)? else { return Ok(Vec::new()) };
        Ok(col.as_primitive::<Int64Type>().iter().collect())
    }

    /// An integer column that may be wider than 64 bits (a `DECIMAL(38, 0)` total).
    fn wide(&self, name: &str) -> Result<Vec<Option<i128>>, Error> {
        let Some(col) = self.column(name, &DataType::Decimal128(38, 0))? else { return Ok(Vec::new()) };
        Ok(col.as_primitive::<Decimal128Type>().iter().collect())
    }

    fn floats(&self, name: &str) -> Result<Vec<f64>, Error> {
        let Some(col) = self.column(name, &DataType::Float64)? else { return Ok(Vec::new()) };
        Ok(col.as_primitive::<Float64Type>().iter().map(|v| v.unwrap_or(f64::NAN)).collect())
    }

    fn strings(&self, name: &str) -> Result<Vec<String>, Error> {
        let Some(col) = self.column(name, &DataType::Utf8)? else { return Ok(Vec::new()) };
        Ok(col.as_string::<i32>().iter().map(|v| v.unwrap_or_default().to_owned()).collect())
    }

    fn kernel_types(&self) -> Result<Vec<KernelType>, Error> {
        self.strings("kernel_type")?
            .iter()
            .map(|n| KernelType::from_name(n).ok_or_else(|| Error::Unexpected(format!("kernel type {n:?}"))))
            .collect()
    }
}

/// Whether the values of `file` are ones a trace holds: its `rank` column holds its metadata's rank only
/// (at most 2^31-1, which the Int32 column holds as it is: another value would be shown as another rank, or
/// added to one),
/// no `start_ns` or `end_ns` is negative (a clock value past 2^63-1 ns, whose differences the engine
/// would wrap), and none of the three is null (the queries take every row to have them). Read from the column chunks' statistics, or from the columns where a chunk has none.
fn check_values(file: &Path, rank: u32) -> Result<(), Error> {
    const COLUMNS: [(&str, DataType); 3] =
        [("rank", DataType::Int32), ("start_ns", DataType::Int64), ("end_ns", DataType::Int64)];
    let schema_error =
        |e: datafusion::parquet::errors::ParquetError| Error::Schema(file.to_path_buf(), e.to_string());
    let open = std::fs::File::open(file).map_err(|e| Error::File(file.to_path_buf(), e.into()))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(open).map_err(schema_error)?;
    let leaves = builder.parquet_schema().columns();
    let index: Vec<Option<usize>> =
        COLUMNS.iter().map(|(name, _)| leaves.iter().position(|c| c.path().string() == *name)).collect();
    // Statistics are read only where the column has the table's type (an unsigned or wider column orders
    // its statistics otherwise).
    let typed = COLUMNS
        .iter()
        .all(|(name, ty)| builder.schema().field_with_name(name).map_or(true, |f| f.data_type() == ty));
    let mut ranges: [Option<(i64, i64)>; 3] = [None; 3];
    // Nulls in each: the queries take every row to have its rank and its times.
    let mut nulls = [0u64; 3];
    let mut known = typed;
    for group in builder.metadata().row_groups() {
        for (k, i) in index.iter().enumerate() {
            let Some(i) = *i else { continue };
            match chunk_range(group.column(i)) {
                Some(range) => ranges[k] = widen(ranges[k], range),
                None => known = false,
            }
            match group.column(i).statistics().and_then(Statistics::null_count_opt) {
                Some(n) => nulls[k] += n,
                None => known = false,
            }
        }
    }
    if !known {
        ranges = [None; 3];
        nulls = [0; 3];
        let present: Vec<usize> = index.iter().flatten().copied().collect();
        let mask = ProjectionMask::leaves(builder.parquet_schema(), present);
        for batch in builder.with_projection(mask).build().map_err(schema_error)? {
            let batch = batch?;
            for (k, (name, _)) in COLUMNS.iter().enumerate() {
                let Some(column) = batch.column_by_name(name) else { continue };
                nulls[k] += column.null_count() as u64;
                let column = cast(column, &DataType::Int64)?;
                let values = column.as_primitive::<Int64Type>();
                let range =
                    datafusion::arrow::compute::min(values).zip(datafusion::arrow::compute::max(values));
                ranges[k] = widen(ranges[k], range);
            }
        }
    }
    if let Some((k, n)) = nulls.iter().enumerate().find(|(_, n)| **n > 0) {
        let problem = format!("column `{}` holds {n} null(s): every row needs a value", COLUMNS[k].0);
        return Err(Error::Values(file.to_path_buf(), problem));
    }
    let Ok(expected) = i32::try_from(rank) else {
        let problem = format!(
            "its metadata says rank {rank}, above {}: the `rank` column (a signed 32-bit integer) cannot hold it",
            i32::MAX
        );
        return Err(Error::Values(file.to_path_buf(), problem));
    };
    let expected = i64::from(expected);
    if let Some((lo, hi)) = ranges[0].filter(|&(lo, hi)| lo != expected || hi != expected) {
        let found = if lo == expected { hi } else { lo };
        let problem = format!(
            "its `rank` column holds rank {found}, its metadata says rank {rank} (a file holds one rank's rows){}",
            if lo != hi { format!(" (values {lo} to {hi})") } else { String::new() }
        );
        return Err(Error::Values(file.to_path_buf(), problem));
    }
    for (k, (name, _)) in COLUMNS.iter().enumerate().skip(1) {
        if let Some((lo, _)) = ranges[k].filter(|&(lo, _)| lo < 0) {
            let problem = format!(
                "column `{name}` holds {lo}: a timestamp is never negative (a clock value past 2^63-1 ns)"
            );
            return Err(Error::Values(file.to_path_buf(), problem));
        }
    }
    Ok(())
}

/// The smallest and largest value of an integer column chunk from its statistics: `Some(None)` for a chunk
/// of nulls only, `None` where the statistics do not say.
fn chunk_range(chunk: &ColumnChunkMetaData) -> Option<Option<(i64, i64)>> {
    let stats = chunk.statistics()?;
    let (lo, hi) = match stats {
        Statistics::Int32(v) => (v.min_opt().map(|&x| i64::from(x)), v.max_opt().map(|&x| i64::from(x))),
        Statistics::Int64(v) => (v.min_opt().copied(), v.max_opt().copied()),
        _ => return None,
    };
    match (lo, hi) {
        (Some(lo), Some(hi)) => Some(Some((lo, hi))),
        _ if u64::try_from(chunk.num_values()).ok() == stats.null_count_opt() => Some(None),
        _ => None,
    }
}

fn widen(a: Option<(i64, i64)>, b: Option<(i64, i64)>) -> Option<(i64, i64)> {
    match (a, b) {
        (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.max(b.1))),
        (a, b) => a.or(b),
    }
}
