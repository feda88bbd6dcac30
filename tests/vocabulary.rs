//! The vocabulary the three vendor crates share: one name and one shape per concept (issue 20).
//!
//! Each line names an item of each crate with the shape it must have, so a rename or a changed
//! signature in one crate fails to compile here, in this one named test. What a vendor does not
//! have is said where it would be (and why), so that its absence is a decision, not drift.

use std::time::Duration;

use accelprof_core::Version;

/// `open()` owned where a vendor allows several handles, `global()` the process-wide one everywhere;
/// `open_path()` exactly one file.
#[test]
fn opening_the_library() {
    let _: fn() -> cupti::Result<cupti::Cupti> = cupti::Cupti::open;
    let _: fn() -> mspti::Result<mspti::Mspti> = mspti::Mspti::open;
    // rocprofiler: the SDK is one per process (the runtime's copy), so no owned `open`.
    let _: fn() -> cupti::Result<&'static cupti::Cupti> = cupti::Cupti::global;
    let _: fn() -> mspti::Result<&'static mspti::Mspti> = mspti::Mspti::global;
    let _: fn() -> rocprofiler::Result<&'static rocprofiler::Rocprofiler> = rocprofiler::Rocprofiler::global;
    let _ = |p: &str| -> cupti::Result<cupti::Cupti> { cupti::Cupti::open_path(p) };
    let _ = |p: &str| -> mspti::Result<mspti::Mspti> { mspti::Mspti::open_path(p) };
    let _ = |p: &str| -> rocprofiler::Result<&'static rocprofiler::Rocprofiler> {
        rocprofiler::Rocprofiler::open_path(p)
    };
}

/// `version()` is `Result<accelprof_core::Version>`.
#[test]
fn version() {
    let _: fn(&cupti::Cupti) -> cupti::Result<Version> = cupti::Cupti::version;
    let _: fn(&mspti::Mspti) -> mspti::Result<Version> = mspti::Mspti::version;
    let _: fn(&rocprofiler::Rocprofiler) -> rocprofiler::Result<Version> = rocprofiler::Rocprofiler::version;
}

/// A callback: `is_enter()`, `is_exit()`, `correlation_slot()` (a slot, never an `Option`) and
/// `function_name()`, on `CallbackData` itself.
#[test]
fn callback_data() {
    fn cupti_cb<'a>(
        cb: &cupti::CallbackData<'a>,
    ) -> (bool, bool, cupti::CorrelationSlot<'a>, Option<&'a str>) {
        (cb.is_enter(), cb.is_exit(), cb.correlation_slot(), cb.function_name())
    }
    fn mspti_cb<'a>(
        cb: &mspti::CallbackData<'a>,
    ) -> (bool, bool, mspti::CorrelationSlot<'a>, Option<&'a str>) {
        (cb.is_enter(), cb.is_exit(), cb.correlation_slot(), cb.function_name())
    }
    fn rocprofiler_cb<'a>(
        cb: &'a rocprofiler::CallbackData<'a>,
    ) -> (bool, bool, rocprofiler::CorrelationSlot<'a>, Option<&'a str>) {
        (cb.is_enter(), cb.is_exit(), cb.correlation_slot(), cb.function_name())
    }
    let _ = (cupti_cb, mspti_cb, rocprofiler_cb);
}

/// The runtime's callback domain is `CallbackDomain::RUNTIME_API` (each vendor's own name stays too).
#[test]
fn runtime_domain() {
    assert_eq!(mspti::CallbackDomain::RUNTIME_API, mspti::CallbackDomain::RUNTIME);
    assert_eq!(rocprofiler::CallbackDomain::RUNTIME_API, rocprofiler::CallbackDomain::HIP_RUNTIME_API);
    let _: cupti::CallbackDomain = cupti::CallbackDomain::RUNTIME_API;
}

/// The activity config: `max_buffers` (rocprofiler: in its `buffer`, which a bare `Buffer` shares),
/// `flush_period` a field (rocprofiler: none, the SDK flushes at its watermark), and the default
/// collects the timeline on every vendor that can say what it is.
#[test]
fn activity_config() {
    let period = Some(Duration::from_millis(10));
    let _ = cupti::ActivityConfig { max_buffers: 4, flush_period: period, ..Default::default() };
    let _ = mspti::ActivityConfig { max_buffers: 4, flush_period: period, ..Default::default() };
    let _ = rocprofiler::ActivityConfig {
        buffer: rocprofiler::BufferConfig { max_buffers: 4, ..Default::default() },
        ..Default::default()
    };
    assert!(cupti::ActivityConfig::default().kinds == cupti::ActivityKinds::timeline());
    assert_eq!(mspti::ActivityConfig::default().kinds, mspti::ActivityKinds::timeline());
    assert_eq!(rocprofiler::ActivityConfig::default().kinds, rocprofiler::ActivityKinds::timeline());
}

/// An empty kind selection: `Error::Activity(ActivityError::NoKinds)` in each crate (each refuses to
/// start such a session; mspti's only with `enable_later`, its kinds then taken with `enable`).
#[test]
fn no_kinds() {
    use accelprof_core::activity::ActivityError;
    let _ = |e: &cupti::Error| matches!(e, cupti::Error::Activity(ActivityError::NoKinds));
    let _ = |e: &mspti::Error| matches!(e, mspti::Error::Activity(ActivityError::NoKinds));
    let _ = |e: &rocprofiler::Error| matches!(e, rocprofiler::Error::Activity(ActivityError::NoKinds));
}

/// External correlation: `push_external_correlation` and `pop_external_correlation` giving
/// `Option<u64>` (`None`: the stack was empty). rocprofiler: none (the SDK has no such stack).
#[test]
fn external_correlation() {
    use cupti::activity::ExternalCorrelationKind;
    let _: fn(&cupti::Cupti, ExternalCorrelationKind, u64) -> cupti::Result<()> =
        cupti::Cupti::push_external_correlation;
    let _: fn(&cupti::Cupti, ExternalCorrelationKind) -> cupti::Result<Option<u64>> =
        cupti::Cupti::pop_external_correlation;
    let _: fn(&mspti::Mspti, mspti::ExternalKind, u64) -> mspti::Result<()> =
        mspti::Mspti::push_external_correlation;
    let _: fn(&mspti::Mspti, mspti::ExternalKind) -> mspti::Result<Option<u64>> =
        mspti::Mspti::pop_external_correlation;
}

/// Another tool holds the vendor's one subscription: `Error::MultipleSubscribers` (rocprofiler: none,
/// its tools do not exclude each other).
#[test]
fn another_tool_holds_it() {
    let is = |e: &cupti::Error| matches!(e, cupti::Error::MultipleSubscribers { .. });
    let _ = is;
    let is = |e: &mspti::Error| matches!(e, mspti::Error::MultipleSubscribers);
    let _ = is;
}

/// The record walker is `decode::Walker`.
#[test]
fn walker() {
    let _: Option<cupti::decode::Walker> = None;
    let _: Option<mspti::decode::Walker> = None;
    let _: Option<rocprofiler::decode::Walker> = None;
}

/// The -sys loaders: `LIBRARY_PATH_VAR` (the variable naming the file) and `search_places()`.
#[test]
fn sys_loaders() {
    let vars: [&str; 3] =
        [cupti::sys::LIBRARY_PATH_VAR, mspti::sys::LIBRARY_PATH_VAR, rocprofiler::sys::LIBRARY_PATH_VAR];
    assert_eq!(vars, ["CUPTI_LIBRARY_PATH", "MSPTI_LIBRARY_PATH", "ROCPROFILER_LIBRARY_PATH"]);
    let _: [fn() -> Vec<accelprof_loader::SearchPlace>; 3] =
        [cupti::sys::search_places, mspti::sys::search_places, rocprofiler::sys::search_places];
}

/// The calls every activity session has, one name and one signature each (`subscribe`, `unsubscribe`,
/// `collect`, `names`, `kinds`, `start`, `pause`, `resume`, `is_collecting`, `switch`, `flush`, `fence`,
/// `counts`, `stop`, `end`, `core`): the same lines, compiled for each crate's `ActivitySession`. All but
/// `start` come from `accelprof_core::session_facade!`; `start` is each vendor's own.
macro_rules! session_calls {
    ($v:ident, $S:ty, $Backend:ty, $Switch:ty) => {{
        use accelprof_core::activity::{Collected, FlushReport, Session};
        use accelprof_core::pipeline::ConsumerId;
        let _ =
            |s: &$S| -> ConsumerId { s.subscribe($v::FamilySet::KERNEL, |_: &$v::Batch, _: &$v::Names| {}) };
        let _: fn(&$S, ConsumerId) -> bool = <$S>::unsubscribe;
        let _: fn(&$S, $v::FamilySet) -> Collected = <$S>::collect;
        let _: fn(&$S) -> $v::Names = <$S>::names;
        let _: fn(&$S) -> Vec<$v::ActivityKind> = <$S>::kinds;
        let _: fn(&$S) -> $v::Result<()> = <$S>::start;
        let _: fn(&$S) -> $v::Result<bool> = <$S>::pause;
        let _: fn(&$S) -> $v::Result<bool> = <$S>::resume;
        let _: fn(&$S) -> bool = <$S>::is_collecting;
        let _: fn(&$S) -> $Switch = <$S>::switch;
        let _: fn(&$S) -> $v::Result<FlushReport> = <$S>::flush;
        let _: fn(&$S) -> $v::Result<FlushReport> = <$S>::fence;
        let _: fn(&$S) -> $v::ActivityCounts = <$S>::counts;
        let _: fn($S) -> $v::Result<$v::ActivityCounts> = <$S>::stop;
        let _: fn($S) -> $v::activity::SessionEnd = <$S>::end;
        let _: for<'a> fn(&'a $S) -> &'a Session<$Backend> = <$S>::core;
    }};
}

#[test]
fn activity_session_calls() {
    session_calls!(
        cupti,
        cupti::ActivitySession<'static>,
        cupti::activity::Backend<'static>,
        cupti::activity::ActivitySwitch<'static>
    );
    session_calls!(
        mspti,
        mspti::ActivitySession<'static>,
        mspti::activity::Backend<'static>,
        mspti::activity::ActivitySwitch<'static>
    );
    session_calls!(
        rocprofiler,
        rocprofiler::ActivitySession,
        rocprofiler::activity::Backend,
        rocprofiler::activity::ActivitySwitch
    );
}

/// A callback subscriber: `panics()` and `last_panic()` everywhere (`accelprof_core::subscriber_facade!`);
/// where subscribers share the vendor's one subscription (CUPTI, MSPTI), `enable_domain`, `enable` (each
/// vendor's own: what they check first differs), `disable_domain`, `disable`, `is_enabled`,
/// `is_domain_enabled` (the macro's switchboard part) and `unsubscribe`. rocprofiler: a callback service
/// is configured once per domain and context and cannot be removed, so its `Subscriber` only reports.
macro_rules! subscriber_calls {
    ($v:ident, $S:ty) => {{
        let _: fn(&$S) -> u64 = <$S>::panics;
        let _: fn(&$S) -> Option<String> = <$S>::last_panic;
    }};
    ($v:ident, $S:ty, switchboard) => {{
        subscriber_calls!($v, $S);
        let _: fn(&$S, $v::CallbackDomain) -> $v::Result<()> = <$S>::enable_domain;
        let _: fn(&$S, $v::CallbackDomain) -> $v::Result<()> = <$S>::disable_domain;
        let _: fn(&$S, $v::CallbackDomain) -> bool = <$S>::is_domain_enabled;
        // `impl Into<CallbackId>`: called with a `CallbackId`.
        let _ = |s: &$S, id: $v::CallbackId| -> $v::Result<()> { s.enable(id) };
        let _ = |s: &$S, id: $v::CallbackId| -> $v::Result<()> { s.disable(id) };
        let _ = |s: &$S, id: $v::CallbackId| -> bool { s.is_enabled(id) };
        let _: fn($S) -> $v::Result<()> = <$S>::unsubscribe;
    }};
}

#[test]
fn subscriber_calls() {
    subscriber_calls!(cupti, cupti::Subscriber<'static>, switchboard);
    subscriber_calls!(mspti, mspti::Subscriber<'static>, switchboard);
    subscriber_calls!(rocprofiler, rocprofiler::Subscriber);
}
