//! The test kit's way (accelprof-mocks' README), test after test in one binary, with this crate: in a
//! test binary of its own, since it takes the kit's lock where the other test files of this crate take
//! their own. (A test of the `cupti` crate: accelprof-mocks cannot keep it, its dev-dependency on this
//! crate being left out of its package.)

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use accelprof_mocks::cupti::{MockCupti, LIBRARY};
use cupti::{CallbackDomain, Cupti};

/// The README's way, test after test in one binary: take the lock, `reset`, open `libcupti` with the
/// `cupti` crate, subscribe. The crate keeps the library's callback subscription for the process
/// after its last subscriber goes (real CUPTI 13.0 crashes other threads' calls when it is given
/// back), and `reset` forgets it: the next test's subscriber must still get its callbacks (the
/// crate subscribes again) instead of every enable being refused with `INVALID_PARAMETER`.
#[test]
fn every_test_of_a_suite_can_subscribe_to_the_reset_cupti_mock() {
    let _lock = accelprof_mocks::cupti::lock();
    for round in 0..3 {
        let mock = MockCupti::open(LIBRARY).expect("the mock's controls");
        mock.reset();
        let cupti = Cupti::open_path(LIBRARY).expect("the mock, opened as a tool opens libcupti");
        let exits = Arc::new(AtomicU64::new(0));
        let seen = Arc::clone(&exits);
        let sub = cupti
            .subscribe(move |cb| {
                if cb.is_exit() {
                    seen.fetch_add(1, Ordering::Relaxed);
                }
            })
            .expect("subscribe");
        sub.enable_domain(CallbackDomain::RUNTIME_API)
            .unwrap_or_else(|e| panic!("round {round}: runtime callbacks: {e}"));
        mock.launch(c"saxpy", [4, 1, 1], [128, 1, 1], 0, 0);
        assert_eq!(exits.load(Ordering::Relaxed), 1, "round {round}");
        assert_eq!(sub.panics(), 0);
    }
}
