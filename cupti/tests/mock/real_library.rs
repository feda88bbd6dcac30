//! The mock against the real `libcupti` 12.9 and 13.0 on everything a machine without a GPU
//! driver can observe: versions, every result string, every callback name, the record sizes
//! `cuptiActivityGetNextRecord` walks by, and the errors of calls that need the driver.
//!
//! Runs when `CUPTI_REAL_LIB_13` / `CUPTI_REAL_LIB_12` name the real libraries (as for
//! `tests/real.rs`); otherwise says so and passes, unless `CUPTI_REAL_REQUIRED` is set.

use std::ffi::{c_char, CStr};
use std::path::PathBuf;
use std::ptr::{null, null_mut};

use cupti_sys::{
    CUptiResult, CUpti_Activity, CUpti_ActivityKind, CUpti_CallbackDomain, CUpti_ExternalCorrelationKind,
    CUpti_SubscriberHandle, Library,
};

use super::harness::mock;

fn real_library(var: &str) -> Option<Library> {
    match std::env::var_os(var) {
        Some(v) if !v.is_empty() => {
            let path = PathBuf::from(v);
            Some(Library::open(Some(&path)).unwrap_or_else(|e| panic!("{var}: {e}")))
        }
        _ => {
            assert!(
                std::env::var_os("CUPTI_REAL_REQUIRED").is_none(),
                "{var} is not set but CUPTI_REAL_REQUIRED is"
            );
            println!("skipped: {var} is not set");
            None
        }
    }
}

fn text(p: *const c_char) -> String {
    if p.is_null() {
        return "NULL".into();
    }
    // SAFETY: the libraries return NULL or static C strings.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// Everything observable without a driver, one line per observation.
fn transcript(lib: &Library) -> Vec<String> {
    let f = lib.functions();
    let mut out = Vec::new();
    let call = |r: Result<CUptiResult, cupti_sys::MissingSymbol>| r.map(|r| r.0).unwrap_or(u32::MAX);
    // SAFETY: every call below gets valid out-pointers (or the NULLs whose rejection is probed)
    // and buffers of the sizes it is told.
    unsafe {
        let mut v = 0;
        out.push(format!("version {} {v}", call(f.cuptiGetVersion(&mut v))));
        for code in (0..=60).chain(995..=1010) {
            let mut s = null();
            let r = call(f.cuptiGetResultString(CUptiResult(code), &mut s));
            let mut e = null();
            let r2 = call(f.cuptiGetErrorMessage(CUptiResult(code), &mut e));
            // The messages are NVIDIA's prose, which the mock does not copy: it answers with the
            // code's name. Only the status and the presence of a message are compared.
            out.push(format!("result {code}: {r} {} / {r2} {}", text(s), !e.is_null()));
        }
        for domain in 0..=7 {
            for cbid in 0..=900 {
                let mut s = null();
                let r = call(f.cuptiGetCallbackName(CUpti_CallbackDomain(domain), cbid, &mut s));
                if r == 0 || cbid < 3 {
                    out.push(format!("name {domain}/{cbid}: {r} {}", text(s)));
                }
            }
        }
        let mut buf = vec![0u64; 1024];
        let p = buf.as_mut_ptr().cast::<u8>();
        for kind in 0..=70u64 {
            buf.iter_mut().enumerate().for_each(|(i, w)| *w = if i == 0 { kind } else { 5 });
            let mut rec: *mut CUpti_Activity = null_mut();
            let r1 = call(f.cuptiActivityGetNextRecord(p, 8192, &mut rec));
            let r2 = if r1 == 0 { call(f.cuptiActivityGetNextRecord(p, 8192, &mut rec)) } else { r1 };
            let step = if r2 == 0 { rec as usize - p as usize } else { 0 };
            out.push(format!("walk kind {kind}: {r1} {r2} step {step}"));
        }
        let mut h: CUpti_SubscriberHandle = null_mut();
        out.push(format!("subscribe {}", call(f.cuptiSubscribe(&mut h, None, null_mut()))));
        out.push(format!("enable {}", call(f.cuptiActivityEnable(CUpti_ActivityKind(10)))));
        out.push(format!("flush {}", call(f.cuptiActivityFlushAll(0))));
        out.push(format!("flush period {}", call(f.cuptiActivityFlushPeriod(10))));
        let ext = CUpti_ExternalCorrelationKind(3);
        out.push(format!("push {}", call(f.cuptiActivityPushExternalCorrelationId(ext, 1))));
        let mut last = 0;
        out.push(format!("pop {}", call(f.cuptiActivityPopExternalCorrelationId(ext, &mut last))));
        let invalid = CUpti_ExternalCorrelationKind(0);
        out.push(format!("push invalid {}", call(f.cuptiActivityPushExternalCorrelationId(invalid, 1))));
        out.push(format!("register NULL {}", call(f.cuptiActivityRegisterCallbacks(None, None))));
        out.push(format!("unsubscribe NULL {}", call(f.cuptiUnsubscribe(null_mut()))));
        let runtime = CUpti_CallbackDomain(2);
        out.push(format!("enable cb NULL {}", call(f.cuptiEnableCallback(1, null_mut(), runtime, 211))));
        let mut n = 9;
        out.push(format!("dropped {} {n}", call(f.cuptiActivityGetNumDroppedRecords(null_mut(), 0, &mut n))));
        out.push(format!("timestamp NULL {}", call(f.cuptiGetTimestamp(null_mut()))));
    }
    out
}

fn compare(var: &str, version: u32) {
    let (_g, m) = mock();
    let Some(real) = real_library(var) else { return };
    m.set_version(version);
    m.set_driver_present(0);
    let (want, got) = (transcript(&real), transcript(super::harness::loaded_library()));
    println!("{var}: {} observations compared", want.len());
    for (w, g) in want.iter().zip(&got) {
        assert_eq!(g, w, "mock vs real {var}");
    }
    assert_eq!(got.len(), want.len());
}

#[test]
fn the_mock_matches_the_real_13_0_without_a_driver() {
    compare("CUPTI_REAL_LIB_13", 130001);
}

#[test]
fn the_mock_matches_the_real_12_9_without_a_driver() {
    compare("CUPTI_REAL_LIB_12", 28);
}
