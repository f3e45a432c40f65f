//! The numeric side of the `plot` widget: expressions compiled to a small stack
//! program, adaptive sampling of a curve with break detection, areas and slopes.
//!
//! [`Program`] is an expression from [`crate::expr`] with every name resolved to a slot:
//! the curve's own variable ([`Op::Arg`]), a value (a slider's parameter, an area, a
//! slope: [`Op::Slot`]) or an earlier curve called as a function ([`Op::Call`]). It
//! evaluates without looking anything up by name, and with the bundle's own `sin`/`cos`
//! ([`crate::trig`]) and a `pow` built on `exp`/`ln`, so the widget links no other libm
//! routine.
//!
//! [`sample`] draws a curve: a uniform pass, then bisection where the curve bends more
//! than a fraction of a pixel from its chord, where it enters or leaves its domain, and
//! where it jumps. An interval that still changes by more than [`JUMP_PX`] pixels when it
//! is narrower than a hundredth of a pixel is a jump or a pole: the path is broken
//! there, so `1/x`, `tan x` and `floor x` show no vertical spikes.

use crate::expr::{BinOp, Constant, Expr, Function};

/// Deepest value stack a program may need.
pub const MAX_STACK: usize = 48;
/// Most operations in one program.
pub const MAX_OPS: usize = 400;

/// One operation of a [`Program`] (postfix order).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    /// Push a number.
    Num(f64),
    /// Push the program's argument (the curve's variable).
    Arg,
    /// Push value number `n` of the scope.
    Slot(u16),
    /// Negate the top.
    Neg,
    /// Pop b, pop a, push `a op b`.
    Bin(BinOp),
    /// Apply a built-in function to the top.
    Fn(Function),
    /// Pop `n` values, push the smallest.
    Min(u8),
    /// Pop `n` values, push the largest.
    Max(u8),
    /// Pop the argument, push function number `n` of the scope at it.
    Call(u16),
    /// Pop x, pop y, push atan2(y, x).
    Atan2,
}

/// What a name in an expression means, for [`Program::compile`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved {
    /// The program's argument.
    Arg,
    /// Value number `n`.
    Slot(u16),
    /// Function number `n` (of one argument).
    Func(u16),
}

/// A compiled expression.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Program {
    /// The operations, in postfix order.
    pub ops: Vec<Op>,
}

/// Why an expression could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompileError {
    /// A name the resolver does not know (`called`: written as `name(…)`).
    Unknown {
        /// The name.
        name: String,
        /// Whether it was called.
        called: bool,
    },
    /// A call with the wrong number of arguments, or a vector literal.
    Shape(String),
    /// More than [`MAX_OPS`] operations or a stack deeper than [`MAX_STACK`].
    TooLarge,
}

impl Program {
    /// Compiles `expr`, resolving each name (`called` when written as `name(…)`).
    pub fn compile(
        expr: &Expr,
        resolve: &dyn Fn(&str, bool) -> Option<Resolved>,
    ) -> Result<Program, CompileError> {
        let mut p = Program::default();
        p.emit(expr, resolve)?;
        if p.ops.len() > MAX_OPS || p.max_stack().is_none() {
            return Err(CompileError::TooLarge);
        }
        Ok(p)
    }

    fn emit(
        &mut self,
        expr: &Expr,
        resolve: &dyn Fn(&str, bool) -> Option<Resolved>,
    ) -> Result<(), CompileError> {
        if self.ops.len() > MAX_OPS {
            return Err(CompileError::TooLarge);
        }
        let unknown = |name: &str, called: bool| CompileError::Unknown {
            name: name.into(),
            called,
        };
        match expr {
            Expr::Number(n) => self.ops.push(Op::Num(*n)),
            Expr::Constant(c) => self.ops.push(Op::Num(match c {
                Constant::Pi => core::f64::consts::PI,
                Constant::E => core::f64::consts::E,
            })),
            Expr::Variable(name) => match resolve(name, false) {
                Some(Resolved::Arg) => self.ops.push(Op::Arg),
                Some(Resolved::Slot(n)) => self.ops.push(Op::Slot(n)),
                Some(Resolved::Func(_)) => {
                    return Err(CompileError::Shape(
                        "`".to_string() + name + "` is a function: write `" + name + "(x)`",
                    ))
                }
                None => return Err(unknown(name, false)),
            },
            Expr::Neg(a) => {
                self.emit(a, resolve)?;
                self.ops.push(Op::Neg);
            }
            Expr::Binary(op, a, b) => {
                self.emit(a, resolve)?;
                self.emit(b, resolve)?;
                self.ops.push(Op::Bin(*op));
            }
            Expr::Call(f, a) => {
                self.emit(a, resolve)?;
                self.ops.push(Op::Fn(*f));
            }
            Expr::Apply(name, args) => {
                let n = args.len();
                let resolved = resolve(name, true);
                if resolved.is_none() && name == "atan2" {
                    if n != 2 {
                        return Err(CompileError::Shape(
                            "`atan2` takes two arguments, `atan2(y, x)`".into(),
                        ));
                    }
                    for a in args {
                        self.emit(a, resolve)?;
                    }
                    self.ops.push(Op::Atan2);
                    return Ok(());
                }
                if resolved.is_none() && (name == "min" || name == "max") {
                    for a in args {
                        self.emit(a, resolve)?;
                    }
                    let n = u8::try_from(n).map_err(|_| CompileError::TooLarge)?;
                    self.ops.push(if name == "min" {
                        Op::Min(n)
                    } else {
                        Op::Max(n)
                    });
                    return Ok(());
                }
                match resolved {
                    Some(Resolved::Func(i)) => {
                        if n != 1 {
                            return Err(CompileError::Shape(
                                "`".to_string() + name + "` takes one argument",
                            ));
                        }
                        for a in args {
                            self.emit(a, resolve)?;
                        }
                        self.ops.push(Op::Call(i));
                    }
                    Some(_) => {
                        return Err(CompileError::Shape(
                            "`".to_string()
                                + name
                                + "` is a value, not a function: to multiply, write `"
                                + name
                                + "*(…)`",
                        ))
                    }
                    None => return Err(unknown(name, true)),
                }
            }
            Expr::Vector(_) => {
                return Err(CompileError::Shape(
                    "a plot works with numbers: `[…]` lists are not allowed here".into(),
                ))
            }
        }
        Ok(())
    }

    /// The deepest stack the program needs; `None` when it is malformed (pops from an
    /// empty stack, leaves other than one value) or deeper than [`MAX_STACK`].
    pub fn max_stack(&self) -> Option<usize> {
        let mut depth: usize = 0;
        let mut max = 0;
        for op in &self.ops {
            let (pop, push) = match op {
                Op::Num(_) | Op::Arg | Op::Slot(_) => (0, 1),
                Op::Neg | Op::Fn(_) | Op::Call(_) => (1, 1),
                Op::Bin(_) | Op::Atan2 => (2, 1),
                Op::Min(n) | Op::Max(n) => (usize::from(*n), 1),
            };
            if pop > depth || (pop == 0 && push == 1 && matches!(op, Op::Min(0) | Op::Max(0))) {
                return None;
            }
            depth = depth - pop + push;
            max = max.max(depth);
        }
        (depth == 1 && max <= MAX_STACK).then_some(max)
    }

    /// The value at `arg`, with values `slots` and functions `funcs` (a call to function
    /// `n` evaluates `funcs[n]` with the functions before it). NaN when undefined.
    pub fn eval(&self, arg: f64, slots: &[f64], funcs: &[Program]) -> f64 {
        let mut stack = [0.0f64; MAX_STACK];
        let mut top = 0usize; // number of values on the stack
        for op in &self.ops {
            let v = match *op {
                Op::Num(n) => n,
                Op::Arg => arg,
                Op::Slot(i) => slots.get(usize::from(i)).copied().unwrap_or(f64::NAN),
                Op::Neg | Op::Fn(_) | Op::Call(_) => {
                    let Some(a) = top.checked_sub(1).and_then(|t| stack.get(t)).copied() else {
                        return f64::NAN;
                    };
                    top -= 1;
                    match *op {
                        Op::Neg => -a,
                        Op::Fn(f) => apply(f, a),
                        Op::Call(i) => {
                            let i = usize::from(i);
                            match (funcs.get(i), funcs.get(..i)) {
                                (Some(p), Some(before)) => p.eval(a, slots, before),
                                _ => f64::NAN,
                            }
                        }
                        _ => f64::NAN,
                    }
                }
                Op::Bin(_) | Op::Atan2 => {
                    let (Some(&a), Some(&b)) = (
                        top.checked_sub(2).and_then(|t| stack.get(t)),
                        top.checked_sub(1).and_then(|t| stack.get(t)),
                    ) else {
                        return f64::NAN;
                    };
                    top -= 2;
                    match *op {
                        Op::Bin(BinOp::Add) => a + b,
                        Op::Bin(BinOp::Sub) => a - b,
                        Op::Bin(BinOp::Mul) => a * b,
                        Op::Bin(BinOp::Div) => a / b,
                        Op::Bin(BinOp::Pow) => pow(a, b),
                        _ => crate::trig::atan2(a, b),
                    }
                }
                Op::Min(n) | Op::Max(n) => {
                    let n = usize::from(n);
                    let Some(from) = top.checked_sub(n) else {
                        return f64::NAN;
                    };
                    let values = stack.get(from..top).unwrap_or(&[]);
                    let v = if matches!(op, Op::Min(_)) {
                        values.iter().copied().fold(f64::INFINITY, f64::min)
                    } else {
                        values.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                    };
                    top = from;
                    v
                }
            };
            match stack.get_mut(top) {
                Some(slot) => *slot = v,
                None => return f64::NAN,
            }
            top += 1;
        }
        if top == 1 {
            stack.first().copied().unwrap_or(f64::NAN)
        } else {
            f64::NAN
        }
    }
}

/// A built-in function, with the bundle's own `sin`/`cos` (see the module docs); NaN
/// outside its domain.
pub fn apply(f: Function, x: f64) -> f64 {
    use crate::trig::{cos, sin};
    match f {
        Function::Sin => sin(x),
        Function::Cos => cos(x),
        Function::Tan => sin(x) / cos(x),
        Function::Tanh => {
            if x.abs() > 20.0 {
                x.signum()
            } else {
                let e = (2.0 * x).exp();
                (e - 1.0) / (e + 1.0)
            }
        }
        Function::Atan => crate::trig::atan(x),
        Function::Exp => x.exp(),
        Function::Ln | Function::Log => x.ln(),
        Function::Log2 => x.ln() / core::f64::consts::LN_2,
        Function::Log10 => x.ln() / core::f64::consts::LN_10,
        Function::Sqrt => x.sqrt(),
        Function::Abs => x.abs(),
        Function::Floor => x.floor(),
        Function::Ceil => x.ceil(),
    }
}

/// aᵇ: exact repeated squaring for whole exponents up to 64 in size and for every whole
/// exponent of a power of two (2⁷⁰ is 1180591620717411303424), `exp(b·ln |a|)` otherwise
/// (NaN for a negative base with a fractional exponent). A result beyond the largest
/// double is ±∞, never a finite stand-in such as 1.797…e308.
pub fn pow(a: f64, b: f64) -> f64 {
    let whole = b == b.trunc() && b.is_finite();
    let power_of_two = a != 0.0 && a.is_finite() && a.to_bits() & ((1u64 << 52) - 1) == 0;
    if whole && (b.abs() <= 64.0 || (power_of_two && b.abs() < 1.8e19)) {
        let mut n = b.abs() as u64;
        // A power of two's reciprocal is exact: 2⁻¹⁰⁷⁴ stays the smallest double.
        let invert_first = b < 0.0 && power_of_two;
        let mut base = if invert_first { 1.0 / a } else { a };
        let mut acc = 1.0;
        while n > 0 {
            if n & 1 == 1 {
                acc *= base;
            }
            n >>= 1;
            if n > 0 {
                base *= base;
            }
        }
        return if b < 0.0 && !invert_first {
            1.0 / acc
        } else {
            acc
        };
    }
    if a == 0.0 {
        return if b > 0.0 { 0.0 } else { f64::INFINITY };
    }
    let odd = whole && (b * 0.5).fract() != 0.0;
    if a < 0.0 && !whole {
        return f64::NAN;
    }
    let log = b * a.abs().ln();
    // ln of the largest double: beyond it the true result overflows.
    let v = if log > 709.782_712_893_384 {
        f64::INFINITY
    } else {
        log.exp()
    };
    if a < 0.0 && odd {
        -v
    } else {
        v
    }
}

/// Central-difference slope of `f` at `x` with step `h`; NaN ("undefined") where `f`
/// has no derivative: `f` undefined at or next to `x` (a pole of `1/x` or `1/x²`), or
/// the slopes from the left and from the right disagreeing by more than a smooth curve
/// can over `h` (a jump of `floor x`, the corner of `|x|`). A central difference alone
/// would read 10¹⁰ at the pole of `1/x` and 0 at that of `1/x²`.
pub fn slope(f: &dyn Fn(f64) -> f64, x: f64, h: f64) -> f64 {
    let (left, mid, right) = (f(x - h), f(x), f(x + h));
    if !(left.is_finite() && mid.is_finite() && right.is_finite()) {
        return f64::NAN;
    }
    let (from_left, from_right) = ((mid - left) / h, (right - mid) / h);
    // Smooth: the one-sided slopes differ by about f''·h, far below a thousandth of the
    // slope (or of 1) at the steps the plot uses (a millionth of the window).
    let scale = 1.0f64.max(from_left.abs()).max(from_right.abs());
    if (from_left - from_right).abs() > 1e-3 * scale {
        return f64::NAN;
    }
    (right - left) / (2.0 * h)
}

/// ∫ₐᵇ f by the composite Simpson rule on `n` intervals (`n` made even; NaN when `f`
/// is undefined somewhere on the grid). Negative when b < a.
pub fn integral(f: &dyn Fn(f64) -> f64, a: f64, b: f64, n: usize) -> f64 {
    let n = (n.max(2) + 1) & !1;
    let h = (b - a) / n as f64;
    let mut sum = f(a) + f(b);
    for i in 1..n {
        let w = if i % 2 == 1 { 4.0 } else { 2.0 };
        sum += w * f(a + h * i as f64);
    }
    sum * h / 3.0
}

/// A tick spacing of 1, 2 or 5 × 10ᵏ giving about `target` ticks over `span`.
pub fn nice_step(span: f64, target: f64) -> f64 {
    if !(span.is_finite() && span > 0.0) {
        return 1.0;
    }
    let raw = span / target.max(1.0);
    let mut p = 1.0;
    while p > raw {
        p /= 10.0;
    }
    while p * 10.0 <= raw {
        p *= 10.0;
    }
    let r = raw / p;
    p * if r < 1.5 {
        1.0
    } else if r < 3.5 {
        2.0
    } else if r < 7.5 {
        5.0
    } else {
        10.0
    }
}

/// How [`sample`] maps the curve to the screen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// x range.
    pub x: (f64, f64),
    /// y range (visible).
    pub y: (f64, f64),
    /// Width of the plot area in pixels (user units).
    pub width: f64,
    /// Height of the plot area in pixels.
    pub height: f64,
}

/// Intervals of the first, uniform pass.
pub const COARSE: usize = 96;
/// Most halvings of a coarse interval.
pub const MAX_DEPTH: u32 = 14;
/// A change of more than this many pixels across an interval narrower than
/// [`NARROW_PX`] is a jump: the path breaks there.
pub const JUMP_PX: f64 = 4.0;
/// See [`JUMP_PX`].
pub const NARROW_PX: f64 = 0.01;
/// Chord deviation (pixels) below which an interval is drawn as one segment.
pub const FLAT_PX: f64 = 0.3;
/// Most evaluations of `f` in one [`sample`] call.
pub const MAX_EVALS: usize = 2400;

/// A sampled curve: runs of (x, y) points to join, broken where `f` is undefined or
/// jumps. y values are limited to a band a few heights around the window, so a pole's
/// branches reach past the edge without huge coordinates.
pub fn sample(f: &dyn Fn(f64) -> f64, w: &Window) -> Vec<Vec<(f64, f64)>> {
    let (x0, x1) = w.x;
    let (y0, y1) = w.y;
    let sx = w.width / (x1 - x0);
    let sy = w.height / (y1 - y0);
    let band = 4.0 * (y1 - y0);
    let lim = |y: f64| {
        if y.is_finite() {
            Some(y.max(y0 - band).min(y1 + band))
        } else {
            None
        }
    };
    let mut s = Sampler {
        f,
        sx,
        sy,
        visible: (y0 - 0.5 * (y1 - y0), y1 + 0.5 * (y1 - y0)),
        evals: 0,
        runs: Vec::new(),
        run: Vec::new(),
    };
    let mut xa = x0;
    let mut ya = s.eval(xa);
    for i in 1..=COARSE {
        let xb = x0 + (x1 - x0) * i as f64 / COARSE as f64;
        let yb = s.eval(xb);
        if i == 1 {
            if let Some(y) = ya.and_then(lim) {
                s.run.push((xa, y));
            }
        }
        s.refine(xa, ya, xb, yb, 0);
        xa = xb;
        ya = yb;
    }
    s.flush();
    s.runs
        .into_iter()
        .map(|r| {
            r.into_iter()
                .map(|(x, y)| (x, lim(y).unwrap_or(y)))
                .collect()
        })
        .collect()
}

struct Sampler<'a> {
    f: &'a dyn Fn(f64) -> f64,
    sx: f64,
    sy: f64,
    visible: (f64, f64),
    evals: usize,
    runs: Vec<Vec<(f64, f64)>>,
    run: Vec<(f64, f64)>,
}

impl Sampler<'_> {
    fn eval(&mut self, x: f64) -> Option<f64> {
        self.evals += 1;
        let y = (self.f)(x);
        y.is_finite().then_some(y)
    }

    fn flush(&mut self) {
        if self.run.len() >= 2 {
            self.runs.push(core::mem::take(&mut self.run));
        } else {
            self.run.clear();
        }
    }

    /// Adds the points after `a` up to and including `b` (or breaks the run).
    fn refine(&mut self, xa: f64, ya: Option<f64>, xb: f64, yb: Option<f64>, depth: u32) {
        let budget = self.evals < MAX_EVALS;
        let narrow = (xb - xa) * self.sx < NARROW_PX || depth >= MAX_DEPTH || !budget;
        match (ya, yb) {
            (None, None) => {
                if !narrow && depth < 3 {
                    // A gap might hide a short defined stretch: look once more.
                    let xm = 0.5 * (xa + xb);
                    let ym = self.eval(xm);
                    self.refine(xa, ya, xm, ym, depth + 1);
                    self.refine(xm, ym, xb, yb, depth + 1);
                }
            }
            (Some(_), None) | (None, Some(_)) => {
                if narrow {
                    self.flush();
                    if let Some(y) = yb {
                        self.run.push((xb, y));
                    }
                    return;
                }
                // The edge of the domain is inside: find it.
                let xm = 0.5 * (xa + xb);
                let ym = self.eval(xm);
                self.refine(xa, ya, xm, ym, depth + 1);
                self.refine(xm, ym, xb, yb, depth + 1);
            }
            (Some(a), Some(b)) => {
                let dy = (b - a).abs() * self.sy;
                if narrow {
                    if dy > JUMP_PX && depth > 0 {
                        self.flush();
                    }
                    self.run.push((xb, b));
                    return;
                }
                let xm = 0.5 * (xa + xb);
                let ym = self.eval(xm);
                let bent = match ym {
                    Some(m) => ((m - 0.5 * (a + b)).abs() * self.sy) > FLAT_PX,
                    None => true,
                };
                // Entirely above or below the window: invisible, no need to refine.
                let (lo, hi) = self.visible;
                let off = |v: f64| {
                    if v > hi {
                        1
                    } else if v < lo {
                        -1
                    } else {
                        0
                    }
                };
                let side = off(a);
                if side != 0 && side == off(b) && ym.map(off) == Some(side) {
                    self.run.push((xb, b));
                    return;
                }
                // A large step on a wide interval might hide a jump even when the
                // midpoint sits on the chord.
                if bent || dy > JUMP_PX * 8.0 || (depth == 0 && dy > JUMP_PX) {
                    self.refine(xa, ya, xm, ym, depth + 1);
                    self.refine(xm, ym, xb, yb, depth + 1);
                } else {
                    self.run.push((xb, b));
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "plot_tests.rs"]
mod tests;
