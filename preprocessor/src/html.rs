//! Small HTML helpers shared by every stage that writes markup.

use std::borrow::Cow;
use std::collections::VecDeque;

/// Escapes text for use in HTML element content or a quoted attribute value.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The attribute that holds text moved out of the page's text nodes by
/// [`text_as_attributes`]; `theme/mathcourse.css` draws it back with
/// `[data-mc-t]::before { content: attr(data-mc-t) }`.
pub const TEXT_ATTRIBUTE: &str = "data-mc-t";

/// `html` with its text moved out of text nodes into attributes, for markup that is
/// shown but must not reach mdBook's search index, which reads text nodes only (of
/// everything but `<script>` and `<style>`): KaTeX's visual copy of a formula (its
/// MathML is indexed once instead) and a widget's build-time picture and controls.
///
/// - Text that is an element's only child becomes that element's `data-mc-t`; other
///   text becomes an empty `<span class="mc-t" data-mc-t="…">`. CSS draws it with `::before`, which
///   browsers also count in accessible names.
/// - `<option>` text becomes its `label` (a select does not draw `::before`).
/// - Inside `<svg>`, `::before` draws nothing. A `<title>` that is the first child of
///   its element (a picture's name, a contour's tooltip) becomes that element's
///   `aria-label` (replacing an `aria-labelledby` that pointed at it): the same
///   accessible name, out of the index. A `<desc>` stays (a figure's one description,
///   worth finding); so do axis and tick labels, which SVG can only draw from text.
/// - A table header's text stays (a header needs text of its own to be one).
/// - Whitespace-only text stays. Character references are copied as they are (they
///   mean the same in an attribute value); a `"` is escaped.
pub fn text_as_attributes(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + html.len() / 8);
    let mut stream = Lookahead::new(tokens(html));
    let mut mover = TextMover::default();
    while let Some(token) = stream.next() {
        mover.push(token, &mut stream, &mut out);
    }
    out
}

/// One piece of HTML: a tag (start or end tag, comment, doctype), or the text between
/// two tags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token<'a> {
    /// From `<` to the `>` that closes it (quoted values skipped); an unclosed tag runs
    /// to the end of the input.
    Tag(Cow<'a, str>),
    /// Text between tags, as written.
    Text(Cow<'a, str>),
}

/// The tags and texts of `html`, in order.
pub fn tokens(html: &str) -> impl Iterator<Item = Token<'_>> {
    let mut rest = html;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        if rest.starts_with('<') {
            let end = tag_end(rest).map_or(rest.len(), |e| e + 1);
            let (tag, after) = rest.split_at(end);
            rest = after;
            return Some(Token::Tag(Cow::Borrowed(tag)));
        }
        let len = rest.find('<').unwrap_or(rest.len());
        let (text, after) = rest.split_at(len);
        rest = after;
        Some(Token::Text(Cow::Borrowed(text)))
    })
}

/// A token stream that can look a few tokens ahead.
pub struct Lookahead<'a, I: Iterator<Item = Token<'a>>> {
    inner: I,
    ahead: VecDeque<Token<'a>>,
}

impl<'a, I: Iterator<Item = Token<'a>>> Lookahead<'a, I> {
    /// Wraps `inner`.
    pub fn new(inner: I) -> Self {
        Lookahead {
            inner,
            ahead: VecDeque::new(),
        }
    }

    /// The token `n` places ahead of the next one (`0`: the next one).
    pub fn peek(&mut self, n: usize) -> Option<&Token<'a>> {
        while self.ahead.len() <= n {
            let token = self.inner.next()?;
            self.ahead.push_back(token);
        }
        self.ahead.get(n)
    }

    /// The next two tokens.
    pub fn peek2(&mut self) -> (Option<&Token<'a>>, Option<&Token<'a>>) {
        self.peek(1);
        (self.ahead.front(), self.ahead.get(1))
    }
}

impl<'a, I: Iterator<Item = Token<'a>>> Iterator for Lookahead<'a, I> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        self.ahead.pop_front().or_else(|| self.inner.next())
    }
}

/// Moves text out of text nodes into attributes, token by token (see
/// [`text_as_attributes`]): each start tag is written once, with its attribute, after
/// looking at what follows it.
#[derive(Debug, Default)]
pub struct TextMover {
    svg_depth: usize,
    /// Inside a table header, whose text stays: a header needs text of its own.
    in_header: bool,
}

impl TextMover {
    /// Writes `token`, and any tokens after it that it takes, from `stream` to `out`.
    pub fn push<'a, I: Iterator<Item = Token<'a>>>(
        &mut self,
        token: Token<'a>,
        stream: &mut Lookahead<'a, I>,
        out: &mut String,
    ) {
        let tag = match token {
            Token::Text(text) => {
                if self.svg_depth > 0 || self.in_header || text.trim().is_empty() {
                    out.push_str(&text);
                } else {
                    out.push_str("<span class=\"mc-t\" ");
                    out.push_str(TEXT_ATTRIBUTE);
                    out.push_str("=\"");
                    push_quoted(out, &text);
                    out.push_str("\"></span>");
                }
                return;
            }
            Token::Tag(tag) => tag,
        };
        let name = tag_name(&tag);
        if name == "th" {
            self.in_header = !tag.starts_with("</");
        }
        if tag.starts_with("</") {
            if name.eq_ignore_ascii_case("svg") {
                self.svg_depth = self.svg_depth.saturating_sub(1);
            }
            out.push_str(&tag);
            return;
        }
        if tag.starts_with("<!") || tag.starts_with("<?") || tag.ends_with("/>") {
            out.push_str(&tag);
            return;
        }
        if name.eq_ignore_ascii_case("svg") {
            self.svg_depth += 1;
        }
        if self.svg_depth > 0 {
            // A `<title>` that is the first child names this element (if it may carry
            // a name); its text leaves the text nodes either way.
            if let Some(label) = first_child_title(stream) {
                if tag.contains(" role=\"") {
                    out.push_str(&title_as_label(&tag, &label.0, &label.1));
                } else {
                    out.push_str(&tag);
                }
                return;
            }
            out.push_str(&tag);
            return;
        }
        // Text that is this element's only child becomes its attribute.
        let sole = matches!(stream.peek2(),
            (Some(Token::Text(text)), Some(Token::Tag(close)))
                if !self.in_header
                    && !text.trim().is_empty()
                    && close
                        .strip_prefix("</")
                        .and_then(|r| r.strip_prefix(name))
                        .is_some_and(|r| r.starts_with('>')));
        if !sole {
            out.push_str(&tag);
            return;
        }
        let Some(Token::Text(value)) = stream.next() else {
            unreachable!("peeked above");
        };
        let attr = if name == "option" {
            "label"
        } else {
            TEXT_ATTRIBUTE
        };
        out.push_str(&tag[..tag.len() - 1]);
        out.push(' ');
        out.push_str(attr);
        out.push_str("=\"");
        push_quoted(out, &value);
        out.push_str("\">");
    }
}

/// When the next tokens of `stream` are a `<title>` with its text and `</title>`, takes
/// them and returns the title tag and its content (escaped for an attribute).
fn first_child_title<'a, I: Iterator<Item = Token<'a>>>(
    stream: &mut Lookahead<'a, I>,
) -> Option<(String, String)> {
    let title = match stream.peek(0) {
        Some(Token::Tag(t))
            if tag_name(t) == "title" && !t.starts_with("</") && !t.ends_with("/>") =>
        {
            t.to_string()
        }
        _ => return None,
    };
    // The content up to `</title>`, as written.
    let mut n = 1;
    let mut content = String::new();
    loop {
        match stream.peek(n)? {
            Token::Tag(t) if t == "</title>" => break,
            Token::Tag(t) | Token::Text(t) => content.push_str(t),
        }
        n += 1;
    }
    for _ in 0..=n {
        stream.next();
    }
    Some((title, content.replace('"', "&quot;")))
}

/// `html` (after [`text_as_attributes`]) with an `aria-label` on every control whose
/// text was moved into attributes: a `<button>` gets its own drawn text, and the
/// `<input>` or `<select>` a `<label for="…">` names gets the label's drawn text.
/// Browsers count CSS-drawn text in accessible names, but not every tool does (axe
/// does not): the name must be in the markup. A control that already has an
/// `aria-label` keeps it.
pub fn name_controls(html: &str) -> String {
    // (position in `html` of a start tag's `>`, the attribute to insert there)
    let mut inserts: Vec<(usize, String)> = Vec::new();
    let mut at = 0;
    while let Some(lt) = html[at..].find('<').map(|i| at + i) {
        let Some(end) = tag_end(&html[lt..]).map(|e| lt + e) else {
            break;
        };
        let tag = &html[lt..=end];
        at = end + 1;
        let name = tag_name(tag);
        if tag.starts_with("</") || !(name == "button" || name == "label") {
            continue;
        }
        let close = format!("</{name}>");
        let Some(inner_len) = html[at..].find(&close) else {
            continue;
        };
        let text = drawn_text(&html[lt..at + inner_len]);
        if text.is_empty() {
            continue;
        }
        let label = format!(" aria-label=\"{text}\"");
        if name == "button" {
            if !tag.contains(" aria-label=") {
                let gt = if tag.ends_with("/>") { end - 1 } else { end };
                inserts.push((gt, label));
            }
            continue;
        }
        let Some(id) = attribute(tag, "for") else {
            continue;
        };
        let wanted = format!(" id=\"{id}\"");
        let Some(pos) = html.find(&wanted) else {
            continue;
        };
        let start = html[..pos].rfind('<').unwrap_or(0);
        let Some(gt) = tag_end(&html[start..]).map(|e| start + e) else {
            continue;
        };
        let control = &html[start..=gt];
        if matches!(tag_name(control), "input" | "select" | "textarea")
            && !control.contains(" aria-label=")
        {
            let gt = if control.ends_with("/>") { gt - 1 } else { gt };
            inserts.push((gt, label));
        }
    }
    inserts.sort_by_key(|(pos, _)| *pos);
    let mut out = String::with_capacity(html.len() + inserts.len() * 24);
    let mut from = 0;
    for (pos, attr) in inserts {
        out.push_str(&html[from..pos]);
        out.push_str(&attr);
        from = pos;
    }
    out.push_str(&html[from..]);
    out
}

/// The text markup draws after [`text_as_attributes`]: its `data-mc-t` values and
/// text nodes in order, whitespace collapsed, still escaped for an attribute. The
/// text of `<option>`s and `<output>`s is not counted (a select's choices and a
/// slider's value are not its name).
fn drawn_text(html: &str) -> String {
    let mut text = String::new();
    let mut rest = html;
    let mut skip = false; // inside an <option> or <output>
    while !rest.is_empty() {
        if rest.starts_with('<') {
            let end = tag_end(rest).unwrap_or(rest.len() - 1);
            let tag = &rest[..=end];
            rest = &rest[end + 1..];
            if matches!(tag_name(tag), "option" | "output") {
                skip = !tag.starts_with("</");
            } else if let Some(value) = attribute(tag, TEXT_ATTRIBUTE).filter(|_| !skip) {
                text.push_str(value);
            }
            continue;
        }
        let len = rest.find('<').unwrap_or(rest.len());
        if !skip {
            text.push_str(&rest[..len].replace('"', "&quot;"));
        }
        rest = &rest[len..];
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The value of attribute `name` in start tag `tag`, as written (double quotes).
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let (_, rest) = tag.split_once(&key)?;
    rest.split_once('"').map(|(v, _)| v)
}

/// The mathematical bold (or bold italic) character for an ASCII letter or digit.
pub fn bold_char(c: char, italic: bool) -> Option<char> {
    let (upper, lower) = if italic {
        (0x1D468, 0x1D482)
    } else {
        (0x1D400, 0x1D41A)
    };
    let code = match c {
        'A'..='Z' => upper + (c as u32 - 'A' as u32),
        'a'..='z' => lower + (c as u32 - 'a' as u32),
        '0'..='9' => 0x1D7CE + (c as u32 - '0' as u32),
        _ => return None,
    };
    char::from_u32(code)
}

/// The start tag `parent` named by its first child `title` (whose text is `label`,
/// escaped for an attribute): `aria-labelledby="<the title's id>"` becomes
/// `aria-label="label"`, or `aria-label` is added.
fn title_as_label(parent: &str, title: &str, label: &str) -> String {
    let attr = format!(" aria-label=\"{label}\"");
    let id = title
        .split_once(" id=\"")
        .and_then(|(_, r)| r.split_once('"'))
        .map(|(id, _)| id);
    if let Some(id) = id {
        let by = format!(" aria-labelledby=\"{id}\"");
        if parent.contains(&by) {
            return parent.replacen(&by, &attr, 1);
        }
    }
    let gt = parent.len() - 1;
    format!("{}{attr}>", &parent[..gt])
}

/// Index of the `>` that closes the tag at the start of `tag` (quoted values skipped).
pub(crate) fn tag_end(tag: &str) -> Option<usize> {
    // Bytes, not chars: the three delimiters are ASCII, and no byte of a multi-byte
    // character is ASCII.
    let mut quote = None;
    for (i, &b) in tag.as_bytes().iter().enumerate().skip(1) {
        match (quote, b) {
            (Some(q), b) if b == q => quote = None,
            (None, b'"' | b'\'') => quote = Some(b),
            (None, b'>') => return Some(i),
            _ => {}
        }
    }
    None
}

/// Pushes `text` with each `"` written `&quot;` (an attribute value in double quotes).
fn push_quoted(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(at) = rest.find('"') {
        out.push_str(&rest[..at]);
        out.push_str("&quot;");
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
}

/// The element name of a start or end tag (`<span class="x">` → `span`).
fn tag_name(tag: &str) -> &str {
    let inner = tag.trim_start_matches('<').trim_start_matches('/');
    let len = inner
        .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
        .unwrap_or(inner.len());
    &inner[..len]
}

thread_local! {
    /// How many links between pages [`relative_html_path`] made on this thread (a test
    /// counts: a page must not link every chapter to find the few it shows).
    pub(crate) static RELATIVE_PATHS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Relative link from chapter `from` to the HTML page of chapter `to` (both inside `src/`).
pub fn relative_html_path(from: &std::path::Path, to: &std::path::Path) -> String {
    RELATIVE_PATHS.with(|n| n.set(n.get() + 1));
    let mut target = to.with_extension("html");
    if target.file_name().is_some_and(|n| n == "README.html") {
        target.set_file_name("index.html");
    }
    if from == to {
        return String::new();
    }
    let depth = from.components().count().saturating_sub(1);
    let mut out = "../".repeat(depth);
    out.push_str(&target.to_string_lossy().replace('\\', "/"));
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_markup() {
        assert_eq!(
            super::escape("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
    }

    #[test]
    fn text_moves_into_attributes() {
        use super::text_as_attributes as t;
        assert_eq!(
            t("<span class=\"mord\">x</span><span>a<b>c</b></span>"),
            "<span class=\"mord\" data-mc-t=\"x\"></span><span><span class=\"mc-t\" data-mc-t=\"a\"></span><b data-mc-t=\"c\"></b></span>"
        );
        assert_eq!(
            t("<p>&quot;q&quot; \"r\" </p>"),
            "<p data-mc-t=\"&quot;q&quot; &quot;r&quot; \"></p>"
        );
        assert_eq!(
            t("<select><option value=\"1\" selected>cat</option></select>"),
            "<select><option value=\"1\" selected label=\"cat\"></option></select>"
        );
        assert_eq!(t("<div>\n<br/>\n</div>"), "<div>\n<br/>\n</div>");
        assert_eq!(
            t("<tr><th><b>p</b></th><td>0.5</td></tr>"),
            "<tr><th><b>p</b></th><td data-mc-t=\"0.5\"></td></tr>"
        );
        // SVG: a title becomes the aria-label of its element; desc and text stay.
        assert_eq!(
            t("<svg role=\"img\" aria-labelledby=\"t1\" aria-describedby=\"d1\"><title id=\"t1\">Graph of \"y\" &amp; z</title><desc id=\"d1\">d = 1</desc><text x=\"1\">128</text></svg><p>z</p>"),
            "<svg role=\"img\" aria-label=\"Graph of &quot;y&quot; &amp; z\" aria-describedby=\"d1\"><desc id=\"d1\">d = 1</desc><text x=\"1\">128</text></svg><p data-mc-t=\"z\"></p>"
        );
        // A shape with no role cannot carry a name: its tooltip goes.
        assert_eq!(
            t("<svg role=\"img\"><ellipse rx=\"2\"><title>L = 0.5</title></ellipse></svg>"),
            "<svg role=\"img\"><ellipse rx=\"2\"></ellipse></svg>"
        );
        // A title that is not a first child stays (nothing to name).
        assert_eq!(
            t("<svg><text>a</text><title>T</title></svg>"),
            "<svg><text>a</text><title>T</title></svg>"
        );
    }

    #[test]
    fn controls_get_their_drawn_text_as_name() {
        use super::{name_controls as n, text_as_attributes as t};
        // A button: its text; a label: the control it names, text before or after it.
        assert_eq!(
            n(&t("<button type=\"button\">Run 20 steps</button>")),
            "<button type=\"button\" data-mc-t=\"Run 20 steps\" aria-label=\"Run 20 steps\"></button>"
        );
        assert_eq!(
            n(&t("<label for=\"w-a\"><span>Score of \"cat\"</span><input type=\"number\" id=\"w-a\"></label>")),
            "<label for=\"w-a\"><span data-mc-t=\"Score of &quot;cat&quot;\"></span><input type=\"number\" id=\"w-a\" aria-label=\"Score of &quot;cat&quot;\"></label>"
        );
        assert_eq!(
            n(&t("<label for=\"s\"><input type=\"checkbox\" id=\"s\"/> <span>Scale</span> <b>by 2</b></label>")),
            "<label for=\"s\"><input type=\"checkbox\" id=\"s\" aria-label=\"Scale by 2\"/> <span data-mc-t=\"Scale\"></span> <b data-mc-t=\"by 2\"></b></label>"
        );
        // A select is named by its label, not by its options.
        assert_eq!(
            n(&t("<label for=\"c\"><span>Columns</span><select id=\"c\"><option>1</option></select></label>")),
            "<label for=\"c\"><span data-mc-t=\"Columns\"></span><select id=\"c\" aria-label=\"Columns\"><option label=\"1\"></option></select></label>"
        );
        // A slider's value shown beside it is not part of its name.
        assert_eq!(
            n("<label for=\"t\"><span data-mc-t=\"T\"></span><input id=\"t\"><output for=\"t\" data-mc-t=\"1.00\"></output></label>"),
            "<label for=\"t\"><span data-mc-t=\"T\"></span><input id=\"t\" aria-label=\"T\"><output for=\"t\" data-mc-t=\"1.00\"></output></label>"
        );
        // A name already given stays.
        let named = "<button aria-label=\"Go\"><span data-mc-t=\"→\"></span></button>";
        assert_eq!(n(named), named);
    }
}
