//! One check being run ([`Run`]: its block, kind and options as written) and what it
//! produces ([`Line`]): shared by the kinds of check, which import it; it imports none
//! of them.

use std::ops::Range;

use serde::de::DeserializeOwned;

use super::stated;
use crate::diagnostic::Diagnostic;
use crate::directive::calc_scope::CalcScope;
use crate::directive::options::{self, RawOptions};
use crate::directive::{Block, Cx};

/// The computation line, as TeX (HTML renderer) and as plain text (others).
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// TeX, typeset inline.
    pub tex: String,
    /// Plain text.
    pub text: String,
    /// Values computed on the way that the line does not show (a `calc` block's
    /// lines): numbers in the body may state them.
    pub computed: Vec<f64>,
    /// The values a `calc` block named, which the `{calc}` roles of its body may use.
    pub scope: CalcScope,
}

/// One check being run: its block, kind and options as written. The kinds' functions
/// read their typed options and inputs through it ([`Run::options`], [`Run::core`]) and
/// compare their results with `compare`'s methods on it.
pub(super) struct Run<'c, 'a> {
    pub(super) cx: &'c Cx<'a>,
    pub(super) block: &'c Block,
    pub(super) kind: &'static str,
    pub(super) raw: RawOptions,
}

impl Run<'_, '_> {
    /// The kind's typed options, from the options already read (errors name the kind:
    /// `` `{check} dot` needs the option `b` ``).
    pub(super) fn options<T: DeserializeOwned>(&self) -> Result<T, Diagnostic> {
        options::typed(self.raw.clone(), self.block)
            .map(options::Typed::into_inner)
            .map_err(|e| {
                let message = e
                    .message
                    .replace("directive `check`", &format!("`{{check}} {}`", self.kind));
                self.cx
                    .report
                    .error(e.span, message)
                    .with_label("here")
                    .with_hint(e.hint)
            })
    }

    /// Where the value of option `key` is written (else its key, else the opener).
    pub(super) fn span(&self, key: &str) -> Range<usize> {
        stated::value_span(&self.cx.source, self.block, &self.raw, key)
            .or_else(|| self.raw.key_spans.get(key).cloned())
            .unwrap_or_else(|| self.block.opener.clone())
    }

    /// A core error about the inputs, pointing at option `key`.
    pub(super) fn core<T>(
        &self,
        result: mathcourse_core::Result<T>,
        key: &str,
    ) -> Result<T, Diagnostic> {
        result.map_err(|e| {
            self.cx
                .report.error(self.span(key), format!("cannot check this example: {e}"))
                .with_label(format!("in `{key}`"))
                .with_hint(format!(
                    "fix the inputs of this `{}` example (see the author guide for what each option means)",
                    self.kind
                ))
        })
    }
}

/// The part of `text` at `position` that a caret should cover: the name or number
/// there, else one character.
pub(crate) fn caret_len(text: &str, position: usize) -> usize {
    let rest = text.get(position..).unwrap_or("");
    let word: usize = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.')
        .map(char::len_utf8)
        .sum();
    if word > 0 {
        word
    } else {
        rest.chars().next().map_or(0, char::len_utf8)
    }
}
