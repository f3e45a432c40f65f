//! `[preprocessor.mathcourse]` options from `book.toml`.
//!
//! The table is deserialized with serde and `deny_unknown_fields`, so a typo is an
//! error that names the key and lists the valid ones. Option names shared with
//! mdbook-katex mean the same thing here, so a book switches over by renaming its
//! `[preprocessor.katex]` header; the mdbook-katex options we do not support are
//! accepted and reported as warnings (see [`Config::compat_warnings`]).

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, Result};
use serde::Deserialize;

/// Name of the preprocessor, as used in `[preprocessor.mathcourse]`.
pub const NAME: &str = "mathcourse";

/// What happens when a formula fails to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnError {
    /// The build fails with a located diagnostic (default).
    #[default]
    Fail,
    /// The build succeeds; the page shows a red error box and a warning is printed.
    Warn,
}

/// What a letter in an inspectable formula that no symbol defines does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UndefinedSymbols {
    /// A located warning (default).
    #[default]
    Warn,
    /// A located error: the build fails.
    Error,
    /// Nothing.
    Allow,
}

/// KaTeX output format (mdbook-katex's `output` option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
pub enum Output {
    /// Visual HTML only.
    #[serde(rename = "html")]
    Html,
    /// MathML only.
    #[serde(rename = "mathml")]
    Mathml,
    /// Both (default): HTML for the eye, MathML for screen readers.
    #[default]
    #[serde(rename = "htmlAndMathml")]
    HtmlAndMathml,
}

/// Book-wide macros: a path to a macros file (mdbook-katex's format) or an inline table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum MacrosConfig {
    /// `macros = "macros.txt"`: a file relative to the book root, one `\name:expansion` per line.
    File(PathBuf),
    /// `[preprocessor.mathcourse.macros]` with `"\\R" = "\\mathbb{R}"` entries.
    Table(BTreeMap<String, String>),
}

/// A custom delimiter pair (mdbook-katex's `block-delimiter` / `inline-delimiter`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Delimiter {
    /// Opening delimiter.
    pub left: String,
    /// Closing delimiter.
    pub right: String,
}

/// Which rules find math in the Markdown (`delimiters`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Delimiters {
    /// `$...$` and `$$...$$` paired as mdbook-katex pairs them, plus `\(...\)` and
    /// `\[...\]` (the default without `mathjax-support`).
    MdbookKatex,
    /// What MathJax 2.7 typesets in the page mdBook makes: after Markdown, with
    /// `tex2jax`'s delimiters (`\\(`...`\\)` in the source) or the theme's (the default
    /// with `mathjax-support = true`).
    Mathjax,
    /// The `$` rules of GitHub and pulldown-cmark's math extension.
    Github,
}

impl Delimiters {
    /// The option's value as book.toml writes it.
    pub fn name(self) -> &'static str {
        match self {
            Delimiters::MdbookKatex => "mdbook-katex",
            Delimiters::Mathjax => "mathjax",
            Delimiters::Github => "github",
        }
    }
}

/// Every option of `[preprocessor.mathcourse]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct Config {
    // --- keys mdBook itself reads from every preprocessor table ---
    /// mdBook: command to run.
    pub command: Option<String>,
    /// mdBook: renderers this preprocessor runs for.
    pub renderers: Option<Vec<String>>,
    /// mdBook: run before these preprocessors.
    pub before: Option<Vec<String>>,
    /// mdBook: run after these preprocessors.
    pub after: Option<Vec<String>>,
    /// mdBook: do not fail when the command is missing.
    pub optional: Option<bool>,
    /// Not a key mdBook reads (it reads `renderers`), but real books write it (mdbook-toc's
    /// README, and books copying it): mdBook and mdbook-katex ignore it, so it is accepted
    /// and ignored, with a warning.
    pub renderer: Option<serde_json::Value>,

    // --- ours ---
    /// Fail the build on a LaTeX error (default) or warn and show an error box.
    pub on_error: OnError,
    /// Book-wide macros (file path or table).
    pub macros: Option<MacrosConfig>,
    /// Where rendered formulas are cached, relative to the book root.
    pub cache_dir: PathBuf,
    /// Set to false to render every formula on every build.
    pub cache: bool,
    /// A book-level symbols file (YAML list of symbols), relative to the book root.
    pub symbols: Option<PathBuf>,
    /// What an undefined letter in an inspectable formula does.
    pub undefined_symbols: UndefinedSymbols,
    /// "n of m sections read" under each chapter's title, kept in the reader's browser.
    pub reading_progress: bool,
    /// Which rules find math (default: `mathjax` when `[output.html] mathjax-support`
    /// is on, `mdbook-katex` otherwise).
    pub delimiters: Option<Delimiters>,

    // --- KaTeX options, same names as mdbook-katex ---
    /// KaTeX `output`.
    pub output: Output,
    /// KaTeX `leqno`: equation numbers on the left.
    pub leqno: bool,
    /// KaTeX `fleqn`: display math flush left.
    pub fleqn: bool,
    /// KaTeX `errorColor`, used by the error box of `on-error = "warn"`.
    pub error_color: String,
    /// KaTeX `minRuleThickness` (em).
    pub min_rule_thickness: Option<f64>,
    /// KaTeX `maxSize` (em). `"Infinity"`, as mdbook-katex's README writes it (KaTeX's
    /// default), is no limit.
    #[serde(deserialize_with = "number_or_infinity")]
    pub max_size: Option<f64>,
    /// KaTeX `maxExpand`.
    pub max_expand: Option<usize>,

    // --- mdbook-katex options kept for compatibility ---
    /// mdbook-katex: `throw-on-error = false` means `on-error = "warn"`.
    pub throw_on_error: Option<bool>,
    /// mdbook-katex: not supported (KaTeX trust is limited to our own commands).
    pub trust: Option<bool>,
    /// mdbook-katex: do not link KaTeX's CSS.
    pub no_css: bool,
    /// mdbook-katex: not supported.
    pub include_src: Option<bool>,
    /// mdbook-katex: only the default `$$`/`$$` is supported.
    pub block_delimiter: Option<Delimiter>,
    /// mdbook-katex: only the default `$`/`$` is supported.
    pub inline_delimiter: Option<Delimiter>,
    /// mdbook-katex: only pre-rendering (`true`) is supported.
    pub pre_render: Option<bool>,

    // --- read from the rest of book.toml, never from this table ---
    /// book.toml has an `[output.katex]` table (mdbook-katex's stand-in renderer, which
    /// its README asked for before 0.5).
    #[serde(skip)]
    pub output_katex: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            command: None,
            renderers: None,
            before: None,
            after: None,
            optional: None,
            renderer: None,
            on_error: OnError::Fail,
            macros: None,
            cache_dir: PathBuf::from(".mathcourse-cache"),
            cache: true,
            symbols: None,
            undefined_symbols: UndefinedSymbols::Warn,
            reading_progress: true,
            delimiters: None,
            output: Output::HtmlAndMathml,
            leqno: false,
            fleqn: false,
            error_color: "#cc0000".to_string(),
            min_rule_thickness: None,
            max_size: None,
            max_expand: None,
            throw_on_error: None,
            trust: None,
            no_css: false,
            include_src: None,
            block_delimiter: None,
            inline_delimiter: None,
            pre_render: None,
            output_katex: false,
        }
    }
}

impl Config {
    /// Reads `[preprocessor.mathcourse]` (a missing table means all defaults).
    pub fn from_book(config: &mdbook_preprocessor::config::Config) -> Result<Config> {
        let key = format!("preprocessor.{NAME}");
        let value: Option<serde_json::Value> = config
            .get(&key)
            .with_context(|| format!("could not read [{key}] in book.toml"))?;
        let mut out = match value {
            None => Config::default(),
            Some(value) => Config::from_json(value)
                .with_context(|| format!("invalid option in [{key}] of book.toml"))?,
        };
        out.output_katex = config
            .get::<serde_json::Value>("output.katex")
            .ok()
            .flatten()
            .is_some();
        Ok(out)
    }

    /// Deserializes the table, naming the offending key on a type error.
    pub fn from_json(value: serde_json::Value) -> Result<Config> {
        let config: Config = serde_path_to_error::deserialize(value).map_err(|err| {
            let path = err.path().to_string();
            if path == "." || path.is_empty() {
                anyhow::anyhow!("{}", err.inner())
            } else {
                anyhow::anyhow!("`{path}`: {}", err.inner())
            }
        })?;
        if !is_css_colour(&config.error_color) {
            anyhow::bail!(
                "`error-color`: `{}` is not a CSS colour; write one like \"#cc0000\", \"#c00\", \"darkred\" or \"rgb(204, 0, 0)\"",
                config.error_color.escape_default()
            );
        }
        Ok(config)
    }

    /// The effective error policy: `on-error`, or mdbook-katex's `throw-on-error = false`.
    pub fn error_policy(&self) -> OnError {
        match (self.on_error, self.throw_on_error) {
            (OnError::Fail, Some(false)) => OnError::Warn,
            (policy, _) => policy,
        }
    }

    /// Warnings for mdbook-katex options that are accepted but not supported.
    pub fn compat_warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.trust == Some(true) {
            out.push("`trust = true` is not supported and was ignored: KaTeX trust is granted only to the commands mathcourse itself emits (author-written \\href, \\url, \\includegraphics and \\htmlData stay untrusted)".to_string());
        }
        if self.include_src == Some(true) {
            out.push("`include-src` is not supported and was ignored: the TeX source is already kept in the MathML annotation of every formula".to_string());
        }
        if let Some(d) = &self.block_delimiter {
            if d.left != "$$" || d.right != "$$" {
                out.push(format!("`block-delimiter = {{ left = {:?}, right = {:?} }}` is not supported and was ignored: display math is `$$...$$` or `\\[...\\]`", d.left, d.right));
            }
        }
        if let Some(d) = &self.inline_delimiter {
            if d.left != "$" || d.right != "$" {
                out.push(format!("`inline-delimiter = {{ left = {:?}, right = {:?} }}` is not supported and was ignored: inline math is `$...$` or `\\(...\\)`", d.left, d.right));
            }
        }
        if let Some(r) = &self.renderer {
            out.push(format!("`renderer = {r}` was ignored, as mdBook and mdbook-katex ignore it: mdBook reads `renderers` (with an s), so mathcourse runs for every renderer; write `renderers = {r}` if that is what was meant"));
        }
        if self.output_katex {
            // Renamed from `[preprocessor.katex]`, an old book keeps this table: mdBook then
            // runs `mdbook-katex` as a second renderer, which fails the build after the HTML
            // is written when mdbook-katex is gone, and moves the HTML to `book/html/`.
            out.push("`[output.katex]` in book.toml makes mdBook run `mdbook-katex` as a second renderer after the HTML: the build fails there when mdbook-katex is not installed (\"The command `mdbook-katex` wasn't found\"), and with two renderers the HTML is written to `book/html/` instead of `book/`. Remove the `[output.katex]` table: mdbook-katex's README asked for it before version 0.5, and mathcourse needs nothing there".to_string());
        }
        if self.pre_render == Some(false) {
            out.push("`pre-render = false` (escape mode) is not supported and was ignored: mathcourse always renders at build time".to_string());
        }
        out
    }

    /// A stable text describing every option that changes rendered output (part of the cache key).
    pub fn render_fingerprint(&self) -> String {
        format!(
            "output={:?};leqno={};fleqn={};mrt={:?};max-size={:?};max-expand={:?}",
            self.output,
            self.leqno,
            self.fleqn,
            self.min_rule_thickness,
            self.max_size,
            self.max_expand
        )
    }
}

/// A number, or the string `"Infinity"` (any case; also `"inf"`), which means no limit:
/// mdbook-katex's README writes `max-size = "Infinity"` and mdbook-katex accepts it.
fn number_or_infinity<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NumberOrText {
        Number(f64),
        Text(String),
    }
    match Option::<NumberOrText>::deserialize(d)? {
        None => Ok(None),
        Some(NumberOrText::Number(n)) if n.is_infinite() && n > 0.0 => Ok(None),
        Some(NumberOrText::Number(n)) => Ok(Some(n)),
        Some(NumberOrText::Text(s)) => {
            let t = s.trim();
            if ["infinity", "+infinity", "inf", "+inf"].contains(&t.to_ascii_lowercase().as_str()) {
                Ok(None)
            } else {
                t.parse().map(Some).map_err(|_| {
                    serde::de::Error::custom(format!(
                        "`max-size = {s:?}`: expected a number of em, or \"Infinity\" for no limit"
                    ))
                })
            }
        }
    }
}

/// A CSS colour as `error-color` accepts it: `#` and 3, 4, 6 or 8 hex digits, a colour
/// name (letters only), or `rgb()`/`rgba()`/`hsl()`/`hsla()` of numbers. The value goes
/// into a `style` attribute, so nothing else (no `;`, quotes or `url(`) gets through.
pub fn is_css_colour(value: &str) -> bool {
    if let Some(hex) = value.strip_prefix('#') {
        return matches!(hex.len(), 3 | 4 | 6 | 8) && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    if !value.is_empty() && value.len() <= 32 && value.bytes().all(|b| b.is_ascii_alphabetic()) {
        return true;
    }
    let lower = value.to_ascii_lowercase();
    ["rgb(", "rgba(", "hsl(", "hsla("].iter().any(|f| {
        lower
            .strip_prefix(f)
            .and_then(|r| r.strip_suffix(')'))
            .is_some_and(|args| {
                args.len() <= 64
                    && args.bytes().all(|b| {
                        b.is_ascii_digit() || b" .,%/+-".contains(&b) || b"degturn".contains(&b)
                    })
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn empty_table_is_default() {
        assert_eq!(Config::from_json(json!({})).unwrap(), Config::default());
    }

    #[test]
    fn unknown_key_names_the_key_and_lists_valid_ones() {
        let err = Config::from_json(json!({"on-eror": "warn"})).unwrap_err();
        let msg = format!("{err:#}");
        assert!(msg.contains("unknown field `on-eror`"), "{msg}");
        assert!(msg.contains("`on-error`"), "{msg}");
        assert!(msg.contains("`macros`"), "{msg}");
    }

    #[test]
    fn reading_progress_is_on_unless_turned_off() {
        assert!(Config::default().reading_progress);
        let off = Config::from_json(json!({"reading-progress": false})).unwrap();
        assert!(!off.reading_progress);
        let err = Config::from_json(json!({"reading-progress": "no"})).unwrap_err();
        assert!(
            format!("{err:#}").starts_with("`reading-progress`"),
            "{err:#}"
        );
    }

    #[test]
    fn wrong_type_names_the_key() {
        let err = Config::from_json(json!({"leqno": "yes"})).unwrap_err();
        let msg = format!("{err:#}");
        assert!(msg.starts_with("`leqno`"), "{msg}");
        assert!(msg.contains("expected a boolean"), "{msg}");
    }

    #[test]
    fn bad_enum_value_lists_variants() {
        let err = Config::from_json(json!({"on-error": "ignore"})).unwrap_err();
        let msg = format!("{err:#}");
        assert!(
            msg.contains("`on-error`") && msg.contains("`fail`") && msg.contains("`warn`"),
            "{msg}"
        );
    }

    /// mdbook-katex's README block, copied into real books' book.toml, writes
    /// `max-size = "Infinity"`; it failed the build ("expected f64").
    #[test]
    fn max_size_infinity_as_mdbook_katex_writes_it_is_no_limit() {
        for v in [json!("Infinity"), json!("inf"), json!(null)] {
            let cfg = Config::from_json(json!({ "max-size": v })).unwrap();
            assert_eq!(cfg.max_size, None, "{v}");
        }
        let cfg = Config::from_json(json!({ "max-size": 12.5 })).unwrap();
        assert_eq!(cfg.max_size, Some(12.5));
        let cfg = Config::from_json(json!({ "max-size": "20" })).unwrap();
        assert_eq!(cfg.max_size, Some(20.0));
        let err = Config::from_json(json!({ "max-size": "huge" })).unwrap_err();
        let msg = format!("{err:#}");
        assert!(msg.contains("\"Infinity\" for no limit"), "{msg}");
    }

    #[test]
    fn mdbook_katex_table_is_accepted() {
        let cfg = Config::from_json(json!({
            "after": ["links"],
            "renderers": ["html"],
            "macros": "macros.txt",
            "output": "html",
            "throw-on-error": false,
            "error-color": "#ff0000",
            "min-rule-thickness": 0.05,
            "max-size": 10.0,
            "max-expand": 100,
            "no-css": false,
            "trust": true,
            "include-src": true,
            "block-delimiter": {"left": "$$", "right": "$$"},
            "inline-delimiter": {"left": "\\(", "right": "\\)"},
            "pre-render": true
        }))
        .unwrap();
        assert_eq!(cfg.macros, Some(MacrosConfig::File("macros.txt".into())));
        assert_eq!(cfg.error_policy(), OnError::Warn);
        let warnings = cfg.compat_warnings();
        assert_eq!(warnings.len(), 3, "{warnings:?}");
    }

    /// A book renamed from mdbook-katex that kept `[output.katex]` (its README asked for it
    /// before 0.5, and real books still have it) is told to remove it: mdBook would run
    /// `mdbook-katex` as a renderer, failing the build once it is uninstalled. Found on a
    /// real mdbook-katex book.
    #[test]
    fn an_output_katex_table_is_a_warning() {
        let with = |toml: &str| {
            let book: mdbook_preprocessor::config::Config = toml.parse().unwrap();
            Config::from_book(&book).unwrap().compat_warnings()
        };
        let warned = with("[book]\ntitle = \"t\"\n[output.katex]\n[preprocessor.mathcourse]\n");
        assert_eq!(warned.len(), 1, "{warned:?}");
        assert!(
            warned[0].contains("Remove the `[output.katex]` table"),
            "{warned:?}"
        );
        assert!(
            with("[book]\ntitle = \"t\"\n[output.html]\n[preprocessor.mathcourse]\n").is_empty()
        );
        assert!(with("[book]\ntitle = \"t\"\n[output.katex]\n").len() == 1);
    }

    /// `renderer = [\"html\"]` (no s), as in mdbook-toc's README and a real mdbook-katex book
    /// that copied it: mdBook and mdbook-katex ignore it, so it must not fail the build;
    /// the warning names the key mdBook reads.
    #[test]
    fn a_renderer_key_is_ignored_with_a_warning() {
        let cfg = Config::from_json(json!({ "renderer": ["html"] })).unwrap();
        let warnings = cfg.compat_warnings();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("write `renderers = [\"html\"]`"),
            "{warnings:?}"
        );
        assert_eq!(cfg.renderers, None);
    }

    #[test]
    fn macros_table() {
        let cfg = Config::from_json(json!({"macros": {"\\R": "\\mathbb{R}"}})).unwrap();
        assert!(matches!(cfg.macros, Some(MacrosConfig::Table(t)) if t["\\R"] == "\\mathbb{R}"));
    }

    #[test]
    fn error_color_accepts_only_a_css_colour() {
        for ok in [
            "#cc0000",
            "#c00",
            "#cc000080",
            "darkred",
            "rgb(204, 0, 0)",
            "hsla(0, 100%, 40%, 0.5)",
        ] {
            assert!(
                Config::from_json(json!({"error-color": ok})).is_ok(),
                "{ok}"
            );
        }
        for bad in [
            "red; background: url(https://x)",
            "\"><script>",
            "#ggg",
            "",
            "rgb(1,2,3);x:y",
            "expression(alert(1))",
            "dark red",
        ] {
            let err = Config::from_json(json!({"error-color": bad})).unwrap_err();
            assert!(
                format!("{err:#}").starts_with("`error-color`"),
                "{bad}: {err:#}"
            );
        }
    }
}
