//! What a callback closure sees: [`CallbackData`] and its per-domain views.

use std::cell::Cell;
use std::ffi::{c_char, c_void, CStr};
use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};

pub use accelprof_core::callback::CorrelationSlot;
use cupti_sys::{
    CUcontext, CUpti_CallbackData, CUpti_NvtxData, CUpti_ResourceData, CUpti_StateData, CUpti_SynchronizeData,
};

use super::params::{self, CallParams};
use crate::error::ResultCode;
use crate::ids::{CallbackDomain, CallbackId, CallbackSite, ResourceCbid};

/// One callback: the id, and a view of CUPTI's data for its domain.
///
/// It lives only for the duration of the callback (it borrows CUPTI's per-call data), so a
/// closure cannot keep it; copy out what it needs.
pub struct CallbackData<'a> {
    id: CallbackId,
    raw: *const c_void,
    /// `cuptiGetVersion` of the library, read only when a name is asked for.
    api_version: &'a AtomicU32,
    /// The entry/exit slot; `None`: CUPTI's own per-call slot (`correlationData`), used in place.
    slot: Option<CorrelationSlot<'a>>,
}

impl<'a> CallbackData<'a> {
    /// # Safety
    /// `raw` is non-null and points at the callback data of `id`'s domain, valid for `'a`.
    pub(crate) unsafe fn new(
        id: CallbackId,
        raw: *const c_void,
        api_version: &'a AtomicU32,
        slot: CorrelationSlot<'a>,
    ) -> Self {
        CallbackData { id, raw, api_version, slot: Some(slot) }
    }

    /// The same with CUPTI's own `correlationData` as the slot, used in place (not even its
    /// address is read unless the slot is asked for).
    ///
    /// # Safety
    /// As [`CallbackData::new`]; for API domains, `correlationData` is NULL or the caller's
    /// per-call slot, valid and touched by nobody else for `'a`.
    pub(crate) unsafe fn with_cupti_slot(
        id: CallbackId,
        raw: *const c_void,
        api_version: &'a AtomicU32,
    ) -> Self {
        CallbackData { id, raw, api_version, slot: None }
    }

    /// The callback id.
    pub fn id(&self) -> CallbackId {
        self.id
    }

    /// The callback's domain.
    pub fn domain(&self) -> CallbackDomain {
        self.id.domain
    }

    /// The traced function or event (`"cudaLaunchKernel"`, `"CONTEXT_CREATED"`), named as the
    /// loaded CUPTI version names it; `None` for an id newer than this crate.
    pub fn name(&self) -> Option<&'static str> {
        self.id.name_for(self.api_version.load(Ordering::Relaxed))
    }

    /// The API call view, for the driver and runtime domains.
    pub fn api(&self) -> Option<ApiCallData<'a>> {
        self.id.domain.is_api().then(|| ApiCallData {
            id: self.id,
            // SAFETY: API domains pass `CUpti_CallbackData` (constructor's contract).
            raw: unsafe { &*self.raw.cast::<CUpti_CallbackData>() },
            slot: self.slot,
        })
    }

    /// ENTER or EXIT, for API calls.
    pub fn site(&self) -> Option<CallbackSite> {
        self.api().map(|a| a.site())
    }

    /// The API function (`"cudaLaunchKernel"`, `"cuMemAlloc_v2"`), for API calls.
    pub fn function_name(&self) -> Option<&'a str> {
        self.api().and_then(|a| a.function_name())
    }

    /// The API call's correlation id (the same in its activity records), for API calls.
    pub fn correlation_id(&self) -> Option<u32> {
        self.api().map(|a| a.correlation_id())
    }

    /// Whether this is an API call's ENTER callback (false for other domains' callbacks), as in
    /// `mspti` and `rocprofiler`.
    pub fn is_enter(&self) -> bool {
        self.api().is_some_and(|a| a.is_enter())
    }

    /// Whether this is an API call's EXIT callback (false for other domains' callbacks).
    pub fn is_exit(&self) -> bool {
        self.api().is_some_and(|a| a.is_exit())
    }

    /// The entry/exit slot of this API call (see [`CorrelationSlot`]); for a callback of another
    /// domain, a slot that reads 0 and stores nothing ([`CorrelationSlot::none`]).
    pub fn correlation_slot(&self) -> CorrelationSlot<'a> {
        self.api().map_or_else(CorrelationSlot::none, |a| a.correlation_slot())
    }

    /// The resource event view (context, stream, module, graph creation and destruction).
    pub fn resource(&self) -> Option<ResourceData<'a>> {
        (self.id.domain == CallbackDomain::RESOURCE).then(|| ResourceData {
            cbid: ResourceCbid(self.id.cbid),
            // SAFETY: the RESOURCE domain passes `CUpti_ResourceData`.
            raw: unsafe { &*self.raw.cast::<CUpti_ResourceData>() },
        })
    }

    /// The synchronization view (a stream or context synchronization completed).
    pub fn synchronize(&self) -> Option<SynchronizeData> {
        (self.id.domain == CallbackDomain::SYNCHRONIZE).then(|| {
            // SAFETY: the SYNCHRONIZE domain passes `CUpti_SynchronizeData`.
            let raw = unsafe { &*self.raw.cast::<CUpti_SynchronizeData>() };
            SynchronizeData { context: raw.context as usize, stream: raw.stream as usize }
        })
    }

    /// The NVTX call view.
    pub fn nvtx(&self) -> Option<NvtxData<'a>> {
        (self.id.domain == CallbackDomain::NVTX).then(|| NvtxData {
            // SAFETY: the NVTX domain passes `CUpti_NvtxData`.
            raw: unsafe { &*self.raw.cast::<CUpti_NvtxData>() },
        })
    }

    /// The CUPTI state notification view (errors and warnings CUPTI reports).
    pub fn state(&self) -> Option<StateData<'a>> {
        (self.id.domain == CallbackDomain::STATE).then(|| {
            // SAFETY: the STATE domain passes `CUpti_StateData`; `notification` is its only member.
            let n = unsafe { (*self.raw.cast::<CUpti_StateData>()).__bindgen_anon_1.notification };
            StateData {
                result: ResultCode(n.result.0),
                // SAFETY: NULL or a NUL-terminated string valid during the callback.
                message: unsafe { opt_str(n.message) },
            }
        })
    }

    /// CUPTI's raw callback data (`CUpti_CallbackData*` for API domains, `CUpti_ResourceData*`,
    /// ...), valid only during the callback.
    pub fn raw(&self) -> *const c_void {
        self.raw
    }
}

impl fmt::Debug for CallbackData<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("CallbackData");
        d.field("id", &self.id);
        if let Some(api) = self.api() {
            d.field("site", &api.site()).field("correlation_id", &api.correlation_id());
        }
        d.finish_non_exhaustive()
    }
}

/// A NUL-terminated C string as `&str`, `None` for NULL or non-UTF-8.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string valid for `'a`.
unsafe fn opt_str<'a>(p: *const c_char) -> Option<&'a str> {
    if p.is_null() {
        return None;
    }
    // SAFETY: the caller's contract.
    unsafe { CStr::from_ptr(p) }.to_str().ok()
}

/// The return value of a runtime or driver call, read at EXIT.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReturnValue {
    /// A runtime call's `cudaError_t`.
    Runtime(i32),
    /// A driver call's `CUresult`.
    Driver(i32),
}

impl ReturnValue {
    /// The raw code.
    pub fn code(self) -> i32 {
        match self {
            ReturnValue::Runtime(c) | ReturnValue::Driver(c) => c,
        }
    }

    /// Whether the call succeeded (`cudaSuccess` / `CUDA_SUCCESS`, both 0).
    pub fn is_success(self) -> bool {
        self.code() == 0
    }
}

/// A runtime or driver API callback.
#[derive(Clone, Copy)]
pub struct ApiCallData<'a> {
    id: CallbackId,
    raw: &'a CUpti_CallbackData,
    /// As in [`CallbackData`].
    slot: Option<CorrelationSlot<'a>>,
}

impl<'a> ApiCallData<'a> {
    /// ENTER or EXIT.
    pub fn site(&self) -> CallbackSite {
        CallbackSite(self.raw.callbackSite.0)
    }

    /// Whether this is the ENTER callback.
    pub fn is_enter(&self) -> bool {
        self.site().is_enter()
    }

    /// Whether this is the EXIT callback.
    pub fn is_exit(&self) -> bool {
        self.site().is_exit()
    }

    /// The API function (`"cudaLaunchKernel"`, `"cuMemAlloc_v2"`); `None` if CUPTI gave none.
    pub fn function_name(&self) -> Option<&'a str> {
        // SAFETY: NULL or a static NUL-terminated name.
        unsafe { opt_str(self.raw.functionName) }
    }

    /// For kernel launches, the kernel's (mangled) name; `None` for other calls (CUPTI fills
    /// `symbolName` only for launches).
    pub fn symbol_name(&self) -> Option<&'a str> {
        if !params::is_launch(self.id.domain, self.id.cbid) {
            return None;
        }
        // SAFETY: for launches, NULL or a NUL-terminated name valid during the callback.
        unsafe { opt_str(self.raw.symbolName) }
    }

    /// The correlation id: the same number as the call's activity records.
    pub fn correlation_id(&self) -> u32 {
        self.raw.correlationId
    }

    /// The CUDA context the call runs in (NULL before one exists).
    pub fn context(&self) -> CUcontext {
        self.raw.context
    }

    /// The context's unique id.
    pub fn context_uid(&self) -> u32 {
        self.raw.contextUid
    }

    /// This call's entry/exit slot: what this subscriber stores at ENTER it reads back at the same
    /// call's EXIT, whoever else subscribed. [`CorrelationSlot::paired`] is false only where the
    /// crate knows the EXIT's ENTER was not seen (the one frame its serial named was a lost call's).
    pub fn correlation_slot(&self) -> CorrelationSlot<'a> {
        self.slot.unwrap_or_else(|| {
            let p = self.raw.correlationData;
            if p.is_null() {
                return CorrelationSlot::none();
            }
            // SAFETY: `with_cupti_slot`'s contract: CUPTI's per-call slot, valid and ours alone
            // during the callback; `Cell<u64>` has `u64`'s layout.
            CorrelationSlot::new(unsafe { &*p.cast::<Cell<u64>>() }, true)
        })
    }

    /// The call's return value, at EXIT; `None` at ENTER.
    pub fn return_value(&self) -> Option<ReturnValue> {
        let p = self.raw.functionReturnValue;
        if !self.is_exit() || p.is_null() {
            return None;
        }
        // SAFETY: at EXIT CUPTI points at the call's `cudaError_t` / `CUresult`, C enums of int size.
        let code = unsafe { p.cast::<i32>().read_unaligned() };
        Some(if self.id.domain == CallbackDomain::RUNTIME_API {
            ReturnValue::Runtime(code)
        } else {
            ReturnValue::Driver(code)
        })
    }

    /// The typed parameters, for the calls this crate reads (kernel launches, memory copies and
    /// sets, allocations and frees); `None` for the others.
    pub fn params(&self) -> Option<CallParams> {
        // SAFETY: `functionParams` is the params struct of this callback id, valid now.
        unsafe { params::read(self.id.domain, self.id.cbid, self.raw.functionParams, self.is_exit()) }
    }

    /// CUPTI's `functionParams`: the call's `<function>_params` struct (see
    /// [`cupti_sys::params`]), valid only during the callback.
    pub fn raw_params(&self) -> *const c_void {
        self.raw.functionParams
    }

    /// CUPTI's callback data.
    pub fn raw(&self) -> &'a CUpti_CallbackData {
        self.raw
    }
}

impl fmt::Debug for ApiCallData<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApiCallData")
            .field("id", &self.id)
            .field("site", &self.site())
            .field("correlation_id", &self.correlation_id())
            .finish_non_exhaustive()
    }
}

/// A resource event.
#[derive(Clone, Copy)]
pub struct ResourceData<'a> {
    cbid: ResourceCbid,
    raw: &'a CUpti_ResourceData,
}

impl<'a> ResourceData<'a> {
    /// The event.
    pub fn event(&self) -> ResourceCbid {
        self.cbid
    }

    /// The context concerned.
    pub fn context(&self) -> CUcontext {
        self.raw.context
    }

    /// For stream events, the stream handle as an integer.
    pub fn stream(&self) -> Option<usize> {
        let stream_event =
            self.cbid == ResourceCbid::STREAM_CREATED || self.cbid == ResourceCbid::STREAM_DESTROY_STARTING;
        if !stream_event {
            return None;
        }
        // SAFETY: the union's `stream` member is the one CUPTI sets for stream events.
        Some(unsafe { self.raw.resourceHandle.stream } as usize)
    }

    /// CUPTI's resource descriptor (`CUpti_ModuleResourceData*`, `CUpti_GraphData*`, ...),
    /// valid only during the callback.
    pub fn descriptor(&self) -> *mut c_void {
        self.raw.resourceDescriptor
    }
}

impl fmt::Debug for ResourceData<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResourceData").field("event", &self.cbid).finish_non_exhaustive()
    }
}

/// A completed synchronization.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SynchronizeData {
    /// The context handle as an integer.
    pub context: usize,
    /// The stream handle as an integer (0 for a context synchronization).
    pub stream: usize,
}

/// An NVTX call.
#[derive(Clone, Copy)]
pub struct NvtxData<'a> {
    raw: &'a CUpti_NvtxData,
}

impl<'a> NvtxData<'a> {
    /// The NVTX function (`"nvtxRangePushA"`).
    pub fn function_name(&self) -> Option<&'a str> {
        // SAFETY: NULL or a static NUL-terminated name.
        unsafe { opt_str(self.raw.functionName) }
    }

    /// The NVTX function's params struct, valid only during the callback.
    pub fn raw_params(&self) -> *const c_void {
        self.raw.functionParams
    }
}

impl fmt::Debug for NvtxData<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NvtxData").field("function", &self.function_name()).finish_non_exhaustive()
    }
}

/// A CUPTI state notification.
#[derive(Debug, Clone, Copy)]
pub struct StateData<'a> {
    /// The result CUPTI reports.
    pub result: ResultCode,
    /// CUPTI's message.
    pub message: Option<&'a str>,
}

/// `cuCtxGetCurrent`'s API callback data at `site` with CUPTI's per-call slot `shared`, as CUPTI
/// passes it: for the dispatcher's tests.
#[cfg(test)]
pub(crate) fn fake_api_data(
    site: cupti_sys::CUpti_ApiCallbackSite,
    correlation_id: u32,
    shared: *mut u64,
) -> CUpti_CallbackData {
    CUpti_CallbackData {
        callbackSite: site,
        functionName: c"cuCtxGetCurrent".as_ptr(),
        functionParams: std::ptr::null(),
        functionReturnValue: std::ptr::null_mut(),
        symbolName: std::ptr::null(),
        context: std::ptr::null_mut(),
        contextUid: 1,
        correlationData: shared,
        correlationId: correlation_id,
    }
}
