//! The shared libraries the command puts into traced programs: the injection library and the CUPTI
//! sharing shim.
//!
//! A release build (`cargo install`) carries both inside the executable (build.rs) and writes each out
//! on first use into a private cache directory, `$XDG_CACHE_HOME/accelprof/<version>-<hash>/` (else
//! `~/.cache/...`): every directory of ours created 0700 and refused when it is a link, another user's,
//! or writable by anyone else; each file written to a fresh name (`O_CREAT|O_EXCL|O_NOFOLLOW`) then
//! renamed, and its content checked against the carried bytes (length and hash) before every use. Other
//! builds carry nothing and take the libraries next to the executable (`target/debug`), as cargo
//! leaves them. `ACCELPROF_INJECT_LIBRARY` / `ACCELPROF_SHIM_LIBRARY` name other files.

use std::ffi::OsStr;
use std::fs::{self, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// One of the carried libraries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lib {
    /// The injection library (every vendor's entry point).
    Inject,
    /// The CUPTI sharing shim (`LD_PRELOAD`).
    Shim,
}

impl Lib {
    /// The file name (`libaccelprof_inject.so`, `libcupti_shim.so`).
    pub(crate) fn file_name(self) -> &'static str {
        match self {
            Lib::Inject => env!("CARRIED_INJECT_NAME"),
            Lib::Shim => env!("CARRIED_SHIM_NAME"),
        }
    }

    /// The variable that names another file.
    pub(crate) fn override_var(self) -> &'static str {
        match self {
            Lib::Inject => crate::engine::vars::INJECT_LIBRARY,
            Lib::Shim => crate::engine::vars::SHIM_LIBRARY,
        }
    }

    /// The bytes this executable carries (none in a build without them).
    fn carried(self) -> Option<&'static [u8]> {
        #[cfg(accelprof_embedded)]
        {
            static INJECT: &[u8] = include_bytes!(env!("CARRIED_INJECT_PATH"));
            static SHIM: &[u8] = include_bytes!(env!("CARRIED_SHIM_PATH"));
            Some(match self {
                Lib::Inject => INJECT,
                Lib::Shim => SHIM,
            })
        }
        #[cfg(not(accelprof_embedded))]
        {
            let _ = self;
            None
        }
    }
}

/// Whether this executable carries the libraries.
pub(crate) fn carries() -> bool {
    Lib::Inject.carried().is_some()
}

/// The file of `lib` to use: `explicit` (an option), else its override variable, else the carried copy
/// written out to the cache, else next to this executable. `Err`: why none can be had.
pub(crate) fn locate(lib: Lib, explicit: Option<&OsStr>) -> Result<PathBuf, String> {
    let var = std::env::var_os(lib.override_var()).filter(|v| !v.is_empty());
    if let Some(path) = explicit.or(var.as_deref()) {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(fs::canonicalize(&path).unwrap_or(path))
        } else {
            Err(format!("{} does not exist", path.display()))
        };
    }
    if let Some(bytes) = lib.carried() {
        let dir = cache_dir().map_err(|e| format!("cannot write out {}: {e}", lib.file_name()))?;
        return write_out(&dir, lib.file_name(), bytes)
            .map_err(|e| format!("cannot write out {} in {}: {e}", lib.file_name(), dir.display()));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let dir = exe.parent().unwrap_or(Path::new("."));
    let tried = [
        dir.join(lib.file_name()),
        dir.join("deps").join(lib.file_name()),
        dir.join("../lib").join(lib.file_name()),
    ];
    tried.iter().find(|p| p.is_file()).map(|p| fs::canonicalize(p).unwrap_or_else(|_| p.clone())).ok_or_else(|| {
        let places: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
        format!(
            "this build of accelprof carries no {} and none is next to it (tried {}): build it (`cargo build -p {}`), \
             set {}, or install with `cargo install` (a release build carries it)",
            lib.file_name(),
            places.join(", "),
            if lib == Lib::Inject { "accelprof-inject" } else { "cupti-shim" },
            lib.override_var()
        )
    })
}

/// FNV-1a (64 bits): what names the cache directory of a set of libraries and checks each file.
fn fnv(bytes: &[u8], seed: u64) -> u64 {
    bytes.iter().fold(seed, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

const FNV_SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// The cache directory of this executable's libraries, made private where missing:
/// `<base>/accelprof/<version>-<hash>/`, base `$XDG_CACHE_HOME` (an absolute path) or `$HOME/.cache`.
fn cache_dir() -> io::Result<PathBuf> {
    let base = match std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from).filter(|p| p.is_absolute()) {
        Some(base) => base,
        None => match std::env::var_os("HOME").map(PathBuf::from).filter(|p| p.is_absolute()) {
            Some(home) => home.join(".cache"),
            None => return Err(io::Error::other("neither XDG_CACHE_HOME nor HOME is set")),
        },
    };
    let hash = [Lib::Inject, Lib::Shim].iter().filter_map(|l| l.carried()).fold(FNV_SEED, |h, b| fnv(b, h));
    let version = format!("{}-{hash:016x}", env!("CARGO_PKG_VERSION"));
    private_dirs(&base, &["accelprof", &version])
}

/// Makes (0700) or checks `base`, then each of `parts` below it, refusing any that is a link, another
/// user's, or writable by a group or others. The last directory.
pub(crate) fn private_dirs(base: &Path, parts: &[&str]) -> io::Result<PathBuf> {
    make_private(base, true)?;
    let mut dir = base.to_path_buf();
    for part in parts {
        dir.push(part);
        make_private(&dir, false)?;
    }
    Ok(dir)
}

/// `dir` made 0700 when missing, then checked. The base (`follow`) may be a link to a directory of
/// ours (a home's `.cache` often is); ours below it may not.
fn make_private(dir: &Path, follow: bool) -> io::Result<()> {
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(io::Error::new(e.kind(), format!("cannot make {}: {e}", dir.display()))),
    }
    let meta = if follow { fs::metadata(dir)? } else { fs::symlink_metadata(dir)? };
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    let refused = if meta.file_type().is_symlink() {
        Some("is a symbolic link")
    } else if !meta.is_dir() {
        Some("is not a directory")
    } else if meta.uid() != me {
        Some("belongs to another user")
    } else if meta.mode() & 0o022 != 0 {
        Some("can be written by other users")
    } else {
        None
    };
    match refused {
        Some(why) => Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{} {why}: refused (set XDG_CACHE_HOME to a private directory)", dir.display()),
        )),
        None => Ok(()),
    }
}

/// Whether the file at `path` (not followed if a link) is a regular file of ours holding `bytes`.
fn holds(path: &Path, bytes: &[u8]) -> bool {
    let Ok(file) = OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC).open(path)
    else {
        return false;
    };
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if !file.metadata().is_ok_and(|m| m.is_file() && m.uid() == me && m.len() == bytes.len() as u64) {
        return false;
    }
    let mut content = Vec::with_capacity(bytes.len());
    file.take(bytes.len() as u64 + 1).read_to_end(&mut content).is_ok()
        && content.len() == bytes.len()
        && fnv(&content, FNV_SEED) == fnv(bytes, FNV_SEED)
}

/// `dir/name` holding `bytes`: the file already there when it holds them, else written to a fresh
/// name and renamed over it, then checked.
pub(crate) fn write_out(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
    let path = dir.join(name);
    if holds(&path, bytes) {
        return Ok(path);
    }
    let mut attempt = 0u32;
    let (temp, mut file) = loop {
        let temp = dir.join(format!(".{name}.{}.{attempt}", std::process::id()));
        let opened = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o700)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(&temp);
        match opened {
            Ok(file) => break (temp, file),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(e) => return Err(e),
        }
    };
    let written = file.write_all(bytes).and_then(|()| file.sync_all());
    drop(file);
    if let Err(e) = written.and_then(|()| fs::rename(&temp, &path)) {
        let _ = fs::remove_file(&temp);
        return Err(e);
    }
    if holds(&path, bytes) {
        Ok(path)
    } else {
        Err(io::Error::other(format!("{} does not hold what was written", path.display())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("accelprof-embedded-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::DirBuilder::new().mode(0o700).create(&dir).unwrap();
        dir
    }

    fn mode(path: &Path) -> u32 {
        fs::symlink_metadata(path).unwrap().mode() & 0o777
    }

    #[test]
    fn the_cache_is_made_private_and_files_are_written_once_and_checked() {
        let base = scratch("private");
        let dir = private_dirs(&base.join("cache"), &["accelprof", "0.1.0-abc"]).unwrap();
        assert_eq!(dir, base.join("cache/accelprof/0.1.0-abc"));
        for d in [base.join("cache"), base.join("cache/accelprof"), dir.clone()] {
            assert_eq!(mode(&d), 0o700, "{}", d.display());
        }
        let path = write_out(&dir, "libx.so", b"first").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"first");
        assert_eq!(mode(&path), 0o700);
        let inode = fs::metadata(&path).unwrap().ino();
        // Unchanged: kept as it is.
        write_out(&dir, "libx.so", b"first").unwrap();
        assert_eq!(fs::metadata(&path).unwrap().ino(), inode);
        // Altered (or another version's bytes): replaced, never used as it is.
        fs::write(&path, b"tampered").unwrap();
        write_out(&dir, "libx.so", b"first").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"first");
        let names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["libx.so"], "no temporary file left behind");
        let _ = fs::remove_dir_all(&base);
    }

    #[test]
    fn a_planted_link_or_a_directory_others_can_write_is_refused() {
        let base = scratch("planted");
        let elsewhere = base.join("elsewhere");
        fs::create_dir(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, base.join("accelprof")).unwrap();
        let e = private_dirs(&base, &["accelprof", "v"]).unwrap_err();
        assert!(e.to_string().contains("is a symbolic link"), "{e}");
        assert!(!elsewhere.join("v").exists(), "nothing made through the link");
        fs::remove_file(base.join("accelprof")).unwrap();
        fs::DirBuilder::new().mode(0o777).create(base.join("accelprof")).unwrap();
        // The umask may have taken bits off: set them.
        fs::set_permissions(base.join("accelprof"), std::os::unix::fs::PermissionsExt::from_mode(0o777))
            .unwrap();
        let e = private_dirs(&base, &["accelprof", "v"]).unwrap_err();
        assert!(e.to_string().contains("can be written by other users"), "{e}");
        // A link planted where the library goes is replaced by the rename, never written through.
        fs::set_permissions(base.join("accelprof"), std::os::unix::fs::PermissionsExt::from_mode(0o700))
            .unwrap();
        let dir = private_dirs(&base, &["accelprof", "v"]).unwrap();
        let target = base.join("target-of-link");
        fs::write(&target, b"keep").unwrap();
        std::os::unix::fs::symlink(&target, dir.join("libx.so")).unwrap();
        let path = write_out(&dir, "libx.so", b"library").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"keep");
        assert!(!fs::symlink_metadata(&path).unwrap().file_type().is_symlink());
        assert_eq!(fs::read(&path).unwrap(), b"library");
        let _ = fs::remove_dir_all(&base);
    }

    /// A directory of another user at our place is refused: as root, one given away with chown; as
    /// anyone else, `/` (root's) as the base.
    #[test]
    fn a_directory_of_another_user_is_refused() {
        let base = scratch("foreign");
        // SAFETY: geteuid has no preconditions.
        let e = if unsafe { libc::geteuid() } == 0 {
            let foreign = base.join("accelprof");
            fs::DirBuilder::new().mode(0o700).create(&foreign).unwrap();
            let c = std::ffi::CString::new(foreign.to_str().unwrap()).unwrap();
            // SAFETY: chown(2) on a NUL-terminated path of ours.
            assert_eq!(unsafe { libc::chown(c.as_ptr(), 65534, 65534) }, 0);
            private_dirs(&base, &["accelprof", "v"]).unwrap_err()
        } else {
            private_dirs(Path::new("/"), &["accelprof"]).unwrap_err()
        };
        assert!(e.to_string().contains("belongs to another user"), "{e}");
        let _ = fs::remove_dir_all(&base);
    }
}
