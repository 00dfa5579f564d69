//! The first page a committee reads: golden wording for every kind of sentence it writes, on
//! hand-made confusion counts (each number below is computed by hand in its comment).
//!
//! Compare: a slice whose gaps got fairer, unchanged or worse; a group whose rates got
//! distinguishably worse inside a gap that improved (the case that was hidden: every change
//! "better" while one group's false positive rate tripled); accuracy before and after.

use fair_audit::compare::{compare_reports, render_comparison};
use fair_audit::model::AuditReport;
use fair_audit::{ReportSpec, Stats, Views, build_report, render};
use fair_metrics::state::ConfusionState;

/// Confusion cells of one group: (name, tn, fp, fn, tp).
type Cells<'a> = (&'a str, u64, u64, u64, u64);

/// The report.json of an audit of these groups (one sensitive column "sex"), read back.
fn report(file: &str, groups: &[Cells]) -> AuditReport {
    let state = ConfusionState::from_row_counts(
        groups
            .iter()
            .map(|&(g, tn, fp, fn_, tp)| (g.to_string(), [tn, fp, fn_, tp])),
    );
    let rows = groups.iter().map(|g| g.1 + g.2 + g.3 + g.4).sum();
    let stats = Stats {
        resamples: 400,
        seed: 3,
        ..Stats::default()
    };
    let spec = ReportSpec::binary(file, "y", "p", "sex", rows, stats);
    let (r, c) = build_report(&spec, &[vec![state]], None).expect("report");
    let json = render(
        &r,
        &c,
        Views {
            json: true,
            markdown: false,
            html: false,
        },
    )
    .expect("render")
    .json
    .expect("json");
    AuditReport::from_json(&json).expect("reads back")
}

/// Men are the same in both audits (10,000 rows: selection 0.36, FPR 0.10, TPR 0.75, accuracy
/// 0.84). Women, 10,000 rows, keep their TPR (0.5) but the new model flags 340 more of their
/// negatives: selection 0.116 → 0.150 (the demographic parity difference narrows 0.244 →
/// 0.210), FPR 160/8000 = 0.020 → 500/8000 = 0.0625 (tripled), accuracy 0.884 → 0.850 (the
/// accuracy difference narrows 0.044 → 0.010).
fn fpr_tripled() -> (AuditReport, AuditReport) {
    let men = ("Male", 5400, 600, 1000, 3000);
    (
        report("old.csv", &[("Female", 7840, 160, 1000, 1000), men]),
        report("new.csv", &[("Female", 7500, 500, 1000, 1000), men]),
    )
}

#[test]
fn compare_names_a_group_that_got_worse_inside_an_improving_gap() {
    let (old, new) = fpr_tripled();
    let c = compare_reports(&old, &new, 0.95, 400, 0).unwrap();
    let v = &c.verdicts[0];
    assert_eq!(v.slice, "sex");
    assert_eq!(v.verdict, "fairer", "{v:?}");
    assert!(v.worse.is_empty());
    assert!(
        v.better.iter().any(|k| k.as_str() == "dp_difference"),
        "{v:?}"
    );
    let worse: Vec<(&str, &str)> = v
        .worse_groups
        .iter()
        .map(|w| (w.group.as_str(), w.rate))
        .collect();
    assert_eq!(
        worse,
        [("Female", "false_positive_rate"), ("Female", "accuracy")]
    );
    // Golden: pooled z-tests by hand. FPR: p̂ = 660/16000, z = 0.0425 / √(p̂(1−p̂)·2/8000) =
    // 13.516, p = erfc(z/√2) = 1.2551e-41; accuracy: p̂ = 17340/20000, z = −0.034 /
    // √(p̂(1−p̂)·2/10000) = −7.0799, p = 1.4423e-12. q: Benjamini–Hochberg over the six judged
    // rate changes (TPR, FPR, accuracy of both groups; the other four have p = 1): 6p and 6p/2.
    let sentence = "Got worse within sex, although its gaps got fairer: Female: false positive rate 0.020 → 0.062 (p = 1.26e-41, q = 7.53e-41), accuracy 0.884 → 0.850 (p = 1.44e-12, q = 4.33e-12).";
    assert!(c.summary.iter().any(|s| s == sentence), "{:#?}", c.summary);
    let json = serde_json::to_string_pretty(&c).unwrap();
    assert!(
        json.contains(&sentence.replace('"', "\\\"")),
        "compare.json"
    );
    let (md, html, _) = render_comparison(&c).unwrap();
    assert!(md.contains(sentence), "{md}");
    assert!(html.contains(sentence), "compare.html");
    // The verdict sentence of the slice names what got fairer.
    let verdict = c
        .summary
        .iter()
        .find(|s| s.starts_with("sex: fairer. Got fairer: "))
        .unwrap_or_else(|| panic!("{:#?}", c.summary));
    assert!(
        verdict.contains("demographic parity difference 0.244 → 0.210")
            && verdict.ends_with("; no gap got worse."),
        "{verdict}"
    );
    // And the model as a whole: 17240 → 16900 of 20000 right, pooled z = 4.808, p = 1.53e-6.
    assert_eq!(
        c.summary[0],
        "Accuracy on all rows: 0.862 (95 % interval 0.857–0.867) before, 0.845 (0.840–0.850) after: lower by 0.017 (change -0.017, interval -0.024 to -0.010, p = 1.53e-6)."
    );
}

#[test]
fn compare_says_worse_and_unchanged_in_plain_words() {
    let (old, new) = fpr_tripled();
    // Reversed, the women's FPR falls and their accuracy rises: the gaps widen (worse), and no
    // group's rate got worse, so none is named.
    let c = compare_reports(&new, &old, 0.95, 400, 0).unwrap();
    let v = &c.verdicts[0];
    assert_eq!(v.verdict, "worse", "{v:?}");
    assert!(v.worse_groups.is_empty(), "{v:?}");
    assert!(
        c.summary
            .iter()
            .any(|s| s
                .starts_with("sex: worse. Got worse: demographic parity difference 0.210 → 0.244")),
        "{:#?}",
        c.summary
    );
    // The same audit twice: unchanged.
    let c = compare_reports(&old, &old, 0.95, 400, 0).unwrap();
    assert_eq!(c.verdicts[0].verdict, "unchanged");
    assert!(
        c.summary.iter().any(|s| s
            == "sex: unchanged. No gap's change is distinguishable from noise (every p-value is at least 0.05)."),
        "{:#?}",
        c.summary
    );
    assert!(
        c.summary[0].ends_with(
            "after: no distinguishable change (change 0, interval -0.007 to 0.007, p = 1.00)."
        ),
        "{}",
        c.summary[0]
    );
}

/// A report of groups a, b (1000 rows each) and c (10 rows, below the minimum group size 30),
/// 200 permutations, with these `--fail-if` gates applied.
///
/// a: selection 500/1000 = 0.5, TPR 400/500 = 0.8, FPR 100/500 = 0.2, accuracy 0.8.
/// b: selection 250/1000 = 0.25, TPR 200/350 = 0.571, FPR 50/650 = 0.077, accuracy 0.8.
/// So the demographic parity difference is 0.25 and its ratio 0.5 (below four-fifths); the
/// accuracy difference is exactly 0 (ratio 1).
fn judged(gates: &[&str]) -> AuditReport {
    let groups = [
        ("a", 400, 100, 100, 400),
        ("b", 600, 50, 150, 200),
        ("c", 3, 2, 2, 3),
    ];
    let state = ConfusionState::from_row_counts(
        groups
            .iter()
            .map(|&(g, tn, fp, fn_, tp)| (g.to_string(), [tn, fp, fn_, tp])),
    );
    let stats = Stats {
        resamples: 200,
        seed: 5,
        ..Stats::default()
    };
    let spec = ReportSpec::binary("judged.csv", "y", "p", "g", 2010, stats);
    let (mut r, _) = build_report(&spec, &[vec![state]], None).expect("report");
    let gates: Vec<String> = gates.iter().map(|g| g.to_string()).collect();
    let parsed = fair_audit::fail_if::parse_all(&gates).unwrap();
    fair_audit::fail_if::apply(&mut r, &parsed).unwrap();
    r
}

#[test]
fn the_report_first_page_says_each_kind_of_verdict_in_plain_words() {
    use fair_audit::first_page::{gate_sentences, model_sentence, verdicts};
    let r = judged(&["dp_difference > 0.1", "accuracy_difference > 0.1"]);
    let v = &verdicts(&r)[0];
    assert_eq!(
        v.lead,
        "g: beyond your limits; fails the four-fifths rule; 6 of 8 gaps distinguishable from noise; 1 group too small to judge."
    );
    let find = |prefix: &str| {
        v.findings
            .iter()
            .find(|f| f.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} in {:#?}", v.findings))
            .clone()
    };
    // Exceeds the user's threshold.
    assert_eq!(
        find("Beyond your limits"),
        "Beyond your limits: the demographic parity difference is 0.250, above your limit 0.1."
    );
    // Fails the four-fifths rule: 0.25 / 0.5 = 0.5 and the equalized odds ratio
    // min(0.571/0.8, 0.077/0.2) = 0.385.
    assert_eq!(
        find("Fails the four-fifths rule"),
        "Fails the four-fifths rule (a ratio below 0.8): demographic parity ratio 0.500; equal opportunity ratio 0.714; equalized odds ratio 0.385."
    );
    // Distinguishable: 0.25 between two groups of 1000 never arises by permuting the groups in
    // 200 tries, so p is at its floor 1/201.
    let d = find("Distinguishable from noise");
    assert!(
        d.starts_with(
            "Distinguishable from noise (p below 0.05): demographic parity difference 0.250 (p < 1/201); demographic parity ratio 0.500 (p < 1/201); "
        ),
        "{d}"
    );
    // Distinguishable: the demographic parity, equal opportunity (TPR 0.8 against 0.571) and
    // equalized odds gaps, six of eight. Not distinguishable: equal accuracy.
    assert_eq!(
        find("Not distinguishable"),
        "Not distinguishable from noise (p at least 0.05): accuracy difference; accuracy ratio."
    );
    // Too small to judge: c has 10 rows.
    assert_eq!(
        find("Too small to judge"),
        "Too small to judge (fewer than 30 rows where a gap counts them; shown, but kept out of those gaps): c (10 rows)."
    );
    // The gates, failed and passed.
    let gates = gate_sentences(&r);
    assert_eq!(
        gates[0],
        (
            "Gate failed:".to_string(),
            "your limit \"dp_difference > 0.1\" is reached — the demographic parity difference is 0.250 (largest across g).".to_string()
        )
    );
    assert_eq!(
        gates[1],
        (
            "Gate passed:".to_string(),
            "your limit \"accuracy_difference > 0.1\" is not reached — the accuracy difference is 0 (largest across g).".to_string()
        )
    );
    // The model: 1606 of 2010 right (800 + 800 + 6) = 0.799; Wilson 95 % interval
    // 0.7809–0.8159 (by hand: centre (p + z²/2n)/(1 + z²/n), half-width
    // z√(p(1−p)/n + z²/4n²)/(1 + z²/n)).
    assert_eq!(
        model_sentence(&r).unwrap(),
        "The model on all 2010 rows: accuracy 0.799 (95 % interval 0.781–0.816)."
    );
    // The rendered views carry the same first page, before the table of contents.
    let c = fair_audit::charts::ChartData::default();
    let views = render(&r, &c, Views::default()).unwrap();
    let (md, html) = (views.markdown.unwrap(), views.html.unwrap());
    for sentence in [
        &v.findings[0],
        &v.findings[1],
        &v.findings[3],
        &v.findings[4],
    ] {
        let md_text = fair_report::escape_markdown(sentence);
        let html_text = fair_report::escape_html(sentence);
        let toc = md.find("Contents: ").unwrap();
        assert!(
            md.find(&md_text).is_some_and(|at| at < toc),
            "{md_text}\n{md}"
        );
        let toc = html.find("<nav class=\"toc\"").unwrap();
        assert!(
            html.find(&html_text).is_some_and(|at| at < toc),
            "{html_text}"
        );
    }
    assert!(html.contains("<strong>Gate failed:</strong>"));
    // Every link of the table of contents has its heading.
    for id in html
        .split("<a href=\"#")
        .skip(1)
        .map(|s| s.split('"').next().unwrap())
    {
        assert!(html.contains(&format!(" id=\"{id}\"")), "{id}");
    }
}

#[test]
fn a_gap_with_no_distinguishable_difference_and_no_gate_reads_so() {
    use fair_audit::first_page::{gate_sentences, verdicts};
    // Two equal groups: nothing to find, no gate, no small group.
    let state = ConfusionState::from_row_counts([
        ("a".to_string(), [400, 100, 100, 400]),
        ("b".to_string(), [400, 100, 100, 400]),
    ]);
    let spec = ReportSpec::binary("same.csv", "y", "p", "g", 2000, Stats::default());
    let (r, _) = build_report(&spec, &[vec![state]], None).unwrap();
    assert!(gate_sentences(&r).is_empty());
    let v = &verdicts(&r)[0];
    assert_eq!(v.lead, "g: none of its 8 gaps distinguishable from noise.");
    assert_eq!(v.findings.len(), 1, "{:#?}", v.findings);
    assert!(v.findings[0].starts_with(
        "Not distinguishable from noise (p at least 0.05): demographic parity difference; "
    ));
}

#[test]
fn compare_names_both_what_got_worse_and_what_got_fairer() {
    // The women's FPR jumps from 160/8000 = 0.02 to 2400/8000 = 0.30, past the men's 0.10: the
    // FPR gap (0.08 → 0.20) widens while the selection rates meet (0.116 → 0.34 against 0.36).
    let men = ("Male", 5400, 600, 1000, 3000);
    let old = report("old.csv", &[("Female", 7840, 160, 1000, 1000), men]);
    let new = report("new.csv", &[("Female", 5600, 2400, 1000, 1000), men]);
    let c = compare_reports(&old, &new, 0.95, 400, 0).unwrap();
    let v = &c.verdicts[0];
    assert_eq!(v.verdict, "worse", "{v:?}");
    let text = c
        .summary
        .iter()
        .find(|s| s.starts_with("sex: worse. Got worse: "))
        .unwrap_or_else(|| panic!("{:#?}", c.summary));
    assert!(
        text.contains(". Got fairer: demographic parity difference 0.244 → 0.020"),
        "{text}"
    );
    let named = c
        .summary
        .iter()
        .find(|s| s.starts_with("Got worse within sex: Female: false positive rate 0.020 → 0.300"))
        .unwrap_or_else(|| panic!("{:#?}", c.summary));
    // (5600 + 1000) / 10000 = 0.66 right after.
    assert!(named.contains("accuracy 0.884 → 0.660"), "{named}");
}

#[test]
fn compare_says_when_no_gap_could_be_compared() {
    // Every group has 20 rows, below the minimum group size 30: no gap is measured in either
    // audit, so the slice is "not measured" (never "unchanged").
    let small = report("a.csv", &[("Female", 8, 2, 2, 8), ("Male", 5, 5, 5, 5)]);
    let c = compare_reports(&small, &small, 0.95, 200, 0).unwrap();
    assert_eq!(c.verdicts[0].verdict, "not measured", "{:?}", c.verdicts[0]);
    assert!(
        c.summary.iter().any(|s| s
            == "sex: not measured. No gap could be compared (each needs two groups of the minimum size in both audits)."),
        "{:#?}",
        c.summary
    );
}

#[test]
fn the_model_sentence_gives_the_auc_its_interval_unless_rows_are_weighted() {
    use fair_audit::first_page::model_sentence;
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/score.json"),
    )
    .unwrap();
    let mut r = AuditReport::from_json(&text).unwrap();
    let all = &r.audits[0].slices[0].overall;
    let auc = r.score_metrics.as_ref().unwrap()[0].auc_overall.unwrap();
    // Hanley–McNeil on the pooled positives and negatives, as each group's AUC interval.
    let iv = fair_metrics::ci::auc_interval(auc, all.positives as f64, all.negatives as f64, 0.95)
        .unwrap();
    let s = model_sentence(&r).unwrap();
    let want = format!(
        "AUC {:.3} (95 % interval {:.3}–{:.3}, Hanley–McNeil).",
        auc, iv.lower, iv.upper
    );
    assert!(s.ends_with(&want), "{s}\n{want}");
    // Audited at thresholds 0.3 and 0.5: the accuracy is the first one's, and says so.
    assert!(
        s.starts_with("The model on all 1000 rows: accuracy at threshold 0.3 "),
        "{s}"
    );
    r.settings.weighted = true;
    let s = model_sentence(&r).unwrap();
    assert!(s.contains("weighted rows: no interval on all rows"), "{s}");
}
