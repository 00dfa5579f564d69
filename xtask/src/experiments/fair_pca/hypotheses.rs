//! Issue 16: why the printed reading of Pareto fair PCA paid more total loss than the MW min–max
//! baseline, one hypothesis at a time. Each variant changes one setting of either the printed
//! reading ([`FairPca::paper`]) or the new default ([`FairPca::params`]) and is measured on the
//! five cases at r = 10 against vanilla PCA and MW (rank r).

use super::{Case, DOWNSTREAM_R, add_row, e3, table};
use crate::report::Result;
use fair_pca::{
    FairPca, FairPcaParams, Geometry, LossScale, MwFairPca, Normalization, Objectives, Projection,
    StepRule, vanilla_pca,
};
use std::fmt::Write as _;
use std::time::Instant;

/// Relative slack of the "no worse than MW" comparisons (rounding of the loss formulas).
const SLACK: f64 = 1e-9;

/// Per-sample total loss, `max_i E_i` and `max_{i,j} |E_i − E_j|` of one basis.
#[derive(Clone, Copy)]
struct Score {
    total: f64,
    max_e: f64,
    gap: f64,
}

fn score(p: &Projection, case: &Case) -> Result<Score> {
    let l = p.losses(&case.x, &case.groups)?;
    let n: usize = l.sizes.iter().sum();
    Ok(Score {
        total: l.total_loss / n as f64,
        max_e: l
            .per_sample
            .disparity
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max),
        gap: l.per_sample.max_pairwise_gap,
    })
}

/// What a variant changed, and its settings at rank r.
type Variant = (&'static str, fn(usize) -> FairPcaParams);

/// One hypothesis and its variants.
struct Hypothesis {
    name: &'static str,
    question: &'static str,
    variants: Vec<Variant>,
}

fn hypotheses() -> Vec<Hypothesis> {
    vec![
        Hypothesis {
            name: "reference",
            question: "the two end points of this investigation",
            variants: vec![
                (
                    "paper reading: pairwise, ½z², unit normalization, Euclidean, 1/√t, T = 500, vanilla start",
                    FairPca::paper,
                ),
                (
                    "new default: [L, E_i, Δ_ij], Riemannian, warm Armijo, tol 1e-5, T = 2000, MW start",
                    FairPca::params,
                ),
            ],
        },
        Hypothesis {
            name: "H1 Remark 1 normalization",
            question: "does dropping ψ'(Δ) (unit gradients: only the sign of each disparity votes) cause the gap?",
            variants: vec![
                (
                    "paper reading, keep ψ' (Ĝ = ψ'(v)∇v/‖∇v‖)",
                    |r| FairPca::paper(r).normalization(Normalization::PenaltySlope),
                ),
                ("paper reading, no normalization (raw gradients)", |r| {
                    FairPca::paper(r).normalization(Normalization::None)
                }),
                ("default, keep ψ'", |r| {
                    FairPca::params(r).normalization(Normalization::PenaltySlope)
                }),
                ("default, no normalization", |r| {
                    FairPca::params(r).normalization(Normalization::None)
                }),
            ],
        },
        Hypothesis {
            name: "H2 Euclidean vs Riemannian gradients",
            question: "does the component of the Euclidean gradient normal to the frames keep ‖D‖ away from 0?",
            variants: vec![
                ("paper reading, Riemannian gradients", |r| {
                    FairPca::paper(r).geometry(Geometry::Riemannian)
                }),
                (
                    "default, Euclidean gradients (Armijo at the unprojected point)",
                    |r| FairPca::params(r).geometry(Geometry::Euclidean),
                ),
            ],
        },
        Hypothesis {
            name: "H3 step rule",
            question: "do 1/√t steps (no decrease test) overshoot, and does printed Armijo crawl?",
            variants: vec![
                ("paper reading, printed Armijo (η = 2^-p, p ≥ 1)", |r| {
                    FairPca::paper(r).step(StepRule::armijo())
                }),
                ("paper reading, warm-started Armijo", |r| {
                    FairPca::paper(r).step(StepRule::armijo_warm())
                }),
                ("default, printed Armijo", |r| {
                    FairPca::params(r).step(StepRule::armijo())
                }),
                ("default, 1/√t", |r| {
                    FairPca::params(r).step(StepRule::InverseSqrt { eta0: 1.0 })
                }),
            ],
        },
        Hypothesis {
            name: "H4 tolerance vs iteration limit",
            question: "is the printed reading just stopped too early (T = 500)?",
            variants: vec![
                ("paper reading, T = 2000", |r| {
                    FairPca::paper(r).max_iter(2000)
                }),
                ("default, tol 1e-6", |r| FairPca::params(r).tol(1e-6)),
            ],
        },
        Hypothesis {
            name: "H5 start",
            question: "does the start decide which Pareto point is reached?",
            variants: vec![
                (
                    "paper reading, 3 random frames (seed 0) instead of vanilla, fairest kept",
                    |r| FairPca::paper(r).vanilla_start(false).random_starts(3),
                ),
                ("paper reading, MW start instead of vanilla", |r| {
                    FairPca::paper(r).vanilla_start(false).min_max_start(true)
                }),
                ("default, vanilla start instead of MW", |r| {
                    FairPca::params(r).min_max_start(false).vanilla_start(true)
                }),
                (
                    "default, 3 random frames (seed 0) instead of MW, fairest kept",
                    |r| FairPca::params(r).min_max_start(false).random_starts(3),
                ),
            ],
        },
        Hypothesis {
            name: "H6 raw vs per-sample losses",
            question: "does the loss scale move the end point?",
            variants: vec![
                ("paper reading, raw sums", |r| {
                    FairPca::paper(r).scale(LossScale::Raw)
                }),
                ("default, raw sums", |r| {
                    FairPca::params(r).scale(LossScale::Raw)
                }),
            ],
        },
        Hypothesis {
            name: "H7 single vs pairwise objectives",
            question: "does asking for Δ_ij = 0 (all E_i equal) rather than small E_i cost the loss?",
            variants: vec![
                ("paper reading, single objectives [L, ψ(E_i)]", |r| {
                    FairPca::paper(r).objectives(Objectives::Single)
                }),
                ("default, pairwise objectives only", |r| {
                    FairPca::params(r).objectives(Objectives::Pairwise)
                }),
                ("default, single objectives only", |r| {
                    FairPca::params(r).objectives(Objectives::Single)
                }),
            ],
        },
    ]
}

/// One variant on one case.
struct Cell {
    score: Option<Score>,
    status: String,
    converged: bool,
    seconds: f64,
}

/// A hypothesis's name, its question, and each variant's cells (one per case).
type MeasuredGroup = (&'static str, &'static str, Vec<(&'static str, Vec<Cell>)>);

/// The measured table.
pub(super) struct Hypotheses {
    cases: Vec<(&'static str, Score, Score)>,
    groups: Vec<MeasuredGroup>,
}

/// Runs every variant on every case at r = 10.
pub(super) fn run(cases: &[Case]) -> Result<Hypotheses> {
    let r = DOWNSTREAM_R;
    let mut refs = Vec::new();
    for case in cases {
        let v = score(&vanilla_pca(&case.x, r, fair_pca::Centering::Global)?, case)?;
        let m = score(
            MwFairPca::params(r)
                .fit(&case.x, &case.groups)?
                .projection(),
            case,
        )?;
        refs.push((case.key, v, m));
    }
    let mut groups = Vec::new();
    for h in hypotheses() {
        let mut variants = Vec::new();
        for (what, params) in h.variants {
            let mut cells = Vec::new();
            for case in cases {
                let clock = Instant::now();
                // A variant that fails (e.g. a numerical error) is reported, not fatal.
                let cell = match params(r).fit(&case.x, &case.groups) {
                    Ok(m) => {
                        let rep = m.report();
                        Cell {
                            score: Some(score(m.projection(), case)?),
                            status: format!("{} ({} it)", rep.status, rep.iterations),
                            converged: rep.status.is_converged(),
                            seconds: clock.elapsed().as_secs_f64(),
                        }
                    }
                    Err(e) => Cell {
                        score: None,
                        status: format!("error: {e}"),
                        converged: false,
                        seconds: clock.elapsed().as_secs_f64(),
                    },
                };
                cells.push(cell);
            }
            variants.push((what, cells));
        }
        groups.push((h.name, h.question, variants));
    }
    Ok(Hypotheses {
        cases: refs,
        groups,
    })
}

/// `true` when `s` is no worse than MW on total loss and `max_i E_i` (the min–max objective).
fn within_mw(s: &Score, mw: &Score) -> bool {
    s.total <= mw.total * (1.0 + SLACK) && s.max_e <= mw.max_e + SLACK * mw.max_e.abs().max(1.0)
}

/// Where a variant stands against MW: worse on total loss and / or `max_i E_i` (to [`SLACK`]),
/// and whether its gap is at most MW's. A NaN (unmeasured) score counts as worse.
fn row_verdict(s: &Score, mw: &Score) -> String {
    let mut worse = Vec::new();
    if s.total.is_nan() || s.total > mw.total * (1.0 + SLACK) {
        worse.push("more loss");
    }
    if s.max_e.is_nan() || s.max_e > mw.max_e + SLACK * mw.max_e.abs().max(1.0) {
        worse.push("higher max E_i");
    }
    let gap = if s.gap <= mw.gap + SLACK * mw.gap.abs().max(1.0) {
        "gap ≤ MW's"
    } else {
        "gap > MW's"
    };
    if worse.is_empty() {
        format!("≤ MW on loss and max E_i; {gap}")
    } else {
        format!("{} than MW; {gap}", worse.join(", "))
    }
}

/// The markdown section: a summary per variant, then every variant on every case.
pub(super) fn markdown(h: &Hypotheses) -> String {
    let r = DOWNSTREAM_R;
    let mut s = format!(
        "\n## Issue 16: why the printed reading paid more than the min–max baseline (r = {r})\n\n\
         Each variant changes one setting of either the paper reading (`FairPca::paper`) or the \
         new default (`FairPca::params`), and is fitted on the five cases at r = {r}. \"≤ MW\" means \
         total loss and max_i E_i/n_i (the min–max objective) both at most the MW baseline's \
         (rank r, η = 1, T = 10), up to a relative {SLACK:e} for rounding; the gap is \
         max_ij |E_i/n_i − E_j/n_j|. \"Stationary\" = the fit ended with ‖D‖ ≤ tol (status \
         converged), not at T or in a stalled line search.\n\n"
    );
    s.push_str("Vanilla PCA and MW at r = 10 (per sample):\n\n");
    let mut t = table(&[
        "case",
        "vanilla total",
        "MW total",
        "MW vs vanilla",
        "MW max_i E_i",
        "MW gap",
    ]);
    for (key, v, m) in &h.cases {
        add_row(
            &mut t,
            vec![
                (*key).into(),
                format!("{:.4}", v.total),
                format!("{:.4}", m.total),
                format!("{:+.2}%", 100.0 * (m.total / v.total - 1.0)),
                e3(m.max_e),
                e3(m.gap),
            ],
        );
    }
    s.push_str(&t.markdown());
    summary_table(&mut s, h);
    every_variant_table(&mut s, h);
    let _ = writeln!(s);
    s
}

/// One row per variant: on how many cases it is ≤ MW, and how its fits ended.
fn summary_table(s: &mut String, h: &Hypotheses) {
    let n_cases = h.cases.len();
    s.push_str("\n### Summary per variant\n\n");
    let mut t = table(&[
        "hypothesis",
        "what was changed",
        "≤ MW (cases)",
        "stationary (cases)",
        "total vs vanilla, per case",
        "verdict",
    ]);
    for (name, question, variants) in &h.groups {
        for (what, cells) in variants {
            let ok = cells
                .iter()
                .zip(&h.cases)
                .filter(|(c, (_, _, m))| c.score.as_ref().is_some_and(|s| within_mw(s, m)))
                .count();
            let stationary = cells.iter().filter(|c| c.converged).count();
            let totals: Vec<String> = cells
                .iter()
                .zip(&h.cases)
                .map(|(c, (_, v, _))| {
                    c.score.map_or("error".into(), |s| {
                        format!("{:+.1}%", 100.0 * (s.total / v.total - 1.0))
                    })
                })
                .collect();
            let verdict = match (ok == n_cases, stationary == n_cases) {
                (true, true) => "closes the gap, stationary everywhere",
                (true, false) => "≤ MW everywhere, but not stationary everywhere",
                (false, true) => "stationary everywhere, but worse than MW somewhere",
                (false, false) => "neither",
            };
            add_row(
                &mut t,
                vec![
                    format!("{name}: {question}"),
                    (*what).into(),
                    format!("{ok}/{n_cases}"),
                    format!("{stationary}/{n_cases}"),
                    totals.join(", "),
                    verdict.into(),
                ],
            );
        }
    }
    s.push_str(&t.markdown());
}

/// Every variant on every case, with its verdict against MW.
fn every_variant_table(s: &mut String, h: &Hypotheses) {
    s.push_str("\n### Every variant on every case\n\n");
    let mut t = table(&[
        "variant",
        "case",
        "total vs vanilla",
        "max_i E_i",
        "gap",
        "loss vs MW",
        "max_i E_i − MW's",
        "status",
        "fit (s)",
        "verdict",
    ]);
    for (name, _, variants) in &h.groups {
        for (what, cells) in variants {
            for (c, (key, v, m)) in cells.iter().zip(&h.cases) {
                let mut row = vec![format!("{name}: {what}"), (*key).into()];
                match c.score {
                    Some(sc) => row.extend([
                        format!("{:+.2}%", 100.0 * (sc.total / v.total - 1.0)),
                        e3(sc.max_e),
                        e3(sc.gap),
                        format!("{:+.3e}", sc.total / m.total - 1.0),
                        format!("{:+.3e}", sc.max_e - m.max_e),
                        c.status.clone(),
                        format!("{:.2}", c.seconds),
                        row_verdict(&sc, m),
                    ]),
                    None => row.extend([
                        "–".into(),
                        "–".into(),
                        "–".into(),
                        "–".into(),
                        "–".into(),
                        c.status.clone(),
                        format!("{:.2}", c.seconds),
                        "failed".into(),
                    ]),
                }
                add_row(&mut t, row);
            }
        }
    }
    s.push_str(&t.markdown());
}

#[cfg(test)]
mod tests {
    use super::*;

    const MW: Score = Score {
        total: 2.0,
        max_e: 0.5,
        gap: 0.01,
    };

    fn score(total: f64, max_e: f64, gap: f64) -> Score {
        Score { total, max_e, gap }
    }

    #[test]
    fn no_worse_than_mw_up_to_the_slack() {
        // Total: relative slack 1e-9 of 2.0; max E_i: absolute 1e-9 (|0.5| < 1).
        assert!(within_mw(
            &score(2.0 * (1.0 + 0.9e-9), 0.5 + 0.9e-9, 1.0),
            &MW
        ));
        assert!(!within_mw(&score(2.0 * (1.0 + 1.1e-9), 0.5, 0.0), &MW));
        assert!(!within_mw(&score(2.0, 0.5 + 1.1e-9, 0.0), &MW));
        assert!(!within_mw(&score(f64::NAN, 0.5, 0.0), &MW));
    }

    #[test]
    fn row_verdicts_name_what_is_worse() {
        assert_eq!(
            row_verdict(&score(2.0, 0.5, 0.01 + 0.9e-9), &MW),
            "≤ MW on loss and max E_i; gap ≤ MW's"
        );
        assert_eq!(
            row_verdict(&score(2.0 * (1.0 + 1.1e-9), 0.5, 0.0101), &MW),
            "more loss than MW; gap > MW's"
        );
        assert_eq!(
            row_verdict(&score(2.1, 0.6, 0.0), &MW),
            "more loss, higher max E_i than MW; gap ≤ MW's"
        );
    }

    #[test]
    fn missing_scores_are_worse() {
        assert_eq!(
            row_verdict(&score(f64::NAN, f64::NAN, f64::NAN), &MW),
            "more loss, higher max E_i than MW; gap > MW's"
        );
    }
}
