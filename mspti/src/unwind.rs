//! Keeping panics out of C: every function MSPTI calls runs its body inside
//! [`guard`](accelprof_core::callback::trampoline::guard), which drops a caught panic's payload
//! where its own `Drop` panicking cannot escape either (written once, in `accelprof-core`).

pub(crate) use accelprof_core::callback::trampoline::guard;
