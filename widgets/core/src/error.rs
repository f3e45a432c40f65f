//! The crate's error type.

use core::fmt;

/// Shorthand for `core::result::Result<T, CoreError>`.
pub type Result<T> = core::result::Result<T, CoreError>;

/// Why a computation could not be done; its `Display` text is meant to be
/// shown to course authors (build-time `check`) and to readers (widgets).
#[derive(Debug, Clone, PartialEq)]
pub enum CoreError {
    /// Two vectors that must have the same length do not.
    LengthMismatch {
        /// Length of the first vector.
        left: usize,
        /// Length of the second vector.
        right: usize,
    },
    /// An input that must contain at least one value is empty.
    Empty {
        /// What was empty ("vector", "scores", ...).
        what: &'static str,
    },
    /// An input contains NaN or an infinity.
    NonFinite {
        /// Which input.
        what: &'static str,
        /// Position of the first offending value.
        index: usize,
    },
    /// A scalar parameter is outside its allowed range.
    InvalidParameter {
        /// Parameter name.
        name: &'static str,
        /// The value given.
        value: f64,
        /// What was expected, in words.
        expected: &'static str,
    },
    /// A direction was needed but the vector has length zero.
    ZeroVector {
        /// Which vector.
        what: &'static str,
    },
    /// Softmax temperature is not a positive finite number.
    InvalidTemperature(f64),
    /// Matrix product with mismatched inner dimensions.
    InnerDimensionMismatch {
        /// Shape of the left matrix (rows, cols).
        a: (usize, usize),
        /// Shape of the right matrix (rows, cols).
        b: (usize, usize),
    },
    /// A matrix dimension is zero.
    ZeroDimension {
        /// Rows given.
        rows: usize,
        /// Columns given.
        cols: usize,
    },
    /// The data length does not match rows × cols.
    DataLength {
        /// Rows given.
        rows: usize,
        /// Columns given.
        cols: usize,
        /// Number of entries given.
        len: usize,
    },
    /// One row (or key, or value vector) has a different length from the others.
    Ragged {
        /// What kind of row ("row", "key", "value", "query").
        what: &'static str,
        /// Index of the offending row.
        index: usize,
        /// Length it should have.
        expected: usize,
        /// Length it has.
        got: usize,
    },
    /// A requested matrix cell is outside the product's shape.
    CellOutOfRange {
        /// Requested row.
        row: usize,
        /// Requested column.
        col: usize,
        /// Number of rows available.
        rows: usize,
        /// Number of columns available.
        cols: usize,
    },
    /// A single probability is not in (0, 1].
    ProbabilityOutOfRange(f64),
    /// A probability vector has a negative entry.
    NegativeProbability {
        /// Position of the entry.
        index: usize,
        /// Its value.
        value: f64,
    },
    /// A probability vector does not sum to 1 (within 1e-6).
    NotNormalized {
        /// The actual sum.
        sum: f64,
    },
    /// A value whose logarithm is needed is not positive.
    NonPositive {
        /// Position of the entry.
        index: usize,
        /// Its value.
        value: f64,
    },
    /// KL divergence is infinite because q is 0 where p is positive.
    InfiniteDivergence {
        /// Position where q is zero.
        index: usize,
    },
    /// A sample statistic needs more values than were given.
    TooFewValues {
        /// Values needed.
        needed: usize,
        /// Values given.
        got: usize,
    },
    /// A requested size (steps, samples) exceeds the crate's safety limit.
    TooLarge {
        /// What was too large.
        what: &'static str,
        /// Requested size.
        requested: usize,
        /// Largest size allowed.
        limit: usize,
    },
    /// A function supplied by the caller returned NaN or infinity.
    FunctionNotFinite {
        /// The point at which it was evaluated.
        x: f64,
    },
    /// The result overflowed to infinity (inputs are too large).
    Overflow,
    /// An expression could not be parsed.
    Syntax {
        /// Byte offset of the problem in the expression text.
        position: usize,
        /// What is wrong there.
        message: String,
    },
    /// An expression uses a variable other than the one it is a function of.
    UnknownVariable {
        /// The variable found.
        name: String,
        /// The variable expected.
        expected: String,
    },
}

// Messages for the preprocessor (`{check}`, widget parameters at build time); the wasm
// layer never formats a `CoreError`, so this stays out of the bundle.
#[allow(clippy::disallowed_macros)]
impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::LengthMismatch { left, right } => {
                write!(f, "vectors have different lengths ({left} and {right})")
            }
            CoreError::Empty { what } => write!(f, "{what} is empty"),
            CoreError::NonFinite { what, index } => write!(
                f,
                "{what} contains NaN or infinity (entry {index}); only finite numbers are allowed"
            ),
            CoreError::InvalidParameter {
                name,
                value,
                expected,
            } => write!(f, "{name} must be {expected} (got {value})"),
            CoreError::ZeroVector { what } => write!(
                f,
                "{what} is the zero vector, so it has no direction (angle and cosine are undefined)"
            ),
            CoreError::InvalidTemperature(t) => {
                write!(f, "temperature must be positive and finite (got {t})")
            }
            CoreError::InnerDimensionMismatch { a, b } => write!(
                f,
                "inner dimensions differ: A is {}×{}, B is {}×{} ({} ≠ {})",
                a.0, a.1, b.0, b.1, a.1, b.0
            ),
            CoreError::ZeroDimension { rows, cols } => write!(
                f,
                "matrix dimensions must be at least 1 (got {rows}×{cols})"
            ),
            CoreError::DataLength { rows, cols, len } => match rows.checked_mul(*cols) {
                Some(n) => write!(f, "a {rows}×{cols} matrix needs {n} entries, got {len}"),
                None => write!(f, "a {rows}×{cols} matrix is too large (got {len} entries)"),
            },
            CoreError::Ragged {
                what,
                index,
                expected,
                got,
            } => write!(f, "{what} {index} has length {got}, expected {expected}"),
            CoreError::CellOutOfRange {
                row,
                col,
                rows,
                cols,
            } => write!(
                f,
                "cell ({row}, {col}) is outside the {rows}×{cols} product (indices start at 0)"
            ),
            CoreError::ProbabilityOutOfRange(p) => {
                write!(f, "probability must be in (0, 1] (got {p})")
            }
            CoreError::NegativeProbability { index, value } => {
                write!(f, "probability {index} is negative ({value})")
            }
            CoreError::NotNormalized { sum } => {
                write!(f, "probabilities must sum to 1 (they sum to {sum})")
            }
            CoreError::NonPositive { index, value } => write!(
                f,
                "value {index} is {value}, but logarithms need positive numbers"
            ),
            CoreError::InfiniteDivergence { index } => write!(
                f,
                "KL divergence is infinite: q is 0 at entry {index} where p is positive"
            ),
            CoreError::TooFewValues { needed, got } => {
                write!(f, "need at least {needed} values (got {got})")
            }
            CoreError::TooLarge {
                what,
                requested,
                limit,
            } => write!(f, "{what} is too large ({requested}; at most {limit})"),
            CoreError::FunctionNotFinite { x } => {
                write!(f, "the function gave NaN or infinity near x = {x}")
            }
            CoreError::Overflow => write!(
                f,
                "the result is too large to represent (overflowed to infinity)"
            ),
            CoreError::Syntax { position, message } => {
                write!(f, "{message} (at byte {position})")
            }
            CoreError::UnknownVariable { name, expected } => write!(
                f,
                "unknown variable `{name}`: this expression is a function of `{expected}` only"
            ),
        }
    }
}

impl std::error::Error for CoreError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_clear() {
        assert_eq!(
            CoreError::LengthMismatch { left: 3, right: 2 }.to_string(),
            "vectors have different lengths (3 and 2)"
        );
        assert_eq!(
            CoreError::InnerDimensionMismatch {
                a: (2, 3),
                b: (2, 2)
            }
            .to_string(),
            "inner dimensions differ: A is 2×3, B is 2×2 (3 ≠ 2)"
        );
        assert_eq!(
            CoreError::InvalidTemperature(0.0).to_string(),
            "temperature must be positive and finite (got 0)"
        );
        assert_eq!(
            CoreError::ProbabilityOutOfRange(1.5).to_string(),
            "probability must be in (0, 1] (got 1.5)"
        );
        assert_eq!(
            CoreError::DataLength {
                rows: 2,
                cols: 3,
                len: 5
            }
            .to_string(),
            "a 2×3 matrix needs 6 entries, got 5"
        );
    }
}
