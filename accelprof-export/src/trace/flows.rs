pub(crate) use super::FlowStats;

/// One end of a flow arrow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Endpoint {
    pub(crate) pid: u64,
    pub(crate) tid: u64,
    /// ns relative to the trace base.
    pub(crate) ts: i64,
}

/// What is known of one correlation id.
#[derive(Clone, Copy, Debug, Default)]
enum State {
    /// Nothing (a free slot).
    #[default]
    Empty,
    /// An API call (the outermost of those sharing the id so far, with its end), GPU work not seen yet.
    Launch(Endpoint, i64),
    /// GPU work whose API call was not seen yet.
    Target(Endpoint),
    /// Both ends seen in the API phase of the current batch: the arrow is written at its end.
    Ready(Endpoint, i64, Endpoint),
    /// The arrow was written; later API calls or GPU work with this id draw no other one.
    Linked,
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    correlation: u64,
    state: State,
}

/// Launch -> GPU work arrows by correlation id, written as soon as both ends are seen.
///
/// One correlation id can belong to several API calls: CUPTI gives the driver calls a runtime call makes
/// (`cudaLaunchKernel` -> `cuLaunchKernel`) the runtime call's id, and their records come first (they end
/// first). The arrow starts at the outermost of them, the user's runtime call, as PyTorch's profiler draws
/// it: a batch's API calls are all taken in before any arrow of the batch is written. Each id gets one `s`
/// and one `f` (the first GPU work with the id; CUDA-graph kernels share their launch's id).
///
/// The ends waiting for their other end live in a table of `capacity` slots (a power of two), the slot
/// of an id being `id mod capacity`: vendors hand out correlation ids in increasing order, so the table
/// holds the last `capacity` ids and a new id takes the place of the one `capacity` before it (counted in
/// [`FlowStats`] when that one was still waiting). Memory is fixed whatever the run's length; the price is
/// that GPU work whose launch is `capacity` ids or more older than the newest id seen gets no arrow
/// (counted as `targets_evicted`).
///
/// The table starts small ([`FIRST_SLOTS`]) and doubles (up to `capacity`) when a new id's slot is held
/// by another id: it pushes an id out only at its full size, where the two ids are `capacity` apart, so
/// it behaves as the full table would, and a short trace does not pay for (allocate and fill) the full
/// table (9 MiB at the default capacity).
#[derive(Debug)]
pub(crate) struct Flows {
    /// A power of two of slots, at most `capacity` (none before the first id).
    slots: Vec<Slot>,
    /// The most slots: a power of two.
    capacity: usize,
    ready: Vec<u64>,
    stats: FlowStats,
}

/// Slots of the table when first used (fewer where the capacity is smaller).
const FIRST_SLOTS: usize = 64;

impl Flows {
    /// A table of at most `capacity` slots (rounded up to a power of two, at least 2), allocated when first
    /// used, growing with the ids waiting.
    pub(crate) fn new(capacity: usize) -> Self {
        let capacity = capacity.clamp(2, 1 << 30).next_power_of_two();
        Flows { slots: Vec::new(), capacity, ready: Vec::new(), stats: FlowStats::default() }
    }

    /// The index of `correlation`'s slot in the table now.
    #[inline]
    fn index(&self, correlation: u64) -> usize {
        (correlation & (self.slots.len() as u64).wrapping_sub(1)) as usize
    }

    /// The index of `correlation`'s slot, the table grown first while that slot is another id's and the
    /// table is below its full size.
    #[inline]
    fn claim(&mut self, correlation: u64) -> usize {
        loop {
            if !self.slots.is_empty() {
                let i = self.index(correlation);
                let slot = &self.slots[i];
                if slot.correlation == correlation
                    || matches!(slot.state, State::Empty)
                    || self.slots.len() == self.capacity
                {
                    return i;
                }
            }
            self.grow();
        }
    }

    /// Doubles the table (or makes the first one), each id kept at its slot in the larger table (two ids
    /// in different slots of a table are in different slots of one twice its size).
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let len = (self.slots.len() * 2).clamp(FIRST_SLOTS.min(self.capacity), self.capacity);
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); len]);
        for slot in old {
            if !matches!(slot.state, State::Empty) {
                let i = self.index(slot.correlation);
                self.slots[i] = slot;
            }
        }
    }

    /// What the table did so far.
    pub(crate) fn stats(&self) -> FlowStats {
        self.stats
    }

    /// The slot of `correlation`, claimed for it (a waiting older id there is pushed out and counted).
    #[inline]
    fn slot(&mut self, correlation: u64) -> &mut Slot {
        let i = self.claim(correlation);
        let slot = &mut self.slots[i];
        if slot.correlation != correlation {
            match slot.state {
                State::Empty | State::Linked => {}
                State::Launch(..) => self.stats.launches_evicted += 1,
                // A ready pair pushed out before the end of its batch's API phase loses its arrow too.
                State::Target(_) | State::Ready(..) => self.stats.targets_evicted += 1,
            }
            if matches!(slot.state, State::Launch(..) | State::Target(_) | State::Ready(..)) {
                self.stats.pending -= 1;
            }
            *slot = Slot { correlation, state: State::Empty };
        }
        slot
    }

    /// An API call with this correlation id, from `at` to `end` (0 means "none"). Of calls sharing an id,
    /// the one that starts first (then ends last) encloses the others and is kept. An arrow it completes is
    /// written by [`take_ready`](Self::take_ready).
    #[inline]
    pub(crate) fn launch(&mut self, correlation: u64, at: Endpoint, end: i64) {
        if correlation == 0 {
            return;
        }
        let slot = self.slot(correlation);
        match &mut slot.state {
            state @ State::Empty => {
                *state = State::Launch(at, end);
                self.stats.pending += 1;
            }
            State::Launch(kept, kept_end) | State::Ready(kept, kept_end, _) => {
                if (at.ts, std::cmp::Reverse(end)) < (kept.ts, std::cmp::Reverse(*kept_end)) {
                    (*kept, *kept_end) = (at, end);
                }
            }
            state @ State::Target(_) => {
                let State::Target(target) = *state else { unreachable!() };
                *state = State::Ready(at, end, target);
                self.ready.push(correlation);
            }
            State::Linked => {}
        }
    }

    /// The arrows completed by API calls since the last call: `(id, launch, target)`.
    pub(crate) fn take_ready(&mut self, mut emit: impl FnMut(u64, Endpoint, Endpoint)) {
        for id in std::mem::take(&mut self.ready) {
            let i = self.index(id);
            let Some(slot) = self.slots.get_mut(i) else { continue };
            if slot.correlation != id {
                continue;
            }
            if let State::Ready(launch, _, target) = slot.state {
                slot.state = State::Linked;
                self.stats.linked += 1;
                self.stats.pending -= 1;
                emit(id, launch, target);
            }
        }
    }

    /// GPU work with this correlation id (0 means "none"): the launch end when its arrow is to be written
    /// now.
    #[inline]
    pub(crate) fn target(&mut self, correlation: u64, at: Endpoint) -> Option<Endpoint> {
        if correlation == 0 {
            return None;
        }
        let slot = self.slot(correlation);
        match slot.state {
            State::Empty => {
                slot.state = State::Target(at);
                self.stats.pending += 1;
                None
            }
            State::Launch(launch, _) => {
                slot.state = State::Linked;
                self.stats.linked += 1;
                self.stats.pending -= 1;
                Some(launch)
            }
            State::Target(_) | State::Ready(..) | State::Linked => None,
        }
    }
}

/// Slots stay small: the table is `capacity` of them.
const _: () = assert!(std::mem::size_of::<Slot>() <= 72);

#[cfg(test)]
mod tests {
    use super::*;

    fn at(tid: u64, ts: i64) -> Endpoint {
        Endpoint { pid: 1, tid, ts }
    }

    #[test]
    fn a_shared_id_starts_one_arrow_at_the_enclosing_call_whatever_the_arrival_order() {
        let mut flows = Flows::new(16);
        // cuLaunchKernel [2000, 3000] arrives before the cudaLaunchKernel [1000, 5000] enclosing it.
        flows.launch(7, at(11, 2_000), 3_000);
        flows.launch(7, at(12, 1_000), 5_000);
        flows.launch(7, at(13, 1_500), 4_000);
        // Same start: the longer call encloses the shorter.
        flows.launch(8, at(21, 1_000), 1_500);
        flows.launch(8, at(22, 1_000), 2_500);
        flows.launch(9, at(31, 1_000), 2_000); // no GPU work: no arrow
        let gpu = Endpoint { pid: 0, tid: 7, ts: 9_000 };
        assert_eq!(flows.target(7, gpu), Some(at(12, 1_000)));
        assert_eq!(flows.target(8, gpu), Some(at(22, 1_000)));
        assert_eq!(flows.target(7, gpu), None, "one arrow per id");
        flows.launch(7, at(1, 0), 9_999);
        flows.take_ready(|_, _, _| panic!("linked already"));
        assert_eq!(flows.stats().linked, 2);
    }

    #[test]
    fn gpu_work_first_is_linked_once_the_batchs_api_calls_are_in() {
        let mut flows = Flows::new(16);
        let gpu = Endpoint { pid: 0, tid: 7, ts: 9_000 };
        assert_eq!(flows.target(5, gpu), None);
        flows.launch(5, at(11, 2_000), 3_000);
        flows.launch(5, at(12, 1_000), 5_000);
        let mut arrows = Vec::new();
        flows.take_ready(|id, s, f| arrows.push((id, s, f)));
        assert_eq!(arrows, [(5, at(12, 1_000), gpu)]);
    }

    #[test]
    fn the_table_is_bounded_and_counts_what_it_pushes_out() {
        let mut flows = Flows::new(3); // rounded up to 4
        let gpu = Endpoint { pid: 0, tid: 7, ts: 9_000 };
        for id in 1..=100 {
            flows.launch(id, at(1, id as i64), id as i64 + 1);
        }
        assert_eq!(flows.stats().pending, 4);
        assert_eq!(flows.stats().launches_evicted, 96);
        assert_eq!(flows.target(100, gpu), Some(at(1, 100)), "recent ids still link");
        assert_eq!(flows.target(1, gpu), None, "an id pushed out long ago");
        for id in 1000..1010 {
            flows.target(id, gpu);
        }
        let stats = flows.stats();
        assert_eq!(stats.pending, 4);
        assert!(stats.targets_evicted >= 6, "{stats:?}");
        assert_eq!(flows.slots.len(), 4, "the table never grows past its capacity");
    }

    /// A Chrome trace of a few ids allocated (and filled) the whole table, 131,072 slots of 72 bytes
    /// at the default capacity: 33 ms per input of the `chrome_trace` fuzz target.
    #[test]
    fn a_few_ids_take_a_small_table() {
        let mut flows = Flows::new(1 << 17);
        let gpu = Endpoint { pid: 0, tid: 7, ts: 9_000 };
        for id in 1..=40 {
            flows.launch(id, at(1, id as i64), id as i64 + 1);
            flows.target(id, gpu);
        }
        assert_eq!(flows.stats().linked, 40);
        assert!(flows.slots.len() <= FIRST_SLOTS, "{} slots for 40 ids", flows.slots.len());
        // Ids far apart grow it (up to its capacity), none pushed out below it.
        flows.launch(1 + (1 << 16), at(1, 0), 1);
        flows.launch(1 + (1 << 15), at(1, 0), 1);
        assert_eq!(flows.slots.len(), 1 << 17);
        assert_eq!(flows.stats().launches_evicted, 0);
    }

    /// The growing table does what the full one does: the same arrows, the same counts.
    #[test]
    fn a_growing_table_behaves_as_the_full_one() {
        for capacity in [2, 16, 256] {
            let mut grown = Flows::new(capacity);
            let mut full = Flows::new(capacity);
            full.slots = vec![Slot::default(); full.capacity];
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let mut x = 0x9e37_79b9_7f4a_7c15_u64;
            let mut base = 1u64;
            for step in 0..20_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if x % 97 == 0 {
                    base += x % 5_000; // a jump of the ids
                }
                let id = base + x % 600;
                let point = at(x % 3, (step % 1_000) as i64);
                match x % 5 {
                    0..=2 => {
                        grown.launch(id, point, point.ts + 5);
                        full.launch(id, point, point.ts + 5);
                    }
                    _ => {
                        a.push((id, grown.target(id, point), None));
                        b.push((id, full.target(id, point), None));
                    }
                }
                if step % 50 == 0 {
                    grown.take_ready(|i, s, f| a.push((i, Some(s), Some(f))));
                    full.take_ready(|i, s, f| b.push((i, Some(s), Some(f))));
                }
            }
            assert_eq!(a, b, "capacity {capacity}");
            assert_eq!(grown.stats(), full.stats(), "capacity {capacity}");
        }
    }
}
