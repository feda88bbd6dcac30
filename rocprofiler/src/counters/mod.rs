//! What only rocprofiler-sdk has: the agents (CPUs and GPUs), the counters a GPU supports and counter
//! configs, and dispatch counting (counters collected per kernel dispatch).

pub(crate) mod agents;
mod counter;
pub(crate) mod dispatch_counting;

pub use agents::{Agent, AgentKind};
pub(crate) use counter::sdk_slice;
pub use counter::{Counter, CounterConfig, CounterConfigs, Dimension};
pub use dispatch_counting::{CounterValue, CountingRequest, CountingResult};
