use std::fmt::Write;

use accelprof_export::summary::escape_control;

use crate::results::Report;
use crate::rules::KernelType;

fn us(ns: i64) -> String {
    format!("{:.1}", ns as f64 / 1000.0)
}

/// `name` cut to `width` characters, with its control characters escaped (line ends and tabs included).
fn short(name: &str, width: usize) -> String {
    if name.chars().count() <= width {
        escape_control(name).into_owned()
    } else {
        let cut: String = name.chars().take(width - 3).collect();
        format!("{}...", escape_control(&cut))
    }
}

/// The report as text tables (times in µs), the top `top` kernels per rank. Every name (kernels, hosts,
/// vendors, files) has its control characters escaped, line ends and tabs included (`\n`, `\t`,
/// `\u{1b}`): a name never drives the terminal nor starts a row of its own.
pub fn render(report: &Report, top: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "ranks: {}", report.ranks.len());
    for r in &report.ranks {
        let _ = writeln!(
            s,
            "  rank {:>4}  host {:<12} vendor {:<11} pid {:<8} {}",
            r.meta.rank,
            escape_control(&r.meta.host),
            escape_control(&r.meta.vendor),
            r.meta.process_id,
            escape_control(&r.file.display().to_string())
        );
    }

    for u in &report.unfinished {
        let _ = writeln!(
            s,
            "  rank {:>4}: {} GPU activities or steps with an end before their start, left out of every time \
             (one known source: kernels not finished at the final flush)",
            u.rank, u.count
        );
    }

    let _ = writeln!(s, "\nkernel type breakdown, all ranks (HTA's kernel_type_df):");
    for (label, t, pct) in report.breakdown_totals() {
        let _ = writeln!(s, "  {label:<58} {:>14} us {pct:>6.1}%", us(t));
    }

    let _ = writeln!(s, "\ntime per kernel type per rank (us):");
    let _ = writeln!(s, "  {:>4} {:<14} {:>10} {:>14}", "rank", "type", "count", "sum");
    for c in &report.categories {
        let _ =
            writeln!(s, "  {:>4} {:<14} {:>10} {:>14}", c.rank, c.kernel_type.name(), c.count, us(c.sum_ns));
    }

    let _ = writeln!(s, "\nidle time per rank (HTA's temporal breakdown, us):");
    let _ = writeln!(
        s,
        "  {:>4} {:>14} {:>7} {:>14} {:>7} {:>14} {:>14}",
        "rank", "idle", "%", "compute", "%", "non-compute", "span"
    );
    for i in &report.idle {
        let _ = writeln!(
            s,
            "  {:>4} {:>14} {:>6.1}% {:>14} {:>6.1}% {:>14} {:>14}",
            i.rank,
            us(i.idle_ns),
            i.idle_pct(),
            us(i.compute_ns),
            i.compute_pct(),
            us(i.non_compute_ns),
            us(i.kernel_time_ns)
        );
    }

    let ranks: std::collections::BTreeSet<u32> = report.kernels.iter().map(|k| k.rank).collect();
    for rank in ranks {
        let _ = writeln!(s, "\ntop kernels of rank {rank} (us):");
        let _ = writeln!(s, "  {:<14} {:>9} {:>14} {:>10}  name", "type", "count", "sum", "mean");
        let mut rows: Vec<_> =
            report.kernels.iter().filter(|k| k.rank == rank && k.kernel_type != KernelType::Other).collect();
        rows.sort_by(|a, b| b.sum_ns.cmp(&a.sum_ns).then_with(|| a.name.cmp(&b.name)));
        for k in rows.into_iter().take(top) {
            let _ = writeln!(
                s,
                "  {:<14} {:>9} {:>14} {:>10.1}  {}",
                k.kernel_type.name(),
                k.count,
                us(k.sum_ns),
                k.mean_ns / 1000.0,
                short(&k.name, 70)
            );
        }
    }

    let _ = writeln!(s, "\ncommunication kernels per rank (us):");
    for c in &report.communication {
        let _ =
            writeln!(s, "  rank {:>4} x{:<8} {:>14}  {}", c.rank, c.count, us(c.sum_ns), short(&c.name, 70));
    }

    let _ = writeln!(s, "\nsteps: {} (rank x step rows {})", report.stragglers.len(), report.steps.len());
    if !report.stragglers.is_empty() {
        let _ = writeln!(
            s,
            "  {:>6} {:>6} {:>8} {:>12} {:>8} {:>12} {:>12} {:>12}",
            "step", "ranks", "slowest", "us", "fastest", "us", "mean us", "late comm"
        );
        for st in &report.stragglers {
            let late = st.latest_comm_rank.map_or("-".to_owned(), |r| r.to_string());
            let _ = writeln!(
                s,
                "  {:>6} {:>6} {:>8} {:>12} {:>8} {:>12} {:>12.1} {:>12}",
                st.step,
                st.ranks,
                st.slowest_rank,
                us(st.slowest_ns),
                st.fastest_rank,
                us(st.fastest_ns),
                st.mean_ns / 1000.0,
                late
            );
        }
        let mut slowest: std::collections::BTreeMap<u32, usize> = Default::default();
        for st in &report.stragglers {
            *slowest.entry(st.slowest_rank).or_default() += 1;
        }
        let mut counts: Vec<_> = slowest.into_iter().collect();
        counts.sort_by_key(|c| std::cmp::Reverse(c.1));
        let list: Vec<String> = counts.iter().map(|(r, n)| format!("rank {r}: {n}")).collect();
        let _ = writeln!(s, "  slowest rank, steps: {}", list.join(", "));
    }
    s
}
