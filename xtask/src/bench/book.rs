//! The benchmark book: a deterministic, generated math course of 60 chapters and about
//! 5,000 formulas (inline and display), written in the style of `book/`.
//!
//! Formulas come from templates of typical course notation (softmax, attention,
//! gradient steps, norms, matrices, aligned derivations, cases, expectations, ...)
//! whose numbers and letters are drawn from a fixed-seed generator, so most formulas
//! are distinct and a few repeat, as in a real book. Every formula uses only standard
//! KaTeX (no macros), so every preprocessor under test renders the same book, and no
//! inline formula in a table contains `|`.

use std::fs;
use std::path::Path;

use anyhow::Result;

/// One generated chapter.
pub struct Chapter {
    /// File name under `src/`, e.g. `ch07.md`.
    pub file: String,
    /// Title, for SUMMARY.md.
    pub title: String,
    /// The Markdown.
    pub content: String,
}

/// The generated book.
pub struct Book {
    /// The chapters, in order.
    pub chapters: Vec<Chapter>,
    /// Inline formulas (`$...$`) in all chapters.
    pub inline: usize,
    /// Display formulas (`$$...$$` blocks) in all chapters.
    pub display: usize,
}

impl Book {
    /// All formulas.
    pub fn formulas(&self) -> usize {
        self.inline + self.display
    }

    /// Bytes of Markdown in all chapters.
    pub fn markdown_bytes(&self) -> usize {
        self.chapters.iter().map(|c| c.content.len()).sum()
    }

    /// Writes `book.toml`, `src/SUMMARY.md`, `src/index.md` and the chapters into `dir`
    /// (which is emptied first).
    pub fn write(&self, dir: &Path, book_toml: &str) -> Result<()> {
        if dir.exists() {
            fs::remove_dir_all(dir)?;
        }
        let src = dir.join("src");
        fs::create_dir_all(&src)?;
        fs::write(dir.join("book.toml"), book_toml)?;
        let mut summary = String::from("# Summary\n\n[Introduction](index.md)\n\n");
        for (i, ch) in self.chapters.iter().enumerate() {
            if i % 10 == 0 {
                summary.push_str(&format!("\n# Part {}\n\n", i / 10 + 1));
            }
            summary.push_str(&format!("- [{}]({})\n", ch.title, ch.file));
        }
        fs::write(src.join("SUMMARY.md"), summary)?;
        fs::write(
            src.join("index.md"),
            "# Introduction\n\nA generated course used to benchmark math preprocessors: \
             every chapter mixes prose, inline and display formulas, lists, tables and code.\n",
        )?;
        for ch in &self.chapters {
            fs::write(src.join(&ch.file), &ch.content)?;
        }
        Ok(())
    }
}

/// The sentence appended to a chapter for a warm rebuild: one new formula, distinct
/// for each `n`.
pub fn edit_sentence(n: usize) -> String {
    format!(
        "\n\nA late remark (edit {n}): the error bound $\\varepsilon_{{{n}}} \\le 10^{{-{n}}} \\cdot \\|\\nabla \\mathcal{{L}}\\|$ is tight here.\n"
    )
}

/// Generates the book: `chapters` chapters (at most the number of titles, 60).
pub fn generate(chapters: usize) -> Book {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut book = Book {
        chapters: Vec::new(),
        inline: 0,
        display: 0,
    };
    for (i, title) in TITLES.iter().take(chapters).enumerate() {
        let mut w = Writer {
            rng: &mut rng,
            out: String::new(),
            inline: 0,
            display: 0,
        };
        w.chapter(i + 1, title);
        book.inline += w.inline;
        book.display += w.display;
        let content = w.out;
        book.chapters.push(Chapter {
            file: format!("ch{:02}.md", i + 1),
            title: format!("{}. {title}", i + 1),
            content,
        });
    }
    book
}

/// SplitMix64: small, fast, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.next() as usize % items.len()]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

struct Writer<'r> {
    rng: &'r mut Rng,
    out: String,
    inline: usize,
    display: usize,
}

impl Writer<'_> {
    fn chapter(&mut self, number: usize, title: &str) {
        self.out.push_str(&format!("# {number}. {title}\n\n"));
        self.paragraph(false);
        let sections = self.rng.range(4, 5);
        for s in 0..sections {
            let heading = SECTIONS[(number + s as usize) % SECTIONS.len()];
            self.out.push_str(&format!("## {heading}\n\n"));
            for _ in 0..self.rng.range(2, 3) {
                self.paragraph(false);
                if self.rng.chance(60) {
                    self.display_block();
                }
            }
            match self.rng.range(0, 3) {
                0 | 1 => self.list(),
                2 => self.table(),
                _ => self.code(),
            }
            self.display_block();
            self.paragraph(true);
        }
    }

    /// A paragraph of 3 to 5 sentences, most with inline math.
    fn paragraph(&mut self, short: bool) {
        let n = if short { 2 } else { self.rng.range(3, 5) };
        let mut sentences = Vec::new();
        for _ in 0..n {
            if self.rng.chance(40) {
                sentences.push(self.rng.pick(PLAIN).to_string());
            } else {
                let template = *self.rng.pick(SENTENCES);
                sentences.push(self.fill_sentence(template, false));
            }
        }
        self.out.push_str(&sentences.join(" "));
        self.out.push_str("\n\n");
    }

    /// Replaces each `@` of a sentence template with an inline formula.
    fn fill_sentence(&mut self, template: &str, table_safe: bool) -> String {
        let mut s = String::new();
        for (i, part) in template.split('@').enumerate() {
            if i > 0 {
                let tex = loop {
                    let t = *self.rng.pick(INLINE);
                    if !table_safe || !t.contains('|') {
                        break t;
                    }
                };
                let tex = self.instantiate(tex);
                s.push('$');
                s.push_str(&tex);
                s.push('$');
                self.inline += 1;
            }
            s.push_str(part);
        }
        s
    }

    fn display_block(&mut self) {
        let intro = *self.rng.pick(DISPLAY_INTROS);
        let template = *self.rng.pick(DISPLAY);
        let tex = self.instantiate(template);
        self.out.push_str(intro);
        self.out.push_str("\n\n$$\n");
        self.out.push_str(&tex);
        self.out.push_str("\n$$\n\n");
        self.display += 1;
    }

    fn list(&mut self) {
        self.out.push_str("In short:\n\n");
        for _ in 0..self.rng.range(3, 4) {
            let item = *self.rng.pick(LIST_ITEMS);
            let item = self.fill_sentence(item, false);
            self.out.push_str(&format!("- {item}\n"));
        }
        self.out.push('\n');
    }

    fn table(&mut self) {
        self.out
            .push_str("The symbols of this section:\n\n| Symbol | Meaning |\n|---|---|\n");
        for _ in 0..3 {
            let symbol = self.fill_sentence("@", true);
            let meaning = *self.rng.pick(MEANINGS);
            self.out.push_str(&format!("| {symbol} | {meaning} |\n"));
        }
        self.out.push('\n');
    }

    fn code(&mut self) {
        let lr = self.rng.range(1, 9);
        let steps = self.rng.range(10, 99) * 10;
        self.out.push_str(&format!(
            "The same computation in NumPy:\n\n```python\nimport numpy as np\n\n\
             def step(theta, grad, lr=0.{lr}):\n    return theta - lr * grad\n\n\
             for _ in range({steps}):\n    theta = step(theta, grad_fn(theta))\n```\n\n"
        ));
    }

    /// Fills a formula template: `#1`/`#4` become a digit 1-9, `#2`/`#5` a number
    /// 10-99, `#3` a number 100-999, `#v` a letter, `#g` a Greek letter, `#m` a matrix
    /// name; the same placeholder has the same value throughout one formula.
    fn instantiate(&mut self, template: &str) -> String {
        let d1 = self.rng.range(1, 9).to_string();
        let d4 = self.rng.range(2, 9).to_string();
        let n2 = self.rng.range(10, 99).to_string();
        let n5 = self.rng.range(10, 99).to_string();
        let n3 = self.rng.range(100, 999).to_string();
        let v = *self
            .rng
            .pick(&["x", "y", "z", "u", "v", "w", "a", "b", "h", "s"]);
        let g = *self.rng.pick(&[
            "\\alpha", "\\beta", "\\gamma", "\\lambda", "\\mu", "\\sigma", "\\tau", "\\omega",
        ]);
        let m = *self.rng.pick(&["A", "B", "W", "Q", "K", "V", "M", "X"]);
        let mut out = String::with_capacity(template.len() + 16);
        let mut chars = template.chars();
        while let Some(c) = chars.next() {
            if c != '#' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('1') => out.push_str(&d1),
                Some('4') => out.push_str(&d4),
                Some('2') => out.push_str(&n2),
                Some('5') => out.push_str(&n5),
                Some('3') => out.push_str(&n3),
                Some('v') => out.push_str(v),
                Some('g') => out.push_str(g),
                Some('m') => out.push_str(m),
                other => panic!("bad placeholder #{other:?} in {template}"),
            }
        }
        out
    }
}

const TITLES: &[&str] = &[
    "Vectors and coordinates",
    "Dot products and angles",
    "Norms and distances",
    "Matrices as maps",
    "Matrix multiplication",
    "Transpose and symmetry",
    "Linear systems",
    "Determinants",
    "Eigenvalues and eigenvectors",
    "Singular value decomposition",
    "Projections and least squares",
    "Functions and graphs",
    "Limits and continuity",
    "Derivatives",
    "The chain rule",
    "Partial derivatives",
    "Gradients",
    "Jacobians and Hessians",
    "Taylor expansions",
    "Convexity",
    "Integrals",
    "Probability spaces",
    "Random variables",
    "Expectation",
    "Variance and covariance",
    "The Gaussian distribution",
    "Bayes' rule",
    "Maximum likelihood",
    "Entropy",
    "Cross-entropy",
    "KL divergence",
    "Logistic regression",
    "Softmax regression",
    "Loss functions",
    "Gradient descent",
    "Stochastic gradient descent",
    "Momentum and Adam",
    "Learning-rate schedules",
    "Regularization",
    "Neurons and activations",
    "Multilayer perceptrons",
    "Backpropagation",
    "Initialization",
    "Normalization layers",
    "Residual connections",
    "Embeddings",
    "Tokens by the numbers",
    "Sequence models",
    "Recurrent networks",
    "Attention",
    "Scaled dot-product attention",
    "Multi-head attention",
    "Positional encodings",
    "The transformer block",
    "Language modeling",
    "Sampling and temperature",
    "Perplexity",
    "Scaling laws",
    "Fine-tuning",
    "Low-rank adaptation",
];

const SECTIONS: &[&str] = &[
    "Definition",
    "A worked example",
    "Why it works",
    "Common pitfalls",
    "In a language model",
    "Shapes and sizes",
    "A second look",
    "Exercises",
];

const SENTENCES: &[&str] = &[
    "Consider @, where @ is the quantity we care about.",
    "With @ and @, the result is @.",
    "A quick check: @ holds for every choice of @.",
    "In code this is one line, but on paper it reads @.",
    "The shape rule gives @, so the sizes agree.",
    "Recall that @; we will use it again below.",
    "For the running example, set @ and @.",
    "This is why @ grows like @ in practice.",
    "Notice that @ is small compared with @.",
    "Substituting @ into the previous line gives @.",
    "The step size @ is a hyperparameter, not a learned weight.",
    "Every term of @ is non-negative, hence @.",
    "If @, then @ as well.",
    "Most libraries store @ as a dense array.",
    "We write @ for the output of layer @.",
];

const PLAIN: &[&str] = &[
    "This matters more than it first appears.",
    "We return to this idea in a later chapter.",
    "Try it on paper before reading on.",
    "The next example makes this concrete.",
    "Nothing here depends on the size of the model.",
    "It is worth checking the units of each term.",
    "The idea is older than deep learning, but it is everywhere in it.",
    "Keep the picture of arrows in mind; the algebra follows it.",
    "A small numeric example shows every step of the computation.",
    "The same pattern appears again in the attention layer.",
];

const LIST_ITEMS: &[&str] = &[
    "@ is the input of the layer;",
    "@ collects the parameters;",
    "the output is @;",
    "the loss is measured by @;",
    "the update uses @ only.",
    "@ and @ have the same shape.",
];

const MEANINGS: &[&str] = &[
    "input vector",
    "weight matrix",
    "learning rate",
    "number of examples",
    "hidden state",
    "probability of the next token",
    "model dimension",
];

const DISPLAY_INTROS: &[&str] = &[
    "In symbols:",
    "The general form is",
    "Written out in full:",
    "The formula to remember:",
    "Putting the pieces together,",
];

/// Inline formula templates (see [`Writer::instantiate`]).
const INLINE: &[&str] = &[
    "#v_{#1}",
    "#v_{#1}^{#4}",
    "#g = 0.#2",
    "d = #3",
    "n = #2",
    "#m \\in \\mathbb{R}^{#2 \\times #5}",
    "\\mathbf{#v} \\in \\mathbb{R}^{#3}",
    "\\eta = 10^{-#1}",
    "\\sum_{i=1}^{#2} #v_i",
    "\\frac{#1}{#2}",
    "\\frac{\\partial \\mathcal{L}}{\\partial #v_{#1}}",
    "p(#v \\mid #v_{#1})",
    "\\|\\mathbf{#v}\\|_2 = #1.#4",
    "\\mathcal{O}(n^{#4} d)",
    "\\hat{y}_{#1} = 0.#2",
    "e^{-#1 t}",
    "\\log_2 #3 \\approx #1.#2",
    "\\mathbb{E}[X_{#1}] = #4",
    "\\operatorname{Var}(X) = #1.#2",
    "f'(x) = #4 x^{#1}",
    "\\sigma(z_{#1})",
    "#m^\\top #m",
    "\\lambda_{#1} \\ge 0",
    "\\theta_{t+1} = \\theta_t - \\eta g_t",
    "\\nabla_{\\theta} \\mathcal{L}",
    "x \\mapsto #4x + #1",
    "\\operatorname{softmax}(z)_{#1}",
    "\\sqrt{d_k} = \\sqrt{#2}",
    "\\mathbf{h}_{#1} = \\tanh(#m \\mathbf{h}_{#4} + \\mathbf{b})",
    "\\langle \\mathbf{u}, \\mathbf{v} \\rangle = #2",
    "\\det(#m) = #2",
    "#v \\to \\infty",
    "\\int_0^{#1} #v^{#4} \\, d#v",
    "\\Pr[#v > #1] = 0.#2",
    "k = 1, \\dots, #2",
    "\\mathrm{PPL} = e^{#1.#4}",
    "\\mathcal{D} = \\{(x_i, y_i)\\}_{i=1}^{#3}",
    "\\lvert #v \\rvert < #1",
    "\\binom{#2}{#1}",
    "#m_{#1 #4}",
];

/// Display formula templates (see [`Writer::instantiate`]).
const DISPLAY: &[&str] = &[
    "\\operatorname{softmax}(z)_i = \\frac{e^{z_i / #1}}{\\sum_{j=1}^{#2} e^{z_j / #1}}",
    "\\operatorname{Attention}(Q, K, V) = \\operatorname{softmax}\\left(\\frac{QK^\\top}{\\sqrt{#2}}\\right) V",
    "\\theta_{t+1} = \\theta_t - 0.0#1 \\, \\nabla_\\theta \\mathcal{L}(\\theta_t)",
    "\\mathcal{L}(\\theta) = -\\frac{1}{#3} \\sum_{n=1}^{#3} \\log p_\\theta(y_n \\mid x_n)",
    "\\begin{pmatrix} #1 & #4 \\\\ #4 & #1 \\end{pmatrix}\n\\begin{pmatrix} x \\\\ y \\end{pmatrix}\n=\n\\begin{pmatrix} #1x + #4y \\\\ #4x + #1y \\end{pmatrix}",
    "\\begin{aligned}\nf(x) &= (x + #1)^#4 \\\\\nf'(x) &= #4(x + #1)^{#4 - 1} \\\\\nf(0) &= #1^#4\n\\end{aligned}",
    "\\operatorname{LeakyReLU}(z) =\n\\begin{cases}\n  z & \\text{if } z > 0, \\\\\n  0.#5 \\, z & \\text{otherwise}\n\\end{cases}",
    "\\|\\mathbf{x}\\|_2 = \\sqrt{\\sum_{i=1}^{#2} x_i^2}",
    "\\mathbb{E}[X] = \\sum_{k=1}^{#1} k \\, p_k, \\qquad \\operatorname{Var}(X) = \\mathbb{E}[X^2] - \\mathbb{E}[X]^2",
    "\\mathcal{N}(x; #1, #4^2) = \\frac{1}{#4\\sqrt{2\\pi}} \\exp\\left(-\\frac{(x - #1)^2}{2 \\cdot #4^2}\\right)",
    "\\frac{\\partial \\mathcal{L}}{\\partial w_{#1 #4}} = \\sum_{k=1}^{#2} \\frac{\\partial \\mathcal{L}}{\\partial a_k} \\, \\frac{\\partial a_k}{\\partial w_{#1 #4}}",
    "D_{\\mathrm{KL}}(p \\parallel q) = \\sum_{i=1}^{#2} p_i \\log \\frac{p_i}{q_i} \\ge 0",
    "C_{ij} = \\sum_{k=1}^{#2} A_{ik} B_{kj}, \\qquad C \\in \\mathbb{R}^{#5 \\times #2}",
    "f(x + h) = f(x) + h f'(x) + \\frac{h^2}{2} f''(x) + \\mathcal{O}(h^{#4})",
    "p(\\theta \\mid \\mathcal{D}) = \\frac{p(\\mathcal{D} \\mid \\theta) \\, p(\\theta)}{p(\\mathcal{D})}",
    "\\mathbf{h}_t = \\tanh\\left(W_{hh} \\mathbf{h}_{t-1} + W_{xh} \\mathbf{x}_t + \\mathbf{b}\\right), \\quad \\mathbf{h}_t \\in \\mathbb{R}^{#3}",
    "PE_{(pos, 2i)} = \\sin\\left(\\frac{pos}{10000^{2i/#3}}\\right)",
    "\\operatorname{LayerNorm}(\\mathbf{x}) = \\gamma \\odot \\frac{\\mathbf{x} - \\mu}{\\sqrt{\\sigma^2 + 10^{-#1}}} + \\beta",
    "\\int_{-\\infty}^{\\infty} e^{-x^2/#1} \\, dx = \\sqrt{#1\\pi}",
    "\\mathrm{PPL} = \\exp\\left(-\\frac{1}{#3} \\sum_{t=1}^{#3} \\log p(x_t \\mid x_{<t})\\right)",
    "W' = W + \\frac{\\alpha}{#1} B A, \\quad B \\in \\mathbb{R}^{#3 \\times #1}, \\; A \\in \\mathbb{R}^{#1 \\times #3}",
    "m_t = 0.9 \\, m_{t-1} + 0.1 \\, g_t, \\qquad v_t = 0.999 \\, v_{t-1} + 0.001 \\, g_t^2",
    "\\cos\\theta = \\frac{\\mathbf{u} \\cdot \\mathbf{v}}{\\|\\mathbf{u}\\| \\, \\|\\mathbf{v}\\|} = 0.#2",
    "\\sum_{k=1}^{#2} k = \\frac{#2 \\cdot (#2 + 1)}{2}",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_is_deterministic_and_large_enough() {
        let a = generate(60);
        let b = generate(60);
        assert_eq!(a.chapters.len(), 60);
        assert!(a.formulas() >= 4000, "{} formulas", a.formulas());
        assert_eq!(a.formulas(), b.formulas());
        for (x, y) in a.chapters.iter().zip(&b.chapters) {
            assert_eq!(x.content, y.content);
        }
        let dollars: usize = a
            .chapters
            .iter()
            .map(|c| c.content.matches('$').count())
            .sum();
        assert_eq!(dollars, 2 * a.inline + 4 * a.display);
        eprintln!(
            "{} formulas ({} inline, {} display), {} bytes",
            a.formulas(),
            a.inline,
            a.display,
            a.markdown_bytes()
        );
    }
}
