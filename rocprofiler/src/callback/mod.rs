//! Callback tracing: a closure runs on the application's thread at ENTER and EXIT of each traced
//! call, with the call's own entry/exit slot. Asynchronous work reports its completion later, on
//! HSA's async-signal thread: a kernel's KERNEL_DISPATCH COMPLETE (site NONE; ENQUEUE ENTER and
//! EXIT on the launching thread), a memory copy's EXIT (its ENTER at submit, times 0).
//!
//! The vocabulary is the one of every vendor crate: a [`Subscriber`] (a callback-tracing closure on
//! a context, made by [`Configurator::callback_tracing`](crate::Configurator::callback_tracing))
//! gets a [`CallbackData`] with its [`CallbackDomain`](crate::CallbackDomain) (the SDK's tracing
//! kind), [`CallbackId`](crate::CallbackId) (kind and operation), [`CallbackSite`](crate::CallbackSite)
//! (the SDK's phase) and [`CorrelationSlot`] (over the SDK's per-call `rocprofiler_user_data_t`).
//! The closure, its panics and its lifetime are the shared core's ([`accelprof_core::callback`]);
//! the SDK keeps one service per kind per context, so no switchboard is needed.

mod data;
mod subscriber;
mod trampoline;

pub use accelprof_core::callback::CorrelationSlot;
pub use data::{CallbackData, DispatchInfo, KernelDispatch, MemoryCopy};
pub(crate) use subscriber::configure;
pub use subscriber::Subscriber;
