//! Scaled dot-product attention for one or several queries:
//! weights = softmax(q·kⱼ / √d_k), output = Σⱼ weightⱼ vⱼ.

use crate::{ensure_finite, ensure_nonempty_finite, finite_vec, softmax, CoreError, Result};

/// Checks that `rows` is non-empty, finite, and every row has length `len`.
fn check_rows(rows: &[Vec<f64>], len: usize, what: &'static str) -> Result<()> {
    if rows.is_empty() {
        return Err(CoreError::Empty { what });
    }
    for (index, row) in rows.iter().enumerate() {
        if row.len() != len {
            return Err(CoreError::Ragged {
                what,
                index,
                expected: len,
                got: row.len(),
            });
        }
        ensure_finite(row, what)?;
    }
    Ok(())
}

/// Attention scores sⱼ = q·kⱼ / √d_k (or plain q·kⱼ when `scale` is false),
/// where d_k is the key length; dividing by √d_k keeps the scores' spread
/// near 1 whatever the dimension.
pub fn scaled_scores(q: &[f64], keys: &[Vec<f64>], scale: bool) -> Result<Vec<f64>> {
    ensure_nonempty_finite(q, "query")?;
    check_rows(keys, q.len(), "key")?;
    let divisor = if scale { (q.len() as f64).sqrt() } else { 1.0 };
    finite_vec(
        keys.iter()
            .map(|k| q.iter().zip(k).map(|(x, y)| x * y).sum::<f64>() / divisor)
            .collect(),
    )
}

/// Attention weights softmax(q·kⱼ / √d_k): how much the query attends to each
/// key; non-negative and summing to 1.
pub fn attention_weights(q: &[f64], keys: &[Vec<f64>], scale: bool) -> Result<Vec<f64>> {
    softmax::softmax(&scaled_scores(q, keys, scale)?)
}

/// One row of attention weights per query: `A[i][j] = softmax_j(qᵢ·kⱼ / √d_k)`.
pub fn attention_matrix(
    queries: &[Vec<f64>],
    keys: &[Vec<f64>],
    scale: bool,
) -> Result<Vec<Vec<f64>>> {
    let d = queries.first().map_or(0, Vec::len);
    check_rows(queries, d, "query")?;
    queries
        .iter()
        .map(|q| attention_weights(q, keys, scale))
        .collect()
}

/// Attention output Σⱼ wⱼ vⱼ: the weighted average of the value vectors
/// (one weight per value vector; all value vectors must share a length).
pub fn attention_output(weights: &[f64], values: &[Vec<f64>]) -> Result<Vec<f64>> {
    ensure_nonempty_finite(weights, "weights")?;
    if weights.len() != values.len() {
        return Err(CoreError::LengthMismatch {
            left: weights.len(),
            right: values.len(),
        });
    }
    let d = values.first().map_or(0, Vec::len);
    if d == 0 {
        return Err(CoreError::Empty {
            what: "value vector",
        });
    }
    check_rows(values, d, "value")?;
    let mut out = vec![0.0; d];
    for (w, v) in weights.iter().zip(values) {
        for (o, x) in out.iter_mut().zip(v) {
            *o += w * x;
        }
    }
    finite_vec(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close_all(got: &[f64], want: &[f64], tol: f64) {
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() <= tol, "got {got:?}, want {want:?}");
        }
    }

    #[test]
    fn scores_weights_output() {
        let q = [1.0, 0.0, 1.0, 0.0];
        let keys = vec![
            vec![1.0, 0.0, 1.0, 0.0],
            vec![0.0, 1.0, 0.0, 1.0],
            vec![1.0, 1.0, 0.0, 0.0],
        ];
        // Dot products 2, 0, 1; √d_k = 2.
        assert_eq!(
            scaled_scores(&q, &keys, false).unwrap(),
            vec![2.0, 0.0, 1.0]
        );
        assert_eq!(scaled_scores(&q, &keys, true).unwrap(), vec![1.0, 0.0, 0.5]);
        let w = attention_weights(&q, &keys, true).unwrap();
        let e = [1f64.exp(), 1.0, 0.5f64.exp()];
        let s: f64 = e.iter().sum();
        close_all(&w, &[e[0] / s, e[1] / s, e[2] / s], 1e-15);

        let values = vec![vec![1.0, 0.0], vec![0.0, 1.0], vec![1.0, 1.0]];
        let out = attention_output(&w, &values).unwrap();
        close_all(&out, &[w[0] + w[2], w[1] + w[2]], 1e-15);

        let m = attention_matrix(&[q.to_vec(), vec![0.0; 4]], &keys, true).unwrap();
        assert_eq!(m.len(), 2);
        close_all(&m[0], &w, 0.0);
        close_all(&m[1], &[1.0 / 3.0; 3], 1e-15);
    }

    #[test]
    fn errors() {
        let keys = vec![vec![1.0, 0.0], vec![1.0]];
        assert_eq!(
            scaled_scores(&[1.0, 0.0], &keys, true)
                .unwrap_err()
                .to_string(),
            "key 1 has length 1, expected 2"
        );
        assert!(scaled_scores(&[1.0], &[], true).is_err());
        assert!(scaled_scores(&[], &[vec![]], true).is_err());
        assert!(attention_matrix(&[], &[vec![1.0]], true).is_err());
        assert!(attention_matrix(&[vec![1.0], vec![1.0, 2.0]], &[vec![1.0]], true).is_err());
        assert!(attention_output(&[0.5, 0.5], &[vec![1.0]]).is_err());
        assert!(attention_output(&[1.0], &[vec![]]).is_err());
        assert!(attention_output(&[0.5, 0.5], &[vec![1.0], vec![1.0, 2.0]]).is_err());
        assert!(attention_output(&[f64::NAN], &[vec![1.0]]).is_err());
    }
}
