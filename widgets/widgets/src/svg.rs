//! Small helpers for writing SVG and HTML markup by hand.

use std::fmt::Write;

/// Escapes text for HTML/SVG content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A number with `decimals` places, without `-0`: the form every readout uses.
pub fn num(x: f64, decimals: usize) -> String {
    let s = crate::params::fixed(x, decimals);
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// A number for SVG coordinates (2 decimals, trailing zeros trimmed).
pub fn coord(x: f64) -> String {
    let s = crate::params::fixed(x, 2);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" || s.is_empty() {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// A labelled range slider (a real `<input type="range">`).
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
    let _ = write!(
        out,
        "<label class=\"mc-w-control\" for=\"{id}-{name}\"><span class=\"mc-w-control-label\">{label}</span>\
<input type=\"range\" id=\"{id}-{name}\" name=\"{name}\" min=\"{}\" max=\"{}\" step=\"{}\" value=\"{}\">\
<output class=\"mc-w-control-value\" for=\"{id}-{name}\">{}</output></label>",
        coord(min),
        coord(max),
        crate::params::fmt_num(step),
        crate::params::fmt_num(value),
        esc(shown)
    );
    out
}

/// A button that sends `action`.
pub fn button(action: &str, label: &str) -> String {
    format!(
        "<button type=\"button\" class=\"mc-w-button\" data-action=\"{}\">{}</button>",
        esc(action),
        esc(label)
    )
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
