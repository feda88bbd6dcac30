//! `LD_PRELOAD`: MSPTI delivers runtime and HCCL callbacks (and HCCL, MEMORY, MEMSET, MEMCPY
//! activity) only when `libmspti.so` was preloaded, because it gets them by interposing the
//! `aclrt*` and `Hccl*` functions. Otherwise those calls fail with
//! [`Error::WithoutLdPreload`](crate::Error::WithoutLdPreload). The library reads the variable
//! once, so it must be set before the process starts: these helpers check it, and restart the
//! program with it set.

use std::ffi::OsString;
use std::io;
use std::path::Path;

/// Set in the environment of a program restarted by [`reexec_with_preload`], so that a restart
/// that did not take effect is reported instead of repeated.
pub const REEXEC_MARKER: &str = "MSPTI_RS_REEXECED";

/// Whether `LD_PRELOAD` names a `libmspti.so`, the test MSPTI itself applies.
pub fn is_preloaded() -> bool {
    std::env::var_os("LD_PRELOAD").is_some_and(|v| v.to_string_lossy().contains("libmspti.so"))
}

/// `LD_PRELOAD` with `library` put first (the previous value kept after a `:`).
pub fn ld_preload_with(library: &Path) -> OsString {
    let mut v = OsString::from(library.as_os_str());
    if let Some(old) = std::env::var_os("LD_PRELOAD").filter(|o| !o.is_empty()) {
        v.push(":");
        v.push(old);
    }
    v
}

/// Restarts the current program (same executable, arguments and environment) with `library`
/// added to `LD_PRELOAD`, unless it is preloaded already, in which case it returns `Ok(())`.
/// `env` adds variables for the restarted program (for example `ASCEND_HOME_PATH`, which the
/// preloaded library needs as soon as the program starts).
///
/// Call it first thing in `main`, before any thread starts: on success it does not return.
/// It checks first that `library` can be loaded without aborting (the same check as opening
/// it), because a preloaded library that aborts takes the restarted program down before `main`.
#[cfg(unix)]
pub fn reexec_with_preload(library: &Path, env: &[(&str, &std::ffi::OsStr)]) -> io::Result<()> {
    use std::os::unix::process::CommandExt;
    if is_preloaded() {
        return Ok(());
    }
    if std::env::var_os(REEXEC_MARKER).is_some() {
        return Err(io::Error::other(
            "restarted with LD_PRELOAD set, but LD_PRELOAD does not name libmspti.so in the new process",
        ));
    }
    let saved: Vec<(String, Option<OsString>)> =
        env.iter().map(|(k, _)| (k.to_string(), std::env::var_os(k))).collect();
    for (k, v) in env {
        std::env::set_var(k, v);
    }
    let check = mspti_sys::preflight(library);
    for (k, v) in saved {
        match v {
            Some(v) => std::env::set_var(&k, v),
            None => std::env::remove_var(&k),
        }
    }
    check.map_err(io::Error::other)?;
    let exe = std::env::current_exe()?;
    let err = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .envs(env.iter().copied())
        .env("LD_PRELOAD", ld_preload_with(library))
        .env(REEXEC_MARKER, "1")
        .exec();
    Err(err)
}
