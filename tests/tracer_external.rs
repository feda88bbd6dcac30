//! `ExternalIds` over the tracer on the mock `libcupti`: ids pushed on CUPTI's stack (kind
//! `CUSTOM1`) link the calls made inside them, the chain recovers the enclosing ids, and metadata
//! attaches to the innermost.

mod support;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use accel_profiling::{
    Batch, Distributed, ExternalIds, FamilySet, Synchronize, Tracer, TracerConfig, Vendor,
};
use accelprof_mocks::cupti::{MockCupti, LIBRARY};
use serde_json::json;

#[test]
fn calls_inside_a_context_are_linked_to_its_id_and_the_chain_recovers_the_enclosing_ones() {
    let mock = Arc::new(MockCupti::open(LIBRARY).expect("the mock libcupti's controls"));
    mock.reset();
    let sync = mock.clone();
    let tracer = Tracer::new(TracerConfig {
        vendor: Vendor::Cupti,
        library: Some(LIBRARY.into()),
        families: FamilySet::KERNEL | FamilySet::API | FamilySet::EXTERNAL_CORRELATION,
        distributed: Some(Distributed::default()),
        synchronize: Some(Synchronize::new(move || {
            sync.device_synchronize();
            Ok(true)
        })),
        ..TracerConfig::default()
    })
    .expect("a tracer on the mock");
    let seen: Arc<Mutex<Batch>> = Arc::default();
    let keep = seen.clone();
    tracer
        .subscribe(FamilySet::EXTERNAL_CORRELATION | FamilySet::KERNEL, move |b, _| support::keep(&keep, b));
    tracer.start().expect("start");
    let ids = ExternalIds::new(&tracer);
    assert!(ids.has_vendor_stack());

    let step = ids.push();
    let allreduce = ids.push();
    assert_eq!(
        ids.add_metadata(json!({"process_group": "0:2"}).as_object().unwrap().clone()),
        Some(allreduce)
    );
    let in_allreduce = mock.launch(c"nccl_allreduce", [1, 1, 1], [32, 1, 1], 0, 1);
    assert_eq!(ids.pop(), Some(allreduce));
    let in_step = mock.launch(c"k_step", [1, 1, 1], [32, 1, 1], 0, 1);
    assert_eq!(ids.pop(), Some(step));
    let outside = mock.launch(c"k_outside", [1, 1, 1], [32, 1, 1], 0, 1);
    assert_eq!(ids.pop(), None);
    tracer.flush().expect("flush");

    let seen = seen.lock().unwrap();
    let ext = &seen.external_correlations;
    let linked: HashMap<u64, u64> =
        ext.correlation().iter().copied().zip(ext.external_id().iter().copied()).collect();
    assert_eq!(linked.get(&u64::from(in_allreduce)), Some(&allreduce), "{linked:?}");
    assert_eq!(linked.get(&u64::from(in_step)), Some(&step), "{linked:?}");
    assert_eq!(linked.get(&u64::from(outside)), None, "no context: no link: {linked:?}");
    assert_eq!(ids.chain(allreduce), [step, allreduce]);
    let meta = ids.take_metadata();
    assert_eq!(meta[&allreduce]["process_group"], "0:2");
    let report = tracer.stop();
    assert!(report.is_complete(), "{}", report.render(5));
}
