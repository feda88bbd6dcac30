//! Guide scenario 2 (`samples/callback_mstx`): only the kernel-launch callback, user data carried
//! by the closure (the stream the program launches on, as the guide's `userdata`), an MSTX mark
//! on that stream (`mstxMarkA(name, stream)`) at the launch's entry and exit, and the activity API
//! collecting the MARKER and KERNEL records.
//!
//! ```text
//! cargo run --example mspti_callback_mstx
//! ```
//! MSPTI produces MARKER and KERNEL records only while a subscriber exists (the one of step 1).

#[path = "mspti_common/mod.rs"]
mod common;

use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Mutex};

use accelprof_mocks::ascend::Handle;

use mspti::accelprof_core::columns::HOST_DEVICE;
use mspti::accelprof_core::FamilySet;
use mspti::{ActivityConfig, ActivityKind, ActivitySession, CallbackDomain, RuntimeCbid};

/// What the guide passes through `userdata`: here simply captured by the closure. The stream is
/// the program's, set once created (the guide's `*(ud->stream)`).
struct UserData {
    context: u64,
    stream: Arc<AtomicUsize>,
}

fn main() -> Result<(), mspti::Error> {
    let common::Setup { mspti, acl } = common::setup();

    let stream = Arc::new(AtomicUsize::new(0));
    let ud = UserData { context: 1, stream: Arc::clone(&stream) };
    // 1. Subscribe with the user data.
    let subscriber = mspti.subscribe(move |cb| {
        if cb.domain() != CallbackDomain::RUNTIME || cb.id() != RuntimeCbid::LAUNCH.id() {
            return;
        }
        let site = if cb.is_enter() { "enter" } else { "exit" };
        let name = cb.function_name().unwrap_or("?");
        // Instrument the launch's entry and exit, on the launch's stream.
        let stream = ud.stream.load(SeqCst);
        acl.mark_on(&format!("{name} {site} (context {}, stream {stream:#x})", ud.context), Handle(stream));
    })?;
    // 2. Enable one callback id.
    subscriber.enable(RuntimeCbid::LAUNCH)?;
    // 3. The activity API collects Marker and Kernel data.
    let kinds = [ActivityKind::MARKER, ActivityKind::KERNEL].into_iter().collect();
    let activity = ActivitySession::new(mspti, ActivityConfig { kinds, ..ActivityConfig::default() })?;
    activity.start()?;
    let rows = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&rows);
    activity.subscribe(FamilySet::all(), move |batch, names| {
        let mut out = sink.lock().unwrap();
        for m in batch.markers.rows() {
            if m.device == HOST_DEVICE {
                out.push((
                    m.start,
                    format!("marker  {} [{}]", names.resolve(m.name), names.resolve(m.domain)),
                ));
            } else {
                // The device's side of a mark on a stream: its time on the device, the host mark's id.
                out.push((
                    m.start,
                    format!("device marker {} (device {}, flags {})", m.id, m.device, m.flags),
                ));
            }
        }
        for k in batch.kernels.rows() {
            let (name, ns, corr) = (names.resolve(k.name), k.end - k.start, k.correlation);
            out.push((k.start, format!("kernel  {name} ({ns} ns on the device, correlation {corr})")));
        }
    });
    // 4. Run the service code.
    common::runtime_calls_with(acl, |s| stream.store(s.0, SeqCst));
    // 5. Clean up: disabling the kinds reads what the device still holds, then flushes.
    let counts = activity.stop()?;
    subscriber.unsubscribe()?;
    common::finish(acl);
    let mut rows = rows.lock().unwrap();
    rows.sort();
    let t0 = rows.first().map_or(0, |r| r.0);
    for (t, line) in rows.iter() {
        println!("+{:>9} ns  {line}", t - t0);
    }
    println!(
        "{} records delivered, {} dropped",
        counts.pipeline.records_delivered,
        counts.pipeline.records_dropped()
    );
    Ok(())
}
