//! The activity API: kernels and API calls collected into column batches, then summarised in
//! a table (count, total and mean time per name), like the Python `mspti` package's
//! KernelMonitor.
//!
//! ```text
//! cargo run --example mspti_activity
//! ```
//! MSPTI produces API and kernel records only while a subscriber exists: an activity-only tool
//! subscribes a closure that does nothing, and keeps it while it collects.

#[path = "mspti_common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use mspti::accelprof_core::Family;
use mspti::{ActivityConfig, ActivityKind, ActivitySession};

/// (kind, name) -> (count, total ns).
type Summary = BTreeMap<(String, String), (u64, u64)>;

fn main() -> Result<(), mspti::Error> {
    let common::Setup { mspti, acl } = common::setup();

    // What makes MSPTI produce API and kernel records.
    let subscriber = mspti.subscribe(|_| {})?;
    let kinds = [ActivityKind::KERNEL, ActivityKind::ACL_API, ActivityKind::API].into_iter().collect();
    let activity = ActivitySession::new(mspti, ActivityConfig { kinds, ..ActivityConfig::default() })?;
    let summary: Arc<Mutex<Summary>> = Arc::default();
    let sink = Arc::clone(&summary);
    activity.subscribe(Family::KERNEL.set() | Family::API.set(), move |batch, names| {
        let mut s = sink.lock().unwrap();
        for k in batch.kernels.rows() {
            let e = s.entry(("kernel".into(), names.resolve(k.name).to_string())).or_default();
            e.0 += 1;
            e.1 += k.end.saturating_sub(k.start);
        }
        for a in batch.api_calls.rows() {
            let kind = ActivityKind::from_raw(a.domain).map_or("?".into(), |k| k.to_string().to_lowercase());
            let e = s.entry((kind, names.resolve(a.name).to_string())).or_default();
            e.0 += 1;
            e.1 += a.end.saturating_sub(a.start);
        }
    });
    activity.start()?;
    common::runtime_calls(acl);
    // A last flush, the kinds disabled (which reads what the device still holds), then what that
    // brought is flushed too.
    let counts = activity.stop()?;
    drop(subscriber);
    common::finish(acl);

    println!("{:<8} {:<28} {:>6} {:>14} {:>12}", "kind", "name", "count", "total ns", "mean ns");
    for ((kind, name), (count, total)) in summary.lock().unwrap().iter() {
        println!("{kind:<8} {name:<28} {count:>6} {total:>14} {:>12}", total / count.max(&1));
    }
    let p = counts.pipeline;
    println!(
        "\nrecords: {} produced, {} delivered, {} dropped ({} lost by MSPTI for want of a buffer, {} of unknown kinds)",
        p.records_produced(),
        p.records_delivered,
        p.records_dropped(),
        p.vendor_dropped,
        p.skipped_unknown
    );
    Ok(())
}
