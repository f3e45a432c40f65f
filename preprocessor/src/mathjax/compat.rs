//! MathJax's TeX that KaTeX rejects, rewritten into TeX that means the same to both.
//!
//! Only applied to a formula the engine rejected as written; the page keeps the
//! author's TeX in `data-tex`. Each rule is a reading MathJax 2.7 (TeX-AMS) gives and
//! KaTeX does not:
//! - a control word as a bare sub- or superscript (`k_\min`, `e_\text{end}`): braced
//!   with its braced arguments;
//! - text arguments (`\text{get_value}`) are literal in MathJax 2: `_ & # % ^` escaped;
//! - `\require`, `\label` (nothing shown), `\mbox`, `\hbox` (as `\text`), `\bbox`, `\class`, `\cssId`, `\style`
//!   (their content), `\unicode` (its character), plain TeX's `\matrix`, `\pmatrix`,
//!   `\cases`, `\eqalign` (the LaTeX environments);
//! - `multline` and `eqnarray`, as `gather` and a `rcl` array;
//! - page-wide macros: [`definitions`] reads `\newcommand` and `\def` so later formulas
//!   of the page get them, as in MathJax;
//! - a command defined nowhere is shown by name in red ([`show_undefined`]), as
//!   MathJax's `noundefined` extension shows it.

/// `tex` rewritten for KaTeX, or `None` when no rule applies.
pub fn normalize(tex: &str) -> Option<String> {
    let mut out = tex.to_string();
    let mut changed = false;
    for rule in [
        rewrite_commands,
        brace_script_commands,
        escape_text_arguments,
        rename_environments,
    ] {
        if let Some(t) = rule(&out) {
            out = t;
            changed = true;
        }
    }
    changed.then_some(out)
}

/// The colour of an undefined command's name (MathJax shows it in red): also how a
/// rendered formula that holds one is recognised.
pub const UNDEFINED_MARK: &str = "#cc0001";

/// `tex` with the control word `name` shown as red text `\name`, as MathJax's
/// `noundefined` extension shows a command it does not know; `None` when absent.
pub fn show_undefined(tex: &str, name: &str) -> Option<String> {
    let word = name.strip_prefix('\\')?;
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let mut out = String::with_capacity(tex.len() + 48);
    let mut last = 0;
    let mut i = 0;
    let mut changed = false;
    while let Some(at) = tex[i..].find(name) {
        let p = i + at;
        let end = p + name.len();
        i = end;
        let escaped = tex[..p].bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1;
        if escaped || tex[end..].starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue;
        }
        out.push_str(&tex[last..p]);
        out.push_str(&format!(
            "{{\\color{{{UNDEFINED_MARK}}}\\text{{\\textbackslash {word}}}}}"
        ));
        last = end;
        changed = true;
    }
    out.push_str(&tex[last..]);
    changed.then_some(out)
}

/// The macros `tex` defines, in order, as (name with backslash, expansion):
/// `\newcommand{\x}[1]{...}`, `\renewcommand\x{...}`, `\def\x#1{...}`.
/// MathJax 2 keeps them for the rest of the page.
pub fn definitions(tex: &str) -> Vec<(String, String)> {
    definition_spans(tex)
        .into_iter()
        .map(|(name, body, _)| (name, body))
        .collect()
}

/// [`definitions`] with the bytes of each definition in `tex`.
pub fn definition_spans(tex: &str) -> Vec<(String, String, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = tex[i..].find('\\') {
        let p = i + at;
        let rest = &tex[p..];
        let word_len = 1 + rest[1..]
            .bytes()
            .take_while(u8::is_ascii_alphabetic)
            .count();
        let word = &rest[..word_len];
        i = p + word_len.max(2).min(rest.len());
        let mut q = p + word_len;
        let skip_ws = |q: &mut usize| {
            while tex[*q..].starts_with([' ', '\n', '\t']) {
                *q += 1;
            }
        };
        match word {
            "\\newcommand" | "\\renewcommand" | "\\providecommand" => {
                skip_ws(&mut q);
                let name = if tex[q..].starts_with('{') {
                    let Some(end) = group_end(tex, q) else {
                        continue;
                    };
                    let n = tex[q + 1..end - 1].trim().to_string();
                    q = end;
                    n
                } else {
                    let Some(n) = control_word(&tex[q..]) else {
                        continue;
                    };
                    q += n.len();
                    n.to_string()
                };
                skip_ws(&mut q);
                if tex[q..].starts_with('[') {
                    let Some(close) = tex[q..].find(']') else {
                        continue;
                    };
                    q += close + 1;
                    skip_ws(&mut q);
                }
                if tex[q..].starts_with('[') {
                    // An optional argument's default: not something KaTeX macros hold.
                    continue;
                }
                let Some(end) = group_end(tex, q) else {
                    continue;
                };
                if name.starts_with('\\') {
                    out.push((name, tex[q + 1..end - 1].to_string(), p..end));
                }
                i = end;
            }
            "\\def" | "\\gdef" => {
                skip_ws(&mut q);
                let Some(name) = control_word(&tex[q..]) else {
                    continue;
                };
                q += name.len();
                let Some(open) = tex[q..].find('{') else {
                    continue;
                };
                let params = &tex[q..q + open];
                if !params
                    .chars()
                    .all(|c| c == '#' || c.is_ascii_digit() || c == ' ')
                {
                    continue;
                }
                let Some(end) = group_end(tex, q + open) else {
                    continue;
                };
                out.push((
                    name.to_string(),
                    tex[q + open + 1..end - 1].to_string(),
                    p..end,
                ));
                i = end;
            }
            _ => {}
        }
    }
    out
}

/// `\name` at the start of `s`.
fn control_word(s: &str) -> Option<&str> {
    let rest = s.strip_prefix('\\')?;
    let n = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
    let n = if n == 0 {
        rest.chars().next()?.len_utf8()
    } else {
        n
    };
    Some(&s[..1 + n])
}

/// The end (exclusive) of the brace group opening at `open`.
fn group_end(tex: &str, open: usize) -> Option<usize> {
    let b = tex.as_bytes();
    if b.get(open) != Some(&b'{') {
        return None;
    }
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Text arguments (`\text{..}`, `\textit{..}`, `\mbox{..}`...) as MathJax 2 shows them:
/// literally, so `_`, `&`, `#`, `^` and `%` in them are characters, escaped for KaTeX.
fn escape_text_arguments(tex: &str) -> Option<String> {
    const TEXT: &[&str] = &[
        "\\text",
        "\\textrm",
        "\\textit",
        "\\textbf",
        "\\textsf",
        "\\texttt",
        "\\textnormal",
        "\\mbox",
        "\\hbox",
        "\\textup",
        "\\textmd",
    ];
    let mut out = String::with_capacity(tex.len() + 8);
    let mut changed = false;
    let mut last = 0;
    let mut i = 0;
    while let Some(at) = tex[i..].find('\\') {
        let p = i + at;
        let Some(word) = control_word(&tex[p..]) else {
            break;
        };
        let mut q = p + word.len();
        i = q;
        if !TEXT.contains(&word) {
            continue;
        }
        while tex[q..].starts_with(' ') {
            q += 1;
        }
        let Some(end) = group_end(tex, q) else {
            continue;
        };
        let inner = &tex[q + 1..end - 1];
        if inner.contains('$') {
            i = end;
            continue;
        }
        let mut escaped = String::with_capacity(inner.len());
        let mut prev_backslash = false;
        for c in inner.chars() {
            if !prev_backslash && matches!(c, '_' | '&' | '#' | '%') {
                escaped.push('\\');
                changed = true;
            }
            if !prev_backslash && c == '^' {
                escaped.push_str("\\^{}");
                changed = true;
                continue;
            }
            prev_backslash = c == '\\' && !prev_backslash;
            escaped.push(c);
        }
        out.push_str(&tex[last..q + 1]);
        out.push_str(&escaped);
        last = end - 1;
        i = end;
    }
    out.push_str(&tex[last..]);
    changed.then_some(out)
}

/// Commands of MathJax's extensions and of plain TeX that KaTeX lacks, as what
/// MathJax shows: `\\require{..}` and `\\label{..}` show nothing; `\\bbox`, `\\class`,
/// `\\cssId`, `\\style` show their content; `\\unicode{x2200}` its character; plain
/// TeX's `\\matrix{..}`, `\\pmatrix{..}`, `\\cases{..}` and `\\eqalign{..}` (rows
/// ended by `\\cr`) the LaTeX environments of the same layout.
fn rewrite_commands(tex: &str) -> Option<String> {
    let mut out = String::with_capacity(tex.len());
    let mut last = 0;
    let mut i = 0;
    let mut changed = false;
    while let Some(at) = tex[i..].find('\\') {
        let p = i + at;
        let Some(word) = control_word(&tex[p..]) else {
            break;
        };
        i = p + word.len();
        if preceded_by_backslash(tex, p) {
            continue;
        }
        // (optional `[..]` taken, brace arguments taken)
        let shape: Option<(bool, usize)> = match word {
            "\\require" | "\\label" | "\\unicode" | "\\mbox" | "\\hbox" => Some((false, 1)),
            "\\bbox" => Some((true, 1)),
            "\\class" | "\\cssId" | "\\style" => Some((false, 2)),
            "\\matrix" | "\\pmatrix" | "\\bmatrix" | "\\vmatrix" | "\\cases" | "\\eqalign"
            | "\\eqalignno" => Some((false, 1)),
            _ => None,
        };
        let Some((optional, count)) = shape else {
            continue;
        };
        let mut q = p + word.len();
        let skip_ws = |q: &mut usize| {
            while tex[*q..].starts_with([' ', '\n']) {
                *q += 1;
            }
        };
        skip_ws(&mut q);
        if optional && tex[q..].starts_with('[') {
            let Some(close) = tex[q..].find(']') else {
                continue;
            };
            q += close + 1;
            skip_ws(&mut q);
        }
        let mut args = Vec::new();
        for n in 0..count {
            if n > 0 {
                skip_ws(&mut q);
            }
            let Some(end) = group_end(tex, q) else { break };
            args.push(&tex[q + 1..end - 1]);
            q = end;
        }
        if args.len() != count {
            continue;
        }
        let body = args[count - 1];
        let rows = |b: &str| b.replace("\\cr", "\\\\");
        let replacement = match word {
            "\\require" | "\\label" => String::new(),
            "\\mbox" | "\\hbox" => format!("\\text{{{body}}}"),
            "\\unicode" => {
                let code = body.trim();
                let n = match code.strip_prefix(['x', 'X']) {
                    Some(h) => u32::from_str_radix(h, 16).ok(),
                    None => code.parse().ok(),
                };
                match n.and_then(char::from_u32) {
                    Some(c) => c.to_string(),
                    None => continue,
                }
            }
            "\\bbox" | "\\class" | "\\cssId" | "\\style" => format!("{{{body}}}"),
            "\\cases" => format!("\\begin{{cases}}{}\\end{{cases}}", rows(body)),
            "\\eqalign" | "\\eqalignno" => {
                format!("\\begin{{aligned}}{}\\end{{aligned}}", rows(body))
            }
            m => {
                let env = &m[1..];
                format!("\\begin{{{env}}}{}\\end{{{env}}}", rows(body))
            }
        };
        out.push_str(&tex[last..p]);
        out.push_str(&replacement);
        last = q;
        i = q;
        changed = true;
    }
    out.push_str(&tex[last..]);
    changed.then_some(out)
}

fn preceded_by_backslash(tex: &str, p: usize) -> bool {
    tex[..p].bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1
}

/// Environments MathJax has and KaTeX has not, as the nearest KaTeX has:
/// `multline` (first line left, last right) becomes `gather` (lines centred).
fn rename_environments(tex: &str) -> Option<String> {
    let mut out = tex.to_string();
    for (from, to) in [
        ("{multline*}", "{gather*}"),
        ("{multline}", "{gather}"),
        ("{eqnarray*}", "{array}{rcl}"),
        ("{eqnarray}", "{array}{rcl}"),
    ] {
        out = out.replace(&format!("\\begin{from}"), &format!("\\begin{to}"));
        let end = to.find('}').map_or(to, |i| &to[..=i]);
        out = out.replace(&format!("\\end{from}"), &format!("\\end{end}"));
    }
    (out != tex).then_some(out)
}

/// Braces a control word written as a bare sub- or superscript: `k_\min` → `k_{\min}`.
fn brace_script_commands(tex: &str) -> Option<String> {
    let b = tex.as_bytes();
    let mut out = String::with_capacity(tex.len() + 8);
    let mut changed = false;
    let mut i = 0;
    let mut last = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'_' | b'^' => {
                let mut j = i + 1;
                while j < b.len() && b[j] == b' ' {
                    j += 1;
                }
                if j + 1 < b.len() && b[j] == b'\\' && b[j + 1].is_ascii_alphabetic() {
                    let mut k = j + 1;
                    while k < b.len() && b[k].is_ascii_alphabetic() {
                        k += 1;
                    }
                    // Its braced arguments go with it: `_\text{max}` → `_{\text{max}}`.
                    while let Some(end) = group_end(tex, k) {
                        k = end;
                    }
                    out.push_str(&tex[last..j]);
                    out.push('{');
                    out.push_str(&tex[j..k]);
                    out.push('}');
                    last = k;
                    changed = true;
                    i = k;
                } else {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    out.push_str(&tex[last.min(tex.len())..]);
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_commands_as_scripts_are_braced() {
        assert_eq!(normalize("k_\\min").as_deref(), Some("k_{\\min}"));
        assert_eq!(
            normalize("x^ \\max + y_\\alpha").as_deref(),
            Some("x^ {\\max} + y_{\\alpha}")
        );
        assert_eq!(normalize("k_{\\min}"), None);
        assert_eq!(
            normalize("e_\\text{end}").as_deref(),
            Some("e_{\\text{end}}")
        );
        assert_eq!(normalize("a\\_b"), None);
    }

    #[test]
    fn text_arguments_are_literal() {
        assert_eq!(
            normalize("\\text{get_vn_set}(x) + \\textit{a\\_b & c}").as_deref(),
            Some("\\text{get\\_vn\\_set}(x) + \\textit{a\\_b \\& c}")
        );
        assert_eq!(normalize("\\text{ab}"), None);
    }

    #[test]
    fn definitions_are_read_in_order() {
        let d = definitions(
            "\\newcommand{\\hash}[1]{H(#1)} % c\n\\newcommand\\cat{\\Vert}\\def\\so{\\gamma}",
        );
        assert_eq!(
            d,
            vec![
                ("\\hash".to_string(), "H(#1)".to_string()),
                ("\\cat".to_string(), "\\Vert".to_string()),
                ("\\so".to_string(), "\\gamma".to_string()),
            ]
        );
    }

    #[test]
    fn undefined_commands_are_shown_by_name() {
        assert_eq!(
            show_undefined("a\\so+\\sob+\\so", "\\so").as_deref(),
            Some("a{\\color{#cc0001}\\text{\\textbackslash so}}+\\sob+{\\color{#cc0001}\\text{\\textbackslash so}}")
        );
    }

    #[test]
    fn multline_becomes_gather() {
        assert_eq!(
            normalize("\\begin{multline*}a\\\\b\\end{multline*}").as_deref(),
            Some("\\begin{gather*}a\\\\b\\end{gather*}")
        );
    }
}
