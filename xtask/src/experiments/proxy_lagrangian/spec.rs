//! The paper's Tables 6–7 and the set-up of each data set (model, constraints, grids, seeds).

use super::*;

/// Families in table order, with the solution types each reports.
pub(super) const FAMILIES: [Algorithm; 3] = [
    Algorithm::Hinge,
    Algorithm::ProxyLagrangian,
    Algorithm::ZeroOneExt,
];
pub(super) const SOLUTIONS: [SolutionType; 4] = [
    SolutionType::MStoch,
    SolutionType::TStoch,
    SolutionType::Best,
    SolutionType::Last,
];

/// The paper's rows: (label, train err, valid err, test err, train vio, valid vio, test vio).
pub(super) type PaperRow = (&'static str, [f64; 6]);
pub(super) const ADULT_PAPER: [PaperRow; 13] = [
    (
        "Unconstrained",
        [0.1421, 0.1348, 0.1428, 0.0803, 0.0604, 0.0555],
    ),
    (
        "Hinge m-stoch",
        [0.1431, 0.1348, 0.1442, 0.0, -0.0088, 0.0025],
    ),
    (
        "Hinge T-stoch",
        [0.1462, 0.1394, 0.1481, -0.0409, -0.0372, -0.0436],
    ),
    (
        "Hinge Best",
        [0.1424, 0.1333, 0.1447, -0.028, -0.0154, -0.0317],
    ),
    (
        "Hinge Last",
        [0.1532, 0.1490, 0.1551, -0.0174, -0.0217, -0.0254],
    ),
    (
        "0-1 swap m-stoch",
        [0.1431, 0.1349, 0.1432, 0.0176, 0.0023, 0.0559],
    ),
    (
        "0-1 swap T-stoch",
        [0.1428, 0.1365, 0.1436, 0.0054, 0.0354, 0.0285],
    ),
    (
        "0-1 swap Best",
        [0.1426, 0.1354, 0.1440, -0.0016, 0.0140, 0.0154],
    ),
    (
        "0-1 swap Last",
        [0.1436, 0.1358, 0.1443, 0.0069, 0.0248, 0.0221],
    ),
    (
        "0-1 ext m-stoch",
        [0.1418, 0.1348, 0.1432, 0.0, -0.0019, 0.0059],
    ),
    (
        "0-1 ext T-stoch",
        [0.1441, 0.1369, 0.1447, 0.0034, 0.022, 0.0174],
    ),
    (
        "0-1 ext Best",
        [0.1420, 0.1348, 0.1432, -0.0374, -0.0333, -0.0015],
    ),
    (
        "0-1 ext Last",
        [0.1436, 0.1358, 0.1448, -0.0116, 0.0078, 0.0028],
    ),
];
pub(super) const COMPAS_PAPER: [PaperRow; 13] = [
    (
        "Unconstrained",
        [0.3056, 0.3160, 0.3109, 0.1151, 0.2143, 0.1082],
    ),
    (
        "Hinge m-stoch",
        [0.3711, 0.3744, 0.3676, 0.0, 0.0395, 0.0284],
    ),
    (
        "Hinge T-stoch",
        [0.2880, 0.3387, 0.3198, 0.1093, 0.1779, 0.0917],
    ),
    (
        "Hinge Best",
        [0.2840, 0.3322, 0.3223, 0.0803, 0.1262, 0.0800],
    ),
    (
        "Hinge Last",
        [0.2882, 0.3322, 0.3231, 0.1275, 0.1968, 0.0996],
    ),
    (
        "0-1 swap m-stoch",
        [0.3132, 0.3015, 0.3174, 0.0004, 0.0851, 0.0111],
    ),
    (
        "0-1 swap T-stoch",
        [0.2968, 0.3208, 0.3219, 0.0257, 0.1286, 0.0547],
    ),
    (
        "0-1 swap Best",
        [0.3009, 0.3096, 0.3125, 0.0281, 0.1084, 0.0356],
    ),
    (
        "0-1 swap Last",
        [0.3023, 0.3096, 0.3158, 0.0412, 0.1153, 0.0480],
    ),
    (
        "0-1 ext m-stoch",
        [0.3145, 0.3080, 0.3146, 0.0, 0.0813, 0.0147],
    ),
    (
        "0-1 ext T-stoch",
        [0.2990, 0.3128, 0.3086, 0.0323, 0.1154, 0.0321],
    ),
    (
        "0-1 ext Best",
        [0.3106, 0.3160, 0.3101, -0.0069, 0.0797, -0.0085],
    ),
    (
        "0-1 ext Last",
        [0.2935, 0.3160, 0.3125, 0.0330, 0.1231, 0.0325],
    ),
];

#[derive(Clone, Copy)]
pub(super) enum ModelKind {
    Linear,
    Mlp { hidden: usize },
}

/// Everything that defines one dataset's experiment (all open choices live here).
pub(super) struct Setup {
    pub(super) key: &'static str,
    pub(super) title: &'static str,
    pub(super) model: ModelKind,
    pub(super) standardize: bool,
    pub(super) iterations: usize,
    pub(super) batch_size: usize,
    pub(super) snapshot_every: usize,
    pub(super) lr_theta: Vec<f64>,
    pub(super) lr_lambda_swap: Vec<f64>,
    pub(super) lr_lambda_additive: Vec<f64>,
    /// Radii R of Λ = {λ ≥ 0, ‖λ‖₁ ≤ R} tried for the Hinge family (its hinge constraints are
    /// never satisfiable, so without a radius its multipliers grow without bound).
    pub(super) radius_hinge: Vec<f64>,
    pub(super) split_seeds: Vec<u64>,
    pub(super) paper: &'static [PaperRow; 13],
}

pub(super) fn seeds(quick: bool) -> Vec<u64> {
    if quick {
        SPLIT_SEEDS[..1].to_vec()
    } else {
        SPLIT_SEEDS.to_vec()
    }
}

pub(super) fn setups(quick: bool) -> Vec<Setup> {
    let grid = |full: &[f64], q: &[f64]| if quick { q.to_vec() } else { full.to_vec() };
    vec![
        Setup {
            key: "adult",
            title: "Adult (linear, equal opportunity at 95 %)",
            model: ModelKind::Linear,
            standardize: false,
            iterations: if quick { 600 } else { 3000 },
            batch_size: 512,
            snapshot_every: if quick { 20 } else { 30 },
            lr_theta: grid(&[0.001, 0.01, 0.1], &[0.01]),
            lr_lambda_swap: grid(&[0.1, 1.0, 10.0], &[1.0]),
            lr_lambda_additive: grid(&[0.01, 0.1, 1.0], &[0.1]),
            radius_hinge: grid(&[0.01, 0.1, 1.0], &[0.1]),
            split_seeds: seeds(quick),
            paper: &ADULT_PAPER,
        },
        Setup {
            key: "compas",
            title: "COMPAS (10-unit ReLU net, equal opportunity +0.05)",
            model: ModelKind::Mlp { hidden: 10 },
            standardize: true,
            iterations: if quick { 800 } else { 4000 },
            batch_size: 128,
            snapshot_every: if quick { 20 } else { 40 },
            lr_theta: grid(&[0.001, 0.01, 0.1], &[0.01]),
            lr_lambda_swap: grid(&[0.1, 1.0, 10.0], &[1.0]),
            lr_lambda_additive: grid(&[0.01, 0.1, 1.0], &[0.1]),
            radius_hinge: grid(&[0.01, 0.1, 1.0], &[0.1]),
            split_seeds: seeds(quick),
            paper: &COMPAS_PAPER,
        },
    ]
}

/// Adult: TPR(group) ≥ 0.95·TPR(all) for Black, White, Female, Male (Eq. 19).
/// COMPAS: TPR(group) ≤ TPR(all) + 0.05 for African-American, Caucasian, Female, Male.
pub(super) fn constraints(key: &str) -> Vec<game_opt::Constraint> {
    if key == "adult" {
        let (d, s) = (Direction::AtLeast, Slack::Multiplicative(0.95));
        let mut c = goals::equal_opportunity("race", &["Black", "White"], d, s);
        c.extend(goals::equal_opportunity("sex", &["Female", "Male"], d, s));
        c
    } else {
        let (d, s) = (Direction::AtMost, Slack::Additive(0.05));
        let mut c = goals::equal_opportunity("race", &["African-American", "Caucasian"], d, s);
        c.extend(goals::equal_opportunity("sex", &["Female", "Male"], d, s));
        c
    }
}
