use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{JoinHandle, ThreadId};
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, RecvTimeoutError};

use super::consumer::Consumer;
use super::decode_loop::DecodeLoop;
use super::link::Link;
use super::message::Message;
use super::{ConsumerId, Counts, Handoff, PipelineConfig, PipelineError, RecordWalker};
use crate::columns::{Batch, FamilySet};
use crate::intern::{Interner, Names};
use crate::pool::BufferPool;

/// A running decode thread with its consumers.
///
/// Dropping it (or [`shutdown`](Self::shutdown)) decodes and delivers everything handed off before,
/// then joins the thread.
pub struct Pipeline {
    link: Arc<Link>,
    names: Names,
    next_consumer: AtomicU64,
    thread: Mutex<Option<JoinHandle<()>>>,
    thread_id: ThreadId,
    /// The process the decode thread runs in: a child forked from it has a copy of this pipeline but
    /// not the thread, and must never wait for it.
    process: u32,
}

impl Pipeline {
    /// Starts the decode thread running `walker` over buffers of `pool`.
    pub fn start<W: RecordWalker>(
        walker: W,
        pool: Arc<BufferPool>,
        config: PipelineConfig,
    ) -> Result<Pipeline, PipelineError> {
        let (link, rx) = Link::new(pool);
        let interner = Interner::new();
        let names = interner.names();
        let decode = DecodeLoop {
            walker,
            rx,
            link: Arc::clone(&link),
            interner,
            names: names.clone(),
            batch: Batch::new(),
            consumers: Vec::new(),
            deadline: None,
            config: config.clone(),
        };
        let thread = std::thread::Builder::new()
            .name(config.thread_name)
            .spawn(move || decode.run_guarded())
            .map_err(|e| PipelineError::Spawn(Arc::new(e)))?;
        let thread_id = thread.thread().id();
        Ok(Pipeline {
            link,
            names,
            next_consumer: AtomicU64::new(1),
            thread: Mutex::new(Some(thread)),
            thread_id,
            process: std::process::id(),
        })
    }

    /// A handle for the vendor's threads (see [`Handoff`]).
    pub fn handoff(&self) -> Handoff {
        Handoff::new(Arc::clone(&self.link))
    }

    /// The names the decode thread interns, readable from any thread.
    pub fn names(&self) -> Names {
        self.names.clone()
    }

    /// The pool buffers are recycled through.
    pub fn pool(&self) -> &Arc<BufferPool> {
        &self.link.pool
    }

    /// Calls `consumer` on the decode thread with every later batch holding rows of one of `families`.
    ///
    /// The batch is passed whole: it may also hold rows of families the consumer did not ask for. Takes
    /// effect in order with handoffs: buffers completed after this call are seen by the consumer. A panic
    /// in `consumer` is caught and counted (`Counts::consumer_panics`); the consumer stays subscribed.
    /// The consumer must not block on this pipeline's `sync()` (it would get
    /// [`PipelineError::OnDecodeThread`]).
    pub fn subscribe<F>(&self, families: FamilySet, consumer: F) -> ConsumerId
    where
        F: FnMut(&Batch, &Names) + Send + 'static,
    {
        let id = ConsumerId(self.next_consumer.fetch_add(1, Ordering::Relaxed));
        let consumer = Consumer { id, families, callback: Box::new(consumer) };
        // Once the decode thread is gone, the consumer could never be called anyway.
        self.link.send(Message::Subscribe(consumer));
        id
    }

    /// Removes a consumer. When this returns (off the decode thread) the consumer will not be called again
    /// and has been dropped. Returns whether it was subscribed. Called from inside a consumer, it takes
    /// effect after the current delivery and returns `true`.
    pub fn unsubscribe(&self, id: ConsumerId) -> bool {
        if self.is_decode_thread() {
            return self.link.send(Message::Unsubscribe { id, ack: None });
        }
        if self.in_forked_child() {
            return false;
        }
        let (ack, answer) = bounded(1);
        self.link.send(Message::Unsubscribe { id, ack: Some(ack) });
        // After the decode thread stopped the message is dropped unanswered: Err, "not subscribed".
        answer.recv().unwrap_or(false)
    }

    /// Returns once every buffer handed off (`Handoff::completed` returned) before this call has been
    /// decoded and delivered to the consumers, including a partly filled batch.
    ///
    /// The vendor crate first makes the vendor flush its buffers, then calls this.
    pub fn sync(&self) -> Result<(), PipelineError> {
        self.fence(None)
    }

    /// [`sync`](Self::sync) waiting at most `timeout`.
    pub fn sync_timeout(&self, timeout: Duration) -> Result<(), PipelineError> {
        self.fence(Some(Instant::now() + timeout))
    }

    fn fence(&self, deadline: Option<Instant>) -> Result<(), PipelineError> {
        if self.is_decode_thread() {
            return Err(PipelineError::OnDecodeThread);
        }
        if self.in_forked_child() {
            return Err(PipelineError::Stopped);
        }
        let (ack, answer) = bounded(1);
        if !self.link.send(Message::Fence { ack }) {
            return Err(PipelineError::Stopped);
        }
        match deadline {
            None => answer.recv().map_err(|_| PipelineError::Stopped),
            Some(deadline) => answer.recv_deadline(deadline).map_err(|e| match e {
                RecvTimeoutError::Timeout => PipelineError::Timeout,
                RecvTimeoutError::Disconnected => PipelineError::Stopped,
            }),
        }
    }

    /// The tallies now (see [`Counts`] for the identity they satisfy).
    pub fn counts(&self) -> Counts {
        self.link.counters.snapshot()
    }

    /// Decodes and delivers everything handed off so far, stops the decode thread and returns the final
    /// counts. Dropping the pipeline does the same without the counts.
    pub fn shutdown(self) -> Counts {
        self.close()
    }

    /// As [`shutdown`](Self::shutdown), through a shared reference: once it returns (off the decode thread)
    /// the decode thread has delivered everything handed off before and exited; later calls return the
    /// counts at once. Called on the decode thread itself (inside a consumer) it asks the thread to stop
    /// after the current delivery and returns without waiting.
    pub fn close(&self) -> Counts {
        let thread = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        if self.in_forked_child() {
            // The thread is the parent's: nothing here to stop or join (a join would never return).
            std::mem::forget(thread);
            return self.counts();
        }
        if let Some(thread) = thread {
            self.link.send(Message::Shutdown);
            if !self.is_decode_thread() {
                // The loop catches walker and consumer panics, so join fails only if the thread itself
                // broke; there is nothing more to do then.
                let _ = thread.join();
            }
        }
        self.counts()
    }

    /// Whether the calling thread is this pipeline's decode thread (it runs the consumers): there, waiting
    /// for the decode thread ([`sync`](Self::sync)) would wait for itself.
    pub fn is_decode_thread(&self) -> bool {
        std::thread::current().id() == self.thread_id
    }

    /// Whether this is a child forked from the process the decode thread runs in (which has the
    /// pipeline's memory, not its thread): [`sync`](Self::sync) there is [`PipelineError::Stopped`]
    /// at once, and [`close`](Self::close) waits for nothing (both waited forever).
    fn in_forked_child(&self) -> bool {
        std::process::id() != self.process
    }
}

impl Drop for Pipeline {
    fn drop(&mut self) {
        self.close();
    }
}

impl fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pipeline")
            .field("running", &!self.link.is_stopped())
            .field("counts", &self.counts())
            .finish_non_exhaustive()
    }
}
