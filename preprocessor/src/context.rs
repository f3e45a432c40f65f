//! What the whole book shares while its chapters render: settings, the formula cache,
//! templates, and what the book-wide pass collected (equation labels, symbols, claims,
//! module numbers). Plain data, below the directives and the chapter pipeline: every
//! layer may read it, none of it renders anything.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use crate::cache::Cache;
use crate::config::{OnError, UndefinedSymbols};
use crate::math::MathOptions;
use crate::notation::Notation;
use crate::templates::Templates;

/// Where an equation label points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// Chapter path inside `src/` (e.g. `toolkit/softmax.md`).
    pub chapter: PathBuf,
    /// The shown number, e.g. `6.3`.
    pub number: String,
    /// Where it was defined (for duplicate errors).
    pub defined_at: String,
}

/// Labels of the whole book, collected before rendering.
pub type Labels = HashMap<String, Label>;

/// Book-wide settings every chapter shares.
#[derive(Debug)]
pub struct BookContext {
    /// Render options with the book-wide macros.
    pub options: MathOptions,
    /// Fingerprint of `options` (cache key part).
    pub fingerprint: String,
    /// What a LaTeX error does.
    pub on_error: OnError,
    /// Colour of the error box.
    pub error_color: String,
    /// The formula cache.
    pub cache: Cache,
    /// What the top of each chapter links (KaTeX's stylesheet, reading progress).
    pub head: crate::assets::Head,
    /// Directive templates.
    pub templates: Templates,
    /// Equation labels of the whole book.
    pub labels: Labels,
    /// Symbols and claims of the whole book.
    pub notation: Notation,
    /// The chapter (path inside `src/`) of each module number set in front matter
    /// (`module: 7`): prerequisites link to it, and its equations are numbered `7.n`.
    pub modules: BTreeMap<u32, PathBuf>,
    /// What an undefined letter in an inspectable formula does.
    pub undefined_symbols: UndefinedSymbols,
    /// Render options and fingerprint of each chapter with front-matter macros, for
    /// typesetting its symbols on other pages (see [`BookContext::with_chapter_macros`]).
    pub chapter_options: HashMap<PathBuf, (MathOptions, String)>,
    /// MathJax's rules, when the book's math is read the way MathJax reads it.
    pub mathjax: Option<crate::mathjax::Tex2jax>,
    /// How `$` delimits math (when not read as MathJax reads it).
    pub dollars: crate::scan::Dollars,
}

impl BookContext {
    /// The context of a book with default options, no cache, the built-in templates and
    /// no other chapters: for rendering one chapter on its own (tests, the fuzzer).
    pub fn standalone(on_error: OnError) -> BookContext {
        let options = MathOptions::default();
        BookContext {
            fingerprint: options.fingerprint(),
            options,
            on_error,
            error_color: "#cc0000".into(),
            cache: Cache::new(None),
            head: crate::assets::Head::default(),
            templates: Templates::builtin(),
            labels: Labels::new(),
            notation: Notation::default(),
            modules: Default::default(),
            undefined_symbols: UndefinedSymbols::Warn,
            chapter_options: Default::default(),
            mathjax: None,
            dollars: Default::default(),
        }
    }

    /// Adds what the book-wide pass found: the equation labels, the notation and the
    /// module numbers (and the options of each chapter with macros).
    pub fn with_book_wide(
        self,
        labels: Labels,
        notation: Notation,
        modules: BTreeMap<u32, PathBuf>,
    ) -> BookContext {
        BookContext {
            labels,
            notation,
            modules,
            ..self
        }
        .with_chapter_macros()
    }

    /// Fills [`BookContext::chapter_options`] from the chapters' front-matter macros
    /// the notation collector found.
    pub fn with_chapter_macros(mut self) -> BookContext {
        self.chapter_options = self
            .notation
            .chapter_macros
            .iter()
            .map(|(path, macros)| {
                let mut options = self.options.clone();
                options.macros.extend(macros.clone());
                let fingerprint = options.fingerprint();
                (path.clone(), (options, fingerprint))
            })
            .collect();
        self
    }
}
