//! Tokens: the TeX cut into control words, control symbols, whitespace runs and single
//! characters the way KaTeX reads it, each with its bytes; and [`Tok`], a token after
//! normalization with what the matcher needs to know about it.

use std::ops::Range;

/// Commands an author may not write in math: `\href`, `\url`, `\includegraphics`,
/// `\htmlData`, `\htmlClass`, `\htmlId`, `\htmlStyle`. Name and bytes of each.
///
/// Only whole control words count (`\hrefx` is a different command) and commands inside
/// `%` comments are ignored.
pub fn forbidden_commands(tex: &str) -> Vec<(String, Range<usize>)> {
    const FORBIDDEN: &[&str] = &[
        "\\href",
        "\\url",
        "\\includegraphics",
        "\\htmlData",
        "\\htmlClass",
        "\\htmlId",
        "\\htmlStyle",
    ];
    // A forbidden control word is written out in full: a formula that holds none of
    // them as text (nearly every one) needs no tokenizing.
    if !FORBIDDEN.iter().any(|f| tex.contains(f)) {
        return Vec::new();
    }
    tokenize(tex)
        .into_iter()
        .filter(|t| t.kind == Kind::Word && FORBIDDEN.contains(&t.text.as_str()))
        .filter_map(|t| t.range.map(|r| (t.text, r)))
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `\` + letters (and `@`, as in KaTeX).
    Word,
    /// `\` + one other character.
    Symbol,
    /// A whitespace run.
    Space,
    /// Any other single character.
    Char,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) text: String,
    pub(crate) kind: Kind,
    pub(crate) range: Option<Range<usize>>,
}

pub(crate) fn tokenize(tex: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = tex.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        let kind;
        let mut end = start + c.len_utf8();
        if c == '\\' {
            match chars.peek().copied() {
                Some((_, d)) if d.is_ascii_alphabetic() || d == '@' => {
                    while let Some(&(i, d)) = chars.peek() {
                        if d.is_ascii_alphabetic() || d == '@' {
                            end = i + d.len_utf8();
                            chars.next();
                        } else {
                            break;
                        }
                    }
                    kind = Kind::Word;
                }
                Some((i, d)) => {
                    end = i + d.len_utf8();
                    chars.next();
                    kind = Kind::Symbol;
                }
                None => kind = Kind::Char,
            }
        } else if c == '%' {
            // A comment: dropped up to (not including) the end of the line.
            while let Some(&(_, d)) = chars.peek() {
                if d == '\n' {
                    break;
                }
                chars.next();
            }
            continue;
        } else if c.is_whitespace() {
            while let Some(&(i, d)) = chars.peek() {
                if d.is_whitespace() {
                    end = i + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            kind = Kind::Space;
        } else {
            kind = Kind::Char;
        }
        out.push(Token {
            text: tex[start..end].to_string(),
            kind,
            range: Some(start..end),
        });
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Plain,
    GroupOpen,
    GroupClose,
    ArgOpen,
    ArgClose,
    OptOpen,
    OptClose,
    /// The `*` of `\operatorname*`.
    Star,
}

/// A normalized token with what the matcher needs to know about it.
#[derive(Debug, Clone)]
pub(crate) struct Tok {
    pub(crate) text: String,
    pub(crate) kind: Kind,
    pub(crate) range: Option<Range<usize>>,
    pub(crate) role: Role,
    /// Change of nesting depth: braces, brackets of an optional argument, `\begin`/`\end`.
    pub(crate) delta: i32,
    /// Inside an opaque argument: no match starts here, never undefined.
    pub(crate) opaque: bool,
    /// Inside `\sym`/`\nosym` or a dimension: never part of a match, never undefined.
    pub(crate) locked: bool,
    /// A `\left`/`\right`/`\big` command or its delimiter: never part of a match.
    pub(crate) delim: bool,
    /// No match may end right before this token (it is an argument of what precedes).
    pub(crate) arg_start: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize;

    fn kinds(tex: &str) -> Vec<(String, Kind)> {
        tokenize(tex)
            .into_iter()
            .map(|t| (t.text, t.kind))
            .collect()
    }

    #[test]
    fn tokenizes_words_symbols_spaces_and_chars() {
        let toks = tokenize(r"\theta_t \, x\|{}");
        let texts: Vec<&str> = toks.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            [r"\theta", "_", "t", " ", r"\,", " ", "x", r"\|", "{", "}"]
        );
        assert_eq!(toks[0].kind, Kind::Word);
        assert_eq!(toks[0].range, Some(0..6));
        assert_eq!(toks[3].kind, Kind::Space);
        assert_eq!(toks[4].kind, Kind::Symbol);
        assert_eq!(toks[4].range, Some(9..11));
        assert_eq!(toks[7].kind, Kind::Symbol);
        assert_eq!(toks[9].kind, Kind::Char);
    }

    #[test]
    fn tokenizes_control_word_letters_only() {
        assert_eq!(
            kinds(r"\operatorname{x}\alpha2\\\{"),
            [
                (r"\operatorname".to_string(), Kind::Word),
                ("{".to_string(), Kind::Char),
                ("x".to_string(), Kind::Char),
                ("}".to_string(), Kind::Char),
                (r"\alpha".to_string(), Kind::Word),
                ("2".to_string(), Kind::Char),
                (r"\\".to_string(), Kind::Symbol),
                (r"\{".to_string(), Kind::Symbol),
            ]
        );
    }

    #[test]
    fn tokenizer_keeps_whitespace_runs() {
        let toks = tokenize("\\text{a  b}\n\t");
        let texts: Vec<&str> = toks.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, [r"\text", "{", "a", "  ", "b", "}", "\n\t"]);
    }

    #[test]
    fn tokenizer_drops_comments_but_keeps_the_newline() {
        let toks = tokenize("a % comment \\theta\nb");
        let texts: Vec<&str> = toks.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["a", " ", "\n", "b"]);
        assert_eq!(toks[3].range, Some(19..20));
        // `\%` is a control symbol, not a comment.
        let texts: Vec<String> = tokenize(r"5\% x").into_iter().map(|t| t.text).collect();
        assert_eq!(texts, ["5", r"\%", " ", "x"]);
        // A comment at the very end.
        assert_eq!(normalize("x%"), "x");
    }

    #[test]
    fn tokenizer_handles_non_ascii_and_a_lone_backslash() {
        let toks = tokenize("θ\\θ\\");
        assert_eq!(toks.len(), 3);
        assert_eq!(
            (toks[0].text.as_str(), toks[0].range.clone()),
            ("θ", Some(0..2))
        );
        assert_eq!((toks[1].text.as_str(), toks[1].kind), ("\\θ", Kind::Symbol));
        assert_eq!(toks[1].range, Some(2..5));
        assert_eq!((toks[2].text.as_str(), toks[2].kind), ("\\", Kind::Char));
        assert!(tokenize("").is_empty());
    }
}
