//! The values a `{check} calc` block computed, by name: the `{calc}` roles in the
//! block's body may use them. Data the rendering context carries while that body
//! renders (`cx.calc_scope`), written and read by the `check` directive.

/// A computed value.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// A number.
    Scalar(f64),
    /// A vector.
    Vector(Vec<f64>),
}

/// The values a `calc` block computed, by name, in the order they were defined.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CalcScope(pub(crate) Vec<(String, Val)>);
