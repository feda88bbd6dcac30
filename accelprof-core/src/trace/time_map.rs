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
