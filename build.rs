//! Build script: hands the commit this binary is built from to the code as
//! `POOLSHARK_COMMIT` (`git rev-parse --short HEAD`), for `poolshark --version`. Where there
//! is no git or no repository (a source archive) it is "unknown".

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
    // Run again when HEAD moves: HEAD itself (a checkout), the branch it names (a commit)
    // and packed-refs (where git may move that branch). `--git-path` finds them in a
    // worktree too, where .git is a file. Only those that exist: cargo runs a script
    // again on every build while a path it watches is missing.
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(branch);
    }
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
            if std::path::Path::new(&path).exists() {
                println!("cargo:rerun-if-changed={path}");
            }
        }
    }
    println!("cargo:rustc-env=POOLSHARK_COMMIT={commit}");
}
