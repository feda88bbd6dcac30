//! Guide scenario 4: subscribe to the HCCL domain and print each collective's entry and exit.
//!
//! ```text
//! cargo run --example mspti_callback_hccl
//! ```
//! On an Ascend machine, HCCL calls come from a multi-rank program: run this subscriber inside it.

#[path = "mspti_common/mod.rs"]
mod common;

use mspti::{CallbackId, Domain};

fn main() -> Result<(), mspti::Error> {
    let common::Setup { mspti, workload } = common::setup();
    workload.init();

    let mut subscriber = mspti.subscribe(|cb| {
        if cb.domain() != Domain::HCCL {
            return;
        }
        let op = match cb.id() {
            CallbackId::Hccl(id) => id.op_name().unwrap_or("Unknown"),
            _ => "Unknown",
        };
        println!("[HCCL] {} {op}", if cb.is_enter() { "ENTER" } else { "EXIT" });
    })?;
    subscriber.enable_domain(Domain::HCCL)?;
    workload.hccl_calls();
    subscriber.unsubscribe()?;
    workload.finish();
    Ok(())
}
