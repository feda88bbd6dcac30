//! The first subscriber's fast path and the library's zeroing of `correlationData`: it zeroes the
//! slot at each ENTER until it has seen, over its first 4,096 calls, that the library does (with
//! a sentinel stored at each EXIT), then leaves it to the library; a library that does not zero
//! is zeroed for. A library's state lasts for its process, so each case runs in a child process
//! of its own (the `*_child` tests, ignored in a normal run).

use std::sync::atomic::{AtomicU64, Ordering};

use accelprof_mocks::cupti::MockCupti;
use cupti::{CallbackSite, Cupti, RuntimeCbid};

/// More than the fast path's checks.
const CALLS: u64 = 5_000;

/// Runs the ignored test `name` in a child process and checks that it passed.
fn run_child(name: &str) {
    let out = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", name, "--ignored", "--nocapture", "--test-threads=1"])
        .output()
        .expect("run the child");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{name} failed:\n{text}");
    assert!(text.contains("1 passed"), "{name} did not run:\n{text}");
}

/// Counts of what the first subscriber saw.
static ENTERS: AtomicU64 = AtomicU64::new(0);
static EXITS_RIGHT: AtomicU64 = AtomicU64::new(0);
static EXITS_WRONG: AtomicU64 = AtomicU64::new(0);
static ENTERS_NOT_ZERO: AtomicU64 = AtomicU64::new(0);

/// A closure owning nothing (so the fast path runs without a read section): at ENTER it checks
/// that the slot reads 0 and stores the correlation id + 1 on odd ids only; at EXIT it checks the
/// slot holds exactly what its ENTER stored (0 on even ids).
fn first_subscriber(cupti: &Cupti) -> cupti::Subscriber<'_> {
    let sub = cupti
        .subscribe(|cb| {
            let Some(api) = cb.api() else { return };
            let slot = api.correlation_slot();
            let id = u64::from(api.correlation_id());
            let mine = if id % 2 == 1 { id + 1 } else { 0 };
            if api.site() == CallbackSite::ENTER {
                ENTERS.fetch_add(1, Ordering::Relaxed);
                if slot.get() != 0 {
                    ENTERS_NOT_ZERO.fetch_add(1, Ordering::Relaxed);
                }
                if mine != 0 {
                    slot.set(mine);
                }
            } else if slot.get() == mine {
                EXITS_RIGHT.fetch_add(1, Ordering::Relaxed);
            } else {
                EXITS_WRONG.fetch_add(1, Ordering::Relaxed);
            }
        })
        .unwrap();
    sub.enable(RuntimeCbid::cudaMalloc_v3020).unwrap();
    sub
}

/// The mock (reset) and a `Cupti` on it, in this child process.
fn fresh_mock() -> (Cupti, MockCupti) {
    let cupti = Cupti::open_path(accelprof_mocks::cupti::LIBRARY).unwrap();
    let mock = MockCupti::open(accelprof_mocks::cupti::LIBRARY).expect("the mock libcupti's controls");
    mock.reset();
    (cupti, mock)
}

fn mallocs(mock: &MockCupti, n: u64) {
    let mut address = 0;
    for _ in 0..n {
        mock.malloc(8, &mut address);
    }
}

fn counts() -> [u64; 4] {
    [&ENTERS, &EXITS_RIGHT, &EXITS_WRONG, &ENTERS_NOT_ZERO].map(|c| c.load(Ordering::Relaxed))
}

#[test]
#[ignore = "run by library_that_zeroes"]
fn library_that_zeroes_child() {
    let (cupti, mock) = fresh_mock();
    let sub = first_subscriber(&cupti);
    assert_eq!(cupti.zeroes_correlation_slots(), None, "not checked before any call");
    mallocs(&mock, CALLS);
    assert_eq!(cupti.zeroes_correlation_slots(), Some(true));
    assert_eq!(counts(), [CALLS, CALLS, 0, 0], "ENTER, EXIT right, EXIT wrong, ENTER not zero");

    // Trusted from now on: a slot the library hands over unzeroed shows through (this is what
    // the check guards against), and values stored at ENTER still come back.
    mock.set_slot_fill(0x77);
    mallocs(&mock, 10);
    let [enters, right, wrong, not_zero] = counts();
    assert_eq!((enters, not_zero), (CALLS + 10, 10), "the fast path no longer zeroes");
    assert_eq!(right + wrong, CALLS + 10);
    assert_eq!(wrong, 5, "even ids stored nothing and read the library's 0x77");
    drop(sub);
}

#[test]
fn library_that_zeroes() {
    run_child("library_that_zeroes_child");
}

#[test]
#[ignore = "run by library_that_does_not_zero"]
fn library_that_does_not_zero_child() {
    let (cupti, mock) = fresh_mock();
    mock.set_slot_fill(0x77);
    let sub = first_subscriber(&cupti);
    mallocs(&mock, CALLS);
    assert_eq!(cupti.zeroes_correlation_slots(), Some(false), "the first ENTER saw 0x77");
    assert_eq!(counts(), [CALLS, CALLS, 0, 0], "the fast path zeroes for the library");
    drop(sub);
}

#[test]
fn library_that_does_not_zero() {
    run_child("library_that_does_not_zero_child");
}
