use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A file written under a temporary name next to its final path and renamed into place by
/// [`commit`](Self::commit), so that a reader never sees half a file under the final name.
///
/// Dropped without `commit` (an error, a crash of the writer), the temporary file stays where it is, holding
/// everything written so far.
#[derive(Debug)]
pub(crate) struct AtomicFile {
    out: BufWriter<File>,
    tmp: PathBuf,
    path: PathBuf,
    written: u64,
}

impl AtomicFile {
    /// Creates `dir/.name.<pid>.<n>.tmp` for `path`.
    pub(crate) fn create(path: &Path) -> io::Result<AtomicFile> {
        let tmp = temporary_path(path);
        let out = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        Ok(AtomicFile { out, tmp, path: path.to_path_buf(), written: 0 })
    }

    /// The final path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes written so far.
    pub(crate) fn written(&self) -> u64 {
        self.written
    }

    /// Flushes, syncs and renames the file into place; returns the final path.
    pub(crate) fn commit(self) -> io::Result<PathBuf> {
        let AtomicFile { out, tmp, path, .. } = self;
        let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.sync_all()?;
        fs::rename(&tmp, &path)?;
        Ok(path)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.write_all(buf)?;
        self.written += buf.len() as u64;
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// `dir/.name.<pid>.<n>.tmp` next to `path`, unique within this process.
pub(crate) fn temporary_path(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "trace".into());
    path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_final_name_appears_only_at_commit() {
        let dir = std::env::temp_dir().join(format!("accelprof-atomic-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.bin");
        let _ = fs::remove_file(&path);
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"hello").unwrap();
        assert!(!path.exists());
        assert_eq!(f.written(), 5);
        let tmp = f.tmp.clone();
        assert_eq!(f.commit().unwrap(), path);
        assert_eq!(fs::read(&path).unwrap(), b"hello");
        assert!(!tmp.exists());

        // Dropped without commit: the temporary file keeps what was written.
        let mut g = AtomicFile::create(&path).unwrap();
        g.write_all(b"partial").unwrap();
        g.flush().unwrap();
        let tmp = g.tmp.clone();
        drop(g);
        assert_eq!(fs::read(&tmp).unwrap(), b"partial");
        assert_eq!(fs::read(&path).unwrap(), b"hello");
        fs::remove_dir_all(&dir).unwrap();
    }
}
