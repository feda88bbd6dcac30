//! Typed ids: every C enum of MSPTI as a `#[repr(transparent)]` newtype with named constants
//! (taken from the generated bindings) and a name for each ([`accelprof_core::id_newtype!`]); values
//! a newer library sends stay representable, except [`ActivityKind`]'s (see there).

mod activity_kind;
mod callback_id;
mod domain;
mod external_kind;
mod hccl_cbid;
mod runtime_cbid;
mod site;

pub use activity_kind::{ActivityKind, ActivityKinds};
pub use callback_id::CallbackId;
pub use domain::CallbackDomain;
pub use external_kind::ExternalKind;
pub use hccl_cbid::HcclCbid;
pub use runtime_cbid::RuntimeCbid;
pub use site::CallbackSite;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_runtime_and_hccl_id_of_the_header_is_named() {
        assert_eq!(RuntimeCbid::ALL.len(), 37);
        for (i, c) in RuntimeCbid::ALL.iter().enumerate() {
            assert_eq!(c.0, i as u32, "runtime ids are dense 0..=36");
            assert!(c.name().is_some());
        }
        assert_eq!(HcclCbid::ALL.len(), 13);
        assert_eq!(HcclCbid::BARRIER.0, 8);
        assert_eq!(HcclCbid::ALL_TO_ALLV.0, 7);
        assert_eq!(HcclCbid::SCATTER.0, 9);
        assert_eq!(HcclCbid::SENDRECV.0, 12);
        assert_eq!(HcclCbid::BARRIER.op_name(), Some("Barrier"));
        assert_eq!(RuntimeCbid::LAUNCH.name(), Some("LAUNCH"));
        assert_eq!(RuntimeCbid(37).name(), None);
        assert_eq!(format!("{:?}", RuntimeCbid(99)), "RuntimeCbid(99)");
        assert_eq!(CallbackId::from(HcclCbid::ALLREDUCE).to_string(), "HCCL/ALLREDUCE");
        assert_eq!(CallbackId::new(CallbackDomain::RUNTIME, 50).to_string(), "RUNTIME/unknown(50)");
        assert_eq!(RuntimeCbid::LAUNCH.id().runtime(), Some(RuntimeCbid::LAUNCH));
        assert_eq!(HcclCbid::BARRIER.id().runtime(), None);
        assert_eq!(HcclCbid::BARRIER.id().hccl(), Some(HcclCbid::BARRIER));
    }

    #[test]
    fn activity_kinds_cover_0_to_12() {
        assert_eq!(ActivityKind::ALL.len(), 13);
        assert_eq!(ActivityKind::all_enableable().count(), 12);
        assert_eq!(ActivityKind::RUNTIME_API.raw(), 12);
        assert_eq!(ActivityKind::from_raw(13), None);
        assert_eq!(ActivityKind::try_from(65536), Err(65536));
        for (i, k) in ActivityKind::ALL.iter().enumerate() {
            assert_eq!(ActivityKind::from_raw(i as u32), Some(*k));
            assert_eq!(k.raw(), i as u32);
        }
        assert_eq!(ActivityKind::RUNTIME_API.to_string(), "RUNTIME_API");
    }
}
