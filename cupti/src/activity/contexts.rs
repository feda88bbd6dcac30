//! Nested external-correlation contexts: every subsystem (operators, collectives, user ranges) pushes on
//! one CUPTI kind, so CUPTI links each API call to the innermost id only. The whole stack active at each
//! push is kept here, so a consumer recovers every enclosing context from that innermost id, and
//! metadata (a collective's process group, sizes, ...) attaches to an id.
//!
//! This is the design of PyTorch's CUPTI monitor: no kind per subsystem (there are only five), no
//! shadowing, and a push CUPTI refuses still keeps pushes and pops balanced.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::ExternalCorrelationKind;
use crate::Cupti;

/// Process-unique instance ids (a thread's stacks are kept per instance).
static NEXT_INSTANCE: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// Per instance: this thread's active frames, outermost first, each `(id, CUPTI took the push)`.
    static STACKS: RefCell<HashMap<u64, Vec<(u64, bool)>>> = RefCell::new(HashMap::new());
}

/// Metadata of one context: ordered key/value pairs (a later value for a key replaces the earlier).
pub type Metadata = BTreeMap<String, String>;

/// Nested external-correlation contexts on one CUPTI kind (see the module docs).
///
/// ```no_run
/// use cupti::activity::{ExternalContexts, ExternalCorrelationKind};
///
/// let cupti = cupti::Cupti::open()?;
/// let contexts = ExternalContexts::new(&cupti, ExternalCorrelationKind::CUSTOM1);
/// let step = contexts.push();
/// let allreduce = contexts.push();
/// contexts.attach_current("process_group", "0:8");
/// // ... CUDA calls: CUPTI links them to `allreduce.id()` only ...
/// assert_eq!(contexts.chain(allreduce.id()), [step.id(), allreduce.id()]);
/// # Ok::<(), cupti::Error>(())
/// ```
pub struct ExternalContexts<'lib> {
    cupti: &'lib Cupti,
    kind: ExternalCorrelationKind,
    instance: u64,
    next_id: AtomicU64,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// The stack active when each id was pushed (outermost..id).
    chains: HashMap<u64, Arc<[u64]>>,
    metadata: HashMap<u64, Metadata>,
    /// Ids popped since the last [`ExternalContexts::retire`], and before that.
    popped: Vec<u64>,
    retiring: Vec<u64>,
}

impl<'lib> ExternalContexts<'lib> {
    /// Contexts pushed on CUPTI's stacks of `kind`, with ids from 1 on.
    pub fn new(cupti: &'lib Cupti, kind: ExternalCorrelationKind) -> Self {
        ExternalContexts {
            cupti,
            kind,
            instance: NEXT_INSTANCE.fetch_add(1, Ordering::Relaxed),
            next_id: AtomicU64::new(1),
            inner: Mutex::new(Inner::default()),
        }
    }

    /// The CUPTI kind the ids go on.
    pub fn kind(&self) -> ExternalCorrelationKind {
        self.kind
    }

    /// Enters a new context on this thread: a fresh id, pushed on CUPTI's stack, with the stack active
    /// now recorded as its chain. CUDA calls of this thread until the guard drops are linked to it. When
    /// CUPTI refuses the push (no driver, the kind not collected is fine), the frame is kept all the same
    /// (CUPTI goes on tagging with the enclosing id), so the pops stay balanced: see
    /// [`Context::pushed_to_cupti`].
    pub fn push(&self) -> Context<'_, 'lib> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let pushed = self.cupti.push_external_correlation(self.kind, id).is_ok();
        let chain: Arc<[u64]> = STACKS.with(|s| {
            let mut s = s.borrow_mut();
            let stack = s.entry(self.instance).or_default();
            stack.push((id, pushed));
            stack.iter().map(|&(id, _)| id).collect()
        });
        self.lock().chains.insert(id, chain);
        Context { owner: self, id, pushed, _not_send: PhantomData }
    }

    /// The id of this thread's innermost context (the one CUPTI links calls to now), if any.
    pub fn current(&self) -> Option<u64> {
        STACKS.with(|s| s.borrow().get(&self.instance).and_then(|stack| stack.last().map(|&(id, _)| id)))
    }

    /// Every context active when `innermost` was pushed, outermost first (ending with `innermost`).
    /// For an id not pushed here, or one retired, just `[innermost]`.
    pub fn chain(&self, innermost: u64) -> Vec<u64> {
        self.lock().chains.get(&innermost).map_or_else(|| vec![innermost], |c| c.to_vec())
    }

    /// Attaches `key = value` to context `id` (replacing an earlier value of `key`).
    pub fn attach(&self, id: u64, key: impl Into<String>, value: impl Into<String>) {
        self.lock().metadata.entry(id).or_default().insert(key.into(), value.into());
    }

    /// Attaches `key = value` to this thread's innermost context; false when there is none.
    pub fn attach_current(&self, key: impl Into<String>, value: impl Into<String>) -> bool {
        match self.current() {
            Some(id) => {
                self.attach(id, key, value);
                true
            }
            None => false,
        }
    }

    /// Takes the metadata attached so far, per id (each id's once).
    pub fn take_metadata(&self) -> HashMap<u64, Metadata> {
        std::mem::take(&mut self.lock().metadata)
    }

    /// One generation of forgetting: the chains of contexts popped before the previous call are dropped
    /// (their records have been delivered by then when the caller calls this once per delivery, after
    /// resolving them), those popped since are dropped at the next call.
    pub fn retire(&self) {
        let mut inner = self.lock();
        let retiring = std::mem::take(&mut inner.retiring);
        for id in retiring {
            inner.chains.remove(&id);
        }
        inner.retiring = std::mem::take(&mut inner.popped);
    }

    /// Chains kept now (live contexts and those not retired yet).
    pub fn chains_kept(&self) -> usize {
        self.lock().chains.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Pops the frame of `id` (this thread's innermost, by construction of the guards).
    fn pop(&self, id: u64, pushed: bool) {
        STACKS.with(|s| {
            let mut s = s.borrow_mut();
            if let Some(stack) = s.get_mut(&self.instance) {
                if let Some(at) = stack.iter().rposition(|&(i, _)| i == id) {
                    stack.remove(at);
                }
                if stack.is_empty() {
                    s.remove(&self.instance);
                }
            }
        });
        if pushed {
            // A failed pop leaves CUPTI's stack as it was; nothing to report it to.
            let _ = self.cupti.pop_external_correlation(self.kind);
        }
        self.lock().popped.push(id);
    }
}

impl fmt::Debug for ExternalContexts<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExternalContexts")
            .field("kind", &self.kind)
            .field("chains", &self.chains_kept())
            .finish()
    }
}

/// One context entered with [`ExternalContexts::push`]; left (popped) when dropped, on the thread that
/// entered it (it is not `Send`).
#[must_use = "the context is left as soon as the guard is dropped"]
pub struct Context<'a, 'lib> {
    owner: &'a ExternalContexts<'lib>,
    id: u64,
    pushed: bool,
    _not_send: PhantomData<*const ()>,
}

impl Context<'_, '_> {
    /// The id (what EXTERNAL_CORRELATION records carry while this is the innermost context).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Whether CUPTI took the push (if not, calls are linked to the enclosing context).
    pub fn pushed_to_cupti(&self) -> bool {
        self.pushed
    }

    /// Attaches `key = value` to this context.
    pub fn attach(&self, key: impl Into<String>, value: impl Into<String>) {
        self.owner.attach(self.id, key, value);
    }
}

impl Drop for Context<'_, '_> {
    fn drop(&mut self) {
        self.owner.pop(self.id, self.pushed);
    }
}

impl fmt::Debug for Context<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context").field("id", &self.id).field("pushed", &self.pushed).finish()
    }
}
