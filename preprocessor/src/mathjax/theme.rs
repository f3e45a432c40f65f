//! The MathJax configuration a custom theme writes: MathJax 2's
//! `<script type="text/x-mathjax-config">` (`tex2jax` delimiters and escapes, TeX macros
//! in `TeX: { Macros: { ... } }`) or MathJax 3's `window.MathJax = { tex: { ... } }` in a
//! plain `<script>` (`inlineMath`, `displayMath`, `processEscapes`, `macros`). The script
//! is JavaScript; only the object literals MathJax documents are read (strings, booleans,
//! numbers, arrays, objects), never evaluated.

use std::collections::BTreeMap;

use super::Tex2jax;
use crate::config::Delimiters;

/// A JavaScript literal value.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Str(String),
    Bool(bool),
    Num(f64),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
    Other,
}

impl Value {
    fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(entries) => entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Which MathJax configuration a theme file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigKind {
    /// MathJax 2: a `<script type="text/x-mathjax-config">`.
    V2,
    /// MathJax 3 (or 4): `MathJax = { tex: { ... } }` in a plain `<script>`.
    V3,
    /// KaTeX's auto-render: `renderMathInElement(element, { delimiters: [...] })`.
    AutoRender,
}

impl ConfigKind {
    /// How a message names it.
    pub fn describe(self) -> &'static str {
        match self {
            ConfigKind::V2 => "its `text/x-mathjax-config`",
            ConfigKind::V3 => "its `MathJax = { tex: ... }` configuration",
            ConfigKind::AutoRender => "its `renderMathInElement` options",
        }
    }
}

/// Applies the MathJax configuration of `html` (a theme's `index.hbs` or `head.hbs`) to
/// `rules`: every `text/x-mathjax-config` script (MathJax 2), or else a MathJax 3
/// configuration object, which starts from MathJax 3's own defaults (`\$` is a dollar
/// sign there). Returns which kind it found, `None` when the file has neither.
pub fn apply_config(html: &str, rules: &mut Tex2jax) -> Option<ConfigKind> {
    let mut found = None;
    let lower = html.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find("text/x-mathjax-config") {
        let at = from + at;
        let Some(open_end) = lower[at..].find('>').map(|i| at + i + 1) else {
            break;
        };
        let close = lower[open_end..]
            .find("</script")
            .map_or(html.len(), |i| open_end + i);
        let script = &html[open_end..close];
        found = Some(ConfigKind::V2);
        match hub_config(script) {
            Some(config) => apply(&config, rules),
            // Something this reader does not follow (a function, a variable): the parts
            // that matter, each on its own.
            None => {
                let mut parts = Vec::new();
                for key in ["tex2jax", "TeX"] {
                    if let Some(v) = object_after(script, key) {
                        parts.push((key.to_string(), v));
                    }
                }
                apply(&Value::Object(parts), rules);
            }
        }
        from = close;
    }
    if found.is_none() {
        if let Some(config) = v3_config(html) {
            let macros = std::mem::take(&mut rules.macros);
            *rules = v3_defaults();
            rules.macros = macros;
            if let Some(tex) = config.get("tex") {
                apply_v3(tex, rules);
            }
            found = Some(ConfigKind::V3);
        }
    }
    if found.is_none() {
        if let Some(options) = auto_render_options(html) {
            let macros = std::mem::take(&mut rules.macros);
            *rules = auto_render_rules(&options);
            rules.macros = macros;
            found = Some(ConfigKind::AutoRender);
        }
    }
    found
}

/// The rules of a chapter that configures MathJax itself: a `text/x-mathjax-config` script
/// in its HTML (not in code) is read by MathJax 2 on that page as a theme's is on every
/// page, so its delimiters, escapes and macros apply on top of the book's (seen in real
/// pages that add `$` this way). `None` when the chapter has no such script.
pub fn page_rules(source: &str, book: &Tex2jax) -> Option<Tex2jax> {
    if !source
        .to_ascii_lowercase()
        .contains("text/x-mathjax-config")
    {
        return None;
    }
    let mut html = String::new();
    for event in pulldown_cmark::Parser::new_ext(source, crate::scan::mdbook_options()) {
        if let pulldown_cmark::Event::Html(t) | pulldown_cmark::Event::InlineHtml(t) = event {
            html.push_str(&t);
        }
    }
    let mut rules = book.clone();
    (apply_config(&html, &mut rules) == Some(ConfigKind::V2)).then_some(rules)
}

/// The options object of the first `renderMathInElement(element, {...})` call in `html`
/// (an empty object when the call passes none).
fn auto_render_options(html: &str) -> Option<Value> {
    let call = "renderMathInElement(";
    let mut from = 0;
    while let Some(at) = html[from..].find(call) {
        let args = from + at + call.len();
        from = args;
        // The element is an expression (`document.body`); the options follow its comma,
        // unless the call closes first.
        let rest = &html[args..];
        let Some(end) = rest.find([',', ')', ';']) else {
            continue;
        };
        if rest.as_bytes()[end] != b',' {
            return Some(Value::Object(Vec::new()));
        }
        let mut p = Parser {
            s: html.as_bytes(),
            i: args + end + 1,
        };
        return match p.value(0) {
            Some(v @ Value::Object(_)) => Some(v),
            _ => Some(Value::Object(Vec::new())),
        };
    }
    None
}

/// What KaTeX's auto-render finds with `options`: its `delimiters` (objects with
/// `left`, `right`, `display`) or, without them, its defaults (`$$` and `\[...\]`
/// display, `\(...\)` inline, the AMS environments). It reads no escapes.
fn auto_render_rules(options: &Value) -> Tex2jax {
    let mut rules = Tex2jax {
        process_escapes: false,
        process_refs: false,
        ..Tex2jax::default()
    };
    if let Some(Value::Array(items)) = options.get("delimiters") {
        rules.inline.clear();
        rules.display.clear();
        rules.process_environments = false;
        for item in items {
            let (Some(Value::Str(left)), Some(Value::Str(right))) =
                (item.get("left"), item.get("right"))
            else {
                continue;
            };
            if left.starts_with("\\begin{") {
                rules.process_environments = true;
                continue;
            }
            let pair = (left.clone(), right.clone());
            match item.get("display") {
                Some(Value::Bool(true)) => rules.display.push(pair),
                _ => rules.inline.push(pair),
            }
        }
    }
    rules
}

/// MathJax 3's TeX input defaults: `\(...\)` inline, `$$` and `\[...\]` display, and
/// `\$` a dollar sign.
fn v3_defaults() -> Tex2jax {
    Tex2jax {
        process_escapes: true,
        ..Tex2jax::default()
    }
}

/// The object assigned to `MathJax` (`window.MathJax = {...}`, `MathJax = {...}`,
/// `var MathJax = {...}`) in a plain `<script>` of `html`, if one reads.
fn v3_config(html: &str) -> Option<Value> {
    let lower = html.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find("<script") {
        let start = from + at;
        let open_end = lower[start..]
            .find('>')
            .map_or(lower.len(), |e| start + e + 1);
        let close = lower[open_end..]
            .find("</script")
            .map_or(html.len(), |i| open_end + i);
        from = close;
        let tag = &lower[start..open_end];
        if tag.contains("src=") || tag.contains("x-mathjax-config") {
            continue;
        }
        let script = &html[open_end..close];
        let mut k = 0;
        while let Some(at) = script[k..].find("MathJax") {
            let after = k + at + "MathJax".len();
            k = after;
            let rest = script[after..].trim_start();
            let Some(rest) = rest.strip_prefix('=') else {
                continue;
            };
            if rest.starts_with('=') {
                continue;
            }
            let mut p = Parser {
                s: script.as_bytes(),
                i: script.len() - rest.len(),
            };
            if let Some(v @ Value::Object(_)) = p.value(0) {
                return Some(v);
            }
        }
    }
    None
}

/// Applies MathJax 3's `tex` block.
fn apply_v3(tex: &Value, rules: &mut Tex2jax) {
    if let Some(p) = delimiter_pairs(tex.get("inlineMath")) {
        rules.inline = p;
    }
    if let Some(p) = delimiter_pairs(tex.get("displayMath")) {
        rules.display = p;
    }
    let flag = |key: &str, into: &mut bool| {
        if let Some(Value::Bool(b)) = tex.get(key) {
            *into = *b;
        }
    };
    flag("processEscapes", &mut rules.process_escapes);
    flag("processEnvironments", &mut rules.process_environments);
    flag("processRefs", &mut rules.process_refs);
    if let Some(Value::Object(macros)) = tex.get("macros") {
        rules.macros.extend(read_macros(macros));
    }
}

/// A list of `[open, close]` delimiter pairs.
fn delimiter_pairs(v: Option<&Value>) -> Option<Vec<(String, String)>> {
    let Value::Array(items) = v? else { return None };
    Some(
        items
            .iter()
            .filter_map(|pair| match pair {
                Value::Array(p) => match (p.first(), p.get(1)) {
                    (Some(Value::Str(a)), Some(Value::Str(b))) => Some((a.clone(), b.clone())),
                    _ => None,
                },
                _ => None,
            })
            .collect(),
    )
}

/// The `src` of a `<script>` in `html` (a theme file) that loads MathJax (or KaTeX's
/// auto-render) whatever the book's `mathjax-support` says: not inside
/// `{{#if mathjax_support}}`.
pub fn unconditional_mathjax(html: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find("<script") {
        let start = from + at;
        let end = lower[start..].find('>').map_or(lower.len(), |e| start + e);
        let tag = &html[start..end];
        from = end;
        let Some(src_at) = tag.to_ascii_lowercase().find("src=") else {
            continue;
        };
        let src = tag[src_at + 4..]
            .trim_start_matches(['"', '\''])
            .split(['"', '\'', ' '])
            .next()
            .unwrap_or("");
        let lower_src = src.to_ascii_lowercase();
        if !lower_src.contains("mathjax") && !lower_src.contains("auto-render") {
            continue;
        }
        let before = &html[..start];
        let guarded = before
            .rfind("{{#if mathjax_support}}")
            .is_some_and(|open| !before[open..].contains("{{/if}}"));
        if !guarded {
            return Some(src.to_string());
        }
    }
    None
}

/// The warning for a theme file (`file`, whose text is `html`) with a script that loads
/// MathJax from `src` on every page. `reading_mathjax`: the book's math is read as
/// MathJax reads it; `delimiters`: the book's `delimiters` option.
pub fn script_warning(
    file: &std::path::Path,
    src: &str,
    html: &str,
    reading_mathjax: bool,
    delimiters: Option<Delimiters>,
) -> String {
    let kind = apply_config(html, &mut Tex2jax::default());
    let engine = if src.to_ascii_lowercase().contains("mathjax") {
        "MathJax"
    } else {
        "KaTeX's auto-render"
    };
    let head = format!(
        "{} loads {engine} on every page (`{src}`), which has nothing left to typeset now that mathcourse typesets every formula at build time",
        file.display()
    );
    if reading_mathjax {
        return match kind {
            Some(k) => format!(
                "{head}: remove that script (and {}, which mathcourse has read)",
                k.describe()
            ),
            None => format!("{head}: remove that script"),
        };
    }
    if delimiters.is_some() {
        // The author chose how the math is read.
        return format!(
            "{head}, but would still typeset in the browser any text that looks like math to it: remove that script"
        );
    }
    let configured = match kind {
        Some(k) => format!(" (with the delimiters of {})", k.describe()),
        None => String::new(),
    };
    format!(
        "{head}, but would still typeset in the browser any text that looks like math to it: remove that script. Its math is read as mdbook-katex reads it, before Markdown; if it was written for {engine} (which reads it after Markdown: `\\\\(x\\\\)`, `\\\\\\\\`), add `delimiters = \"mathjax\"` under [preprocessor.mathcourse] to read it the way {engine} did{configured}"
    )
}

/// The warning said once per build while `[output.html] mathjax-support = true`, for the
/// book's `delimiters` option.
pub fn cdn_warning(delimiters: Option<Delimiters>) -> String {
    let head = "`[output.html] mathjax-support = true` still makes every page load MathJax 2.7 from a CDN (cdnjs.cloudflare.com), which typesets nothing now that mathcourse typesets every formula at build time";
    match delimiters {
        None => format!(
            "{head}: remove `mathjax-support = true` and add `delimiters = \"mathjax\"` under [preprocessor.mathcourse], so the math is still read the same way and the pages load no MathJax"
        ),
        Some(d) => format!(
            "{head}: remove `mathjax-support = true` (the math is read as `delimiters = \"{}\"` says)",
            d.name()
        ),
    }
}

/// The object passed to `MathJax.Hub.Config(...)` in `script`.
fn hub_config(script: &str) -> Option<Value> {
    let at = script.find("Config(")?;
    let mut p = Parser {
        s: script.as_bytes(),
        i: at + "Config(".len(),
    };
    p.value(0)
}

/// The object literal after the first `key:` in `script`, if it reads.
fn object_after(script: &str, key: &str) -> Option<Value> {
    let mut from = 0;
    while let Some(at) = script[from..].find(key) {
        let after = from + at + key.len();
        let rest = script[after..].trim_start().trim_start_matches(['"', '\'']);
        if let Some(rest) = rest.trim_start().strip_prefix(':') {
            let start = script.len() - rest.len();
            let mut p = Parser {
                s: script.as_bytes(),
                i: start,
            };
            if let Some(v @ Value::Object(_)) = p.value(0) {
                return Some(v);
            }
        }
        from = after;
    }
    None
}

fn apply(config: &Value, rules: &mut Tex2jax) {
    if let Some(t) = config.get("tex2jax") {
        if let Some(p) = delimiter_pairs(t.get("inlineMath")) {
            rules.inline = p;
        }
        if let Some(p) = delimiter_pairs(t.get("displayMath")) {
            rules.display = p;
        }
        let flag = |key: &str, into: &mut bool| {
            if let Some(Value::Bool(b)) = t.get(key) {
                *into = *b;
            }
        };
        flag("processEscapes", &mut rules.process_escapes);
        flag("processEnvironments", &mut rules.process_environments);
        flag("processRefs", &mut rules.process_refs);
        flag("balanceBraces", &mut rules.balance_braces);
    }
    if let Some(Value::Object(macros)) = config.get("TeX").and_then(|t| t.get("Macros")) {
        rules.macros.extend(read_macros(macros));
    }
}

/// MathJax macros: `name: "expansion"` or `name: ["expansion", arguments]`.
fn read_macros(entries: &[(String, Value)]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (name, value) in entries {
        let expansion = match value {
            Value::Str(s) => Some(s.clone()),
            Value::Array(items) => match items.first() {
                Some(Value::Str(s)) => Some(s.clone()),
                _ => None,
            },
            _ => None,
        };
        if let Some(e) = expansion {
            out.insert(format!("\\{name}"), e);
        }
    }
    out
}

/// A small reader of JavaScript object literals.
struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

/// How deep literals may nest (a guard against hostile themes).
const MAX_DEPTH: usize = 32;

impl Parser<'_> {
    fn skip_ws(&mut self) {
        loop {
            while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
                self.i += 1;
            }
            if self.s[self.i..].starts_with(b"//") {
                while self.i < self.s.len() && self.s[self.i] != b'\n' {
                    self.i += 1;
                }
            } else if self.s[self.i..].starts_with(b"/*") {
                self.i = self.s[self.i..]
                    .windows(2)
                    .position(|w| w == b"*/")
                    .map_or(self.s.len(), |k| self.i + k + 2);
            } else {
                return;
            }
        }
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.skip_ws();
        let c = *self.s.get(self.i)?;
        match c {
            b'{' => {
                self.i += 1;
                let mut entries = Vec::new();
                loop {
                    self.skip_ws();
                    match self.s.get(self.i)? {
                        b'}' => {
                            self.i += 1;
                            return Some(Value::Object(entries));
                        }
                        b',' => self.i += 1,
                        _ => {
                            let key = self.key()?;
                            self.skip_ws();
                            if self.s.get(self.i) != Some(&b':') {
                                return None;
                            }
                            self.i += 1;
                            let v = self.value(depth + 1)?;
                            entries.push((key, v));
                        }
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_ws();
                    match self.s.get(self.i)? {
                        b']' => {
                            self.i += 1;
                            return Some(Value::Array(items));
                        }
                        b',' => self.i += 1,
                        _ => items.push(self.value(depth + 1)?),
                    }
                }
            }
            b'"' | b'\'' => self.string().map(Value::Str),
            _ => {
                let start = self.i;
                while self.i < self.s.len()
                    && !matches!(self.s[self.i], b',' | b'}' | b']' | b')')
                    && !self.s[self.i].is_ascii_whitespace()
                {
                    self.i += 1;
                }
                let word = std::str::from_utf8(&self.s[start..self.i]).ok()?;
                Some(match word {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    w => w.parse().map(Value::Num).unwrap_or(Value::Other),
                })
            }
        }
    }

    fn key(&mut self) -> Option<String> {
        match self.s.get(self.i)? {
            b'"' | b'\'' => self.string(),
            _ => {
                let start = self.i;
                while self.i < self.s.len()
                    && (self.s[self.i].is_ascii_alphanumeric()
                        || matches!(self.s[self.i], b'_' | b'$'))
                {
                    self.i += 1;
                }
                (self.i > start)
                    .then(|| String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
            }
        }
    }

    /// A quoted string with JavaScript escapes (`\\` is one backslash).
    fn string(&mut self) -> Option<String> {
        let quote = self.s[self.i];
        self.i += 1;
        let mut out = Vec::new();
        while let Some(&c) = self.s.get(self.i) {
            self.i += 1;
            if c == quote {
                return String::from_utf8(out).ok();
            }
            if c == b'\\' {
                let e = *self.s.get(self.i)?;
                self.i += 1;
                out.push(match e {
                    b'n' => b'\n',
                    b't' => b'\t',
                    other => other,
                });
            } else {
                out.push(c);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_delimiters_escapes_and_macros() {
        let page = r#"<script type="text/x-mathjax-config">
          MathJax.Hub.Config({
            tex2jax: {
              inlineMath: [ ['$','$'], ["\\(","\\)"] ], // inline
              displayMath: [ ['$$','$$'], ["\\[","\\]"] ],
              processEscapes: true,
            },
            TeX: { Macros: { RR: "{\\bf R}", bold: ["{\\bf #1}", 1] } }
          });
        </script>"#;
        let mut rules = Tex2jax::default();
        assert_eq!(apply_config(page, &mut rules), Some(ConfigKind::V2));
        assert_eq!(rules.inline[0], ("$".to_string(), "$".to_string()));
        assert_eq!(rules.inline[1], ("\\(".to_string(), "\\)".to_string()));
        assert_eq!(rules.display.len(), 2);
        assert!(rules.process_escapes);
        assert_eq!(rules.macros["\\RR"], "{\\bf R}");
        assert_eq!(rules.macros["\\bold"], "{\\bf #1}");
        // A function elsewhere in the configuration does not hide the delimiters.
        let page = r#"<script type="text/x-mathjax-config">
          MathJax.Hub.Config({ AuthorInit: function () { go(); },
            tex2jax: { inlineMath: [['$','$']] } });
        </script>"#;
        let mut rules = Tex2jax::default();
        assert_eq!(apply_config(page, &mut rules), Some(ConfigKind::V2));
        assert_eq!(rules.inline, vec![("$".to_string(), "$".to_string())]);
        assert_eq!(
            unconditional_mathjax(
                "<script async src=\"https://cdn/MathJax.js?config=X\"></script>"
            )
            .as_deref(),
            Some("https://cdn/MathJax.js?config=X")
        );
        assert_eq!(
            unconditional_mathjax(
                "{{#if mathjax_support}}<script src=\"m/MathJax.js\"></script>{{/if}}"
            ),
            None
        );
        let mut stock = Tex2jax::default();
        assert_eq!(apply_config("<script>x</script>", &mut stock), None);
        assert_eq!(stock, Tex2jax::default());
    }

    /// A MathJax 3 theme (`window.MathJax = { tex: {...} }` before the `tex-*.js` script)
    /// sets the delimiters, escapes and macros as MathJax 3 reads them, from MathJax 3's
    /// defaults.
    #[test]
    fn reads_a_mathjax_3_configuration() {
        let head = r#"<script>
window.MathJax = {
  tex: { inlineMath: [['$', '$']], displayMath: [["$$", "$$"]],
         macros: { NN: "\\mathbb{N}", pair: ["(#1, #2)", 2] } },
  options: { ignoreHtmlClass: 'skip' }
};
</script>
<script async src="https://cdn.example/mathjax@3/es5/tex-chtml.js"></script>"#;
        let mut rules = Tex2jax::default();
        assert_eq!(apply_config(head, &mut rules), Some(ConfigKind::V3));
        assert_eq!(rules.inline, vec![("$".to_string(), "$".to_string())]);
        assert_eq!(rules.display, vec![("$$".to_string(), "$$".to_string())]);
        assert!(
            rules.process_escapes,
            "MathJax 3 reads \\$ as a dollar by default"
        );
        assert_eq!(rules.macros["\\NN"], "\\mathbb{N}");
        assert_eq!(rules.macros["\\pair"], "(#1, #2)");
        assert_eq!(
            unconditional_mathjax(head).as_deref(),
            Some("https://cdn.example/mathjax@3/es5/tex-chtml.js")
        );
        // Without a `tex` block: MathJax 3's defaults, `\\(...\\)` inline only.
        let mut rules = Tex2jax::default();
        let bare = "<script>MathJax = { options: {} };</script>";
        assert_eq!(apply_config(bare, &mut rules), Some(ConfigKind::V3));
        assert_eq!(rules.inline, Tex2jax::default().inline);
        assert!(rules.process_escapes);
        // A comparison or a script with a `src` is not a configuration.
        for page in [
            "<script>if (MathJax == null) { go(); }</script>",
            "<script src=\"x.js\">MathJax = { tex: {} }</script>",
        ] {
            assert_eq!(apply_config(page, &mut Tex2jax::default()), None, "{page}");
        }
    }

    /// The warning for a theme script that loads MathJax says what the build did with its
    /// configuration, and points a book read the mdbook-katex way to `delimiters`.
    #[test]
    fn theme_script_warning_fits_the_reading() {
        let v3 = "<script>MathJax = { tex: { inlineMath: [['$','$']] } };</script>";
        let file = std::path::Path::new("theme/head.hbs");
        let read = script_warning(file, "m.js", v3, true, Some(Delimiters::Mathjax));
        assert!(
            read.contains("`MathJax = { tex: ... }` configuration, which mathcourse has read"),
            "{read}"
        );
        let plain = script_warning(file, "m.js", "", true, None);
        assert!(plain.ends_with("remove that script"), "{plain}");
        assert!(!plain.contains("has read"), "{plain}");
        let default = script_warning(file, "m.js", v3, false, None);
        assert!(
            default.contains("add `delimiters = \"mathjax\"`"),
            "{default}"
        );
        let chosen = script_warning(file, "m.js", v3, false, Some(Delimiters::Github));
        assert!(!chosen.contains("delimiters ="), "{chosen}");
        assert!(cdn_warning(None).contains("add `delimiters = \"mathjax\"`"));
        let github = cdn_warning(Some(Delimiters::Github));
        assert!(!github.contains("add `delimiters"), "{github}");
        assert!(github.contains("`delimiters = \"github\"`"), "{github}");
    }

    /// KaTeX's auto-render in a theme (`renderMathInElement(document.body, {delimiters:
    /// [...]})`): its delimiters, display or inline, no escapes; without options, its
    /// defaults.
    /// A chapter's own `text/x-mathjax-config` script sets its page's rules; the same
    /// script in a code block or code span is text and changes nothing.
    #[test]
    fn a_chapter_config_script_sets_its_page_rules_unless_it_is_code() {
        let script = "<script type=\"text/x-mathjax-config\">MathJax.Hub.Config({ tex2jax: { inlineMath: [['$','$']] } });</script>";
        let book = Tex2jax::default();
        let page = page_rules(&format!("{script}\n\n# T\n"), &book).unwrap();
        assert_eq!(page.inline, vec![("$".to_string(), "$".to_string())]);
        assert_eq!(
            page_rules(&format!("```html\n{script}\n```\n"), &book),
            None
        );
        assert_eq!(page_rules(&format!("Write `{script}`.\n"), &book), None);
        assert_eq!(page_rules("# No config\n", &book), None);
    }

    #[test]
    fn reads_katex_auto_render_delimiters() {
        let head = r#"<script defer src="https://cdn.example/katex@0.16/dist/contrib/auto-render.min.js"></script>
<script>
document.addEventListener("DOMContentLoaded", function() {
  renderMathInElement(document.body, {
    delimiters: [
      {left: "$$", right: "$$", display: true},
      {left: "$", right: "$", display: false},
      {left: "\\begin{equation}", right: "\\end{equation}", display: true}
    ]
  });
});
</script>"#;
        let mut rules = Tex2jax::default();
        assert_eq!(apply_config(head, &mut rules), Some(ConfigKind::AutoRender));
        assert_eq!(rules.inline, vec![("$".to_string(), "$".to_string())]);
        assert_eq!(rules.display, vec![("$$".to_string(), "$$".to_string())]);
        assert!(rules.process_environments);
        assert!(!rules.process_escapes);
        assert_eq!(
            unconditional_mathjax(head).as_deref(),
            Some("https://cdn.example/katex@0.16/dist/contrib/auto-render.min.js")
        );
        let warning = script_warning(
            std::path::Path::new("theme/head.hbs"),
            "https://cdn.example/katex@0.16/dist/contrib/auto-render.min.js",
            head,
            false,
            None,
        );
        assert!(
            warning.contains("loads KaTeX's auto-render on every page"),
            "{warning}"
        );
        assert!(
            warning.contains("written for KaTeX's auto-render"),
            "{warning}"
        );
        // No options: auto-render's defaults.
        let mut rules = Tex2jax::default();
        let bare = "<script>renderMathInElement(document.body);</script>";
        assert_eq!(apply_config(bare, &mut rules), Some(ConfigKind::AutoRender));
        assert_eq!(rules.inline, Tex2jax::default().inline);
        assert_eq!(rules.display, Tex2jax::default().display);
    }
}
