//! Typed ids: callback domains, callback ids (one newtype per domain, every id of CUPTI's cbid
//! headers as a constant), and the API callback site. Each is a `#[repr(transparent)]` newtype
//! over the C integer: any value is representable, including ids of a newer CUPTI. The activity
//! kinds too ([`ActivityKind`], and the set of them a session collects, [`ActivityKinds`]).

mod activity_kind;
mod callback_id;
#[rustfmt::skip]
mod cbids;
mod domain;
mod site;

#[cfg(test)]
mod generate;

pub use activity_kind::{ActivityKind, ActivityKinds};
pub use callback_id::{
    CallbackId, DriverCbid, NvtxCbid, ResourceCbid, RuntimeCbid, StateCbid, SynchronizeCbid,
};
pub use domain::CallbackDomain;
pub use site::CallbackSite;
