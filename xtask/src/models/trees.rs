//! Tree base models on smartcore 0.7 (pure Rust): a probability random forest and a
//! second-order gradient-boosting machine. Both seeded; smartcore's trees are single-threaded,
//! so results do not depend on the thread count.
//!
//! * Random forest: smartcore's `RandomForestClassifier` returns only majority votes, so the
//!   forest is its `RandomForestRegressor` on the class indicators `1{y = k}` (a "probability
//!   forest", Malley et al. 2012): each leaf predicts a class frequency, the forest averages
//!   them. One forest for binary problems, one per class (renormalised) otherwise.
//! * Gradient boosting: log loss (binary) or softmax loss (C > 2, one tree per class and
//!   round), each tree a smartcore `DecisionTreeRegressor` fitted to `−g/h` with weights `h`,
//!   so its leaves hold the Newton step `−Σg/Σh` (as XGBoost without its penalties), scaled
//!   by the learning rate.

use crate::report::{Result, XtaskError};
use nalgebra::DMatrix;
use smartcore::ensemble::random_forest_regressor::{
    RandomForestRegressor, RandomForestRegressorParameters,
};
use smartcore::linalg::basic::matrix::DenseMatrix;
use smartcore::tree::decision_tree_regressor::{
    DecisionTreeRegressor, DecisionTreeRegressorParameters,
};

type Tree = DecisionTreeRegressor<f64, f64, DenseMatrix<f64>, Vec<f64>>;
type Forest = RandomForestRegressor<f64, f64, DenseMatrix<f64>, Vec<f64>>;

fn fail(model: &'static str) -> impl Fn(smartcore::error::Failed) -> XtaskError {
    move |e| XtaskError::Training {
        model,
        reason: e.to_string(),
    }
}

fn dense(x: &DMatrix<f64>, model: &'static str) -> Result<DenseMatrix<f64>> {
    DenseMatrix::new(x.nrows(), x.ncols(), x.as_slice().to_vec(), true).map_err(fail(model))
}

/// Targets of the per-class models: class 1 only for two classes, every class otherwise.
fn targets(c: usize) -> Vec<usize> {
    if c == 2 { vec![1] } else { (0..c).collect() }
}

/// Random-forest settings.
#[derive(Debug, Clone, Copy)]
pub struct ForestParams {
    pub n_trees: usize,
    pub max_depth: u16,
    pub min_samples_leaf: usize,
    pub seed: u64,
}

/// A probability random forest.
pub struct ProbabilityForest {
    forests: Vec<Forest>,
    classes: usize,
}

impl ProbabilityForest {
    const NAME: &'static str = "random forest (smartcore)";

    /// Fits on rows of `x` and labels in `0..classes`; `m = ⌈√d⌉` features per split.
    pub fn fit(x: &DMatrix<f64>, y: &[usize], classes: usize, p: &ForestParams) -> Result<Self> {
        let xd = dense(x, Self::NAME)?;
        let m = (x.ncols() as f64).sqrt().ceil() as usize;
        let mut forests = Vec::new();
        for k in targets(classes) {
            let t: Vec<f64> = y.iter().map(|&v| f64::from(u8::from(v == k))).collect();
            let params = RandomForestRegressorParameters::default()
                .with_n_trees(p.n_trees)
                .with_max_depth(p.max_depth)
                .with_min_samples_leaf(p.min_samples_leaf)
                .with_m(m.max(1))
                .with_seed(p.seed.wrapping_add(k as u64));
            forests.push(Forest::fit(&xd, &t, params).map_err(fail(Self::NAME))?);
        }
        Ok(Self { forests, classes })
    }

    /// Class probabilities, N × C.
    pub fn predict_proba(&self, x: &DMatrix<f64>) -> Result<DMatrix<f64>> {
        let xd = dense(x, Self::NAME)?;
        let scores = self
            .forests
            .iter()
            .map(|f| f.predict(&xd).map_err(fail(Self::NAME)))
            .collect::<Result<Vec<_>>>()?;
        let n = x.nrows();
        Ok(if self.classes == 2 {
            DMatrix::from_fn(n, 2, |i, k| {
                let p1 = scores[0][i].clamp(0.0, 1.0);
                if k == 1 { p1 } else { 1.0 - p1 }
            })
        } else {
            let mut out = DMatrix::zeros(n, self.classes);
            for i in 0..n {
                let s: f64 = scores.iter().map(|v| v[i].max(0.0)).sum();
                for (k, v) in scores.iter().enumerate() {
                    out[(i, k)] = if s > 0.0 {
                        v[i].max(0.0) / s
                    } else {
                        1.0 / self.classes as f64
                    };
                }
            }
            out
        })
    }
}

/// Gradient-boosting settings.
#[derive(Debug, Clone, Copy)]
pub struct BoostParams {
    pub rounds: usize,
    pub learning_rate: f64,
    pub max_depth: u16,
    pub min_samples_leaf: usize,
}

/// A second-order gradient-boosting machine (log / softmax loss).
pub struct Boosting {
    /// `trees[round][score]`.
    trees: Vec<Vec<Tree>>,
    init: Vec<f64>,
    learning_rate: f64,
    classes: usize,
}

fn softmax_rows(f: &[Vec<f64>], n: usize, classes: usize) -> DMatrix<f64> {
    if classes == 2 {
        DMatrix::from_fn(n, 2, |i, k| {
            let p1 = 1.0 / (1.0 + (-f[0][i]).exp());
            if k == 1 { p1 } else { 1.0 - p1 }
        })
    } else {
        let mut out = DMatrix::zeros(n, classes);
        for i in 0..n {
            let mx = f.iter().map(|s| s[i]).fold(f64::NEG_INFINITY, f64::max);
            let z: f64 = f.iter().map(|s| (s[i] - mx).exp()).sum();
            for (k, s) in f.iter().enumerate() {
                out[(i, k)] = (s[i] - mx).exp() / z;
            }
        }
        out
    }
}

impl Boosting {
    const NAME: &'static str = "gradient boosting (smartcore trees)";

    /// Fits on rows of `x` and labels in `0..classes` (deterministic: no subsampling).
    pub fn fit(x: &DMatrix<f64>, y: &[usize], classes: usize, p: &BoostParams) -> Result<Self> {
        let xd = dense(x, Self::NAME)?;
        let n = x.nrows();
        let ks = targets(classes);
        // Start from the log prior odds / log class frequencies.
        let init: Vec<f64> = ks
            .iter()
            .map(|&k| {
                let f = (y.iter().filter(|&&v| v == k).count() as f64 + 1.0) / (n as f64 + 2.0);
                if classes == 2 {
                    (f / (1.0 - f)).ln()
                } else {
                    f.ln()
                }
            })
            .collect();
        let mut f: Vec<Vec<f64>> = init.iter().map(|&v| vec![v; n]).collect();
        let mut trees = Vec::with_capacity(p.rounds);
        for _ in 0..p.rounds {
            let probs = softmax_rows(&f, n, classes);
            let mut round = Vec::with_capacity(ks.len());
            for (j, &k) in ks.iter().enumerate() {
                let mut z = vec![0.0; n];
                let mut w = vec![0.0; n];
                for i in 0..n {
                    let pk = probs[(i, k)];
                    let g = pk - f64::from(u8::from(y[i] == k));
                    let h = (pk * (1.0 - pk)).max(1e-6);
                    z[i] = -g / h;
                    w[i] = h;
                }
                let params = DecisionTreeRegressorParameters::default()
                    .with_max_depth(p.max_depth)
                    .with_min_samples_leaf(p.min_samples_leaf);
                let t = Tree::fit_with_weights(&xd, &z, &w, params).map_err(fail(Self::NAME))?;
                let step = t.predict(&xd).map_err(fail(Self::NAME))?;
                for (fi, s) in f[j].iter_mut().zip(&step) {
                    *fi += p.learning_rate * s;
                }
                round.push(t);
            }
            trees.push(round);
        }
        Ok(Self {
            trees,
            init,
            learning_rate: p.learning_rate,
            classes,
        })
    }

    /// Class probabilities, N × C.
    pub fn predict_proba(&self, x: &DMatrix<f64>) -> Result<DMatrix<f64>> {
        let xd = dense(x, Self::NAME)?;
        let n = x.nrows();
        let mut f: Vec<Vec<f64>> = self.init.iter().map(|&v| vec![v; n]).collect();
        for round in &self.trees {
            for (j, t) in round.iter().enumerate() {
                let step = t.predict(&xd).map_err(fail(Self::NAME))?;
                for (fi, s) in f[j].iter_mut().zip(&step) {
                    *fi += self.learning_rate * s;
                }
            }
        }
        Ok(softmax_rows(&f, n, self.classes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fair_data::GaussianMixture;

    fn data(c: usize) -> (DMatrix<f64>, Vec<usize>) {
        let ds = GaussianMixture::new(600)
            .classes(c)
            .groups(2)
            .features(3)
            .separation(2.0)
            .seed(3)
            .generate()
            .unwrap();
        (ds.x().clone(), ds.y().to_vec())
    }

    fn accuracy(p: &DMatrix<f64>, y: &[usize]) -> f64 {
        let hits = (0..p.nrows())
            .filter(|&i| (0..p.ncols()).all(|k| p[(i, k)] <= p[(i, y[i])]))
            .count();
        hits as f64 / y.len() as f64
    }

    /// Both tree bases give probability rows, beat chance clearly on separated classes and are
    /// bit-identical for the same seed.
    #[test]
    fn tree_bases_are_probabilities_accurate_and_deterministic() {
        for c in [2, 3] {
            let (x, y) = data(c);
            let fp = ForestParams {
                n_trees: 10,
                max_depth: 6,
                min_samples_leaf: 5,
                seed: 1,
            };
            let bp = BoostParams {
                rounds: 15,
                learning_rate: 0.2,
                max_depth: 3,
                min_samples_leaf: 10,
            };
            let rf = ProbabilityForest::fit(&x, &y, c, &fp)
                .unwrap()
                .predict_proba(&x)
                .unwrap();
            let rf2 = ProbabilityForest::fit(&x, &y, c, &fp)
                .unwrap()
                .predict_proba(&x)
                .unwrap();
            let gb = Boosting::fit(&x, &y, c, &bp)
                .unwrap()
                .predict_proba(&x)
                .unwrap();
            let gb2 = Boosting::fit(&x, &y, c, &bp)
                .unwrap()
                .predict_proba(&x)
                .unwrap();
            assert_eq!(rf, rf2);
            assert_eq!(gb, gb2);
            for p in [&rf, &gb] {
                for i in 0..p.nrows() {
                    let s: f64 = p.row(i).iter().sum();
                    assert!((s - 1.0).abs() < 1e-12);
                    assert!(p.row(i).iter().all(|&v| (0.0..=1.0).contains(&v)));
                }
                assert!(
                    accuracy(p, &y) > 1.5 / c as f64,
                    "c = {c}: {}",
                    accuracy(p, &y)
                );
            }
        }
    }
}
