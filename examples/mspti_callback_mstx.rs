//! Guide scenario 2 (`samples/callback_mstx`): only the kernel-launch callback, user data carried
//! by the closure, an MSTX mark at the launch's entry and exit, and the activity API collecting
//! the MARKER and KERNEL records.
//!
//! ```text
//! cargo run --example mspti_callback_mstx
//! ```

#[path = "mspti_common/mod.rs"]
mod common;

use std::sync::{Arc, Mutex};

use mspti::accel_core::FamilySet;
use mspti::{ActivityConfig, ActivityKind, CallbackId, Domain, RuntimeCbid};

/// What the guide passes through `userdata`: here simply captured by the closure.
struct UserData {
    context: u64,
    stream: u64,
}

fn main() -> Result<(), mspti::Error> {
    let common::Setup { mspti, workload } = common::setup();
    workload.init();

    let ud = UserData { context: 1, stream: 1 };
    // 1. Subscribe with the user data.
    let mut subscriber = mspti.subscribe(move |cb| {
        if cb.domain() != Domain::RUNTIME || cb.id() != CallbackId::Runtime(RuntimeCbid::LAUNCH) {
            return;
        }
        let site = if cb.is_enter() { "enter" } else { "exit" };
        let name = cb.function_name().unwrap_or("?");
        // Instrument the launch's entry and exit.
        workload.mark(&format!("{name} {site} (context {}, stream {})", ud.context, ud.stream));
    })?;
    // 2. Enable one callback id.
    subscriber.enable_callback(RuntimeCbid::LAUNCH)?;
    // 3. The activity API collects Marker and Kernel data.
    let mut activity = mspti.activity(ActivityConfig::default())?;
    activity.enable(ActivityKind::MARKER)?;
    activity.enable(ActivityKind::KERNEL)?;
    let rows = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&rows);
    activity.subscribe(FamilySet::all(), move |batch, names| {
        let mut out = sink.lock().unwrap();
        for m in batch.markers.rows() {
            out.push(format!("marker  t={:>12} {}", m.start, names.resolve(m.name)));
        }
        for k in batch.kernels.rows() {
            out.push(format!(
                "kernel  t={:>12} {} ({} ns, correlation {})",
                k.start,
                names.resolve(k.name),
                k.end - k.start,
                k.correlation
            ));
        }
    });
    // 4. Run the service code.
    workload.runtime_calls();
    activity.flush_all()?;
    // 5. Clean up.
    subscriber.unsubscribe()?;
    let counts = activity.finish();
    workload.finish();
    for line in rows.lock().unwrap().iter() {
        println!("{line}");
    }
    println!(
        "{} records delivered, {} dropped",
        counts.pipeline.records_delivered,
        counts.pipeline.records_dropped()
    );
    Ok(())
}
