//! The diagnostics of one chapter while it renders: where they point (the chapter's
//! source and the path shown) and what was found so far. The part of the rendering
//! context every directive reports through (`cx.report`).

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use crate::diagnostic::Diagnostic;

/// The diagnostics of one chapter.
pub struct Report<'a> {
    /// The chapter source the spans point into.
    pub(crate) source: Arc<str>,
    /// Path shown in diagnostics.
    pub(crate) path: &'a Path,
    /// Problems found so far.
    pub(crate) diagnostics: Vec<Diagnostic>,
}

impl Report<'_> {
    /// An error diagnostic at `span` (not yet reported: see [`Report::push`]).
    pub fn error(&self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.path, &self.source, span, message)
    }

    /// A warning diagnostic at `span` (not yet reported: see [`Report::push`]).
    pub fn warning(&self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::warning(self.path, &self.source, span, message)
    }

    /// Reports `d`.
    pub fn push(&mut self, d: Diagnostic) {
        self.diagnostics.push(d);
    }
}
