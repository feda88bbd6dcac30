//! [`Subscriber`]: a callback-tracing closure on a context.

use std::fmt;

use accelprof_core::callback::{Callback, Handler};
use rocprofiler_sys as sys;

use super::data::CallbackData;
use super::trampoline::{trampoline, Service, Tracing};
use crate::error::{check, Result};
use crate::ids::{CallbackDomain, Operation};
use crate::library::{OperationNames, Rocprofiler};
use crate::tool::Context;

/// A callback-tracing closure configured on a context
/// ([`Configurator::callback_tracing`](crate::Configurator::callback_tracing)): the SDK calls it
/// for every traced call of its domain, on the calling thread.
///
/// The SDK has no way to remove a callback service, so the closure lives as long as the process;
/// this handle only reports on it (and may be copied and dropped freely). A panic in the closure
/// is caught (it never reaches the SDK) and counted here.
#[derive(Clone, Copy)]
pub struct Subscriber {
    service: &'static Service,
}

impl Subscriber {
    accelprof_core::subscriber_facade! {
        vendor: "rocprofiler-sdk",
        handler: |s| &s.service.handler,
    }

    /// The domain (tracing kind) it traces.
    pub fn domain(&self) -> CallbackDomain {
        self.service.domain
    }

    /// The SDK's handle of the context it traces in.
    pub fn context_id(&self) -> u64 {
        self.service.context
    }
}

impl fmt::Debug for Subscriber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Subscriber")
            .field("domain", &self.domain())
            .field("context", &self.context_id())
            .field("panics", &self.panics())
            .finish()
    }
}

/// Configures the callback tracing service of `domain` in `ctx` for `ops` (empty: every
/// operation), calling `f`: `rocprofiler_configure_callback_tracing_service` with the trampoline
/// and a leaked [`Service`]. The caller checked `domain` and `ops` against the library's lists.
pub(crate) fn configure<F>(
    lib: &'static Rocprofiler,
    ctx: &Context,
    domain: CallbackDomain,
    ops: &[Operation],
    f: F,
) -> Result<Subscriber>
where
    F: Fn(&CallbackData<'_>) + Send + Sync + 'static,
{
    let service: &'static Service = Box::leak(Box::new(Service {
        handler: Handler::new(Callback::<Tracing>::new(f)),
        names: OperationNames::callback(lib, domain),
        lib,
        domain,
        context: ctx.id(),
    }));
    let (p, n) = if ops.is_empty() { (std::ptr::null(), 0) } else { (ops.as_ptr().cast::<i32>(), ops.len()) };
    check(
        // SAFETY: the trampoline matches the callback type; the service is leaked; `p` holds `n`
        // operations (`Operation` is a transparent `i32`).
        unsafe {
            lib.sys().rocprofiler_configure_callback_tracing_service(
                ctx.raw(),
                sys::rocprofiler_callback_tracing_kind_t(domain.0),
                p,
                n,
                Some(trampoline),
                (service as *const Service).cast_mut().cast(),
            )
        },
        "rocprofiler_configure_callback_tracing_service",
    )?;
    Ok(Subscriber { service })
}
