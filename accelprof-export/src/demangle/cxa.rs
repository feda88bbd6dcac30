//! `abi::__cxa_demangle`, resolved at run time from the C++ runtime the process already has.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::fmt;

/// `char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status)`.
type CxaFn = unsafe extern "C" fn(*const c_char, *mut c_char, *mut usize, *mut c_int) -> *mut c_char;

/// The C++ runtime's demangler of this process (libstdc++'s, as Kineto uses it).
pub struct CxaDemangle {
    function: CxaFn,
    /// The `dlopen` handle that keeps libstdc++ mapped when it was found by name (NULL when found in the
    /// global scope, where it stays for the life of the process).
    #[cfg_attr(not(unix), allow(dead_code))]
    handle: *mut c_void,
}

// SAFETY: `__cxa_demangle` is reentrant (it keeps no state between calls and allocates its result with
// malloc); the handle is only passed to `dlclose`, once, on drop.
unsafe impl Send for CxaDemangle {}
// SAFETY: as above: calls from several threads at once are independent.
unsafe impl Sync for CxaDemangle {}

impl CxaDemangle {
    /// `__cxa_demangle` from the process's global scope, else from a libstdc++ already mapped
    /// (`RTLD_NOLOAD`: nothing is loaded); `None` when the process has no C++ runtime.
    pub fn find() -> Option<CxaDemangle> {
        imp::find()
    }

    /// The demangled text of `raw` (which must hold no NUL), or `None` when `__cxa_demangle` refuses it.
    pub fn demangle(&self, raw: &[u8]) -> Option<String> {
        let mut name = Vec::with_capacity(raw.len() + 1);
        name.extend_from_slice(raw);
        name.push(0);
        let mut status: c_int = -1;
        // SAFETY: `name` is NUL-terminated and outlives the call; a NULL buffer and length ask the function
        // to allocate its result with malloc; `status` is a valid out-pointer.
        let out = unsafe {
            (self.function)(name.as_ptr().cast(), std::ptr::null_mut(), std::ptr::null_mut(), &mut status)
        };
        if out.is_null() {
            return None;
        }
        // SAFETY: on success the function returns a NUL-terminated string it allocated.
        let text = (status == 0).then(|| unsafe { CStr::from_ptr(out) }.to_string_lossy().into_owned());
        // SAFETY: the result was allocated with malloc by the C++ runtime of this process, which shares
        // this process's allocator, and is freed once.
        unsafe { libc::free(out.cast()) };
        text
    }
}

impl Drop for CxaDemangle {
    fn drop(&mut self) {
        #[cfg(unix)]
        if !self.handle.is_null() {
            // SAFETY: a handle from `dlopen`, closed once.
            unsafe { libc::dlclose(self.handle) };
        }
    }
}

impl fmt::Debug for CxaDemangle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CxaDemangle").field("from_global_scope", &self.handle.is_null()).finish()
    }
}

#[cfg(all(unix, not(miri)))]
mod imp {
    use super::{CxaDemangle, CxaFn};

    const SYMBOL: &std::ffi::CStr = c"__cxa_demangle";
    /// The libstdc++ sonames tried with `RTLD_NOLOAD`.
    const RUNTIMES: [&std::ffi::CStr; 1] = [c"libstdc++.so.6"];

    pub(super) fn find() -> Option<CxaDemangle> {
        // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only looks the symbol up.
        let global = unsafe { libc::dlsym(libc::RTLD_DEFAULT, SYMBOL.as_ptr()) };
        if !global.is_null() {
            // SAFETY: `__cxa_demangle` has this signature in every Itanium C++ ABI runtime.
            let function = unsafe { std::mem::transmute::<*mut libc::c_void, CxaFn>(global) };
            return Some(CxaDemangle { function, handle: std::ptr::null_mut() });
        }
        for runtime in RUNTIMES {
            // SAFETY: RTLD_NOLOAD only returns a handle to a library already mapped (no initialiser runs).
            let handle = unsafe { libc::dlopen(runtime.as_ptr(), libc::RTLD_LAZY | libc::RTLD_NOLOAD) };
            if handle.is_null() {
                continue;
            }
            // SAFETY: a valid handle and a NUL-terminated name.
            let symbol = unsafe { libc::dlsym(handle, SYMBOL.as_ptr()) };
            if symbol.is_null() {
                // SAFETY: the handle from dlopen above, closed once.
                unsafe { libc::dlclose(handle) };
                continue;
            }
            // SAFETY: as above; the handle keeps the library mapped while the function may be called.
            let function = unsafe { std::mem::transmute::<*mut libc::c_void, CxaFn>(symbol) };
            return Some(CxaDemangle { function, handle });
        }
        None
    }
}

/// Elsewhere, and under Miri (which cannot call `dlsym` or `dlopen`): no C++ runtime.
#[cfg(any(not(unix), miri))]
mod imp {
    pub(super) fn find() -> Option<super::CxaDemangle> {
        None
    }
}
