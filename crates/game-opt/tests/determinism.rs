//! Same seed, same bits: training, MLP initialisation and stochastic predictions.

mod common;
use common::two_group_problem;
use game_opt::{Algorithm, GameOptParams, Linear, Mlp, Model, SolutionType};
use nalgebra::DMatrix;

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn same_seed_same_bits() {
    let p = two_group_problem(300);
    for alg in [
        Algorithm::ProxyLagrangian,
        Algorithm::ZeroOneExt,
        Algorithm::Hinge,
        Algorithm::Unconstrained,
    ] {
        let params = GameOptParams::new()
            .algorithm(alg)
            .iterations(120)
            .batch_size(64)
            .seed(9);
        let a = params.fit(&p, Linear::new(3)).unwrap();
        let b = params.fit(&p, Linear::new(3)).unwrap();
        assert_eq!(a.snapshots().len(), b.snapshots().len());
        for (sa, sb) in a.snapshots().iter().zip(b.snapshots()) {
            assert_eq!(
                bits(sa.model.parameters()),
                bits(sb.model.parameters()),
                "{alg:?}"
            );
            assert_eq!(bits(&sa.multipliers), bits(&sb.multipliers));
        }
        assert_eq!(
            a.solution(SolutionType::MStoch).unwrap(),
            b.solution(SolutionType::MStoch).unwrap()
        );
        let c = params.clone().seed(10).fit(&p, Linear::new(3)).unwrap();
        let last =
            |f: &game_opt::GameFit<Linear>| bits(f.snapshots().last().unwrap().model.parameters());
        assert_ne!(
            last(&a),
            last(&c),
            "different seeds should differ ({alg:?})"
        );
    }
}

#[test]
fn mlp_training_is_reproducible() {
    let p = two_group_problem(200);
    let params = GameOptParams::new().iterations(60).batch_size(50).seed(4);
    let a = params.fit(&p, Mlp::new(3, 5, 1).unwrap()).unwrap();
    let b = params.fit(&p, Mlp::new(3, 5, 1).unwrap()).unwrap();
    let last = |f: &game_opt::GameFit<Mlp>| bits(f.snapshots().last().unwrap().model.parameters());
    assert_eq!(last(&a), last(&b));
}

#[test]
fn stochastic_predictions_reproducible() {
    let p = two_group_problem(200);
    let fit = GameOptParams::new()
        .iterations(100)
        .batch_size(50)
        .snapshot_every(5)
        .fit(&p, Linear::new(3))
        .unwrap();
    let clf = fit
        .classifier(&fit.solution(SolutionType::TStoch).unwrap())
        .unwrap();
    let x = DMatrix::from_fn(100, 3, |i, j| ((i * 31 + j * 7) % 13) as f64 / 6.0 - 1.0);
    assert_eq!(clf.predict(&x, 5).unwrap(), clf.predict(&x, 5).unwrap());
}
