//! Matching: the registered symbols found in a normalized formula (longest first,
//! leftmost, never overlapping, never where a wrapper would change the parse), and the
//! tagged TeX written out.

use std::ops::Range;

use crate::commands::{is_barrier, is_letter_like, is_limits_base, valid_id, STYLED};
use crate::normalize::{Normalizer, Problem};
use crate::output::Writer;
use crate::token::{Kind, Role, Tok};

/// A registered symbol: its id and its TeX.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    /// Symbol id (letters, digits, `-`, `_`).
    pub id: String,
    /// The symbol's TeX, e.g. `\mathbf{x}` or `\theta_t`.
    pub tex: String,
}

/// A letter or Greek-letter command in an inspectable formula that no symbol covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undefined {
    /// As written, e.g. `i` or `\theta`.
    pub text: String,
    /// Bytes in the input TeX.
    pub range: Range<usize>,
}

/// The result of [`tag`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tagged {
    /// The TeX with every occurrence wrapped as `\htmlData{mc-sym=<id>}{...}`.
    pub tex: String,
    /// Ids found, in order of first appearance, each once.
    pub symbols: Vec<String>,
    /// Letters and Greek letters no symbol covers, in order.
    pub undefined: Vec<Undefined>,
    /// Author mistakes (`\sym` with an unknown id, ...).
    pub problems: Vec<Problem>,
}

/// Where each of many symbols' TeX could occur: the patterns' normalized token
/// sequences, hashed, so the patterns that occur in one formula are found in time that
/// grows with the formula, not with the number of patterns (a book of thousands of
/// symbols tags each formula against the few it contains; see [`tag`]).
#[derive(Debug, Default)]
pub struct PatternIndex {
    /// Non-whitespace token texts of a pattern → the indices of the patterns with them.
    by_tokens: std::collections::HashMap<Vec<String>, Vec<usize>>,
    /// The distinct pattern lengths, in tokens.
    lengths: Vec<usize>,
}

impl PatternIndex {
    /// Indexes the TeX of each pattern, numbered in the order given.
    pub fn new<'a>(texs: impl IntoIterator<Item = &'a str>) -> PatternIndex {
        let mut index = PatternIndex::default();
        for (i, tex) in texs.into_iter().enumerate() {
            let seq = token_texts(tex);
            if seq.is_empty() {
                continue;
            }
            if !index.lengths.contains(&seq.len()) {
                index.lengths.push(seq.len());
            }
            index.by_tokens.entry(seq).or_default().push(i);
        }
        index
    }

    /// The patterns whose token sequence occurs somewhere in `tex` (ascending, each
    /// once): the only ones [`tag`] could match in it.
    pub fn occurring(&self, tex: &str) -> Vec<usize> {
        let toks = token_texts(tex);
        let mut out = Vec::new();
        for &len in &self.lengths {
            for window in toks.windows(len) {
                if let Some(found) = self.by_tokens.get(window) {
                    out.extend_from_slice(found);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The non-whitespace token texts of `tex`, normalized as [`tag`] compares them.
fn token_texts(tex: &str) -> Vec<String> {
    Normalizer::run(tex, &[])
        .out
        .into_iter()
        .filter(|t| t.kind != Kind::Space)
        .map(|t| t.text)
        .collect()
}

/// Tags every occurrence of `patterns` in `tex`.
///
/// The returned TeX is `tex` normalized (see [`normalize`]) with each occurrence of a
/// pattern wrapped as `\htmlData{mc-sym=<id>}{...}`. Longer patterns (counted in
/// non-whitespace tokens) win over shorter ones, then the leftmost occurrence; matches never
/// overlap. Patterns whose id is not made of ASCII letters, digits, `-` and `_` are ignored
/// (the id could not be written safely into `\htmlData`); when two patterns have the same
/// TeX, the first one wins.
pub fn tag(tex: &str, patterns: &[Pattern]) -> Tagged {
    let ids: Vec<&str> = patterns
        .iter()
        .filter(|p| valid_id(&p.id))
        .map(|p| p.id.as_str())
        .collect();
    let norm = Normalizer::run(tex, &ids);
    let toks = norm.out;
    let found = find_matches(&toks, &longest_first(patterns));
    let symbols = symbols_in_order(&found.matches, &norm.forced);
    let mut undefined = undefined_letters(&toks, &found.taken);
    add_undefined_styled(tex, &toks, &found.taken, &mut undefined);
    undefined.sort_by_key(|u| u.range.start);
    Tagged {
        tex: write_tagged(&toks, &found.matches),
        symbols,
        undefined,
        problems: norm.problems,
    }
}

/// A pattern as [`tag`] compares it: its normalized non-whitespace token texts.
struct Sought<'p> {
    texts: Vec<String>,
    id: &'p str,
}

/// One occurrence of a pattern: tokens `start..end` of the normalized formula.
struct Match<'p> {
    start: usize,
    end: usize,
    id: &'p str,
}

/// The occurrences found, leftmost first, and which tokens they cover.
struct Matches<'p> {
    matches: Vec<Match<'p>>,
    taken: Vec<bool>,
}

/// The patterns with a valid id and some TeX, longest first (stable: the first of two
/// patterns of the same length is tried first).
fn longest_first(patterns: &[Pattern]) -> Vec<Sought<'_>> {
    let mut sought: Vec<Sought> = patterns
        .iter()
        .filter(|p| valid_id(&p.id))
        .map(|p| Sought {
            texts: token_texts(&p.tex),
            id: p.id.as_str(),
        })
        .filter(|s| !s.texts.is_empty())
        .collect();
    sought.sort_by_key(|s| std::cmp::Reverse(s.texts.len()));
    sought
}

/// Every occurrence of each pattern in turn (longest first), leftmost first, skipping
/// tokens an earlier match took and places a wrapper would change the parse.
fn find_matches<'p>(toks: &[Tok], sought: &[Sought<'p>]) -> Matches<'p> {
    let nonspace: Vec<usize> = (0..toks.len())
        .filter(|&i| toks[i].kind != Kind::Space)
        .collect();
    let mut taken = vec![false; toks.len()];
    let mut matches: Vec<Match> = Vec::new();
    for pattern in sought {
        let pat = &pattern.texts;
        let len = pat.len();
        let mut p = 0;
        while p + len <= nonspace.len() {
            let equal = (0..len).all(|k| toks[nonspace[p + k]].text == pat[k]);
            if equal {
                let s = nonspace[p];
                let e = nonspace[p + len - 1] + 1;
                if !taken[s..e].iter().any(|&t| t) && valid_match(toks, s, e) {
                    taken[s..e].iter_mut().for_each(|t| *t = true);
                    matches.push(Match {
                        start: s,
                        end: e,
                        id: pattern.id,
                    });
                    p += len;
                    continue;
                }
            }
            p += 1;
        }
    }
    matches.sort_by_key(|m| m.start);
    Matches { matches, taken }
}

/// The symbol ids in order of first appearance (matches and forced `\sym`), each once.
fn symbols_in_order(matches: &[Match], forced: &[(usize, String)]) -> Vec<String> {
    let mut events: Vec<(usize, &str)> = matches.iter().map(|m| (m.start, m.id)).collect();
    events.extend(forced.iter().map(|(i, id)| (*i, id.as_str())));
    events.sort_by_key(|e| e.0);
    let mut symbols: Vec<String> = Vec::new();
    for (_, id) in events {
        if !symbols.iter().any(|s| s == id) {
            symbols.push(id.to_string());
        }
    }
    symbols
}

/// The letters and Greek letters no match covers, each text once, in order.
fn undefined_letters(toks: &[Tok], taken: &[bool]) -> Vec<Undefined> {
    let mut undefined: Vec<Undefined> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if taken[i] || t.opaque || t.locked || !is_letter_like(t) {
            continue;
        }
        let Some(range) = t.range.clone() else {
            continue;
        };
        if !undefined.iter().any(|u| u.text == t.text) {
            undefined.push(Undefined {
                text: t.text.clone(),
                range,
            });
        }
    }
    undefined
}

/// Adds the undefined styled letters: `\mathbf{z}`, `\hat{y}`, `\mathcal{L}` that no
/// symbol covers are symbols of their own (their letter is not searched inside).
fn add_undefined_styled(tex: &str, toks: &[Tok], taken: &[bool], undefined: &mut Vec<Undefined>) {
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let styled = t.kind == Kind::Word
            && t.text
                .strip_prefix('\\')
                .is_some_and(|name| STYLED.contains(&name));
        // The argument: a braced group right after the command (normalization braces it).
        let braced = toks.get(i + 1).is_some_and(|n| n.text == "{");
        if !styled || taken[i] || t.opaque || t.locked || !braced {
            i += 1;
            continue;
        }
        let end = group_end(toks, i + 1);
        let inner = &toks[i + 2..end.max(i + 2)];
        let has_letter = inner.iter().any(is_letter_like);
        let covered = taken[i..=end].iter().any(|&t| t);
        if has_letter && !covered {
            let start = t.range.as_ref().map(|r| r.start);
            let stop = toks[i..=end]
                .iter()
                .filter_map(|n| n.range.as_ref().map(|r| r.end))
                .max();
            if let (Some(a), Some(b)) = (start, stop) {
                let text = tex[a..b].to_string();
                if !undefined.iter().any(|u| u.text == text) {
                    undefined.push(Undefined { text, range: a..b });
                }
            }
        }
        i = end + 1;
    }
}

/// The index of the token closing the group that opens at `open` (the last token when
/// the group is never closed).
fn group_end(toks: &[Tok], open: usize) -> usize {
    let mut depth = 0i32;
    let mut end = open;
    for (k, n) in toks.iter().enumerate().skip(open) {
        depth += n.delta;
        end = k;
        if depth <= 0 {
            break;
        }
    }
    end
}

/// The tokens written out with each match wrapped as `\htmlData{mc-sym=<id>}{...}`; a
/// big operator keeps its limits inside its wrapper.
fn write_tagged(toks: &[Tok], matches: &[Match]) -> String {
    let partner = partners(toks);
    let mut opens: Vec<Option<&str>> = vec![None; toks.len() + 1];
    let mut closes: Vec<usize> = vec![0; toks.len() + 1];
    for m in matches {
        let end = extend_over_limits(toks, &partner, m.start, m.end);
        opens[m.start] = Some(m.id);
        closes[end] += 1;
    }
    let mut w = Writer::default();
    for (i, t) in toks.iter().enumerate() {
        for _ in 0..closes[i] {
            w.raw("}");
        }
        if let Some(id) = opens[i] {
            w.raw("\\htmlData{mc-sym=");
            w.raw(id);
            w.raw("}{");
        }
        w.token(t);
    }
    for _ in 0..closes[toks.len()] {
        w.raw("}");
    }
    w.out
}

/// For each opening brace or bracket, the index of its closing partner.
pub(crate) fn partners(toks: &[Tok]) -> Vec<Option<usize>> {
    let mut partner = vec![None; toks.len()];
    let mut stack: Vec<usize> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t.role {
            Role::GroupOpen | Role::ArgOpen | Role::OptOpen => stack.push(i),
            Role::GroupClose | Role::ArgClose | Role::OptClose => {
                if let Some(o) = stack.pop() {
                    partner[o] = Some(i);
                }
            }
            _ => {}
        }
    }
    partner
}

pub(crate) fn is_script_token(t: &Tok) -> bool {
    t.kind == Kind::Char && (t.text == "_" || t.text == "^" || t.text == "'")
        || t.kind == Kind::Word && (t.text == "\\limits" || t.text == "\\nolimits")
}

/// Can `toks[s..e]` be wrapped without changing how KaTeX parses the formula?
pub(crate) fn valid_match(toks: &[Tok], s: usize, e: usize) -> bool {
    let first = &toks[s];
    if first.opaque || first.arg_start || is_script_token(first) || first.delta < 0 {
        return false;
    }
    let mut depth = 0i32;
    for t in &toks[s..e] {
        if t.locked || t.delim {
            return false;
        }
        if depth == 0 && is_barrier(t) {
            return false;
        }
        depth += t.delta;
        if depth < 0 {
            return false;
        }
    }
    if depth != 0 {
        return false;
    }
    let next = toks[e..].iter().find(|t| t.kind != Kind::Space);
    !next.is_some_and(|t| t.arg_start)
}

/// A match whose last atom is a big operator (`\sum`, `\lim`, ...) followed by scripts:
/// the wrapper must include the scripts, or KaTeX would no longer set them as limits.
pub(crate) fn extend_over_limits(
    toks: &[Tok],
    partner: &[Option<usize>],
    s: usize,
    e: usize,
) -> usize {
    let mut depth = 0i32;
    let mut base = None;
    for (i, t) in toks.iter().enumerate().take(e).skip(s) {
        if depth == 0
            && t.kind != Kind::Space
            && !is_script_token(t)
            && !t.arg_start
            && t.delta >= 0
        {
            base = Some(i);
        }
        depth += t.delta;
    }
    let Some(b) = base else { return e };
    let limits = is_limits_base(&toks[b].text)
        || toks[b].text == "\\operatorname"
            && toks.get(b + 1).is_some_and(|t| t.role == Role::Star);
    if !limits || toks[b].kind != Kind::Word {
        return e;
    }
    let next_nonspace = |from: usize| {
        (from..toks.len())
            .find(|&k| toks[k].kind != Kind::Space)
            .unwrap_or(toks.len())
    };
    let mut end = e;
    loop {
        let k = next_nonspace(end);
        let Some(t) = toks.get(k) else { break };
        if t.kind == Kind::Word && (t.text == "\\limits" || t.text == "\\nolimits") {
            end = k + 1;
        } else if t.kind == Kind::Char && (t.text == "_" || t.text == "^") {
            let a = next_nonspace(k + 1);
            match (toks.get(a), partner.get(a).copied().flatten()) {
                (Some(open), Some(close)) if open.role == Role::ArgOpen => end = close + 1,
                _ => break,
            }
        } else {
            break;
        }
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forbidden_commands;
    use crate::testkit::{pats, tex, undefined_texts};

    #[test]
    fn longest_pattern_wins() {
        let both = [("x", "x"), ("x-i", "x_i")];
        let t = tag("x_i + x", &pats(&both));
        assert_eq!(
            t.tex,
            r"\htmlData{mc-sym=x-i}{x_{i}} + \htmlData{mc-sym=x}{x}"
        );
        assert_eq!(t.symbols, ["x-i", "x"]);
        assert!(t.undefined.is_empty());
        // The registry order does not matter.
        let reversed = [("x-i", "x_i"), ("x", "x")];
        assert_eq!(tex("x_i + x", &reversed), t.tex);
    }

    #[test]
    fn shorter_pattern_leaves_scripts_outside() {
        let t = tag("x_i", &pats(&[("x", "x")]));
        assert_eq!(t.tex, r"\htmlData{mc-sym=x}{x}_{i}");
        assert_eq!(undefined_texts(&t), ["i"]);
        assert_eq!(t.undefined[0].range, 2..3);
    }

    #[test]
    fn matches_are_leftmost_and_never_overlap() {
        let t = tag("a a a", &pats(&[("aa", "a a")]));
        assert_eq!(t.tex, r"\htmlData{mc-sym=aa}{a a} a");
        assert_eq!(undefined_texts(&t), ["a"]);
        // Whitespace is not compared.
        assert_eq!(
            tex("x  _  i", &[("x-i", "x_{i}")]),
            r"\htmlData{mc-sym=x-i}{x  _{i}}"
        );
    }

    #[test]
    fn theta_family() {
        let list = [
            ("theta", r"\theta"),
            ("theta-t", r"\theta_t"),
            ("grad", r"\nabla_\theta"),
        ];
        assert_eq!(
            tex(r"\theta_t", &list),
            r"\htmlData{mc-sym=theta-t}{\theta_{t}}"
        );
        assert_eq!(
            tex(r"\nabla_\theta", &list),
            r"\htmlData{mc-sym=grad}{\nabla_{\theta}}"
        );
        assert_eq!(
            tex(r"\nabla_{\theta} \theta", &list),
            r"\htmlData{mc-sym=grad}{\nabla_{\theta}} \htmlData{mc-sym=theta}{\theta}"
        );
        let t = tag(r"\theta_{t+1}", &pats(&list));
        assert_eq!(t.tex, r"\htmlData{mc-sym=theta}{\theta}_{t+1}");
        assert_eq!(undefined_texts(&t), ["t"]);
    }

    #[test]
    fn opaque_arguments_are_not_searched() {
        let t = tag(
            r"\text{x and y} + \operatorname{max} x",
            &pats(&[("x", "x")]),
        );
        assert_eq!(
            t.tex,
            r"\text{x and y} + \operatorname{max} \htmlData{mc-sym=x}{x}"
        );
        assert!(t.undefined.is_empty());
        // Only `x` registered: the bold x is a different symbol.
        let t = tag(r"\mathbf{x} + \hat x + \vec{x}", &pats(&[("x", "x")]));
        assert_eq!(t.tex, r"\mathbf{x} + \hat{x} + \vec{x}");
        assert!(t.symbols.is_empty());
        for cmd in [
            r"\mathrm",
            r"\mathcal",
            r"\mathbb",
            r"\boldsymbol",
            r"\bm",
            r"\mathsf",
            r"\mathit",
            r"\mathtt",
            r"\mathfrak",
            r"\mathscr",
            r"\widehat",
            r"\bar",
            r"\overline",
            r"\tilde",
            r"\widetilde",
            r"\dot",
            r"\ddot",
            r"\mbox",
            r"\textbf",
            r"\label",
            r"\tag",
        ] {
            let formula = format!("{cmd}{{x}}");
            let t = tag(&formula, &pats(&[("x", "x")]));
            assert!(t.symbols.is_empty(), "{formula}");
            // A styled letter is a symbol of its own: undefined as a whole, never as `x`.
            let styled = STYLED.contains(&&cmd[1..]);
            let expected: Vec<&str> = if styled {
                vec![formula.as_str()]
            } else {
                vec![]
            };
            assert_eq!(undefined_texts(&t), expected, "{formula}");
        }
        // Colours and environment names are opaque, the coloured text is not.
        let t = tag(
            r"\textcolor{red}{x} \color{red} \begin{matrix} x \end{matrix}",
            &pats(&[("r", "r"), ("x", "x")]),
        );
        assert_eq!(t.symbols, ["x"]);
        assert_eq!(
            t.tex,
            r"\textcolor{red}{\htmlData{mc-sym=x}{x}} \color{red} \begin{matrix} \htmlData{mc-sym=x}{x} \end{matrix}"
        );
        assert!(t.undefined.is_empty());
        // Author-written `\htmlData` is opaque too.
        assert!(tag(r"\htmlData{x=1}{x}", &pats(&[("x", "x")]))
            .symbols
            .is_empty());
    }

    #[test]
    fn pattern_starting_with_an_opaque_command_matches_the_whole_thing() {
        let list = [("vx", r"\mathbf{x}"), ("x", "x")];
        assert_eq!(
            tex(r"\mathbf x + \mathbf{x} + x", &list),
            r"\htmlData{mc-sym=vx}{\mathbf{x}} + \htmlData{mc-sym=vx}{\mathbf{x}} + \htmlData{mc-sym=x}{x}"
        );
        let list = [("loss", r"\mathcal{L}"), ("theta-t", r"\theta_t")];
        let t = tag(r"\mathcal{L}(\theta_t)", &pats(&list));
        assert_eq!(
            t.tex,
            r"\htmlData{mc-sym=loss}{\mathcal{L}}(\htmlData{mc-sym=theta-t}{\theta_{t}})"
        );
        let list = [("sm", r"\operatorname{softmax}"), ("z", "z")];
        assert_eq!(
            tex(r"\operatorname{softmax}(z)", &list),
            r"\htmlData{mc-sym=sm}{\operatorname{softmax}}(\htmlData{mc-sym=z}{z})"
        );
        // A registered `\mathrm{softmax}` is not a registered `\operatorname{softmax}`.
        assert_eq!(
            tex(r"\mathrm{softmax}(z)", &list),
            r"\mathrm{softmax}(\htmlData{mc-sym=z}{z})"
        );
        let list = [("y-hat", r"\hat{y}"), ("y", "y")];
        assert_eq!(
            tex(r"\hat{y} - y", &list),
            r"\htmlData{mc-sym=y-hat}{\hat{y}} - \htmlData{mc-sym=y}{y}"
        );
    }

    #[test]
    fn delimiters_are_never_matched() {
        let list = [("x", "x"), ("norm", r"\|x\|")];
        assert_eq!(
            tex(r"\left\| x \right\| + \|x\|", &list),
            r"\left\| \htmlData{mc-sym=x}{x} \right\| + \htmlData{mc-sym=norm}{\|x\|}"
        );
        let list = [("px", "(x)")];
        assert_eq!(tex(r"\bigl(x\bigr)", &list), r"\bigl(x\bigr)");
        assert_eq!(tex(r"\Big(x\Big)", &list), r"\Big(x\Big)");
        assert_eq!(tex(r"(x)", &list), r"\htmlData{mc-sym=px}{(x)}");
        // A pattern can not swallow half of a `\left ... \right` pair.
        assert_eq!(
            tex(r"\left(x\right)", &[("l", r"\left(x")]),
            r"\left(x\right)"
        );
        // `\not` and what it negates stay together.
        assert_eq!(tex(r"a \not= b", &[("eq", "=")]), r"a \not= b");
        assert_eq!(
            tex(r"a = b", &[("eq", "=")]),
            r"a \htmlData{mc-sym=eq}{=} b"
        );
    }

    #[test]
    fn matches_respect_structure() {
        // Never between a command and its argument.
        assert_eq!(tex(r"\frac{a}{b}", &[("fa", r"\frac{a}")]), r"\frac{a}{b}");
        assert_eq!(tex(r"\sqrt{x}", &[("s", r"\sqrt")]), r"\sqrt{x}");
        assert_eq!(tex(r"\sqrt[3]{x}", &[("s", r"\sqrt[3]")]), r"\sqrt[3]{x}");
        assert_eq!(
            tex(r"\sqrt[3]{x}", &[("s", r"\sqrt[3]{x}")]),
            r"\htmlData{mc-sym=s}{\sqrt[3]{x}}"
        );
        // Never unbalanced, never starting with a script.
        assert_eq!(tex(r"{a}b", &[("ab", "a}b")]), r"{a}b");
        assert_eq!(tex(r"x_i", &[("i", "_i")]), r"x_{i}");
        assert_eq!(tex(r"f'", &[("p", "'")]), r"f'");
        // Never across cells, rows or infix fractions.
        assert_eq!(
            tex(
                r"\begin{matrix} a & b \\ c & d \end{matrix}",
                &[("ab", "a & b")]
            ),
            r"\begin{matrix} a & b \\ c & d \end{matrix}"
        );
        assert_eq!(tex(r"{a \over b}", &[("ab", r"a \over b")]), r"{a \over b}");
        assert_eq!(
            tex(r"{\displaystyle x}", &[("dx", r"\displaystyle x")]),
            r"{\displaystyle x}"
        );
        // Whole environments are fine.
        let m = r"\begin{pmatrix} 1 & 0 \\ 0 & 1 \end{pmatrix}";
        assert_eq!(
            tex(m, &[("I", m)]),
            format!(r"\htmlData{{mc-sym=I}}{{{m}}}")
        );
        // Dimensions are never matched.
        assert_eq!(
            tex(r"\kern1em m", &[("m", "m")]),
            r"\kern1em \htmlData{mc-sym=m}{m}"
        );
    }

    #[test]
    fn big_operators_keep_their_limits() {
        let list = [("sum", r"\sum"), ("n", "n"), ("x-i", "x_i")];
        let t = tag(r"\sum_{i=1}^{n} x_i", &pats(&list));
        assert_eq!(
            t.tex,
            r"\htmlData{mc-sym=sum}{\sum_{i=1}^{\htmlData{mc-sym=n}{n}}} \htmlData{mc-sym=x-i}{x_{i}}"
        );
        assert_eq!(t.symbols, ["sum", "n", "x-i"]);
        assert_eq!(undefined_texts(&t), ["i"]);
        assert_eq!(
            tex(r"\lim\limits_{n\to\infty} a", &[("lim", r"\lim")]),
            r"\htmlData{mc-sym=lim}{\lim\limits_{n\to\infty}} a"
        );
        assert_eq!(
            tex(
                r"\operatorname*{argmax}_x f",
                &[("am", r"\operatorname*{argmax}")]
            ),
            r"\htmlData{mc-sym=am}{\operatorname*{argmax}_{x}} f"
        );
        // Ordinary symbols keep their scripts outside.
        assert_eq!(
            tex(r"\log_2 x", &[("log", r"\log")]),
            r"\htmlData{mc-sym=log}{\log}_{2} x"
        );
    }

    #[test]
    fn sym_overrides_tagging() {
        let list = [("x", "x"), ("w", "w")];
        let t = tag(r"\sym{w}{x_i} + x", &pats(&list));
        assert_eq!(
            t.tex,
            r"\htmlData{mc-sym=w}{x_{i}} + \htmlData{mc-sym=x}{x}"
        );
        assert_eq!(t.symbols, ["w", "x"]);
        assert!(t.undefined.is_empty());
        assert!(t.problems.is_empty());
        // Unbraced arguments work like everywhere else.
        assert_eq!(tex(r"a^\sym w x", &list), r"a^{\htmlData{mc-sym=w}{x}}");
    }

    #[test]
    fn sym_with_an_unknown_id_is_a_problem() {
        let list = [("loss", r"\mathcal{L}"), ("x", "x")];
        let t = tag(r"y + \sym{los}{L}", &pats(&list));
        assert_eq!(t.tex, r"y + {L}");
        assert!(t.symbols.is_empty());
        assert_eq!(t.problems.len(), 1);
        let p = &t.problems[0];
        assert_eq!(p.message, r"`\sym` names an unknown symbol `los`");
        assert_eq!(p.range, 4..16);
        assert!(p.hint.contains("`loss`"), "{}", p.hint);
        let t = tag(r"\sym{foo}{y}", &pats(&list));
        assert!(
            t.problems[0].hint.contains("`loss`, `x`"),
            "{}",
            t.problems[0].hint
        );
        let t = tag(r"\sym{foo}{y}", &[]);
        assert!(t.problems[0].hint.contains("no symbols are registered"));
        assert_eq!(t.tex, "{y}");
        // The letters in the override are the author's business.
        assert_eq!(undefined_texts(&t), Vec::<&str>::new());
    }

    #[test]
    fn nosym_suppresses_tagging_and_undefined() {
        let t = tag(r"\nosym{x_i} + x + \nosym y", &pats(&[("x", "x")]));
        assert_eq!(t.tex, r"{x_{i}} + \htmlData{mc-sym=x}{x} + {y}");
        assert_eq!(t.symbols, ["x"]);
        assert!(t.undefined.is_empty());
        // A pattern can not reach into it either.
        assert_eq!(tex(r"a\nosym{b}", &[("ab", "a{b}")]), r"a{b}");
    }

    #[test]
    fn unregistered_styled_letters_are_undefined_as_a_whole() {
        let t = tag(
            "\\mathbf{z} + \\hat{y} + y + \\mathrm{d}x",
            &pats(&[("y", "y"), ("x", "x")]),
        );
        assert_eq!(undefined_texts(&t), ["\\mathbf{z}", "\\hat{y}"]);
        assert_eq!(t.undefined[0].range, 0..10);
        let t = tag("\\mathbf z", &pats(&[("bz", "\\mathbf{z}")]));
        assert!(t.undefined.is_empty(), "{:?}", t.undefined);
        assert_eq!(t.symbols, ["bz"]);
        let t = tag("\\nosym{\\vec{v}} + \\boldsymbol{\\theta}", &pats(&[]));
        assert_eq!(undefined_texts(&t), ["\\boldsymbol{\\theta}"]);
    }

    #[test]
    fn undefined_letters_and_greek() {
        let t = tag(
            r"\alpha + \log x + 2\ell - \varepsilon_i + \alpha + \Gamma(i) + \sum_{k} \mu",
            &[],
        );
        assert_eq!(
            undefined_texts(&t),
            [
                r"\alpha",
                "x",
                r"\ell",
                r"\varepsilon",
                "i",
                r"\Gamma",
                "k",
                r"\mu"
            ]
        );
        let u = &t.undefined[0];
        assert_eq!(u.range, 0..6);
        let x = &t.undefined[1];
        assert_eq!(x.range, 14..15);
        // Digits, punctuation and operator names are never undefined.
        assert!(tag(r"1 + 2 = \sin\cos\exp\max\top (3)", &[])
            .undefined
            .is_empty());
        // Ranges point into the input even after normalization.
        let input = r"\frac ab";
        let t = tag(input, &[]);
        assert_eq!(t.tex, r"\frac{a}{b}");
        for u in &t.undefined {
            assert_eq!(&input[u.range.clone()], u.text);
        }
    }

    #[test]
    fn symbols_are_listed_once_in_order() {
        let t = tag("b + a + b + a", &pats(&[("a", "a"), ("b", "b")]));
        assert_eq!(t.symbols, ["b", "a"]);
    }

    #[test]
    fn invalid_ids_and_empty_patterns_are_ignored() {
        let list = [("bad id", "x"), ("ok", ""), ("y}", "y"), ("", "z")];
        let t = tag("x y z", &pats(&list));
        assert_eq!(t.tex, "x y z");
        assert!(t.symbols.is_empty());
    }

    #[test]
    fn first_of_two_identical_patterns_wins() {
        let t = tag(
            r"\mathbf x",
            &pats(&[("a", r"\mathbf{x}"), ("b", r"\mathbf x")]),
        );
        assert_eq!(t.tex, r"\htmlData{mc-sym=a}{\mathbf{x}}");
    }

    #[test]
    fn forbidden_commands_are_found() {
        let input = r"\href{u}{x} \hrefx \url{u} \includegraphics{a} % \htmlId
    \htmlData{a=b}{x} \htmlClass{c}{x} \htmlStyle{s}{x} \htmlId{i}{x}";
        let found = forbidden_commands(input);
        let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                r"\href",
                r"\url",
                r"\includegraphics",
                r"\htmlData",
                r"\htmlClass",
                r"\htmlStyle",
                r"\htmlId"
            ]
        );
        for (name, range) in &found {
            assert_eq!(&input[range.clone()], name);
        }
        assert!(forbidden_commands(r"\sym{x}{y} \text{href}").is_empty());
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let deep = "{".repeat(20_000) + "x" + &"}".repeat(20_000);
        let t = tag(&deep, &pats(&[("x", "x")]));
        assert_eq!(t.tex.len(), deep.len());
        let chain = "x^".repeat(20_000) + "x";
        let _ = tag(&chain, &pats(&[("x", "x")]));
        let fracs = r"\frac".repeat(20_000);
        let _ = tag(&fracs, &[]);
        let sqrts = r"\sqrt[".repeat(20_000);
        let _ = tag(&sqrts, &[]);
    }

    #[test]
    fn a_defined_styled_letter_before_nosym_is_not_undefined() {
        let t = tag(r"\mathbf{u}\nosym{b}", &pats(&[("vec-u", r"\mathbf{u}")]));
        assert!(t.undefined.is_empty(), "{:?}", t.undefined);
        assert_eq!(t.symbols, ["vec-u"]);
    }
}
