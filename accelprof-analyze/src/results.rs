//! The analyses' typed results. Times are nanoseconds (HTA reports microseconds).

use std::path::PathBuf;

use accelprof_export::RunMeta;
use serde_json::{json, Value};

use crate::rules::KernelType;

/// One rank's file.
#[derive(Clone, Debug, PartialEq)]
pub struct RankInfo {
    /// The file.
    pub file: PathBuf,
    /// Its metadata.
    pub meta: RunMeta,
}

/// Time of one kernel name on one rank (a row of HTA's per-kernel table, without its "others" grouping).
#[derive(Clone, Debug, PartialEq)]
pub struct KernelStat {
    /// Rank.
    pub rank: u32,
    /// HTA's type of the name.
    pub kernel_type: KernelType,
    /// The name, as the JSON trace writes it.
    pub name: String,
    /// Executions.
    pub count: u64,
    /// Total duration.
    pub sum_ns: i64,
    /// Shortest.
    pub min_ns: i64,
    /// Longest.
    pub max_ns: i64,
    /// Mean.
    pub mean_ns: f64,
    /// Sample standard deviation (0 for one execution, as HTA fills it).
    pub stddev_ns: f64,
}

/// Time of one kernel type on one rank, each activity counted whole (overlaps counted twice).
#[derive(Clone, Debug, PartialEq)]
pub struct CategoryTime {
    /// Rank.
    pub rank: u32,
    /// Type.
    pub kernel_type: KernelType,
    /// Activities.
    pub count: u64,
    /// Sum of their durations.
    pub sum_ns: i64,
}

/// Time a rank spent in one overlap state of computation, communication and memory (HTA's kernel-type
/// table: merged intervals per type, swept together).
#[derive(Clone, Debug, PartialEq)]
pub struct OverlapTime {
    /// Rank.
    pub rank: u32,
    /// The types running: bit 1 computation, 2 communication, 4 memory.
    pub state: u32,
    /// Time in that state.
    pub time_ns: i64,
}

impl OverlapTime {
    /// HTA's label: `COMPUTATION`, `COMPUTATION overlapping COMMUNICATION`, ...
    pub fn label(&self) -> String {
        state_label(self.state)
    }
}

/// HTA's label of an overlap state.
pub fn state_label(state: u32) -> String {
    let parts: Vec<&str> = [KernelType::Computation, KernelType::Communication, KernelType::Memory]
        .into_iter()
        .filter(|t| state & t.bit() != 0)
        .map(KernelType::name)
        .collect();
    parts.join(" overlapping ")
}

/// Idle and busy GPU time of one rank (HTA's temporal breakdown).
#[derive(Clone, Debug, PartialEq)]
pub struct IdleTime {
    /// Rank.
    pub rank: u32,
    /// Time between the first GPU activity's start and the last one's end with nothing running.
    pub idle_ns: i64,
    /// Time with a computation kernel running.
    pub compute_ns: i64,
    /// Busy time without a computation kernel (communication, copies, ...).
    pub non_compute_ns: i64,
    /// From the first GPU activity's start to the last one's end.
    pub kernel_time_ns: i64,
}

impl IdleTime {
    /// Idle share of `kernel_time_ns`, in percent.
    pub fn idle_pct(&self) -> f64 {
        pct(self.idle_ns, self.kernel_time_ns)
    }

    /// Compute share of `kernel_time_ns`, in percent.
    pub fn compute_pct(&self) -> f64 {
        pct(self.compute_ns, self.kernel_time_ns)
    }
}

fn pct(part: i64, whole: i64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// One step of one rank.
#[derive(Clone, Debug, PartialEq)]
pub struct StepTime {
    /// N of `ProfilerStep#N`.
    pub step: u64,
    /// Rank.
    pub rank: u32,
    /// Start, on the rank's record clock.
    pub start_ns: i64,
    /// Duration of the host range.
    pub duration_ns: i64,
    /// When the step's last communication kernel started, from the step's start (`None` without one).
    pub last_comm_start_ns: Option<i64>,
}

/// The ranks of one step compared.
#[derive(Clone, Debug, PartialEq)]
pub struct Straggler {
    /// N of `ProfilerStep#N`.
    pub step: u64,
    /// Ranks that have this step.
    pub ranks: u64,
    /// The rank with the longest step.
    pub slowest_rank: u32,
    /// Its duration.
    pub slowest_ns: i64,
    /// The rank with the shortest step.
    pub fastest_rank: u32,
    /// Its duration.
    pub fastest_ns: i64,
    /// Mean duration.
    pub mean_ns: f64,
    /// The rank whose last communication kernel started latest in its step (HTA's late-start straggler
    /// metric): the others wait for it in the collective.
    pub latest_comm_rank: Option<u32>,
    /// That start, from its step's start.
    pub latest_comm_start_ns: Option<i64>,
}

/// Communication kernels of one name on one rank.
#[derive(Clone, Debug, PartialEq)]
pub struct CommStat {
    /// Rank.
    pub rank: u32,
    /// Kernel name.
    pub name: String,
    /// Executions.
    pub count: u64,
    /// Total duration.
    pub sum_ns: i64,
    /// Shortest.
    pub min_ns: i64,
    /// Longest.
    pub max_ns: i64,
    /// Mean.
    pub mean_ns: f64,
}

/// Rows of one rank left out of every analysis because their end is before their start (`end_ns <
/// start_ns`). Known sources: GPU activities not finished when the vendor handed their records over at
/// the final flush (the tracer's summary counts such kernels), `ProfilerStep#N` ranges without an end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished {
    /// Rank.
    pub rank: u32,
    /// Rows left out.
    pub count: u64,
}

/// Every analysis of a directory of ranks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// The files read, by rank.
    pub ranks: Vec<RankInfo>,
    /// Time per kernel name per rank.
    pub kernels: Vec<KernelStat>,
    /// Time per kernel type per rank.
    pub categories: Vec<CategoryTime>,
    /// Time per overlap state per rank.
    pub breakdown: Vec<OverlapTime>,
    /// Idle time per rank.
    pub idle: Vec<IdleTime>,
    /// Steps per rank.
    pub steps: Vec<StepTime>,
    /// Ranks compared per step.
    pub stragglers: Vec<Straggler>,
    /// Communication kernels per rank.
    pub communication: Vec<CommStat>,
    /// Rows left out because their end is before their start, per rank (only ranks that have some).
    pub unfinished: Vec<Unfinished>,
}

impl Report {
    /// HTA's kernel-type table (`kernel_type_df`): time per overlap state summed over ranks, largest first,
    /// with its share in percent.
    ///
    /// The sums are exact; a total past `i64::MAX` ns (292 years), which [`Analysis::report`] refuses
    /// ([`Error::TooLarge`]), is given as `i64::MAX` in a report built by hand (its share stays exact).
    ///
    /// [`Analysis::report`]: crate::Analysis::report
    /// [`Error::TooLarge`]: crate::Error::TooLarge
    pub fn breakdown_totals(&self) -> Vec<(String, i64, f64)> {
        let mut by_state: std::collections::BTreeMap<u32, i128> = Default::default();
        for row in &self.breakdown {
            *by_state.entry(row.state).or_default() += i128::from(row.time_ns);
        }
        let total: i128 = by_state.values().sum();
        let mut rows: Vec<(String, i64, f64)> = by_state
            .into_iter()
            .map(|(state, t)| {
                let share = if total == 0 { 0.0 } else { 100.0 * t as f64 / total as f64 };
                (state_label(state), i64::try_from(t).unwrap_or(i64::MAX), share)
            })
            .collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        rows
    }

    /// The report as JSON (times in ns).
    pub fn to_json(&self) -> Value {
        json!({
            "ranks": self.ranks.iter().map(|r| json!({
                "rank": r.meta.rank, "world_size": r.meta.world_size, "host": r.meta.host,
                "vendor": r.meta.vendor, "process_id": r.meta.process_id, "file": r.file.display().to_string(),
                "unix_offset_ns": r.meta.clock.unix_offset_ns(),
            })).collect::<Vec<_>>(),
            "kernels": self.kernels.iter().map(|k| json!({
                "rank": k.rank, "kernel_type": k.kernel_type.name(), "name": k.name, "count": k.count,
                "sum_ns": k.sum_ns, "min_ns": k.min_ns, "max_ns": k.max_ns, "mean_ns": k.mean_ns,
                "stddev_ns": k.stddev_ns,
            })).collect::<Vec<_>>(),
            "categories": self.categories.iter().map(|c| json!({
                "rank": c.rank, "kernel_type": c.kernel_type.name(), "count": c.count, "sum_ns": c.sum_ns,
            })).collect::<Vec<_>>(),
            "breakdown": self.breakdown.iter().map(|b| json!({
                "rank": b.rank, "state": b.state, "kernel_type": b.label(), "time_ns": b.time_ns,
            })).collect::<Vec<_>>(),
            "breakdown_totals": self.breakdown_totals().into_iter().map(|(label, t, p)| json!({
                "kernel_type": label, "time_ns": t, "percentage": p,
            })).collect::<Vec<_>>(),
            "idle": self.idle.iter().map(|i| json!({
                "rank": i.rank, "idle_ns": i.idle_ns, "compute_ns": i.compute_ns,
                "non_compute_ns": i.non_compute_ns, "kernel_time_ns": i.kernel_time_ns,
            })).collect::<Vec<_>>(),
            "steps": self.steps.iter().map(|s| json!({
                "step": s.step, "rank": s.rank, "start_ns": s.start_ns, "duration_ns": s.duration_ns,
                "last_comm_start_ns": s.last_comm_start_ns,
            })).collect::<Vec<_>>(),
            "stragglers": self.stragglers.iter().map(|s| json!({
                "step": s.step, "ranks": s.ranks, "slowest_rank": s.slowest_rank, "slowest_ns": s.slowest_ns,
                "fastest_rank": s.fastest_rank, "fastest_ns": s.fastest_ns, "mean_ns": s.mean_ns,
                "latest_comm_rank": s.latest_comm_rank, "latest_comm_start_ns": s.latest_comm_start_ns,
            })).collect::<Vec<_>>(),
            "communication": self.communication.iter().map(|c| json!({
                "rank": c.rank, "name": c.name, "count": c.count, "sum_ns": c.sum_ns, "min_ns": c.min_ns,
                "max_ns": c.max_ns, "mean_ns": c.mean_ns,
            })).collect::<Vec<_>>(),
            "unfinished": self.unfinished.iter().map(|u| json!({
                "rank": u.rank, "count": u.count,
            })).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_are_labelled_as_hta_labels_them() {
        assert_eq!(state_label(1), "COMPUTATION");
        assert_eq!(state_label(3), "COMPUTATION overlapping COMMUNICATION");
        assert_eq!(state_label(6), "COMMUNICATION overlapping MEMORY");
        assert_eq!(state_label(7), "COMPUTATION overlapping COMMUNICATION overlapping MEMORY");
    }
}
