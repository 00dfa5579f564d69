//! Row selection (Eq. 18), and the aggregation of the rows over seeds.

use super::*;

/// One table row: the selected job's evaluation of one solution type.
pub(super) struct Row {
    pub(super) label: String,
    pub(super) triple: Triple,
    pub(super) job: Job,
    pub(super) support: usize,
}

pub(super) fn select_rows(results: &[JobResult]) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut pick = |family: Algorithm, kind: SolutionType, label: String| {
        let cands: Vec<(&JobResult, &Triple, usize)> = results
            .iter()
            .filter(|r| r.job.family == family)
            .filter_map(|r| {
                r.solutions
                    .iter()
                    .find(|(k, _, _)| *k == kind)
                    .map(|(_, t, n)| (r, t, *n))
            })
            .collect();
        let obj: Vec<f64> = cands.iter().map(|c| c.1.valid.error).collect();
        // The unconstrained baseline is validated on error alone (§5.2: "only Adam's learning
        // rate is validated"); ranking it by a violation it does not try to reduce would pick a
        // worse classifier that happens to be fairer.
        let vio: Vec<f64> = if family == Algorithm::Unconstrained {
            vec![0.0; cands.len()]
        } else {
            cands
                .iter()
                .map(|c| c.1.valid.max_violation_or_zero())
                .collect()
        };
        if let Some(i) = rank_select(&obj, &vio) {
            rows.push(Row {
                label,
                triple: cands[i].1.clone(),
                job: cands[i].0.job.clone(),
                support: cands[i].2,
            });
        }
    };
    pick(
        Algorithm::Unconstrained,
        SolutionType::Last,
        "Unconstrained".into(),
    );
    for fam in FAMILIES {
        for kind in SOLUTIONS {
            pick(fam, kind, format!("{} {}", fam.label(), kind.label()));
        }
    }
    rows
}

pub(super) fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return f64::NAN;
    }
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

pub(super) struct DatasetOutcome {
    pub(super) markdown: String,
    pub(super) json: Value,
    pub(super) terminal: String,
}

/// The six table numbers of a row: train/valid/test error, then train/valid/test violation.
pub(super) fn six(t: &Triple) -> [f64; 6] {
    [
        t.train.error,
        t.valid.error,
        t.test.error,
        t.train.max_violation_or_zero(),
        t.valid.max_violation_or_zero(),
        t.test.max_violation_or_zero(),
    ]
}

/// One table row aggregated over split seeds.
pub(super) struct Aggregate {
    pub(super) label: String,
    /// Per metric (as in [`six`]): the value of every seed.
    pub(super) values: [Vec<f64>; 6],
    /// Chosen hyperparameters per seed.
    pub(super) chosen: Vec<String>,
    pub(super) support: Vec<usize>,
}

impl Aggregate {
    pub(super) fn stat(&self, k: usize) -> (f64, f64) {
        mean_sd(&self.values[k])
    }
}

pub(super) fn aggregate(per_seed: &[Vec<Row>]) -> Vec<Aggregate> {
    let mut out: Vec<Aggregate> = Vec::new();
    for rows in per_seed {
        for row in rows {
            let idx = match out.iter().position(|a| a.label == row.label) {
                Some(i) => i,
                None => {
                    out.push(Aggregate {
                        label: row.label.clone(),
                        values: Default::default(),
                        chosen: Vec::new(),
                        support: Vec::new(),
                    });
                    out.len() - 1
                }
            };
            let a = &mut out[idx];
            for (k, x) in six(&row.triple).into_iter().enumerate() {
                a.values[k].push(x);
            }
            a.chosen.push(row.job.describe());
            a.support.push(row.support);
        }
    }
    out
}
