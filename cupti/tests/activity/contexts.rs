//! Nested external-correlation contexts (`ExternalContexts`): one CUPTI kind for every subsystem, the
//! whole active stack recovered from the innermost id CUPTI links a call to, metadata per context.

use accelprof_core::FamilySet;
use cupti::activity::{ActivityKind, ActivitySession, ExternalContexts, ExternalCorrelationKind};
use cupti::Cupti;

use super::{config, setup};

#[test]
fn nested_contexts_are_recovered_from_the_innermost_id() {
    for version in [130001, 130500] {
        let (_g, _, m) = setup();
        m.set_version(version);
        let cupti = &Cupti::open_path(super::path()).unwrap();
        let kinds =
            [ActivityKind::CONCURRENT_KERNEL, ActivityKind::RUNTIME, ActivityKind::EXTERNAL_CORRELATION];
        let session = ActivitySession::new(cupti, config(&kinds)).unwrap();
        let rows = session.collect(FamilySet::all());
        session.start().unwrap();
        let contexts = ExternalContexts::new(cupti, ExternalCorrelationKind::CUSTOM1);
        let step = contexts.push();
        let step_kernel = m.launch(c"optimizer", 3);
        let (collective, inner_kernel) = {
            let allreduce = contexts.push();
            assert_eq!(contexts.current(), Some(allreduce.id()));
            assert!(contexts.attach_current("process_group", "0:8"));
            allreduce.attach("bytes", "4096");
            (allreduce.id(), m.launch(c"ncclAllReduce", 3))
        };
        assert_eq!(contexts.current(), Some(step.id()), "the inner context popped");
        session.fence().unwrap();
        let batch = rows.take();
        let innermost = |corr: u32| {
            batch
                .external_correlations
                .rows()
                .find(|r| r.correlation == u64::from(corr))
                .map(|r| r.external_id)
        };
        assert_eq!(
            innermost(inner_kernel),
            Some(collective),
            "CUPTI links the call to the innermost id only"
        );
        assert_eq!(contexts.chain(collective), [step.id(), collective], "version {version}");
        assert_eq!(innermost(step_kernel), Some(step.id()));
        assert_eq!(contexts.chain(step.id()), [step.id()]);
        let meta = contexts.take_metadata();
        assert_eq!(meta[&collective].get("process_group").map(String::as_str), Some("0:8"));
        assert_eq!(meta[&collective].get("bytes").map(String::as_str), Some("4096"));
        assert!(contexts.take_metadata().is_empty(), "taken once");
        // Popped chains are kept for the records still on their way, then retired.
        contexts.retire();
        assert_eq!(contexts.chain(collective), [step.id(), collective]);
        contexts.retire();
        assert_eq!(contexts.chain(collective), [collective], "retired two generations after its pop");
        assert_eq!(contexts.chain(step.id()), [step.id()], "still live");
        drop(step);
        session.stop().unwrap();
    }
}

#[test]
fn a_push_cupti_refuses_keeps_the_pops_balanced() {
    let (_g, cupti, m) = setup();
    let contexts = ExternalContexts::new(cupti, ExternalCorrelationKind::CUSTOM1);
    let outer = contexts.push();
    assert!(outer.pushed_to_cupti());
    m.set_driver_present(0);
    let refused = contexts.push();
    assert!(!refused.pushed_to_cupti());
    assert_eq!(contexts.chain(refused.id()), [outer.id(), refused.id()]);
    m.set_driver_present(1);
    drop(refused);
    // CUPTI's stack still holds the outer id: popping it now returns it, then the stack is empty.
    drop(outer);
    assert!(matches!(cupti.pop_external_correlation(ExternalCorrelationKind::CUSTOM1), Ok(None)));
    assert_eq!(contexts.current(), None);
}
