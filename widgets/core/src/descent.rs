//! Gradient descent: 1-D on the course's wiggly function or a quadratic, and
//! 2-D with heavy-ball momentum on a narrow valley.

use crate::{ensure_finite_scalar, trig, CoreError, Result};

/// Beyond this magnitude an iterate counts as diverged and iteration stops.
pub const DIVERGENCE_LIMIT: f64 = 1e6;

/// Largest number of steps accepted (keeps memory and time bounded).
pub const MAX_STEPS: usize = 1_000_000;

/// A function of one variable with its exact derivative.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Function1D {
    /// The course's running example f(x) = (x−2)² + 0.5·sin(3x): a bowl with
    /// ripples, f'(x) = 2(x−2) + 1.5·cos(3x). At this amplitude the ripples
    /// only bend the walls: there is a single minimum, near x ≈ 1.705. (Local
    /// dips appear once the amplitude exceeds about 0.73; see
    /// [`Function1D::Rippled`].)
    Course,
    /// The course function with an adjustable ripple amplitude A:
    /// f(x) = (x−2)² + A·sin(3x), f'(x) = 2(x−2) + 3A·cos(3x). A = 0.5 is
    /// [`Function1D::Course`]; for A ≳ 0.73 a second, local minimum appears to
    /// the right of the global one (near x ≈ 3.3 for A = 1), and for A ≳ 1.3 a
    /// third one to the left (near x ≈ −0.1 for A = 1.5): dips that trap
    /// gradient descent.
    Rippled {
        /// The ripple amplitude A.
        amplitude: f64,
    },
    /// The quadratic f(x) = a x² + b x + c, f'(x) = 2a x + b.
    Quadratic {
        /// Coefficient of x².
        a: f64,
        /// Coefficient of x.
        b: f64,
        /// Constant term.
        c: f64,
    },
}

impl Function1D {
    /// The value f(x).
    pub fn value(&self, x: f64) -> f64 {
        match *self {
            Function1D::Course => (x - 2.0) * (x - 2.0) + 0.5 * trig::sin(3.0 * x),
            Function1D::Rippled { amplitude } => {
                (x - 2.0) * (x - 2.0) + amplitude * trig::sin(3.0 * x)
            }
            Function1D::Quadratic { a, b, c } => a * x * x + b * x + c,
        }
    }

    /// The exact derivative f'(x).
    pub fn derivative(&self, x: f64) -> f64 {
        match *self {
            Function1D::Course => 2.0 * (x - 2.0) + 1.5 * trig::cos(3.0 * x),
            Function1D::Rippled { amplitude } => {
                2.0 * (x - 2.0) + 3.0 * amplitude * trig::cos(3.0 * x)
            }
            Function1D::Quadratic { a, b, .. } => 2.0 * a * x + b,
        }
    }

    fn check(&self) -> Result<()> {
        match *self {
            Function1D::Course => {}
            Function1D::Rippled { amplitude } => ensure_finite_scalar(amplitude, "amplitude")?,
            Function1D::Quadratic { a, b, c } => {
                ensure_finite_scalar(a, "a")?;
                ensure_finite_scalar(b, "b")?;
                ensure_finite_scalar(c, "c")?;
            }
        }
        Ok(())
    }
}

/// The iterates of a 1-D gradient-descent run.
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory1D {
    /// x₀, x₁, …: `steps + 1` values, or fewer if the run diverged. All finite.
    pub xs: Vec<f64>,
    /// True when an iterate exceeded ±1e6 (or overflowed) and the run stopped.
    pub diverged: bool,
}

fn check_steps(steps: usize) -> Result<()> {
    if steps > MAX_STEPS {
        return Err(CoreError::TooLarge {
            what: "number of steps",
            requested: steps,
            limit: MAX_STEPS,
        });
    }
    Ok(())
}

fn check_learning_rate(learning_rate: f64) -> Result<()> {
    if learning_rate.is_finite() && learning_rate >= 0.0 {
        Ok(())
    } else {
        Err(CoreError::InvalidParameter {
            name: "learning rate",
            value: learning_rate,
            expected: "finite and ≥ 0",
        })
    }
}

/// Gradient descent in 1-D: x_{t+1} = x_t − η f'(x_t), starting at x₀ and
/// returning x₀ … x_steps; stops early (keeping the iterates so far) once
/// |x| > 1e6, reporting `diverged`.
pub fn gd_1d(f: &Function1D, x0: f64, learning_rate: f64, steps: usize) -> Result<Trajectory1D> {
    f.check()?;
    gd_1d_with(|x| f.derivative(x), x0, learning_rate, steps)
}

/// [`gd_1d`] for any function given by its derivative (exact or numerical):
/// x_{t+1} = x_t − η f'(x_t). A NaN or infinite derivative counts as
/// divergence (the run stops, keeping the finite iterates so far).
pub fn gd_1d_with(
    derivative: impl Fn(f64) -> f64,
    x0: f64,
    learning_rate: f64,
    steps: usize,
) -> Result<Trajectory1D> {
    ensure_finite_scalar(x0, "x0")?;
    check_learning_rate(learning_rate)?;
    check_steps(steps)?;
    let mut xs = Vec::with_capacity(steps.saturating_add(1));
    xs.push(x0);
    let mut x = x0;
    let mut diverged = false;
    for _ in 0..steps {
        x -= learning_rate * derivative(x);
        if !x.is_finite() {
            diverged = true;
            break;
        }
        xs.push(x);
        if x.abs() > DIVERGENCE_LIMIT {
            diverged = true;
            break;
        }
    }
    Ok(Trajectory1D { xs, diverged })
}

/// The narrow valley L(θ) = ½(a θ₁² + b θ₂²) with a ≪ b: gently sloped along
/// θ₁, steep along θ₂, so plain gradient descent zig-zags.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Valley {
    /// Curvature along θ₁ (the shallow direction).
    pub a: f64,
    /// Curvature along θ₂ (the steep direction).
    pub b: f64,
}

impl Default for Valley {
    /// The course's valley, a = 1, b = 20.
    fn default() -> Self {
        Valley { a: 1.0, b: 20.0 }
    }
}

impl Valley {
    /// The loss L(θ) = ½(a θ₁² + b θ₂²).
    pub fn value(&self, theta: [f64; 2]) -> f64 {
        let [t1, t2] = theta;
        0.5 * (self.a * t1 * t1 + self.b * t2 * t2)
    }

    /// The gradient ∇L(θ) = (a θ₁, b θ₂).
    pub fn gradient(&self, theta: [f64; 2]) -> [f64; 2] {
        let [t1, t2] = theta;
        [self.a * t1, self.b * t2]
    }

    fn check(&self) -> Result<()> {
        for (name, value) in [("curvature a", self.a), ("curvature b", self.b)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(CoreError::InvalidParameter {
                    name,
                    value,
                    expected: "positive and finite",
                });
            }
        }
        Ok(())
    }
}

/// The path of a 2-D gradient-descent run; `points`, `losses` and
/// `grad_norms` have the same length (`steps + 1`, or fewer if diverged).
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory2D {
    /// θ₀, θ₁, … (all finite).
    pub points: Vec<[f64; 2]>,
    /// L(θₜ) for each point.
    pub losses: Vec<f64>,
    /// ‖∇L(θₜ)‖ for each point.
    pub grad_norms: Vec<f64>,
    /// True when a coordinate exceeded ±1e6 (or overflowed) and the run stopped.
    pub diverged: bool,
}

/// Gradient descent with heavy-ball momentum on a [`Valley`]:
/// v ← μ v − η ∇L(θ); θ ← θ + v, starting from v = 0 (μ = 0 is plain GD).
/// Momentum μ must be in [0, 1], the learning rate η finite and ≥ 0.
pub fn gd_2d_momentum(
    valley: &Valley,
    theta0: [f64; 2],
    lr: f64,
    momentum: f64,
    steps: usize,
) -> Result<Trajectory2D> {
    valley.check()?;
    ensure_finite_scalar(theta0[0], "theta0[0]")?;
    ensure_finite_scalar(theta0[1], "theta0[1]")?;
    check_learning_rate(lr)?;
    if !(0.0..=1.0).contains(&momentum) {
        return Err(CoreError::InvalidParameter {
            name: "momentum",
            value: momentum,
            expected: "between 0 and 1",
        });
    }
    check_steps(steps)?;

    let grad_norm = |g: [f64; 2]| crate::vector::norm(&g).unwrap_or(f64::INFINITY);
    let mut trajectory = Trajectory2D {
        points: Vec::with_capacity(steps.saturating_add(1)),
        losses: Vec::with_capacity(steps.saturating_add(1)),
        grad_norms: Vec::with_capacity(steps.saturating_add(1)),
        diverged: false,
    };
    let loss0 = valley.value(theta0);
    let gn0 = grad_norm(valley.gradient(theta0));
    if !(loss0.is_finite() && gn0.is_finite()) {
        return Err(CoreError::Overflow);
    }
    trajectory.points.push(theta0);
    trajectory.losses.push(loss0);
    trajectory.grad_norms.push(gn0);

    let mut theta = theta0;
    let mut v = [0.0, 0.0];
    for _ in 0..steps {
        let g = valley.gradient(theta);
        v = [momentum * v[0] - lr * g[0], momentum * v[1] - lr * g[1]];
        theta = [theta[0] + v[0], theta[1] + v[1]];
        let loss = valley.value(theta);
        let gn = grad_norm(valley.gradient(theta));
        if !(theta[0].is_finite() && theta[1].is_finite() && loss.is_finite() && gn.is_finite()) {
            trajectory.diverged = true;
            break;
        }
        trajectory.points.push(theta);
        trajectory.losses.push(loss);
        trajectory.grad_norms.push(gn);
        if theta[0].abs() > DIVERGENCE_LIMIT || theta[1].abs() > DIVERGENCE_LIMIT {
            trajectory.diverged = true;
            break;
        }
    }
    Ok(trajectory)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn course_function_first_iterates_by_hand() {
        let f = Function1D::Course;
        let eta = 0.1;
        // f'(x) = 2(x−2) + 1.5 cos(3x); x_{t+1} = x_t − η f'(x_t).
        let x0: f64 = 0.0;
        let x1 = x0 - eta * (2.0 * (x0 - 2.0) + 1.5 * (3.0 * x0).cos());
        let x2 = x1 - eta * (2.0 * (x1 - 2.0) + 1.5 * (3.0 * x1).cos());
        let x3 = x2 - eta * (2.0 * (x2 - 2.0) + 1.5 * (3.0 * x2).cos());
        // x1 = 0 − 0.1·(−4 + 1.5) = 0.25 exactly (up to rounding).
        assert!((x1 - 0.25).abs() < 1e-15);
        // x2 = 0.25 − 0.1·(−3.5 + 1.5 cos 0.75) ≈ 0.49025.
        assert!((x2 - 0.490_25).abs() < 1e-5);
        let t = gd_1d(&f, x0, eta, 3).unwrap();
        assert!(!t.diverged);
        assert_eq!(t.xs, vec![x0, x1, x2, x3]);
    }

    #[test]
    fn course_value_and_derivative_agree() {
        let f = Function1D::Course;
        assert!((f.value(2.0) - 0.5 * 6f64.sin()).abs() < 1e-15);
        for x in [-1.0, 0.0, 0.7, 2.0, 3.3] {
            let n = crate::calculus::derivative_default(|t| f.value(t), x).unwrap();
            assert!((n - f.derivative(x)).abs() < 1e-8);
        }
        let q = Function1D::Quadratic {
            a: 1.0,
            b: -2.0,
            c: 3.0,
        };
        assert_eq!(q.value(2.0), 3.0);
        assert_eq!(q.derivative(2.0), 2.0);
    }

    #[test]
    fn rippled_matches_course_and_has_local_dips() {
        let course = Function1D::Course;
        let half = Function1D::Rippled { amplitude: 0.5 };
        for x in [-1.0, 0.3, 1.705, 2.0, 4.2] {
            assert_eq!(half.value(x), course.value(x));
            assert_eq!(half.derivative(x), course.derivative(x));
        }
        // Exact derivative against a numerical one, for several amplitudes.
        for amplitude in [0.0, 1.0, 1.5, 2.0] {
            let f = Function1D::Rippled { amplitude };
            for x in [-1.0, 0.0, 0.7, 2.0, 3.3, 5.0] {
                let n = crate::calculus::derivative_default(|t| f.value(t), x).unwrap();
                assert!(
                    (n - f.derivative(x)).abs() < 1e-8,
                    "A = {amplitude}, x = {x}"
                );
            }
        }
        // Count sign changes of f' from − to + on a fine grid = number of minima.
        let minima = |amplitude: f64| {
            let f = Function1D::Rippled { amplitude };
            (0..8000)
                .filter(|&i| {
                    let x = -2.0 + i as f64 * 0.001;
                    f.derivative(x) < 0.0 && f.derivative(x + 0.001) >= 0.0
                })
                .count()
        };
        assert_eq!(minima(0.5), 1);
        assert_eq!(minima(1.0), 2);
        assert_eq!(minima(1.5), 3);
        // The single minimum of the course function: f'(1.705) ≈ 0.
        assert!(course.derivative(1.705).abs() < 0.01);
        // Descent from x = 5 with a small rate stops in the dip near 3.31 for A = 1.
        let t = gd_1d(&Function1D::Rippled { amplitude: 1.0 }, 5.0, 0.05, 400).unwrap();
        assert!((t.xs.last().unwrap() - 3.311).abs() < 0.01);
        assert!(gd_1d(
            &Function1D::Rippled {
                amplitude: f64::NAN
            },
            0.0,
            0.1,
            1
        )
        .is_err());
    }

    #[test]
    fn learning_rate_too_large_diverges() {
        let x2 = Function1D::Quadratic {
            a: 1.0,
            b: 0.0,
            c: 0.0,
        };
        // x_{t+1} = x_t − 1.1·2x_t = −1.2 x_t: grows by 1.2 each step.
        let t = gd_1d(&x2, 1.0, 1.1, 1000).unwrap();
        assert!(t.diverged);
        assert!(t.xs.len() < 1001);
        assert!(t.xs.last().unwrap().abs() > DIVERGENCE_LIMIT);
        assert!((t.xs[1] + 1.2).abs() < 1e-15);
        // A small learning rate converges to 0.
        let t = gd_1d(&x2, 1.0, 0.1, 200).unwrap();
        assert!(!t.diverged);
        assert_eq!(t.xs.len(), 201);
        assert!(t.xs.last().unwrap().abs() < 1e-12);
    }

    #[test]
    fn gd_with_any_derivative_matches_course_function() {
        let exact = gd_1d(&Function1D::Course, 0.0, 0.1, 5).unwrap();
        let numerical = gd_1d_with(
            |x| {
                crate::calculus::derivative_default(|t| Function1D::Course.value(t), x)
                    .unwrap_or(f64::NAN)
            },
            0.0,
            0.1,
            5,
        )
        .unwrap();
        assert_eq!(exact.xs.len(), numerical.xs.len());
        for (a, b) in exact.xs.iter().zip(&numerical.xs) {
            assert!((a - b).abs() < 1e-8, "{a} vs {b}");
        }
        let nan = gd_1d_with(|_| f64::NAN, 1.0, 0.1, 3).unwrap();
        assert_eq!(nan.xs, vec![1.0]);
        assert!(nan.diverged);
    }

    #[test]
    fn gd_1d_errors() {
        let f = Function1D::Course;
        assert!(gd_1d(&f, f64::NAN, 0.1, 3).is_err());
        assert!(gd_1d(&f, 0.0, -0.1, 3).is_err());
        assert!(gd_1d(&f, 0.0, f64::INFINITY, 3).is_err());
        assert!(gd_1d(&f, 0.0, 0.1, usize::MAX).is_err());
        let bad = Function1D::Quadratic {
            a: f64::NAN,
            b: 0.0,
            c: 0.0,
        };
        assert!(gd_1d(&bad, 0.0, 0.1, 3).is_err());
        // Overflow inside one step: stops, keeps only finite iterates.
        let t = gd_1d(&f, 1e5, 1e306, 5).unwrap();
        assert!(t.diverged);
        assert!(t.xs.iter().all(|x| x.is_finite()));
    }

    #[test]
    fn valley_and_momentum() {
        let v = Valley::default();
        assert_eq!(v, Valley { a: 1.0, b: 20.0 });
        assert_eq!(v.value([2.0, 1.0]), 0.5 * (4.0 + 20.0));
        assert_eq!(v.gradient([2.0, 1.0]), [2.0, 20.0]);

        // One plain step by hand: θ₁ = θ₀ − η(aθ₀₁, bθ₀₂) = (2 − 0.04, 1 − 0.8).
        let t = gd_2d_momentum(&v, [2.0, 1.0], 0.04, 0.0, 1).unwrap();
        assert_eq!(t.points.len(), 2);
        assert!((t.points[1][0] - 1.92).abs() < 1e-15);
        assert!((t.points[1][1] - 0.2).abs() < 1e-15);
        assert_eq!(t.losses.len(), 2);
        assert_eq!(t.grad_norms.len(), 2);
        assert!((t.grad_norms[0] - (4.0f64 + 400.0).sqrt()).abs() < 1e-12);

        // Momentum second step: v₂ = μv₁ − η∇L(θ₁).
        let t = gd_2d_momentum(&v, [2.0, 1.0], 0.04, 0.9, 2).unwrap();
        let v1 = [-0.08, -0.8];
        let th1 = [1.92, 0.2];
        let v2 = [
            0.9 * v1[0] - 0.04 * th1[0],
            0.9 * v1[1] - 0.04 * 20.0 * th1[1],
        ];
        assert!((t.points[2][0] - (th1[0] + v2[0])).abs() < 1e-12);
        assert!((t.points[2][1] - (th1[1] + v2[1])).abs() < 1e-12);

        // Momentum helps on the shallow direction: after 100 steps the loss is lower.
        let plain = gd_2d_momentum(&v, [10.0, 1.0], 0.01, 0.0, 100).unwrap();
        let heavy = gd_2d_momentum(&v, [10.0, 1.0], 0.01, 0.9, 100).unwrap();
        assert!(heavy.losses.last().unwrap() < plain.losses.last().unwrap());

        // η > 2/b makes the steep direction blow up.
        let t = gd_2d_momentum(&v, [1.0, 1.0], 0.2, 0.0, 10_000).unwrap();
        assert!(t.diverged);
        assert_eq!(t.points.len(), t.losses.len());
    }

    #[test]
    fn gd_2d_errors() {
        let v = Valley::default();
        assert!(gd_2d_momentum(&Valley { a: 0.0, b: 1.0 }, [1.0, 1.0], 0.1, 0.0, 3).is_err());
        assert!(gd_2d_momentum(&v, [f64::NAN, 1.0], 0.1, 0.0, 3).is_err());
        assert!(gd_2d_momentum(&v, [1.0, 1.0], 0.1, 1.5, 3).is_err());
        assert!(gd_2d_momentum(&v, [1.0, 1.0], 0.1, f64::NAN, 3).is_err());
        assert!(gd_2d_momentum(&v, [1e300, 1.0], 0.1, 0.0, 3).is_err());
        assert!(gd_2d_momentum(&v, [1.0, 1.0], 0.1, 0.5, usize::MAX).is_err());
    }
}
