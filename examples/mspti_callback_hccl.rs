//! Guide scenario 4: subscribe to the HCCL domain and print each collective's entry and exit.
//!
//! ```text
//! cargo run --example mspti_callback_hccl
//! ```
//! The workload is a one-rank communicator (`HcclCommInitRootInfo` with one rank) running five
//! collectives on device 0; in a multi-rank job, subscribe the same way in each rank.

#[path = "mspti_common/mod.rs"]
mod common;

use mspti::{CallbackDomain, HcclCbid};

fn main() -> Result<(), mspti::Error> {
    let common::Setup { mspti, acl } = common::setup();

    let subscriber = mspti.subscribe(|cb| {
        if cb.domain() != CallbackDomain::HCCL {
            return;
        }
        let op = cb.id().hccl().and_then(HcclCbid::op_name).unwrap_or("Unknown");
        println!("[HCCL] {} {op}", if cb.is_enter() { "ENTER" } else { "EXIT" });
    })?;
    subscriber.enable_domain(CallbackDomain::HCCL)?;
    common::hccl_calls(acl);
    subscriber.unsubscribe()?;
    common::finish(acl);
    Ok(())
}
