//! What the scanners share: a formula found in the source, and the Markdown options
//! mdBook renders with (a leaf: `scan` and its passes import it).

use std::ops::Range;

use pulldown_cmark::Options;

/// Which delimiter introduced a formula.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delimiter {
    /// `$...$`
    Dollar,
    /// `$$...$$`
    DoubleDollar,
    /// `\(...\)`
    Paren,
    /// `\[...\]`
    Bracket,
}

impl Delimiter {
    /// True for display (block) math.
    pub fn is_display(self) -> bool {
        matches!(self, Delimiter::DoubleDollar | Delimiter::Bracket)
    }

    /// Human name used in diagnostics.
    pub fn describe(self) -> &'static str {
        if self.is_display() {
            "display math"
        } else {
            "inline math"
        }
    }
}

/// One formula found in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MathSpan {
    /// Bytes to replace, delimiters included.
    pub range: Range<usize>,
    /// The TeX between the delimiters.
    pub tex: String,
    /// Byte offset of `tex` in the source when `tex` is a verbatim slice of it
    /// (used to point diagnostics at the exact character).
    pub tex_offset: Option<usize>,
    /// The delimiter used.
    pub delimiter: Delimiter,
}

/// The Markdown options mdBook 0.5 renders with, plus math.
pub fn markdown_options() -> Options {
    structure_options() | Options::ENABLE_MATH
}

/// The Markdown options mdBook 0.5 renders with, without math and smart punctuation.
pub fn mdbook_options() -> Options {
    structure_options()
}

/// The Markdown options mdBook 0.5 renders with (no math: mdBook does not parse it, and
/// dollars are paired by this module).
pub(super) fn structure_options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_DEFINITION_LIST
        | Options::ENABLE_GFM
}
