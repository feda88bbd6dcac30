//! The analyses as SQL over the `events` table (a directory of accelprof Parquet files, one per rank).
//!
//! The text is plain SQL (common table expressions, `LIKE`, `CASE`, window functions, `STDDEV_SAMP`), so the
//! same queries run on DataFusion, DuckDB, Spark SQL and Trino once `events` names the files (see the
//! crate's documentation).

use crate::rules::KernelRules;

/// One of the shipped analyses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Query {
    /// Time per kernel name per rank (HTA's per-kernel table of `get_gpu_kernel_breakdown`).
    Kernels,
    /// Time per kernel type per rank, overlaps counted once per event (a plain sum).
    Categories,
    /// Time per rank in each overlap state of computation, communication and memory (HTA's kernel-type
    /// table of `get_gpu_kernel_breakdown`, per rank).
    Breakdown,
    /// Idle, compute and other GPU time per rank (HTA's `get_temporal_breakdown`).
    Idle,
    /// Each `ProfilerStep#N` of each rank: its duration, and when its last communication kernel started.
    Steps,
    /// The slowest rank of each step, and the rank whose communication started last (the straggler the
    /// others wait for).
    Stragglers,
    /// Communication (NCCL) kernels per rank and name.
    Communication,
}

impl Query {
    /// Every query, in report order.
    pub const ALL: [Query; 7] = [
        Query::Kernels,
        Query::Categories,
        Query::Breakdown,
        Query::Idle,
        Query::Steps,
        Query::Stragglers,
        Query::Communication,
    ];

    /// A short name (`kernels`, `categories`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Query::Kernels => "kernels",
            Query::Categories => "categories",
            Query::Breakdown => "breakdown",
            Query::Idle => "idle",
            Query::Steps => "steps",
            Query::Stragglers => "stragglers",
            Query::Communication => "communication",
        }
    }
}

/// What the queries analyse: the classification rules, and whether copies and sets take part in the
/// overlap breakdown (HTA 0.5's `include_memory_kernels`, default true there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryOptions {
    /// HTA's rules of which release.
    pub rules: KernelRules,
    /// Copies and sets in the overlap breakdown.
    pub include_memory_kernels: bool,
    /// Analyse only the GPU work HTA analyses (its `_filter_irrelevant_gpu_kernels`): work launched by an API
    /// call that began before the rank's last `ProfilerStep#N` (HTA leaves the last step out), when the
    /// ranks have two step names or more between them: HTA counts the names of the symbol table it shares
    /// across ranks, so a rank with one step loses its kernels beside a rank with two. Off: every GPU
    /// activity recorded.
    pub hta_window: bool,
}

impl Default for QueryOptions {
    fn default() -> Self {
        QueryOptions { rules: KernelRules::Hta0_5, include_memory_kernels: true, hta_window: false }
    }
}

/// The families our JSON trace writes with a `stream` argument, which HTA takes for GPU kernels (`stream !=
/// -1`): kernels, copies, sets, collectives and synchronizations.
pub const GPU_FAMILIES: &str = "('kernel', 'memcpy', 'memset', 'collective', 'sync')";

/// The name the JSON trace gives a row (a row without a name gets its family's: `kernel`, `collective`,
/// `Synchronization`).
pub const NAME_SQL: &str = "COALESCE(name, CASE family WHEN 'sync' THEN 'Synchronization' WHEN 'collective' \
     THEN 'collective' ELSE 'kernel' END)";

/// The rows the analyses take their times from: a row whose `end_ns` is before its `start_ns` has no
/// duration and is left out of every time, counted instead
/// ([`Analysis::unfinished`](crate::Analysis::unfinished)). One known source of such rows: a kernel not
/// finished when the vendor handed its record over at the final flush (the tracer's summary counts
/// kernels without an end time).
pub const FINISHED_SQL: &str = "end_ns >= start_ns";

/// The GPU activities with their type: `rank, name, kernel_type, start_ns, end_ns, correlation` (those
/// with an end: [`FINISHED_SQL`]).
fn gpu_cte(o: &QueryOptions) -> String {
    let window = if o.hta_window {
        "\n    AND ((SELECT COUNT(DISTINCT name) FROM events WHERE family = 'marker' AND name LIKE 'ProfilerStep#%') < 2\n      \
         OR EXISTS (SELECT 1 FROM hta_launches l WHERE l.rank = events.rank AND l.correlation = events.correlation))"
    } else {
        ""
    };
    let launches = if o.hta_window {
        "hta_last_step AS (\n  SELECT rank, MAX(start_ns) AS last_start FROM events\n  \
         WHERE family = 'marker' AND name LIKE 'ProfilerStep#%' GROUP BY rank\n),\n\
         hta_launches AS (\n  SELECT DISTINCT a.rank, a.correlation FROM events a JOIN hta_last_step s ON a.rank = s.rank\n  \
         WHERE a.family = 'api' AND a.start_ns < s.last_start\n),\n"
    } else {
        ""
    };
    format!(
        "{launches}gpu AS (\n  SELECT rank, name, {kind} AS kernel_type, start_ns, end_ns, correlation\n  FROM (SELECT rank, \
         {NAME_SQL} AS name, start_ns, end_ns, correlation FROM events\n    WHERE family IN {GPU_FAMILIES} AND {FINISHED_SQL}{window}) named\n)",
        kind = o.rules.type_sql("name"),
    )
}

/// The SQL text of `query`.
pub fn sql(query: Query, o: &QueryOptions) -> String {
    let gpu = gpu_cte(o);
    match query {
        Query::Kernels => format!(
            "WITH {gpu}\nSELECT rank, kernel_type, name, COUNT(*) AS count, SUM(CAST(end_ns - start_ns AS DECIMAL(38, 0))) AS sum_ns,\n  \
             MIN(end_ns - start_ns) AS min_ns, MAX(end_ns - start_ns) AS max_ns,\n  \
             AVG(CAST(end_ns - start_ns AS DOUBLE)) AS mean_ns,\n  \
             COALESCE(STDDEV_SAMP(CAST(end_ns - start_ns AS DOUBLE)), 0.0) AS stddev_ns\n\
             FROM gpu\nGROUP BY rank, kernel_type, name\nORDER BY kernel_type, name, rank"
        ),
        Query::Categories => format!(
            "WITH {gpu}\nSELECT rank, kernel_type, COUNT(*) AS count, SUM(CAST(end_ns - start_ns AS DECIMAL(38, 0))) AS sum_ns\n\
             FROM gpu\nGROUP BY rank, kernel_type\nORDER BY rank, kernel_type"
        ),
        Query::Breakdown => {
            let memory = if o.include_memory_kernels { "\n      WHEN 'MEMORY' THEN 4" } else { "" };
            format!(
                "WITH {gpu},\n\
                 typed AS (\n  SELECT rank, start_ns, end_ns, CASE kernel_type WHEN 'COMPUTATION' THEN 1\n      \
                 WHEN 'COMMUNICATION' THEN 2{memory} ELSE 0 END AS bit\n  FROM gpu\n),\n\
                 -- Each activity opens (+1) and closes (-1) its type at its ends.\n\
                 edges AS (\n  SELECT rank, start_ns AS t, 1 AS d, bit FROM typed WHERE bit > 0\n  UNION ALL\n  \
                 SELECT rank, end_ns AS t, -1 AS d, bit FROM typed WHERE bit > 0\n),\n\
                 -- Running count of open activities of each type; an interval lasts to the next edge.\n\
                 running AS (\n  SELECT rank, t,\n    \
                 LEAD(t) OVER (PARTITION BY rank ORDER BY t, d) AS next_t,\n    \
                 SUM(CASE WHEN bit = 1 THEN d ELSE 0 END) OVER (PARTITION BY rank ORDER BY t, d ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS c1,\n    \
                 SUM(CASE WHEN bit = 2 THEN d ELSE 0 END) OVER (PARTITION BY rank ORDER BY t, d ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS c2,\n    \
                 SUM(CASE WHEN bit = 4 THEN d ELSE 0 END) OVER (PARTITION BY rank ORDER BY t, d ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS c4\n  \
                 FROM edges\n),\n\
                 states AS (\n  SELECT rank, next_t - t AS dur,\n    \
                 (CASE WHEN c1 > 0 THEN 1 ELSE 0 END) + (CASE WHEN c2 > 0 THEN 2 ELSE 0 END)\n      \
                 + (CASE WHEN c4 > 0 THEN 4 ELSE 0 END) AS state\n  FROM running WHERE next_t IS NOT NULL\n)\n\
                 SELECT rank, state, SUM(dur) AS time_ns\nFROM states\nWHERE state > 0 AND dur > 0\n\
                 GROUP BY rank, state\nORDER BY rank, state"
            )
        }
        Query::Idle => format!(
            "WITH {gpu},\n\
             edges AS (\n  \
             SELECT rank, start_ns AS t, 1 AS d, CASE WHEN kernel_type = 'COMPUTATION' THEN 1 ELSE 0 END AS dc FROM gpu\n  \
             UNION ALL\n  \
             SELECT rank, end_ns AS t, -1 AS d, CASE WHEN kernel_type = 'COMPUTATION' THEN -1 ELSE 0 END AS dc FROM gpu\n),\n\
             running AS (\n  SELECT rank, t,\n    \
             LEAD(t) OVER (PARTITION BY rank ORDER BY t, d) AS next_t,\n    \
             SUM(d) OVER (PARTITION BY rank ORDER BY t, d ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS open_all,\n    \
             SUM(dc) OVER (PARTITION BY rank ORDER BY t, d ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS open_compute\n  \
             FROM edges\n),\n\
             spans AS (\n  SELECT rank, MAX(t) - MIN(t) AS kernel_time_ns,\n    \
             SUM(CASE WHEN open_all > 0 THEN COALESCE(next_t - t, 0) ELSE 0 END) AS busy_ns,\n    \
             SUM(CASE WHEN open_compute > 0 THEN COALESCE(next_t - t, 0) ELSE 0 END) AS compute_ns\n  \
             FROM running GROUP BY rank\n)\n\
             SELECT rank, kernel_time_ns - busy_ns AS idle_ns, compute_ns,\n  \
             busy_ns - compute_ns AS non_compute_ns, kernel_time_ns\nFROM spans\nORDER BY rank"
        ),
        Query::Steps => format!("WITH {}\n{}\nORDER BY s.step, s.rank", steps_ctes(o), STEPS_SELECT),
        Query::Stragglers => format!(
            "WITH {},\nstep_times AS (\n{}\n),\n\
             ranked AS (\n  SELECT step, rank, duration_ns, last_comm_start_ns,\n    \
             ROW_NUMBER() OVER (PARTITION BY step ORDER BY duration_ns DESC, rank) AS slowest,\n    \
             ROW_NUMBER() OVER (PARTITION BY step ORDER BY duration_ns ASC, rank) AS fastest,\n    \
             ROW_NUMBER() OVER (PARTITION BY step ORDER BY CASE WHEN last_comm_start_ns IS NULL THEN 1 ELSE 0 END, last_comm_start_ns DESC, rank) AS latest_comm\n  \
             FROM step_times\n)\n\
             SELECT step, COUNT(*) AS ranks,\n  \
             MAX(CASE WHEN slowest = 1 THEN rank END) AS slowest_rank, MAX(duration_ns) AS slowest_ns,\n  \
             MAX(CASE WHEN fastest = 1 THEN rank END) AS fastest_rank, MIN(duration_ns) AS fastest_ns,\n  \
             AVG(CAST(duration_ns AS DOUBLE)) AS mean_ns,\n  \
             MAX(CASE WHEN latest_comm = 1 AND last_comm_start_ns IS NOT NULL THEN rank END) AS latest_comm_rank,\n  \
             MAX(last_comm_start_ns) AS latest_comm_start_ns\n\
             FROM ranked\nGROUP BY step\nORDER BY step",
            steps_ctes(o),
            STEPS_SELECT
        ),
        Query::Communication => format!(
            "WITH {gpu}\nSELECT rank, name, COUNT(*) AS count, SUM(CAST(end_ns - start_ns AS DECIMAL(38, 0))) AS sum_ns,\n  \
             MIN(end_ns - start_ns) AS min_ns, MAX(end_ns - start_ns) AS max_ns,\n  \
             AVG(CAST(end_ns - start_ns AS DOUBLE)) AS mean_ns\n\
             FROM gpu\nWHERE kernel_type = 'COMMUNICATION'\nGROUP BY rank, name\nORDER BY rank, sum_ns DESC, name"
        ),
    }
}

/// Per rank, the rows the analyses leave out for want of an end (`end_ns < start_ns`): GPU activities and
/// `ProfilerStep#N` ranges. Columns `rank, count`; ranks without any are not listed.
pub(crate) fn unfinished_sql() -> String {
    format!(
        "SELECT rank, COUNT(*) AS count FROM events\nWHERE NOT ({FINISHED_SQL}) AND (family IN {GPU_FAMILIES}\n  \
         OR (family = 'marker' AND device = -1 AND name LIKE 'ProfilerStep#%'))\nGROUP BY rank ORDER BY rank"
    )
}

/// The steps (host `ProfilerStep#N` ranges) and the communication kernels launched inside each: a kernel
/// belongs to the step in which its launch (the earliest API call with its correlation id) began, as HTA
/// assigns GPU work to iterations through its launch.
fn steps_ctes(o: &QueryOptions) -> String {
    format!(
        "{gpu},\n\
         steps AS (\n  SELECT rank, name AS step, start_ns, end_ns FROM events\n  \
         WHERE family = 'marker' AND device = -1 AND name LIKE 'ProfilerStep#%' AND {FINISHED_SQL}\n),\n\
         comm AS (\n  SELECT rank, correlation, start_ns AS kernel_start FROM gpu\n  \
         WHERE kernel_type = 'COMMUNICATION' AND correlation <> 0\n),\n\
         launched AS (\n  SELECT c.rank, c.kernel_start, MIN(a.start_ns) AS launch_ns\n  \
         FROM comm c JOIN events a ON a.rank = c.rank AND a.correlation = c.correlation\n  \
         WHERE a.family = 'api'\n  GROUP BY c.rank, c.correlation, c.kernel_start\n),\n\
         comm_in_step AS (\n  SELECT s.rank, s.step, MAX(l.kernel_start) AS last_comm_start\n  \
         FROM steps s JOIN launched l ON l.rank = s.rank AND l.launch_ns >= s.start_ns AND l.launch_ns < s.end_ns\n  \
         GROUP BY s.rank, s.step\n)",
        gpu = gpu_cte(o)
    )
}

const STEPS_SELECT: &str = "SELECT s.step, s.rank, s.start_ns, s.end_ns - s.start_ns AS duration_ns,\n  \
     c.last_comm_start - s.start_ns AS last_comm_start_ns\n\
     FROM steps s LEFT JOIN comm_in_step c ON c.rank = s.rank AND c.step = s.step";
