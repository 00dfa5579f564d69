//! λ by k-fold cross-validation of the plain SVM, maximising AUC (the paper's protocol, §6.2).

use crate::error::{FairSvmError, Result, invalid};
use crate::input::signs_from_classes;
use crate::params::SpectralFairSvmParams;
use fair_data::Groups;
use fair_metrics::roc::roc_auc;
use nalgebra::DMatrix;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Chooses λ for the plain linear SVM by stratified k-fold cross-validation, maximising the
/// mean held-out AUC. The paper then reuses this λ for the mean-constrained and spectral SVMs
/// "to minimize the impact of cross-validation on the comparison".
///
/// Folds: each class's rows are shuffled with `ChaCha8Rng::seed_from_u64(seed)` and dealt round
/// robin into the folds. Ties in mean AUC go to the earlier grid entry.
///
/// | Name | Default | Range |
/// |---|---|---|
/// | `grid` | (required) | non-empty, each finite > 0 |
/// | `folds` | 5 | ≥ 2, ≤ rows of the smaller class |
/// | `seed` | 0 | any |
///
/// # Examples
/// ```
/// use fair_svm::LambdaSearch;
/// use nalgebra::DMatrix;
/// let x = DMatrix::from_fn(40, 1, |i, _| i as f64 / 40.0 + if i % 2 == 0 { 0.3 } else { 0.0 });
/// let y: Vec<usize> = (0..40).map(|i| usize::from(i % 2 == 0)).collect();
/// let cv = LambdaSearch::new(vec![0.001, 0.1, 10.0]).folds(4).seed(1).run(&x, &y)?;
/// assert_eq!(cv.mean_auc.len(), 3);
/// assert!(cv.best_auc >= cv.mean_auc[2]);
/// # Ok::<(), fair_svm::FairSvmError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct LambdaSearch {
    grid: Vec<f64>,
    folds: usize,
    seed: u64,
}

/// What [`LambdaSearch::run`] measured.
#[derive(Debug, Clone, PartialEq)]
pub struct LambdaSearchResult {
    /// The grid, in the order given.
    pub lambdas: Vec<f64>,
    /// Mean held-out AUC per grid entry.
    pub mean_auc: Vec<f64>,
    /// The λ with the largest mean AUC.
    pub best_lambda: f64,
    /// Its mean AUC.
    pub best_auc: f64,
}

impl LambdaSearch {
    /// A search over `grid` with 5 folds and seed 0.
    pub fn new(grid: Vec<f64>) -> Self {
        Self {
            grid,
            folds: 5,
            seed: 0,
        }
    }
    /// Number of folds.
    pub fn folds(mut self, folds: usize) -> Self {
        self.folds = folds;
        self
    }
    /// Seed of the fold assignment.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Runs the search on features `x` and 0/1 class labels `y` (class 1 is positive).
    ///
    /// # Errors
    /// [`FairSvmError::InvalidParam`] for an empty grid, a grid value outside `(0, ∞)` or a fold
    /// count outside `2..=(rows of the smaller class)`; the input errors of
    /// [`crate::SpectralFairSvmValidParams::fit`].
    pub fn run(&self, x: &DMatrix<f64>, y: &[usize]) -> Result<LambdaSearchResult> {
        if self.grid.is_empty() {
            return Err(invalid("grid", "[]", "at least one λ"));
        }
        if let Some(&bad) = self.grid.iter().find(|l| !(l.is_finite() && **l > 0.0)) {
            return Err(invalid("grid", bad, "finite values > 0"));
        }
        if y.len() != x.nrows() {
            return Err(FairSvmError::LengthMismatch {
                what: "y",
                expected: x.nrows(),
                got: y.len(),
            });
        }
        let signs = signs_from_classes(y)?;
        let mut pos: Vec<usize> = (0..y.len()).filter(|&i| signs[i] > 0.0).collect();
        let mut neg: Vec<usize> = (0..y.len()).filter(|&i| signs[i] < 0.0).collect();
        let smaller = pos.len().min(neg.len());
        if self.folds < 2 || self.folds > smaller {
            return Err(invalid(
                "folds",
                self.folds,
                "between 2 and the number of rows of the smaller class",
            ));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        pos.shuffle(&mut rng);
        neg.shuffle(&mut rng);
        let mut fold_of = vec![0; y.len()];
        for (k, &i) in pos.iter().enumerate() {
            fold_of[i] = k % self.folds;
        }
        for (k, &i) in neg.iter().enumerate() {
            fold_of[i] = k % self.folds;
        }
        let mut mean_auc = Vec::with_capacity(self.grid.len());
        for &lambda in &self.grid {
            let params = SpectralFairSvmParams::plain().lambda(lambda);
            let mut total = 0.0;
            for f in 0..self.folds {
                let train: Vec<usize> = (0..y.len()).filter(|&i| fold_of[i] != f).collect();
                let test: Vec<usize> = (0..y.len()).filter(|&i| fold_of[i] == f).collect();
                let xt = x.select_rows(&train);
                let yt: Vec<usize> = train.iter().map(|&i| y[i]).collect();
                // The plain SVM ignores the groups; any two non-empty groups pass the checks.
                let codes = (0..train.len()).map(|k| usize::from(k % 2 == 0)).collect();
                let zt = Groups::new(codes, vec!["odd".into(), "even".into()])?;
                let model = params.fit(&xt, &yt, &zt)?;
                let scores: Vec<f64> = model
                    .decision_function(&x.select_rows(&test))?
                    .iter()
                    .copied()
                    .collect();
                let labels: Vec<usize> = test.iter().map(|&i| y[i]).collect();
                total += roc_auc(&labels, &scores, None)?;
            }
            mean_auc.push(total / self.folds as f64);
        }
        let mut best = 0;
        for (i, &a) in mean_auc.iter().enumerate() {
            if a > mean_auc[best] {
                best = i;
            }
        }
        Ok(LambdaSearchResult {
            lambdas: self.grid.clone(),
            best_lambda: self.grid[best],
            best_auc: mean_auc[best],
            mean_auc,
        })
    }
}
