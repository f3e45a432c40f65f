//! The engine's HTML made ready for the page, in one pass over its tags and texts.
//!
//! KaTeX writes each formula three times: MathML (what screen readers read and what a
//! search result shows), the TeX in the MathML's annotation, and the visual HTML. The
//! pass, tag by tag:
//! - every start tag gets its attributes sorted by name (katex-rs keeps some in hash
//!   maps, so their order changes from run to run; sorted, a book is byte-for-byte
//!   reproducible);
//! - text is made safe to splice into Markdown ([`escape_text`]), and a line break in
//!   an attribute value becomes `&#10;`;
//! - the annotation's TeX moves to the `data-tex` attribute of the `.katex` element, so
//!   mdBook's search index (which reads text nodes) holds each formula once;
//! - in the MathML, bold letters become Unicode's bold characters
//!   ([`crate::html::bold_char`]), so they are spoken as bold;
//! - in the visual HTML (`aria-hidden`), text moves into attributes that CSS draws
//!   ([`crate::html::TextMover`]).
//!
//! Hand-written rather than an HTML rewriting library: the input is the engine's own
//! well-formed output, the pass needs a two-token lookahead and nothing of a full HTML
//! parser, and it runs on every formula of a cold build (a tokenizer that allocates a
//! tree or an event per attribute costs more than the engine's own HTML writer).

use std::borrow::Cow;

use crate::html::{bold_char, tokens, Lookahead, TextMover, Token};

/// The opening of KaTeX's MathML annotation (the TeX source).
const ANNOTATION: &str = "<annotation encoding=\"application/x-tex\">";
/// The `.katex` element, which gets the `data-tex` attribute.
const KATEX: &str = "<span class=\"katex\">";
const BOLD: &str = "<mi mathvariant=\"bold\">";
const BOLD_ITALIC: &str = "<mi mathvariant=\"bold-italic\">";

/// The engine's HTML (`raw`) as it goes into the page (see the module docs).
pub fn finish(raw: &str) -> String {
    let mut tex = annotation(raw).map(|t| escape_text(&t));
    // Without a visual copy (MathML output only) the MathML is left as written.
    let bold = raw.contains("class=\"katex-html\"");
    let mut out = String::with_capacity(raw.len() + raw.len() / 4);
    let mut stream = Lookahead::new(tokens(raw).map(prepare));
    let mut visual: Option<TextMover> = None;
    let mut annotation_seen = false;
    while let Some(token) = stream.next() {
        if let Some(mover) = visual.as_mut() {
            mover.push(token, &mut stream, &mut out);
            continue;
        }
        let tag = match token {
            Token::Text(text) => {
                out.push_str(&text);
                continue;
            }
            Token::Tag(tag) => tag,
        };
        if tag == ANNOTATION && !annotation_seen {
            annotation_seen = true;
            for skipped in stream.by_ref() {
                if matches!(&skipped, Token::Tag(t) if t == "</annotation>") {
                    break;
                }
            }
        } else if tag == KATEX && tex.is_some() {
            out.push_str("<span class=\"katex\" data-tex=\"");
            out.push_str(&tex.take().unwrap_or_default());
            out.push_str("\">");
        } else if tag.contains("class=\"katex-html\"") {
            let mut mover = TextMover::default();
            mover.push(Token::Tag(tag), &mut stream, &mut out);
            visual = Some(mover);
        } else if bold && (tag == BOLD || tag == BOLD_ITALIC) {
            let italic = tag == BOLD_ITALIC;
            let letters = match stream.peek2() {
                (Some(Token::Text(text)), Some(Token::Tag(close))) if close == "</mi>" => text
                    .chars()
                    .map(|c| bold_char(c, italic))
                    .collect::<Option<String>>()
                    .filter(|b| !b.is_empty()),
                _ => None,
            };
            match letters {
                Some(letters) => {
                    stream.next();
                    out.push_str("<mi>");
                    out.push_str(&letters);
                }
                None => out.push_str(&tag),
            }
        } else {
            out.push_str(&tag);
        }
    }
    out
}

/// The text of the first MathML annotation of `raw`, as the engine wrote it.
fn annotation(raw: &str) -> Option<String> {
    let start = raw.find(ANNOTATION)? + ANNOTATION.len();
    let len = raw[start..].find("</annotation>")?;
    Some(raw[start..start + len].to_string())
}

/// A token of the engine's HTML with its attributes sorted (a tag) or made safe for
/// Markdown (a text).
fn prepare(token: Token<'_>) -> Token<'_> {
    // Most tags and texts come out as they went in: they are then passed on, not copied.
    match token {
        Token::Tag(tag) => {
            let sorted = match sort_attributes(&tag) {
                Cow::Owned(sorted) => Some(sorted),
                Cow::Borrowed(_) => None,
            };
            let tag = sorted.map_or(tag, Cow::Owned);
            if tag.contains(['\r', '\n']) {
                Token::Tag(Cow::Owned(tag_newlines(&tag)))
            } else {
                Token::Tag(tag)
            }
        }
        Token::Text(text) if text_is_safe(&text) => Token::Text(text),
        Token::Text(text) => Token::Text(Cow::Owned(escape_text(&text))),
    }
}

/// True when [`escape_text`] would return `text` unchanged.
fn text_is_safe(text: &str) -> bool {
    const SPECIAL: [char; 16] = [
        '\r', '\n', '\\', '*', '_', '[', ']', '`', '~', '|', '$', '!', '{', '}', '\'', '"',
    ];
    !text.contains(SPECIAL) && !text.contains("--") && !text.contains("..")
}

/// Makes HTML safe to splice into Markdown: in text content (never inside tags),
/// characters Markdown would interpret (`\ * _ [ ] ` ~ | $ ! { '"`, runs of `-` and `.`,
/// newlines) become numeric character references; in a tag, a line break inside a
/// quoted value becomes `&#10;`. The browser shows the same characters; mdBook's
/// Markdown pass (with smart punctuation on) changes nothing. A `\r\n` (a CRLF chapter)
/// is a line break, `\n` (`&#13;` is a parse error for mdBook's HTML check).
pub fn markdown_safe(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + html.len() / 16);
    for token in tokens(html) {
        match token {
            Token::Tag(tag) => out.push_str(&tag_newlines(&tag)),
            Token::Text(text) => out.push_str(&escape_text(&text)),
        }
    }
    out
}

/// `tag` with each line break inside a quoted value written `&#10;`.
fn tag_newlines(tag: &str) -> String {
    let mut out = String::with_capacity(tag.len());
    let mut quote: Option<char> = None;
    let mut chars = tag.chars().peekable();
    while let Some(c) = chars.next() {
        let c = match c {
            '\r' if chars.peek() == Some(&'\n') => continue,
            '\r' => '\n',
            c => c,
        };
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), '\n') => {
                out.push_str("&#10;");
                continue;
            }
            (None, '"' | '\'') => quote = Some(c),
            _ => {}
        }
        out.push(c);
    }
    out
}

/// Text content with every character Markdown would read written as a character
/// reference (see [`markdown_safe`]).
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let c = match c {
            '\r' if chars.peek() == Some(&'\n') => continue,
            '\r' => '\n',
            c => c,
        };
        match c {
            '\\' => out.push_str("&#92;"),
            '*' => out.push_str("&#42;"),
            '_' => out.push_str("&#95;"),
            '[' => out.push_str("&#91;"),
            ']' => out.push_str("&#93;"),
            '`' => out.push_str("&#96;"),
            '~' => out.push_str("&#126;"),
            '|' => out.push_str("&#124;"),
            '$' => out.push_str("&#36;"),
            '!' => out.push_str("&#33;"),
            '{' => out.push_str("&#123;"),
            '}' => out.push_str("&#125;"),
            '\'' => out.push_str("&#39;"),
            '"' => out.push_str("&#34;"),
            '\n' => out.push_str("&#10;"),
            '-' if chars.peek() == Some(&'-') => out.push_str("&#45;"),
            '.' if chars.peek() == Some(&'.') => out.push_str("&#46;"),
            _ => out.push(c),
        }
    }
    out
}

/// `tag` (a whole tag, `<` to `>`) with its attributes sorted by name; end tags,
/// comments and tags without attributes as they are.
pub fn sort_attributes(tag: &str) -> Cow<'_, str> {
    let Some(inner) = tag.strip_prefix('<').and_then(|t| t.strip_suffix('>')) else {
        return Cow::Borrowed(tag);
    };
    if inner.starts_with(['/', '!', '?']) || !inner.contains(char::is_whitespace) {
        return Cow::Borrowed(tag);
    }
    if is_canonical(inner) {
        // Most of the engine's tags (one attribute, or already in order): nothing to
        // build.
        return Cow::Borrowed(tag);
    }
    Cow::Owned(format!("<{}>", canonical_tag(inner)))
}

/// The body of a tag (without `<`, `>` and a closing `/`), where its name ends, and
/// its attributes (each `name`, `name=value` or `name="value"`, as written), in order.
fn tag_parts(inner: &str) -> (&str, bool, usize, impl Iterator<Item = (usize, usize)> + '_) {
    let (body, self_closing) = match inner.strip_suffix('/') {
        Some(b) => (b, true),
        None => (inner, false),
    };
    let name_end = body.find(char::is_whitespace).unwrap_or(body.len());
    let bytes = body.as_bytes();
    let mut i = name_end;
    let attributes = std::iter::from_fn(move || {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'=' {
            i += 1;
        }
        if i < bytes.len() && bytes[i] == b'=' {
            i += 1;
            if i < bytes.len() && (bytes[i] == b'"' || bytes[i] == b'\'') {
                let q = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != q {
                    i += 1;
                }
                i += 1;
            } else {
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                    i += 1;
                }
            }
        }
        Some((start, i.min(bytes.len())))
    });
    (body, self_closing, name_end, attributes)
}

/// The name an attribute is sorted by.
fn attribute_key(attribute: &str) -> &str {
    attribute.split('=').next().unwrap_or("")
}

/// True when [`canonical_tag`] would give `inner` back as it is: its attributes in
/// order, each after exactly one space, nothing after the last.
fn is_canonical(inner: &str) -> bool {
    let (body, _, name_end, attributes) = tag_parts(inner);
    let mut end = name_end;
    let mut last_key = "";
    for (start, stop) in attributes {
        let key = attribute_key(&body[start..stop]);
        if &body[end..start] != " " || key < last_key {
            return false;
        }
        (end, last_key) = (stop, key);
    }
    end == body.len()
}

fn canonical_tag(inner: &str) -> String {
    let (body, self_closing, name_end, attributes) = tag_parts(inner);
    let name = &body[..name_end];
    let mut attrs: Vec<&str> = attributes.map(|(start, stop)| &body[start..stop]).collect();
    attrs.sort_by_key(|a| attribute_key(a));
    let mut out = String::from(name);
    for a in attrs {
        out.push(' ');
        out.push_str(a);
    }
    if self_closing {
        out.push('/');
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn safe_text_is_exactly_what_escaping_leaves_unchanged() {
        let samples = [
            "x", "a b", "1.5", "a.b", "a..b", "a-b", "a--b", "−", "é", "\\", "*", "_", "[", "]",
            "`", "~", "|", "$", "!", "{", "}", "'", "\"", "\n", "\r", "\r\n", "&amp;", "<", "x-",
            "x.",
        ];
        for s in samples {
            let unchanged = super::escape_text(s) == s;
            assert_eq!(super::text_is_safe(s), unchanged, "{s:?}");
        }
    }

    /// The fast path gives what sorting gives: a tag is passed on as it is exactly when
    /// sorting would write it back unchanged.
    #[test]
    fn a_tag_is_kept_as_it_is_exactly_when_sorting_leaves_it_so() {
        let tags = [
            "<span class=\"mord\">",
            "<span style=\"a\" class=\"b\">",
            "<span class=\"b\" style=\"a\">",
            "<span  class=\"b\">",
            "<span class=\"b\" >",
            "<span\tclass=\"b\">",
            "<br/>",
            "<br />",
            "<img src=x alt='y z'/>",
            "<img alt='y z' src=x/>",
            "<a b c>",
            "<a c b>",
            "<a b=1 b=2>",
            "<a b=2 b=1>",
            "<x a=\"unterminated>",
            "<mi mathvariant=\"bold\">",
            "<svg width=\"1\" height=\"2\">",
            "<path d=\"M0 0\"/>",
            "<a data-x=\"1\" data=\"2\">",
            "<a data=\"2\" data-x=\"1\">",
        ];
        for tag in tags {
            let inner = &tag[1..tag.len() - 1];
            let sorted = format!("<{}>", super::canonical_tag(inner));
            let kept = matches!(super::sort_attributes(tag), std::borrow::Cow::Borrowed(_));
            assert_eq!(super::sort_attributes(tag), sorted.as_str(), "{tag}");
            if inner.contains(char::is_whitespace) {
                assert_eq!(kept, sorted == tag, "{tag}");
            }
        }
    }

    use super::finish;

    /// A formula's HTML as the engine writes it: MathML (with `mathml` inside), the
    /// annotation, and a visual copy holding `visual`.
    fn engine(mathml: &str, tex: &str, visual: &str) -> String {
        format!(
            "<span class=\"katex\"><span class=\"katex-mathml\"><math><semantics><mrow>{mathml}</mrow><annotation encoding=\"application/x-tex\">{tex}</annotation></semantics></math></span><span class=\"katex-html\" aria-hidden=\"true\">{visual}</span></span>"
        )
    }

    #[test]
    fn one_pass_moves_the_tex_and_the_visual_text() {
        let out = finish(&engine(
            "<mi>x</mi><mo>_</mo>",
            "x_1 &lt; \\alpha",
            "<span style=\"x\" class=\"mord\">x</span>",
        ));
        assert_eq!(
            out,
            "<span class=\"katex\" data-tex=\"x&#95;1 &lt; &#92;alpha\"><span class=\"katex-mathml\"><math><semantics><mrow><mi>x</mi><mo>&#95;</mo></mrow></semantics></math></span><span aria-hidden=\"true\" class=\"katex-html\"><span class=\"mord\" style=\"x\" data-mc-t=\"x\"></span></span></span>"
        );
    }

    #[test]
    fn bold_letters_become_bold_characters() {
        let b = |mathml: &str| {
            let out = finish(&engine(mathml, "t", ""));
            let start = out.find("<mrow>").unwrap() + "<mrow>".len();
            out[start..out.find("</mrow>").unwrap()].to_string()
        };
        assert_eq!(
            b("<mi mathvariant=\"bold\">x</mi><mo>+</mo><mi>x</mi><mi mathvariant=\"bold-italic\">W</mi>"),
            "<mi>\u{1D431}</mi><mo>+</mo><mi>x</mi><mi>\u{1D47E}</mi>"
        );
        // Not a letter or digit (bold Greek, an operator name): left as written.
        let greek = "<mi mathvariant=\"bold\">θ</mi><mi mathvariant=\"bold\"></mi>";
        assert_eq!(b(greek), greek);
    }
}
