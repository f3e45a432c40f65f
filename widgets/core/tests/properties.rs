//! Property tests for mathcourse-core.

// Tests compare with std's float formatting (see `widgets/clippy.toml`).
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

use mathcourse_core::{info, matrix, rng::Rng, round, softmax, vector};
use proptest::prelude::*;

fn scores(max_len: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-20.0f64..20.0, 1..max_len)
}

fn vec_pair() -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    (1usize..8).prop_flat_map(|n| {
        (
            prop::collection::vec(-1e3f64..1e3, n),
            prop::collection::vec(-1e3f64..1e3, n),
        )
    })
}

fn matrix_of(rows: usize, cols: usize) -> impl Strategy<Value = matrix::Matrix> {
    prop::collection::vec(-10.0f64..10.0, rows * cols)
        .prop_map(move |data| matrix::Matrix::new(rows, cols, data).unwrap())
}

/// A probability distribution over 1..=12 outcomes (some entries may be 0).
fn distribution() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(prop_oneof![Just(0.0), 0.001f64..1.0], 1..12)
        .prop_filter("some mass", |w| w.iter().sum::<f64>() > 0.0)
        .prop_map(|w| {
            let s: f64 = w.iter().sum();
            w.iter().map(|x| x / s).collect()
        })
}

proptest! {
    #[test]
    fn softmax_is_a_distribution(z in scores(20), t in 0.05f64..20.0) {
        let p = softmax::softmax_with_temperature(&z, t).unwrap();
        prop_assert_eq!(p.len(), z.len());
        let sum: f64 = p.iter().sum();
        prop_assert!((sum - 1.0).abs() < 1e-12);
        // Gaps ≤ 40 at T ≥ 0.05 can underflow; check (0,1] at T = 1 where e^-40 > 0.
        let p1 = softmax::softmax(&z).unwrap();
        for v in &p1 {
            prop_assert!(*v > 0.0 && *v <= 1.0);
        }
        for v in &p {
            prop_assert!((0.0..=1.0).contains(v));
        }
    }

    #[test]
    fn softmax_is_shift_invariant(z in scores(20), c in -1e3f64..1e3) {
        let shifted: Vec<f64> = z.iter().map(|v| v + c).collect();
        let a = softmax::softmax(&z).unwrap();
        let b = softmax::softmax(&shifted).unwrap();
        for (x, y) in a.iter().zip(&b) {
            prop_assert!((x - y).abs() < 1e-9, "{:?} vs {:?}", a, b);
        }
    }

    #[test]
    fn low_temperature_picks_the_argmax(z in scores(10), gap in 0.1f64..5.0, pos in 0usize..10) {
        // Make entry `pos` the strict maximum by at least `gap`.
        let mut z = z;
        let pos = pos % z.len();
        let others_max = z.iter().enumerate()
            .filter(|(i, _)| *i != pos)
            .map(|(_, v)| *v)
            .fold(f64::NEG_INFINITY, f64::max);
        if others_max.is_finite() {
            z[pos] = others_max + gap;
        }
        let p = softmax::softmax_with_temperature(&z, 1e-3).unwrap();
        prop_assert_eq!(softmax::argmax(&z), Some(pos));
        prop_assert!(p[pos] > 0.99);
    }

    #[test]
    fn cosine_is_bounded((a, b) in vec_pair()) {
        if let Ok(c) = vector::cosine(&a, &b) {
            prop_assert!((-1.0..=1.0).contains(&c));
            let angle = vector::angle_degrees(&a, &b).unwrap();
            prop_assert!((0.0..=180.0).contains(&angle));
        }
    }

    #[test]
    fn cauchy_schwarz((a, b) in vec_pair()) {
        let d = vector::dot(&a, &b).unwrap();
        let bound = vector::norm(&a).unwrap() * vector::norm(&b).unwrap();
        prop_assert!(d.abs() <= bound * (1.0 + 1e-12) + 1e-12);
    }

    #[test]
    fn matmul_shape_rule(m in 1usize..5, n in 1usize..5, p in 1usize..5, q in 1usize..5) {
        let a = matrix::Matrix::new(m, n, vec![1.0; m * n]).unwrap();
        let b = matrix::Matrix::new(p, q, vec![1.0; p * q]).unwrap();
        match matrix::matmul(&a, &b) {
            Ok(c) => {
                prop_assert_eq!(n, p);
                prop_assert_eq!(c.shape(), (m, q));
                prop_assert_eq!(matrix::product_shape((m, n), (p, q)).unwrap(), (m, q));
                // Every entry of ones·ones is n.
                prop_assert!(c.data().iter().all(|v| *v == n as f64));
            }
            Err(e) => {
                prop_assert_ne!(n, p);
                let msg = e.to_string();
                let expected = format!("A is {m}×{n}, B is {p}×{q}");
                prop_assert!(msg.contains(&expected));
            }
        }
    }

    #[test]
    fn transpose_of_product(
        (a, b) in (1usize..5, 1usize..5, 1usize..5)
            .prop_flat_map(|(m, n, q)| (matrix_of(m, n), matrix_of(n, q)))
    ) {
        let left = matrix::transpose(&matrix::matmul(&a, &b).unwrap());
        let right = matrix::matmul(&matrix::transpose(&b), &matrix::transpose(&a)).unwrap();
        prop_assert_eq!(left.shape(), right.shape());
        for (x, y) in left.data().iter().zip(right.data()) {
            prop_assert!((x - y).abs() < 1e-9);
        }
    }

    #[test]
    fn entropy_is_bounded(p in distribution()) {
        let h = info::entropy_bits(&p).unwrap();
        let max = (p.len() as f64).log2();
        prop_assert!(h >= 0.0);
        prop_assert!(h <= max + 1e-9, "H = {} > log2 n = {}", h, max);
    }

    #[test]
    fn perplexity_at_least_one(probs in prop::collection::vec(1e-6f64..=1.0, 1..30)) {
        let ppl = info::perplexity(&probs).unwrap();
        prop_assert!(ppl >= 1.0);
        // Perplexity is the inverse geometric mean of the probabilities.
        let geo = (probs.iter().map(|p| p.ln()).sum::<f64>() / probs.len() as f64).exp();
        prop_assert!((ppl * geo - 1.0).abs() < 1e-9);
    }

    #[test]
    fn rng_is_deterministic(seed in any::<u64>()) {
        let mut a = Rng::new(seed);
        let mut b = Rng::new(seed);
        for _ in 0..32 {
            prop_assert_eq!(a.next_u64(), b.next_u64());
            prop_assert_eq!(a.next_f64().to_bits(), b.next_f64().to_bits());
            prop_assert_eq!(a.normal().to_bits(), b.normal().to_bits());
        }
        let w = [0.2, 0.0, 0.5, 0.3];
        for _ in 0..16 {
            let i = a.sample_index(&w);
            prop_assert_eq!(i, b.sample_index(&w));
            prop_assert!(i.is_some() && i != Some(1));
        }
    }

    #[test]
    fn rounded_value_matches_stated(x in -1e6f64..1e6, d in 0u32..10) {
        let r = round::round_to(x, d);
        prop_assert!(round::matches_stated(r, x, d), "x = {}, d = {}, r = {}", x, d, r);
        prop_assert!(round::matches_stated(x, r, d));
    }

    #[test]
    fn rounded_any_finite(x in any::<f64>().prop_filter("finite", |v| v.is_finite()), d in 0u32..30) {
        prop_assert!(round::matches_stated(round::round_to(x, d), x, d));
    }

    #[test]
    fn decimals_of_formatted_numbers(x in -1e4f64..1e4, d in 0usize..8) {
        let text = format!("{x:.d$}");
        prop_assert_eq!(round::decimals_in(&text), d as u32);
    }

    #[test]
    fn never_panics_on_arbitrary_input(
        a in prop::collection::vec(any::<f64>(), 0..6),
        b in prop::collection::vec(any::<f64>(), 0..6),
        t in any::<f64>(),
    ) {
        let _ = vector::dot(&a, &b);
        let _ = vector::cosine(&a, &b);
        let _ = vector::projection(&a, &b);
        let _ = softmax::softmax_with_temperature(&a, t);
        let _ = softmax::log_softmax(&a);
        let _ = softmax::argmax(&a);
        let _ = info::entropy_bits(&a);
        let _ = info::kl_divergence_bits(&a, &b);
        let _ = info::perplexity(&a);
        let _ = info::surprise_bits(t);
        let _ = mathcourse_core::stats::variance(&a);
        let _ = mathcourse_core::attention::attention_output(&a, std::slice::from_ref(&b));
        let _ = matrix::Matrix::new(2, 3, a.clone());
        let _ = Rng::new(t.to_bits()).sample_index(&a);
        let _ = round::round_to(t, 3);
    }
}
