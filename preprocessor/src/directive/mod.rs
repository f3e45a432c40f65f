//! MyST directives and roles: parsing, the registry, and the rendering context.
//!
//! A directive module implements [`Directive`]: it reads its typed options, renders its
//! body with [`Cx::markdown`] (which handles nested directives and math), and fills a
//! tera template with [`Cx::template`]. Directive modules never import each other; the
//! only list of directives is [`registry::DIRECTIVES`].

pub mod block;
pub mod options;
pub mod registry;

mod callout;
mod check;
mod claim;
mod connection;
mod demo;
mod formula;
mod indexes;
mod inspectable;
mod lists;
mod math_block;
mod practice;
mod steps;
mod symbol_table;
mod symbols;
#[cfg(test)]
mod testkit;
mod watch;
mod widget;
mod widget_reference;

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::de::DeserializeOwned;

use crate::cache::{self, Pack};
use crate::chapter::BookContext;
use crate::config::OnError;
use crate::diagnostic::Diagnostic;
use crate::html;
use crate::math::{self, MathOptions};
use crate::scan;
use crate::templates::Slot;

pub use block::Block;

/// One kind of directive.
pub trait Directive: Sync {
    /// The name authors write in `{name}`.
    fn name(&self) -> &'static str;

    /// Renders the block for the HTML renderer: Markdown with HTML, spliced in place of
    /// the block.
    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic>;

    /// Plain Markdown with the same text, for renderers other than HTML.
    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        let mut out = String::new();
        let title = if block.argument.is_empty() {
            registry::title_case(self.name())
        } else {
            block.argument.clone()
        };
        out.push_str(&format!("**{title}**\n\n"));
        out.push_str(&cx.markdown(block.body.clone()));
        out
    }
}

/// Where an equation label points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// Chapter path inside `src/` (e.g. `toolkit/softmax.md`).
    pub chapter: PathBuf,
    /// The shown number, e.g. `6.3`.
    pub number: String,
    /// Where it was defined (for duplicate errors).
    pub defined_at: String,
}

/// Labels of the whole book, collected before rendering.
pub type Labels = HashMap<String, Label>;

/// Per-chapter rendering state handed to every directive.
pub struct Cx<'a> {
    /// The chapter source.
    pub source: Arc<str>,
    /// Path shown in diagnostics.
    pub display_path: &'a Path,
    /// Chapter path inside `src/`.
    pub chapter_path: &'a Path,
    /// Book-wide settings.
    pub book: &'a BookContext,
    /// Math options for this chapter (book + chapter macros).
    pub math_options: &'a MathOptions,
    /// Their fingerprint.
    pub fingerprint: &'a str,
    /// Formula cache pack of this chapter.
    pub pack: Pack,
    /// Problems found so far.
    pub diagnostics: Vec<Diagnostic>,
    /// True for the HTML renderer; false: degrade to plain Markdown.
    pub html: bool,
    /// Counter for generated element ids.
    pub next_id: usize,
    /// Per-kind counters the notation collector mirrors (claim and formula ids).
    pub counters: crate::notation::Counters,
    /// Element ids handed out by [`Cx::first_anchor`].
    pub anchors: std::collections::HashSet<String>,
}

impl<'a> Cx<'a> {
    /// An error diagnostic at `span`.
    pub fn error(&self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.display_path, &self.source, span, message)
    }

    /// A warning diagnostic at `span`.
    pub fn warning(&self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::warning(self.display_path, &self.source, span, message)
    }

    /// A fresh id for an element of this chapter (`mc-3`).
    pub fn fresh_id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("mc-{prefix}-{}", self.next_id)
    }

    /// `id` the first time it is asked for in this chapter, `None` afterwards (the first
    /// element defining a symbol carries its anchor; later ones must not repeat the id).
    pub fn first_anchor(&mut self, id: String) -> Option<String> {
        self.anchors.insert(id.clone()).then_some(id)
    }

    /// The typed options of `block`.
    pub fn options<T: DeserializeOwned>(&self, block: &Block) -> Result<T, Diagnostic> {
        let raw = options::raw_options(&self.source, block)
            .map_err(|e| self.error(e.span, e.message).with_hint(e.hint))?;
        options::typed(&raw, block).map_err(|e| {
            self.error(e.span, e.message)
                .with_label("here")
                .with_hint(e.hint)
        })
    }

    /// The options of `block` written as a YAML list of mappings (`- {key: value}`):
    /// each item typed, with its keys' spans. No options give an empty list.
    #[allow(clippy::result_large_err)] // the crate-wide `Diagnostic` error type
    pub fn list_options<T: DeserializeOwned>(
        &self,
        block: &Block,
    ) -> Result<Vec<(T, options::RawItem)>, Diagnostic> {
        let items = options::raw_list(&self.source, block)
            .map_err(|e| self.error(e.span, e.message).with_hint(e.hint))?;
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            let typed = options::typed_item(&item, i, block).map_err(|e| {
                self.error(e.span, e.message)
                    .with_label("here")
                    .with_hint(e.hint)
            })?;
            out.push((typed, item));
        }
        Ok(out)
    }

    /// Renders `source[region]` (a chapter body or a directive body): nested directives,
    /// math and roles; every other byte unchanged.
    pub fn markdown(&mut self, region: Range<usize>) -> String {
        let source = self.source.clone();
        let (blocks, unclosed) = block::find_blocks(&source, region.clone());
        for u in unclosed {
            let d = self
                .error(u.opener.clone(), format!("directive `{}` is never closed", u.name))
                .with_label("opened here")
                .with_hint(format!(
                    "end the block with a line `{}`; a nested directive needs its own closing line first",
                    u.fence
                ));
            self.diagnostics.push(d);
        }
        let mut out = String::new();
        let mut pos = region.start;
        for b in &blocks {
            out.push_str(&self.plain(pos..b.range.start));
            out.push_str(&self.directive(b));
            pos = b.range.end;
        }
        out.push_str(&self.plain(pos..region.end));
        out
    }

    fn directive(&mut self, block: &Block) -> String {
        let Some(directive) = registry::find(&block.name) else {
            let d = self
                .error(
                    block.name_span.clone(),
                    format!("unknown directive `{}`", block.name),
                )
                .with_label("not a mathcourse directive")
                .with_hint(registry::unknown_hint(&block.name));
            self.diagnostics.push(d);
            return self.source[block.range.clone()].to_string();
        };
        if !self.html {
            return directive.degrade(block, self);
        }
        match directive.render(block, self) {
            Ok(markup) => markup,
            Err(d) => {
                self.diagnostics.push(d);
                self.source[block.range.clone()].to_string()
            }
        }
    }

    /// Math and roles in a stretch of Markdown without directives.
    fn plain(&mut self, region: Range<usize>) -> String {
        if region.is_empty() {
            return String::new();
        }
        let source = self.source.clone();
        if !self.html {
            let found = scan::scan_region(&source, region.clone());
            let mut replacements = Vec::new();
            for role in &found.roles {
                replacements.push((role.range.clone(), self.degrade_role(role)));
            }
            return crate::chapter::splice(&source[region.clone()], region.start, &replacements);
        }
        let found = scan::scan_region(&source, region.clone());
        let shown = found.declined.len().min(crate::chapter::MAX_DECLINED_SHOWN);
        for pair in &found.declined[..shown] {
            let d = crate::chapter::declined_diagnostic(self, pair);
            self.diagnostics.push(d);
        }
        if let Some(last) = found.declined.get(shown) {
            let d =
                crate::chapter::more_declined_diagnostic(self, last, found.declined.len() - shown);
            self.diagnostics.push(d);
        }
        let mut replacements: Vec<(Range<usize>, String)> = Vec::new();
        for span in &found.math {
            let display = span.delimiter.is_display();
            if let Some(html) = self.formula(&span.tex, display, span) {
                replacements.push((span.range.clone(), html));
            }
        }
        // Math in HTML comments, typeset as mdbook-katex does; invisible, so its errors
        // are not reported (the comment keeps its TeX).
        for span in &found.commented {
            let display = span.delimiter.is_display();
            let key = cache::key(self.fingerprint, display, &span.tex);
            let options = self.math_options;
            let rendered = self
                .pack
                .get_or_render(&key, || math::render(&span.tex, display, options));
            if let Ok(html) = rendered {
                replacements.push((span.range.clone(), html));
            }
        }
        for role in &found.roles {
            if let Some(html) = self.role(role) {
                replacements.push((role.range.clone(), html));
            }
        }
        replacements.sort_by_key(|r| r.0.start);
        crate::chapter::splice(&source[region.clone()], region.start, &replacements)
    }

    /// Renders one formula found in the source (Markdown-safe), reporting errors.
    fn formula(&mut self, tex: &str, display: bool, span: &scan::MathSpan) -> Option<String> {
        if tex.contains('\\') {
            self.check_commands(tex, span);
        }
        let key = cache::key(self.fingerprint, display, tex);
        let options = self.math_options;
        match self
            .pack
            .get_or_render(&key, || math::render(tex, display, options))
        {
            Ok(html) => Some(html),
            Err(err) => {
                let d = crate::chapter::math_diagnostic(self, span, &err);
                self.diagnostics.push(d);
                (self.book.on_error == OnError::Warn)
                    .then(|| crate::chapter::error_box(span, &err, &self.book.error_color))
            }
        }
    }

    /// Reports the commands an author may not write in math (`\href`, `\htmlData`, ...):
    /// KaTeX's trust is granted only to the symbol tags mathcourse emits.
    fn check_commands(&mut self, tex: &str, span: &scan::MathSpan) {
        for (name, range) in crate::inspect::forbidden_commands(tex) {
            if name == "\\htmlData" && tex[range.end..].starts_with("{mc-sym=") {
                continue;
            }
            let at = match span.tex_offset {
                Some(o) => o + range.start..o + range.end,
                None => span.range.clone(),
            };
            let d = self
                .error(at, format!("`{name}` is not allowed in this book's math"))
                .with_label("KaTeX will not trust this command")
                .with_hint("links and HTML attributes in formulas are switched off for safety; put links in the text around the formula, and use `\\sym{id}{...}` to mark a symbol");
            self.diagnostics.push(d);
        }
    }

    /// Renders TeX given in a directive option (`span` locates it) to HTML for use inside
    /// a template's HTML.
    pub fn option_math(&mut self, tex: &str, display: bool, span: Range<usize>) -> String {
        let math_span = scan::MathSpan {
            range: span,
            tex: tex.to_string(),
            tex_offset: None,
            delimiter: if display {
                scan::Delimiter::DoubleDollar
            } else {
                scan::Delimiter::Dollar
            },
        };
        self.formula(tex, display, &math_span).unwrap_or_default()
    }

    /// Renders short author text from an option (inline Markdown with math) to safe
    /// HTML: raw HTML is shown as text, links must be http(s), mailto or relative.
    pub fn inline(&mut self, text: &str, span: Range<usize>) -> String {
        crate::inline::render(text, span, self)
    }

    /// Fills template `name` with `context`; slots are Markdown placed between the
    /// template's HTML (see [`crate::templates`]).
    pub fn template(
        &mut self,
        name: &str,
        context: tera::Context,
        slots: Vec<Slot>,
        span: Range<usize>,
    ) -> Result<String, Diagnostic> {
        self.book
            .templates
            .render(name, context, slots)
            .map_err(|e| {
                self.error(span, format!("template `{name}.html` failed"))
                    .with_label(e)
                    .with_hint("if the book overrides this template, check its syntax (tera); otherwise this is a bug")
            })
    }

    fn role(&mut self, role: &scan::RoleSpan) -> Option<String> {
        match role.name.as_str() {
            "eq" => {
                let label = role.content.trim();
                match self.book.labels.get(label) {
                    Some(target) => {
                        let href = format!(
                            "{}#{}",
                            relative_html_path(self.chapter_path, &target.chapter),
                            html::escape(label)
                        );
                        Some(format!(
                            "<a class=\"mc-eqref\" href=\"{}\">({})</a>",
                            href,
                            html::escape(&target.number)
                        ))
                    }
                    None => {
                        let known: Vec<&str> =
                            self.book.labels.keys().map(String::as_str).collect();
                        let list = known
                            .iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ");
                        let d = self
                            .error(
                                role.range.clone(),
                                format!("unknown equation label `{label}`"),
                            )
                            .with_label("no `math` or `formula` block has this label")
                            .with_hint(format!(
                                "give an equation `:label: {label}`{}",
                                options::did_you_mean(label, &list)
                            ));
                        self.diagnostics.push(d);
                        None
                    }
                }
            }
            other => {
                let d = self
                    .error(role.name_span.clone(), format!("unknown role `{other}`"))
                    .with_hint(format!(
                        "roles are written {{name}}`text`; known roles: `eq`{}",
                        options::did_you_mean(other, "`eq`")
                    ));
                self.diagnostics.push(d);
                None
            }
        }
    }

    fn degrade_role(&self, role: &scan::RoleSpan) -> String {
        match (
            role.name.as_str(),
            self.book.labels.get(role.content.trim()),
        ) {
            ("eq", Some(target)) => format!("({})", target.number),
            _ => role.content.clone(),
        }
    }
}

/// Relative link from chapter `from` to the HTML page of chapter `to` (both inside `src/`).
pub fn relative_html_path(from: &Path, to: &Path) -> String {
    let mut target = to.with_extension("html");
    if target.file_name().is_some_and(|n| n == "README.html") {
        target.set_file_name("index.html");
    }
    if from == to {
        return String::new();
    }
    let depth = from.components().count().saturating_sub(1);
    let mut out = "../".repeat(depth);
    out.push_str(&target.to_string_lossy().replace('\\', "/"));
    out
}

/// Collects `label` options of `math` and `formula` blocks in one chapter, in order.
pub fn collect_labels(source: &str, start: usize) -> Vec<(String, Range<usize>)> {
    let mut out = Vec::new();
    collect_labels_in(source, start..source.len(), &mut out);
    out
}

fn collect_labels_in(source: &str, region: Range<usize>, out: &mut Vec<(String, Range<usize>)>) {
    let (blocks, _) = block::find_blocks(source, region);
    for b in blocks {
        if b.name == "math" || b.name == "formula" {
            if let Ok(raw) = options::raw_options(source, &b) {
                if let Some(serde_json::Value::String(label)) = raw.value.get("label") {
                    let span = raw
                        .key_spans
                        .get("label")
                        .cloned()
                        .unwrap_or(b.opener.clone());
                    out.push((label.clone(), span));
                }
            }
        }
        collect_labels_in(source, b.body.clone(), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        assert_eq!(
            relative_html_path(Path::new("a.md"), Path::new("b/c.md")),
            "b/c.html"
        );
        assert_eq!(
            relative_html_path(Path::new("b/c.md"), Path::new("a.md")),
            "../a.html"
        );
        assert_eq!(
            relative_html_path(Path::new("x/y.md"), Path::new("x/y.md")),
            ""
        );
        assert_eq!(
            relative_html_path(Path::new("y.md"), Path::new("d/README.md")),
            "d/index.html"
        );
    }

    #[test]
    fn labels_in_order_including_nested() {
        let src = ":::{math}\n:label: eq-a\nx\n:::\n::::{practice} P\n:::{formula} F\n:label: eq-b\n:tex: y\n:::\n::::\n";
        let labels: Vec<String> = collect_labels(src, 0).into_iter().map(|l| l.0).collect();
        assert_eq!(labels, vec!["eq-a", "eq-b"]);
    }
}
