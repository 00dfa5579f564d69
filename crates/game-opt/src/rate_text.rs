//! `Display`/`FromStr` of the rate language's data-carrying types ([`Filter`], [`Subset`],
//! [`Atom`], [`Rate`]) in the nested call form of [`fair_core::Term`]:
//!
//! ```text
//! filter  = group("attribute", "group") | label(true|false) | baseline(true|false)
//!         | baseline_correct(true|false) | mask("name")
//! subset  = all() | subset(filter, filter, …)             (the filters' conjunction, in order)
//! atom    = predicted(positive|negative, subset, subset)  (c±(on) / |per|: on, then per)
//!         | fraction(subset, subset)                      (|on| / |per|)
//! rate    = <rate name>(subset)                           (see [`Rate`]'s `Display`)
//! ```
//!
//! Names (attributes, groups, masks) are written as quoted strings ([`fair_core::quote`]), so
//! any text, with commas, parentheses, quotes or nothing at all, reads back unchanged; a bare
//! word is accepted where a name is expected (`mask(steering)`). `subset()` reads as `all()`.
//! Errors are [`ParseTermError`]s: a syntax error with its byte offset, or a form error naming
//! the offending part, the problem and the accepted forms.

use crate::rates::{Atom, Filter, Prediction, Rate, Subset};
use fair_core::{ParseTermError, Term, quote};
use std::fmt;
use std::str::FromStr;

const FILTER_FORMS: &str = "one of group(\"attribute\", \"group\"), label(true|false), \
     baseline(true|false), baseline_correct(true|false), mask(\"name\")";
const SUBSET_FORMS: &str = "all() or subset(filter, …)";
const ATOM_FORMS: &str =
    "predicted(positive|negative, on_subset, per_subset) or fraction(on_subset, per_subset)";

/// A rate's `Display` name, its aliases and its constructor.
type RateName = (&'static str, &'static [&'static str], fn(Subset) -> Rate);

/// The rate names: `Display` name first, then aliases. The display names are the spellings the
/// workspace already uses for these rates (`fairkit.metrics`' `selection_rate`,
/// `true_positive_rate`, …, `error_rate`, `accuracy`; `fair_metrics`' `negative_prediction_rate`,
/// `win_rate`, `loss_rate`, `churn`, `loss_only_churn`); the aliases are the variants' own
/// snake_case names.
const RATE_NAMES: [RateName; 15] = [
    (
        "selection_rate",
        &["positive_prediction_rate", "positive_prediction"],
        Rate::PositivePrediction,
    ),
    (
        "negative_prediction_rate",
        &["negative_prediction"],
        Rate::NegativePrediction,
    ),
    ("true_positive_rate", &["true_positive"], Rate::TruePositive),
    (
        "false_positive_rate",
        &["false_positive"],
        Rate::FalsePositive,
    ),
    ("true_negative_rate", &["true_negative"], Rate::TrueNegative),
    (
        "false_negative_rate",
        &["false_negative"],
        Rate::FalseNegative,
    ),
    ("error_rate", &["error"], Rate::Error),
    ("accuracy", &[], Rate::Accuracy),
    ("churn", &[], Rate::Churn),
    ("win_rate", &["win"], Rate::Win),
    ("loss_rate", &["loss"], Rate::Loss),
    ("loss_only_churn", &[], Rate::LossOnlyChurn),
    ("label_positive", &[], Rate::LabelPositive),
    ("baseline_positive", &[], Rate::BaselinePositive),
    ("baseline_accuracy", &[], Rate::BaselineAccuracy),
];

impl Rate {
    /// The `Display` names of the rates, in declaration order (aliases excluded).
    ///
    /// # Examples
    /// ```
    /// use game_opt::Rate;
    /// assert_eq!(Rate::NAMES.len(), 15);
    /// assert_eq!(Rate::NAMES[2], "true_positive_rate");
    /// ```
    pub const NAMES: &'static [&'static str] = &{
        let mut out = [""; 15];
        let mut i = 0;
        while i < 15 {
            out[i] = RATE_NAMES[i].0;
            i += 1;
        }
        out
    };

    /// The rate's `Display` name (e.g. `"true_positive_rate"`).
    ///
    /// # Examples
    /// ```
    /// use game_opt::{Rate, Subset};
    /// assert_eq!(Rate::PositivePrediction(Subset::all()).name(), "selection_rate");
    /// ```
    pub fn name(&self) -> &'static str {
        Self::NAMES[self.index()]
    }

    /// The subset the rate is taken on.
    ///
    /// # Examples
    /// ```
    /// use game_opt::{Rate, Subset};
    /// assert_eq!(Rate::Churn(Subset::mask("m")).subset(), &Subset::mask("m"));
    /// ```
    pub fn subset(&self) -> &Subset {
        match self {
            Rate::PositivePrediction(s)
            | Rate::NegativePrediction(s)
            | Rate::TruePositive(s)
            | Rate::FalsePositive(s)
            | Rate::TrueNegative(s)
            | Rate::FalseNegative(s)
            | Rate::Error(s)
            | Rate::Accuracy(s)
            | Rate::Churn(s)
            | Rate::Win(s)
            | Rate::Loss(s)
            | Rate::LossOnlyChurn(s)
            | Rate::LabelPositive(s)
            | Rate::BaselinePositive(s)
            | Rate::BaselineAccuracy(s) => s,
        }
    }

    fn index(&self) -> usize {
        match self {
            Rate::PositivePrediction(_) => 0,
            Rate::NegativePrediction(_) => 1,
            Rate::TruePositive(_) => 2,
            Rate::FalsePositive(_) => 3,
            Rate::TrueNegative(_) => 4,
            Rate::FalseNegative(_) => 5,
            Rate::Error(_) => 6,
            Rate::Accuracy(_) => 7,
            Rate::Churn(_) => 8,
            Rate::Win(_) => 9,
            Rate::Loss(_) => 10,
            Rate::LossOnlyChurn(_) => 11,
            Rate::LabelPositive(_) => 12,
            Rate::BaselinePositive(_) => 13,
            Rate::BaselineAccuracy(_) => 14,
        }
    }
}

// ---- Display -------------------------------------------------------------------------------

/// `group("race", "Black")`, `label(true)`, `baseline(false)`, `baseline_correct(true)`,
/// `mask("steering")`; names are quoted with [`fair_core::quote`].
impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Filter::Group { attribute, group } => {
                write!(f, "group({}, {})", quote(attribute), quote(group))
            }
            Filter::Label(b) => write!(f, "label({b})"),
            Filter::Baseline(b) => write!(f, "baseline({b})"),
            Filter::BaselineCorrect(b) => write!(f, "baseline_correct({b})"),
            Filter::Mask(m) => write!(f, "mask({})", quote(m)),
        }
    }
}

/// `all()` for every row, otherwise `subset(filter, …)` with the filters in order.
impl fmt::Display for Subset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.filters().is_empty() {
            return f.write_str("all()");
        }
        f.write_str("subset(")?;
        for (i, filter) in self.filters().iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{filter}")?;
        }
        f.write_str(")")
    }
}

/// `predicted(positive, on, per)` or `fraction(on, per)`, `on` and `per` as [`Subset`]s.
impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Atom::Predicted {
                prediction,
                on,
                per,
            } => write!(f, "predicted({prediction}, {on}, {per})"),
            Atom::Fraction { on, per } => write!(f, "fraction({on}, {per})"),
        }
    }
}

/// `name(subset)`, the name from [`Rate::NAMES`], e.g.
/// `true_positive_rate(subset(group("race", "Black")))`.
impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.name(), self.subset())
    }
}

// ---- FromStr -------------------------------------------------------------------------------

fn read(what: &'static str, s: &str) -> Result<Term, ParseTermError> {
    s.parse::<Term>()
        .map_err(|source| ParseTermError::syntax(what, source))
}

fn form_error(
    what: &'static str,
    got: &Term,
    problem: impl Into<String>,
    expected: impl Into<String>,
) -> ParseTermError {
    ParseTermError::form(what, got, problem, expected)
}

/// The name and arguments of a call whose name `arity` knows (it gives the number of
/// arguments of each accepted name, `None` for an unknown name).
fn call<'t>(
    what: &'static str,
    t: &'t Term,
    arity: impl Fn(&str) -> Option<usize>,
    expected: &str,
) -> Result<(&'t str, &'t [Term]), ParseTermError> {
    let (name, args) = t.as_call().ok_or_else(|| {
        let kind = not_call(t);
        form_error(what, t, format!("{kind}, not a call"), expected)
    })?;
    let arity = arity(name)
        .ok_or_else(|| form_error(what, t, format!("unknown name `{name}`"), expected))?;
    if args.len() != arity {
        let s = if arity == 1 { "" } else { "s" };
        return Err(form_error(
            what,
            t,
            format!("`{name}` takes {arity} argument{s}, got {}", args.len()),
            expected,
        ));
    }
    Ok((name, args))
}

/// What a term that is not a call is.
fn not_call(t: &Term) -> &'static str {
    if matches!(t, Term::Str(_)) {
        "a quoted string"
    } else {
        "a bare word"
    }
}

fn name_arg(t: &Term) -> Result<String, ParseTermError> {
    t.as_text().map(str::to_string).ok_or_else(|| {
        form_error(
            "name",
            t,
            "a call where a name is expected",
            "a quoted string such as \"Black\"",
        )
    })
}

fn bool_arg(t: &Term) -> Result<bool, ParseTermError> {
    match t.as_word() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(form_error("flag", t, "not a boolean", "true or false")),
    }
}

fn filter_of(t: &Term) -> Result<Filter, ParseTermError> {
    let arity = |name: &str| match name {
        "group" => Some(2),
        "label" | "baseline" | "baseline_correct" | "mask" => Some(1),
        _ => None,
    };
    let (name, args) = call("filter", t, arity, FILTER_FORMS)?;
    Ok(match name {
        "group" => Filter::Group {
            attribute: name_arg(&args[0])?,
            group: name_arg(&args[1])?,
        },
        "label" => Filter::Label(bool_arg(&args[0])?),
        "baseline" => Filter::Baseline(bool_arg(&args[0])?),
        "baseline_correct" => Filter::BaselineCorrect(bool_arg(&args[0])?),
        _ => Filter::Mask(name_arg(&args[0])?),
    })
}

fn subset_of(t: &Term) -> Result<Subset, ParseTermError> {
    let (name, args) = t.as_call().ok_or_else(|| {
        let kind = not_call(t);
        form_error("subset", t, format!("{kind}, not a call"), SUBSET_FORMS)
    })?;
    match name {
        "all" if args.is_empty() => Ok(Subset::all()),
        "all" => Err(form_error(
            "subset",
            t,
            format!("`all` takes no arguments, got {}", args.len()),
            SUBSET_FORMS,
        )),
        "subset" => args
            .iter()
            .try_fold(Subset::all(), |s, f| Ok(s.and(filter_of(f)?))),
        other => Err(form_error(
            "subset",
            t,
            format!("unknown name `{other}`"),
            SUBSET_FORMS,
        )),
    }
}

fn atom_of(t: &Term) -> Result<Atom, ParseTermError> {
    let arity = |name: &str| match name {
        "predicted" => Some(3),
        "fraction" => Some(2),
        _ => None,
    };
    let (name, args) = call("atom", t, arity, ATOM_FORMS)?;
    if name == "fraction" {
        return Ok(Atom::Fraction {
            on: subset_of(&args[0])?,
            per: subset_of(&args[1])?,
        });
    }
    let prediction = args[0]
        .as_word()
        .and_then(|w| w.parse::<Prediction>().ok())
        .ok_or_else(|| {
            form_error(
                "prediction",
                &args[0],
                "not a prediction",
                "positive or negative",
            )
        })?;
    Ok(Atom::Predicted {
        prediction,
        on: subset_of(&args[1])?,
        per: subset_of(&args[2])?,
    })
}

fn rate_forms() -> String {
    let aliases: Vec<&str> = RATE_NAMES
        .iter()
        .flat_map(|(_, aliases, _)| aliases.iter().copied())
        .collect();
    format!(
        "name(subset) with name one of {} (aliases: {})",
        Rate::NAMES.join(", "),
        aliases.join(", ")
    )
}

fn rate_of(t: &Term) -> Result<Rate, ParseTermError> {
    let (name, args) = match t.as_call() {
        Some((name, args)) => (name, args),
        None => {
            let kind = not_call(t);
            return Err(form_error(
                "rate",
                t,
                format!("{kind}, not a call"),
                rate_forms(),
            ));
        }
    };
    let make = RATE_NAMES
        .iter()
        .find(|(n, aliases, _)| *n == name || aliases.contains(&name))
        .map(|(_, _, make)| make)
        .ok_or_else(|| form_error("rate", t, format!("unknown name `{name}`"), rate_forms()))?;
    match args {
        [s] => Ok(make(subset_of(s)?)),
        _ => Err(form_error(
            "rate",
            t,
            format!("`{name}` takes 1 argument (a subset), got {}", args.len()),
            format!("{name}(all()) or {name}(subset(filter, …))"),
        )),
    }
}

/// Reads the `Display` form (whitespace anywhere between tokens; a bare word for a name).
impl FromStr for Filter {
    type Err = ParseTermError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        filter_of(&read("filter", s)?)
    }
}

/// Reads the `Display` form; `subset()` is accepted for `all()`.
impl FromStr for Subset {
    type Err = ParseTermError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        subset_of(&read("subset", s)?)
    }
}

/// Reads the `Display` form (the prediction by its `Display` name).
impl FromStr for Atom {
    type Err = ParseTermError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        atom_of(&read("atom", s)?)
    }
}

/// Reads the `Display` form, or a rate's alias (its variant's snake_case name, e.g.
/// `true_positive(all())`).
impl FromStr for Rate {
    type Err = ParseTermError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        rate_of(&read("rate", s)?)
    }
}
