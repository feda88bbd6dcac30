//! Guide scenario 1 (`samples/callback_domain`): subscribe to the whole runtime domain and print
//! the entry and exit of each API call.
//!
//! ```text
//! cargo run --example mspti_callback_domain
//! ```
//! Runs against the real `libmspti.so` on an Ascend machine, else against the mock (see
//! `mspti_common`). It restarts itself once with `libmspti.so` in `LD_PRELOAD`.

#[path = "mspti_common/mod.rs"]
mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use mspti::CallbackDomain;

fn main() -> Result<(), mspti::Error> {
    let common::Setup { mspti, acl } = common::setup();

    let calls = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&calls);
    // 1. Subscribe.
    let subscriber = mspti.subscribe(move |cb| {
        if cb.domain() != CallbackDomain::RUNTIME {
            return;
        }
        let name = cb.function_name().unwrap_or("?");
        if cb.is_enter() {
            println!("[ENTER] {name}");
        } else {
            println!("[EXIT]  {name}");
            counter.fetch_add(1, Ordering::Relaxed);
        }
    })?;
    // 2. Enable the whole runtime domain.
    subscriber.enable_domain(CallbackDomain::RUNTIME)?;
    // 3. Run the service code.
    common::runtime_calls(acl);
    // 4. Unsubscribe.
    subscriber.unsubscribe()?;
    common::finish(acl);
    println!("{} runtime API calls seen", calls.load(Ordering::Relaxed));
    Ok(())
}
