//! Per-call durations of a small CUDA workload through the entry/exit slot (CUPTI's
//! `callback_timestamp` sample on the safe API): each ENTER callback stores CUPTI's timestamp
//! in the call's correlation slot, the EXIT callback of the same call reads it back.
//!
//! ```text
//! cargo run --example cupti_callback_timestamp
//! ```
//!
//! Runs real CUDA work through cudarc on an NVIDIA GPU, else on the mock `libcupti` (see
//! `cupti_callback_domain`). Prints the copies and launches one by one, then a table of every
//! runtime and driver function: calls, total and longest time.
//!
//! A runtime call and the driver calls it makes inside share one correlation id but not a slot:
//! each API call has its own, so `cudaMemcpy` and the `cuMemcpyHtoD_v2` within it are timed
//! separately. A runtime call's time includes its driver calls' (do not add the two domains up).

#[path = "cupti_callback_common/mod.rs"]
mod common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cupti::{CallParams, CallbackDomain, Cupti};

/// Calls, total ns and longest ns per function.
type Table = HashMap<(&'static str, String), (u64, u64, u64)>;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let setup = common::setup();
    let cupti: &'static Cupti = setup.cupti;
    let table = Arc::new(Mutex::new(Table::new()));
    let table_in = table.clone();

    let subscriber = cupti.subscribe(move |cb| {
        let Some(call) = cb.api() else { return };
        let Ok(now) = cupti.timestamp() else { return };
        let slot = call.correlation_slot();
        if call.is_enter() {
            slot.set(now);
            return;
        }
        let start = slot.get();
        if start == 0 {
            return; // subscribed between this call's ENTER and EXIT
        }
        let ns = now.saturating_sub(start);
        let name = call.function_name().or(cb.name()).unwrap_or("?").to_owned();
        match call.params() {
            Some(CallParams::Memcpy(c)) => {
                println!("{name:<24} {:>9} bytes kind {} {:>10} ns", c.bytes, c.kind.0, ns)
            }
            Some(CallParams::KernelLaunch(k)) => println!(
                "{name:<24} {} <<<{}, {}>>> {:>10} ns",
                call.symbol_name().unwrap_or("?"),
                k.grid.volume(),
                k.block.volume(),
                ns
            ),
            _ => {}
        }
        let domain = if cb.domain() == CallbackDomain::RUNTIME_API { "runtime" } else { "driver" };
        let mut t = table_in.lock().unwrap();
        let e = t.entry((domain, name)).or_insert((0, 0, 0));
        *e = (e.0 + 1, e.1 + ns, e.2.max(ns));
    })?;
    subscriber.enable_domain(CallbackDomain::RUNTIME_API)?;
    subscriber.enable_domain(CallbackDomain::DRIVER_API)?;

    setup.run_workload(8)?;
    drop(subscriber);

    let mut rows: Vec<_> = table.lock().unwrap().drain().collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.1 .1));
    println!("\n{:<8} {:<36} {:>6} {:>14} {:>12}", "domain", "function", "calls", "total ns", "max ns");
    for ((domain, name), (calls, total, max)) in &rows {
        println!("{domain:<8} {name:<36} {calls:>6} {total:>14} {max:>12}");
    }
    if rows.is_empty() {
        eprintln!("no call was timed");
        std::process::exit(1);
    }
    Ok(())
}
