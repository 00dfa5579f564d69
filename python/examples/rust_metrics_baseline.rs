//! Rust-only baseline for `python/bench/bench_metrics.py`: the same work as
//! `fairkit.metrics.MetricFrame` with selection rate, TPR, FPR and accuracy on int64 numpy
//! columns (8 groups), timed without Python.
//!
//! Two figures per size, median of 7 runs:
//! - `crate`: `GroupConfusion::new` on prebuilt groups + the four summaries (what
//!   `cargo bench -p fair-metrics` times as `group_rates_dp_eo`);
//! - `binding`: the binding's whole Rust path from int64 columns, as `MetricFrame` takes it
//!   for one integer sensitive feature: count straight from the ids with the label and id
//!   checks in the same pass ([`GroupRates::build_from_ids`]), summarize;
//! - with `FAIRKIT_BREAKDOWN` set, also the general path (factorize the sensitive column, then
//!   count), which other inputs (strings, several features) take.
//!
//! Run: `cargo run --release -p fairkit-py --example rust_metrics_baseline -- 100000 1000000`
//! Prints one JSON object per size.

use fair_data::Groups;
use fair_metrics::{GroupConfusion, Rate, ZeroDivision};
use fairkit_py::metrics::{GroupRates, factorize, factorize_lazy};
use std::time::Instant;

const RATES: [Rate; 4] = [
    Rate::Selection,
    Rate::TruePositive,
    Rate::FalsePositive,
    Rate::Accuracy,
];

/// SplitMix64: a dependency-free seeded stream (the figures do not depend on the generator).
struct SplitMix(u64);
impl SplitMix {
    fn next_f64(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) as f64 / u64::MAX as f64
    }
}

fn median_ms(mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..7)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[3]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse())
        .collect::<Result<_, _>>()?;
    let mut rng = SplitMix(0x5eed_fa11);
    for n in sizes {
        let (mut yt, mut yp, mut codes) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..n {
            let g = (rng.next_f64() * 8.0) as i64 % 8;
            let y = i64::from(rng.next_f64() < 0.2 + 0.05 * g as f64);
            let p = if rng.next_f64() < 0.8 { y } else { 1 - y };
            yt.push(y);
            yp.push(p);
            codes.push(g);
        }
        let yt_u: Vec<usize> = yt.iter().map(|&v| v as usize).collect();
        let yp_u: Vec<usize> = yp.iter().map(|&v| v as usize).collect();
        let groups = Groups::new(
            codes.iter().map(|&c| c as usize).collect(),
            (0..8).map(|g| g.to_string()).collect(),
        )?;
        let mut sink = 0.0;
        let crate_ms = median_ms(|| {
            let gc = GroupConfusion::new(&yt_u, &yp_u, &groups, None).expect("valid data");
            for r in RATES {
                sink += gc
                    .summary(r, ZeroDivision::Zero)
                    .expect("defined")
                    .difference;
            }
        });
        let binding_ms = median_ms(|| {
            let (_, rates) = GroupRates::build_from_ids(&yt_u, &yp_u, &codes, None)
                .expect("valid data")
                .expect("0/1 labels and ids below the limit");
            for r in RATES {
                sink += rates.fairlearn_summary(r).expect("defined").difference;
            }
        });
        let general_ms = median_ms(|| {
            let (uniques, group_codes) = factorize_lazy(&codes);
            let names = uniques.iter().map(|u| u.to_string()).collect();
            let group_codes = group_codes.as_deref().unwrap_or(&codes);
            let rates = GroupRates::build(&yt_u, &yp_u, Some(group_codes), names, None)
                .expect("valid data");
            for r in RATES {
                sink += rates.fairlearn_summary(r).expect("defined").difference;
            }
        });
        if std::env::var_os("FAIRKIT_BREAKDOWN").is_some() {
            let f_ms = median_ms(|| sink += factorize_lazy(&codes).0.len() as f64);
            let (u, gc) = factorize(&codes);
            let copy_ms = median_ms(|| {
                sink += fairkit_py::convert::i64_as_usize(&gc).into_owned().len() as f64
            });
            let names: Vec<String> = u.iter().map(|x| x.to_string()).collect();
            let groups_ms = median_ms(|| {
                let g = Groups::new(
                    fairkit_py::convert::i64_as_usize(&gc).into_owned(),
                    names.clone(),
                )
                .expect("valid");
                sink += g.len() as f64;
            });
            eprintln!("general path (factorize + count) {general_ms:.2} ms");
            eprintln!(
                "factorize {f_ms:.2} ms, copy {copy_ms:.2} ms, copy+Groups::new {groups_ms:.2} ms"
            );
        }
        println!(
            "{{\"rows\": {n}, \"crate_ms\": {crate_ms:.3}, \"binding_ms\": {binding_ms:.3}, \"checksum\": {sink:.6}}}"
        );
    }
    Ok(())
}
