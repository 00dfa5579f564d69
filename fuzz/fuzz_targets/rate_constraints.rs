//! game-opt's rate-constraint language: expressions built from every rate, subsets with every
//! filter (group, label, baseline, baseline-correct, mask; unknown names too), ratios, slacks
//! and the goal builders, compiled against small data (`Problem::new` and
//! `Problem::for_evaluation`), then evaluated and proxied. Invariants: no panic; a compiled
//! problem evaluates to a finite error rate in [0, 1] and finite constraint values, and the
//! hinge proxy is finite and never below the exact value.
#![no_main]

use arbitrary::Arbitrary;
use fair_data::Groups;
use game_opt::{
    Constraint, Direction, Examples, Expression, Problem, Rate, Ratio, Slack, Subset, goals,
};
use libfuzzer_sys::fuzz_target;
use nalgebra::DMatrix;

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Num {
    Small(i8),
    Big(u8),
    Special(u8),
    Raw(f64),
}

impl Num {
    fn value(self) -> f64 {
        match self {
            Num::Small(v) => f64::from(v) / 16.0,
            Num::Big(e) => {
                10f64.powi(i32::from(e % 40) + 270) * if e & 1 == 0 { 1.0 } else { -1.0 }
            }
            Num::Special(k) => [
                0.0,
                -0.0,
                1.0,
                f64::MAX,
                f64::NAN,
                f64::INFINITY,
                -f64::MAX,
                0.5,
            ][k as usize % 8],
            Num::Raw(v) => v,
        }
    }
}

#[derive(Arbitrary, Debug)]
enum FilterSpec {
    Group(u8),
    Label(bool),
    Baseline(bool),
    BaselineCorrect(bool),
    Mask(bool),
}

#[derive(Arbitrary, Debug)]
struct Term {
    coef: Num,
    rate: u8,
    filters: Vec<FilterSpec>,
}

#[derive(Arbitrary, Debug)]
enum Spec {
    Linear {
        terms: Vec<Term>,
        constant: Num,
        upper: bool,
        slack: Option<(bool, Num)>,
    },
    Ratio {
        num: Term,
        den: Term,
        kappa: Num,
        at_least: bool,
    },
    Goal {
        kind: u8,
        kappa: Num,
        direction: u8,
        slack: Num,
    },
}

#[derive(Arbitrary, Debug)]
struct Input {
    rows: Vec<(i8, bool, u8, bool, bool)>,
    specs: Vec<Spec>,
    consistent: bool,
    margin: Num,
}

const GROUPS: [&str; 3] = ["a", "b", "c"];

fn subset(filters: &[FilterSpec]) -> Subset {
    let mut s = Subset::all();
    for f in filters.iter().take(3) {
        s = match f {
            FilterSpec::Group(k) => {
                let g = GROUPS.get(*k as usize % 4).copied().unwrap_or("nobody");
                let attr = if k & 0x80 != 0 { "missing" } else { "g" };
                let one = Subset::group(attr, g);
                one.filters().iter().fold(s, |acc, f| acc.and(f.clone()))
            }
            FilterSpec::Label(true) => s.positives(),
            FilterSpec::Label(false) => s.negatives(),
            FilterSpec::Baseline(b) => s.baseline(*b),
            FilterSpec::BaselineCorrect(b) => s.baseline_correct(*b),
            FilterSpec::Mask(known) => {
                let m = Subset::mask(if *known { "m" } else { "unknown" });
                m.filters().iter().fold(s, |acc, f| acc.and(f.clone()))
            }
        };
    }
    s
}

fn rate(kind: u8, s: Subset) -> Expression {
    match kind % 15 {
        0 => Rate::PositivePrediction(s),
        1 => Rate::NegativePrediction(s),
        2 => Rate::TruePositive(s),
        3 => Rate::FalsePositive(s),
        4 => Rate::TrueNegative(s),
        5 => Rate::FalseNegative(s),
        6 => Rate::Error(s),
        7 => Rate::Accuracy(s),
        8 => Rate::Churn(s),
        9 => Rate::Win(s),
        10 => Rate::Loss(s),
        11 => Rate::LossOnlyChurn(s),
        12 => Rate::LabelPositive(s),
        13 => Rate::BaselinePositive(s),
        _ => Rate::BaselineAccuracy(s),
    }
    .expr()
}

fn term(t: &Term) -> Expression {
    t.coef.value() * rate(t.rate, subset(&t.filters))
}

fn constraints(spec: &Spec) -> Vec<Constraint> {
    match spec {
        Spec::Linear {
            terms,
            constant,
            upper,
            slack,
        } => {
            let lhs = terms
                .iter()
                .take(4)
                .fold(Expression::constant_value(0.0), |e, t| e + term(t));
            let rhs = Expression::constant_value(constant.value());
            let slack = match slack {
                None => Slack::None,
                Some((true, v)) => Slack::Additive(v.value()),
                Some((false, v)) => Slack::Multiplicative(v.value()),
            };
            vec![if *upper {
                lhs.le_with(rhs, slack)
            } else {
                lhs.ge_with(rhs, slack)
            }]
        }
        Spec::Ratio {
            num,
            den,
            kappa,
            at_least,
        } => {
            let r = Ratio::new(term(num), term(den));
            vec![if *at_least {
                r.at_least(kappa.value())
            } else {
                r.at_most(kappa.value())
            }]
        }
        Spec::Goal {
            kind,
            kappa,
            direction,
            slack,
        } => {
            let k = kappa.value();
            let d =
                [Direction::AtLeast, Direction::AtMost, Direction::Both][*direction as usize % 3];
            let sl = Slack::Additive(slack.value());
            let gs = &GROUPS[..2];
            match kind % 10 {
                0 => goals::statistical_parity("g", gs, d, sl),
                1 => goals::equal_opportunity("g", gs, d, sl),
                2 => goals::equal_odds("g", gs, d, sl),
                3 => goals::equal_accuracy("g", gs, d, sl),
                4 => goals::minimum_coverage("g", gs, k),
                5 => goals::minimum_recall("g", gs, k),
                6 => goals::no_lost_benefits("g", gs, sl),
                7 => goals::not_worse_off("g", gs, sl),
                8 => vec![
                    goals::precision_at_least(Subset::all(), k),
                    goals::win_loss_ratio_at_least(Subset::all(), k),
                ],
                _ => vec![
                    goals::churn_at_most(Subset::all(), k),
                    goals::loss_only_churn_at_most(Subset::all(), k),
                ],
            }
        }
    }
}

fuzz_target!(|input: Input| {
    let rows: Vec<_> = input.rows.iter().take(24).collect();
    let n = rows.len();
    if n == 0 {
        return;
    }
    let scores: Vec<f64> = rows.iter().map(|r| f64::from(r.0) / 8.0).collect();
    let x = DMatrix::from_column_slice(n, 1, &scores);
    let y: Vec<usize> = rows.iter().map(|r| usize::from(r.1)).collect();
    let g: Vec<&str> = rows.iter().map(|r| GROUPS[r.2 as usize % 3]).collect();
    let baseline: Vec<usize> = rows.iter().map(|r| usize::from(r.3)).collect();
    let mask: Vec<bool> = rows.iter().map(|r| r.4).collect();
    let Ok(ex) = Examples::new(&x, &y) else {
        return;
    };
    let Ok(ex) = ex.with_attribute("g", Groups::from_labels(&g)) else {
        return;
    };
    let Ok(ex) = ex.with_mask("m", mask) else {
        return;
    };
    let Ok(ex) = ex.with_baseline(&baseline) else {
        return;
    };
    let cs: Vec<Constraint> = input.specs.iter().take(4).flat_map(constraints).collect();
    let problem = if input.consistent {
        Problem::new(ex, cs)
    } else {
        Problem::for_evaluation(ex, cs)
    };
    let Ok(p) = problem else { return };
    let Ok(e) = p.evaluate_scores(&scores) else {
        return;
    };
    assert!(e.error.is_finite() && (0.0..=1.0).contains(&e.error));
    assert!(
        e.constraints.iter().all(|v| v.is_finite()),
        "constraints {:?}",
        e.constraints
    );
    if let Ok(proxy) = p.proxy_constraints(&scores, input.margin.value()) {
        for (q, v) in proxy.iter().zip(&e.constraints) {
            assert!(q.is_finite(), "proxy {q}");
            let tol = 1e-9 * (1.0 + v.abs());
            assert!(*q >= v - tol, "proxy {q} below exact {v}");
        }
    }
});
