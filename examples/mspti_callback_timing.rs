//! Guide scenario 3: data shared between a call's entry and exit. The start time is stored at
//! ENTER and read back at EXIT through this crate's entry/exit slot (MSPTI's own
//! `correlationData` pointer is uninitialised memory in the real library, so it is never used).
//!
//! ```text
//! cargo run --example mspti_callback_timing
//! ```

#[path = "mspti_common/mod.rs"]
mod common;

use mspti::CallbackDomain;

fn main() -> Result<(), mspti::Error> {
    let common::Setup { mspti, acl } = common::setup();

    let subscriber = mspti.subscribe(|cb| {
        if cb.domain() != CallbackDomain::RUNTIME {
            return;
        }
        let name = cb.function_name().unwrap_or("?");
        if cb.is_enter() {
            // Record the start time at the entry.
            cb.correlation_slot().set(common::now_ns());
            println!("[ENTER] {name}");
        } else if cb.correlation_slot().paired() {
            // Read it back at the exit of the same call.
            let duration = common::now_ns().saturating_sub(cb.correlation_slot().get());
            println!("[EXIT]  {name}, duration={duration} ns");
        } else {
            println!("[EXIT]  {name} (its entry was not seen)");
        }
    })?;
    subscriber.enable_domain(CallbackDomain::RUNTIME)?;
    common::runtime_calls(acl);
    subscriber.unsubscribe()?;
    common::finish(acl);
    Ok(())
}
