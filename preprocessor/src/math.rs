//! The math engine: TeX in, KaTeX HTML + MathML out, safe to splice into Markdown.
//!
//! The engine is `katex-rs`, a Rust port of KaTeX 0.18.5 (chosen by measurement, see
//! BENCHMARKS.md; its fidelity to the official KaTeX is guarded by the differential
//! test in `tests/`). An engine panic is caught and turned into a [`MathError`], so a
//! bad formula can never crash the build unexplained.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};

use katex::{KatexContext, OutputFormat, Settings, TrustContext, TrustSetting};
use std::sync::Arc;

use crate::config::{Config, Output};

/// Engine name and version; part of every cache key (with this crate's version).
pub const ENGINE: &str =
    "katex-rs 0.3.0 (KaTeX 0.18.5), attributes sorted, trust: \\htmlData{mc-sym=id} only; indexed once (TeX in data-tex, visual text in data-mc-t); bold letters as bold characters; CRLF as LF";

/// The KaTeX version whose CSS and fonts ship with the book (must match [`ENGINE`]).
pub const KATEX_VERSION: &str = "0.18.5";

/// Options that change how a formula renders.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MathOptions {
    /// HTML, MathML or both.
    pub output: Output,
    /// Equation numbers on the left.
    pub leqno: bool,
    /// Display math flush left.
    pub fleqn: bool,
    /// KaTeX `minRuleThickness`.
    pub min_rule_thickness: Option<f64>,
    /// KaTeX `maxSize`.
    pub max_size: Option<f64>,
    /// KaTeX `maxExpand`.
    pub max_expand: Option<usize>,
    /// Macros: name (with backslash) to expansion.
    pub macros: BTreeMap<String, String>,
    /// The macros every formula gets (found on first use; see [`crate::macro_reach`]).
    pub(crate) reach: crate::macro_reach::MacroReach,
}

impl MathOptions {
    /// Options from the book configuration plus the given macros.
    pub fn from_config(config: &Config, macros: BTreeMap<String, String>) -> Self {
        MathOptions {
            output: config.output,
            leqno: config.leqno,
            fleqn: config.fleqn,
            min_rule_thickness: config.min_rule_thickness,
            max_size: config.max_size,
            max_expand: config.max_expand,
            macros,
            reach: Default::default(),
        }
    }

    /// Stable text of everything here (for cache keys).
    pub fn fingerprint(&self) -> String {
        let mut s = format!(
            "{ENGINE};mdbook-mathcourse {};{:?};{};{};{:?};{:?};{:?};",
            // Our own version too: a release may change what the KaTeX pass makes of
            // the engine's HTML without a new engine.
            env!("CARGO_PKG_VERSION"),
            self.output,
            self.leqno,
            self.fleqn,
            self.min_rule_thickness,
            self.max_size,
            self.max_expand
        );
        for (k, v) in &self.macros {
            s.push_str(k);
            s.push('\u{1}');
            s.push_str(v);
            s.push('\u{2}');
        }
        s
    }
}

/// Why a formula did not render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MathError {
    /// KaTeX's message, e.g. `Expected '}', got 'EOF'`.
    pub message: String,
    /// Byte offset in the TeX where KaTeX located the problem.
    pub position: Option<usize>,
    /// Length of the located problem.
    pub length: Option<usize>,
    /// True when the engine panicked (a bug in the engine, not the author's fault).
    pub engine_panic: bool,
}

thread_local! {
    static CONTEXT: KatexContext = KatexContext::default();
    static PANIC_MESSAGE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Renders `tex` to KaTeX HTML (+ MathML), made ready for the page by
/// [`crate::katex_html::finish`] (escaped for Markdown, TeX in `data-tex`, the visual
/// copy's text in attributes).
pub fn render(tex: &str, display: bool, options: &MathOptions) -> Result<String, MathError> {
    let raw = render_raw(tex, display, options)?;
    Ok(crate::katex_html::finish(&raw))
}

/// `html` (rendered KaTeX) with the TeX it carries (`data-tex`, see [`render`])
/// replaced by `tex`: an inspectable formula is typeset from TeX with every symbol
/// tagged (`\htmlData{mc-sym=…}`), and that internal markup must not reach readers or
/// copy and paste; the author's TeX does. Returns `html` unchanged when it carries no
/// TeX (`output = "html"`).
pub fn with_annotation(html: &str, tex: &str) -> String {
    const OPEN: &str = " data-tex=\"";
    let Some(start) = html.find(OPEN).map(|i| i + OPEN.len()) else {
        return html.to_string();
    };
    let Some(len) = html[start..].find('"') else {
        return html.to_string();
    };
    let text = markdown_safe(&crate::html::escape(tex.trim()));
    format!("{}{text}{}", &html[..start], &html[start + len..])
}

/// The most TeX one formula may hold. The longest formula in the real books we test
/// against is about 5 KB; the engine's HTML output grows faster than linearly past a few
/// tens of KB (32 KB took 16 s), so a formula this long is an error, not a slow build.
pub const MAX_TEX_BYTES: usize = 16 * 1024;

/// The deepest nesting of `{…}`, `\left…\right` and `\begin…\end` one formula may
/// have. Real formulas stay under 20; the engine is recursive, so without a limit a
/// few hundred levels overflow its stack and abort the build.
pub const MAX_NESTING: usize = 100;

/// Checks the limits above before the engine sees `tex`; the error points at the byte
/// where the formula got too long or too deep.
pub fn check_limits(tex: &str) -> Result<(), MathError> {
    let error = |message: String, position: usize, length: usize| MathError {
        message,
        position: Some(position),
        length: Some(length),
        engine_panic: false,
    };
    if tex.len() > MAX_TEX_BYTES {
        let mut at = MAX_TEX_BYTES;
        while !tex.is_char_boundary(at) {
            at -= 1;
        }
        return Err(error(
            format!(
                "this formula is {} bytes long; the most one formula may hold is {MAX_TEX_BYTES} bytes",
                tex.len()
            ),
            at,
            tex[at..].chars().next().map_or(1, char::len_utf8),
        ));
    }
    let bytes = tex.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let opened = match bytes[i] {
            b'\\' => {
                let name_len = bytes[i + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphabetic())
                    .count();
                let name = &tex[i + 1..i + 1 + name_len];
                let step = 1 + name_len.max(usize::from(i + 1 < bytes.len()));
                let opened = match name {
                    "left" | "begin" => Some(true),
                    "right" | "end" => Some(false),
                    _ => None,
                };
                let at = i;
                i += step;
                // `\{` and other escaped characters are not groups; skip the whole
                // escaped character (it may be more than one byte).
                while i < bytes.len() && !tex.is_char_boundary(i) {
                    i += 1;
                }
                match opened {
                    Some(open) => (open, at, step),
                    None => continue,
                }
            }
            b'{' => {
                i += 1;
                (true, i - 1, 1)
            }
            b'}' => {
                i += 1;
                (false, i - 1, 1)
            }
            _ => {
                i += 1;
                continue;
            }
        };
        let (open, at, len) = opened;
        if open {
            depth += 1;
            if depth > MAX_NESTING {
                return Err(error(
                    format!("this formula nests groups (`{{…}}`, `\\left…\\right`, environments) more than {MAX_NESTING} deep"),
                    at,
                    len,
                ));
            }
        } else {
            depth = depth.saturating_sub(1);
        }
    }
    Ok(())
}

/// Renders `tex` exactly as KaTeX would (no Markdown escaping); used by the differential test.
pub fn render_raw(tex: &str, display: bool, options: &MathOptions) -> Result<String, MathError> {
    check_limits(tex)?;
    if let Some(braced) = brace_sqrt_radicands(tex) {
        // katex-rs drops the radical's left padding when the radicand is not braced
        // (`\sqrt 2` draws the sign over the 2); the braced form renders as KaTeX does.
        // The MathML annotation keeps the author's TeX. On an error, the original is
        // rendered so that positions point into what the author wrote.
        if let Ok(html) = render_engine(&braced, display, options) {
            return Ok(restore_annotation(html, &braced, tex));
        }
    }
    render_engine(tex, display, options)
}

/// `tex` with every unbraced `\sqrt` radicand (`\sqrt 2`, `\sqrt[3] x`, `\sqrt\alpha`)
/// wrapped in braces, or `None` when there is none.
fn brace_sqrt_radicands(tex: &str) -> Option<String> {
    let mut out = String::with_capacity(tex.len() + 8);
    let mut changed = false;
    let mut rest = tex;
    while let Some(at) = rest.find("\\sqrt") {
        let after = &rest[at + 5..];
        out.push_str(&rest[..at + 5]);
        rest = after;
        if after.starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue; // another command, e.g. `\sqrtx`
        }
        // Optional index `[...]` (no nesting of brackets in practice).
        let mut i = after.len() - after.trim_start().len();
        if after[i..].starts_with('[') {
            match after[i..].find(']') {
                Some(close) => i += close + 1,
                None => continue,
            }
        }
        let ws = after[i..].len() - after[i..].trim_start().len();
        let arg_start = i + ws;
        let arg = &after[arg_start..];
        let len = if arg.starts_with('{') || arg.is_empty() {
            0
        } else if let Some(name) = arg.strip_prefix('\\') {
            let letters = name.bytes().take_while(u8::is_ascii_alphabetic).count();
            if letters > 0 {
                1 + letters
            } else {
                1 + name.chars().next().map_or(0, char::len_utf8)
            }
        } else {
            arg.chars().next().map_or(0, char::len_utf8)
        };
        // A control word that takes arguments would need them too: only single tokens
        // that are symbols are braced (letters, digits, `\alpha`); others are left as
        // written.
        let token = &arg[..len];
        let simple = len > 0
            && !matches!(token, "^" | "_" | "&" | "%" | "}" | "#" | "~")
            && (!token.starts_with('\\') || token.len() == 2 || is_symbol_word(token));
        if !simple {
            continue;
        }
        out.push_str(&after[..arg_start]);
        out.push('{');
        out.push_str(token);
        out.push('}');
        rest = &arg[len..];
        changed = true;
    }
    out.push_str(rest);
    changed.then_some(out)
}

/// Control words that are single symbols (Greek letters and a few others): braced as a
/// radicand they mean the same.
fn is_symbol_word(word: &str) -> bool {
    let name = &word[1..];
    crate::inspect::is_greek(name)
        || [
            "ell", "infty", "hbar", "imath", "jmath", "aleph", "nabla", "partial",
        ]
        .contains(&name)
}

/// The engine's HTML for `braced`, with its MathML annotation set back to `original`.
/// KaTeX escapes `& < > " '` in the annotation; if the annotation is not found exactly,
/// the HTML is returned as it is.
fn restore_annotation(html: String, braced: &str, original: &str) -> String {
    let escape = |t: &str| {
        t.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
            .replace('\'', "&#x27;")
    };
    let needle = format!(
        "<annotation encoding=\"application/x-tex\">{}</annotation>",
        escape(braced)
    );
    match html.find(&needle) {
        Some(at) => {
            let with = format!(
                "<annotation encoding=\"application/x-tex\">{}</annotation>",
                escape(original)
            );
            format!("{}{with}{}", &html[..at], &html[at + needle.len()..])
        }
        None => html,
    }
}

fn render_engine(tex: &str, display: bool, options: &MathOptions) -> Result<String, MathError> {
    let result = catch_engine_panic(|| {
        CONTEXT.with(|ctx| {
            let settings = settings(tex, display, options, ctx);
            katex::render_to_string(ctx, tex, &settings)
        })
    });
    match result {
        Ok(Ok(html)) => Ok(html),
        Ok(Err(err)) => Err(MathError {
            message: tidy_engine_message(err.kind.to_string()),
            position: err.position(),
            length: err.length(),
            engine_panic: false,
        }),
        Err(panic_message) => Err(MathError {
            message: format!("the math engine crashed on this formula ({panic_message})"),
            position: None,
            length: None,
            engine_panic: true,
        }),
    }
}

/// The longest engine message shown to an author.
const MAX_MESSAGE_CHARS: usize = 200;

/// The engine's message, made fit for an author: some katex-rs messages append a debug
/// dump of the parse tree that repeats the whole formula once per node (a 7 KB formula
/// gave an 85 MB message, which then took seconds to escape, search and print).
fn tidy_engine_message(message: String) -> String {
    let cut = ["OrdGroup(", "ParseNode", "SourceLocation {"]
        .iter()
        .filter_map(|marker| message.find(marker))
        .min();
    let mut text = match cut {
        Some(at) => message[..at].trim_end().to_string(),
        None => message,
    };
    if text.chars().count() > MAX_MESSAGE_CHARS {
        text = text.chars().take(MAX_MESSAGE_CHARS).collect::<String>() + "…";
    }
    text
}

fn settings(tex: &str, display: bool, options: &MathOptions, ctx: &KatexContext) -> Settings {
    // Only the macros `tex` can reach: all of them made n formulas cost n × macros.
    let macros = crate::macro_reach::macro_map(tex, &options.macros, &options.reach, ctx);
    let output = match options.output {
        Output::Html => OutputFormat::Html,
        Output::Mathml => OutputFormat::Mathml,
        Output::HtmlAndMathml => OutputFormat::HtmlAndMathml,
    };
    Settings::builder()
        .display_mode(display)
        .output(output)
        .leqno(options.leqno)
        .fleqn(options.fleqn)
        .throw_on_error(true)
        .macros(macros)
        .maybe_min_rule_thickness(options.min_rule_thickness)
        .maybe_max_size(options.max_size)
        .maybe_max_expand(options.max_expand)
        .trust(TrustSetting::Function(Arc::new(
            |context: &mut TrustContext| Some(trusted(context)),
        )))
        .build()
}

/// KaTeX `trust`: granted to exactly what the preprocessor emits for inspectable
/// formulas, `\htmlData{mc-sym=<id>}` with an id of letters, digits, `-` and `_`.
/// Author-written `\href`, `\url`, `\includegraphics`, `\htmlClass`, `\htmlId`,
/// `\htmlStyle` and any other `\htmlData` stay untrusted (KaTeX shows them as
/// unsupported commands; the build reports them first).
pub fn trusted(context: &TrustContext) -> bool {
    if context.command != "\\htmlData" {
        return false;
    }
    let Some(attributes) = &context.attributes else {
        return false;
    };
    attributes.len() == 1
        && attributes.iter().all(|(key, value)| {
            key == "data-mc-sym"
                && !value.is_empty()
                && value
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
}

/// Runs `f`, turning a panic into its message without printing the default panic report.
fn catch_engine_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let in_engine = PANIC_MESSAGE.with(|m| m.borrow().is_some());
            if in_engine {
                let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
                    (*s).to_string()
                } else if let Some(s) = info.payload().downcast_ref::<String>() {
                    s.clone()
                } else {
                    "unknown panic".to_string()
                };
                PANIC_MESSAGE.with(|m| *m.borrow_mut() = Some(msg));
            } else {
                previous(info);
            }
        }));
    });
    PANIC_MESSAGE.with(|m| *m.borrow_mut() = Some(String::new()));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    let message = PANIC_MESSAGE
        .with(|m| m.borrow_mut().take())
        .unwrap_or_default();
    result.map_err(|_| message)
}

pub use crate::katex_html::markdown_safe;

/// The byte offset of the last `{` in `tex` that no `}` closes (escaped braces and `%`
/// comments skipped), or `None` when every group is closed.
pub fn unclosed_brace(tex: &str) -> Option<usize> {
    match brace_problem(tex) {
        Some(BraceProblem::Unclosed(at)) => Some(at),
        _ => None,
    }
}

/// A `{` that is never closed or a `}` that closes nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BraceProblem {
    /// The byte offset of the last `{` no `}` closes.
    Unclosed(usize),
    /// The byte offset of the first `}` with no `{` to close.
    Unopened(usize),
}

/// The first brace problem of `tex` (escaped braces and `%` comments skipped).
pub fn brace_problem(tex: &str) -> Option<BraceProblem> {
    let mut open = Vec::new();
    let mut bytes = tex.bytes().enumerate();
    while let Some((i, b)) = bytes.next() {
        match b {
            b'\\' => {
                bytes.next();
            }
            b'%' => {
                for (_, c) in bytes.by_ref() {
                    if c == b'\n' {
                        break;
                    }
                }
            }
            b'{' => open.push(i),
            b'}' if open.pop().is_none() => return Some(BraceProblem::Unopened(i)),
            _ => {}
        }
    }
    open.pop().map(BraceProblem::Unclosed)
}

/// The macros whose expansion cannot typeset (a `{` never closed, a `}` closing
/// nothing), with what is wrong, in name order.
pub fn broken_macros(macros: &std::collections::BTreeMap<String, String>) -> Vec<(String, String)> {
    macros
        .iter()
        .filter_map(|(name, body)| {
            let problem = match brace_problem(body)? {
                BraceProblem::Unclosed(at) => {
                    format!(
                        "the `{{` at character {} of `{body}` is never closed",
                        body[..at].chars().count() + 1
                    )
                }
                BraceProblem::Unopened(at) => {
                    format!(
                        "the `}}` at character {} of `{body}` closes nothing",
                        body[..at].chars().count() + 1
                    )
                }
            };
            Some((name.clone(), problem))
        })
        .collect()
}

/// Parses a macros file in mdbook-katex's format: one `\name:expansion` per line.
/// As in mdbook-katex, only lines that start with `\` are macros: every other line
/// (blank, `% comment`, `# Section heading`, prose) is ignored. Returns the macros or
/// the 1-based line number and text of the first malformed macro line.
pub fn parse_macros_file(text: &str) -> Result<BTreeMap<String, String>, (usize, String)> {
    let mut macros = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if !trimmed.starts_with('\\') {
            continue;
        }
        match trimmed.split_once(':') {
            Some((name, expansion))
                if name.starts_with('\\')
                    && name.len() > 1
                    && !name.contains(char::is_whitespace) =>
            {
                macros.insert(name.to_string(), expansion.trim().to_string());
            }
            _ => return Err((n + 1, line.to_string())),
        }
    }
    Ok(macros)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_html_and_mathml() {
        let html = render_raw("x^2", false, &MathOptions::default()).unwrap();
        assert!(html.starts_with("<span class=\"katex\">"), "{html}");
        assert!(html.contains("<math"), "{html}");
        assert!(html.contains("katex-html"), "{html}");
    }

    #[test]
    fn display_mode_wraps_in_katex_display() {
        let html = render_raw("x", true, &MathOptions::default()).unwrap();
        assert!(html.contains("katex-display"), "{html}");
    }

    #[test]
    fn error_has_message_and_position() {
        let err = render_raw("\\frac{1}{2", false, &MathOptions::default()).unwrap_err();
        assert!(err.message.contains("expected '}'"), "{err:?}");
        assert!(!err.engine_panic);
        let err = render_raw("a + \\nope", false, &MathOptions::default()).unwrap_err();
        assert!(
            err.message.contains("Undefined control sequence"),
            "{err:?}"
        );
        assert_eq!(err.position, Some(4));
    }

    #[test]
    fn macros_expand() {
        let mut options = MathOptions::default();
        options.macros.insert("\\R".into(), "\\mathbb{R}".into());
        let html = render_raw("\\R^n", false, &options).unwrap();
        assert!(html.contains("mathbb"), "{html}");
    }

    /// `html` with every tag's attributes sorted.
    fn sorted(html: &str) -> String {
        use crate::html::{tokens, Token};
        tokens(html)
            .map(|t| match t {
                Token::Tag(t) => crate::katex_html::sort_attributes(&t).into_owned(),
                Token::Text(t) => t.into_owned(),
            })
            .collect()
    }

    #[test]
    fn attributes_are_sorted_and_render_is_reproducible() {
        assert_eq!(
            sorted("<svg width='1' xmlns=\"x\" height=\"2\"><path d='M0 0>1'/></svg><br/>"),
            "<svg height=\"2\" width='1' xmlns=\"x\"><path d='M0 0>1'/></svg><br/>"
        );
        let tex = "\\sqrt{\\frac{a}{b}} + \\begin{pmatrix}1\\\\2\\end{pmatrix} + \\bigl(x\\bigr)";
        let first = render(tex, true, &MathOptions::default()).unwrap();
        for _ in 0..20 {
            assert_eq!(render(tex, true, &MathOptions::default()).unwrap(), first);
        }
    }

    #[test]
    fn markdown_safe_escapes_text_only() {
        let s = markdown_safe(
            "<span class=\"a_b\" style='x'>x_1*y</span><annotation>a\\|b\n--c...</annotation>",
        );
        assert_eq!(
            s,
            "<span class=\"a_b\" style='x'>x&#95;1&#42;y</span><annotation>a&#92;&#124;b&#10;&#45;-c&#46;&#46;.</annotation>"
        );
    }

    #[test]
    fn rendered_output_has_no_newline_or_markdown_specials() {
        let html = render(
            "\\begin{aligned} a_1 &= b^* \\\\ c &= |d| \\end{aligned}",
            true,
            &MathOptions::default(),
        )
        .unwrap();
        assert!(!html.contains('\n'));
        let text: String = strip_tags(&html);
        for c in ['_', '*', '\\', '|', '$', '`'] {
            assert!(!text.contains(c), "{c} in {text}");
        }
    }

    fn strip_tags(html: &str) -> String {
        let mut out = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => out.push(c),
                _ => {}
            }
        }
        out
    }

    #[test]
    fn brace_problems() {
        assert_eq!(
            brace_problem("\\frac{a + d}{2 \\pm b"),
            Some(BraceProblem::Unclosed(12))
        );
        assert_eq!(brace_problem("\\mathbf{w"), Some(BraceProblem::Unclosed(7)));
        assert_eq!(brace_problem("a}b{"), Some(BraceProblem::Unopened(1)));
        assert_eq!(brace_problem("\\{x\\} {y} % {"), None);
        assert_eq!(unclosed_brace("{a{b}"), Some(0));
    }

    #[test]
    fn macros_file_format() {
        let m = parse_macros_file("% comment\n\\R:{\\mathbb{R}}\n\n\\norm:\\left\\|#1\\right\\|\n")
            .unwrap();
        assert_eq!(m["\\R"], "{\\mathbb{R}}");
        assert_eq!(m["\\norm"], "\\left\\|#1\\right\\|");
        // Lines that do not start with a backslash are not macros (mdbook-katex's rule).
        let m =
            parse_macros_file("# Conventions\n\\F:\\mathbb{F}\n\nnot a macro: here\n  \\G:g\r\n")
                .unwrap();
        assert_eq!(
            (m["\\F"].as_str(), m["\\G"].as_str(), m.len()),
            ("\\mathbb{F}", "g", 2)
        );
        // A line that starts with a backslash but is no `\name:expansion` is an error.
        assert_eq!(
            parse_macros_file("\\ok:x\n\\broken\n"),
            Err((2, "\\broken".into()))
        );
        assert_eq!(parse_macros_file("\\a b:x\n"), Err((1, "\\a b:x".into())));
    }

    #[test]
    fn unbraced_sqrt_radicands_are_braced_and_the_annotation_kept() {
        assert_eq!(
            brace_sqrt_radicands("\\sqrt 2").as_deref(),
            Some("\\sqrt {2}")
        );
        assert_eq!(
            brace_sqrt_radicands("\\sqrt[3] x+\\sqrt\\alpha").as_deref(),
            Some("\\sqrt[3] {x}+\\sqrt{\\alpha}")
        );
        assert_eq!(brace_sqrt_radicands("\\sqrt{2} \\sqrtx"), None);
        assert_eq!(
            brace_sqrt_radicands("\\sqrt\\frac12"),
            None,
            "a command with arguments is left alone"
        );
        assert_eq!(brace_sqrt_radicands("\\sqrt"), None);
        let o = MathOptions::default();
        let unbraced = render_raw("\\sqrt 2", false, &o).unwrap();
        let braced = render_raw("\\sqrt{2}", false, &o).unwrap();
        assert!(
            unbraced.contains("<annotation encoding=\"application/x-tex\">\\sqrt 2</annotation>"),
            "{unbraced}"
        );
        assert_eq!(
            sorted(&unbraced.replace("\\sqrt 2</annotation>", "\\sqrt{2}</annotation>")),
            sorted(&braced),
            "drawn exactly as the braced form"
        );
        // Errors point into the author's TeX.
        let err = render_raw("\\sqrt 2 + \\frac{", false, &o).unwrap_err();
        assert!(err.position.is_some_and(|p| p >= 9), "{err:?}");
    }

    #[test]
    fn engine_messages_lose_their_parse_tree_dumps() {
        let o = MathOptions::default();
        let tex = format!("\\begin{{pmatrix}} 1 \\end{{pmat{}", "x ".repeat(2000));
        let err = render_raw(&tex, true, &o).unwrap_err();
        assert!(
            err.message.chars().count() <= MAX_MESSAGE_CHARS + 1,
            "{}",
            err.message.len()
        );
        assert!(!err.message.contains("SourceLocation"), "{}", err.message);
        assert_eq!(
            tidy_engine_message("Invalid environment nameOrdGroup(ParseNodeOrdGroup { x".into()),
            "Invalid environment name"
        );
    }

    #[test]
    fn annotation_is_replaced_by_the_authors_tex() {
        let options = MathOptions::default();
        let tagged = render("\\htmlData{mc-sym=x}{x} < y", false, &options);
        let tagged = tagged.unwrap_or_else(|_| render("x < y", false, &options).unwrap());
        let html = with_annotation(&tagged, "x < y_1");
        assert!(
            !html.contains("htmlData") && !html.contains("mc-sym=x}"),
            "{html}"
        );
        assert!(html.contains(" data-tex=\"x &lt; y&#95;1\""), "{html}");
        assert_eq!(with_annotation("<span>x</span>", "y"), "<span>x</span>");
    }

    #[test]
    fn each_formula_has_one_text_for_the_search_index() {
        let html = render(
            r#"\frac{a}{b} = \text{"q"}"#,
            false,
            &MathOptions::default(),
        )
        .unwrap();
        // Text nodes are what mdBook indexes: only the MathML's remain.
        let mut text = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => text.push(c),
                _ => {}
            }
        }
        assert_eq!(text, "ab=&quot;q&quot;", "{html}");
        assert!(html.contains("<span class=\"katex\" data-tex=\"&#92;frac&#123;a&#125;&#123;b&#125; = &#92;text&#123;&quot;q&quot;&#125;\">"), "{html}");
        assert!(!html.contains("<annotation"), "{html}");
        assert!(html.contains(" data-mc-t=\"a\"></span>"), "{html}");
    }
}
