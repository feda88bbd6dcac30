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
//!
//! A runtime call and the driver calls it makes inside share one correlation id
//! (`cudaMemcpy #591` encloses `cuMemcpyHtoD_v2 #591`), so ENTERs and EXITs are paired per
//! thread by nesting, not by correlation id alone (see `cupti_callback_common/pairing.rs`).

#[path = "cupti_callback_common/mod.rs"]
mod common;

use std::sync::{Arc, Mutex};

use cupti::{CallParams, CallbackDomain};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let setup = common::setup();
    let pairing = Arc::new(Mutex::new(common::pairing::Pairing::default()));
    let pairing_in = pairing.clone();

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
            pairing_in.lock().unwrap().enter(cb.id(), id);
        } else {
            let ret = call.return_value().map_or(-1, |r| r.code());
            println!("[EXIT]  {domain:<7} {name} #{id} -> {ret}");
            pairing_in.lock().unwrap().exit(cb.id(), id);
        }
    })?;
    subscriber.enable_domain(CallbackDomain::RUNTIME_API)?;
    subscriber.enable_domain(CallbackDomain::DRIVER_API)?;

    setup.run_workload(4)?;
    drop(subscriber);

    let common::pairing::Totals { runtime, driver, unpaired_exits, unpaired_enters } =
        pairing.lock().unwrap().finish();
    println!(
        "\n{runtime} runtime and {driver} driver calls, each ENTER with its EXIT \
         ({unpaired_enters} ENTER without EXIT, {unpaired_exits} EXIT without ENTER)"
    );
    if unpaired_enters + unpaired_exits > 0 || runtime + driver == 0 {
        std::process::exit(1);
    }
    Ok(())
}
