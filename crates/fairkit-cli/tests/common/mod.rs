//! Helpers of the integration tests: run the binary, write small files in a temp dir.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Exit code, stdout and stderr of one run.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `fairkit` with `args`.
pub fn fairkit(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_fairkit"))
        .args(args)
        .output()
        .expect("the fairkit binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Writes `text` to `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// A small valid CSV: two groups with different selection rates.
pub const GOOD_CSV: &str = "\
y,y_hat,p,sex,w
1,1,0.9,f,1.0
0,1,0.6,f,1.0
1,0,0.4,f,2.0
0,0,0.1,f,1.0
1,1,0.8,m,1.0
0,0,0.3,m,1.5
1,1,0.7,m,1.0
0,0,0.2,m,1.0
";

/// Audits `file` with the standard columns of [`GOOD_CSV`] plus `extra` flags.
pub fn audit(file: &Path, out: &Path, extra: &[&str]) -> Run {
    let mut args = vec![
        "audit",
        file.to_str().unwrap(),
        "--label",
        "y",
        "--sensitive",
        "sex",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    fairkit(&args)
}

/// Parses `dir/report.json`, checking on the way that the typed model reads it back to the
/// same bytes (every report the tests write is a round-trip case).
pub fn report(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("report.json")).expect("report.json written");
    let typed = fair_audit::model::AuditReport::from_json(&text).expect("report.json reads typed");
    assert!(
        serde_json::to_string_pretty(&typed).unwrap() == text,
        "{} does not round-trip through AuditReport",
        dir.display()
    );
    serde_json::from_str(&text).expect("report.json parses")
}

/// A seeded demo file (`fairkit demo-data --seed 7`) of `rows` rows, with `extra` flags.
pub fn demo(dir: &Path, name: &str, rows: &str, extra: &[&str]) -> PathBuf {
    let f = dir.join(name);
    let mut args = vec![
        "demo-data",
        "--rows",
        rows,
        "--seed",
        "7",
        "--out",
        f.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let r = fairkit(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    f
}
