//! `accelprof._native`: the root package's [`Tracer`] for Python.
//!
//! The way of a record: the vendor's buffers are decoded into column batches on the vendor
//! pipeline's decode thread (no GIL); each observer's consumer, on that same thread, encodes its
//! families into Arrow record batches (no GIL), keeps the columns it selected and queues them; one
//! dispatch thread per tracer takes the GIL per batch, hands each record batch to pyarrow through
//! the Arrow C data interface (no copy, no Python object per record) and calls the observer. A
//! callback that raises is counted (`callback_errors`) and its first error printed, never raised
//! into the traced program. Nothing queued is dropped: rows whose observer left before they were
//! handed over are counted (`rows_unregistered`); at interpreter exit the `atexit` hook waits for
//! the queued ones (rows a Ctrl-C made it leave are counted on stderr), and no thread of ours enters
//! Python after it.

use std::cell::Cell;
use std::collections::HashMap;
use std::mem::ManuallyDrop;
use std::ops::Deref;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{JoinHandle, ThreadId};
use std::time::Duration;

use accel_profiling::accelprof_core::columns::{Family, PerFamily};
use accel_profiling::accelprof_core::pipeline::ConsumerId;
use accel_profiling::{
    Batch, ExternalIds, FamilySet, Names, Output, Synchronize, Tracer, TracerConfig, TracerCounts, Vendor,
};
use accelprof_export::arrow::{schema, ArrowEncoder};
use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch, StructArray};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::PyDict;
use pyo3::{PyTraverseError, PyVisit};
use serde_json::{json, Map, Value};

#[cfg(feature = "mocks")]
mod testing;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A family by its name (`kernel`, `api`, ...).
fn family(name: &str) -> PyResult<Family> {
    Family::ALL.into_iter().find(|f| f.name() == name).ok_or_else(|| {
        let known: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
        PyValueError::new_err(format!("no record family {name:?} (the families: {})", known.join(", ")))
    })
}

/// The column names of a family's record batches.
#[pyfunction]
fn columns(name: &str) -> PyResult<Vec<String>> {
    Ok(schema(family(name)?).fields().iter().map(|f| f.name().clone()).collect())
}

/// Every family's name.
#[pyfunction]
fn families() -> Vec<&'static str> {
    Family::ALL.iter().map(|f| f.name()).collect()
}

/// What the decode thread hands the dispatch thread.
enum Msg {
    /// One observer's record batches of one vendor batch.
    Deliver { observer: u64, batches: Vec<(Family, RecordBatch)>, rows: u64 },
    /// Everything queued before this was handed over.
    Fence(mpsc::SyncSender<()>),
    /// Everything queued before this was handed over: let go of the tracer's Python object (kept
    /// alive by its `__del__` until then, so that its callbacks are whole when they get the last
    /// batches).
    Release(Py<PyAny>),
    /// The tracer is gone: end the thread.
    Stop,
}

/// What the consumers, the dispatch thread and the methods share.
#[derive(Default)]
struct Shared {
    callbacks: Mutex<HashMap<u64, Py<PyAny>>>,
    batches_handed: AtomicU64,
    rows_handed: AtomicU64,
    rows_unregistered: AtomicU64,
    rows_unencodable: AtomicU64,
    callback_errors: AtomicU64,
    import_errors: AtomicU64,
    first_error: Mutex<Option<String>>,
    queued: AtomicU64,
    /// The rows of the `queued` deliveries.
    queued_rows: AtomicU64,
    /// Deliveries queued, and those the dispatch thread is done with (the exit hook waits for the
    /// ones queued before it began, not for those of a tracer still running).
    sent: AtomicU64,
    done: AtomicU64,
    /// Whether the dispatch thread runs (set before it starts, cleared when it ends, a panic too).
    dispatching: AtomicBool,
    dispatch_thread: Mutex<Option<ThreadId>>,
}

/// Set at interpreter exit (the `atexit` hook, [`at_exit`]): from then on no dispatch thread enters
/// Python. A thread taking the GIL while the interpreter finalizes is ended by Python inside our
/// frames (or trips `PyGILState_Release`): the process aborted or crashed at exit.
static EXITING: AtomicBool = AtomicBool::new(false);
/// Dispatch threads between their check of [`EXITING`] and leaving Python: the exit hook waits
/// for them (SeqCst on both sides: a thread either sees `EXITING` or is counted here).
static ENTERING: AtomicU64 = AtomicU64::new(0);
/// The thread that ran the exit hook (the one that finalizes the interpreter).
static EXIT_THREAD: std::sync::OnceLock<ThreadId> = std::sync::OnceLock::new();

/// `py.allow_threads(f)`, except that another thread finishing `f` once the exit hook ran (a
/// daemon thread) sleeps for good instead of taking the GIL back: the interpreter is finalizing,
/// and CPython (before 3.14) ends a thread that takes the GIL then inside our frames, which
/// aborts the process. The process's exit ends the sleeper.
pub(crate) fn released<T, F>(py: Python<'_>, f: F) -> T
where
    F: Send + FnOnce() -> T,
    T: Send,
{
    let out = py.allow_threads(|| {
        let out = f();
        RETURNING.fetch_add(1, Ordering::SeqCst);
        if EXITING.load(Ordering::SeqCst) && EXIT_THREAD.get() != Some(&std::thread::current().id()) {
            RETURNING.fetch_sub(1, Ordering::SeqCst);
            loop {
                std::thread::park();
            }
        }
        out
    });
    RETURNING.fetch_sub(1, Ordering::SeqCst);
    out
}

/// Threads of [`released`] between the end of their call and having the GIL back: the exit hook
/// lets them have it before the interpreter finalizes (SeqCst on both sides: a thread either sees
/// `EXITING` and sleeps, or is counted here).
static RETURNING: AtomicU64 = AtomicU64::new(0);

/// Rows the dispatch threads passed over once [`EXITING`] was set.
static ROWS_LEFT_AT_EXIT: AtomicU64 = AtomicU64::new(0);

/// Every tracer's shared state while its dispatch thread runs, with the process that made it (for
/// the exit hook's drain). Taken with the GIL held only, so never held across a fork.
fn dispatchers() -> MutexGuard<'static, Vec<(u32, std::sync::Weak<Shared>)>> {
    static ALL: Mutex<Vec<(u32, std::sync::Weak<Shared>)>> = Mutex::new(Vec::new());
    let mut all = lock(&ALL);
    all.retain(|(_, w)| w.strong_count() > 0);
    all
}

/// The rows queued for callbacks, over every tracer of this process (its own, or one dropped
/// since; a forked child's copies of the parent's are not: their threads are not there).
fn rows_queued() -> u64 {
    let pid = std::process::id();
    dispatchers()
        .iter()
        .filter(|(owner, _)| *owner == pid)
        .filter_map(|(_, w)| w.upgrade())
        .map(|s| s.queued_rows.load(Ordering::SeqCst))
        .sum()
}

/// In a forked child (`os.register_at_fork`): the parent's dispatch threads, counted in
/// [`ENTERING`], are not there.
#[pyfunction]
fn _after_fork_in_child() {
    ENTERING.store(0, Ordering::SeqCst);
    RETURNING.store(0, Ordering::SeqCst);
}

/// The `atexit` hook's last step, after the tracers were stopped: waits (without the GIL) until
/// every batch queued so far reached its callback, dropped tracers' included (not for those a
/// tracer still running queues later); then no dispatch thread enters Python again. A signal (a second Ctrl-C) ends the wait: the rows still queued are not
/// handed over, and said so on stderr.
#[pyfunction]
fn _at_exit(py: Python<'_>) {
    let _ = EXIT_THREAD.set(std::thread::current().id());
    let pid = std::process::id();
    let queued: Vec<(Arc<Shared>, u64)> = dispatchers()
        .iter()
        .filter(|(owner, _)| *owner == pid)
        .filter_map(|(_, w)| w.upgrade())
        .map(|s| {
            let sent = s.sent.load(Ordering::SeqCst);
            (s, sent)
        })
        .collect();
    let mut interrupted = false;
    'wait: for (shared, sent) in &queued {
        while shared.done.load(Ordering::SeqCst) < *sent && shared.dispatching.load(Ordering::SeqCst) {
            py.allow_threads(|| std::thread::sleep(Duration::from_millis(2)));
            if py.check_signals().is_err() {
                interrupted = true;
                break 'wait;
            }
        }
    }
    drop(queued);
    EXITING.store(true, Ordering::SeqCst);
    while ENTERING.load(Ordering::SeqCst) > 0 || RETURNING.load(Ordering::SeqCst) > 0 {
        py.allow_threads(|| std::thread::sleep(Duration::from_millis(1)));
    }
    if interrupted {
        // The dispatch threads pass over what is left without Python: quickly.
        let begun = std::time::Instant::now();
        while rows_queued() > 0 && begun.elapsed() < Duration::from_secs(1) {
            py.allow_threads(|| std::thread::sleep(Duration::from_millis(1)));
        }
        let left = ROWS_LEFT_AT_EXIT.load(Ordering::SeqCst) + rows_queued();
        if left > 0 {
            eprintln!(
                "accelprof: at exit, {left} rows queued for callbacks were not handed over (the wait for them \
                 was interrupted)"
            );
        }
    }
}

/// `pyarrow.RecordBatch._import_from_c`.
static IMPORT: GILOnceCell<Py<PyAny>> = GILOnceCell::new();

/// `batch` as a `pyarrow.RecordBatch`, through the Arrow C data interface: pyarrow takes over the
/// buffers (no copy).
fn to_pyarrow<'py>(py: Python<'py>, batch: RecordBatch) -> PyResult<Bound<'py, PyAny>> {
    let data = StructArray::from(batch).into_data();
    let (array, schema) =
        arrow_array::ffi::to_ffi(&data).map_err(|e| PyRuntimeError::new_err(format!("Arrow export: {e}")))?;
    let (mut array, mut schema) = (Box::new(array), Box::new(schema));
    let import = IMPORT.get_or_try_init(py, || {
        py.import("pyarrow")?.getattr("RecordBatch")?.getattr("_import_from_c").map(Bound::unbind)
    })?;
    // pyarrow moves both structures out (their release callbacks become NULL), so dropping the
    // boxes afterwards releases nothing twice; they live until after the call.
    let array_addr = &mut *array as *mut _ as usize;
    let schema_addr = &mut *schema as *mut _ as usize;
    import.bind(py).call1((array_addr, schema_addr))
}

/// Counts an error in `counter`; the first error of the tracer is kept for `stats()` and printed
/// (later ones are only counted).
fn report_first(py: Python<'_>, shared: &Shared, counter: &AtomicU64, what: &str, e: PyErr) {
    counter.fetch_add(1, Ordering::Relaxed);
    let mut first = lock(&shared.first_error);
    if first.is_none() {
        *first = Some(e.to_string());
        drop(first);
        eprintln!("accelprof: {what} (counted in stats(); later errors are only counted):");
        e.print(py);
    }
}

/// The dispatch thread: hands each queued delivery to its observer, taking the GIL per delivery.
fn dispatch(shared: Arc<Shared>, rx: Receiver<Msg>) {
    /// Clears `dispatching` when the thread ends, however it ends.
    struct Ends<'a>(&'a AtomicBool);
    impl Drop for Ends<'_> {
        fn drop(&mut self) {
            self.0.store(false, Ordering::SeqCst);
        }
    }
    let _ends = Ends(&shared.dispatching);
    let pid = std::process::id();
    for msg in rx {
        match msg {
            Msg::Deliver { observer, batches, rows } => {
                ENTERING.fetch_add(1, Ordering::SeqCst);
                if EXITING.load(Ordering::SeqCst) {
                    ROWS_LEFT_AT_EXIT.fetch_add(rows, Ordering::SeqCst);
                } else {
                    Python::with_gil(|py| {
                        if EXITING.load(Ordering::SeqCst) {
                            // Taken after the exit hook's wait: the interpreter is going.
                            ROWS_LEFT_AT_EXIT.fetch_add(rows, Ordering::SeqCst);
                            return;
                        }
                        let callback = lock(&shared.callbacks).get(&observer).map(|c| c.clone_ref(py));
                        let Some(callback) = callback else {
                            shared.rows_unregistered.fetch_add(rows, Ordering::Relaxed);
                            return;
                        };
                        let imported = || -> PyResult<Bound<'_, PyDict>> {
                            let dict = PyDict::new(py);
                            for (family, batch) in batches {
                                dict.set_item(family.name(), to_pyarrow(py, batch)?)?;
                            }
                            Ok(dict)
                        };
                        let dict = match imported() {
                            Ok(dict) => dict,
                            Err(e) => {
                                // pyarrow could not take the batch (not installed, too old): counted apart.
                                shared.rows_unencodable.fetch_add(rows, Ordering::Relaxed);
                                report_first(
                                    py,
                                    &shared,
                                    &shared.import_errors,
                                    "handing a batch to pyarrow failed",
                                    e,
                                );
                                return;
                            }
                        };
                        // The rows reached the callback: handed over, whatever it did with them.
                        shared.rows_handed.fetch_add(rows, Ordering::Relaxed);
                        shared.batches_handed.fetch_add(1, Ordering::Relaxed);
                        match callback.call1(py, (dict,)) {
                            Ok(_) => {}
                            Err(e) => {
                                report_first(
                                    py,
                                    &shared,
                                    &shared.callback_errors,
                                    "a registered callback raised",
                                    e,
                                );
                            }
                        }
                    });
                }
                ENTERING.fetch_sub(1, Ordering::SeqCst);
                shared.queued_rows.fetch_sub(rows, Ordering::SeqCst);
                shared.queued.fetch_sub(1, Ordering::Relaxed);
                shared.done.fetch_add(1, Ordering::SeqCst);
                if std::process::id() != pid {
                    // The callback forked and returned in the child, whose only thread this is:
                    // nothing in it could hand this thread more batches (it waited for good). The
                    // thread ends, so the child does (status 0; what Python had not written out of
                    // its buffers is lost: flush in the callback, or end the child with os._exit).
                    return;
                }
            }
            Msg::Fence(done) => {
                let _ = done.send(());
            }
            Msg::Release(owner) => {
                let mut owner = Some(owner);
                ENTERING.fetch_add(1, Ordering::SeqCst);
                if !EXITING.load(Ordering::SeqCst) {
                    Python::with_gil(|_| {
                        if !EXITING.load(Ordering::SeqCst) {
                            drop(owner.take());
                        }
                    });
                }
                ENTERING.fetch_sub(1, Ordering::SeqCst);
                // The interpreter is going: the reference is left as it is (no Python call now).
                std::mem::forget(owner);
            }
            Msg::Stop => break,
        }
    }
}

/// Adds `offset` to the nonzero values of the `start_ns` and `end_ns` columns (a 0 is a time the
/// vendor did not have, kept as 0).
fn to_unix(batch: RecordBatch, offset: i64) -> RecordBatch {
    if offset == 0 {
        return batch;
    }
    let schema = batch.schema();
    let columns: Vec<ArrayRef> = schema
        .fields()
        .iter()
        .zip(batch.columns())
        .map(|(field, column)| match (field.name().as_str(), column.as_any().downcast_ref::<Int64Array>()) {
            ("start_ns" | "end_ns", Some(times)) => {
                let mapped: Int64Array = times.unary(|t| if t == 0 { 0 } else { t.saturating_add(offset) });
                Arc::new(mapped) as ArrayRef
            }
            _ => column.clone(),
        })
        .collect();
    RecordBatch::try_new(schema, columns).unwrap_or(batch)
}

/// Rows per family, counted by a Rust consumer.
type FamilyRows = PerFamily<AtomicU64>;

/// An observer's selection: each family with the indices of its columns.
type Selection = Vec<(Family, Vec<usize>)>;

thread_local! {
    /// Set while this thread runs the `synchronize` callable (inside a flush's fence): a flush or
    /// stop from there would wait for itself.
    static IN_SYNCHRONIZE: Cell<bool> = const { Cell::new(false) };
    /// What the `synchronize` callable last raised on this thread (the engine keeps only its
    /// message): a flush or stop raises a `KeyboardInterrupt` or `SystemExit` of it as it is.
    static SYNCHRONIZE_RAISED: std::cell::RefCell<Option<PyErr>> = const { std::cell::RefCell::new(None) };
}

/// The root package's tracer, its records handed to Python callbacks as pyarrow record batches.
#[pyclass(module = "accelprof._native", name = "Tracer")]
struct PyTracer {
    /// The process that made it. A child forked from it has a copy whose threads (dispatch, the
    /// vendor pipeline's) did not survive the fork, and whose locks may be held by them forever:
    /// there every method refuses, and dropping it leaks `core` rather than wait for them.
    owner_pid: u32,
    core: ManuallyDrop<Core>,
}

impl Deref for PyTracer {
    type Target = Core;
    fn deref(&self) -> &Core {
        &self.core
    }
}

/// A tracer's state (see [`PyTracer`]).
struct Core {
    /// The engine's tracer while it runs: each method holds a clone only for its call, and `stop`
    /// takes it out and waits (without the GIL) until the calls still running let go. (A lock held
    /// across a flush made a thread waiting for it with the GIL held block the flush's
    /// `synchronize`, which needs the GIL: a deadlock.)
    tracer: Mutex<Option<Arc<Tracer>>>,
    /// Held by the `stop` that ends the tracer: a concurrent `stop` waits for its report.
    stopping: Mutex<()>,
    /// The engine's final counts (JSON), for `stats()` after `stop`.
    final_counts: Mutex<Option<Value>>,
    ids: ExternalIds,
    shared: Arc<Shared>,
    tx: Mutex<Sender<Msg>>,
    thread: Mutex<Option<JoinHandle<()>>>,
    observers: Mutex<HashMap<u64, ConsumerId>>,
    next_observer: AtomicU64,
    started: AtomicBool,
    counters: Mutex<HashMap<u64, (ConsumerId, Arc<FamilyRows>)>>,
    offset_ns: i64,
    session_start_unix_ns: u64,
    report: Mutex<Option<String>>,
    /// The `synchronize` callable the engine holds, for the garbage collector to see.
    synchronize: Option<Py<PyAny>>,
}

impl std::fmt::Debug for Core {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tracer").field("ids", &self.ids).finish_non_exhaustive()
    }
}

fn vendor(name: &str) -> PyResult<Vendor> {
    name.parse::<Vendor>().map_err(PyValueError::new_err)
}

fn unix_now_ns() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

fn counts_json(c: &TracerCounts) -> Value {
    let p = &c.pipeline;
    json!({
        "produced": c.produced(),
        "delivered": c.delivered(),
        "dropped": c.dropped(),
        "adds_up": c.adds_up(),
        "vendor_dropped": p.vendor_dropped,
        "buffers_completed": p.buffers_completed,
        "buffers_declined": p.buffers_declined,
        "buffers_discarded": p.buffers_discarded,
        "records_decoded": p.records_decoded,
        "records_unconsumed": p.records_unconsumed,
        "skipped_unknown": p.skipped_unknown,
        "records_filtered": p.records_filtered,
        "consumer_panics": p.consumer_panics,
        "walker_panics": p.walker_panics,
        "buffers_cut_short": p.buffers_cut_short,
        "bytes_abandoned": p.bytes_abandoned,
        "vendor_extras": c.vendor_extras.iter().map(|(k, v)| ((*k).to_owned(), json!(v))).collect::<Map<_, _>>(),
        "other_client_seen": c.other_client.seen(),
        "summary": c.to_string(),
    })
}

impl std::fmt::Debug for PyTracer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.core.fmt(f)
    }
}

impl PyTracer {
    /// Whether this is a child's copy, forked from the process that made the tracer (whose threads did
    /// not survive the fork).
    fn is_forked_copy(&self) -> bool {
        std::process::id() != self.owner_pid
    }

    /// Refuses in a child forked from the process that made the tracer.
    fn owned(&self) -> PyResult<()> {
        if self.is_forked_copy() {
            return Err(PyRuntimeError::new_err(format!(
                "this tracer was made in process {} and this is a child forked from it: the tracer's \
                 threads did not survive the fork, so it cannot be used here",
                self.owner_pid
            )));
        }
        Ok(())
    }
}

/// What the `synchronize` callable raised on this thread during the last engine call, when it was
/// not an `Exception` (Ctrl-C's `KeyboardInterrupt`, `SystemExit`): to be raised as it is.
fn synchronize_interrupted(py: Python<'_>) -> Option<PyErr> {
    SYNCHRONIZE_RAISED
        .with(|r| r.borrow_mut().take())
        .filter(|e| !e.is_instance_of::<pyo3::exceptions::PyException>(py))
}

/// Refuses a flush or stop inside the `synchronize` callable (it would wait for itself).
fn not_in_synchronize(what: &str) -> PyResult<()> {
    if IN_SYNCHRONIZE.with(Cell::get) {
        return Err(PyRuntimeError::new_err(format!(
            "{what} cannot run inside the synchronize callable (the flush waits for it)"
        )));
    }
    Ok(())
}

impl Core {
    /// The engine's tracer, held for one call.
    fn live(&self) -> PyResult<Arc<Tracer>> {
        lock(&self.tracer).clone().ok_or_else(|| PyRuntimeError::new_err("the tracer was stopped"))
    }

    fn in_dispatch_thread(&self) -> bool {
        *lock(&self.shared.dispatch_thread) == Some(std::thread::current().id())
    }

    /// Waits (without the GIL) until every delivery queued so far was handed to its observer, or a
    /// signal handler raised.
    fn wait_dispatched(&self, py: Python<'_>) -> PyResult<()> {
        if self.in_dispatch_thread() {
            return Err(PyRuntimeError::new_err(
                "flush(sync=True) and stop() cannot run inside a registered callback (they wait for it)",
            ));
        }
        let (done_tx, done_rx) = mpsc::sync_channel(1);
        if lock(&self.tx).send(Msg::Fence(done_tx)).is_err() {
            return Ok(());
        }
        let mut done_rx = done_rx;
        loop {
            let (got, rx) = released(py, move || (done_rx.recv_timeout(Duration::from_millis(50)), done_rx));
            done_rx = rx;
            match got {
                Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
                // A signal's handler (Ctrl-C's KeyboardInterrupt) raises here, not only once the
                // slowest callback is done.
                Err(mpsc::RecvTimeoutError::Timeout) => py.check_signals()?,
            }
        }
    }

    fn stats_json(&self, counts: Option<TracerCounts>) -> Value {
        let s = &self.shared;
        let stopped = counts.is_none();
        let counts = match counts {
            Some(c) => counts_json(&c),
            None => lock(&self.final_counts).clone().unwrap_or(Value::Null),
        };
        json!({
            "started": self.started.load(Ordering::Relaxed),
            "stopped": stopped,
            "observers": lock(&self.observers).len(),
            "batches_handed": s.batches_handed.load(Ordering::Relaxed),
            "rows_handed": s.rows_handed.load(Ordering::Relaxed),
            "rows_unregistered": s.rows_unregistered.load(Ordering::Relaxed),
            "rows_unencodable": s.rows_unencodable.load(Ordering::Relaxed),
            "callback_errors": s.callback_errors.load(Ordering::Relaxed),
            "import_errors": s.import_errors.load(Ordering::Relaxed),
            "first_callback_error": lock(&s.first_error).clone(),
            "pending_batches": s.queued.load(Ordering::Relaxed),
            "external_chains_kept": self.ids.chains_kept(),
            "counts": counts,
        })
    }

    /// Ends the tracer, without waiting for the dispatch thread (drop, maybe with the GIL held);
    /// the report, the same one to every caller (None: never made, not even by a caller before).
    /// Run without the GIL, except from drop, where no other call holds the tracer.
    fn end(&self) -> Option<String> {
        let _stopping = lock(&self.stopping);
        let Some(mut held) = lock(&self.tracer).take() else {
            return lock(&self.report).clone();
        };
        // A call still running on another thread (a flush) holds it until it returns.
        let tracer = loop {
            match Arc::try_unwrap(held) {
                Ok(tracer) => break tracer,
                Err(still) => {
                    held = still;
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
        };
        let report = tracer.stop();
        let mut doc = report.to_json();
        doc["complete"] = json!(report.is_complete());
        doc["counts"] = counts_json(&report.counts);
        doc["rows"] = Family::ALL.iter().map(|f| (f.name().to_owned(), json!(report.rows_of(*f)))).collect();
        *lock(&self.final_counts) = Some(doc["counts"].clone());
        let text = doc.to_string();
        *lock(&self.report) = Some(text.clone());
        Some(text)
    }
}

#[pymethods]
impl PyTracer {
    /// See `accelprof.Tracer`.
    #[new]
    #[pyo3(signature = (vendor_name = "auto", library = None, families = None, outputs = Vec::new(),
        flush_period_s = Some(1.0), trace_name = None, demangle = true, synchronize = None, summary_top = 20))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        vendor_name: &str,
        library: Option<PathBuf>,
        families: Option<Vec<String>>,
        outputs: Vec<PathBuf>,
        flush_period_s: Option<f64>,
        trace_name: Option<String>,
        demangle: bool,
        synchronize: Option<Py<PyAny>>,
        summary_top: usize,
        py: Python<'_>,
    ) -> PyResult<PyTracer> {
        let mut set = TracerConfig::COMMON;
        if let Some(names) = families {
            set = FamilySet::empty();
            for name in names {
                set |= family(&name)?.set();
            }
        }
        let flush_period = match flush_period_s {
            Some(0.0) | None => None,
            // A period Duration cannot hold, or one that rounds to 0 ns (a flush loop without a pause).
            Some(s) => match Duration::try_from_secs_f64(s) {
                Ok(d) if !d.is_zero() => Some(d),
                _ => return Err(PyValueError::new_err(format!(
                    "flush_period_s {s:?}: a number of seconds, at least 1e-9 and at most 1.8e19, or 0 or None"
                ))),
            },
        };
        if let Some(f) = &synchronize {
            if !f.bind(py).is_callable() {
                return Err(PyValueError::new_err("synchronize: a callable taking no arguments, or None"));
            }
        }
        let synchronize_seen = synchronize.as_ref().map(|f| f.clone_ref(py));
        let synchronize = synchronize.map(|f| {
            Synchronize::new(move || {
                Python::with_gil(|py| {
                    let outer = IN_SYNCHRONIZE.with(|s| s.replace(true));
                    let called = f.call0(py);
                    IN_SYNCHRONIZE.with(|s| s.set(outer));
                    match called {
                        Ok(r) => Ok(r.extract::<bool>(py).unwrap_or(true)),
                        Err(e) => {
                            let message = format!("the synchronize callable raised: {e}");
                            SYNCHRONIZE_RAISED.with(|r| *r.borrow_mut() = Some(e));
                            Err(message)
                        }
                    }
                })
            })
        });
        let config = TracerConfig {
            vendor: vendor(vendor_name)?,
            library,
            families: set,
            outputs: outputs.into_iter().map(Output::from).collect(),
            flush_period,
            trace_name,
            demangle,
            synchronize,
            summary_top,
            ..TracerConfig::default()
        };
        let session_start_unix_ns = unix_now_ns();
        let tracer =
            released(py, || Tracer::new(config)).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let ids = ExternalIds::new(&tracer);
        let shared = Arc::new(Shared { dispatching: AtomicBool::new(true), ..Shared::default() });
        dispatchers().push((std::process::id(), Arc::downgrade(&shared)));
        let (tx, rx) = mpsc::channel();
        let thread = {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name("accelprof-dispatch".into())
                .spawn(move || {
                    *lock(&shared.dispatch_thread) = Some(std::thread::current().id());
                    dispatch(shared, rx)
                })
                .map_err(|e| PyRuntimeError::new_err(format!("the dispatch thread: {e}")))?
        };
        Ok(PyTracer {
            owner_pid: std::process::id(),
            core: ManuallyDrop::new(Core {
                offset_ns: tracer.time_map().offset_ns(),
                tracer: Mutex::new(Some(Arc::new(tracer))),
                stopping: Mutex::default(),
                final_counts: Mutex::default(),
                ids,
                shared,
                tx: Mutex::new(tx),
                thread: Mutex::new(Some(thread)),
                observers: Mutex::default(),
                next_observer: AtomicU64::new(1),
                started: AtomicBool::new(false),
                counters: Mutex::default(),
                session_start_unix_ns,
                report: Mutex::new(None),
                synchronize: synchronize_seen,
            }),
        })
    }

    /// Begins collecting.
    fn start(&self, py: Python<'_>) -> PyResult<()> {
        self.owned()?;
        let tracer = self.live()?;
        released(py, || tracer.start()).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        self.started.store(true, Ordering::Relaxed);
        Ok(())
    }

    /// Registers `callback({family: pyarrow.RecordBatch})` for `selection` (`{family: [columns] or
    /// None for all}`); returns the observer's id.
    #[pyo3(signature = (selection, callback, unix_time = true))]
    fn register(
        &self,
        py: Python<'_>,
        selection: HashMap<String, Option<Vec<String>>>,
        callback: Py<PyAny>,
        unix_time: bool,
    ) -> PyResult<u64> {
        self.owned()?;
        if !callback.bind(py).is_callable() {
            return Err(PyValueError::new_err("callback: a callable taking one dict"));
        }
        let mut wanted: Selection = Vec::new();
        let mut set = FamilySet::empty();
        for (name, cols) in selection {
            let family = family(&name)?;
            let schema = schema(family);
            let indices = match cols {
                None => (0..schema.fields().len()).collect(),
                Some(cols) => cols
                    .iter()
                    .map(|c| {
                        schema.index_of(c).map_err(|_| {
                            let known: Vec<&str> =
                                schema.fields().iter().map(|f| f.name().as_str()).collect();
                            PyValueError::new_err(format!(
                                "family {name:?} has no column {c:?} (its columns: {})",
                                known.join(", ")
                            ))
                        })
                    })
                    .collect::<PyResult<Vec<usize>>>()?,
            };
            set |= family.set();
            wanted.push((family, indices));
        }
        if wanted.is_empty() {
            return Err(PyValueError::new_err("register: no family selected"));
        }
        wanted.sort_by_key(|(f, _)| f.0);
        let tracer = self.live()?;
        let observer = self.next_observer.fetch_add(1, Ordering::Relaxed);
        lock(&self.shared.callbacks).insert(observer, callback);
        let offset = if unix_time { self.offset_ns } else { 0 };
        let tx = lock(&self.tx).clone();
        let shared = self.shared.clone();
        let mut encoder = ArrowEncoder::new();
        let id = tracer.subscribe(set, move |batch: &Batch, names: &Names| {
            let mut batches = Vec::new();
            let mut rows = 0u64;
            for (family, indices) in &wanted {
                let len = batch.len_of(*family);
                if len == 0 {
                    continue;
                }
                let encoded =
                    encoder.encode_family(*family, batch, names).and_then(|b| Ok(b.project(indices)?));
                match encoded {
                    Ok(b) => {
                        rows += b.num_rows() as u64;
                        batches.push((*family, to_unix(b, offset)));
                    }
                    Err(_) => {
                        shared.rows_unencodable.fetch_add(len as u64, Ordering::Relaxed);
                    }
                }
            }
            if !batches.is_empty() {
                shared.queued.fetch_add(1, Ordering::Relaxed);
                shared.queued_rows.fetch_add(rows, Ordering::SeqCst);
                if tx.send(Msg::Deliver { observer, batches, rows }).is_err() {
                    shared.queued.fetch_sub(1, Ordering::Relaxed);
                    shared.queued_rows.fetch_sub(rows, Ordering::SeqCst);
                    shared.rows_unregistered.fetch_add(rows, Ordering::Relaxed);
                } else {
                    shared.sent.fetch_add(1, Ordering::SeqCst);
                }
            }
        });
        lock(&self.observers).insert(observer, id);
        Ok(observer)
    }

    /// A consumer in Rust that only counts the rows of `families` (no Arrow, no Python): the
    /// baseline the benchmark sets the Python path against. Its id for `counter_rows`.
    fn register_counter(&self, families: Vec<String>) -> PyResult<u64> {
        self.owned()?;
        let mut set = FamilySet::empty();
        for name in families {
            set |= family(&name)?.set();
        }
        let tracer = self.live()?;
        let rows: Arc<FamilyRows> = Arc::default();
        let counted = rows.clone();
        let id = tracer.subscribe(set, move |batch: &Batch, _: &Names| {
            for f in set.iter_families() {
                counted[f].fetch_add(batch.len_of(f) as u64, Ordering::Relaxed);
            }
        });
        let observer = self.next_observer.fetch_add(1, Ordering::Relaxed);
        lock(&self.counters).insert(observer, (id, rows));
        Ok(observer)
    }

    /// The rows a `register_counter` consumer counted so far, per family.
    fn counter_rows(&self, counter: u64) -> PyResult<HashMap<&'static str, u64>> {
        self.owned()?;
        let counters = lock(&self.counters);
        let (_, rows) = counters.get(&counter).ok_or_else(|| PyValueError::new_err("no such counter"))?;
        Ok(rows.iter_families().map(|(f, n)| (f.name(), n.load(Ordering::Relaxed))).collect())
    }

    /// Stops handing batches to an observer (or counting, for a counter); whether it was registered.
    fn unregister(&self, observer: u64) -> PyResult<bool> {
        self.owned()?;
        let id = lock(&self.observers).remove(&observer);
        let Some(id) = id.or_else(|| lock(&self.counters).remove(&observer).map(|(id, _)| id)) else {
            return Ok(false);
        };
        if let Ok(tracer) = self.live() {
            tracer.unsubscribe(id);
        }
        // Dropped after the lock is released: the last reference to a callback may run Python
        // (a finalizer) that registers or unregisters again.
        let callback = lock(&self.shared.callbacks).remove(&observer);
        drop(callback);
        Ok(true)
    }

    /// Hands over everything collected so far (CUPTI: a fence, every record of work issued before
    /// the call is in); with `sync`, returns once the callbacks have run on all of it.
    #[pyo3(signature = (sync = true))]
    fn flush(&self, py: Python<'_>, sync: bool) -> PyResult<()> {
        self.owned()?;
        not_in_synchronize("flush()")?;
        {
            let tracer = self.live()?;
            SYNCHRONIZE_RAISED.with(|r| r.borrow_mut().take());
            let flushed = released(py, || tracer.flush());
            if let Some(interrupt) = synchronize_interrupted(py) {
                return Err(interrupt);
            }
            flushed.map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        }
        if sync {
            self.wait_dispatched(py)?;
            self.ids.retire();
        }
        Ok(())
    }

    /// Ends the collection, waits until the callbacks ran on the last records, finishes the
    /// outputs; the report as JSON. A second call returns the same report.
    fn stop(&self, py: Python<'_>) -> PyResult<String> {
        self.owned()?;
        if self.in_dispatch_thread() {
            return Err(PyRuntimeError::new_err("stop() cannot run inside a registered callback"));
        }
        not_in_synchronize("stop()")?;
        SYNCHRONIZE_RAISED.with(|r| r.borrow_mut().take());
        let report = released(py, || self.end()).ok_or_else(|| PyRuntimeError::new_err("no report"))?;
        self.started.store(false, Ordering::Relaxed);
        if let Some(interrupt) = synchronize_interrupted(py) {
            // The tracer is stopped (the report has the fence's error); a later stop returns it.
            return Err(interrupt);
        }
        self.wait_dispatched(py)?;
        self.ids.retire();
        Ok(report)
    }

    /// The garbage collector's view: the callbacks and the synchronize callable (a callback that
    /// refers to its tracer made a cycle the collector did not see: the tracer ran on until exit).
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        if self.is_forked_copy() {
            return Ok(());
        }
        if let Some(f) = &self.synchronize {
            visit.call(f)?;
        }
        // Never blocks in the collector: a callback map being changed now is not visited (the
        // collector then takes its objects for reachable: nothing is freed early).
        if let Ok(callbacks) = self.shared.callbacks.try_lock() {
            for callback in callbacks.values() {
                visit.call(callback)?;
            }
        }
        Ok(())
    }

    /// Breaks a cycle through the callbacks: they are dropped (batches still queued for them are
    /// counted in `rows_unregistered`), and the tracer, once unreferenced, is stopped by its drop.
    fn __clear__(&mut self) {
        if self.is_forked_copy() {
            return;
        }
        let callbacks = std::mem::take(&mut *lock(&self.shared.callbacks));
        drop(callbacks);
    }

    /// The wrapper's `__del__` (also when the garbage collector frees a cycle through the
    /// callbacks): ends the tracer without waiting, and keeps `owner` (the wrapper) alive until the
    /// callbacks ran on the last batches: the collector then leaves the cycle whole (it was
    /// resurrected), and frees it at a later collection, when nothing is queued any more.
    fn _finalize(&self, owner: Py<PyAny>) {
        if self.is_forked_copy() {
            return;
        }
        let _ = self.end();
        // A dispatch thread that is gone hands `owner` back in the error: dropped here.
        drop(lock(&self.tx).send(Msg::Release(owner)));
    }

    /// Whether this thread is running one of the tracer's callbacks (where `stop` cannot run).
    fn in_callback(&self) -> bool {
        !self.is_forked_copy() && self.in_dispatch_thread()
    }

    /// The tallies (JSON): the engine's counts and the Python side's.
    fn stats(&self, py: Python<'_>) -> PyResult<String> {
        self.owned()?;
        let counts = self.live().ok().map(|t| released(py, || t.counts()));
        Ok(self.stats_json(counts).to_string())
    }

    /// The library, families, clock mapping and files (JSON).
    fn session_info(&self) -> PyResult<String> {
        self.owned()?;
        let t = self.live()?;
        let info = t.library();
        Ok(json!({
            "vendor": info.vendor.name(),
            "library": info.path.display().to_string(),
            "library_version": info.version,
            "found": info.found,
            "families": Family::ALL.iter().filter(|f| t.families().has(**f)).map(|f| f.name()).collect::<Vec<_>>(),
            "skipped": t.skipped().iter().map(|s| json!({"family": s.family.name(), "kind": s.kind, "reason": s.reason})).collect::<Vec<_>>(),
            "time_offset_ns": self.offset_ns,
            "session_start_unix_ns": self.session_start_unix_ns,
            "partial_paths": t.partial_paths().iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "external_ids_on_vendor_stack": self.ids.has_vendor_stack(),
            "rank": t.distributed().rank,
            "world_size": t.distributed().world_size,
        })
        .to_string())
    }

    /// `unix_ns = record_ns + time_offset_ns` for the records' raw timestamps.
    #[getter]
    fn time_offset_ns(&self) -> i64 {
        self.offset_ns
    }

    /// The vendor's name of an API row's raw `api_domain`.
    fn api_domain_name(&self, domain: u32) -> PyResult<Option<String>> {
        self.owned()?;
        Ok(self.live()?.api_domain_name(domain).map(|c| c.into_owned()))
    }

    /// A fresh external-correlation id pushed as this thread's innermost context.
    fn push_external_correlation_id(&self) -> PyResult<u64> {
        self.owned()?;
        Ok(self.ids.push())
    }

    /// Pops this thread's innermost context; its id, None when none.
    fn pop_external_correlation_id(&self) -> PyResult<Option<u64>> {
        self.owned()?;
        Ok(self.ids.pop())
    }

    /// This thread's innermost context, if any.
    fn current_external_correlation_id(&self) -> PyResult<Option<u64>> {
        self.owned()?;
        Ok(self.ids.current())
    }

    /// Every context active when `innermost` was pushed, outermost first.
    fn external_id_chain(&self, innermost: u64) -> PyResult<Vec<u64>> {
        self.owned()?;
        Ok(self.ids.chain(innermost))
    }

    /// Merges a JSON object into the metadata of this thread's innermost context (or of `id`); the
    /// id it went to, None when there is no context.
    #[pyo3(signature = (fields_json, id = None))]
    fn put_external_metadata(&self, fields_json: &str, id: Option<u64>) -> PyResult<Option<u64>> {
        self.owned()?;
        let fields: Map<String, Value> = serde_json::from_str(fields_json)
            .map_err(|e| PyValueError::new_err(format!("metadata: a JSON object: {e}")))?;
        Ok(match id {
            Some(id) => {
                self.ids.put_metadata(id, fields);
                Some(id)
            }
            None => self.ids.add_metadata(fields),
        })
    }

    /// Takes the metadata attached so far: JSON `{id: object}`.
    fn take_external_metadata(&self) -> PyResult<String> {
        self.owned()?;
        let taken: Map<String, Value> =
            self.ids.take_metadata().into_iter().map(|(id, m)| (id.to_string(), Value::Object(m))).collect();
        Ok(Value::Object(taken).to_string())
    }
}

impl Drop for PyTracer {
    fn drop(&mut self) {
        if self.is_forked_copy() {
            // A forked child's copy: ending it would wait for threads that are not there, and its
            // locks may be held by them. Left as it is (leaked).
            return;
        }
        // SAFETY: `core` is dropped here only, once, and `self` is not used after.
        unsafe { ManuallyDrop::drop(&mut self.core) };
    }
}

impl Drop for Core {
    fn drop(&mut self) {
        // The last records are queued for the dispatch thread, which hands them over when it gets
        // the GIL and then ends; nothing waits for it here (the GIL may be held).
        let _ = self.end();
        let _ = lock(&self.tx).send(Msg::Stop);
        drop(lock(&self.thread).take());
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTracer>()?;
    m.add_function(wrap_pyfunction!(columns, m)?)?;
    m.add_function(wrap_pyfunction!(families, m)?)?;
    m.add_function(wrap_pyfunction!(_at_exit, m)?)?;
    m.add_function(wrap_pyfunction!(_after_fork_in_child, m)?)?;
    #[cfg(feature = "mocks")]
    testing::add(m)?;
    Ok(())
}
