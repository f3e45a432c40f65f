//! The text MathJax sees: a chapter's Markdown read the way mdBook renders it, as runs of
//! sibling text nodes, each byte mapped back to the source.
//!
//! MathJax 2.7's `tex2jax` searches text nodes of the page. A formula may run over
//! several text nodes only when nothing but `<br>`, `<wbr>` or comments separates them;
//! any other element (emphasis, a link, a code span) ends the run. So the chapter is cut
//! into [`Run`]s: the text of consecutive `Text`, soft and hard break events, with
//! Markdown's backslash escapes and character references already applied (`\\(` is
//! `\(`, `\_` is `_`, `&amp;` is `&`), exactly as they reach the browser. Code, `<pre>`,
//! `<script>`, `<style>`, `<textarea>` and elements of class `tex2jax_ignore` hold no
//! runs.

use std::ops::Range;

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

/// One piece of a run: a text node, or an element tex2jax passes over (`<br>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// A text node.
    Text(Text),
    /// `<br>` (read as a space inside a formula) or `<wbr>`/a comment (read as nothing).
    Ignored {
        /// What the element adds to a formula's TeX.
        adds: &'static str,
        /// Its bytes in the source.
        range: Range<usize>,
    },
}

/// A text node and, for each of its bytes, the source bytes it came from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Text {
    /// The node's text, as the browser has it.
    pub text: String,
    /// For each byte of `text`, where its character starts in the source.
    pub from: Vec<usize>,
    /// For each byte of `text`, where its character ends in the source.
    pub to: Vec<usize>,
}

impl Text {
    fn push(&mut self, c: char, src: Range<usize>) {
        for _ in 0..c.len_utf8() {
            self.from.push(src.start);
            self.to.push(src.end);
        }
        self.text.push(c);
    }

    /// Appends `content` (a Markdown text event) read from `source[range]`.
    fn push_event(&mut self, source: &str, content: &str, range: Range<usize>) {
        let first = self.from.len();
        self.push_event_here(source, content, range.clone());
        // pulldown-cmark gives an escaped character the range of the character alone:
        // its backslash belongs to it too.
        let escaped = source.as_bytes()[..range.start]
            .iter()
            .rev()
            .take_while(|&&b| b == b'\\')
            .count()
            % 2
            == 1;
        if escaped && content.starts_with(|c: char| c.is_ascii_punctuation()) {
            if let Some(f) = self.from.get_mut(first) {
                *f = (*f).min(range.start - 1);
            }
        }
    }

    fn push_event_here(&mut self, source: &str, content: &str, range: Range<usize>) {
        let raw = &source[range.clone()];
        if raw == content {
            for (i, c) in content.char_indices() {
                let at = range.start + i;
                self.push(c, at..at + c.len_utf8());
            }
            return;
        }
        align(self, source, content, range);
    }
}

/// Maps `content` onto `source[range]`, where Markdown removed escapes' backslashes and
/// decoded character references. Anything it cannot follow maps to the whole range.
fn align(out: &mut Text, source: &str, content: &str, range: Range<usize>) {
    let bytes = source.as_bytes();
    let mut j = range.start;
    for c in content.chars() {
        if j >= range.end {
            out.push(c, range.clone());
            continue;
        }
        let s = source[j..].chars().next().unwrap_or(' ');
        if s == c {
            out.push(c, j..j + s.len_utf8());
            j += s.len_utf8();
        } else if s == '\\'
            && bytes
                .get(j + 1)
                .is_some_and(|&b| b == c as u32 as u8 && c.is_ascii_punctuation())
        {
            out.push(c, j..j + 2);
            j += 2;
        } else if s == '&' {
            match source[j..range.end].find(';').filter(|&k| k <= 32) {
                Some(k) => {
                    out.push(c, j..j + k + 1);
                    j += k + 1;
                }
                None => out.push(c, range.clone()),
            }
        } else {
            // Smart punctuation or something unknown: keep the text, point at the rest.
            out.push(c, j..range.end.max(j + s.len_utf8()));
            j += s.len_utf8();
        }
    }
}

/// A run of sibling text nodes and ignored elements.
pub type Run = Vec<Node>;

/// The runs of `source[region]`, read as mdBook's Markdown renders it.
pub fn runs(source: &str, region: Range<usize>, options: pulldown_cmark::Options) -> Vec<Run> {
    let body = &source[region.clone()];
    let mut b = Builder::default();
    let mut code_depth = 0usize;
    for (event, r) in Parser::new_ext(body, options).into_offset_iter() {
        let range = r.start + region.start..r.end + region.start;
        match event {
            Event::Text(t) => {
                if code_depth == 0 && b.skip_until.is_none() {
                    b.text(source, &t, range);
                }
            }
            Event::SoftBreak => {
                if code_depth == 0 && b.skip_until.is_none() {
                    b.text(source, "\n", range);
                }
            }
            Event::HardBreak => b.ignored(" ", range),
            Event::InlineHtml(h) => b.html(source, &h, range),
            Event::Start(Tag::HtmlBlock) => b.end_run(),
            Event::Html(h) => b.html(source, &h, range),
            Event::End(TagEnd::HtmlBlock) => b.end_run(),
            Event::Start(Tag::CodeBlock(_)) => {
                code_depth += 1;
                b.end_run();
            }
            Event::End(TagEnd::CodeBlock) => {
                code_depth = code_depth.saturating_sub(1);
                b.end_run();
            }
            _ => b.end_run(),
        }
    }
    b.end_run();
    b.runs
}

/// Elements whose content tex2jax never reads (its `skipTags`).
pub const SKIP_TAGS: &[&str] = &[
    "script",
    "noscript",
    "style",
    "textarea",
    "pre",
    "code",
    "annotation",
    "annotation-xml",
];

#[derive(Default)]
struct Builder {
    runs: Vec<Run>,
    run: Run,
    /// Inside a skipped element: its tag name and how deep it nests.
    skip_until: Option<(String, usize)>,
}

impl Builder {
    fn end_run(&mut self) {
        if !self.run.is_empty() {
            self.runs.push(std::mem::take(&mut self.run));
        }
    }

    fn text(&mut self, source: &str, content: &str, range: Range<usize>) {
        if self.skip_until.is_some() {
            return;
        }
        if !matches!(self.run.last(), Some(Node::Text(_))) {
            self.run.push(Node::Text(Text::default()));
        }
        if let Some(Node::Text(t)) = self.run.last_mut() {
            t.push_event(source, content, range);
        }
    }

    fn ignored(&mut self, adds: &'static str, range: Range<usize>) {
        if self.skip_until.is_none() && !self.run.is_empty() {
            self.run.push(Node::Ignored { adds, range });
        }
    }

    /// Raw HTML: tags end runs (except `<br>`, `<wbr>` and
    /// comments), skipped elements hide their content, text between tags is text.
    fn html(&mut self, source: &str, html: &str, range: Range<usize>) {
        // The event's text is the source slice (raw HTML is passed through verbatim).
        let base = if &source[range.clone()] == html {
            range.start
        } else {
            match source[range.clone()].find(html) {
                Some(i) => range.start + i,
                None => {
                    self.end_run();
                    return;
                }
            }
        };
        let bytes = html.as_bytes();
        let mut i = 0;
        while i < html.len() {
            if bytes[i] == b'<' {
                if html[i..].starts_with("<!--") {
                    let end = html[i + 4..]
                        .find("-->")
                        .map_or(html.len(), |e| i + 4 + e + 3);
                    self.ignored("", base + i..base + end);
                    i = end;
                    continue;
                }
                if let Some((tag, closing, len)) = tag_at(&html[i..]) {
                    let end = i + len;
                    self.tag(&tag, closing, &html[i..end], base + i..base + end);
                    i = end;
                    continue;
                }
            }
            if self.skip_until.is_some() {
                i += html[i..].chars().next().map_or(1, char::len_utf8);
                continue;
            }
            // Text up to the next tag, with character references decoded.
            let first = html[i..].chars().next().map_or(1, char::len_utf8);
            let next = html[i + first..]
                .find('<')
                .map_or(html.len(), |k| i + first + k);
            let mut t = Text::default();
            let mut k = i;
            while k < next {
                let (c, len) = decode_at(&html[k..next]);
                t.push(c, base + k..base + k + len);
                k += len;
            }
            if !matches!(self.run.last(), Some(Node::Text(_))) {
                self.run.push(Node::Text(Text::default()));
            }
            if let Some(Node::Text(cur)) = self.run.last_mut() {
                cur.text.push_str(&t.text);
                cur.from.extend(t.from);
                cur.to.extend(t.to);
            }
            i = next;
        }
    }

    fn tag(&mut self, name: &str, closing: bool, text: &str, range: Range<usize>) {
        if let Some((skip, depth)) = &mut self.skip_until {
            if name == skip.as_str() {
                if closing {
                    *depth -= 1;
                    if *depth == 0 {
                        self.skip_until = None;
                    }
                } else if !text.ends_with("/>") {
                    *depth += 1;
                }
            }
            return;
        }
        match name {
            "br" => self.ignored(" ", range),
            "wbr" => self.ignored("", range),
            _ => {
                self.end_run();
                let ignore_class = text.contains("tex2jax_ignore");
                if !closing && (SKIP_TAGS.contains(&name) || ignore_class) && !text.ends_with("/>")
                {
                    self.skip_until = Some((name.to_string(), 1));
                }
            }
        }
    }
}

/// The tag at the start of `html` (`<name ...>` or `</name>`): lowercase name, whether it
/// closes, and its length. `None` when `<` does not start a tag.
fn tag_at(html: &str) -> Option<(String, bool, usize)> {
    let rest = &html[1..];
    let (closing, rest) = match rest.strip_prefix('/') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let name_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'-')
        .count();
    if name_len == 0 || !rest.as_bytes()[0].is_ascii_alphabetic() {
        return None;
    }
    // The end of the tag, skipping quoted attribute values.
    let bytes = html.as_bytes();
    let mut i = 1 + usize::from(closing) + name_len;
    let mut quote = None;
    while i < bytes.len() {
        match (quote, bytes[i]) {
            (None, b'"' | b'\'') => quote = Some(bytes[i]),
            (Some(q), c) if c == q => quote = None,
            (None, b'>') => {
                return Some((rest[..name_len].to_ascii_lowercase(), closing, i + 1));
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The character at the start of `text` (a character reference decoded) and its length.
fn decode_at(text: &str) -> (char, usize) {
    let c = text.chars().next().unwrap_or(' ');
    if c != '&' {
        return (c, c.len_utf8());
    }
    let Some(semi) = text.find(';').filter(|&k| k <= 12) else {
        return ('&', 1);
    };
    let name = &text[1..semi];
    let decoded = match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some('\u{a0}'),
        _ => name.strip_prefix('#').and_then(|n| {
            let code = match n.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => n.parse().ok(),
            };
            code.and_then(char::from_u32)
        }),
    };
    match decoded {
        Some(d) => (d, semi + 1),
        None => ('&', 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<Vec<String>> {
        runs(src, 0..src.len(), crate::scan::mdbook_options())
            .into_iter()
            .map(|r| {
                r.into_iter()
                    .map(|n| match n {
                        Node::Text(t) => t.text,
                        Node::Ignored { adds, .. } => format!("<{adds}>"),
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn escapes_are_applied_and_mapped_back() {
        let src = "a \\\\(x\\_1\\\\) b";
        let runs = runs(src, 0..src.len(), crate::scan::mdbook_options());
        let Node::Text(t) = &runs[0][0] else { panic!() };
        assert_eq!(t.text, "a \\(x_1\\) b");
        let open = t.text.find('\\').unwrap();
        assert_eq!(t.from[open], 2);
        assert_eq!(t.to[open], 4);
    }

    #[test]
    fn elements_cut_runs_and_code_has_none() {
        assert_eq!(
            texts("a *b* c `d` e\nf  \ng"),
            vec![
                vec!["a ".to_string()],
                vec!["b".into()],
                vec![" c ".into()],
                vec![" e\nf".into(), "< >".into(), "g".into()]
            ]
        );
        assert_eq!(texts("```\n$$x$$\n```\n"), Vec::<Vec<String>>::new());
        assert_eq!(
            texts("<div>\n$$a &lt; b$$ <code>$$c$$</code> d\n</div>\n"),
            vec![
                vec!["\n$$a < b$$ ".to_string()],
                vec![" d\n".into()],
                vec!["\n".into()]
            ]
        );
    }
}
