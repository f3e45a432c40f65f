//! `\(...\)` and `\[...\]`: display blocks on lines of their own (found before
//! Markdown parsing), and backslash delimiters in prose text.

use std::ops::Range;

use super::span::{Delimiter, MathSpan};
use super::text::{escaped, quote_depth, strip_container_prefixes, Regions};

/// Display blocks `\[ ... \]` that start on their own line (after optional
/// indentation and `>` markers) and close within the same paragraph. They are found
/// before Markdown parsing so that TeX lines starting with `=`, `-`, `+` or `#` are not
/// read as headings or list items; code and HTML are respected. Masks them in `masked`.
pub(super) fn mask_display_blocks(
    source: &str,
    masked: &mut [u8],
    region: Range<usize>,
    not_prose: &Regions,
) -> Vec<MathSpan> {
    let bytes = &source.as_bytes()[..region.end];
    let mut blocks = Vec::new();
    let mut closer = CloseFinder::new(b"\\]", false);
    let mut line_start = region.start;
    while line_start < region.end {
        let line_end = source[line_start..region.end]
            .find('\n')
            .map_or(region.end, |i| line_start + i);
        let mut p = line_start;
        while p < line_end && matches!(bytes[p], b' ' | b'\t' | b'>') {
            p += 1;
        }
        let mut next = line_end + 1;
        let opens = source[p..line_end].starts_with("\\[")
            && !escaped(bytes, p)
            && masked[p] == b'\\'
            && not_prose.containing(p).is_none();
        if let Some(end) = opens.then(|| closer.find(bytes, p + 2)).flatten() {
            let range = p..end + 2;
            if !not_prose.overlaps(&range) && source[p + 2..end].contains('\n') {
                let raw = &source[p + 2..end];
                let tex = strip_container_prefixes(raw, quote_depth(source, p));
                masked[range.clone()].fill(b'x');
                blocks.push(MathSpan {
                    range,
                    tex_offset: (tex == raw).then_some(p + 2),
                    tex,
                    delimiter: Delimiter::Bracket,
                });
                next = source[end..region.end]
                    .find('\n')
                    .map_or(region.end, |i| end + i)
                    + 1;
            }
        }
        line_start = next;
    }
    blocks
}

/// Finds the closing `\]` or `\)` of a backslash delimiter: inline math stays on one
/// line, display math may span lines but not a blank line. Remembers where the last
/// failed search gave up, so a text with thousands of unclosed openers stays linear.
struct CloseFinder {
    close: &'static [u8],
    inline: bool,
    /// No unescaped closer lies before this position (since the last failed search).
    fails_before: usize,
}

impl CloseFinder {
    fn new(close: &'static [u8], inline: bool) -> CloseFinder {
        CloseFinder {
            close,
            inline,
            fails_before: 0,
        }
    }

    fn find(&mut self, bytes: &[u8], from: usize) -> Option<usize> {
        if from < self.fails_before {
            return None;
        }
        let mut j = from;
        while j + 1 < bytes.len() {
            if bytes[j] == b'\n' {
                let rest = &bytes[j + 1..];
                let line_end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                if self.inline
                    || rest[..line_end]
                        .iter()
                        .all(|&b| matches!(b, b' ' | b'\t' | b'>' | b'\r'))
                {
                    self.fails_before = j;
                    return None;
                }
            }
            if bytes[j..j + 2] == *self.close && !escaped(bytes, j) {
                return Some(j);
            }
            j += 1;
        }
        self.fails_before = bytes.len();
        None
    }
}

/// Finds `\(...\)` and `\[...\]` whose delimiters sit in prose text of `masked`, and
/// each `\(` in prose that nothing closes.
pub(super) fn find_backslash_math(
    source: &str,
    masked: &str,
    region: Range<usize>,
    text: &Regions,
    protected: &Regions,
) -> (Vec<MathSpan>, Vec<Range<usize>>) {
    let bytes = &masked.as_bytes()[..region.end];
    // Markdown reads `\(` as an escaped `(`, so the text event may start one byte later.
    let in_text = |pos: usize| text.containing(pos).is_some() || text.containing(pos + 1).is_some();
    let mut inline = CloseFinder::new(b"\\)", true);
    let mut display = CloseFinder::new(b"\\]", false);
    let mut spans = Vec::new();
    let mut unclosed = Vec::new();
    let mut i = region.start;
    while i + 1 < bytes.len() {
        let Some(off) = masked[i..region.end].find('\\') else {
            break;
        };
        i += off;
        if i + 1 >= bytes.len() {
            break;
        }
        let is_display = bytes[i + 1] == b'[';
        if (is_display || bytes[i + 1] == b'(')
            && !escaped(bytes, i)
            && in_text(i)
            && protected.containing(i).is_none()
        {
            let finder = if is_display {
                &mut display
            } else {
                &mut inline
            };
            if let Some(end) = finder.find(bytes, i + 2) {
                let range = i..end + 2;
                // Dollar math inside means these were escaped brackets around prose
                // (`\[see $x$\]`), as mdbook-katex books write them.
                let holds_math =
                    masked.as_bytes()[range.clone()] != source.as_bytes()[range.clone()];
                if !protected.overlaps(&range) && in_text(end) && !holds_math {
                    let raw = &source[i + 2..end];
                    let tex = if raw.contains('\n') {
                        strip_container_prefixes(raw, quote_depth(source, i))
                    } else {
                        raw.to_string()
                    };
                    spans.push(MathSpan {
                        range: range.clone(),
                        tex_offset: (tex == raw).then_some(i + 2),
                        tex,
                        delimiter: if is_display {
                            Delimiter::Bracket
                        } else {
                            Delimiter::Paren
                        },
                    });
                    i = range.end;
                    continue;
                }
            } else if !is_display {
                unclosed.push(i..i + 2);
            }
        }
        i += 1;
    }
    (spans, unclosed)
}
