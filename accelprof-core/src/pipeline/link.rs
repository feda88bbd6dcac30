// loom's under `--cfg loom` (the model in `loom_models`).
use crate::callback::sync::{fence, AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use crossbeam_channel::{unbounded, Receiver, Sender};

use super::counts::{add, Counters};
use super::message::Message;
use crate::pool::BufferPool;

/// The way to the decode thread, shared by the pipeline, its handoffs and the thread itself.
///
/// Nothing sent is ever lost unseen, even while the pipeline shuts down under a still-running vendor:
/// the link keeps a receiver of its own, so a send never fails. The decode thread raises `stopped` before
/// its last drain; a sender that sees `stopped` after its send drains the channel itself, recycling
/// buffers and counting them as discarded. (A store-buffering pair, ordered by a `SeqCst` fence on each
/// side, whatever orderings the channel uses inside: either the decode thread's last drain sees the
/// message, or the sender sees `stopped`.)
#[derive(Debug)]
pub(crate) struct Link {
    tx: Sender<Message>,
    leftovers: Receiver<Message>,
    stopped: AtomicBool,
    pub(crate) counters: Counters,
    pub(crate) pool: Arc<BufferPool>,
    /// Buffers the decode thread gave back to the pool (or discarded): its progress, which a producer
    /// waiting for a buffer watches.
    pub(crate) buffers_returned: AtomicU64,
    /// `buffers_returned + 1` when a producer last gave up waiting (0: never): no producer waits again
    /// until the decode thread returns another buffer.
    pub(crate) stalled_at: AtomicU64,
}

impl Link {
    /// A new link and the decode thread's receiving end.
    pub(crate) fn new(pool: Arc<BufferPool>) -> (Arc<Link>, Receiver<Message>) {
        let (tx, rx) = unbounded();
        let link = Link {
            tx,
            leftovers: rx.clone(),
            stopped: AtomicBool::new(false),
            counters: Counters::default(),
            pool,
            buffers_returned: AtomicU64::new(0),
            stalled_at: AtomicU64::new(0),
        };
        (Arc::new(link), rx)
    }

    /// Sends to the decode thread (never blocks). Returns false when the decode thread had already stopped,
    /// in which case the message was handled here (a buffer recycled and counted as discarded).
    pub(crate) fn send(&self, message: Message) -> bool {
        // The link holds a receiver, so the channel is never disconnected and the send cannot fail.
        let _ = self.tx.send(message);
        fence(Ordering::SeqCst);
        if self.stopped.load(Ordering::SeqCst) {
            self.discard_leftovers();
            return false;
        }
        true
    }

    /// Called by the decode thread before its last drain.
    pub(crate) fn mark_stopped(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        fence(Ordering::SeqCst);
    }

    /// True once the decode thread stopped taking messages.
    pub(crate) fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }

    /// Empties the channel after the decode thread stopped: buffers go back to the pool (counted as
    /// discarded); fence and unsubscribe answers are dropped, which wakes their waiters with "stopped".
    pub(crate) fn discard_leftovers(&self) {
        while let Ok(message) = self.leftovers.try_recv() {
            if let Message::Buffer { buf, .. } = message {
                add(&self.counters.buffers_discarded, 1);
                self.pool.give_back(buf);
                self.buffers_returned.fetch_add(1, Ordering::Release);
            }
        }
    }
}
