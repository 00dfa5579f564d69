//! One document model written as a self-contained HTML page (inline CSS and SVG, no external
//! URL: it opens offline; no script unless [`HtmlReport::interactive`] asks for the one inline
//! script that sorts tables and filters groups) or as markdown beside its SVG files. Section headings carry
//! GitHub-style anchors (the same in both views), so a table of contents links in either; a
//! section marked as the first page is what the page prints (the rest is hidden in print).

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
    /// A paragraph led by a few words in bold.
    Lead {
        lead: String,
        text: String,
    },
    /// A bulleted list.
    List(Vec<String>),
    /// The table of contents: a link to every section heading (`<h2>`).
    Contents,
    /// Start of a boxed section (`<section id class>`); nothing in markdown.
    Open {
        id: String,
        class: String,
    },
    /// End of the last boxed section.
    Close,
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
    interactive: bool,
}

/// The page's one script (with [`HtmlReport::interactive`]): a click on a column heading sorts
/// the table by it (numbers by value — a cell's leading number, "< 0.001" as 0.001 — text
/// alphabetically, again to reverse), and a box under the table of contents shows only the rows
/// of per-group tables whose group contains the text typed (and the "all" row). It reads and
/// writes text only (`textContent`), fetches nothing, and the page reads the same without it.
const SCRIPT: &str = r#"(function(){
var num=function(t){var m=/^\s*[<>≈]?\s*(-?\d*\.?\d+(?:e[-+]?\d+)?)/i.exec(t);return m?parseFloat(m[1]):NaN;};
var each=function(l,f){Array.prototype.forEach.call(l,f);};
each(document.querySelectorAll('table'),function(tb){
if(!tb.tHead||!tb.tBodies[0])return;var hs=tb.tHead.rows[0].cells;
each(hs,function(th,j){th.className='sortable';th.tabIndex=0;
var sort=function(){var b=tb.tBodies[0],rows=Array.prototype.slice.call(b.rows),dir=th.getAttribute('data-sort')==='asc'?-1:1;
each(hs,function(h){h.removeAttribute('data-sort');});th.setAttribute('data-sort',dir>0?'asc':'desc');
rows.sort(function(x,y){var a=x.cells[j]?x.cells[j].textContent:'',c=y.cells[j]?y.cells[j].textContent:'',p=num(a),q=num(c);
if(!isNaN(p)&&!isNaN(q))return (p-q)*dir;if(!isNaN(p))return -1;if(!isNaN(q))return 1;return a.localeCompare(c)*dir;});
rows.forEach(function(r){b.appendChild(r);});};
th.addEventListener('click',sort);th.addEventListener('keydown',function(e){if(e.key==='Enter')sort();});});});
var nav=document.querySelector('nav.toc');if(!nav)return;
var box=document.createElement('p');box.className='filter';var lab=document.createElement('label');
lab.textContent='Show only the groups whose name contains: ';var inp=document.createElement('input');
inp.type='search';inp.id='group-filter';lab.appendChild(inp);box.appendChild(lab);nav.parentNode.insertBefore(box,nav.nextSibling);
inp.addEventListener('input',function(){var q=inp.value.trim().toLowerCase();
each(document.querySelectorAll('table'),function(tb){var h=tb.tHead&&tb.tHead.rows[0].cells[0];
if(!h||h.textContent!=='group'||!tb.tBodies[0])return;
each(tb.tBodies[0].rows,function(r){var g=r.cells[0].textContent.toLowerCase();
r.style.display=(!q||g.indexOf(q)>=0||g==='all')?'':'none';});});});
})();"#;

/// The page's only styling: inline, no fonts or files fetched.
const CSS: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;\
max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}\
h1{border-bottom:2px solid #ddd;padding-bottom:.3em}\
table{border-collapse:collapse;margin:1em 0;font-size:.92em}\
th,td{border:1px solid #ccc;padding:.3em .6em;text-align:right}\
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}\
figure{margin:1.5em 0}figure svg{max-width:100%;height:auto}\
figcaption{color:#555;font-size:.9em}\
nav.toc{font-size:.92em;color:#444;margin:.2em 0 1em}nav.toc ol{display:inline;padding:0;margin:0}\
nav.toc li{display:inline}nav.toc li+li:before{content:\" · \"}\
section.first-page{border:2px solid #bbb;border-radius:6px;padding:.1em 1.1em .4em;\
margin:1em 0 2em;background:#fcfcfc}section.first-page h2{margin-top:.6em}\
section.first-page ul{padding-left:1.3em}section.first-page li{margin:.25em 0}\
th.sortable{cursor:pointer}th[data-sort=asc]:after{content:\" ▲\"}th[data-sort=desc]:after{content:\" ▼\"}\
p.filter input{font:inherit;padding:.1em .4em;width:16em}\
@media print{@page{size:A4;margin:11mm}\
body{max-width:none;margin:0;padding:0;font-size:8.6pt;line-height:1.25}\
body>*{display:none!important}body>h1,body>section.first-page{display:block!important}\
h1{font-size:13pt;margin:0 0 .3em}section.first-page{border:0;padding:0;margin:0;background:none}\
section.first-page h2{font-size:10.5pt;margin:.5em 0 .2em}section.first-page p{margin:.25em 0}\
section.first-page li{margin:.1em 0}section.first-page table{font-size:8pt;margin:.3em 0}\
section.first-page figure svg{max-height:70mm;width:auto}}";

/// The anchor GitHub gives a markdown heading, also used as the HTML heading's `id`: lower
/// case, letters, digits, `-` and `_` kept, spaces as `-`, everything else dropped.
///
/// ```
/// assert_eq!(fair_report::html::anchor("Rates & gaps (threshold 0.5)"), "rates--gaps-threshold-05");
/// ```
pub fn anchor(text: &str) -> String {
    text.trim()
        .chars()
        .flat_map(char::to_lowercase)
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

impl HtmlReport {
    /// An empty report titled `title` (the page title and its `<h1>`).
    pub fn new(title: &str) -> Self {
        Self {
            title: title.to_string(),
            blocks: Vec::new(),
            interactive: false,
        }
    }

    /// Adds the page's one inline script: sortable tables (click a column heading) and a group
    /// filter under the table of contents. Offline and inert without it: the HTML reads the
    /// same with scripts off, and the markdown is unchanged.
    pub fn interactive(&mut self) -> &mut Self {
        self.interactive = true;
        self
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

    /// A paragraph whose first words, `lead`, are set in bold (a verdict's outcome).
    pub fn lead_paragraph(&mut self, lead: &str, text: &str) -> &mut Self {
        self.blocks.push(Block::Lead {
            lead: lead.to_string(),
            text: text.to_string(),
        });
        self
    }

    /// A bulleted list of plain-text items (nothing when `items` is empty).
    pub fn list(&mut self, items: &[String]) -> &mut Self {
        if !items.is_empty() {
            self.blocks.push(Block::List(items.to_vec()));
        }
        self
    }

    /// The table of contents: one link per section heading (`<h2>` / `##`), wherever they are
    /// in the document, written here.
    pub fn contents(&mut self) -> &mut Self {
        self.blocks.push(Block::Contents);
        self
    }

    /// Opens a boxed section with this `id` and CSS `class` (closed by [`Self::close_section`]).
    /// The class `first-page` is what the page prints: every other block is hidden in print.
    ///
    /// ```
    /// use fair_report::HtmlReport;
    /// let mut r = HtmlReport::new("Audit");
    /// r.open_section("first-page", "first-page").heading("Verdict")
    ///     .lead_paragraph("sex:", "fails the four-fifths rule.").close_section();
    /// r.contents().heading("Detail").list(&["a gap".to_string()]);
    /// let html = r.to_html();
    /// assert!(html.contains("<section id=\"first-page\" class=\"first-page\">"));
    /// assert!(html.contains("<a href=\"#detail\">Detail</a>") && html.contains("<h2 id=\"detail\">"));
    /// assert!(r.to_markdown().contains("Contents: [Verdict](#verdict) · [Detail](#detail)"));
    /// ```
    pub fn open_section(&mut self, id: &str, class: &str) -> &mut Self {
        self.blocks.push(Block::Open {
            id: anchor(id),
            class: anchor(class),
        });
        self
    }

    /// Closes the section opened last.
    pub fn close_section(&mut self) -> &mut Self {
        self.blocks.push(Block::Close);
        self
    }

    /// The section headings with their anchors, made unique as GitHub does (`-1`, `-2`, … on
    /// repeats), in document order: `(level, text, anchor)` per heading block.
    fn anchors(&self) -> Vec<(u8, String, String)> {
        let mut seen: Vec<String> = Vec::new();
        let mut out = Vec::new();
        for b in &self.blocks {
            if let Block::Heading { level, text } = b {
                let base = anchor(text);
                let mut id = base.clone();
                let mut k = 0;
                while seen.contains(&id) {
                    k += 1;
                    id = format!("{base}-{k}");
                }
                seen.push(id.clone());
                out.push((*level, text.clone(), id));
            }
        }
        out
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
        let anchors = self.anchors();
        let mut ids = anchors.iter().map(|a| &a.2);
        for b in &self.blocks {
            match b {
                Block::Heading { level, text } => {
                    let id = ids.next().map_or(String::new(), |i| escape_html(i));
                    let _ = writeln!(s, "<h{level} id=\"{id}\">{}</h{level}>", escape_html(text));
                }
                Block::Lead { lead, text } if text.is_empty() => {
                    let _ = writeln!(s, "<p><strong>{}</strong></p>", escape_html(lead));
                }
                Block::Lead { lead, text } => {
                    let _ = writeln!(
                        s,
                        "<p><strong>{}</strong> {}</p>",
                        escape_html(lead),
                        escape_html(text)
                    );
                }
                Block::List(items) => {
                    s.push_str("<ul>\n");
                    for i in items {
                        let _ = writeln!(s, "<li>{}</li>", escape_html(i));
                    }
                    s.push_str("</ul>\n");
                }
                Block::Contents => {
                    s.push_str("<nav class=\"toc\" aria-label=\"Contents\"><strong>Contents:</strong> <ol>");
                    for (_, text, id) in anchors.iter().filter(|a| a.0 == 2) {
                        let _ = write!(
                            s,
                            "<li><a href=\"#{}\">{}</a></li>",
                            escape_html(id),
                            escape_html(text)
                        );
                    }
                    s.push_str("</ol></nav>\n");
                }
                Block::Open { id, class } => {
                    let _ = writeln!(s, "<section id=\"{id}\" class=\"{class}\">");
                }
                Block::Close => s.push_str("</section>\n"),
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
        if self.interactive {
            let _ = writeln!(s, "<script>{SCRIPT}</script>");
        }
        s.push_str("</body>\n</html>\n");
        s
    }

    /// The same report as markdown; figures become `![caption](file)` links.
    pub fn to_markdown(&self) -> String {
        let mut s = format!("# {}\n", escape_markdown(&self.title));
        let anchors = self.anchors();
        for b in &self.blocks {
            if matches!(b, Block::Open { .. } | Block::Close) {
                continue;
            }
            s.push('\n');
            match b {
                Block::Open { .. } | Block::Close => {}
                Block::Lead { lead, text } => {
                    let _ = write!(s, "**{}**", escape_markdown(lead));
                    if !text.is_empty() {
                        let _ = write!(s, " {}", escape_markdown(text));
                    }
                    s.push('\n');
                }
                Block::List(items) => {
                    for i in items {
                        let _ = writeln!(s, "- {}", escape_markdown(i));
                    }
                }
                Block::Contents => {
                    let links: Vec<String> = anchors
                        .iter()
                        .filter(|a| a.0 == 2)
                        .map(|(_, text, id)| format!("[{}](#{id})", escape_markdown(text)))
                        .collect();
                    let _ = writeln!(s, "Contents: {}", links.join(" · "));
                }
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
