//! The [`function_table!`](crate::function_table) macro.

/// Builds a lazily-resolved function table from a bindgen `extern "C"` block.
///
/// ```
/// use std::ffi::{c_int, c_void};
/// use std::ptr::NonNull;
///
/// extern "C" fn fake_get_version(v: *mut u32) -> c_int {
///     unsafe { *v = 7 };
///     0
/// }
///
/// accelprof_loader::function_table! {
///     /// Functions of a pretend library.
///     pub struct Fns;
///     extern "C" {
///         pub fn demoGetVersion(version: *mut u32) -> c_int;
///         pub fn demoNewerOnly();
///     }
/// }
///
/// // SAFETY: the fake returns `fake_get_version` for the one name it knows, with the declared signature.
/// let resolver = unsafe {
///     accelprof_loader::Resolver::new("libdemo", |name| match name.to_bytes() {
///         b"demoGetVersion" => NonNull::new(fake_get_version as *mut c_void),
///         _ => None,
///     })
/// };
/// let fns = Fns::new(resolver);
/// let mut v = 0;
/// // SAFETY: `v` is a valid out-pointer.
/// assert_eq!(unsafe { fns.demoGetVersion(&mut v) }, Ok(0));
/// assert_eq!(v, 7);
/// // A symbol the library lacks is an error naming it, not a panic.
/// let err = unsafe { fns.demoNewerOnly() }.unwrap_err();
/// assert_eq!(err.symbol, "demoNewerOnly");
/// assert!(!fns.has("demoNewerOnly"));
/// assert_eq!(fns.missing(), vec!["demoNewerOnly"]);
/// ```
#[macro_export]
macro_rules! function_table {
    (
        $(#[$meta:meta])*
        $vis:vis struct $Table:ident;
        $(unsafe)? extern "C" {
            $(
                $(#[$fmeta:meta])*
                pub fn $name:ident ( $($arg:ident : $ty:ty),* $(,)? ) $(-> $ret:ty)? ;
            )*
        }
    ) => {
        $(#[$meta])*
        #[allow(non_snake_case)]
        $vis struct $Table {
            resolver: $crate::Resolver,
            $( $name: $crate::LazySymbol, )*
        }

        impl ::core::fmt::Debug for $Table {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(stringify!($Table)).field("library", &self.resolver.library()).finish_non_exhaustive()
            }
        }

        #[allow(non_snake_case, clippy::missing_safety_doc, clippy::too_many_arguments, dead_code)]
        impl $Table {
            /// Every C function this table knows, in header order.
            pub const SYMBOLS: &'static [&'static str] = &[$(stringify!($name)),*];

            /// A table whose entries resolve through `resolver` on first call.
            pub fn new(resolver: $crate::Resolver) -> Self {
                $Table { resolver, $( $name: $crate::LazySymbol::new(), )* }
            }

            /// The resolver this table calls through.
            pub fn resolver(&self) -> &$crate::Resolver {
                &self.resolver
            }

            /// Whether the library exports `symbol` (resolving it if needed).
            pub fn has(&self, symbol: &str) -> bool {
                match symbol {
                    $( stringify!($name) => self.$name.get(
                        &self.resolver,
                        $crate::__cstr!($name),
                    ).is_some(), )*
                    _ => false,
                }
            }

            /// The functions of [`Self::SYMBOLS`] this library lacks.
            pub fn missing(&self) -> ::std::vec::Vec<&'static str> {
                Self::SYMBOLS.iter().copied().filter(|s| !self.has(s)).collect()
            }

            $(
                $(#[$fmeta])*
                #[inline]
                pub unsafe fn $name(&self, $($arg: $ty),*)
                    -> ::core::result::Result<$crate::__ret!($($ret)?), $crate::MissingSymbol>
                {
                    let Some(p) = self.$name.get(&self.resolver, $crate::__cstr!($name)) else {
                        return Err($crate::MissingSymbol::new(self.resolver.library(), stringify!($name)));
                    };
                    // SAFETY: the resolver's contract (see `Resolver::new`) is that the address
                    // found under this name is the C function these bindings were generated
                    // from, so it has exactly this signature.
                    let f: unsafe extern "C" fn($($ty),*) $(-> $ret)? =
                        unsafe { $crate::__private::transmute(p.as_ptr()) };
                    // SAFETY: this method is `unsafe`; its caller upholds the C function's contract.
                    Ok(unsafe { f($($arg),*) })
                }
            )*
        }

    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __ret {
    () => {
        ()
    };
    ($t:ty) => {
        $t
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __cstr {
    ($name:ident) => {{
        const C: &$crate::__private::CStr =
            match $crate::__private::CStr::from_bytes_with_nul(concat!(stringify!($name), "\0").as_bytes()) {
                Ok(c) => c,
                Err(_) => panic!("symbol names contain no NUL"),
            };
        C
    }};
}
