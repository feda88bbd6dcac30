//! External correlation: tag the CUDA calls a thread makes with an id of the caller's (a framework op, a
//! request), linked to CUPTI's correlation ids by EXTERNAL_CORRELATION records.
//!
//! CUPTI keeps one stack of ids per thread and per kind: a push on one thread tags the API calls of that
//! thread only. [`ExternalCorrelation`] pops on drop, on the thread that pushed (it is not `Send`).

use std::fmt;
use std::marker::PhantomData;

use cupti_sys::CUpti_ExternalCorrelationKind;

use crate::{Cupti, Result};

/// `CUpti_ExternalCorrelationKind`: which stack an id goes on. Any value is representable.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct ExternalCorrelationKind(pub u32);

impl ExternalCorrelationKind {
    /// `CUPTI_EXTERNAL_CORRELATION_KIND_UNKNOWN`.
    pub const UNKNOWN: Self = Self(1);
    /// `CUPTI_EXTERNAL_CORRELATION_KIND_OPENACC`.
    pub const OPENACC: Self = Self(2);
    /// `CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0` (PyTorch's Kineto uses it for operator ids).
    pub const CUSTOM0: Self = Self(3);
    /// `CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1`.
    pub const CUSTOM1: Self = Self(4);
    /// `CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2`.
    pub const CUSTOM2: Self = Self(5);
}

impl fmt::Debug for ExternalCorrelationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match *self {
            Self::UNKNOWN => "UNKNOWN",
            Self::OPENACC => "OPENACC",
            Self::CUSTOM0 => "CUSTOM0",
            Self::CUSTOM1 => "CUSTOM1",
            Self::CUSTOM2 => "CUSTOM2",
            _ => return write!(f, "ExternalCorrelationKind({})", self.0),
        };
        write!(f, "ExternalCorrelationKind::{name}")
    }
}

impl Cupti {
    /// Pushes `id` on the calling thread's stack of `kind`: CUDA API calls this thread makes until the
    /// matching pop are linked to `id` (EXTERNAL_CORRELATION records, when that kind is collected).
    ///
    /// While an activity session with user-defined records is live, the id goes on that session's
    /// subscriber's stack (`cuptiActivityPushExternalCorrelationId_v2`: CUPTI refuses the plain call then,
    /// and each subscriber keeps its own stacks); pop it before the session ends.
    #[doc(alias = "cuptiActivityPushExternalCorrelationId")]
    #[doc(alias = "cuptiActivityPushExternalCorrelationId_v2")]
    pub fn push_external_correlation(&self, kind: ExternalCorrelationKind, id: u64) -> Result<()> {
        let kind = CUpti_ExternalCorrelationKind(kind.0);
        if let Some(sub) = super::api::live_subscriber() {
            // SAFETY: plain values; a live subscriber.
            let r = unsafe { self.functions().cuptiActivityPushExternalCorrelationId_v2(sub.0, kind, id) };
            return self.check("cuptiActivityPushExternalCorrelationId_v2", r);
        }
        // SAFETY: plain values.
        let r = unsafe { self.functions().cuptiActivityPushExternalCorrelationId(kind, id) };
        self.check("cuptiActivityPushExternalCorrelationId", r)
    }

    /// Pops the top id of the calling thread's stack of `kind` and returns it; `Ok(None)` when the
    /// stack is empty (CUPTI's `CUPTI_ERROR_QUEUE_EMPTY`).
    #[doc(alias = "cuptiActivityPopExternalCorrelationId")]
    #[doc(alias = "cuptiActivityPopExternalCorrelationId_v2")]
    pub fn pop_external_correlation(&self, kind: ExternalCorrelationKind) -> Result<Option<u64>> {
        match self.pop_external_correlation_raw(kind) {
            Ok(id) => Ok(Some(id)),
            Err(crate::Error::QueueEmpty { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn pop_external_correlation_raw(&self, kind: ExternalCorrelationKind) -> Result<u64> {
        let mut id = 0;
        let kind = CUpti_ExternalCorrelationKind(kind.0);
        if let Some(sub) = super::api::live_subscriber() {
            // SAFETY: `id` is a valid out-pointer for the call; a live subscriber.
            let r =
                unsafe { self.functions().cuptiActivityPopExternalCorrelationId_v2(sub.0, kind, &mut id) };
            self.check("cuptiActivityPopExternalCorrelationId_v2", r)?;
            return Ok(id);
        }
        // SAFETY: `id` is a valid out-pointer for the call.
        let r = unsafe { self.functions().cuptiActivityPopExternalCorrelationId(kind, &mut id) };
        self.check("cuptiActivityPopExternalCorrelationId", r)?;
        Ok(id)
    }

    /// Pushes `id` for the lifetime of the returned guard, which pops it on drop (on this thread: the
    /// guard is not `Send`).
    pub fn external_correlation(
        &self,
        kind: ExternalCorrelationKind,
        id: u64,
    ) -> Result<ExternalCorrelation<'_>> {
        self.push_external_correlation(kind, id)?;
        Ok(ExternalCorrelation { cupti: self, kind, id, _not_send: PhantomData })
    }
}

/// An external correlation id pushed on this thread; popped when dropped.
///
/// ```compile_fail
/// fn needs_send<T: Send>(_: T) {}
/// fn check(guard: cupti::activity::ExternalCorrelation<'static>) { needs_send(guard) }
/// ```
#[must_use = "the id is popped as soon as the guard is dropped"]
pub struct ExternalCorrelation<'lib> {
    cupti: &'lib Cupti,
    kind: ExternalCorrelationKind,
    id: u64,
    _not_send: PhantomData<*const ()>,
}

impl ExternalCorrelation<'_> {
    /// The id pushed.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The stack it is on.
    pub fn kind(&self) -> ExternalCorrelationKind {
        self.kind
    }
}

impl Drop for ExternalCorrelation<'_> {
    fn drop(&mut self) {
        // Nothing to report to: a failed pop leaves CUPTI's stack as it was.
        let _ = self.cupti.pop_external_correlation(self.kind);
    }
}

impl fmt::Debug for ExternalCorrelation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExternalCorrelation").field("kind", &self.kind).field("id", &self.id).finish()
    }
}
