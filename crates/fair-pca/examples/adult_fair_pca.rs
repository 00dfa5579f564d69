//! Pareto fair PCA on Adult (one-hot, adult.data rows) with gender as the sensitive attribute:
//! prints the fit report and a per-group table next to vanilla PCA.
//!
//! `cargo run --release -p fair-pca --example adult_fair_pca`

use fair_data::recipes;
use fair_pca::{Centering, FairPca, FairPcaError, vanilla_pca};

fn main() -> Result<(), FairPcaError> {
    let all = recipes::adult_tfco()?;
    let rows: Vec<usize> = (0..recipes::ADULT_TRAIN_ROWS).collect();
    let adult = all.select(&rows)?;
    let (x, sex) = (adult.x(), adult.groups("sex")?);
    let r = 10;

    let fair = FairPca::params(r).fit(x, sex)?;
    println!("{}", fair.report());
    let vanilla = vanilla_pca(x, r, Centering::Global)?;

    let (f, v) = (fair.losses(x, sex)?, vanilla.losses(x, sex)?);
    println!("per sample, r = {r}   own PCA   vanilla L_i   vanilla E_i   fair L_i   fair E_i");
    for (i, name) in f.names.iter().enumerate() {
        let p = |loss: &[f64]| loss[i];
        println!(
            "{name:<18} {:>9.4} {:>13.4} {:>13.4} {:>10.4} {:>10.4}",
            p(&v.per_sample.best_loss),
            p(&v.per_sample.loss),
            p(&v.per_sample.disparity),
            p(&f.per_sample.loss),
            p(&f.per_sample.disparity)
        );
    }
    println!(
        "total loss: vanilla {:.1}, fair {:.1} ({:+.2}%); max |E_i − E_j| per sample: vanilla {:.4}, fair {:.4}",
        v.total_loss,
        f.total_loss,
        100.0 * (f.total_loss / v.total_loss - 1.0),
        v.per_sample.max_pairwise_gap,
        f.per_sample.max_pairwise_gap
    );
    Ok(())
}
