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

/// Where a picture label sits on its point, as SVG's `text-anchor`: its text starts,
/// is centred or ends there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The text starts at the point.
    Start,
    /// The text is centred on the point.
    Middle,
    /// The text ends at the point.
    End,
}

/// Width and height of a label's box, in the label's own units (CSS px at the
/// picture's scale). Its text may overflow the box (`overflow: visible`); the box only
/// anchors it.
const LABEL_BOX: (f64, f64) = (160.0, 24.0);

/// Closes a label opened by [`open_label`].
pub const LABEL_END: &str = "\"></span></div></foreignObject>";

/// Opens a label of a picture (a tick number, an axis name, a bar's value) whose
/// baseline starts, is centred or ends at (x, y); the caller writes its text, escaped
/// for an attribute value (`e`, `n`, `m`, `p`…), then [`LABEL_END`].
///
/// The label is HTML in a `<foreignObject>`, its text in `data-mc-t`, which
/// `widgets.css` draws with `::before`: the picture shows it in the theme's colours, on
/// the page and in print, with or without JavaScript, but mdBook's search index (every
/// text node outside `<script>` and `<style>`) does not hold it, so a search for "−4"
/// or "cat" finds the book's words, not a row of tick numbers. An SVG `<text>` can only
/// draw text nodes. The picture's accessible name (its `<title>`) says what it shows.
///
/// `class` goes on the `<foreignObject>` (beside `mc-w-label-box`), `extra` (attributes,
/// each with its leading space: `font-size`, `transform`, `data-value`…) too.
pub fn open_label(out: &mut String, class: &str, extra: &str, (x, y): (f64, f64), anchor: Anchor) {
    let (w, h) = LABEL_BOX;
    let (left, side) = match anchor {
        Anchor::Start => (x, "start"),
        Anchor::Middle => (x - w / 2.0, "middle"),
        Anchor::End => (x - w, "end"),
    };
    put!(out; "<foreignObject class=\"mc-w-label-box");
    if !class.is_empty() {
        put!(out; " " s(class));
    }
    put!(out;
        "\"" s(extra) " x=\"" c(left) "\" y=\"" c(y - h) "\" width=\"" c(w) "\" height=\"" c(h)
        "\"><div class=\"mc-w-label mc-w-label-" s(side) "\"><span data-mc-t=\""
    );
}

/// A picture label with text `text` (see [`open_label`]).
pub fn push_label(
    out: &mut String,
    class: &str,
    extra: &str,
    at: (f64, f64),
    anchor: Anchor,
    text: &str,
) {
    open_label(out, class, extra, at, anchor);
    put!(out; e(text) s(LABEL_END));
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

    #[test]
    fn labels_keep_their_text_in_an_attribute() {
        let mut out = String::new();
        push_label(
            &mut out,
            "mc-w-note",
            " font-size=\"9\"",
            (100.0, 50.0),
            Anchor::End,
            "a < \"b\"",
        );
        assert_eq!(
            out,
            "<foreignObject class=\"mc-w-label-box mc-w-note\" font-size=\"9\" x=\"-60\" y=\"26\" width=\"160\" height=\"24\"><div class=\"mc-w-label mc-w-label-end\"><span data-mc-t=\"a &lt; &quot;b&quot;\"></span></div></foreignObject>"
        );
        out.clear();
        push_label(&mut out, "", "", (100.0, 50.0), Anchor::Middle, "4");
        assert!(
            out.starts_with("<foreignObject class=\"mc-w-label-box\" x=\"20\" y=\"26\""),
            "{out}"
        );
        assert!(!out.contains(">4<"), "no text node: {out}");
    }
}
