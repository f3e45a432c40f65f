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

/// A delimiter pair of the rules.
struct Opener {
    open: String,
    close: String,
    display: bool,
}

/// One formula being read: where it opened, what closes it, and the closer found so far.
struct Search {
    end: String,
    display: bool,
    /// Braces open inside the formula.
    pcount: usize,
    open: Pos,
    olen: usize,
    open_text: String,
    close: Option<Pos>,
    /// The closer's length, cut from the TeX (`usize::MAX`: `\end{env}`, kept).
    clen: usize,
}

impl Search {
    /// Reads one piece [`find_end`] found, ending at `end`: a closer is remembered
    /// (the first one inside open braces, any one outside), a brace counted. True when
    /// the formula is closed.
    fn read(&mut self, piece: &str, end: Pos) -> bool {
        if piece == self.end {
            if self.close.is_none() || self.pcount == 0 {
                self.close = Some(end);
                if self.clen != usize::MAX {
                    self.clen = piece.len();
                }
            }
            return self.pcount == 0;
        }
        if piece == "{" {
            self.pcount += 1;
        } else if piece == "}" && self.pcount > 0 {
            self.pcount -= 1;
        }
        false
    }
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
    let table = opener_table(rules);
    let mut scanner = RunScanner {
        rules,
        table: &table,
        run,
        found,
        literals,
        unclosed,
    };
    let mut at: Pos = (0, 0);
    while at.0 < run.len() {
        at = scanner.next_formula(at);
    }
}

/// The rules' delimiter pairs as tex2jax looks them up: it sorts openers longest first,
/// then by text; the first of equal ones wins its lookup table, which the last one
/// written overwrites.
fn opener_table(rules: &Tex2jax) -> Vec<Opener> {
    let pairs = rules
        .inline
        .iter()
        .map(|pair| (pair, false))
        .chain(rules.display.iter().map(|pair| (pair, true)))
        .filter(|((o, _), _)| !o.is_empty());
    let mut table: Vec<Opener> = Vec::new();
    for ((open, close), display) in pairs {
        table.retain(|t| t.open != *open);
        table.push(Opener {
            open: open.clone(),
            close: close.clone(),
            display,
        });
    }
    table.sort_by(|a, b| b.open.len().cmp(&a.open.len()).then(a.open.cmp(&b.open)));
    table
}

/// One run being read, and where what it finds goes.
struct RunScanner<'a> {
    rules: &'a Tex2jax,
    table: &'a [Opener],
    run: &'a Run,
    found: &'a mut Vec<Found>,
    literals: &'a mut Vec<Literal>,
    unclosed: &'a mut Vec<(usize, String)>,
}

impl<'a> RunScanner<'a> {
    /// The text of node `n`, if it is a text node of the run.
    fn text(&self, n: usize) -> Option<&'a str> {
        match self.run.get(n) {
            Some(Node::Text(t)) => Some(t.text.as_str()),
            _ => None,
        }
    }

    /// Reads from `at` up to the end of the next formula (or of the run): what it finds
    /// goes to the outputs; returns where reading goes on, in start mode.
    fn next_formula(&mut self, at: Pos) -> Pos {
        if self.text(at.0).is_none() {
            return (at.0 + 1, 0);
        }
        let mut search: Option<Search> = None;
        let (mut n, mut pos) = at;
        loop {
            while let Some(t) = self.text(n) {
                match &mut search {
                    None => {
                        let Some((ms, me, kind)) = find_start(self.rules, self.table, t, pos)
                        else {
                            break;
                        };
                        pos = me;
                        search = self.start(kind, n, ms..me);
                    }
                    Some(s) => {
                        let Some((ms, me)) = find_end(&s.end, self.rules.balance_braces, t, pos)
                        else {
                            break;
                        };
                        pos = me;
                        if s.read(&t[ms..me], (n, me)) {
                            let close = s.close.expect("closed");
                            self.push(search.take().expect("searching"), close);
                            // Scanning goes on after the closer, in start mode.
                            return if me >= t.len() { (n + 1, 0) } else { (n, me) };
                        }
                    }
                }
            }
            // This node holds no more matches: on to the next text node of the run.
            let mut next = n + 1;
            while matches!(self.run.get(next), Some(Node::Ignored { .. })) {
                next += 1;
            }
            if self.text(next).is_none() {
                return self.run_ended(search, next);
            }
            n = next;
            pos = 0;
        }
    }

    /// What an opener found in node `n` at `bytes` starts: the search for its closer, or
    /// (a `\ref`, an escaped dollar) something complete.
    fn start(&mut self, kind: Start, n: usize, bytes: Range<usize>) -> Option<Search> {
        let (ms, me) = (bytes.start, bytes.end);
        match kind {
            Start::Delim(i) => {
                let opener = &self.table[i];
                Some(Search {
                    end: opener.close.clone(),
                    display: opener.display,
                    pcount: 0,
                    open: (n, ms),
                    olen: opener.open.len(),
                    open_text: opener.open.clone(),
                    close: None,
                    clen: 0,
                })
            }
            Start::Begin(env) => Some(Search {
                end: format!("\\end{{{env}}}"),
                display: true,
                pcount: 0,
                open: (n, ms),
                olen: 0,
                open_text: String::new(),
                close: None,
                clen: usize::MAX,
            }),
            Start::Ref => {
                let whole = Search {
                    end: String::new(),
                    display: false,
                    pcount: 0,
                    open: (n, ms),
                    olen: 0,
                    open_text: String::new(),
                    close: None,
                    clen: 0,
                };
                self.push(whole, (n, me));
                None
            }
            Start::Escape => {
                self.escaped_dollar(n, bytes);
                None
            }
        }
    }

    /// `\$` (after any number of backslashes) at `bytes` of node `n`: the text MathJax
    /// shows for it.
    fn escaped_dollar(&mut self, n: usize, bytes: Range<usize>) {
        let (ms, me) = (bytes.start, bytes.end);
        let slashes = me - ms - 1;
        let Some(Node::Text(node)) = self.run.get(n) else {
            return;
        };
        let (shows, upto) = if slashes % 2 == 0 {
            ("\\".repeat(slashes / 2), me - 1)
        } else {
            (format!("{}$", "\\".repeat(slashes / 2)), me)
        };
        if upto > ms {
            self.literals.push(Literal {
                range: node.from[ms]..node.to[upto - 1],
                shows,
            });
        }
    }

    /// The run ends (at node `next`) while `search` is open: a closer it passed over
    /// inside braces closes it, reading going on from there; else its opener is text,
    /// reported when it is two characters or more, and reading goes on at `next`.
    fn run_ended(&mut self, search: Option<Search>, next: usize) -> Pos {
        if let Some(s) = search {
            if let Some(close) = s.close {
                self.push(s, close);
                return close;
            }
            if s.olen >= 2 {
                if let Node::Text(t) = &self.run[s.open.0] {
                    self.unclosed.push((t.from[s.open.1], s.end));
                }
            }
        }
        (next, 0)
    }

    /// The formula search `s` found, closed at `close`, added to the found ones.
    fn push(&mut self, s: Search, close: Pos) {
        let run = self.run;
        let mut tex = String::new();
        for (n, node) in run.iter().enumerate().take(close.0 + 1).skip(s.open.0) {
            match node {
                Node::Text(t) => {
                    let from = if n == s.open.0 { s.open.1 } else { 0 };
                    let to = if n == close.0 { close.1 } else { t.text.len() };
                    tex.push_str(&t.text[from..to]);
                }
                Node::Ignored { adds, .. } => tex.push_str(adds),
            }
        }
        let clen = if s.clen == usize::MAX { 0 } else { s.clen };
        let olen = s.olen.min(tex.len());
        let tex = tex[olen..tex.len().saturating_sub(clen).max(olen)].to_string();
        let (Node::Text(first), Node::Text(last)) = (&run[s.open.0], &run[close.0]) else {
            return;
        };
        let start = first.from[s.open.1];
        let end = if close.1 == 0 {
            start
        } else {
            last.to[close.1 - 1]
        };
        self.found.push(Found {
            range: start..end.max(start),
            tex,
            display: s.display,
            open: s.open_text,
        });
    }
}

/// The leftmost opener at or after `from`: (start, end, kind).
fn find_start(
    rules: &Tex2jax,
    table: &[Opener],
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
        for (i, opener) in table.iter().enumerate() {
            if rest.starts_with(opener.open.as_str()) {
                return Some((p, p + opener.open.len(), Start::Delim(i)));
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
