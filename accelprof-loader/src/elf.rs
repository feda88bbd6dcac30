//! What can be checked of a library file before `dlopen` maps it.
//!
//! The system loader trusts the file: one cut short (a copy interrupted, a full disk) is mapped
//! as its header claims and the process dies of SIGBUS touching a page past the end; a library of
//! another vendor runs its constructors (the real `libmspti.so` aborts in one when CANN is
//! missing) before any symbol can be looked up. So a candidate file is read first: an ELF shared
//! object of this machine's class, byte order and architecture, every table and loadable segment
//! its header claims inside the file, and the vendor's identifying symbols defined in its dynamic
//! symbol table. Only the header, the program and section headers and the dynamic symbol and
//! string tables are read.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// What reading a candidate file found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Inspection {
    /// A loadable shared object of this machine; `missing` lists the identifying symbols its
    /// dynamic symbol table does not define (`None`: it has no section table to tell, so the
    /// symbols are looked up after `dlopen`).
    SharedObject { missing: Option<Vec<&'static str>> },
    /// Not a file the loader can map safely here; the reason says what is wrong.
    Unusable(String),
}

const EHDR: usize = 64;
const PHDR: usize = 56;
const SHDR: usize = 64;
const SYM: usize = 24;
const ET_DYN: u16 = 3;
const PT_LOAD: u32 = 1;
const PT_DYNAMIC: u32 = 2;
const SHT_DYNSYM: u32 = 11;
/// The largest dynamic string table read (real vendor libraries have a few MiB at most).
const MAX_STRTAB: u64 = 64 << 20;

#[cfg(target_arch = "x86_64")]
const MACHINE: Option<(u16, &str)> = Some((62, "x86-64"));
#[cfg(target_arch = "aarch64")]
const MACHINE: Option<(u16, &str)> = Some((183, "AArch64"));
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const MACHINE: Option<(u16, &str)> = None;

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// `count` entries of `size` bytes from `offset`, when they lie inside a file of `len` bytes.
fn table_fits(offset: u64, count: u64, size: u64, len: u64) -> bool {
    count.checked_mul(size).and_then(|n| n.checked_add(offset)).is_some_and(|end| end <= len)
}

fn read_at(file: &File, offset: u64, len: usize) -> Result<Vec<u8>, String> {
    let mut buf = vec![0; len];
    let mut f = file;
    f.seek(SeekFrom::Start(offset))
        .and_then(|_| f.read_exact(&mut buf))
        .map_err(|e| format!("cannot be read ({e})"))?;
    Ok(buf)
}

/// Reads the file at `path` as the loader would map it and looks for `identity` in its dynamic
/// symbol table. `Err` is an I/O error opening it.
pub(crate) fn inspect(path: &Path, identity: &[&'static str]) -> Result<Inspection, String> {
    let file = File::open(path).map_err(|e| format!("cannot be opened ({e})"))?;
    let len = file.metadata().map_err(|e| format!("cannot be read ({e})"))?.len();
    Ok(match check(&file, len, identity)? {
        Ok(missing) => Inspection::SharedObject { missing },
        Err(reason) => Inspection::Unusable(reason),
    })
}

type Checked = Result<Result<Option<Vec<&'static str>>, String>, String>;

fn check(file: &File, len: u64, identity: &[&'static str]) -> Checked {
    let unusable = |reason: String| Ok(Err(reason));
    if len < EHDR as u64 {
        return unusable(format!("is {len} bytes, too short for an ELF header"));
    }
    let h = read_at(file, 0, EHDR)?;
    if h[..4] != *b"\x7fELF" {
        return unusable("is not an ELF file".into());
    }
    if h[4] != 2 || cfg!(not(target_pointer_width = "64")) {
        return unusable(format!(
            "is a {}-bit ELF file; this process is 64-bit",
            if h[4] == 1 { 32 } else { 0 }
        ));
    }
    if h[5] != 1 || cfg!(target_endian = "big") {
        return unusable("is a big-endian ELF file".into());
    }
    let e_type = u16_at(&h, 16);
    if e_type != ET_DYN {
        return unusable(format!("is not a shared object (ELF type {e_type})"));
    }
    let machine = u16_at(&h, 18);
    if let Some((native, name)) = MACHINE {
        if machine != native {
            return unusable(format!(
                "is built for another architecture (ELF machine {machine}, not {name})"
            ));
        }
    }
    let (phoff, shoff) = (u64_at(&h, 32), u64_at(&h, 40));
    let (phentsize, phnum) = (u16_at(&h, 54), u16_at(&h, 56));
    let (shentsize, shnum) = (u16_at(&h, 58), u16_at(&h, 60));
    if usize::from(phentsize) != PHDR || phnum == 0 {
        return unusable(format!("has no usable program headers ({phnum} of {phentsize} bytes)"));
    }
    if !table_fits(phoff, phnum.into(), PHDR as u64, len) {
        return unusable(format!(
            "is cut short: {len} bytes, but its program headers run to byte {}",
            phoff.saturating_add(u64::from(phnum) * PHDR as u64)
        ));
    }
    let ph = read_at(file, phoff, usize::from(phnum) * PHDR)?;
    for p in ph.chunks_exact(PHDR) {
        let kind = u32_at(p, 0);
        let (offset, filesz) = (u64_at(p, 8), u64_at(p, 32));
        if (kind == PT_LOAD || kind == PT_DYNAMIC) && offset.checked_add(filesz).map_or(true, |end| end > len)
        {
            return unusable(format!(
                "is cut short: {len} bytes, but a segment it maps runs to byte {}",
                offset.saturating_add(filesz)
            ));
        }
    }
    if shoff == 0 || shnum == 0 {
        return Ok(Ok(None));
    }
    if usize::from(shentsize) != SHDR {
        return unusable(format!("has section headers of {shentsize} bytes (64 expected)"));
    }
    if !table_fits(shoff, shnum.into(), SHDR as u64, len) {
        return unusable(format!(
            "is cut short: {len} bytes, but its section table runs to byte {}",
            shoff.saturating_add(u64::from(shnum) * SHDR as u64)
        ));
    }
    let sh = read_at(file, shoff, usize::from(shnum) * SHDR)?;
    let sections: Vec<&[u8]> = sh.chunks_exact(SHDR).collect();
    let Some(dynsym) = sections.iter().find(|s| u32_at(s, 4) == SHT_DYNSYM) else {
        return unusable("exports no symbols (no dynamic symbol table)".into());
    };
    let (sym_off, sym_size, link) = (u64_at(dynsym, 24), u64_at(dynsym, 32), u32_at(dynsym, 40));
    let Some(strtab) = sections.get(link as usize) else {
        return unusable("has a dynamic symbol table without its string table".into());
    };
    let (str_off, str_size) = (u64_at(strtab, 24), u64_at(strtab, 32));
    if !table_fits(sym_off, 1, sym_size, len) || !table_fits(str_off, 1, str_size, len) {
        return unusable(format!("is cut short: {len} bytes, but its dynamic symbols lie past the end"));
    }
    if str_size > MAX_STRTAB || sym_size / SYM as u64 > MAX_STRTAB / SYM as u64 {
        return unusable(format!("has a dynamic symbol table of {sym_size} bytes, more than a library has"));
    }
    let syms = read_at(file, sym_off, sym_size as usize)?;
    let strs = read_at(file, str_off, str_size as usize)?;
    let mut found = vec![false; identity.len()];
    for s in syms.chunks_exact(SYM) {
        let (name, shndx) = (u32_at(s, 0) as usize, u16_at(s, 6));
        let bind = s[4] >> 4;
        if shndx == 0 || !(bind == 1 || bind == 2) {
            continue; // undefined, or local
        }
        let Some(rest) = strs.get(name..) else { continue };
        let name = &rest[..rest.iter().position(|&b| b == 0).unwrap_or(rest.len())];
        for (i, want) in identity.iter().enumerate() {
            if name == want.as_bytes() {
                found[i] = true;
            }
        }
    }
    let missing: Vec<&'static str> =
        identity.iter().zip(found).filter(|(_, f)| !f).map(|(s, _)| *s).collect();
    Ok(Ok(Some(missing)))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A shared library this process has mapped (libc, or the first `.so` in its maps).
    pub(crate) fn a_loaded_library() -> PathBuf {
        let maps = std::fs::read_to_string("/proc/self/maps").expect("maps");
        let paths: Vec<&str> = maps.lines().filter_map(|l| l.split_whitespace().nth(5)).collect();
        let pick = paths
            .iter()
            .find(|p| p.contains("/libc.so"))
            .or_else(|| paths.iter().find(|p| p.contains(".so")));
        PathBuf::from(pick.expect("a shared library in this process's maps"))
    }

    #[test]
    fn a_real_library_is_read_and_its_exports_found() {
        let libc = a_loaded_library();
        let got = inspect(&libc, &["malloc", "no_such_symbol_anywhere"]).unwrap();
        assert_eq!(
            got,
            Inspection::SharedObject { missing: Some(vec!["no_such_symbol_anywhere"]) },
            "{libc:?}"
        );
    }

    #[test]
    fn a_truncated_copy_is_unusable_at_every_length() {
        let libc = std::fs::read(a_loaded_library()).unwrap();
        let dir = std::env::temp_dir().join(format!("accelprof-loader-elf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("libcut.so");
        for len in [0, 3, 63, 64, 200, 4096, libc.len() / 2, libc.len() - 1] {
            std::fs::write(&path, &libc[..len]).unwrap();
            match inspect(&path, &["malloc"]).unwrap() {
                Inspection::Unusable(reason) => assert!(!reason.is_empty()),
                other => panic!("{len} bytes of libc read as {other:?}"),
            }
        }
        std::fs::write(&path, b"not an ELF file at all, but long enough to hold an ELF header of 64 bytes")
            .unwrap();
        assert_eq!(inspect(&path, &[]).unwrap(), Inspection::Unusable("is not an ELF file".into()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
