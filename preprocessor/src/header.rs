//! The chapter header, built from front matter: module and week, the page title (the
//! page's single `<h1>`), a subtitle, the time it takes, what it builds on, and "What
//! you will be able to do".
//!
//! ```yaml
//! ---
//! module: 6
//! week: 6
//! title: Attention
//! subtitle: Weighted averages with learned weights
//! time: about 3 focused hours
//! prerequisites: [1, {module: 4, title: Probability}]
//! prerequisites-advisory: true
//! objectives:
//!   - compute attention weights $\operatorname{softmax}(QK^\top/\sqrt{d_k})$
//! ---
//! ```
//!
//! Shown only when `title` is set. The HTML renderer gets the `chapter-header`
//! template; other renderers get a `# title` line and the rest as plain Markdown.

use std::ops::Range;

use pulldown_cmark::{Event, HeadingLevel, Parser, Tag};

use crate::directive::Cx;
use crate::frontmatter::{FrontMatter, FrontMatterBlock, Prerequisite};

/// Id of the header's `<h1>`.
pub const TITLE_ID: &str = "mc-chapter-title";

/// Renders the header of a chapter (empty when the front matter has no `title`), and
/// reports header keys without a title and a body `# Title` that would be a second
/// `<h1>`.
pub fn render(fm: &FrontMatter, block: Option<&FrontMatterBlock>, cx: &mut Cx) -> String {
    let Some(block) = block else {
        return String::new();
    };
    let keys = Keys {
        source: cx.source.clone(),
        yaml: block.yaml.clone(),
        found: Default::default(),
    };
    for key in fm.header_keys_without_title() {
        let d = cx
            .report.warning(keys.key(key), format!("`{key}` is not shown: the chapter header needs a `title`"))
            .with_label("ignored without `title`")
            .with_hint("add `title: ...` to the front matter (and drop the chapter's own `# Title` line), or remove this key");
        cx.report.push(d);
    }
    let Some(title) = &fm.title else {
        return String::new();
    };
    if let Some(h1) = first_h1(&cx.source, block.body_start) {
        let d = cx
            .report.warning(h1, "the chapter has two titles")
            .with_label("a second `<h1>`: the front matter's `title` is already the page's heading")
            .with_hint("delete this `# ...` line (its text belongs in the front matter's `title`), or make it a `##` section heading");
        cx.report.push(d);
    }
    if cx.html {
        html(fm, title, &keys, cx)
    } else {
        markdown(fm, title)
    }
}

/// "Module 6 · suggested week 6".
fn kicker(fm: &FrontMatter) -> Option<String> {
    match (fm.module, fm.week) {
        (Some(m), Some(w)) => Some(format!("Module {m} · suggested week {w}")),
        (Some(m), None) => Some(format!("Module {m}")),
        (None, Some(w)) => Some(format!("Suggested week {w}")),
        (None, None) => None,
    }
}

/// "modules 1 (Vectors), 4, high-school algebra", with each piece of text passed
/// through `text` (escaping/inline rendering for HTML, identity for Markdown).
/// `href` gives the link of a module's chapter (HTML only): a module whose chapter says
/// `module: N` in its front matter is linked.
fn prerequisites(
    fm: &FrontMatter,
    mut text: impl FnMut(&str) -> String,
    href: impl Fn(u32) -> Option<String>,
) -> Option<String> {
    if fm.prerequisites.is_empty() {
        return None;
    }
    let mut modules = Vec::new();
    let mut others = Vec::new();
    for p in &fm.prerequisites {
        match p {
            Prerequisite::Module { module, title } => {
                let shown = match title {
                    Some(t) => format!("{module} ({})", text(t)),
                    None => module.to_string(),
                };
                modules.push(match href(*module) {
                    Some(url) => format!(
                        "<a class=\"mc-prereq\" href=\"{}\">{shown}</a>",
                        crate::html::escape(&url)
                    ),
                    None => shown,
                });
            }
            Prerequisite::Text(t) => others.push(text(t)),
        }
    }
    let mut parts = Vec::new();
    match modules.len() {
        0 => {}
        1 => parts.push(format!("module {}", modules[0])),
        _ => parts.push(format!("modules {}", modules.join(", "))),
    }
    parts.extend(others);
    Some(parts.join(", "))
}

fn advisory(fm: &FrontMatter) -> &'static str {
    if fm.advisory() {
        "advisory"
    } else {
        "required"
    }
}

fn html(fm: &FrontMatter, title: &str, keys: &Keys, cx: &mut Cx) -> String {
    let mut context = tera::Context::new();
    context.insert("id", TITLE_ID);
    context.insert("kicker", &kicker(fm));
    let title_html = cx.inline(title, keys.value("title", title));
    context.insert("title_html", &title_html);
    if let Some(subtitle) = &fm.subtitle {
        let html = cx.inline(subtitle, keys.value("subtitle", subtitle));
        context.insert("subtitle_html", &html);
    }
    context.insert("time", &fm.time);
    // Only the modules this chapter names: a link to every module from every chapter
    // made a book of n modules cost n² here.
    let book: &crate::context::BookContext = cx.book;
    let modules = &book.modules;
    let chapter_path = cx.chapter_path;
    let href = |m: u32| {
        modules
            .get(&m)
            .filter(|path| path.as_path() != chapter_path)
            .map(|path| crate::html::relative_html_path(chapter_path, path))
    };
    let prerequisites_html = prerequisites(
        fm,
        |t| {
            let span = keys.value("prerequisites", t);
            cx.inline(t, span)
        },
        href,
    );
    context.insert("prerequisites_html", &prerequisites_html);
    context.insert("advisory", advisory(fm));
    let objectives: Vec<String> = fm
        .objectives
        .iter()
        .map(|o| {
            let span = keys.value("objectives", o);
            cx.inline(o, span)
        })
        .collect();
    context.insert("objectives_html", &objectives);
    match cx.template("chapter-header", context, Vec::new(), keys.key("title")) {
        Ok(html) => format!("{}\n", html.trim_matches('\n')),
        Err(d) => {
            cx.report.push(d);
            String::new()
        }
    }
}

fn markdown(fm: &FrontMatter, title: &str) -> String {
    let mut out = format!("# {}\n\n", title.trim());
    if let Some(subtitle) = &fm.subtitle {
        out.push_str(&format!("*{}*\n\n", subtitle.trim()));
    }
    if let Some(k) = kicker(fm) {
        out.push_str(&format!("{k}\n\n"));
    }
    let mut meta = Vec::new();
    if let Some(time) = &fm.time {
        meta.push(format!("≈ {}", time.trim()));
    }
    if let Some(p) = prerequisites(fm, str::to_string, |_| None) {
        meta.push(format!("Builds on {p} ({})", advisory(fm)));
    }
    if !meta.is_empty() {
        out.push_str(&format!("{}\n\n", meta.join(" · ")));
    }
    if !fm.objectives.is_empty() {
        out.push_str("**What you will be able to do**\n\n");
        for o in &fm.objectives {
            out.push_str(&format!("- {}\n", o.trim()));
        }
        out.push('\n');
    }
    out
}

/// Byte range of the body's first heading when it is a level-1 heading.
fn first_h1(source: &str, body_start: usize) -> Option<Range<usize>> {
    let body = &source[body_start..];
    let parser = Parser::new_ext(body, crate::scan::markdown_options()).into_offset_iter();
    for (event, range) in parser {
        if let Event::Start(Tag::Heading { level, .. }) = event {
            if level != HeadingLevel::H1 {
                return None;
            }
            let text = body[range.clone()].trim_end();
            return Some(body_start + range.start..body_start + range.start + text.len());
        }
    }
    None
}

/// Finds keys and values in the front matter's YAML, for diagnostics.
struct Keys {
    source: std::sync::Arc<str>,
    yaml: Range<usize>,
    /// Per key: its span, and where the search for its next value starts (the values of
    /// a list are asked for in order: searching each from the key cost n² for n items).
    found: std::cell::RefCell<std::collections::HashMap<String, (Range<usize>, usize)>>,
}

impl Keys {
    /// The span of top-level `key:` (else the whole front matter's first line).
    fn key(&self, key: &str) -> Range<usize> {
        if let Some((span, _)) = self.found.borrow().get(key) {
            return span.clone();
        }
        let span = self.find_key(key);
        self.found
            .borrow_mut()
            .insert(key.to_string(), (span.clone(), span.end));
        span
    }

    fn find_key(&self, key: &str) -> Range<usize> {
        let mut offset = self.yaml.start;
        for line in self.source[self.yaml.clone()].split_inclusive('\n') {
            if line.starts_with(key) && line[key.len()..].trim_start().starts_with(':') {
                return offset..offset + key.len();
            }
            offset += line.len();
        }
        self.yaml.start..self.yaml.start
    }

    /// The span of `text` written after `key:` (else the key): after the value found
    /// before it for the same key, else anywhere after the key.
    fn value(&self, key: &str, text: &str) -> Range<usize> {
        let at = self.key(key);
        let text = text.trim();
        if text.is_empty() {
            return at;
        }
        let key_end = at.end.max(self.yaml.start);
        let next = self.found.borrow()[key].1.max(key_end);
        let find = |from: usize| {
            self.source[from..self.yaml.end]
                .find(text)
                .map(|i| from + i..from + i + text.len())
        };
        match find(next).or_else(|| find(key_end)) {
            Some(span) => {
                if let Some(entry) = self.found.borrow_mut().get_mut(key) {
                    entry.1 = span.end;
                }
                span
            }
            None => at,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::chapter::{render_source, BookContext, ChapterOutput};
    use crate::config::OnError;

    fn run(src: &str, html: bool) -> ChapterOutput {
        let book = BookContext::standalone(OnError::Fail);
        render_source(src, Path::new("t.md"), Path::new("src/t.md"), &book, html)
    }

    const FULL: &str = "---\nmodule: 6\nweek: 6\ntitle: Attention, *at last*\nsubtitle: Weighted averages\ntime: about 3 focused hours\nprerequisites:\n  - 1\n  - {module: 4, title: Probability}\nobjectives:\n  - compute $QK^\\top$\n  - explain why we divide by $\\sqrt{d_k}$\n---\n## First section\n\nBody.\n";

    #[test]
    fn full_header_in_html() {
        let out = run(FULL, true);
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        let c = &out.content;
        assert!(c.contains("<header class=\"mc-chapter-header\">"), "{c}");
        assert!(c.contains("<p class=\"mc-chapter-kicker\">Module 6 · suggested week 6</p>"));
        assert!(c.contains("<h1 class=\"mc-chapter-title\" id=\"mc-chapter-title\">Attention, <em>at last</em></h1>"), "{c}");
        assert!(c.contains("about 3 focused hours"));
        assert!(c.contains("Builds on modules 1, 4 (Probability) <span class=\"mc-chapter-advisory mc-advisory\">(advisory)</span>"), "{c}");
        assert_eq!(c.matches("<li>").count(), 2);
        assert!(c.contains("class=\"katex\""));
        assert!(c.contains("</header>\n\n## First section"), "{c}");
        assert_eq!(c.matches("<h1").count(), 1);
    }

    #[test]
    fn module_prerequisites_link_to_the_chapter_with_that_module_number() {
        let mut book = BookContext::standalone(OnError::Fail);
        book.modules
            .insert(1, Path::new("toolkit/vectors.md").to_path_buf());
        book.modules
            .insert(6, Path::new("ai/attention.md").to_path_buf());
        let out = render_source(
            FULL,
            Path::new("ai/attention.md"),
            Path::new("src/ai/attention.md"),
            &book,
            true,
        );
        let c = &out.content;
        assert!(
            c.contains("Builds on modules <a class=\"mc-prereq\" href=\"../toolkit/vectors.html\">1</a>, 4 (Probability)"),
            "{c}"
        );
    }

    #[test]
    fn degrades_to_markdown() {
        let out = run(FULL, false);
        assert_eq!(
            out.content,
            "# Attention, *at last*\n\n*Weighted averages*\n\nModule 6 · suggested week 6\n\n≈ about 3 focused hours · Builds on modules 1, 4 (Probability) (advisory)\n\n**What you will be able to do**\n\n- compute $QK^\\top$\n- explain why we divide by $\\sqrt{d_k}$\n\n## First section\n\nBody.\n"
        );
    }

    #[test]
    fn second_h1_is_a_located_warning() {
        let src = "---\ntitle: Attention\nprerequisites-advisory: false\nprerequisites: [3]\n---\n\n# Attention\n\nBody.\n";
        let out = run(src, true);
        assert_eq!(out.diagnostics.len(), 1);
        let d = &out.diagnostics[0];
        assert_eq!(d.severity, crate::diagnostic::Severity::Warning);
        assert_eq!(&src[d.span.clone()], "# Attention");
        assert!(out.content.contains("Builds on module 3 <span class=\"mc-chapter-advisory mc-required\">(required)</span>"), "{}", out.content);
        // An h2 first is fine; no title means no header and no warning.
        assert!(run("---\ntitle: T\n---\n## Sec\n# Later h1\n", true)
            .diagnostics
            .is_empty());
        let out = run("---\nmacros: {}\n---\n# Title\n", true);
        assert!(out.diagnostics.is_empty());
        assert!(!out.content.contains("mc-chapter-header"));
    }

    #[test]
    fn header_keys_without_title_warn() {
        let src = "---\nmodule: 2\nobjectives: [a]\n---\n# Title\n";
        let out = run(src, true);
        let texts: Vec<&str> = out
            .diagnostics
            .iter()
            .map(|d| &src[d.span.clone()])
            .collect();
        assert_eq!(texts, vec!["module", "objectives"]);
        assert!(!out.content.contains("mc-chapter-header"));
    }

    #[test]
    fn math_error_in_an_objective_points_at_it() {
        let src = "---\ntitle: T\nobjectives:\n  - fine $x$\n  - broken $\\nope$\n---\nBody\n";
        let out = run(src, true);
        assert_eq!(out.diagnostics.len(), 1, "{:?}", out.diagnostics);
        let (line, _) = out.diagnostics[0].line_col();
        assert_eq!(line, 5);
    }

    /// The items of a list are found in order, each after the one before: the same text
    /// twice is two places (and a long list costs its length, not its square).
    #[test]
    fn the_same_objective_twice_points_at_each() {
        let src = "---\ntitle: T\nobjectives:\n  - broken $\\nope$\n  - fine $x$\n  - broken $\\nope$\n---\nBody\n";
        let out = run(src, true);
        let lines: Vec<usize> = out.diagnostics.iter().map(|d| d.line_col().0).collect();
        assert_eq!(lines, [4, 6], "{:?}", out.diagnostics);
    }
}
