//! Finding math in a chapter's Markdown, with exact byte ranges.
//!
//! pulldown-cmark (with its math extension and mdBook's own options) decides what is
//! prose, code, HTML or math, so `$` inside code spans, code blocks and HTML comments is
//! never touched, `\$` stays a literal dollar, and a price such as "$5 and $10" is not
//! math. `\(...\)` and `\[...\]` are found in the source text of prose only.
//! Everything outside the returned ranges reaches mdBook byte for byte.

use std::ops::Range;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

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
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_DEFINITION_LIST
        | Options::ENABLE_GFM
        | Options::ENABLE_MATH
}

/// What scanning a chapter found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// Formulas, sorted, non-overlapping.
    pub math: Vec<MathSpan>,
    /// `$...$` runs left in prose that look like TeX but are not math (usually
    /// unbalanced braces, which Markdown's math rules reject): reported, never dropped.
    pub suspicious: Vec<Range<usize>>,
    /// MyST roles such as {eq}`eq-softmax`.
    pub roles: Vec<RoleSpan>,
}

/// Finds every formula in `source[start..]` (the part after any front matter).
/// Ranges are relative to `source`, sorted and non-overlapping.
pub fn find_math(source: &str, start: usize) -> Vec<MathSpan> {
    scan(source, start).math
}

/// Like [`find_math`], and also reports TeX-looking `$` runs that are not math.
pub fn scan(source: &str, start: usize) -> Scan {
    scan_region(source, start..source.len())
}

/// Scans `source[region]` as a Markdown document of its own (a chapter, or the body of
/// a directive). Ranges are relative to `source`.
pub fn scan_region(source: &str, region: Range<usize>) -> Scan {
    let (masked, blocks) = mask_display_blocks(source, region.clone());
    let mut scan = scan_inline(&masked, source, region);
    // The masked blocks come back from pulldown-cmark as `$$x…x$$` display math; give
    // them their real TeX.
    for span in &mut scan.math {
        if let Some(block) = blocks.iter().find(|b| b.range == span.range) {
            *span = block.clone();
        }
    }
    scan
}

/// Display blocks that start on their own line (`$$` or `\[` after optional
/// indentation and `>` markers) and close within the same paragraph. They are found
/// before Markdown parsing so that TeX lines starting with `=`, `-`, `+` or `#` are not
/// read as headings or list items; code blocks and HTML are respected.
fn mask_display_blocks(source: &str, region: Range<usize>) -> (String, Vec<MathSpan>) {
    let start = region.start;
    let body = &source[region.clone()];
    let mut protected = Vec::new();
    for (event, range) in Parser::new_ext(body, markdown_options()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(_))
            | Event::Html(_)
            | Event::InlineHtml(_)
            | Event::Code(_) => protected.push(range.start + start..range.end + start),
            _ => {}
        }
    }
    let bytes = source.as_bytes();
    let mut masked = source.as_bytes().to_vec();
    let mut blocks = Vec::new();
    let mut line_start = start;
    while line_start < source.len() {
        let line_end = source[line_start..]
            .find('\n')
            .map_or(source.len(), |i| line_start + i);
        let mut p = line_start;
        while p < line_end && matches!(bytes[p], b' ' | b'\t' | b'>') {
            p += 1;
        }
        let opener: Option<(&[u8], Delimiter)> = if source[p..line_end].starts_with("$$") {
            Some((b"$$", Delimiter::DoubleDollar))
        } else if source[p..line_end].starts_with("\\[") && !escaped(bytes, p) {
            Some((b"\\]", Delimiter::Bracket))
        } else {
            None
        };
        let mut next = line_end + 1;
        if let Some((close, delimiter)) = opener {
            if !protected.iter().any(|r: &Range<usize>| r.contains(&p)) {
                if let Some(end) = find_block_close(&bytes[..region.end], p + 2, close) {
                    let range = p..end + 2;
                    if !protected.iter().any(|r| overlaps(r, &range))
                        && source[p + 2..end].contains('\n')
                    {
                        let raw = &source[p + 2..end];
                        let tex = strip_container_prefixes(raw);
                        let tex_offset = (tex == raw).then_some(p + 2);
                        for b in &mut masked[p + 2..end] {
                            *b = b'x';
                        }
                        masked[p] = b'$';
                        masked[p + 1] = b'$';
                        masked[end] = b'$';
                        masked[end + 1] = b'$';
                        blocks.push(MathSpan {
                            range: range.clone(),
                            tex,
                            tex_offset,
                            delimiter,
                        });
                        let after = source[end..].find('\n').map_or(source.len(), |i| end + i);
                        next = after + 1;
                    }
                }
            }
        }
        line_start = next;
    }
    // Only ASCII bytes were written over whole characters' bytes, so this is valid UTF-8.
    let masked = String::from_utf8(masked).unwrap_or_else(|_| source.to_string());
    (masked, blocks)
}

/// Finds the closing delimiter of a display block: not across a blank line.
fn find_block_close(bytes: &[u8], from: usize, close: &[u8]) -> Option<usize> {
    let mut j = from;
    while j + 1 < bytes.len() {
        if bytes[j] == b'\n' {
            let rest = &bytes[j + 1..];
            let line_end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            if rest[..line_end]
                .iter()
                .all(|&b| matches!(b, b' ' | b'\t' | b'>' | b'\r'))
            {
                return None;
            }
        }
        if &bytes[j..j + 2] == close && !escaped(bytes, j) {
            return Some(j);
        }
        j += 1;
    }
    None
}

fn scan_inline(masked: &str, source: &str, region: Range<usize>) -> Scan {
    let start = region.start;
    let body = &masked[region.clone()];
    let mut roles = Vec::new();
    let mut spans = Vec::new();
    let mut text_ranges: Vec<Range<usize>> = Vec::new();
    let mut protected: Vec<Range<usize>> = Vec::new();
    let mut code_block_depth = 0usize;

    for (event, range) in Parser::new_ext(body, markdown_options()).into_offset_iter() {
        let range = range.start + start..range.end + start;
        match event {
            Event::InlineMath(tex) | Event::DisplayMath(tex) => {
                let delimiter = if source[range.clone()].starts_with("$$") {
                    Delimiter::DoubleDollar
                } else {
                    Delimiter::Dollar
                };
                let delim_len = if delimiter == Delimiter::DoubleDollar {
                    2
                } else {
                    1
                };
                let inner = range.start + delim_len..range.end.saturating_sub(delim_len);
                let tex_offset = (inner.start <= inner.end
                    && source.get(inner.clone()) == Some(tex.as_ref()))
                .then_some(inner.start);
                protected.push(range.clone());
                spans.push(MathSpan {
                    range,
                    tex: tex.into_string(),
                    tex_offset,
                    delimiter,
                });
            }
            Event::Start(Tag::CodeBlock(_)) => {
                code_block_depth += 1;
                protected.push(range);
            }
            Event::End(TagEnd::CodeBlock) => code_block_depth = code_block_depth.saturating_sub(1),
            Event::Code(content) => {
                if let Some(role) = role_before(source, range.clone(), &content) {
                    roles.push(role);
                }
                protected.push(range)
            }
            Event::Html(_) | Event::InlineHtml(_) => protected.push(range),
            Event::Text(_) if code_block_depth == 0 => text_ranges.push(range),
            _ => {}
        }
    }

    find_backslash_math(source, &text_ranges, &protected, &mut spans);
    let includes: Vec<Range<usize>> = include_ranges(source)
        .into_iter()
        .filter(|r| r.start >= region.start && r.end <= region.end)
        .collect();
    spans.retain(|s| !includes.iter().any(|r| overlaps(r, &s.range)));
    spans.sort_by_key(|s| s.range.start);
    let mut suspicious = suspicious_dollars(source, &text_ranges);
    suspicious.retain(|r| !includes.iter().any(|i| overlaps(i, r)));
    Scan {
        math: spans,
        suspicious,
        roles,
    }
}

/// A MyST role: `{name}` immediately followed by a code span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleSpan {
    /// `{name}` plus the code span.
    pub range: Range<usize>,
    /// Role name.
    pub name: String,
    /// Bytes of the name.
    pub name_span: Range<usize>,
    /// The code span's text.
    pub content: String,
}

fn role_before(source: &str, code: Range<usize>, content: &str) -> Option<RoleSpan> {
    let before = &source[..code.start];
    let before = before.strip_suffix('}')?;
    let open = before.rfind('{')?;
    let name = &before[open + 1..];
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        || !name.starts_with(|c: char| c.is_ascii_alphabetic())
    {
        return None;
    }
    Some(RoleSpan {
        range: open..code.end,
        name: name.to_string(),
        name_span: open + 1..open + 1 + name.len(),
        content: content.to_string(),
    })
}

/// Finds `$...$` in prose text whose content looks like TeX (a backslash, brace, `^`
/// or `_`): the author meant math, but Markdown did not accept it as math.
fn suspicious_dollars(source: &str, text_ranges: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut merged: Vec<Range<usize>> = Vec::new();
    for r in text_ranges {
        match merged.last_mut() {
            Some(last) if last.end == r.start => last.end = r.end,
            _ => merged.push(r.clone()),
        }
    }
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    for r in merged {
        let mut i = r.start;
        while i < r.end {
            if bytes[i] == b'$'
                && !escaped(bytes, i)
                && i + 1 < r.end
                && !bytes[i + 1].is_ascii_whitespace()
            {
                let close = (i + 1..r.end).find(|&j| {
                    bytes[j] == b'$' && !escaped(bytes, j) && !bytes[j - 1].is_ascii_whitespace()
                });
                if let Some(j) = close {
                    let inner = &source[i + 1..j];
                    if !inner.contains('\n') && inner.contains(['\\', '{', '}', '^', '_']) {
                        out.push(i..j + 1);
                    }
                    i = j + 1;
                    continue;
                }
            }
            i += 1;
        }
    }
    out
}

/// Finds `\(...\)` and `\[...\]` whose delimiters sit in prose text.
fn find_backslash_math(
    source: &str,
    text_ranges: &[Range<usize>],
    protected: &[Range<usize>],
    spans: &mut Vec<MathSpan>,
) {
    let bytes = source.as_bytes();
    let in_text = |pos: usize| {
        text_ranges
            .iter()
            .any(|r| r.start <= pos + 1 && pos + 1 < r.end.max(r.start + 1) || r.contains(&pos))
    };
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i] == b'\\' && (bytes[i + 1] == b'(' || bytes[i + 1] == b'[') && !escaped(bytes, i)
        {
            let display = bytes[i + 1] == b'[';
            let close: &[u8] = if display { b"\\]" } else { b"\\)" };
            if in_text(i) && !protected.iter().any(|r| r.contains(&i)) {
                if let Some(end) = find_close(bytes, i + 2, close, display) {
                    let range = i..end + 2;
                    let blocked = protected.iter().any(|r| overlaps(r, &range));
                    if !blocked && in_text(end) {
                        let inner = i + 2..end;
                        let raw = &source[inner.clone()];
                        let tex = if raw.contains('\n') {
                            strip_container_prefixes(raw)
                        } else {
                            raw.to_string()
                        };
                        let tex_offset = (tex == raw).then_some(inner.start);
                        spans.push(MathSpan {
                            range: range.clone(),
                            tex,
                            tex_offset,
                            delimiter: if display {
                                Delimiter::Bracket
                            } else {
                                Delimiter::Paren
                            },
                        });
                        i = range.end;
                        continue;
                    }
                }
            }
        }
        i += 1;
    }
}

/// True when the byte at `i` is preceded by an odd number of backslashes.
fn escaped(bytes: &[u8], i: usize) -> bool {
    let mut n = 0;
    let mut j = i;
    while j > 0 && bytes[j - 1] == b'\\' {
        n += 1;
        j -= 1;
    }
    n % 2 == 1
}

/// Finds the closing delimiter; inline math stays on one line, display math may
/// span lines but not a blank line (a paragraph break).
fn find_close(bytes: &[u8], from: usize, close: &[u8], display: bool) -> Option<usize> {
    let mut j = from;
    while j + 1 < bytes.len() {
        if bytes[j] == b'\n' {
            if !display {
                return None;
            }
            let rest = &bytes[j + 1..];
            let line_end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            if rest[..line_end]
                .iter()
                .all(|&b| matches!(b, b' ' | b'\t' | b'>' | b'\r'))
            {
                return None;
            }
        }
        if bytes[j] == b'\\' {
            if &bytes[j..j + 2] == close && !escaped(bytes, j) {
                return Some(j);
            }
            j += 2;
            continue;
        }
        j += 1;
    }
    None
}

/// Removes block-quote markers and indentation from continuation lines of a
/// multi-line formula inside a list item or block quote.
fn strip_container_prefixes(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for (n, line) in raw.split('\n').enumerate() {
        if n == 0 {
            out.push_str(line);
        } else {
            out.push('\n');
            let trimmed = line.trim_start_matches([' ', '\t']);
            let mut rest = trimmed;
            while let Some(r) = rest.strip_prefix('>') {
                rest = r.strip_prefix(' ').unwrap_or(r);
            }
            out.push_str(rest);
        }
    }
    out
}

/// Byte ranges of `{{#include ...}}`-style mdBook links, which are never touched.
fn include_ranges(source: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(pos) = source[from..].find("{{#") {
        let start = from + pos;
        let line_end = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        match source[start..line_end].find("}}") {
            Some(end) => {
                out.push(start..start + end + 2);
                from = start + end + 2;
            }
            None => from = start + 3,
        }
    }
    out
}

fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texs(src: &str) -> Vec<(String, Delimiter)> {
        find_math(src, 0)
            .into_iter()
            .map(|s| (s.tex, s.delimiter))
            .collect()
    }

    fn ranges_ok(src: &str) {
        for s in find_math(src, 0) {
            let slice = &src[s.range.clone()];
            assert!(
                slice.starts_with('$') || slice.starts_with('\\'),
                "bad range {slice:?}"
            );
            if let Some(off) = s.tex_offset {
                assert_eq!(&src[off..off + s.tex.len()], s.tex);
            }
        }
    }

    #[test]
    fn inline_and_display_dollars() {
        let src = "Let $x^2$ be.\n\n$$\n\\sum_i x_i\n$$\n";
        assert_eq!(
            texs(src),
            vec![
                ("x^2".into(), Delimiter::Dollar),
                ("\n\\sum_i x_i\n".into(), Delimiter::DoubleDollar)
            ]
        );
        ranges_ok(src);
    }

    #[test]
    fn code_is_never_math() {
        let src = "Use `$x$` here.\n\n```\n$y$\n\\(z\\)\n```\n\n    $w$ indented\n\nbut $v$.";
        assert_eq!(texs(src), vec![("v".into(), Delimiter::Dollar)]);
    }

    #[test]
    fn escaped_dollar_and_prices() {
        assert!(texs("It costs \\$5 and \\$10.").is_empty());
        assert!(texs("It costs $5 and $10 today.").is_empty());
    }

    #[test]
    fn html_comments_are_skipped() {
        assert!(texs("<!-- $x$ \\(y\\) -->\n\ntext").is_empty());
        assert_eq!(texs("a <!-- $x$ --> $y$").len(), 1);
    }

    #[test]
    fn backslash_delimiters() {
        let src = "Inline \\(a+b\\) and display \\[\\frac{1}{2}\\] and not \\\\(c\\\\).";
        assert_eq!(
            texs(src),
            vec![
                ("a+b".into(), Delimiter::Paren),
                ("\\frac{1}{2}".into(), Delimiter::Bracket)
            ]
        );
        ranges_ok(src);
    }

    #[test]
    fn multiline_bracket_in_blockquote() {
        let src = "> \\[\n> a \\\\\n> b\n> \\]\n";
        assert_eq!(
            texs(src),
            vec![("\na \\\\\nb\n".into(), Delimiter::Bracket)]
        );
    }

    #[test]
    fn math_in_lists_tables_quotes_footnotes_headings() {
        let src = "# Head $h$\n\n- item $l$\n\n| a | b |\n|---|---|\n| $t$ | x |\n\n> quote $q$\n\nText[^n].\n\n[^n]: note $f$\n";
        let found: Vec<String> = texs(src).into_iter().map(|t| t.0).collect();
        assert_eq!(found, vec!["h", "l", "t", "q", "f"]);
        ranges_ok(src);
    }

    #[test]
    fn unbalanced_braces_are_suspicious_not_dropped() {
        let src = "Bad $\\frac{1}{2$ here, price $5 and $10.";
        let scan = scan(src, 0);
        assert!(scan.math.is_empty());
        assert_eq!(scan.suspicious.len(), 1);
        assert_eq!(&src[scan.suspicious[0].clone()], "$\\frac{1}{2$");
    }

    #[test]
    fn display_block_lines_are_not_markdown_structure() {
        let src = "Text:\n$$\nA\n=\nB\n- c\n+ d\n# e\n$$\nafter\n";
        let found = find_math(src, 0);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].tex, "\nA\n=\nB\n- c\n+ d\n# e\n");
        assert_eq!(found[0].tex_offset, Some(8));
        assert_eq!(
            &src[found[0].range.clone()],
            "$$\nA\n=\nB\n- c\n+ d\n# e\n$$"
        );
        let src = "> \\[\n> a\n> = b\n> \\]\n";
        let found = find_math(src, 0);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].tex, "\na\n= b\n");
        assert_eq!(found[0].delimiter, Delimiter::Bracket);
    }

    #[test]
    fn display_block_in_code_fence_is_left_alone() {
        assert!(find_math("```\n$$\na\n=\n$$\n```\n", 0).is_empty());
        assert!(find_math("<div>\n$$\na\n$$\n</div>\n", 0).is_empty());
    }

    #[test]
    fn roles_are_found() {
        let src = "See {eq}`eq-a` and `{plain}` and x{b}`c`.";
        let roles = scan(src, 0).roles;
        assert_eq!(roles.len(), 2);
        assert_eq!(roles[0].name, "eq");
        assert_eq!(roles[0].content, "eq-a");
        assert_eq!(&src[roles[0].range.clone()], "{eq}`eq-a`");
    }

    #[test]
    fn region_scan() {
        let src = "$a$ :::\n$b$\n::: $c$";
        let start = src.find("$b").unwrap();
        let found = scan_region(src, start..start + 4).math;
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].tex, "b");
    }

    #[test]
    fn include_lines_are_untouched() {
        assert!(texs("{{#include $a$.md}}\n").is_empty());
    }

    #[test]
    fn start_offset_skips_front_matter() {
        let src = "---\nx: $a$\n---\nText $b$.";
        let start = src.find("Text").unwrap();
        let spans = find_math(src, start);
        assert_eq!(spans.len(), 1);
        assert_eq!(&src[spans[0].range.clone()], "$b$");
    }
}
