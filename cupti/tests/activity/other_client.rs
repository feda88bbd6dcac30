//! Another CUPTI client in the process (PyTorch's profiler, played by the mock's foreign client in
//! Kineto's order of calls: `cuptiSubscribe`, `cuptiActivityRegisterCallbacks`, `cuptiActivityEnable` per
//! kind; at its stop `cuptiActivityDisable` per kind, then `cuptiActivityFlushAll(FORCED)`).
//!
//! Through the process-wide (V1) activity API the last registration wins and buffers in flight complete to
//! the winner: every loss is named in the session's ledger (`ActivityCounts::other_client`), and
//! `is_balanced()` is false. Through the per-subscriber (V2) API of 13.3 and later both clients get every
//! record.

use std::time::Duration;

use accelprof_core::FamilySet;
use cupti::activity::{unix_now_ns, ActivityConfig, ActivitySession};

use super::{config, setup, Mock, TIMELINE};

/// The test config with a short fence timeout: a fence whose probe record goes to the other client's
/// buffers cannot succeed.
fn short_fence() -> ActivityConfig {
    ActivityConfig { fence_timeout: Duration::from_millis(300), ..config(&TIMELINE) }
}

/// Records the mock produced that neither we nor the foreign client (in its own buffers) accounted for.
fn unaccounted(m: &Mock, counts: &cupti::activity::ActivityCounts) -> u64 {
    let p = counts.pipeline;
    let ours = p.records_delivered + p.records_dropped() + counts.vendor.decoder.fence_records;
    m.produced() - ours - m.foreign_stat(c"records")
}

#[test]
fn another_client_registering_after_our_session_takes_its_buffers_and_the_ledger_names_it() {
    let (_g, cupti, m) = setup();
    let t0 = unix_now_ns();
    let session = ActivitySession::new(cupti, short_fence()).unwrap();
    let kernels = session.collect(FamilySet::KERNEL);
    session.start().unwrap();
    m.launch(c"before_the_other", 1); // CUPTI asks us for a buffer now
    let t1 = unix_now_ns();
    for _ in 0..9 {
        m.launch(c"before_the_other", 1);
    }
    // PyTorch's profiler starts: its callbacks replace ours for the whole process.
    assert_eq!(m.foreign_start(), 0);
    assert_eq!(m.foreign_stat(c"subscribe_result"), 0, "our activity session holds no subscriber");
    for _ in 0..20 {
        m.launch(c"while_both", 1);
    }
    // Its stop disables its kinds (ours too) and force-flushes: our buffer completes to its callbacks.
    assert_eq!(m.foreign_stop(), 0);
    assert_eq!(m.foreign_stat(c"unknown_buffers"), 1, "our buffer went to the other client, as CUPTI does");
    assert_eq!(m.foreign_stat(c"kernels"), 0, "it lost its kernels as well (Kineto's 0 kernels)");
    for _ in 0..5 {
        m.launch(c"after_the_other_stopped", 1);
    }
    let end = session.end();
    let counts = end.counts;
    assert!(end.fence.is_err(), "the fence's probe went to the other client's buffers");
    assert_eq!(kernels.take().kernels.len(), 0, "all 30 kernels were in the buffer the other client got");
    assert!(!counts.is_balanced(), "records were lost to another client: {counts:#?}");
    let other = counts.other_client;
    assert_eq!(other.buffers_taken, 1, "{counts:#?}");
    assert_eq!(other.foreign_buffers, 0);
    let since = other.missing_since_unix_ns.expect("when the taken buffer was handed out");
    assert!(
        t0 <= since && since <= t1,
        "records are missing from the first launch on: {t0} <= {since} <= {t1}"
    );
    // Exactly: what we did not account for is what is in the buffers the other client took.
    assert_eq!(other.buffers_taken, m.foreign_stat(c"unknown_buffers"));
    assert_eq!(unaccounted(m, &counts), m.foreign_stat(c"unknown_records"), "{counts:#?}");
    assert!(m.foreign_stat(c"unknown_records") >= 30, "the 30 kernels (and their API records)");
}

#[test]
fn a_session_started_after_another_client_leaves_its_buffers_alone_and_the_ledger_names_it() {
    let (_g, cupti, m) = setup();
    assert_eq!(m.foreign_start(), 0);
    for _ in 0..5 {
        m.launch(c"theirs_alone", 1); // into the other client's buffer
    }
    let t0 = unix_now_ns();
    // Our registration replaces theirs: their buffer in flight completes to us.
    let session = ActivitySession::new(cupti, short_fence()).unwrap();
    let kernels = session.collect(FamilySet::KERNEL);
    session.start().unwrap();
    for _ in 0..10 {
        m.launch(c"both", 1); // still into their buffer, CUPTI's current one
    }
    session.flush().unwrap();
    assert_eq!(kernels.take().kernels.len(), 0, "the records were in their buffer: not ours to read");
    let mid = session.counts();
    assert_eq!(mid.other_client.foreign_buffers, 1, "seen as it happens: {mid:#?}");
    assert!(!mid.is_balanced());
    assert_eq!(m.foreign_stat(c"buffers_held"), 1, "their buffer is still theirs: neither freed nor reused");
    for _ in 0..10 {
        m.launch(c"ours", 1); // into a buffer of ours
    }
    // Their stop switches our kinds off too, and its forced flush hands our buffer to us.
    assert_eq!(m.foreign_stop(), 0);
    for _ in 0..5 {
        m.launch(c"after_their_stop", 1); // no kernel record: CONCURRENT_KERNEL is off for everyone
    }
    let end = session.end();
    let counts = end.counts;
    assert!(end.fence.is_ok(), "our callbacks are the registered ones: {:?}", end.fence);
    let names = session_names(&kernels);
    assert_eq!(names, vec!["ours"; 10]);
    assert!(!counts.is_balanced(), "{counts:#?}");
    let other = counts.other_client;
    assert_eq!((other.buffers_taken, other.foreign_buffers), (0, 1), "{counts:#?}");
    assert!(other.first_foreign_unix_ns.is_some_and(|t| t >= t0));
    assert_eq!(other.missing_since(), other.first_foreign_unix_ns);
    assert_eq!(m.foreign_stat(c"kernels"), 0, "the other client got no kernel either");
    assert!(unaccounted(m, &counts) >= 15, "the 15 launches in their buffer are lost to both");
}

/// The kernel names collected (the rows' names resolved through the collector's names).
fn session_names(kernels: &accelprof_core::activity::Collected) -> Vec<String> {
    let batch = kernels.take();
    (0..batch.kernels.len())
        .map(|i| kernels.names().resolve(batch.kernels.row(i).expect("a row").name).to_owned())
        .collect()
}

#[test]
fn with_per_subscriber_buffers_both_clients_get_every_record() {
    let (_g, _, m) = setup();
    m.set_version(130500);
    let cupti = &cupti::Cupti::open_path(super::path()).unwrap(); // reads the played version
                                                                  // Ours first, the other tool second (the other order is `another_tool_traces_the_same_process_...`).
    let session = ActivitySession::new(cupti, config(&TIMELINE)).unwrap();
    assert!(session.uses_user_defined_records(), "the per-subscriber API is chosen on 13.5");
    let kernels = session.collect(FamilySet::KERNEL);
    session.start().unwrap();
    assert_eq!(m.foreign_start_v2(), 0, "a second subscriber is allowed");
    for _ in 0..25 {
        m.launch(c"both_see_me", 3);
    }
    session.fence().unwrap();
    assert_eq!(kernels.take().kernels.len(), 25);
    assert_eq!(m.foreign_stop(), 0);
    assert_eq!(m.foreign_stat(c"kernels"), 25, "the other tool got every kernel too");
    assert_eq!(m.foreign_stat(c"unknown_buffers"), 0);
    let counts = session.stop().unwrap();
    assert!(counts.is_balanced(), "{counts:#?}");
    assert!(!counts.other_client.seen());
    assert_eq!(unaccounted(m, &counts), 0, "{counts:#?}");
}
