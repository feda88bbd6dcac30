use super::route::RouteSlot;
use super::ActivityError;

/// How far a flush reaches into the vendor's buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlushDepth {
    /// The buffers the vendor has completed (CUPTI: `cuptiActivityFlushAll(0)`; a vendor without a lighter
    /// call does what [`All`](Self::All) does).
    Completed,
    /// Every buffer, the partly filled one too, without cutting short records still being written
    /// (CUPTI's unforced flush, which hands over partly filled buffers whose records are complete;
    /// `msptiActivityFlushAll`; `rocprofiler_flush_buffer`).
    All,
    /// Every buffer, records still being written included (CUPTI's forced flush: a kernel still running
    /// comes back with `end = 0` and is never delivered again). Only the end of a session asks for it, and
    /// only while the vendor still holds buffers.
    Forced,
}

/// The vendor side of an activity [`Session`](super::Session): how the session reaches the vendor's
/// activity API. Each vendor crate implements it once (`<vendor>/src/activity/backend.rs`); everything
/// else a session does is written once in [`Session`](super::Session).
///
/// Every method is called off the vendor's threads, from the session's caller, never from a buffer
/// callback, and never with a lock held that a consumer can wait for.
pub trait ActivityBackend: Send + Sync {
    /// The vendor's activity kind.
    type Kind: Copy + PartialEq + std::fmt::Debug + Send + Sync;
    /// The vendor crate's error.
    type Error: From<ActivityError>;
    /// What each session hands its buffer callbacks through the route (the decoder's shared state, ...).
    type RouteData: Send + Sync + 'static;
    /// What only this vendor counts ([`ActivityCounts::vendor`](super::ActivityCounts::vendor)).
    type Extras: Clone + Default;

    /// The vendor's name, for messages (`"CUPTI"`).
    const VENDOR: &'static str;

    /// The process-wide route of the vendor's buffer callbacks and this session's data for them, for a
    /// vendor whose callbacks carry no user data (CUPTI, MSPTI): the route is also the one-session guard.
    /// `None` for a vendor that hands each session's callback its own data (rocprofiler-sdk). Called once,
    /// when the session is made.
    fn route(&self) -> Option<(&'static RouteSlot<Self::RouteData>, Self::RouteData)> {
        None
    }

    /// Registers the buffer callbacks; called once, after the route is attached.
    fn register(&self) -> Result<(), Self::Error> {
        Ok(())
    }

    /// Enables records of `kind`. On error nothing of it stays enabled.
    fn enable(&self, kind: Self::Kind) -> Result<(), Self::Error>;

    /// Disables records of `kind`.
    fn disable(&self, kind: Self::Kind) -> Result<(), Self::Error>;

    /// Switches collection as a whole on (after the kinds were enabled) or off (before they are disabled),
    /// for a vendor whose switch is not per kind (rocprofiler-sdk's context); default: nothing.
    fn collect(&self, on: bool) -> Result<(), Self::Error> {
        let _ = on;
        Ok(())
    }

    /// Makes the vendor hand over its buffers, to `depth`.
    fn flush(&self, depth: FlushDepth) -> Result<(), Self::Error>;

    /// Records the vendor reports it dropped since the last call (0 when it reports none this way).
    fn take_dropped(&self) -> u64 {
        0
    }

    /// The kind the fence probe needs enabled while a fence waits (CUPTI: SYNCHRONIZATION), if any.
    fn fence_kind(&self) -> Option<Self::Kind> {
        None
    }

    /// Starts a fence: the vendor's clock now, when a probe can tell that records of work issued before
    /// this point have all been delivered; `None` (the default): the vendor's flush hands over everything
    /// written before it, so one flush and one wait are the fence.
    fn fence_mark(&self) -> Result<Option<u64>, Self::Error> {
        Ok(None)
    }

    /// Makes the device finish the work issued so far (which also makes the vendor write the record the
    /// probe waits for); whether any work could exist (`false`: no context, nothing to wait for).
    fn synchronize(&self) -> Result<bool, Self::Error> {
        Ok(false)
    }

    /// Whether a record past `mark` has been decoded (everything before it has then been delivered: the
    /// vendor hands buffers over in fill order).
    fn fence_reached(&self, mark: u64) -> bool {
        let _ = mark;
        true
    }

    /// The vendor's extra tallies now.
    fn extras(&self) -> Self::Extras {
        Self::Extras::default()
    }

    /// The session has ended: its route is detached and no buffer callback reaches it any more.
    fn ended(&self) {}
}
