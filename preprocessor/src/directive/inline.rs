//! Short author text from directive options (titles, sources, captions) rendered as
//! inline Markdown with math, to HTML that is always safe: raw HTML in the text is
//! shown as text, and links are kept only for http(s), mailto, `#anchors` and relative
//! paths (so `javascript:` never becomes a link).

use std::ops::Range;

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use super::report::Report;
use super::typeset::Typeset;
use crate::html::escape;

/// Renders `text` (found at `span` of the chapter) to inline HTML.
// Every link end must pop its entry, so the pop stays out of a match guard.
#[allow(clippy::collapsible_match)]
pub fn render(text: &str, span: Range<usize>, math: &mut Typeset, report: &mut Report) -> String {
    let mut out = String::new();
    let mut link_open: Vec<bool> = Vec::new();
    for event in Parser::new_ext(text, crate::scan::markdown_options()) {
        match event {
            Event::Text(t) => out.push_str(&escape(&t)),
            Event::Code(t) => {
                out.push_str("<code>");
                out.push_str(&escape(&t));
                out.push_str("</code>");
            }
            Event::InlineMath(t) => {
                out.push_str(&math.option_math(report, &t, false, span.clone()))
            }
            Event::DisplayMath(t) => {
                out.push_str(&math.option_math(report, &t, true, span.clone()))
            }
            Event::Html(t) | Event::InlineHtml(t) => out.push_str(&escape(&t)),
            Event::SoftBreak => out.push(' '),
            Event::HardBreak => out.push_str("<br>"),
            Event::Start(Tag::Emphasis) => out.push_str("<em>"),
            Event::End(TagEnd::Emphasis) => out.push_str("</em>"),
            Event::Start(Tag::Strong) => out.push_str("<strong>"),
            Event::End(TagEnd::Strong) => out.push_str("</strong>"),
            Event::Start(Tag::Strikethrough) => out.push_str("<del>"),
            Event::End(TagEnd::Strikethrough) => out.push_str("</del>"),
            Event::Start(Tag::Link { dest_url, .. }) => {
                let safe = safe_url(&dest_url);
                if safe {
                    out.push_str(&format!("<a href=\"{}\">", escape(&dest_url)));
                }
                link_open.push(safe);
            }
            Event::End(TagEnd::Link) => {
                if link_open.pop() == Some(true) {
                    out.push_str("</a>");
                }
            }
            Event::End(TagEnd::Paragraph) if !out.is_empty() => out.push(' '),
            _ => {}
        }
    }
    out.trim_end().to_string()
}

/// True for URLs that cannot run script: http(s), mailto, anchors, relative paths.
pub fn safe_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") || lower.starts_with("mailto:")
    {
        return true;
    }
    // Relative: no scheme before the first `/`, `?` or `#`.
    let head = lower.split(['/', '?', '#']).next().unwrap_or("");
    !head.contains(':') && !lower.starts_with("//")
}

#[cfg(test)]
mod tests {
    use super::safe_url;

    #[test]
    fn urls() {
        assert!(safe_url("https://example.org/x"));
        assert!(safe_url("../a.html#b"));
        assert!(safe_url("#top"));
        assert!(!safe_url("javascript:alert(1)"));
        assert!(!safe_url(" JavaScript:alert(1)"));
        assert!(!safe_url("data:text/html,x"));
        assert!(!safe_url("//evil.example"));
    }
}
