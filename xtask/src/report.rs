//! Where experiments write their reports (markdown, JSON, the SVGs fair-report draws), and the
//! task runner's error type.

use std::path::{Path, PathBuf};

/// Group membership errors ([`fair_data::Groups`] lives in `fair-core`) are data errors.
impl From<fair_data::GroupsError> for XtaskError {
    fn from(e: fair_data::GroupsError) -> Self {
        XtaskError::Data(e.into())
    }
}

/// Errors of the task runner: each experiment's own failures, converted at the boundary.
#[derive(Debug, thiserror::Error)]
pub enum XtaskError {
    /// Data loading or preparation failed.
    #[error(transparent)]
    Data(#[from] fair_data::DataError),
    /// A metric rejected its input.
    #[error(transparent)]
    Metric(#[from] fair_metrics::MetricError),
    /// FairProjection rejected its input or broke down.
    #[error(transparent)]
    InfoProjection(#[from] info_projection::InfoProjectionError),
    /// The fair SVM failed.
    #[error(transparent)]
    FairSvm(#[from] fair_svm::FairSvmError),
    /// Fair PCA (or one of its baselines) rejected its input or failed numerically.
    #[error(transparent)]
    FairPca(#[from] fair_pca::FairPcaError),
    /// The game-opt solver rejected its input or failed.
    #[error(transparent)]
    GameOpt(#[from] game_opt::GameOptError),
    /// Writing a report failed.
    #[error("writing {path}: {source}")]
    Io {
        /// The file being written.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A model could not be trained.
    #[error("training {model} failed: {reason}")]
    Training {
        /// Which model.
        model: &'static str,
        /// Why.
        reason: String,
    },
    /// Drawing a chart failed.
    #[error(transparent)]
    Report(#[from] fair_report::ReportError),
}

/// Result alias of the task runner.
pub type Result<T> = std::result::Result<T, XtaskError>;

/// Which single section an `idca` run reproduces (`--idca-only`); the main report is left alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum IdcaOnly {
    /// The unconstrained model and model (49); writes `idca-gauc.{md,json}`.
    Gauc,
    /// The unconstrained model and Table 4's |Î| = 10 rows by the paper's protocol; writes
    /// `idca-table4.{md,json}` and its frontier SVGs.
    Table4,
}

/// Run modes of single experiments (flags of `cargo xtask repro`); the defaults reproduce the
/// committed reports.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct RunOptions {
    /// idca: run only one section and write its own report (`gauc`: model (49) →
    /// idca-gauc.{md,json}; `table4`: Table 4's |Î| = 10 rows → idca-table4.{md,json,svg}).
    #[arg(long, value_enum, value_name = "SECTION")]
    pub idca_only: Option<IdcaOnly>,
    /// idca: the paper's G.2.2 tuning protocol for every (15)/(21) fit, not only Table 4's rows.
    #[arg(long)]
    pub idca_tune: bool,
    /// mitigation: report from this raw JSON of an earlier run (skips the dataset export and the
    /// Python benchmark).
    #[arg(long, value_name = "FILE")]
    pub mitigation_raw: Option<PathBuf>,
    /// mitigation: use the existing venv, without the pip / maturin step.
    #[arg(long)]
    pub mitigation_no_build: bool,
}

/// Settings shared by every experiment in one run.
pub struct Context {
    out: PathBuf,
    /// Quick mode: smaller grids and fewer iterations, for CI.
    pub quick: bool,
    /// Run modes of single experiments.
    pub options: RunOptions,
}

impl Context {
    pub fn new(out: PathBuf, quick: bool, options: RunOptions) -> Self {
        Self {
            out,
            quick,
            options,
        }
    }

    /// `<out>/<file>`, creating the directory.
    pub fn path(&self, file: &str) -> Result<PathBuf> {
        std::fs::create_dir_all(&self.out).map_err(|source| XtaskError::Io {
            path: self.out.clone(),
            source,
        })?;
        Ok(self.out.join(file))
    }

    /// Writes a text file under the output directory and says where.
    pub fn write(&self, file: &str, contents: &str) -> Result<PathBuf> {
        let path = self.path(file)?;
        write_file(&path, contents)?;
        println!("wrote {}", path.display());
        Ok(path)
    }

    /// Writes an SVG drawn by fair-report under the output directory and says where.
    pub fn write_svg(&self, file: &str, svg: String) -> Result<()> {
        self.write(file, &svg).map(|_| ())
    }
}

pub fn write_file(path: &Path, contents: &str) -> Result<()> {
    std::fs::write(path, contents).map_err(|source| XtaskError::Io {
        path: path.to_path_buf(),
        source,
    })
}
