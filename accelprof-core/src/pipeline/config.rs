use std::time::Duration;

/// How the decode thread groups records into batches.
///
/// Build one with struct update syntax: `PipelineConfig { batch_rows: 4096, ..Default::default() }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineConfig {
    /// Deliver the current batch once it holds at least this many rows (all families together). A buffer
    /// is always decoded whole, so a batch may exceed this by one buffer's worth of rows.
    pub batch_rows: usize,
    /// Also deliver a partly filled batch once its oldest row waited this long (`None`: only when full or
    /// on `sync()`).
    pub flush_interval: Option<Duration>,
    /// Name of the decode thread.
    pub thread_name: String,
}

impl Default for PipelineConfig {
    /// 64 Ki rows per batch, no time-based delivery, thread `accel-decode`.
    fn default() -> Self {
        PipelineConfig { batch_rows: 64 * 1024, flush_interval: None, thread_name: "accel-decode".into() }
    }
}
