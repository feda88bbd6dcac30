//! How an activity session collects, buffers and batches.

use std::time::Duration;

use super::ActivityKinds;

/// Settings of an [`ActivitySession`](super::ActivitySession).
///
/// Build with struct update syntax: `ActivityConfig { max_buffers: 32, ..Default::default() }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActivityConfig {
    /// The kinds enabled at [`start`](super::ActivitySession::start) (default
    /// [`ActivityKinds::timeline`], as on every vendor; more with
    /// [`ActivitySession::enable`](super::ActivitySession::enable)). When one of them is produced only
    /// while a subscriber exists ([`ActivityKind::NEED_SUBSCRIBER`](crate::ActivityKind::NEED_SUBSCRIBER)),
    /// the session holds a subscriber of its own; those needing `libmspti.so` preloaded make `start`
    /// fail with the reason when it is not.
    pub kinds: ActivityKinds,
    /// Bytes per buffer handed to MSPTI (rounded up to a multiple of 8). MSPTI warns below 2 MiB
    /// and hands a buffer back once it is 80% full. At least 512 and at most 1 GiB:
    /// `ActivitySession::new` refuses others.
    pub buffer_size: usize,
    /// Buffers that exist at once, at most (the pool's bound). When all are with MSPTI or
    /// waiting to be decoded, a request is declined: MSPTI then loses records, which are counted.
    pub max_buffers: usize,
    /// MSPTI's periodic flush (`msptiActivityFlushPeriod`, set when the session is made): every period
    /// MSPTI hands back the buffers that are full (default `None`: off; below 1 ms counts as 1 ms).
    /// [`ActivitySession::flush_period`](super::ActivitySession::flush_period) changes it later.
    pub flush_period: Option<Duration>,
    /// Rows per batch handed to consumers (all families together).
    pub batch_rows: usize,
    /// Also hand over a partly filled batch once its oldest row waited this long.
    pub batch_interval: Option<Duration>,
    /// How often to check that MSPTI hands full buffers back, flushing them out when it does not
    /// (its manager thread can be lost at start, see `rescue.rs`); `None`: never check.
    pub stuck_buffer_check: Option<Duration>,
    /// How long the device's data of earlier work may take to reach MSPTI, while a kind written
    /// from it ([`ActivityKind::FROM_DEVICE`](crate::ActivityKind::FROM_DEVICE): KERNEL, HCCL,
    /// COMMUNICATION, MARKER) is collected. It arrives after the work ran, with a latency, and
    /// MSPTI drops every record written after its kind was disabled (`msptiActivityDisable(KERNEL)`
    /// waits at most 20 ms, and only for what the driver already holds). So
    /// [`fence`](super::ActivitySession::fence) first waits this long, flushing; the end of the
    /// session ([`stop`](super::ActivitySession::stop), drop) waits this long and then until no
    /// record came for this long, before it disables the kinds. `Duration::ZERO`: no wait.
    pub device_settle: Duration,
    /// The longest the end of a session waits for the device to go quiet: records still arriving
    /// then are counted ([`MsptiCounts::unsettled_waits`](super::MsptiCounts::unsettled_waits)),
    /// and those MSPTI writes after the end are lost with no count (it counts none).
    pub device_settle_max: Duration,
    /// Whether the session may start with no kind in [`kinds`](Self::kinds), to take each with
    /// [`ActivitySession::enable`](super::ActivitySession::enable) once it runs (each refusal its
    /// own error). Default `false`: starting with no kind selected is
    /// [`ActivityError::NoKinds`](accelprof_core::activity::ActivityError::NoKinds), as on every vendor.
    pub enable_later: bool,
}

impl Default for ActivityConfig {
    /// The timeline kinds, 2 MiB buffers, at most 16 (32 MiB), batches of 16 Ki rows, no time-based delivery,
    /// stuck buffers checked for every 100 ms, device records waited for 100 ms at a fence, and at the
    /// end until quiet for 100 ms (at most 2 s).
    fn default() -> Self {
        ActivityConfig {
            kinds: ActivityKinds::timeline(),
            buffer_size: 2 << 20,
            max_buffers: 16,
            flush_period: None,
            batch_rows: 16 * 1024,
            batch_interval: None,
            stuck_buffer_check: Some(Duration::from_millis(100)),
            device_settle: Duration::from_millis(100),
            device_settle_max: Duration::from_secs(2),
            enable_later: false,
        }
    }
}
