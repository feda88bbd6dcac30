//! Model check of the hand-off to the decode thread at close, with loom: see
//! `crate::callback::loom_models` and `docs/CHECKS.md`. The link's `stopped` flag and fences are
//! loom's under `--cfg loom`; the channel stays crossbeam's (each of its operations is one step here).

use std::sync::Arc;

use loom::thread;

use super::decode_loop::DecodeLoop;
use super::link::Link;
use super::message::Message;
use super::{PipelineConfig, WalkStats};
use crate::columns::{Batch, KernelRow};
use crate::intern::Interner;
use crate::pool::BufferPool;

/// (d) A vendor thread completes a buffer while the decode thread shuts down (the real loop: its
/// last drain after `stopped`, then the leftovers): the buffer is decoded or counted as discarded,
/// exactly once, and nothing is left in the channel.
#[test]
fn loom_a_buffer_handed_over_at_close_is_decoded_or_discarded_exactly_once() {
    crate::callback::loom_models::check("pipeline/hand-off at close", || {
        let pool = BufferPool::new(64, 2);
        let (link, rx) = Link::new(Arc::clone(&pool));
        let walker = |_: &[u8], out: &mut Batch, _: &mut Interner| {
            out.kernels.push(KernelRow::default());
            WalkStats { records: 1, ..WalkStats::default() }
        };
        let interner = Interner::new();
        let names = interner.names();
        let decode = DecodeLoop {
            walker,
            rx: rx.clone(),
            link: Arc::clone(&link),
            interner,
            names,
            batch: Batch::new(),
            consumers: Vec::new(),
            deadline: None,
            config: PipelineConfig { flush_interval: None, ..PipelineConfig::default() },
        };
        // The pipeline is closing: its shutdown is the next message the decode thread takes.
        link.send(Message::Shutdown);
        let buf = pool.take().expect("a buffer");
        let vendor = {
            let link = Arc::clone(&link);
            thread::spawn(move || link.send(Message::Buffer { buf, valid: 8 }))
        };
        decode.run_guarded();
        vendor.join().unwrap();
        let counts = link.counters.snapshot();
        assert_eq!(
            counts.records_decoded + counts.buffers_discarded,
            1,
            "decoded {} and discarded {}",
            counts.records_decoded,
            counts.buffers_discarded
        );
        assert!(rx.try_recv().is_err(), "a message left in the channel");
    });
}
