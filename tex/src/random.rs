//! Property tests: random TeX never panics and tagging only adds wrappers.

use crate::commands::{is_letter_like, STYLED};
use crate::testkit::{pats, plain_tok, strip_wrappers};
use crate::{forbidden_commands, key, normalize, tag, Pattern};

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const ALPHABET: &[&str] = &[
    "x",
    "y",
    "i",
    "t",
    "L",
    "e",
    "θ",
    "1",
    "2",
    " ",
    "  ",
    "\n",
    "_",
    "^",
    "'",
    "{",
    "}",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "+",
    "-",
    "=",
    "/",
    "&",
    "%",
    "*",
    ",",
    "\\",
    r"\\",
    r"\|",
    r"\,",
    r"\{",
    r"\}",
    r"\%",
    r"\theta",
    r"\alpha",
    r"\nabla",
    r"\frac",
    r"\sqrt",
    r"\mathbf",
    r"\mathcal",
    r"\hat",
    r"\text",
    r"\operatorname",
    r"\left",
    r"\right",
    r"\big",
    r"\middle",
    r"\sum",
    r"\lim",
    r"\limits",
    r"\log",
    r"\not",
    r"\begin{pmatrix}",
    r"\end{pmatrix}",
    r"\begin",
    r"\end",
    r"\begin{array}",
    r"\kern",
    r"\hspace",
    r"\rule",
    r"\color",
    r"\textcolor",
    r"\htmlData",
    r"\nosym",
    r"\displaystyle",
    r"\over",
    r"\top",
    r"\mathrm",
    r"\overset",
    r"\underbrace",
    r"\operatorname*",
    r"\label",
    r"\tag",
    "mm",
    "1em",
    "-",
];

fn random_tex(rng: &mut XorShift, max_len: usize) -> String {
    let len = rng.below(max_len + 1);
    (0..len)
        .map(|_| ALPHABET[rng.below(ALPHABET.len())])
        .collect()
}

/// Checks the invariants of [`tag`] on one input; returns whether anything was tagged.
fn check_invariants(input: &str, list: &[Pattern]) -> bool {
    let t = tag(input, list);
    let ids: Vec<&str> = list.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        strip_wrappers(&t.tex),
        normalize(input),
        "input {input:?}, tagged {:?}, patterns {list:?}",
        t.tex
    );
    for s in &t.symbols {
        assert!(ids.contains(&s.as_str()), "{s} in {input:?}");
    }
    for (i, s) in t.symbols.iter().enumerate() {
        assert!(!t.symbols[..i].contains(s), "{input:?}");
    }
    for u in &t.undefined {
        assert_eq!(
            input.get(u.range.clone()),
            Some(u.text.as_str()),
            "{input:?}"
        );
        let styled = STYLED
            .iter()
            .any(|c| u.text.starts_with(&format!("\\{c}")) && u.text.len() > c.len() + 1);
        assert!(styled || is_letter_like(&plain_tok(&u.text)));
    }
    assert!(t.problems.is_empty(), "{input:?}");
    let _ = key(input);
    for (name, range) in forbidden_commands(input) {
        assert_eq!(input.get(range), Some(name.as_str()));
    }
    // Normalizing is idempotent (`\nosym{x}` becomes a plain group, which a following
    // pass may read as an argument of what precedes it, so leave it out).
    if !input.contains("nosym") {
        let once = normalize(input);
        assert_eq!(normalize(&once), once, "input {input:?}");
    }
    !t.symbols.is_empty()
}

#[test]
fn random_input_never_panics_and_only_adds_wrappers() {
    let fixed = pats(&[
        ("x", "x"),
        ("x-i", "x_i"),
        ("theta", r"\theta"),
        ("theta-t", r"\theta_t"),
        ("vx", r"\mathbf{x}"),
        ("sum", r"\sum"),
        ("lim", r"\lim"),
        ("norm", r"\|x\|"),
        ("braced", "{x}"),
        ("script", "_i"),
        ("half", r"\frac{1}"),
        ("frac", r"\frac12"),
        ("left", r"\left("),
        ("unbalanced", "x}"),
        ("sqrt", r"\sqrt"),
        ("amp", "&"),
        ("text", r"\text{x}"),
        ("prime", "'"),
        ("backslash", "\\"),
        ("empty", ""),
        ("e", "e"),
        ("mm", "m"),
    ]);
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut tagged = 0;
    for _ in 0..4000 {
        let input = random_tex(&mut rng, 40);
        tagged += usize::from(check_invariants(&input, &fixed));
        // Random patterns as well.
        let list: Vec<Pattern> = (0..rng.below(6))
            .map(|k| Pattern {
                id: format!("p{k}"),
                tex: random_tex(&mut rng, 4),
            })
            .collect();
        check_invariants(&input, &list);
    }
    // The generator does exercise tagging.
    assert!(tagged > 1000, "{tagged}");
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = XorShift(12345);
    for _ in 0..2000 {
        let len = rng.below(60);
        let bytes: Vec<u8> = (0..len).map(|_| (rng.next() & 0xff) as u8).collect();
        let input = String::from_utf8_lossy(&bytes).into_owned();
        check_invariants(&input, &pats(&[("x", "x"), ("y", "\u{fffd}")]));
    }
}
