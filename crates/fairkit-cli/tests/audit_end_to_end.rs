//! The audit end to end on generated files: formats and codecs agree, batching does not
//! matter, counts equal fair-metrics computed in memory, the JSON validates against its
//! schema, reports are written, and exit codes follow --fail-if.

mod common;

use common::{demo, fairkit, report};
use fair_data::Groups;
use fair_metrics::GroupConfusion;
use serde_json::Value;
use std::path::Path;

fn run(file: &Path, out: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "audit",
        file.to_str().unwrap(),
        "--label",
        "y",
        "--score",
        "p",
        "--sensitive",
        "race,sex",
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

/// The report without the fields that name the input file.
fn results(mut v: Value) -> Value {
    v["input"]["file"] = Value::Null;
    v["input"]["format"] = Value::Null;
    v
}

#[test]
fn csv_and_parquet_of_the_same_data_give_identical_json() {
    let dir = tempfile::tempdir().unwrap();
    let csv = demo(dir.path(), "d.csv", "3000", &[]);
    let pq = demo(dir.path(), "d.parquet", "3000", &[]);
    let flags = ["--pred", "y_hat", "--weight", "w", "--interval", "0.05,0.3"];
    let a = run(&csv, &dir.path().join("a"), &flags);
    let b = run(&pq, &dir.path().join("b"), &flags);
    assert_eq!(a["input"]["format"], "csv");
    assert_eq!(b["input"]["format"], "parquet");
    assert_eq!(results(a), results(b));
}

#[test]
fn spilling_score_rows_to_disk_gives_bit_identical_json() {
    let dir = tempfile::tempdir().unwrap();
    let pq = demo(dir.path(), "d.parquet", "20000", &[]);
    for weighted in [false, true] {
        let mut flags = vec![
            "--pred",
            "y_hat",
            "--interval",
            "0.05,0.3",
            "--batch-rows",
            "1000",
        ];
        if weighted {
            flags.extend(["--weight", "w"]);
        }
        let name = |s: &str| dir.path().join(format!("{s}-{weighted}"));
        let in_memory = run(&pq, &name("mem"), &flags);
        // 4 KiB holds 256–512 rows: every 1,000-row batch spills, so the metrics are merged
        // from ~20 runs per stream read back from the temporary file.
        let spill_dir = name("spill-dir");
        std::fs::create_dir_all(&spill_dir).unwrap();
        let mut small = flags.clone();
        small.extend([
            "--memory-budget",
            "4KiB",
            "--spill-dir",
            spill_dir.to_str().unwrap(),
        ]);
        let spilled = run(&pq, &name("spill"), &small);
        // Every score gap has an interval around it and a p-value; every group AUC an interval.
        for slice in in_memory["score_metrics"].as_array().unwrap() {
            for key in ["ks_dp", "ks_eo", "psp", "auc_gap"] {
                let g = &slice[key];
                let (v, lo, hi) = (
                    g["value"].as_f64(),
                    g["lower"].as_f64(),
                    g["upper"].as_f64(),
                );
                let (v, lo, hi) = (v.unwrap(), lo.unwrap(), hi.unwrap());
                assert!(lo <= v && v <= hi, "{key}: {g}");
                let p = g["p_value"].as_f64().unwrap();
                assert!((0.0..=1.0).contains(&p), "{key}: {g}");
            }
            for g in slice["auc_by_group"].as_array().unwrap() {
                let auc = g["auc"].as_f64().unwrap();
                assert!(g["lower"].as_f64().unwrap() <= auc && auc <= g["upper"].as_f64().unwrap());
            }
        }
        assert_eq!(
            spilled["score_metrics"], in_memory["score_metrics"],
            "weighted {weighted}"
        );
        assert_eq!(results(spilled), results(in_memory));
        // The temporary file is gone once the audit has ended.
        assert_eq!(std::fs::read_dir(&spill_dir).unwrap().count(), 0);
        assert_eq!(
            std::fs::read_to_string(name("spill").join("report.md")).unwrap(),
            std::fs::read_to_string(name("mem").join("report.md")).unwrap()
        );
    }
}

#[test]
fn every_codec_reads_and_batching_does_not_change_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let reference = run(
        &demo(dir.path(), "s.parquet", "2500", &[]),
        &dir.path().join("s"),
        &["--pred", "y_hat"],
    );
    for codec in ["gzip", "zstd", "none"] {
        let f = demo(
            dir.path(),
            &format!("{codec}.parquet"),
            "2500",
            &["--compression", codec],
        );
        let v = run(&f, &dir.path().join(codec), &["--pred", "y_hat"]);
        assert_eq!(results(v), results(reference.clone()), "codec {codec}");
    }
    let f = dir.path().join("s.parquet");
    let v = run(
        &f,
        &dir.path().join("small-batches"),
        &["--pred", "y_hat", "--batch-rows", "77"],
    );
    assert_eq!(results(v), results(reference));
}

#[test]
fn counts_equal_group_confusion_computed_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let csv = demo(dir.path(), "d.csv", "4000", &[]);
    let v = run(&csv, &dir.path().join("o"), &["--pred", "y_hat"]);
    // Read the same file in memory and count with fair-metrics directly.
    let mut rdr = csv::Reader::from_path(&csv).unwrap();
    let (mut y, mut p, mut race, mut both) = (vec![], vec![], vec![], vec![]);
    for rec in rdr.records() {
        let rec = rec.unwrap();
        y.push(rec[0].parse::<usize>().unwrap());
        p.push(rec[1].parse::<usize>().unwrap());
        race.push(rec[3].to_string());
        both.push(format!("{} & {}", &rec[3], &rec[4]));
    }
    for (slice_index, labels) in [(0, &race), (2, &both)] {
        let gc = GroupConfusion::new(&y, &p, &Groups::from_labels(labels), None).unwrap();
        let slice = &v["audits"][0]["slices"][slice_index];
        let groups = slice["groups"].as_array().unwrap();
        assert_eq!(groups.len(), gc.n_groups());
        for (g, (name, c)) in groups.iter().zip(gc.names().iter().zip(gc.by_group())) {
            assert_eq!(g["group"], name.as_str());
            for (key, want) in [("tp", c.tp), ("fp", c.fp), ("tn", c.tn), ("fn_", c.fn_)] {
                assert_eq!(
                    g["counts"][key].as_f64().unwrap().to_bits(),
                    want.to_bits(),
                    "{name} {key}"
                );
            }
            let sel = g["rates"]["selection_rate"]["value"].as_f64().unwrap();
            assert!((sel - c.selection_rate().unwrap()).abs() < 1e-12);
        }
    }
}

#[test]
fn thresholds_equal_the_prediction_column_they_generated() {
    // demo-data writes y_hat = (p >= 0.5), so threshold 0.5 must give the same counts.
    let dir = tempfile::tempdir().unwrap();
    let f = demo(dir.path(), "d.parquet", "3000", &[]);
    let pred = run(&f, &dir.path().join("a"), &["--pred", "y_hat"]);
    let thr = run(&f, &dir.path().join("b"), &["--threshold", "0.5,0.7"]);
    assert_eq!(thr["audits"].as_array().unwrap().len(), 2);
    assert_eq!(thr["audits"][0]["threshold"], 0.5);
    assert_eq!(pred["audits"][0]["slices"], thr["audits"][0]["slices"]);
    assert_ne!(thr["audits"][0]["slices"], thr["audits"][1]["slices"]);
}

#[test]
fn json_validates_and_reports_are_complete() {
    let dir = tempfile::tempdir().unwrap();
    let f = demo(dir.path(), "d.parquet", "3000", &[]);
    let out = dir.path().join("r");
    let v = run(
        &f,
        &out,
        &["--pred", "y_hat", "--weight", "w", "--interval", "0.05,0.3"],
    );
    let check = fairkit(&["validate-report", out.join("report.json").to_str().unwrap()]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    // The validator is not a rubber stamp: a report missing a field fails.
    let mut broken = v.clone();
    broken["input"].as_object_mut().unwrap().remove("rows");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, broken.to_string()).unwrap();
    let r = fairkit(&["validate-report", bad.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("missing property 'rows'"), "{}", r.stderr);

    assert_eq!(v["schema"], "fairkit-audit");
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["input"]["rows"], 3000);
    let slices: Vec<&str> = v["audits"][0]["slices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["slice"].as_str().unwrap())
        .collect();
    assert_eq!(slices, ["race", "sex", "race & sex"]);
    // The generator builds in a real selection-rate gap by race; the audit must find it.
    let dp = &v["audits"][0]["slices"][0]["gaps"][0];
    assert_eq!(dp["key"], "dp_difference");
    assert!(dp["value"].as_f64().unwrap() > 0.1);
    assert!(dp["p_value"].as_f64().unwrap() < 0.05);
    assert!(
        v["summary"][0]
            .as_str()
            .unwrap()
            .contains("demographic parity difference")
    );
    for key in [
        "ks_dp",
        "ks_eo",
        "psp",
        "auc_difference",
        "dp_difference",
        "eo_difference",
    ] {
        assert!(v["headline"][key]["value"].is_number(), "headline {key}");
    }

    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<svg") && html.contains("ROC curves by race") && html.contains("KS ="));
    // One inline script (sortable tables, group filter), nothing fetched.
    assert_eq!(html.matches("<script").count(), 1);
    assert!(!html.contains("src=") && !html.contains("fetch("));
    assert!(html.contains("<section id=\"first-page\" class=\"first-page\">"));
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let links: Vec<&str> = md
        .lines()
        .filter_map(|l| l.strip_prefix("!["))
        .filter_map(|l| l.rsplit_once("]("))
        .map(|(_, f)| f.trim_end_matches(')'))
        .collect();
    assert!(links.len() >= 12, "{} figures", links.len());
    for l in links {
        assert!(
            out.join(l.replace("%20", " ")).is_file(),
            "figure {l} missing"
        );
    }
}

#[test]
fn fail_if_sets_the_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let f = demo(dir.path(), "d.parquet", "2000", &[]);
    let base = [
        "audit",
        f.to_str().unwrap(),
        "--label",
        "y",
        "--pred",
        "y_hat",
        "--sensitive",
        "race",
        "--quiet",
        "--format",
        "json",
        "--resamples",
        "100",
    ];
    let with = |expr: &str, out: &str| {
        let o = dir.path().join(out);
        let mut a: Vec<&str> = base.to_vec();
        a.extend(["--out", o.to_str().unwrap(), "--fail-if", expr]);
        let r = fairkit(&a);
        (r.code, o)
    };
    let (code, o) = with("dp_difference>0.05", "fail");
    assert_eq!(code, 1);
    assert_eq!(report(&o)["fail_if"][0]["failed"], true);
    let (code, o) = with("dp_difference>0.99 or dp_ratio<0.01", "pass");
    assert_eq!(code, 0);
    assert_eq!(report(&o)["fail_if"][0]["failed"], false);
    assert!(
        !o.join("report.html").exists(),
        "--format json writes only the JSON"
    );
}

#[test]
fn help_explains_every_flag_with_an_example() {
    let r = fairkit(&["audit", "--help"]);
    assert_eq!(r.code, 0);
    for flag in [
        "--label",
        "--pred",
        "--score",
        "--sensitive",
        "--weight",
        "--pos-label",
        "--neg-label",
        "--threshold",
        "--interval",
        "--confidence",
        "--ci-method",
        "--resamples",
        "--seed",
        "--multiple-testing",
        "--disparity-reference",
        "--tau",
        "--out",
        "--format",
        "--fail-if",
        "--groups",
        "--delimiter",
        "--input-format",
        "--batch-rows",
        "--memory-budget",
        "--spill-dir",
        "--quiet",
    ] {
        assert!(r.stdout.contains(flag), "help lacks {flag}");
    }
    // Every flag but --quiet (and --help) carries an "Example:" line.
    assert!(r.stdout.matches("Example:").count() >= 24, "{}", r.stdout);
    assert!(r.stdout.contains("Exit codes"));
}

#[test]
fn multiple_testing_adjusts_every_gap_and_keeps_the_rest_of_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let f = demo(dir.path(), "d.parquet", "3000", &[]);
    let plain = run(&f, &dir.path().join("plain"), &["--threshold", "0.3,0.6"]);
    let by = run(
        &f,
        &dir.path().join("by"),
        &["--threshold", "0.3,0.6", "--multiple-testing", "by"],
    );
    assert_eq!(by["settings"]["multiple_testing"], "by");
    assert!(plain["settings"].get("multiple_testing").is_none());
    // Every gap with a p-value (count gaps of every slice and threshold, score gaps) gets its
    // adjusted value; the raw values are those of the plain audit.
    let mut raw = Vec::new();
    let mut adjusted = Vec::new();
    for (a, b) in plain["audits"]
        .as_array()
        .unwrap()
        .iter()
        .zip(by["audits"].as_array().unwrap())
    {
        for (sa, sb) in a["slices"]
            .as_array()
            .unwrap()
            .iter()
            .zip(b["slices"].as_array().unwrap())
        {
            for (ga, gb) in sa["gaps"]
                .as_array()
                .unwrap()
                .iter()
                .zip(sb["gaps"].as_array().unwrap())
            {
                assert_eq!(ga["p_value"], gb["p_value"]);
                if let Some(p) = gb["p_value"].as_f64() {
                    raw.push(p);
                    adjusted.push(
                        gb["p_value_adjusted"]
                            .as_f64()
                            .expect("adjusted beside raw"),
                    );
                }
            }
        }
    }
    for s in by["score_metrics"].as_array().unwrap() {
        for k in ["ks_dp", "ks_eo", "psp", "auc_gap"] {
            if let Some(p) = s[k]["p_value"].as_f64() {
                raw.push(p);
                adjusted.push(s[k]["p_value_adjusted"].as_f64().unwrap());
            }
        }
    }
    assert!(!raw.is_empty());
    let want = fair_metrics::ci::benjamini_yekutieli(&raw);
    assert_eq!(adjusted, want);
    let bad = fairkit(&[
        "audit",
        f.to_str().unwrap(),
        "--label",
        "y",
        "--pred",
        "y_hat",
        "--sensitive",
        "race",
        "--multiple-testing",
        "fdr",
    ]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("bh"), "{}", bad.stderr);
}

/// `--query`: the ranking audit of two queries worked out by hand (query a: x at ranks 1, 2
/// with relevance 2, 0 and y at rank 3 with 1; query b: y at 1 and x at 2, relevance 1 each),
/// the same numbers from the score (rows shuffled, highest first) and from a Parquet-free CSV
/// with ties, the report valid, a gate on a ranking key, and bad inputs named.
#[test]
fn ranking_audit_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let by_rank = common::write(
        dir.path(),
        "ranks.csv",
        "q,pos,g,rel\na,1,x,2\na,2,x,0\na,3,y,1\nb,1,y,1\nb,2,x,1\n",
    );
    let by_score = common::write(
        dir.path(),
        "scores.csv",
        "q,s,g,rel\nb,0.2,x,1\na,0.7,y,1\na,0.9,x,2\nb,0.9,y,1\na,0.8,x,0\n",
    );
    let v = |i: f64| 1.0 / (1.0 + i).log2();
    let (e0, e1) = (1.0 + 2.0 * v(2.0), 1.5);
    let mut reports = Vec::new();
    for (file, position) in [(&by_rank, ["--rank", "pos"]), (&by_score, ["--score", "s"])] {
        let out = dir.path().join(file.file_stem().unwrap());
        let r = fairkit(&[
            "audit",
            file.to_str().unwrap(),
            "--query",
            "q",
            position[0],
            position[1],
            "--relevance",
            "rel",
            "--sensitive",
            "g",
            "--top-k",
            "1,2",
            "--out",
            out.to_str().unwrap(),
            "--quiet",
            "--resamples",
            "200",
            "--fail-if",
            "exposure_ratio < 0.999",
        ]);
        assert_eq!(r.code, 1, "the gate holds: {}", r.stderr);
        let rep = report(&out);
        let slice = &rep["ranking"]["slices"][0];
        let x = &slice["groups"][0];
        assert_eq!(x["group"], "x");
        let close = |a: &Value, b: f64| (a.as_f64().unwrap() - b).abs() < 1e-12;
        assert!(close(&x["exposure_share"]["value"], e0 / (e0 + e1)));
        assert!(close(&x["exposure_per_relevance"]["value"], e0 / 3.0));
        assert!(close(&x["ndcg"]["value"], (1.0 + v(2.0)) / 2.0));
        assert!(close(&x["top_k_share"][1]["share"]["value"], 0.75));
        let want = ((e1 / (e0 + e1)) / 0.4) / ((e0 / (e0 + e1)) / 0.6);
        assert!(close(&rep["headline"]["exposure_ratio"]["value"], want));
        let valid = fairkit(&["validate-report", out.join("report.json").to_str().unwrap()]);
        assert_eq!(valid.code, 0, "{}", valid.stderr);
        // The glossary explains every number of the section.
        let explained: Vec<&str> = fair_audit::glossary::RANKING_ENTRIES
            .iter()
            .map(|e| e.key)
            .collect();
        for key in x.as_object().unwrap().keys().filter(|k| *k != "group") {
            assert!(
                explained.contains(&key.as_str()),
                "no glossary entry for {key}"
            );
        }
        for g in slice["gaps"].as_array().unwrap() {
            assert!(explained.contains(&g["key"].as_str().unwrap()));
        }
        reports.push(slice.clone());
    }
    assert_eq!(reports[0], reports[1], "rank and score give one audit");
    // Ties: two items at rank 1 share positions 1 and 2.
    let ties = common::write(dir.path(), "ties.csv", "q,pos,g\na,1,x\na,1,y\na,3,y\n");
    let out = dir.path().join("ties");
    let r = fairkit(&[
        "audit",
        ties.to_str().unwrap(),
        "--query",
        "q",
        "--rank",
        "pos",
        "--sensitive",
        "g",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--resamples",
        "100",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let x = &report(&out)["ranking"]["slices"][0]["groups"][0];
    let share = ((1.0 + v(2.0)) / 2.0) / (1.0 + v(2.0) + 0.5);
    assert!((x["exposure_share"]["value"].as_f64().unwrap() - share).abs() < 1e-12);
    // Bad inputs name the column and the row.
    let bad = |text: &str, flags: &[&str], want: &str| {
        let f = common::write(dir.path(), "bad.csv", text);
        let out = dir.path().join("bad");
        let mut args = vec![
            "audit",
            f.to_str().unwrap(),
            "--sensitive",
            "g",
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ];
        args.extend_from_slice(flags);
        let r = fairkit(&args);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains(want), "{want:?} not in {}", r.stderr);
    };
    let q = ["--query", "q", "--rank", "pos"];
    bad("qq,pos,g\na,1,x\n", &q, "column 'q' (given by --query)");
    bad(
        "q,pos,g\na,1,x\na,inf,y\n",
        &q,
        "row 2 (line 3), column 'pos'",
    );
    bad(
        "q,pos,g,w\na,1,x,1\na,2,y,2\n",
        &["--query", "q", "--rank", "pos", "--weight", "w"],
        "has 2 at row 2 and 1 at row 1, both of query \"a\"",
    );
    bad("q,pos,g\na,1,x\n", &["--query", "q"], "--rank");
}
