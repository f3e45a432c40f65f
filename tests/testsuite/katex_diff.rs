//! Differential test: our engine (katex-rs) against the official KaTeX of the same
//! version (npm `katex`, pinned in `tests/package.json`, run under Node).
//!
//! Every formula of `tests/katex-diff/formulas.txt` is rendered by both engines; both
//! outputs are normalized into a canonical DOM string (see [`canonical_dom`]) and
//! compared. The set of formulas whose outputs differ must equal the set listed in
//! `tests/katex-diff/known-differences.txt` (each with its reason): a new difference
//! fails the test, and so does a listed difference that no longer occurs, so the list
//! stays true.
//!
//! Errors: when both engines reject a formula, their messages are compared too. The
//! official message is `KaTeX parse error: <message> at position N: <context>` (or
//! `... at end of input: <context>`); ours is the bare `<message>` (the position is a
//! separate field). The official message is normalized by removing the prefix and the
//! position/context suffix; a remaining mismatch counts as a difference like any
//! other. One engine rendering what the other rejects is always a difference.
//!
//! Needs `node` on the PATH and `tests/node_modules/katex` (`npm ci --prefix tests`);
//! fails (never skips) without them. `KATEX_DIFF_DUMP=<dir>` writes the two canonical
//! forms of each difference to `<dir>`, one tag a line, to look at with `diff -u`.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use mdbook_mathcourse::math::{render_raw, MathOptions};

const KATEX_VERSION: &str = "0.18.5";
const MIN_FORMULAS: usize = 200;
const MIN_DISPLAY: usize = 100;
const CONTEXT: usize = 80;

/// One line of `formulas.txt`.
struct Formula {
    /// The line as written (`I <tex>` or `D <tex>`): the key in known-differences.txt.
    line: String,
    tex: String,
    display: bool,
}

/// What one engine made of a formula, normalized.
#[derive(Debug, PartialEq)]
enum Outcome {
    Html(String),
    Error(String),
}

impl Outcome {
    fn describe(&self) -> &'static str {
        match self {
            Outcome::Html(_) => "rendered",
            Outcome::Error(_) => "error",
        }
    }
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn install_hint() -> &'static str {
    "run `npm ci --prefix tests` from the repository root (CI installs it; needs Node 20+)"
}

fn read_formulas(path: &Path) -> Vec<Formula> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut formulas = Vec::new();
    let mut seen = BTreeSet::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let (display, tex) = match line.split_at(line.len().min(2)) {
            ("I ", tex) => (false, tex),
            ("D ", tex) => (true, tex),
            _ => panic!(
                "{}:{}: expected `I <tex>`, `D <tex>`, a `#` comment or a blank line, got {line:?}",
                path.display(),
                n + 1
            ),
        };
        assert!(
            seen.insert(line.to_string()),
            "{}:{}: duplicate formula {line:?}",
            path.display(),
            n + 1
        );
        formulas.push(Formula {
            line: line.to_string(),
            tex: tex.to_string(),
            display,
        });
    }
    formulas
}

/// known-differences.txt: formula line, a tab, the reason.
fn read_known(path: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut known = BTreeMap::new();
    for (n, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        let (line, reason) = raw.split_once('\t').unwrap_or_else(|| {
            panic!(
                "{}:{}: expected `<formula line>\\t<reason>`, got {raw:?}",
                path.display(),
                n + 1
            )
        });
        assert!(
            !reason.trim().is_empty(),
            "{}:{}: empty reason for {line:?}",
            path.display(),
            n + 1
        );
        let previous = known.insert(line.trim_end().to_string(), reason.trim().to_string());
        assert!(
            previous.is_none(),
            "{}:{}: {line:?} listed twice",
            path.display(),
            n + 1
        );
    }
    known
}

/// Renders all formulas with the official KaTeX in one Node process.
fn render_official(formulas: &[Formula]) -> Vec<Outcome> {
    let root = dir();
    let katex_pkg = root.join("node_modules/katex/package.json");
    let pkg = std::fs::read_to_string(&katex_pkg).unwrap_or_else(|_| {
        panic!(
            "the official KaTeX is not installed ({} is missing): {}",
            katex_pkg.display(),
            install_hint()
        )
    });
    let pkg: serde_json::Value = serde_json::from_str(&pkg).expect("katex package.json");
    assert_eq!(
        pkg["version"].as_str(),
        Some(KATEX_VERSION),
        "tests/node_modules/katex is not version {KATEX_VERSION}: {}",
        install_hint()
    );

    let input = serde_json::Value::Array(
        formulas
            .iter()
            .map(|f| serde_json::json!({ "tex": f.tex, "display": f.display }))
            .collect(),
    )
    .to_string();
    let script = root.join("katex-diff/official.mjs");
    let mut child = Command::new("node")
        .arg(&script)
        .current_dir(&root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run `node` ({e}): the KaTeX differential test needs Node; {}",
                install_hint()
            )
        });
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("wait for node");
    writer.join().expect("stdin writer").expect("write to node");
    assert!(
        output.status.success(),
        "node {} failed ({}):\n{}",
        script.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let results: Vec<serde_json::Value> =
        serde_json::from_slice(&output.stdout).expect("official.mjs printed invalid JSON");
    assert_eq!(
        results.len(),
        formulas.len(),
        "official.mjs answered for a different number of formulas"
    );
    results
        .into_iter()
        .map(|r| {
            if let Some(html) = r["html"].as_str() {
                Outcome::Html(canonical_dom(html))
            } else if let Some(err) = r["error"].as_str() {
                Outcome::Error(normalize_official_error(err))
            } else {
                panic!("unexpected answer from official.mjs: {r}")
            }
        })
        .collect()
}

fn render_ours(formula: &Formula) -> Outcome {
    match render_raw(&formula.tex, formula.display, &MathOptions::default()) {
        Ok(html) => Outcome::Html(canonical_dom(&html)),
        Err(e) => Outcome::Error(e.message.trim().to_string()),
    }
}

/// `KaTeX parse error: Double superscript at position 4: x^1^̲2` -> `Double superscript`.
fn normalize_official_error(message: &str) -> String {
    let m = message
        .strip_prefix("KaTeX parse error: ")
        .unwrap_or(message);
    let mut cut = m.len();
    if let Some(i) = m.rfind(" at end of input: ") {
        cut = cut.min(i);
    }
    // ` at position N: ` (the context after it may itself contain " at position ").
    let mut search = 0;
    while let Some(rel) = m[search..].find(" at position ") {
        let i = search + rel;
        let rest = &m[i + " at position ".len()..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && rest[digits..].starts_with(':') {
            cut = cut.min(i);
            break;
        }
        search = i + 1;
    }
    m[..cut].trim().to_string()
}

// ---------------------------------------------------------------------------------
// Canonical DOM: a tiny HTML tokenizer, enough for KaTeX's output.
// ---------------------------------------------------------------------------------

const VOID_ELEMENTS: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// Canonical form of an HTML fragment: elements with attributes sorted by name,
/// `class` tokens sorted, `style` declarations trimmed, sorted and with numbers rounded
/// to 4 decimals (so are the numbers of SVG geometry: `d`, `viewBox`, `height`...); entities decoded and re-escaped one way; whitespace runs in text
/// collapsed; `<x/>`, `<x></x>` and a void `<x>` all alike.
fn canonical_dom(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut text = String::new();
    let mut rest = html;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |i| &after[i + 3..]);
            continue;
        }
        let is_tag = rest.starts_with('<')
            && rest[1..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '!');
        if !is_tag {
            let first = rest.chars().next().map_or(1, char::len_utf8);
            let end = rest[first..].find('<').map_or(rest.len(), |i| i + first);
            text.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        }
        flush_text(&mut out, &mut text);
        let (tag, after) = split_tag(rest);
        rest = after;
        emit_tag(&mut out, tag);
    }
    flush_text(&mut out, &mut text);
    out
}

/// Splits `<...>` (respecting quoted attribute values) off the front of `s`.
fn split_tag(s: &str) -> (&str, &str) {
    let mut quote = None;
    for (i, c) in s.char_indices().skip(1) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => return (&s[1..i], &s[i + 1..]),
            _ => {}
        }
    }
    panic!(
        "unterminated tag in engine output: {:?}",
        &s[..s.len().min(100)]
    )
}

fn emit_tag(out: &mut String, tag: &str) {
    if let Some(name) = tag.strip_prefix('/') {
        let name = name.trim();
        if !VOID_ELEMENTS.contains(&name.to_ascii_lowercase().as_str()) {
            out.push_str("</");
            out.push_str(name);
            out.push('>');
        }
        return;
    }
    if tag.starts_with('!') {
        return; // doctype and the like
    }
    let (tag, self_closing) = match tag.strip_suffix('/') {
        Some(t) => (t, true),
        None => (tag, false),
    };
    let name_len = tag.find(|c: char| c.is_whitespace()).unwrap_or(tag.len());
    let name = &tag[..name_len];
    let mut attrs = parse_attributes(&tag[name_len..]);
    attrs.sort();
    out.push('<');
    out.push_str(name);
    for (key, value) in attrs {
        let value = match key.as_str() {
            "class" => {
                let mut tokens: Vec<&str> = value.split_ascii_whitespace().collect();
                tokens.sort_unstable();
                tokens.join(" ")
            }
            "style" => canonical_style(&value),
            "d" | "viewBox" | "points" => round_numbers(&value, Numbers::Svg),
            "height" | "width" | "x" | "y" | "x1" | "x2" | "y1" | "y2" => {
                round_numbers(&value, Numbers::Css)
            }
            _ => value,
        };
        out.push(' ');
        out.push_str(&key);
        out.push_str("=\"");
        escape_into(out, &value, true);
        out.push('"');
    }
    out.push('>');
    if self_closing || VOID_ELEMENTS.contains(&name.to_ascii_lowercase().as_str()) {
        out.push_str("</");
        out.push_str(name);
        out.push('>');
    }
}

/// `a="x" b='y' c=z d` -> [(a, x), (b, y), (c, z), (d, "")], values entity-decoded.
fn parse_attributes(s: &str) -> Vec<(String, String)> {
    let mut attrs = Vec::new();
    let mut rest = s.trim_start();
    while !rest.is_empty() {
        let name_len = rest
            .find(|c: char| c.is_whitespace() || c == '=')
            .unwrap_or(rest.len());
        let name = rest[..name_len].to_string();
        rest = rest[name_len..].trim_start();
        let mut value = String::new();
        if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            let (raw, remaining) = match after.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let end = after[1..].find(q).map_or(after.len(), |i| i + 1);
                    (&after[1..end], after.get(end + 1..).unwrap_or(""))
                }
                _ => {
                    let end = after.find(char::is_whitespace).unwrap_or(after.len());
                    (&after[..end], &after[end..])
                }
            };
            value = decode_entities(raw);
            rest = remaining.trim_start();
        }
        if !name.is_empty() {
            attrs.push((name, value));
        }
    }
    attrs
}

/// `height: 1.23456789em ;top:-0.5em;` -> `height:1.2346em;top:-0.5em`.
fn canonical_style(style: &str) -> String {
    let mut decls: Vec<String> = style
        .split(';')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| match d.split_once(':') {
            Some((prop, value)) => format!(
                "{}:{}",
                prop.trim().to_ascii_lowercase(),
                round_numbers(value.trim(), Numbers::Css)
            ),
            None => round_numbers(d, Numbers::Css),
        })
        .collect();
    decls.sort();
    decls.join(";")
}

/// How [`round_numbers`] reads a value.
#[derive(Clone, Copy, PartialEq)]
enum Numbers {
    /// CSS-like (`style`, `height`): words such as `#00ff00`, `rgb` or `margin-right`
    /// are kept verbatim; only free-standing numbers (`-0.5em`) are rounded.
    Css,
    /// SVG geometry (`d`, `viewBox`): every number, even right after a path command
    /// letter (`v-0` -> `v0`).
    Svg,
}

/// Rounds every number in an attribute value to 4 decimals
/// (`0.30000000000000004em` -> `0.3em`, `-0` -> `0`).
fn round_numbers(value: &str, mode: Numbers) -> String {
    let b = value.as_bytes();
    let digit_at = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let unsigned_at = |i: usize| digit_at(i) || (b.get(i) == Some(&b'.') && digit_at(i + 1));
    let mut out = String::with_capacity(value.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if mode == Numbers::Css && (c.is_ascii_alphabetic() || c == b'#' || c == b'_') {
            // A word (identifier, unit, hex colour): copy it whole.
            let start = i;
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'-' || b[i] == b'_') {
                i += 1;
            }
            out.push_str(&value[start..i]);
        } else if unsigned_at(i) || ((c == b'-' || c == b'+') && unsigned_at(i + 1)) {
            // [sign] digits [. digits] [e [sign] digits]
            let start = i;
            if !c.is_ascii_digit() && c != b'.' {
                i += 1;
            }
            while digit_at(i) {
                i += 1;
            }
            if b.get(i) == Some(&b'.') && digit_at(i + 1) {
                i += 1;
                while digit_at(i) {
                    i += 1;
                }
            }
            if matches!(b.get(i), Some(b'e' | b'E')) {
                let sign = usize::from(matches!(b.get(i + 1), Some(b'-' | b'+')));
                if digit_at(i + 1 + sign) {
                    i += 1 + sign;
                    while digit_at(i) {
                        i += 1;
                    }
                }
            }
            let literal = &value[start..i];
            let number = literal
                .parse::<f64>()
                .map_or_else(|_| literal.to_string(), format_rounded);
            // `-.5.5` -> `-0.5 0.5`, not `-0.50.5`.
            if out.ends_with(|c: char| c.is_ascii_digit() || c == '.')
                && number.starts_with(|c: char| c.is_ascii_digit())
            {
                out.push(' ');
            }
            out.push_str(&number);
        } else {
            let ch = value[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn format_rounded(x: f64) -> String {
    let r = (x * 10_000.0).round() / 10_000.0;
    if r == 0.0 {
        return "0".to_string();
    }
    let s = format!("{r:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn flush_text(out: &mut String, text: &mut String) {
    if text.is_empty() {
        return;
    }
    let decoded = decode_entities(text);
    let mut collapsed = String::with_capacity(decoded.len());
    let mut in_space = false;
    for c in decoded.chars() {
        if matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c') {
            if !in_space {
                collapsed.push(' ');
            }
            in_space = true;
        } else {
            collapsed.push(c);
            in_space = false;
        }
    }
    escape_into(out, &collapsed, false);
    text.clear();
}

fn escape_into(out: &mut String, s: &str, attribute: bool) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// Decodes `&#39;`, `&#x27;`, `&amp;` and the few named entities KaTeX emits.
fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let decoded = rest.find(';').filter(|&end| end <= 12).and_then(|end| {
            let entity = &rest[1..end];
            let c = if let Some(hex) = entity
                .strip_prefix("#x")
                .or_else(|| entity.strip_prefix("#X"))
            {
                u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
            } else if let Some(dec) = entity.strip_prefix('#') {
                dec.parse::<u32>().ok().and_then(char::from_u32)
            } else {
                match entity {
                    "amp" => Some('&'),
                    "lt" => Some('<'),
                    "gt" => Some('>'),
                    "quot" => Some('"'),
                    "apos" => Some('\''),
                    "nbsp" => Some('\u{a0}'),
                    _ => None,
                }
            };
            c.map(|c| (c, end))
        });
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

// ---------------------------------------------------------------------------------
// Reporting
// ---------------------------------------------------------------------------------

/// Where two canonical strings first differ, with context from each side.
fn first_difference(official: &Outcome, ours: &Outcome) -> String {
    let (a, b) = match (official, ours) {
        (Outcome::Html(a), Outcome::Html(b)) | (Outcome::Error(a), Outcome::Error(b)) => {
            (a.as_str(), b.as_str())
        }
        _ => {
            return format!(
                "    official: {} {}\n    ours:     {} {}",
                official.describe(),
                excerpt(payload(official), 0),
                ours.describe(),
                excerpt(payload(ours), 0)
            )
        }
    };
    let mut at = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    while !a.is_char_boundary(at) || !b.is_char_boundary(at) {
        at -= 1;
    }
    format!(
        "    first difference at offset {at} of the canonical {}\n    official: {}\n    ours:     {}",
        if matches!(official, Outcome::Html(_)) { "DOM" } else { "error message" },
        excerpt(a, at),
        excerpt(b, at)
    )
}

fn payload(o: &Outcome) -> &str {
    match o {
        Outcome::Html(s) | Outcome::Error(s) => s,
    }
}

/// `…<CONTEXT chars>⟦here⟧<CONTEXT chars>…` around byte offset `at`.
fn excerpt(s: &str, at: usize) -> String {
    let before: String = {
        let chars: Vec<char> = s[..at].chars().rev().take(CONTEXT).collect();
        chars.into_iter().rev().collect()
    };
    let after: String = s[at..].chars().take(CONTEXT).collect();
    let lead = if before.len() < at { "…" } else { "" };
    let tail = if at + after.len() < s.len() {
        "…"
    } else {
        ""
    };
    format!("{lead}{before}⟦here⟧{after}{tail}")
}

fn dump_difference(dir: &Path, n: usize, formula: &Formula, official: &Outcome, ours: &Outcome) {
    for (side, outcome) in [("official", official), ("ours", ours)] {
        let body = format!(
            "{}\n{}: {}\n",
            formula.line,
            outcome.describe(),
            payload(outcome).replace('<', "\n<")
        );
        let path = dir.join(format!("{n:03}.{side}.txt"));
        std::fs::write(&path, body).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }
}

#[test]
fn katex_diff() {
    let root = dir();
    let formulas = read_formulas(&root.join("katex-diff/formulas.txt"));
    let known_path = root.join("katex-diff/known-differences.txt");
    let known = read_known(&known_path);

    let display = formulas.iter().filter(|f| f.display).count();
    assert!(
        formulas.len() >= MIN_FORMULAS,
        "formulas.txt has {} formulas; at least {MIN_FORMULAS} expected",
        formulas.len()
    );
    assert!(
        display >= MIN_DISPLAY,
        "formulas.txt has {display} display formulas; at least {MIN_DISPLAY} expected"
    );

    // KATEX_DIFF_DUMP=<dir>: write both canonical forms of each difference there,
    // one tag a line, for `diff -u`.
    let dump = std::env::var_os("KATEX_DIFF_DUMP").map(PathBuf::from);
    if let Some(dump) = &dump {
        std::fs::create_dir_all(dump).expect("create KATEX_DIFF_DUMP directory");
    }

    let official = render_official(&formulas);
    let mut identical = 0;
    let mut both_error = 0;
    let mut differing: BTreeMap<&str, String> = BTreeMap::new();
    for (formula, theirs) in formulas.iter().zip(&official) {
        let ours = render_ours(formula);
        if &ours == theirs {
            identical += 1;
            if matches!(ours, Outcome::Error(_)) {
                both_error += 1;
            }
        } else {
            if let Some(dump) = &dump {
                dump_difference(dump, differing.len() + 1, formula, theirs, &ours);
            }
            differing.insert(&formula.line, first_difference(theirs, &ours));
        }
    }

    let listed: BTreeSet<&str> = known.keys().map(String::as_str).collect();
    let found: BTreeSet<&str> = differing.keys().copied().collect();
    let new: Vec<&str> = found.difference(&listed).copied().collect();
    let gone: Vec<&str> = listed.difference(&found).copied().collect();

    eprintln!(
        "katex diff: {} formulas ({display} display), {identical} identical \
         (of which {both_error} rejected by both), {} known differences ({:.1}%)",
        formulas.len(),
        found.len() - new.len(),
        100.0 * (found.len() - new.len()) as f64 / formulas.len() as f64
    );

    let mut report = String::new();
    for line in &new {
        report.push_str(&format!("NEW DIFFERENCE: {line}\n{}\n\n", differing[line]));
    }
    for line in &gone {
        let why = if formulas.iter().any(|f| f.line == *line) {
            "now renders identically"
        } else {
            "is not in formulas.txt"
        };
        report.push_str(&format!(
            "LISTED DIFFERENCE NO LONGER OCCURS ({why}): {line}\n    listed reason: {}\n\n",
            known[*line]
        ));
    }
    assert!(
        report.is_empty(),
        "{report}{} new difference(s), {} stale entr(y/ies) in {}: \
         look at each new difference, then list it with its reason (formula line, tab, \
         reason) or fix the engine; remove entries that no longer occur \
         (KATEX_DIFF_DUMP=<dir> writes both canonical forms of each difference, for diff -u)",
        new.len(),
        gone.len(),
        known_path.display()
    );
}

#[test]
fn canonical_dom_normalizes_equivalent_markup() {
    let a = r#"<span style="top: -3.0000001em;height:0.5em" class="b a" aria-hidden='true'>&#x27;x  y&amp;</span><path d="M0 0"/><img src=x>"#;
    let b = r#"<!-- c --><span aria-hidden="true" class="a b" style="height:0.50em;top:-3em;">&#39;x
y&amp;</span><path d='M0 0'></path><img src="x"/>"#;
    assert_eq!(canonical_dom(a), canonical_dom(b));
    assert_eq!(
        canonical_dom(a),
        r#"<span aria-hidden="true" class="a b" style="height:0.5em;top:-3em">'x y&amp;</span><path d="M0 0"></path><img src="x"></img>"#
    );
    assert_ne!(canonical_dom("<b>x</b>"), canonical_dom("<b>y</b>"));
    assert_eq!(
        round_numbers(
            "#00ff00 rgb(1.23456,0,0) -0.00001em .5em 1e-7em",
            Numbers::Css
        ),
        "#00ff00 rgb(1.2346,0,0) 0em 0.5em 0em"
    );
    assert_eq!(
        round_numbers("M0 641.4100000000001v-0c-.667.7 1e2", Numbers::Svg),
        "M0 641.41v0c-0.667 0.7 100"
    );
    assert_eq!(
        normalize_official_error("KaTeX parse error: Double superscript at position 4: x^1^̲2"),
        "Double superscript"
    );
    assert_eq!(
        normalize_official_error(
            "KaTeX parse error: Expected '\\right', got 'EOF' at end of input: \\left( x"
        ),
        "Expected '\\right', got 'EOF'"
    );
}
