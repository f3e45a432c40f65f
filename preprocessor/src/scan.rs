//! Finding math in a chapter's Markdown, with exact byte ranges.
//!
//! Dollar math is paired the way mdbook-katex pairs it, so a book switched from it gets
//! every formula it had: outside code, `$$...$$` and `$...$` pair with the next
//! unescaped delimiter anywhere (across lines, inside raw HTML, with spaces inside), and
//! `\$` is a literal dollar. On top of that, Markdown decides what is code: code spans,
//! code blocks (fenced or indented), HTML comments and raw `<script>`, `<style>`, `<pre>`
//! blocks are never math. A pair that looks like two prose dollars (a price, a shell
//! variable) is kept as text and reported ([`Declined`]), never silently dropped.
//! `\(...\)` and `\[...\]` are found in prose text only.
//! Everything outside the returned ranges reaches mdBook byte for byte.
//!
//! Every pass is linear (or `n log n`) in the size of the text, whatever it contains.
//!
//! This file holds the entry points, the Markdown layout pass and the dollar pass; the
//! backslash delimiters are in `scan/backslash.rs`, roles in `scan/roles.rs`, GitHub's
//! syntax in `scan/github.rs`, and what the passes share in `scan/span.rs` (formulas,
//! Markdown options) and `scan/text.rs` (ranges, escapes, container prefixes).

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

mod backslash;
mod github;
mod roles;
mod span;
mod text;
use backslash::{find_backslash_math, mask_display_blocks};
pub use github::github_math;
use github::pulldown_dollar_math;
use roles::{role_before, unread_roles_in};
pub use roles::{RoleSpan, UnreadRole};
use span::structure_options;
pub use span::{markdown_options, mdbook_options, Delimiter, MathSpan};
use text::{escaped, include_ranges, quote_depth, strip_container_prefixes, Regions};

/// Why a pair of dollars that mdbook-katex would typeset is kept as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Declined {
    /// The closing `$` starts a number (`$5 and $10`) or, after a space, a word
    /// (`$HOME and $PATH`): two prose dollars, not a formula.
    CloserStartsWord,
    /// The opening `$` ends a word and a space follows (`US$ 20`).
    OpenerEndsWord,
    /// A blank line lies between the two dollars: they are in different paragraphs.
    BlankLine,
    /// A code span, code block, HTML comment or `{{#include}}` lies between the two
    /// dollars.
    CrossesCode,
}

/// A `$...$` (or `$$...$$`) pair that is kept as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclinedPair {
    /// Both dollars and what lies between.
    pub range: Range<usize>,
    /// Why it is not typeset.
    pub why: Declined,
}

/// What scanning a chapter found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// Formulas, sorted, non-overlapping.
    pub math: Vec<MathSpan>,
    /// Dollar pairs mdbook-katex would typeset that are kept as text, in source order:
    /// reported, never dropped silently.
    pub declined: Vec<DeclinedPair>,
    /// MyST roles such as {eq}`eq-softmax`.
    pub roles: Vec<RoleSpan>,
    /// `{calc}` or `{eq}` written where it is not read as a role: inside an HTML block
    /// or inline HTML, or with a space before its code span.
    pub unread_roles: Vec<UnreadRole>,
    /// `\(` in prose that no `\)` closes: Markdown shows it as `(`, losing the
    /// backslash, so the author's formula silently becomes text.
    pub unclosed_parens: Vec<Range<usize>>,
    /// Formulas inside HTML comments: invisible, typeset as mdbook-katex does (a
    /// commented-out paragraph keeps the same HTML), their errors not reported.
    pub commented: Vec<MathSpan>,
}

/// Finds every formula in `source[start..]` (the part after any front matter).
/// Ranges are relative to `source`, sorted and non-overlapping.
pub fn find_math(source: &str, start: usize) -> Vec<MathSpan> {
    scan(source, start).math
}

/// Like [`find_math`], and also reports dollar pairs kept as text.
pub fn scan(source: &str, start: usize) -> Scan {
    scan_region(source, start..source.len())
}

/// Scans `source[region]` as a Markdown document of its own (a chapter, or the body of
/// a directive). Ranges are relative to `source`.
///
/// Three passes: Markdown finds code and HTML; dollars are paired outside code; then,
/// with the dollar math masked, `\[...\]` blocks, `\(...\)`, roles.
pub fn scan_region(source: &str, region: Range<usize>) -> Scan {
    scan_region_with(source, region, Dollars::MdbookKatex)
}

/// How `$` delimits math.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dollars {
    /// Paired as mdbook-katex pairs them (the default).
    #[default]
    MdbookKatex,
    /// As pulldown-cmark's math extension reads them (GitHub's rules: `$` not followed
    /// by a space opens, `$` not preceded by one closes, within a paragraph).
    Github,
}

/// [`scan_region`] with the given `$` rules. GitHub's math syntax (```` ```math ````
/// blocks and `` $`...`$ ``) is read under either.
///
/// The region is scanned as a text of its own, from the start of its first line (no
/// rule looks back past a line start), and the offsets moved back: the scan's copies
/// of the text then cost the region's length, not the chapter's, so a chapter of N
/// blocks is scanned in O(chapter), not O(N × chapter).
pub fn scan_region_with(source: &str, region: Range<usize>, dollars: Dollars) -> Scan {
    if region.start > region.end || region.end > source.len() {
        return scan_in_place(source, region, dollars);
    }
    // From the start of the region's first line: nothing looks back past a line start.
    let base = source[..region.start].rfind('\n').map_or(0, |i| i + 1);
    if base == 0 {
        return scan_in_place(source, region, dollars);
    }
    let mut scan = scan_in_place(
        &source[base..region.end],
        region.start - base..region.end - base,
        dollars,
    );
    let shift = |r: &mut Range<usize>| *r = r.start + base..r.end + base;
    for m in scan.math.iter_mut().chain(scan.commented.iter_mut()) {
        shift(&mut m.range);
        if let Some(o) = &mut m.tex_offset {
            *o += base;
        }
    }
    for d in &mut scan.declined {
        shift(&mut d.range);
    }
    for r in &mut scan.roles {
        shift(&mut r.range);
        shift(&mut r.name_span);
    }
    for u in &mut scan.unread_roles {
        shift(&mut u.range);
    }
    scan
}

/// [`scan_region_with`] on `source` as it is.
fn scan_in_place(source: &str, region: Range<usize>, dollars: Dollars) -> Scan {
    let Layout {
        mut code,
        indented,
        html,
        comments,
    } = code_and_html(source, region.clone());
    let github = github_math(source, region.clone());
    if !github.is_empty() {
        let mut all = code.0.clone();
        all.extend(github.iter().map(|s| s.range.clone()));
        code = Regions::new(all);
    }
    let (mut math, declined) = match dollars {
        Dollars::MdbookKatex => find_dollar_math(source, region.clone(), &code, &indented),
        Dollars::Github => {
            let mut m = pulldown_dollar_math(source, region.clone());
            // pulldown-cmark reads `` $`x`$ `` as `$` math holding backticks.
            m.retain(|s| {
                !github
                    .iter()
                    .any(|g| g.range.start < s.range.end && s.range.start < g.range.end)
            });
            (m, Vec::new())
        }
    };
    math.extend(github);
    // mdbook-katex typesets math inside HTML comments too (invisible either way).
    let none = Regions::default();
    let commented = comments
        .into_iter()
        .flat_map(|c| find_dollar_math(source, c, &none, &none).0)
        .collect();
    let mut masked = source.as_bytes().to_vec();
    for span in &math {
        masked[span.range.clone()].fill(b'x');
    }
    let mut not_prose = code.0.clone();
    not_prose.extend(indented.0.iter().cloned());
    not_prose.extend(html);
    let not_prose = Regions::new(not_prose);
    let blocks = mask_display_blocks(source, &mut masked, region.clone(), &not_prose);
    // Only ASCII bytes were written over whole characters' bytes, so this is valid UTF-8.
    let masked = String::from_utf8(masked).unwrap_or_else(|_| source.to_string());
    let (backslash, unclosed_parens, roles, mut unread_roles) =
        scan_inline(&masked, source, region);
    math.extend(blocks);
    math.extend(backslash);
    math.sort_by_key(|s| s.range.start);
    // `{eq}` inside a formula is TeX (`\textsf{eq}`), not a role written wrong.
    unread_roles.retain(|r| {
        let i = math.partition_point(|m| m.range.end <= r.range.start);
        math.get(i).is_none_or(|m| m.range.start > r.range.start)
    });
    Scan {
        math,
        declined,
        roles,
        unread_roles,
        unclosed_parens,
        commented,
    }
}

/// Code (never math: code spans, fenced code blocks, HTML comments, raw-text HTML
/// blocks, `{{#include}}` links), indented code blocks (never math either), and all raw
/// HTML, as Markdown sees `source[region]`.
fn code_and_html(source: &str, region: Range<usize>) -> Layout {
    let body = &source[region.clone()];
    let mut code = Vec::new();
    let mut indented = Vec::new();
    let mut html = Vec::new();
    // Links open: the link's range and where its text ends so far. What follows the
    // text (`](url "title")`) is an attribute, never typeset.
    let mut links: Vec<(Range<usize>, usize)> = Vec::new();
    for (event, range) in Parser::new_ext(body, structure_options()).into_offset_iter() {
        let range = range.start + region.start..range.end + region.start;
        if let Some((_, text_end)) = links.last_mut() {
            if !matches!(event, Event::End(TagEnd::Link)) {
                *text_end = (*text_end).max(range.end);
            }
        }
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Indented)) => indented.push(range),
            Event::Start(Tag::CodeBlock(_)) | Event::Code(_) => code.push(range),
            Event::Start(Tag::HtmlBlock) => {
                let text = source[range.clone()].trim_start().to_ascii_lowercase();
                if ["<script", "<style", "<pre", "<textarea"]
                    .iter()
                    .any(|t| text.starts_with(t))
                {
                    code.push(range.clone());
                }
                // A tag's attributes are never typeset; the text between tags is.
                code.extend(html_tags(source, range.clone()));
                html.push(range);
            }
            Event::InlineHtml(_) => {
                code.extend(html_tags(source, range.clone()));
                html.push(range)
            }
            // An image's alt text is an attribute (read by screen readers): kept as text.
            Event::Start(Tag::Image { .. }) => code.push(range),
            Event::Start(Tag::Link { .. }) => {
                // The text starts after `[`; `<url>` autolinks have no text part.
                links.push((range.clone(), range.start + 1));
            }
            Event::End(TagEnd::Link) => {
                if let Some((link, text_end)) = links.pop() {
                    if source[link.clone()].starts_with('[') && text_end < link.end {
                        code.push(text_end..link.end);
                    }
                }
            }
            _ => {}
        }
    }
    let mut comments = Vec::new();
    for r in &Regions::new(html.clone()).0 {
        let mut from = r.start;
        while let Some(open) = source[from..r.end].find("<!--") {
            let start = from + open;
            let close = source[start + 4..region.end].find("-->");
            let end = close.map_or(region.end, |e| start + 4 + e + 3);
            code.push(start..end);
            // The inside: up to the `-->`, or to the end when the comment never closes
            // (cutting three bytes off the end could split a character).
            let inner_end = close.map_or(region.end, |e| start + 4 + e);
            comments.push(start + 4..inner_end.max(start + 4));
            from = end.min(r.end).max(start + 4);
        }
    }
    code.extend(include_ranges(source, &region));
    Layout {
        code: Regions::new(code),
        indented: Regions::new(indented),
        html,
        comments,
    }
}

/// The tags (`<a title="...">`, `</div>`) in HTML at `source[range]`: their attribute
/// text is never typeset. Comments are left to the comment pass.
fn html_tags(source: &str, range: Range<usize>) -> Vec<Range<usize>> {
    let text = &source[range.clone()];
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = text[i..].find('<') {
        let at = i + off;
        let next = bytes.get(at + 1).copied().unwrap_or(b' ');
        if next.is_ascii_alphabetic() || next == b'/' {
            let end = text[at..].find('>').map_or(text.len(), |e| at + e + 1);
            out.push(range.start + at..range.start + end);
            i = end;
        } else {
            i = at + 1;
        }
    }
    out
}

/// What Markdown says about a stretch of source, for the dollar pass.
struct Layout {
    code: Regions,
    indented: Regions,
    html: Vec<Range<usize>>,
    /// The inside of each HTML comment.
    comments: Vec<Range<usize>>,
}

/// Pairs dollars as mdbook-katex does: outside code, `$$` pairs with the next
/// unescaped `$$` and `$` with the next unescaped `$`, wherever they are. A pair that
/// looks like prose dollars is declined, and scanning resumes just after its opening
/// dollar (so `$5 and $10 for $x$` still typesets `$x$`).
fn find_dollar_math(
    source: &str,
    region: Range<usize>,
    code: &Regions,
    indented: &Regions,
) -> (Vec<MathSpan>, Vec<DeclinedPair>) {
    // Inside `$$...$$`, a blank line followed by an indented TeX line reads as an
    // indented code block to Markdown; it is TeX (mdbook-katex typesets it).
    let mut all = code.0.clone();
    all.extend(indented.0.iter().cloned());
    let all = Regions::new(all);
    let bytes = &source.as_bytes()[..region.end];
    let blank = blank_line_starts(source, region.clone());
    let mut math = Vec::new();
    let mut declined = Vec::new();
    let mut i = region.start;
    while let Some(off) = source[i..region.end].find('$') {
        let p = i + off;
        if let Some(r) = all.containing(p) {
            i = r.end;
            continue;
        }
        if escaped(bytes, p) {
            i = p + 1;
            continue;
        }
        let width = if bytes.get(p + 1) == Some(&b'$') {
            2
        } else {
            1
        };
        let Some(q) = dollar_close(source, p + width, region.end, width) else {
            // mdbook-katex stops here; nothing after this dollar pairs.
            i = p + width;
            continue;
        };
        let crosses = if width == 2 {
            code.overlaps(&(p + width..q)) || indented.containing(q).is_some()
        } else {
            all.overlaps(&(p + width..q))
        };
        let why = if crosses {
            Some(Declined::CrossesCode)
        } else if width == 1 {
            prose_dollars(bytes, p, q, &blank)
        } else {
            None
        };
        match why {
            Some(why) => {
                declined.push(DeclinedPair {
                    range: p..q + width,
                    why,
                });
                i = p + width;
            }
            None => {
                math.push(dollar_span(source, p, q, width));
                i = q + width;
            }
        }
    }
    (math, declined)
}

/// The next unescaped `$` (or `$$`) at or after `from`, as mdbook-katex finds it.
fn dollar_close(source: &str, mut from: usize, end: usize, width: usize) -> Option<usize> {
    let close = if width == 2 { "$$" } else { "$" };
    loop {
        let q = from + source[from..end].find(close)?;
        if !escaped(source.as_bytes(), q) {
            return Some(q);
        }
        from = q + width;
    }
}

/// Why an inline pair `bytes[p] .. bytes[q]` reads as two prose dollars, if it does.
fn prose_dollars(bytes: &[u8], p: usize, q: usize, blank: &[usize]) -> Option<Declined> {
    let i = blank.partition_point(|&b| b <= p);
    if blank.get(i).is_some_and(|&b| b < q) {
        return Some(Declined::BlankLine);
    }
    let before_open = p.checked_sub(1).map(|k| bytes[k]);
    if before_open.is_some_and(|c| c.is_ascii_alphanumeric()) && bytes[p + 1].is_ascii_whitespace()
    {
        return Some(Declined::OpenerEndsWord);
    }
    let after_close = bytes.get(q + 1).copied();
    if after_close.is_some_and(|c| c.is_ascii_digit())
        || (bytes[q - 1].is_ascii_whitespace()
            && after_close.is_some_and(|c| c.is_ascii_alphabetic()))
    {
        return Some(Declined::CloserStartsWord);
    }
    None
}

/// Where each blank line of `source[region]` starts (a line of only spaces, tabs and
/// `>` markers: a paragraph break, also inside a block quote).
fn blank_line_starts(source: &str, region: Range<usize>) -> Vec<usize> {
    let mut out = Vec::new();
    let mut line_start = region.start;
    for line in source[region].split_inclusive('\n') {
        if line.ends_with('\n')
            && line
                .bytes()
                .all(|b| matches!(b, b' ' | b'\t' | b'>' | b'\r' | b'\n'))
        {
            out.push(line_start);
        }
        line_start += line.len();
    }
    out
}

/// The formula of a dollar pair opening at `p` and closing at `q`.
fn dollar_span(source: &str, p: usize, q: usize, width: usize) -> MathSpan {
    let raw = &source[p + width..q];
    let tex = if raw.contains('\n') {
        strip_container_prefixes(raw, quote_depth(source, p))
    } else {
        raw.to_string()
    };
    MathSpan {
        range: p..q + width,
        tex_offset: (tex == raw).then_some(p + width),
        tex,
        delimiter: if width == 2 {
            Delimiter::DoubleDollar
        } else {
            Delimiter::Dollar
        },
    }
}

/// `\(...\)`, `\[...\]` in prose text, and roles, from `masked` (the source with dollar
/// math and display blocks masked).
fn scan_inline(masked: &str, source: &str, region: Range<usize>) -> BackslashAndRoles {
    let start = region.start;
    let body = &masked[region.clone()];
    let mut roles = Vec::new();
    let mut unread = Vec::new();
    let mut text_ranges: Vec<Range<usize>> = Vec::new();
    let mut protected: Vec<Range<usize>> = Vec::new();
    let mut code_block_depth = 0usize;
    let mut link_depth = 0usize;

    for (event, range) in Parser::new_ext(body, structure_options()).into_offset_iter() {
        let range = range.start + start..range.end + start;
        match event {
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
            Event::Html(_) | Event::InlineHtml(_) => {
                unread.extend(unread_roles_in(source, range.clone(), true));
                protected.push(range)
            }
            // `[\[Author, 2024\]](url)`: in a link's text, `\[` is an escaped bracket.
            Event::Start(Tag::Link { .. } | Tag::Image { .. }) => link_depth += 1,
            Event::End(TagEnd::Link | TagEnd::Image) => link_depth = link_depth.saturating_sub(1),
            Event::Text(_) if code_block_depth == 0 => {
                unread.extend(unread_roles_in(source, range.clone(), false));
                if link_depth == 0 {
                    text_ranges.push(range)
                }
            }
            _ => {}
        }
    }
    protected.extend(include_ranges(source, &region));
    let (spans, unclosed) = find_backslash_math(
        source,
        masked,
        region,
        &Regions::new(text_ranges),
        &Regions::new(protected),
    );
    (spans, unclosed, roles, unread)
}

/// What [`scan_inline`] finds: `\(…\)`/`\[…\]` formulas, unclosed `\(`, roles and
/// roles that are not read.
type BackslashAndRoles = (
    Vec<MathSpan>,
    Vec<Range<usize>>,
    Vec<RoleSpan>,
    Vec<UnreadRole>,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_scanned_on_its_own_finds_what_it_finds_in_place() {
        // Regions that start a line are scanned as texts of their own (linear in the
        // chapter); every offset must come out as the in-place scan gives it.
        let src = "# T\n\nCosts $5 and $10 for $n$ items, \\(a\\) and {eq}`x`.\n\n\\[\nb\n\\]\n\n> $q$ in a quote\n\n```\n$code$\n```\n\n<!-- $c$ -->\n{{#include a.md}} $$\nd\n$$\n<div>{calc}`1 = 1`</div>\n\n$`g`$ and {calc} `2`\n";
        let mut starts = vec![0];
        starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        for dollars in [Dollars::MdbookKatex, Dollars::Github] {
            // Every line start, and a few starts inside a line.
            let mid: Vec<usize> = starts
                .iter()
                .map(|s| s + 2)
                .filter(|&s| s < src.len())
                .collect();
            for &start in starts.iter().chain(&mid) {
                for &end in starts.iter().filter(|&&e| e >= start).chain([&src.len()]) {
                    let on_its_own = scan_region_with(src, start..end, dollars);
                    let in_place = scan_in_place(src, start..end, dollars);
                    assert_eq!(
                        format!("{on_its_own:?}"),
                        format!("{in_place:?}"),
                        "{start}..{end}"
                    );
                }
            }
        }
    }

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
        // Kept apart: typeset like mdbook-katex, but never reported.
        let found = scan("<!-- $x$ and $$y$$ -->\n\ntext", 0);
        let inside: Vec<&str> = found.commented.iter().map(|s| s.tex.as_str()).collect();
        assert_eq!(inside, vec!["x", "y"]);
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
    fn unbalanced_braces_are_still_math() {
        // mdbook-katex typesets it (as an error); so do we, and KaTeX's error is located.
        let src = "Bad $\\frac{1}{2$ here.";
        assert_eq!(texs(src), vec![("\\frac{1}{2".into(), Delimiter::Dollar)]);
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
        assert!(find_math("~~~\n$x$\n~~~\n", 0).is_empty());
        // `\[` is this project's own delimiter: never inside raw HTML.
        assert!(find_math("<div>\n\\[\na\n\\]\n</div>\n", 0).is_empty());
    }

    /// Math is never typeset inside an attribute: a link's URL or title, an image's
    /// alt text, an HTML tag. A link's text and the text between tags are prose.
    #[test]
    fn attributes_are_never_typeset() {
        let tex =
            |src: &str| -> Vec<String> { scan(src, 0).math.into_iter().map(|m| m.tex).collect() };
        assert!(tex("[text](https://a.b/c \"about $x$\")\n").is_empty());
        assert!(tex("![Plot of $f(x)$](p.png)\n").is_empty());
        assert!(tex("A <a title=\"$y$\" href=\"#\">link</a> here.\n").is_empty());
        assert_eq!(tex("[see $x$](url \"t $z$\") and $w$\n"), ["x", "w"]);
        assert_eq!(tex("<div title=\"$q$\">\n\n$v$ here\n\n</div>\n"), ["v"]);
        assert_eq!(tex("<span class=\"a\">$u$</span>\n"), ["u"]);
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

    fn declined(src: &str) -> Vec<(String, Declined)> {
        scan(src, 0)
            .declined
            .into_iter()
            .map(|d| (src[d.range].to_string(), d.why))
            .collect()
    }

    #[test]
    fn dollars_pair_inside_raw_html() {
        let src = "<table>\n<tr><td>$\\sigma(a_0)$</td><td>$$b$$</td></tr>\n</table>\n";
        assert_eq!(
            texs(src),
            vec![
                ("\\sigma(a_0)".into(), Delimiter::Dollar),
                ("b".into(), Delimiter::DoubleDollar)
            ]
        );
        ranges_ok(src);
    }

    #[test]
    fn inline_dollar_may_span_lines_and_stays_inline() {
        let src =
            "The rule is $\n\\begin{aligned} u &= v \\\\ w &= z \\end{aligned}\n$\nas shown.\n";
        let found = texs(src);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, Delimiter::Dollar);
        assert!(found[0].0.contains("\\begin{aligned}"));
        // Inside a list item the continuation lines lose their indentation.
        let src = "- first $\n  p = q\n  $ end\n";
        assert_eq!(texs(src), vec![("\np = q\n".into(), Delimiter::Dollar)]);
    }

    #[test]
    fn space_before_closing_dollar_then_display_block() {
        let src = "- pick $w$ and $u = $\n$$\nu = w^2\n$$\n- next item $k$\n";
        assert_eq!(
            texs(src),
            vec![
                ("w".into(), Delimiter::Dollar),
                ("u = ".into(), Delimiter::Dollar),
                ("\nu = w^2\n".into(), Delimiter::DoubleDollar),
                ("k".into(), Delimiter::Dollar),
            ]
        );
        assert!(declined(src).is_empty());
    }

    #[test]
    fn spaces_inside_dollars_are_math() {
        assert_eq!(
            texs("so $ y $ holds"),
            vec![(" y ".into(), Delimiter::Dollar)]
        );
    }

    #[test]
    fn display_blocks_back_to_back_and_mid_paragraph() {
        let src = "$$\nf = 1\n$$$$\ng = 2\n$$\nLet $$h = 3$$ so.\n";
        assert_eq!(
            texs(src),
            vec![
                ("\nf = 1\n".into(), Delimiter::DoubleDollar),
                ("\ng = 2\n".into(), Delimiter::DoubleDollar),
                ("h = 3".into(), Delimiter::DoubleDollar),
            ]
        );
    }

    #[test]
    fn indented_lines_after_a_blank_line_inside_a_display_are_tex() {
        let src = "$$\n\\begin{aligned}\n\n    a &= b\n\\end{aligned}\n$$\n";
        assert_eq!(texs(src).len(), 1, "{:?}", declined(src));
        // A display inside an indented code block stays code.
        assert!(texs("Text\n\n    $$\n    a\n    $$\n").is_empty());
    }

    #[test]
    fn display_block_in_quote_loses_markers_but_tex_keeps_its_own() {
        assert_eq!(
            texs("> $$\n> a\n> $$\n"),
            vec![("\na\n".into(), Delimiter::DoubleDollar)]
        );
        // Outside a quote, a TeX line may start with `>` (greater than).
        assert_eq!(
            texs("$$\nx\n> y\n$$\n"),
            vec![("\nx\n> y\n".into(), Delimiter::DoubleDollar)]
        );
    }

    #[test]
    fn prose_dollars_are_kept_as_text_and_reported() {
        let src = "It costs $5 and $10 today.";
        assert!(texs(src).is_empty());
        assert_eq!(
            declined(src),
            vec![("$5 and $".into(), Declined::CloserStartsWord)]
        );
        let src = "Prices: US$ 20 and US$ 30.";
        assert!(texs(src).is_empty());
        assert_eq!(
            declined(src),
            vec![("$ 20 and US$".into(), Declined::OpenerEndsWord)]
        );
        let src = "Shells expand $HOME and $PATH before running.";
        assert!(texs(src).is_empty());
        assert_eq!(declined(src).len(), 1);
        assert!(texs("The range $5-$9 is sold out.").is_empty());
        // After a declined pair, scanning resumes: a real formula later is typeset.
        let src = "It costs $5 and $10 for $n$ items.";
        assert_eq!(texs(src), vec![("n".into(), Delimiter::Dollar)]);
        // A lone dollar is plain text, with no warning.
        assert!(declined("Set $PATH first.").is_empty());
    }

    #[test]
    fn pairs_across_paragraphs_or_code_are_kept_as_text() {
        let src = "It costs $5.\n\nThen $x$ appears.";
        assert_eq!(texs(src), vec![("x".into(), Delimiter::Dollar)]);
        assert_eq!(declined(src)[0].1, Declined::BlankLine);
        let src = "Pay $3 with `$x$`.";
        assert!(texs(src).is_empty());
        assert_eq!(declined(src)[0].1, Declined::CrossesCode);
    }

    #[test]
    fn raw_text_html_and_comments_are_never_math() {
        assert!(texs("<script>\nlet a = $b$;\n</script>\n").is_empty());
        assert!(texs("<pre>\n$x$\n</pre>\n").is_empty());
        assert!(texs("<div>\n<!-- $x$ -->\n</div>\n").is_empty());
    }

    #[test]
    fn escaped_brackets_in_link_text_are_not_math() {
        let src = "See [\\[Author, 2024\\]](https://example.org) and \\[a^2\\].";
        assert_eq!(texs(src), vec![("a^2".into(), Delimiter::Bracket)]);
        // Around dollar math they are escaped brackets too.
        let src = "Noted \\[see $x$ above\\] here.";
        assert_eq!(texs(src), vec![("x".into(), Delimiter::Dollar)]);
    }

    #[test]
    fn backslash_skips_the_next_byte_like_mdbook_katex() {
        // `\\` is an escaped backslash, so the dollar after it opens math.
        assert_eq!(texs("a \\\\$x$ b"), vec![("x".into(), Delimiter::Dollar)]);
        assert_eq!(
            texs("$a \\$ b$"),
            vec![("a \\$ b".into(), Delimiter::Dollar)]
        );
    }

    /// Issue #13: 80,000 unclosed-looking `$a ` in one paragraph once took seconds
    /// (every dollar rescanned the rest of the text). Each one is now looked at once.
    #[test]
    fn many_prose_dollars_scan_in_one_pass() {
        for n in [80_000, 800_000] {
            let src = "$a ".repeat(n);
            let found = scan(&src, 0);
            assert!(found.math.is_empty());
            // Every dollar but the last pairs with the next and is declined.
            assert_eq!(found.declined.len(), n - 1);
            assert!(found
                .declined
                .iter()
                .all(|d| d.why == Declined::CloserStartsWord));
        }
    }

    /// Issue #13: 30,000 unclosed `\[x` lines once took seconds (every opener searched
    /// to the end of the paragraph).
    #[test]
    fn many_unclosed_brackets_scan_in_one_pass() {
        for n in [30_000, 300_000] {
            let src = "\\[x\n".repeat(n);
            assert!(find_math(&src, 0).is_empty());
            let src = "\\(x ".repeat(n);
            assert!(find_math(&src, 0).is_empty());
        }
        // A closer at the very end is still found: it closes the first opener.
        let src = format!("{}\\[y\\]\n", "\\[x\n".repeat(1000));
        let found = find_math(&src, 0);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].range, 0..src.len() - 1);
    }

    #[test]
    fn an_unclosed_comment_ending_in_a_multibyte_character_does_not_panic() {
        // Found by `cargo xtask fuzz` (chapter target, seed 2): the inside of a comment
        // that never closes was cut three bytes before the end, inside `é`.
        for tail in ["é", "日本", "\u{feff}", "$x$ é"] {
            let src = format!("Text with $x$.\n\n<!-- open comment $y$ {tail}");
            let found = scan(&src, 0);
            assert_eq!(found.math.len(), 1, "{src}");
            for c in &found.commented {
                assert!(src.is_char_boundary(c.range.start) && src.is_char_boundary(c.range.end));
            }
        }
    }
}
