//! Where experiments write: markdown tables, JSON headline figures, SVG plots.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

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
    /// Plotting failed.
    #[error("plotting {path}: {reason}")]
    Plot {
        /// The SVG being drawn.
        path: PathBuf,
        /// Why.
        reason: String,
    },
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
}

pub fn write_file(path: &Path, contents: &str) -> Result<()> {
    std::fs::write(path, contents).map_err(|source| XtaskError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// A markdown table built row by row.
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(header: &[&str]) -> Self {
        Self {
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "| {} |", self.header.join(" | "));
        let _ = writeln!(s, "|{}", "---|".repeat(self.header.len()));
        for r in &self.rows {
            let _ = writeln!(s, "| {} |", r.join(" | "));
        }
        s
    }

    /// Fixed-width text for the terminal.
    pub fn plain(&self) -> String {
        let n = self.header.len();
        let widths: Vec<usize> = (0..n)
            .map(|j| {
                self.rows
                    .iter()
                    .map(|r| r.get(j).map_or(0, |c| c.chars().count()))
                    .chain(std::iter::once(self.header[j].chars().count()))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: &[String]| {
            cells
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:>w$}"))
                .collect::<Vec<_>>()
                .join("  ")
        };
        let mut s = line(&self.header);
        s.push('\n');
        for r in &self.rows {
            s.push_str(&line(r));
            s.push('\n');
        }
        s
    }
}

/// A figure with 4 decimals, or "–" when undefined.
pub fn fmt4(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |x| format!("{x:.4}"))
}
