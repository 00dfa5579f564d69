//! fairkit's reports: every chart, the palette, tables, number formatting and the HTML page.
//!
//! One place draws a chart: `cargo xtask repro`, the `fairkit` command line and the Python
//! package all call this crate. Charts are drawn with plotters' SVG backend and returned as SVG
//! `String`s; the crate never touches files and never prints (front ends write what it returns).
//! Inputs are plain data (names, numbers, point lists), so the crate depends on no other fairkit
//! crate.
//!
//! * Audit charts: [`group_rate_bars`] (one rate per group with interval whiskers),
//!   [`roc_curves`] (per-group ROC with AUC in the legend), [`score_ccdf`] (per-group score CCDF
//!   with the KS point marked). A NaN or infinite input is a [`ReportError::NotFinite`], never a
//!   broken SVG; long curves are thinned with [`downsample`].
//! * Reproduction charts: [`labelled_scatter`], [`back_to_back`], [`frontier::multi_series`],
//!   [`lines::line_plot`], [`panels::panel_grid`], [`tradeoff::tradeoff`],
//!   [`trajectory::stacked_lines`].
//! * [`Table`] (markdown, HTML, plain text), [`HtmlReport`] (self-contained HTML and markdown),
//!   [`fmt4`], [`escape_html`], [`escape_markdown`], [`palette`].
//!
//! User-provided text (group and column names) is escaped in every output: plotters escapes SVG
//! text, [`HtmlReport`] and [`Table::html`] escape HTML, [`Table::text_row`] and
//! [`escape_markdown`] escape markdown.
//!
//! ```
//! use fair_report::{group_rate_bars, GroupRate, HtmlReport};
//! let groups = vec![
//!     GroupRate { group: "a".into(), rate: Some(0.4), interval: Some((0.35, 0.45)) },
//!     GroupRate { group: "b".into(), rate: None, interval: None },
//! ];
//! let svg = group_rate_bars("Selection rate", "selection rate", &groups, None, "95 % interval")?;
//! let mut report = HtmlReport::new("Audit");
//! report.heading("Selection rate").figure(svg, "selection rate by group", "selection.svg")?;
//! assert!(report.to_html().contains("<svg"));
//! # Ok::<(), fair_report::ReportError>(())
//! ```

mod bars;
mod bounds;
mod curves;
mod downsample;
mod error;
mod format;
pub mod frontier;
pub mod html;
mod legend;
pub mod lines;
pub mod palette;
pub mod panels;
mod rate_bars;
mod scatter;
mod svg;
mod table;
pub mod tradeoff;
pub mod trajectory;

pub use bars::{BarSeries, back_to_back};
pub use curves::{
    GroupCurve, KsMark, roc_curves, roc_curves_coloured, score_ccdf, score_ccdf_coloured,
    value_ccdf_coloured,
};
pub use downsample::{MAX_CURVE_POINTS, downsample};
pub use error::{ReportError, Result};
pub use format::{escape_html, escape_markdown, fmt4};
pub use html::HtmlReport;
pub use legend::TEXT_EM;
pub use rate_bars::{
    GroupRate, SMALL_GROUP_MARK, SMALL_GROUP_NOTE, gap_panels, group_rate_bars,
    group_rate_bars_coloured, group_rate_bars_small,
};
pub use scatter::{LabelledPoint, labelled_scatter};
pub use table::Table;
