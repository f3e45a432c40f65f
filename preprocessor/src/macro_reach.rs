//! Which of the book's macros a formula can reach: the engine gets only those.
//!
//! KaTeX takes its macros as a table it may change (`\gdef`), so each formula gets a
//! table of its own. Filling it with every macro of the book cost each formula time in
//! proportion to the macros: a book with n macros and n formulas cost n². A formula can
//! only reach a macro whose name it contains, whose name the expansion of a macro it
//! reaches contains, or whose name the engine itself looks up (a name the engine
//! defines, which a macro then replaces: `\iff` expands to `\Longleftrightarrow`). The
//! names are found as the engine's lexer finds them (`\` then letters and `@`), a
//! superset: a `\foo` in a comment counts too. What renders is unchanged.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

use katex::macros::builtins::BUILTIN_MACROS;
use katex::macros::MacroDefinition;
use katex::KatexContext;

/// The macros every formula gets, found once per set of options: those whose name is
/// no control word (`\,`, a character), or one the engine defines. Cloned empty.
#[derive(Default)]
pub struct MacroReach(OnceLock<(usize, Vec<String>)>);

impl Clone for MacroReach {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl PartialEq for MacroReach {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for MacroReach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MacroReach")
    }
}

/// The engine's macro table for `tex`: every macro of `macros` it can reach.
pub fn macro_map<'a>(
    tex: &'a str,
    macros: &'a BTreeMap<String, String>,
    reach: &MacroReach,
    ctx: &KatexContext,
) -> katex::macro_expander::MacroMap {
    let mut map = katex::macro_expander::MacroMap::default();
    if macros.is_empty() {
        return map;
    }
    let computed;
    let always: &[String] = match reach.0.get_or_init(|| (macros.len(), always(macros, ctx))) {
        // Options changed after the first formula (not done by the preprocessor).
        (len, _) if *len != macros.len() => {
            computed = always(macros, ctx);
            &computed
        }
        (_, names) => names,
    };
    let mut pending: Vec<&'a str> = vec![tex];
    let mut add = |name: &str, pending: &mut Vec<&'a str>| {
        if map.contains_key(name) {
            return;
        }
        if let Some((name, expansion)) = macros.get_key_value(name) {
            map.insert(name.clone(), MacroDefinition::String(expansion.clone()));
            pending.push(expansion.as_str());
        }
    };
    for name in always {
        add(name, &mut pending);
    }
    while let Some(text) = pending.pop() {
        for name in control_words(text) {
            add(name, &mut pending);
        }
    }
    map
}

/// Every `\` followed by letters or `@` in `text`, with its backslash.
fn control_words(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let word = |b: &u8| b.is_ascii_alphabetic() || *b == b'@';
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() {
            let start = at;
            at += 1;
            if bytes[start] == b'\\' {
                let len = bytes[at..].iter().take_while(|b| word(b)).count();
                if len > 0 {
                    at += len;
                    return Some(&text[start..at]);
                }
            }
        }
        None
    })
}

fn is_control_word(name: &str) -> bool {
    name.strip_prefix('\\')
        .is_some_and(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphabetic() || b == b'@'))
}

/// The names of `macros` any formula may reach (see [`MacroReach`]).
fn always(macros: &BTreeMap<String, String>, ctx: &KatexContext) -> Vec<String> {
    macros
        .keys()
        .filter(|name| {
            !is_control_word(name)
                || name.contains('@')
                || BUILTIN_MACROS.contains_key(name.as_str())
                || ctx.functions.contains_key(name.as_str())
                || ctx.symbols.get_math(name).is_some()
                || ctx.symbols.get_text(name).is_some()
        })
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(tex: &str, macros: &[(&str, &str)]) -> Vec<String> {
        let macros: BTreeMap<String, String> = macros
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let ctx = KatexContext::default();
        let mut out: Vec<String> = macro_map(tex, &macros, &MacroReach::default(), &ctx)
            .keys()
            .cloned()
            .collect();
        out.sort();
        out
    }

    #[test]
    fn a_formula_gets_the_macros_it_names_and_what_they_name() {
        // (KaTeX defines `\R` itself: a macro of that name is given to every formula.)
        let macros = [
            ("\\Rset", "\\mathbb{R}"),
            ("\\vx", "\\mathbf{x}\\in\\Rset"),
            ("\\unused", "u"),
            ("\\Rsetn", "n"),
        ];
        assert_eq!(names("\\vx + 1", &macros), ["\\Rset", "\\vx"]);
        assert_eq!(names("\\Rset^n", &macros), ["\\Rset"]);
        assert_eq!(names("x", &macros), Vec::<String>::new());
    }

    #[test]
    fn names_the_engine_looks_up_itself_are_always_given() {
        // `\iff` expands (inside the engine) to `\Longleftrightarrow`.
        let macros = [
            ("\\Longleftrightarrow", "\\Rightarrow"),
            ("\\my@name", "m"),
            ("\\,", "~"),
            ("\\other", "o"),
        ];
        assert_eq!(
            names("a \\iff b", &macros),
            ["\\,", "\\Longleftrightarrow", "\\my@name"]
        );
    }

    #[test]
    fn control_words_are_found_as_the_lexer_finds_them() {
        // `\\a` is `\\` then `a` to the lexer: the extra `\a` is harmless (a superset).
        let words: Vec<&str> = control_words("\\\\a \\b1\\c@d \\ \\é \\").collect();
        assert_eq!(words, ["\\a", "\\b", "\\c@d"]);
    }

    /// The work per formula follows the macros it reaches, not all of the book's.
    #[test]
    fn a_formula_reaching_one_macro_gets_one_among_many() {
        let macros: BTreeMap<String, String> = (0..5000)
            .map(|i| (format!("\\m{}", to_letters(i)), format!("x_{{{i}}}")))
            .collect();
        let ctx = KatexContext::default();
        let reach = MacroReach::default();
        let map = macro_map("\\mbc + 1", &macros, &reach, &ctx);
        // `\mbc`, and the few names KaTeX defines itself (`\mu`, `\mp`, …).
        let known = always(&macros, &ctx).len();
        assert!(map.contains_key("\\mbc") && map.len() == known + 1);
        assert!(known < 20, "{known}");
    }

    fn to_letters(mut i: usize) -> String {
        let mut s = String::new();
        loop {
            s.push((b'a' + (i % 26) as u8) as char);
            i /= 26;
            if i == 0 {
                return s;
            }
        }
    }

    /// What KaTeX makes of a formula with every macro and with those it reaches: the same,
    /// output or error, in the cases where the reach is least obvious.
    #[test]
    fn the_engine_renders_the_same_with_the_reached_macros() {
        let macros: BTreeMap<String, String> = [
            ("\\Longleftrightarrow", "\\Rightarrow"),
            ("\\vx", "\\mathbf{x}\\in\\Rset"),
            ("\\Rset", "\\mathbb{R}"),
            ("\\pair", "(#1, #2)"),
            ("\\R", "\\mathcal{R}"),
            ("é", "\\acute{e}"),
            ("\\,", "+"),
            ("\\unused", "\\frac{1}{2}"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let ctx = KatexContext::default();
        let render = |tex: &str, map: katex::macro_expander::MacroMap| {
            let settings = katex::Settings::builder()
                .throw_on_error(true)
                .macros(map)
                .build();
            katex::render_to_string(&ctx, tex, &settings).map_err(|e| e.to_string())
        };
        let all = || {
            let mut map = katex::macro_expander::MacroMap::default();
            for (k, v) in &macros {
                map.insert(k.clone(), MacroDefinition::String(v.clone()));
            }
            map
        };
        // The cases matter: without the macros, `\iff` renders otherwise.
        let none = katex::macro_expander::MacroMap::default();
        assert_ne!(render("a \\iff b", none), render("a \\iff b", all()));
        for tex in [
            "a \\iff b",
            "\\vx",
            "\\pair{\\R}{é}",
            "a\\,b",
            "\\newcommand{\\vx}{y} \\vx",
            "\\renewcommand{\\Rset}{Q} \\vx",
            "\\def\\z{\\Rset} \\z",
            "\\gdef\\w{\\pair 12} \\w",
            "\\text{é} + \\R",
            "x",
        ] {
            let reached = macro_map(tex, &macros, &MacroReach::default(), &ctx);
            assert_eq!(render(tex, reached), render(tex, all()), "{tex}");
        }
    }
}
