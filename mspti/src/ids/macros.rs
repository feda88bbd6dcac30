//! `id_newtype!`: a `#[repr(transparent)]` newtype over a C enum's integer with named
//! constants, a name for each, and room for any other value (a newer library's ids).

macro_rules! id_newtype {
    (
        $(#[$meta:meta])*
        pub struct $T:ident($raw:ty) from $sys:path;
        $( $(#[$cmeta:meta])* $name:ident = $sysconst:expr, $text:literal; )*
    ) => {
        $(#[$meta])*
        #[repr(transparent)]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $T(pub $raw);

        impl $T {
            $( $(#[$cmeta])* pub const $name: $T = $T($sysconst.0); )*

            /// Every named value, in numeric order of the header.
            pub const ALL: &'static [$T] = &[$($T::$name),*];

            /// The constant's name (`"LAUNCH"`), or `None` for a value this crate does not know.
            pub fn name(self) -> Option<&'static str> {
                match self {
                    $( $T::$name => Some($text), )*
                    _ => None,
                }
            }

            /// Whether this crate knows the value (a newer library may send others).
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
                    Some(n) => write!(f, concat!(stringify!($T), "::{}"), n),
                    None => write!(f, concat!(stringify!($T), "({})"), self.0),
                }
            }
        }

        impl ::core::fmt::Display for $T {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match self.name() {
                    Some(n) => f.write_str(n),
                    None => write!(f, "unknown({})", self.0),
                }
            }
        }

        impl From<$raw> for $T {
            fn from(raw: $raw) -> $T {
                $T(raw)
            }
        }

        impl From<$T> for $raw {
            fn from(v: $T) -> $raw {
                v.0
            }
        }

        impl From<$sys> for $T {
            fn from(v: $sys) -> $T {
                $T(v.0)
            }
        }

        impl From<$T> for $sys {
            fn from(v: $T) -> $sys {
                $sys(v.0)
            }
        }
    };
}
