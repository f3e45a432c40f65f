//! Small dense matrices (row-major) and the matrix product, including the
//! shape rule (m×n)(n×q) = m×q and the terms of a single output cell.

use crate::{ensure_finite, finite_vec, CoreError, Result};

/// A dense `rows × cols` matrix of finite `f64`, stored row by row.
///
/// Fields are private so the invariant `data.len() == rows * cols ≥ 1` always
/// holds; build one with [`Matrix::new`] or [`Matrix::from_rows`].
#[derive(Debug, Clone, PartialEq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
}

impl Matrix {
    /// Builds a `rows × cols` matrix from row-major `data`; errors if a
    /// dimension is 0, if `data.len() ≠ rows·cols`, or on NaN/∞ entries.
    pub fn new(rows: usize, cols: usize, data: Vec<f64>) -> Result<Matrix> {
        if rows == 0 || cols == 0 {
            return Err(CoreError::ZeroDimension { rows, cols });
        }
        if rows.checked_mul(cols) != Some(data.len()) {
            return Err(CoreError::DataLength {
                rows,
                cols,
                len: data.len(),
            });
        }
        ensure_finite(&data, "matrix")?;
        Ok(Matrix { rows, cols, data })
    }

    /// Builds a matrix from a list of rows, which must all have the same
    /// (non-zero) length.
    pub fn from_rows(rows: &[Vec<f64>]) -> Result<Matrix> {
        let cols = rows.first().map_or(0, Vec::len);
        let mut data = Vec::new();
        for (index, row) in rows.iter().enumerate() {
            if row.len() != cols {
                return Err(CoreError::Ragged {
                    what: "row",
                    index,
                    expected: cols,
                    got: row.len(),
                });
            }
            data.extend_from_slice(row);
        }
        Matrix::new(rows.len(), cols, data)
    }

    /// Number of rows (m in an m×n matrix).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns (n in an m×n matrix).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The shape `(rows, cols)`.
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// All entries in row-major order (entry (r, c) is at `r·cols + c`).
    pub fn data(&self) -> &[f64] {
        &self.data
    }

    /// Entry (r, c), 0-based, or `None` when outside the matrix.
    pub fn get(&self, r: usize, c: usize) -> Option<f64> {
        if r >= self.rows || c >= self.cols {
            return None;
        }
        self.data
            .get(r.checked_mul(self.cols)?.checked_add(c)?)
            .copied()
    }

    /// Row `r` as a slice, or `None` when `r` is out of range.
    pub fn row(&self, r: usize) -> Option<&[f64]> {
        self.data.chunks(self.cols).nth(r)
    }

    /// Column `c` as a new vector, or `None` when `c` is out of range.
    pub fn column(&self, c: usize) -> Option<Vec<f64>> {
        if c >= self.cols {
            return None;
        }
        Some(
            self.data
                .iter()
                .skip(c)
                .step_by(self.cols)
                .copied()
                .collect(),
        )
    }

    /// The rows as separate vectors (handy for display).
    pub fn to_rows(&self) -> Vec<Vec<f64>> {
        self.data.chunks(self.cols).map(<[f64]>::to_vec).collect()
    }
}

/// Shape of the product AB: (m×n)(p×q) = m×q, defined only when the inner
/// dimensions agree (n = p); dimensions must be at least 1.
pub fn product_shape(a: (usize, usize), b: (usize, usize)) -> Result<(usize, usize)> {
    for &(rows, cols) in &[a, b] {
        if rows == 0 || cols == 0 {
            return Err(CoreError::ZeroDimension { rows, cols });
        }
    }
    if a.1 != b.0 {
        return Err(CoreError::InnerDimensionMismatch { a, b });
    }
    Ok((a.0, b.1))
}

/// Matrix product C = AB with `C[i][j] = Σₖ A[i][k]·B[k][j]` (row i of A dotted
/// with column j of B); errors when the inner dimensions differ.
pub fn matmul(a: &Matrix, b: &Matrix) -> Result<Matrix> {
    let (m, q) = product_shape(a.shape(), b.shape())?;
    let mut data = Vec::new();
    for row in a.data.chunks(a.cols) {
        for j in 0..q {
            let column = b.data.iter().skip(j).step_by(b.cols);
            data.push(row.iter().zip(column).map(|(x, y)| x * y).sum());
        }
    }
    let data = finite_vec(data)?;
    Ok(Matrix {
        rows: m,
        cols: q,
        data,
    })
}

/// Transpose Aᵀ with `Aᵀ[j][i] = A[i][j]`: rows become columns.
pub fn transpose(a: &Matrix) -> Matrix {
    let mut data = Vec::with_capacity(a.data.len());
    for c in 0..a.cols {
        data.extend(a.data.iter().skip(c).step_by(a.cols).copied());
    }
    Matrix {
        rows: a.cols,
        cols: a.rows,
        data,
    }
}

/// The products `A[i][k]·B[k][j]` for k = 0..n whose sum is cell (i, j) of AB,
/// for showing how one cell is built; errors on a shape mismatch or when
/// (i, j) is outside the product.
pub fn row_dot_column(a: &Matrix, b: &Matrix, i: usize, j: usize) -> Result<Vec<f64>> {
    let (m, q) = product_shape(a.shape(), b.shape())?;
    let out_of_range = CoreError::CellOutOfRange {
        row: i,
        col: j,
        rows: m,
        cols: q,
    };
    if j >= q {
        return Err(out_of_range);
    }
    let row = a.row(i).ok_or(out_of_range)?;
    let column = b.data.iter().skip(j).step_by(b.cols);
    finite_vec(row.iter().zip(column).map(|(x, y)| x * y).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(rows: usize, cols: usize, data: &[f64]) -> Matrix {
        Matrix::new(rows, cols, data.to_vec()).unwrap()
    }

    #[test]
    fn two_by_three_times_three_by_two() {
        let a = m(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let b = m(3, 2, &[7.0, 8.0, 9.0, 10.0, 11.0, 12.0]);
        let c = matmul(&a, &b).unwrap();
        assert_eq!(c.shape(), (2, 2));
        // By hand: 1·7+2·9+3·11 = 58, 1·8+2·10+3·12 = 64, 4·7+5·9+6·11 = 139, 4·8+5·10+6·12 = 154.
        assert_eq!(c.data(), &[58.0, 64.0, 139.0, 154.0]);
        assert_eq!(
            row_dot_column(&a, &b, 1, 0).unwrap(),
            vec![28.0, 45.0, 66.0]
        );
        assert_eq!(product_shape((2, 3), (3, 2)).unwrap(), (2, 2));
    }

    #[test]
    fn shape_mismatch_names_both_shapes() {
        let a = m(2, 3, &[0.0; 6]);
        let b = m(2, 2, &[0.0; 4]);
        let err = matmul(&a, &b).unwrap_err();
        assert_eq!(
            err.to_string(),
            "inner dimensions differ: A is 2×3, B is 2×2 (3 ≠ 2)"
        );
        assert_eq!(product_shape((2, 3), (2, 2)).unwrap_err(), err);
        assert!(row_dot_column(&a, &b, 0, 0).is_err());
    }

    #[test]
    fn construction_errors() {
        assert_eq!(
            Matrix::new(2, 3, vec![1.0; 5]).unwrap_err().to_string(),
            "a 2×3 matrix needs 6 entries, got 5"
        );
        assert!(Matrix::new(0, 3, vec![]).is_err());
        assert!(Matrix::new(usize::MAX, 2, vec![1.0]).is_err());
        assert!(Matrix::new(1, 1, vec![f64::NAN]).is_err());
        assert!(Matrix::from_rows(&[vec![1.0, 2.0], vec![3.0]]).is_err());
        assert!(Matrix::from_rows(&[]).is_err());
    }

    #[test]
    fn accessors_and_transpose() {
        let a = Matrix::from_rows(&[vec![1.0, 2.0, 3.0], vec![4.0, 5.0, 6.0]]).unwrap();
        assert_eq!(a.get(1, 2), Some(6.0));
        assert_eq!(a.get(2, 0), None);
        assert_eq!(a.get(0, 3), None);
        assert_eq!(a.row(1), Some(&[4.0, 5.0, 6.0][..]));
        assert_eq!(a.row(2), None);
        assert_eq!(a.column(1), Some(vec![2.0, 5.0]));
        assert_eq!(a.column(3), None);
        let t = transpose(&a);
        assert_eq!(t.shape(), (3, 2));
        assert_eq!(
            t.to_rows(),
            vec![vec![1.0, 4.0], vec![2.0, 5.0], vec![3.0, 6.0]]
        );
    }

    #[test]
    fn cell_out_of_range() {
        let a = m(2, 3, &[1.0; 6]);
        let b = m(3, 2, &[1.0; 6]);
        assert!(matches!(
            row_dot_column(&a, &b, 2, 0),
            Err(CoreError::CellOutOfRange { .. })
        ));
        assert!(row_dot_column(&a, &b, 0, 2).is_err());
    }
}
