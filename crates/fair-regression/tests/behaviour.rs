//! The barycenter reached on a case known in closed form, exact parity at `alpha = 0`, several
//! attributes, and every typed error.
// `&[g.clone()]` reads as "one attribute" beside `&[a, b]`; from_ref would hide that.
#![allow(clippy::cloned_ref_to_slice_refs)]

use fair_regression::{
    FairRegressionError as E, FittedBarycenter, Groups, ParamGuard, WassersteinBarycenter,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

/// Two-sample Kolmogorov–Smirnov distance.
fn ks(a: &[f64], b: &[f64]) -> f64 {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    let (mut i, mut j, mut d) = (0, 0, 0.0f64);
    while i < a.len() && j < b.len() {
        let x = a[i].min(b[j]);
        while i < a.len() && a[i] <= x {
            i += 1;
        }
        while j < b.len() && b[j] <= x {
            j += 1;
        }
        d = d.max((i as f64 / a.len() as f64 - j as f64 / b.len() as f64).abs());
    }
    d
}

fn split(values: &[f64], codes: &[usize], g: usize) -> Vec<f64> {
    values
        .iter()
        .zip(codes)
        .filter(|(_, c)| **c == g)
        .map(|(v, _)| *v)
        .collect()
}

/// Two Gaussian groups N(μa, σa²) (share pa) and N(μb, σb²): the barycenter is
/// N(pa μa + pb μb, (pa σa + pb σb)²) and the optimal map of group a is
/// m + s (y − μa)/σa. With 30 000 + 10 000 rows the fitted map is within 0.05 s of it on the
/// central 90 % of each group, and each group's fair mean and standard deviation within 0.01 s.
#[test]
fn two_gaussians_reach_their_closed_form_barycenter() {
    let (na, nb) = (30_000, 10_000);
    let (mu, sd) = ([1.0, 4.0], [0.5, 2.0]);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut y = Vec::with_capacity(na + nb);
    let mut codes = Vec::with_capacity(na + nb);
    for (g, n) in [na, nb].into_iter().enumerate() {
        let d = Normal::new(mu[g], sd[g]).unwrap();
        y.extend((0..n).map(|_| d.sample(&mut rng)));
        codes.extend(std::iter::repeat_n(g, n));
    }
    let p = [na as f64 / (na + nb) as f64, nb as f64 / (na + nb) as f64];
    let (m, s) = (p[0] * mu[0] + p[1] * mu[1], p[0] * sd[0] + p[1] * sd[1]);
    let groups = Groups::from_codes(&codes).unwrap();
    let fitted = WassersteinBarycenter::params()
        .fit(&y, &[groups.clone()], None)
        .unwrap();
    let fair = fitted.transform(&y, &[groups]).unwrap();
    for g in 0..2 {
        let (yg, fg) = (split(&y, &codes, g), split(&fair, &codes, g));
        let mut sorted = yg.clone();
        sorted.sort_by(f64::total_cmp);
        let (lo, hi) = (sorted[sorted.len() / 20], sorted[sorted.len() * 19 / 20]);
        let worst = yg
            .iter()
            .zip(&fg)
            .filter(|(x, _)| (lo..=hi).contains(*x))
            .map(|(x, f)| (f - (m + s * (x - mu[g]) / sd[g])).abs())
            .fold(0.0, f64::max);
        assert!(worst < 0.05 * s, "group {g}: max map error {worst}");
        let mean = fg.iter().sum::<f64>() / fg.len() as f64;
        let var = fg.iter().map(|f| (f - mean).powi(2)).sum::<f64>() / fg.len() as f64;
        assert!((mean - m).abs() < 0.01 * s, "group {g}: mean {mean} vs {m}");
        assert!(
            (var.sqrt() - s).abs() < 0.01 * s,
            "group {g}: sd {} vs {s}",
            var.sqrt()
        );
    }
}

/// At alpha = 0 groups of equal size get identical fair values on the fitted rows (KS = 0), and
/// groups of any sizes are within the discretisation bound 1/min(n_s, n_t).
#[test]
fn alpha_zero_equalises_the_groups_on_the_fitted_rows() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for sizes in [[400, 400, 400], [500, 130, 37]] {
        let mut y = Vec::new();
        let mut codes = Vec::new();
        for (g, &n) in sizes.iter().enumerate() {
            let d = Normal::new(g as f64, 1.0 + g as f64).unwrap();
            y.extend((0..n).map(|_| d.sample(&mut rng)));
            codes.extend(std::iter::repeat_n(g, n));
        }
        let groups = Groups::from_codes(&codes).unwrap();
        let before = ks(&split(&y, &codes, 0), &split(&y, &codes, 2));
        let fitted = WassersteinBarycenter::params()
            .fit(&y, &[groups.clone()], None)
            .unwrap();
        let fair = fitted.transform(&y, &[groups]).unwrap();
        for (s, t) in [(0, 1), (0, 2), (1, 2)] {
            let d = ks(&split(&fair, &codes, s), &split(&fair, &codes, t));
            let bound = 1.0 / sizes[s].min(sizes[t]) as f64;
            if sizes[s] == sizes[t] {
                assert!(d < 1e-12, "equal sizes {sizes:?}: KS {d}");
            }
            assert!(
                d <= bound + 1e-12,
                "{sizes:?} groups {s},{t}: KS {d} > {bound}"
            );
        }
        assert!(before > 0.3, "the groups differ before ({before})");
    }
}

/// Two attributes: the second is fair over all rows, the first within each group of the second.
#[test]
fn two_attributes_in_sequence() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let n = 2400;
    let a: Vec<usize> = (0..n).map(|i| i % 2).collect();
    let b: Vec<usize> = (0..n).map(|i| (i / 2) % 3).collect();
    let noise = Normal::new(0.0, 1.0).unwrap();
    let y: Vec<f64> = (0..n)
        .map(|i| a[i] as f64 * 2.0 + b[i] as f64 + noise.sample(&mut rng))
        .collect();
    let attrs = [
        Groups::from_codes(&a).unwrap(),
        Groups::from_codes(&b).unwrap(),
    ];
    let fitted = WassersteinBarycenter::params()
        .fit(&y, &attrs, None)
        .unwrap();
    let fair = fitted.transform(&y, &attrs).unwrap();
    // The last attribute is exactly equalised (equal group sizes 800: KS 0).
    let b0 = split(&fair, &b, 0);
    for g in 1..3 {
        assert!(ks(&b0, &split(&fair, &b, g)) < 1e-12);
    }
    // The first one is close to equalised (the second step moves each b-group by one map).
    assert!(ks(&split(&fair, &a, 0), &split(&fair, &a, 1)) < 0.05);
    assert!(ks(&split(&y, &a, 0), &split(&y, &a, 1)) > 0.5);
    // Codes are matched by name: the same rows coded differently give the same output.
    let renamed = Groups::new(
        a.iter().map(|c| 1 - c).collect(),
        vec!["1".into(), "0".into()],
    )
    .unwrap();
    assert_eq!(
        fitted.transform(&y, &[renamed, attrs[1].clone()]).unwrap(),
        fair
    );
    // Per-attribute levels: alpha = 1 on both keeps the predictions.
    assert_eq!(
        fitted
            .transform_with_alpha(&y, &attrs, &[1.0, 1.0])
            .unwrap(),
        y
    );
}

#[test]
fn jitter_is_seeded_and_breaks_ties() {
    // Heavy ties: three values per group.
    let y: Vec<f64> = (0..300)
        .map(|i| f64::from(i % 3) + if i < 150 { 0.0 } else { 1.0 })
        .collect();
    let codes: Vec<usize> = (0..300).map(|i| usize::from(i >= 150)).collect();
    let g = Groups::from_codes(&codes).unwrap();
    let fit = |seed| {
        let p = WassersteinBarycenter::params()
            .sigma(1e-3)
            .seed(seed)
            .check()
            .unwrap();
        p.fit(&y, &[g.clone()], None)
            .unwrap()
            .transform(&y, &[g.clone()])
            .unwrap()
    };
    assert_eq!(fit(1), fit(1));
    assert_ne!(fit(1), fit(2));
    let exact = WassersteinBarycenter::params()
        .fit(&y, &[g.clone()], None)
        .unwrap()
        .transform(&y, &[g.clone()])
        .unwrap();
    let distinct = |v: &[f64]| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        v.dedup();
        v.len()
    };
    assert_eq!(
        distinct(&exact),
        3,
        "without jitter tied predictions share one value"
    );
    // A fresh jitter at transform lands each row anywhere in its tie block of 50 jittered fitted
    // values: up to 151 CDF levels, the same barycenter map for both groups.
    assert!(distinct(&fit(1)) > 100, "the jitter splits the ties");
}

#[test]
fn weights_act_as_repeated_rows() {
    let y = [0.2, 0.5, 0.9, 1.5, 2.0, 2.4, 3.1];
    let codes = [0, 0, 0, 1, 1, 1, 1];
    let w = [1.0, 2.0, 1.0, 1.0, 1.0, 3.0, 1.0];
    let g = Groups::from_codes(&codes).unwrap();
    let weighted = WassersteinBarycenter::params()
        .fit(&y, &[g.clone()], Some(&w))
        .unwrap();
    // Shares are the groups' weights over the total.
    let shares = weighted.shares(0).unwrap();
    assert!((shares[0] - 4.0 / 10.0).abs() < 1e-15 && (shares[1] - 6.0 / 10.0).abs() < 1e-15);
    // Zero weights drop rows from the fit.
    let w0 = [1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0];
    let dropped = WassersteinBarycenter::params()
        .fit(&y, &[g.clone()], Some(&w0))
        .unwrap();
    let sub = Groups::from_codes(&[0, 0, 1, 1, 1]).unwrap();
    let plain = WassersteinBarycenter::params()
        .fit(&[0.2, 0.5, 1.5, 2.0, 2.4], &[sub], None)
        .unwrap();
    let probe = Groups::from_codes(&[0, 1, 0, 1]).unwrap();
    let x = [0.3, 1.7, 0.6, 2.2];
    let (a, b) = (
        dropped.transform(&x, &[probe.clone()]).unwrap(),
        plain.transform(&x, &[probe]).unwrap(),
    );
    assert!(
        a.iter().zip(&b).all(|(p, q)| (p - q).abs() < 1e-12),
        "{a:?} vs {b:?}"
    );
}

#[test]
fn bad_inputs_are_typed_errors() {
    let g = Groups::from_labels(&["a", "a", "b", "b"]);
    let y = [0.1, 0.2, 0.3, 0.4];
    let p = WassersteinBarycenter::params().check().unwrap();
    assert!(matches!(
        p.fit(&[0.1, f64::NAN, 0.3, 0.4], &[g.clone()], None),
        Err(E::NonFinite {
            what: "predictions",
            row: 1,
            ..
        })
    ));
    assert!(matches!(p.fit(&y, &[], None), Err(E::NoAttributes)));
    assert!(matches!(
        p.fit(
            &[],
            &[Groups::new(vec![], vec!["a".into(), "b".into()]).unwrap()],
            None
        ),
        Err(E::Empty)
    ));
    assert!(matches!(
        p.fit(&y[..3], &[g.clone()], None),
        Err(E::LengthMismatch { .. })
    ));
    assert!(matches!(
        p.fit(&y, &[g.clone()], Some(&[1.0, -1.0, 1.0, 1.0])),
        Err(E::NegativeWeight { row: 1, .. })
    ));
    assert!(matches!(
        p.fit(&y, &[g.clone()], Some(&[1.0, 1.0, 0.0, 0.0])),
        Err(E::EmptyGroup { attribute: 0, .. })
    ));
    let declared = Groups::new(vec![0, 0, 1, 1], vec!["a".into(), "b".into(), "c".into()]).unwrap();
    let e = p.fit(&y, &[declared], None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "group \"c\" of sensitive attribute 0 has no rows with positive weight: drop it (Groups::compact()) or give it rows"
    );
    assert!(matches!(
        p.fit(&y, &[Groups::from_labels(&["a"; 4])], None),
        Err(E::SingleGroup { .. })
    ));
    for alpha in [-0.1, 1.1, f64::NAN] {
        assert!(matches!(
            WassersteinBarycenter::params().alpha(alpha).check(),
            Err(E::InvalidParameter { name: "alpha", .. })
        ));
    }
    assert!(matches!(
        WassersteinBarycenter::params().sigma(-1.0).check(),
        Err(E::InvalidParameter { name: "sigma", .. })
    ));
    let fitted = p.fit(&y, &[g.clone()], None).unwrap();
    let unseen = Groups::from_labels(&["a", "c"]);
    let e = fitted.transform(&[0.1, 0.2], &[unseen]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "row 1: group \"c\" of sensitive attribute 0 was not seen at fit time; fit on rows that include it"
    );
    assert!(matches!(
        fitted.transform(&[0.1, f64::INFINITY], &[Groups::from_labels(&["a", "b"])]),
        Err(E::NonFinite { row: 1, .. })
    ));
    assert!(matches!(
        fitted.transform(&y, &[g.clone(), g.clone()]),
        Err(E::AttributeCount {
            expected: 1,
            got: 2
        })
    ));
    assert!(matches!(
        fitted.transform_with_alpha(&y, &[g.clone()], &[2.0]),
        Err(E::InvalidParameter { .. })
    ));
    assert!(matches!(
        fitted.with_alpha(&[0.1, 0.2]),
        Err(E::AlphaCount { .. })
    ));
    // A combination of the later attribute's groups not seen at fit.
    let a = Groups::from_labels(&["x", "y", "x", "y"]);
    let b = Groups::from_labels(&["u", "u", "v", "v"]);
    let two = p.fit(&y, &[a, b], None).unwrap();
    let e = two
        .transform(
            &[0.1],
            &[
                Groups::from_labels(&["x"]),
                Groups::new(vec![0], vec!["w".into()]).unwrap(),
            ],
        )
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("group \"w\" of sensitive attribute 1"),
        "{e}"
    );
    let a1 = Groups::from_labels(&["x", "x", "x", "y"]);
    let b1 = Groups::from_labels(&["u", "u", "v", "v"]);
    let one_in_u = p.fit(&y, &[a1, b1], None).unwrap();
    let e = one_in_u
        .transform(
            &[0.1],
            &[
                Groups::new(vec![1], vec!["x".into(), "y".into()]).unwrap(),
                Groups::from_labels(&["u"]),
            ],
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "row 0: group \"y\" of sensitive attribute 0 was not seen at fit time among the rows with attribute 1=\"u\"; fit on rows that include it"
    );
    assert!(matches!(
        FittedBarycenter::from_bytes(b"FKWB\x02"),
        Err(E::Decode { .. })
    ));
}
