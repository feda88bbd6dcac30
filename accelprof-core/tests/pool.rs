use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};

use accelprof_core::pool::{ActivityBuffer, BufferPool, OverflowStats, PoolStats};

#[test]
fn buffers_are_aligned_fixed_size_and_rounded_up() {
    let pool = BufferPool::new(1001, 4);
    assert_eq!(pool.buffer_size(), 1008);
    let buf = pool.take().unwrap();
    assert_eq!(buf.len(), 1008);
    let (ptr, size) = buf.into_raw();
    assert_eq!(ptr as usize % 8, 0);
    assert_eq!(size, 1008);
    // SAFETY: the pair came from into_raw just above and is reclaimed once.
    let buf = unsafe { ActivityBuffer::from_raw(ptr, size) };
    pool.give_back(buf);
    assert_eq!(pool.stats(), PoolStats { allocated: 1, free: 1, in_flight: 0, declined: 0 });
}

#[test]
fn raw_round_trip_keeps_what_c_wrote() {
    let pool = BufferPool::new(64, 1);
    let (ptr, size) = pool.take().unwrap().into_raw();
    // Write the way a C library would: through the raw pointer.
    for i in 0..size {
        // SAFETY: ptr points to `size` writable bytes owned by nobody else until from_raw.
        unsafe { ptr.add(i).write(i as u8) };
    }
    // SAFETY: the pair came from into_raw and is reclaimed once.
    let buf = unsafe { ActivityBuffer::from_raw(ptr, size) };
    let expected: Vec<u8> = (0..40).collect();
    assert_eq!(buf.as_slice(40), &expected[..]);
    assert_eq!(buf.as_slice(1000).len(), 64, "valid beyond the buffer is clamped");
    pool.give_back(buf);
}

#[test]
fn the_bound_declines_and_recycling_reuses_the_same_blocks() {
    let pool = BufferPool::new(256, 3);
    let held: Vec<_> = (0..3).map(|_| pool.take().expect("under the bound")).collect();
    let addresses: HashSet<usize> = held.iter().map(|b| b.as_slice(0).as_ptr() as usize).collect();
    assert!(pool.take().is_none());
    assert!(pool.take().is_none());
    assert_eq!(pool.stats(), PoolStats { allocated: 3, free: 0, in_flight: 3, declined: 2 });

    for buf in held {
        pool.give_back(buf);
    }
    assert_eq!(pool.stats(), PoolStats { allocated: 3, free: 3, in_flight: 0, declined: 2 });
    let again: Vec<_> = (0..3).map(|_| pool.take().unwrap()).collect();
    let reused: HashSet<usize> = again.iter().map(|b| b.as_slice(0).as_ptr() as usize).collect();
    assert_eq!(addresses, reused, "no new allocation once warm");
    assert_eq!(pool.stats().allocated, 3);
}

#[test]
fn warm_preallocates_within_the_bound() {
    let pool = BufferPool::new(128, 4);
    assert_eq!(pool.warm(10), 4);
    assert_eq!(pool.stats(), PoolStats { allocated: 4, free: 4, in_flight: 0, declined: 0 });
    let a = pool.take().unwrap();
    assert_eq!(pool.stats().allocated, 4);
    pool.give_back(a);
}

#[test]
fn discard_releases_a_slot_and_foreign_buffers_are_not_counted() {
    let pool = BufferPool::new(64, 1);
    let a = pool.take().unwrap();
    assert!(pool.take().is_none());
    pool.discard(a);
    assert_eq!(pool.stats().allocated, 0);
    let b = pool.take().expect("slot released by discard");

    let other = BufferPool::new(32, 1);
    pool.give_back(other.take().unwrap());
    assert_eq!(pool.stats(), PoolStats { allocated: 1, free: 0, in_flight: 1, declined: 1 });
    pool.give_back(b);
    assert_eq!(pool.stats(), PoolStats { allocated: 1, free: 1, in_flight: 0, declined: 1 });
}

#[test]
fn many_threads_take_and_give_back_without_sharing_a_buffer_or_passing_the_bound() {
    const THREADS: usize = 8;
    const ROUNDS: usize = 5_000;
    const BOUND: usize = 4;
    let pool = BufferPool::new(64, BOUND);
    let holding = Arc::new(AtomicUsize::new(0));
    let max_holding = Arc::new(AtomicUsize::new(0));
    let start = Arc::new(Barrier::new(THREADS));
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            let (pool, holding, max_holding, start) =
                (Arc::clone(&pool), Arc::clone(&holding), Arc::clone(&max_holding), Arc::clone(&start));
            std::thread::spawn(move || {
                start.wait();
                let (mut got, mut declined) = (0u64, 0u64);
                for round in 0..ROUNDS {
                    let Some(mut buf) = pool.take() else {
                        declined += 1;
                        std::thread::yield_now();
                        continue;
                    };
                    got += 1;
                    let now = holding.fetch_add(1, Ordering::SeqCst) + 1;
                    max_holding.fetch_max(now, Ordering::SeqCst);
                    assert!(pool.stats().allocated <= BOUND);
                    // A buffer held by two threads at once would show the other thread's stamp.
                    let stamp = (t * ROUNDS + round) as u64;
                    buf.as_mut_bytes()[..8].copy_from_slice(&stamp.to_le_bytes());
                    std::thread::yield_now();
                    assert_eq!(buf.as_slice(8), &stamp.to_le_bytes());
                    holding.fetch_sub(1, Ordering::SeqCst);
                    pool.give_back(buf);
                }
                (got, declined)
            })
        })
        .collect();
    let (mut got, mut declined) = (0, 0);
    for thread in threads {
        let (g, d) = thread.join().unwrap();
        got += g;
        declined += d;
    }
    assert_eq!(got + declined, (THREADS * ROUNDS) as u64);
    assert!(max_holding.load(Ordering::SeqCst) <= BOUND);
    let stats = pool.stats();
    assert_eq!(stats.declined, declined);
    assert!(stats.allocated <= BOUND);
    assert_eq!(stats.in_flight, 0);
    assert_eq!(stats.free, stats.allocated);
}

#[test]
fn sizes_past_the_limits_are_a_typed_error_not_an_overflow_or_an_abort() {
    use accelprof_core::pool::PoolError;
    // 1 PiB per buffer, 2^40 buffers, and u64::MAX (which overflowed the rounding up to 8 bytes).
    for size in [1usize << 50, usize::MAX] {
        assert_eq!(
            BufferPool::try_new(size, 4).unwrap_err(),
            PoolError::BufferTooLarge { requested: size, limit: BufferPool::MAX_BUFFER_SIZE }
        );
    }
    for count in [1usize << 40, usize::MAX] {
        let err = BufferPool::try_new(4096, count).unwrap_err();
        assert_eq!(err, PoolError::TooManyBuffers { requested: count, limit: BufferPool::MAX_IN_FLIGHT });
        assert!(err.to_string().contains("65536"), "{err}");
    }
    let at_limit = BufferPool::try_new(BufferPool::MAX_BUFFER_SIZE, BufferPool::MAX_IN_FLIGHT).unwrap();
    assert_eq!(at_limit.stats().allocated, 0, "nothing allocated up front");

    // `new` lowers them to the limits instead (it used to overflow, or abort allocating the free list).
    let clamped = BufferPool::new(usize::MAX, usize::MAX);
    assert_eq!(clamped.buffer_size(), BufferPool::MAX_BUFFER_SIZE);
    assert_eq!(clamped.max_in_flight(), BufferPool::MAX_IN_FLIGHT);
    let small = BufferPool::new(0, 0);
    assert_eq!((small.buffer_size(), small.max_in_flight()), (8, 1));
}

#[test]
fn overflow_buffers_count_against_their_bound_until_given_back() {
    let pool = BufferPool::try_with_overflow(512, 1, 2).unwrap();
    let own = pool.take().unwrap();
    assert!(pool.take().is_none());
    let a = pool.take_overflow().expect("first overflow buffer");
    let b = pool.take_overflow().expect("second overflow buffer");
    assert_eq!(a.len(), pool.overflow_size());
    assert!(pool.take_overflow().is_none(), "max_overflow reached");
    assert_eq!(pool.overflow_stats(), OverflowStats { in_flight: 2, total: 2 });
    pool.give_back(a);
    pool.discard(b);
    assert_eq!(pool.overflow_stats(), OverflowStats { in_flight: 0, total: 2 });
    assert!(pool.take_overflow().is_some());
    pool.give_back(own);
    assert_eq!(pool.stats().free, 1, "the pool's own buffer is recycled, overflow buffers are not");
    assert!(BufferPool::new(64, 1).take_overflow().is_none(), "no overflow unless asked for");
    assert!(BufferPool::try_with_overflow(64, 1, BufferPool::MAX_IN_FLIGHT + 1).is_err());
}
