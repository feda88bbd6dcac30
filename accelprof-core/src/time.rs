//! Vendor clocks and Unix time: the [`TimeMap`] a vendor crate's session gives with its records, and the
//! [`ClockAnchor`] a trace keeps of it. (Writing either into a file is the export crate's business.)

/// Maps a vendor timestamp (ns on the vendor's clock) to Unix time in ns: `unix = vendor + offset`.
///
/// The vendor crate builds it from one pair of simultaneous readings of both clocks
/// ([`from_pair`](Self::from_pair)); for a vendor clock that already is `CLOCK_REALTIME` use
/// [`IDENTITY`](Self::IDENTITY).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TimeMap {
    offset_ns: i64,
}

impl TimeMap {
    /// The vendor clock is Unix time already.
    pub const IDENTITY: TimeMap = TimeMap { offset_ns: 0 };

    /// `unix = vendor + offset_ns`.
    pub const fn from_offset(offset_ns: i64) -> Self {
        TimeMap { offset_ns }
    }

    /// From a vendor clock reading and a Unix clock reading taken at the same moment.
    pub fn from_pair(vendor_ns: u64, unix_ns: u64) -> Self {
        let offset = i128::from(unix_ns) - i128::from(vendor_ns);
        TimeMap { offset_ns: offset.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64 }
    }

    /// The offset added to vendor timestamps.
    pub const fn offset_ns(self) -> i64 {
        self.offset_ns
    }

    /// The Unix time of a vendor timestamp (saturating at the ends of `u64`).
    pub fn to_unix_ns(self, vendor_ns: u64) -> u64 {
        let unix = i128::from(vendor_ns) + i128::from(self.offset_ns);
        unix.clamp(0, i128::from(u64::MAX)) as u64
    }
}

/// One simultaneous reading of the records' clock and of Unix time (`CLOCK_REALTIME`): it maps every record
/// timestamp to Unix time, `unix = record + (unix_ns - record_ns)`.
///
/// A trace says how its timestamps relate to Unix time with it, so that a later merge of many hosts' files
/// lines them up: columnar files keep the records' own clock and apply it per file; the Chrome trace writes
/// Unix times already and records the anchor it applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockAnchor {
    /// The records' clock, by name (`CLOCK_REALTIME`, `CLOCK_MONOTONIC_RAW`, `cupti`, `hsa`, ...).
    pub clock: String,
    /// A reading of the records' clock, ns.
    pub record_ns: u64,
    /// The Unix time at that reading, ns.
    pub unix_ns: u64,
}

impl ClockAnchor {
    /// Records already carry Unix time.
    pub const REALTIME: ClockAnchor = ClockAnchor { clock: String::new(), record_ns: 0, unix_ns: 0 };

    /// An anchor from a pair of simultaneous readings.
    pub fn new(clock: impl Into<String>, record_ns: u64, unix_ns: u64) -> Self {
        ClockAnchor { clock: clock.into(), record_ns, unix_ns }
    }

    /// An anchor for a [`TimeMap`] (as the vendor crates give it), read at `record_ns`.
    pub fn from_time_map(clock: impl Into<String>, time: TimeMap, record_ns: u64) -> Self {
        ClockAnchor { clock: clock.into(), record_ns, unix_ns: time.to_unix_ns(record_ns) }
    }

    /// The clock's name, `CLOCK_REALTIME` when none was given.
    pub fn clock_name(&self) -> &str {
        if self.clock.is_empty() {
            "CLOCK_REALTIME"
        } else {
            &self.clock
        }
    }

    /// `unix_ns - record_ns`: what is added to a record timestamp to get Unix time.
    pub fn unix_offset_ns(&self) -> i64 {
        self.time_map().offset_ns()
    }

    /// The mapping as a [`TimeMap`].
    pub fn time_map(&self) -> TimeMap {
        TimeMap::from_pair(self.record_ns, self.unix_ns)
    }
}

impl Default for ClockAnchor {
    fn default() -> Self {
        ClockAnchor::REALTIME
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_anchor_maps_record_time_to_unix_time() {
        let anchor = ClockAnchor::new("CLOCK_MONOTONIC_RAW", 5_000, 1_700_000_000_000_005_000);
        assert_eq!(anchor.unix_offset_ns(), 1_700_000_000_000_000_000);
        assert_eq!(anchor.time_map().to_unix_ns(6_000), 1_700_000_000_000_006_000);
        let back = ClockAnchor::from_time_map("x", anchor.time_map(), 42);
        assert_eq!(back.unix_offset_ns(), anchor.unix_offset_ns());
        assert_eq!(ClockAnchor::REALTIME.clock_name(), "CLOCK_REALTIME");
        assert_eq!(ClockAnchor::REALTIME.unix_offset_ns(), 0);
    }
}
