//! A traced program that closes every descriptor (a daemon's `closefrom(3)`, `os.closerange`) closes
//! the trace's files too, and the next files it opens get their numbers: the writers wrote the rest of
//! the trace into the program's own files. Now they check, before each write, that the descriptor is
//! still their file: the write fails, saying why, and the program's file is left as it is.
//!
//! One test alone in this binary: it closes descriptors of its process by number.

use std::collections::BTreeSet;
use std::os::fd::AsRawFd;

use accelprof_core::columns::{Batch, KernelRow};
use accelprof_core::intern::Interner;
use accelprof_export::parquet::{ParquetOptions, ParquetWriter};
use accelprof_export::perfetto::{PerfettoOptions, PerfettoWriter};
use accelprof_export::trace::{ChromeTraceWriter, TraceSink};
use accelprof_export::RunMeta;

/// The descriptors open now (not the one the listing itself used).
fn open_fds() -> BTreeSet<i32> {
    let listed: BTreeSet<i32> = std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    // SAFETY: F_GETFD only asks whether the number is open.
    listed.into_iter().filter(|&fd| unsafe { libc::fcntl(fd, libc::F_GETFD) } != -1).collect()
}

fn kernels(names: &mut Interner) -> Batch {
    let name = names.intern("k");
    let mut b = Batch::new();
    for i in 0..100u64 {
        let t = 1_700_000_000_000_000_000 + i * 1_000;
        b.kernels.push(KernelRow { start: t, end: t + 500, correlation: i, name, ..Default::default() });
    }
    b
}

#[test]
fn a_trace_file_the_program_closed_is_never_written_through_its_old_number() {
    let dir = std::env::temp_dir().join(format!("accelprof-export-closed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut names = Interner::new();
    let batch = kernels(&mut names);
    let meta = RunMeta { start_unix_ns: 1_700_000_000_000_000_000, ..Default::default() };
    for name in ["t.json", "t.parquet", "t.pftrace"] {
        let path = dir.join(name);
        let before = open_fds();
        let mut writer: Box<dyn FnMut(bool) -> Result<(), String>> = match name {
            "t.json" => {
                let mut w = Some(ChromeTraceWriter::create(&path, meta.clone()).unwrap());
                let (b, n) = (batch.clone(), names.names());
                Box::new(move |last| {
                    if last {
                        w.take().unwrap().finish(None).map(drop).map_err(|e| e.to_string())
                    } else {
                        let w = w.as_mut().unwrap();
                        w.add_batch(&b, &n, &Default::default()).map_err(|e| e.to_string())?;
                        w.sync().map_err(|e| e.to_string())
                    }
                })
            }
            "t.parquet" => {
                let mut w = Some(ParquetWriter::create(&path, &meta, ParquetOptions::default()).unwrap());
                let (b, n) = (batch.clone(), names.names());
                Box::new(move |last| {
                    if last {
                        w.take().unwrap().finish().map(drop).map_err(|e| e.to_string())
                    } else {
                        let w = w.as_mut().unwrap();
                        w.write_batch(&b, &n).and_then(|()| w.flush()).map_err(|e| e.to_string())
                    }
                })
            }
            _ => {
                let mut w = Some(PerfettoWriter::create(&path, &meta, PerfettoOptions::default()).unwrap());
                let (b, n) = (batch.clone(), names.names());
                Box::new(move |last| {
                    if last {
                        w.take().unwrap().finish().map(drop).map_err(|e| e.to_string())
                    } else {
                        w.as_mut().unwrap().write_batch(&b, &n).map_err(|e| e.to_string())
                    }
                })
            }
        };
        writer(false).unwrap_or_else(|e| panic!("{name}: {e}"));
        let theirs: Vec<i32> = open_fds().difference(&before).copied().collect();
        assert!(!theirs.is_empty(), "{name}: the writer's descriptor");
        // The program closes them and opens its own files, which get their numbers.
        let victims: Vec<(std::path::PathBuf, std::fs::File)> = theirs
            .iter()
            .map(|&fd| {
                let victim = dir.join(format!("program-{name}-{fd}"));
                std::fs::write(&victim, b"the program's data").unwrap();
                let file = std::fs::OpenOptions::new().read(true).write(true).open(&victim).unwrap();
                // SAFETY: `fd` is the writer's, closed here as the program would close it; dup2 puts the
                // program's file at that number.
                assert_eq!(unsafe { libc::dup2(file.as_raw_fd(), fd) }, fd);
                (victim, file)
            })
            .collect();
        let more = writer(false);
        let last = writer(true);
        let failed = more.err().or(last.err()).unwrap_or_else(|| panic!("{name}: written as if whole"));
        assert!(failed.contains("the program closed the trace's file"), "{name}: {failed}");
        for (victim, _) in &victims {
            assert_eq!(std::fs::read(victim).unwrap(), b"the program's data", "{name}: {}", victim.display());
        }
        // The numbers are the program's files now: closed by the program, as it would.
        for (&fd, _) in theirs.iter().zip(&victims) {
            // SAFETY: the duplicate made above.
            unsafe { libc::close(fd) };
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
