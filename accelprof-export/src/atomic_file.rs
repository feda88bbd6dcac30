//! Files a reader never sees half-written: [`AtomicFile`] (Perfetto), renamed into place when done, and
//! [`GrowingFile`] (Parquet), readable after every commit. Each is used by one format alone.
#![cfg_attr(not(all(feature = "parquet", feature = "perfetto")), allow(dead_code))]

use std::fs;

use crate::guarded_file::GuardedFile;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file written under its `.partial` name next to its final path and renamed into place by
/// [`commit`](Self::commit), so that a reader never sees half a file under the final name.
///
/// Dropped without `commit` (an error, a crash of the writer), the temporary file stays where it is, holding
/// everything written so far.
#[derive(Debug)]
pub(crate) struct AtomicFile {
    out: BufWriter<GuardedFile>,
    tmp: PathBuf,
    path: PathBuf,
    written: u64,
}

impl AtomicFile {
    /// Creates `dir/name.partial-<pid>.ext` for `dir/name.ext` (never through a link).
    pub(crate) fn create(path: &Path) -> io::Result<AtomicFile> {
        let tmp = temporary_path(path);
        let out = BufWriter::with_capacity(1 << 20, create_no_follow(&tmp)?);
        Ok(AtomicFile { out, tmp, path: path.to_path_buf(), written: 0 })
    }

    /// The temporary file being written until [`commit`](Self::commit).
    pub(crate) fn temporary_path(&self) -> &Path {
        &self.tmp
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

/// `dir/name.partial-<pid>.ext` next to `dir/name.ext` (the extension kept, so that a reader opens it as
/// it is; the launcher and `recover` know the name): `crate::trace::partial_path`.
pub(crate) fn temporary_path(path: &Path) -> PathBuf {
    crate::trace::partial_path(path, std::process::id())
}

/// Creates `path` for writing: a new private file, never one someone put at the name (see
/// `trace::paths::create_private`), written only while the program has not closed it.
fn create_no_follow(path: &Path) -> io::Result<GuardedFile> {
    GuardedFile::new(crate::trace::paths::create_private(path)?)
}

/// A file whose readable end is kept whole: what a writer writes ([`Write`]) is held until
/// [`commit`](Self::commit), which writes it together with a closing `footer` in one positioned write at
/// the end of what was committed before (the previous footer is overwritten), and cuts the file there.
/// Between two commits the file is a whole file of its format (a Parquet file with every row group
/// committed so far and a footer naming them), so a process killed at any point but during that one
/// write leaves a readable file. Named `.partial` until [`finish`](Self::finish).
#[derive(Debug)]
pub(crate) struct GrowingFile {
    file: GuardedFile,
    tmp: PathBuf,
    path: PathBuf,
    /// Written by the writer since the last commit.
    pending: Vec<u8>,
    /// The footer of the last commit (at `data_end`): written back when a commit's write fails part way.
    footer: Vec<u8>,
    /// Where the committed data ends (and the footer begins).
    data_end: u64,
    /// The file's length.
    file_end: u64,
}

impl GrowingFile {
    pub(crate) fn create(path: &Path) -> io::Result<GrowingFile> {
        let tmp = temporary_path(path);
        let file = create_no_follow(&tmp)?;
        Ok(GrowingFile {
            file,
            tmp,
            path: path.to_path_buf(),
            pending: Vec::new(),
            footer: Vec::new(),
            data_end: 0,
            file_end: 0,
        })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn temporary_path(&self) -> &Path {
        &self.tmp
    }

    /// Writes what is pending and `footer` after it at the end of the committed data (one write). When
    /// that write fails part way (a full disk, a file size limit), the previous footer is written back
    /// over what it wrote and the file cut to its previous length: the file stays whole as of the last
    /// commit (the space those bytes had is still the file's, so writing them back needs no more).
    pub(crate) fn commit(&mut self, footer: &[u8]) -> io::Result<()> {
        let data = self.pending.len();
        self.pending.extend_from_slice(footer);
        let result = self.file.write_all_at(&self.pending, self.data_end);
        self.pending.truncate(data);
        if let Err(e) = result {
            // Best effort: had these failed too, the file would be what the failed write left.
            let _ = self.file.write_all_at(&self.footer, self.data_end);
            let _ = self.file.set_len(self.file_end);
            return Err(e);
        }
        let end = self.data_end + (data + footer.len()) as u64;
        if end < self.file_end {
            self.file.set_len(end)?;
        }
        self.file_end = end;
        self.data_end += data as u64;
        self.pending = Vec::new();
        self.footer.clear();
        self.footer.extend_from_slice(footer);
        Ok(())
    }

    /// Commits what is pending (the writer's own footer last), syncs, renames into place: the final
    /// path and the file's size.
    pub(crate) fn finish(mut self) -> io::Result<(PathBuf, u64)> {
        self.commit(&[])?;
        self.file.sync_all()?;
        fs::rename(&self.tmp, &self.path)?;
        Ok((self.path, self.file_end))
    }
}

impl Write for GrowingFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
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
