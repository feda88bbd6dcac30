//! [`Distributed`]: this process's place in a distributed job, and per-rank file names.

use std::path::{Path, PathBuf};

use super::TracerError;

/// The largest rank a trace holds: Parquet's `rank` column is a signed 32-bit integer (`i32::MAX`), and
/// a larger rank would be stored there as a negative one.
pub const MAX_RANK: u32 = i32::MAX as u32;

/// This process's rank in a distributed job (one process per device, as torch.distributed runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Distributed {
    /// The rank (`RANK`), 0-based.
    pub rank: u32,
    /// The number of ranks (`WORLD_SIZE`).
    pub world_size: u32,
    /// The rank on this host (`LOCAL_RANK`), usually the device the rank uses.
    pub local_rank: Option<u32>,
}

impl Default for Distributed {
    /// A job of one process: rank 0 of 1.
    fn default() -> Self {
        Distributed { rank: 0, world_size: 1, local_rank: None }
    }
}

impl Distributed {
    /// From `RANK`, `WORLD_SIZE` and `LOCAL_RANK`, as torch.distributed (`torchrun`) sets them; rank 0
    /// of 1 when `RANK` is unset. A value that is not a number, a `WORLD_SIZE` of 0, a rank that is not
    /// below the world size, or a rank above [`MAX_RANK`] is an error ([`TracerError::Config`]): a trace
    /// must not claim a rank it does not have.
    pub fn from_env() -> Result<Distributed, TracerError> {
        Distributed::from_vars(|name| std::env::var(name).ok())
    }

    /// The same from any source of variables (`var(name)` is the value, when set).
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Distributed, TracerError> {
        let number = |name: &str| -> Result<Option<u32>, TracerError> {
            match var(name) {
                None => Ok(None),
                Some(v) if v.trim().is_empty() => Ok(None),
                Some(v) => v
                    .trim()
                    .parse::<u32>()
                    .map(Some)
                    .map_err(|_| TracerError::Config(format!("{name}={v} is not a rank number"))),
            }
        };
        let rank = number("RANK")?;
        let world_size = number("WORLD_SIZE")?;
        let local_rank = number("LOCAL_RANK")?;
        let d = match (rank, world_size) {
            (None, None) => Distributed { local_rank, ..Distributed::default() },
            (None, Some(w)) => {
                return Err(TracerError::Config(format!("WORLD_SIZE={w} is set but RANK is not")));
            }
            (Some(r), None) => {
                return Err(TracerError::Config(format!("RANK={r} is set but WORLD_SIZE is not")));
            }
            (Some(rank), Some(world_size)) => Distributed { rank, world_size, local_rank },
        };
        d.check()?;
        Ok(d)
    }

    /// Whether the job has more than one rank.
    pub fn is_distributed(&self) -> bool {
        self.world_size > 1
    }

    /// `Ok` when the rank is below the world size (and the world has a rank), and at most [`MAX_RANK`].
    pub fn check(&self) -> Result<(), TracerError> {
        if self.world_size == 0 {
            return Err(TracerError::Config("WORLD_SIZE=0: a job has at least one rank".into()));
        }
        if self.rank > MAX_RANK {
            return Err(TracerError::Config(format!(
                "RANK={} is above {MAX_RANK}, the largest rank a trace holds (Parquet's `rank` column is a \
                 signed 32-bit integer)",
                self.rank
            )));
        }
        if self.rank >= self.world_size {
            return Err(TracerError::Config(format!(
                "RANK={} is not below WORLD_SIZE={}",
                self.rank, self.world_size
            )));
        }
        Ok(())
    }

    /// `path` with `%r` replaced by the rank, `%l` by the local rank (the rank when unknown), `%p` by
    /// the process id and `%%` by `%`. In a job of several ranks a path without `%r` (or `%p`) would
    /// be written by every rank: that is an error ([`TracerError::Config`]).
    pub fn expand(&self, path: &Path) -> Result<PathBuf, TracerError> {
        let rank = self.rank.to_string();
        let local_rank = self.local_rank.unwrap_or(self.rank).to_string();
        let (out, per_process) =
            substitute(&path.to_string_lossy(), &rank, &local_rank, &std::process::id().to_string());
        if self.is_distributed() && !per_process {
            return Err(TracerError::Config(format!(
                "{} would be written by each of the {} ranks: put %r (the rank) in its name",
                path.display(),
                self.world_size
            )));
        }
        Ok(PathBuf::from(out))
    }
}

/// `text` with `%r` replaced by `rank`, `%l` by `local_rank`, `%p` by `pid` and `%%` by `%` (any other
/// `%` kept), and whether it named the rank or the process (`%r`, `%p`): [`Distributed::expand`]'s rules,
/// which the launcher also follows to bound a name's length before the program runs.
pub(crate) fn substitute(text: &str, rank: &str, local_rank: &str, pid: &str) -> (String, bool) {
    let mut out = String::with_capacity(text.len() + 8);
    let mut per_process = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('r') => {
                per_process = true;
                out.push_str(rank);
            }
            Some('l') => out.push_str(local_rank),
            Some('p') => {
                per_process = true;
                out.push_str(pid);
            }
            Some('%') => out.push('%'),
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    (out, per_process)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(vars: &[(&str, &str)]) -> Result<Distributed, TracerError> {
        Distributed::from_vars(|name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string()))
    }

    #[test]
    fn torch_distributed_variables_are_read() {
        assert_eq!(from(&[]).unwrap(), Distributed::default());
        let d = from(&[("RANK", "3"), ("WORLD_SIZE", "8"), ("LOCAL_RANK", "1")]).unwrap();
        assert_eq!(d, Distributed { rank: 3, world_size: 8, local_rank: Some(1) });
        assert!(d.is_distributed());
    }

    #[test]
    fn a_rank_that_cannot_be_is_refused() {
        for vars in [
            &[("RANK", "8"), ("WORLD_SIZE", "8")][..],
            &[("RANK", "x"), ("WORLD_SIZE", "8")],
            &[("RANK", "0"), ("WORLD_SIZE", "0")],
            &[("RANK", "1")],
            &[("WORLD_SIZE", "2")],
            // Above i32::MAX: Parquet's `rank` column would have held it as a negative rank.
            &[("RANK", "2147483648"), ("WORLD_SIZE", "4294967295")],
        ] {
            let e = from(vars).expect_err("refused");
            assert!(matches!(e, TracerError::Config(_)), "{e}");
        }
        let e = from(&[("RANK", "4294967294"), ("WORLD_SIZE", "4294967295")]).expect_err("refused");
        assert!(e.to_string().contains("above 2147483647"), "{e}");
        let top = from(&[("RANK", "2147483647"), ("WORLD_SIZE", "2147483648")]).unwrap();
        assert_eq!(top.rank, MAX_RANK);
        let given = Distributed { rank: MAX_RANK + 1, world_size: u32::MAX, local_rank: None };
        assert!(given.check().is_err(), "a Distributed given to the builder is checked the same");
    }

    #[test]
    fn paths_name_the_rank_and_a_shared_path_is_refused_in_a_job() {
        let d = Distributed { rank: 1, world_size: 2, local_rank: Some(0) };
        assert_eq!(d.expand(Path::new("out/trace_%r_%l.json")).unwrap(), Path::new("out/trace_1_0.json"));
        let pid = std::process::id();
        assert_eq!(
            d.expand(Path::new("t_%p_100%%.json")).unwrap(),
            PathBuf::from(format!("t_{pid}_100%.json"))
        );
        let e = d.expand(Path::new("trace.json")).expect_err("every rank would write it");
        assert!(e.to_string().contains("put %r"), "{e}");
        assert_eq!(Distributed::default().expand(Path::new("trace.json")).unwrap(), Path::new("trace.json"));
    }
}
