//! Inputs: real chapters cut into short pieces, mutated by a seeded generator.
//!
//! Input number `i` of a run with seed `s` depends only on `(s, i)` and the seed corpus,
//! so a crash found in a batch can be replayed one input at a time (see `main.rs`).

use std::path::{Path, PathBuf};

/// The longest input made (bytes): long enough for nesting and repetition, short enough
/// for many executions a second.
pub const MAX_INPUT: usize = 64 * 1024;

/// xorshift64*: small, seeded, good enough to pick mutations.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // splitmix64 of the seed, so nearby seeds give unrelated streams.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Pieces of syntax the mutator inserts: delimiters, directive and option syntax, TeX
/// that nests, Markdown containers, and characters that have broken parsers before.
const TOKENS: &[&str] = &[
    "$",
    "$$",
    "\\$",
    "\\(",
    "\\)",
    "\\[",
    "\\]",
    "`",
    "```",
    "~~~",
    "\n",
    "\n\n",
    "{",
    "}",
    "\\{",
    "\\}",
    ":::",
    "::::",
    ":::{note}\n",
    ":::{claim} empirical\n",
    ":::{math}\n",
    ":::{formula} F\n",
    ":::{symbols}\n",
    ":::{symbol-table}\n",
    ":::{widget} softmax\n",
    ":::{check} dot\n",
    ":::{practice}\n",
    ":::{solution}\n",
    ":::{steps}\n",
    "\n:::\n",
    "---\n",
    ":label: eq-a\n",
    ":source: S\n",
    ":inspect: true\n",
    "tex: ",
    "where:\n",
    "  - {id: x, tex: x, name: x}\n",
    "- {a: é, \"\": 1}\n",
    "{eq}`eq-a`",
    "\\frac{",
    "\\sqrt{",
    "\\left(",
    "\\right)",
    "\\begin{aligned}",
    "\\end{aligned}",
    "^{",
    "_",
    "&",
    "\\\\",
    "\\sym{x}{",
    "\\nosym{",
    "\\htmlData{mc-sym=a}{",
    "\\href{x}{",
    "\\text{",
    "\\mathbf{x}",
    "\\theta",
    "% comment\n",
    "<!--",
    "-->",
    "<td>",
    "</td>",
    "<div>",
    "> ",
    "- ",
    "1. ",
    "    ",
    "   ",
    "#",
    "## ",
    "*",
    "_",
    "[",
    "](",
    ")",
    "!",
    "|",
    "\u{1}",
    "\u{0}",
    "é",
    "日本",
    "\u{feff}",
    "\r\n",
    "\t",
    "{{#include x.md}}",
    "\"",
    "'",
];

/// The seed corpus: every Markdown file under `dirs`, cut into pieces of at most 40
/// lines (plus each whole file of at most 8 KB).
pub fn corpus(dirs: &[PathBuf]) -> Vec<String> {
    let mut files = Vec::new();
    for dir in dirs {
        collect(dir, &mut files);
    }
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        if text.len() <= 8 * 1024 {
            out.push(text.clone());
        }
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        for piece in lines.chunks(40) {
            out.push(piece.concat());
        }
    }
    if out.is_empty() {
        out.push("# Empty\n\nSome $x$ text.\n".to_string());
    }
    out
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            let name = entry.file_name();
            if name != "book" && name != "node_modules" && name != "target" {
                collect(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// Input number `index` of the run with `seed`.
pub fn input(corpus: &[String], seed: u64, index: u64) -> String {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    let mut text = corpus[rng.below(corpus.len())].clone();
    let rounds = 1 + rng.below(8);
    for _ in 0..rounds {
        mutate(&mut text, corpus, &mut rng);
    }
    if text.len() > MAX_INPUT {
        let mut end = MAX_INPUT;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

/// A character boundary of `text`, chosen at random.
fn boundary(text: &str, rng: &mut Rng) -> usize {
    let mut at = rng.below(text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A range of `text` of at most `max` bytes, on character boundaries.
fn range(text: &str, max: usize, rng: &mut Rng) -> std::ops::Range<usize> {
    let start = boundary(text, rng);
    let mut end = (start + rng.below(max + 1)).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    start..end.max(start)
}

fn mutate(text: &mut String, corpus: &[String], rng: &mut Rng) {
    match rng.below(7) {
        0 | 1 => {
            let at = boundary(text, rng);
            text.insert_str(at, TOKENS[rng.below(TOKENS.len())]);
        }
        2 => {
            let r = range(text, 32, rng);
            text.replace_range(r, "");
        }
        3 => {
            let r = range(text, 200, rng);
            let piece = text[r].to_string();
            let at = boundary(text, rng);
            text.insert_str(at, &piece);
        }
        4 => {
            let other = &corpus[rng.below(corpus.len())];
            let r = range(other, 400, rng);
            let at = boundary(text, rng);
            text.insert_str(at, &other[r]);
        }
        5 => {
            // Repetition: nesting and long runs (what made earlier versions quadratic or
            // overflow the stack).
            let token = TOKENS[rng.below(TOKENS.len())];
            let times = 1 + rng.below(400);
            let at = boundary(text, rng);
            text.insert_str(at, &token.repeat(times));
        }
        _ => {
            let r = range(text, 4, rng);
            let replacement = TOKENS[rng.below(TOKENS.len())];
            text.replace_range(r, replacement);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_reproducible_and_valid() {
        let corpus = vec![
            "# A\n\n$x$ and :::{note}\nbody\n:::\n".to_string(),
            "é日本".to_string(),
        ];
        for i in 0..500 {
            let a = input(&corpus, 7, i);
            assert_eq!(a, input(&corpus, 7, i));
            assert!(a.len() <= MAX_INPUT);
        }
        assert_ne!(input(&corpus, 7, 1), input(&corpus, 8, 1));
    }
}
