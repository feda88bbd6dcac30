use super::*;

/// A batch of decoded records: one columns struct per family (empty when the batch has none of it).
///
/// The decode thread fills a batch, hands it to the consumers by reference, then [`clear`](Self::clear)s it
/// for reuse; capacity is kept, so a warm pipeline allocates nothing per record. A consumer that wants to
/// keep rows copies them out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Batch {
    /// Kernel executions.
    pub kernels: KernelColumns,
    /// Memory copies.
    pub memcpys: MemcpyColumns,
    /// Memory sets.
    pub memsets: MemsetColumns,
    /// API calls.
    pub api_calls: ApiColumns,
    /// Markers and ranges.
    pub markers: MarkerColumns,
    /// Collectives.
    pub collectives: CollectiveColumns,
    /// Allocations and frees.
    pub memory: MemoryColumns,
    /// Synchronizations.
    pub syncs: SyncColumns,
    /// External correlation links.
    pub external_correlations: ExternalCorrelationColumns,
    /// Counter values.
    pub counters: CounterColumns,
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Self {
        Batch::default()
    }

    /// Rows of one family (0 for an unknown family).
    pub fn len_of(&self, family: Family) -> usize {
        match family {
            Family::KERNEL => self.kernels.len(),
            Family::MEMCPY => self.memcpys.len(),
            Family::MEMSET => self.memsets.len(),
            Family::API => self.api_calls.len(),
            Family::MARKER => self.markers.len(),
            Family::COLLECTIVE => self.collectives.len(),
            Family::MEMORY => self.memory.len(),
            Family::SYNC => self.syncs.len(),
            Family::EXTERNAL_CORRELATION => self.external_correlations.len(),
            Family::COUNTER => self.counters.len(),
            _ => 0,
        }
    }

    /// Rows of every family together.
    pub fn len(&self) -> usize {
        Family::ALL.iter().map(|f| self.len_of(*f)).sum()
    }

    /// True when no family has a row.
    pub fn is_empty(&self) -> bool {
        Family::ALL.iter().all(|f| self.len_of(*f) == 0)
    }

    /// The families that have at least one row.
    pub fn families(&self) -> FamilySet {
        Family::ALL.iter().filter(|f| self.len_of(**f) > 0).fold(FamilySet::empty(), |set, f| set | f.set())
    }

    /// Removes every row of every family, keeping the capacity.
    pub fn clear(&mut self) {
        self.kernels.clear();
        self.memcpys.clear();
        self.memsets.clear();
        self.api_calls.clear();
        self.markers.clear();
        self.collectives.clear();
        self.memory.clear();
        self.syncs.clear();
        self.external_correlations.clear();
        self.counters.clear();
    }

    /// Appends every row of `other` (e.g. to keep rows after a delivery).
    pub fn extend_from(&mut self, other: &Batch) {
        self.kernels.extend_from(&other.kernels);
        self.memcpys.extend_from(&other.memcpys);
        self.memsets.extend_from(&other.memsets);
        self.api_calls.extend_from(&other.api_calls);
        self.markers.extend_from(&other.markers);
        self.collectives.extend_from(&other.collectives);
        self.memory.extend_from(&other.memory);
        self.syncs.extend_from(&other.syncs);
        self.external_correlations.extend_from(&other.external_correlations);
        self.counters.extend_from(&other.counters);
    }
}
