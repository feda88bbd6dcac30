//! [`KernelSummary`]: time per kernel name, the table a tracer prints at the end (the engine prints it at
//! the end of every trace).

use std::borrow::Cow;
use std::fmt::Write;

use accelprof_core::{Batch, NameId, Names};

/// Time per kernel name, accumulated from the kernel columns (the same for every vendor).
#[derive(Clone, Debug, Default)]
pub struct KernelSummary {
    /// Indexed by `NameId`.
    by_name: Vec<KernelStat>,
    kernels: u64,
    incomplete: u64,
}

/// One kernel name's launches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KernelStat {
    /// Launches.
    pub count: u64,
    /// Sum of durations (ns).
    pub total_ns: u64,
    /// Shortest (ns).
    pub min_ns: u64,
    /// Longest (ns).
    pub max_ns: u64,
}

impl KernelSummary {
    /// Adds the kernels of a batch.
    pub fn add(&mut self, batch: &Batch) {
        let k = &batch.kernels;
        for ((start, end), name) in k.start().iter().zip(k.end()).zip(k.name()) {
            self.kernels += 1;
            if *end < *start {
                // Still running when the vendor handed it over (CUPTI's final forced flush): no duration.
                self.incomplete += 1;
                continue;
            }
            let index = name.0 as usize;
            if self.by_name.len() <= index {
                self.by_name.resize(index + 1, KernelStat::default());
            }
            let s = &mut self.by_name[index];
            let d = end - start;
            s.min_ns = if s.count == 0 { d } else { s.min_ns.min(d) };
            s.max_ns = s.max_ns.max(d);
            s.count += 1;
            s.total_ns += d;
        }
    }

    /// Kernel records seen (complete or not).
    pub fn kernels(&self) -> u64 {
        self.kernels
    }

    /// Kernels without an end time (still running at the final flush).
    pub fn incomplete(&self) -> u64 {
        self.incomplete
    }

    /// `(name, stat)` by total time, longest first.
    pub fn ranked(&self) -> Vec<(NameId, KernelStat)> {
        let mut rows: Vec<(NameId, KernelStat)> = self
            .by_name
            .iter()
            .enumerate()
            .filter(|(_, s)| s.count > 0)
            .map(|(i, s)| (NameId(i as u32), *s))
            .collect();
        rows.sort_by(|a, b| b.1.total_ns.cmp(&a.1.total_ns).then(a.0.cmp(&b.0)));
        rows
    }

    /// The table of the `top` kernels by total time.
    pub fn render(&self, names: &Names, top: usize) -> String {
        let rows = self.ranked();
        let total: u64 = rows.iter().map(|r| r.1.total_ns).sum();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:>6}  {:>12}  {:>8}  {:>11}  {:>11}  {:>11}  kernel",
            "time%", "total (us)", "calls", "avg (us)", "min (us)", "max (us)"
        );
        for (name, s) in rows.iter().take(top) {
            let pct = if total == 0 { 0.0 } else { 100.0 * s.total_ns as f64 / total as f64 };
            let mut shown = names.lookup(*name).unwrap_or("<unnamed>").to_owned();
            if shown.chars().count() > 100 {
                shown = shown.chars().take(97).collect::<String>() + "...";
            }
            // A name is the program's: it must not drive the terminal.
            let shown = escape_control(&shown);
            let _ = writeln!(
                out,
                "{pct:>5.1}%  {:>12.3}  {:>8}  {:>11.3}  {:>11.3}  {:>11.3}  {shown}",
                s.total_ns as f64 / 1e3,
                s.count,
                s.total_ns as f64 / s.count as f64 / 1e3,
                s.min_ns as f64 / 1e3,
                s.max_ns as f64 / 1e3,
            );
        }
        if rows.len() > top {
            let _ = writeln!(out, "... and {} more kernels", rows.len() - top);
        }
        let _ = writeln!(
            out,
            "{} kernel launches, {} distinct kernels, {:.3} ms of kernel time{}",
            self.kernels,
            rows.len(),
            total as f64 / 1e6,
            if self.incomplete > 0 {
                format!(", {} still running at exit", self.incomplete)
            } else {
                String::new()
            }
        );
        out
    }
}

/// `text` with its control characters (C0, DEL, C1: escape sequences, bells, line ends) written as Rust
/// escapes (`\u{1b}`, `\n`), for anything printed to a terminal that a program or a file chose (kernel
/// names, paths, variable names). Other characters, backslashes included, are kept.
pub fn escape_control(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`escape_control`] line by line: the line ends (`\n`) of a rendered text are kept, every other
/// control character is escaped.
pub fn escape_control_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && c != '\n') {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.split('\n').map(escape_control).collect::<Vec<_>>().join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use accelprof_core::columns::KernelRow;
    use accelprof_core::intern::Interner;

    #[test]
    fn ranks_by_total_time_and_counts_incomplete() {
        let mut names = Interner::new();
        let (a, b) = (names.intern("gemm"), names.intern("relu"));
        let mut batch = Batch::new();
        for (name, start, end) in [(a, 0, 100), (a, 200, 500), (b, 0, 50), (b, 600, 0)] {
            batch.kernels.push(KernelRow { name, start, end, ..Default::default() });
        }
        let mut s = KernelSummary::default();
        s.add(&batch);
        let ranked = s.ranked();
        assert_eq!(ranked[0], (a, KernelStat { count: 2, total_ns: 400, min_ns: 100, max_ns: 300 }));
        assert_eq!(ranked[1], (b, KernelStat { count: 1, total_ns: 50, min_ns: 50, max_ns: 50 }));
        assert_eq!((s.kernels(), s.incomplete()), (4, 1));
        let table = s.render(&names.names(), 1);
        assert!(table.contains("gemm") && !table.contains("relu"), "{table}");
        assert!(table.contains("... and 1 more kernels") && table.contains("1 still running"), "{table}");
    }

    /// A kernel named with an escape sequence (clear the screen) reached the terminal raw.
    #[test]
    fn names_are_rendered_with_their_control_characters_escaped() {
        let mut names = Interner::new();
        let evil = names.intern("\x1b[2J\x1b]0;title\x07k\u{9b}31m\nnext");
        let mut batch = Batch::new();
        batch.kernels.push(KernelRow { name: evil, start: 0, end: 10, ..Default::default() });
        let mut s = KernelSummary::default();
        s.add(&batch);
        let table = s.render(&names.names(), 5);
        assert!(!table.chars().any(|c| c.is_control() && c != '\n'), "{table:?}");
        assert!(table.contains("\\u{1b}[2J\\u{1b}]0;title\\u{7}k\\u{9b}31m\\nnext"), "{table}");
        assert_eq!(table.lines().count(), 3, "the name's line end is escaped: {table}");
        assert_eq!(escape_control("plain \\ text"), "plain \\ text");
        assert_eq!(escape_control_lines("a\x1b\nb\n"), "a\\u{1b}\nb\n");
    }
}
