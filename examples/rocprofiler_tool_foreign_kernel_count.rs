//! Another vendor's tool library, as rocprofv3 is one: it registers through its own exported
//! `rocprofiler_configure`, uses the SDK's C API directly (no `Tool`, no activity session), makes
//! its own context and LOSSLESS buffer of kernel records, and prints how many kernels it saw when
//! the SDK finalizes it. Loaded next to one of ours (`ROCP_TOOL_LIBRARIES=ours.so:this.so:`), it
//! shows that each tool gets every record: the SDK gives every tool its own client id, priority,
//! contexts and buffers.

use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use rocprofiler::sys;

static KERNELS: AtomicU64 = AtomicU64::new(0);
static BUFFER: AtomicU64 = AtomicU64::new(0);
static CLIENT: OnceLock<(u32, u32)> = OnceLock::new();

fn sdk() -> &'static sys::Library {
    rocprofiler::Rocprofiler::global().expect("the SDK this process loaded").sys()
}

unsafe extern "C" fn on_records(
    _ctx: sys::rocprofiler_context_id_t,
    _buffer: sys::rocprofiler_buffer_id_t,
    headers: *mut *mut sys::rocprofiler_record_header_t,
    count: usize,
    _data: *mut c_void,
    _drops: u64,
) {
    if headers.is_null() {
        return;
    }
    // SAFETY: the SDK passes `count` valid headers for this call.
    let headers = unsafe { std::slice::from_raw_parts(headers, count) };
    for &h in headers {
        // SAFETY: a valid header; the union's struct view covers the hash.
        let (category, kind) = unsafe {
            ((*h).__bindgen_anon_1.__bindgen_anon_1.category, (*h).__bindgen_anon_1.__bindgen_anon_1.kind)
        };
        if category == sys::rocprofiler_buffer_category_t::ROCPROFILER_BUFFER_CATEGORY_TRACING.0
            && kind == sys::rocprofiler_buffer_tracing_kind_t::ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH.0
        {
            KERNELS.fetch_add(1, Ordering::Relaxed);
        }
    }
}

unsafe extern "C" fn initialize(_fini: sys::rocprofiler_client_finalize_t, _data: *mut c_void) -> i32 {
    let lib = sdk();
    let mut ctx = sys::rocprofiler_context_id_t { handle: 0 };
    let mut buffer = sys::rocprofiler_buffer_id_t { handle: 0 };
    // SAFETY: valid out-pointers and a callback of the right type; kind and ids from the SDK.
    let ok = unsafe {
        lib.rocprofiler_create_context(&mut ctx).is_ok_and(|s| s.0 == 0)
            && lib
                .rocprofiler_create_buffer(
                    ctx,
                    1 << 16,
                    1 << 15,
                    sys::rocprofiler_buffer_policy_t::ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                    Some(on_records),
                    std::ptr::null_mut(),
                    &mut buffer,
                )
                .is_ok_and(|s| s.0 == 0)
            && lib
                .rocprofiler_configure_buffer_tracing_service(
                    ctx,
                    sys::rocprofiler_buffer_tracing_kind_t::ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,
                    std::ptr::null(),
                    0,
                    buffer,
                )
                .is_ok_and(|s| s.0 == 0)
            && lib.rocprofiler_start_context(ctx).is_ok_and(|s| s.0 == 0)
    };
    BUFFER.store(buffer.handle, Ordering::Release);
    if ok {
        0
    } else {
        -1
    }
}

unsafe extern "C" fn finalize(_data: *mut c_void) {
    let buffer = sys::rocprofiler_buffer_id_t { handle: BUFFER.load(Ordering::Acquire) };
    // SAFETY: a buffer id from the SDK.
    let _ = unsafe { sdk().rocprofiler_flush_buffer(buffer) };
    let (client, priority) = CLIENT.get().copied().unwrap_or_default();
    println!(
        "foreign tool (client {client}, priority {priority}): {} kernels",
        KERNELS.load(Ordering::Relaxed)
    );
}

/// The entry point the SDK looks for in a tool library.
///
/// # Safety
/// Called by rocprofiler-sdk with valid arguments.
#[no_mangle]
pub unsafe extern "C" fn rocprofiler_configure(
    _version: u32,
    _runtime_version: *const c_char,
    priority: u32,
    client_id: *mut sys::rocprofiler_client_id_t,
) -> *mut sys::rocprofiler_tool_configure_result_t {
    if !client_id.is_null() {
        // SAFETY: the SDK hands a valid client id whose name a tool may set.
        unsafe {
            (*client_id).name = c"foreign-kernel-count".as_ptr();
            let _ = CLIENT.set(((*client_id).handle, priority));
        }
    }
    // The SDK keeps the pointer: leaked (the SDK configures a tool once).
    Box::leak(Box::new(sys::rocprofiler_tool_configure_result_t {
        size: std::mem::size_of::<sys::rocprofiler_tool_configure_result_t>(),
        initialize: Some(initialize),
        finalize: Some(finalize),
        tool_data: std::ptr::null_mut(),
    }))
}
