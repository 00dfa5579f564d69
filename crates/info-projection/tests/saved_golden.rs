//! The `FKFP` bytes are frozen: bytes captured from the format's first implementation (fitted
//! projectors: labels with the dual solver, soft groups with ADMM) restore and re-save
//! unchanged, and fitting again gives the same bytes but for the elapsed time (issue 27 moved
//! the codec into `fair_core::bytes`; this proves the layout did not move with it).

mod common;

use common::lcg_instance;
use info_projection::{Constraint, Divergence, FairProjection, FairProjectionValidParams, Solver};

const GOLDEN_DUAL: &str = "464b465001030000000000000002000000000000000002000000000000000100000000000000300100000000000000310600000000000000d3f7605c41d3d33fc1ceabc2ad66bb3f53ea1a15f65aba3f94a47c210dbdd13fcc9cc7df6abebc3f8d38fb50b73eb73f2400000000000000c78ac789d855973f0000000000000000000000000000000078e1e18e2de6ce3f0000000000000000b211c77e1cc7aa3fc06a2a23ca92a83f000000000000000000000000000000000000000000000000e3533dd8f03fc73f231c12e230e18b3f0000000000000000478509da8a0fb23f000000000000000000000000000000005c5551671239b43f00000000000000000000000000000000d6fe5a75c450a53f00000000000000000000000000000000cff23a7bfd50d23f000000000000000000000000000000004d63d50f0901af3f0000000000000000b369816dd53bc83f00000000000000000000000000000000400accee64c0b13f00000000000000006d82c4132d25803facf564147e60b03f00000000000000000000000000000000240000000000000085c3ef74197e793fc30fbc33868889bf9a3d4b65262461bfd79e7587626b9e3fb8ec4fbf9ab3a5bf8fd6ae1bb9cb743fcdf8c43a07367c3f802c19658fbd85bf33432e924add35bfcd91c2d10087a2bf48161202a2229c3f29bce3098687383f5c8847330ed28cbf48f1d932fbbd843f66ca3d80d9f66dbf7bc30d8bc0c987bf2ef63b457447853f8553d959a73c67bfae1bd2c7e3dc8fbf66dcf295307b803fe1da7b0bfe0c4bbfaec0f05d707aa1bfd70081622582a13f66147ce53a617fbf7b8493c9b4c783bf945146c29cba803fe1bceb53781165bfa406d81c167f9b3ffb577b68a654a0bfd7ab66a956f86abf52c36fca11bf833f66d00a53e8c192bf719d46d9ab97513f66bbdc5e0f1d823f1ad10ee8664a8abf5238068b490f12bf240000000000000017d1ef74197e793f15a49848704e74bf50cf537b69d3293f52a97587626b9e3f50809fd5c3e28cbf22f0ae1bb9cb743f17ffc43a07367c3f4877c8d5ddb96fbf16ee5f4109772f3f160cacb18ed38bbfeb1a1202a2229c3f7839e5098687383f841527bacad372bf0dfdd932fbbd843f5cff4c68da7c40bf0a947d34c4b971bfc5f93b457447853f98590a84a29e33bf1d610318e26473bf20e0f295307b803f78147e07c90a2bbfae1e47f5f29689bf010981622582a13fa498f2fc606056bfae35e629a9ac6cbf815446c29cba803fd0cc67d9cec22fbfd210d81c167f9b3f346b338bd9aa8dbf34eb706634f9423f89cb6fca11bf833fa314b38954a575bfefc146d9ab97513f3fbfdc5e0f1d823f528fea414b9f73bf3e6a06b8bf78333f0000002400000000000000c8000000000000000400000000000000050000000000000000000000000000000a63ff51181ab23f23878a204984a8bf000000000050103dd70081622582a13f000000000068d7bc00000000000000000000000000000000000000000000000000000000000000000000000000000000000000108b320000000000";
const GOLDEN_ADMM: &str = "464b465001030000000000000002000000000000000002000000000000000100000000000000300100000000000000310600000000000000d3f7605c41d3d33fc1ceabc2ad66bb3f53ea1a15f65aba3f94a47c210dbdd13fcc9cc7df6abebc3f8d38fb50b73eb73f0c0000000000000068c06459a273c63f00000000000000000b184c6f3f5c793f00000000000000004f2a1a7f21bace3f00000000000000000000000000000000f6fc84a1127fca3f000000000000000088e2630af765ca3f0000000000000000b3d52a983faa8a3f0c00000000000000aa881aef6191a33f3866e15ddeb4aebfd763fa5d79c15c3f040f785d8692aebf77dbdd3e27cca93fb85af31446dc85bf2a540ac0ba10acbfa17e07f7e6f8a63f2ed2506b739684bf8443888c2d13a63f87e1db520fc4b0bf295487550778633f0c00000000000000fc67feee6191a33fdce7bfeb16ee9ebf7433745979c15c3fec457a6cd0319dbfd461df3e27cca93f78d04260fdd557bf7077e0b9c0699abf11ed08f7e6f8a63f587bc87ca19055bfae2d698c2d13a63f913bc9f5f517a1bfc6ad06530778633f0001010c00000000000000c8000000000000001300000000000000150000000000000000000000000000000a63ff51181ab23f8af81f9ac439b4bf000000203305b43d77dbdd3e27cca93f000000183305b43d01b729452ed47cfd3d016967084d8072ac3d010d0000000000000000000000000000000000000000000000a9c46e0000000000";

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn cases() -> [(FairProjectionValidParams, &'static str); 2] {
    [
        (
            FairProjection::params()
                .solver(Solver::Dual)
                .divergence(Divergence::Kl)
                .constraint(Constraint::EqualizedOdds)
                .alpha(0.02)
                .check()
                .unwrap(),
            GOLDEN_DUAL,
        ),
        (
            FairProjection::params()
                .solver(Solver::Admm)
                .divergence(Divergence::CrossEntropy)
                .constraint(Constraint::StatisticalParity)
                .alpha(0.02)
                .check()
                .unwrap(),
            GOLDEN_ADMM,
        ),
    ]
}

#[test]
fn saved_bytes_are_the_frozen_layout() {
    let inst = lcg_instance(200, 3, 2, 5);
    for (params, golden) in cases() {
        let fitted = params.fit(&inst.probs, &inst.groups).unwrap();
        let bytes = fitted.to_bytes();
        // The last 16 bytes are the elapsed time (seconds, nanoseconds).
        let golden_bytes = unhex(golden);
        assert_eq!(
            hex(&bytes[..bytes.len() - 16]),
            hex(&golden_bytes[..golden_bytes.len().saturating_sub(16)])
        );
        let restored = params.restore(&golden_bytes).unwrap();
        assert_eq!(hex(&restored.to_bytes()), golden);
        assert_eq!(restored.lambda(), fitted.lambda());
    }
}
