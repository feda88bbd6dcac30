//! [`ExternalIds`]: nested external-correlation contexts and their metadata, vendor-neutral.
//!
//! Every subsystem (operators, collectives, user ranges) pushes its ids on one vendor kind, so the
//! vendor links each API call (and through it each kernel) to the innermost id only. The whole
//! stack active at each push is kept here, so a consumer recovers every enclosing context from that
//! innermost id ([`ExternalIds::chain`]), and metadata (a collective's process group, sizes, ...)
//! attaches to an id ([`ExternalIds::add_metadata`], [`ExternalIds::take_metadata`]). This is the
//! design of PyTorch's CUPTI monitor, here for every vendor and without guards (a Python caller
//! pushes and pops in any order: an extra pop is a no-op, a frame the vendor refused is kept so
//! that the pops stay balanced).
//!
//! | vendor | where the ids go | records linking them |
//! | --- | --- | --- |
//! | CUPTI | `cuptiActivityPushExternalCorrelationId` (`_v2` under a user-defined-record subscriber), kind `CUSTOM1` | `EXTERNAL_CORRELATION` (family `external_correlation`) |
//! | MSPTI | `msptiActivityPushExternalCorrelationId`, kind `CUSTOM1` | `EXTERNAL_CORRELATION` |
//! | rocprofiler-sdk | nowhere: its external correlation ids belong to a context and a thread, set through the tool's own callbacks, and the tracer collects no such record | none; chains and metadata still work as bookkeeping |
//!
//! `CUSTOM1`, not `CUSTOM0`: PyTorch's profiler (Kineto) pushes its operator ids on `CUSTOM0`, and
//! both run in one process.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::{Map, Value};

#[cfg(any(feature = "cupti", feature = "mspti"))]
use super::Vendor;
use super::{LibraryInfo, Tracer};

/// Process-unique ids: every registry draws from one counter, so ids of two registries never meet
/// in one vendor stack.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);
/// Process-unique registry ids (a thread's stacks are kept per registry).
static NEXT_REGISTRY: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// Per registry: this thread's active frames, outermost first, each `(id, the vendor took it)`.
    static STACKS: RefCell<HashMap<u64, Vec<(u64, bool)>>> = RefCell::new(HashMap::new());
}

/// The vendor's per-thread stack of external ids.
trait VendorStack: Send + Sync {
    /// Pushes `id` on the calling thread's stack; whether the vendor took it.
    fn push(&self, id: u64) -> bool;
    /// Pops the calling thread's top id.
    fn pop(&self);
}

#[cfg(feature = "cupti")]
struct CuptiStack(&'static cupti::Cupti);

#[cfg(feature = "cupti")]
impl VendorStack for CuptiStack {
    fn push(&self, id: u64) -> bool {
        self.0.push_external_correlation(cupti::activity::ExternalCorrelationKind::CUSTOM1, id).is_ok()
    }
    fn pop(&self) {
        // A failed pop leaves the vendor's stack as it was; nothing to report it to.
        let _ = self.0.pop_external_correlation(cupti::activity::ExternalCorrelationKind::CUSTOM1);
    }
}

#[cfg(feature = "mspti")]
struct MsptiStack(&'static mspti::Mspti);

#[cfg(feature = "mspti")]
impl VendorStack for MsptiStack {
    fn push(&self, id: u64) -> bool {
        self.0.push_external_correlation(mspti::ExternalKind::CUSTOM1, id).is_ok()
    }
    fn pop(&self) {
        let _ = self.0.pop_external_correlation(mspti::ExternalKind::CUSTOM1);
    }
}

/// The vendor stack of the library `info` describes (the tracer's own: the process-wide handle
/// when it is that file, else a handle of its own, kept for the process as the tracer's are).
fn vendor_stack(info: &LibraryInfo) -> Option<Box<dyn VendorStack>> {
    match info.vendor {
        #[cfg(feature = "cupti")]
        Vendor::Cupti => {
            let cupti = match cupti::Cupti::global() {
                Ok(global) if global.path() == info.path => global,
                _ => &*Box::leak(Box::new(cupti::Cupti::open_path(&info.path).ok()?)),
            };
            Some(Box::new(CuptiStack(cupti)))
        }
        #[cfg(feature = "mspti")]
        Vendor::Mspti => {
            let mspti = match mspti::Mspti::global() {
                Ok(global) if global.path() == info.path => global,
                _ => &*Box::leak(Box::new(mspti::Mspti::open_path(&info.path).ok()?)),
            };
            Some(Box::new(MsptiStack(mspti)))
        }
        _ => None,
    }
}

#[derive(Default)]
struct State {
    /// The stack active when each id was pushed (outermost..id).
    chains: HashMap<u64, Arc<[u64]>>,
    /// Metadata per id, a JSON object each.
    metadata: HashMap<u64, Map<String, Value>>,
    /// Ids popped since the last [`ExternalIds::retire`], and those popped before it.
    popped: Vec<u64>,
    retiring: Vec<u64>,
}

struct Inner {
    registry: u64,
    vendor: Option<Box<dyn VendorStack>>,
    state: Mutex<State>,
}

/// Nested external-correlation contexts with their chains and metadata (see the module docs).
/// Cheap to clone (the clones share one registry); shared between threads, each thread with stacks
/// of its own, as the vendors keep them.
///
/// ```no_run
/// use accel_profiling::{ExternalIds, Tracer, TracerConfig};
///
/// let tracer = Tracer::new(TracerConfig::default())?;
/// let ids = ExternalIds::new(&tracer);
/// let step = ids.push();
/// let allreduce = ids.push();
/// ids.add_metadata(serde_json::json!({"process_group": "0:8"}).as_object().unwrap().clone());
/// // ... device calls: the vendor links them to `allreduce` only ...
/// assert_eq!(ids.chain(allreduce), [step, allreduce]);
/// ids.pop();
/// ids.pop();
/// # Ok::<(), accel_profiling::TracerError>(())
/// ```
#[derive(Clone)]
pub struct ExternalIds {
    inner: Arc<Inner>,
}

impl fmt::Debug for ExternalIds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExternalIds")
            .field("vendor_stack", &self.inner.vendor.is_some())
            .field("chains", &self.chains_kept())
            .finish()
    }
}

impl ExternalIds {
    /// Contexts whose ids go on the stacks of `tracer`'s vendor (see the module docs). Make one per
    /// tracer and share it: each registry keeps its own chains and per-thread stacks.
    pub fn new(tracer: &Tracer) -> ExternalIds {
        ExternalIds::with_stack(vendor_stack(tracer.library()))
    }

    /// Contexts kept here only, pushed to no vendor.
    pub fn bookkeeping_only() -> ExternalIds {
        ExternalIds::with_stack(None)
    }

    fn with_stack(vendor: Option<Box<dyn VendorStack>>) -> ExternalIds {
        ExternalIds {
            inner: Arc::new(Inner {
                registry: NEXT_REGISTRY.fetch_add(1, Ordering::Relaxed),
                vendor,
                state: Mutex::new(State::default()),
            }),
        }
    }

    /// Whether ids are pushed to a vendor's stacks (false on rocprofiler-sdk).
    pub fn has_vendor_stack(&self) -> bool {
        self.inner.vendor.is_some()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.inner.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Enters a new context on this thread: a fresh process-unique id, pushed on the vendor's stack,
    /// with the stack active now recorded as its chain. The vendor links this thread's calls to it
    /// until the matching [`pop`](Self::pop). When the vendor refuses the push, the frame is kept
    /// all the same (the vendor goes on linking to the enclosing id), so pops stay balanced.
    pub fn push(&self) -> u64 {
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let pushed = self.inner.vendor.as_ref().is_some_and(|v| v.push(id));
        let chain: Arc<[u64]> = STACKS.with(|s| {
            let mut s = s.borrow_mut();
            let stack = s.entry(self.inner.registry).or_default();
            stack.push((id, pushed));
            stack.iter().map(|&(id, _)| id).collect()
        });
        self.lock().chains.insert(id, chain);
        id
    }

    /// Leaves this thread's innermost context and returns its id (`None`, doing nothing, when this
    /// thread has none). The vendor's stack is popped only for a frame it took.
    pub fn pop(&self) -> Option<u64> {
        let (id, pushed) = STACKS.with(|s| {
            let mut s = s.borrow_mut();
            let stack = s.get_mut(&self.inner.registry)?;
            let top = stack.pop();
            if stack.is_empty() {
                s.remove(&self.inner.registry);
            }
            top
        })?;
        if pushed {
            if let Some(vendor) = &self.inner.vendor {
                vendor.pop();
            }
        }
        self.lock().popped.push(id);
        Some(id)
    }

    /// The id of this thread's innermost context (the one the vendor links calls to now), if any.
    pub fn current(&self) -> Option<u64> {
        STACKS
            .with(|s| s.borrow().get(&self.inner.registry).and_then(|stack| stack.last().map(|&(id, _)| id)))
    }

    /// Every context active when `innermost` was pushed, outermost first (ending with `innermost`).
    /// For an id not pushed here, or one retired, just `[innermost]`.
    pub fn chain(&self, innermost: u64) -> Vec<u64> {
        self.lock().chains.get(&innermost).map_or_else(|| vec![innermost], |c| c.to_vec())
    }

    /// Merges `fields` into the metadata of context `id`, recursively: objects combine, and for a
    /// key both have that is not an object in both, the later value wins.
    pub fn put_metadata(&self, id: u64, fields: Map<String, Value>) {
        let mut state = self.lock();
        merge(state.metadata.entry(id).or_default(), fields);
    }

    /// [`put_metadata`](Self::put_metadata) on this thread's innermost context; its id, or `None`
    /// (nothing attached) when this thread has none.
    pub fn add_metadata(&self, fields: Map<String, Value>) -> Option<u64> {
        let id = self.current()?;
        self.put_metadata(id, fields);
        Some(id)
    }

    /// Takes the metadata attached so far, per id (each attachment is handed over once).
    pub fn take_metadata(&self) -> HashMap<u64, Map<String, Value>> {
        std::mem::take(&mut self.lock().metadata)
    }

    /// One generation of forgetting: the chains of contexts popped before the previous call are
    /// dropped, those popped since at the next call. Call it once per delivery (a flush), after
    /// resolving the delivered records' ids: a popped context's records arrive after its pop.
    pub fn retire(&self) {
        let mut state = self.lock();
        for id in std::mem::take(&mut state.retiring) {
            state.chains.remove(&id);
        }
        state.retiring = std::mem::take(&mut state.popped);
    }

    /// Chains kept now (live contexts and those not retired yet).
    pub fn chains_kept(&self) -> usize {
        self.lock().chains.len()
    }
}

/// `into` with `from` merged in (see [`ExternalIds::put_metadata`]).
fn merge(into: &mut Map<String, Value>, from: Map<String, Value>) {
    for (key, value) in from {
        match (into.get_mut(&key), value) {
            (Some(Value::Object(old)), Value::Object(new)) => merge(old, new),
            (_, value) => {
                into.insert(key, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(v: Value) -> Map<String, Value> {
        v.as_object().expect("an object").clone()
    }

    #[test]
    fn chains_hold_every_enclosing_context_and_pops_are_balanced() {
        let ids = ExternalIds::bookkeeping_only();
        assert_eq!(ids.pop(), None, "nothing to pop");
        let outer = ids.push();
        let inner = ids.push();
        assert_ne!(outer, inner);
        assert_eq!(ids.current(), Some(inner));
        assert_eq!(ids.chain(inner), [outer, inner]);
        assert_eq!(ids.chain(outer), [outer]);
        assert_eq!(ids.chain(u64::MAX), [u64::MAX], "an id not pushed here");
        assert_eq!(ids.pop(), Some(inner));
        assert_eq!(ids.current(), Some(outer));
        let sibling = ids.push();
        assert_eq!(ids.chain(sibling), [outer, sibling]);
        assert_eq!(ids.pop(), Some(sibling));
        assert_eq!(ids.pop(), Some(outer));
        assert_eq!(ids.pop(), None, "an extra pop does nothing");
        assert_eq!(ids.current(), None);
        // Chains outlive the pops by one retire (their records arrive later).
        assert_eq!(ids.chain(inner), [outer, inner]);
        ids.retire();
        assert_eq!(ids.chain(inner), [outer, inner]);
        ids.retire();
        assert_eq!(ids.chain(inner), [inner]);
        assert_eq!(ids.chains_kept(), 0);
    }

    #[test]
    fn stacks_are_per_thread_and_per_registry() {
        let ids = ExternalIds::bookkeeping_only();
        let other = ExternalIds::bookkeeping_only();
        let outer = ids.push();
        let elsewhere = {
            let ids = ids.clone();
            std::thread::spawn(move || {
                assert_eq!(ids.current(), None, "another thread's stack is empty");
                let id = ids.push();
                (id, ids.chain(id))
            })
            .join()
            .unwrap()
        };
        assert_eq!(elsewhere.1, [elsewhere.0], "no enclosing context from another thread");
        assert_eq!(other.current(), None, "another registry's stack is empty");
        assert_eq!(ids.pop(), Some(outer));
    }

    #[test]
    fn metadata_merges_recursively_and_is_taken_once() {
        let ids = ExternalIds::bookkeeping_only();
        assert_eq!(ids.add_metadata(object(json!({"a": 1}))), None, "no context: nothing attached");
        let id = ids.push();
        assert_eq!(ids.add_metadata(object(json!({"pg": {"name": "0", "ranks": [0, 1]}, "n": 1}))), Some(id));
        assert_eq!(ids.add_metadata(object(json!({"pg": {"size": 2}, "n": 2}))), Some(id));
        let taken = ids.take_metadata();
        assert_eq!(taken.len(), 1);
        assert_eq!(
            Value::Object(taken[&id].clone()),
            json!({"pg": {"name": "0", "ranks": [0, 1], "size": 2}, "n": 2})
        );
        assert!(ids.take_metadata().is_empty(), "taken once");
        ids.pop();
    }
}
