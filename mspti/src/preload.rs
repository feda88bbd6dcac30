//! `LD_PRELOAD`: MSPTI delivers runtime and HCCL callbacks (and HCCL, MEMORY, MEMSET, MEMCPY
//! activity) only when `libmspti.so` was preloaded, because it gets them by interposing the
//! `aclrt*` and `Hccl*` functions: a program's calls reach MSPTI's copies only through the global
//! symbol scope, where a preloaded library comes first. Without the variable those enables fail
//! with [`Error::WithoutLdPreload`](crate::Error::WithoutLdPreload); with the variable but nothing
//! preloaded (set inside the process) they fail with
//! [`Error::InterpositionNotLive`](crate::Error::InterpositionNotLive). So it must be set before
//! the process starts: these helpers check it, and restart the program with it set.

use std::ffi::{c_char, c_void, CStr, OsString};
use std::io;
use std::path::Path;
use std::ptr::NonNull;

/// Set in the environment of a program restarted by [`reexec_with_preload`], so that a restart
/// that did not take effect is reported instead of repeated.
pub const REEXEC_MARKER: &str = "MSPTI_RS_REEXECED";

/// Whether `LD_PRELOAD` names a `libmspti.so`: the only test MSPTI itself applies (it reads the
/// variable, not what was loaded).
pub fn ld_preload_names_mspti() -> bool {
    std::env::var_os("LD_PRELOAD").is_some_and(|v| v.to_string_lossy().contains("libmspti.so"))
}

/// Whether a `libmspti.so` is preloaded in this process: `LD_PRELOAD` names it and MSPTI's
/// functions are in the global symbol scope (a variable set inside the process preloads nothing).
pub fn is_preloaded() -> bool {
    ld_preload_names_mspti() && global_symbol(c"msptiSubscribe").is_some()
}

/// What `dlsym(RTLD_DEFAULT, name)` finds: the definition a normal call to `name` reaches.
pub fn global_symbol(name: &CStr) -> Option<NonNull<c_void>> {
    #[cfg(unix)]
    {
        let this = libloading::os::unix::Library::this();
        // SAFETY: only the address is looked up, never called or dereferenced here.
        let found = unsafe { this.get::<*mut c_void>(name.to_bytes_with_nul()) };
        found.ok().and_then(|s| NonNull::new(*s))
    }
    #[cfg(not(unix))]
    {
        let _ = name;
        None
    }
}

/// The file of the loaded object that holds `address` (`dladdr`).
pub fn object_of(address: NonNull<c_void>) -> Option<String> {
    #[repr(C)]
    struct DlInfo {
        fname: *const c_char,
        fbase: *mut c_void,
        sname: *const c_char,
        saddr: *mut c_void,
    }
    extern "C" {
        fn dladdr(address: *const c_void, info: *mut DlInfo) -> i32;
    }
    let mut info = DlInfo {
        fname: std::ptr::null(),
        fbase: std::ptr::null_mut(),
        sname: std::ptr::null(),
        saddr: std::ptr::null_mut(),
    };
    // SAFETY: dladdr only reads the loader's tables; `info` is a valid out-struct.
    if unsafe { dladdr(address.as_ptr(), &mut info) } == 0 || info.fname.is_null() {
        return None;
    }
    // SAFETY: dladdr gives the object's NUL-terminated file name, owned by the loader.
    Some(unsafe { CStr::from_ptr(info.fname) }.to_string_lossy().into_owned())
}

/// The file names of every object loaded in the process (`dl_iterate_phdr`), the program's own
/// (empty name) left out.
pub fn loaded_objects() -> Vec<String> {
    #[repr(C)]
    struct PhdrInfo {
        addr: usize,
        name: *const c_char,
    }
    extern "C" {
        fn dl_iterate_phdr(
            callback: unsafe extern "C" fn(*mut PhdrInfo, usize, *mut c_void) -> i32,
            data: *mut c_void,
        ) -> i32;
    }
    unsafe extern "C" fn each(info: *mut PhdrInfo, _size: usize, data: *mut c_void) -> i32 {
        // SAFETY: the loader passes a valid entry, whose first two fields are `dlpi_addr` and
        // `dlpi_name` (`PhdrInfo` declares only those); `data` is the `Vec` below, borrowed for
        // the call. Nothing here unwinds (a failed allocation aborts).
        let (info, names) = unsafe { (&*info, &mut *data.cast::<Vec<String>>()) };
        if !info.name.is_null() {
            // SAFETY: the loader's NUL-terminated name of the object.
            let name = unsafe { CStr::from_ptr(info.name) }.to_string_lossy();
            if !name.is_empty() {
                names.push(name.into_owned());
            }
        }
        0
    }
    let mut names: Vec<String> = Vec::new();
    // SAFETY: `each` matches the callback type and only reads what the loader passes.
    unsafe { dl_iterate_phdr(each, (&mut names as *mut Vec<String>).cast()) };
    names
}

/// The (device, inode) of a file, to tell two names of one file apart from two files.
pub(crate) fn file_id(path: &str) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
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
/// preloaded library needs as soon as the program starts). The directory of the toolkit's
/// `libc_sec.so` is put first on `LD_LIBRARY_PATH` (a program whose preloaded library lacks a
/// dependency does not start).
///
/// Call it first thing in `main`, before any thread starts: on success it does not return. Not
/// in a `#[test]`: it restarts the test binary with its arguments, so every test of the run runs
/// again in the restarted process; `accelprof_mocks::mspti::run_preloaded` restarts it for the one
/// test.
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
            "restarted with libmspti.so in LD_PRELOAD, but it is not loaded in the new process (the loader \
             could not preload it, or LD_PRELOAD was changed)",
        ));
    }
    let saved: Vec<(String, Option<OsString>)> =
        env.iter().map(|(k, _)| (k.to_string(), std::env::var_os(k))).collect();
    for (k, v) in env {
        std::env::set_var(k, v);
    }
    let check = mspti_sys::preflight(library);
    let securec = mspti_sys::securec_dir(library);
    for (k, v) in saved {
        match v {
            Some(v) => std::env::set_var(&k, v),
            None => std::env::remove_var(&k),
        }
    }
    check.map_err(io::Error::other)?;
    let exe = std::env::current_exe()?;
    let mut cmd = std::process::Command::new(exe);
    cmd.args(std::env::args_os().skip(1))
        .envs(env.iter().copied())
        .env("LD_PRELOAD", ld_preload_with(library))
        .env(REEXEC_MARKER, "1");
    if let Some(dir) = securec {
        let old = std::env::var_os("LD_LIBRARY_PATH").filter(|o| !o.is_empty());
        if !old.as_ref().is_some_and(|o| std::env::split_paths(o).any(|p| p == dir)) {
            let mut path = OsString::from(dir.as_os_str());
            if let Some(old) = old {
                path.push(":");
                path.push(old);
            }
            cmd.env("LD_LIBRARY_PATH", path);
        }
    }
    Err(cmd.exec())
}
