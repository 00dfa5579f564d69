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

/// Settings shared by every experiment in one run.
pub struct Context {
    out: PathBuf,
    /// Quick mode: smaller grids and fewer iterations, for CI.
    pub quick: bool,
}

impl Context {
    pub fn new(out: PathBuf, quick: bool) -> Self {
        Self { out, quick }
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
