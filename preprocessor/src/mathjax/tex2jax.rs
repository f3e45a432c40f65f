//! MathJax 2.7's `tex2jax` rules over the [`Run`]s of a chapter: which text becomes a
//! formula, and the exact TeX MathJax hands to its TeX input.
//!
//! The rules, as MathJax applies them: the leftmost opening delimiter wins (longer
//! delimiters first at the same place); `\begin{env}` opens display math that ends at
//! its `\end{env}` (delimiters kept in the TeX); `\ref{..}`/`\eqref{..}` are inline math
//! on their own; with `processEscapes`, `\$` is a literal dollar. Inside a formula,
//! `\x` pairs are skipped and braces are balanced: a closer inside an open brace only
//! counts when the braces never balance before the run ends (then the first one does).
//! An opener whose closer is not in the same run is text, and nothing after it in the
//! run is searched.

use std::collections::BTreeMap;
use std::ops::Range;
/// The `tex2jax` settings of a page (MathJax 2.7's defaults, or a theme's own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tex2jax {
    /// Inline delimiter pairs.
    pub inline: Vec<(String, String)>,
    /// Display delimiter pairs.
    pub display: Vec<(String, String)>,
    /// `\$` is a literal dollar.
    pub process_escapes: bool,
    /// `\begin{env}...\end{env}` is display math without delimiters.
    pub process_environments: bool,
    /// `\ref{..}` and `\eqref{..}` are math.
    pub process_refs: bool,
    /// Braces inside a formula must balance for a closer to count.
    pub balance_braces: bool,
    /// TeX macros from the theme's MathJax configuration (name with backslash).
    pub macros: BTreeMap<String, String>,
}

impl Default for Tex2jax {
    /// MathJax 2.7's defaults: what mdBook's stock `MathJax.js?config=TeX-AMS-MML_HTMLorMML`
    /// tag gets.
    fn default() -> Self {
        let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
        Tex2jax {
            inline: vec![pair("\\(", "\\)")],
            display: vec![pair("$$", "$$"), pair("\\[", "\\]")],
            process_escapes: false,
            process_environments: true,
            process_refs: true,
            balance_braces: true,
            macros: BTreeMap::new(),
        }
    }
}

use super::text::{Node, Run};

/// A formula found by tex2jax.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Source bytes from the opener to the closer.
    pub range: Range<usize>,
    /// The TeX MathJax receives (delimiters removed).
    pub tex: String,
    /// Display math.
    pub display: bool,
    /// The opening delimiter, as written in the page text.
    pub open: String,
}

/// A `\$` (with `processEscapes`) that MathJax shows as text: the source bytes and what
/// the page shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Literal {
    /// Source bytes.
    pub range: Range<usize>,
    /// What MathJax shows in their place.
    pub shows: String,
}

/// Position in a run: node index and byte offset in that node's text.
type Pos = (usize, usize);

struct Search {
    end: String,
    display: bool,
    pcount: usize,
    open: Pos,
    olen: usize,
    open_text: String,
    close: Option<Pos>,
    clen: usize,
}

enum Start {
    Delim(usize),
    Begin(String),
    Escape,
    Ref,
}

/// Every formula and literal dollar in `run`, in order.
/// Openers of two characters or more whose closer is not in their run are pushed to
/// `unclosed` (source byte, the closer MathJax looked for).
pub fn scan_run(
    rules: &Tex2jax,
    run: &Run,
    found: &mut Vec<Found>,
    literals: &mut Vec<Literal>,
    unclosed: &mut Vec<(usize, String)>,
) {
    let mut opens: Vec<(String, String, bool)> = rules
        .inline
        .iter()
        .map(|(o, c)| (o.clone(), c.clone(), false))
        .chain(
            rules
                .display
                .iter()
                .map(|(o, c)| (o.clone(), c.clone(), true)),
        )
        .filter(|(o, _, _)| !o.is_empty())
        .collect();
    // tex2jax sorts openers longest first, then by text; the first of equal ones wins
    // its lookup table, which the last one written overwrites.
    let mut table: Vec<(String, String, bool)> = Vec::new();
    for o in opens.drain(..) {
        table.retain(|t| t.0 != o.0);
        table.push(o);
    }
    table.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
    let text = |n: usize| -> Option<&str> {
        match run.get(n) {
            Some(Node::Text(t)) => Some(t.text.as_str()),
            _ => None,
        }
    };
    let mut at: Pos = (0, 0);
    'outer: while at.0 < run.len() {
        if text(at.0).is_none() {
            at = (at.0 + 1, 0);
            continue;
        }
        let mut search: Option<Search> = None;
        let (mut n, mut pos) = at;
        loop {
            while let Some(t) = text(n) {
                let m = match &search {
                    None => {
                        find_start(rules, &table, t, pos).map(|(s, e, kind)| (s, e, Some(kind)))
                    }
                    Some(s) => {
                        find_end(&s.end, rules.balance_braces, t, pos).map(|(a, b)| (a, b, None))
                    }
                };
                let Some((ms, me, kind)) = m else { break };
                pos = me;
                match kind {
                    Some(Start::Delim(i)) => {
                        let (o, c, display) = &table[i];
                        search = Some(Search {
                            end: c.clone(),
                            display: *display,
                            pcount: 0,
                            open: (n, ms),
                            olen: o.len(),
                            open_text: o.clone(),
                            close: None,
                            clen: 0,
                        });
                    }
                    Some(Start::Begin(env)) => {
                        search = Some(Search {
                            end: format!("\\end{{{env}}}"),
                            display: true,
                            pcount: 0,
                            open: (n, ms),
                            olen: 0,
                            open_text: String::new(),
                            close: None,
                            clen: usize::MAX,
                        });
                    }
                    Some(Start::Ref) => {
                        push(run, (n, ms), 0, (n, me), 0, false, String::new(), found);
                    }
                    Some(Start::Escape) => {
                        let slashes = me - ms - 1;
                        let Node::Text(node) = &run[n] else { break };
                        let (shows, upto) = if slashes % 2 == 0 {
                            ("\\".repeat(slashes / 2), me - 1)
                        } else {
                            (format!("{}$", "\\".repeat(slashes / 2)), me)
                        };
                        if upto > ms {
                            literals.push(Literal {
                                range: node.from[ms]..node.to[upto - 1],
                                shows,
                            });
                        }
                    }
                    None => {
                        let s = search.as_mut().expect("searching");
                        let piece = &t[ms..me];
                        if piece == s.end || (s.end.is_empty() && ms == me) {
                            if s.close.is_none() || s.pcount == 0 {
                                s.close = Some((n, me));
                                if s.clen != usize::MAX {
                                    s.clen = me - ms;
                                }
                            }
                            if s.pcount == 0 {
                                let s = search.take().expect("searching");
                                let close = s.close.expect("closed");
                                push_search(run, s, close, found);
                                // Scanning goes on after the closer, in start mode.
                                if me >= t.len() {
                                    at = (n + 1, 0);
                                    continue 'outer;
                                }
                                at = (n, me);
                                continue 'outer;
                            }
                        } else if piece == "{" {
                            s.pcount += 1;
                        } else if piece == "}" && s.pcount > 0 {
                            s.pcount -= 1;
                        }
                    }
                }
            }
            // This node holds no more matches: on to the next text node of the run.
            let mut next = n + 1;
            while matches!(run.get(next), Some(Node::Ignored { .. })) {
                next += 1;
            }
            if text(next).is_none() {
                if let Some(s) = search.take() {
                    if let Some(close) = s.close {
                        push_search(run, s, close, found);
                        at = close;
                        continue 'outer;
                    }
                    if s.olen >= 2 {
                        if let Node::Text(t) = &run[s.open.0] {
                            unclosed.push((t.from[s.open.1], s.end));
                        }
                    }
                }
                at = (next, 0);
                continue 'outer;
            }
            n = next;
            pos = 0;
        }
    }
}

/// The formula search `s` found, closed at `close`, added to `found`.
fn push_search(run: &Run, s: Search, close: Pos, found: &mut Vec<Found>) {
    let clen = if s.clen == usize::MAX { 0 } else { s.clen };
    push(
        run,
        s.open,
        s.olen,
        close,
        clen,
        s.display,
        s.open_text,
        found,
    );
}

#[allow(clippy::too_many_arguments)]
fn push(
    run: &Run,
    open: Pos,
    olen: usize,
    close: Pos,
    clen: usize,
    display: bool,
    open_text: String,
    found: &mut Vec<Found>,
) {
    let mut tex = String::new();
    for (n, node) in run.iter().enumerate().take(close.0 + 1).skip(open.0) {
        match node {
            Node::Text(t) => {
                let from = if n == open.0 { open.1 } else { 0 };
                let to = if n == close.0 { close.1 } else { t.text.len() };
                tex.push_str(&t.text[from..to]);
            }
            Node::Ignored { adds, .. } => tex.push_str(adds),
        }
    }
    let tex = tex[olen.min(tex.len())..tex.len().saturating_sub(clen).max(olen.min(tex.len()))]
        .to_string();
    let (Node::Text(first), Node::Text(last)) = (&run[open.0], &run[close.0]) else {
        return;
    };
    let start = first.from[open.1];
    let end = if close.1 == 0 {
        start
    } else {
        last.to[close.1 - 1]
    };
    found.push(Found {
        range: start..end.max(start),
        tex,
        display,
        open: open_text,
    });
}

/// The leftmost opener at or after `from`: (start, end, kind).
fn find_start(
    rules: &Tex2jax,
    table: &[(String, String, bool)],
    t: &str,
    from: usize,
) -> Option<(usize, usize, Start)> {
    let bytes = t.as_bytes();
    let mut p = from;
    while p < t.len() {
        if !t.is_char_boundary(p) {
            p += 1;
            continue;
        }
        let rest = &t[p..];
        for (i, (o, _, _)) in table.iter().enumerate() {
            if rest.starts_with(o.as_str()) {
                return Some((p, p + o.len(), Start::Delim(i)));
            }
        }
        if bytes[p] == b'\\' {
            if rules.process_environments {
                if let Some(r) = rest.strip_prefix("\\begin{") {
                    if let Some(close) = r.find('}') {
                        let env = r[..close].to_string();
                        return Some((p, p + 7 + close + 1, Start::Begin(env)));
                    }
                }
            }
            if rules.process_escapes {
                let run = rest.bytes().take_while(|&b| b == b'\\').count();
                if bytes.get(p + run) == Some(&b'$') {
                    return Some((p, p + run + 1, Start::Escape));
                }
            }
            if rules.process_refs {
                for word in ["\\ref{", "\\eqref{"] {
                    if let Some(r) = rest.strip_prefix(word) {
                        if let Some(close) = r.find('}') {
                            return Some((p, p + word.len() + close + 1, Start::Ref));
                        }
                    }
                }
            }
        }
        p += 1;
    }
    None
}

/// The next closer, `\x` pair or brace at or after `from`: (start, end).
fn find_end(end: &str, braces: bool, t: &str, from: usize) -> Option<(usize, usize)> {
    let bytes = t.as_bytes();
    let mut p = from;
    if end.is_empty() {
        return Some((from, from));
    }
    while p < t.len() {
        if !t.is_char_boundary(p) {
            p += 1;
            continue;
        }
        if t[p..].starts_with(end) {
            return Some((p, p + end.len()));
        }
        if bytes[p] == b'\\' {
            // `\\.`: a backslash and any character but a line break.
            if let Some(c) = t[p + 1..].chars().next() {
                if c != '\n' && c != '\r' {
                    return Some((p, p + 1 + c.len_utf8()));
                }
            }
        }
        if braces && (bytes[p] == b'{' || bytes[p] == b'}') {
            return Some((p, p + 1));
        }
        p += 1;
    }
    None
}
