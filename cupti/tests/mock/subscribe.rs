//! Subscribing: one subscriber before 13.2, `cuptiSubscribe_v2` by release, another tool holding
//! CUPTI, no driver.

use std::ffi::{c_char, c_void, CStr};
use std::ptr::null_mut;

use cupti_sys::{CUpti_SubscriberHandle, CUpti_SubscriberParams};

use super::harness::{mock, ok, Mock};
use super::recorder::{self, record};

const MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: u32 = 39;

pub fn subscribe(m: &Mock, tag: usize) -> Result<CUpti_SubscriberHandle, u32> {
    let mut h: CUpti_SubscriberHandle = null_mut();
    // SAFETY: `h` is a valid out-pointer; `record` has the callback signature and lives forever.
    let r = ok(unsafe { m.f().cuptiSubscribe(&mut h, Some(record), tag as *mut c_void) });
    if r == 0 {
        Ok(h)
    } else {
        Err(r)
    }
}

pub fn unsubscribe(m: &Mock, h: CUpti_SubscriberHandle) -> u32 {
    // SAFETY: plain handle argument.
    ok(unsafe { m.f().cuptiUnsubscribe(h) })
}

/// The 13.2 `CUpti_SubscriberParams` (40 bytes: the 13.0 struct plus
/// `allowMultipleSubscribers` and padding), as a client built against 13.2 headers passes it.
#[repr(C)]
struct Params132 {
    base: CUpti_SubscriberParams,
    allow_multiple: u8,
    padding: [u8; 7],
}

/// `cuptiSubscribe_v2` with a name and (13.2 struct) `allowMultipleSubscribers`; returns the
/// result, the handle and what was written to `oldSubscriberName`.
fn subscribe_v2(
    m: &Mock,
    tag: usize,
    name: &CStr,
    allow_multiple: bool,
) -> (u32, CUpti_SubscriberHandle, String) {
    let mut old = [0 as c_char; 64];
    // The 13.2 struct when asking to share, else the 13.0 one (as `cupti` does).
    let size = if allow_multiple {
        std::mem::size_of::<Params132>()
    } else {
        std::mem::size_of::<CUpti_SubscriberParams>()
    };
    let mut p = Params132 {
        base: CUpti_SubscriberParams {
            structSize: size,
            subscriberName: name.as_ptr(),
            oldSubscriberName: old.as_mut_ptr(),
            oldSubscriberSize: old.len(),
        },
        allow_multiple: u8::from(allow_multiple),
        padding: [0; 7],
    };
    let mut h: CUpti_SubscriberHandle = null_mut();
    // SAFETY: all pointers valid for the call; `p` starts with a `CUpti_SubscriberParams` whose
    // `structSize` covers the whole struct.
    let r = ok(unsafe { m.f().cuptiSubscribe_v2(&mut h, Some(record), tag as *mut c_void, &mut p.base) });
    // SAFETY: the mock NUL-terminates what it writes; the buffer started zeroed.
    let old_name = unsafe { CStr::from_ptr(old.as_ptr()) }.to_string_lossy().into_owned();
    (r, h, old_name)
}

#[test]
fn a_second_subscriber_is_refused_until_the_first_unsubscribes() {
    let (_g, m) = mock();
    let first = subscribe(m, 1).expect("first subscriber");
    assert!(!first.is_null());
    assert_eq!(subscribe(m, 2), Err(MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED));
    assert_eq!(m.stat(c"subscribers"), 1);
    assert_eq!(unsubscribe(m, first), 0);
    // A stale handle is recognised.
    assert_eq!(unsubscribe(m, first), 1);
    assert_eq!(unsubscribe(m, null_mut()), 1);
    let again = subscribe(m, 3).expect("the slot is free again");
    assert_ne!(again, first, "handles are not reused");
    // SAFETY: a NULL out-pointer is an invalid parameter, not a crash.
    assert_eq!(ok(unsafe { m.f().cuptiSubscribe(null_mut(), Some(record), null_mut()) }), 1);
}

#[test]
fn subscribe_v2_on_13_0_refuses_the_13_2_struct_and_names_the_holder() {
    let (_g, m) = mock();
    let (r, _, _) = subscribe_v2(m, 1, c"profiler-a", true);
    assert_eq!(r, 1, "13.0.85 answers INVALID_PARAMETER to a 40-byte struct (probed on an H200)");
    let (r, first, _) = subscribe_v2(m, 1, c"profiler-a", false);
    assert_eq!(r, 0);
    let (r, _, old) = subscribe_v2(m, 2, c"profiler-b", false);
    assert_eq!(r, MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
    assert_eq!(old, "profiler-a");
    assert_eq!(subscribe(m, 3), Err(MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED));
    assert_eq!(unsubscribe(m, first), 0);
}

#[test]
fn only_13_2_keeps_shared_and_plain_subscriptions_apart_for_the_process() {
    for (version, shares) in [(130202, false), (130500, true)] {
        let (_g, m) = mock();
        m.set_version(version);
        let h = subscribe(m, 1).expect("cuptiSubscribe");
        assert_eq!(unsubscribe(m, h), 0);
        let (r, h, old) = subscribe_v2(m, 2, c"a", true);
        assert_eq!((r == 0, old.as_str()), (shares, ""), "version {version}");
        if r == 0 {
            assert_eq!(unsubscribe(m, h), 0);
        }
        let (r, h, _) = subscribe_v2(m, 3, c"a", false);
        assert_eq!(r, 0, "{version}: the process's only subscription is still free");
        assert_eq!(unsubscribe(m, h), 0);
    }
    // And the other way round: after a shared subscription, 13.2 refuses `cuptiSubscribe`.
    for (version, plain_ok) in [(130202, false), (130500, true)] {
        let (_g, m) = mock();
        m.set_version(version);
        let (r, h, _) = subscribe_v2(m, 1, c"a", true);
        assert_eq!(r, 0);
        assert_eq!(unsubscribe(m, h), 0);
        let plain = subscribe(m, 2);
        assert_eq!(plain.is_ok(), plain_ok, "version {version}: {plain:?}");
        if let Ok(h) = plain {
            assert_eq!(unsubscribe(m, h), 0);
        }
        let (r, h, _) = subscribe_v2(m, 3, c"a", false);
        assert_eq!(r, 0, "{version}: an exclusive cuptiSubscribe_v2 still succeeds");
        assert_eq!(unsubscribe(m, h), 0);
    }
}

#[test]
fn subscribe_v2_on_13_2_lets_subscribers_share_when_all_ask() {
    let (_g, m) = mock();
    m.set_version(130202);
    let (r, a, _) = subscribe_v2(m, 1, c"a", true);
    assert_eq!(r, 0);
    let (r, b, old) = subscribe_v2(m, 2, c"b", true);
    assert_eq!(r, 0, "13.2 allows several subscribers when each asks");
    assert_eq!(old, "a", "the first subscriber's name is reported");
    // Exclusive requests still conflict.
    assert_eq!(subscribe(m, 3), Err(MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED));
    assert_eq!(subscribe_v2(m, 4, c"c", false).0, MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);

    // Each subscriber has its own enables and its own correlation slot.
    // SAFETY: plain arguments; handles from successful subscribes.
    unsafe {
        assert_eq!(ok(m.f().cuptiEnableDomain(1, a, cupti_sys::CUpti_CallbackDomain(2))), 0);
        assert_eq!(ok(m.f().cuptiEnableDomain(1, b, cupti_sys::CUpti_CallbackDomain(2))), 0);
    }
    let corr = m.device_synchronize();
    let events = recorder::api_events();
    let slots: std::collections::HashSet<usize> = events.iter().map(|(_, a)| a.slot).collect();
    assert_eq!(slots.len(), 2, "a slot per subscriber");
    for tag in [1, 2] {
        let mine: Vec<_> = events.iter().filter(|(e, a)| e.tag == tag && a.correlation_id == corr).collect();
        assert_eq!(mine.len(), 2, "subscriber {tag} sees ENTER and EXIT");
        assert_eq!(mine[0].1.slot, mine[1].1.slot, "one slot from ENTER to EXIT");
        assert_eq!(mine[1].1.slot_value, recorder::slot_mark(tag, corr), "subscriber {tag}'s own slot");
    }
    assert_eq!(unsubscribe(m, a), 0);
    assert_eq!(unsubscribe(m, b), 0);
}

#[test]
fn an_exclusive_holder_blocks_a_13_2_sharing_request() {
    let (_g, m) = mock();
    m.set_version(130202);
    let legacy = subscribe(m, 1).expect("legacy subscriber");
    let (r, _, _) = subscribe_v2(m, 2, c"late", true);
    assert_eq!(r, MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
    assert_eq!(unsubscribe(m, legacy), 0);
}

#[test]
fn subscribe_v2_is_absent_from_12_9() {
    let (_g, m) = mock();
    m.set_version(28);
    let (r, _, _) = subscribe_v2(m, 1, c"x", true);
    assert_eq!(r, 11, "the mock answers API_NOT_IMPLEMENTED where 12.9 has no symbol");
    assert_eq!(m.stat(c"absent_symbol_calls"), 1, "and counts the call so tests can assert none");
    assert!(subscribe(m, 1).is_ok(), "cuptiSubscribe works on 12.9");
}

#[test]
fn a_foreign_tool_holding_cupti_blocks_every_subscribe() {
    let (_g, m) = mock();
    m.set_foreign_subscriber(Some(c"Nsight Systems"));
    assert_eq!(subscribe(m, 1), Err(MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED));
    let (r, _, old) = subscribe_v2(m, 1, c"mine", false);
    assert_eq!((r, old.as_str()), (MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, "Nsight Systems"));
    m.set_foreign_subscriber(None);
    assert!(subscribe(m, 1).is_ok());
}

#[test]
fn without_a_driver_subscribing_fails_as_the_real_library_does() {
    let (_g, m) = mock();
    m.set_driver_present(0);
    assert_eq!(subscribe(m, 1), Err(999), "13.0: CUPTI_ERROR_UNKNOWN");
    m.set_version(28);
    assert_eq!(subscribe(m, 1), Err(15), "12.9: CUPTI_ERROR_NOT_INITIALIZED");
    // SAFETY: plain value arguments.
    unsafe {
        assert_eq!(ok(m.f().cuptiActivityEnable(cupti_sys::CUpti_ActivityKind(10))), 15);
        assert_eq!(ok(m.f().cuptiActivityFlushAll(0)), 15);
    }
}
