//! [`id_newtype!`](crate::id_newtype): the one way the vendor crates turn a C enum into Rust.
//!
//! A C enum becomes a `#[repr(transparent)]` newtype over its integer, as ash does it: a named
//! constant per value of the headers, a name for each, and `Debug`/`Display` that print the name.
//! Two forms:
//!
//! - **open** (`struct T(pub u32)`): any value is representable, because a newer library may send
//!   values the headers this crate was built from do not have (callback ids, domains, sites);
//!   `T::from_raw(v)` and `T(v)` build any value, `T::name` is `None` for an unknown one.
//! - **closed** (`struct T(u32)`, the field private): only the listed values exist, for an enum
//!   that is passed to a vendor function that does not bound its argument (MSPTI's
//!   `msptiActivityIsEnabled` indexes an array with the activity kind unchecked):
//!   `T::from_raw(v)` is `None` for any other value and nothing else can make one.
//!
//! ```
//! accelprof_core::id_newtype! {
//!     /// A traffic light (`light_t`).
//!     #[derive(Default)]
//!     pub struct Light(pub u32) {
//!         /// `LIGHT_RED` (0).
//!         RED = 0;
//!         /// `LIGHT_GREEN` (2), named as the header spells it.
//!         GREEN = 2 => "LIGHT_GREEN";
//!     }
//! }
//!
//! assert_eq!(Light::GREEN.name(), Some("LIGHT_GREEN"));
//! assert_eq!(format!("{:?} {}", Light::RED, Light::RED), "Light::RED RED");
//! assert_eq!(Light::from_raw(7).name(), None); // a newer library's value: representable
//! assert_eq!(Light(7).to_string(), "unknown(7)");
//! assert_eq!(Light::ALL, &[Light::RED, Light::GREEN]);
//!
//! accelprof_core::id_newtype! {
//!     /// A closed one: nothing but the listed values can exist.
//!     pub struct Gear(u32) {
//!         /// First.
//!         FIRST = 1;
//!     }
//! }
//! assert_eq!(Gear::from_raw(1), Some(Gear::FIRST));
//! assert_eq!(Gear::from_raw(9), None);
//! assert_eq!(Gear::try_from(9u32), Err(9));
//! ```
//!
//! The closed form's field is private, so a value outside the list cannot be written:
//!
//! ```compile_fail,E0603
//! mod gears {
//!     accelprof_core::id_newtype! {
//!         pub struct Gear(u32) { FIRST = 1; }
//!     }
//! }
//! let g = gears::Gear(65536); // error: the field is private
//! ```
//!
//! What a clause between the tuple and the braces adds:
//!
//! - `from sys::light_t`: `From` conversions both ways with the bindings' own newtype (whose field
//!   is `.0`); for the closed form, from it only by `TryFrom`.
//! - `in CallbackDomain::RUNTIME => CallbackId` (a per-domain callback-id newtype): `T::DOMAIN`,
//!   `T::id()` (`CallbackId::new(T::DOMAIN, raw)`) and `From<T> for CallbackId`.
//! - `, named by hand;` instead of the braces: no constants here and no `name()` generated: the
//!   type defines `fn name(self) -> Option<&'static str>` itself (CUPTI's callback ids, named by
//!   tables that follow the library's version), and `Debug`/`Display` use it.

/// Defines a C-enum newtype; see the [module documentation](crate::ids).
#[macro_export]
macro_rules! id_newtype {
    // Open, named by hand (no constants here).
    (
        $(#[$meta:meta])*
        $vis:vis struct $T:ident(pub $raw:ty) $(from $sys:path)? $(, in $D:ident :: $DC:ident => $Id:ident)?
        , named by hand;
    ) => {
        $(#[$meta])*
        #[repr(transparent)]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis struct $T(pub $raw);

        $crate::id_newtype!(@common $T, $raw);
        $crate::id_newtype!(@open $T, $raw);
        $( $crate::id_newtype!(@open_sys $T, $sys); )?
        $( $crate::id_newtype!(@domain $T, $D, $DC, $Id); )?
    };
    // Open: any value representable.
    (
        $(#[$meta:meta])*
        $vis:vis struct $T:ident(pub $raw:ty) $(from $sys:path)? $(, in $D:ident :: $DC:ident => $Id:ident)? {
            $( $(#[$cmeta:meta])* $name:ident = $value:expr $(=> $text:literal)? ; )*
        }
    ) => {
        $(#[$meta])*
        #[repr(transparent)]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis struct $T(pub $raw);

        $crate::id_newtype!(@consts $T, $raw; $( $(#[$cmeta])* $name = $value $(=> $text)?; )*);
        $crate::id_newtype!(@common $T, $raw);
        $crate::id_newtype!(@open $T, $raw);
        $( $crate::id_newtype!(@open_sys $T, $sys); )?
        $( $crate::id_newtype!(@domain $T, $D, $DC, $Id); )?
    };
    // Closed: only the listed values exist.
    (
        $(#[$meta:meta])*
        $vis:vis struct $T:ident($raw:ty) $(from $sys:path)? {
            $( $(#[$cmeta:meta])* $name:ident = $value:expr $(=> $text:literal)? ; )*
        }
    ) => {
        $(#[$meta])*
        #[repr(transparent)]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis struct $T($raw);

        $crate::id_newtype!(@consts $T, $raw; $( $(#[$cmeta])* $name = $value $(=> $text)?; )*);
        $crate::id_newtype!(@common $T, $raw);

        impl $T {
            /// The value `raw`, if it is one of the listed values (no other can exist).
            pub const fn from_raw(raw: $raw) -> ::core::option::Option<$T> {
                let mut i = 0;
                while i < $T::ALL.len() {
                    if $T::ALL[i].0 == raw {
                        return ::core::option::Option::Some($T::ALL[i]);
                    }
                    i += 1;
                }
                ::core::option::Option::None
            }
        }

        impl ::core::convert::TryFrom<$raw> for $T {
            type Error = $raw;
            /// The value, or `raw` back when it is not one of the listed values.
            fn try_from(raw: $raw) -> ::core::result::Result<$T, $raw> {
                $T::from_raw(raw).ok_or(raw)
            }
        }

        $(
            impl ::core::convert::TryFrom<$sys> for $T {
                type Error = $raw;
                fn try_from(v: $sys) -> ::core::result::Result<$T, $raw> {
                    $T::from_raw(v.0).ok_or(v.0)
                }
            }

            impl ::core::convert::From<$T> for $sys {
                fn from(v: $T) -> $sys {
                    $sys(v.0)
                }
            }
        )?
    };

    (@consts $T:ident, $raw:ty; $( $(#[$cmeta:meta])* $name:ident = $value:expr $(=> $text:literal)? ; )*) => {
        impl $T {
            $( $(#[$cmeta])* pub const $name: $T = $T($value); )*

            /// Every named value, in the order of the header.
            pub const ALL: &'static [$T] = &[$($T::$name),*];

            /// The value's name (`"KERNEL"`), or `None` for a value this crate does not know.
            pub fn name(self) -> ::core::option::Option<&'static str> {
                $( if self == $T::$name {
                    return ::core::option::Option::Some($crate::id_newtype!(@text $name $(, $text)?));
                } )*
                ::core::option::Option::None
            }
        }
    };
    (@text $name:ident) => { ::core::stringify!($name) };
    (@text $name:ident, $text:literal) => { $text };

    (@common $T:ident, $raw:ty) => {
        impl $T {
            /// Whether this crate knows the value (has a name for it).
            pub fn is_known(self) -> bool {
                self.name().is_some()
            }

            /// The raw value.
            pub const fn raw(self) -> $raw {
                self.0
            }
        }

        impl ::core::fmt::Debug for $T {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match self.name() {
                    ::core::option::Option::Some(n) => {
                        ::core::write!(f, ::core::concat!(::core::stringify!($T), "::{}"), n)
                    }
                    ::core::option::Option::None => {
                        ::core::write!(f, ::core::concat!(::core::stringify!($T), "({})"), self.0)
                    }
                }
            }
        }

        impl ::core::fmt::Display for $T {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match self.name() {
                    ::core::option::Option::Some(n) => f.write_str(n),
                    ::core::option::Option::None => ::core::write!(f, "unknown({})", self.0),
                }
            }
        }

        impl ::core::convert::From<$T> for $raw {
            fn from(v: $T) -> $raw {
                v.0
            }
        }
    };

    (@open $T:ident, $raw:ty) => {
        impl $T {
            /// The value `raw`, known or not.
            pub const fn from_raw(raw: $raw) -> $T {
                $T(raw)
            }
        }

        impl ::core::convert::From<$raw> for $T {
            fn from(raw: $raw) -> $T {
                $T(raw)
            }
        }
    };

    (@open_sys $T:ident, $sys:path) => {
        impl ::core::convert::From<$sys> for $T {
            fn from(v: $sys) -> $T {
                $T(v.0)
            }
        }

        impl ::core::convert::From<$T> for $sys {
            fn from(v: $T) -> $sys {
                $sys(v.0)
            }
        }
    };

    (@domain $T:ident, $D:ident, $DC:ident, $Id:ident) => {
        impl $T {
            /// The domain of these ids.
            pub const DOMAIN: $D = $D::$DC;

            /// This id with its domain.
            pub const fn id(self) -> $Id {
                $Id::new(Self::DOMAIN, self.0)
            }
        }

        impl ::core::convert::From<$T> for $Id {
            fn from(v: $T) -> $Id {
                v.id()
            }
        }
    };
}

/// Defines a vendor crate's `ResultCode`: a result or status value of the library (any value,
/// codes newer than the crate included), with `SUCCESS` (0), `raw()`, `is_success()`, `From`
/// conversions both ways with the bindings' newtype `$sys` (whose field is `.0`), a `Debug` of
/// `ResultCode(n)` and a `Display` of the C name where known (`NAME (n)`), else the number. The
/// vendor crate defines `fn name(self) -> Option<&'static str>` in its own `impl ResultCode`.
///
/// ```
/// mod sys {
///     pub struct lib_result_t(pub u32);
/// }
/// use sys::lib_result_t;
///
/// accelprof_core::vendor_result_code! {
///     /// A `lib_result_t` value.
///     lib_result_t, "LIB_SUCCESS"
/// }
///
/// impl ResultCode {
///     pub fn name(self) -> Option<&'static str> {
///         (self.0 == 3).then_some("LIB_ERROR_THREE")
///     }
/// }
///
/// assert_eq!(ResultCode::from(lib_result_t(3)).to_string(), "LIB_ERROR_THREE (3)");
/// assert_eq!(format!("{:?}", ResultCode(4)), "ResultCode(4)");
/// assert_eq!(ResultCode(4).to_string(), "4");
/// assert!(ResultCode::SUCCESS.is_success() && lib_result_t::from(ResultCode(7)).0 == 7);
/// ```
#[macro_export]
macro_rules! vendor_result_code {
    ($(#[$meta:meta])* $sys:ident, $success:literal) => {
        $(#[$meta])*
        #[repr(transparent)]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct ResultCode(pub u32);

        impl ResultCode {
            #[doc = concat!("`", $success, "`.")]
            pub const SUCCESS: ResultCode = ResultCode(0);

            /// The raw value.
            pub const fn raw(self) -> u32 {
                self.0
            }

            #[doc = concat!("Whether this is `", $success, "`.")]
            pub const fn is_success(self) -> bool {
                self.0 == 0
            }
        }

        impl ::core::convert::From<$sys> for ResultCode {
            fn from(r: $sys) -> Self {
                ResultCode(r.0)
            }
        }

        impl ::core::convert::From<ResultCode> for $sys {
            fn from(r: ResultCode) -> Self {
                $sys(r.0)
            }
        }

        impl ::core::fmt::Debug for ResultCode {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "ResultCode({})", self.0)
            }
        }

        impl ::core::fmt::Display for ResultCode {
            /// The C name where known (`NAME (n)`), else the number.
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match self.name() {
                    Some(name) => write!(f, "{name} ({})", self.0),
                    None => write!(f, "{}", self.0),
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::id_newtype! {
        /// An open one, with a bindings type.
        pub struct Domain(pub u32) from Sys {
            /// One.
            ONE = 1;
            /// Two, named as a header would.
            TWO = Sys::TWO.0 => "DOMAIN_TWO";
        }
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct Sys(pub u32);
    impl Sys {
        const TWO: Sys = Sys(2);
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct Id {
        domain: Domain,
        cbid: u32,
    }
    impl Id {
        const fn new(domain: Domain, cbid: u32) -> Id {
            Id { domain, cbid }
        }
    }

    crate::id_newtype! {
        /// Ids of domain ONE.
        pub struct OneCbid(pub u32), in Domain::ONE => Id {
            /// First.
            FIRST = 7;
        }
    }

    crate::id_newtype! {
        /// Named elsewhere.
        pub struct Tabled(pub u32), named by hand;
    }
    impl Tabled {
        fn name(self) -> Option<&'static str> {
            (self.0 == 3).then_some("three")
        }
    }

    crate::id_newtype! {
        /// Closed.
        #[derive(Default)]
        pub struct Kind(u32) from Sys {
            /// Zero.
            NONE = 0;
            /// Two.
            TWO = 2;
        }
    }

    #[test]
    fn open_values_are_named_and_any_other_is_representable() {
        assert_eq!(Domain::ALL, &[Domain::ONE, Domain::TWO]);
        assert_eq!(Domain::TWO.name(), Some("DOMAIN_TWO"));
        assert_eq!(format!("{:?}/{}", Domain::ONE, Domain::ONE), "Domain::ONE/ONE");
        assert_eq!(format!("{:?}/{}", Domain(9), Domain(9)), "Domain(9)/unknown(9)");
        assert!(!Domain::from_raw(9).is_known());
        assert_eq!(Domain::from(Sys(2)), Domain::TWO);
        assert_eq!(Sys::from(Domain::ONE), Sys(1));
        assert_eq!(u32::from(Domain::TWO), 2);
        assert_eq!(Domain::from(5u32).raw(), 5);
    }

    #[test]
    fn per_domain_ids_carry_their_domain() {
        assert_eq!(OneCbid::DOMAIN, Domain::ONE);
        assert_eq!(OneCbid::FIRST.id(), Id::new(Domain::ONE, 7));
        assert_eq!(Id::from(OneCbid(8)), Id { domain: Domain::ONE, cbid: 8 });
    }

    #[test]
    fn hand_named_types_print_through_their_own_name() {
        assert_eq!(format!("{:?} {}", Tabled(3), Tabled(3)), "Tabled::three three");
        assert_eq!(Tabled(4).to_string(), "unknown(4)");
        assert!(Tabled(3).is_known());
    }

    #[test]
    fn closed_types_hold_only_their_values() {
        assert_eq!(Kind::default(), Kind::NONE);
        assert_eq!(Kind::from_raw(2), Some(Kind::TWO));
        assert_eq!(Kind::from_raw(1), None);
        assert_eq!(Kind::try_from(13u32), Err(13));
        assert_eq!(Kind::try_from(Sys(2)), Ok(Kind::TWO));
        assert_eq!(Sys::from(Kind::TWO), Sys(2));
        assert_eq!(Kind::TWO.raw(), 2);
    }
}
