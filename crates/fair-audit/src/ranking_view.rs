//! The markdown/HTML views of a ranking audit (report.json's `ranking`): a verdict line per
//! sensitive attribute first, then per slice the groups' numbers with intervals and the ratios
//! between groups, then the settings, the glossary and the method.

use crate::error::AuditError;
use crate::first_page::gate_sentences;
use crate::glossary;
use crate::model::AuditReport;
use crate::model::ranking::{RankingAudit, RankingSlice};
use crate::model::regression::Measured;
use crate::summary::value_text;
use fair_report::{HtmlReport, Table};

fn measured(m: &Measured) -> String {
    match (m.value, m.lower, m.upper) {
        (Some(v), Some(l), Some(u)) => {
            format!("{} [{}, {}]", value_text(v), value_text(l), value_text(u))
        }
        (Some(v), _, _) => value_text(v),
        _ => "n/a".into(),
    }
}

fn groups_table(s: &RankingSlice, relevance: bool) -> Table {
    let mut head: Vec<String> = [
        "group",
        "items",
        "item share",
        "exposure share",
        "exposure ratio",
    ]
    .map(String::from)
    .to_vec();
    if relevance {
        head.extend(["exposure per relevance", "impact per relevance", "NDCG"].map(String::from));
    }
    let ks: Vec<u64> = s
        .groups
        .first()
        .map(|g| g.top_k_share.iter().map(|t| t.k).collect())
        .unwrap_or_default();
    head.extend(ks.iter().map(|k| format!("top-{k} share")));
    head.push("FA*IR pass rate".into());
    let refs: Vec<&str> = head.iter().map(String::as_str).collect();
    let mut t = Table::new(&refs);
    for g in &s.groups {
        let mut row = vec![
            g.group.clone(),
            // Unweighted, items are a count: written as one.
            if g.items.fract() == 0.0 && g.items < 1e15 {
                format!("{}", g.items as u64)
            } else {
                value_text(g.items)
            },
            value_text(g.item_share),
            measured(&g.exposure_share),
            measured(&g.exposure_ratio),
        ];
        if relevance {
            row.push(measured(&g.exposure_per_relevance));
            row.push(measured(&g.impact_per_relevance));
            row.push(measured(&g.ndcg));
        }
        row.extend(g.top_k_share.iter().map(|t| measured(&t.share)));
        row.push(if g.fair_tested > 0.0 {
            measured(&g.fair_pass_rate)
        } else {
            "not tested".into()
        });
        t.text_row(row);
    }
    t
}

fn gaps_table(s: &RankingSlice, level: &str) -> Table {
    let mut t = Table::new(&["ratio", "value", &format!("{level} interval")]);
    for g in &s.gaps {
        let interval = match (g.value.lower, g.value.upper) {
            (Some(l), Some(u)) => format!("[{}, {}]", value_text(l), value_text(u)),
            _ => "n/a".into(),
        };
        t.text_row(vec![
            format!("{} ({})", g.key.name(), g.key),
            g.value.value.map_or("n/a".into(), value_text),
            interval,
        ]);
    }
    t
}

/// The document of a ranking audit's report.
///
/// # Errors
/// None today; the signature is the other views'.
pub fn document(
    r: &AuditReport,
    a: &RankingAudit,
) -> Result<(HtmlReport, Vec<(String, String)>), AuditError> {
    let level = format!("{:.0} %", r.settings.confidence * 100.0);
    let mut doc = HtmlReport::new(&format!("Fairness audit of rankings: {}", r.input.file));
    doc.interactive();
    doc.open_section("first-page", "first-page");
    doc.heading("Verdict");
    let positions = match (&a.rank, &a.score) {
        (Some(rank), _) => format!("rank '{rank}' (smallest first)"),
        (None, Some(score)) => format!("score '{score}' (highest first)"),
        _ => String::new(),
    };
    doc.paragraph(&format!(
        "{}: {} rows in {} queries ('{}'), positions by {positions}; sensitive attributes: {}.",
        r.input.file,
        r.input.rows,
        a.queries,
        a.query,
        r.input.columns.sensitive.join(", ")
    ));
    for (lead, text) in gate_sentences(r) {
        doc.lead_paragraph(&lead, &text);
    }
    doc.list(
        &a.slices
            .iter()
            .map(|s| s.verdict.clone())
            .collect::<Vec<_>>(),
    );
    doc.paragraph(&format!(
        "How to read this: a group's exposure ratio is its share of the attention the rankings give (the position discount summed over its items) over its share of the items; 1 is parity, and the slice's exposure ratio is the smallest group's over the largest's, judged against the parity band (tau = {}). Intervals ({level}) come from resampling the queries.",
        r.settings.disparity.as_ref().map_or(0.8, |d| d.tau)
    ));
    doc.close_section();
    doc.contents();
    let relevance = a.relevance.is_some();
    for s in &a.slices {
        doc.heading(&format!("Rankings by {}", s.slice));
        doc.table(&groups_table(s, relevance));
        doc.subheading(&format!("Ratios between the groups of {}", s.slice));
        doc.table(&gaps_table(s, &level));
    }
    doc.heading("Settings");
    doc.paragraph(&format!(
        "Discount: {}; top-k cut-offs: {}; FA*IR's test over the first {} positions of each query at target share {} and level {} (the paper's correction for testing every prefix); weights: {}; {} resamples, seed {}. Ties: {}.",
        match a.persistence {
            Some(p) => format!("geometric (rank-biased precision), persistence {p}"),
            None => "1/log2(1 + position)".into(),
        },
        a.top_k
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        a.fair_k,
        a.fair_p
            .map_or("each group's share of the query".into(), |p| p.to_string()),
        a.fair_alpha,
        r.input.columns.weight.as_deref().unwrap_or("none (every query counts once)"),
        r.settings.resamples,
        r.settings.seed,
        a.tie_rule
    ));
    doc.heading("What the numbers mean");
    let mut gl = Table::new(&["number", "meaning"]);
    for e in glossary::RANKING_ENTRIES {
        gl.text_row(vec![
            format!("{} ({})", e.name, e.key),
            e.meaning.to_string(),
        ]);
    }
    doc.table(&gl);
    doc.heading("Method");
    doc.paragraph(&format!(
        "Each query's numbers are computed from its rows alone and summed over the queries (weighted by the query's weight); the ratios are ratios of those sums. Intervals: {}. Schema: {} v{}.",
        a.inference_method, r.schema, r.schema_version
    ));
    Ok((doc, Vec::new()))
}
