use crossbeam_channel::Sender;

use super::consumer::Consumer;
use super::ConsumerId;
use crate::pool::ActivityBuffer;

/// What travels to the decode thread, in order.
pub(crate) enum Message {
    /// A completed vendor buffer whose first `valid` bytes hold records.
    Buffer { buf: ActivityBuffer, valid: usize },
    /// Add a consumer.
    Subscribe(Consumer),
    /// Remove a consumer; `ack` (when given) learns whether it was there, after removal.
    Unsubscribe { id: ConsumerId, ack: Option<Sender<bool>> },
    /// Deliver everything received so far, then answer.
    Fence { ack: Sender<()> },
    /// Drain, deliver, exit.
    Shutdown,
}
