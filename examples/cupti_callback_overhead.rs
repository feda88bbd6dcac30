//! The cost a callback subscriber adds to every CUDA API call it sees, in one run:
//!
//! 1. no subscriber;
//! 2. a no-op callback written in C (`benches/c/noop_callback.c`, built into a shared library
//!    whose path is passed with `--c-callback`), subscribed through `cupti-sys`;
//! 3. a no-op Rust closure through `cupti::Subscriber`: the library's first subscriber, whose
//!    closure CUPTI's subscription is made for (its fast path), capturing nothing;
//!
//! and two variants of 3: a closure owning an `Arc` (the fast path inside a read section, so that
//! dropping the subscriber frees it), and the closure as a second subscriber (the switchboard's
//! general dispatch and its per-subscriber slots);
//!
//! plus, for reference, a no-op `extern "C"` Rust function subscribed raw. The call is
//! `cuCtxGetCurrent` on an idle context (the cheapest driver call CUPTI traces): `--calls`
//! calls per measurement (default 200,000), `--reps` rounds (default 101); each round measures
//! every kind once, in turn (the order rotating), so that each kind's time can be paired with the
//! no-subscriber time of its own round: the *added* cost of a kind is the median over rounds of
//! that difference, which drift (clocks, other load) cancels out of. The ratio is ours over C's
//! (goal: at most 1.1), C's callback being subscribed as the crate subscribes (the same CUPTI
//! path); plain `cuptiSubscribe` is measured too where it can be.
//!
//! ```text
//! gcc -O2 -shared -fPIC -o libnoop_callback.so benches/c/noop_callback.c
//! cargo build --release --example cupti_callback_overhead
//! target/release/examples/cupti_callback_overhead --c-callback ./libnoop_callback.so
//! ```
//!
//! Without a GPU it measures the same on the mock `libcupti` (whose played calls cost far more
//! than a real one): a check that the harness works, not CUPTI's figures.

#[path = "cupti_callback_common/mod.rs"]
mod common;

use std::ffi::c_void;
use std::hint::black_box;
use std::time::Instant;

use cupti::sys::{CUpti_CallbackDomain, CUpti_CallbackFunc, CUpti_CallbackId, CUpti_SubscriberHandle};
use cupti::{CallbackDomain, Cupti, DriverCbid};

type RawCallback = unsafe extern "C" fn(*mut c_void, CUpti_CallbackDomain, CUpti_CallbackId, *const c_void);

/// A no-op callback compiled by rustc, for comparison with the C one.
unsafe extern "C" fn rust_noop(
    _: *mut c_void,
    _: CUpti_CallbackDomain,
    _: CUpti_CallbackId,
    _: *const c_void,
) {
}

struct Args {
    c_callback: Option<String>,
    calls: u64,
    reps: usize,
}

fn args() -> Args {
    let mut a = Args { c_callback: None, calls: 200_000, reps: 101 };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| usage(&format!("{arg} needs a value")));
        match arg.as_str() {
            "--c-callback" => a.c_callback = Some(value()),
            "--calls" => a.calls = value().parse().unwrap_or_else(|_| usage("--calls takes a number")),
            "--reps" => a.reps = value().parse().unwrap_or_else(|_| usage("--reps takes a number")),
            other => usage(&format!("unknown argument {other}")),
        }
    }
    a
}

fn usage(problem: &str) -> ! {
    eprintln!(
        "{problem}\nusage: cupti_callback_overhead [--c-callback libnoop_callback.so] [--calls N] [--reps R]"
    );
    std::process::exit(2)
}

/// The traced call: `cuCtxGetCurrent` on the GPU, or a played one on the mock.
enum Call {
    Gpu {
        f: unsafe extern "C" fn(*mut *mut c_void) -> i32,
        /// Keeps `f`'s library mapped.
        _lib: libloading::Library,
    },
    Mock(accelprof_mocks::cupti::MockCupti),
}

impl Call {
    #[inline(always)]
    fn run(&self, n: u64) {
        match self {
            Call::Gpu { f, .. } => {
                let mut ctx = std::ptr::null_mut();
                for _ in 0..n {
                    // SAFETY: cuCtxGetCurrent writes one pointer to a valid out-pointer.
                    black_box(unsafe { f(black_box(&mut ctx)) });
                }
            }
            Call::Mock(m) => {
                let cbid = DriverCbid::cuCtxGetCurrent.0;
                let mut ctx = std::ptr::null_mut::<c_void>();
                let params = std::ptr::from_mut(&mut ctx).cast::<c_void>();
                for _ in 0..n {
                    // SAFETY: cuCtxGetCurrent's parameters (`pctx`), alive across the call.
                    black_box(unsafe { m.api_call_with_params(1, cbid, None, params, 0) });
                }
            }
        }
    }
}

/// ns per call over `n` calls.
fn time(call: &Call, n: u64) -> f64 {
    let t = Instant::now();
    call.run(n);
    t.elapsed().as_nanos() as f64 / n as f64
}

/// How a raw subscription is made.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    /// As `cupti::Subscriber` subscribes, so that CUPTI's side of a callback is the same: from
    /// 13.2 on `cuptiSubscribe_v2` allowing other subscribers, on 13.0 and 13.1 without,
    /// before (or when refused) `cuptiSubscribe`.
    LikeTheCrate,
    /// `cuptiSubscribe`, as most C tools do.
    Plain,
}

/// Subscribes `callback` raw in `form`. Returns the handle and the call that made it.
fn raw_subscribe(cupti: &Cupti, callback: RawCallback, form: Form) -> (CUpti_SubscriberHandle, &'static str) {
    let f = cupti.sys();
    let mut handle: CUpti_SubscriberHandle = std::ptr::null_mut();
    let cb: CUpti_CallbackFunc = Some(callback);
    if form == Form::LikeTheCrate && !cupti.is_12x() {
        // CUpti_SubscriberParams: size, name, old-name buffer and its size (the 13.0 struct,
        // 32 bytes), then allowMultipleSubscribers and padding (13.2+, 40 bytes).
        let shared = cupti.api_version() >= 130_200;
        let size: usize = if shared { 40 } else { 32 };
        let mut params = [0u8; 40];
        params[..8].copy_from_slice(&size.to_ne_bytes());
        params[32] = u8::from(shared);
        // SAFETY: valid out-pointer and a params struct of the size it claims; the callback
        // lives for the process.
        let r =
            unsafe { f.cuptiSubscribe_v2(&mut handle, cb, std::ptr::null_mut(), params.as_mut_ptr().cast()) };
        if r.map(|r| r.0) == Ok(0) {
            return (handle, if shared { "cuptiSubscribe_v2, shared" } else { "cuptiSubscribe_v2" });
        }
    }
    // SAFETY: valid out-pointer; the callback ignores its arguments and lives for the process.
    let r = unsafe { f.cuptiSubscribe(&mut handle, cb, std::ptr::null_mut()) }.expect("cuptiSubscribe");
    assert_eq!(r.0, 0, "cuptiSubscribe failed with {}", r.0);
    (handle, "cuptiSubscribe")
}

/// The call [`Form::LikeTheCrate`] subscribes with (subscribes and gives it back).
fn raw_form(cupti: &Cupti) -> &'static str {
    let (handle, form) = raw_subscribe(cupti, rust_noop, Form::LikeTheCrate);
    // SAFETY: the handle just made.
    unsafe { cupti.sys().cuptiUnsubscribe(handle) }.expect("cuptiUnsubscribe");
    form
}

/// Subscribes `callback` raw (as a C tool would), enables `cuCtxGetCurrent`, times, unsubscribes.
fn time_raw(cupti: &Cupti, callback: RawCallback, form: Form, call: &Call, n: u64) -> f64 {
    let f = cupti.sys();
    let (handle, _) = raw_subscribe(cupti, callback, form);
    // SAFETY: the live handle; plain values.
    let r = unsafe {
        f.cuptiEnableCallback(1, handle, CallbackDomain::DRIVER_API.into(), DriverCbid::cuCtxGetCurrent.0)
    };
    assert_eq!(r.map(|r| r.0), Ok(0));
    let ns = time(call, n);
    // SAFETY: the handle made above.
    let r = unsafe { f.cuptiUnsubscribe(handle) };
    assert_eq!(r.map(|r| r.0), Ok(0));
    ns
}

/// How the no-op closure reaches `cupti::Subscriber`.
#[derive(Clone, Copy, PartialEq)]
enum Ours {
    /// The library's first subscriber, capturing nothing: its fast path, no read section.
    First,
    /// The first subscriber, owning an `Arc`: its fast path inside a read section.
    FirstOwning,
    /// A second subscriber (the first has nothing enabled): the switchboard's general dispatch.
    Second,
}

/// The same through `cupti::Subscriber` with a no-op closure.
fn time_ours(cupti: &Cupti, call: &Call, n: u64, how: Ours) -> f64 {
    let owned = std::sync::Arc::new(0u64);
    let (first, subscriber) = match how {
        Ours::First => (None, cupti.subscribe(|_| {}).expect("subscribe")),
        Ours::FirstOwning => (
            None,
            cupti
                .subscribe(move |_| {
                    black_box(&owned);
                })
                .expect("subscribe"),
        ),
        Ours::Second => {
            (Some(cupti.subscribe(|_| {}).expect("subscribe")), cupti.subscribe(|_| {}).expect("subscribe"))
        }
    };
    subscriber.enable(DriverCbid::cuCtxGetCurrent).expect("enable cuCtxGetCurrent");
    let ns = time(call, n);
    drop((subscriber, first));
    // The subscription outlives its last subscriber; give it back for the raw modes.
    // SAFETY: this benchmark makes CUDA calls from this thread only.
    unsafe { cupti.release_subscription() }.expect("release the subscription");
    ns
}

fn main() {
    let mut args = args();
    let setup = common::setup();
    let cupti = setup.cupti;
    let call = match &setup.backend {
        common::Backend::Gpu(ctx) => {
            ctx.bind_to_thread().expect("make the context current");
            // SAFETY: libcuda is already loaded (cudarc); dlopen only takes another reference.
            let lib = unsafe { libloading::Library::new("libcuda.so.1") }.expect("libcuda.so.1");
            // SAFETY: `CUresult cuCtxGetCurrent(CUcontext*)`.
            let f =
                *unsafe { lib.get::<unsafe extern "C" fn(*mut *mut c_void) -> i32>(b"cuCtxGetCurrent\0") }
                    .expect("cuCtxGetCurrent");
            Call::Gpu { f, _lib: lib }
        }
        common::Backend::Mock(_) => {
            args.calls = args.calls.min(100_000);
            Call::Mock(
                accelprof_mocks::cupti::MockCupti::open(accelprof_mocks::cupti::LIBRARY)
                    .expect("the mock libcupti's controls"),
            )
        }
    };
    let c_library = args.c_callback.as_ref().map(|path| {
        // SAFETY: a shared library built from benches/c/noop_callback.c (no initialisers).
        unsafe { libloading::Library::new(path) }.unwrap_or_else(|e| usage(&format!("{path}: {e}")))
    });
    let c_callback: Option<RawCallback> = c_library.as_ref().map(|lib| {
        // SAFETY: noop_callback has CUpti_CallbackFunc's signature (benches/c/noop_callback.c).
        *unsafe { lib.get::<RawCallback>(b"noop_callback\0") }
            .unwrap_or_else(|e| usage(&format!("noop_callback: {e}")))
    });

    // The kinds measured, in the order of a round (rotated from round to round).
    let mut kinds: Vec<Kind> = vec![Kind::Nothing];
    if c_callback.is_some() {
        kinds.push(Kind::C(Form::LikeTheCrate));
        // 13.2 refuses `cuptiSubscribe` once a shared subscription has existed: only where it
        // can be mixed with the others.
        if raw_form(cupti) != "cuptiSubscribe_v2, shared" {
            kinds.push(Kind::C(Form::Plain));
        }
    }
    kinds.extend([
        Kind::RustRaw,
        Kind::Ours(Ours::First),
        Kind::Ours(Ours::FirstOwning),
        Kind::Ours(Ours::Second),
    ]);
    let measure = |kind: Kind, n: u64| -> f64 {
        match kind {
            Kind::Nothing => time(&call, n),
            Kind::C(form) => time_raw(cupti, c_callback.expect("a C callback"), form, &call, n),
            Kind::RustRaw => time_raw(cupti, rust_noop, Form::LikeTheCrate, &call, n),
            Kind::Ours(how) => time_ours(cupti, &call, n, how),
        }
    };
    // Warm up every path once (first-use costs: symbol resolution, CUPTI's own setup).
    for &k in &kinds {
        measure(k, args.calls / 10 + 1);
    }
    // times[k][round]: ns per call.
    let mut times = vec![Vec::with_capacity(args.reps); kinds.len()];
    for round in 0..args.reps.max(1) {
        for i in 0..kinds.len() {
            let k = (round + i) % kinds.len();
            times[k].push(measure(kinds[k], args.calls));
        }
    }

    let kind = {
        let probe = cupti.subscribe(|_| {}).expect("subscribe");
        let kind = cupti.subscription();
        drop(probe);
        // SAFETY: this benchmark makes CUDA calls from this thread only.
        unsafe { cupti.release_subscription() }.expect("release the subscription");
        kind
    };
    let raw_form = raw_form(cupti);
    println!(
        "\n{} rounds x {} calls of cuCtxGetCurrent{}, CUPTI {} (ours: {kind:?} subscription; raw: {raw_form}), \
         dispatch {} membarrier",
        args.reps,
        args.calls,
        if setup.on_gpu() { "" } else { " (played by the mock)" },
        cupti.api_version(),
        if cupti::callback::uses_membarrier() { "with" } else { "without" },
    );
    println!(
        "the library zeroes correlationData at ENTER (checked by the first subscriber's fast path): {:?}",
        cupti.zeroes_correlation_slots()
    );
    println!(
        "added = a round's time minus the same round's no-subscriber time; median and quartiles over rounds"
    );
    println!(
        "{:<58} {:>9} {:>9} {:>11} {:>9} {:>9}",
        "ns per call", "median", "min", "added(med)", "q1", "q3"
    );
    // Per kind: sorted times, and sorted added (paired with the round's no-subscriber time).
    let none = &times[0];
    let added: Vec<Vec<f64>> = times
        .iter()
        .map(|t| {
            let mut a: Vec<f64> = t.iter().zip(none).map(|(x, base)| x - base).collect();
            a.sort_by(f64::total_cmp);
            a
        })
        .collect();
    let quantile = |v: &[f64], q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    for (i, k) in kinds.iter().enumerate() {
        let mut t = times[i].clone();
        t.sort_by(f64::total_cmp);
        let a = &added[i];
        let label = k.label(raw_form);
        if i == 0 {
            println!(
                "{label:<58} {:>9.1} {:>9.1} {:>11} {:>9} {:>9}",
                quantile(&t, 0.5),
                t[0],
                "-",
                "-",
                "-"
            );
        } else {
            println!(
                "{label:<58} {:>9.1} {:>9.1} {:>11.1} {:>9.1} {:>9.1}",
                quantile(&t, 0.5),
                t[0],
                quantile(a, 0.5),
                quantile(a, 0.25),
                quantile(a, 0.75)
            );
        }
    }
    let Some(c) = kinds.iter().position(|k| *k == Kind::C(Form::LikeTheCrate)) else {
        println!("no-op C callback: not measured (pass --c-callback libnoop_callback.so)");
        return;
    };
    let c_added = quantile(&added[c], 0.5);
    println!("\nratios of median added costs, against the C callback subscribed as the crate subscribes ({raw_form}):");
    for (i, k) in kinds.iter().enumerate().filter(|(_, k)| matches!(k, Kind::Ours(_))) {
        if c_added > 0.0 {
            let ratio = quantile(&added[i], 0.5) / c_added;
            println!(
                "  {:<48} {ratio:.3}  (goal <= 1.1: {})",
                k.label(raw_form),
                if ratio <= 1.1 { "met" } else { "NOT met" }
            );
        } else {
            println!("  the C callback added no measurable cost");
        }
    }
}

/// What one measurement subscribes.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Nothing,
    C(Form),
    RustRaw,
    Ours(Ours),
}

impl Kind {
    fn label(self, raw_form: &str) -> String {
        match self {
            Kind::Nothing => "no subscriber".to_owned(),
            Kind::C(Form::LikeTheCrate) => format!("no-op C callback ({raw_form})"),
            Kind::C(Form::Plain) => "  the same, cuptiSubscribe".to_owned(),
            Kind::RustRaw => format!("(reference: no-op extern \"C\" Rust fn, {raw_form})"),
            Kind::Ours(Ours::First) => "no-op Rust closure (cupti::Subscriber)".to_owned(),
            Kind::Ours(Ours::FirstOwning) => "  the same, owning an Arc".to_owned(),
            Kind::Ours(Ours::Second) => "  the same, as a second subscriber".to_owned(),
        }
    }
}
