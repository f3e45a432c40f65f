//! Symbols as data: one typed record per symbol a chapter introduces.
//!
//! The `symbols` chip strip and the `symbol-table` directive both read their YAML list
//! into [`Symbol`] (see `directive::symbol_list`); the book-wide notation is built
//! from the same records.

use serde::Deserialize;

/// One symbol, as written in a `symbols` or `symbol-table` list item.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Symbol {
    /// Stable identifier (letters, digits, `-`, `_`); the chip's HTML id is `sym-<id>`.
    pub id: String,
    /// The symbol in TeX, e.g. `\mathbf{x}`.
    pub tex: String,
    /// What the symbol is called: "Input vector" (the chip, legends, the index).
    #[serde(default)]
    pub name: String,
    /// How to read it aloud: "x sub t" (the table's "Read it as" column, and the
    /// spoken text where only the glyph is shown).
    #[serde(default)]
    pub read: String,
    /// What it means (required in `symbol-table`).
    #[serde(default)]
    pub meaning: Option<String>,
    /// The same thing in code, e.g. `np.linalg.norm(x)`.
    #[serde(default)]
    pub code: Option<String>,
    /// Its shape, e.g. `(n, k)` (TeX).
    #[serde(default)]
    pub shape: Option<String>,
    /// True when the same TeX deliberately means something else elsewhere in the book
    /// (σ the activation, σ the standard deviation); without it the build warns.
    #[serde(default)]
    pub overloaded: bool,
}

impl Symbol {
    /// What it is called: `name`, else `read`.
    pub fn called(&self) -> &str {
        if self.name.trim().is_empty() {
            &self.read
        } else {
            &self.name
        }
    }

    /// How it is read aloud: `read`, else `name`.
    pub fn spoken(&self) -> &str {
        if self.read.trim().is_empty() {
            &self.name
        } else {
            &self.read
        }
    }
}
