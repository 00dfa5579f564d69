//! Golden numbers of the embedded datasets (rows, label rate, group counts, feature counts), from
//! `crates/fair-data/DATA.md` and the papers' data notes; each figure was also counted
//! independently from the raw files.
// Indicator sums are small integers, exactly representable: exact comparison is intended.
#![allow(clippy::float_cmp)]

use fair_data::{Recipe, recipes};

fn counts_by_name(ds: &fair_data::Dataset, attr: &str) -> Vec<(String, usize)> {
    let g = ds.groups(attr).unwrap();
    g.names().iter().cloned().zip(g.counts()).collect()
}

#[test]
fn adult_tfco_has_122_features_and_golden_counts() {
    let ds = recipes::adult_tfco().unwrap();
    assert_eq!(ds.n_rows(), 48_842);
    assert_eq!(ds.n_features(), 122);
    assert_eq!(ds.class_counts(), vec![37_155, 11_687]); // P(>50K) = 0.2393
    assert!((ds.positive_rate() - 0.2393).abs() < 5e-5);
    assert_eq!(
        counts_by_name(&ds, "sex"),
        vec![("Female".into(), 16_192), ("Male".into(), 32_650)]
    );
    // Every row sets exactly one column per one-hot block: 8 categorical + 5 bucketed attributes.
    for i in (0..ds.n_rows()).step_by(997) {
        assert_eq!(ds.x().row(i).sum(), 13.0);
    }
}

#[test]
fn adult_a9a_has_123_binary_features() {
    let ds = recipes::adult_a9a().unwrap();
    assert_eq!((ds.n_rows(), ds.n_features()), (48_842, 123));
    assert!(ds.x().iter().all(|&v| v == 0.0 || v == 1.0));
    assert!(ds.feature_names().iter().any(|n| n == "sex=Female"));
    // Rows without a missing value set exactly one indicator per attribute (14).
    assert_eq!(ds.x().row(0).sum(), 14.0);
}

#[test]
fn adult_fair_projection_keeps_white_and_black() {
    let ds = recipes::adult_fair_projection().unwrap();
    assert_eq!(ds.n_rows(), 46_447);
    let race = counts_by_name(&ds, "race");
    assert_eq!(race.len(), 2);
    assert_eq!(race[0].0, "Black");
    assert_eq!(ds.n_features(), 20);
    assert_eq!(race[0].1 + race[1].1, 46_447);
}

#[test]
fn compas_propublica_filter_leaves_6172() {
    let ds = recipes::compas_propublica().unwrap();
    assert_eq!(ds.n_rows(), 6_172);
    assert_eq!(ds.class_counts()[1], 2_809);
    assert_eq!(ds.n_features(), 17);
    assert_eq!(
        counts_by_name(&ds, "race"),
        vec![
            ("African-American".into(), 3_175),
            ("Asian".into(), 31),
            ("Caucasian".into(), 2_103),
            ("Hispanic".into(), 509),
            ("Native American".into(), 11),
            ("Other".into(), 343),
        ]
    );
    assert_eq!(
        counts_by_name(&ds, "sex"),
        vec![("Female".into(), 1_175), ("Male".into(), 4_997)]
    );
}

#[test]
fn compas_tfco_has_the_notebooks_31_columns() {
    let ds = recipes::compas_tfco().unwrap();
    assert_eq!((ds.n_rows(), ds.n_features()), (6_172, 31));
    assert_eq!(ds.class_counts(), vec![3_363, 2_809]);
    let names = ds.feature_names();
    assert_eq!(names[0], "days_b_screening_arrest");
    assert_eq!(names[30], "priors_count_4");
    let col = |name: &str| {
        let j = names.iter().position(|n| n == name).unwrap();
        ds.x().column(j).sum()
    };
    // Counted from the raw file with the notebook's edges: age (0,24] … (52.9,96], decile
    // score edges 0,1,3,5,7,9,10 (cumulative), priors edges 0,1,3,5,9,38 (cumulative; 0 priors
    // sets nothing).
    assert_eq!(col("score_text=Low"), 3_421.0);
    assert_eq!(col("score_text=High"), 1_144.0);
    assert_eq!(col("decile_score_0"), 6_172.0);
    assert_eq!(col("priors_count_0"), 4_087.0);
    let ages: Vec<f64> = (0..6).map(|k| col(&format!("age_{k}"))).collect();
    assert_eq!(ages, vec![1_347.0, 1_334.0, 1_168.0, 1_122.0, 583.0, 618.0]);
    // Every row: one charge degree, race, score text, sex and age column.
    for i in (0..ds.n_rows()).step_by(613) {
        let row = ds.x().row(i);
        let one_hot: f64 = row.iter().skip(1).take(19).sum();
        assert_eq!(one_hot, 5.0);
        assert!(row[0].abs() <= 30.0);
    }
}

#[test]
fn compas_fair_projection_recipe() {
    let ds = recipes::compas_fair_projection().unwrap();
    assert_eq!(ds.n_rows(), 5_278);
    assert_eq!(ds.class_counts()[1], 2_647);
    assert_eq!(ds.n_features(), 6);
}

#[test]
fn german_credit_golden() {
    let ds = recipes::german_credit().unwrap();
    assert_eq!(ds.n_rows(), 1_000);
    assert_eq!(ds.class_counts(), vec![700, 300]);
    assert_eq!(ds.n_features(), 61);
    assert_eq!(
        counts_by_name(&ds, "sex"),
        vec![("female".into(), 310), ("male".into(), 690)]
    );
    assert_eq!(
        counts_by_name(&ds, "housing"),
        vec![
            ("for free".into(), 108),
            ("own".into(), 713),
            ("rent".into(), 179)
        ]
    );
}

#[test]
fn default_credit_golden() {
    let ds = recipes::default_credit().unwrap();
    assert_eq!(ds.n_rows(), 30_000);
    assert_eq!(ds.class_counts()[1], 6_636); // 22.12 %
    assert_eq!(ds.n_features(), 32);
    assert_eq!(
        counts_by_name(&ds, "sex"),
        vec![("female".into(), 18_112), ("male".into(), 11_888)]
    );
    let marriage = counts_by_name(&ds, "marriage");
    assert_eq!(
        marriage,
        vec![
            ("married".into(), 13_659),
            ("other".into(), 323),
            ("single".into(), 15_964),
            ("unknown (0)".into(), 54),
        ]
    );
    let edu = counts_by_name(&ds, "education");
    assert!(edu.contains(&("graduate school".into(), 10_585)));
    assert!(edu.contains(&("university".into(), 14_030)));
    assert!(edu.contains(&("high school".into(), 4_917)));
}

#[test]
fn law_school_golden() {
    let ds = recipes::law_school().unwrap();
    assert_eq!(ds.n_rows(), 21_791);
    assert_eq!(ds.class_counts()[1], 19_360);
    assert_eq!(ds.n_features(), 12);
    let race = counts_by_name(&ds, "race");
    assert!(race.contains(&("White".into(), 18_285)));
    assert!(race.contains(&("Black".into(), 1_282)));
    assert_eq!(race.len(), 8);
    assert_eq!(
        counts_by_name(&ds, "sex"),
        vec![("female".into(), 9_537), ("male".into(), 12_254)]
    );
}

#[test]
fn law_school_zfya_quantile_classes_are_balanced() {
    let ds = recipes::law_school_zfya_classes(5).unwrap();
    assert_eq!(ds.n_classes(), 5);
    assert!(!ds.feature_names().iter().any(|n| n == "ZFYA"));
    for c in ds.class_counts() {
        // Equal-frequency bins up to ties in ZFYA's two-decimal values.
        assert!((3_900..=4_900).contains(&c), "class size {c}");
    }
    assert!(recipes::law_school_zfya_classes(1).is_err());
}

#[test]
fn communities_crime_golden() {
    let ds = recipes::communities_crime().unwrap();
    assert_eq!(ds.n_rows(), 1_993);
    assert_eq!(ds.class_counts()[1], 653);
    assert_eq!(ds.n_features(), 145);
    assert_eq!(
        counts_by_name(&ds, "black_share"),
        vec![("<= 6 %".into(), 1_023), ("> 6 %".into(), 970)]
    );
}

#[test]
fn every_recipe_loads() {
    for r in Recipe::ALL {
        let ds = r.load().unwrap();
        assert!(ds.n_rows() > 0, "{r:?}");
        assert!(!ds.sensitive().is_empty(), "{r:?}");
    }
}
