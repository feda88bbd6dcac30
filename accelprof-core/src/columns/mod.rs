//! One column schema per record family, the same for every vendor.
//!
//! A family's records are stored as parallel columns (struct of arrays): `kernels.start()[i]`,
//! `kernels.end()[i]`, `kernels.name()[i]` describe kernel `i`. A kernel column means the same thing for
//! CUPTI, rocprofiler and MSPTI, so a consumer written once works on all three. Timestamps are `u64`
//! nanoseconds on the vendor's clock (the vendor crate documents how to map them to Unix time).
//!
//! A vendor decoder appends one record with one call: `batch.kernels.push(KernelRow { .. })`. Columns
//! are cleared between deliveries without giving back their capacity, so decoding allocates nothing per
//! record once warm.

#[macro_use]
mod record_family;

mod api;
mod batch;
mod collective;
mod copy_kind;
mod counter;
mod external;
mod family;
mod kernel;
mod marker;
mod memcpy;
mod memory;
mod memory_kind;
mod memset;
mod row_writer;
mod sync;

pub use api::{ApiColumns, ApiRow};
pub use batch::Batch;
pub use collective::{CollectiveColumns, CollectiveRow};
pub use copy_kind::CopyKind;
pub use counter::{CounterColumns, CounterRow};
pub use external::{ExternalCorrelationColumns, ExternalCorrelationRow};
pub use family::{Family, FamilySet, PerFamily};
pub use kernel::{KernelColumns, KernelRow};
pub use marker::{MarkerColumns, MarkerRow, HOST_DEVICE};
pub use memcpy::{MemcpyColumns, MemcpyRow};
pub use memory::{MemoryColumns, MemoryRow};
pub use memory_kind::MemoryKind;
pub use memset::{MemsetColumns, MemsetRow};
pub use row_writer::{RowColumns, RowWriter};
pub use sync::{SyncColumns, SyncRow};
