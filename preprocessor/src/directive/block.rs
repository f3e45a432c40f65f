//! Finding MyST directive blocks in a chapter, with exact byte positions.
//!
//! Recognised openers (up to three spaces of indentation):
//! - colon fences `:::{name} argument` (three or more colons), closed by a line of at
//!   least as many colons;
//! - backtick fences ```` ```{name} argument ```` (three or more backticks), closed by
//!   a bare fence of at least as many backticks.
//!
//! Right after the opener come options: either `:key: value` lines, or a YAML block
//! between two `---` lines. The rest, up to the closing fence, is the body. Directives
//! nest: inner fences are matched with a stack, so an inner directive may use the same
//! fence length as long as it is closed first. Lines inside ordinary fenced code blocks
//! and HTML comments are never directives.

use std::ops::Range;

/// One `:key: value` option line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The key, without colons.
    pub key: String,
    /// Bytes of the key.
    pub key_span: Range<usize>,
    /// The value, trimmed (may be empty).
    pub value: String,
    /// Bytes of the value.
    pub value_span: Range<usize>,
}

/// How a directive's options were written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum OptionsSyntax {
    /// No options.
    #[default]
    None,
    /// `:key: value` lines.
    Fields(Vec<Field>),
    /// A YAML block; the range covers the YAML text between the `---` lines.
    Yaml(Range<usize>),
}

/// A directive block as written in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Directive name, e.g. `claim`.
    pub name: String,
    /// Bytes of the name (inside the braces).
    pub name_span: Range<usize>,
    /// Text after `{name}` on the opening line, trimmed.
    pub argument: String,
    /// Bytes of the argument.
    pub argument_span: Range<usize>,
    /// Options.
    pub options: OptionsSyntax,
    /// Bytes of the body (between options and the closing fence).
    pub body: Range<usize>,
    /// The whole block, opener to closing fence line (without its newline).
    pub range: Range<usize>,
    /// Bytes of the opening line.
    pub opener: Range<usize>,
    /// A `---` line of the options block that is missing. The options are then read as
    /// the author meant them (so the block's label still counts), and the block is
    /// reported, not rendered.
    pub options_unclosed: Option<MissingFence>,
}

/// An options block written with one of its two `---` lines missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MissingFence {
    /// The opening `---` (this range) is never closed by a second `---` before the body
    /// or the closing fence; the options are read up to the first blank line.
    Closing(Range<usize>),
    /// The block starts with `key: value` lines (this range is the first key) that end
    /// at a `---` line: the opening `---` is missing.
    Opening(Range<usize>),
}

/// A fence that was opened but never closed: a directive's, or (with an empty `name`)
/// an ordinary code block's, which then runs to the end of the chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unclosed {
    /// Directive name.
    pub name: String,
    /// The opening line.
    pub opener: Range<usize>,
    /// The fence text, e.g. `:::`.
    pub fence: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FenceKind {
    Colon,
    Backtick,
    Tilde,
}

struct Line {
    start: usize,
    end: usize, // without newline
    next: usize,
}

fn lines(source: &str, region: Range<usize>) -> Vec<Line> {
    let mut out = Vec::new();
    let mut pos = region.start;
    while pos < region.end {
        let end = source[pos..region.end]
            .find('\n')
            .map_or(region.end, |i| pos + i);
        let next = (end + 1).min(region.end.max(end));
        out.push(Line {
            start: pos,
            end,
            next: if end < region.end { end + 1 } else { end },
        });
        let _ = next;
        if end >= region.end {
            break;
        }
        pos = end + 1;
    }
    out
}

/// A fence line: kind, length, rest after the fence; `None` when not a fence.
fn fence_of(text: &str) -> Option<(FenceKind, usize, &str)> {
    let indent = text.len() - text.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let t = &text[indent..];
    let c = t.chars().next()?;
    let kind = match c {
        ':' => FenceKind::Colon,
        '`' => FenceKind::Backtick,
        '~' => FenceKind::Tilde,
        _ => return None,
    };
    // Fence characters are ASCII: count bytes.
    let n = t.bytes().take_while(|&x| x == c as u8).count();
    if n < 3 {
        return None;
    }
    Some((kind, n, &t[n..]))
}

/// Parses `{name} argument` after a fence; returns name and argument with offsets
/// relative to `rest`.
fn directive_head(rest: &str) -> Option<(Range<usize>, Range<usize>)> {
    let r = rest.strip_prefix('{')?;
    let close = r.find('}')?;
    let name = &r[..close];
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return None;
    }
    let name_range = 1..1 + close;
    let after = 1 + close + 1;
    let arg_text = &rest[after..];
    let lead = arg_text.len() - arg_text.trim_start().len();
    let arg = arg_text.trim();
    let arg_start = after + lead;
    Some((name_range, arg_start..arg_start + arg.len()))
}

enum Open {
    Directive {
        kind: FenceKind,
        len: usize,
        name: String,
        name_span: Range<usize>,
        argument_span: Range<usize>,
        opener: Range<usize>,
        body_from: usize,
        options: OptionsSyntax,
        options_unclosed: Option<MissingFence>,
        depth_start: bool,
    },
    Code {
        kind: FenceKind,
        len: usize,
        opener: Range<usize>,
    },
}

/// Finds the top-level directive blocks in `source[region]`; nested blocks are left in
/// their parent's body (call again on the body). Unclosed fences are reported.
pub fn find_blocks(source: &str, region: Range<usize>) -> (Vec<Block>, Vec<Unclosed>) {
    let all = lines(source, region.clone());
    let mut blocks = Vec::new();
    let mut unclosed = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut in_comment = false;
    let mut i = 0;
    while i < all.len() {
        let line = &all[i];
        let text = &source[line.start..line.end];
        let text = text.strip_suffix('\r').unwrap_or(text);
        if in_comment {
            if text.contains("-->") {
                in_comment = false;
            }
            i += 1;
            continue;
        }
        // Inside an ordinary code block: only its closing fence matters.
        if let Some(Open::Code { kind, len, .. }) = stack.last() {
            if let Some((k, n, rest)) = fence_of(text) {
                if k == *kind && n >= *len && rest.trim().is_empty() {
                    stack.pop();
                }
            }
            i += 1;
            continue;
        }
        if stack.is_empty() && text.trim_start().starts_with("<!--") && !text.contains("-->") {
            in_comment = true;
            i += 1;
            continue;
        }
        if let Some((kind, len, rest)) = fence_of(text) {
            let fence_start = line.start + (text.len() - text.trim_start_matches(' ').len()) + len;
            // A directive opener?
            if kind != FenceKind::Tilde {
                if let Some((name_r, arg_r)) = directive_head(rest) {
                    let name = rest[name_r.clone()].to_string();
                    let (options, body_line, options_unclosed) = parse_options(source, &all, i + 1);
                    let body_from = all.get(body_line).map_or(line.next, |l| l.start);
                    stack.push(Open::Directive {
                        kind,
                        len,
                        name,
                        name_span: fence_start + name_r.start..fence_start + name_r.end,
                        argument_span: fence_start + arg_r.start..fence_start + arg_r.end,
                        opener: line.start..line.end,
                        body_from,
                        options,
                        options_unclosed,
                        depth_start: stack.is_empty(),
                    });
                    i = body_line;
                    continue;
                }
            }
            // A closing fence for the innermost open directive?
            if rest.trim().is_empty() {
                if let Some(Open::Directive {
                    kind: k, len: n, ..
                }) = stack.last()
                {
                    if *k == kind && len >= *n {
                        if let Some(open) = stack.pop() {
                            blocks.extend(closed_block(source, open, line.start..line.end));
                        }
                        i += 1;
                        continue;
                    }
                }
            }
            // Otherwise an ordinary code fence opens (backticks or tildes).
            if kind != FenceKind::Colon {
                stack.push(Open::Code {
                    kind,
                    len,
                    opener: line.start..line.end,
                });
            }
        }
        i += 1;
    }
    unclosed.extend(never_closed(source, stack));
    (blocks, unclosed)
}

/// The block that `open` becomes when the fence at `closing` (its line) closes it: a
/// top-level block of the region (nested ones are found again in their parent's body).
fn closed_block(source: &str, open: Open, closing: Range<usize>) -> Option<Block> {
    let Open::Directive {
        name,
        name_span,
        argument_span,
        opener,
        body_from,
        options,
        options_unclosed,
        depth_start: true,
        ..
    } = open
    else {
        return None;
    };
    let body_end = closing.start.max(body_from);
    Some(Block {
        argument: source[argument_span.clone()].to_string(),
        name,
        name_span,
        argument_span,
        options,
        body: body_from..body_end,
        range: opener.start..closing.end,
        opener,
        options_unclosed,
    })
}

/// The fences still open at the end of the region, as unclosed blocks.
fn never_closed(source: &str, stack: Vec<Open>) -> Vec<Unclosed> {
    let mut unclosed = Vec::new();
    for open in stack {
        match open {
            Open::Directive {
                kind,
                len,
                name,
                opener,
                ..
            } => {
                let c = if kind == FenceKind::Colon { ':' } else { '`' };
                unclosed.push(Unclosed {
                    name,
                    opener,
                    fence: std::iter::repeat_n(c, len).collect(),
                });
            }
            // Only a code block at the left margin surely runs to the end: an indented
            // one may sit in a list item, which ends it.
            Open::Code { kind, len, opener } if !source[opener.clone()].starts_with(' ') => {
                let c = if kind == FenceKind::Tilde { '~' } else { '`' };
                unclosed.push(Unclosed {
                    name: String::new(),
                    opener,
                    fence: std::iter::repeat_n(c, len).collect(),
                });
            }
            Open::Code { .. } => {}
        }
    }
    unclosed
}

/// Where a directive opener sits in a place this reader does not take directives from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misplaced {
    /// Inside a block quote (`> :::{note}`).
    BlockQuote,
    /// Inside a list item: indented four or more spaces (not recognised) or one to three
    /// (recognised, but its HTML ends the list).
    ListItem,
}

/// Directive openers in `source[region]` that are not read as directives where they
/// stand, or that break the Markdown around them: in a block quote, or in a list item.
/// Code blocks and HTML comments are skipped. Each is the opening line's range.
pub fn misplaced_openers(source: &str, region: Range<usize>) -> Vec<(Range<usize>, Misplaced)> {
    let mut out = Vec::new();
    let mut code: Option<(FenceKind, usize)> = None;
    let mut in_comment = false;
    // Indentation of the current list item's marker line, while inside one.
    let mut list_indent: Option<usize> = None;
    for line in lines(source, region) {
        let text = source[line.start..line.end].trim_end_matches('\r');
        if in_comment {
            in_comment = !text.contains("-->");
            continue;
        }
        if let Some((kind, len)) = code {
            if let Some((k, n, rest)) = fence_of(text) {
                if k == kind && n >= len && rest.trim().is_empty() {
                    code = None;
                }
            }
            continue;
        }
        if text.trim_start().starts_with("<!--") && !text.contains("-->") {
            in_comment = true;
            continue;
        }
        let indent = text.len() - text.trim_start_matches(' ').len();
        let trimmed = &text[indent..];
        if trimmed.is_empty() {
            continue;
        }
        if indent <= 3 {
            if let Some((kind, len, rest)) = fence_of(text) {
                if directive_head(rest).is_none() && kind != FenceKind::Colon {
                    code = Some((kind, len));
                    continue;
                }
            }
        }
        let opener = |t: &str| {
            fence_of(t.trim_start()).is_some_and(|(kind, _, rest)| {
                kind != FenceKind::Tilde && directive_head(rest).is_some()
            })
        };
        if indent <= 3 && trimmed.starts_with('>') {
            let quoted = trimmed.trim_start_matches(['>', ' ']);
            if opener(quoted) {
                out.push((line.start..line.end, Misplaced::BlockQuote));
            }
            continue;
        }
        if is_list_marker(trimmed) && indent <= 3 {
            list_indent = Some(indent);
            continue;
        }
        match list_indent {
            Some(_) if opener(trimmed) && indent > 0 => {
                out.push((line.start..line.end, Misplaced::ListItem));
            }
            Some(marker) if indent <= marker => list_indent = None,
            _ => {}
        }
    }
    out
}

/// `- `, `* `, `+ `, `1. `, `1) ` (a list item's marker and a space).
fn is_list_marker(text: &str) -> bool {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let rest = if digits > 0 {
        text[digits..].strip_prefix(['.', ')'])
    } else {
        text.strip_prefix(['-', '*', '+'])
    };
    rest.is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']))
}

/// The key of a line that reads as a YAML `key: value` (a lowercase name, a colon,
/// then a space or the end of the line).
fn yaml_key(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let (key, rest) = t.split_once(':')?;
    let ok = key.starts_with(|c: char| c.is_ascii_lowercase())
        && key
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && (rest.is_empty() || rest.starts_with([' ', '\t']));
    ok.then_some(key)
}

/// Reads options starting at line `first`; returns them, the index of the first body
/// line and, for a `---` block with no closing `---`, the opening `---` line.
///
/// A YAML options block ends at the next `---` line; it never runs past a fence line (a
/// nested directive's opener or this block's closing fence), so a missing `---` cannot
/// swallow the blocks that follow. Without its closing line the options are read up to
/// the first blank line (the usual place of the missing `---`).
fn parse_options(
    source: &str,
    all: &[Line],
    first: usize,
) -> (OptionsSyntax, usize, Option<MissingFence>) {
    let Some(line) = all.get(first) else {
        return (OptionsSyntax::None, first, None);
    };
    let text = source[line.start..line.end].trim_end();
    if text.trim() == "---" {
        let yaml_start = line.next;
        let mut blank = None;
        for (j, l) in all.iter().enumerate().skip(first + 1) {
            let t = source[l.start..l.end].trim_end();
            if t == "---" {
                return (OptionsSyntax::Yaml(yaml_start..l.start), j + 1, None);
            }
            if t.trim().is_empty() && blank.is_none() {
                blank = Some(j);
            }
            if fence_of(t).is_some() {
                let end = blank.unwrap_or(j);
                let yaml_end = all[end].start;
                return (
                    OptionsSyntax::Yaml(yaml_start..yaml_end),
                    end,
                    Some(MissingFence::Closing(line.start..line.end)),
                );
            }
        }
        let end = blank.unwrap_or(all.len());
        let yaml_end = all.get(end).map_or(all[all.len() - 1].next, |l| l.start);
        return (
            OptionsSyntax::Yaml(yaml_start..yaml_end),
            end,
            Some(MissingFence::Closing(line.start..line.end)),
        );
    }
    if let Some(key) = yaml_key(text) {
        // `key: value` lines ending at a `---` line, no blank line between: options
        // whose opening `---` is missing (as Markdown it would be a setext heading).
        for (j, l) in all.iter().enumerate().skip(first + 1) {
            let t = source[l.start..l.end].trim_end();
            if t == "---" {
                let key_start = line.start + (text.len() - text.trim_start().len());
                return (
                    OptionsSyntax::Yaml(line.start..l.start),
                    j + 1,
                    Some(MissingFence::Opening(key_start..key_start + key.len())),
                );
            }
            if t.trim().is_empty() || fence_of(t).is_some() {
                break;
            }
        }
    }
    let mut fields = Vec::new();
    let mut j = first;
    while let Some(l) = all.get(j) {
        let t = &source[l.start..l.end];
        let lead = t.len() - t.trim_start().len();
        let t2 = t.trim_start();
        let Some(rest) = t2.strip_prefix(':') else {
            break;
        };
        let Some(colon) = rest.find(':') else { break };
        let key = &rest[..colon];
        if key.is_empty()
            || !key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            break;
        }
        let key_start = l.start + lead + 1;
        let value_raw = &rest[colon + 1..];
        let value = value_raw.trim();
        let value_start = key_start + colon + 1 + (value_raw.len() - value_raw.trim_start().len());
        fields.push(Field {
            key: key.to_string(),
            key_span: key_start..key_start + key.len(),
            value: value.to_string(),
            value_span: value_start..value_start + value.len(),
        });
        j += 1;
    }
    if fields.is_empty() {
        (OptionsSyntax::None, first, None)
    } else {
        (OptionsSyntax::Fields(fields), j, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(src: &str) -> Vec<Block> {
        let (b, u) = find_blocks(src, 0..src.len());
        assert!(u.is_empty(), "{u:?}");
        b
    }

    #[test]
    fn colon_fence_with_fields() {
        let src = "Intro\n\n:::{claim} empirical\n:source: Someone (2024), *Title*\nBody **bold**.\n:::\nafter\n";
        let b = &blocks(src)[0];
        assert_eq!(b.name, "claim");
        assert_eq!(&src[b.name_span.clone()], "claim");
        assert_eq!(b.argument, "empirical");
        assert_eq!(&src[b.body.clone()], "Body **bold**.\n");
        assert_eq!(
            &src[b.range.clone()],
            ":::{claim} empirical\n:source: Someone (2024), *Title*\nBody **bold**.\n:::"
        );
        match &b.options {
            OptionsSyntax::Fields(f) => {
                assert_eq!(f[0].key, "source");
                assert_eq!(f[0].value, "Someone (2024), *Title*");
                assert_eq!(&src[f[0].value_span.clone()], "Someone (2024), *Title*");
            }
            o => panic!("{o:?}"),
        }
    }

    #[test]
    fn backtick_fence_with_yaml() {
        let src = "```{formula} Gradient descent\n---\nstatus: model\ntex: x\n---\nReading.\n```\n";
        let b = &blocks(src)[0];
        assert_eq!(b.argument, "Gradient descent");
        match &b.options {
            OptionsSyntax::Yaml(r) => assert_eq!(&src[r.clone()], "status: model\ntex: x\n"),
            o => panic!("{o:?}"),
        }
        assert_eq!(&src[b.body.clone()], "Reading.\n");
    }

    #[test]
    fn nesting_with_longer_and_equal_fences() {
        let src = "::::{practice} P\nQ\n:::{solution}\nA\n:::\n::::\n\n:::{practice} Q2\n:::{solution}\nB\n:::\n:::\n";
        let b = blocks(src);
        assert_eq!(b.len(), 2);
        assert_eq!(&src[b[0].body.clone()], "Q\n:::{solution}\nA\n:::\n");
        assert_eq!(&src[b[1].body.clone()], ":::{solution}\nB\n:::\n");
    }

    #[test]
    fn code_blocks_and_comments_hide_directives() {
        let src =
            "```markdown\n:::{claim} x\n:::\n```\n\n<!--\n:::{note}\n:::\n-->\n\n    :::{note}\n";
        assert!(blocks(src).is_empty());
    }

    #[test]
    fn code_fence_inside_backtick_directive() {
        let src = "````{note}\n```python\nx = 1\n```\n````\n";
        let b = blocks(src);
        assert_eq!(b.len(), 1);
        assert_eq!(&src[b[0].body.clone()], "```python\nx = 1\n```\n");
    }

    #[test]
    fn unclosed_is_reported() {
        let src = "text\n:::{note} Hi\nbody\n";
        let (b, u) = find_blocks(src, 0..src.len());
        assert!(b.is_empty());
        assert_eq!(u[0].name, "note");
        assert_eq!(&src[u[0].opener.clone()], ":::{note} Hi");
    }
}
