//! A trace's file as the writers hold it: the traced program may close it behind their back (a
//! daemon's `closefrom(3)` at start, `os.closerange`), and then its descriptor number is the next file
//! the program opens. A write through that number would go into the program's own file.

use std::fs::File;
use std::io::{self, Write};
use std::mem::ManuallyDrop;
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileExt;

/// A file whose every write, resize and sync first checks (`fstat`: device and inode) that its
/// descriptor is still the file that was opened. When it is not (the program closed it, and the number
/// may be another file now), nothing is done through it and the call fails saying so; it is not closed
/// either when dropped (the number is not ours any more, and closing a closed descriptor aborts a
/// debug build of the standard library).
#[derive(Debug)]
pub(crate) struct GuardedFile {
    file: ManuallyDrop<File>,
    /// The file's device and inode when it was opened.
    id: (libc::dev_t, libc::ino_t),
}

/// The device and inode of what descriptor `fd` is now; `None` when it is closed.
fn identity(fd: std::os::fd::RawFd) -> Option<(libc::dev_t, libc::ino_t)> {
    let mut stat = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: fstat writes a `stat` into the buffer given; a descriptor that is closed is EBADF.
    if unsafe { libc::fstat(fd, stat.as_mut_ptr()) } != 0 {
        return None;
    }
    // SAFETY: initialised by the successful fstat.
    let stat = unsafe { stat.assume_init() };
    Some((stat.st_dev, stat.st_ino))
}

impl GuardedFile {
    pub(crate) fn new(file: File) -> io::Result<GuardedFile> {
        let id = identity(file.as_raw_fd()).ok_or_else(io::Error::last_os_error)?;
        Ok(GuardedFile { file: ManuallyDrop::new(file), id })
    }

    /// The file, while its descriptor is still it.
    fn file(&self) -> io::Result<&File> {
        if identity(self.file.as_raw_fd()) == Some(self.id) {
            Ok(&self.file)
        } else {
            Err(io::Error::other(
                "the program closed the trace's file (its descriptor is not that file any more): nothing more \
                 is written through it",
            ))
        }
    }

    pub(crate) fn write_all_at(&self, buf: &[u8], offset: u64) -> io::Result<()> {
        self.file()?.write_all_at(buf, offset)
    }

    pub(crate) fn set_len(&self, len: u64) -> io::Result<()> {
        self.file()?.set_len(len)
    }

    pub(crate) fn sync_all(&self) -> io::Result<()> {
        self.file()?.sync_all()
    }
}

impl Write for GuardedFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut file = self.file()?;
        file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for GuardedFile {
    fn drop(&mut self) {
        if self.file().is_ok() {
            // SAFETY: dropped once, here; never used again.
            unsafe { ManuallyDrop::drop(&mut self.file) };
        }
    }
}
