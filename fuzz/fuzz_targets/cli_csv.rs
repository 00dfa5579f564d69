//! The `fairkit audit` CSV reader (the CLI's `input` module) on structured files: a header with
//! the role columns in any order plus extras, rows of labels / scores / groups / weights drawn
//! from the corners (quoted, padded, huge, non-finite, missing, ragged), any delimiter, any
//! batch size. Invariants: no panic, and every batch is typed as the audit expects
//! (`fairkit_fuzz::read_all`).
#![no_main]

use arbitrary::Arbitrary;
use fairkit_fuzz::input::{ColumnSpec, Format, ReadOptions};
use fairkit_fuzz::{read_all, scratch};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Cell {
    Bit(bool),
    Word(u8),
    Int(i64),
    Float(f64),
    Text(String),
    Quoted(String),
    Padded(bool),
    Empty,
}

impl Cell {
    fn render(&self, out: &mut String) {
        match self {
            Cell::Bit(b) => out.push_str(if *b { "1" } else { "0" }),
            Cell::Word(k) => out.push_str(
                [
                    "yes", "no", "true", "false", "NaN", "inf", "-inf", "1e309", "-0", "0x1",
                    "1_0", "1e-320",
                ][*k as usize % 12],
            ),
            Cell::Int(v) => out.push_str(&v.to_string()),
            Cell::Float(v) => out.push_str(&v.to_string()),
            Cell::Text(s) => out.push_str(s),
            Cell::Quoted(s) => {
                out.push('"');
                out.push_str(&s.replace('"', "\"\""));
                out.push('"');
            }
            Cell::Padded(b) => out.push_str(if *b { " 1 " } else { "\t0" }),
            Cell::Empty => {}
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Input {
    delimiter: u8,
    batch_rows: u8,
    pos_label: u8,
    neg_label: Option<u8>,
    pred: bool,
    score: bool,
    two_sensitive: bool,
    weight: bool,
    /// Header columns: indices into the role names (extra columns when out of range).
    header: Vec<u8>,
    rows: Vec<Vec<Cell>>,
    crlf: bool,
    tail: Vec<u8>,
}

const ROLES: [&str; 6] = ["y", "yhat", "s", "g", "h", "w"];
const LABELS: [&str; 6] = ["1", "0", "yes", "true", ">50K", ""];

fuzz_target!(|input: Input| {
    let delimiter = [b',', b';', b'\t', b'|', input.delimiter][input.delimiter as usize % 5];
    let spec = ColumnSpec {
        label: "y".into(),
        pred: input.pred.then(|| "yhat".into()),
        score: input.score.then(|| "s".into()),
        sensitive: if input.two_sensitive {
            vec!["g".into(), "h".into()]
        } else {
            vec!["g".into()]
        },
        weight: input.weight.then(|| "w".into()),
        numeric: false,
        unlabeled: false,
        missing_groups: false,
        rank: None,
        relevance: None,
        query: false,
        inferred: Vec::new(),
        proxy: None,
    };
    let options = ReadOptions {
        format: Some(Format::Csv),
        delimiter,
        batch_rows: input.batch_rows as usize % 7 + 1,
        pos_label: LABELS[input.pos_label as usize % LABELS.len()].into(),
        neg_label: input
            .neg_label
            .map(|k| LABELS[k as usize % LABELS.len()].into()),
        timezone: None,
        unknowns: None,
        style: fair_audit::ingest::FlagStyle::Command,
    };
    let sep = delimiter as char;
    let eol = if input.crlf { "\r\n" } else { "\n" };
    // Header: all roles present in a fuzzed order unless the fuzzer asks otherwise.
    let mut header: Vec<String> = if input.header.is_empty() {
        ROLES.iter().map(|s| s.to_string()).collect()
    } else {
        input
            .header
            .iter()
            .take(10)
            .map(|&k| {
                ROLES
                    .get(k as usize)
                    .map_or(format!("x{k}"), |s| s.to_string())
            })
            .collect()
    };
    if header.is_empty() {
        header.push("y".into());
    }
    let mut text = header.join(&sep.to_string());
    text.push_str(eol);
    for row in input.rows.iter().take(40) {
        for (i, cell) in row.iter().take(12).enumerate() {
            if i > 0 {
                text.push(sep);
            }
            cell.render(&mut text);
        }
        text.push_str(eol);
    }
    let mut bytes = text.into_bytes();
    bytes.extend_from_slice(&input.tail);
    let file = scratch("csv");
    std::fs::write(&file, &bytes).expect("scratch file");
    if let Ok(rows) = read_all(&file, &spec, &options) {
        assert!(rows >= 1);
        // Each data record ends in a newline (plus whatever the tail adds).
        assert!(rows <= bytes.iter().filter(|&&b| b == b'\n' || b == b'\r').count() as u64 + 1);
    }
});
