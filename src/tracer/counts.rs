//! [`TracerCounts`]: every record the vendor produced, delivered or dropped.

use std::fmt;

use accelprof_core::activity::OtherClient;
use accelprof_core::Counts;

use super::Vendor;

/// A tracer's tallies: the decode pipeline's counts (the same for every vendor) and the vendor's own
/// extras, each named for what it is.
///
/// Once the tracer is quiet (after [`Tracer::flush`](super::Tracer::flush) with no work running, or
/// in the final report): [`produced`](Self::produced) = [`delivered`](Self::delivered) +
/// [`dropped`](Self::dropped) ([`adds_up`](Self::adds_up)). Dropped records are those the vendor
/// lost (for want of a buffer, counted by the vendor or by us), records of kinds the decoder does not
/// know, and rows no consumer wanted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TracerCounts {
    /// Whose records.
    pub vendor: Vendor,
    /// Buffers, rows decoded, delivered, dropped (see [`accelprof_core::Counts`]).
    pub pipeline: Counts,
    /// The vendor's own tallies (`("overflow_buffers", 0)`, `("sdk_drop_count", 0)`, ...): what the
    /// vendor crate counts beyond the pipeline, named as that crate names it.
    pub vendor_extras: Vec<(&'static str, u64)>,
    /// What another client of the vendor library took (CUPTI's and MSPTI's process-wide buffer
    /// callbacks): records lost that no other count holds.
    pub other_client: OtherClient,
}

impl TracerCounts {
    /// Records the vendor produced, as far as anyone knows: decoded + skipped + lost by the vendor + left
    /// out by the API filter applied while decoding ([`filtered`](Self::filtered)).
    pub fn produced(&self) -> u64 {
        self.pipeline.records_produced()
    }

    /// Records handed to at least one consumer.
    pub fn delivered(&self) -> u64 {
        self.pipeline.records_delivered
    }

    /// Records that reached no consumer (lost by the vendor, not decodable, or unwanted).
    pub fn dropped(&self) -> u64 {
        self.pipeline.records_dropped()
    }

    /// Records left out as the user's filter asked (CUPTI's API filter applied while decoding): neither
    /// delivered nor dropped.
    pub fn filtered(&self) -> u64 {
        self.pipeline.records_filtered
    }

    /// Whether produced = delivered + dropped + filtered (true once the tracer is quiet), and no other
    /// client of the vendor library took records that no count holds ([`OtherClient::seen`]).
    pub fn adds_up(&self) -> bool {
        !self.other_client.seen() && self.produced() == self.delivered() + self.dropped() + self.filtered()
    }

    /// A vendor extra by name.
    pub fn extra(&self, name: &str) -> Option<u64> {
        self.vendor_extras.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

impl fmt::Display for TracerCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.pipeline;
        write!(
            f,
            "{} produced = {} delivered + {} dropped ({} lost by {}, {} buffers declined, {} undecodable, {} unwanted)",
            self.produced(),
            self.delivered(),
            self.dropped(),
            p.vendor_dropped,
            self.vendor,
            p.buffers_declined,
            p.skipped_unknown,
            p.records_unconsumed,
        )?;
        if p.records_filtered != 0 {
            write!(f, " + {} filtered out", p.records_filtered)?;
        }
        Ok(())
    }
}

/// `now - before`, counter by counter (the counts of a pipeline that lived before this tracer).
#[cfg_attr(not(feature = "rocprofiler"), allow(dead_code))]
pub(crate) fn since(now: Counts, before: Counts) -> Counts {
    Counts {
        buffers_completed: now.buffers_completed.saturating_sub(before.buffers_completed),
        buffers_declined: now.buffers_declined.saturating_sub(before.buffers_declined),
        buffers_discarded: now.buffers_discarded.saturating_sub(before.buffers_discarded),
        records_decoded: now.records_decoded.saturating_sub(before.records_decoded),
        records_delivered: now.records_delivered.saturating_sub(before.records_delivered),
        records_unconsumed: now.records_unconsumed.saturating_sub(before.records_unconsumed),
        skipped_unknown: now.skipped_unknown.saturating_sub(before.skipped_unknown),
        records_filtered: now.records_filtered.saturating_sub(before.records_filtered),
        vendor_dropped: now.vendor_dropped.saturating_sub(before.vendor_dropped),
        consumer_panics: now.consumer_panics.saturating_sub(before.consumer_panics),
        walker_panics: now.walker_panics.saturating_sub(before.walker_panics),
        buffers_cut_short: now.buffers_cut_short.saturating_sub(before.buffers_cut_short),
        bytes_abandoned: now.bytes_abandoned.saturating_sub(before.bytes_abandoned),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_identity_and_a_later_window() {
        let before =
            Counts { records_decoded: 10, records_delivered: 8, records_unconsumed: 2, ..Counts::default() };
        let now = Counts {
            records_decoded: 25,
            records_delivered: 20,
            records_unconsumed: 2,
            vendor_dropped: 3,
            ..Counts::default()
        };
        let c = TracerCounts {
            vendor: Vendor::Mspti,
            pipeline: since(now, before),
            vendor_extras: vec![("x", 1)],
            other_client: OtherClient::default(),
        };
        assert_eq!((c.produced(), c.delivered(), c.dropped()), (18, 12, 3));
        assert!(!c.adds_up(), "3 rows still in flight");
        assert_eq!(c.extra("x"), Some(1));
        assert!(c.to_string().starts_with("18 produced = 12 delivered + 3 dropped (3 lost by MSPTI"), "{c}");
        let quiet = TracerCounts { pipeline: Counts::default(), ..c.clone() };
        assert!(quiet.adds_up());
        let lost = TracerCounts {
            other_client: OtherClient { foreign_buffers: 1, ..OtherClient::default() },
            ..quiet
        };
        assert!(!lost.adds_up(), "another client took records that no count holds");
    }
}
