//! mdBook's preprocessor protocol, in both versions in use: `[context, book]` as JSON on
//! standard input, the book back on standard output, in the shape it came in.
//!
//! mdBook 0.5 sends `{"items": [...]}`; mdBook 0.4 sends `{"sections": [...],
//! "__non_exhaustive": null}` and a context whose configuration holds keys 0.5 no longer
//! accepts (`book.multilingual`). Chapters, separators and part titles are the same in
//! both. The answer goes back in the version that came in.

use anyhow::{anyhow, bail, Context, Result};
use mdbook_preprocessor::book::Book;
use mdbook_preprocessor::PreprocessorContext;
use serde_json::Value;

/// Which protocol mdBook spoke.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// mdBook 0.4 (`sections`).
    V04,
    /// mdBook 0.5 (`items`).
    V05,
}

/// The mdBook versions this binary speaks, as `--version` and `supports` say it.
pub const SPEAKS: &str = "mdBook 0.4.x (0.4.52 tested) and 0.5.x (0.5.4 tested)";

/// True when mdBook `version`, which sent its book in `protocol`, is one this binary
/// speaks: a 0.4 release with 0.4's shape, or a 0.5 release with 0.5's.
pub fn speaks(version: &str, protocol: Protocol) -> bool {
    match protocol {
        Protocol::V04 => version.starts_with("0.4."),
        Protocol::V05 => version.starts_with("0.5."),
    }
}

/// The book as either protocol sends it, read straight into chapters (the
/// `__non_exhaustive` of 0.4 is ignored).
#[derive(serde::Deserialize)]
struct EitherBook {
    items: Option<Vec<mdbook_preprocessor::book::BookItem>>,
    sections: Option<Vec<mdbook_preprocessor::book::BookItem>>,
}

/// Reads `[context, book]` in either protocol.
pub fn read(input: &str) -> Result<(PreprocessorContext, Book, Protocol)> {
    // The usual case in one pass, the chapters' text copied once; anything unusual goes
    // the long way, which explains what is wrong.
    if let Ok((ctx, book)) = serde_json::from_str::<(Value, EitherBook)>(input) {
        let (items, protocol) = match book {
            EitherBook {
                items: Some(items), ..
            } => (Some(items), Protocol::V05),
            EitherBook {
                sections: Some(sections),
                ..
            } => (Some(sections), Protocol::V04),
            _ => (None, Protocol::V05),
        };
        if let Some(items) = items {
            if let Ok(ctx) = context(ctx, protocol) {
                return Ok((ctx, Book::new_with_items(items), protocol));
            }
        }
    }
    read_slowly(input)
}

/// The context, with what mdBook 0.4 sends and 0.5 no longer accepts removed.
fn context(mut ctx: Value, protocol: Protocol) -> Result<PreprocessorContext> {
    if protocol == Protocol::V04 {
        if let Some(Value::Object(b)) = ctx.get_mut("config").and_then(|c| c.get_mut("book")) {
            b.remove("multilingual");
        }
        if let Value::Object(c) = &mut ctx {
            c.remove("__non_exhaustive");
        }
    }
    Ok(serde_json::from_value(ctx)?)
}

/// [`read`] through a JSON tree, with a message for each way the input can be wrong.
fn read_slowly(input: &str) -> Result<(PreprocessorContext, Book, Protocol)> {
    let value: Value =
        serde_json::from_str(input).context("Unable to parse the input: not JSON")?;
    let Value::Array(mut pair) = value else {
        bail!("Unable to parse the input: expected `[context, book]`");
    };
    if pair.len() != 2 {
        bail!("Unable to parse the input: expected `[context, book]`");
    }
    let mut book = pair.pop().unwrap_or_default();
    let mut ctx = pair.pop().unwrap_or_default();
    let version = ctx
        .get("mdbook_version")
        .and_then(Value::as_str)
        .unwrap_or("unknown")
        .to_string();
    let protocol = match &book {
        Value::Object(o) if o.contains_key("items") => Protocol::V05,
        Value::Object(o) if o.contains_key("sections") => Protocol::V04,
        _ => bail!(
            "mdBook {version} sent a book in a protocol this preprocessor does not know (neither mdBook 0.5's `items` nor mdBook 0.4's `sections`); mathcourse reads mdBook 0.4 and 0.5: use one of them"
        ),
    };
    if protocol == Protocol::V04 {
        if let Value::Object(o) = &mut book {
            if let Some(sections) = o.remove("sections") {
                o.insert("items".into(), sections);
            }
            o.remove("__non_exhaustive");
        }
        if let Some(Value::Object(b)) = ctx.get_mut("config").and_then(|c| c.get_mut("book")) {
            b.remove("multilingual");
        }
        if let Value::Object(c) = &mut ctx {
            c.remove("__non_exhaustive");
        }
    }
    let ctx: PreprocessorContext = serde_json::from_value(ctx).map_err(|e| {
        anyhow!("Unable to parse the input from mdBook {version}: the context: {e}")
    })?;
    let book: Book = serde_json::from_value(book)
        .map_err(|e| anyhow!("Unable to parse the input from mdBook {version}: the book: {e}"))?;
    Ok((ctx, book, protocol))
}

/// The book as JSON in `protocol`.
pub fn write(book: &Book, protocol: Protocol) -> Result<String> {
    let mut out = Vec::new();
    write_to(book, protocol, &mut out)?;
    Ok(String::from_utf8(out)?)
}

/// Writes the book as JSON in `protocol` to `out`, serialized straight from the book
/// (no JSON tree, no string of the whole book in between); give it a buffered writer.
pub fn write_to(book: &Book, protocol: Protocol, out: impl std::io::Write) -> Result<()> {
    match protocol {
        Protocol::V05 => serde_json::to_writer(out, book)?,
        Protocol::V04 => {
            /// mdBook 0.4's shape of a book.
            #[derive(serde::Serialize)]
            struct V04<'a> {
                sections: &'a [mdbook_preprocessor::book::BookItem],
                __non_exhaustive: (),
            }
            serde_json::to_writer(
                out,
                &V04 {
                    sections: &book.items,
                    __non_exhaustive: (),
                },
            )?
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn speaks_the_two_release_lines() {
        assert!(super::speaks("0.4.52", Protocol::V04));
        assert!(super::speaks("0.5.0", Protocol::V05));
        assert!(!super::speaks("0.6.0", Protocol::V05));
        assert!(
            !super::speaks("0.5.4", Protocol::V04),
            "a 0.5 version in 0.4's shape"
        );
        assert!(!super::speaks("1.0.0", Protocol::V05));
    }

    use super::*;

    const V04: &str = r#"[{"root":"/b","config":{"book":{"authors":[],"language":"en","multilingual":false,"src":"src","title":"T"},"output":{"html":{}},"preprocessor":{"mathcourse":{}}},"renderer":"html","mdbook_version":"0.4.52","__non_exhaustive":null},
      {"sections":[{"Chapter":{"name":"A","content":"$x$","number":[1],"sub_items":[],"path":"a.md","source_path":"a.md","parent_names":[]}},"Separator",{"PartTitle":"P"}],"__non_exhaustive":null}]"#;

    #[test]
    fn reads_mdbook_04_and_answers_in_its_shape() {
        let (ctx, book, protocol) = read(V04).unwrap();
        assert_eq!(protocol, Protocol::V04);
        assert_eq!(ctx.mdbook_version, "0.4.52");
        assert_eq!(book.items.len(), 3);
        let out: Value = serde_json::from_str(&write(&book, protocol).unwrap()).unwrap();
        assert_eq!(out["sections"].as_array().unwrap().len(), 3);
        assert_eq!(out["sections"][1], "Separator");
        assert_eq!(out["sections"][2]["PartTitle"], "P");
        assert!(out.get("items").is_none());
        assert!(out["__non_exhaustive"].is_null());
    }

    #[test]
    fn reads_mdbook_05_and_answers_in_its_shape() {
        let v05 = V04
            .replace("\"sections\"", "\"items\"")
            .replace(",\"__non_exhaustive\":null", "")
            .replace("\"multilingual\":false,", "")
            .replace("0.4.52", "0.5.4");
        let (_, book, protocol) = read(&v05).unwrap();
        assert_eq!(protocol, Protocol::V05);
        let out: Value = serde_json::from_str(&write(&book, protocol).unwrap()).unwrap();
        assert_eq!(out["items"].as_array().unwrap().len(), 3);
        assert!(out.get("sections").is_none());
    }

    #[test]
    fn an_unknown_protocol_names_both_versions() {
        let err = read(r#"[{"mdbook_version":"0.9.0"},{"chapters":[]}]"#).unwrap_err();
        let text = format!("{err:#}");
        assert!(text.contains("mdBook 0.9.0"), "{text}");
        assert!(
            text.contains("mdBook 0.4") && text.contains("0.5"),
            "{text}"
        );
    }
}
