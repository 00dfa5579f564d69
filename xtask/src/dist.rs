//! `cargo xtask dist`: the Python wheel (with the `fairkit` command inside), its sdist, and,
//! with `--smoke`, the wheel installed into a fresh virtual environment with no Rust on its PATH
//! and checked there by `python/smoke/smoke.py`.
//!
//! 1. `<target>/py-venv` (the project's venv, created when missing) gets the pinned build tools of
//!    `python/requirements-dist.txt` (maturin, twine); the test requirements are not needed.
//! 2. `maturin build --release` writes the abi3 wheel to `<target>/dist` (one wheel for every
//!    CPython ≥ 3.9 on this platform). It runs from the same venv, manifest and profile as
//!    `cargo xtask test`'s `maturin develop --release`, so after a test run cargo finds the
//!    extension module already compiled and only packs it.
//! 3. `maturin sdist` writes the source distribution beside it.
//! 4. `twine check --strict` checks both artefacts' metadata and README.
//!
//! `--smoke` then builds the reference binary (`cargo build -p fairkit-cli`) and creates two
//! venvs afresh under `<target>/dist-smoke` from the base interpreter: `venv-base` with the wheel
//! alone (the numpy-only install: `smoke.py --base`) and `venv-full` with the wheel, fairlearn
//! and pandas (the comparison peers, at the versions pinned in `python/requirements-test.txt`:
//! the full suite). pip and the suite run with a PATH from which every directory holding `cargo`
//! or `rustc` is removed and without the `CARGO*`/`RUST*`/`LD_LIBRARY_PATH` variables.

use crate::test_cmd::{step, target_dir, venv_command};
use clap::Args;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Options of `cargo xtask dist`.
#[derive(Args, Debug)]
pub struct DistArgs {
    /// After building, install the wheel into a fresh venv without Rust on its PATH and run the
    /// smoke suite (python/smoke/smoke.py) there.
    #[arg(long)]
    smoke: bool,
    /// Directory for the wheel and sdist (default: <target>/dist; earlier fairkit artefacts in it
    /// are removed first).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Builds the artefacts (and runs the smoke suite with `--smoke`); prints which step failed.
pub fn run(root: &Path, args: &DistArgs) -> ExitCode {
    match run_steps(root, args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("cargo xtask dist FAILED: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn run_steps(root: &Path, args: &DistArgs) -> Result<(), String> {
    let venv = build_venv(root)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| target_dir(root).join("dist"));
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    remove_old_artefacts(&out)?;
    let manifest = root.join("python/Cargo.toml");
    step(
        "maturin build --release (the abi3 wheel)",
        venv_command(&venv, "maturin")
            .args(["build", "--release", "--manifest-path"])
            .arg(&manifest)
            .arg("--out")
            .arg(&out)
            .current_dir(root),
    )?;
    step(
        "maturin sdist",
        venv_command(&venv, "maturin")
            .args(["sdist", "--manifest-path"])
            .arg(&manifest)
            .arg("--out")
            .arg(&out)
            .current_dir(root),
    )?;
    let wheel = one_artefact(&out, ".whl")?;
    let sdist = one_artefact(&out, ".tar.gz")?;
    step(
        "twine check --strict",
        venv_command(&venv, "twine")
            .args(["check", "--strict"])
            .arg(&wheel)
            .arg(&sdist),
    )?;
    for path in [&wheel, &sdist] {
        let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        println!(
            "{}  {:.1} MB",
            path.display(),
            bytes as f64 / (1024.0 * 1024.0)
        );
    }
    if args.smoke {
        smoke(root, &wheel)?;
    }
    Ok(())
}

/// `<target>/py-venv` with the pinned build tools (skipped when its stamp already holds exactly
/// `python/requirements-dist.txt`).
fn build_venv(root: &Path) -> Result<PathBuf, String> {
    let venv = target_dir(root).join("py-venv");
    let python = venv.join("bin/python");
    if !python.exists() {
        step(
            "create the Python virtual environment",
            Command::new(base_python()).arg("-m").arg("venv").arg(&venv),
        )?;
    }
    let requirements = root.join("python/requirements-dist.txt");
    let wanted = std::fs::read_to_string(&requirements)
        .map_err(|e| format!("cannot read {}: {e}", requirements.display()))?;
    let stamp = venv.join("fairkit-requirements-dist.txt");
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(wanted.as_str()) {
        step(
            "pip install the build requirements",
            Command::new(&python)
                .args(["-m", "pip", "install", "--disable-pip-version-check", "-r"])
                .arg(&requirements),
        )?;
        std::fs::write(&stamp, &wanted)
            .map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    }
    Ok(venv)
}

/// The interpreter venvs are made from: `$FAIRKIT_PYTHON`, else `python3`.
fn base_python() -> OsString {
    std::env::var_os("FAIRKIT_PYTHON").unwrap_or_else(|| "python3".into())
}

/// Removes earlier `fairkit-*` wheels and sdists so exactly one of each is left to check.
fn remove_old_artefacts(out: &Path) -> Result<(), String> {
    let entries =
        std::fs::read_dir(out).map_err(|e| format!("cannot list {}: {e}", out.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if is_artefact(&name, ".whl") || is_artefact(&name, ".tar.gz") {
            std::fs::remove_file(entry.path())
                .map_err(|e| format!("cannot remove {}: {e}", entry.path().display()))?;
        }
    }
    Ok(())
}

fn is_artefact(name: &str, suffix: &str) -> bool {
    name.starts_with("fairkit-") && name.ends_with(suffix)
}

/// The single `fairkit-*<suffix>` file in `out`.
fn one_artefact(out: &Path, suffix: &str) -> Result<PathBuf, String> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(out)
        .map_err(|e| format!("cannot list {}: {e}", out.display()))?
        .flatten()
        .filter(|e| is_artefact(&e.file_name().to_string_lossy(), suffix))
        .map(|e| e.path())
        .collect();
    match found.len() {
        1 => Ok(found.remove(0)),
        n => Err(format!(
            "expected one fairkit-*{suffix} in {}, found {n}",
            out.display()
        )),
    }
}

/// Installs `wheel` into a fresh venv and runs `python/smoke/smoke.py` there with no Rust on
/// the PATH.
fn smoke(root: &Path, wheel: &Path) -> Result<(), String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    step(
        "cargo build -p fairkit-cli (the reference binary)",
        Command::new(&cargo)
            .args(["build", "-p", "fairkit-cli"])
            .current_dir(root),
    )?;
    let reference = target_dir(root).join("debug/fairkit");
    let dir = target_dir(root).join("dist-smoke");
    if dir.exists() {
        std::fs::remove_dir_all(&dir)
            .map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
    }
    let env = without_rust()?;
    // First the wheel alone (numpy is its only dependency), then beside the comparison peers.
    for (name, peers) in [("base", &[][..]), ("full", &["fairlearn", "pandas"][..])] {
        let venv = dir.join(format!("venv-{name}"));
        let work = dir.join(format!("work-{name}"));
        std::fs::create_dir_all(&work)
            .map_err(|e| format!("cannot create {}: {e}", work.display()))?;
        step(
            &format!("create a fresh virtual environment ({name})"),
            Command::new(base_python()).arg("-m").arg("venv").arg(&venv),
        )?;
        let python = venv.join("bin/python");
        step(
            &format!("pip install the wheel {peers:?} ({name}, no Rust on the PATH)"),
            with_env(Command::new(&python), &env, &venv)
                .args(["-m", "pip", "install", "--disable-pip-version-check", "-c"])
                .arg(root.join("python/requirements-test.txt"))
                .arg(wheel)
                .args(peers),
        )?;
        let mut suite = with_env(Command::new(&python), &env, &venv);
        suite
            .arg(root.join("python/smoke/smoke.py"))
            .arg("--reference")
            .arg(&reference)
            .arg("--workdir")
            .arg(&work)
            .arg("--readme")
            .arg(root.join("python/README.md"))
            .env("FAIRKIT_EXPECTED_VERSION", env!("CARGO_PKG_VERSION"))
            .current_dir(&work);
        if peers.is_empty() {
            suite.arg("--base");
        }
        step(
            &format!("smoke suite ({name}, python/smoke/smoke.py, no Rust on the PATH)"),
            &mut suite,
        )?;
    }
    Ok(())
}

/// This process's environment without Rust: no `CARGO*`/`RUST*` variables, no active venv or
/// `PYTHONPATH`, and a PATH without any directory that holds `cargo` or `rustc`.
fn without_rust() -> Result<Vec<(OsString, OsString)>, String> {
    let mut env: Vec<(OsString, OsString)> = std::env::vars_os()
        .filter(|(k, _)| {
            let k = k.to_string_lossy();
            !(k.starts_with("CARGO")
                || k.starts_with("RUST")
                || k == "VIRTUAL_ENV"
                || k == "PYTHONPATH"
                || k == "PYTHONHOME"
                // cargo run points the loader at the toolchain's and target's libraries.
                || k == "LD_LIBRARY_PATH"
                || k == "_"
                || k == "PATH")
        })
        .collect();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|dir| !dir.join("cargo").exists() && !dir.join("rustc").exists())
        .collect();
    let path = std::env::join_paths(kept).map_err(|e| format!("cannot rebuild PATH: {e}"))?;
    env.push(("PATH".into(), path));
    Ok(env)
}

/// `cmd` with exactly `env`, the venv's bin directory first on its PATH (as if activated).
fn with_env(mut cmd: Command, env: &[(OsString, OsString)], venv: &Path) -> Command {
    cmd.env_clear();
    for (k, v) in env {
        if k == "PATH" {
            let mut path = OsString::from(venv.join("bin").as_os_str());
            path.push(":");
            path.push(v);
            cmd.env(k, path);
        } else {
            cmd.env(k, v);
        }
    }
    cmd.env("VIRTUAL_ENV", venv);
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn artefacts_are_fairkit_wheels_and_sdists_only() {
        assert!(is_artefact(
            "fairkit-0.1.0-cp39-abi3-manylinux_2_34_x86_64.whl",
            ".whl"
        ));
        assert!(is_artefact("fairkit-0.1.0.tar.gz", ".tar.gz"));
        assert!(!is_artefact("numpy-2.4.6.whl", ".whl"));
        assert!(!is_artefact("fairkit-0.1.0.tar.gz", ".whl"));
    }

    #[test]
    fn the_smoke_environment_has_no_rust() {
        let env = without_rust().expect("PATH rebuilds");
        for (k, v) in &env {
            let k = k.to_string_lossy();
            assert!(!k.starts_with("CARGO") && !k.starts_with("RUST"), "{k}");
            assert_ne!(k, "LD_LIBRARY_PATH");
            if k == "PATH" {
                for dir in std::env::split_paths(v) {
                    assert!(!dir.join("cargo").exists(), "{}", dir.display());
                }
            }
        }
    }
}
