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
//! calls per measurement (default 1,000,000), `--reps` rounds (default 15); each round measures
//! every kind once, in turn, so drift (clocks, other load) affects all alike. Median and minimum
//! of each kind are reported; the added cost is each minus the no-subscriber one, and the ratio,
//! ours over C's (goal: at most 1.1), is given on both.
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

use cupti::cupti_sys::{CUpti_CallbackDomain, CUpti_CallbackFunc, CUpti_CallbackId, CUpti_SubscriberHandle};
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
    let mut a = Args { c_callback: None, calls: 1_000_000, reps: 15 };
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
    Mock(common::mock_cuda::MockCuda),
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
                    black_box(m.api_call(1, cbid, std::ptr::null(), params, 0));
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

/// Median and minimum.
fn stats(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0])
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
    let f = cupti.functions();
    let mut handle: CUpti_SubscriberHandle = std::ptr::null_mut();
    let cb: CUpti_CallbackFunc = Some(callback);
    if form == Form::LikeTheCrate && !cupti.is_12x() {
        // CUpti_SubscriberParams: size, name, old-name buffer and its size (the 13.0 struct,
        // 32 bytes), then allowMultipleSubscribers and padding (13.2+, 40 bytes).
        let shared = cupti.version() >= 130_200;
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

/// Subscribes `callback` raw (as a C tool would), enables `cuCtxGetCurrent`, times, unsubscribes.
fn time_raw(cupti: &Cupti, callback: RawCallback, form: Form, call: &Call, n: u64) -> f64 {
    let f = cupti.functions();
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
#[derive(Clone, Copy)]
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
            Call::Mock(common::mock_cuda::MockCuda::open(accel_profiling::MOCK_CUPTI))
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

    // Warm up every path once (first-use costs: symbol resolution, CUPTI's own setup).
    let warm = args.calls / 10 + 1;
    time(&call, warm);
    if let Some(c) = c_callback {
        time_raw(cupti, c, Form::LikeTheCrate, &call, warm);
        time_raw(cupti, c, Form::Plain, &call, warm);
    }
    time_raw(cupti, rust_noop, Form::LikeTheCrate, &call, warm);
    for how in [Ours::First, Ours::FirstOwning, Ours::Second] {
        time_ours(cupti, &call, warm, how);
    }

    let (mut none, mut c, mut c_plain, mut raw) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut ours, mut owning, mut second) = (Vec::new(), Vec::new(), Vec::new());
    // Every kind once per round; the order rotates from round to round, so that no kind always
    // follows the same one.
    const KINDS: usize = 7;
    for round in 0..args.reps.max(1) {
        for k in 0..KINDS {
            match (round + k) % KINDS {
                0 => none.push(time(&call, args.calls)),
                1 => {
                    if let Some(cb) = c_callback {
                        c.push(time_raw(cupti, cb, Form::LikeTheCrate, &call, args.calls));
                    }
                }
                2 => raw.push(time_raw(cupti, rust_noop, Form::LikeTheCrate, &call, args.calls)),
                3 => ours.push(time_ours(cupti, &call, args.calls, Ours::First)),
                4 => owning.push(time_ours(cupti, &call, args.calls, Ours::FirstOwning)),
                5 => second.push(time_ours(cupti, &call, args.calls, Ours::Second)),
                _ => {
                    if let Some(cb) = c_callback {
                        c_plain.push(time_raw(cupti, cb, Form::Plain, &call, args.calls));
                    }
                }
            }
        }
    }

    let base = stats(&mut none);
    let ours_samples: Vec<String> = {
        let mut v = ours.clone();
        v.sort_by(f64::total_cmp);
        v.iter().map(|x| format!("{:.0}", x - base.0)).collect()
    };
    let ours = stats(&mut ours);
    let owning = stats(&mut owning);
    let second = stats(&mut second);
    let raw = stats(&mut raw);
    let kind = {
        let probe = cupti.subscribe(|_| {}).expect("subscribe");
        let kind = cupti.subscription();
        drop(probe);
        // SAFETY: this benchmark makes CUDA calls from this thread only.
        unsafe { cupti.release_subscription() }.expect("release the subscription");
        kind
    };
    let raw_form = {
        let (handle, form) = raw_subscribe(cupti, rust_noop, Form::LikeTheCrate);
        // SAFETY: the handle just made.
        unsafe { cupti.functions().cuptiUnsubscribe(handle) }.expect("cuptiUnsubscribe");
        form
    };
    println!(
        "\n{} rounds x {} calls of cuCtxGetCurrent{}, CUPTI {} (ours: {kind:?} subscription; raw: {raw_form}), \
         dispatch {} membarrier",
        args.reps,
        args.calls,
        if setup.on_gpu() { "" } else { " (played by the mock)" },
        cupti.version(),
        if cupti::callback::uses_membarrier() { "with" } else { "without" },
    );
    println!(
        "{:<58} {:>10} {:>10} {:>12} {:>12}",
        "ns per call", "median", "min", "added(med)", "added(min)"
    );
    let row = |label: &str, (med, min): (f64, f64)| {
        println!("{label:<58} {med:>10.1} {min:>10.1} {:>12.1} {:>12.1}", med - base.0, min - base.1);
    };
    println!("{:<58} {:>10.1} {:>10.1} {:>12} {:>12}", "no subscriber", base.0, base.1, "-", "-");
    let c = (!c.is_empty()).then(|| stats(&mut c));
    match c {
        Some(c) => row(&format!("no-op C callback ({raw_form})"), c),
        None => println!("no-op C callback: not measured (pass --c-callback libnoop_callback.so)"),
    }
    if !c_plain.is_empty() && raw_form != "cuptiSubscribe" {
        row("  the same, cuptiSubscribe", stats(&mut c_plain));
    }
    row("no-op Rust closure (cupti::Subscriber)", ours);
    row("  the same, owning an Arc", owning);
    row("  the same, as a second subscriber", second);
    row(&format!("(reference: no-op extern \"C\" Rust fn, {raw_form})"), raw);
    println!("ours, added ns per round, sorted: {}", ours_samples.join(" "));
    if let Some(c) = c {
        println!("\nratios against the C callback subscribed as the crate subscribes ({raw_form}):");
        for (label, kind) in [("ours", ours), ("owning an Arc", owning), ("second subscriber", second)] {
            for (what, added, c_added) in
                [("medians", kind.0 - base.0, c.0 - base.0), ("minimums", kind.1 - base.1, c.1 - base.1)]
            {
                if c_added > 0.0 {
                    let ratio = added / c_added;
                    println!(
                        "ratio ({label} added / C added), {what}: {ratio:.3}  (goal <= 1.1: {})",
                        if ratio <= 1.1 { "met" } else { "NOT met" }
                    );
                } else {
                    println!("ratio, {what}: the C callback added no measurable cost");
                }
            }
        }
    }
}
