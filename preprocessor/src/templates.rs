//! HTML templates (tera), one per directive, overridable by the book author.
//!
//! The defaults live in `preprocessor/templates/<name>.html` and are embedded in the
//! binary. A book overrides one by putting a file of the same name in
//! `<book root>/mathcourse-templates/`. Templates are autoescaped: author text can only
//! reach the page through a variable, and is escaped unless the directive passes
//! pre-rendered safe HTML (the `*_html` variables).
//!
//! Markdown that mdBook must still render (a directive's body, a code block) is passed
//! as a *slot*: the template writes `{{ body }}` on a line of its own, and the output is
//! assembled as HTML, a blank line, the Markdown, a blank line, HTML. The HTML parts have
//! their empty lines removed so that Markdown sees each of them as one raw HTML block:
//! every HTML part must therefore start with a block-level tag (`<div>`, `<aside>`,
//! `<figure>`, `<details>`, `<p>`, a closing tag, ...).

use std::path::Path;

use tera::{Context, Tera};

/// Directory (relative to the book root) where an author's templates override ours.
pub const OVERRIDE_DIR: &str = "mathcourse-templates";

// `BUILTIN`: every `templates/*.html`, by file name (written by `build.rs`).
include!(concat!(env!("OUT_DIR"), "/templates.rs"));

/// Markdown to place at `{{ name }}` in a template.
#[derive(Debug, Clone)]
pub struct Slot {
    /// Variable name in the template.
    pub name: &'static str,
    /// Markdown (already processed by mathcourse).
    pub markdown: String,
}

impl Slot {
    /// A slot.
    pub fn new(name: &'static str, markdown: String) -> Slot {
        Slot { name, markdown }
    }
}

/// The loaded templates of a book.
#[derive(Debug)]
pub struct Templates {
    /// One engine per template of [`BUILTIN`], in its order, each holding that
    /// template alone: a built-in is compiled when a directive first uses it (most
    /// books use a few, a book without directives none: compiling all of them was a
    /// fifth of a warm rebuild of such a book); an override is compiled at load, where
    /// its errors are reported.
    compiled: Vec<std::sync::OnceLock<Tera>>,
    /// Names overridden by the book (for messages).
    pub overridden: Vec<String>,
    /// BLAKE3 of every override's name and text (a chapter's page depends on them).
    pub overrides_digest: [u8; 32],
}

const MARK: char = '\u{1}';

/// An engine with nothing in it yet, as every template gets it: autoescaped, and
/// without side doors: no environment (CI secrets), no clock or randomness (builds stay
/// reproducible). Tera has no function that reads files.
fn engine() -> Tera {
    let mut tera = Tera::default();
    tera.autoescape_on(vec![".html"]);
    for name in ["get_env", "now", "get_random"] {
        tera.register_function(name, RefusedFunction(name));
    }
    tera
}

/// The built-in template `BUILTIN[index]`, compiled.
fn compile_builtin(index: usize) -> Tera {
    let (name, text) = BUILTIN[index];
    let mut tera = engine();
    if let Err(e) = tera.add_raw_template(name, text) {
        // The built-in templates are compiled in and tested.
        unreachable!("built-in template {name}: {e}");
    }
    tera
}

impl Templates {
    /// The built-in templates only.
    pub fn builtin() -> Templates {
        Templates {
            compiled: BUILTIN.iter().map(|_| std::sync::OnceLock::new()).collect(),
            overridden: Vec::new(),
            overrides_digest: [0; 32],
        }
    }

    /// Built-in templates, then the book's overrides from `<root>/mathcourse-templates/`.
    pub fn load(book_root: &Path) -> anyhow::Result<Templates> {
        let Templates { compiled, .. } = Templates::builtin();
        let mut overridden = Vec::new();
        let mut digest = blake3::Hasher::new();
        let dir = book_root.join(OVERRIDE_DIR);
        if std::fs::symlink_metadata(&dir).is_ok() {
            // The folder itself may not be a link out of the book.
            crate::book_fs::resolve(book_root, Path::new(OVERRIDE_DIR), "template overrides")?;
        }
        if let Ok(entries) = std::fs::read_dir(&dir) {
            let mut entries: Vec<_> = entries.flatten().collect();
            entries.sort_by_key(|e| e.file_name());
            for entry in entries {
                let name = entry.file_name().to_string_lossy().to_string();
                let Some(index) = BUILTIN.iter().position(|(n, _)| *n == name) else {
                    anyhow::bail!(
                        "{}/{name}: no directive uses a template of this name; the templates are: {}",
                        OVERRIDE_DIR,
                        BUILTIN.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                    );
                };
                let rel = Path::new(OVERRIDE_DIR).join(&name);
                let full = crate::book_fs::resolve(book_root, &rel, "template override")?;
                let shown = format!("{OVERRIDE_DIR}/{name}");
                let text = crate::book_fs::read_limited(&full, &shown, "template override")?;
                if let Some(tag) = refused_tag(&text) {
                    anyhow::bail!(
                        "{shown}: `{{% {tag} %}}` is not available in template overrides (a template that includes itself would never finish)\n  help: write the markup into this template itself"
                    );
                }
                let mut tera = engine();
                tera.add_raw_template(&name, &text)
                    .map_err(|e| anyhow::anyhow!("{}/{name}: {}", OVERRIDE_DIR, error_text(&e)))?;
                // Each name is listed once in a folder: the slot is still empty.
                let _ = compiled[index].set(tera);
                digest.update(format!("{}:{name}:{}:", name.len(), text.len()).as_bytes());
                digest.update(text.as_bytes());
                overridden.push(name);
            }
        }
        Ok(Templates {
            compiled,
            overridden,
            overrides_digest: *digest.finalize().as_bytes(),
        })
    }

    /// Renders `name` (without `.html`) and assembles HTML and Markdown slots.
    pub fn render(
        &self,
        name: &str,
        mut context: Context,
        slots: Vec<Slot>,
    ) -> Result<String, String> {
        for slot in &slots {
            context.insert(slot.name, &format!("{MARK}{}{MARK}", slot.name));
        }
        let file = format!("{name}.html");
        let render = |tera: &Tera| tera.render(&file, &context).map_err(|e| error_text(&e));
        let text = match BUILTIN.iter().position(|(n, _)| *n == file) {
            Some(i) => render(self.compiled[i].get_or_init(|| compile_builtin(i)))?,
            // No such template: fails as a missing template does.
            None => render(&engine())?,
        };
        let mut out = String::from("\n");
        for (i, part) in text.split(MARK).enumerate() {
            if i % 2 == 0 {
                let html: Vec<&str> = part.lines().filter(|l| !l.trim().is_empty()).collect();
                if !html.is_empty() {
                    if !out.ends_with('\n') {
                        out.push('\n');
                    }
                    out.push_str(&html.join("\n"));
                    out.push('\n');
                }
            } else {
                let md = slots
                    .iter()
                    .find(|s| s.name == part)
                    .map(|s| s.markdown.trim_matches('\n'))
                    .unwrap_or("");
                if !md.trim().is_empty() {
                    out.push('\n');
                    out.push_str(md);
                    out.push_str("\n\n");
                }
            }
        }
        Ok(out)
    }
}

/// A tera function that author templates may not call; calling it is a render error.
struct RefusedFunction(&'static str);

impl tera::Function for RefusedFunction {
    fn call(
        &self,
        _: &std::collections::HashMap<String, tera::Value>,
    ) -> tera::Result<tera::Value> {
        Err(tera::Error::msg(format!(
            "`{}()` is not available in mathcourse templates",
            self.0
        )))
    }
}

/// The first `{% include/import/extends/macro %}` tag of a template override, if any:
/// each can recurse without end (a template that includes itself), so overrides are
/// single, self-contained templates.
fn refused_tag(text: &str) -> Option<&'static str> {
    let mut rest = text;
    while let Some(at) = rest.find("{%") {
        rest = &rest[at + 2..];
        let word: String = rest
            .trim_start_matches(['-', '+'])
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        for tag in ["include", "import", "extends", "macro"] {
            if word == tag {
                return Some(tag);
            }
        }
    }
    None
}

fn error_text(e: &tera::Error) -> String {
    let mut msg = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        source = s.source();
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book_with(name: &str, text: &str) -> tempfile::TempDir {
        let book = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(book.path().join(OVERRIDE_DIR)).unwrap();
        std::fs::write(book.path().join(OVERRIDE_DIR).join(name), text).unwrap();
        book
    }

    #[test]
    fn every_builtin_template_compiles() {
        // `render` compiles a built-in on first use; compile them all here.
        for (i, (name, _)) in BUILTIN.iter().enumerate() {
            let tera = compile_builtin(i);
            assert!(tera.get_template_names().any(|n| n == *name));
        }
    }

    #[test]
    fn overrides_cannot_read_the_environment() {
        let book = book_with("claim.html", "<p>{{ get_env(name=\"HOME\") }}</p>");
        let templates = Templates::load(book.path()).unwrap();
        let err = templates
            .render("claim", Context::new(), Vec::new())
            .unwrap_err();
        assert!(err.contains("`get_env()` is not available"), "{err}");
    }

    #[test]
    fn overrides_cannot_include_or_recurse() {
        for text in [
            "{% include \"claim.html\" %}",
            "{%- import \"m.html\" as m -%}",
            "{% extends \"claim.html\" %}",
            "{% macro f() %}{{ self::f() }}{% endmacro f %}",
        ] {
            let book = book_with("claim.html", text);
            let err = format!("{:#}", Templates::load(book.path()).unwrap_err());
            assert!(
                err.contains("not available in template overrides"),
                "{text}: {err}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_linked_override_out_of_the_book_is_refused() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("host"), "secret-host").unwrap();
        let book = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(book.path().join(OVERRIDE_DIR)).unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("host"),
            book.path().join(OVERRIDE_DIR).join("claim.html"),
        )
        .unwrap();
        let err = format!("{:#}", Templates::load(book.path()).unwrap_err());
        assert!(
            err.contains("outside the book") && !err.contains("secret-host"),
            "{err}"
        );
        // The folder itself linked out of the book.
        let book = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), book.path().join(OVERRIDE_DIR)).unwrap();
        assert!(Templates::load(book.path()).is_err());
    }
}
