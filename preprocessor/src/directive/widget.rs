//! `{widget}`: an interactive widget, rendered at build time and made live in the
//! browser by the WebAssembly bundle (`theme/mathcourse.js`).
//!
//! ```markdown
//! :::{widget} softmax
//! ---
//! scores: [2.0, 1.0, 0.1]
//! temperature: 1
//! ---
//! The caption: Markdown with math, e.g. $T \to 0$ makes softmax an argmax.
//! :::
//! ```
//!
//! The argument names the widget (`mathcourse_widgets::names()`); every option is a
//! parameter of that widget (`:key: value` lines or a YAML block), checked by the widget
//! itself (`AnyWidget::new`), so the page never carries parameters the browser would
//! reject. The figure holds the initial render (readable without JavaScript, and the
//! exact markup the wasm produces, so hydration causes no layout shift), the widget's
//! name and its parameters as JSON for the loader.

use std::ops::Range;

use mathcourse_widgets::{AnyWidget, ParamError, Params, Place, Value, CATALOG};

use super::options::{self, RawOptions};
use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;
use crate::templates::Slot;

/// The `widget` directive.
pub struct Widget;

/// An options value (JSON, from `options::raw_options`) as a widget parameter.
fn to_param(v: &serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => Value::Num(n.as_f64().unwrap_or(f64::NAN)),
        serde_json::Value::String(s) => Value::Text(s.clone()),
        serde_json::Value::Array(items) => Value::List(items.iter().map(to_param).collect()),
        serde_json::Value::Object(map) => {
            Value::Map(map.iter().map(|(k, v)| (k.clone(), to_param(v))).collect())
        }
    }
}

/// The widget's parameters from the block's options. The keys of a map nested in an
/// option (`params: {w: …, b: …}`) keep the order the author wrote them in (the JSON
/// object sorts them), so sliders come in that order.
fn params_of(source: &str, block: &Block, raw: &RawOptions) -> Params {
    Params::new(
        raw.value
            .iter()
            .map(|(k, v)| {
                let mut param = to_param(v);
                if let (Value::Map(entries), Some(key)) = (&mut param, raw.key_spans.get(k)) {
                    let text = source.get(key.end..block.body.start).unwrap_or("");
                    // Every key's place found in one pass (a map of 10,000 entries
                    // is ordered, then refused by the widget, at once).
                    let found = options::flow_key_offsets(text);
                    entries.sort_by_cached_key(|(name, _)| {
                        found.get(name.as_str()).copied().unwrap_or(usize::MAX)
                    });
                }
                (k.clone(), param)
            })
            .collect(),
    )
}

/// Where a [`Place`] inside parameter `key` is written: its keys found one after the
/// other, then its text; the value after the last key when there is no text.
fn place_span(
    source: &str,
    block: &Block,
    key: Range<usize>,
    place: &Place,
) -> Option<Range<usize>> {
    let end = block.body.start.max(key.end);
    let mut at = key.clone();
    for k in &place.keys {
        let text = source.get(at.end..end)?;
        let o = options::flow_key_offset(text, k)?;
        at = at.end + o..at.end + o + k.len();
    }
    match &place.text {
        Some(t) if !t.is_empty() => {
            let o = source.get(at.end..end)?.find(t.as_str())?;
            let start = at.end + o;
            let (a, b) = place.range.unwrap_or((0, t.len()));
            let (a, b) = (a.min(t.len()), b.min(t.len()).max(a.min(t.len())));
            Some(start + a..start + b.max(a + usize::from(a < t.len())))
        }
        _ if place.keys.is_empty() => Some(options::value_span(source, key)),
        _ => Some(at),
    }
}

/// Where the widget's name is written (or the directive name when it is missing).
fn name_span(block: &Block) -> Range<usize> {
    if block.argument.is_empty() {
        block.name_span.clone()
    } else {
        block.argument_span.clone()
    }
}

/// The diagnostic for a rejected widget or parameter.
fn param_diagnostic(cx: &Cx, block: &Block, raw: &RawOptions, err: &ParamError) -> Diagnostic {
    let kind = block.argument.as_str();
    let docs = CATALOG
        .iter()
        .find(|(n, _, _)| *n == kind)
        .map(|(_, _, p)| *p);
    if err.param.is_empty() {
        if docs.is_none() {
            let names = mathcourse_widgets::names();
            let list = options::backticked(&names);
            let (message, label) = if kind.is_empty() {
                (
                    "`widget` needs the name of a widget".to_string(),
                    "name missing here",
                )
            } else {
                (
                    format!("unknown widget `{kind}`"),
                    "no widget has this name",
                )
            };
            return cx
                .report
                .error(name_span(block), message)
                .with_label(label)
                .with_hint(format!(
                    "write `:::{{widget}} <name>`; the widgets are: {list}{}",
                    options::did_you_mean(kind, &names)
                ));
        }
        return cx
            .report
            .error(
                name_span(block),
                format!("widget `{kind}`: {}", err.message),
            )
            .with_label("rejected parameters")
            .with_hint("see the author guide for this widget's parameters");
    }
    let span = raw
        .key_spans
        .get(&err.param)
        .cloned()
        .unwrap_or_else(|| name_span(block));
    if let Some(place) = &err.place {
        let at = place_span(&cx.source, block, span.clone(), place).unwrap_or(span);
        let mut d = cx
            .report
            .error(
                at,
                format!(
                    "widget `{kind}`, parameter `{}`: {}",
                    err.param, err.message
                ),
            )
            .with_label(if place.label.is_empty() {
                "invalid value"
            } else {
                place.label.as_str()
            });
        if !place.hint.is_empty() {
            d = d.with_hint(place.hint.clone());
        }
        return d;
    }
    if !err.valid.is_empty() {
        let valid: Vec<&str> = err.valid.iter().map(String::as_str).collect();
        let list = options::backticked(&valid);
        return cx
            .report
            .error(
                span,
                format!("unknown parameter `{}` for widget `{kind}`", err.param),
            )
            .with_label("not a parameter of this widget")
            .with_hint(format!(
                "valid parameters: {list}{}",
                options::did_you_mean(&err.param, &valid)
            ));
    }
    let hint = docs
        .and_then(|p| p.iter().find(|(n, _, _)| *n == err.param))
        .map(|(n, ty, meaning)| format!("`{n}`: {ty}; {meaning}"))
        .unwrap_or_else(|| "see the author guide for this widget's parameters".into());
    cx.report
        .error(
            span,
            format!(
                "widget `{kind}`, parameter `{}`: {}",
                err.param, err.message
            ),
        )
        .with_label("invalid value")
        .with_hint(hint)
}

/// A widget written without an options block whose caption starts with a line like
/// `temperature: 2`, naming one of its parameters: the author meant an option, and the
/// widget would silently use its default.
fn bare_option_line(cx: &Cx, block: &Block, kind: &str) -> Option<Diagnostic> {
    if block.options != super::block::OptionsSyntax::None {
        return None;
    }
    let params = CATALOG.iter().find(|(n, _, _)| *n == kind)?.2;
    let body = &cx.source[block.body.clone()];
    let lead = body.len() - body.trim_start().len();
    let line = body[lead..].lines().next()?;
    let (key, _) = line.split_once(':')?;
    let key = key.trim_end();
    if !params.iter().any(|(name, _, _)| *name == key) {
        return None;
    }
    let start = block.body.start + lead;
    Some(
        cx.report.error(start..start + key.len(), format!("`{key}` reads as caption text, not as a parameter of widget `{kind}`"))
            .with_label("this line is not an option")
            .with_hint(format!("write options as `:{key}: …` lines right after the opening line, or as YAML between two `---` lines; the caption comes after them")),
    )
}

impl Directive for Widget {
    fn name(&self) -> &'static str {
        "widget"
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        let raw = options::raw_options(&cx.source, block)
            .map_err(|e| cx.report.error(e.span, e.message).with_hint(e.hint))?;
        let params = params_of(&cx.source, block, &raw);
        let kind = block.argument.as_str();
        if let Some(d) = bare_option_line(cx, block, kind) {
            return Err(d);
        }
        let widget =
            AnyWidget::new(kind, &params).map_err(|e| param_diagnostic(cx, block, &raw, &e))?;
        for w in widget.warnings() {
            let mut d = param_diagnostic(cx, block, &raw, &w);
            d.severity = crate::diagnostic::Severity::Warning;
            cx.report.push(d);
        }
        let id = cx.ids.fresh_id("widget");
        let summary = CATALOG
            .iter()
            .find(|(n, _, _)| *n == kind)
            .map_or("", |(_, s, _)| *s);
        let mut context = tera::Context::new();
        context.insert("id", &id);
        context.insert("name", kind);
        context.insert("summary", summary);
        let live = widget.live_params().unwrap_or(params);
        context.insert("params", &live.to_json());
        // Shown, but kept out of the search index (its text is widget chrome); every
        // control keeps its name in `aria-label`.
        let rendered = widget.render(&id);
        check_controls(cx, kind, &rendered);
        let markup = crate::html::name_controls(&crate::html::text_as_attributes(&rendered));
        context.insert("markup_html", &markup);
        let caption = cx.markdown(block.body.clone());
        context.insert("has_caption", &!caption.trim().is_empty());
        cx.template(
            "widget",
            context,
            vec![Slot::new("caption", caption)],
            block.opener.clone(),
        )
    }

    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        let caption = cx.markdown(block.body.clone());
        let mut out = String::new();
        if !caption.trim().is_empty() {
            out.push_str(caption.trim());
            out.push(' ');
        }
        out.push_str(&format!("*(interactive widget: {})*", block.argument));
        out
    }
}

/// The `name`s of the controls in a widget's markup (what a card's `controls` names).
fn control_names(markup: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut rest = markup;
    while let Some(i) = rest.find(" name=\"") {
        rest = &rest[i + 7..];
        if let Some(end) = rest.find('"') {
            let name = rest[..end].to_string();
            if !names.contains(&name) {
                names.push(name);
            }
            rest = &rest[end..];
        }
    }
    names
}

/// Formula cards before this widget named controls in `controls`: each must be one of
/// its controls (the card's link would do nothing otherwise).
fn check_controls(cx: &mut Cx, kind: &str, markup: &str) {
    if cx.pending_controls.is_empty() {
        return;
    }
    let names = control_names(markup);
    for p in std::mem::take(&mut cx.pending_controls) {
        if names.contains(&p.control) {
            continue;
        }
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let hint = if names.is_empty() {
            format!("the `{kind}` widget has no named controls; remove this entry")
        } else {
            format!(
                "the `{kind}` widget's controls are: {}{}",
                options::backticked(&refs),
                options::did_you_mean(&p.control, &refs)
            )
        };
        let d = cx
            .report.error(
                p.span.clone(),
                format!(
                    "`controls` links `{}` to `{}`, but the next widget on the page (`{kind}`) has no control `{}`",
                    p.symbol, p.control, p.control
                ),
            )
            .with_label("no such control")
            .with_hint(hint);
        cx.report.push(d);
    }
}

/// Cards whose `controls` no widget followed on the page.
pub(crate) fn controls_without_widget(cx: &mut Cx) {
    let pending = std::mem::take(&mut cx.pending_controls);
    if !cx.html {
        return; // other renderers draw no widget: nothing to link
    }
    for p in pending {
        let d = cx
            .report.error(
                p.span.clone(),
                format!(
                    "`controls` links `{}` to `{}`, but no widget follows this card on the page",
                    p.symbol, p.control
                ),
            )
            .with_label("no widget below")
            .with_hint("`controls` names a control of the next widget on the page: add the widget after the card, or remove the entry");
        cx.report.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_become_parameters() {
        let v: serde_json::Value =
            serde_json::from_str(r#"{"a":[3,1.5],"t":true,"s":"x","n":null}"#).unwrap();
        let raw = RawOptions {
            value: v.as_object().unwrap().clone(),
            key_spans: Default::default(),
        };
        let p = Params::new(
            raw.value
                .iter()
                .map(|(k, v)| (k.clone(), to_param(v)))
                .collect(),
        );
        assert_eq!(
            p.get("a"),
            Some(&Value::List(vec![Value::Num(3.0), Value::Num(1.5)]))
        );
        assert_eq!(p.get("t"), Some(&Value::Bool(true)));
        assert_eq!(p.get("s"), Some(&Value::Text("x".into())));
        assert_eq!(p.get("n"), Some(&Value::Null));
    }
}
