//! Small helpers for writing SVG and HTML markup by hand.

use crate::{put, text};

/// Escapes text for HTML/SVG content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    put!(out; e(text));
    out
}

/// A number with `decimals` places, without `-0`: the form every readout uses.
pub fn num(x: f64, decimals: usize) -> String {
    text!(n(x, decimals))
}

/// A number for SVG coordinates (2 decimals, trailing zeros trimmed).
pub fn coord(x: f64) -> String {
    text!(c(x))
}

/// A labelled range slider (a real `<input type="range">`), appended to `out`;
/// `range` is (value, min, max, step).
pub fn push_slider(
    out: &mut String,
    id: &str,
    name: &str,
    label: &str,
    (value, min, max, step): (f64, f64, f64, f64),
    shown: &str,
) {
    put!(out;
        "<label class=\"mc-w-control\" for=\"" s(id) "-" s(name)
        "\"><span class=\"mc-w-control-label\">" s(label) "</span><input type=\"range\" id=\"" s(id)
        "-" s(name) "\" name=\"" s(name) "\" min=\"" c(min) "\" max=\"" c(max) "\" step=\"" g(step)
        "\" value=\"" g(value) "\"><output class=\"mc-w-control-value\" for=\"" s(id) "-" s(name)
        "\">" e(shown) "</output></label>"
    );
}

/// The note next to number field `name` that says what became of a value the widget
/// could not use as typed ("at most 10: 10 is used"); empty when it was used as typed.
/// The field points at it with `aria-describedby="{id}-{name}-note"`, and the loader
/// puts the value used back into the field when the reader leaves it (`change`), so
/// the field, the readouts and the note agree.
pub fn push_field_note(out: &mut String, id: &str, name: &str, note: &str) {
    put!(out;
        "<span class=\"mc-w-field-note\" id=\"" s(id) "-" s(name) "-note\" aria-live=\"polite\">"
        s(note) "</span>"
    );
}

/// The text of a field note: `why`, then the value used ("at most 10: 10 is used"), or
/// "is still used" when the typed text was not a number at all.
pub fn field_note(why: &str, used: f64, kept: bool) -> String {
    text!(s(why) ": " r(used) s(if kept { " is still used" } else { " is used" }))
}

/// A button that sends `action`, appended to `out`.
pub fn push_button(out: &mut String, action: &str, label: &str) {
    put!(out;
        "<button type=\"button\" class=\"mc-w-button\" data-action=\"" e(action) "\">" e(label)
        "</button>"
    );
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
