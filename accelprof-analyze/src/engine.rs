use std::path::{Path, PathBuf};
use std::sync::Arc;

use accelprof_export::arrow::events_schema;
use accelprof_export::parquet::read_meta;
use datafusion::arrow::array::{ArrayRef, AsArray, RecordBatch};
use datafusion::arrow::compute::{can_cast_types, cast, concat_batches};
use datafusion::arrow::datatypes::{DataType, Float64Type, Int64Type};
use datafusion::datasource::file_format::options::ReadOptions;
use datafusion::datasource::listing::{ListingTable, ListingTableConfig, ListingTableUrl};
use datafusion::execution::context::SQLOptions;
use datafusion::execution::memory_pool::FairSpillPool;
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
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
    /// metadata and the columns the queries need), and no two may hold the same rank
    /// ([`Error::SameRank`]: the analyses would add them together).
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
            (r.ints("count")?, r.ints("sum_ns")?, r.ints("min_ns")?, r.ints("max_ns")?);
        let (mean, stddev) = (r.floats("mean_ns")?, r.floats("stddev_ns")?);
        (0..r.len())
            .map(|i| {
                Ok(KernelStat {
                    rank: req(&rank, i)? as u32,
                    kernel_type: kind[i],
                    name: name[i].clone(),
                    count: req(&count, i)? as u64,
                    sum_ns: req(&sum, i)?,
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
            (r.ints("rank")?, r.kernel_types()?, r.ints("count")?, r.ints("sum_ns")?);
        (0..r.len())
            .map(|i| {
                Ok(CategoryTime {
                    rank: req(&rank, i)? as u32,
                    kernel_type: kind[i],
                    count: req(&count, i)? as u64,
                    sum_ns: req(&sum, i)?,
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
                    rank: req(&rank, i)? as u32,
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
                    rank: req(&rank, i)? as u32,
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
                rank: req(&rank, i)? as u32,
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
                slowest_rank: req(&slowest, i)? as u32,
                slowest_ns: req(&slowest_ns, i)?,
                fastest_rank: req(&fastest, i)? as u32,
                fastest_ns: req(&fastest_ns, i)?,
                mean_ns: mean[i],
                latest_comm_rank: late[i].map(|v| v as u32),
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
            (r.ints("sum_ns")?, r.ints("min_ns")?, r.ints("max_ns")?, r.floats("mean_ns")?);
        (0..r.len())
            .map(|i| {
                Ok(CommStat {
                    rank: req(&rank, i)? as u32,
                    name: name[i].clone(),
                    count: req(&count, i)? as u64,
                    sum_ns: req(&sum, i)?,
                    min_ns: req(&min, i)?,
                    max_ns: req(&max, i)?,
                    mean_ns: mean[i],
                })
            })
            .collect()
    }

    /// Every analysis.
    pub fn report(&self) -> Result<Report, Error> {
        Ok(Report {
            ranks: self.ranks.clone(),
            kernels: self.kernels()?,
            categories: self.categories()?,
            breakdown: self.breakdown()?,
            idle: self.idle()?,
            steps: self.steps()?,
            stragglers: self.stragglers()?,
            communication: self.communication()?,
        })
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
