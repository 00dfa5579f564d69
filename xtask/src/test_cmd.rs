//! `cargo xtask test`: every test of the repository in one command.
//!
//! 1. `cargo test --workspace` (the Rust crates, the workspace tests, the binding crate's unit
//!    tests);
//! 2. a virtual environment at `<target dir>/py-venv` (created with `python3 -m venv` on first
//!    use, reused afterwards);
//! 3. `pip install -r python/requirements-test.txt` (pinned test dependencies from PyPI), then
//!    `pip install --no-deps -r python/requirements-test-nodeps.txt` (oracles whose pins conflict;
//!    both skipped when the venv already holds exactly these files' pins);
//! 4. `maturin develop --release` builds the `fairkit` package into the venv;
//! 5. `pytest python/tests` on two workers (pytest-xdist).
//!
//! Before pytest, a headless Chromium for the report pages' browser test
//! (python/tests/test_report_browser.py: report.html and compare.html at 1280 px) is looked for
//! and installed with `apt-get install -y chromium` when missing; if it cannot be installed the
//! run fails. `FAIRKIT_SKIP_BROWSER_TESTS=1` skips that test instead (a local opt-out; CI never
//! sets it).
//!
//! Any failing step stops the run with the step's name and command. The Rust toolchain, CPython
//! with `venv`/`pip`, and a Java runtime (17+, for the Spark tests of `fairkit.spark`, which start
//! Spark in local mode) are needed; set `FAIRKIT_PYTHON` to choose the interpreter. `.ci/run`
//! installs a headless Java runtime when none is present.

use clap::Args;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

/// Options of `cargo xtask test`.
#[derive(Args, Debug)]
pub struct TestArgs {
    /// Skip `cargo test --workspace` (only the Python suite).
    #[arg(long)]
    skip_rust: bool,
    /// Skip the Python package build and pytest (only `cargo test --workspace`).
    #[arg(long)]
    skip_python: bool,
    /// Extra arguments for pytest (after `--`), e.g. `-- -k metrics -x`.
    #[arg(last = true)]
    pytest_args: Vec<String>,
}

/// Runs the steps; prints which one failed.
pub fn run(root: &Path, args: &TestArgs) -> ExitCode {
    match run_steps(root, args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("cargo xtask test FAILED: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn run_steps(root: &Path, args: &TestArgs) -> Result<(), String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    if !args.skip_rust {
        step(
            "cargo test --workspace",
            Command::new(&cargo)
                .args(["test", "--workspace"])
                .current_dir(root),
        )?;
    }
    if args.skip_python {
        return Ok(());
    }
    let venv = prepare_venv(root)?;
    check_java()?;
    check_chromium()?;
    let mut pytest = venv_command(&venv, "python");
    pytest
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        // Two workers (pytest-xdist), one test file each at a time: the suite is CPU-bound
        // and single-threaded per test, and whole files keep the Spark tests' session in one
        // worker (two Spark JVMs would compete for the same two cores).
        .args(["-n", "2", "--dist", "loadfile"])
        // The slowest tests in CI's log: where the time budget goes.
        .args(["--durations", "15"])
        .arg(root.join("python/tests"))
        .args(&args.pytest_args)
        .current_dir(root.join("python"));
    step("pytest python/tests", &mut pytest)
}

/// The project's Python environment, ready to use: the virtual environment at
/// `<target dir>/py-venv` (created with `python3 -m venv`, or `$FAIRKIT_PYTHON -m venv`, on first
/// use), the pinned test requirements installed (skipped when the venv's stamp already holds
/// exactly `python/requirements-test.txt`), and the `fairkit` package built into it by
/// `maturin develop --release` (incremental: quick when nothing changed). Returns the venv
/// directory; run its programs with [`venv_command`].
///
/// # Errors
/// The failing step's name and command.
pub fn prepare_venv(root: &Path) -> Result<PathBuf, String> {
    let venv = target_dir(root).join("py-venv");
    let python = venv_python(&venv);
    if !python.exists() {
        let base = std::env::var_os("FAIRKIT_PYTHON").unwrap_or_else(|| "python3".into());
        step(
            "create the Python virtual environment",
            Command::new(&base).arg("-m").arg("venv").arg(&venv),
        )?;
    }
    let requirements = root.join("python/requirements-test.txt");
    // Oracles whose declared pins conflict with ours (aequitas 1.1 caps pandas below 3 yet runs
    // on 3.1.1, checked by its differential test): installed without their dependencies, which
    // requirements-test.txt pins instead.
    let no_deps = root.join("python/requirements-test-nodeps.txt");
    let read = |p: &Path| {
        std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
    };
    let wanted = read(&requirements)? + &read(&no_deps)?;
    let stamp = venv.join("fairkit-requirements-test.txt");
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(wanted.as_str()) {
        step(
            "pip install the test requirements",
            Command::new(&python)
                .args(["-m", "pip", "install", "--disable-pip-version-check", "-r"])
                .arg(&requirements),
        )?;
        step(
            "pip install the test oracles without their dependency pins",
            Command::new(&python)
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--disable-pip-version-check",
                    "--no-deps",
                    "-r",
                ])
                .arg(&no_deps),
        )?;
        std::fs::write(&stamp, &wanted)
            .map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    }
    step(
        "build the fairkit package (maturin develop --release)",
        venv_command(&venv, "maturin")
            .args(["develop", "--release", "--manifest-path"])
            .arg(root.join("python/Cargo.toml"))
            .current_dir(root),
    )?;
    Ok(venv)
}

/// The Spark tests need a Java runtime: say so up front instead of failing inside pyspark.
fn check_java() -> Result<(), String> {
    if java_works() {
        return Ok(());
    }
    // A fresh machine may have no Java: install a headless runtime from the system package
    // manager (Debian/Ubuntu), as the README promises, then check again.
    if has_apt() {
        println!(
            "no Java runtime found: the Spark tests need Java 17+, installing one with apt-get"
        );
        step(
            "apt-get update",
            Command::new("apt-get").args(["update", "-qq"]),
        )?;
        step(
            "apt-get install openjdk-17-jre-headless",
            Command::new("apt-get")
                .args(["install", "-y", "-qq", "openjdk-17-jre-headless"])
                .env("DEBIAN_FRONTEND", "noninteractive"),
        )?;
        if java_works() {
            return Ok(());
        }
    }
    Err(
        "no Java runtime (`java -version` failed, and it could not be installed with apt-get): \
         the Spark tests (python/tests/test_spark*.py) need Java 17+; install one (e.g. \
         `apt-get install openjdk-17-jre-headless`) or set JAVA_HOME"
            .to_string(),
    )
}

/// The report pages' browser test needs a headless Chromium: install the Debian package when
/// none is found, and fail (never skip silently) when that is impossible, unless the user opted
/// out with `FAIRKIT_SKIP_BROWSER_TESTS=1`.
fn check_chromium() -> Result<(), String> {
    if std::env::var_os("FAIRKIT_SKIP_BROWSER_TESTS").is_some_and(|v| v == "1") {
        println!("FAIRKIT_SKIP_BROWSER_TESTS=1: the report pages' browser test is skipped");
        return Ok(());
    }
    if chromium_works() {
        return Ok(());
    }
    if has_apt() {
        println!(
            "no Chromium found: the report pages' browser test needs one, installing it with apt-get"
        );
        step(
            "apt-get update",
            Command::new("apt-get").args(["update", "-qq"]),
        )?;
        step(
            "apt-get install chromium",
            Command::new("apt-get")
                .args(["install", "-y", "-qq", "chromium"])
                .env("DEBIAN_FRONTEND", "noninteractive"),
        )?;
        if chromium_works() {
            return Ok(());
        }
    }
    Err(
        "no Chromium (`chromium --version` failed, and it could not be installed with apt-get): \
         the browser test of the report pages (python/tests/test_report_browser.py) needs one; \
         install it (`apt-get install chromium`), point FAIRKIT_CHROMIUM at one, or set \
         FAIRKIT_SKIP_BROWSER_TESTS=1 to skip that test locally"
            .to_string(),
    )
}

/// Whether `$FAIRKIT_CHROMIUM` (or `chromium` on the PATH) runs.
fn chromium_works() -> bool {
    let exe = std::env::var_os("FAIRKIT_CHROMIUM").unwrap_or_else(|| "chromium".into());
    Command::new(&exe)
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success())
}

/// Whether the system package manager is Debian's.
fn has_apt() -> bool {
    Command::new("apt-get")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether `$JAVA_HOME/bin/java` (or `java` on the PATH) runs.
fn java_works() -> bool {
    let java = match std::env::var_os("JAVA_HOME") {
        Some(home) => PathBuf::from(home).join("bin").join("java"),
        None => PathBuf::from("java"),
    };
    Command::new(&java)
        .arg("-version")
        .output()
        .is_ok_and(|out| out.status.success())
}

/// Runs `cmd`, streaming its output; an error names `what` and the command.
pub fn step(what: &str, cmd: &mut Command) -> Result<(), String> {
    println!("== {what} ==");
    let start = Instant::now();
    let status = cmd
        .status()
        .map_err(|e| format!("{what}: cannot start {:?}: {e}", cmd.get_program()))?;
    if !status.success() {
        return Err(format!("{what}: {cmd:?} exited with {status}"));
    }
    println!(
        "== {what}: ok in {:.1} s ==\n",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Cargo's target directory: `CARGO_TARGET_DIR` when set, else `<root>/target`.
pub fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                root.join(dir)
            }
        }
        None => root.join("target"),
    }
}

fn venv_bin(venv: &Path) -> PathBuf {
    venv.join(if cfg!(windows) { "Scripts" } else { "bin" })
}

fn venv_python(venv: &Path) -> PathBuf {
    venv_bin(venv).join(if cfg!(windows) {
        "python.exe"
    } else {
        "python"
    })
}

/// A command from the venv's bin directory, run as if the venv were activated (maturin finds
/// the venv through `VIRTUAL_ENV`).
pub fn venv_command(venv: &Path, program: &str) -> Command {
    let bin = venv_bin(venv);
    let mut cmd = Command::new(bin.join(program));
    let mut path = OsString::from(bin.as_os_str());
    if let Some(old) = std::env::var_os("PATH") {
        path.push(if cfg!(windows) { ";" } else { ":" });
        path.push(old);
    }
    cmd.env("VIRTUAL_ENV", venv).env("PATH", path);
    cmd
}
