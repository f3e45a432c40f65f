//! Helpers shared by the widgets' unit tests.

use crate::{Params, Widget};

/// The widget `W` from JSON parameters (panics on bad parameters).
pub fn widget<W: Widget>(json: &str) -> W {
    W::from_params(&Params::from_json(json).unwrap()).unwrap()
}

/// The text of the element carrying `data-value="name"` (up to its first child tag), or,
/// when it has none, the `data-mc-t` text of it or of its first child (a picture label,
/// see `svg::open_label`).
pub fn value<'a>(html: &'a str, name: &str) -> &'a str {
    let key = format!("data-value=\"{name}\"");
    let start = html
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {html}"));
    let rest = &html[start..];
    let open = rest.find('>').unwrap() + 1;
    let close = rest[open..].find('<').unwrap() + open;
    if open < close {
        return &rest[open..close];
    }
    let element = &rest[..rest.find("</").unwrap_or(rest.len())];
    let attr = "data-mc-t=\"";
    match element.find(attr) {
        Some(at) => {
            let text = &element[at + attr.len()..];
            &text[..text.find('"').unwrap()]
        }
        None => "",
    }
}

/// Sends an input event (a control named `control` now has `value`).
pub fn input(w: &mut impl Widget, control: &str, value: &str) -> bool {
    w.update(&crate::Event::Input { control, value })
}

/// Sends a button press (`data-action`).
pub fn action(w: &mut impl Widget, action: &str) -> bool {
    w.update(&crate::Event::Action { action })
}
