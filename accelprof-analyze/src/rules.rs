//! HolisticTraceAnalysis's kernel classification, as SQL.

use std::fmt;

/// A GPU activity's type, by its name, as HolisticTraceAnalysis (HTA) classifies kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KernelType {
    /// Collectives (NCCL, and under [`KernelRules::HtaMain`] RCCL's `hip*` and HCCL's `hccl*`).
    Communication,
    /// Copies and sets.
    Memory,
    /// Everything else that is not excluded (synchronizations are).
    Computation,
    /// What none of the three takes (e.g. `Stream Sync`).
    Other,
}

impl KernelType {
    /// HTA's name: `COMMUNICATION`, `MEMORY`, `COMPUTATION`, `OTHER`.
    pub fn name(self) -> &'static str {
        match self {
            KernelType::Communication => "COMMUNICATION",
            KernelType::Memory => "MEMORY",
            KernelType::Computation => "COMPUTATION",
            KernelType::Other => "OTHER",
        }
    }

    /// The type of HTA's name.
    pub fn from_name(name: &str) -> Option<KernelType> {
        [KernelType::Communication, KernelType::Memory, KernelType::Computation, KernelType::Other]
            .into_iter()
            .find(|t| t.name() == name)
    }

    /// The bit of the type in an overlap state (HTA's order: computation 1, communication 2, memory 4).
    pub fn bit(self) -> u32 {
        match self {
            KernelType::Computation => 1,
            KernelType::Communication => 2,
            KernelType::Memory => 4,
            KernelType::Other => 0,
        }
    }
}

impl fmt::Display for KernelType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which release of HTA's rules to mirror. They agree on CUDA traces of NCCL, copies, sets and compute
/// kernels; they differ on AMD and Ascend names and on some exclusions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KernelRules {
    /// HTA 0.5.0, the release on PyPI (`hta/utils/utils.py`): communication `^nccl.*Kernel`; memory
    /// `^Memcpy|^Memset|^dma`; computation anything not matching `^nccl.*Kernel`, `.*Memcpy`, `^Memset` or
    /// `.*Sync`.
    #[default]
    Hta0_5,
    /// HTA's main branch (`hta/common/types.py`, 2026): communication `^nccl`, `^hip`, `^hccl` or
    /// `ncclKernel` anywhere; memory `^(hip)?Memcpy|^(hip)?Memset|^dma`; computation anything not matching
    /// `^nccl`, `.*Memcpy`, `.*Memset`, `.*dma`, `.*Sync`, `^Stream Wait Event`, `cuda.*LaunchKernel`,
    /// `^runFunction`, `^hip`, `^job_exe`, `^packet`, `^pe_exe`, `^cpum_exe_subgraph`, `^hccl` or
    /// `^collective_subgraph_execution`.
    HtaMain,
}

/// `col LIKE pattern`. A pattern with a literal `_` (written `!_`) is a prefix pattern (`prefix%`) in HTA's
/// rules: it becomes `POSITION('prefix' IN col) = 1`, which every engine reads alike (`LIKE ... ESCAPE`
/// does not: DataFusion takes only `\\` as the escape character, which Spark reads as an escape inside
/// string literals).
fn like(col: &str, pattern: &str) -> String {
    match pattern.strip_suffix('%') {
        Some(prefix) if pattern.contains('!') && !prefix.contains('%') => {
            format!("POSITION('{}' IN {col}) = 1", prefix.replace("!_", "_"))
        }
        _ => format!("{col} LIKE '{pattern}'"),
    }
}

fn any(col: &str, patterns: &[&str]) -> String {
    let parts: Vec<String> = patterns.iter().map(|p| like(col, p)).collect();
    format!("({})", parts.join(" OR "))
}

impl KernelRules {
    /// HTA's `re.match` patterns as `LIKE` patterns (anchored at the start, as `re.match` is).
    fn patterns(self) -> (Vec<&'static str>, Vec<&'static str>, Vec<&'static str>) {
        match self {
            KernelRules::Hta0_5 => (
                vec!["nccl%Kernel%"],
                vec!["Memcpy%", "Memset%", "dma%"],
                vec!["nccl%Kernel%", "%Memcpy%", "Memset%", "%Sync%"],
            ),
            KernelRules::HtaMain => (
                vec!["nccl%", "hip%", "hccl%", "%ncclKernel%"],
                vec!["Memcpy%", "hipMemcpy%", "Memset%", "hipMemset%", "dma%"],
                vec![
                    "nccl%",
                    "%Memcpy%",
                    "%Memset%",
                    "%dma%",
                    "%Sync%",
                    "Stream Wait Event%",
                    "cuda%LaunchKernel%",
                    "runFunction%",
                    "hip%",
                    "job!_exe%",
                    "packet%",
                    "pe!_exe%",
                    "cpum!_exe!_subgraph%",
                    "hccl%",
                    "collective!_subgraph!_execution%",
                ],
            ),
        }
    }

    /// A SQL expression giving the HTA type name (`'COMMUNICATION'`, ...) of the string column `col`.
    pub fn type_sql(self, col: &str) -> String {
        let (comm, memory, not_compute) = self.patterns();
        format!(
            "CASE WHEN {} THEN 'COMMUNICATION' WHEN {} THEN 'MEMORY' WHEN NOT {} THEN 'COMPUTATION' ELSE 'OTHER' END",
            any(col, &comm),
            any(col, &memory),
            any(col, &not_compute)
        )
    }

    /// The same classification in Rust (for callers and tests).
    pub fn classify(self, name: &str) -> KernelType {
        let (comm, memory, not_compute) = self.patterns();
        let hit = |ps: &[&str]| ps.iter().any(|p| like_match(name, p));
        if hit(&comm) {
            KernelType::Communication
        } else if hit(&memory) {
            KernelType::Memory
        } else if !hit(&not_compute) {
            KernelType::Computation
        } else {
            KernelType::Other
        }
    }
}

/// SQL `LIKE` with `%` (any run), `_` (one character) and `!` escaping the next character.
fn like_match(text: &str, pattern: &str) -> bool {
    #[derive(Clone, Copy)]
    enum Tok {
        Any,
        One,
        Lit(char),
    }
    let mut toks = Vec::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        toks.push(match c {
            '%' => Tok::Any,
            '_' => Tok::One,
            '!' => Tok::Lit(chars.next().unwrap_or('!')),
            c => Tok::Lit(c),
        });
    }
    let text: Vec<char> = text.chars().collect();
    // match[i][j]: text[i..] matches toks[j..]
    let mut next = vec![false; toks.len() + 1];
    next[toks.len()] = true;
    for j in (0..toks.len()).rev() {
        next[j] = matches!(toks[j], Tok::Any) && next[j + 1];
    }
    for i in (0..text.len()).rev() {
        let mut cur = vec![false; toks.len() + 1];
        for j in (0..toks.len()).rev() {
            cur[j] = match toks[j] {
                Tok::Any => cur[j + 1] || next[j],
                Tok::One => next[j + 1],
                Tok::Lit(c) => c == text[i] && next[j + 1],
            };
        }
        next = cur;
    }
    next[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_follows_sql() {
        assert!(like_match("ncclDevKernel_AllReduce", "nccl%Kernel%"));
        assert!(!like_match("ncclDevKern", "nccl%Kernel%"));
        assert!(like_match("job_exe1", "job!_exe%"));
        assert!(!like_match("jobXexe1", "job!_exe%"));
        assert!(like_match("abc", "a_c"));
        assert!(like_match("", "%"));
    }

    #[test]
    fn the_two_releases_of_hta_rules() {
        use KernelType::*;
        let cases = [
            (
                "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                Communication,
                Communication,
            ),
            ("ncclAllReduce", Computation, Communication),
            ("Memcpy HtoD (Pinned -> Device)", Memory, Memory),
            ("Memset (Device)", Memory, Memory),
            ("ampere_sgemm_128x64_tn", Computation, Computation),
            ("Stream Sync", Other, Other),
            ("hcclAllReduce", Computation, Communication),
            ("hipMemcpyAsync", Other, Communication),
            ("xdma_copy", Computation, Other),
            ("dma_copy", Memory, Memory),
            ("my_Memcpy_kernel", Other, Other),
            ("my_Memset_kernel", Computation, Other),
        ];
        for (name, release, main) in cases {
            assert_eq!(KernelRules::Hta0_5.classify(name), release, "{name}");
            assert_eq!(KernelRules::HtaMain.classify(name), main, "{name}");
        }
    }
}
