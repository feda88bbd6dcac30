use std::ffi::CString;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use accelprof_core::intern::{Interner, NameId};

#[test]
fn same_content_same_id_and_ids_are_dense() {
    let mut interner = Interner::new();
    let a = interner.intern("cudaLaunchKernel");
    let b = interner.intern("cudaMemcpyAsync");
    assert_eq!(interner.intern("cudaLaunchKernel"), a);
    assert_eq!((a, b), (NameId(1), NameId(2)));
    let names = interner.names();
    assert_eq!(names.resolve(a), "cudaLaunchKernel");
    assert_eq!(&*names.get(b).unwrap(), "cudaMemcpyAsync");
    assert_eq!(names.len(), 2);
    assert_eq!(interner.len(), 2);
}

#[test]
fn none_and_unknown_ids_resolve_to_nothing() {
    let mut interner = Interner::new();
    interner.intern("x");
    let names = interner.names();
    assert_eq!(names.get(NameId::NONE), None);
    assert_eq!(names.resolve(NameId::NONE), "");
    assert_eq!(names.lookup(NameId(2)), None);
    assert_eq!(names.lookup(NameId(u32::MAX)), None);
    assert!(NameId::NONE.is_none());
}

#[test]
fn c_strings_are_keyed_by_content_not_address() {
    let mut interner = Interner::new();
    // SAFETY: NULL is allowed.
    assert_eq!(unsafe { interner.intern_cstr(std::ptr::null()) }, NameId::NONE);

    let first = CString::new("ncclDevKernel_AllReduce").unwrap();
    let second = CString::new("ncclDevKernel_AllReduce").unwrap();
    assert_ne!(first.as_ptr(), second.as_ptr());
    // SAFETY: both are valid NUL-terminated strings alive during the calls.
    let (a, b) = unsafe { (interner.intern_cstr(first.as_ptr()), interner.intern_cstr(second.as_ptr())) };
    assert_eq!(a, b);

    // The same address with new content is a new name.
    let mut reused = CString::new("kernel_a").unwrap().into_bytes_with_nul();
    let ptr = reused.as_ptr().cast();
    // SAFETY: `reused` is a NUL-terminated buffer alive during the call.
    let ka = unsafe { interner.intern_cstr(ptr) };
    reused[7] = b'b';
    // SAFETY: as above; the content changed in place, the address did not.
    let kb = unsafe { interner.intern_cstr(reused.as_ptr().cast()) };
    assert_ne!(ka, kb);
    let names = interner.names();
    assert_eq!((names.resolve(ka), names.resolve(kb)), ("kernel_a", "kernel_b"));
}

#[test]
fn invalid_utf8_is_kept_lossily_but_keyed_exactly() {
    let mut interner = Interner::new();
    let a = interner.intern_bytes(b"k\xffernel");
    let b = interner.intern_bytes(b"k\xfeernel");
    assert_ne!(a, b, "different bytes stay different names");
    assert_eq!(interner.names().resolve(a), "k\u{fffd}ernel");
}

#[test]
#[cfg_attr(miri, ignore = "did not finish under Miri within minutes, even at 300 names (see docs/CHECKS.md)")]
fn names_are_readable_from_other_threads_while_the_owner_interns() {
    const COUNT: u32 = 50_000;
    let mut interner = Interner::new();
    let names = interner.names();
    let done = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..3)
        .map(|_| {
            let (names, done) = (names.clone(), Arc::clone(&done));
            std::thread::spawn(move || {
                let mut checked = 0u64;
                loop {
                    let finished = done.load(Ordering::Acquire);
                    let len = names.len() as u32;
                    // Every published id resolves, to exactly what was interned under it.
                    for id in (1..=len).rev().step_by(97) {
                        assert_eq!(names.resolve(NameId(id)), format!("name-{id}"));
                        checked += 1;
                    }
                    if finished {
                        assert_eq!(len, COUNT);
                        return checked;
                    }
                }
            })
        })
        .collect();
    for i in 1..=COUNT {
        assert_eq!(interner.intern(&format!("name-{i}")), NameId(i));
    }
    done.store(true, Ordering::Release);
    for reader in readers {
        assert!(reader.join().unwrap() > 0);
    }
    for i in (1..=COUNT).step_by(1000) {
        assert_eq!(names.resolve(NameId(i)), format!("name-{i}"));
    }
}
