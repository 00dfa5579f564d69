//! Seeded synthetic data: the fair-SVM paper's 2-D generator and a scalable Gaussian mixture.

use crate::dataset::{Dataset, SensitiveAttribute};
use crate::error::{DataError, Result};
use fair_core::Groups;
use nalgebra::{DMatrix, DVector, SymmetricEigen};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

fn invalid(name: &'static str, value: impl ToString, expected: &'static str) -> DataError {
    DataError::InvalidParameter {
        name,
        value: value.to_string(),
        expected,
    }
}

/// A Gaussian mixture with controllable dependence between group and label, for tests and
/// benchmarks at any size (tens of millions of rows fit in memory: 8 bytes × rows × features).
///
/// Generative model, per row:
/// ```text
/// g ~ Uniform{0..n_groups}
/// y = g mod n_classes        with probability ρ (group_label_correlation)
/// y ~ Uniform{0..n_classes}  otherwise
/// x = μ_y + δ_g + ε,   ε ~ N(0, I_d)
/// ```
/// Class centres `μ_c ~ N(0, separation² I)` and group offsets `δ_g ~ N(0, group_shift² I)` are
/// drawn first from the same seeded ChaCha8 stream. ρ = 0 makes label and group independent;
/// ρ = 1 makes the label a function of the group.
///
/// | Name | Default | Range |
/// |---|---|---|
/// | `n_rows` | 1000 | ≥ 1 |
/// | `n_features` | 2 | ≥ 1 |
/// | `n_classes` | 2 | ≥ 2 |
/// | `n_groups` | 2 | ≥ 1 |
/// | `group_label_correlation` | 0.5 | `[0, 1]` |
/// | `separation` | 2.0 | finite, ≥ 0 |
/// | `group_shift` | 1.0 | finite, ≥ 0 |
/// | `seed` | 0 | any |
///
/// # Examples
/// ```
/// use fair_data::GaussianMixture;
/// let ds = GaussianMixture::new(500).classes(5).groups(5).seed(3).generate()?;
/// assert_eq!((ds.n_rows(), ds.n_classes()), (500, 5));
/// assert_eq!(ds.groups("group")?.n_groups(), 5);
/// # Ok::<(), fair_data::DataError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GaussianMixture {
    n_rows: usize,
    n_features: usize,
    n_classes: usize,
    n_groups: usize,
    group_label_correlation: f64,
    separation: f64,
    group_shift: f64,
    seed: u64,
}

impl GaussianMixture {
    /// A mixture of `n_rows` rows with the defaults of the table above.
    pub fn new(n_rows: usize) -> Self {
        Self {
            n_rows,
            n_features: 2,
            n_classes: 2,
            n_groups: 2,
            group_label_correlation: 0.5,
            separation: 2.0,
            group_shift: 1.0,
            seed: 0,
        }
    }
    /// Number of feature columns.
    pub fn features(mut self, d: usize) -> Self {
        self.n_features = d;
        self
    }
    /// Number of classes.
    pub fn classes(mut self, c: usize) -> Self {
        self.n_classes = c;
        self
    }
    /// Number of groups.
    pub fn groups(mut self, a: usize) -> Self {
        self.n_groups = a;
        self
    }
    /// Probability ρ that the label is the group's aligned class.
    pub fn group_label_correlation(mut self, rho: f64) -> Self {
        self.group_label_correlation = rho;
        self
    }
    /// Standard deviation of the class centres.
    pub fn separation(mut self, s: f64) -> Self {
        self.separation = s;
        self
    }
    /// Standard deviation of the group offsets.
    pub fn group_shift(mut self, s: f64) -> Self {
        self.group_shift = s;
        self
    }
    /// Seed of the ChaCha8 stream.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    fn check(&self) -> Result<()> {
        if self.n_rows == 0 {
            return Err(invalid("n_rows", 0, "at least 1 row"));
        }
        if self.n_features == 0 {
            return Err(invalid("n_features", 0, "at least 1 feature"));
        }
        if self.n_classes < 2 {
            return Err(invalid("n_classes", self.n_classes, "at least 2 classes"));
        }
        if self.n_groups == 0 {
            return Err(invalid("n_groups", 0, "at least 1 group"));
        }
        if !(0.0..=1.0).contains(&self.group_label_correlation) {
            return Err(invalid(
                "group_label_correlation",
                self.group_label_correlation,
                "a probability in [0, 1]",
            ));
        }
        for (name, v) in [
            ("separation", self.separation),
            ("group_shift", self.group_shift),
        ] {
            if !v.is_finite() || v < 0.0 {
                return Err(invalid(name, v, "a finite value >= 0"));
            }
        }
        Ok(())
    }

    /// Draws the dataset: features `x0..x{d-1}`, classes `"0".."C-1"`, attribute `group`.
    ///
    /// # Errors
    /// [`DataError::InvalidParameter`] for a parameter outside the table's range.
    pub fn generate(&self) -> Result<Dataset> {
        self.check()?;
        let (n, d) = (self.n_rows, self.n_features);
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let centres =
            DMatrix::from_fn(self.n_classes, d, |_, _| self.separation * normal(&mut rng));
        let offsets =
            DMatrix::from_fn(self.n_groups, d, |_, _| self.group_shift * normal(&mut rng));
        let mut groups = Vec::with_capacity(n);
        let mut y = Vec::with_capacity(n);
        for _ in 0..n {
            let g = rng.random_range(0..self.n_groups);
            let label = if rng.random::<f64>() < self.group_label_correlation {
                g % self.n_classes
            } else {
                rng.random_range(0..self.n_classes)
            };
            groups.push(g);
            y.push(label);
        }
        // Column-major fill: one pass per feature keeps writes sequential for huge n.
        let mut x = DMatrix::zeros(n, d);
        for j in 0..d {
            let col = &mut x.column_mut(j);
            for i in 0..n {
                col[i] = centres[(y[i], j)] + offsets[(groups[i], j)] + normal(&mut rng);
            }
        }
        let names = (0..d).map(|j| format!("x{j}")).collect();
        let groups = Groups::new(groups, (0..self.n_groups).map(|g| g.to_string()).collect())?;
        let classes = (0..self.n_classes).map(|c| c.to_string()).collect();
        Dataset::new(
            "gaussian-mixture",
            x,
            names,
            y,
            classes,
            vec![SensitiveAttribute {
                name: "group".into(),
                groups,
            }],
        )
    }
}

fn normal(rng: &mut impl Rng) -> f64 {
    StandardNormal.sample(rng)
}

fn sigmoid(t: f64) -> f64 {
    1.0 / (1.0 + (-t).exp())
}

/// Default half-width a of [`FairSvmSynthetic`]'s input box `U[−a, a]^p`: with unit logit
/// parameters at cosine 0.85 and p = 2, a = 4.5 gives the paper's corr(y, z) = 0.45 (mean over
/// seeds 0–7 of 200,000-point samples: 0.450; seed 0: 0.458). The authors' later generator's
/// `U[−10, 10]` makes the logits so large that y and z are nearly the signs of `β_yᵀx` and
/// `β_zᵀx`, and corr(y, z) ≈ 0.63.
pub const FAIR_SVM_HALF_WIDTH: f64 = 4.5;

/// The synthetic data of the spectral fair-SVM paper (Olfat & Aswani 2018, §7.1), made concrete.
///
/// The paper gives only: 200 points, two dimensions, labels y and z from logit models whose
/// parameter vectors have dot product 0.85, the covariance of the z = +1 points "skewed", and an
/// empirical corr(y, z) of 0.45. Choices made here (from the authors' later generator, as the spec
/// recommends): `β_y ~ U[0,1]^p` normalised, `β_z = ρ β_y + √(1−ρ²) β'` with `β'` a random unit
/// vector orthogonal to `β_y` (so cos = ρ exactly), `x ~ U[−a, a]^p`,
/// `P(y = +1 | x) = σ(β_yᵀx)`, `P(z = +1 | x) = σ(β_zᵀx)`; then the centred z = +1 points are
/// stretched by `skew` along their top principal direction (after y and z are drawn, so the
/// stretch does not change corr(y, z)).
///
/// The box half-width a is where this deviates from the authors' later generator (a = 10): the
/// paper states corr(y, z) = 0.45, which a = 10 misses (≈ 0.63: the logits are so large that the
/// labels are almost deterministic); the default a = 4.5 ([`FAIR_SVM_HALF_WIDTH`]) matches it in
/// expectation. A single 200-point sample still varies by about ±0.07 (one standard error).
///
/// Classes: `"y=-1"` (0), `"y=+1"` (1); attribute `z` with groups `"z=-1"` (0), `"z=+1"` (1).
///
/// | Name | Default | Range |
/// |---|---|---|
/// | `n` | 200 | ≥ 2 |
/// | `p` | 2 | ≥ 2 |
/// | `rho` | 0.85 | `[-1, 1]` |
/// | `half_width` | 4.5 | finite, > 0 |
/// | `skew` | 3.0 | finite, > 0 |
/// | `seed` | 0 | any |
#[derive(Debug, Clone, PartialEq)]
pub struct FairSvmSynthetic {
    n: usize,
    p: usize,
    rho: f64,
    half_width: f64,
    skew: f64,
    seed: u64,
}

impl Default for FairSvmSynthetic {
    fn default() -> Self {
        Self {
            n: 200,
            p: 2,
            rho: 0.85,
            half_width: FAIR_SVM_HALF_WIDTH,
            skew: 3.0,
            seed: 0,
        }
    }
}

/// What [`FairSvmSynthetic::generate`] drew, for checks against the paper's description.
#[derive(Debug, Clone, PartialEq)]
pub struct FairSvmSample {
    /// The data.
    pub data: Dataset,
    /// The label's logit parameters (unit norm).
    pub beta_y: DVector<f64>,
    /// The protected attribute's logit parameters (unit norm).
    pub beta_z: DVector<f64>,
}

impl FairSvmSynthetic {
    /// The paper's setting: 200 points in 2-D, ρ = 0.85, skew 3, seed 0.
    pub fn new() -> Self {
        Self::default()
    }
    /// Number of points.
    pub fn n(mut self, n: usize) -> Self {
        self.n = n;
        self
    }
    /// Dimension.
    pub fn p(mut self, p: usize) -> Self {
        self.p = p;
        self
    }
    /// Cosine between the two logit parameter vectors.
    pub fn rho(mut self, rho: f64) -> Self {
        self.rho = rho;
        self
    }
    /// Half-width a of the input box: `x ~ U[−a, a]^p` (scales both logits).
    pub fn half_width(mut self, half_width: f64) -> Self {
        self.half_width = half_width;
        self
    }
    /// Stretch factor of the z = +1 points along their top principal direction.
    pub fn skew(mut self, skew: f64) -> Self {
        self.skew = skew;
        self
    }
    /// Seed of the ChaCha8 stream.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Draws the sample.
    ///
    /// # Errors
    /// [`DataError::InvalidParameter`] outside the table's ranges.
    pub fn generate(&self) -> Result<FairSvmSample> {
        if self.n < 2 {
            return Err(invalid("n", self.n, "at least 2 points"));
        }
        if self.p < 2 {
            return Err(invalid(
                "p",
                self.p,
                "dimension at least 2 (an orthogonal direction is needed)",
            ));
        }
        if !(-1.0..=1.0).contains(&self.rho) {
            return Err(invalid("rho", self.rho, "a cosine in [-1, 1]"));
        }
        if !self.half_width.is_finite() || self.half_width <= 0.0 {
            return Err(invalid("half_width", self.half_width, "a finite value > 0"));
        }
        if !self.skew.is_finite() || self.skew <= 0.0 {
            return Err(invalid("skew", self.skew, "a finite factor > 0"));
        }
        let (n, p) = (self.n, self.p);
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let beta_y = DVector::from_fn(p, |_, _| rng.random::<f64>()).normalize();
        let beta_perp = loop {
            let v = DVector::from_fn(p, |_, _| normal(&mut rng));
            let v = &v - &beta_y * beta_y.dot(&v);
            if v.norm() > 1e-8 {
                break v.normalize();
            }
        };
        let beta_z = &beta_y * self.rho + beta_perp * (1.0 - self.rho * self.rho).sqrt();
        let a = self.half_width;
        let mut x = DMatrix::from_fn(n, p, |_, _| rng.random_range(-a..a));
        let mut y = Vec::with_capacity(n);
        let mut z = Vec::with_capacity(n);
        for i in 0..n {
            let xi = x.row(i).transpose();
            y.push(usize::from(rng.random::<f64>() < sigmoid(beta_y.dot(&xi))));
            z.push(usize::from(rng.random::<f64>() < sigmoid(beta_z.dot(&xi))));
        }
        self.stretch_positive_group(&mut x, &z);
        let groups = Groups::new(z, vec!["z=-1".into(), "z=+1".into()])?;
        let data = Dataset::new(
            "fair-svm-synthetic",
            x,
            (0..p).map(|j| format!("x{j}")).collect(),
            y,
            vec!["y=-1".into(), "y=+1".into()],
            vec![SensitiveAttribute {
                name: "z".into(),
                groups,
            }],
        )?;
        Ok(FairSvmSample {
            data,
            beta_y,
            beta_z,
        })
    }

    fn stretch_positive_group(&self, x: &mut DMatrix<f64>, z: &[usize]) {
        let rows: Vec<usize> = (0..z.len()).filter(|&i| z[i] == 1).collect();
        if rows.len() < 2 {
            return;
        }
        let sub = x.select_rows(&rows);
        let mean = sub.row_mean();
        let centred = DMatrix::from_fn(sub.nrows(), sub.ncols(), |i, j| sub[(i, j)] - mean[j]);
        let cov = centred.transpose() * &centred;
        let eig = SymmetricEigen::new(cov);
        let top = eig.eigenvalues.imax();
        let v = eig.eigenvectors.column(top).into_owned();
        for (k, &i) in rows.iter().enumerate() {
            let c = centred.row(k).transpose();
            let stretched = &c + &v * ((self.skew - 1.0) * v.dot(&c));
            for j in 0..x.ncols() {
                x[(i, j)] = mean[j] + stretched[j];
            }
        }
    }
}

#[cfg(test)]
// Exact comparisons are intended: the expected values are copied or exactly representable.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    #[test]
    fn mixture_is_deterministic_and_correlated() {
        let a = GaussianMixture::new(2000)
            .group_label_correlation(1.0)
            .seed(9)
            .generate()
            .unwrap();
        let b = GaussianMixture::new(2000)
            .group_label_correlation(1.0)
            .seed(9)
            .generate()
            .unwrap();
        assert_eq!(a, b);
        let g = a.groups("group").unwrap().codes();
        assert!(a.y().iter().zip(g).all(|(&y, &g)| y == g % 2));
    }

    #[test]
    fn mixture_rejects_bad_parameters() {
        assert!(GaussianMixture::new(0).generate().is_err());
        assert!(GaussianMixture::new(5).classes(1).generate().is_err());
        assert!(
            GaussianMixture::new(5)
                .group_label_correlation(1.5)
                .generate()
                .is_err()
        );
        assert!(
            GaussianMixture::new(5)
                .separation(f64::NAN)
                .generate()
                .is_err()
        );
    }

    #[test]
    fn fair_svm_cosine_is_exact() {
        let s = FairSvmSynthetic::new().seed(4).generate().unwrap();
        assert!((s.beta_y.dot(&s.beta_z) - 0.85).abs() < 1e-12);
        assert_eq!(s.data.n_rows(), 200);
        assert!(FairSvmSynthetic::new().p(1).generate().is_err());
        assert!(FairSvmSynthetic::new().skew(0.0).generate().is_err());
        assert!(FairSvmSynthetic::new().half_width(0.0).generate().is_err());
        assert!(
            FairSvmSynthetic::new()
                .half_width(f64::NAN)
                .generate()
                .is_err()
        );
    }

    fn label_group_correlation(s: &FairSvmSample) -> f64 {
        let y: Vec<f64> = s.data.y().iter().map(|&c| c as f64).collect();
        let g = s.data.groups("z").unwrap().codes();
        let z: Vec<f64> = g.iter().map(|&c| c as f64).collect();
        let n = y.len() as f64;
        let (my, mz) = (y.iter().sum::<f64>() / n, z.iter().sum::<f64>() / n);
        let cov = y
            .iter()
            .zip(&z)
            .map(|(a, b)| (a - my) * (b - mz))
            .sum::<f64>()
            / n;
        let vy = y.iter().map(|a| (a - my).powi(2)).sum::<f64>() / n;
        let vz = z.iter().map(|b| (b - mz).powi(2)).sum::<f64>() / n;
        cov / (vy * vz).sqrt()
    }

    /// The paper's stated corr(y, z) = 0.45, on a large seeded sample (sampling error ≈ 0.002)
    /// and on average over seeds (the logit directions vary with the seed).
    #[test]
    fn fair_svm_label_group_correlation_is_the_papers() {
        let big = |seed| {
            FairSvmSynthetic::new()
                .n(200_000)
                .seed(seed)
                .generate()
                .unwrap()
        };
        let c0 = label_group_correlation(&big(0));
        assert!((c0 - 0.45).abs() <= 0.03, "corr(y, z) = {c0}");
        let mean = (0..8)
            .map(|s| label_group_correlation(&big(s)))
            .sum::<f64>()
            / 8.0;
        assert!((mean - 0.45).abs() <= 0.01, "mean corr(y, z) = {mean}");
        // The old box U[−10, 10] is far off: the test can tell the two apart.
        let wide = FairSvmSynthetic::new()
            .n(200_000)
            .half_width(10.0)
            .generate()
            .unwrap();
        assert!(label_group_correlation(&wide) > 0.55);
    }
}
