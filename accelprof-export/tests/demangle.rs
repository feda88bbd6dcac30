//! Kernel names demangled as PyTorch's profiler (Kineto) shows them: through the C++ runtime's
//! `abi::__cxa_demangle` when the process has libstdc++ (every CUDA C++ process does), else `cpp_demangle`.
//!
//! The expected strings are what libstdc++'s `__cxa_demangle` prints for these symbols (as `c++filt` does);
//! the symbols are what g++ emits for kernels shaped like PyTorch's.

use accelprof_export::demangle::{CxaDemangle, Demangler, DemanglerKind, KINETO_MAX_NAME};

/// (mangled, libstdc++'s text).
const NAMES: [(&str, &str); 6] = [
    (
        "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEEviT0_T1_",
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)",
    ),
    (
        "_ZN2at6native18elementwise_kernelILi128ELi2EZNS0_22gpu_kernel_impl_nocastINS0_2OpEEEvRKT_EUliE_EEviT1_",
        "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::Op>(at::native::Op const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::Op>(at::native::Op const&)::{lambda(int)#1})",
    ),
    (
        "_ZN2at6native22gpu_kernel_impl_nocastIZNS0_19sigmoid_kernel_cudaERNS0_18TensorIteratorBaseEEUlfE_EEvRKT_",
        "void at::native::gpu_kernel_impl_nocast<at::native::sigmoid_kernel_cuda(at::native::TensorIteratorBase&)::{lambda(float)#1}>(at::native::sigmoid_kernel_cuda(at::native::TensorIteratorBase&)::{lambda(float)#1} const&)",
    ),
    ("_Z3getIfLm2EEPT_RSt5arrayIS1_XT0_EE", "float* get<float, 2ul>(std::array<float*, 2ul>&)"),
    ("_Z11flag_kernelILb1EEvv", "void flag_kernel<true>()"),
    ("_Z9vectorAddPKfS0_Pfi", "vectorAdd(float const*, float const*, float*, int)"),
];

/// Names no demangler changes (Kineto keeps them as CUPTI reports them).
const RAW: [&str; 4] = [
    "ampere_sgemm_128x64_tn",
    "triton_poi_fused_add_0",
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
    "_Zgarbage",
];

/// `_Z1f150aaa...150bbb...`: `f(aaa..., bbb..., ...)` with `params` parameter types of 150 letters.
fn long_name(params: u8) -> String {
    let types: String =
        (b'a'..b'a' + params).map(|c| format!("150{}", (c as char).to_string().repeat(150))).collect();
    format!("_Z1f{types}")
}

fn long_text(params: u8) -> String {
    let types: Vec<String> = (b'a'..b'a' + params).map(|c| (c as char).to_string().repeat(150)).collect();
    format!("f({})", types.join(", "))
}

fn check(d: &Demangler) {
    for raw in RAW {
        assert_eq!(d.demangle(raw.as_bytes()), None, "{raw} stays as it is");
    }
    // Longer than Kineto's limit: kept mangled, as Kineto keeps it (unless the limit is raised).
    let long = long_name(7);
    assert!(long.len() > KINETO_MAX_NAME);
    assert_eq!(d.demangle(long.as_bytes()), None);
}

#[test]
#[cfg_attr(miri, ignore = "maps libstdc++ with dlopen")]
fn names_are_the_cxx_runtimes_when_the_process_has_one_else_cpp_demangles() {
    // 1. A Rust test process has no C++ runtime: the crate's demangler, readable but not Kineto's strings.
    assert!(CxaDemangle::find().is_none(), "this test expects a process without libstdc++ at first");
    let fallback = Demangler::new();
    assert_eq!(fallback.kind(), DemanglerKind::CppDemangle);
    check(&fallback);
    let (array_kernel, kineto_text) = NAMES[0];
    let text = fallback.demangle(array_kernel.as_bytes()).expect("demangled");
    assert!(text.contains("(unsigned long)1"), "cpp_demangle's text differs from Kineto's: {text}");
    assert_ne!(text, kineto_text);

    // 2. libstdc++ mapped without global visibility (a Python extension's dependency): found by RTLD_NOLOAD.
    // SAFETY: libstdc++'s initialisers are the C++ runtime's own, safe to run in any process.
    let local = unsafe { libloading::Library::new("libstdc++.so.6") }
        .expect("libstdc++.so.6 (installed with g++/gcc) is needed to check names against Kineto's");
    let cxa = Demangler::new();
    assert_eq!(cxa.kind(), DemanglerKind::CxaDemangle);
    assert!(format!("{:?}", CxaDemangle::find().unwrap()).contains("from_global_scope: false"));
    for (mangled, expected) in NAMES {
        assert_eq!(cxa.demangle(mangled.as_bytes()).as_deref(), Some(expected), "{mangled}");
    }
    check(&cxa);
    // Kineto calls __cxa_demangle on every name, which also reads bare type codes: a kernel named `i` is
    // shown as `int` by PyTorch's profiler, and so by us.
    assert_eq!(cxa.demangle(b"i").as_deref(), Some("int"));
    // `f(aaa..., bbb..., ...)` with seven parameter types of 150 letters each (1,075 bytes): libstdc++
    // itself refuses names past 1,024 bytes (status -2, seen with GCC 12's), as Kineto does before calling it.
    assert_eq!(cxa.demangle(long_name(6).as_bytes()), Some(long_text(6)), "922 bytes: within the limit");
    assert_eq!(cxa.with_max_len(10).demangle(b"_Z9vectorAddPKfS0_Pfi"), None, "a lower limit");
    let raised = Demangler::cpp_demangle().with_max_len(4096);
    assert_eq!(raised.demangle(long_name(7).as_bytes()), Some(long_text(7)), "a higher limit");

    // 3. libstdc++ in the global scope (the usual case: the program links it): found by RTLD_DEFAULT.
    // SAFETY: as above; RTLD_GLOBAL only changes the library's visibility.
    let global = unsafe {
        libloading::os::unix::Library::open(
            Some("libstdc++.so.6"),
            libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_GLOBAL,
        )
    }
    .unwrap();
    assert!(format!("{:?}", CxaDemangle::find().unwrap()).contains("from_global_scope: true"));
    assert_eq!(Demangler::new().demangle(NAMES[3].0.as_bytes()).as_deref(), Some(NAMES[3].1));
    drop((local, global));
}

#[test]
fn hostile_input_never_panics() {
    let demanglers = [Demangler::cpp_demangle(), Demangler::new()];
    let mut inputs: Vec<Vec<u8>> = vec![
        b"_Z".to_vec(),
        b"_ZN".repeat(300),
        b"_ZSt".repeat(200),
        vec![0xff; 64],
        b"_Z1a\0b".to_vec(),
        "_Z3f\u{e9}\u{e9}v".as_bytes().to_vec(),
    ];
    inputs.push([b"_Z".as_slice(), &b"IIIIIIII".repeat(120)].concat());
    for d in &demanglers {
        for input in &inputs {
            let _ = d.demangle(input);
        }
    }
}
