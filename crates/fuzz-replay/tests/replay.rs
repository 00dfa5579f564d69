//! Every fuzz target of `fuzz/fuzz_targets/` (issue 18, docs/reliability.md), compiled on stable
//! from its own source file and run on each committed regression input of
//! `fuzz/regressions/<target>/`, decoded exactly as libFuzzer decoded it (the `libfuzzer_sys`
//! these files import is the replay shim, `libfuzzer-shim/`). A reproducer that panics, breaks an
//! invariant the target asserts, or runs longer than [`TIMEOUT`] fails its target's test with
//! the file's name. To keep a new reproducer fixed, drop the file in `fuzz/regressions/<target>/`.
//!
//! Targets with no committed reproducer yet still run on a few fixed pseudo-random inputs
//! ([`seeded_inputs`]), so each body is compiled and exercised on stable; so do the others.

use libfuzzer_sys::Corpus;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

// The target files are crate roots under cargo-fuzz (`#![no_main]`), modules here. The fuzz crate
// is not linted with the workspace; its two clippy style findings are allowed on their modules
// rather than edited, so the files stay exactly what the fuzzer builds.
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/cli_csv.rs"]
mod cli_csv;
#[allow(unused_attributes, clippy::collapsible_if)]
#[path = "../../../fuzz/fuzz_targets/cli_parquet.rs"]
mod cli_parquet;
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/fair_projection.rs"]
mod fair_projection;
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/groups.rs"]
mod groups;
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/metrics.rs"]
mod metrics;
#[allow(unused_attributes, clippy::needless_range_loop)]
#[path = "../../../fuzz/fuzz_targets/partitioned.rs"]
mod partitioned;
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/rate_constraints.rs"]
mod rate_constraints;
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/saved_classifier.rs"]
mod saved_classifier;
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/saved_cross_model.rs"]
mod saved_cross_model;
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/saved_fair_svm.rs"]
mod saved_fair_svm;
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/saved_projection.rs"]
mod saved_projection;
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/saved_wasserstein.rs"]
mod saved_wasserstein;
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/state_bytes.rs"]
mod state_bytes;

/// Every target's replay, by the name of its file and of its regression directory.
const TARGETS: [(&str, Replay); 13] = [
    ("cli_csv", cli_csv::replay),
    ("cli_parquet", cli_parquet::replay),
    ("fair_projection", fair_projection::replay),
    ("groups", groups::replay),
    ("metrics", metrics::replay),
    ("partitioned", partitioned::replay),
    ("rate_constraints", rate_constraints::replay),
    ("saved_classifier", saved_classifier::replay),
    ("saved_cross_model", saved_cross_model::replay),
    ("saved_fair_svm", saved_fair_svm::replay),
    ("saved_projection", saved_projection::replay),
    ("saved_wasserstein", saved_wasserstein::replay),
    ("state_bytes", state_bytes::replay),
];

type Replay = fn(&[u8]) -> Option<Corpus>;

/// Longest a single input may run. The nightly smoke pass gives libFuzzer 10 s per input on an
/// optimised build; this debug build of the workspace crates is several times slower, and every
/// committed input takes well under a second when its fix is in.
const TIMEOUT: Duration = Duration::from_secs(60);

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files of `fuzz/regressions/<target>/`, sorted (none when the directory does not exist).
fn regression_files(target: &str) -> Vec<PathBuf> {
    let dir = fuzz_dir().join("regressions").join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Inputs at least this long always reach a target's body (none has a larger `size_hint` lower
/// bound, and `arbitrary_take_rest` does not fail on these types).
const DECODES_FROM: usize = 64;

/// Forty fixed pseudo-random byte strings (splitmix64 from a fixed seed; lengths i² for i < 40,
/// so 0 to 1,521 bytes), the same on every run and platform.
fn seeded_inputs() -> Vec<(String, Vec<u8>)> {
    let mut state: u64 = 0x5EED_F022;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    (0..40usize)
        .map(|i| {
            let len = i * i;
            let bytes = (0..len).map(|_| next() as u8).collect();
            (format!("seeded input of {len} bytes"), bytes)
        })
        .collect()
}

/// Runs `replay` on `bytes` in a thread named `name` (so a panic message names the input), and
/// says how it ended: `Ok` with whether the body ran, or `Err` with the failure.
fn run_one(name: &str, bytes: Vec<u8>, replay: Replay) -> Result<bool, String> {
    let (done, finished) = mpsc::channel();
    let started = Instant::now();
    let worker = thread::Builder::new()
        .name(name.to_string())
        .spawn(move || {
            let outcome = replay(&bytes);
            // The receiver is gone only after a timeout, which is reported already.
            let _ = done.send(outcome);
        })
        .expect("spawn replay thread");
    match finished.recv_timeout(TIMEOUT) {
        Ok(outcome) => {
            worker.join().expect("the thread sent its outcome");
            Ok(outcome.is_some())
        }
        Err(mpsc::RecvTimeoutError::Timeout) => Err(format!(
            "{name}: still running after {:.0?} (a hang; libFuzzer reports it as a timeout)",
            started.elapsed()
        )),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            let payload = worker
                .join()
                .expect_err("the thread ended without an outcome");
            let message = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("(non-text panic payload)");
            Err(format!("{name}: panicked: {message}"))
        }
    }
}

/// Replays every regression file of `target`, then the seeded inputs, and fails naming each input
/// that failed. A regression file must reach the target's body (a file libFuzzer would discard
/// before the body tests nothing).
fn replay_target(target: &str) {
    let replay = TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .map(|(_, r)| *r)
        .expect("a known target");
    let mut failures = Vec::new();
    for file in regression_files(target) {
        let name = format!(
            "fuzz/regressions/{target}/{}",
            file.file_name().expect("a file name").to_string_lossy()
        );
        let bytes = std::fs::read(&file).expect("readable regression file");
        match run_one(&name, bytes, replay) {
            Ok(true) => {}
            Ok(false) => failures.push(format!(
                "{name}: libFuzzer's decoding rejects it, so the body never runs (is it in the \
                 right target's directory?)"
            )),
            Err(e) => failures.push(e),
        }
    }
    for (name, bytes) in seeded_inputs() {
        let long = bytes.len() >= DECODES_FROM;
        match run_one(&format!("{target}: {name}"), bytes, replay) {
            Ok(false) if long => failures.push(format!("{target}: {name}: the body never ran")),
            Ok(_) => {}
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cli_csv_replays() {
    replay_target("cli_csv");
    // The target writes its file next to the process's other scratch files; remove it.
    let _ = std::fs::remove_file(fairkit_fuzz::scratch("csv"));
}

#[test]
fn cli_parquet_replays() {
    replay_target("cli_parquet");
    let _ = std::fs::remove_file(fairkit_fuzz::scratch("parquet"));
}

#[test]
fn fair_projection_replays() {
    replay_target("fair_projection");
}

#[test]
fn groups_replays() {
    replay_target("groups");
}

#[test]
fn metrics_replays() {
    replay_target("metrics");
}

#[test]
fn partitioned_replays() {
    replay_target("partitioned");
}

#[test]
fn rate_constraints_replays() {
    replay_target("rate_constraints");
}

#[test]
fn saved_classifier_replays() {
    replay_target("saved_classifier");
}

#[test]
fn saved_cross_model_replays() {
    replay_target("saved_cross_model");
}

#[test]
fn saved_fair_svm_replays() {
    replay_target("saved_fair_svm");
}

#[test]
fn saved_projection_replays() {
    replay_target("saved_projection");
}

#[test]
fn state_bytes_replays() {
    replay_target("state_bytes");
}

/// Every file of `fuzz/fuzz_targets/` is replayed here, and every directory of
/// `fuzz/regressions/` belongs to one of them (a misspelt directory would be skipped silently).
#[test]
fn every_target_and_regression_directory_is_covered() {
    let known: Vec<&str> = TARGETS.iter().map(|(name, _)| *name).collect();
    let names = |dir: &str| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(fuzz_dir().join(dir))
            .expect("the fuzz directory")
            .map(|e| e.expect("readable entry").path())
            .map(|p| {
                p.file_stem()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        names("fuzz_targets"),
        known,
        "add a module and a test for the new target"
    );
    for dir in names("regressions") {
        assert!(
            known.contains(&dir.as_str()),
            "fuzz/regressions/{dir}/ is not a fuzz target"
        );
        assert!(
            !regression_files(&dir).is_empty(),
            "fuzz/regressions/{dir}/ is empty"
        );
    }
}

/// The replay decodes with the same `arbitrary` as the fuzzer, else a regression file could map
/// to a different input than the one that failed.
#[test]
fn arbitrary_matches_the_fuzzers() {
    fn arbitrary_version(lock: &str) -> Option<&str> {
        let at = lock.find("name = \"arbitrary\"\nversion = \"")?;
        let rest = &lock[at + "name = \"arbitrary\"\nversion = \"".len()..];
        rest.split('"').next()
    }
    let ours = include_str!("../../../Cargo.lock");
    let fuzzers = include_str!("../../../fuzz/Cargo.lock");
    assert_eq!(
        arbitrary_version(ours),
        arbitrary_version(fuzzers),
        "align `arbitrary` in Cargo.lock and fuzz/Cargo.lock"
    );
    assert!(arbitrary_version(ours).is_some());
}
