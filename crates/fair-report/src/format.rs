//! Number formatting and text escaping shared by the markdown, HTML and SVG outputs.

/// A figure with 4 decimals, or "–" when undefined.
///
/// ```
/// assert_eq!(fair_report::fmt4(Some(0.123456)), "0.1235");
/// assert_eq!(fair_report::fmt4(None), "–");
/// ```
pub fn fmt4(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |x| format!("{x:.4}"))
}

/// `text` with the five XML/HTML special characters replaced by entities, safe inside HTML
/// elements and attribute values.
///
/// ```
/// assert_eq!(fair_report::escape_html("<b>&\"'"), "&lt;b&gt;&amp;&quot;&#39;");
/// ```
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `text` made safe inside a markdown table cell or paragraph: the characters markdown gives a
/// meaning (`\ ` `` ` `` `* _ [ ] | #`), and `<`, `>` and `&` (raw HTML is allowed in markdown)
/// are escaped, and line breaks become spaces so a cell stays on its row.
///
/// ```
/// assert_eq!(fair_report::escape_markdown("a|b <script>"), "a\\|b &lt;script&gt;");
/// ```
pub fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}
