//! `cfg(mspti_test_another_library)` while `MSPTI_TEST_LIBRARY` names another `libmspti.so` than
//! the mock (the real one, for example): the tests that need the mock's controls are then
//! `#[ignore]`d with their reason, instead of passing without running.
fn main() {
    println!("cargo::rerun-if-env-changed=MSPTI_TEST_LIBRARY");
    println!("cargo::rustc-check-cfg=cfg(mspti_test_another_library)");
    if std::env::var_os("MSPTI_TEST_LIBRARY").is_some_and(|v| !v.is_empty()) {
        println!("cargo::rustc-cfg=mspti_test_another_library");
    }
}
