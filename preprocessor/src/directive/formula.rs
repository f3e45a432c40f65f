//! `{formula}`: a formula card — title, status badge, the display formula (optionally
//! numbered), a plain-language reading (the body), a code snippet, and what the
//! formula does *not* say.

use serde::Deserialize;

use super::contribute::{Claimed, Contribution, Defined};
use super::options::Typed;
use super::status::{Status, STATUSES};
use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;
use crate::symbol::Symbol;
use crate::templates::Slot;

/// The `formula` directive.
pub struct Formula;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Options {
    tex: String,
    #[serde(default)]
    status: Option<String>,
    /// Where the claim comes from; required, as for claims, unless `status: established`.
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    lang: Option<String>,
    #[serde(default)]
    does_not_say: Option<String>,
    /// Symbols this card defines (they join the book's notation; read by the collector).
    #[serde(default, rename = "where")]
    where_: Vec<Symbol>,
    /// Ids of symbols defined elsewhere (this chapter, another chapter, the symbols
    /// file) that this formula means: they win over the chapter's other meanings.
    #[serde(default)]
    uses: Vec<String>,
    /// Tag the formula's symbols and show the legend (default: yes).
    #[serde(default)]
    inspect: Option<bool>,
    /// Symbol id → name of a control of the next widget on the page (`eta: lr`): the
    /// symbol and the control light up together, and the legend shows the value.
    #[serde(default)]
    controls: std::collections::BTreeMap<String, String>,
}

impl Directive for Formula {
    fn name(&self) -> &'static str {
        "formula"
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        let options = cx.options::<Options>(block)?;
        let span_of = |key: &str| options.span(key);
        let mut context = tera::Context::new();
        insert_status(cx, &options, &mut context)?;
        if let Some(source) = &options.source {
            let html = cx.inline(source, span_of("source"));
            context.insert("source_html", &html);
        }
        if let Some(label) = &options.label {
            let number = cx.book.labels.get(label).map(|l| l.number.clone());
            context.insert("number", &number);
        }
        let id = cx.ids.block_anchor(block);
        context.insert("id", &id);
        let anchors: Vec<String> = options
            .where_
            .iter()
            .filter_map(|s| cx.ids.first_anchor(format!("sym-{}", s.id)))
            .collect();
        context.insert("anchors", &anchors);
        let title = cx.inline(&block.argument, block.argument_span.clone());
        context.insert("title_html", &title);
        // Where the author's TeX starts in the source, when the YAML value is written
        // verbatim (plain or quoted without escapes): carets then point into it.
        let tex_offset = options.key_span("tex").and_then(|key| {
            let window = key.end..block.body.start.max(key.end);
            cx.source[window.clone()]
                .find(options.tex.as_str())
                .map(|i| window.start + i)
        });
        let (tex, legend_html) = if options.inspect.unwrap_or(true) {
            inspect_card(cx, block, &options, tex_offset, &id)?
        } else {
            (options.tex.clone(), String::new())
        };
        let math = cx.math.tagged_math(
            &mut cx.report,
            &tex,
            &options.tex,
            true,
            span_of("tex"),
            tex_offset,
        );
        // The annotation keeps the author's TeX, not the tagged one.
        let math = crate::math::with_annotation(&math, &options.tex);
        context.insert("math_html", &math);
        context.insert("legend_html", &legend_html);
        context.insert("tex", &options.tex);
        if let Some(text) = &options.does_not_say {
            let html = cx.inline(text, span_of("does-not-say"));
            context.insert("does_not_say_html", &html);
        }
        let lang = options.lang.clone().unwrap_or_else(|| "python".into());
        context.insert("lang", &lang);
        let code = options
            .code
            .as_deref()
            .map(|c| code_block(c, &lang))
            .unwrap_or_default();
        let body = cx.markdown(block.body.clone());
        cx.template(
            "formula",
            context,
            vec![Slot::new("body", body), Slot::new("code", code)],
            block.opener.clone(),
        )
    }

    fn anchor(&self, block: &Block, source: &str, n: usize) -> Option<String> {
        Some(super::label_of(block, source).map_or_else(|| format!("formula-{n}"), |(l, _)| l))
    }

    fn contribute(&self, block: &Block, source: &str, out: &mut Contribution) {
        out.label = super::label_of(block, source);
        let Ok(raw) = super::options::raw_options(source, block) else {
            return;
        };
        out.formulas.extend(raw.text("tex").map(str::to_string));
        if let Some(list) = raw.value.get("where") {
            if let Ok(symbols) = serde_json::from_value::<Vec<Symbol>>(list.clone()) {
                let at = raw
                    .key_spans
                    .get("where")
                    .map_or(block.opener.start, |r| r.start);
                out.symbols
                    .extend(symbols.into_iter().map(|symbol| Defined {
                        symbol,
                        at,
                        keys: Default::default(),
                    }));
            }
        }
        if let Some(status) = raw.value.get("status").and_then(|v| v.as_str()) {
            out.claim = Some(Claimed {
                status: status.trim().to_string(),
                summary: block.argument.clone(),
                source: raw.text("source").map(str::to_string),
                formula: true,
            });
        }
    }

    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        let raw = super::options::raw_options(&cx.source, block).unwrap_or_default();
        let get = |k: &str| raw.text(k).map(str::to_string);
        let mut out = format!("**{}**\n\n", block.argument);
        if let Some(tex) = get("tex") {
            out.push_str(&format!("$$\n{tex}\n$$\n\n"));
        }
        out.push_str(cx.markdown(block.body.clone()).trim());
        out.push_str("\n\n");
        if let Some(code) = get("code") {
            out.push_str(&code_block(
                &code,
                &get("lang").unwrap_or_else(|| "python".into()),
            ));
            out.push_str("\n\n");
        }
        if let Some(d) = get("does-not-say") {
            out.push_str(&format!("*Does not say:* {d}\n"));
        }
        out
    }
}

/// The card's claim status, when it has one, into `context`; a status other than
/// `established` needs a `source`.
fn insert_status(
    cx: &Cx,
    options: &Typed<Options>,
    context: &mut tera::Context,
) -> Result<(), Diagnostic> {
    let span_of = |key: &str| options.span(key);
    if let Some(word) = &options.status {
        let status = Status::parse(word).ok_or_else(|| {
            cx.report
                .error(
                    super::options::value_span(&cx.source, span_of("status")),
                    format!("unknown claim status `{word}`"),
                )
                .with_label("not a status")
                .with_hint(format!(
                    "`status` is one of {}{}",
                    super::options::backticked(STATUSES),
                    super::options::did_you_mean(word.trim(), STATUSES)
                ))
        })?;
        if status != Status::Established
            && options
                .source
                .as_deref()
                .is_none_or(|s| s.trim().is_empty())
        {
            let span = match options.key_span("source") {
                Some(key) => super::options::value_span(&cx.source, key),
                None => super::options::value_span(&cx.source, span_of("status")),
            };
            return Err(cx
                .report.error(span, format!("a formula card marked `{}` needs a `source`", status.key()))
                .with_label("no source given")
                .with_hint("add `source: Author (year), *Title*` to the options; only `established` formulas may omit it, as for claims"));
        }
        status.insert_into(context);
    }
    Ok(())
}

/// The card's formula tagged for inspection and its "where" list; its `controls` wait
/// for the next widget on the page.
fn inspect_card(
    cx: &mut Cx,
    block: &Block,
    options: &Typed<Options>,
    tex_offset: Option<usize>,
    id: &str,
) -> Result<(String, String), Diagnostic> {
    let span_of = |key: &str| options.span(key);
    for (sym, control) in &options.controls {
        let valid = |t: &str| {
            !t.is_empty()
                && t.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        };
        if !valid(sym) || !valid(control) {
            return Err(cx
                    .report.error(span_of("controls"), format!("`controls` entry `{sym}: {control}` is not an id pair"))
                    .with_hint("write `controls: {symbol-id: control-name}`, e.g. `controls: {eta: lr}`; both use letters, digits, `-` and `_`"));
        }
    }
    // The next widget on the page must have these controls (checked there).
    for (sym, control) in &options.controls {
        let span = super::inspectable::id_span(cx, span_of("controls"), block, control);
        cx.pending_controls.push(super::PendingControl {
            span,
            symbol: sym.clone(),
            control: control.clone(),
        });
    }
    let inspected = super::inspectable::inspect_with_controls(
        cx,
        &options.tex,
        span_of("tex"),
        tex_offset,
        id,
        &options.controls,
        &super::inspectable::Named {
            own: options
                .where_
                .iter()
                .map(|s| {
                    (
                        s.id.clone(),
                        super::inspectable::id_span(cx, options.span("where"), block, &s.id),
                    )
                })
                .collect(),
            uses: options
                .uses
                .iter()
                .map(|u| {
                    (
                        u.clone(),
                        super::inspectable::id_span(cx, options.span("uses"), block, u),
                    )
                })
                .collect(),
        },
    );
    Ok((inspected.tex, inspected.legend_html))
}

/// A fenced code block that mdBook highlights; the fence is longer than any backtick
/// run in the code.
fn code_block(code: &str, lang: &str) -> String {
    let longest = code.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let lang: String = lang
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '+')
        .collect();
    format!("{fence}{lang}\n{}\n{fence}", code.trim_end_matches('\n'))
}

#[cfg(test)]
mod source_tests {
    use crate::directive::testkit::{errors, render};

    #[test]
    fn a_model_card_needs_a_source_like_a_claim() {
        let text = errors(":::{formula} F\n---\nstatus: model\ntex: x\n---\nReading.\n:::\n");
        assert!(
            text.contains("a formula card marked `model` needs a `source`"),
            "{text}"
        );
        assert!(
            text.contains("src/t.md:3:9"),
            "caret on the status value: {text}"
        );
        let html = render(":::{formula} F\n---\nstatus: model\nsource: A book (2020)\ninspect: false\ntex: x\n---\nReading.\n:::\n");
        assert!(
            html.contains("<span class=\"mc-source-label\">Source:</span> A book (2020)"),
            "{html}"
        );
        render(":::{formula} F\n---\nstatus: established\ninspect: false\ntex: x\n---\nReading.\n:::\n");
    }

    #[test]
    fn a_misspelled_card_status_is_pointed_at_with_a_did_you_mean() {
        let text =
            errors(":::{formula} F\n---\nstatus: modle\nsource: S\ntex: x\n---\nReading.\n:::\n");
        assert!(text.contains("did you mean `model`?"), "{text}");
        assert!(text.contains("src/t.md:3:9"), "{text}");
    }
}

#[cfg(test)]
mod error_location_tests {
    use crate::directive::testkit::errors;

    #[test]
    fn a_latex_error_in_a_card_points_into_the_authors_tex() {
        let text = errors(
            ":::{formula} F\n---\ntex: 'a + \\frca{1}{2}'\ninspect: false\n---\nReading.\n:::\n",
        );
        assert!(text.contains("src/t.md:3:11"), "{text}");
        assert!(!text.contains("htmlData"), "{text}");
        let text = errors(
            ":::{formula} F\n---\ntex: 'x + \\frca{1}{2}'\nwhere:\n  - {id: x, tex: x, name: x}\n---\nReading.\n:::\n",
        );
        assert!(
            text.contains("src/t.md:3:11"),
            "tagged formula, author's column: {text}"
        );
        assert!(text.contains("character 5"), "{text}");
        assert!(!text.contains("htmlData"), "{text}");
    }

    #[test]
    fn an_undefined_symbol_in_a_card_is_pointed_at() {
        let text = errors(
            ":::{formula} F\n---\ntex: 'x + q'\nwhere:\n  - {id: x, tex: x, name: x}\n---\nReading.\n:::\n",
        );
        assert!(text.contains("symbol `q`"), "{text}");
        assert!(text.contains("src/t.md:3:11"), "{text}");
    }
}
