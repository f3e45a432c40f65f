//! `{claim}`: a statement labelled with its epistemic status and source.

use serde::Deserialize;

use super::contribute::{Claimed, Contribution};
use super::status::{Status, STATUSES};
use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;
use crate::templates::Slot;

/// The `claim` directive.
pub struct Claim;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Options {
    #[serde(default)]
    source: Option<String>,
}

impl Directive for Claim {
    fn name(&self) -> &'static str {
        "claim"
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        let status = Status::parse(&block.argument).ok_or_else(|| {
            let span = if block.argument.is_empty() {
                block.name_span.clone()
            } else {
                block.argument_span.clone()
            };
            let message = if block.argument.trim().is_empty() {
                "`claim` needs a status".to_string()
            } else {
                format!("unknown claim status `{}`", block.argument)
            };
            cx.report
                .error(span, message)
                .with_label("expected a status here")
                .with_hint(format!(
                    "write `:::{{claim}} <status>` with one of {}{}",
                    super::options::backticked(STATUSES),
                    super::options::did_you_mean(block.argument.trim(), STATUSES)
                ))
        })?;
        let options = cx.options::<Options>(block)?;
        if status != Status::Established
            && options.source.as_deref().unwrap_or("").trim().is_empty()
        {
            // An empty `:source:` is pointed at on its own line; a missing one at the opener.
            let span = options
                .key_span("source")
                .map(|key| super::options::value_span(&cx.source, key))
                .unwrap_or(block.opener.clone());
            return Err(cx
                .report.error(span, format!("a claim marked `{}` needs a `:source:`", status.key()))
                .with_hint("add a line `:source: Author (year), *Title*` after the opening line; only `established` claims may omit it"));
        }
        let mut context = tera::Context::new();
        context.insert("id", &cx.ids.block_anchor(block));
        status.insert_into(&mut context);
        if let Some(source) = &options.source {
            let html = cx.inline(source, block.opener.clone());
            context.insert("source_html", &html);
        }
        let body = cx.markdown(block.body.clone());
        cx.template(
            "claim",
            context,
            vec![Slot::new("body", body)],
            block.opener.clone(),
        )
    }

    fn anchor(&self, _block: &Block, _source: &str, n: usize) -> Option<String> {
        Some(format!("claim-{n}"))
    }

    fn contribute(&self, block: &Block, source: &str, out: &mut Contribution) {
        out.claim = Some(Claimed {
            status: block.argument.trim().to_string(),
            summary: summary(&source[block.body.clone()]),
            source: super::options::raw_options(source, block)
                .ok()
                .and_then(|raw| raw.text("source").map(str::to_string)),
            formula: false,
        });
    }

    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        let label = Status::parse(&block.argument).map_or("Claim", Status::label);
        let source = super::options::raw_options(&cx.source, block)
            .ok()
            .and_then(|o| {
                o.value
                    .get("source")
                    .and_then(|v| v.as_str().map(str::to_string))
            });
        let mut out = format!("**{label}.** ");
        out.push_str(cx.markdown(block.body.clone()).trim());
        if let Some(s) = source {
            out.push_str(&format!("\n\n*Source:* {s}"));
        }
        out
    }
}

/// A claim's first sentence, at most 30 words, for the claims index.
fn summary(body: &str) -> String {
    let text = crate::notation::collapse(body);
    let end = text.find(". ").map_or(text.len(), |i| i + 1);
    let words: Vec<&str> = text[..end].split(' ').collect();
    if words.len() > 30 {
        format!("{} …", words[..30].join(" "))
    } else {
        text[..end].to_string()
    }
}

#[cfg(test)]
mod tests {
    use crate::directive::testkit::errors;

    #[test]
    fn a_misspelled_status_gets_a_did_you_mean() {
        let text = errors(":::{claim} emprical\n:source: S\nBody.\n:::\n");
        assert!(text.contains("unknown claim status `emprical`"), "{text}");
        assert!(text.contains("did you mean `empirical`?"), "{text}");
        assert!(text.contains("src/t.md:1:12"), "{text}");
    }

    #[test]
    fn a_missing_status_says_so() {
        let text = errors(":::{claim}\nBody.\n:::\n");
        assert!(text.contains("`claim` needs a status"), "{text}");
        assert!(!text.contains("` `"), "{text}");
    }

    #[test]
    fn an_empty_source_is_pointed_at_on_its_own_line() {
        let text = errors(":::{claim} empirical\n:source:\nBody.\n:::\n");
        assert!(text.contains("needs a `:source:`"), "{text}");
        assert!(text.contains("src/t.md:2:2"), "{text}");
    }
}
