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

mod callout;
mod check;
mod claim;
mod connection;
pub(crate) mod contribute;
mod demo;
mod formula;
mod indexes;
pub(crate) mod inline;
mod inspectable;
mod lists;
mod math_block;
pub(crate) mod math_errors;
mod mathjax_math;
mod practice;
pub(crate) mod status;
mod steps;
mod symbol_list;
mod symbol_table;
mod symbols;
#[cfg(test)]
mod testkit;
mod watch;
mod widget;
mod widget_reference;

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use serde::de::DeserializeOwned;

use crate::cache::{self, Pack};
use crate::config::OnError;
use crate::context::BookContext;
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

/// Per-chapter rendering state handed to every directive.
pub struct Cx<'a> {
    /// The chapter source.
    pub(crate) source: Arc<str>,
    /// Path shown in diagnostics.
    pub(crate) display_path: &'a Path,
    /// Chapter path inside `src/`.
    pub(crate) chapter_path: &'a Path,
    /// Book-wide settings.
    pub(crate) book: &'a BookContext,
    /// Math options for this chapter (book + chapter macros).
    pub(crate) math_options: &'a MathOptions,
    /// Their fingerprint.
    pub(crate) fingerprint: &'a str,
    /// Formula cache pack of this chapter.
    pub(crate) pack: Pack,
    /// Problems found so far.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// True for the HTML renderer; false: degrade to plain Markdown.
    pub(crate) html: bool,
    /// Counter for generated element ids.
    pub(crate) next_id: usize,
    /// The id of each block that has one, by the offset of its opening line (counted
    /// once, by the book-wide pass: `book_pass::ChapterRecord::anchors`).
    pub(crate) anchors_by_block: HashMap<usize, String>,
    /// Macros defined so far on this page by `\newcommand` or `\def` in a formula
    /// (MathJax keeps them for the rest of the page).
    pub(crate) mathjax_macros: std::collections::BTreeMap<String, String>,
    /// The names of the `{check} calc` block whose body is rendering (its `{calc}`
    /// roles may use them); empty elsewhere.
    pub(crate) calc_scope: check::calc::Scope,
    /// Element ids handed out by [`Cx::first_anchor`].
    pub(crate) anchors: std::collections::HashSet<String>,
    /// How many directives enclose the one being rendered (see [`MAX_DIRECTIVE_NESTING`]).
    pub(crate) nesting: usize,
    /// Controls named by formula cards' `controls` that wait for the next widget on
    /// the page, which must have them (checked by `widget`, the rest at the chapter's
    /// end).
    pub(crate) pending_controls: Vec<PendingControl>,
    /// Every directive ([`registry::DIRECTIVES`], given by the chapter pipeline: the
    /// registry sits above the directives, so this module does not import it).
    pub(crate) directives: &'static [&'static dyn Directive],
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
    /// An error diagnostic at `span`.
    pub fn error(&self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.display_path, &self.source, span, message)
    }

    /// A warning diagnostic at `span`.
    pub fn warning(&self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::warning(self.display_path, &self.source, span, message)
    }

    /// The id of `block`'s element (`claim-2`), as the book-wide pass numbered it.
    pub fn block_anchor(&mut self, block: &Block) -> String {
        match self.anchors_by_block.get(&block.opener.start) {
            Some(id) => id.clone(),
            None => self.fresh_id(&block.name),
        }
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

    /// Runs `f` with the math options (macros) of `chapter`, for text shown outside the
    /// chapter that wrote it (a claim in the claims index). Its diagnostics are dropped:
    /// the same text is rendered, and its mistakes reported, in its own chapter.
    pub fn in_chapter<R>(
        &mut self,
        chapter: &std::path::Path,
        f: impl FnOnce(&mut Self) -> R,
    ) -> R {
        let saved = (self.math_options, self.fingerprint);
        let book: &'a BookContext = self.book;
        if let Some((options, fingerprint)) = book.chapter_options.get(chapter) {
            self.math_options = options;
            self.fingerprint = fingerprint.as_str();
        }
        let before = self.diagnostics.len();
        let out = f(self);
        (self.math_options, self.fingerprint) = saved;
        self.diagnostics.truncate(before);
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
        let saved = (self.math_options, self.fingerprint);
        let book: &'a BookContext = self.book;
        if let Some(chapter) = &def.chapter {
            let (options, fingerprint) = book
                .chapter_options
                .get(chapter)
                .map_or((&book.options, book.fingerprint.as_str()), |(o, f)| {
                    (o, f.as_str())
                });
            self.math_options = options;
            self.fingerprint = fingerprint;
        }
        let before = self.diagnostics.len();
        let out = f(self);
        (self.math_options, self.fingerprint) = saved;
        if let Some(site) = &def.site {
            for d in &mut self.diagnostics[before..] {
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
            .map_err(|e| self.error(e.span, e.message).with_hint(e.hint))?;
        options::typed(raw, block).map_err(|e| {
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
            if u.name.is_empty() {
                let d = self
                    .warning(u.opener.clone(), "code block is never closed")
                    .with_label("opened here")
                    .with_hint(format!(
                        "everything after this line is shown as code; end the block with a line `{}`",
                        u.fence
                    ));
                self.diagnostics.push(d);
                continue;
            }
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
        if self.nesting >= MAX_DIRECTIVE_NESTING {
            let d = self
                .error(block.opener.clone(), format!("directives nest more than {MAX_DIRECTIVE_NESTING} deep"))
                .with_label("this directive is too deep")
                .with_hint("close some of the enclosing directives first; a course block rarely needs more than three levels");
            self.diagnostics.push(d);
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
                .error(
                    block.name_span.clone(),
                    format!("unknown directive `{}`", block.name),
                )
                .with_label("not a mathcourse directive")
                .with_hint(unknown_hint(self.directives, &block.name));
            self.diagnostics.push(d);
            return self.source[block.range.clone()].to_string();
        };
        if let Some(missing) = &block.options_unclosed {
            let d = match missing {
                block::MissingFence::Closing(dashes) => self
                    .error(dashes.clone(), format!("the options of `{}` have no closing `---`", block.name))
                    .with_label("options start here")
                    .with_hint("add a line `---` after the last option (before the block's text); without it the text is read as YAML"),
                block::MissingFence::Opening(key) => self
                    .error(key.clone(), format!("the options of `{}` have no opening `---`", block.name))
                    .with_label("reads as text, not as an option")
                    .with_hint(format!("add a line `---` right after the line `{}`; options are YAML between two `---` lines", self.source[block.opener.clone()].trim())),
            };
            self.diagnostics.push(d);
            return self.source[block.range.clone()].to_string();
        }
        if let Err(d) = self.argument_and_body_used(directive, block) {
            self.diagnostics.push(d);
            return self.source[block.range.clone()].to_string();
        }
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

    /// An argument or a body that `directive` would not use is an error that points at it.
    fn argument_and_body_used(
        &self,
        directive: &dyn Directive,
        block: &Block,
    ) -> Result<(), Diagnostic> {
        let name = directive.name();
        if !directive.takes_argument() && !block.argument.is_empty() {
            return Err(self
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
        for paren in &found.unclosed_parens {
            let d = self
                .warning(paren.clone(), "`\\(` opens a formula that no `\\)` closes")
                .with_label("shown as `(`: Markdown drops the backslash")
                .with_hint("close the formula with `\\)`; for a backslash before a parenthesis in prose, write `\\\\(`");
            self.diagnostics.push(d);
        }
        for unread in &found.unread_roles {
            let d = if unread.in_html {
                self.warning(
                    unread.range.clone(),
                    format!("`{{{}}}` inside HTML is not read as a role", unread.name),
                )
                .with_label("shown as plain text, not checked")
                .with_hint("Markdown inside an HTML block is not parsed: leave a blank line after the opening tag (e.g. `<details>`, `<summary>…</summary>`, blank line) so the role is in Markdown, or move it out of the HTML")
            } else {
                self.warning(
                    unread.range.clone(),
                    format!(
                        "`{{{}}}` is not followed by a code span, so it is not read as a role",
                        unread.name
                    ),
                )
                .with_label("shown as plain text")
                .with_hint(format!(
                    "write the code span right after the braces, with no space: {{{}}}`...`",
                    unread.name
                ))
            };
            self.diagnostics.push(d);
        }
        let shown = found.declined.len().min(math_errors::MAX_DECLINED_SHOWN);
        for pair in &found.declined[..shown] {
            let d = math_errors::declined_diagnostic(self, pair);
            self.diagnostics.push(d);
        }
        if let Some(last) = found.declined.get(shown) {
            let d = math_errors::more_declined_diagnostic(self, last, found.declined.len() - shown);
            self.diagnostics.push(d);
        }
        let mut replacements: Vec<(Range<usize>, String)> = Vec::new();
        for span in &found.math {
            let display = span.delimiter.is_display();
            if let Some(html) = self.formula(&span.tex, display, span) {
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
                // A `{calc}` is inline math: its punctuation stays with it too.
                let punct = if role.name == "calc" {
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

    /// Renders one formula found in the source (Markdown-safe), reporting errors.
    fn formula(&mut self, tex: &str, display: bool, span: &scan::MathSpan) -> Option<String> {
        if tex.contains('\\') {
            self.check_commands(tex, span);
        }
        let key = cache::key(self.fingerprint, display, tex);
        let options = self.math_options;
        match self.pack.get_or_render(&key, || {
            // MathJax's TeX that KaTeX rejects (`k_\min`) typesets in every book.
            mathjax_math::render_as_mathjax(tex, display, options, false)
        }) {
            Ok(html) => Some(html),
            Err(err) => {
                let d = math_errors::math_diagnostic(self, span, &err);
                self.diagnostics.push(d);
                (self.book.on_error == OnError::Warn)
                    .then(|| math_errors::error_box(span, &err, &self.book.error_color))
            }
        }
    }

    /// Renders `tagged`, the symbol-tagged form of the author's `author` TeX (written at
    /// `span`; `tex_offset` is where `author` starts in the source when it is a verbatim
    /// slice). A LaTeX error is reported against what the author wrote: the author's TeX
    /// is rendered again for the engine's message and position, and the caret goes on the
    /// offending part.
    pub fn tagged_math(
        &mut self,
        tagged: &str,
        author: &str,
        display: bool,
        span: Range<usize>,
        tex_offset: Option<usize>,
    ) -> String {
        let key = cache::key(self.fingerprint, display, tagged);
        let options = self.math_options;
        match self
            .pack
            .get_or_render(&key, || math::render(tagged, display, options))
        {
            Ok(html) => html,
            Err(tagged_err) => {
                let err = math::render(author, display, options)
                    .err()
                    .unwrap_or(tagged_err);
                let math_span = scan::MathSpan {
                    range: span,
                    tex: author.to_string(),
                    tex_offset,
                    delimiter: if display {
                        scan::Delimiter::DoubleDollar
                    } else {
                        scan::Delimiter::Dollar
                    },
                };
                let d = math_errors::math_diagnostic(self, &math_span, &err);
                self.diagnostics.push(d);
                if self.book.on_error == OnError::Warn {
                    math_errors::error_box(&math_span, &err, &self.book.error_color)
                } else {
                    String::new()
                }
            }
        }
    }

    /// Reports the commands an author may not write in math (`\href`, `\htmlData`, ...):
    /// KaTeX's trust is granted only to the symbol tags mathcourse emits.
    fn check_commands(&mut self, tex: &str, span: &scan::MathSpan) {
        let mut found: Vec<(String, Range<usize>)> = crate::inspect::forbidden_commands(tex)
            .into_iter()
            // The symbol tag mathcourse itself emits (in tagged formulas), exactly; any
            // other key or a second attribute is the author's and is reported.
            .filter(|(name, range)| !(name == "\\htmlData" && is_symbol_tag(&tex[range.end..])))
            .map(|(name, range)| (format!("`{name}`"), range))
            .collect();
        // A macro (book-wide or from front matter) can hide one of them.
        for (name, command) in macros_reaching_forbidden(&self.math_options.macros) {
            for (at, _) in tex.match_indices(name.as_str()) {
                let end = at + name.len();
                if !tex[end..].starts_with(|c: char| c.is_ascii_alphabetic()) {
                    found.push((format!("`{command}` (through the macro `{name}`)"), at..end));
                }
            }
        }
        found.sort_by_key(|(_, r)| r.start);
        for (what, range) in found {
            let at = match span.tex_offset {
                Some(o) => o + range.start..o + range.end,
                None => span.range.clone(),
            };
            let d = self
                .error(at, format!("{what} is not allowed in this book's math"))
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

    /// Renders TeX the build wrote (a check's computation, a `{calc}` role's expression)
    /// like [`Cx::option_math`]. The author wrote no TeX, so a formula too long to
    /// typeset is reported as `what` being too long to show, with `hint`, not as a LaTeX
    /// error.
    pub fn generated_math(
        &mut self,
        tex: &str,
        display: bool,
        span: Range<usize>,
        what: &str,
        hint: &str,
    ) -> String {
        if tex.len() > crate::math::MAX_TEX_BYTES {
            let d = self
                .error(span, format!("{what} is too long to show"))
                .with_label(format!(
                    "shown as a formula it would take {} bytes of TeX; a formula holds at most {}",
                    tex.len(),
                    crate::math::MAX_TEX_BYTES
                ))
                .with_hint(hint.to_string());
            self.diagnostics.push(d);
            return String::new();
        }
        self.option_math(tex, display, span)
    }

    /// Renders short author text from an option (inline Markdown with math) to safe
    /// HTML: raw HTML is shown as text, links must be http(s), mailto or relative.
    pub fn inline(&mut self, text: &str, span: Range<usize>) -> String {
        inline::render(text, span, self)
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
                let before = self.source[..role.range.start].trim_end_matches(' ');
                let after = self.source[role.range.end..].trim_start_matches(' ');
                if before.ends_with('(') && after.starts_with(')') {
                    let start = before.len() - 1;
                    let end =
                        role.range.end + (self.source.len() - role.range.end - after.len()) + 1;
                    let d = self
                        .warning(start..end, "the equation number would show two pairs of parentheses")
                        .with_label("`{eq}` already writes \"(2.1)\"")
                        .with_hint("drop the parentheses around the role: write {eq}`label`, not ({eq}`label`)");
                    self.diagnostics.push(d);
                }
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
                        let d = self
                            .error(
                                role.range.clone(),
                                format!("unknown equation label `{label}`"),
                            )
                            .with_label("no `math` or `formula` block has this label")
                            .with_hint(format!(
                                "give an equation `:label: {label}`{}",
                                options::did_you_mean(label, &known)
                            ));
                        self.diagnostics.push(d);
                        None
                    }
                }
            }
            "calc" => match self.calc_role(role) {
                Ok(tex) => Some(self.generated_math(
                    &tex,
                    false,
                    role.range.clone(),
                    "this `{calc}` role",
                    "the role shows its expression as a formula: compute the parts in a `{check} calc` block, then state the result with a short role that uses their names",
                )),
                Err(d) => {
                    self.diagnostics.push(d);
                    None
                }
            },
            other => {
                let d = self
                    .error(role.name_span.clone(), format!("unknown role `{other}`"))
                    .with_hint(format!(
                        "roles are written {{name}}`text`; known roles: `eq`, `calc`{}",
                        options::did_you_mean(other, &["eq", "calc"])
                    ));
                self.diagnostics.push(d);
                None
            }
        }
    }

    /// Checks a `` {calc}`expr ≈ value` `` role; the TeX to typeset.
    fn calc_role(&self, role: &scan::RoleSpan) -> Result<String, Diagnostic> {
        check::calc::role(self, &role.content, role.range.clone())
    }

    fn degrade_role(&mut self, role: &scan::RoleSpan) -> String {
        if role.name == "calc" {
            // Other renderers show the text as written; the check still runs.
            if let Err(d) = self.calc_role(role) {
                self.diagnostics.push(d);
            }
            return role.content.clone();
        }
        match (
            role.name.as_str(),
            self.book.labels.get(role.content.trim()),
        ) {
            ("eq", Some(target)) => format!("({})", target.number),
            _ => role.content.clone(),
        }
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

/// True when `rest` starts with `{mc-sym=ID}`, ID of letters, digits, `-` and `_`: the
/// argument of the symbol tag that tagging emits.
fn is_symbol_tag(rest: &str) -> bool {
    rest.strip_prefix("{mc-sym=")
        .and_then(|r| r.split_once('}'))
        .is_some_and(|(id, _)| {
            !id.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
}

/// Macros whose expansion reaches a command authors may not write (directly or through
/// other macros), each with that command.
fn macros_reaching_forbidden(
    macros: &std::collections::BTreeMap<String, String>,
) -> Vec<(String, String)> {
    let mut tainted: Vec<(String, String)> = macros
        .iter()
        .filter_map(|(name, expansion)| {
            let (command, _) = crate::inspect::forbidden_commands(expansion)
                .into_iter()
                .next()?;
            Some((name.clone(), command))
        })
        .collect();
    loop {
        let before = tainted.len();
        for (name, expansion) in macros {
            if tainted.iter().any(|(t, _)| t == name) {
                continue;
            }
            let via = tainted.iter().find(|(t, _)| {
                expansion.match_indices(t.as_str()).any(|(at, _)| {
                    !expansion[at + t.len()..].starts_with(|c: char| c.is_ascii_alphabetic())
                })
            });
            if let Some((_, command)) = via {
                let command = command.clone();
                tainted.push((name.clone(), command));
            }
        }
        if tainted.len() == before {
            return tainted;
        }
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
