//! CUPTI: one set of bindings that serves CUPTI 12.9, 13.0 and the newest 13.x at run time.
//!
//! ```text
//! cargo run -p accelprof-bindgen -- cupti <DIR>
//! ```
//!
//! `<DIR>` holds the unpacked wheels (`accelprof-bindgen/regen-cupti.sh` downloads and unpacks them):
//! `<DIR>/cu13` from `nvidia-cuda-cupti`, `nvidia-cuda-runtime` and `nvidia-cuda-crt` 13.0 (all under
//! `nvidia/cu13/include`), `<DIR>/cu135` from the same three wheels at 13.5, `<DIR>/cu12` from
//! `nvidia-cuda-cupti-cu12`, `nvidia-cuda-runtime-cu12` and `nvidia-cuda-nvcc-cu12` 12.9
//! (`nvidia/{cuda_cupti,cuda_runtime,cuda_nvcc}/include`).
//!
//! It writes, under `cupti-sys/src/generated/`:
//! - `types.rs`: every CUPTI type, constant and callback id of the 13.0 headers;
//! - `functions.rs`: the function table, the 13.0 functions followed by those only the 13.5 headers
//!   declare (the V2 activity API, ...) and those only 12.9 has;
//! - `v12/types.rs`: the 12.9 items whose definition differs from 13.0 or that 13.0 dropped (the
//!   rest is the same in both, and `cupti_sys::v12` re-exports it from the 13.0 set);
//! - `v13_5/types.rs`: the 13.5 items that 13.0 lacks or defines differently (the rest is
//!   re-exported from the 13.0 set), with the constants enums gained as module-level consts;
//! - `cbid_names.rs`: for every callback domain, `(cbid, name)` pairs taken from the enum constant
//!   names of the 13.5 headers (a superset of 13.0's, same names for the same ids), and the 12.9
//!   names that differ;
//! - `params.rs`: the `functionParams` structs of kernel launches, memory copies and sets,
//!   allocations and frees (see [`params`]), checked identical in 12.9.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use crate::common;

mod params;

/// The command written into the generated files' headers.
const COMMAND: &str = "accelprof-bindgen/regen-cupti.sh .vendor/cupti";

/// One CUPTI release's unpacked wheels.
struct Release {
    /// `"13.0.85"`, read from the CUPTI wheel's `.dist-info` directory name.
    version: String,
    /// The wheel it came from (`nvidia-cuda-cupti`).
    wheel: &'static str,
    /// `-I` directories, CUPTI's first.
    includes: Vec<PathBuf>,
}

impl Release {
    fn find(dir: &Path, wheel: &'static str, include_dirs: &[&str]) -> Result<Release, String> {
        let prefix = format!("{}-", wheel.replace('-', "_"));
        let versions: Vec<String> = fs::read_dir(dir)
            .map_err(|e| format!("{}: {e} (run accelprof-bindgen/regen-cupti.sh)", dir.display()))?
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter_map(|n| n.strip_prefix(&prefix)?.strip_suffix(".dist-info").map(str::to_owned))
            .collect();
        let version = match versions.as_slice() {
            [one] => one.clone(),
            [] => return Err(format!("no {prefix}*.dist-info in {}", dir.display())),
            more => return Err(format!("{} holds several {wheel} versions: {more:?}", dir.display())),
        };
        let includes: Vec<PathBuf> = include_dirs.iter().map(|d| dir.join(d)).collect();
        for inc in &includes {
            if !inc.is_dir() {
                return Err(format!("{} is missing: unpack the wheels first", inc.display()));
            }
        }
        Ok(Release { version, wheel, includes })
    }

    /// `CUPTI 13.0.85 (nvidia-cuda-cupti)`.
    fn describe(&self) -> String {
        format!("CUPTI {} ({})", self.version, self.wheel)
    }

    /// bindgen's text for `cupti.h` of this release.
    fn bindings(&self) -> Result<String, String> {
        let mut b = common::builder()
            .header_contents("cupti_all.h", "#include <cupti.h>\n")
            .allowlist_function("cupti.*")
            .allowlist_type("CUpti.*|CUPTI.*|cupti.*")
            .allowlist_var("CUPTI.*|CUpti.*|cupti.*")
            .clang_arg("-xc")
            .clang_arg("-std=c11");
        for inc in &self.includes {
            b = b.clang_arg(format!("-I{}", inc.display()));
        }
        let bindings = b.generate().map_err(|e| format!("bindgen on CUPTI {} failed: {e}", self.version))?;
        Ok(bindings.to_string())
    }
}

/// Entry point: `accelprof-bindgen cupti <DIR> [--out <cupti-sys/src/generated>]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut dir = None;
    let mut out = PathBuf::from("cupti-sys/src/generated");
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--out" => out = it.next().ok_or("--out needs a directory")?.into(),
            "-h" | "--help" => {
                eprintln!(
                    "usage: accelprof-bindgen cupti <DIR with cu12/ and cu13/ unpacked wheels> [--out DIR]"
                );
                return Ok(());
            }
            d if dir.is_none() => dir = Some(PathBuf::from(d)),
            other => return Err(format!("unexpected argument `{other}`")),
        }
    }
    let dir = dir.ok_or("usage: accelprof-bindgen cupti <DIR> (see accelprof-bindgen/regen-cupti.sh)")?;

    let v13 = Release::find(&dir.join("cu13"), "nvidia-cuda-cupti", &["nvidia/cu13/include"])?;
    let v135 = Release::find(&dir.join("cu135"), "nvidia-cuda-cupti", &["nvidia/cu13/include"])?;
    let v12 = Release::find(
        &dir.join("cu12"),
        "nvidia-cuda-cupti-cu12",
        &["nvidia/cuda_cupti/include", "nvidia/cuda_runtime/include", "nvidia/cuda_nvcc/include"],
    )?;
    let text13 = v13.bindings()?;
    let text12 = v12.bindings()?;
    let text135 = v135.bindings()?;
    let (types13, externs13) = split(&text13);
    let (types12, externs12) = split(&text12);
    let (types135, externs135) = split(&text135);
    if externs13.is_empty() {
        return Err("bindgen produced no functions: check the allowlist".into());
    }
    let header = |from: String| {
        format!("// @generated by accelprof-bindgen from {from}; do not edit.\n// Regenerate: {COMMAND}\n")
    };
    let both = format!("{} and {}", v13.describe(), v12.describe());
    let all = format!("{}, {} and {}", v13.describe(), v135.describe(), v12.describe());

    // types.rs: the 13.0 set.
    let types13_text: Vec<&str> = types13.iter().map(|i| i.text.as_str()).collect();
    write(&out.join("types.rs"), &format!("{}\n{}", header(v13.describe()), types13_text.join("\n")))?;

    // v12/types.rs: what 12.x defines differently, or only 12.x defines.
    let diff = Diff::new(&types13, &types12, "v12");
    let v12_text = format!(
        "{}\n// Everything else is the same in both versions: the 13.0 items, shadowed by those below.\npub use super::super::types::*;\n\n{}",
        header(format!("{}: the items that differ from {}", v12.describe(), v13.describe())),
        diff.text.trim_end()
    );
    write(&out.join("v12/types.rs"), &(v12_text + "\n"))?;

    // v13_5/types.rs: what the newest 13.x adds or defines differently.
    let newer = Diff::new(&types13, &types135, "v13_5");
    let v135_text = format!(
        "{}\n// Everything else is the same in both versions: the 13.0 items, shadowed by those below.\npub use super::super::types::*;\n\n{}",
        header(format!("{}: the items that differ from {}", v135.describe(), v13.describe())),
        newer.text.trim_end()
    );
    write(&out.join("v13_5/types.rs"), &(v135_text + "\n"))?;

    // functions.rs: the 13.0 functions, then the 12.x functions 13.0 removed.
    let names13: BTreeSet<&str> = externs13.iter().map(|f| f.name.as_str()).collect();
    let mut fns = String::new();
    for f in &externs13 {
        fns.push_str(&indent(&f.text, 8));
    }
    let only135: Vec<&Extern> = externs135.iter().filter(|f| !names13.contains(f.name.as_str())).collect();
    for f in &only135 {
        fns.push_str(&format!(
            "        #[doc = \"Not in CUPTI 13.0: declared by the {} headers.\"]\n",
            v135.version
        ));
        fns.push_str(&indent(&newer.qualify(&f.text), 8));
    }
    let names_newer: BTreeSet<&str> =
        names13.iter().copied().chain(only135.iter().map(|f| f.name.as_str())).collect();
    let only12: Vec<&Extern> = externs12.iter().filter(|f| !names_newer.contains(f.name.as_str())).collect();
    for f in &only12 {
        fns.push_str(&format!("        #[doc = \"Only in CUPTI 12.x: 13.0 removed `{}`.\"]\n", f.name));
        fns.push_str(&indent(&diff.qualify(&f.text), 8));
    }
    let names12: BTreeSet<&str> = externs12.iter().map(|f| f.name.as_str()).collect();
    let only13: Vec<&str> = names13.iter().copied().filter(|n| !names12.contains(n)).collect();
    for f12 in &externs12 {
        if let Some(f13) = externs13.iter().find(|f| f.name == f12.name) {
            if f13.text != f12.text {
                eprintln!("note: {} has another signature in 12.x:\n{}", f12.name, f12.text);
            }
        }
    }
    for f135 in &externs135 {
        if let Some(f13) = externs13.iter().find(|f| f.name == f135.name) {
            if f13.text != f135.text {
                return Err(format!(
                    "{} has another signature in {}:\n{}\n(13.0:\n{})",
                    f135.name, v135.version, f135.text, f13.text
                ));
            }
        }
    }
    let functions = format!(
        "{}\nuse super::types::*;\n\naccelprof_loader::function_table! {{\n    /// Every CUPTI function of the 13.0 headers, then those only newer 13.x headers declare and\n    /// those only 12.x has, each resolved from the opened library on first call.\n    pub struct CuptiFunctions;\n    extern \"C\" {{\n{fns}    }}\n}}\n",
        header(all.clone())
    );
    write(&out.join("functions.rs"), &functions)?;

    // cbid_names.rs.
    let names = cbid_tables(&types13, &types135, &types12, &v135.version)?;
    write(&out.join("cbid_names.rs"), &format!("{}\n{names}", header(all)))?;

    // params.rs: the functionParams structs of the calls the safe crate reads.
    write(&out.join("params.rs"), &params::render(&v13, &v12, &types13, &header(both))?)?;

    rustfmt(&[
        out.join("types.rs"),
        out.join("v12/types.rs"),
        out.join("v13_5/types.rs"),
        out.join("functions.rs"),
        out.join("cbid_names.rs"),
        out.join("params.rs"),
    ])?;
    eprintln!(
        "CUPTI {}: {} functions ({} only in {}, {} only in {}, {} not in {}: {}); {} 12.x subjects differ: {}; {} {} subjects are new or differ",
        v13.version,
        externs13.len() + only135.len() + only12.len(),
        only135.len(),
        v135.version,
        only12.len(),
        v12.version,
        only13.len(),
        v12.version,
        only13.join(", "),
        diff.subjects.len(),
        diff.subjects.join(", "),
        newer.subjects.len(),
        v135.version,
    );
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

/// Formats the written files with the workspace's `rustfmt.toml` (found from the files' paths),
/// so that `cargo fmt` leaves them unchanged.
fn rustfmt(files: &[PathBuf]) -> Result<(), String> {
    let rustfmt = std::env::var_os("RUSTFMT").unwrap_or_else(|| "rustfmt".into());
    let status = std::process::Command::new(rustfmt)
        .args(["--edition", "2021"])
        .args(files)
        .status()
        .map_err(|e| format!("running rustfmt: {e}"))?;
    if !status.success() {
        return Err(format!("rustfmt failed on the generated files ({status})"));
    }
    Ok(())
}

fn indent(text: &str, by: usize) -> String {
    let pad = " ".repeat(by);
    text.lines().map(|l| if l.is_empty() { "\n".to_owned() } else { format!("{pad}{l}\n") }).collect()
}

/// One top-level item of bindgen's output (attributes included).
#[derive(Debug)]
struct Item {
    /// The type or constant it belongs to: a struct, its `impl` blocks and its layout test share
    /// one subject, and are compared together.
    subject: String,
    text: String,
}

/// One declaration of the `extern "C"` blocks.
#[derive(Debug)]
struct Extern {
    name: String,
    text: String,
}

/// Splits bindgen's (rustfmt-formatted) text into top-level items and extern functions.
fn split(text: &str) -> (Vec<Item>, Vec<Extern>) {
    let mut items = Vec::new();
    let mut externs = Vec::new();
    let mut buf = String::new();
    let mut depth = 0i32;
    let mut in_extern = false;
    for line in text.lines() {
        if depth == 0 && (line.starts_with("extern \"C\" {") || line.starts_with("unsafe extern \"C\" {")) {
            in_extern = true;
            depth = 1;
            buf.clear();
            continue;
        }
        if in_extern {
            if depth == 1 && line == "}" {
                in_extern = false;
                depth = 0;
                continue;
            }
            let l = line.strip_prefix("    ").unwrap_or(line);
            buf.push_str(l);
            buf.push('\n');
            let parens = buf.matches('(').count() == buf.matches(')').count();
            if l.trim_end().ends_with(';') && parens {
                let name = fn_name(&buf).unwrap_or_default();
                externs.push(Extern { name, text: std::mem::take(&mut buf) });
            }
            continue;
        }
        if buf.is_empty() && line.trim().is_empty() {
            continue;
        }
        buf.push_str(line);
        buf.push('\n');
        depth += brace_delta(line);
        let t = line.trim_end();
        if depth == 0 && !line.starts_with('#') && (t.ends_with(';') || t.ends_with('}')) {
            let text = std::mem::take(&mut buf);
            items.push(Item { subject: subject_of(&text), text });
        }
    }
    (items, externs)
}

fn brace_delta(line: &str) -> i32 {
    let mut d = 0;
    let mut in_str = false;
    let mut prev = ' ';
    for c in line.chars() {
        match c {
            '"' if prev != '\\' => in_str = !in_str,
            '{' if !in_str => d += 1,
            '}' if !in_str => d -= 1,
            _ => {}
        }
        prev = c;
    }
    d
}

fn fn_name(decl: &str) -> Option<String> {
    let rest = &decl[decl.find("pub fn ")? + 7..];
    Some(rest[..rest.find('(')?].trim().to_owned())
}

/// The subject of one item (see [`Item::subject`]).
fn subject_of(text: &str) -> String {
    let ident = |r: &str| -> String { r.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    for line in text.lines() {
        let l = line.trim_start();
        if l.starts_with('#') {
            continue;
        }
        for prefix in ["pub struct ", "pub union ", "pub type ", "pub const ", "pub static ", "pub enum "] {
            if let Some(rest) = l.strip_prefix(prefix) {
                return ident(rest);
            }
        }
        if let Some(rest) = l.strip_prefix("impl") {
            // `impl X {`, `impl Default for X {`, `impl<T> X<T> {`.
            let rest = rest.trim_end_matches('{').trim();
            let target = rest.rsplit(" for ").next().unwrap_or(rest);
            let target = if target.starts_with('<') {
                target.split_once("> ").map_or(target, |t| t.1)
            } else {
                target
            };
            return ident(target);
        }
        if l.starts_with("const _: () = {") {
            // Layout tests: the type they check.
            for marker in ["\"Size of ", "\"Offset of field: ", "\"Alignment of "] {
                if let Some(p) = text.find(marker) {
                    return ident(&text[p + marker.len()..]);
                }
            }
        }
        return format!("?{l}");
    }
    String::new()
}

/// Concatenated text of the items of each subject.
fn group(items: &[Item]) -> BTreeMap<&str, String> {
    let mut map: BTreeMap<&str, String> = BTreeMap::new();
    for i in items {
        map.entry(i.subject.as_str()).or_default().push_str(&i.text);
    }
    map
}

/// Whether `name` is the bindgen newtype of a C enum (`pub struct X(pub u32);`).
fn is_newtype_enum(items: &[Item], name: &str) -> bool {
    let decl = format!("pub struct {name}(pub ");
    items.iter().any(|i| i.subject == name && i.text.contains(&decl))
}

/// What another CUPTI release (12.x, or a newer 13.x) defines differently from 13.0.
struct Diff {
    /// The subjects that differ.
    subjects: Vec<String>,
    /// The text of `<module>/types.rs`: whole items of the other release for structs, unions,
    /// aliases and `#define` constants; for an enum, whose newtype both versions share (it
    /// represents any value), the constants the other release names or values differently, as
    /// module-level consts.
    text: String,
    /// Types redefined in `<module>/types.rs`.
    types: BTreeSet<String>,
    /// The module under `generated/` (`v12`, `v13_5`).
    module: &'static str,
}

impl Diff {
    /// The items of `types12` (the other release) that differ from `types13`.
    fn new(types13: &[Item], types12: &[Item], module: &'static str) -> Self {
        let by13 = group(types13);
        let by12 = group(types12);
        let mut diff = Diff { subjects: Vec::new(), text: String::new(), types: BTreeSet::new(), module };
        let mut seen = BTreeSet::new();
        for item in types12 {
            let s = item.subject.as_str();
            if by13.get(s) == by12.get(s) || !seen.insert(s) {
                continue;
            }
            diff.subjects.push(s.to_owned());
            if is_newtype_enum(types13, s) && is_newtype_enum(types12, s) {
                let c13 = enum_consts(types13, s);
                for (name, v) in enum_consts(types12, s) {
                    if !c13.contains(&(name.clone(), v)) {
                        diff.text.push_str(&format!("pub const {name}: {s} = {s}({v});\n"));
                    }
                }
                diff.text.push('\n');
                continue;
            }
            for i in types12.iter().filter(|i| i.subject == s) {
                if !i.text.contains("pub const ") || i.text.contains("impl") {
                    diff.types.insert(s.to_owned());
                }
                diff.text.push_str(&i.text);
                diff.text.push('\n');
            }
        }
        diff
    }

    /// Names the types of a function declaration of the other release that it defines
    /// differently by their `super::<module>::types::` path, so that `functions.rs` (which sees
    /// the 13.0 types) compiles with the other release's signature.
    fn qualify(&self, decl: &str) -> String {
        let mut out = String::new();
        let mut word = String::new();
        let prefix = format!("super::{}::types::", self.module);
        let flush = |word: &mut String, out: &mut String| {
            if self.types.contains(word.as_str()) {
                out.push_str(&prefix);
            }
            out.push_str(word);
            word.clear();
        };
        for c in decl.chars() {
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
            } else {
                flush(&mut word, &mut out);
                out.push(c);
            }
        }
        flush(&mut word, &mut out);
        out
    }
}

/// A callback domain's cbid enum: its C type and the prefix of its constant names.
struct Domain {
    table: &'static str,
    ty: &'static str,
    prefix: &'static str,
    /// Strip the runtime API's `_v<CUDA version>` suffix (`cudaLaunchKernel_v7000`); the driver
    /// API's `_v2` suffixes are part of the exported symbol names and stay.
    strip_version: bool,
}

const DOMAINS: &[Domain] = &[
    Domain {
        table: "DRIVER_CBID_NAMES",
        ty: "CUpti_driver_api_trace_cbid_enum",
        prefix: "CUPTI_DRIVER_TRACE_CBID_",
        strip_version: false,
    },
    Domain {
        table: "RUNTIME_CBID_NAMES",
        ty: "CUpti_runtime_api_trace_cbid_enum",
        prefix: "CUPTI_RUNTIME_TRACE_CBID_",
        strip_version: true,
    },
    Domain {
        table: "RESOURCE_CBID_NAMES",
        ty: "CUpti_CallbackIdResource",
        prefix: "CUPTI_CBID_RESOURCE_",
        strip_version: false,
    },
    Domain {
        table: "SYNCHRONIZE_CBID_NAMES",
        ty: "CUpti_CallbackIdSync",
        prefix: "CUPTI_CBID_SYNCHRONIZE_",
        strip_version: false,
    },
    Domain {
        table: "NVTX_CBID_NAMES",
        ty: "CUpti_nvtx_api_trace_cbid",
        prefix: "CUPTI_CBID_NVTX_",
        strip_version: false,
    },
    Domain {
        table: "STATE_CBID_NAMES",
        ty: "CUpti_CallbackIdState",
        prefix: "CUPTI_CBID_STATE_",
        strip_version: false,
    },
];

/// `(constant name, value)` of a newtype enum's associated constants.
fn enum_consts(items: &[Item], ty: &str) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for item in items.iter().filter(|i| i.subject == ty) {
        // `pub const NAME: Ty = Ty(123);` (rustfmt may wrap it over lines).
        let flat: String = item.text.split_whitespace().collect::<Vec<_>>().join(" ");
        for part in flat.split("pub const ").skip(1) {
            let Some((name, rest)) = part.split_once(':') else { continue };
            let Some(open) = rest.find(&format!("{ty}(")) else { continue };
            let digits: String =
                rest[open + ty.len() + 1..].chars().take_while(|c| c.is_ascii_digit()).collect();
            if let Ok(v) = digits.parse() {
                out.push((name.trim().to_owned(), v));
            }
        }
    }
    out
}

fn cbid_name(domain: &Domain, constant: &str) -> Option<String> {
    let name = constant.strip_prefix(domain.prefix)?;
    if matches!(name, "INVALID" | "SIZE" | "FORCE_INT") {
        return None;
    }
    if domain.strip_version {
        if let Some((base, v)) = name.rsplit_once("_v") {
            if v.len() >= 4 && v.chars().all(|c| c.is_ascii_digit()) {
                return Some(base.to_owned());
            }
        }
    }
    Some(name.to_owned())
}

/// The text of `cbid_names.rs`: per domain, a table of the names of the newest headers (13.0's
/// ids and those later 13.x added, same names for the ids both have) sorted by cbid, and a table of
/// the ids whose 12.x name differs (or that only 12.x has).
fn cbid_tables(types13: &[Item], types135: &[Item], types12: &[Item], v135: &str) -> Result<String, String> {
    let mut out = String::new();
    for d in DOMAINS {
        let names = |items: &[Item]| -> BTreeMap<u32, String> {
            let mut table = BTreeMap::new();
            for (c, v) in enum_consts(items, d.ty) {
                if let Some(name) = cbid_name(d, &c) {
                    table.entry(v).or_insert(name);
                }
            }
            table
        };
        let t13 = names(types13);
        let t135 = names(types135);
        let t12 = names(types12);
        if t13.is_empty() || t12.is_empty() || t135.is_empty() {
            return Err(format!("no constants found for {} in the bindings", d.ty));
        }
        // Ids are never renumbered. A newer header renames the ids of APIs CUDA removed to
        // placeholders (13.5: id 25 `cu64ModuleGetGlobal` is `cuda25`): 13.0's names are kept.
        let renamed = t13.iter().filter(|(v, n)| t135.get(v).is_some_and(|m| m != *n)).count();
        let dropped = t13.keys().filter(|v| !t135.contains_key(v)).count();
        if renamed + dropped > 0 {
            eprintln!("{}: {renamed} ids renamed and {dropped} dropped in {v135}; 13.0's names kept", d.ty);
        }
        let mut newest = t135.clone();
        newest.extend(t13.iter().map(|(v, n)| (*v, n.clone())));
        let t135 = newest;
        out.push_str(&format!(
            "/// `(cbid, name)` of every `{}` constant of CUPTI 13.0 and of those CUPTI {v135} added, sorted\n/// by cbid: the constant's name without `{}`{}.\npub const {}: &[(u32, &str)] = &[\n",
            d.ty,
            d.prefix,
            if d.strip_version { " and without the `_v<CUDA version>` suffix" } else { "" },
            d.table
        ));
        for (v, n) in &t135 {
            out.push_str(&format!("    ({v}, \"{n}\"),\n"));
        }
        out.push_str(&format!(
            "];\n\n/// The entries of CUPTI 12.x's `{}` whose name differs from [`{}`] or that 13.x lacks,\n/// sorted by cbid.\npub const {}_12: &[(u32, &str)] = &[\n",
            d.ty, d.table, d.table
        ));
        for (v, n) in &t12 {
            if t135.get(v) != Some(n) {
                out.push_str(&format!("    ({v}, \"{n}\"),\n"));
            }
        }
        out.push_str("];\n\n");
    }
    Ok(out.trim_end().to_owned() + "\n")
}
