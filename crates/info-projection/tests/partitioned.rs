//! The partitioned fit (`marginal_sums` → `partitioned` → `fit` with an oracle of merged
//! `pass` sums) against the one-machine fit on the same rows: λ within 1e-9 for any split of the
//! rows into parts (empty parts, a group in one part only, any merge order), labels or plug-in
//! marginals, KL or CE, binary or multi-class; sums that do not fit together are typed errors.

mod common;

use common::{lcg_instance, max_diff};
use fair_data::Groups;
use info_projection::{
    Constraint, Divergence, FairProjection, FairProjectionValidParams, InfoProjectionError,
    MarginalSums, PartitionedFit, PassSums, Solver,
};
use nalgebra::DMatrix;
use proptest::prelude::*;

/// Rows `lo..hi` as one part (probabilities, groups with the full names, labels).
struct Part {
    probs: DMatrix<f64>,
    groups: Groups,
    labels: Vec<usize>,
}

fn split(probs: &DMatrix<f64>, groups: &Groups, labels: &[usize], cuts: &[usize]) -> Vec<Part> {
    let mut bounds = vec![0];
    bounds.extend(cuts.iter().map(|&c| c.min(probs.nrows())));
    bounds.push(probs.nrows());
    bounds.sort_unstable();
    bounds
        .windows(2)
        .map(|w| Part {
            probs: probs.rows(w[0], w[1] - w[0]).into_owned(),
            groups: Groups::new(groups.codes()[w[0]..w[1]].to_vec(), groups.names().to_vec())
                .unwrap(),
            labels: labels[w[0]..w[1]].to_vec(),
        })
        .collect()
}

/// The partitioned fit over `parts`, merging each pass's part sums in `order`.
fn fit_parts(
    params: &FairProjectionValidParams,
    parts: &[Part],
    names: &[String],
    with_labels: bool,
    order: &[usize],
) -> Result<(PartitionedFit, FairProjection), InfoProjectionError> {
    let mut sums: Option<MarginalSums> = None;
    for &k in order {
        let p = &parts[k];
        let s = params.marginal_sums(
            &p.probs,
            &p.groups,
            with_labels.then_some(p.labels.as_slice()),
        )?;
        match sums.as_mut() {
            None => sums = Some(s),
            Some(t) => t.merge(&s)?,
        }
    }
    let plan = params.partitioned(&sums.unwrap(), names.to_vec())?;
    let fitted = plan.fit(&mut |request| {
        let mut total = PassSums::zero(&plan, request);
        for &k in order {
            // Through bytes, as between processes.
            let bytes = plan
                .pass(request, &parts[k].probs, &parts[k].groups)?
                .to_bytes();
            total.merge(&PassSums::from_bytes(&bytes)?)?;
        }
        Ok(total)
    })?;
    Ok((plan, fitted))
}

fn labels_of(probs: &DMatrix<f64>, seed: u64) -> Vec<usize> {
    // Deterministic labels correlated with the probabilities: the most likely class, except
    // every seventh row shifted.
    (0..probs.nrows())
        .map(|i| {
            let row = probs.row(i);
            let arg = (0..probs.ncols())
                .max_by(|&a, &b| row[a].total_cmp(&row[b]))
                .unwrap();
            if (i as u64 + seed).is_multiple_of(7) {
                (arg + 1) % probs.ncols()
            } else {
                arg
            }
        })
        .collect()
}

#[test]
fn one_part_gives_the_one_machine_bits() {
    let inst = lcg_instance(900, 3, 3, 11);
    let labels = labels_of(&inst.probs, 1);
    let params = FairProjection::params()
        .constraint(Constraint::EqualizedOdds)
        .alpha(0.02)
        .check()
        .unwrap();
    let parts = split(&inst.probs, &inst.groups, &labels, &[]);
    let (_, fitted) = fit_parts(&params, &parts, inst.groups.names(), true, &[0]).unwrap();
    let local = params
        .fit_with_labels(&inst.probs, &inst.groups, &labels)
        .unwrap();
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(fitted.lambda()), bits(local.lambda()));
    assert_eq!(
        bits(fitted.constraint_values()),
        bits(local.constraint_values())
    );
    assert_eq!(fitted.report().data_passes, local.report().data_passes);
    let (a, b) = (
        fitted.predict_proba(&inst.probs, &inst.groups).unwrap(),
        local.predict_proba(&inst.probs, &inst.groups).unwrap(),
    );
    assert_eq!(
        a.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        b.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
}

#[test]
fn a_group_in_one_part_only_and_empty_parts() {
    // Sort rows by group so that each group sits in its own parts; cut so that parts are
    // empty, single-group and mixed.
    let inst = lcg_instance(700, 2, 4, 3);
    let mut order: Vec<usize> = (0..inst.n).collect();
    order.sort_by_key(|&i| inst.groups.codes()[i]);
    let probs = DMatrix::from_fn(inst.n, 2, |i, j| inst.probs[(order[i], j)]);
    let codes: Vec<usize> = order.iter().map(|&i| inst.groups.codes()[i]).collect();
    let groups = Groups::new(codes, inst.groups.names().to_vec()).unwrap();
    let labels = labels_of(&probs, 4);
    let parts = split(&probs, &groups, &labels, &[0, 0, 100, 100, 350, 700, 700]);
    assert!(parts.iter().any(|p| p.probs.nrows() == 0));
    for (div, constraint) in [
        (Divergence::Kl, Constraint::StatisticalParity),
        (Divergence::CrossEntropy, Constraint::EqualizedOdds),
    ] {
        let params = FairProjection::params()
            .divergence(div)
            .constraint(constraint)
            .alpha(0.01)
            .check()
            .unwrap();
        let order: Vec<usize> = (0..parts.len()).rev().collect();
        for with_labels in [true, false] {
            let (_, fitted) =
                fit_parts(&params, &parts, groups.names(), with_labels, &order).unwrap();
            let local = if with_labels {
                params.fit_with_labels(&probs, &groups, &labels).unwrap()
            } else {
                params.fit(&probs, &groups).unwrap()
            };
            assert!(fitted.report().status.is_converged());
            let d = max_diff(fitted.lambda(), local.lambda());
            assert!(
                d <= 1e-9,
                "{div:?} {constraint:?} labels={with_labels}: Δλ = {d:e}"
            );
        }
    }
}

#[test]
fn lbfgs_and_multiclass_stacked_constraints() {
    let inst = lcg_instance(1200, 4, 3, 8);
    let labels = labels_of(&inst.probs, 2);
    let params = FairProjection::params()
        .constraints(&[Constraint::StatisticalParity, Constraint::OverallAccuracy])
        .dual_method(info_projection::DualMethod::Lbfgs)
        .alpha(0.03)
        .check()
        .unwrap();
    let parts = split(&inst.probs, &inst.groups, &labels, &[1, 400, 401, 1000]);
    let order: Vec<usize> = vec![3, 0, 4, 2, 1];
    let (_, fitted) = fit_parts(&params, &parts, inst.groups.names(), true, &order).unwrap();
    let local = params
        .fit_with_labels(&inst.probs, &inst.groups, &labels)
        .unwrap();
    let d = max_diff(fitted.lambda(), local.lambda());
    assert!(d <= 1e-9, "Δλ = {d:e}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Any cut points and any merge order give λ within 1e-9 of the one-machine fit.
    #[test]
    fn any_split_any_order(
        seed in 0u64..1000,
        c in 2usize..4,
        a in 2usize..4,
        cuts in proptest::collection::vec(0usize..300, 0..6),
        rotate in 0usize..7,
        eo in any::<bool>(),
    ) {
        let inst = lcg_instance(300, c, a, seed);
        let labels = labels_of(&inst.probs, seed);
        let constraint = if eo { Constraint::EqualizedOdds } else { Constraint::StatisticalParity };
        let params = FairProjection::params().constraint(constraint).alpha(0.02).check().unwrap();
        let parts = split(&inst.probs, &inst.groups, &labels, &cuts);
        let mut order: Vec<usize> = (0..parts.len()).collect();
        order.rotate_left(rotate % parts.len());
        let local = params.fit_with_labels(&inst.probs, &inst.groups, &labels);
        let dist = fit_parts(&params, &parts, inst.groups.names(), true, &order);
        match (local, dist) {
            (Ok(l), Ok((_, d))) => {
                prop_assert_eq!(l.report().status, d.report().status);
                let diff = max_diff(l.lambda(), d.lambda());
                prop_assert!(diff <= 1e-9, "Δλ = {:e}", diff);
            }
            // The same design error (e.g. an equalized-odds cell without mass) either way.
            (Err(l), Err(d)) => prop_assert_eq!(l, d),
            (l, d) => prop_assert!(false, "one-machine {:?} vs partitioned {:?}", l.map(|_| ()), d.map(|_| ())),
        }
    }

    /// Decoding arbitrary bytes never panics; canonical bytes round-trip.
    #[test]
    fn decoding_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = PassSums::from_bytes(&bytes);
        let _ = MarginalSums::from_bytes(&bytes);
    }
}

#[test]
fn sums_round_trip_through_bytes() {
    let inst = lcg_instance(200, 2, 2, 5);
    let params = FairProjection::params().check().unwrap();
    let sums = params
        .marginal_sums(&inst.probs, &inst.groups, None)
        .unwrap();
    assert_eq!(MarginalSums::from_bytes(&sums.to_bytes()).unwrap(), sums);
    let plan = params
        .partitioned(&sums, inst.groups.names().to_vec())
        .unwrap();
    let request = info_projection::PassRequest {
        lambda: vec![0.1; plan.n_constraints()],
        slack: true,
        hessian: true,
    };
    let pass = plan.pass(&request, &inst.probs, &inst.groups).unwrap();
    let bytes = pass.to_bytes();
    assert_eq!(PassSums::from_bytes(&bytes).unwrap(), pass);
    for cut in [0, 1, bytes.len() / 2, bytes.len() - 1] {
        assert!(matches!(
            PassSums::from_bytes(&bytes[..cut]),
            Err(InfoProjectionError::Decode { .. })
        ));
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(PassSums::from_bytes(&longer).is_err());
}

#[test]
fn pieces_that_do_not_fit_are_typed_errors() {
    let inst = lcg_instance(300, 2, 3, 9);
    let params = FairProjection::params().check().unwrap();
    let names = inst.groups.names().to_vec();
    let sums = params
        .marginal_sums(&inst.probs, &inst.groups, None)
        .unwrap();
    // ADMM keeps per-row state: refused.
    let admm = FairProjection::params()
        .solver(Solver::Admm)
        .check()
        .unwrap();
    assert!(matches!(
        admm.partitioned(&sums, names.clone()),
        Err(InfoProjectionError::InvalidParameter { name: "solver", .. })
    ));
    // Wrong number of names.
    assert!(matches!(
        params.partitioned(&sums, names[..2].to_vec()),
        Err(InfoProjectionError::LengthMismatch { .. })
    ));
    // Labelled and plug-in sums do not merge.
    let labels = vec![0; inst.n];
    let mut labelled = params
        .marginal_sums(&inst.probs, &inst.groups, Some(&labels))
        .unwrap();
    assert!(matches!(
        labelled.merge(&sums),
        Err(InfoProjectionError::Partitioned { .. })
    ));
    // A pass that loses rows (a part dropped) is caught, not silently solved on fewer rows.
    let plan = params.partitioned(&sums, names.clone()).unwrap();
    let half = inst.probs.rows(0, 150).into_owned();
    let half_groups = Groups::new(inst.groups.codes()[..150].to_vec(), names.clone()).unwrap();
    let err = plan
        .fit(&mut |r| plan.pass(r, &half, &half_groups))
        .unwrap_err();
    assert!(
        matches!(&err, InfoProjectionError::Partitioned { reason } if reason.contains("150")),
        "{err}"
    );
    // Groups coded against other names.
    let renamed = Groups::new(
        inst.groups.codes().to_vec(),
        vec!["x".into(), "y".into(), "z".into()],
    )
    .unwrap();
    let request = info_projection::PassRequest {
        lambda: vec![0.0; plan.n_constraints()],
        slack: false,
        hessian: false,
    };
    assert!(matches!(
        plan.pass(&request, &inst.probs, &renamed),
        Err(InfoProjectionError::Partitioned { .. })
    ));
    // A λ of the wrong length or with a NaN.
    for lambda in [vec![0.0; 3], vec![f64::NAN; plan.n_constraints()]] {
        let bad = info_projection::PassRequest {
            lambda,
            slack: false,
            hessian: false,
        };
        assert!(plan.pass(&bad, &inst.probs, &inst.groups).is_err());
    }
    // No rows at all.
    let empty = params
        .marginal_sums(
            &DMatrix::zeros(0, 2),
            &Groups::new(vec![], names.clone()).unwrap(),
            None,
        )
        .unwrap();
    assert!(matches!(
        params.partitioned(&empty, names),
        Err(InfoProjectionError::Empty { .. })
    ));
}
