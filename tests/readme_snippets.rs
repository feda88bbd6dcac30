//! Every README's Rust example compiles as pasted into a program's `main.rs`: each `rust` block
//! is a whole program (it has its `fn main`) or items only, with no line hidden from the reader
//! (`# ...`, which the doctests compile and a reader does not see) and no statement outside a
//! function, and no crate of the workspace that adding the README's crate does not bring (a
//! dev-dependency of the crate compiles in its doctest, not in the reader's program). The
//! doctests (each crate includes its README) check that the blocks compile; this checks that what
//! they compile is what a reader copies.

use std::path::{Path, PathBuf};

/// The workspace's READMEs: the root's and each member's.
fn readmes() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root).expect("the workspace root") {
        let path = entry.expect("an entry").path().join("README.md");
        if path.is_file() && path.parent().is_some_and(|p| p.join("Cargo.toml").is_file()) {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// The `rust` blocks of a Markdown text (not `ignore`d ones), with the line each starts on.
fn rust_blocks(text: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        match (&mut current, line.trim_start().strip_prefix("```")) {
            (None, Some(tag)) => {
                let tags: Vec<&str> = tag.split(',').map(str::trim).collect();
                if tags.first() == Some(&"rust") && !tags.contains(&"ignore") {
                    current = Some((n + 1, String::new()));
                } else if !tag.is_empty() || tags.first() == Some(&"") {
                    // Another language's block: skip to its end.
                    current = Some((0, String::new()));
                }
            }
            (Some(_), Some("")) => {
                let (start, body) = current.take().expect("a block");
                if start != 0 {
                    blocks.push((start, body));
                }
            }
            (Some((_, body)), _) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    blocks
}

/// What keeps `block` from compiling as pasted, if anything.
fn not_as_pasted(block: &str) -> Option<String> {
    if let Some(hidden) = block.lines().find(|l| l.starts_with("# ") || *l == "#") {
        return Some(format!("a line hidden from the reader: {hidden:?}"));
    }
    if block.lines().any(|l| l.starts_with("fn main(")) {
        return None;
    }
    let item = |l: &str| {
        let code = l.split("//").next().unwrap_or("").trim_end();
        let items = [
            "use ", "pub ", "fn ", "struct ", "enum ", "impl ", "mod ", "const ", "static ", "type ",
            "trait ",
        ];
        items.iter().any(|p| code.starts_with(p))
            || ["#[", "}", ")"].iter().any(|p| code.starts_with(p))
            || code.is_empty()
            // A macro invoked at item level: `path::name! { ... }` or `path::name!(...);`.
            || code.split_once('!').is_some_and(|(path, rest)| {
                path.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ':')
                    && (rest.starts_with(" {") || rest.starts_with('(') && (code.ends_with(");") || code.ends_with('(')))
            })
    };
    block
        .lines()
        .find(|l| !l.is_empty() && !l.starts_with(' ') && !item(l))
        .map(|l| format!("a statement outside a function (wrap the example in `fn main`): {l:?}"))
}

/// The crate names (`cupti_sys`) of the workspace's packages, and of those that `manifest`'s
/// `[dependencies]` (not its dev- or build-dependencies) name: what `cargo add <the crate>` brings.
fn workspace_crates(root: &Path) -> Vec<String> {
    let mut names = vec!["accel_profiling".to_string()];
    for entry in std::fs::read_dir(root).expect("the workspace root") {
        let dir = entry.expect("an entry").path();
        if dir.join("Cargo.toml").is_file() && dir.join("src").is_dir() {
            names.push(dir.file_name().expect("a name").to_string_lossy().replace('-', "_"));
        }
    }
    names
}

fn dependencies(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).expect("a Cargo.toml");
    let mut in_deps = false;
    let mut deps = Vec::new();
    for line in text.lines() {
        if line.starts_with('[') {
            in_deps = line.trim() == "[dependencies]";
        } else if in_deps {
            if let Some((name, _)) = line.split_once('=') {
                let name = name.trim().trim_end_matches(".workspace").trim();
                if !name.is_empty() && !name.starts_with('#') {
                    deps.push(name.replace('-', "_"));
                }
            }
        }
    }
    deps
}

/// The workspace crates `block` names (`name::`) that adding `own` does not bring.
fn crates_not_brought(block: &str, own: &str, deps: &[String], workspace: &[String]) -> Vec<String> {
    let mut missing: Vec<String> = workspace
        .iter()
        .filter(|c| *c != own && !deps.contains(c))
        .filter(|c| {
            block.match_indices(&format!("{c}::")).any(|(at, _)| {
                at == 0 || !block[..at].ends_with(|ch: char| ch.is_alphanumeric() || ch == '_' || ch == ':')
            })
        })
        .cloned()
        .collect();
    missing.sort();
    missing
}

#[test]
fn every_readme_example_compiles_as_pasted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = workspace_crates(root);
    let mut problems = Vec::new();
    let mut seen = 0;
    for readme in readmes() {
        let text = std::fs::read_to_string(&readme).expect("a README");
        let dir = readme.parent().expect("a directory");
        let own = if dir == root {
            "accel_profiling".to_string()
        } else {
            dir.file_name().expect("a name").to_string_lossy().replace('-', "_")
        };
        let deps = dependencies(&dir.join("Cargo.toml"));
        for (line, block) in rust_blocks(&text) {
            seen += 1;
            if let Some(why) = not_as_pasted(&block) {
                problems.push(format!("{}:{line}: {why}", readme.display()));
            }
            let missing = crates_not_brought(&block, &own, &deps, &workspace);
            if !missing.is_empty() {
                problems.push(format!(
                    "{}:{line}: uses {missing:?}, which adding {own} does not bring (re-export what it needs)",
                    readme.display()
                ));
            }
        }
    }
    // In the repository every crate's README is checked; in the published package (built and tested
    // alone) only its own README is there, and it has two examples.
    let expected = if readmes().len() > 1 { 10 } else { 2 };
    assert!(seen >= expected, "the READMEs' examples were found ({seen}, want {expected} or more)");
    assert!(problems.is_empty(), "README examples that do not compile as pasted:\n{}", problems.join("\n"));
}
