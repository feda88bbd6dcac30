//! `RowWriter`: many rows appended with one length update per column, the same columns as `push` makes.

use std::panic::{catch_unwind, AssertUnwindSafe};

use accelprof_core::columns::{ApiColumns, ApiRow, KernelColumns, KernelRow};
use accelprof_core::NameId;

fn kernel(i: u64) -> KernelRow {
    KernelRow {
        start: i * 10,
        end: i * 10 + 5,
        device: (i % 3) as u32,
        stream: i % 7,
        correlation: i,
        grid_x: i as u32,
        registers: (i % 255) as u16,
        name: NameId((i % 5) as u32 + 1),
        ..KernelRow::default()
    }
}

#[test]
fn a_writer_makes_the_same_columns_as_push_across_growth() {
    let mut pushed = KernelColumns::new();
    let mut written = KernelColumns::new();
    for i in 0..3 {
        pushed.push(kernel(i));
        written.push(kernel(i));
    }
    {
        let mut w = written.writer(0);
        for i in 3..5000 {
            w.push(kernel(i));
        }
    }
    for i in 3..5000 {
        pushed.push(kernel(i));
    }
    assert_eq!(written, pushed);
    assert_eq!(written.len(), 5000);
    assert_eq!(written.correlation().len(), 5000);
    assert_eq!(written.row(4999), Some(kernel(4999)));
    // Plain pushes after a writer continue where it left off.
    written.push(kernel(5000));
    assert_eq!(written.row(5000), Some(kernel(5000)));
}

#[test]
fn a_writer_with_room_reserved_and_one_that_writes_nothing() {
    let mut c = ApiColumns::new();
    drop(c.writer(100));
    assert_eq!(c.len(), 0);
    assert!(c.capacity() >= 100);
    let mut w = c.writer(0);
    w.push(ApiRow { correlation: 9, ..ApiRow::default() });
    drop(w);
    assert_eq!(c.correlation(), &[9]);
}

#[test]
fn rows_written_before_a_panic_are_kept_and_a_forgotten_writer_changes_nothing() {
    let mut c = KernelColumns::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut w = c.writer(0);
        for i in 0..10 {
            w.push(kernel(i));
        }
        panic!("a decoder bug");
    }));
    assert!(result.is_err());
    assert_eq!(c.len(), 10);
    assert_eq!(c.end().len(), 10);
    let mut w = c.writer(0);
    w.push(kernel(10));
    std::mem::forget(w);
    assert_eq!(c.len(), 10, "never committed: not visible, and no column disagrees");
    assert!(c.start().len() == 10 && c.name().len() == 10);
}

#[test]
fn push_while_makes_the_same_columns_as_push_and_stops_at_none() {
    let mut pushed = KernelColumns::new();
    let mut written = KernelColumns::new();
    pushed.push(kernel(0));
    written.push(kernel(0));
    for i in 1..3000 {
        pushed.push(kernel(i));
    }
    let mut next = 1;
    let appended = written.writer(0).push_while(|| {
        (next < 3000).then(|| {
            next += 1;
            kernel(next - 1)
        })
    });
    assert_eq!(appended, 2999);
    assert_eq!(written, pushed);
    // Mixed with push on one writer, and a loop that appends nothing.
    let mut w = written.writer(0);
    assert_eq!(w.push_while(|| None), 0);
    w.push(kernel(3000));
    let mut more = 3001..3005;
    assert_eq!(w.push_while(|| more.next().map(kernel)), 4);
    drop(w);
    assert_eq!(written.len(), 3005);
    assert_eq!(written.row(3004), Some(kernel(3004)));
}

#[test]
fn rows_appended_by_push_while_before_a_panic_are_kept() {
    let mut c = ApiColumns::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut w = c.writer(0);
        let mut i = 0u64;
        w.push_while(|| {
            i += 1;
            assert!(i <= 100, "a decoder bug");
            Some(ApiRow { correlation: i, ..ApiRow::default() })
        });
    }));
    assert!(result.is_err());
    assert_eq!(c.len(), 100);
    assert_eq!(c.correlation().len(), 100);
    assert_eq!(c.correlation()[99], 100);
}
