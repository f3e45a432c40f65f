//! The corpus: every formula of the two seed pages, tagged with their symbols
//! (`corpus.txt`, a data file read at compile time).

use crate::testkit::{strip_wrappers, undefined_texts};
use crate::{normalize, tag, Pattern};

const CORPUS: &str = include_str!("corpus.txt");

/// `corpus.txt` read: the registry, (formula, symbols, undefined) and (formula, tagged).
struct Corpus {
    registry: Vec<Pattern>,
    formulas: Vec<(String, String, String)>,
    exact: Vec<(String, String)>,
}

fn value<'a>(line: Option<&'a str>, key: &str) -> &'a str {
    let line = line.unwrap_or_else(|| panic!("corpus.txt: `{key}` missing"));
    let rest = line
        .strip_prefix(key)
        .unwrap_or_else(|| panic!("corpus.txt: expected `{key}`, found {line:?}"));
    rest.strip_prefix(' ').unwrap_or(rest)
}

fn read() -> Corpus {
    let mut corpus = Corpus {
        registry: Vec::new(),
        formulas: Vec::new(),
        exact: Vec::new(),
    };
    let mut section = "";
    let mut lines = CORPUS.lines().filter(|l| !l.starts_with('#'));
    while let Some(line) = lines.next() {
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            section = line;
            continue;
        }
        match section {
            "[registry]" => {
                let (id, tex) = line.split_once(' ').expect("registry line: id and TeX");
                corpus.registry.push(Pattern {
                    id: id.to_string(),
                    tex: tex.to_string(),
                });
            }
            "[formulas]" => {
                let formula = value(Some(line), "formula:");
                let symbols = value(lines.next(), "symbols:");
                let undefined = value(lines.next(), "undefined:");
                corpus
                    .formulas
                    .push((formula.into(), symbols.into(), undefined.into()));
            }
            "[exact]" => {
                let formula = value(Some(line), "formula:");
                let tagged = value(lines.next(), "tagged:");
                corpus.exact.push((formula.into(), tagged.into()));
            }
            other => panic!("corpus.txt: line outside a known section ({other:?}): {line:?}"),
        }
    }
    corpus
}

#[test]
fn corpus_symbols_and_undefined() {
    let corpus = read();
    let book = &corpus.registry;
    assert!(book.len() >= 40);
    assert!(corpus.formulas.len() >= 50);
    for (formula, symbols, undefined) in &corpus.formulas {
        let t = tag(formula, book);
        let expected: Vec<&str> = symbols.split_whitespace().collect();
        assert_eq!(t.symbols, expected, "symbols of {formula}");
        let expected: Vec<&str> = undefined.split_whitespace().collect();
        assert_eq!(undefined_texts(&t), expected, "undefined of {formula}");
        assert!(t.problems.is_empty(), "{formula}");
        for u in &t.undefined {
            assert_eq!(&formula[u.range.clone()], u.text, "{formula}");
        }
        assert_eq!(strip_wrappers(&t.tex), normalize(formula), "{formula}");
    }
}

#[test]
fn corpus_exact_tex() {
    let corpus = read();
    assert!(corpus.exact.len() >= 20);
    for (formula, expected) in &corpus.exact {
        assert_eq!(tag(formula, &corpus.registry).tex, *expected, "{formula}");
    }
}

#[test]
fn tagging_with_the_occurring_patterns_alone_changes_nothing() {
    // `PatternIndex` narrows a big registry to the patterns a formula contains; tagging
    // with those alone must give exactly what tagging with the whole registry gives.
    let corpus = read();
    let index = crate::PatternIndex::new(corpus.registry.iter().map(|p| p.tex.as_str()));
    let formulas = corpus
        .formulas
        .iter()
        .map(|f| &f.0)
        .chain(corpus.exact.iter().map(|e| &e.0));
    for formula in formulas {
        let some: Vec<Pattern> = index
            .occurring(formula)
            .into_iter()
            .map(|i| corpus.registry[i].clone())
            .collect();
        assert!(some.len() <= corpus.registry.len());
        let mut whole = tag(formula, &corpus.registry);
        let mut narrowed = tag(formula, &some);
        // `\sym` hints list the registry; compare everything else.
        whole.problems.iter_mut().for_each(|p| p.hint.clear());
        narrowed.problems.iter_mut().for_each(|p| p.hint.clear());
        assert_eq!(whole, narrowed, "{formula}");
    }
}
