//! Model check of the pool's bounds, with loom: see `crate::callback::loom_models` and
//! `docs/CHECKS.md`. The pool's counters are loom's under `--cfg loom`; its free list stays
//! crossbeam's (each of its operations is one step here).

use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::Arc;

use loom::thread;

use super::BufferPool;

/// Two vendor threads each take a buffer, lending an overflow buffer when the pool's one is out,
/// and give it back, against a pool of one buffer and one overflow buffer: never more than one of
/// each lent at once, every request served while one of each is free (the two threads never are
/// both refused), and after both gave back, both are free again.
#[test]
fn loom_the_pool_and_its_overflow_never_lend_past_their_bounds() {
    crate::callback::loom_models::check("pool/take+overflow+give back", || {
        let pool = BufferPool::try_with_overflow(BufferPool::MIN_BUFFER_SIZE, 1, 1).unwrap();
        // Buffers of each kind lent now (std's: the model's own bookkeeping).
        let lent = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
        let threads: Vec<_> = (0..2)
            .map(|_| {
                let (pool, lent) = (Arc::clone(&pool), Arc::clone(&lent));
                thread::spawn(move || {
                    let (buf, kind) = match pool.take() {
                        Some(buf) => (buf, 0),
                        None => (pool.take_overflow().expect("one of each for two threads"), 1),
                    };
                    assert!(lent[kind].fetch_add(1, SeqCst) < 1, "two lent at once");
                    assert_eq!(
                        buf.len(),
                        [BufferPool::MIN_BUFFER_SIZE, BufferPool::MIN_BUFFER_SIZE + 8][kind]
                    );
                    lent[kind].fetch_sub(1, SeqCst);
                    pool.give_back(buf);
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(pool.overflow_stats().in_flight, 0, "every overflow buffer came back");
        let (a, b) = (pool.take(), pool.take_overflow());
        assert!(a.is_some() && b.is_some(), "both free again");
    });
}
