//! What the fuzzer runs each input through.

use std::path::Path;

use mdbook_mathcourse::chapter::{render_source, BookContext};
use mdbook_mathcourse::config::OnError;
use mdbook_mathcourse::directive::{block, options};
use mdbook_mathcourse::{inspect, scan};

/// A part of the pipeline under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Finding math, roles and suspicious dollars in Markdown.
    Scan,
    /// Finding directive blocks (nested), misplaced openers.
    Blocks,
    /// Options of every block: `:key: value` lines, YAML maps and lists.
    Options,
    /// Symbol tagging of TeX: normalize, tag, forbidden commands.
    Tagging,
    /// One whole chapter: front matter, directives, math, roles, templates; for the HTML
    /// renderer and for the plain-Markdown one.
    Chapter,
}

pub const ALL: [Target; 5] = [
    Target::Scan,
    Target::Blocks,
    Target::Options,
    Target::Tagging,
    Target::Chapter,
];

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::Scan => "scan",
            Target::Blocks => "blocks",
            Target::Options => "options",
            Target::Tagging => "tagging",
            Target::Chapter => "chapter",
        }
    }

    pub fn from_name(name: &str) -> Option<Target> {
        ALL.into_iter().find(|t| t.name() == name)
    }
}

/// What a target needs besides the input, made once per worker.
pub struct Fixture {
    book: BookContext,
    patterns: Vec<inspect::Pattern>,
}

impl Fixture {
    pub fn new() -> Fixture {
        let patterns = [
            ("x", "x"),
            ("theta", "\\theta"),
            ("vec-x", "\\mathbf{x}"),
            ("wq", "W_Q"),
            ("sigma", "\\sigma"),
            ("sum", "\\sum_{i=1}^{n}"),
        ]
        .into_iter()
        .map(|(id, tex)| inspect::Pattern {
            id: id.into(),
            tex: tex.into(),
        })
        .collect();
        Fixture {
            book: BookContext::standalone(OnError::Warn),
            patterns,
        }
    }
}

impl Default for Fixture {
    fn default() -> Self {
        Fixture::new()
    }
}

/// Runs `input` through `target`; returns a number derived from the output so that no
/// work is optimised away.
pub fn run(target: Target, input: &str, fixture: &Fixture, index: u64) -> usize {
    match target {
        Target::Scan => {
            let found = scan::scan(input, 0);
            // The other readings of math too: GitHub's `$` rules, MathJax's tex2jax (with
            // `$` and escapes, as a theme sets them), and MathJax-only TeX rewritten.
            let github = scan::scan_region_with(input, 0..input.len(), scan::Dollars::Github);
            let mut rules = mdbook_mathcourse::mathjax::Tex2jax::default();
            if index.is_multiple_of(2) {
                rules.inline.push(("$".into(), "$".into()));
                rules.process_escapes = true;
            }
            let mathjax = mdbook_mathcourse::mathjax::scan_region(input, 0..input.len(), &rules);
            let compat = mathjax
                .math
                .iter()
                .filter_map(|f| mdbook_mathcourse::mathjax::compat::normalize(&f.tex))
                .count();
            found.math.len()
                + found.roles.len()
                + found.declined.len()
                + found.commented.len()
                + github.math.len()
                + mathjax.math.len()
                + compat
        }
        Target::Blocks => {
            let mut n = block::misplaced_openers(input, 0..input.len()).len();
            walk(input, 0..input.len(), 0, &mut |_| n += 1);
            n
        }
        Target::Options => {
            let mut n = 0;
            walk(input, 0..input.len(), 0, &mut |b| {
                n += options::raw_options(input, b).map_or(0, |o| o.value.len());
                n += options::raw_list(input, b).map_or(0, |l| l.len());
            });
            n
        }
        Target::Tagging => {
            let tagged = inspect::tag(input, &fixture.patterns);
            inspect::normalize(input).len()
                + tagged.tex.len()
                + inspect::forbidden_commands(input).len()
        }
        Target::Chapter => {
            // Every eighth input also through the plain-Markdown path of other renderers.
            let html = !index.is_multiple_of(8);
            let out = render_source(
                input,
                Path::new("fuzz.md"),
                Path::new("src/fuzz.md"),
                &fixture.book,
                html,
            );
            // Diagnostics are rendered as the CLI prints them (source excerpts, carets).
            let text = mdbook_mathcourse::diagnostic::render_all(&out.diagnostics, false);
            out.content.len() + text.len()
        }
    }
}

/// Every directive block, nested ones too (to the nesting limit).
fn walk(
    source: &str,
    region: std::ops::Range<usize>,
    depth: usize,
    f: &mut dyn FnMut(&block::Block),
) {
    if depth >= mdbook_mathcourse::directive::MAX_DIRECTIVE_NESTING {
        return;
    }
    let (blocks, _) = block::find_blocks(source, region);
    for b in &blocks {
        f(b);
        walk(source, b.body.clone(), depth + 1, f);
    }
}
