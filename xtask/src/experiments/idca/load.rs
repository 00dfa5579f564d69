//! Loading a data set's seeded split into the solver's and the evaluation's forms.

use super::*;

/// Held-out rows for evaluation.
pub(super) struct Eval {
    pub(super) x: SparseRows,
    pub(super) y: Vec<usize>,
    pub(super) g: Groups,
}

pub(super) struct Split {
    pub(super) train: CrossData,
    /// The training rows in evaluation form (training-set metrics).
    pub(super) train_eval: Eval,
    pub(super) val: Eval,
    pub(super) test: Eval,
    /// Dense copies for the unconstrained-model hypotheses.
    pub(super) raw: hypotheses::Raw,
}

/// How to read the binary sensitive attribute of a part of the data.
pub(super) type GroupsOf = Box<dyn Fn(&Dataset) -> Result<Groups>>;

pub(super) fn load(spec: &Spec, seed: u64) -> Result<Split> {
    let (train, val, test, groups_of): (Dataset, Dataset, Dataset, GroupsOf) = if spec.name == "a9a"
    {
        // a9a's own train/test split; 10 % of the training part is validation (seeded).
        let all = fair_data::recipes::adult_a9a()?;
        let n_train = fair_data::recipes::ADULT_TRAIN_ROWS;
        let train_part = all.select(&(0..n_train).collect::<Vec<_>>())?;
        let test = all.select(&(n_train..all.n_rows()).collect::<Vec<_>>())?;
        let idx = Splitter::new()
            .validation(0.1)
            .test(0.0)
            .seed(seed)
            .split_stratified(train_part.y())?;
        let tr = train_part.select(&idx.train)?;
        let va = train_part.select(&idx.validation)?;
        (
            tr,
            va,
            test,
            Box::new(|d: &Dataset| Ok(d.groups("sex")?.clone())),
        )
    } else {
        // 56.25 / 18.75 / 25, stratified on the label; white (γ = 1) vs non-white (γ = 2).
        let all = fair_data::recipes::law_school()?;
        let (tr, va, te) = Splitter::new()
            .validation(0.1875)
            .test(0.25)
            .seed(seed)
            .split_dataset(&all, true)?;
        let va = va.ok_or_else(|| XtaskError::Training {
            model: "split",
            reason: "no validation rows".into(),
        })?;
        let white = |d: &Dataset| -> Result<Groups> {
            let race = d.groups("race")?;
            let codes = race
                .codes()
                .iter()
                .map(|&c| usize::from(race.names()[c] != "White"))
                .collect();
            Ok(Groups::new(
                codes,
                vec!["white".into(), "non-white".into()],
            )?)
        };
        (tr, va, te, Box::new(white))
    };
    // Standardise on the training rows (a9a: every column is 0/1 and kept as is).
    let (xtr, xva, xte) = if spec.name == "a9a" {
        (train.x().clone(), val.x().clone(), test.x().clone())
    } else {
        let s = Standardizer::fit(train.x())?;
        (
            s.transform(train.x())?,
            s.transform(val.x())?,
            s.transform(test.x())?,
        )
    };
    let eval = |x: &nalgebra::DMatrix<f64>, d: &Dataset| -> Result<Eval> {
        Ok(Eval {
            x: SparseRows::from_dense(x)?,
            y: d.y().to_vec(),
            g: groups_of(d)?,
        })
    };
    let tr = eval(&xtr, &train)?;
    let te = eval(&xte, &test)?;
    let raw = hypotheses::Raw {
        ytr: tr.y.clone(),
        gtr: tr.g.clone(),
        yte: te.y.clone(),
        gte: te.g.clone(),
        names: train.feature_names().to_vec(),
        xtr,
        xte,
    };
    Ok(Split {
        train: CrossData::new(&tr.x, &tr.y, &tr.g)?,
        train_eval: tr,
        val: eval(&xva, &val)?,
        test: te,
        raw,
    })
}
