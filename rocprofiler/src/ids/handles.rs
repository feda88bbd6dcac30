//! Handles the SDK gives out: agents, counters, kernels.

macro_rules! handle {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub u64);
    };
}

handle!(
    /// An agent (CPU or GPU) as the SDK identifies it.
    AgentId
);
handle!(
    /// A hardware or derived counter.
    CounterId
);
handle!(
    /// A kernel (from code-object symbol registration).
    KernelId
);
