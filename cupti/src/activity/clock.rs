//! CUPTI's record clock and Unix time.
//!
//! CUPTI stamps records with `cuptiGetTimestamp`, which on Linux is `CLOCK_REALTIME` in nanoseconds: a
//! record's timestamp already is its Unix time. [`RecordClock::calibrate`] checks this the way the seed
//! monitor does: one `cuptiGetTimestamp` read bracketed by two `CLOCK_REALTIME` reads. When it lands
//! inside the bracket the map is the identity; otherwise (another clock source) the offset measured at
//! the bracket's midpoint is used.

use std::time::{SystemTime, UNIX_EPOCH};

use accelprof_core::time::TimeMap;

use crate::{Cupti, Result};

/// How record timestamps map to Unix nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordClock {
    /// Maps a record timestamp to Unix ns.
    pub time_map: TimeMap,
    /// Whether `cuptiGetTimestamp` read inside a `CLOCK_REALTIME` bracket (records are Unix time).
    pub is_realtime: bool,
    /// The CUPTI reading taken.
    pub cupti_ns: u64,
    /// The `CLOCK_REALTIME` reads around it.
    pub realtime_bracket: (u64, u64),
}

/// `CLOCK_REALTIME` in ns.
pub fn unix_now_ns() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

impl RecordClock {
    /// Reads both clocks and derives the map.
    #[doc(alias = "cuptiGetTimestamp")]
    pub fn calibrate(cupti: &Cupti) -> Result<RecordClock> {
        let before = unix_now_ns();
        let cupti_ns = cupti.timestamp()?;
        let after = unix_now_ns();
        Ok(RecordClock::from_readings(before, cupti_ns, after))
    }

    /// The map from a CUPTI reading taken between two `CLOCK_REALTIME` reads.
    pub fn from_readings(before: u64, cupti_ns: u64, after: u64) -> RecordClock {
        let is_realtime = cupti_ns != 0 && (before..=after).contains(&cupti_ns);
        let time_map = if is_realtime {
            TimeMap::IDENTITY
        } else {
            TimeMap::from_pair(cupti_ns, before + (after.saturating_sub(before)) / 2)
        };
        RecordClock { time_map, is_realtime, cupti_ns, realtime_bracket: (before, after) }
    }

    /// The Unix time (ns) of a record timestamp.
    pub fn to_unix_ns(&self, record_ns: u64) -> u64 {
        self.time_map.to_unix_ns(record_ns)
    }
}

impl Cupti {
    /// CUPTI's current timestamp (ns): the clock activity records are stamped with. While an activity
    /// session with user-defined records is live, through that session's subscriber
    /// (`cuptiGetTimestamp_v2`: CUPTI refuses the plain call then).
    #[doc(alias = "cuptiGetTimestamp")]
    #[doc(alias = "cuptiGetTimestamp_v2")]
    pub fn timestamp(&self) -> Result<u64> {
        let mut now = 0;
        if let Some(sub) = super::api::live_subscriber() {
            // SAFETY: `now` is a valid out-pointer for the call; a live subscriber.
            let r = unsafe { self.functions().cuptiGetTimestamp_v2(sub.0, &mut now) };
            self.check("cuptiGetTimestamp_v2", r)?;
            return Ok(now);
        }
        // SAFETY: `now` is a valid out-pointer for the call.
        let r = unsafe { self.functions().cuptiGetTimestamp(&mut now) };
        self.check("cuptiGetTimestamp", r)?;
        Ok(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_the_bracket_is_identity_outside_is_an_offset() {
        let c = RecordClock::from_readings(1_000, 1_500, 2_000);
        assert!(c.is_realtime);
        assert_eq!(c.to_unix_ns(123), 123);
        let c = RecordClock::from_readings(1_000_000, 10, 1_000_100);
        assert!(!c.is_realtime);
        assert_eq!(c.to_unix_ns(10), 1_000_050);
        assert_eq!(c.to_unix_ns(20), 1_000_060);
    }
}
