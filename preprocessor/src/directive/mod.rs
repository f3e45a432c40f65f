//! MyST directives and roles: parsing, the registry, and the rendering context.
//!
//! A directive module implements [`Directive`]: it reads its typed options, renders its
//! body with [`Cx::markdown`] (which handles nested directives and math), and fills a
//! tera template with [`Cx::template`]. Directive modules never import each other (what
//! several share, such as [`status`], lives in a module of its own); the only list of
//! directives is [`registry::DIRECTIVES`], which sits above them all.

pub mod block;
pub mod options;
pub mod registry;

pub(crate) mod calc_scope;
mod callout;
mod check;
mod claim;
mod connection;
pub(crate) mod contribute;
mod demo;
mod equation_ref;
mod formula;
pub(crate) mod ids;
mod indexes;
pub(crate) mod inline;
mod inspectable;
mod lists;
mod math_block;
pub(crate) mod math_errors;
pub(crate) mod mathjax_math;
mod practice;
pub(crate) mod report;
pub(crate) mod status;
mod steps;
mod symbol_list;
mod symbol_table;
mod symbols;
#[cfg(test)]
mod testkit;
pub(crate) mod typeset;
mod watch;
mod widget;
mod widget_reference;

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use serde::de::DeserializeOwned;

use crate::context::BookContext;
use crate::diagnostic::Diagnostic;
use crate::scan;
use crate::templates::Slot;

pub use block::Block;
use calc_scope::CalcScope;
use ids::Ids;
use report::Report;
use typeset::Typeset;

/// One kind of directive.
pub trait Directive: Sync {
    /// The name authors write in `{name}`.
    fn name(&self) -> &'static str;

    /// Renders the block for the HTML renderer: Markdown with HTML, spliced in place of
    /// the block.
    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic>;

    /// False for a directive whose argument (the text after `{name}`) has no meaning:
    /// an argument is then an error, never silently dropped.
    fn takes_argument(&self) -> bool {
        true
    }

    /// False for a directive whose content is all in its options: a body is then an
    /// error, never silently dropped.
    fn takes_body(&self) -> bool {
        true
    }

    /// What this block adds to the whole book before any chapter renders: symbols it
    /// defines, a claim, an equation label (see [`contribute`]). Most add nothing.
    fn contribute(&self, _block: &Block, _source: &str, _out: &mut contribute::Contribution) {}

    /// The id of this block's element, when other pages link to it; `n` counts the
    /// blocks of this directive in the chapter, from 1. Counted once, in [`contribute`].
    fn anchor(&self, _block: &Block, _source: &str, _n: usize) -> Option<String> {
        None
    }

    /// Plain Markdown with the same text, for renderers other than HTML.
    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        let mut out = String::new();
        let title = if block.argument.is_empty() {
            title_case(self.name())
        } else {
            block.argument.clone()
        };
        out.push_str(&format!("**{title}**\n\n"));
        out.push_str(&cx.markdown(block.body.clone()));
        out
    }
}

pub use crate::context::{Label, Labels};

/// Per-chapter rendering state handed to every directive: the chapter, the book, and
/// the parts a directive uses by job: `report` (diagnostics), `ids` (element ids),
/// `math` (typesetting); [`Cx::markdown`] renders a body (nested directives, math and
/// roles).
pub struct Cx<'a> {
    /// The chapter source.
    pub(crate) source: Arc<str>,
    /// Chapter path inside `src/`.
    pub(crate) chapter_path: &'a Path,
    /// Book-wide settings.
    pub(crate) book: &'a BookContext,
    /// True for the HTML renderer; false: degrade to plain Markdown.
    pub(crate) html: bool,
    /// Diagnostics found so far.
    pub(crate) report: Report<'a>,
    /// Element ids.
    pub(crate) ids: Ids,
    /// The math service: formulas typeset through the chapter's cache pack.
    pub(crate) math: Typeset<'a>,
    /// The names of the `{check} calc` block whose body is rendering (its `{calc}`
    /// roles may use them); empty elsewhere.
    pub(crate) calc_scope: CalcScope,
    /// How many directives enclose the one being rendered (see [`MAX_DIRECTIVE_NESTING`]).
    pub(crate) nesting: usize,
    /// Controls named by formula cards' `controls` that wait for the next widget on
    /// the page, which must have them (checked by `widget`, the rest at the chapter's
    /// end).
    pub(crate) pending_controls: Vec<PendingControl>,
    /// Every directive ([`registry::DIRECTIVES`], given by the chapter pipeline: the
    /// registry sits above the directives, so this module does not import it).
    pub(crate) directives: &'static [&'static dyn Directive],
    /// Every role ([`registry::ROLES`], given the same way).
    pub(crate) roles: &'static [&'static Role],
}

/// One kind of role, `` {name}`text` `` in prose: data, listed in [`registry::ROLES`].
pub struct Role {
    /// The name authors write in braces.
    pub name: &'static str,
    /// It shows inline math: punctuation right after it stays on its line.
    pub inline_math: bool,
    /// Its HTML, or `None` (the role stays as written) after reporting why.
    pub render: fn(&mut Cx, &scan::RoleSpan) -> Option<String>,
    /// Its text for renderers other than HTML.
    pub degrade: fn(&mut Cx, &scan::RoleSpan) -> String,
}

/// "did you mean" + the list, for an unknown directive name.
fn unknown_hint(directives: &[&dyn Directive], name: &str) -> String {
    let names: Vec<&str> = directives.iter().map(|d| d.name()).collect();
    let list = options::backticked(&names);
    let suggestion = options::did_you_mean(name, &names);
    format!("known directives: {list}{suggestion}")
}

/// A formula card's `controls` entry waiting for the next widget: where the control's
/// name is written, the symbol and the control.
#[derive(Debug, Clone)]
pub(crate) struct PendingControl {
    pub(crate) span: Range<usize>,
    pub(crate) symbol: String,
    pub(crate) control: String,
}

/// How deep directives may nest. Course blocks nest two or three deep; rendering is
/// recursive, so a limit keeps a hostile chapter from exhausting the stack.
pub const MAX_DIRECTIVE_NESTING: usize = 32;

impl<'a> Cx<'a> {
    /// Runs `f` with the math options (macros) of `chapter`, for text shown outside the
    /// chapter that wrote it (a claim in the claims index). Its diagnostics are dropped:
    /// the same text is rendered, and its mistakes reported, in its own chapter.
    pub fn in_chapter<R>(
        &mut self,
        chapter: &std::path::Path,
        f: impl FnOnce(&mut Self) -> R,
    ) -> R {
        let saved = (self.math.options, self.math.fingerprint);
        let book: &'a BookContext = self.book;
        if let Some((options, fingerprint)) = book.chapter_options.get(chapter) {
            self.math.options = options;
            self.math.fingerprint = fingerprint.as_str();
        }
        let before = self.report.diagnostics.len();
        let out = f(self);
        (self.math.options, self.math.fingerprint) = saved;
        self.report.diagnostics.truncate(before);
        out
    }

    /// Runs `f` as if in the chapter that defined `def`, to show one of its fields
    /// (`key`) on another page or in another block: with that chapter's macros, and with
    /// any problem `f` reports moved to the definition, where the author fixes it. A
    /// problem found wherever the symbol is shown is then one problem, reported once
    /// (see [`crate::diagnostic::dedup`]).
    pub fn as_defined<R>(
        &mut self,
        def: &crate::notation::Definition,
        key: &str,
        f: impl FnOnce(&mut Self) -> R,
    ) -> R {
        let saved = (self.math.options, self.math.fingerprint);
        let book: &'a BookContext = self.book;
        if let Some(chapter) = &def.chapter {
            let (options, fingerprint) = book
                .chapter_options
                .get(chapter)
                .map_or((&book.options, book.fingerprint.as_str()), |(o, f)| {
                    (o, f.as_str())
                });
            self.math.options = options;
            self.math.fingerprint = fingerprint;
        }
        let before = self.report.diagnostics.len();
        let out = f(self);
        (self.math.options, self.math.fingerprint) = saved;
        if let Some(site) = &def.site {
            for d in &mut self.report.diagnostics[before..] {
                d.path = site.shown.clone();
                d.source = site.source.clone();
                d.span = site.span(key);
            }
        }
        out
    }

    /// The typed options of `block`, with the span of each key (`options.span("tex")`).
    pub fn options<T: DeserializeOwned>(
        &self,
        block: &Block,
    ) -> Result<options::Typed<T>, Diagnostic> {
        let raw = options::raw_options(&self.source, block)
            .map_err(|e| self.report.error(e.span, e.message).with_hint(e.hint))?;
        options::typed(raw, block).map_err(|e| {
            self.report
                .error(e.span, e.message)
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
            .map_err(|e| self.report.error(e.span, e.message).with_hint(e.hint))?;
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            let typed = options::typed_item(&item, i, block).map_err(|e| {
                self.report
                    .error(e.span, e.message)
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
            if u.name.is_empty() {
                let d = self
                    .report
                    .warning(u.opener.clone(), "code block is never closed")
                    .with_label("opened here")
                    .with_hint(format!(
                        "everything after this line is shown as code; end the block with a line `{}`",
                        u.fence
                    ));
                self.report.push(d);
                continue;
            }
            let d = self
                .report
                .error(u.opener.clone(), format!("directive `{}` is never closed", u.name))
                .with_label("opened here")
                .with_hint(format!(
                    "end the block with a line `{}`; a nested directive needs its own closing line first",
                    u.fence
                ));
            self.report.push(d);
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
        if self.nesting >= MAX_DIRECTIVE_NESTING {
            let d = self
                .report
                .error(block.opener.clone(), format!("directives nest more than {MAX_DIRECTIVE_NESTING} deep"))
                .with_label("this directive is too deep")
                .with_hint("close some of the enclosing directives first; a course block rarely needs more than three levels");
            self.report.push(d);
            return self.source[block.range.clone()].to_string();
        }
        self.nesting += 1;
        let out = self.directive_at_depth(block);
        self.nesting -= 1;
        out
    }

    fn directive_at_depth(&mut self, block: &Block) -> String {
        let Some(directive) = self
            .directives
            .iter()
            .copied()
            .find(|d| d.name() == block.name)
        else {
            let d = self
                .report
                .error(
                    block.name_span.clone(),
                    format!("unknown directive `{}`", block.name),
                )
                .with_label("not a mathcourse directive")
                .with_hint(unknown_hint(self.directives, &block.name));
            self.report.push(d);
            return self.source[block.range.clone()].to_string();
        };
        if let Some(missing) = &block.options_unclosed {
            let d = match missing {
                block::MissingFence::Closing(dashes) => self
                    .report
                    .error(dashes.clone(), format!("the options of `{}` have no closing `---`", block.name))
                    .with_label("options start here")
                    .with_hint("add a line `---` after the last option (before the block's text); without it the text is read as YAML"),
                block::MissingFence::Opening(key) => self
                    .report
                    .error(key.clone(), format!("the options of `{}` have no opening `---`", block.name))
                    .with_label("reads as text, not as an option")
                    .with_hint(format!("add a line `---` right after the line `{}`; options are YAML between two `---` lines", self.source[block.opener.clone()].trim())),
            };
            self.report.push(d);
            return self.source[block.range.clone()].to_string();
        }
        if let Err(d) = self.argument_and_body_used(directive, block) {
            self.report.push(d);
            return self.source[block.range.clone()].to_string();
        }
        if !self.html {
            return directive.degrade(block, self);
        }
        match directive.render(block, self) {
            Ok(markup) => markup,
            Err(d) => {
                self.report.push(d);
                self.source[block.range.clone()].to_string()
            }
        }
    }

    /// An argument or a body that `directive` would not use is an error that points at it.
    fn argument_and_body_used(
        &self,
        directive: &dyn Directive,
        block: &Block,
    ) -> Result<(), Diagnostic> {
        let name = directive.name();
        if !directive.takes_argument() && !block.argument.is_empty() {
            return Err(self
                .report
                .error(block.argument_span.clone(), format!("`{name}` takes no argument"))
                .with_label("this text would be lost")
                .with_hint(format!("everything `{name}` shows comes from its options (`:key: value` lines or YAML between `---` lines); move this text into the right option")));
        }
        let body = &self.source[block.body.clone()];
        if !directive.takes_body() && !body.trim().is_empty() {
            let lead = body.len() - body.trim_start().len();
            let first = &body.trim_start()[..body
                .trim_start()
                .find('\n')
                .unwrap_or(body.trim_start().len())];
            let start = block.body.start + lead;
            return Err(self
                .report
                .error(start..start + first.trim_end().len().max(1), format!("`{name}` takes no body"))
                .with_label("this text would be lost")
                .with_hint(format!("`{name}` is written entirely in its options (YAML between `---` lines); put prose after the closing fence, or close the block where it should end")));
        }
        Ok(())
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
            return math_errors::splice(&source[region.clone()], region.start, &replacements);
        }
        if let Some(rules) = self.book.mathjax.as_ref() {
            return self.plain_mathjax(region, rules);
        }
        let found = scan::scan_region_with(&source, region.clone(), self.book.dollars);
        math_errors::report_prose_notes(&mut self.report, &found);
        let mut replacements: Vec<(Range<usize>, String)> = Vec::new();
        for span in &found.math {
            let display = span.delimiter.is_display();
            if let Some(html) = self
                .math
                .formula(&mut self.report, &span.tex, display, span)
            {
                // Punctuation right after inline math stays on the formula's line.
                let punct = if display {
                    0
                } else {
                    trailing_punctuation(&source[span.range.end..region.end])
                };
                let end = span.range.end + punct;
                match glue_punctuation(&html, &source[span.range.end..end]) {
                    Some(html) => replacements.push((span.range.start..end, html)),
                    None => replacements.push((span.range.clone(), html)),
                }
            }
        }
        // Math in HTML comments, typeset as mdbook-katex does.
        for span in &found.commented {
            if let Some(html) = self.math.commented(span) {
                replacements.push((span.range.clone(), html));
            }
        }
        for role in &found.roles {
            if let Some(html) = self.role(role) {
                // A `{calc}` is inline math: its punctuation stays with it too.
                let punct = if self.role_is_math(&role.name) {
                    trailing_punctuation(&source[role.range.end..region.end])
                } else {
                    0
                };
                let end = role.range.end + punct;
                match glue_punctuation(&html, &source[role.range.end..end]) {
                    Some(html) if punct > 0 => replacements.push((role.range.start..end, html)),
                    _ => replacements.push((role.range.clone(), html)),
                }
            }
        }
        replacements.sort_by_key(|r| r.0.start);
        math_errors::splice(&source[region.clone()], region.start, &replacements)
    }

    /// Renders short author text from an option (inline Markdown with math) to safe
    /// HTML: raw HTML is shown as text, links must be http(s), mailto or relative.
    pub fn inline(&mut self, text: &str, span: Range<usize>) -> String {
        inline::render(text, span, &mut self.math, &mut self.report)
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
                self.report.error(span, format!("template `{name}.html` failed"))
                    .with_label(e)
                    .with_hint("if the book overrides this template, check its syntax (tera); otherwise this is a bug")
            })
    }

    /// A role in prose: rendered by its entry in the role table, or an error when no
    /// role has that name.
    fn role(&mut self, role: &scan::RoleSpan) -> Option<String> {
        if let Some(kind) = self.roles.iter().find(|r| r.name == role.name) {
            return (kind.render)(self, role);
        }
        let names: Vec<&str> = self.roles.iter().map(|r| r.name).collect();
        let d = self
            .report
            .error(
                role.name_span.clone(),
                format!("unknown role `{}`", role.name),
            )
            .with_hint(format!(
                "roles are written {{name}}`text`; known roles: {}{}",
                options::backticked(&names),
                options::did_you_mean(&role.name, &names)
            ));
        self.report.push(d);
        None
    }

    /// A role for renderers other than HTML: its own text, or as written.
    fn degrade_role(&mut self, role: &scan::RoleSpan) -> String {
        match self.roles.iter().find(|r| r.name == role.name) {
            Some(kind) => (kind.degrade)(self, role),
            None => role.content.clone(),
        }
    }

    /// True when the role `name` shows inline math.
    fn role_is_math(&self, name: &str) -> bool {
        self.roles.iter().any(|r| r.name == name && r.inline_math)
    }
}

pub use crate::html::relative_html_path;

/// The `label` option of `block` and where it is written (`math` and `formula`).
pub fn label_of(block: &Block, source: &str) -> Option<(String, std::ops::Range<usize>)> {
    let raw = options::raw_options(source, block).ok()?;
    let label = raw.value.get("label")?.as_str()?.to_string();
    let span = raw
        .key_spans
        .get("label")
        .cloned()
        .unwrap_or(block.opener.clone());
    Some((label, span))
}

/// `further-reading` → `Further reading`.
pub fn title_case(name: &str) -> String {
    let spaced = name.replace('-', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
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
        let labels: Vec<String> = registry::entries(src, 0)
            .into_iter()
            .filter_map(|e| Some(e.contribution.label?.0))
            .collect();
        assert_eq!(labels, vec!["eq-a", "eq-b"]);
    }
}

/// Inline math `html` with the punctuation written right after it drawn inside the
/// formula's last box, so no line break can separate them (a break after an
/// inline-block is allowed whatever `white-space` or word joiner follows, and a
/// `nowrap` around the whole formula would stop long formulas from breaking). The
/// drawn copy is aria-hidden like the rest of KaTeX's HTML, so the punctuation also
/// follows as visually hidden text for screen readers, copy and search. `None` when
/// there is no punctuation or no KaTeX HTML (`output = "mathml"`).
fn glue_punctuation(html: &str, punct: &str) -> Option<String> {
    const END: &str = "</span></span></span>";
    if punct.is_empty() || !html.contains("class=\"katex-html\"") || !html.ends_with(END) {
        return None;
    }
    let at = html.len() - END.len();
    Some(format!(
        "<span class=\"mc-nowrap\">{}<span class=\"mc-punct\" data-mc-t=\"{punct}\"></span>{END}<span class=\"mc-visually-hidden\">{punct}</span></span>",
        &html[..at]
    ))
}

/// Length in bytes of the punctuation that closes a clause right after inline math
/// (`.` `,` `;` `:` `!` `?` `)` and closing quotes), kept with the formula in a
/// no-wrap span so that it never wraps alone onto the next line. `!` before `[` (an
/// image) and `]` (link text) are Markdown syntax and stay outside.
fn trailing_punctuation(after: &str) -> usize {
    let mut len = 0;
    for c in after.chars() {
        let ok = match c {
            '.' | ',' | ';' | ':' | '?' | ')' | '\u{2019}' | '\u{201D}' => true,
            '!' => !after[len + 1..].starts_with('['),
            _ => false,
        };
        if !ok || len >= 8 {
            break;
        }
        len += c.len_utf8();
    }
    len
}

#[cfg(test)]
mod eq_role_tests {
    use crate::directive::testkit::errors;

    #[test]
    fn parentheses_around_an_eq_role_are_reported() {
        let text = errors(":::{math}\n:label: eq-a\nx = 1\n:::\n\nSee ({eq}`eq-a`) here.\n");
        assert!(text.contains("two pairs of parentheses"), "{text}");
        assert!(text.contains("src/t.md:6:5"), "{text}");
    }

    #[test]
    fn punctuation_after_inline_math_is_kept_with_it() {
        assert_eq!(super::trailing_punctuation(". Next"), 1);
        assert_eq!(super::trailing_punctuation(")., x"), 3);
        assert_eq!(super::trailing_punctuation("\u{201D}, x"), 4);
        assert_eq!(super::trailing_punctuation(" ."), 0);
        assert_eq!(super::trailing_punctuation("](url)"), 0);
        assert_eq!(super::trailing_punctuation("![img](a.png)"), 0);
        assert_eq!(super::trailing_punctuation("!"), 1);
        let html = "<span class=\"katex\"><span class=\"katex-html\"><span class=\"katex-base\">x</span></span></span>";
        assert_eq!(
            super::glue_punctuation(html, ").").unwrap(),
            "<span class=\"mc-nowrap\"><span class=\"katex\"><span class=\"katex-html\"><span class=\"katex-base\">x<span class=\"mc-punct\" data-mc-t=\").\"></span></span></span></span><span class=\"mc-visually-hidden\">).</span></span>"
        );
        assert_eq!(super::glue_punctuation(html, ""), None);
        assert_eq!(
            super::glue_punctuation("<span class=\"katex\"><math></math></span>", "."),
            None
        );
    }
}
