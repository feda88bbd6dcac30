//! [`RowWriter`]: appending many rows to a family's columns without per-row bookkeeping.
//!
//! `push` updates every column's length for every row; a decoder appending millions of rows spends most of
//! its time on that bookkeeping. A writer keeps one pointer per column into room reserved in advance,
//! writes each row's fields there and sets the lengths once, when it is dropped (or when it needs more
//! room). Safe to use: the writer borrows the columns mutably, so nothing else sees them meanwhile, and
//! rows written are committed even if the caller panics.

use std::fmt;

/// Columns that a [`RowWriter`] can append to (implemented by every `XxxColumns`).
pub trait RowColumns {
    /// The row type.
    type Row: Copy;
    /// One raw pointer per column.
    #[doc(hidden)]
    type Ptrs: Copy;

    /// Rows that fit before a column reallocates, counting the present ones.
    #[doc(hidden)]
    fn room(&self) -> usize;
    /// Pointers to row `at` of every column (`at <= room()`).
    #[doc(hidden)]
    fn ptrs_at(&mut self, at: usize) -> Self::Ptrs;
    /// Writes `row` as row `i` past the pointers.
    ///
    /// # Safety
    /// `ptrs` came from `ptrs_at(at)` with no reallocation since, and `at + i < room()`.
    #[doc(hidden)]
    unsafe fn write(ptrs: Self::Ptrs, i: usize, row: Self::Row);
    /// Sets every column's length to `len`.
    ///
    /// # Safety
    /// Rows `[current len, len)` of every column were written, and `len <= room()`.
    #[doc(hidden)]
    unsafe fn commit(&mut self, len: usize);
    /// The number of rows.
    fn row_count(&self) -> usize;
    /// Makes room for `additional` more rows.
    fn reserve_rows(&mut self, additional: usize);
}

/// Appends rows to one family's columns (see the module docs). Get one with `columns.writer()`.
pub struct RowWriter<'a, C: RowColumns> {
    columns: &'a mut C,
    ptrs: C::Ptrs,
    /// Rows present when the pointers were taken.
    base: usize,
    /// Rows written past `base`.
    written: usize,
    /// Rows that fit past `base`.
    room: usize,
}

impl<'a, C: RowColumns> RowWriter<'a, C> {
    /// A writer appending to `columns`, with room for at least `expected` rows reserved now (more is
    /// reserved as needed).
    pub fn new(columns: &'a mut C, expected: usize) -> Self {
        columns.reserve_rows(expected);
        let base = columns.row_count();
        let room = columns.room() - base;
        let ptrs = columns.ptrs_at(base);
        RowWriter { columns, ptrs, base, written: 0, room }
    }

    /// Appends one row.
    #[inline(always)]
    pub fn push(&mut self, row: C::Row) {
        if self.written == self.room {
            self.grow();
        }
        // SAFETY: `ptrs` was taken at `base` after the last reallocation (in `new` or `grow`), and
        // `base + written < base + room <= columns.room()`.
        unsafe { C::write(self.ptrs, self.written, row) };
        self.written += 1;
    }

    /// Appends the rows `next` returns, until it returns `None`; returns how many. The same rows as `push`
    /// in a loop, for less: the writer's pointers and count stay in registers for the whole loop instead of
    /// being reloaded after every row's stores. Rows appended before `next` panics are kept.
    #[inline(always)]
    pub fn push_while(&mut self, mut next: impl FnMut() -> Option<C::Row>) -> usize {
        let mut total = 0;
        loop {
            let (ptrs, room) = (self.ptrs, self.room);
            // Writes the count back when the loop ends or `next` panics.
            let mut count = Written { at: self.written, into: &mut self.written };
            while count.at < room {
                let Some(row) = next() else {
                    total += count.at - *count.into;
                    return total;
                };
                // SAFETY: as in `push`: `ptrs` was taken after the last reallocation and
                // `base + at < base + room <= columns.room()`.
                unsafe { C::write(ptrs, count.at, row) };
                count.at += 1;
            }
            total += count.at - *count.into;
            drop(count);
            self.grow();
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        self.commit();
        let base = self.columns.row_count();
        self.columns.reserve_rows(base.max(64));
        self.base = base;
        self.written = 0;
        self.room = self.columns.room() - base;
        self.ptrs = self.columns.ptrs_at(base);
    }

    fn commit(&mut self) {
        // SAFETY: rows `[base, base + written)` were written by `push`, within the room.
        unsafe { self.columns.commit(self.base + self.written) };
        self.base += self.written;
        self.room -= self.written;
        self.written = 0;
        self.ptrs = self.columns.ptrs_at(self.base);
    }
}

/// The running count of a [`RowWriter::push_while`] loop, stored into the writer when dropped.
struct Written<'w> {
    at: usize,
    into: &'w mut usize,
}

impl Drop for Written<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        *self.into = self.at;
    }
}

impl<C: RowColumns> Drop for RowWriter<'_, C> {
    fn drop(&mut self) {
        // SAFETY: as in `commit`.
        unsafe { self.columns.commit(self.base + self.written) };
    }
}

impl<C: RowColumns> fmt::Debug for RowWriter<'_, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RowWriter")
            .field("written", &(self.base + self.written))
            .field("room", &self.room)
            .finish()
    }
}
