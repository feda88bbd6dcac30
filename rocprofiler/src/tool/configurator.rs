//! [`Configurator`]: the only way to create contexts, buffers and services, handed to a tool's
//! setup while rocprofiler's configure window is open. It cannot be built, kept, or sent to
//! another thread, so "setup call outside the window" cannot be written:
//!
//! ```compile_fail
//! use rocprofiler::{Configurator, Result, Tool};
//! static mut KEPT: Option<&'static mut Configurator<'static>> = None;
//! struct Sneaky;
//! impl Tool for Sneaky {
//!     const NAME: &'static str = "sneaky";
//!     fn setup(cfg: &mut Configurator<'_>) -> Result<Self> {
//!         unsafe { KEPT = Some(cfg) }; // the configurator does not outlive setup
//!         Ok(Sneaky)
//!     }
//! }
//! ```
//!
//! ```compile_fail
//! use rocprofiler::{Configurator, Result, Tool};
//! struct Threaded;
//! impl Tool for Threaded {
//!     const NAME: &'static str = "threaded";
//!     fn setup(cfg: &mut Configurator<'_>) -> Result<Self> {
//!         // the window belongs to the SDK's thread: the configurator is not Send
//!         std::thread::scope(|s| { s.spawn(|| cfg.create_context()); });
//!         Ok(Threaded)
//!     }
//! }
//! ```

use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use accelprof_core::columns::HOST_DEVICE;
use rocprofiler_sys as sys;

use super::context::Context;
use crate::activity::{ActivityConfig, ActivitySession, Buffer, BufferConfig, CallbackThread};
use crate::callback::{CallbackData, Subscriber};
use crate::counters::dispatch_counting::{
    dispatch_trampoline, record_trampoline, CountingRequest, CountingResult, CountingService,
};
use crate::decode::{KernelNames, MarkerMessages, Walker};
use crate::error::{check, Result};
use crate::ids::{BufferKind, CallbackDomain, CallbackSite, Operation};
use crate::library::Rocprofiler;

/// What a tool set up, kept for finalization.
#[derive(Default)]
pub(crate) struct ToolShared {
    pub(crate) buffers: Vec<Buffer>,
    kernels: Arc<KernelNames>,
    markers: Arc<MarkerMessages>,
    /// A context of our own tracing code objects (kernel names) and marker messages for the
    /// decoder, created with the first buffer.
    internal: Option<Context>,
}

/// Setup calls, valid only while rocprofiler configures tools (inside [`Tool::setup`](crate::Tool::setup)).
pub struct Configurator<'w> {
    lib: &'static Rocprofiler,
    shared: &'w mut ToolShared,
    _single_thread: PhantomData<*mut ()>,
}

impl std::fmt::Debug for Configurator<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Configurator").finish_non_exhaustive()
    }
}

fn ops_arg(ops: &[Operation]) -> (*const i32, usize) {
    if ops.is_empty() {
        (std::ptr::null(), 0)
    } else {
        (ops.as_ptr() as *const i32, ops.len())
    }
}

/// Checks a service's kind and operations against what the library itself lists, before the
/// service is configured: the SDK registers a service before it looks at the operations (a bad
/// one leaves the kind configured, and a retry gets SERVICE_ALREADY_CONFIGURED), and indexes an
/// array with the kind unchecked (a kind at or past its LAST throws out of C).
fn validate(
    known_kinds: &[u32],
    kind: u32,
    known_ops: impl FnOnce() -> Result<Vec<(Operation, String)>>,
    ops: &[Operation],
) -> Result<()> {
    if !known_kinds.contains(&kind) {
        return Err(crate::Error::KindNotFound);
    }
    if ops.is_empty() {
        return Ok(());
    }
    let known = known_ops()?;
    if ops.iter().all(|op| known.iter().any(|(k, _)| k == op)) {
        Ok(())
    } else {
        Err(crate::Error::OperationNotFound)
    }
}

impl<'w> Configurator<'w> {
    pub(crate) fn new(lib: &'static Rocprofiler, shared: &'w mut ToolShared) -> Self {
        Configurator { lib, shared, _single_thread: PhantomData }
    }

    /// The SDK.
    pub fn rocprofiler(&self) -> &'static Rocprofiler {
        self.lib
    }

    /// A new context (stopped).
    #[doc(alias = "rocprofiler_create_context")]
    pub fn create_context(&mut self) -> Result<Context> {
        let mut id = sys::rocprofiler_context_id_t { handle: 0 };
        // SAFETY: a zeroed id, as the SDK requires.
        check(unsafe { self.lib.sys().rocprofiler_create_context(&mut id) }, "rocprofiler_create_context")?;
        Ok(Context { id: id.handle, lib: self.lib })
    }

    /// Calls `f` for each traced call of `kind` in `ctx`, for `ops` only (empty: every operation):
    /// API calls at ENTER and EXIT on the calling thread; kernels at ENQUEUE (ENTER and EXIT, on
    /// the launching thread) and COMPLETE (site NONE); memory copies at ENTER (submit, times 0)
    /// and EXIT (completion). Completions come on HSA's async-signal thread some time after the
    /// work ran, to the contexts active when it was enqueued. Once per kind per context ([`Error::ServiceAlreadyConfigured`](crate::Error::ServiceAlreadyConfigured)).
    /// A kind the library does not list is [`Error::KindNotFound`](crate::Error::KindNotFound),
    /// an operation it does not list for the kind [`Error::OperationNotFound`](crate::Error::OperationNotFound),
    /// both before the SDK is called (so a failed call configures nothing and may be retried).
    /// `f` may run on many threads at once; it lives as long as the process. The returned
    /// [`Subscriber`] counts its panics.
    #[doc(alias = "rocprofiler_configure_callback_tracing_service")]
    pub fn callback_tracing<F>(
        &mut self,
        ctx: &Context,
        kind: CallbackDomain,
        ops: &[Operation],
        f: F,
    ) -> Result<Subscriber>
    where
        F: Fn(&CallbackData<'_>) + Send + Sync + 'static,
    {
        let kinds: Vec<u32> = self.lib.callback_kinds()?.into_iter().map(|k| k.0).collect();
        validate(&kinds, kind.0, || self.lib.callback_operations(kind), ops)?;
        crate::callback::configure(self.lib, ctx, kind, ops, f)
    }

    /// A buffer of `ctx` whose records are decoded into column batches for
    /// [`Buffer::subscribe`]d consumers. Kernel names and marker messages are learnt by a
    /// context of this crate's own, created with the first buffer.
    #[doc(alias = "rocprofiler_create_buffer")]
    pub fn create_buffer(&mut self, ctx: &Context, config: BufferConfig) -> Result<Buffer> {
        self.buffer_of(ctx, config, None)
    }

    /// An activity session: a context of its own, a buffer of it, and buffer tracing of each of
    /// `config.kinds` into that buffer, all made here, in the configure window (the only place the SDK
    /// allows them; a kind not asked for here cannot be enabled later:
    /// [`ActivityError::KindLocked`](accelprof_core::activity::ActivityError::KindLocked)). The session
    /// starts collecting at [`ActivitySession::start`] (its context started), which may come now or
    /// later; kinds and operations are checked against the library's lists as for
    /// [`buffer_tracing`](Self::buffer_tracing).
    ///
    /// An empty `config.kinds` is refused before anything is made
    /// ([`ActivityError::NoKinds`](accelprof_core::activity::ActivityError::NoKinds)): the session
    /// could never collect anything (no kind can be added after the window).
    pub fn activity_session(&mut self, config: ActivityConfig) -> Result<ActivitySession> {
        if config.kinds.is_empty() {
            return Err(accelprof_core::activity::ActivityError::NoKinds.into());
        }
        let ctx = self.create_context()?;
        let kinds: Vec<_> = config.kinds.iter().collect();
        let buffer = self.buffer_of(&ctx, config.buffer, Some((ctx, kinds.clone())))?;
        for kind in kinds {
            self.buffer_tracing(&ctx, kind, &[], &buffer)?;
        }
        Ok(ActivitySession::new(buffer, ctx))
    }

    /// A buffer of `ctx` (`own`: the activity session's context and kinds, for its backend).
    fn buffer_of(
        &mut self,
        ctx: &Context,
        config: BufferConfig,
        own: Option<(Context, Vec<BufferKind>)>,
    ) -> Result<Buffer> {
        self.ensure_internal_context()?;
        let devices: HashMap<u64, u32> = self
            .lib
            .agents()?
            .into_iter()
            .map(|a| (a.id.0, if a.is_gpu() { a.type_index.max(0) as u32 } else { HOST_DEVICE }))
            .collect();
        let walker = Walker::new(self.lib, self.shared.kernels.clone(), self.shared.markers.clone(), devices);
        let buffer = Buffer::create(self.lib, ctx.raw(), &config, walker, own)?;
        self.shared.buffers.push(buffer.clone());
        Ok(buffer)
    }

    /// A new SDK thread for buffer callbacks ([`assign_callback_thread`](Self::assign_callback_thread)).
    /// (The SDK also allows this before the window; only after it is it locked.)
    #[doc(alias = "rocprofiler_create_callback_thread")]
    pub fn create_callback_thread(&mut self) -> Result<CallbackThread> {
        let mut t = sys::rocprofiler_callback_thread_t { handle: 0 };
        check(
            // SAFETY: a valid out-pointer.
            unsafe { self.lib.sys().rocprofiler_create_callback_thread(&mut t) },
            "rocprofiler_create_callback_thread",
        )?;
        Ok(CallbackThread(t.handle))
    }

    /// Delivers `buffer`'s records on `thread` (one the SDK made, or
    /// [`CallbackThread::INTERNAL`]) from now on. The buffer's consumers still run on its decode
    /// thread; this moves only the SDK's side (the copy out of its buffer).
    #[doc(alias = "rocprofiler_assign_callback_thread")]
    pub fn assign_callback_thread(&mut self, buffer: &Buffer, thread: CallbackThread) -> Result<()> {
        check(
            // SAFETY: plain ids, both from the SDK.
            unsafe {
                self.lib.sys().rocprofiler_assign_callback_thread(
                    buffer.raw(),
                    sys::rocprofiler_callback_thread_t { handle: thread.0 },
                )
            },
            "rocprofiler_assign_callback_thread",
        )
    }

    /// Records of `kind` in `ctx` go to `buffer`, for `ops` only (empty: every operation). Kind
    /// and operations are checked against the library's lists first, as for
    /// [`callback_tracing`](Self::callback_tracing).
    #[doc(alias = "rocprofiler_configure_buffer_tracing_service")]
    pub fn buffer_tracing(
        &mut self,
        ctx: &Context,
        kind: BufferKind,
        ops: &[Operation],
        buffer: &Buffer,
    ) -> Result<()> {
        let kinds: Vec<u32> = self.lib.buffer_kinds()?.into_iter().map(|k| k.0).collect();
        validate(&kinds, kind.0, || self.lib.buffer_operations(kind), ops)?;
        if kind == BufferKind::MARKER_CORE_API {
            self.shared.markers.want();
        }
        let (p, n) = ops_arg(ops);
        check(
            // SAFETY: `p` holds `n` ops; plain ids.
            unsafe {
                self.lib.sys().rocprofiler_configure_buffer_tracing_service(
                    ctx.raw(),
                    sys::rocprofiler_buffer_tracing_kind_t(kind.0),
                    p,
                    n,
                    buffer.raw(),
                )
            },
            "rocprofiler_configure_buffer_tracing_service",
        )
    }

    /// Dispatch counting into `buffer`: before each kernel on the context's agents, `choose`
    /// picks its counters ([`CountingRequest::collect`]). The values are written into `buffer`
    /// later, by the SDK's counting thread, and reach the consumers as counter rows (one per
    /// dispatch and counter, its dimension instances summed) once the buffer is delivered: after
    /// [`Context::stop`] (the drain) and a [`Buffer::flush`], or at the buffer's watermark.
    /// `choose` runs on the thread that launches the kernel, after the KERNEL_DISPATCH ENQUEUE
    /// ENTER callbacks and before ENQUEUE EXIT.
    #[doc(alias = "rocprofiler_configure_buffer_dispatch_counting_service")]
    pub fn dispatch_counting_buffered<F>(&mut self, ctx: &Context, buffer: &Buffer, choose: F) -> Result<()>
    where
        F: Fn(&mut CountingRequest<'_>) + Send + Sync + 'static,
    {
        let service = self.counting_service(Box::new(choose), None);
        check(
            // SAFETY: the trampoline matches the callback type; the service is leaked.
            unsafe {
                self.lib.sys().rocprofiler_configure_buffer_dispatch_counting_service(
                    ctx.raw(),
                    buffer.raw(),
                    Some(dispatch_trampoline),
                    service,
                )
            },
            "rocprofiler_configure_buffer_dispatch_counting_service",
        )
    }

    /// Dispatch counting with results by callback: `choose` picks each kernel's counters,
    /// `results` gets them some time after the kernel completed, on the SDK's counting thread
    /// (at the latest when the context is [stopped](Context::stop), which waits for them); one
    /// value per dimension instance of each counter. `results` must not stop a context (the
    /// stop would wait for the thread running it).
    #[doc(alias = "rocprofiler_configure_callback_dispatch_counting_service")]
    pub fn dispatch_counting_callback<F, R>(&mut self, ctx: &Context, choose: F, results: R) -> Result<()>
    where
        F: Fn(&mut CountingRequest<'_>) + Send + Sync + 'static,
        R: Fn(&CountingResult) + Send + Sync + 'static,
    {
        let service = self.counting_service(Box::new(choose), Some(Box::new(results)));
        check(
            // SAFETY: the trampolines match the callback types; the service is leaked.
            unsafe {
                self.lib.sys().rocprofiler_configure_callback_dispatch_counting_service(
                    ctx.raw(),
                    Some(dispatch_trampoline),
                    service,
                    Some(record_trampoline),
                    service,
                )
            },
            "rocprofiler_configure_callback_dispatch_counting_service",
        )
    }

    fn counting_service(
        &self,
        dispatch: crate::counters::dispatch_counting::DispatchFn,
        record: Option<crate::counters::dispatch_counting::RecordFn>,
    ) -> *mut std::ffi::c_void {
        let service: &'static CountingService = Box::leak(Box::new(CountingService {
            dispatch,
            record,
            lib: self.lib,
            panics: AtomicU64::new(0),
        }));
        service as *const CountingService as *mut std::ffi::c_void
    }

    fn ensure_internal_context(&mut self) -> Result<()> {
        if self.shared.internal.is_some() {
            return Ok(());
        }
        let ctx = self.create_context()?;
        let kernels = self.shared.kernels.clone();
        self.callback_tracing(&ctx, CallbackDomain::CODE_OBJECT, &[], move |r| {
            if let Some((id, name)) = r.kernel_symbol() {
                kernels.insert(id.0, &name.to_string_lossy());
            }
        })?;
        let markers = self.shared.markers.clone();
        self.callback_tracing(&ctx, CallbackDomain::MARKER_CORE_API, &[], move |r| {
            if r.site() == CallbackSite::ENTER && markers.wanted() {
                if let Some(message) = r.marker_message() {
                    markers.insert(r.correlation().internal, message);
                }
            }
        })?;
        ctx.start()?;
        self.shared.internal = Some(ctx);
        Ok(())
    }
}
