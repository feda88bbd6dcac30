//! A C callback for `cuptiSubscribe` that records what it sees, and uses the entry/exit slot as
//! a profiler would: it stores a value at ENTER and reads it back at EXIT.

use std::ffi::{c_void, CStr};
use std::sync::Mutex;
use std::thread::ThreadId;

use cupti_sys::{CUpti_CallbackData, CUpti_CallbackDomain, CUpti_ResourceData, CUpti_SynchronizeData};

/// One callback invocation.
#[derive(Debug, Clone)]
pub struct Event {
    /// The `userdata` the subscriber registered (a tag telling subscribers apart).
    pub tag: usize,
    pub domain: u32,
    pub cbid: u32,
    pub thread: ThreadId,
    /// API domains: what `CUpti_CallbackData` held.
    pub api: Option<Api>,
    /// RESOURCE / SYNCHRONIZE domains: (context, stream) of their data.
    pub context_stream: Option<(usize, usize)>,
}

#[derive(Debug, Clone)]
pub struct Api {
    pub exit: bool,
    pub function_name: String,
    pub symbol_name: Option<String>,
    pub correlation_id: u32,
    pub context: usize,
    pub context_uid: u32,
    /// Address of the `correlationData` slot.
    pub slot: usize,
    /// At ENTER: the slot's value on arrival (then the callback stores [`slot_mark`]); at EXIT:
    /// the value found there.
    pub slot_value: u64,
    /// The `cudaError_t`/`CUresult` behind `functionReturnValue`, read at EXIT.
    pub return_value: Option<i32>,
    /// The first bytes of `functionParams` (as many as the played call's params struct has).
    pub params: Vec<u8>,
    /// For `cudaMalloc` (`cuMemAlloc_v2`) at EXIT: `*devPtr` (`*dptr`).
    pub malloc_result: Option<u64>,
}

static EVENTS: Mutex<Vec<Event>> = Mutex::new(Vec::new());

/// What the callback stores in the slot at ENTER of the call `correlation_id` for `tag`.
pub fn slot_mark(tag: usize, correlation_id: u32) -> u64 {
    0xC0DE_0000_0000_0000 | (tag as u64) << 32 | u64::from(correlation_id)
}

pub fn clear() {
    EVENTS.lock().unwrap_or_else(|e| e.into_inner()).clear();
}

pub fn events() -> Vec<Event> {
    EVENTS.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// API events only, with their API data.
pub fn api_events() -> Vec<(Event, Api)> {
    events().into_iter().filter_map(|e| e.api.clone().map(|a| (e, a))).collect()
}

/// Size of the params struct of the calls the mock plays (by runtime/driver cbid).
fn params_size(domain: u32, cbid: u32) -> usize {
    match (domain, cbid) {
        (2, 211) => 56, // cudaLaunchKernel_v7000_params
        (1, 307) => 64, // cuLaunchKernel_params
        (2, 31) => 32,  // cudaMemcpy_v3020_params
        (2, 41) => 40,  // cudaMemcpyAsync_v3020_params
        (2, 49) => 24,  // cudaMemset_v3020_params
        (2, 51) => 32,  // cudaMemsetAsync_v3020_params
        (2, 20) => 16,  // cudaMalloc_v3020_params
        (2, 22) | (2, 131) => 8,
        // The driver calls runtime calls make: cuMemcpy{HtoD,DtoH,DtoD}_v2 / cuMemcpy,
        // their Async forms, cuMemsetD8_v2, cuMemsetD8Async, cuMemAlloc_v2, cuMemFree_v2.
        (1, 276) | (1, 278) | (1, 280) | (1, 305) | (1, 249) => 24,
        (1, 277) | (1, 279) | (1, 281) | (1, 306) | (1, 216) => 32,
        (1, 243) => 16,
        (1, 245) | (1, 126) => 8,
        _ => 0,
    }
}

unsafe fn string(p: *const std::ffi::c_char) -> Option<String> {
    // SAFETY: CUPTI passes NULL or a C string.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// The `CUpti_CallbackFunc` under test.
pub unsafe extern "C" fn record(
    userdata: *mut c_void,
    domain: CUpti_CallbackDomain,
    cbid: u32,
    data: *const c_void,
) {
    let tag = userdata as usize;
    let thread = std::thread::current().id();
    let mut event = Event { tag, domain: domain.0, cbid, thread, api: None, context_stream: None };
    // SAFETY: CUPTI passes the callback data of `domain`, valid during this call.
    unsafe {
        match domain.0 {
            1 | 2 => {
                let d = &*data.cast::<CUpti_CallbackData>();
                let exit = d.callbackSite.0 == 1;
                let slot_value = *d.correlationData;
                if !exit {
                    *d.correlationData = slot_mark(tag, d.correlationId);
                }
                let n = params_size(domain.0, cbid);
                let params = if d.functionParams.is_null() {
                    Vec::new()
                } else {
                    std::slice::from_raw_parts(d.functionParams.cast::<u8>(), n).to_vec()
                };
                // cudaMalloc's `void **devPtr`, cuMemAlloc_v2's `CUdeviceptr *dptr`: both first.
                let allocates = (domain.0 == 2 && cbid == 20) || (domain.0 == 1 && cbid == 243);
                let malloc_result = (exit && allocates && !d.functionParams.is_null())
                    .then(|| **d.functionParams.cast::<*const u64>());
                event.api = Some(Api {
                    exit,
                    function_name: string(d.functionName).unwrap_or_default(),
                    symbol_name: string(d.symbolName),
                    correlation_id: d.correlationId,
                    context: d.context as usize,
                    context_uid: d.contextUid,
                    slot: d.correlationData as usize,
                    slot_value,
                    return_value: exit.then(|| *d.functionReturnValue.cast::<i32>()),
                    params,
                    malloc_result,
                });
            }
            3 => {
                let d = &*data.cast::<CUpti_ResourceData>();
                event.context_stream = Some((d.context as usize, d.resourceHandle.stream as usize));
            }
            4 => {
                let d = &*data.cast::<CUpti_SynchronizeData>();
                event.context_stream = Some((d.context as usize, d.stream as usize));
            }
            _ => {}
        }
    }
    EVENTS.lock().unwrap_or_else(|e| e.into_inner()).push(event);
}
