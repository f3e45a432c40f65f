//! The course's interactive widgets.
//!
//! Each widget is a plain state struct built from author parameters
//! ([`Widget::from_params`]), rendered to HTML + SVG markup ([`Widget::render`]), and
//! updated by events ([`Widget::update`]). No DOM access and no wasm-bindgen here: the
//! preprocessor renders the initial state into the page at build time (readable without
//! JavaScript, no layout shift), and the thin `mathcourse-widgets-wasm` crate runs the
//! very same code in the browser, where `preprocessor/theme/mathcourse.js` turns DOM events into
//! [`Event`]s and patches the markup. Every number shown comes from `mathcourse-core`.
//!
//! ## Markup contract (what the JS loader relies on)
//! - `render(id)` returns the widget's inner HTML. Element ids are prefixed with `id`.
//! - Controls are real elements: `<input type="range" name="…">`, `<input type="number"
//!   name="…">`, `<select name="…">`, `<input type="checkbox" name="…">` (value "true" /
//!   "false" is sent), each with a `<label>`; their changes arrive as
//!   [`Event::Input`] with the `name` and the value as text.
//! - Buttons carry `data-action="…"` → [`Event::Action`].
//! - A focusable SVG element (`tabindex="0"`) with `data-key="target"` receives arrow
//!   keys → [`Event::Key`] (key names as in `KeyboardEvent.key`).
//! - An SVG element with `data-drag="target"` can be dragged (pointer and touch) →
//!   [`Event::Drag`] with coordinates in the SVG's user space (`viewBox` units).
//! - An element with `data-hover="target"` reports hover/focus → [`Event::Hover`].
//! - Readouts live in an element with `aria-live="polite"`.
//! - Colours come from CSS classes (`mc-w-…`) styled with theme variables, never inline
//!   colours, so all five mdBook themes work.
//! - A picture's labels carry their text in `data-mc-t` attributes that CSS draws
//!   ([`svg::open_label`]), never in an SVG `<text>`: shown, but not in mdBook's search
//!   index. The loader patches the attributes like any other.

#![forbid(unsafe_code)]
// `put!` munches one markup piece per step; long pictures have a few hundred.
#![recursion_limit = "512"]
#![warn(missing_docs)]
// `widgets/clippy.toml` keeps float formatting and parsing, libm's trigonometry and
// `f64::clamp` out of the wasm bundle. Tests never reach the bundle and compare with
// exactly those std functions; the library target is still checked without this allow.
#![cfg_attr(test, allow(clippy::disallowed_methods, clippy::disallowed_macros))]

mod descent;
pub mod fmt;
pub mod json;
pub mod number;
pub mod params;
pub mod svg;
#[cfg(test)]
mod testkit;

pub use json::Value;
pub use params::{ParamError, Params, Place};

/// Phase of a drag gesture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DragPhase {
    /// Pointer went down on the target.
    Start,
    /// Pointer moved while down.
    Move,
    /// Pointer released.
    End,
}

/// Something the reader did.
#[derive(Debug, Clone, PartialEq)]
pub enum Event<'a> {
    /// A control named `control` now has `value`.
    Input {
        /// The control's `name`.
        control: &'a str,
        /// Its new value, as text.
        value: &'a str,
    },
    /// A button with `data-action` was pressed.
    Action {
        /// The `data-action` value.
        action: &'a str,
    },
    /// A key pressed on a focused element with `data-key`.
    Key {
        /// The `data-key` value.
        target: &'a str,
        /// `KeyboardEvent.key`, e.g. `ArrowLeft`.
        key: &'a str,
        /// Shift held (bigger steps).
        shift: bool,
    },
    /// A drag on an element with `data-drag`, in SVG user coordinates.
    Drag {
        /// The `data-drag` value.
        target: &'a str,
        /// x in viewBox units.
        x: f64,
        /// y in viewBox units.
        y: f64,
        /// Start, move or end.
        phase: DragPhase,
    },
    /// Hover or focus entered (`Some`) or left (`None`) an element with `data-hover`.
    Hover {
        /// The `data-hover` value.
        target: Option<&'a str>,
    },
}

/// One widget kind.
pub trait Widget: Sized {
    /// Name used in `:::{widget} name`.
    const NAME: &'static str;
    /// One line for the author guide: what the widget shows.
    const SUMMARY: &'static str;
    /// The parameters it accepts: (name, type and default, meaning) for the author guide.
    const PARAMS: &'static [(&'static str, &'static str, &'static str)];

    /// The initial state from author parameters; errors name the parameter.
    fn from_params(params: &Params) -> Result<Self, ParamError>;

    /// The whole inner markup for the current state.
    fn render(&self, id: &str) -> String;

    /// Applies an event; returns true when the markup changed.
    fn update(&mut self, event: &Event) -> bool;

    /// The parameters the page carries for the browser, when they differ from the
    /// author's (`plot` sends its expressions compiled, so the bundle needs no parser).
    fn live_params(&self) -> Option<Params> {
        None
    }

    /// What the build should warn the author about (located like errors): parameters
    /// that are valid but will not show what was probably meant.
    fn warnings(&self) -> Vec<ParamError> {
        Vec::new()
    }
}

macro_rules! widgets {
    ($($variant:ident => $module:ident :: $ty:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// Any widget, chosen by name at run time.
        #[derive(Debug, Clone)]
        pub enum AnyWidget {
            $(
                #[doc = concat!("`", stringify!($module), "`")]
                $variant($module::$ty),
            )*
        }

        /// Names of all widgets, in catalog order.
        pub const NAMES: &[&str] = &[$($module::$ty::NAME,)*];

        /// Name, summary and parameters of every widget (for the author guide and errors).
        pub const CATALOG: &[(&str, &str, &[(&str, &str, &str)])] = &[
            $(($module::$ty::NAME, $module::$ty::SUMMARY, $module::$ty::PARAMS),)*
        ];

        impl AnyWidget {
            /// Builds the widget called `name`.
            pub fn new(name: &str, params: &Params) -> Result<AnyWidget, ParamError> {
                $(
                    if name == $module::$ty::NAME {
                        return Ok(AnyWidget::$variant($module::$ty::from_params(params)?));
                    }
                )*
                Err(ParamError::unknown_widget(name))
            }

            /// See [`Widget::render`].
            pub fn render(&self, id: &str) -> String {
                match self {
                    $(AnyWidget::$variant(w) => w.render(id),)*
                }
            }

            /// See [`Widget::update`].
            pub fn update(&mut self, event: &Event) -> bool {
                match self {
                    $(AnyWidget::$variant(w) => w.update(event),)*
                }
            }

            /// See [`Widget::warnings`].
            pub fn warnings(&self) -> Vec<ParamError> {
                match self {
                    $(AnyWidget::$variant(w) => w.warnings(),)*
                }
            }

            /// See [`Widget::live_params`].
            pub fn live_params(&self) -> Option<Params> {
                match self {
                    $(AnyWidget::$variant(w) => w.live_params(),)*
                }
            }
        }
    };
}

widgets! {
    Vectors => vectors::Vectors,
    MatrixShapes => matrix_shapes::MatrixShapes,
    Softmax => softmax::Softmax,
    Surprise => surprise::Surprise,
    SqrtD => sqrt_d::SqrtD,
    Gd1d => gd_1d::Gd1d,
    Gd2d => gd_2d::Gd2d,
    Attention => attention::Attention,
    Plot => plot::Plot,
}

/// Names of all widgets.
pub fn names() -> Vec<&'static str> {
    NAMES.to_vec()
}
