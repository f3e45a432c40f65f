//! `mathcourse-tex`: symbol tagging for inspectable formulas.
//!
//! An inspectable formula lets the reader point at any symbol and see what it means. The
//! book has a registry of symbols (an id and its TeX, e.g. `theta-t` → `\theta_t`); [`tag`]
//! wraps every occurrence of a registered symbol in the formula's TeX as
//! `\htmlData{mc-sym=<id>}{...}`, so KaTeX emits `<span data-mc-sym="<id>">` around it.
//!
//! The work happens in three steps:
//!
//! 1. **Tokenize** the TeX the way KaTeX does (control words, control symbols, whitespace
//!    runs, single characters; `%` comments dropped), remembering each token's bytes.
//! 2. **Normalize** so that every argument is a braced group: `x_i` → `x_{i}`,
//!    `\frac12` → `\frac{1}{2}`, `\mathbf x` → `\mathbf{x}`. Only braces are inserted (and
//!    whitespace between a command and its argument dropped), so KaTeX renders the result
//!    exactly like the input. Each token is annotated with what it is: an argument brace,
//!    part of an opaque argument (`\text{...}`, `\operatorname{...}`, the `x` of
//!    `\mathbf{x}`), a `\left`/`\right` delimiter, ...
//! 3. **Match** the registered symbols (tokenized and normalized the same way) against the
//!    formula, longest first, leftmost, never overlapping, and never where wrapping would
//!    change how KaTeX parses the formula (across `&`, between a command and its argument,
//!    around half of a `\left ... \right` pair, ...).
//!
//! Authors can override the automatic tagging with `\sym{id}{tex}` (tag `tex` as `id`) and
//! `\nosym{tex}` (never tag inside `tex`). Everything here is pure: no I/O, no global state, no
//! dependency but `strsim` (the "did you mean" of an unknown `\sym` id), and no panics on
//! any input.
//!
//! One module per step: `token` (step 1), `commands` (the command tables steps 2 and 3
//! read), `normalize` (step 2), `matching` (step 3 and the tagged TeX) and `output`
//! (tokens joined back into TeX).

mod commands;
mod matching;
mod normalize;
mod output;
mod token;

pub use commands::is_greek;
pub use matching::{tag, Pattern, PatternIndex, Tagged, Undefined};
pub use normalize::{key, normalize, Problem};
pub use token::forbidden_commands;

#[cfg(test)]
mod corpus;
#[cfg(test)]
mod random;
#[cfg(test)]
mod testkit;
