//! `mdbook-mathcourse convert-mathjax`: a chapter written for MathJax rewritten with the
//! TeX MathJax received and single backslashes, for `delimiters = "mdbook-katex"`.
//!
//! Each formula becomes `\(...\)` (inline, one line), `$...$` (inline over several
//! lines) or `$$...$$` (display) around exactly the TeX MathJax typesets (so `\\(` is
//! `\(`, `\\\\` is `\\`, `\_` is `_`); a dollar MathJax showed as text becomes `\$`.
//! Everything else is left byte for byte.

use std::ops::Range;

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use super::{scan_region, Tex2jax};

/// What converting a chapter did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Converted {
    /// The new chapter text.
    pub text: String,
    /// Formulas rewritten.
    pub formulas: usize,
    /// Formulas left as written (their TeX holds a `$`), with their byte ranges.
    pub kept: Vec<Range<usize>>,
}

/// Converts one chapter.
pub fn chapter(source: &str, rules: &Tex2jax) -> Converted {
    // A chapter's own MathJax configuration holds on its page (see `theme::page_rules`).
    let page = super::theme::page_rules(source, rules);
    let rules = page.as_ref().unwrap_or(rules);
    let found = scan_region(source, 0..source.len(), rules);
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let mut kept = Vec::new();
    // MathJax keeps a `\newcommand` for the rest of the page; this book's chapters get
    // them in their front matter, and the formulas that only defined them go.
    // In the order last defined: a name defined again moves to the end (its place, by
    // name, clears the earlier entry; a search of the list per definition cost n²).
    let mut macros: Vec<Option<(String, String)>> = Vec::new();
    let mut place: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for f in &found.math {
        if f.tex.contains('$') {
            kept.push(f.range.clone());
            continue;
        }
        let mut tex = f.tex.clone();
        for (name, body, range) in super::compat::definition_spans(&f.tex).into_iter().rev() {
            tex.replace_range(range, "");
            if let Some(earlier) = place.insert(name.clone(), macros.len()) {
                macros[earlier] = None;
            }
            macros.push(Some((name, body)));
        }
        let only_comments = tex
            .lines()
            .all(|l| l.trim().is_empty() || l.trim_start().starts_with('%'));
        if only_comments && tex != f.tex {
            edits.push((f.range.clone(), String::new()));
            continue;
        }
        let tex = tex.trim();
        let text = if f.display {
            format!("$${tex}$$")
        } else if tex.contains('\n') {
            format!("${tex}$")
        } else {
            format!("\\({tex}\\)")
        };
        edits.push((f.range.clone(), text));
    }
    for l in &found.literals {
        let shown = l.shows.replace('$', "\\$");
        edits.push((l.range.clone(), shown));
    }
    // Prose dollars MathJax left as text must stay text when `$` becomes a delimiter.
    // Whether some edited range holds `at`: the ranges by start, each with the farthest
    // end so far (a search of every range per dollar cost n²).
    let mut taken: Vec<Range<usize>> = edits.iter().map(|(r, _)| r.clone()).collect();
    taken.sort_by_key(|r| r.start);
    let reach: Vec<usize> = taken
        .iter()
        .scan(0, |end, r| {
            *end = (*end).max(r.end);
            Some(*end)
        })
        .collect();
    for at in prose_dollars(source) {
        let before = taken.partition_point(|r| r.start <= at);
        if before == 0 || reach[before - 1] <= at {
            edits.push((at..at, "\\".to_string()));
        }
    }
    let macros: Vec<(String, String)> = macros.into_iter().flatten().collect();
    if !macros.is_empty() && !source.starts_with("---") {
        let quote = |t: &str| format!("'{}'", t.replace('\'', "''").replace('\n', " "));
        let mut front = String::from("---\nmacros:\n");
        for (name, body) in &macros {
            front.push_str(&format!("  {}: {}\n", quote(name), quote(body)));
        }
        front.push_str("---\n");
        edits.push((0..0, front));
    }
    edits.sort_by_key(|(r, _)| (r.start, r.end));
    let mut text = String::with_capacity(source.len());
    let mut pos = 0;
    for (range, with) in &edits {
        if range.start < pos {
            continue;
        }
        text.push_str(&source[pos..range.start]);
        text.push_str(with);
        pos = range.end;
    }
    text.push_str(&source[pos..]);
    Converted {
        text,
        formulas: found.math.len() - kept.len(),
        kept,
    }
}

/// Unescaped `$` in Markdown text (not code, not HTML).
fn prose_dollars(source: &str) -> Vec<usize> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut code = 0usize;
    for (event, range) in Parser::new_ext(source, crate::scan::mdbook_options()).into_offset_iter()
    {
        match event {
            Event::Start(Tag::CodeBlock(_)) => code += 1,
            Event::End(TagEnd::CodeBlock) => code = code.saturating_sub(1),
            Event::Text(_) if code == 0 => {
                for i in range.clone() {
                    let escaped =
                        bytes[..i].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1;
                    if bytes[i] == b'$' && !escaped {
                        out.push(i);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_get_single_backslashes_and_prose_dollars_stay_text() {
        let src = "See \\\\(a_1 \\\\{x\\\\}\\\\) and $5, and\n\n$$\nx \\\\\\\\ y\n$$\n\n`$code$`\n";
        let out = chapter(src, &Tex2jax::default());
        assert_eq!(
            out.text,
            "See \\(a_1 \\{x\\}\\) and \\$5, and\n\n$$x \\\\ y$$\n\n`$code$`\n"
        );
        assert_eq!(out.formulas, 2);
    }

    #[test]
    fn page_wide_definitions_move_to_front_matter() {
        let src = "$$\n\\newcommand{\\cat}{\\Vert} % join\n$$\n\nThen \\(a \\cat b\\).\n";
        let out = chapter(src, &Tex2jax::default());
        assert_eq!(
            out.text,
            "---\nmacros:\n  '\\cat': '\\Vert'\n---\n\n\nThen \\(a \\cat b\\).\n"
        );
    }

    #[test]
    fn a_name_defined_again_takes_its_last_place_and_dollars_outside_formulas_are_escaped() {
        let src = "$$\\newcommand{\\a}{1}\\newcommand{\\b}{2}$$\n\n\\(x\\) costs $5.\n\n$$\\newcommand{\\a}{3}$$\n\n\\(\\text{$y$}\\) and $6.\n";
        let out = chapter(src, &Tex2jax::default());
        assert_eq!(
            out.text,
            "---\nmacros:\n  '\\b': '2'\n  '\\a': '3'\n---\n\n\n\\(x\\) costs \\$5.\n\n\n\n\\(\\text{\\$y\\$}\\) and \\$6.\n"
        );
    }
}
