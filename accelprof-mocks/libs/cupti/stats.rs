//! Counters a test reads through `mock_cupti_stat(name)`: what the mock saw the client do.

use std::sync::atomic::{AtomicU64, Ordering};

macro_rules! counters {
    ($( $(#[$doc:meta])* $name:ident ),* $(,)?) => {
        $( $(#[$doc])* pub static $name: AtomicU64 = AtomicU64::new(0); )*

        /// The counter named `name` (lower case of the static's name).
        pub fn by_name(name: &str) -> Option<&'static AtomicU64> {
            $( if name.eq_ignore_ascii_case(stringify!($name)) { return Some(&$name); } )*
            None
        }

        pub fn reset() {
            $( $name.store(0, Ordering::Relaxed); )*
        }
    };
}

counters! {
    /// Client callbacks (API, resource, synchronize domain) running right now.
    CALLBACKS_IN_FLIGHT,
    /// Client callbacks invoked so far.
    CALLBACKS_DELIVERED,
    /// Played API calls (each one correlation id).
    API_CALLS,
    /// Buffer-requested callbacks invoked.
    BUFFERS_REQUESTED,
    /// Requests answered with no usable buffer (NULL, size 0, not 8-byte aligned, or too small
    /// for the record): the record that needed it was dropped.
    BUFFERS_DECLINED,
    /// Of the declined buffers, those not 8-byte aligned.
    BUFFERS_MISALIGNED,
    /// Buffer-completed callbacks invoked.
    BUFFERS_COMPLETED,
    /// Records written into client buffers.
    RECORDS_WRITTEN,
    /// Records dropped for want of a buffer (cumulative; `cuptiActivityGetNumDroppedRecords`
    /// reports and resets its own count).
    RECORDS_DROPPED,
    /// In-flight kernels whose record a forced flush handed out with end = 0 and that finished
    /// later: their real timing is lost, as with the real library.
    RECORDS_LOST_AFTER_FORCED_FLUSH,
    /// Calls of a function that the played release does not export (`cuptiSubscribe_v2` under
    /// 12.x numbering); the real library would have no such symbol.
    ABSENT_SYMBOL_CALLS,
}

pub fn add(counter: &AtomicU64, n: u64) {
    counter.fetch_add(n, Ordering::Relaxed);
}

pub fn sub(counter: &AtomicU64, n: u64) {
    counter.fetch_sub(n, Ordering::Relaxed);
}

pub fn get(counter: &AtomicU64) -> u64 {
    counter.load(Ordering::Relaxed)
}
