//! Small helpers for writing SVG and HTML markup by hand.

use crate::fmt::Put;

/// Escapes text for HTML/SVG content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    out.e(text);
    out
}

/// A number with `decimals` places, without `-0`: the form every readout uses.
pub fn num(x: f64, decimals: usize) -> String {
    let mut out = String::new();
    out.n(x, decimals);
    out
}

/// A number for SVG coordinates (2 decimals, trailing zeros trimmed).
pub fn coord(x: f64) -> String {
    let mut out = String::new();
    out.c(x);
    out
}

/// A labelled range slider (a real `<input type="range">`).
#[allow(clippy::too_many_arguments)]
pub fn slider(
    id: &str,
    name: &str,
    label: &str,
    value: f64,
    min: f64,
    max: f64,
    step: f64,
    shown: &str,
) -> String {
    let mut out = String::new();
    push_slider(&mut out, id, name, label, (value, min, max, step), shown);
    out
}

/// [`slider`], appended to `out`; `range` is (value, min, max, step).
pub fn push_slider(
    out: &mut String,
    id: &str,
    name: &str,
    label: &str,
    (value, min, max, step): (f64, f64, f64, f64),
    shown: &str,
) {
    out.s("<label class=\"mc-w-control\" for=\"")
        .s(id)
        .s("-")
        .s(name)
        .s("\"><span class=\"mc-w-control-label\">")
        .s(label)
        .s("</span><input type=\"range\" id=\"")
        .s(id)
        .s("-")
        .s(name)
        .s("\" name=\"")
        .s(name)
        .s("\" min=\"")
        .c(min)
        .s("\" max=\"")
        .c(max)
        .s("\" step=\"")
        .g(step)
        .s("\" value=\"")
        .g(value)
        .s("\"><output class=\"mc-w-control-value\" for=\"")
        .s(id)
        .s("-")
        .s(name)
        .s("\">")
        .e(shown)
        .s("</output></label>");
}

/// The note next to number field `name` that says what became of a value the widget
/// could not use as typed ("at most 10: 10 is used"); empty when it was used as typed.
/// The field points at it with `aria-describedby="{id}-{name}-note"`, and the loader
/// puts the value used back into the field when the reader leaves it (`change`), so
/// the field, the readouts and the note agree.
pub fn push_field_note(out: &mut String, id: &str, name: &str, note: &str) {
    out.s("<span class=\"mc-w-field-note\" id=\"")
        .s(id)
        .s("-")
        .s(name)
        .s("-note\" aria-live=\"polite\">")
        .s(note)
        .s("</span>");
}

/// The text of a field note: `why`, then the value used ("at most 10: 10 is used"), or
/// "is still used" when the typed text was not a number at all.
pub fn field_note(why: &str, used: f64, kept: bool) -> String {
    let mut s = String::new();
    s.s(why)
        .s(": ")
        .g(used)
        .s(if kept { " is still used" } else { " is used" });
    s
}

/// A button that sends `action`.
pub fn button(action: &str, label: &str) -> String {
    let mut out = String::new();
    push_button(&mut out, action, label);
    out
}

/// [`button`], appended to `out`.
pub fn push_button(out: &mut String, action: &str, label: &str) {
    out.s("<button type=\"button\" class=\"mc-w-button\" data-action=\"")
        .e(action)
        .s("\">")
        .e(label)
        .s("</button>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(num(-0.0001, 2), "0.00");
        assert_eq!(num(7.5, 2), "7.50");
        assert_eq!(coord(3.10), "3.1");
        assert_eq!(coord(-0.001), "0");
    }
}
