//! `fairkit audit --target`: the regression audit of a numeric prediction, end to end — values
//! computed by hand, CSV = Parquet, spilled = in memory, weights counted like repeated rows,
//! the report valid and complete, gates on the new keys, and every bad input refused with a
//! message that says what to fix.

mod common;

use common::{demo, fairkit, report, write};
use serde_json::Value;
use std::path::Path;

/// a: y = 1, 2, 3 predicted exactly; b: y = 2, 4 predicted 3, 5 (one unit over).
const HAND: &str = "\
y,yhat,g
1,1,a
2,2,a
3,3,a
2,3,b
4,5,b
";

fn audit(file: &Path, out: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "audit",
        file.to_str().unwrap(),
        "--target",
        "y",
        "--pred",
        "yhat",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--resamples",
        "200",
    ];
    args.extend_from_slice(extra);
    let r = fairkit(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    report(out)
}

fn gap(slice: &Value, key: &str) -> Value {
    slice["gaps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["key"] == key)
        .unwrap_or_else(|| panic!("no gap {key}"))
        .clone()
}

fn close(v: &Value, want: f64) -> bool {
    (v.as_f64().unwrap() - want).abs() < 1e-12
}

#[test]
fn hand_computed_values() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "hand.csv", HAND);
    let r = audit(
        &f,
        &dir.path().join("o"),
        &["--sensitive", "g", "--min-group-size", "0"],
    );
    let reg = &r["regression"];
    assert!(r["audits"].as_array().unwrap().is_empty());
    // Pooled predictions 1, 2, 3, 3, 5: median 3.
    assert!(close(&reg["pooled_median"], 3.0));
    let s = &reg["slices"][0];
    let (a, b) = (&s["groups"][0], &s["groups"][1]);
    assert_eq!(
        (a["group"].as_str(), b["group"].as_str()),
        (Some("a"), Some("b"))
    );
    let m = |g: &Value, k: &str| g["metrics"][k]["value"].clone();
    assert!(close(&m(a, "mean_prediction"), 2.0) && close(&m(b, "mean_prediction"), 4.0));
    assert!(close(&m(a, "mean_residual"), 0.0) && close(&m(b, "mean_residual"), 1.0));
    assert!(close(&m(a, "mean_absolute_error"), 0.0) && close(&m(b, "mean_absolute_error"), 1.0));
    // R²: a exact (1); b's targets 2, 4 around 3 (SS 2) missed by 1 and 1 (SS 2): 0.
    assert!(close(&m(a, "r2_score"), 1.0) && close(&m(b, "r2_score"), 0.0));
    // Above the median 3: none of a, 5 of b's 3 and 5.
    assert!(close(&m(a, "scoring_rate"), 0.0) && close(&m(b, "scoring_rate"), 0.5));
    assert!(close(&a["prediction_quantile"], 2.0) && close(&b["prediction_quantile"], 4.0));
    // Gaps: mean prediction 2 (ratio 0.5), residual 1, MAE 1 (ratio 0), R² 1, scoring rate
    // 0.5 (ratio 0); W1 = 2 (b is a shifted by 2 on average), KS = 2/3 on [2, 3).
    for (key, want) in [
        ("mean_prediction_difference", 2.0),
        ("mean_prediction_ratio", 0.5),
        ("mean_residual_difference", 1.0),
        ("mae_difference", 1.0),
        ("mae_ratio", 0.0),
        ("rmse_difference", 1.0),
        ("r2_difference", 1.0),
        ("scoring_rate_difference", 0.5),
        ("scoring_rate_ratio", 0.0),
        ("wasserstein_max", 2.0),
        ("ks_prediction", 2.0 / 3.0),
    ] {
        assert!(close(&gap(s, key)["value"], want), "{key}: {}", gap(s, key));
        assert!(close(&r["headline"][key]["value"], want), "headline {key}");
    }
    assert_eq!(s["pairs"][0]["groups"], serde_json::json!(["a", "b"]));
    assert_eq!(s["largest_group_mae"]["group"], "b");
    // The views are written and name the verdict and the LL144 impact ratio.
    let md = std::fs::read_to_string(dir.path().join("o/report.md")).unwrap();
    assert!(
        md.contains("## Verdict") && md.contains("impact ratio 0"),
        "{md}"
    );
    assert!(dir.path().join("o/figures/predictions-g.svg").exists());
    assert!(dir.path().join("o/figures/residuals-g.svg").exists());
    // The quantile level is the user's.
    let q = audit(
        &f,
        &dir.path().join("q"),
        &[
            "--sensitive",
            "g",
            "--min-group-size",
            "0",
            "--quantile",
            "1",
        ],
    );
    let qs = &q["regression"]["slices"][0]["groups"];
    assert!(close(&qs[0]["prediction_quantile"], 3.0) && close(&qs[1]["prediction_quantile"], 5.0));
}

#[test]
fn csv_parquet_spilled_and_weighted_agree() {
    let dir = tempfile::tempdir().unwrap();
    let csv = demo(dir.path(), "d.csv", "4000", &[]);
    let pq = demo(dir.path(), "d.parquet", "4000", &[]);
    // The demo's label y (0/1) read as a number, its score p as the prediction.
    let flags = [
        "--target",
        "y",
        "--pred",
        "p",
        "--sensitive",
        "race,sex",
        "--weight",
        "w",
    ];
    let run = |file: &Path, out: &str, extra: &[&str]| {
        let mut args = vec!["audit", file.to_str().unwrap(), "--out"];
        let out = dir.path().join(out);
        args.push(out.to_str().unwrap());
        args.extend_from_slice(&["--quiet", "--resamples", "200"]);
        args.extend_from_slice(&flags);
        args.extend_from_slice(extra);
        let r = fairkit(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let mut v = report(&out);
        v["input"]["file"] = Value::Null;
        v["input"]["format"] = Value::Null;
        v
    };
    let a = run(&csv, "a", &[]);
    let b = run(&pq, "b", &[]);
    assert_eq!(a, b, "CSV and Parquet of the same rows");
    let spilled = run(&pq, "c", &["--memory-budget", "8KiB"]);
    assert_eq!(a, spilled, "spilled predictions give the same bits");
    let s = &a["regression"]["slices"];
    assert_eq!(
        s.as_array().unwrap().len(),
        3,
        "race, sex and their intersection"
    );
    assert!(a["regression"]["overall"]["weight"].as_f64().unwrap() > 4000.0);
    // The JSON validates against the schema.
    let v = fairkit(&[
        "validate-report",
        dir.path().join("a/report.json").to_str().unwrap(),
    ]);
    assert_eq!(v.code, 0, "{}", v.stderr);
}

#[test]
fn weights_count_like_repeated_rows() {
    let dir = tempfile::tempdir().unwrap();
    let weighted = write(
        dir.path(),
        "w.csv",
        "y,yhat,g,w\n1,1.5,a,2\n2,2.5,a,1\n3,2,b,1\n5,4,b,3\n",
    );
    let repeated = write(
        dir.path(),
        "r.csv",
        "y,yhat,g,w\n1,1.5,a,1\n1,1.5,a,1\n2,2.5,a,1\n3,2,b,1\n5,4,b,1\n5,4,b,1\n5,4,b,1\n",
    );
    let flags = ["--sensitive", "g", "--min-group-size", "0", "--weight", "w"];
    let w = audit(&weighted, &dir.path().join("w"), &flags);
    let r = audit(&repeated, &dir.path().join("r"), &flags);
    for key in [
        "mean_prediction_difference",
        "mae_difference",
        "wasserstein_max",
        "ks_prediction",
        "scoring_rate_ratio",
    ] {
        let (x, y) = (&w["headline"][key]["value"], &r["headline"][key]["value"]);
        assert!(
            (x.as_f64().unwrap() - y.as_f64().unwrap()).abs() < 1e-12,
            "{key}: {x} vs {y}"
        );
    }
    for g in 0..2 {
        let q =
            |v: &Value| v["regression"]["slices"][0]["groups"][g]["prediction_quantile"].clone();
        assert_eq!(q(&w), q(&r));
    }
}

#[test]
fn gates_read_the_regression_keys_and_refuse_a_classifiers() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "hand.csv", HAND);
    let base = [
        "audit",
        f.to_str().unwrap(),
        "--target",
        "y",
        "--pred",
        "yhat",
        "--sensitive",
        "g",
        "--min-group-size",
        "0",
        "--quiet",
        "--resamples",
        "200",
        "--out",
    ];
    let with = |out: &str, gate: &str| {
        let o = dir.path().join(out);
        let mut args = base.to_vec();
        args.push(o.to_str().unwrap());
        args.extend_from_slice(&["--fail-if", gate]);
        fairkit(&args)
    };
    assert_eq!(with("a", "scoring_rate_ratio < 0.8").code, 1);
    assert_eq!(with("b", "wasserstein_max > 5").code, 0);
    let c = with("c", "dp_difference > 0.1");
    assert_eq!(c.code, 2, "{}", c.stderr);
    assert!(c.stderr.contains("numeric target"), "{}", c.stderr);
}

#[test]
fn bad_inputs_are_refused_with_what_to_fix() {
    let dir = tempfile::tempdir().unwrap();
    let run = |text: &str, extra: &[&str]| {
        let f = write(dir.path(), "bad.csv", text);
        let o = dir.path().join("o");
        let mut args = vec![
            "audit",
            f.to_str().unwrap(),
            "--sensitive",
            "g",
            "--out",
            o.to_str().unwrap(),
            "--quiet",
        ];
        args.extend_from_slice(extra);
        fairkit(&args)
    };
    let cols = ["--target", "y", "--pred", "yhat"];
    let nan = run("y,yhat,g\n1,1,a\nNaN,2,b\n", &cols);
    assert_eq!(nan.code, 2);
    assert!(
        nan.stderr.contains("row 2") && nan.stderr.contains("'y'"),
        "{}",
        nan.stderr
    );
    let text = run("y,yhat,g\n1,high,a\n2,2,b\n", &cols);
    assert_eq!(text.code, 2);
    assert!(
        text.stderr.contains("yhat") && text.stderr.contains("high"),
        "{}",
        text.stderr
    );
    let one = run("y,yhat,g\n1,1,a\n2,2,a\n", &cols);
    assert_eq!(one.code, 2);
    assert!(one.stderr.contains("single value"), "{}", one.stderr);
    let both = run(HAND, &["--target", "y", "--label", "y", "--pred", "yhat"]);
    assert_eq!(both.code, 2, "{}", both.stderr);
    let score = run(
        HAND,
        &["--target", "y", "--pred", "yhat", "--score", "yhat"],
    );
    assert_eq!(score.code, 2);
    assert!(score.stderr.contains("--score"), "{}", score.stderr);
    let no_pred = run(HAND, &["--target", "y"]);
    assert_eq!(no_pred.code, 2);
    assert!(no_pred.stderr.contains("--pred"), "{}", no_pred.stderr);
    let q = run(
        HAND,
        &["--target", "y", "--pred", "yhat", "--quantile", "1.5"],
    );
    assert_eq!(q.code, 2);
    assert!(q.stderr.contains("--quantile"), "{}", q.stderr);
    let adjusted = run(
        HAND,
        &[
            "--target",
            "y",
            "--pred",
            "yhat",
            "--multiple-testing",
            "bh",
        ],
    );
    assert_eq!(adjusted.code, 2);
    assert!(
        adjusted.stderr.contains("--multiple-testing"),
        "{}",
        adjusted.stderr
    );
    let against = run(HAND, &["--target", "y", "--pred", "yhat", "--against", "y"]);
    assert_eq!(against.code, 2);
    assert!(against.stderr.contains("--against"), "{}", against.stderr);
    let not_dates = run(
        "y,yhat,g,t\n1,1,a,x\n2,2,b,y\n",
        &[
            "--target", "y", "--pred", "yhat", "--by", "t", "--window", "week",
        ],
    );
    assert_eq!(not_dates.code, 2);
    assert!(
        not_dates.stderr.contains("not a date"),
        "{}",
        not_dates.stderr
    );
    // A constant prediction: its distances and gaps are 0, nothing breaks.
    let constant = run(
        "y,yhat,g\n1,2,a\n2,2,a\n3,2,b\n4,2,b\n",
        &["--target", "y", "--pred", "yhat", "--min-group-size", "0"],
    );
    assert_eq!(constant.code, 0, "{}", constant.stderr);
}

#[test]
fn compare_two_regression_audits() {
    let dir = tempfile::tempdir().unwrap();
    // Before: the second group over-predicted by one unit; after: by a tenth.
    let rows = |bias: f64| {
        let mut t = String::from("y,yhat,g\n");
        for i in 0..400 {
            let y = f64::from(i % 37) * 0.5;
            let noise = f64::from((i * 7919) % 13) * 0.05 - 0.3;
            let (g, b) = if i % 2 == 0 { ("a", 0.0) } else { ("b", bias) };
            t.push_str(&format!("{y},{},{g}\n", y + noise + b));
        }
        t
    };
    let before = write(dir.path(), "before.csv", &rows(1.0));
    let after = write(dir.path(), "after.csv", &rows(0.1));
    let flags = ["--sensitive", "g"];
    audit(&before, &dir.path().join("b"), &flags);
    audit(&after, &dir.path().join("a"), &flags);
    let b = dir.path().join("b/report.json");
    let a = dir.path().join("a/report.json");
    let out = dir.path().join("c");
    let r = fairkit(&[
        "compare",
        b.to_str().unwrap(),
        a.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--fail-if",
        "change(mean_residual_difference) > 0",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let c: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("compare.json")).unwrap()).unwrap();
    let gap = c["changes"][0]["gaps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["key"] == "mean_residual_difference")
        .unwrap()
        .clone();
    // The same noise in both files: the gap moves by exactly the bias's change.
    let num = |k: &str| gap[k].as_f64().unwrap();
    assert!(
        (num("before") - 1.0).abs() < 0.01 && (num("after") - 0.1).abs() < 0.01,
        "{gap}"
    );
    assert!((num("change") + 0.9).abs() < 1e-9, "{gap}");
    assert!(gap["p_value"].as_f64().unwrap() < 0.01, "{gap}");
    assert!(gap["upper"].as_f64().unwrap() < 0.0);
    assert_eq!(c["verdicts"][0]["verdict"], "fairer");
    // The same audit against itself: no change anywhere.
    let same = fairkit(&[
        "compare",
        b.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        dir.path().join("s").to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(same.code, 0, "{}", same.stderr);
    // A classifier's report against a regression report is refused by name.
    let demo_file = demo(dir.path(), "d.csv", "500", &[]);
    let cls = dir.path().join("cls");
    let r = fairkit(&[
        "audit",
        demo_file.to_str().unwrap(),
        "--label",
        "y",
        "--pred",
        "y_hat",
        "--sensitive",
        "sex",
        "--out",
        cls.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mixed = fairkit(&[
        "compare",
        cls.join("report.json").to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        dir.path().join("m").to_str().unwrap(),
    ]);
    assert_eq!(mixed.code, 2);
    assert!(mixed.stderr.contains("numeric target"), "{}", mixed.stderr);
}

#[test]
fn by_windows_audit_each_window_and_leave_the_all_rows_audit_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    // Three weeks; in the third, group b is over-predicted by 2.
    let mut t = String::from("y,yhat,g,day,w\n");
    for i in 0..1200 {
        let day = ["2026-01-05", "2026-01-12", "2026-01-19"][i % 3];
        let g = if (i / 3) % 2 == 0 { "a" } else { "b" };
        let y = f64::from((i * 37 % 101) as u32) * 0.1;
        let noise = f64::from((i * 7919 % 17) as u32) * 0.05 - 0.4;
        let bias = if g == "b" && day == "2026-01-19" {
            2.0
        } else {
            0.0
        };
        t.push_str(&format!(
            "{y},{},{g},{day},{}\n",
            y + noise + bias,
            1 + i % 3
        ));
    }
    let f = write(dir.path(), "t.csv", &t);
    let flags = ["--sensitive", "g", "--weight", "w"];
    let plain = audit(&f, &dir.path().join("p"), &flags);
    let mut with_by = flags.to_vec();
    with_by.extend_from_slice(&["--by", "day", "--window", "week"]);
    let by = audit(&f, &dir.path().join("b"), &with_by);
    // The audit of all rows is exactly the audit without --by (weights included).
    assert_eq!(plain["regression"], by["regression"]);
    assert_eq!(plain["headline"], by["headline"]);
    let windows = by["over_time"]["windows"].as_array().unwrap();
    let names: Vec<&str> = windows
        .iter()
        .map(|w| w["window"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["2026-W02", "2026-W03", "2026-W04"]);
    let residual = |w: &Value| {
        w["slices"][0]["gaps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["key"] == "mean_residual_difference")
            .unwrap()
            .clone()
    };
    let third = residual(&windows[2]);
    assert!(
        (third["change"].as_f64().unwrap() - 2.0).abs() < 0.05,
        "{third}"
    );
    assert!(third["change_q_value"].as_f64().unwrap() < 0.05, "{third}");
    let second = residual(&windows[1]);
    assert!(
        second["change_q_value"].as_f64().unwrap() > 0.05,
        "{second}"
    );
    // Each window is the audit of its rows alone: its gap equals the audit of that week's file.
    let week: String = t
        .lines()
        .enumerate()
        .filter(|(k, l)| *k == 0 || l.contains("2026-01-19"))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let only = audit(
        &write(dir.path(), "w4.csv", &week),
        &dir.path().join("w"),
        &flags,
    );
    let alone = gap(&only["regression"]["slices"][0], "mean_residual_difference");
    assert_eq!(alone["value"], third["value"]);
    // Spilled to disk, the windows' predictions give the same bits.
    let mut spilled = with_by.clone();
    spilled.extend_from_slice(&["--memory-budget", "4KiB"]);
    let s = audit(&f, &dir.path().join("s"), &spilled);
    assert_eq!(s["over_time"], by["over_time"]);
    let md = std::fs::read_to_string(dir.path().join("b/report.md")).unwrap();
    assert!(md.contains("Over time, by day") && md.contains("2026-W04"));
    assert!(dir.path().join("b/figures/over-time-g.svg").exists());
    // More windows than the limit stop the audit.
    let mut capped = with_by.clone();
    capped.retain(|f| *f != "week");
    capped.retain(|f| *f != "--window");
    capped.extend_from_slice(&["--max-groups", "2"]);
    let o = dir.path().join("c");
    let mut args = vec![
        "audit",
        f.to_str().unwrap(),
        "--target",
        "y",
        "--pred",
        "yhat",
        "--out",
    ];
    args.push(o.to_str().unwrap());
    args.extend_from_slice(&capped);
    let r = fairkit(&args);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("windows"), "{}", r.stderr);
}
