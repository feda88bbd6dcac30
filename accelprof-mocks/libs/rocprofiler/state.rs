//! The library's global state, behind one lock that is never held while a tool callback runs.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, OnceLock};

use crate::buffers::Buffer;
use crate::dispatch::InFlight;
use crate::*;

pub const CONTEXT_OFFSET: u64 = 0x1000;
pub const BUFFER_OFFSET: u64 = 0x2000;
pub const CONFIG_OFFSET: u64 = 0xC0F0_0000;
pub const CLIENT_OFFSET: u32 = 0x5150;

/// A tool found by the configure step.
pub struct Client {
    /// Where it was found (`(forced)`, a library path, ...), for diagnostics.
    pub origin: String,
    pub configure: unsafe extern "C" fn(
        u32,
        *const std::ffi::c_char,
        u32,
        *mut rocprofiler_client_id_t,
    ) -> *mut rocprofiler_tool_configure_result_t,
    /// Handed to `rocprofiler_configure`; boxed so the tool may keep the pointer.
    pub id: Box<rocprofiler_client_id_t>,
    pub result: Option<rocprofiler_tool_configure_result_t>,
}

/// A callback tracing service: callback, its data, and the operations (empty = all).
#[derive(Clone)]
pub struct CallbackService {
    pub callback: rocprofiler_callback_tracing_cb_t,
    pub data: Ptr,
    pub ops: Vec<i32>,
}

/// A buffer tracing service: the buffer and the operations (empty = all).
#[derive(Clone)]
pub struct BufferService {
    pub buffer: u64,
    pub ops: Vec<i32>,
}

/// One configured dispatch counting service (a context may hold several).
#[derive(Clone)]
pub struct CountingService {
    pub dispatch_cb: rocprofiler_dispatch_counting_service_cb_t,
    pub dispatch_args: Ptr,
    pub buffer: Option<u64>,
    pub record_cb: rocprofiler_dispatch_counting_record_cb_t,
    pub record_args: Ptr,
}

pub struct Context {
    pub handle: u64,
    pub client: u32,
    pub active: bool,
    /// Deregistered when its tool's `rocprofiler_configure` returned NULL.
    pub registered: bool,
    pub callback: HashMap<u32, CallbackService>,
    pub buffered: HashMap<u32, BufferService>,
    pub counting: Vec<CountingService>,
    /// `set_agents`: None = every GPU agent.
    pub agents: Option<Vec<u64>>,
    /// Its counting callbacks were added to the queues (at its first start, under the queues'
    /// callback write-lock).
    pub queue_callbacks: bool,
}

impl Context {
    /// GPU agents this context's counting covers.
    pub fn counting_agents(&self) -> Vec<u64> {
        match &self.agents {
            Some(list) => list.clone(),
            None => crate::agents::gpu_handles(),
        }
    }
}

pub struct CounterConfig {
    pub agent: u64,
    pub counters: Vec<u64>,
}

#[derive(Default)]
pub struct State {
    /// 0 before configuration, -1 while tools are configured (the window), 1 after.
    pub init_status: i32,
    /// 0 before finalization, -1 while finalizing, 1 after.
    pub fini_status: i32,
    /// Configure functions passed to `rocprofiler_force_configure`, in order (each once).
    pub forced: Vec<rocprofiler_configure_func_t>,
    pub registered_configure: rocprofiler_configure_func_t,
    pub clients: Vec<Client>,
    /// The client whose initialize is running (contexts are created for it; none while
    /// `rocprofiler_configure` runs, where creating a context trips the SDK's assert).
    pub current_client: Option<u32>,
    pub contexts: Vec<Context>,
    pub buffers: Vec<Buffer>,
    pub configs: Vec<Option<CounterConfig>>,
    /// Per agent: how many active counting contexts serialize its dispatches.
    pub serialization: HashMap<u64, i64>,
    pub next_correlation: u64,
    pub next_dispatch: u64,
    pub next_kernel: u64,
    pub kernels: HashMap<u64, String>,
    pub in_flight: HashMap<u64, InFlight>,
    /// Dispatches that are done: (serialized, number of counting callbacks invoked).
    pub finished: HashMap<u64, (bool, u32)>,
    pub callback_threads: u64,
    /// Whether `rocprofiler_force_configure` after the window starts a tool late (the newest
    /// SDKs) or answers CONFIGURATION_LOCKED (SDKs before late start).
    pub no_late_start: bool,
}

impl State {
    pub fn context(&self, handle: u64) -> Option<&Context> {
        let idx = handle.checked_sub(CONTEXT_OFFSET)? as usize;
        self.contexts.get(idx).filter(|c| c.registered)
    }

    pub fn context_mut(&mut self, handle: u64) -> Option<&mut Context> {
        let idx = handle.checked_sub(CONTEXT_OFFSET)? as usize;
        self.contexts.get_mut(idx).filter(|c| c.registered)
    }

    pub fn buffer_mut(&mut self, handle: u64) -> Option<&mut Buffer> {
        let idx = handle.checked_sub(BUFFER_OFFSET)? as usize;
        self.buffers.get_mut(idx).filter(|b| !b.destroyed)
    }

    pub fn config(&self, handle: u64) -> Option<&CounterConfig> {
        let idx = handle.checked_sub(CONFIG_OFFSET)? as usize;
        self.configs.get(idx)?.as_ref()
    }

    /// True while the configure window is open.
    pub fn in_window(&self) -> bool {
        self.init_status == -1
    }

    pub fn new_correlation(&mut self) -> u64 {
        self.next_correlation += 1;
        self.next_correlation
    }

    pub fn active_contexts(&self) -> impl Iterator<Item = &Context> {
        self.contexts.iter().filter(|c| c.registered && c.active)
    }
}

pub fn state() -> MutexGuard<'static, State> {
    static STATE: OnceLock<Mutex<State>> = OnceLock::new();
    STATE.get_or_init(|| Mutex::new(State::default())).lock().unwrap_or_else(|e| e.into_inner())
}

// SAFETY: the raw pointers inside (tool data, client names, user data) belong to the tools; the
// mock only stores them and hands them back to the tools' callbacks, from whichever thread the
// SDK would use.
unsafe impl Send for State {}
