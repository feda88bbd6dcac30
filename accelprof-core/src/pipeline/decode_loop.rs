use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Instant;

use crossbeam_channel::{Receiver, RecvTimeoutError};

use super::consumer::Consumer;
use super::counts::add;
use super::link::Link;
use super::message::Message;
use super::{PipelineConfig, RecordWalker};
use crate::callback::sync::Ordering;
use crate::columns::{Batch, Family, FamilySet};
use crate::intern::{Interner, Names};
use crate::pool::ActivityBuffer;

/// The decode thread's state: it alone owns the walker, the interner, the batch and the consumers.
pub(crate) struct DecodeLoop<W> {
    pub(crate) walker: W,
    pub(crate) rx: Receiver<Message>,
    pub(crate) link: Arc<Link>,
    pub(crate) interner: Interner,
    pub(crate) names: Names,
    pub(crate) config: PipelineConfig,
    pub(crate) batch: Batch,
    pub(crate) consumers: Vec<Consumer>,
    /// When the current batch must be delivered by `flush_interval` (set when it gets its first row).
    pub(crate) deadline: Option<Instant>,
}

impl<W: RecordWalker> DecodeLoop<W> {
    /// Runs until `Shutdown`, then decodes and delivers what is left. If anything in here panics (walker
    /// and consumer panics are caught inside), the link is still closed so no sender waits forever.
    pub(crate) fn run_guarded(self) {
        let link = Arc::clone(&self.link);
        let _ = catch_unwind(AssertUnwindSafe(|| self.run()));
        link.mark_stopped();
        link.discard_leftovers();
    }

    fn run(mut self) {
        loop {
            let message = match self.deadline {
                Some(deadline) => match self.rx.recv_deadline(deadline) {
                    Ok(message) => message,
                    Err(RecvTimeoutError::Timeout) => {
                        self.deliver();
                        continue;
                    }
                    // The link keeps a sender: never disconnected.
                    Err(RecvTimeoutError::Disconnected) => break,
                },
                None => match self.rx.recv() {
                    Ok(message) => message,
                    Err(_) => break,
                },
            };
            if !self.handle(message) {
                break;
            }
        }
        // Shutdown: what producers sent before they could see `stopped` is still decoded and delivered;
        // anything later is discarded (and counted) by its sender, see `Link`.
        self.link.mark_stopped();
        while let Ok(message) = self.rx.try_recv() {
            self.handle(message);
        }
        self.deliver();
    }

    /// Handles one message; false for `Shutdown`.
    fn handle(&mut self, message: Message) -> bool {
        match message {
            Message::Buffer { buf, valid } => self.decode(buf, valid),
            Message::Subscribe(consumer) => self.consumers.push(consumer),
            Message::Unsubscribe { id, ack } => {
                let before = self.consumers.len();
                self.consumers.retain(|c| c.id != id);
                if let Some(ack) = ack {
                    let _ = ack.send(self.consumers.len() != before);
                }
            }
            Message::Fence { ack } => {
                self.deliver();
                let _ = ack.send(());
            }
            Message::Shutdown => return false,
        }
        true
    }

    fn decode(&mut self, buf: ActivityBuffer, valid: usize) {
        let before = self.batch.len();
        let walker = &mut self.walker;
        let (batch, interner) = (&mut self.batch, &mut self.interner);
        let walked = catch_unwind(AssertUnwindSafe(|| walker.walk(buf.as_slice(valid), batch, interner)));
        self.link.pool.give_back(buf);
        self.link.buffers_returned.fetch_add(1, Ordering::Release);
        match walked {
            Ok(stats) => {
                add(&self.link.counters.skipped_unknown, stats.skipped_unknown);
                add(&self.link.counters.records_filtered, stats.filtered);
                if stats.abandoned_bytes != 0 {
                    add(&self.link.counters.buffers_cut_short, 1);
                    add(&self.link.counters.bytes_abandoned, stats.abandoned_bytes);
                }
            }
            Err(_) => add(&self.link.counters.walker_panics, 1),
        }
        let after = self.batch.len();
        add(&self.link.counters.records_decoded, after.saturating_sub(before) as u64);
        if after >= self.config.batch_rows.max(1) {
            self.deliver();
        } else if after > 0 && self.deadline.is_none() {
            self.deadline = self.config.flush_interval.map(|interval| Instant::now() + interval);
        }
    }

    /// Hands the current batch to every consumer of its families, counts, clears it.
    fn deliver(&mut self) {
        self.deadline = None;
        if self.batch.is_empty() {
            return;
        }
        let present = self.batch.families();
        let mut consumed = FamilySet::empty();
        for consumer in &mut self.consumers {
            if !consumer.families.intersects(present) {
                continue;
            }
            consumed |= consumer.families & present;
            let (callback, batch, names) = (&mut consumer.callback, &self.batch, &self.names);
            if catch_unwind(AssertUnwindSafe(|| callback(batch, names))).is_err() {
                add(&self.link.counters.consumer_panics, 1);
            }
        }
        let (mut delivered, mut unconsumed) = (0u64, 0u64);
        for family in Family::ALL {
            let rows = self.batch.len_of(family) as u64;
            if consumed.has(family) {
                delivered += rows;
            } else {
                unconsumed += rows;
            }
        }
        add(&self.link.counters.records_delivered, delivered);
        add(&self.link.counters.records_unconsumed, unconsumed);
        self.batch.clear();
    }
}
