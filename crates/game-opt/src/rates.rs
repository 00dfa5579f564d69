//! A small typed language for rate constraints (the paper's §3, Tables 1–2).
//!
//! Everything is built from one atom, a *prediction count fraction*
//!
//! ```text
//! c±(on) / |per|        c⁺(D) = #{x ∈ D : f(x) ≥ 0},  c⁻(D) = #{x ∈ D : f(x) < 0}
//! ```
//!
//! and *data fractions* `|on| / |per|` (constants that do not depend on the model, such as a
//! group's label rate or the baseline's accuracy). Denominators are counted once on the examples
//! a [`Problem`](crate::Problem) is built from, so every constraint stays linear in the
//! indicators (Eq. 6). Named rates ([`Rate`]) expand into these atoms; [`Expression`]s are their
//! real linear combinations; a [`Constraint`] is `expression ≤ 0`; a [`Ratio`] constraint
//! `num / den ≥ κ` becomes the linear `κ·den − num ≤ 0` (Eq. 9, 11). The [`goals`] module writes
//! every goal of Tables 1–2 in one call.
//!
//! [`Filter`], [`Subset`], [`Atom`] and [`Rate`] print and parse a nested call form, names as
//! quoted strings: `true_positive_rate(subset(group("race", "Black"), label(true)))` (grammar
//! below; errors are [`fair_core::ParseTermError`]):
//!
//! ```text
//! filter  = group("attribute", "group") | label(true|false) | baseline(true|false)
//!         | baseline_correct(true|false) | mask("name")
//! subset  = all() | subset(filter, filter, …)             (the filters' conjunction, in order)
//! atom    = predicted(positive|negative, on, per)         (c±(on) / |per|, on and per subsets)
//!         | fraction(on, per)                             (|on| / |per|)
//! rate    = <name>(subset)                                (names: Rate::NAMES, or aliases)
//! ```
//!
//! The reader is [`fair_core::Term`]'s: whitespace is free between tokens, strings escape `"` and
//! `\` (and `\n`, `\r`, `\t`, `\u{…}`), a bare word may stand for a name, and `subset()` reads
//! as `all()`.

use std::ops::{Add, Mul, Neg, Sub};

/// One condition on a row; a [`Subset`] is the conjunction of its filters.
///
/// `Display`/`FromStr`: `group("race", "Black")`, `label(true)`, `baseline(false)`,
/// `baseline_correct(true)`, `mask("steering")` (names quoted by [`fair_core::quote`], so any
/// text round-trips).
///
/// # Examples
/// ```
/// use game_opt::Filter;
/// let f = Filter::Group { attribute: "race".into(), group: "Black, \"other\"".into() };
/// assert_eq!(f.to_string(), r#"group("race", "Black, \"other\"")"#);
/// assert_eq!(f.to_string().parse::<Filter>()?, f);
/// assert_eq!("label( true )".parse::<Filter>()?, Filter::Label(true));
/// assert_eq!("mask(steering)".parse::<Filter>()?, Filter::Mask("steering".into()));
/// assert!("label(yes)".parse::<Filter>().is_err());
/// # Ok::<(), fair_core::ParseTermError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Filter {
    /// Rows whose sensitive attribute `attribute` is `group`.
    Group {
        /// Attribute name (e.g. `"race"`).
        attribute: String,
        /// Group name (e.g. `"Black"`).
        group: String,
    },
    /// Rows with label `y = 1` (`true`) or `y = 0` (`false`).
    Label(bool),
    /// Rows the baseline `h` predicts positive (`true`) or negative (`false`).
    Baseline(bool),
    /// Rows where the baseline is correct (`true`, `h = y`) or wrong (`false`).
    BaselineCorrect(bool),
    /// Rows where the named mask (see `Examples::with_mask`) is `true`, e.g. steering examples.
    Mask(String),
}

/// A set of rows: all rows satisfying every filter (`D[*]` in the paper's Table 1).
///
/// # Examples
/// ```
/// use game_opt::Subset;
/// let black_positives = Subset::group("race", "Black").positives();
/// assert_eq!(black_positives.filters().len(), 2);
/// assert!(Subset::all().filters().is_empty());
///
/// // Text: `all()`, or `subset(filter, …)` with the filters in order.
/// assert_eq!(Subset::all().to_string(), "all()");
/// assert_eq!(black_positives.to_string(), r#"subset(group("race", "Black"), label(true))"#);
/// assert_eq!(black_positives.to_string().parse::<Subset>()?, black_positives);
/// assert_eq!("subset()".parse::<Subset>()?, Subset::all());
/// # Ok::<(), fair_core::ParseTermError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Subset {
    filters: Vec<Filter>,
}

impl Subset {
    /// Every row.
    pub fn all() -> Self {
        Self::default()
    }
    /// Rows of one group of a sensitive attribute.
    pub fn group(attribute: &str, group: &str) -> Self {
        Self::all().and(Filter::Group {
            attribute: attribute.into(),
            group: group.into(),
        })
    }
    /// Rows of a named mask.
    pub fn mask(name: &str) -> Self {
        Self::all().and(Filter::Mask(name.into()))
    }
    /// Adds a filter.
    pub fn and(mut self, filter: Filter) -> Self {
        self.filters.push(filter);
        self
    }
    /// Restricts to label 1.
    pub fn positives(self) -> Self {
        self.and(Filter::Label(true))
    }
    /// Restricts to label 0.
    pub fn negatives(self) -> Self {
        self.and(Filter::Label(false))
    }
    /// Restricts to rows the baseline predicts positive (`h = 1`) or negative.
    pub fn baseline(self, positive: bool) -> Self {
        self.and(Filter::Baseline(positive))
    }
    /// Restricts to rows where the baseline is correct (`h = y`) or wrong.
    pub fn baseline_correct(self, correct: bool) -> Self {
        self.and(Filter::BaselineCorrect(correct))
    }
    /// The filters, in order.
    pub fn filters(&self) -> &[Filter] {
        &self.filters
    }
    /// Whether any filter needs baseline predictions.
    pub fn needs_baseline(&self) -> bool {
        self.filters
            .iter()
            .any(|f| matches!(f, Filter::Baseline(_) | Filter::BaselineCorrect(_)))
    }
    /// Short human-readable description, e.g. `race=Black ∧ y=1`.
    pub fn describe(&self) -> String {
        if self.filters.is_empty() {
            return "all rows".into();
        }
        self.filters
            .iter()
            .map(|f| match f {
                Filter::Group { attribute, group } => format!("{attribute}={group}"),
                Filter::Label(b) => format!("y={}", u8::from(*b)),
                Filter::Baseline(b) => format!("h={}", u8::from(*b)),
                Filter::BaselineCorrect(true) => "h=y".into(),
                Filter::BaselineCorrect(false) => "h≠y".into(),
                Filter::Mask(m) => format!("mask {m}"),
            })
            .collect::<Vec<_>>()
            .join(" ∧ ")
    }
}

/// Which indicator an atom counts.
///
/// # Examples
/// ```
/// use game_opt::Prediction;
/// assert_eq!(Prediction::Positive.to_string(), "positive");
/// assert_eq!("negative".parse::<Prediction>()?, Prediction::Negative);
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prediction {
    /// `I[f(x) ≥ 0]` (the paper counts a zero score as positive).
    Positive,
    /// `I[f(x) < 0]`.
    Negative,
}

/// One term of an [`Expression`].
///
/// `Display`/`FromStr`: `predicted(positive|negative, on, per)` and `fraction(on, per)`, the
/// subsets positional, `on` first.
///
/// # Examples
/// ```
/// use game_opt::{Atom, Prediction, Subset};
/// let a = Atom::Predicted {
///     prediction: Prediction::Positive,
///     on: Subset::all().positives(),
///     per: Subset::all(),
/// };
/// assert_eq!(a.to_string(), "predicted(positive, subset(label(true)), all())");
/// assert_eq!(a.to_string().parse::<Atom>()?, a);
/// let f: Atom = "fraction(subset(baseline_correct(true)), all())".parse()?;
/// assert_eq!(f, Atom::Fraction { on: Subset::all().baseline_correct(true), per: Subset::all() });
/// # Ok::<(), fair_core::ParseTermError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Atom {
    /// `c±(on) / |per|`: a count of predictions, normalised by a subset's size.
    Predicted {
        /// Which indicator.
        prediction: Prediction,
        /// Rows counted.
        on: Subset,
        /// Rows whose size is the denominator.
        per: Subset,
    },
    /// `|on| / |per|`: a data constant (label rate, baseline rate, baseline accuracy).
    Fraction {
        /// Rows counted.
        on: Subset,
        /// Rows whose size is the denominator.
        per: Subset,
    },
}

/// The named rates of the paper's Table 1 (and TFCO's rate helpers), on a subset `S`.
///
/// Labels are `y ∈ {0, 1}` (1 = positive); `h` is the baseline's prediction.
///
/// ```text
/// PositivePrediction  p⁺(S)                     Churn          (c⁺(S[h=0]) + c⁻(S[h=1])) / |S|
/// NegativePrediction  p⁻(S)                     Win            (c⁺(S[h=0,y=1]) + c⁻(S[h=1,y=0])) / |S|
/// TruePositive        p⁺(S[y=1])  (recall)      Loss           (c⁺(S[h=0,y=0]) + c⁻(S[h=1,y=1])) / |S|
/// FalsePositive       p⁺(S[y=0])                LossOnlyChurn  (c⁺(S[h=0,y=0]) + c⁻(S[h=1,y=1])) / |S[h=y]|
/// TrueNegative        p⁻(S[y=0])                LabelPositive      |S[y=1]| / |S|   (constant)
/// FalseNegative       p⁻(S[y=1])                BaselinePositive   |S[h=1]| / |S|   (constant)
/// Error   (c⁺(S[y=0]) + c⁻(S[y=1])) / |S|       BaselineAccuracy   |S[h=y]| / |S|   (constant)
/// Accuracy (c⁺(S[y=1]) + c⁻(S[y=0])) / |S|
/// ```
///
/// # Examples
/// ```
/// use game_opt::{Rate, Subset};
/// let recall = Rate::TruePositive(Subset::all()).expr();
/// assert_eq!(recall.terms().len(), 1);
/// assert_eq!(Rate::Error(Subset::all()).expr().terms().len(), 2);
///
/// // Text: `name(subset)`, the names of `Rate::NAMES` (fairkit.metrics' spellings where it has
/// // them); the variant's snake_case name is an alias.
/// let black = Rate::TruePositive(Subset::group("race", "Black"));
/// assert_eq!(black.to_string(), r#"true_positive_rate(subset(group("race", "Black")))"#);
/// assert_eq!(black.to_string().parse::<Rate>()?, black);
/// assert_eq!("true_positive(all())".parse::<Rate>()?, Rate::TruePositive(Subset::all()));
/// assert_eq!(Rate::PositivePrediction(Subset::all()).to_string(), "selection_rate(all())");
/// # Ok::<(), fair_core::ParseTermError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Rate {
    /// Coverage `p⁺(S)`.
    PositivePrediction(Subset),
    /// `p⁻(S)`.
    NegativePrediction(Subset),
    /// True positive rate (recall) `p⁺(S[y=1])`.
    TruePositive(Subset),
    /// False positive rate `p⁺(S[y=0])`.
    FalsePositive(Subset),
    /// True negative rate `p⁻(S[y=0])`.
    TrueNegative(Subset),
    /// False negative rate `p⁻(S[y=1])`.
    FalseNegative(Subset),
    /// 0-1 error on `S`.
    Error(Subset),
    /// Accuracy on `S`.
    Accuracy(Subset),
    /// Fraction of `S` whose decision differs from the baseline's.
    Churn(Subset),
    /// Fraction of `S` the model gets right and the baseline wrong.
    Win(Subset),
    /// Fraction of `S` the baseline gets right and the model wrong.
    Loss(Subset),
    /// Losses divided by the number of rows the baseline gets right (Table 1).
    LossOnlyChurn(Subset),
    /// Constant `|S[y=1]| / |S|`.
    LabelPositive(Subset),
    /// Constant `|S[h=1]| / |S|`.
    BaselinePositive(Subset),
    /// Constant `|S[h=y]| / |S|`.
    BaselineAccuracy(Subset),
}

fn pred(prediction: Prediction, on: Subset, per: &Subset) -> Expression {
    Expression::atom(
        1.0,
        Atom::Predicted {
            prediction,
            on,
            per: per.clone(),
        },
    )
}

impl Rate {
    /// The rate as a linear [`Expression`] of atoms.
    pub fn expr(self) -> Expression {
        use Prediction::{Negative as N, Positive as P};
        match self {
            Rate::PositivePrediction(s) => pred(P, s.clone(), &s),
            Rate::NegativePrediction(s) => pred(N, s.clone(), &s),
            Rate::TruePositive(s) => {
                let s = s.positives();
                pred(P, s.clone(), &s)
            }
            Rate::FalsePositive(s) => {
                let s = s.negatives();
                pred(P, s.clone(), &s)
            }
            Rate::TrueNegative(s) => {
                let s = s.negatives();
                pred(N, s.clone(), &s)
            }
            Rate::FalseNegative(s) => {
                let s = s.positives();
                pred(N, s.clone(), &s)
            }
            Rate::Error(s) => {
                pred(P, s.clone().negatives(), &s) + pred(N, s.clone().positives(), &s)
            }
            Rate::Accuracy(s) => {
                pred(P, s.clone().positives(), &s) + pred(N, s.clone().negatives(), &s)
            }
            Rate::Churn(s) => {
                pred(P, s.clone().baseline(false), &s) + pred(N, s.clone().baseline(true), &s)
            }
            Rate::Win(s) => {
                pred(P, s.clone().baseline(false).positives(), &s)
                    + pred(N, s.clone().baseline(true).negatives(), &s)
            }
            Rate::Loss(s) => {
                pred(P, s.clone().baseline(false).negatives(), &s)
                    + pred(N, s.clone().baseline(true).positives(), &s)
            }
            Rate::LossOnlyChurn(s) => {
                let per = s.clone().baseline_correct(true);
                pred(P, s.clone().baseline(false).negatives(), &per)
                    + pred(N, s.clone().baseline(true).positives(), &per)
            }
            Rate::LabelPositive(s) => Expression::atom(
                1.0,
                Atom::Fraction {
                    on: s.clone().positives(),
                    per: s,
                },
            ),
            Rate::BaselinePositive(s) => Expression::atom(
                1.0,
                Atom::Fraction {
                    on: s.clone().baseline(true),
                    per: s,
                },
            ),
            Rate::BaselineAccuracy(s) => Expression::atom(
                1.0,
                Atom::Fraction {
                    on: s.clone().baseline_correct(true),
                    per: s,
                },
            ),
        }
    }
}

impl From<Rate> for Expression {
    fn from(r: Rate) -> Self {
        r.expr()
    }
}

/// A real linear combination of atoms plus a constant: `Σ cₖ·atomₖ + c₀`.
///
/// Built with `+`, `-`, unary `-` and multiplication by `f64` from [`Rate`]s and numbers.
///
/// # Examples
/// ```
/// use game_opt::{Expression, Rate, Subset};
/// // 0.95·TPR(all) − TPR(Black): the Adult equal-opportunity constraint's left-hand side.
/// let e = 0.95 * Rate::TruePositive(Subset::all()).expr()
///     - Rate::TruePositive(Subset::group("race", "Black")).expr();
/// assert_eq!(e.terms().len(), 2);
/// let shifted = e + 0.05;
/// assert!((shifted.constant() - 0.05).abs() < 1e-15);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Expression {
    terms: Vec<(f64, Atom)>,
    constant: f64,
}

impl Expression {
    /// The constant expression `c`.
    pub fn constant_value(c: f64) -> Self {
        Self {
            terms: Vec::new(),
            constant: c,
        }
    }
    /// `coefficient · atom`.
    pub fn atom(coefficient: f64, atom: Atom) -> Self {
        Self {
            terms: vec![(coefficient, atom)],
            constant: 0.0,
        }
    }
    /// `c±(on) / |per|`, the general building block (e.g. for precision's numerator
    /// `c⁺(S[y=1]) / |S|`).
    pub fn count_fraction(prediction: Prediction, on: Subset, per: Subset) -> Self {
        Self::atom(
            1.0,
            Atom::Predicted {
                prediction,
                on,
                per,
            },
        )
    }
    /// The terms `(coefficient, atom)`.
    pub fn terms(&self) -> &[(f64, Atom)] {
        &self.terms
    }
    /// The constant term.
    pub fn constant(&self) -> f64 {
        self.constant
    }
    /// Whether any atom needs baseline predictions.
    pub fn needs_baseline(&self) -> bool {
        self.terms.iter().any(|(_, a)| match a {
            Atom::Predicted { on, per, .. } | Atom::Fraction { on, per } => {
                on.needs_baseline() || per.needs_baseline()
            }
        })
    }
    /// `self ≤ rhs`.
    pub fn le(self, rhs: impl Into<Expression>) -> Constraint {
        Constraint::new(self - rhs.into())
    }
    /// `self ≥ rhs`.
    pub fn ge(self, rhs: impl Into<Expression>) -> Constraint {
        Constraint::new(rhs.into() - self)
    }
    /// `self ≤ rhs` loosened by `slack`: `self ≤ rhs + s` (additive) or `self ≤ k·rhs`
    /// (multiplicative).
    pub fn le_with(self, rhs: impl Into<Expression>, slack: Slack) -> Constraint {
        self.le(slack.loosen_upper(rhs.into()))
    }
    /// `self ≥ rhs` loosened by `slack`: `self ≥ rhs − s` (additive) or `self ≥ k·rhs`
    /// (multiplicative, e.g. Adult's `TPR(group) ≥ 0.95·TPR(all)`).
    pub fn ge_with(self, rhs: impl Into<Expression>, slack: Slack) -> Constraint {
        self.ge(slack.loosen_lower(rhs.into()))
    }
}

impl From<f64> for Expression {
    fn from(c: f64) -> Self {
        Self::constant_value(c)
    }
}

impl Add for Expression {
    type Output = Expression;
    fn add(mut self, rhs: Expression) -> Expression {
        self.terms.extend(rhs.terms);
        self.constant += rhs.constant;
        self
    }
}
impl Add<f64> for Expression {
    type Output = Expression;
    fn add(mut self, rhs: f64) -> Expression {
        self.constant += rhs;
        self
    }
}
impl Sub for Expression {
    type Output = Expression;
    fn sub(self, rhs: Expression) -> Expression {
        self + (-rhs)
    }
}
impl Sub<f64> for Expression {
    type Output = Expression;
    fn sub(self, rhs: f64) -> Expression {
        self + (-rhs)
    }
}
impl Neg for Expression {
    type Output = Expression;
    fn neg(self) -> Expression {
        -1.0 * self
    }
}
impl Mul<f64> for Expression {
    type Output = Expression;
    fn mul(mut self, k: f64) -> Expression {
        for t in &mut self.terms {
            t.0 *= k;
        }
        self.constant *= k;
        self
    }
}
impl Mul<Expression> for f64 {
    type Output = Expression;
    fn mul(self, e: Expression) -> Expression {
        e * self
    }
}

/// How much a bound is loosened (§3.7: "always allow slack").
///
/// # Examples
/// ```
/// use game_opt::Slack;
/// // `Display`: `none`, `additive(s)` or `multiplicative(k)`; the names are the binding's slack kinds.
/// assert_eq!(Slack::Multiplicative(0.95).to_string(), "multiplicative(0.95)");
/// assert_eq!("additive( 0.05 )".parse::<Slack>()?, Slack::Additive(0.05));
/// assert_eq!("none".parse::<Slack>()?, Slack::None);
/// assert!("additive".parse::<Slack>().is_err()); // the amount is part of the value
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Slack {
    /// No slack.
    None,
    /// `lhs ≤ rhs + s` / `lhs ≥ rhs − s`.
    Additive(f64),
    /// `lhs ≤ k·rhs` / `lhs ≥ k·rhs` (e.g. `k = 0.95` for a lower bound). §3.7 warns this can be
    /// gamed by moving `rhs`.
    Multiplicative(f64),
}

impl Slack {
    fn loosen_upper(self, rhs: Expression) -> Expression {
        match self {
            Slack::None => rhs,
            Slack::Additive(s) => rhs + s,
            Slack::Multiplicative(k) => k * rhs,
        }
    }
    fn loosen_lower(self, rhs: Expression) -> Expression {
        match self {
            Slack::None => rhs,
            Slack::Additive(s) => rhs - s,
            Slack::Multiplicative(k) => k * rhs,
        }
    }
}

/// A rate constraint `g(θ) ≤ 0`, where `g` is an [`Expression`] (the paper's Eq. 6 form).
///
/// Its *violation* is `g`: positive means violated, negative means satisfied with slack.
///
/// # Examples
/// ```
/// use game_opt::{Rate, Subset};
/// // 80% coverage (Eq. 1): p⁺(D) ≥ 0.8.
/// let c = Rate::PositivePrediction(Subset::all()).expr().ge(0.8).named("coverage");
/// assert_eq!(c.name(), "coverage");
/// assert!((c.expression().constant() - 0.8).abs() < 1e-15);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Constraint {
    expr: Expression,
    name: String,
}

impl Constraint {
    /// `expr ≤ 0`.
    pub fn new(expr: Expression) -> Self {
        Self {
            expr,
            name: String::new(),
        }
    }
    /// Names the constraint (used in reports and errors).
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }
    /// The name (empty unless set).
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The left-hand side `g` of `g ≤ 0`.
    pub fn expression(&self) -> &Expression {
        &self.expr
    }
}

/// A ratio of two expressions, for ratio metrics such as precision (Eq. 9) and win–loss ratio
/// (Eq. 11). Bounds on it are linearised by multiplying through the (non-negative) denominator,
/// as the paper does: `num / den ≥ κ  ⇔  κ·den − num ≤ 0`.
///
/// # Examples
/// ```
/// use game_opt::{Ratio, Subset};
/// let c = Ratio::precision(Subset::all()).at_least(0.7);
/// assert_eq!(c.expression().terms().len(), 2);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Ratio {
    /// Numerator.
    pub num: Expression,
    /// Denominator (must be non-negative for the linearisation to be exact).
    pub den: Expression,
}

impl Ratio {
    /// `num / den`.
    pub fn new(num: Expression, den: Expression) -> Self {
        Self { num, den }
    }
    /// Precision on `S`: `c⁺(S[y=1]) / c⁺(S)`.
    pub fn precision(s: Subset) -> Self {
        Self::new(
            Expression::count_fraction(Prediction::Positive, s.clone().positives(), s.clone()),
            Expression::count_fraction(Prediction::Positive, s.clone(), s),
        )
    }
    /// Win–loss ratio against the baseline on `S`: wins / losses.
    pub fn win_loss(s: Subset) -> Self {
        Self::new(Rate::Win(s.clone()).expr(), Rate::Loss(s).expr())
    }
    /// `num / den ≥ κ`, i.e. `κ·den − num ≤ 0`.
    pub fn at_least(self, kappa: f64) -> Constraint {
        Constraint::new(kappa * self.den - self.num)
    }
    /// `num / den ≤ κ`, i.e. `num − κ·den ≤ 0`.
    pub fn at_most(self, kappa: f64) -> Constraint {
        Constraint::new(self.num - kappa * self.den)
    }
}

/// Which side(s) of a comparison a group goal bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Group rate ≥ reference (loosened by the slack).
    AtLeast,
    /// Group rate ≤ reference (loosened by the slack).
    AtMost,
    /// Both: an equality with wiggle room (two constraints per group).
    Both,
}

/// The goals of the paper's Tables 1–2 and §3, each in one call.
///
/// Group goals take the attribute, the group names, a [`Direction`] and a [`Slack`], and return
/// one constraint per group and side, named `"<goal> <group> ≥|≤"`.
pub mod goals {
    use super::{Constraint, Direction, Expression, Rate, Ratio, Slack, Subset};

    fn group_goal(
        goal: &str,
        attribute: &str,
        groups: &[&str],
        direction: Direction,
        slack: Slack,
        rate: impl Fn(Subset) -> Expression,
        reference: impl Fn(Subset) -> Expression,
    ) -> Vec<Constraint> {
        let mut out = Vec::new();
        for g in groups {
            let s = Subset::group(attribute, g);
            if matches!(direction, Direction::AtLeast | Direction::Both) {
                out.push(
                    rate(s.clone())
                        .ge_with(reference(s.clone()), slack)
                        .named(format!("{goal} {g} ≥")),
                );
            }
            if matches!(direction, Direction::AtMost | Direction::Both) {
                out.push(
                    rate(s.clone())
                        .le_with(reference(s), slack)
                        .named(format!("{goal} {g} ≤")),
                );
            }
        }
        out
    }

    /// Coverage `p⁺(S) ≥ κ` (Eq. 1 with κ = 0.8).
    pub fn coverage_at_least(s: Subset, kappa: f64) -> Constraint {
        Rate::PositivePrediction(s)
            .expr()
            .ge(kappa)
            .named(format!("coverage ≥ {kappa}"))
    }
    /// Coverage `p⁺(S) ≤ κ`.
    pub fn coverage_at_most(s: Subset, kappa: f64) -> Constraint {
        Rate::PositivePrediction(s)
            .expr()
            .le(kappa)
            .named(format!("coverage ≤ {kappa}"))
    }
    /// Recall `p⁺(S[y=1]) ≥ κ` (§3.2).
    pub fn recall_at_least(s: Subset, kappa: f64) -> Constraint {
        Rate::TruePositive(s)
            .expr()
            .ge(kappa)
            .named(format!("recall ≥ {kappa}"))
    }
    /// Precision `≥ κ`, linearised (Eq. 9).
    pub fn precision_at_least(s: Subset, kappa: f64) -> Constraint {
        Ratio::precision(s)
            .at_least(kappa)
            .named(format!("precision ≥ {kappa}"))
    }
    /// Accuracy on `S` at least κ: minimum accuracy, steering-example accuracy (§3.5), egregious
    /// examples.
    pub fn accuracy_at_least(s: Subset, kappa: f64) -> Constraint {
        let name = format!("accuracy({}) ≥ {kappa}", s.describe());
        Rate::Accuracy(s).expr().ge(kappa).named(name)
    }
    /// Churn against the baseline `≤ κ` (Eq. 12).
    pub fn churn_at_most(s: Subset, kappa: f64) -> Constraint {
        Rate::Churn(s)
            .expr()
            .le(kappa)
            .named(format!("churn ≤ {kappa}"))
    }
    /// Loss-only churn `≤ κ` (Table 1's normalisation by `|S[h=y]|`).
    pub fn loss_only_churn_at_most(s: Subset, kappa: f64) -> Constraint {
        Rate::LossOnlyChurn(s)
            .expr()
            .le(kappa)
            .named(format!("loss-only churn ≤ {kappa}"))
    }
    /// Win–loss ratio `≥ κ` (Eq. 11).
    pub fn win_loss_ratio_at_least(s: Subset, kappa: f64) -> Constraint {
        Ratio::win_loss(s)
            .at_least(kappa)
            .named(format!("win/loss ≥ {kappa}"))
    }
    /// Statistical (demographic) parity: `p⁺(D_k)` vs `p⁺(D)`.
    pub fn statistical_parity(
        attribute: &str,
        groups: &[&str],
        direction: Direction,
        slack: Slack,
    ) -> Vec<Constraint> {
        group_goal(
            "parity",
            attribute,
            groups,
            direction,
            slack,
            |s| Rate::PositivePrediction(s).expr(),
            |_| Rate::PositivePrediction(Subset::all()).expr(),
        )
    }
    /// Equal opportunity: `p⁺(D_k[y=1])` vs `p⁺(D[y=1])`.
    pub fn equal_opportunity(
        attribute: &str,
        groups: &[&str],
        direction: Direction,
        slack: Slack,
    ) -> Vec<Constraint> {
        group_goal(
            "TPR",
            attribute,
            groups,
            direction,
            slack,
            |s| Rate::TruePositive(s).expr(),
            |_| Rate::TruePositive(Subset::all()).expr(),
        )
    }
    /// False-positive-rate parity: `p⁺(D_k[y=0])` vs `p⁺(D[y=0])` (fairlearn's
    /// `FalsePositiveRateParity`; the FPR half of [`equal_odds`]).
    ///
    /// ```
    /// use game_opt::{Direction, Slack, goals};
    /// let c = goals::false_positive_rate_parity("g", &["a", "b"], Direction::Both,
    ///                                           Slack::Additive(0.01));
    /// assert_eq!(c.len(), 4);
    /// assert_eq!(c[0].name(), "FPR a ≥");
    /// ```
    pub fn false_positive_rate_parity(
        attribute: &str,
        groups: &[&str],
        direction: Direction,
        slack: Slack,
    ) -> Vec<Constraint> {
        group_goal(
            "FPR",
            attribute,
            groups,
            direction,
            slack,
            |s| Rate::FalsePositive(s).expr(),
            |_| Rate::FalsePositive(Subset::all()).expr(),
        )
    }
    /// Equal odds: equal opportunity plus the same on FPR.
    pub fn equal_odds(
        attribute: &str,
        groups: &[&str],
        direction: Direction,
        slack: Slack,
    ) -> Vec<Constraint> {
        let mut out = equal_opportunity(attribute, groups, direction, slack);
        out.extend(false_positive_rate_parity(
            attribute, groups, direction, slack,
        ));
        out
    }
    /// Equal accuracy: `acc(D_k)` vs `acc(D)`.
    pub fn equal_accuracy(
        attribute: &str,
        groups: &[&str],
        direction: Direction,
        slack: Slack,
    ) -> Vec<Constraint> {
        group_goal(
            "accuracy",
            attribute,
            groups,
            direction,
            slack,
            |s| Rate::Accuracy(s).expr(),
            |_| Rate::Accuracy(Subset::all()).expr(),
        )
    }
    /// The group goal of a constraint of the shared vocabulary (fair-core's
    /// [`Constraint`](fair_core::Constraint) names): [`statistical_parity`] for
    /// `demographic_parity`, [`equal_odds`] for `equalized_odds`, [`equal_opportunity`],
    /// [`false_positive_rate_parity`], [`equal_accuracy`] for `error_rate_parity`.
    ///
    /// ```
    /// use game_opt::{Direction, GroupConstraint, Slack, goals};
    /// let c: GroupConstraint = "equalized_odds".parse()?;
    /// let rows = goals::parity(c, "g", &["a", "b"], Direction::Both, Slack::Additive(0.01));
    /// assert_eq!(rows.len(), 8);
    /// # Ok::<(), fair_core::ConstraintError>(())
    /// ```
    pub fn parity(
        constraint: super::GroupConstraint,
        attribute: &str,
        groups: &[&str],
        direction: Direction,
        slack: Slack,
    ) -> Vec<Constraint> {
        use super::GroupConstraint as G;
        match constraint {
            G::DemographicParity => statistical_parity(attribute, groups, direction, slack),
            G::EqualizedOdds => equal_odds(attribute, groups, direction, slack),
            G::EqualOpportunity => equal_opportunity(attribute, groups, direction, slack),
            G::FalsePositiveRateParity => {
                false_positive_rate_parity(attribute, groups, direction, slack)
            }
            G::ErrorRateParity => equal_accuracy(attribute, groups, direction, slack),
        }
    }
    /// Minimum coverage `p⁺(D_k) ≥ κ` for every group.
    pub fn minimum_coverage(attribute: &str, groups: &[&str], kappa: f64) -> Vec<Constraint> {
        group_goal(
            "coverage",
            attribute,
            groups,
            Direction::AtLeast,
            Slack::None,
            |s| Rate::PositivePrediction(s).expr(),
            |_| Expression::from(kappa),
        )
    }
    /// Minimum recall `p⁺(D_k[y=1]) ≥ κ` for every group (e.g. per region).
    pub fn minimum_recall(attribute: &str, groups: &[&str], kappa: f64) -> Vec<Constraint> {
        group_goal(
            "recall",
            attribute,
            groups,
            Direction::AtLeast,
            Slack::None,
            |s| Rate::TruePositive(s).expr(),
            |_| Expression::from(kappa),
        )
    }
    /// Minimum accuracy `acc(D_k) ≥ κ` for every group.
    pub fn minimum_accuracy(attribute: &str, groups: &[&str], kappa: f64) -> Vec<Constraint> {
        group_goal(
            "accuracy",
            attribute,
            groups,
            Direction::AtLeast,
            Slack::None,
            |s| Rate::Accuracy(s).expr(),
            |_| Expression::from(kappa),
        )
    }
    /// No lost benefits: `p⁺(D_k) ≥ |D_k[h=1]| / |D_k|`.
    pub fn no_lost_benefits(attribute: &str, groups: &[&str], slack: Slack) -> Vec<Constraint> {
        group_goal(
            "no lost benefits",
            attribute,
            groups,
            Direction::AtLeast,
            slack,
            |s| Rate::PositivePrediction(s).expr(),
            |s| Rate::BaselinePositive(s).expr(),
        )
    }
    /// Accurate coverage: `p⁺(D_k)` vs `|D_k[y=1]| / |D_k|`.
    pub fn accurate_coverage(
        attribute: &str,
        groups: &[&str],
        direction: Direction,
        slack: Slack,
    ) -> Vec<Constraint> {
        group_goal(
            "accurate coverage",
            attribute,
            groups,
            direction,
            slack,
            |s| Rate::PositivePrediction(s).expr(),
            |s| Rate::LabelPositive(s).expr(),
        )
    }
    /// Not worse off: `acc(D_k) ≥ |D_k[h=y]| / |D_k|` (the baseline's accuracy on the group).
    pub fn not_worse_off(attribute: &str, groups: &[&str], slack: Slack) -> Vec<Constraint> {
        group_goal(
            "not worse off",
            attribute,
            groups,
            Direction::AtLeast,
            slack,
            |s| Rate::Accuracy(s).expr(),
            |s| Rate::BaselineAccuracy(s).expr(),
        )
    }
}

/// The constraints of the shared vocabulary that [`goals::parity`] builds as group goals (each
/// group's rate against the same rate on all rows). `Display`/`FromStr`/`NAMES` come from
/// fair-core's one table: fairlearn's names, the paper's (`statistical_parity`, `equal_odds`,
/// `equal_accuracy`) as aliases.
///
/// ```
/// use game_opt::GroupConstraint;
/// assert_eq!("equal_accuracy".parse::<GroupConstraint>()?, GroupConstraint::ErrorRateParity);
/// assert_eq!(GroupConstraint::ErrorRateParity.to_string(), "error_rate_parity");
/// assert!("percentile_parity".parse::<GroupConstraint>().is_err());
/// # Ok::<(), fair_core::ConstraintError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GroupConstraint {
    /// Positive-prediction rate ([`goals::statistical_parity`]).
    DemographicParity,
    /// True- and false-positive rates ([`goals::equal_odds`]).
    EqualizedOdds,
    /// True-positive rate ([`goals::equal_opportunity`]).
    EqualOpportunity,
    /// False-positive rate ([`goals::false_positive_rate_parity`]).
    FalsePositiveRateParity,
    /// Accuracy ([`goals::equal_accuracy`]).
    ErrorRateParity,
}

fair_core::constraint_subset!(GroupConstraint, "RateConstrainedClassifier", {
    DemographicParity => DemographicParity,
    EqualizedOdds => EqualizedOdds,
    EqualOpportunity => EqualOpportunity,
    FalsePositiveRateParity => FalsePositiveRateParity,
    ErrorRateParity => ErrorRateParity,
});

// `Display`/`FromStr` with the front ends' spellings (Python's keyword values).
fair_core::string_enum!(Direction, "direction", {
    AtLeast => "at_least",
    AtMost => "at_most",
    Both => "both",
});
fair_core::string_enum!(Prediction, "prediction", {
    Positive => "positive",
    Negative => "negative",
});

/// `Display`: `none`, `additive(s)` or `multiplicative(k)`, the number in Rust's shortest
/// round-trip form, so `FromStr` gives the same slack back. The names are the slack kinds the
/// Python binding takes (`"none"`, `"additive"`, `"multiplicative"`, with the amount passed
/// separately there).
impl std::fmt::Display for Slack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Slack::None => f.write_str("none"),
            Slack::Additive(s) => write!(f, "additive({s})"),
            Slack::Multiplicative(k) => write!(f, "multiplicative({k})"),
        }
    }
}

impl std::str::FromStr for Slack {
    type Err = fair_core::ParseEnumError;

    /// Parses the `Display` form (spaces allowed around the name and the number).
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        let error = || {
            fair_core::ParseEnumError::new(
                "slack",
                s,
                &["none", "additive(s)", "multiplicative(k)"],
            )
        };
        if s.trim() == "none" {
            return Ok(Slack::None);
        }
        let (name, args) = fair_core::split_call(s).ok_or_else(error)?;
        let value = match args.as_slice() {
            &[v] => v.parse::<f64>().map_err(|_| error())?,
            _ => return Err(error()),
        };
        match name {
            "additive" => Ok(Slack::Additive(value)),
            "multiplicative" => Ok(Slack::Multiplicative(value)),
            _ => Err(error()),
        }
    }
}
