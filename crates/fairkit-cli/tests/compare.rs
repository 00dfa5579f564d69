//! `fairkit compare` end to end (issue 26): two audits of hand-made files, the change of every
//! gap with its interval and p-value, the `--fail-if-worse` gate, and bad inputs.

mod common;

use common::{fairkit, write};
use std::path::{Path, PathBuf};

/// A CSV of 200 rows per group (f, m), labels alternating, `sel_f` / `sel_m` rows predicted
/// positive.
fn csv(dir: &Path, name: &str, sel_f: usize, sel_m: usize) -> PathBuf {
    let mut s = String::from("y,y_hat,sex,w\n");
    for (g, sel) in [("f", sel_f), ("m", sel_m)] {
        for i in 0..200 {
            s.push_str(&format!("{},{},{g},1.0\n", i % 2, usize::from(i < sel)));
        }
    }
    write(dir, name, &s)
}

fn audit(file: &Path, out: &Path, extra: &[&str]) {
    let mut args = vec![
        "audit",
        file.to_str().unwrap(),
        "--label",
        "y",
        "--pred",
        "y_hat",
        "--sensitive",
        "sex",
        "--resamples",
        "200",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let run = fairkit(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

fn compare(before: &Path, after: &Path, out: &Path, extra: &[&str]) -> common::Run {
    let mut args = vec![
        "compare",
        before.to_str().unwrap(),
        after.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--resamples",
        "500",
    ];
    args.extend_from_slice(extra);
    fairkit(&args)
}

/// Parses `out/compare.json`, checking that the typed comparison reads it back to the same bytes.
fn json(out: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(out.join("compare.json")).unwrap();
    let typed: fair_audit::model::compare::Comparison =
        serde_json::from_str(&text).expect("compare.json reads typed");
    assert!(serde_json::to_string_pretty(&typed).unwrap() == text);
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_fairer_model_passes_the_gate_and_a_worse_one_fails_it() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    audit(&csv(dir.path(), "old.csv", 120, 80), &old, &[]);
    audit(&csv(dir.path(), "new.csv", 100, 100), &new, &[]);
    let out = dir.path().join("c");
    let run = compare(
        &old,
        &new.join("report.json"),
        &out,
        &["--fail-if-worse", "dp_difference"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let c = json(&out);
    assert_eq!(c["schema"], "fairkit-compare");
    let dp = &c["changes"][0]["gaps"][0];
    assert_eq!(dp["key"], "dp_difference");
    // Selection 0.6 / 0.4 before, 0.5 / 0.5 after: 0.2 → 0.
    assert!((dp["before"].as_f64().unwrap() - 0.2).abs() < 1e-12);
    assert_eq!(dp["after"], 0.0);
    assert!(dp["p_value"].as_f64().unwrap() < 0.05);
    assert_eq!(dp["worse"], false);
    // Every rate of every group too: f's selection rate 0.6 → 0.5 (Newcombe interval, z-test).
    let sel_f = c["changes"][0]["rates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["group"] == "f" && r["rate"] == "selection_rate")
        .unwrap();
    assert!(
        (sel_f["change"].as_f64().unwrap() + 0.1).abs() < 1e-12,
        "{sel_f}"
    );
    assert!(sel_f["lower"].as_f64().unwrap() < -0.1 && sel_f["upper"].as_f64().unwrap() > -0.1);
    // z = 0.1 / sqrt(0.55 · 0.45 · 2/200) = 2.0101: p = 0.0444.
    assert!(
        (sel_f["p_value"].as_f64().unwrap() - 0.0444).abs() < 1e-3,
        "{sel_f}"
    );
    assert_eq!(c["changes"][0]["rates"].as_array().unwrap().len(), 8);
    let summary: Vec<&str> = c["summary"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(
        summary.iter().any(|s| s.starts_with(
            "The demographic parity difference across sex went from 0.200 to 0 (better: change -0.200"
        )),
        "{summary:?}"
    );
    assert!(
        std::fs::read_to_string(out.join("compare.html"))
            .unwrap()
            .contains("<table>")
    );
    // The before/after chart of the slice, linked from the markdown and drawn in the HTML.
    let md = std::fs::read_to_string(out.join("compare.md")).unwrap();
    assert!(md.contains("figures/compare-sex.svg"), "{md}");
    let svg = std::fs::read_to_string(out.join("figures/compare-sex.svg")).unwrap();
    // Plain names, ratios and differences in their own panels.
    assert!(
        svg.contains("demographic parity, after")
            && svg.contains("ratios (1 = parity)")
            && svg.contains("differences (0 = parity)"),
        "{svg}"
    );
    // The other way round the gap got worse: exit 1 naming it.
    let run = compare(
        &new,
        &old,
        &out,
        &["--fail-if-worse", "dp_difference,eo_ratio"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("FAILED (exit code 1): dp_difference got worse"),
        "{}",
        run.stderr
    );
}

#[test]
fn identical_audits_compare_equal() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    audit(&csv(dir.path(), "a.csv", 120, 80), &a, &[]);
    let out = dir.path().join("c");
    let run = compare(&a, &a, &out, &["--fail-if-worse", "dp_difference"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let c = json(&out);
    for g in c["changes"][0]["gaps"].as_array().unwrap() {
        if g["change"].is_null() {
            continue;
        }
        assert_eq!(g["change"], 0.0, "{g}");
        assert!(g["lower"].as_f64().unwrap() <= 0.0 && g["upper"].as_f64().unwrap() >= 0.0);
        assert!(g["p_value"].as_f64().unwrap() >= 0.05, "{g}");
    }
    let summary: Vec<&str> = c["summary"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s.as_str())
        .collect();
    assert!(
        summary[0].starts_with("Accuracy on all rows:"),
        "{summary:?}"
    );
    assert!(
        summary
            .iter()
            .any(|s| s.starts_with("No gap changed distinguishably")),
        "{summary:?}"
    );
    assert!(
        c["verdicts"]
            .as_array()
            .unwrap()
            .iter()
            .all(|v| v["verdict"] == "unchanged"),
        "{}",
        c["verdicts"]
    );
}

#[test]
fn reports_that_cannot_be_compared_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let f = csv(dir.path(), "a.csv", 120, 80);
    let (a, w) = (dir.path().join("a"), dir.path().join("w"));
    audit(&f, &a, &[]);
    audit(&f, &w, &["--weight", "w"]);
    let out = dir.path().join("c");
    let run = compare(&a, &w, &out, &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("the second report: a weighted audit"),
        "{}",
        run.stderr
    );
    let run = compare(&a, &dir.path().join("missing"), &out, &[]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("AFTER"), "{}", run.stderr);
    let run = compare(&a, &a, &out, &["--fail-if-worse", "auc_difference"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("count-gap keys of the report"),
        "{}",
        run.stderr
    );
    let run = compare(&a, &a, &out, &["--confidence", "1.5"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

/// Two models' predictions in one file: `--pred old --against new`, paired.
fn paired_csv(dir: &Path) -> PathBuf {
    let mut s = String::from("y,old,new,same,other,sex\n");
    for (g, sel_old, sel_new) in [("f", 120, 100), ("m", 80, 100)] {
        for i in 0..200 {
            let (o, n) = (usize::from(i < sel_old), usize::from(i < sel_new));
            s.push_str(&format!(
                "{},{o},{n},{o},{},{g}\n",
                i % 2,
                if i == 0 { "2" } else { "0" }
            ));
        }
    }
    write(dir, "paired.csv", &s)
}

fn paired(file: &Path, out: &Path, against: &str) -> common::Run {
    fairkit(&[
        "audit",
        file.to_str().unwrap(),
        "--label",
        "y",
        "--pred",
        "old",
        "--against",
        against,
        "--sensitive",
        "sex",
        "--resamples",
        "400",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ])
}

#[test]
fn two_prediction_columns_of_one_file_compare_paired() {
    let dir = tempfile::tempdir().unwrap();
    let f = paired_csv(dir.path());
    let out = dir.path().join("p");
    let run = paired(&f, &out, "new");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = common::report(&out);
    let c = &r["comparison"];
    assert_eq!(c["settings"]["paired"], true);
    let dp = &c["changes"][0]["gaps"][0];
    assert!((dp["before"].as_f64().unwrap() - 0.2).abs() < 1e-12);
    assert_eq!(dp["after"], 0.0);
    assert!(dp["upper"].as_f64().unwrap() < 0.0 && dp["p_value"].as_f64().unwrap() < 0.05);
    // Rates, paired: the new model selects a subset of the old one's rows in f (100 of its
    // 120), so b = 20, c = 0: change −0.1 and McNemar's p = 2 · 0.5^20.
    let sel_f = c["changes"][0]["rates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["group"] == "f" && r["rate"] == "selection_rate")
        .unwrap();
    assert!(
        (sel_f["change"].as_f64().unwrap() + 0.1).abs() < 1e-12,
        "{sel_f}"
    );
    assert!((sel_f["p_value"].as_f64().unwrap() - 2.0 * 0.5f64.powi(20)).abs() < 1e-15);
    // The audit itself is the audit of --pred.
    assert!((r["headline"]["dp_difference"]["value"].as_f64().unwrap() - 0.2).abs() < 1e-12);
    assert!(
        r["summary"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s.as_str().unwrap().starts_with("Against ")),
        "{}",
        r["summary"]
    );
    let v = fairkit(&["validate-report", out.join("report.json").to_str().unwrap()]);
    assert_eq!(v.code, 0, "{}", v.stderr);
    // Identical predictions: a change of exactly 0, interval [0, 0], p = 1.
    let run = paired(&f, &out, "same");
    assert_eq!(run.code, 0, "{}", run.stderr);
    for g in common::report(&out)["comparison"]["changes"][0]["gaps"]
        .as_array()
        .unwrap()
    {
        if g["change"].is_null() {
            continue;
        }
        assert_eq!(
            (&g["change"], &g["lower"], &g["upper"], &g["p_value"]),
            (&0.0.into(), &0.0.into(), &0.0.into(), &1.0.into()),
            "{g}"
        );
    }
    for r in common::report(&out)["comparison"]["changes"][0]["rates"]
        .as_array()
        .unwrap()
    {
        assert_eq!(
            (&r["change"], &r["lower"], &r["upper"], &r["p_value"]),
            (&0.0.into(), &0.0.into(), &0.0.into(), &1.0.into()),
            "{r}"
        );
    }
    // A third value in the second column is an error naming it.
    let run = paired(&f, &out, "other");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("\"2\", which is neither label value"),
        "{}",
        run.stderr
    );
    let run = paired(&f, &out, "old");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--against"), "{}", run.stderr);
}

#[test]
fn fail_if_gates_on_changes_slice_by_slice() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    audit(&csv(dir.path(), "old.csv", 100, 100), &old, &[]);
    audit(&csv(dir.path(), "new.csv", 120, 80), &new, &[]);
    let out = dir.path().join("c");
    // dp_difference 0 → 0.2, distinguishable: the gate fails and names the slice.
    let gate = "change(dp_difference) > 0.02 and p < 0.01";
    let run = compare(&old, &new, &out, &["--fail-if", gate]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("change(dp_difference) > 0.02 [slice sex]"),
        "{}",
        run.stderr
    );
    let c = json(&out);
    assert_eq!(c["fail_if"][0]["expression"], gate);
    assert_eq!(c["fail_if"][0]["failed"], true);
    assert!(
        (c["fail_if"][0]["comparisons"][0]["actual"]
            .as_f64()
            .unwrap()
            - 0.2)
            .abs()
            < 1e-12
    );
    // The other way round the change is -0.2: the gate passes; a plain key reads AFTER.
    let run = compare(
        &new,
        &old,
        &out,
        &["--fail-if", gate, "--fail-if", "dp_difference > 0.1"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(json(&out)["fail_if"][1]["comparisons"][0]["actual"], 0.0);
    // A bare p with no change, and a change of a score key, are refused before any work.
    for bad in ["p < 0.01", "change(ks_dp) > 0"] {
        let run = compare(&old, &new, &out, &["--fail-if", bad]);
        assert_eq!(run.code, 2, "{bad}: {}", run.stderr);
    }
}

#[test]
fn audit_against_gates_on_the_paired_change_and_refuses_changes_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let f = paired_csv(dir.path());
    let out = dir.path().join("p");
    let mut args = vec![
        "audit",
        f.to_str().unwrap(),
        "--label",
        "y",
        "--pred",
        "old",
        "--against",
        "new",
        "--sensitive",
        "sex",
        "--resamples",
        "400",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--fail-if",
        "change(dp_difference) < -0.1 and p < 0.05",
    ];
    // old → new: 0.2 → 0, a distinguishable improvement: this gate (on improvement) holds.
    let run = fairkit(&args);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let r = common::report(&out);
    assert_eq!(r["fail_if"][0]["failed"], true);
    let v = fairkit(&["validate-report", out.join("report.json").to_str().unwrap()]);
    assert_eq!(v.code, 0, "{}", v.stderr);
    // Without --against a change gate is a flag error, before the file is read.
    args.drain(6..8);
    let run = fairkit(&args);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("add --against"), "{}", run.stderr);
}

#[test]
fn two_predictions_files_are_audited_with_the_flags_after_the_separator() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (
        csv(dir.path(), "old.csv", 120, 80),
        csv(dir.path(), "new.csv", 100, 100),
    );
    let out = dir.path().join("c");
    let flags = [
        "--",
        "--label",
        "y",
        "--pred",
        "y_hat",
        "--sensitive",
        "sex",
    ];
    let run = compare(&old, &new, &out, &flags);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let dp = &json(&out)["changes"][0]["gaps"][0];
    assert!((dp["before"].as_f64().unwrap() - 0.2).abs() < 1e-12);
    assert_eq!(dp["after"], 0.0);
    // Each audit is kept beside the comparison, and equals `fairkit audit` of the file.
    assert!(out.join("before/report.json").is_file() && out.join("after/report.html").is_file());
    // A file with a report: mixed sides work too.
    let run = compare(&old, &out.join("after"), &out, &flags);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Without flags, or with flags audit does not take: refused naming what to give.
    let run = compare(&old, &new, &out, &[]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("flags after `--`"), "{}", run.stderr);
    let run = compare(&old, &new, &out, &["--", "--label", "y", "--no-such-flag"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("flags of `fairkit audit`"),
        "{}",
        run.stderr
    );
}

#[test]
fn audits_whose_groups_differ_compare_and_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = std::fs::read_to_string(csv(dir.path(), "new.csv", 100, 100)).unwrap();
    for i in 0..200 {
        s.push_str(&format!("{},{},x,1.0\n", i % 2, usize::from(i < 90)));
    }
    let new = write(dir.path(), "new3.csv", &s);
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    audit(&csv(dir.path(), "old.csv", 120, 80), &a, &[]);
    audit(&new, &b, &[]);
    let out = dir.path().join("c");
    // Refused by default (the gaps would be measured over different groups), naming them …
    let run = compare(&a, &b, &out, &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("the groups of slice \"sex\" differ (only after: \"x\")"),
        "{}",
        run.stderr
    );
    assert!(!out.join("compare.json").exists());
    // … and compared, saying so, with --allow-partial.
    let run = compare(&a, &b, &out, &["--allow-partial"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let c = json(&out);
    let summary = c["summary"].to_string();
    assert!(
        summary.contains("The groups of sex differ: only before: none; only after: x."),
        "{summary}"
    );
    // Rates are compared for f and m only.
    assert!(
        c["changes"][0]["rates"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["group"] != "x")
    );
}

/// 500 rows per group (f, m), labels alternating; `fair` scores ignore the group, `unfair`
/// scores add 0.3 for m. Deterministic, so both columns of one file are two models on the same
/// rows.
fn scored_csv(dir: &Path) -> PathBuf {
    let mut s = String::from("y,y_hat,sex,fair,unfair\n");
    for g in ["f", "m"] {
        for i in 0..500 {
            let y = i % 2;
            let base = 0.35 * y as f64 + 0.6 * ((i * 37 % 500) as f64 / 500.0);
            let shift = if g == "m" { 0.3 } else { 0.0 };
            s.push_str(&format!("{y},{},{g},{base},{}\n", i % 3 % 2, base + shift));
        }
    }
    write(dir, "scored.csv", &s)
}

#[test]
fn score_gaps_change_between_two_score_columns_of_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = scored_csv(dir.path());
    let (unfair, fair) = (dir.path().join("unfair"), dir.path().join("fair"));
    audit(&file, &unfair, &["--score", "unfair"]);
    audit(&file, &fair, &["--score", "fair"]);
    let out = dir.path().join("cmp");
    let run = compare(
        &unfair,
        &fair,
        &out,
        &["--fail-if", "change(ks_dp) < -0.1 and p < 0.05"],
    );
    assert_eq!(run.code, 1, "the gate holds, so it fails: {}", run.stderr);
    let c = json(&out);
    assert!(
        c["settings"]["score_method"]
            .as_str()
            .unwrap()
            .contains("Bonferroni")
    );
    let gaps = c["score_changes"][0]["gaps"].as_array().unwrap();
    let ks = gaps.iter().find(|g| g["key"] == "ks_dp").unwrap();
    let before = ks["before"].as_f64().unwrap();
    assert!(before > 0.4, "{ks}");
    assert!(ks["after"].as_f64().unwrap() < 1e-12, "{ks}");
    assert!(ks["upper"].as_f64().unwrap() < 0.0 && ks["p_value"].as_f64().unwrap() < 0.05);
    assert!(gaps.iter().any(|g| g["key"] == "auc_difference"));
    let md = std::fs::read_to_string(out.join("compare.md")).unwrap();
    assert!(
        md.contains("score gaps")
            && md.contains("demographic parity difference over all thresholds"),
        "{md}"
    );
    assert!(out.join("figures/compare-sex-scores.svg").exists());

    // The same from the file alone: the AFTER audit takes --after-score instead of --score.
    let direct = dir.path().join("direct");
    let f = file.to_str().unwrap();
    let mut argv = vec![
        "compare",
        f,
        f,
        "--out",
        direct.to_str().unwrap(),
        "--resamples",
        "500",
    ];
    argv.extend([
        "--after-score",
        "fair",
        "--",
        "--label",
        "y",
        "--pred",
        "y_hat",
    ]);
    argv.extend([
        "--sensitive",
        "sex",
        "--resamples",
        "200",
        "--score",
        "unfair",
    ]);
    let run = fairkit(&argv);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(json(&direct)["score_changes"], c["score_changes"]);
    // --after-score needs a --score to replace, and a predictions file to audit.
    let run = fairkit(&[
        "compare",
        f,
        f,
        "--out",
        direct.to_str().unwrap(),
        "--after-score",
        "fair",
        "--",
        "--label",
        "y",
        "--pred",
        "y_hat",
        "--sensitive",
        "sex",
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("--after-score") && run.stderr.contains("--score COLUMN"),
        "{}",
        run.stderr
    );
    let run = fairkit(&[
        "compare",
        unfair.to_str().unwrap(),
        fair.to_str().unwrap(),
        "--after-score",
        "fair",
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("saved audit"), "{}", run.stderr);

    // The same audit twice: every score gap changes by exactly 0 with p = 1.
    let same = dir.path().join("same");
    assert_eq!(compare(&unfair, &unfair, &same, &[]).code, 0);
    for g in json(&same)["score_changes"][0]["gaps"].as_array().unwrap() {
        assert_eq!(g["change"].as_f64(), Some(0.0), "{g}");
        assert_eq!(g["p_value"].as_f64(), Some(1.0), "{g}");
        assert!(g["lower"].as_f64().unwrap() < 0.0 && g["upper"].as_f64().unwrap() > 0.0);
    }

    // The change interval at 95 % is built from each audit's own 97.5 % interval: audited at
    // 97.5 %, the reports hold exactly those ends.
    let (u975, f975) = (dir.path().join("u975"), dir.path().join("f975"));
    audit(
        &file,
        &u975,
        &["--score", "unfair", "--confidence", "0.975"],
    );
    audit(&file, &f975, &["--score", "fair", "--confidence", "0.975"]);
    let report = |d: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(d.join("report.json")).unwrap()).unwrap()
    };
    let (ru, rf) = (report(&u975), report(&f975));
    for (key, field) in [
        ("ks_dp", "ks_dp"),
        ("ks_eo", "ks_eo"),
        ("auc_difference", "auc_gap"),
    ] {
        let g = gaps.iter().find(|g| g["key"] == key).unwrap();
        let end =
            |r: &serde_json::Value, e: &str| r["score_metrics"][0][field][e].as_f64().unwrap();
        let lower = end(&rf, "lower") - end(&ru, "upper");
        let upper = end(&rf, "upper") - end(&ru, "lower");
        assert!(
            (g["lower"].as_f64().unwrap() - lower).abs() < 1e-12,
            "{key}: {g} vs {lower}"
        );
        assert!(
            (g["upper"].as_f64().unwrap() - upper).abs() < 1e-12,
            "{key}: {g} vs {upper}"
        );
    }
}

/// A CSV like [`csv`] with two sensitive columns named `first` and `second`, the groups of
/// `second` named by `groups`.
fn two_columns(
    dir: &Path,
    name: &str,
    (first, second): (&str, &str),
    groups: [&str; 2],
) -> PathBuf {
    let mut s = format!("y,y_hat,{first},{second}\n");
    for (k, g) in ["f", "m"].into_iter().enumerate() {
        for i in 0..200 {
            let r = groups[(i / 2) % 2];
            s.push_str(&format!(
                "{},{},{g},{r}\n",
                i % 2,
                usize::from(i < 100 + 20 * k)
            ));
        }
    }
    write(dir, name, &s)
}

fn audit_columns(file: &Path, out: &Path, sensitive: &str) {
    let run = fairkit(&[
        "audit",
        file.to_str().unwrap(),
        "--label",
        "y",
        "--pred",
        "y_hat",
        "--sensitive",
        sensitive,
        "--resamples",
        "200",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn a_report_of_another_schema_version_is_refused_naming_it() {
    // It was compared silently while validate-report rejected it.
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    audit(&csv(dir.path(), "a.csv", 120, 80), &a, &[]);
    let text = std::fs::read_to_string(a.join("report.json")).unwrap();
    let v2 = write(
        dir.path(),
        "v2.json",
        &text.replacen("\"schema_version\": 1", "\"schema_version\": 2", 1),
    );
    let out = dir.path().join("c");
    let run = compare(&a, &v2, &out, &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("v2.json") && run.stderr.contains("schema_version is 2"),
        "{}",
        run.stderr
    );
    let run = fairkit(&["validate-report", v2.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    // A malformed field: a typed error naming the file and the field, no panic.
    let bad = write(
        dir.path(),
        "bad.json",
        &text.replacen("\"seed\": 0", "\"seed\": \"zero\"", 1),
    );
    let run = compare(&bad, &a, &out, &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("bad.json") && run.stderr.contains("$.settings.seed"),
        "{}",
        run.stderr
    );
}

#[test]
fn slices_that_do_not_match_are_refused_unless_partial() {
    // `sex,race` against `gender,race` compared `race` only and said "No gap changed".
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    audit_columns(
        &two_columns(dir.path(), "a.csv", ("sex", "race"), ["p", "q"]),
        &a,
        "sex,race",
    );
    audit_columns(
        &two_columns(dir.path(), "b.csv", ("gender", "race"), ["p", "q"]),
        &b,
        "gender,race",
    );
    let out = dir.path().join("c");
    let run = compare(&a, &b, &out, &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    for named in [
        "only the first audit has slice \"sex\", slice \"sex & race\"",
        "only the second audit has slice \"gender\", slice \"gender & race\"",
        "--allow-partial",
    ] {
        assert!(run.stderr.contains(named), "{named}: {}", run.stderr);
    }
    let run = compare(&a, &b, &out, &["--allow-partial", "-q"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.is_empty(), "-q prints nothing: {}", run.stderr);
    // Nothing in common is refused even with --allow-partial.
    let only_sex = dir.path().join("s");
    audit_columns(&dir.path().join("a.csv"), &only_sex, "sex");
    let only_gender = dir.path().join("g");
    audit_columns(&dir.path().join("b.csv"), &only_gender, "gender");
    let run = compare(
        &only_sex,
        &only_gender,
        &out.join("none"),
        &["--allow-partial"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("no sensitive column and prediction source in common"),
        "{}",
        run.stderr
    );
    let c = json(&out);
    assert_eq!(c["changes"].as_array().unwrap().len(), 1);
    assert!(
        c["summary"]
            .to_string()
            .contains("left out, only before: slice \\\"sex\\\""),
        "{}",
        c["summary"]
    );
}

#[test]
fn groups_differing_only_by_case_are_refused_naming_them() {
    // They were warned about and still summarised as "No gap changed".
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    audit_columns(
        &two_columns(dir.path(), "a.csv", ("sex", "race"), ["black", "white"]),
        &a,
        "race",
    );
    audit_columns(
        &two_columns(dir.path(), "b.csv", ("sex", "race"), ["Black", "white"]),
        &b,
        "race",
    );
    let out = dir.path().join("c");
    let run = compare(&a, &b, &out, &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("differing only by case: \"black\" / \"Black\""),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("No gap changed"), "{}", run.stderr);
    let run = compare(&a, &b, &out, &["--allow-partial"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn the_fail_if_worse_verdict_is_recorded_in_every_view() {
    // It was printed on stderr only.
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    audit(&csv(dir.path(), "old.csv", 100, 100), &old, &[]);
    audit(&csv(dir.path(), "new.csv", 140, 60), &new, &[]);
    let out = dir.path().join("c");
    let run = compare(
        &old,
        &new,
        &out,
        &["--fail-if-worse", "dp_difference", "-q"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let c = json(&out);
    let gate = &c["fail_if_worse"];
    assert_eq!(gate["failed"], true, "{gate}");
    assert_eq!(gate["keys"][0], "dp_difference");
    assert_eq!(gate["worse"][0]["slice"], "sex");
    for view in ["compare.md", "compare.html"] {
        let text = std::fs::read_to_string(out.join(view)).unwrap();
        assert!(
            text.contains("Gate failed")
                && text.contains("(--fail-if-worse dp")
                && text.contains("got distinguishably worse: dp")
                && text.contains("across sex went from"),
            "{view}"
        );
    }
    // Passing is recorded too; without the flag there is no verdict.
    let run = compare(&old, &old, &out, &["--fail-if-worse", "dp_difference"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(json(&out)["fail_if_worse"]["failed"], false);
    let md = std::fs::read_to_string(out.join("compare.md")).unwrap();
    assert!(
        md.contains("Gate passed") && md.contains("got distinguishably worse in any slice"),
        "{md}"
    );
    let run = compare(&old, &old, &out, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(json(&out).get("fail_if_worse").is_none());
}
