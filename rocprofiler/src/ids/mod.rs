//! Ids and enums as newtypes over the raw integers ([`accelprof_core::id_newtype!`]): named
//! constants for the known values, any other value representable (the SDK's enums grow).
//!
//! The callback vocabulary is the one of every vendor crate: [`CallbackDomain`] is the SDK's
//! callback tracing kind, [`CallbackId`] a kind and an [`Operation`], [`CallbackSite`] the SDK's
//! phase.

mod activity_kind;
mod buffer_policy;
mod callback_id;
mod correlation;
mod domain;
mod handles;
mod site;

pub use activity_kind::{ActivityKind, ActivityKinds, BufferKind};
pub use buffer_policy::BufferPolicy;
pub use callback_id::{CallbackId, Operation};
pub use correlation::Correlation;
pub use domain::CallbackDomain;
pub use handles::{AgentId, CounterId, KernelId};
pub use site::CallbackSite;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sdks_kinds_and_phases_are_named_and_others_representable() {
        assert_eq!(CallbackDomain::HIP_RUNTIME_API.name(), Some("HIP_RUNTIME_API"));
        assert_eq!(CallbackDomain(999).to_string(), "unknown(999)");
        assert_eq!(format!("{:?}", CallbackSite::ENTER), "CallbackSite::ENTER");
        assert!(CallbackSite::EXIT.is_exit() && !CallbackSite::NONE.is_enter());
        assert_eq!(BufferKind::KERNEL_DISPATCH.name(), Some("KERNEL_DISPATCH"));
        let id = CallbackId::new(CallbackDomain::HIP_RUNTIME_API, Operation(12));
        assert_eq!(id.to_string(), "HIP_RUNTIME_API/12");
    }
}
