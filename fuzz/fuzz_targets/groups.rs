//! `fair_data::Groups` construction: `new`, `from_codes` (sparse and huge ids), `from_labels`,
//! `intersect`, `select` and `compact`. Invariants: no panic, no allocation sized by an id's
//! value, every code indexes a name, and the original id/label is recoverable from the name.
#![no_main]

use arbitrary::Arbitrary;
use fair_data::Groups;
use libfuzzer_sys::fuzz_target;

/// An id drawn mostly from the interesting corners (0.., powers of two, `usize::MAX`).
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Id {
    Small(u8),
    Pow2(u8),
    NearMax(u8),
    Any(usize),
}

impl Id {
    fn value(self) -> usize {
        match self {
            Id::Small(v) => v as usize,
            Id::Pow2(p) => 1usize.checked_shl(u32::from(p % 64)).unwrap_or(0),
            Id::NearMax(d) => usize::MAX - d as usize,
            Id::Any(v) => v,
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Input {
    ids: Vec<Id>,
    names: Vec<String>,
    labels: Vec<u8>,
    select: Vec<u16>,
}

fn check(g: &Groups, n: usize) {
    assert_eq!(g.len(), n);
    assert!(g.n_groups() >= 1 || n == 0);
    assert!(g.codes().iter().all(|&c| c < g.n_groups()));
    let counts = g.counts();
    assert_eq!(counts.iter().sum::<usize>(), n);
    let c = g.compact();
    assert!(c.counts().iter().all(|&k| k > 0));
    for (a, b) in g.codes().iter().zip(c.codes()) {
        assert_eq!(g.names()[*a], c.names()[*b]);
    }
}

fuzz_target!(|input: Input| {
    let ids: Vec<usize> = input.ids.iter().map(|i| i.value()).collect();
    match Groups::from_codes(&ids) {
        Ok(g) => {
            check(&g, ids.len());
            for (row, &id) in ids.iter().enumerate() {
                assert_eq!(g.names()[g.codes()[row]], id.to_string());
            }
            let mut sorted = g.names().to_vec();
            sorted.dedup();
            assert_eq!(sorted.len(), g.n_groups(), "duplicate group names");
            if let Ok(s) = g.select(&input.select.iter().map(|&i| i as usize).collect::<Vec<_>>()) {
                check(&s, input.select.len());
            }
        }
        Err(_) => assert!(ids.is_empty()),
    }

    let codes: Vec<usize> = input.ids.iter().map(|i| i.value()).collect();
    match Groups::new(codes.clone(), input.names.clone()) {
        Ok(g) => check(&g, codes.len()),
        Err(_) => assert!(input.names.is_empty() || codes.iter().any(|&c| c >= input.names.len())),
    }

    let labels: Vec<String> = input.labels.iter().map(|b| format!("g{}", b % 5)).collect();
    let by_label = Groups::from_labels(&labels);
    check(&by_label, labels.len());
    for (row, l) in labels.iter().enumerate() {
        assert_eq!(&by_label.names()[by_label.codes()[row]], l);
    }
    if let Ok(g) = Groups::from_codes(&ids) {
        match Groups::intersect(&[&g, &by_label]) {
            Ok(both) => check(&both, ids.len()),
            Err(_) => assert_ne!(ids.len(), labels.len()),
        }
    }
});
