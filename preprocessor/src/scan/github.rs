//! GitHub's math syntax (```` ```math ```` blocks, `` $`...`$ ``), read in every book, and
//! `$` read by pulldown-cmark's math extension (`delimiters = "github"`).

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

use super::span::{markdown_options, structure_options, Delimiter, MathSpan};

/// GitHub's math syntax, read in every book: a fenced code block whose info string is
/// `math` (display), and a code span with a `$` right before and right after it
/// (`` $`x^2`$ ``, inline). Ranges cover the fences or the dollars.
pub fn github_math(source: &str, region: Range<usize>) -> Vec<MathSpan> {
    let body = &source[region.clone()];
    if !body.contains("```math") && !body.contains("~~~math") && !body.contains("$`") {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut block: Option<(Range<usize>, String)> = None;
    for (event, range) in Parser::new_ext(body, structure_options()).into_offset_iter() {
        let range = range.start + region.start..range.end + region.start;
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                if info.split_whitespace().next() == Some("math") =>
            {
                block = Some((range, String::new()));
            }
            Event::Text(t) => {
                if let Some((_, tex)) = &mut block {
                    tex.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((range, tex)) = block.take() {
                    // The closing fence ends the block (a trailing line break is not part of it).
                    let end = source[..range.end].trim_end_matches(['\n', '\r']).len();
                    out.push(MathSpan {
                        range: range.start..end.max(range.start),
                        tex,
                        tex_offset: None,
                        delimiter: Delimiter::DoubleDollar,
                    });
                }
            }
            Event::Code(tex) => {
                let before = range.start.checked_sub(1).map(|i| source.as_bytes()[i]);
                let after = source.as_bytes().get(range.end).copied();
                if before == Some(b'$') && after == Some(b'$') && range.end < region.end {
                    out.push(MathSpan {
                        range: range.start - 1..range.end + 1,
                        tex: tex.to_string(),
                        tex_offset: None,
                        delimiter: Delimiter::Dollar,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// `$...$` and `$$...$$` as pulldown-cmark's math extension finds them (the rules of
/// GitHub and of mdBook's proposed `output.html.math`), outside code.
pub(super) fn pulldown_dollar_math(source: &str, region: Range<usize>) -> Vec<MathSpan> {
    let body = &source[region.clone()];
    let mut out = Vec::new();
    for (event, range) in Parser::new_ext(body, markdown_options()).into_offset_iter() {
        let range = range.start + region.start..range.end + region.start;
        let (tex, width, delimiter) = match event {
            Event::InlineMath(t) => (t, 1, Delimiter::Dollar),
            Event::DisplayMath(t) => (t, 2, Delimiter::DoubleDollar),
            _ => continue,
        };
        let raw = source.get(range.start + width..range.end.saturating_sub(width));
        out.push(MathSpan {
            tex_offset: (raw == Some(&*tex)).then_some(range.start + width),
            tex: tex.to_string(),
            range,
            delimiter,
        });
    }
    out
}
