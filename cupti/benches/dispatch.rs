//! The dispatcher's own cost, without a GPU: CUPTI's ENTER and EXIT callbacks of one API call
//! delivered to the function the switchboard subscribes with (called through a function pointer with
//! fake `CUpti_CallbackData` whose slot is zeroed before ENTER, as CUPTI calls it), next to a
//! no-op `extern "C"` function called the same way. What it adds over the raw no-op is what
//! `cupti::Subscriber` adds per traced call on top of a C tool's callback.
//!
//! The first closure routed is the library's anchor (its first subscriber): "one no-op closure"
//! and "one closure, slot round trip" (closures owning nothing) take its fast path without a read
//! section (after its first 4,096 calls, with nothing but a mode check), "one closure owning an
//! Arc" takes it inside one, and "one closure, not the first" is the same closure served by the
//! general dispatch.
//!
//! Printed at the end, measured alternately in one run (rounds of every case, so drift affects
//! all alike): median and minimum ns per call (ENTER + EXIT) of each case, and the added ns over
//! the raw no-op.
//!
//! `cargo bench -p cupti --bench dispatch` (add `-- --quick` for a short run).

use std::ffi::c_void;
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use criterion::Criterion;
use cupti::callback::detached::{Detached, RawCallback};
use cupti::sys::{CUpti_ApiCallbackSite, CUpti_CallbackData, CUpti_CallbackDomain, CUpti_CallbackId};
use cupti::{CallbackDomain, CallbackId, DriverCbid};

/// A C tool's no-op callback, compiled by rustc.
unsafe extern "C" fn raw_noop(
    _: *mut c_void,
    _: CUpti_CallbackDomain,
    _: CUpti_CallbackId,
    _: *const c_void,
) {
}

/// One traced API call: the callback and userdata CUPTI was given, and the call's data.
struct Call {
    callback: RawCallback,
    userdata: *mut c_void,
    cbid: u32,
    data: CUpti_CallbackData,
    shared: Box<u64>,
}

impl Call {
    fn new(callback: RawCallback, userdata: *mut c_void, cbid: u32) -> Call {
        let mut shared = Box::new(0u64);
        let data = CUpti_CallbackData {
            callbackSite: CUpti_ApiCallbackSite::CUPTI_API_ENTER,
            functionName: c"cuCtxGetCurrent".as_ptr(),
            functionParams: std::ptr::null(),
            functionReturnValue: std::ptr::null_mut(),
            symbolName: std::ptr::null(),
            context: std::ptr::null_mut(),
            contextUid: 1,
            correlationData: &mut *shared,
            correlationId: 1,
        };
        Call { callback, userdata, cbid, data, shared }
    }

    fn through(d: Detached, cbid: u32) -> Call {
        Call::new(d.callback(), d.userdata(), cbid)
    }

    /// ENTER then EXIT, as CUPTI delivers them.
    #[inline(always)]
    fn run(&mut self) {
        let callback = black_box(self.callback);
        let domain = CallbackDomain::DRIVER_API.into();
        // CUPTI zeroes the call's slot before ENTER (the releases probed do; the first
        // subscriber's fast path checks it and then relies on it).
        *self.shared = 0;
        for site in [CUpti_ApiCallbackSite::CUPTI_API_ENTER, CUpti_ApiCallbackSite::CUPTI_API_EXIT] {
            self.data.callbackSite = site;
            let p = std::ptr::from_ref(&self.data).cast::<c_void>();
            // SAFETY: the callback and userdata a switchboard (or nobody) subscribed with, and API callback
            // data valid for the call.
            unsafe { callback(black_box(self.userdata), domain, black_box(self.cbid), black_box(p)) };
        }
        self.data.correlationId = self.data.correlationId.wrapping_add(1);
        black_box(&*self.shared);
    }
}

fn cases() -> Vec<(&'static str, Call)> {
    let cbid = DriverCbid::cuCtxGetCurrent.0;
    let id = CallbackId::new(CallbackDomain::DRIVER_API, cbid);
    let one = Detached::builder().route(&[], &[id], |_| {}).build();
    let slot = Detached::builder()
        .route(&[], &[id], |cb| {
            if let Some(api) = cb.api() {
                if api.is_enter() {
                    api.correlation_slot().set(u64::from(api.correlation_id()) | 1 << 40);
                } else {
                    black_box(api.correlation_slot().get());
                }
            }
        })
        .build();
    let counted = Arc::new(AtomicU64::new(0));
    let three = (0..3)
        .fold(Detached::builder(), |b, _| {
            let counted = counted.clone();
            b.route(&[], &[id], move |_| {
                counted.fetch_add(1, Ordering::Relaxed);
            })
        })
        .build();
    let owned = Arc::new(AtomicU64::new(0));
    let owning = Detached::builder()
        .route(&[], &[id], move |_| {
            black_box(&owned);
        })
        .build();
    let not_first = Detached::builder().route(&[], &[], |_| {}).route(&[], &[id], |_| {}).build();
    let domain = Detached::builder().route(&[CallbackDomain::DRIVER_API], &[], |_| {}).build();
    // Two subscribers (so CUPTI's enables are not the first one's own), neither routed the id
    // delivered: the switchboard's lookup finds nobody.
    let other = Detached::builder()
        .route(&[], &[id], |_| {})
        .route(&[], &[CallbackId::new(CallbackDomain::DRIVER_API, cbid + 2)], |_| {})
        .build();
    vec![
        ("raw no-op extern \"C\" fn", Call::new(raw_noop, std::ptr::null_mut(), cbid)),
        ("one no-op closure", Call::through(one, cbid)),
        ("one closure, slot round trip", Call::through(slot, cbid)),
        ("one closure owning an Arc", Call::through(owning, cbid)),
        ("one closure, not the first", Call::through(not_first, cbid)),
        ("three closures", Call::through(three, cbid)),
        ("one closure, whole domain", Call::through(domain, cbid)),
        ("unrouted id, two subscribers", Call::through(other, cbid + 1)),
    ]
}

fn bench(c: &mut Criterion, cases: &mut [(&'static str, Call)]) {
    let mut g = c.benchmark_group("dispatch: ENTER+EXIT of one API call");
    for (label, call) in cases.iter_mut() {
        g.bench_function(*label, |b| b.iter(|| call.run()));
    }
    g.finish();
}

/// ns per call (ENTER + EXIT) over `n` calls.
fn time(call: &mut Call, n: u32) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        call.run();
    }
    t.elapsed().as_nanos() as f64 / f64::from(n)
}

/// Rounds of every case in turn; median and minimum of each, and the added cost over the raw no-op.
fn summary(cases: &mut [(&'static str, Call)]) {
    const ROUNDS: usize = 31;
    const CALLS: u32 = 200_000;
    let mut times = vec![Vec::with_capacity(ROUNDS); cases.len()];
    for _ in 0..ROUNDS {
        for (i, (_, call)) in cases.iter_mut().enumerate() {
            times[i].push(time(call, CALLS));
        }
    }
    let stats: Vec<(f64, f64)> = times
        .iter_mut()
        .map(|t| {
            t.sort_by(f64::total_cmp);
            (t[t.len() / 2], t[0])
        })
        .collect();
    let (raw_med, raw_min) = stats[0];
    println!(
        "\n{ROUNDS} rounds x {CALLS} calls (ENTER + EXIT each), dispatch {} membarrier, ns per call:",
        if cupti::callback::uses_membarrier() { "with" } else { "without" }
    );
    println!("{:<34} {:>8} {:>8} {:>12} {:>12}", "", "median", "min", "added(med)", "added(min)");
    for ((label, _), (med, min)) in cases.iter().zip(&stats) {
        println!("{label:<34} {med:>8.2} {min:>8.2} {:>12.2} {:>12.2}", med - raw_med, min - raw_min);
    }
}

fn main() {
    let mut cases = cases();
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c, &mut cases);
    c.final_summary();
    summary(&mut cases);
}
