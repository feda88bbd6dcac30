//! Prints the ENTER and EXIT of every CUDA runtime and driver API call of a small workload
//! (CUPTI's `callback_event`/`callback_timestamp` samples' first step, on the callback API).
//!
//! ```text
//! cargo run --example cupti_callback_domain
//! ```
//!
//! On a machine with an NVIDIA GPU it runs real CUDA work through cudarc (allocation, copies,
//! kernel launches from hand-written PTX, runtime copies) under the real `libcupti` (found as
//! `cupti::Cupti::load` describes; set `CUPTI_LIBRARY_PATH` to choose one). Elsewhere the mock
//! `libcupti` plays the same calls. Exits with status 1 if an ENTER lacks its EXIT.

#[path = "cupti_callback_common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use cupti::{CallParams, CallbackDomain};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let setup = common::setup();
    // Open ENTERs by correlation id, and the calls seen per domain.
    let open = Arc::new(Mutex::new(BTreeMap::<u32, String>::new()));
    let totals = Arc::new(Mutex::new((0usize, 0usize, 0usize)));
    let (open_in, totals_in) = (open.clone(), totals.clone());

    let subscriber = setup.cupti.subscribe(move |cb| {
        let Some(call) = cb.api() else { return };
        let domain = if cb.domain() == CallbackDomain::RUNTIME_API { "runtime" } else { "driver" };
        let name = call.function_name().or(cb.name()).unwrap_or("?");
        let id = call.correlation_id();
        if call.is_enter() {
            let detail = match call.params() {
                Some(CallParams::KernelLaunch(k)) => format!(
                    " kernel={} grid=({},{},{}) block=({},{},{}) shared={}B",
                    call.symbol_name().unwrap_or("?"),
                    k.grid.x,
                    k.grid.y,
                    k.grid.z,
                    k.block.x,
                    k.block.y,
                    k.block.z,
                    k.shared_mem_bytes
                ),
                Some(CallParams::Memcpy(c)) => format!(" bytes={} kind={}", c.bytes, c.kind.0),
                Some(CallParams::Memset(s)) => format!(" bytes={}", s.bytes),
                Some(CallParams::Alloc(a)) => format!(" bytes={}", a.bytes),
                _ => String::new(),
            };
            println!("[ENTER] {domain:<7} {name} #{id}{detail}");
            open_in.lock().unwrap().insert(id, name.to_owned());
        } else {
            let ret = call.return_value().map_or(-1, |r| r.code());
            println!("[EXIT]  {domain:<7} {name} #{id} -> {ret}");
            let paired = open_in.lock().unwrap().remove(&id).is_some();
            let mut t = totals_in.lock().unwrap();
            if !paired {
                t.2 += 1;
            } else if cb.domain() == CallbackDomain::RUNTIME_API {
                t.0 += 1;
            } else {
                t.1 += 1;
            }
        }
    })?;
    subscriber.enable_domain(CallbackDomain::RUNTIME_API)?;
    subscriber.enable_domain(CallbackDomain::DRIVER_API)?;

    setup.run_workload(4)?;
    drop(subscriber);

    let (runtime, driver, unpaired_exits) = *totals.lock().unwrap();
    let unpaired_enters = open.lock().unwrap().len();
    println!(
        "\n{runtime} runtime and {driver} driver calls, each ENTER with its EXIT \
         ({unpaired_enters} ENTER without EXIT, {unpaired_exits} EXIT without ENTER)"
    );
    if unpaired_enters + unpaired_exits > 0 || runtime + driver == 0 {
        std::process::exit(1);
    }
    Ok(())
}
