//! A table built row by row and written as markdown, HTML or fixed-width text.

use crate::format::{escape_html, escape_markdown};
use std::fmt::Write as _;

/// One cell: markdown written by the program, or plain text that may come from a user's file.
#[derive(Debug, Clone, PartialEq)]
enum Cell {
    /// Trusted markdown (e.g. `**0.12**`), copied into markdown as is.
    Markdown(String),
    /// Untrusted text (e.g. a group name), escaped in every output.
    Text(String),
}

impl Cell {
    fn raw(&self) -> &str {
        match self {
            Cell::Markdown(s) | Cell::Text(s) => s,
        }
    }

    fn markdown(&self) -> String {
        match self {
            Cell::Markdown(s) => s.clone(),
            Cell::Text(s) => escape_markdown(s),
        }
    }
}

/// A table built row by row.
///
/// ```
/// let mut t = fair_report::Table::new(&["group", "rate"]);
/// t.row(vec!["a".into(), "0.5000".into()]);
/// t.text_row(vec!["<b>".into(), "0.2500".into()]);
/// assert!(t.markdown().starts_with("| group | rate |\n|---|---|\n| a | 0.5000 |"));
/// assert!(t.html().contains("<td>&lt;b&gt;</td>"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<Cell>>,
    header_titles: Vec<Option<String>>,
    row_titles: Vec<Option<String>>,
}

impl Table {
    /// A table with these column headers (program-written markdown).
    pub fn new(header: &[&str]) -> Self {
        Self {
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
            header_titles: Vec::new(),
            row_titles: Vec::new(),
        }
    }

    /// Hover text of the column headers in HTML (`title` attributes), in header order; the
    /// markdown is unchanged (a glossary belongs beside it).
    ///
    /// ```
    /// let mut t = fair_report::Table::new(&["group", "TPR"]);
    /// t.header_titles(vec![None, Some("true positive rate: P(ŷ=1 | y=1)".into())]);
    /// assert!(t.html().contains("<th title=\"true positive rate: P(ŷ=1 | y=1)\">TPR</th>"));
    /// ```
    pub fn header_titles(&mut self, titles: Vec<Option<String>>) {
        self.header_titles = titles;
    }

    /// Hover text of the last row's first cell in HTML (a `title` attribute).
    pub fn title_last_row(&mut self, title: &str) {
        self.row_titles.resize(self.rows.len(), None);
        if let Some(last) = self.row_titles.last_mut() {
            *last = Some(title.to_string());
        }
    }

    /// Adds a row of program-written markdown cells (copied into the markdown as is).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows
            .push(cells.into_iter().map(Cell::Markdown).collect());
    }

    /// Adds a row of plain-text cells that may come from users (group names, column names):
    /// escaped in the markdown and HTML outputs.
    pub fn text_row(&mut self, cells: Vec<String>) {
        self.rows.push(cells.into_iter().map(Cell::Text).collect());
    }

    /// The number of rows (header excluded).
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table has no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// A GitHub-flavoured markdown table.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "| {} |", self.header.join(" | "));
        let _ = writeln!(s, "|{}", "---|".repeat(self.header.len()));
        for r in &self.rows {
            let cells: Vec<String> = r.iter().map(Cell::markdown).collect();
            let _ = writeln!(s, "| {} |", cells.join(" | "));
        }
        s
    }

    /// An HTML `<table>`; every cell and header is escaped (markdown cells show as text).
    pub fn html(&self) -> String {
        let mut s = String::from("<table>\n<thead><tr>");
        let title = |t: Option<&Option<String>>| match t {
            Some(Some(t)) => format!(" title=\"{}\"", escape_html(t)),
            _ => String::new(),
        };
        for (j, h) in self.header.iter().enumerate() {
            let t = title(self.header_titles.get(j));
            let _ = write!(s, "<th{t}>{}</th>", escape_html(h));
        }
        s.push_str("</tr></thead>\n<tbody>\n");
        for (i, r) in self.rows.iter().enumerate() {
            s.push_str("<tr>");
            for (j, c) in r.iter().enumerate() {
                let t = if j == 0 {
                    title(self.row_titles.get(i))
                } else {
                    String::new()
                };
                let _ = write!(s, "<td{t}>{}</td>", escape_html(c.raw()));
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</tbody>\n</table>\n");
        s
    }

    /// Fixed-width text for the terminal (cells right-aligned, as given).
    pub fn plain(&self) -> String {
        let n = self.header.len();
        let widths: Vec<usize> = (0..n)
            .map(|j| {
                self.rows
                    .iter()
                    .map(|r| r.get(j).map_or(0, |c| c.raw().chars().count()))
                    .chain(std::iter::once(self.header[j].chars().count()))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: &mut dyn Iterator<Item = &str>| {
            cells
                .zip(&widths)
                .map(|(c, w)| format!("{c:>w$}"))
                .collect::<Vec<_>>()
                .join("  ")
        };
        let mut s = line(&mut self.header.iter().map(String::as_str));
        s.push('\n');
        for r in &self.rows {
            s.push_str(&line(&mut r.iter().map(Cell::raw)));
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_right_aligns_to_the_widest_cell() {
        let mut t = Table::new(&["a", "bb"]);
        t.row(vec!["xyz".into(), "1".into()]);
        assert_eq!(t.plain(), "  a  bb\nxyz   1\n");
    }

    #[test]
    fn text_cells_are_escaped_but_markdown_cells_are_not() {
        let mut t = Table::new(&["g"]);
        t.row(vec!["**1**".into()]);
        t.text_row(vec!["<script>|".into()]);
        let md = t.markdown();
        assert!(md.contains("| **1** |"));
        assert!(md.contains("| &lt;script&gt;\\| |"));
        assert!(!t.html().contains("<script>"));
        assert_eq!(t.len(), 2);
    }
}
