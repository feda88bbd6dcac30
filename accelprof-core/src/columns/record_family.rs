/// Declares a family's row struct (one record, plain `Copy` data) and its columns struct (one `Vec` per
/// field, private, read through slice accessors named like the field) with `push`, `len`, `clear`, ...
macro_rules! record_family {
    (
        $(#[$cmeta:meta])*
        columns $columns:ident;
        $(#[$rmeta:meta])*
        row $row:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty ),+ $(,)?
        }
    ) => {
        $(#[$rmeta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        pub struct $row {
            $( $(#[$fmeta])* pub $field: $ty, )+
        }

        $(#[$cmeta])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $columns {
            len: usize,
            $( $field: Vec<$ty>, )+
        }

        impl $columns {
            /// Empty columns.
            pub fn new() -> Self {
                Self::default()
            }

            /// Empty columns with room for `rows` rows.
            pub fn with_capacity(rows: usize) -> Self {
                Self { len: 0, $( $field: Vec::with_capacity(rows), )+ }
            }

            /// Appends one row.
            #[inline]
            pub fn push(&mut self, row: $row) {
                $( self.$field.push(row.$field); )+
                self.len += 1;
            }

            /// The number of rows.
            #[inline]
            pub fn len(&self) -> usize {
                self.len
            }

            /// True when there is no row.
            #[inline]
            pub fn is_empty(&self) -> bool {
                self.len == 0
            }

            /// Removes every row, keeping the allocated capacity.
            pub fn clear(&mut self) {
                $( self.$field.clear(); )+
                self.len = 0;
            }

            /// Makes room for `additional` more rows.
            pub fn reserve(&mut self, additional: usize) {
                $( self.$field.reserve(additional); )+
            }

            /// How many rows fit before the columns reallocate.
            pub fn capacity(&self) -> usize {
                let mut cap = usize::MAX;
                $( cap = cap.min(self.$field.capacity()); )+
                cap
            }

            /// Row `index` gathered from the columns, or `None` past the end.
            pub fn row(&self, index: usize) -> Option<$row> {
                (index < self.len).then(|| $row { $( $field: self.$field[index], )+ })
            }

            /// Every row, in order (gathered from the columns; prefer the column slices in hot loops).
            pub fn rows(&self) -> impl ExactSizeIterator<Item = $row> + '_ {
                (0..self.len).map(move |i| $row { $( $field: self.$field[i], )+ })
            }

            /// Appends every row of `other`.
            pub fn extend_from(&mut self, other: &Self) {
                $( self.$field.extend_from_slice(&other.$field); )+
                self.len += other.len;
            }

            $(
                $(#[$fmeta])*
                #[inline]
                pub fn $field(&self) -> &[$ty] {
                    &self.$field
                }
            )+
        }

        impl $columns {
            /// A writer that appends many rows faster than [`push`](Self::push) in a loop (one length
            /// update per column when it is dropped), with room for `expected` rows reserved now.
            pub fn writer(&mut self, expected: usize) -> $crate::columns::RowWriter<'_, Self> {
                $crate::columns::RowWriter::new(self, expected)
            }
        }

        impl $crate::columns::RowColumns for $columns {
            type Row = $row;
            type Ptrs = ($( *mut $ty, )+);

            #[inline]
            fn room(&self) -> usize {
                self.capacity()
            }

            #[inline]
            fn ptrs_at(&mut self, at: usize) -> Self::Ptrs {
                // `wrapping_add`: computing the address is safe; writing through it is `write`'s contract.
                ($( self.$field.as_mut_ptr().wrapping_add(at), )+)
            }

            #[inline(always)]
            unsafe fn write(ptrs: Self::Ptrs, i: usize, row: $row) {
                let ($( $field, )+) = ptrs;
                // SAFETY: the caller guarantees row `i` past `ptrs` lies within every column's capacity.
                unsafe { $( $field.add(i).write(row.$field); )+ }
            }

            #[inline]
            unsafe fn commit(&mut self, len: usize) {
                // SAFETY: the caller guarantees rows up to `len` are written and within capacity; `u8`-like
                // plain data needs no drop.
                unsafe { $( self.$field.set_len(len); )+ }
                self.len = len;
            }

            #[inline]
            fn row_count(&self) -> usize {
                self.len
            }

            #[inline]
            fn reserve_rows(&mut self, additional: usize) {
                self.reserve(additional);
            }
        }
    };
}
