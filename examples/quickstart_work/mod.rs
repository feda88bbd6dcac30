//! What the quickstart runs: its options, which library and program it picks ([`Plan`]), and the
//! workloads, one file per vendor (a real one where the machine has the vendor's device, else one
//! the bundled mock plays).

#![allow(dead_code)]

#[cfg(feature = "cupti")]
pub mod cupti;
#[cfg(feature = "mspti")]
pub mod mspti;
pub mod ranks;
#[cfg(feature = "rocprofiler")]
pub mod rocprofiler;

use std::error::Error;
use std::path::PathBuf;

use accel_profiling::Synchronize;
use accel_profiling::{Distributed, Tracer, TracerConfig, TracerError, Vendor};

pub const USAGE: &str = "usage: quickstart [--vendor auto|cupti|mspti|rocprofiler] [--mock] [--output PATH] \
                         [--steps N] [--top N] [--ranks N] [--verbose]";

/// What `--help` prints.
pub const HELP: &str =
    "quickstart: traces a small workload with the accel-profiling tracer, prints the per-kernel \
                        summary and the record counts, writes trace.json (the real vendor library where the \
                        machine has one, else the bundled mock)

  --vendor NAME   auto (default), cupti, mspti or rocprofiler
  --mock          the bundled mock even where a real library is found
  --output PATH   the trace (%r: the rank; default trace.json, trace_%r.json as ranks)
  --steps N       steps of the workload (default 8)
  --top N         rows of the kernel summary (default 15)
  --ranks N       run N processes, ranks 0 to N-1, each writing its own trace
  --verbose       when no vendor library is found, every place looked in
  --help          this text";

/// Set (to the vendor's name) in the environment of a quickstart that must play the mock: MSPTI's
/// restart with the mock preloaded keeps the choice made before it.
pub const MOCK_VAR: &str = "ACCEL_QUICKSTART_MOCK";

/// The command line.
#[derive(Clone, Debug)]
pub struct Args {
    pub vendor: Vendor,
    pub mock: bool,
    pub output: Option<String>,
    pub steps: usize,
    pub top: usize,
    pub ranks: Option<u32>,
    pub verbose: bool,
    /// `--help`: print [`HELP`] and run nothing.
    pub help: bool,
    /// The arguments as given (passed on to the ranks' processes).
    pub raw: Vec<String>,
}

impl Args {
    pub fn parse(args: impl Iterator<Item = String>) -> Result<Args, String> {
        let raw: Vec<String> = args.collect();
        let mut a = Args {
            vendor: Vendor::Auto,
            mock: false,
            output: None,
            steps: 8,
            top: 15,
            ranks: None,
            verbose: false,
            help: false,
            raw: raw.clone(),
        };
        let mut it = raw.into_iter();
        while let Some(arg) = it.next() {
            let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
            match arg.as_str() {
                "--vendor" => a.vendor = value("--vendor")?.parse()?,
                "--mock" => a.mock = true,
                "--output" | "-o" => a.output = Some(value("--output")?),
                "--steps" => a.steps = value("--steps")?.parse().map_err(|_| "--steps takes a number")?,
                "--top" => a.top = value("--top")?.parse().map_err(|_| "--top takes a number")?,
                "--ranks" => {
                    let n: u32 = value("--ranks")?.parse().map_err(|_| "--ranks takes a number")?;
                    a.ranks = Some(n.max(1));
                }
                "--verbose" | "-v" => a.verbose = true,
                "--help" | "-h" => {
                    a.help = true;
                    return Ok(a);
                }
                other => return Err(format!("unknown argument `{other}`")),
            }
        }
        Ok(a)
    }

    /// Where the trace goes: `--output`, else `trace.json` (`trace_%r.json` in a job of several ranks).
    pub fn output(&self) -> String {
        self.output.clone().unwrap_or_else(|| {
            let ranked = Distributed::from_env().is_ok_and(|d| d.is_distributed());
            if ranked { "trace_%r.json" } else { "trace.json" }.to_owned()
        })
    }
}

/// Which library the tracer uses and which program runs.
pub enum Plan {
    /// The real libcupti, real CUDA work through cudarc.
    #[cfg(feature = "cupti")]
    CuptiGpu,
    /// The mock libcupti plays the CUDA program.
    #[cfg(feature = "cupti")]
    CuptiMock,
    /// An ACL program's calls, through the global symbol scope: on the real CANN, or (`mock`) on the
    /// CANN stand-ins with the mock libmspti.so.
    #[cfg(feature = "mspti")]
    Mspti { mock: bool },
    /// The mock rocprofiler-sdk plays a HIP program.
    #[cfg(feature = "rocprofiler")]
    RocprofilerMock,
}

impl Plan {
    /// The real library where the machine has it (`--vendor` picks whose), else the mock.
    pub fn choose(args: &Args) -> Result<Plan, Box<dyn Error>> {
        if let Ok(vendor) = std::env::var(MOCK_VAR) {
            return Plan::mock(vendor.parse()?);
        }
        if args.mock {
            return Plan::mock(args.vendor);
        }
        let config = TracerConfig { vendor: args.vendor, ..TracerConfig::default() };
        match Tracer::locate(&config) {
            Ok(info) => match info.vendor {
                #[cfg(feature = "cupti")]
                Vendor::Cupti => match cupti::gpu::available() {
                    Ok(()) => Ok(Plan::CuptiGpu),
                    Err(why) => {
                        println!("{info} is here, but no CUDA GPU ({why}).");
                        Plan::mock(Vendor::Cupti)
                    }
                },
                #[cfg(feature = "mspti")]
                Vendor::Mspti => Ok(Plan::Mspti { mock: false }),
                #[cfg(feature = "rocprofiler")]
                Vendor::Rocprofiler => {
                    println!(
                        "{info} is here, but this quickstart has no HIP program of its own (trace yours with the \
                         tracer in it, or with a rocprofiler tool library)."
                    );
                    Plan::mock(Vendor::Rocprofiler)
                }
                other => Err(format!("{other} is not built into this quickstart").into()),
            },
            Err(e @ TracerError::NotFound { .. }) => {
                println!("No vendor library here to trace real work with:");
                for a in e.attempts() {
                    if args.verbose {
                        println!("- {a}");
                    } else {
                        println!("- {}: {}", a.vendor, first_line(&a.reason));
                    }
                }
                Plan::mock(args.vendor)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The mock of `vendor` (`Auto`: the first vendor built, CUPTI by default).
    fn mock(vendor: Vendor) -> Result<Plan, Box<dyn Error>> {
        let vendor = match vendor {
            Vendor::Auto => {
                Vendor::SEARCH_ORDER.into_iter().find(|v| v.is_built()).ok_or("no vendor is built")?
            }
            v => v,
        };
        if std::env::var_os(MOCK_VAR).is_none() {
            println!("Running on the bundled mock {}, which plays the program's calls.\n", vendor);
        }
        match vendor {
            #[cfg(feature = "cupti")]
            Vendor::Cupti => Ok(Plan::CuptiMock),
            #[cfg(feature = "mspti")]
            Vendor::Mspti => {
                mspti::use_mock();
                Ok(Plan::Mspti { mock: true })
            }
            #[cfg(feature = "rocprofiler")]
            Vendor::Rocprofiler => Ok(Plan::RocprofilerMock),
            other => Err(format!("{other} is not built into this quickstart (enable its feature)").into()),
        }
    }

    /// Whether the bundled mock plays the program.
    pub fn is_mock(&self) -> bool {
        match self {
            #[cfg(feature = "cupti")]
            Plan::CuptiGpu => false,
            #[cfg(feature = "cupti")]
            Plan::CuptiMock => true,
            #[cfg(feature = "mspti")]
            Plan::Mspti { mock } => *mock,
            #[cfg(feature = "rocprofiler")]
            Plan::RocprofilerMock => true,
        }
    }

    /// The tracer's vendor.
    pub fn vendor(&self) -> Vendor {
        match self {
            #[cfg(feature = "cupti")]
            Plan::CuptiGpu | Plan::CuptiMock => Vendor::Cupti,
            #[cfg(feature = "mspti")]
            Plan::Mspti { .. } => Vendor::Mspti,
            #[cfg(feature = "rocprofiler")]
            Plan::RocprofilerMock => Vendor::Rocprofiler,
        }
    }

    /// The library file, for a mock (MSPTI's is found preloaded).
    pub fn library(&self) -> Option<PathBuf> {
        match self {
            #[cfg(feature = "cupti")]
            Plan::CuptiMock => Some(accelprof_mocks::cupti::LIBRARY.into()),
            #[cfg(feature = "rocprofiler")]
            Plan::RocprofilerMock => Some(accelprof_mocks::rocprofiler::LIBRARY.into()),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// How a flush waits for the device: the mock's `cudaDeviceSynchronize` on the mock libcupti.
    pub fn synchronize(&self) -> Option<Synchronize> {
        match self {
            #[cfg(feature = "cupti")]
            Plan::CuptiMock => Some(cupti::mock_synchronize()),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// Gets the program ready to run (before the tracer: MSPTI's subscriber needs `aclInit` done).
    pub fn workload(&self, d: Distributed) -> Result<Workload, Box<dyn Error>> {
        let _ = d;
        Ok(match self {
            #[cfg(feature = "cupti")]
            Plan::CuptiGpu => Workload::CuptiGpu(cupti::gpu_context(d)?),
            #[cfg(feature = "cupti")]
            Plan::CuptiMock => Workload::CuptiMock,
            #[cfg(feature = "mspti")]
            Plan::Mspti { mock } => Workload::Mspti(mspti::Program::load(*mock)?),
            #[cfg(feature = "rocprofiler")]
            Plan::RocprofilerMock => Workload::RocprofilerMock(rocprofiler::MockProgram::open()?),
        })
    }
}

/// A program ready to run.
pub enum Workload {
    #[cfg(feature = "cupti")]
    CuptiGpu(std::sync::Arc<cudarc::driver::CudaContext>),
    #[cfg(feature = "cupti")]
    CuptiMock,
    #[cfg(feature = "mspti")]
    Mspti(mspti::Program),
    #[cfg(feature = "rocprofiler")]
    RocprofilerMock(rocprofiler::MockProgram),
}

impl Workload {
    /// Runs `steps` training-like steps as rank `d.rank` (device `d.local_rank`).
    pub fn run(&self, steps: usize, d: Distributed) -> Result<(), Box<dyn Error>> {
        let _ = (steps, d);
        match self {
            #[cfg(feature = "cupti")]
            Workload::CuptiGpu(ctx) => cupti::gpu_steps(ctx, steps)?,
            #[cfg(feature = "cupti")]
            Workload::CuptiMock => cupti::mock_steps(steps, d),
            #[cfg(feature = "mspti")]
            Workload::Mspti(p) => p.steps(steps, d),
            #[cfg(feature = "rocprofiler")]
            Workload::RocprofilerMock(p) => p.steps(steps, d),
        }
        Ok(())
    }
}

/// The first line of a loader's message, cut to a readable length (`--verbose` prints it whole).
fn first_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or("");
    let line = line.strip_suffix("; tried:").unwrap_or(line);
    if line.chars().count() > 160 {
        line.chars().take(157).collect::<String>() + "..."
    } else {
        line.to_owned()
    }
}
