//! `fairkit audit --by` (issue 26): one audit per window with each window's change against its
//! baseline, the audit of all rows unchanged by the flag, and bad windows refused.

mod common;

use common::{fairkit, report, write};
use std::path::Path;

/// Three months of 400 rows each (200 per group f/m, labels alternating); the selection rates of
/// f/m are 0.6/0.4, 0.5/0.5 and 0.7/0.3 in turn. Dates run through each month.
fn csv(dir: &Path) -> std::path::PathBuf {
    let mut s = String::from("y,y_hat,sex,scored_at,version\n");
    for (month, (sel_f, sel_m)) in [(9, (120, 80)), (10, (100, 100)), (11, (140, 60))] {
        for (g, sel) in [("f", sel_f), ("m", sel_m)] {
            for i in 0..200 {
                let day = 1 + i % 28;
                s.push_str(&format!(
                    "{},{},{g},2026-{month:02}-{day:02}T12:00:00,v{}\n",
                    i % 2,
                    usize::from(i < sel),
                    month - 8
                ));
            }
        }
    }
    write(dir, "scored.csv", &s)
}

fn audit(file: &Path, out: &Path, extra: &[&str]) -> common::Run {
    let mut args = vec![
        "audit",
        file.to_str().unwrap(),
        "--label",
        "y",
        "--pred",
        "y_hat",
        "--sensitive",
        "sex",
        // Enough resamples for a bootstrap p-value to clear the Benjamini–Hochberg adjustment
        // over the windows' changes (at 300 the smallest possible p is 2/301).
        "--resamples",
        "1000",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    fairkit(&args)
}

#[test]
fn monthly_windows_with_changes_against_the_first_month() {
    let dir = tempfile::tempdir().unwrap();
    let f = csv(dir.path());
    let (plain, by) = (dir.path().join("plain"), dir.path().join("by"));
    assert_eq!(audit(&f, &plain, &[]).code, 0);
    let run = audit(&f, &by, &["--by", "scored_at", "--window", "month"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (a, b) = (report(&plain), report(&by));
    // The audit of all rows is the audit without --by.
    assert_eq!(a["audits"], b["audits"]);
    assert_eq!(a["headline"], b["headline"]);
    let ot = &b["over_time"];
    assert_eq!(ot["column"], "scored_at");
    assert_eq!(ot["window"], "month");
    let windows = ot["windows"].as_array().unwrap();
    let names: Vec<&str> = windows
        .iter()
        .map(|w| w["window"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["2026-09", "2026-10", "2026-11"]);
    assert!(windows[0]["baseline"].is_null());
    assert_eq!(windows[2]["baseline"], "2026-09");
    let dp = |w: usize| &windows[w]["slices"][0]["gaps"][0];
    assert!((dp(0)["value"].as_f64().unwrap() - 0.2).abs() < 1e-12);
    // Each group's rates per window, with their intervals: f selects 0.6, 0.5, 0.7 in turn.
    for (w, want) in [(0, 0.6), (1, 0.5), (2, 0.7)] {
        let f = &windows[w]["slices"][0]["groups"][0];
        assert_eq!(
            (f["group"].as_str(), f["rows"].as_u64()),
            (Some("f"), Some(200))
        );
        let sel = &f["rates"]["selection_rate"];
        assert!(
            (sel["value"].as_f64().unwrap() - want).abs() < 1e-12,
            "{sel}"
        );
        assert!(sel["lower"].as_f64().unwrap() < want && sel["upper"].as_f64().unwrap() > want);
    }
    assert!(dp(0)["change"].is_null());
    // 0.2 → 0.4 by November: a distinguishable rise of 0.2.
    assert!((dp(2)["change"].as_f64().unwrap() - 0.2).abs() < 1e-12);
    assert!(dp(2)["change_p_value"].as_f64().unwrap() < 0.05);
    let summary = b["summary"].as_array().unwrap();
    assert!(
        summary.iter().any(|s| s
            .as_str()
            .unwrap()
            .starts_with("Over time: in scored_at 2026-11 the demographic parity difference across sex is 0.400, up 0.200 since 2026-09")),
        "{summary:#?}"
    );
    let md = std::fs::read_to_string(by.join("report.md")).unwrap();
    assert!(md.contains("## Over time, by scored\\_at"), "{md}");
    assert!(by.join("figures/over-time-sex.svg").exists());
    let v = fairkit(&["validate-report", by.join("report.json").to_str().unwrap()]);
    assert_eq!(v.code, 0, "{}", v.stderr);
    // Against the previous month: October's change is −0.2, November's +0.4.
    let prev = dir.path().join("prev");
    let run = audit(
        &f,
        &prev,
        &[
            "--by",
            "scored_at",
            "--window",
            "month",
            "--baseline",
            "previous",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let w = &report(&prev)["over_time"]["windows"];
    assert!((w[1]["slices"][0]["gaps"][0]["change"].as_f64().unwrap() + 0.2).abs() < 1e-12);
    assert!((w[2]["slices"][0]["gaps"][0]["change"].as_f64().unwrap() - 0.4).abs() < 1e-12);
}

#[test]
fn windows_that_are_not_dates_or_too_many_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let f = csv(dir.path());
    let out = dir.path().join("r");
    // Each timestamp as its own window: 28 days × 3 months = 84 windows, over a limit of 50.
    let run = audit(&f, &out, &["--by", "scored_at", "--max-groups", "50"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("--by \"scored_at\" gives 84 windows, more than the limit of 50: use --window day, week or month"),
        "{}",
        run.stderr
    );
    let run = audit(&f, &out, &["--by", "version", "--window", "week"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("\"v1\" is not a date"),
        "{}",
        run.stderr
    );
    let run = audit(&f, &out, &["--by", "sex"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--by"), "{}", run.stderr);
    // Any key works with --window value: one window per model version.
    let run = audit(&f, &out, &["--by", "version"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let w = &report(&out)["over_time"]["windows"];
    assert_eq!(w.as_array().unwrap().len(), 3);
    assert_eq!(w[2]["window"], "v3");
    let run = audit(&f, &out, &["--window", "week"]);
    assert_eq!(run.code, 2, "--window needs --by");
}

/// The rows of `scored.csv` for the given months, with its header.
fn months(dir: &Path, name: &str, keep: &[&str]) -> std::path::PathBuf {
    let all = std::fs::read_to_string(csv(dir)).unwrap();
    let mut lines = all.lines();
    let mut s = format!("{}\n", lines.next().unwrap());
    for l in lines.filter(|l| keep.iter().any(|m| l.contains(&format!("2026-{m}-")))) {
        s.push_str(l);
        s.push('\n');
    }
    write(dir, name, &s)
}

#[test]
fn a_state_dir_appends_each_run_and_equals_one_audit_of_all_rows() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let state_flag = ["--by", "scored_at", "--window", "month"];
    let with_state = |file: &Path, out: &Path| {
        let mut a = state_flag.to_vec();
        a.extend(["--state-dir", state.to_str().unwrap()]);
        audit(file, out, &a)
    };
    // A daily job in two runs: September and October, then November.
    let first = months(dir.path(), "sep-oct.csv", &["09", "10"]);
    let second = months(dir.path(), "nov.csv", &["11"]);
    let run = with_state(&first, &dir.path().join("r1"));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        report(&dir.path().join("r1"))["over_time"]["windows"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let run = with_state(&second, &dir.path().join("r2"));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let appended = report(&dir.path().join("r2"));
    // One audit of every row gives the same numbers.
    let all = csv(dir.path());
    let run = audit(&all, &dir.path().join("all"), &state_flag);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let whole = report(&dir.path().join("all"));
    for key in ["headline", "audits", "over_time", "summary"] {
        assert_eq!(appended[key], whole[key], "{key}");
    }
    assert_eq!(appended["input"]["rows"], 1200);
    assert!(
        appended["input"]["file"]
            .as_str()
            .unwrap()
            .contains("+ 1 earlier run(s)"),
        "{}",
        appended["input"]
    );
    // The manifest lists both runs with their rows.
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(state.join("state.json")).unwrap()).unwrap();
    let rows: Vec<u64> = manifest["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rows"].as_u64().unwrap())
        .collect();
    assert_eq!(rows, [800, 400]);
    // A state directory compares like the report of all its rows: against the one audit of the
    // same rows every change is exactly 0.
    let run = fairkit(&[
        "compare",
        state.to_str().unwrap(),
        dir.path().join("all").to_str().unwrap(),
        "--out",
        dir.path().join("cmp").to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let c: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("cmp/compare.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(c["before"]["rows"], 1200);
    for g in c["changes"][0]["gaps"].as_array().unwrap() {
        assert!(g["change"].is_null() || g["change"] == 0.0, "{g}");
    }
    // A rerun of the same job would count November twice: refused, state unchanged.
    let before = std::fs::read(state.join("state.bin")).unwrap();
    let run = with_state(&second, &dir.path().join("r3"));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("was appended before"), "{}", run.stderr);
    assert_eq!(std::fs::read(state.join("state.bin")).unwrap(), before);
    // Other columns, --score, and a corrupt state are refused with the reason.
    let run = audit(
        &second,
        &dir.path().join("r4"),
        &["--by", "version", "--state-dir", state.to_str().unwrap()],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("the columns and labels that built it"),
        "{}",
        run.stderr
    );
    let run = audit(
        &second,
        &dir.path().join("r5"),
        &["--score", "y_hat", "--state-dir", state.to_str().unwrap()],
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("drop --score"), "{}", run.stderr);
    std::fs::write(state.join("state.bin"), &before[..before.len() / 2]).unwrap();
    let third = months(dir.path(), "sep.csv", &["09"]);
    let run = with_state(&third, &dir.path().join("r6"));
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("an intact state.bin"), "{}", run.stderr);
}

#[test]
fn nulls_mixed_values_and_one_group_windows_give_clear_answers() {
    let dir = tempfile::tempdir().unwrap();
    let all = std::fs::read_to_string(csv(dir.path())).unwrap();
    let out = dir.path().join("r");
    // A missing time on data row 5: refused naming the column and the row.
    let mut lines: Vec<String> = all.lines().map(str::to_string).collect();
    lines[5] = lines[5].replace("2026-09-05T12:00:00", "");
    let f = write(dir.path(), "null.csv", &(lines.join("\n") + "\n"));
    let run = audit(&f, &out, &["--by", "scored_at", "--window", "month"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("scored_at") && run.stderr.contains("row 5"),
        "{}",
        run.stderr
    );
    // A value that is not a date among dates: refused naming the value.
    let mut lines: Vec<String> = all.lines().map(str::to_string).collect();
    lines[7] = lines[7].replace("2026-09-07T12:00:00", "yesterday");
    let f = write(dir.path(), "mixed.csv", &(lines.join("\n") + "\n"));
    let run = audit(&f, &out, &["--by", "scored_at", "--window", "month"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("\"yesterday\" is not a date"),
        "{}",
        run.stderr
    );
    // A window holding one group only: its gaps are undefined with the reason, the others are
    // audited, and the report is valid.
    let mut s = all.clone();
    for i in 0..40 {
        s.push_str(&format!("{},1,f,2026-12-01T00:00:00,v4\n", i % 2));
    }
    let f = write(dir.path(), "lonely.csv", &s);
    let run = audit(
        &f,
        &out,
        &[
            "--by",
            "scored_at",
            "--window",
            "month",
            "--min-group-size",
            "0",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = report(&out);
    let dec = &r["over_time"]["windows"][3];
    assert_eq!(dec["window"], "2026-12");
    let dp = &dec["slices"][0]["gaps"][0];
    assert!(dp["value"].is_null(), "{dp}");
    assert!(dp["change"].is_null(), "{dp}");
    let v = fairkit(&["validate-report", out.join("report.json").to_str().unwrap()]);
    assert_eq!(v.code, 0, "{}", v.stderr);
}

#[test]
fn timestamps_with_an_offset_fall_in_the_business_day_of_timezone() {
    // Monday-evening sales in New York, written in UTC: 23:30 EST is 04:30Z on the Tuesday, and
    // every Sunday-evening sale (04:30Z Monday) belongs to the ISO week before in New York.
    let dir = tempfile::tempdir().unwrap();
    let mut s = String::from("y,y_hat,sex,at\n");
    for week in 0..3 {
        for (g, sel) in [("f", 120), ("m", 80)] {
            for i in 0..200 {
                // Days 5 (Mon) … 11 (Sun) of January 2026, plus 7 days per week; 04:30Z.
                let day = 5 + week * 7 + i % 7;
                let (m, d) = if day > 31 { (2, day - 31) } else { (1, day) };
                s.push_str(&format!(
                    "{},{},{g},2026-{m:02}-{d:02}T04:30:00Z\n",
                    i % 2,
                    usize::from(i < sel)
                ));
            }
        }
    }
    let f = write(dir.path(), "sales.csv", &s);
    let windows = |extra: &[&str]| {
        let out = dir.path().join(format!("r{}", extra.len()));
        let mut args = vec!["--by", "at", "--window", "week"];
        args.extend_from_slice(extra);
        let run = audit(&f, &out, &args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        report(&out)["over_time"]["windows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| {
                (
                    w["window"].as_str().unwrap().to_string(),
                    w["rows"].as_u64().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    // As written (UTC), 5–25 January fall in ISO weeks 2, 3 and 4, 400 rows each.
    let utc = windows(&[]);
    assert_eq!(
        utc,
        [
            ("2026-W02".to_string(), 400),
            ("2026-W03".to_string(), 400),
            ("2026-W04".to_string(), 400)
        ]
    );
    // In New York each Monday 04:30Z is Sunday 23:30: one seventh of the rows move a week back.
    let ny = windows(&["--timezone", "America/New_York"]);
    let rows: Vec<u64> = ny.iter().map(|w| w.1).collect();
    let names: Vec<&str> = ny.iter().map(|w| w.0.as_str()).collect();
    assert_eq!(names, ["2026-W01", "2026-W02", "2026-W03", "2026-W04"]);
    assert_eq!(rows.iter().sum::<u64>(), 1200);
    assert!(rows[0] > 0 && rows[0] < 100, "{rows:?}");
    // A misspelt zone is refused with the closest name.
    let run = audit(
        &f,
        &dir.path().join("bad"),
        &[
            "--by",
            "at",
            "--window",
            "week",
            "--timezone",
            "America/New_Yrok",
        ],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("did you mean \"America/New_York\""),
        "{}",
        run.stderr
    );
}
