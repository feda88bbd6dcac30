//! Names of callback ids, and the interned strings the mock hands to clients.
//!
//! Two different names exist for a runtime call (probed on 12.9 and 13.0):
//! `cuptiGetCallbackName(RUNTIME, 211)` returns the enum's name, `cudaLaunchKernel_v7000`; the
//! function itself is `cudaLaunchKernel`, which is what `CUpti_CallbackData::functionName`
//! carries. Driver names are the same in both (`cuLaunchKernel`, `cuMemAlloc_v2`).
//! `cuptiGetCallbackName` knows only the DRIVER and RUNTIME domains; cbid 0 is `INVALID`.

use std::ffi::{c_char, CStr, CString};
use std::sync::{Mutex, OnceLock};

use crate::fxhash::{FxHashMap as HashMap, FxHashSet as HashSet};
use crate::results::{INVALID_PARAMETER, SUCCESS};
use crate::sys::{cbid_names, TYPES_SOURCE, V12_TYPES_SOURCE};
use crate::version;

pub const DOMAIN_DRIVER: u32 = 1;
pub const DOMAIN_RUNTIME: u32 = 2;

/// Strings handed to clients live for the whole process, as the real ones do
/// ("`functionName` is a global constant"; kernel names stay valid in records).
pub fn intern(s: &CStr) -> &'static CStr {
    static STRINGS: Mutex<Option<HashSet<&'static CStr>>> = Mutex::new(None);
    let mut set = STRINGS.lock().unwrap_or_else(|e| e.into_inner());
    let set = set.get_or_insert_with(HashSet::default);
    if let Some(found) = set.get(s) {
        return found;
    }
    let leaked: &'static CStr = Box::leak(s.to_owned().into_boxed_c_str());
    set.insert(leaked);
    leaked
}

fn intern_str(s: &str) -> &'static CStr {
    intern(&CString::new(s).unwrap_or_default())
}

/// `(domain, cbid)` -> enum name found in generated text: the names of the
/// `CUPTI_DRIVER_TRACE_CBID_*` / `CUPTI_RUNTIME_TRACE_CBID_*` consts
/// (`CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000` -> `cudaLaunchKernel_v7000`).
fn scan_enum_names(source: &str) -> HashMap<(u32, u32), &'static CStr> {
    let mut map = HashMap::default();
    for (domain, prefix) in [
        (DOMAIN_DRIVER, "pub const CUPTI_DRIVER_TRACE_CBID_"),
        (DOMAIN_RUNTIME, "pub const CUPTI_RUNTIME_TRACE_CBID_"),
    ] {
        let mut rest = source;
        while let Some(at) = rest.find(prefix) {
            rest = &rest[at + prefix.len()..];
            let Some(colon) = rest.find(':') else { break };
            let name = &rest[..colon];
            // The value follows as `Type(<digits>)`, possibly on the next line.
            let value = rest.find('(').and_then(|open| {
                let digits: String = rest[open + 1..].chars().take_while(char::is_ascii_digit).collect();
                digits.parse::<u32>().ok()
            });
            if let Some(cbid) = value {
                if name != "SIZE" && name != "FORCE_INT" {
                    map.entry((domain, cbid)).or_insert_with(|| intern_str(name));
                }
            }
        }
    }
    map
}

/// The enum name of `(domain, cbid)` in the played release: 12.9 named 19 runtime ids
/// differently (`cudaGetDeviceProperties_v2_v12000` where 13.0 has
/// `cudaGetDeviceProperties_v12000`).
fn enum_name(domain: u32, cbid: u32) -> Option<&'static CStr> {
    static V13: OnceLock<HashMap<(u32, u32), &'static CStr>> = OnceLock::new();
    static V12: OnceLock<HashMap<(u32, u32), &'static CStr>> = OnceLock::new();
    if version::is_v12() {
        let renamed = V12.get_or_init(|| scan_enum_names(V12_TYPES_SOURCE));
        if let Some(name) = renamed.get(&(domain, cbid)) {
            return Some(name);
        }
    }
    V13.get_or_init(|| scan_enum_names(TYPES_SOURCE)).get(&(domain, cbid)).copied()
}

/// `(domain, cbid)` -> the function's own name, from one of the generated name tables.
fn function_names(tables: [&[(u32, &str)]; 2]) -> HashMap<(u32, u32), &'static CStr> {
    let mut map = HashMap::default();
    for (domain, table) in [DOMAIN_DRIVER, DOMAIN_RUNTIME].into_iter().zip(tables) {
        for &(cbid, name) in table {
            map.entry((domain, cbid)).or_insert_with(|| intern_str(name));
        }
    }
    map
}

/// The `functionName` a callback for `(domain, cbid)` carries in the played release, if the id
/// is known.
pub fn function_name(domain: u32, cbid: u32) -> Option<&'static CStr> {
    static V13: OnceLock<HashMap<(u32, u32), &'static CStr>> = OnceLock::new();
    static V12: OnceLock<HashMap<(u32, u32), &'static CStr>> = OnceLock::new();
    if version::is_v12() {
        let renamed = V12.get_or_init(|| {
            function_names([cbid_names::DRIVER_CBID_NAMES_12, cbid_names::RUNTIME_CBID_NAMES_12])
        });
        if let Some(name) = renamed.get(&(domain, cbid)) {
            return Some(name);
        }
    }
    V13.get_or_init(|| function_names([cbid_names::DRIVER_CBID_NAMES, cbid_names::RUNTIME_CBID_NAMES]))
        .get(&(domain, cbid))
        .copied()
}

#[no_mangle]
pub unsafe extern "C" fn cuptiGetCallbackName(domain: u32, cbid: u32, name: *mut *const c_char) -> u32 {
    if name.is_null() {
        return INVALID_PARAMETER;
    }
    let valid_domain = domain == DOMAIN_DRIVER || domain == DOMAIN_RUNTIME;
    let limit = version::cbid_limit(domain).unwrap_or(0);
    let found = if !valid_domain || cbid >= limit {
        None
    } else if cbid == 0 {
        Some(c"INVALID")
    } else {
        enum_name(domain, cbid)
    };
    // SAFETY: checked non-null; the caller passes a writable pointer slot.
    unsafe { *name = found.map_or(std::ptr::null(), CStr::as_ptr) };
    if found.is_some() {
        SUCCESS
    } else {
        INVALID_PARAMETER
    }
}
