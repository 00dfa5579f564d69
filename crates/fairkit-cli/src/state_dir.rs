//! `--state-dir`: the audit's mergeable count state kept between runs, so a daily job audits
//! only the new day's file and merges it into everything seen before (`--by day` then covers
//! every day). The directory holds `state.bin` (the exact [`AuditState`] bytes: merging the
//! saved state with a new file's gives the same numbers as auditing all the rows at once) and
//! `state.json` (which columns and labels built it, and every input appended).
//!
//! A run refuses a state built from other columns or labels, and an input appended before (the
//! same file with the same size and modification time), so a rerun of the same job does not
//! count a day twice. Scores are not kept: the exact score metrics keep every score, which grows
//! with the rows; audit scores over all rows in one run.

use crate::cli::AuditArgs;
use crate::error::CliError;
use fair_audit::ingest::{AuditState, FlagStyle};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

const STATE_FILE: &str = "state.bin";
const MANIFEST_FILE: &str = "state.json";
const SCHEMA: &str = "fairkit-audit-state";

/// What built a saved state: the columns and labels a new run must match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Build {
    /// `--label`.
    pub label: String,
    /// `--pred`.
    pub pred: Option<String>,
    /// `--sensitive`.
    pub sensitive: Vec<String>,
    /// `--by`.
    pub by: Option<String>,
    /// `--against`.
    pub against: Option<String>,
    /// `--weight`.
    pub weight: Option<String>,
    /// `--pos-label`.
    pub pos_label: String,
    /// `--threshold` values (each a prediction source of the state).
    pub thresholds: Vec<f64>,
    /// `--timezone` (it moves zoned timestamps between days, so states of two zones differ).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timezone: Option<String>,
    /// `--unknowns` (as-group and exclude build different states; absent for the default,
    /// error, so a manifest written before the option still matches).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unknowns: Option<String>,
    /// `--unknown-values`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown_values: Vec<String>,
}

impl Build {
    /// The build of this run's flags.
    pub fn of(args: &AuditArgs) -> Self {
        Self {
            label: args.label.clone(),
            pred: args.pred.clone(),
            sensitive: args.sensitive.clone(),
            by: args.by.clone(),
            against: args.against.clone(),
            weight: args.weight.clone(),
            pos_label: args.pos_label.clone(),
            thresholds: args.threshold.clone(),
            timezone: args.timezone.clone(),
            unknowns: (args.unknowns != fair_audit::ingest::Unknowns::Error)
                .then(|| args.unknowns.to_string()),
            unknown_values: args.unknown_values.clone(),
        }
    }
}

/// One input file (or folder of part files) of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputFile {
    /// The path as given on the command line, made absolute.
    pub path: String,
    /// Its size in bytes (a folder: the sum over its files).
    pub bytes: u64,
    /// Its modification time, seconds since the Unix epoch (a folder: the latest of its files).
    pub modified: u64,
}

/// One run that appended rows to the state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    /// Its inputs.
    pub inputs: Vec<InputFile>,
    /// Rows it added.
    pub rows: u64,
}

/// `state.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always `fairkit-audit-state`.
    pub schema: String,
    /// 1.
    pub version: u32,
    /// The columns and labels.
    pub build: Build,
    /// Every run that appended rows, oldest first.
    pub runs: Vec<Run>,
}

impl Manifest {
    /// Rows of every run.
    pub fn rows(&self) -> u64 {
        self.runs.iter().map(|r| r.rows).sum()
    }
}

fn bad(dir: &Path, reason: String) -> CliError {
    CliError::InvalidFlag {
        flag: "--state-dir",
        value: dir.display().to_string(),
        expected: reason,
    }
}

/// Refuses flags a state cannot keep.
///
/// # Errors
/// [`CliError::InvalidFlag`] with `--score`.
pub fn check_flags(args: &AuditArgs) -> Result<(), CliError> {
    match (&args.state_dir, &args.score) {
        (Some(dir), Some(_)) => Err(bad(
            dir,
            "a state of counts: the exact score metrics keep every score, which grows with the rows; drop --score (or audit the scores of all rows in one run without --state-dir)".into(),
        )),
        _ => Ok(()),
    }
}

/// The fingerprint of one input path (file or folder of part files).
fn fingerprint(path: &Path) -> Result<(u64, u64), CliError> {
    let io = |source| CliError::Write {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    let of = |m: &std::fs::Metadata| {
        let t = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_secs());
        (m.len(), t)
    };
    if !meta.is_dir() {
        return Ok(of(&meta));
    }
    let mut total = (0, 0);
    for entry in std::fs::read_dir(path).map_err(io)? {
        let m = entry.map_err(io)?.metadata().map_err(io)?;
        let (b, t) = of(&m);
        total = (total.0 + b, total.1.max(t));
    }
    Ok(total)
}

/// The inputs of this run as they will be recorded.
///
/// # Errors
/// [`CliError::Write`] when an input's metadata cannot be read (a pattern that is not a path is
/// recorded by its text with size and time 0).
pub fn inputs_of(args: &AuditArgs) -> Result<Vec<InputFile>, CliError> {
    args.input
        .iter()
        .map(|p| {
            let (path, (bytes, modified)) = match std::fs::canonicalize(p) {
                Ok(abs) => {
                    let f = fingerprint(&abs)?;
                    (abs, f)
                }
                Err(_) => (p.clone(), (0, 0)),
            };
            Ok(InputFile {
                path: path.display().to_string(),
                bytes,
                modified,
            })
        })
        .collect()
}

/// Loads the saved state of `dir`, if any, checking it was built like this run and has not
/// seen this run's inputs.
///
/// # Errors
/// [`CliError::InvalidFlag`] naming what differs, or the input appended before; the state's
/// own decoding errors.
pub fn load(
    dir: &Path,
    build: &Build,
    inputs: &[InputFile],
) -> Result<Option<(AuditState, Manifest)>, CliError> {
    let (state_path, manifest_path) = (dir.join(STATE_FILE), dir.join(MANIFEST_FILE));
    if !manifest_path.exists() && !state_path.exists() {
        return Ok(None);
    }
    let (state, manifest) = read(dir)?;
    if manifest.build != *build {
        return Err(bad(
            dir,
            format!(
                "the columns and labels that built it: {}; this run has {}. Use another --state-dir for another audit",
                describe(&manifest.build),
                describe(build)
            ),
        ));
    }
    for new in inputs {
        if let Some((k, run)) = manifest
            .runs
            .iter()
            .enumerate()
            .find(|(_, r)| r.inputs.contains(new))
        {
            return Err(bad(
                dir,
                format!(
                    "new inputs only: {} was appended before (run {} of {}, {} rows; same size and modification time), and auditing it again would count its rows twice",
                    new.path,
                    k + 1,
                    manifest.runs.len(),
                    run.rows
                ),
            ));
        }
    }
    Ok(Some((state, manifest)))
}

/// Whether `dir` holds a saved state (its `state.json`).
pub fn is_state_dir(dir: &Path) -> bool {
    dir.join(MANIFEST_FILE).is_file()
}

/// Reads the saved state of `dir` and its manifest.
///
/// # Errors
/// [`CliError::InvalidFlag`] for a missing, unreadable or corrupt state.
pub fn read(dir: &Path) -> Result<(AuditState, Manifest), CliError> {
    let (state_path, manifest_path) = (dir.join(STATE_FILE), dir.join(MANIFEST_FILE));
    let text = std::fs::read_to_string(&manifest_path).map_err(|e| {
        bad(
            dir,
            format!("a state directory with a readable {MANIFEST_FILE} ({e})"),
        )
    })?;
    let manifest: Manifest = serde_json::from_str(&text)
        .map_err(|e| bad(dir, format!("a {MANIFEST_FILE} written by fairkit ({e})")))?;
    if manifest.schema != SCHEMA || manifest.version != 1 {
        return Err(bad(
            dir,
            format!(
                "a state of schema {SCHEMA} version 1, not {} version {}",
                manifest.schema, manifest.version
            ),
        ));
    }
    let bytes = std::fs::read(&state_path)
        .map_err(|e| bad(dir, format!("a state directory with {STATE_FILE} ({e})")))?;
    let state = AuditState::from_bytes(&bytes).map_err(|e| {
        bad(
            dir,
            format!("an intact {STATE_FILE} ({e}); delete the directory to start over"),
        )
    })?;
    Ok((state, manifest))
}

/// The audit report of a saved state: every row appended, the `--by` / `--against`
/// column dropped (the audit of all rows), with `stats` — what `fairkit compare` reads of a
/// state directory.
///
/// # Errors
/// [`CliError`] for an unreadable state or a report that cannot be built.
pub fn report(
    dir: &Path,
    stats: fair_audit::Stats,
) -> Result<fair_audit::model::AuditReport, CliError> {
    let (state, manifest) = read(dir)?;
    let b = &manifest.build;
    let all = if b.by.is_some() || b.against.is_some() {
        fair_audit::over_time::without_window(&state)
    } else {
        state
    };
    // The report of the saved counts goes through the one audit path; the saved audit already
    // passed the group guard, so its limits are lifted here (as before: no guard on a state).
    let request = fair_audit::AuditRequest {
        label: b.label.clone(),
        pred: b.pred.clone(),
        weight: b.weight.clone(),
        sensitive: b.sensitive.clone(),
        confidence: stats.confidence,
        ci_method: stats.method,
        resamples: stats.resamples,
        seed: stats.seed,
        min_group_size: stats.min_group_size,
        max_groups: Some(usize::MAX),
        allow_single_group: true,
        thresholds: b.thresholds.clone(),
        formats: vec![fair_audit::ReportFormat::Json],
        ..fair_audit::AuditRequest::default()
    };
    let request = fair_core::ParamGuard::check(request).map_err(|e| CliError::InvalidFlag {
        flag: e.flag(),
        value: e.value,
        expected: e.expected,
    })?;
    let origin = fair_audit::Origin {
        file: format!("{} ({} runs)", dir.display(), manifest.runs.len()),
        format: "state".into(),
        rows: manifest.rows(),
        positive_label: all.positive().to_string(),
        negative_label: all.negative().map(str::to_string),
    };
    let inputs = fair_audit::Inputs {
        states: fair_audit::States {
            all_rows: &all,
            by: None,
            against: None,
        },
        scores: None::<fair_audit::NoScores>,
        origin,
        regression: None,
        inferred: None,
        ranking: None,
    };
    let fair_audit::Audit { report, charts } =
        fair_audit::run(&request, inputs, fair_audit::ingest::FlagStyle::Command)?;
    let views = fair_audit::Views {
        json: true,
        markdown: false,
        html: false,
    };
    let text = fair_audit::render(&report, &charts, views)?;
    let json = text.json.unwrap_or_default();
    serde_json::from_str(&json)
        .map_err(|e| CliError::Audit(fair_audit::AuditError::Json(e.to_string())))
}

fn describe(b: &Build) -> String {
    format!(
        "--label {} --pred {} --sensitive {} --by {} --against {} --weight {} --pos-label {} --threshold {:?}",
        b.label,
        b.pred.as_deref().unwrap_or("-"),
        b.sensitive.join(","),
        b.by.as_deref().unwrap_or("-"),
        b.against.as_deref().unwrap_or("-"),
        b.weight.as_deref().unwrap_or("-"),
        b.pos_label,
        b.thresholds
    )
}

/// Merges this run's `state` into the saved one (if any): the state of every row appended, and
/// the runs before this one.
///
/// # Errors
/// The merge's error (e.g. the saved rows learned another negative label).
pub fn merge(
    saved: Option<(AuditState, Manifest)>,
    state: &AuditState,
) -> Result<(AuditState, Vec<Run>), CliError> {
    match saved {
        None => Ok((state.clone(), Vec::new())),
        Some((mut merged, manifest)) => {
            merged
                .merge(state, FlagStyle::Command)
                .map_err(|e| CliError::Input(e.into()))?;
            Ok((merged, manifest.runs))
        }
    }
}

/// Writes the state and its manifest (each to a temporary file renamed into place, so a crash
/// leaves the previous state whole).
///
/// # Errors
/// [`CliError::Write`].
pub fn save(dir: &Path, state: &AuditState, manifest: &Manifest) -> Result<(), CliError> {
    let write = |name: &str, bytes: &[u8]| -> Result<(), CliError> {
        let path: PathBuf = dir.join(name);
        let tmp = dir.join(format!(".{name}.tmp"));
        let fail = |source| CliError::Write {
            path: path.clone(),
            source,
        };
        std::fs::write(&tmp, bytes).map_err(fail)?;
        std::fs::rename(&tmp, &path).map_err(fail)
    };
    std::fs::create_dir_all(dir).map_err(|source| CliError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    let json = serde_json::to_string_pretty(manifest).map_err(|e| CliError::Write {
        path: dir.join(MANIFEST_FILE),
        source: std::io::Error::other(e),
    })?;
    write(STATE_FILE, &state.to_bytes())?;
    write(MANIFEST_FILE, json.as_bytes())
}

/// The manifest after this run.
pub fn manifest(build: Build, runs: Vec<Run>) -> Manifest {
    Manifest {
        schema: SCHEMA.into(),
        version: 1,
        build,
        runs,
    }
}
