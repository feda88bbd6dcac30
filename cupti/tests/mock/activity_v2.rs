//! The subscriber-scoped (V2) activity API of CUPTI 13.2 and later, as the mock plays it: several
//! subscribers each with their own kinds, filters and buffers; user-defined records laid out as the
//! completion's `ppRecordLayouts` say; the rules for V1 and V2 in one process.

use std::ffi::c_int;
use std::mem::size_of;
use std::ptr::{null, null_mut};
use std::sync::Mutex;

use cupti_sys::v13_5::{
    CUpti_ActivityApiCbidOptions, CUpti_ActivityApiFieldIds as A, CUpti_ActivityApiOptions,
    CUpti_ActivityConfig, CUpti_ActivityFieldSelection, CUpti_ActivityKernelFieldIds as K,
    CUpti_BufferCallbackCompleteInfo, CUpti_BufferCallbackRequestInfo, CUpti_SubscriberParams,
    CUPTI_ACTIVITY_ATTR_USER_DEFINED_RECORDS,
};
use cupti_sys::{CUpti_ActivityKind, CUpti_SubscriberHandle};

use super::harness::{mock, ok, Mock};
use super::layout::*;

const CUDA_GET_DEVICE: u32 =
    cupti_sys::CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020.0;
const RUNTIME: u32 = 2;

/// One kind's layout: (kind, record size, (field id, offset, size)).
type Layout = (u32, usize, Vec<(u32, usize, usize)>);

/// One buffer a V2 subscriber got back: its tag (which subscriber), bytes, and the layouts it came with.
#[derive(Debug, Clone)]
struct Delivered {
    tag: usize,
    bytes: Vec<u8>,
    layouts: Option<Vec<Layout>>,
}

static DELIVERED: Mutex<Vec<Delivered>> = Mutex::new(Vec::new());

/// Buffers are tagged by the callback pair that received them (two subscribers, two pairs).
macro_rules! callbacks {
    ($req:ident, $done:ident, $tag:expr) => {
        unsafe extern "C" fn $req(
            b: *mut *mut u8,
            size: *mut usize,
            max: *mut usize,
            _i: *mut CUpti_BufferCallbackRequestInfo,
        ) {
            let buf = Box::into_raw(vec![0u64; 1 << 14].into_boxed_slice()).cast::<u8>();
            // SAFETY: CUPTI's out-pointers.
            unsafe {
                *b = buf;
                *size = 8 << 14;
                *max = 0;
            }
        }
        unsafe extern "C" fn $done(
            buffer: *mut u8,
            _size: usize,
            valid: usize,
            info: *mut CUpti_BufferCallbackCompleteInfo,
        ) {
            // SAFETY: `buffer` holds `valid` bytes; `info` and its layouts are valid for this call.
            unsafe { record($tag, buffer, valid, info) };
        }
    };
}
callbacks!(request_a, complete_a, 1);
callbacks!(request_b, complete_b, 2);

/// # Safety
/// As for the completion callback's arguments.
unsafe fn record(tag: usize, buffer: *mut u8, valid: usize, info: *mut CUpti_BufferCallbackCompleteInfo) {
    // SAFETY: the caller's contract.
    unsafe {
        let bytes = std::slice::from_raw_parts(buffer, valid).to_vec();
        let info = &*info;
        assert_eq!(info.structSize, size_of::<CUpti_BufferCallbackCompleteInfo>());
        let layouts = (!info.ppRecordLayouts.is_null()).then(|| {
            (0..info.numRecordLayouts)
                .filter_map(|k| {
                    let l = (*info.ppRecordLayouts.add(k)).as_ref()?;
                    let e = std::slice::from_raw_parts(l.pEntries, l.numFields);
                    Some((
                        k as u32,
                        l.recordSize,
                        e.iter().map(|e| (e.fieldId as u32, e.offset, e.size)).collect(),
                    ))
                })
                .collect()
        });
        DELIVERED.lock().unwrap().push(Delivered { tag, bytes, layouts });
        drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(buffer.cast::<u64>(), 1 << 14)));
    }
}

fn delivered() -> Vec<Delivered> {
    std::mem::take(&mut *DELIVERED.lock().unwrap())
}

impl Mock {
    /// A subscriber through `cuptiSubscribe_v2`, sharing (allowMultipleSubscribers = 1).
    fn shared_subscriber(&self, name: &std::ffi::CStr) -> CUpti_SubscriberHandle {
        let mut params = CUpti_SubscriberParams {
            structSize: size_of::<CUpti_SubscriberParams>(),
            subscriberName: name.as_ptr(),
            oldSubscriberName: null_mut(),
            oldSubscriberSize: 0,
            allowMultipleSubscribers: 1,
            padding: [0; 7],
        };
        let mut h = null_mut();
        // SAFETY: valid out-pointer and 13.x params struct.
        let r = ok(unsafe {
            self.f().cuptiSubscribe_v2(
                &mut h,
                None,
                null_mut(),
                (&mut params as *mut CUpti_SubscriberParams).cast(),
            )
        });
        assert_eq!(r, 0);
        h
    }

    fn user_defined(&self, sub: CUpti_SubscriberHandle) -> u32 {
        let (mut size, mut on) = (1usize, 1u8);
        // SAFETY: `on` is `size` bytes.
        ok(unsafe {
            self.f().cuptiActivitySetAttribute_v2(
                sub,
                CUPTI_ACTIVITY_ATTR_USER_DEFINED_RECORDS,
                &mut size,
                (&mut on as *mut u8).cast(),
            )
        })
    }

    fn register_v2(&self, sub: CUpti_SubscriberHandle, which: usize) -> u32 {
        let (req, done): (unsafe extern "C" fn(_, _, _, _), unsafe extern "C" fn(_, _, _, _)) = match which {
            1 => (request_a, complete_a),
            _ => (request_b, complete_b),
        };
        // SAFETY: the callbacks have CUPTI's signatures and live for the process.
        ok(unsafe { self.f().cuptiActivityRegisterCallbacks_v2(sub, Some(req), Some(done)) })
    }

    /// `cuptiActivityEnable_v2(sub, kind)` with `fields` (None: a NULL config) and per-cbid `options`.
    fn enable_v2(
        &self,
        sub: CUpti_SubscriberHandle,
        kind: u32,
        fields: Option<&[c_int]>,
        options: Option<(&[u32], u8)>,
        struct_size: Option<usize>,
    ) -> u32 {
        let mut ids = fields.map(<[c_int]>::to_vec).unwrap_or_default();
        let (mut cbids, allow) = options.map_or((Vec::new(), 0), |(c, a)| (c.to_vec(), a));
        let mut cbid_options = CUpti_ActivityApiCbidOptions {
            structSize: size_of::<CUpti_ActivityApiCbidOptions>(),
            pCbids: cbids.as_mut_ptr(),
            numCbids: cbids.len(),
            enable: allow,
        };
        let mut api_options = CUpti_ActivityApiOptions {
            structSize: size_of::<CUpti_ActivityApiOptions>(),
            pCbidOptions: &mut cbid_options,
        };
        let mut config = CUpti_ActivityConfig {
            structSize: struct_size.unwrap_or(size_of::<CUpti_ActivityConfig>()),
            fieldSelection: CUpti_ActivityFieldSelection {
                structSize: size_of::<CUpti_ActivityFieldSelection>(),
                numFields: ids.len(),
                pFieldIds: ids.as_mut_ptr(),
            },
            pKindOptions: if options.is_some() {
                (&mut api_options as *mut CUpti_ActivityApiOptions).cast()
            } else {
                null_mut()
            },
        };
        let p = if fields.is_some() || options.is_some() { &mut config as *mut _ } else { null_mut() };
        // SAFETY: `config` and what it points to live for the call.
        ok(unsafe { self.f().cuptiActivityEnable_v2(sub, CUpti_ActivityKind(kind), p) })
    }

    fn disable_v2(&self, sub: CUpti_SubscriberHandle, kind: u32) -> u32 {
        // SAFETY: plain values.
        ok(unsafe { self.f().cuptiActivityDisable_v2(sub, CUpti_ActivityKind(kind), null_mut()) })
    }
}

/// The field of `id` in a user-defined record, by the layout of its kind.
fn field(rec: &[u8], layout: &Layout, id: u32) -> Option<u64> {
    let &(_, off, size) = layout.2.iter().find(|f| f.0 == id)?;
    let mut b = [0u8; 8];
    b[..size].copy_from_slice(&rec[off..off + size]);
    Some(u64::from_le_bytes(b))
}

/// Splits a user-defined buffer into records by its layouts.
fn records(d: &Delivered) -> Vec<(u32, Vec<u8>)> {
    let layouts = d.layouts.as_ref().expect("layouts");
    let mut out = Vec::new();
    let mut at = 0;
    while at < d.bytes.len() {
        let k = u32_at(&d.bytes, at);
        let size = layouts.iter().find(|l| l.0 == k).expect("a layout for every kind in the buffer").1;
        out.push((k, d.bytes[at..at + size].to_vec()));
        at += size;
    }
    out
}

#[test]
fn the_v2_api_is_absent_before_13_2_and_needs_a_live_subscriber() {
    let (_g, m) = mock();
    m.set_version(130500);
    let sub = m.shared_subscriber(c"tool");
    m.set_version(130001);
    assert_eq!(m.enable_v2(sub, kinds::RUNTIME, None, None, None), 11, "13.0: not implemented");
    assert!(m.stat(c"absent_symbol_calls") > 0);
    m.set_version(130500);
    assert_eq!(m.enable_v2(0x1234 as CUpti_SubscriberHandle, kinds::RUNTIME, None, None, None), 1);
    let sub = m.shared_subscriber(c"tool");
    assert_eq!(m.enable_v2(sub, kinds::RUNTIME, None, None, None), 0);
    // SAFETY: a live handle.
    assert_eq!(ok(unsafe { m.f().cuptiUnsubscribe(sub) }), 0);
    assert_eq!(m.enable_v2(sub, kinds::RUNTIME, None, None, None), 1, "a handle unsubscribed is not live");
}

#[test]
fn two_subscribers_each_get_the_records_of_their_own_kinds() {
    let (_g, m) = mock();
    m.set_version(130500);
    delivered();
    let (a, b) = (m.shared_subscriber(c"ours"), m.shared_subscriber(c"another tool"));
    assert_eq!((m.register_v2(a, 1), m.register_v2(b, 2)), (0, 0));
    assert_eq!(m.enable_v2(a, kinds::CONCURRENT_KERNEL, None, None, None), 0);
    assert_eq!(m.enable_v2(a, kinds::RUNTIME, None, None, None), 0);
    assert_eq!(m.enable_v2(b, kinds::CONCURRENT_KERNEL, None, None, None), 0);
    let corr = m.launch(c"shared_kernel", [1, 1, 1], [32, 1, 1], 0, 0, 1_000);
    m.api_call(RUNTIME, CUDA_GET_DEVICE, None, 0);
    assert_eq!(m.flush(0), 0);
    let got = delivered();
    let kinds_of = |tag: usize| -> Vec<u32> {
        let mut v: Vec<u32> = got
            .iter()
            .filter(|d| d.tag == tag)
            .flat_map(|d| {
                let mut at = 0;
                let mut ks = Vec::new();
                while at < d.bytes.len() {
                    let k = u32_at(&d.bytes, at);
                    ks.push(k);
                    at += if k == kinds::CONCURRENT_KERNEL {
                        size_of::<cupti_sys::v13_5::CUpti_ActivityKernel13>()
                    } else {
                        api::SIZE
                    };
                }
                ks
            })
            .collect();
        v.sort_unstable();
        v
    };
    assert_eq!(kinds_of(1), [kinds::RUNTIME, kinds::RUNTIME, kinds::CONCURRENT_KERNEL]);
    assert_eq!(
        kinds_of(2),
        [kinds::CONCURRENT_KERNEL],
        "the other tool sees its kernel, not our API records"
    );
    let b_kernel = &got.iter().find(|d| d.tag == 2).unwrap().bytes;
    assert_eq!(u32_at(b_kernel, kernel::CORRELATION), corr);
    assert!(got.iter().all(|d| d.layouts.is_none()), "fixed records come without layouts");
}

#[test]
fn user_defined_records_hold_the_selected_fields_where_the_layouts_say() {
    let (_g, m) = mock();
    m.set_version(130500);
    delivered();
    let sub = m.shared_subscriber(c"udr");
    assert_eq!(m.user_defined(sub), 0);
    assert_eq!(m.register_v2(sub, 1), 0);
    let kernel_fields = [
        K::KERNEL_FIELD_KIND.0,
        K::KERNEL_FIELD_NAME.0,
        K::KERNEL_FIELD_GRID_X.0,
        K::KERNEL_FIELD_CORRELATION_ID.0,
        K::KERNEL_FIELD_START.0,
        K::KERNEL_FIELD_END.0,
    ]
    .map(|f| f as c_int);
    assert_eq!(
        m.enable_v2(sub, kinds::CONCURRENT_KERNEL, Some(&kernel_fields[1..]), None, None),
        1,
        "the kind field first"
    );
    assert_eq!(
        m.enable_v2(sub, kinds::CONCURRENT_KERNEL, Some(&[0, K::KERNEL_FIELD_MAX.0 as c_int]), None, None),
        1
    );
    assert_eq!(m.enable_v2(sub, kinds::CONCURRENT_KERNEL, None, None, None), 1, "a selection is needed");
    assert_eq!(
        m.enable_v2(sub, kinds::MARKER, Some(&[0]), None, None),
        27,
        "a kind the mock writes no such records for"
    );
    assert_eq!(m.enable_v2(sub, kinds::CONCURRENT_KERNEL, Some(&kernel_fields), None, None), 0);
    assert_eq!(m.user_defined(sub), 7, "too late once a kind is enabled");
    let api_fields =
        [A::API_FIELD_KIND.0, A::API_FIELD_CORRELATION_ID.0, A::API_FIELD_CBID.0].map(|f| f as c_int);
    assert_eq!(m.enable_v2(sub, kinds::RUNTIME, Some(&api_fields), None, None), 0);
    let corr = m.launch(c"udr_kernel", [12, 1, 1], [64, 1, 1], 0, 0, 2_000);
    assert_eq!(m.flush(0), 0);
    let got = delivered();
    assert_eq!(got.len(), 1);
    let layouts = got[0].layouts.clone().expect("13.5 completes with layouts");
    let kl = layouts.iter().find(|l| l.0 == kinds::CONCURRENT_KERNEL).unwrap();
    assert_eq!(kl.2[0], (0, 0, 4), "the kind field first, 4 bytes at 0");
    let ids: Vec<u32> = kl.2.iter().map(|f| f.0).collect();
    assert_ne!(ids, kernel_fields.map(|f| f as u32), "laid out by width, not in the order selected");
    assert_eq!(kl.1 % 8, 0);
    let recs = records(&got[0]);
    let (_, k) = recs.iter().find(|r| r.0 == kinds::CONCURRENT_KERNEL).unwrap();
    assert_eq!(k.len(), kl.1);
    assert_eq!(field(k, kl, K::KERNEL_FIELD_CORRELATION_ID.0), Some(u64::from(corr)));
    assert_eq!(
        kl.2.iter().find(|f| f.0 == K::KERNEL_FIELD_CORRELATION_ID.0).unwrap().2,
        8,
        "64-bit correlation ids"
    );
    assert_eq!(field(k, kl, K::KERNEL_FIELD_GRID_X.0), Some(12));
    assert_eq!(
        field(k, kl, K::KERNEL_FIELD_END.0).unwrap() - field(k, kl, K::KERNEL_FIELD_START.0).unwrap(),
        2_000
    );
    assert_eq!(field(k, kl, K::KERNEL_FIELD_BLOCK_X.0), None, "not selected, not there");
    let name = field(k, kl, K::KERNEL_FIELD_NAME.0).unwrap() as usize as *const std::ffi::c_char;
    // SAFETY: the mock's names live for the process.
    assert_eq!(unsafe { std::ffi::CStr::from_ptr(name) }.to_str(), Ok("udr_kernel"));
    let al = layouts.iter().find(|l| l.0 == kinds::RUNTIME).unwrap();
    assert_eq!(al.1, 24, "kind (4) + cbid (4) + correlation (8), rounded to 8: {al:?}");
    let (_, a) = recs.iter().find(|r| r.0 == kinds::RUNTIME).unwrap();
    assert_eq!(field(a, al, A::API_FIELD_CBID.0), Some(211));

    // A changed selection needs disable + forced flush + enable (CUPTI's documented procedure).
    assert_eq!(m.disable_v2(sub, kinds::RUNTIME), 0);
    let fewer = [A::API_FIELD_KIND.0 as c_int, A::API_FIELD_START.0 as c_int];
    assert_eq!(m.enable_v2(sub, kinds::RUNTIME, Some(&fewer), None, None), 7);
    assert_eq!(
        m.enable_v2(sub, kinds::RUNTIME, Some(&api_fields), None, None),
        0,
        "the same selection again is fine"
    );
    assert_eq!(m.disable_v2(sub, kinds::RUNTIME), 0);
    assert_eq!(m.flush(1), 0);
    assert_eq!(m.enable_v2(sub, kinds::RUNTIME, Some(&fewer), None, None), 0);
}

#[test]
fn cbid_options_filter_api_records_from_13_4() {
    let (_g, m) = mock();
    m.set_version(130300);
    let sub = m.shared_subscriber(c"filter");
    assert_eq!(m.register_v2(sub, 1), 0);
    assert_eq!(
        m.enable_v2(sub, kinds::RUNTIME, Some(&[0]), Some((&[CUDA_GET_DEVICE], 0)), None),
        1,
        "13.3's config has no pKindOptions"
    );
    m.set_version(130401);
    let sub = m.shared_subscriber(c"filter");
    assert_eq!(m.register_v2(sub, 1), 0);
    delivered();
    assert_eq!(m.enable_v2(sub, kinds::RUNTIME, Some(&[0]), Some((&[0], 0)), None), 1, "id 0 is no id");
    assert_eq!(m.enable_v2(sub, kinds::RUNTIME, Some(&[0]), Some((&[CUDA_GET_DEVICE], 0)), None), 0);
    m.api_call(RUNTIME, CUDA_GET_DEVICE, None, 0);
    m.launch(c"k", [1, 1, 1], [1, 1, 1], 0, 0, 100);
    assert_eq!(m.flush(0), 0);
    let cbids: Vec<u32> = delivered()
        .iter()
        .flat_map(|d| d.bytes.chunks(api::SIZE).map(|r| u32_at(r, api::CBID)).collect::<Vec<_>>())
        .collect();
    assert_eq!(cbids, [211], "denied: cudaGetDevice");
    // An allowlist: only the listed ids.
    assert_eq!(m.disable_v2(sub, kinds::RUNTIME), 0);
    assert_eq!(m.enable_v2(sub, kinds::RUNTIME, Some(&[0]), Some((&[CUDA_GET_DEVICE], 1)), None), 0);
    m.api_call(RUNTIME, CUDA_GET_DEVICE, None, 0);
    m.launch(c"k", [1, 1, 1], [1, 1, 1], 0, 0, 100);
    assert_eq!(m.flush(0), 0);
    let cbids: Vec<u32> = delivered()
        .iter()
        .flat_map(|d| d.bytes.chunks(api::SIZE).map(|r| u32_at(r, api::CBID)).collect::<Vec<_>>())
        .collect();
    assert_eq!(cbids, [CUDA_GET_DEVICE]);
}

#[test]
fn v1_and_v2_do_not_mix_from_13_3() {
    let (_g, m) = mock();
    m.set_version(130500);
    let sub = m.shared_subscriber(c"v2 tool");
    // SAFETY: plain value.
    let v1 = ok(unsafe { m.f().cuptiActivityEnable(CUpti_ActivityKind(kinds::RUNTIME)) });
    assert_eq!(v1, 39, "V1 while a sharing subscriber lives");
    assert_eq!(m.user_defined(sub), 0);
    assert_eq!(m.register_v2(sub, 1), 0);
    assert_eq!(m.enable_v2(sub, kinds::RUNTIME, Some(&[0, A::API_FIELD_START.0 as c_int]), None, None), 0);
    let mut t = 0;
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(ok(m.f().cuptiGetTimestamp(&mut t)), 14, "plain timestamp under user-defined records");
        assert_eq!(
            ok(m.f().cuptiActivityPushExternalCorrelationId(cupti_sys::CUpti_ExternalCorrelationKind(3), 1)),
            14
        );
        assert_eq!(ok(m.f().cuptiGetTimestamp_v2(sub, &mut t)), 0);
        assert!(t > 0);
        assert_eq!(
            ok(m.f().cuptiActivityPushExternalCorrelationId_v2(
                sub,
                cupti_sys::CUpti_ExternalCorrelationKind(3),
                1
            )),
            0
        );
        let mut id = 0;
        assert_eq!(
            ok(m.f().cuptiActivityPopExternalCorrelationId_v2(
                sub,
                cupti_sys::CUpti_ExternalCorrelationKind(3),
                &mut id
            )),
            0
        );
        assert_eq!(id, 1);
        assert_eq!(ok(m.f().cuptiUnsubscribe(sub)), 0);
    }
    // The other way round: with the V1 API in use, the V2 calls are refused.
    m.enable(kinds::RUNTIME);
    let mut params_sub = null_mut();
    // SAFETY: valid out-pointer; NULL params (no sharing).
    assert_eq!(ok(unsafe { m.f().cuptiSubscribe_v2(&mut params_sub, None, null_mut(), null_mut()) }), 0);
    assert_eq!(m.enable_v2(params_sub, kinds::RUNTIME, None, None, None), 39);
}

#[test]
fn layouts_come_from_13_3_on_and_13_3_needs_a_driver_for_everything() {
    let (_g, m) = mock();
    m.set_version(130200);
    delivered();
    let sub = m.shared_subscriber(c"beta");
    assert_eq!((m.user_defined(sub), m.register_v2(sub, 1)), (0, 0));
    // The 13.2 config ends before `pKindOptions`: the 13.4 size is refused.
    assert_eq!(m.enable_v2(sub, kinds::RUNTIME, Some(&[0]), None, None), 1);
    let size_13_2 = std::mem::offset_of!(CUpti_ActivityConfig, pKindOptions);
    assert_eq!(m.enable_v2(sub, kinds::RUNTIME, Some(&[0]), None, Some(size_13_2)), 0);
    m.api_call(RUNTIME, CUDA_GET_DEVICE, None, 0);
    assert_eq!(m.flush(0), 0);
    let got = delivered();
    assert_eq!(got.len(), 1);
    assert!(got[0].layouts.is_none(), "13.2 (beta) completes with ppRecordLayouts NULL");
    m.set_version(130300);
    m.set_driver_present(0);
    let mut v = 7;
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(ok(m.f().cuptiGetVersion(&mut v)), 999);
        let mut s = null();
        assert_eq!(ok(m.f().cuptiGetResultString(cupti_sys::CUptiResult(0), &mut s)), 999);
    }
    assert_eq!(v, 7, "the version is not written");
}
