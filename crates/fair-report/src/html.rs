//! One document model written as a self-contained HTML page (inline CSS and SVG, no script, no
//! external URL: it opens offline) or as markdown beside its SVG files.

use crate::error::{ReportError, Result};
use crate::format::{escape_html, escape_markdown};
use crate::table::Table;
use std::fmt::Write as _;

/// One block of the report, in reading order.
#[derive(Debug, Clone, PartialEq)]
enum Block {
    Heading {
        level: u8,
        text: String,
    },
    Paragraph(String),
    Table(Table),
    Figure {
        svg: String,
        caption: String,
        file: String,
    },
}

/// A report built block by block: headings, paragraphs, tables and SVG figures. All text given
/// to it is plain text and is escaped in both outputs.
///
/// ```
/// use fair_report::{HtmlReport, Table};
/// let mut t = Table::new(&["group", "rate"]);
/// t.text_row(vec!["<script>".into(), "0.5".into()]);
/// let mut r = HtmlReport::new("Fairness audit");
/// r.heading("Selection rate").paragraph("Per group, with 95 % intervals.").table(&t);
/// let html = r.to_html();
/// assert!(html.starts_with("<!DOCTYPE html>"));
/// assert!(!html.contains("<script>"));
/// assert!(r.to_markdown().contains("## Selection rate"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct HtmlReport {
    title: String,
    blocks: Vec<Block>,
}

/// The page's only styling: inline, no fonts or files fetched.
const CSS: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;\
max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}\
h1{border-bottom:2px solid #ddd;padding-bottom:.3em}\
table{border-collapse:collapse;margin:1em 0;font-size:.92em}\
th,td{border:1px solid #ccc;padding:.3em .6em;text-align:right}\
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}\
figure{margin:1.5em 0}figure svg{max-width:100%;height:auto}\
figcaption{color:#555;font-size:.9em}";

impl HtmlReport {
    /// An empty report titled `title` (the page title and its `<h1>`).
    pub fn new(title: &str) -> Self {
        Self {
            title: title.to_string(),
            blocks: Vec::new(),
        }
    }

    /// A section heading (`<h2>`, markdown `##`).
    pub fn heading(&mut self, text: &str) -> &mut Self {
        self.blocks.push(Block::Heading {
            level: 2,
            text: text.to_string(),
        });
        self
    }

    /// A subsection heading (`<h3>`, markdown `###`).
    pub fn subheading(&mut self, text: &str) -> &mut Self {
        self.blocks.push(Block::Heading {
            level: 3,
            text: text.to_string(),
        });
        self
    }

    /// A paragraph of plain text.
    pub fn paragraph(&mut self, text: &str) -> &mut Self {
        self.blocks.push(Block::Paragraph(text.to_string()));
        self
    }

    /// A table (a copy is kept).
    pub fn table(&mut self, table: &Table) -> &mut Self {
        self.blocks.push(Block::Table(table.clone()));
        self
    }

    /// A figure: an SVG drawn by this crate's charts, inlined in the HTML; the markdown links to
    /// it as `file` (which the caller writes beside the markdown) with `caption` as alt text.
    ///
    /// # Errors
    /// [`ReportError::BadInput`] when `svg` is not an `<svg>` document or holds a script,
    /// an embedded foreign object or an external reference (the page must stay inert and
    /// offline).
    pub fn figure(&mut self, svg: String, caption: &str, file: &str) -> Result<&mut Self> {
        let body = svg.trim_start();
        let body = match body.strip_prefix("<?xml") {
            Some(rest) => rest.split_once("?>").map_or("", |(_, r)| r).trim_start(),
            None => body,
        };
        let lower = body.to_ascii_lowercase();
        let bad = [
            "<script",
            "<foreignobject",
            "javascript:",
            "href=\"http",
            "href='http",
            "url(http",
        ]
        .iter()
        .find(|b| lower.contains(*b));
        if !lower.starts_with("<svg") || bad.is_some() {
            return Err(ReportError::BadInput {
                chart: "HtmlReport::figure",
                reason: match bad {
                    Some(b) => format!(
                        "figure {caption:?}: the SVG contains {b:?}, which a self-contained report cannot hold"
                    ),
                    None => {
                        format!("figure {caption:?}: not an SVG document (it must start with <svg)")
                    }
                },
            });
        }
        self.blocks.push(Block::Figure {
            svg: body.to_string(),
            caption: caption.to_string(),
            file: file.to_string(),
        });
        Ok(self)
    }

    /// The self-contained HTML page.
    pub fn to_html(&self) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{t}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<h1>{t}</h1>\n",
            t = escape_html(&self.title)
        );
        for b in &self.blocks {
            match b {
                Block::Heading { level, text } => {
                    let _ = writeln!(s, "<h{level}>{}</h{level}>", escape_html(text));
                }
                Block::Paragraph(text) => {
                    let _ = writeln!(s, "<p>{}</p>", escape_html(text));
                }
                Block::Table(t) => s.push_str(&t.html()),
                Block::Figure { svg, caption, .. } => {
                    let _ = writeln!(
                        s,
                        "<figure>\n{svg}\n<figcaption>{}</figcaption>\n</figure>",
                        escape_html(caption)
                    );
                }
            }
        }
        s.push_str("</body>\n</html>\n");
        s
    }

    /// The same report as markdown; figures become `![caption](file)` links.
    pub fn to_markdown(&self) -> String {
        let mut s = format!("# {}\n", escape_markdown(&self.title));
        for b in &self.blocks {
            s.push('\n');
            match b {
                Block::Heading { level, text } => {
                    let _ = writeln!(
                        s,
                        "{} {}",
                        "#".repeat(*level as usize),
                        escape_markdown(text)
                    );
                }
                Block::Paragraph(text) => {
                    let _ = writeln!(s, "{}", escape_markdown(text));
                }
                Block::Table(t) => s.push_str(&t.markdown()),
                Block::Figure { caption, file, .. } => {
                    let _ = writeln!(
                        s,
                        "![{}]({})",
                        escape_markdown(caption),
                        file.replace(' ', "%20").replace(')', "%29")
                    );
                }
            }
        }
        s
    }
}
