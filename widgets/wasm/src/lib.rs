//! wasm-bindgen bindings of the course widgets.
//!
//! The browser loader (`theme/mathcourse.js`) creates one [`WidgetHandle`] per widget on
//! the page from its `data-widget` name and `data-params` JSON, turns DOM events into
//! the calls below, and morphs the markup returned by [`WidgetHandle::render`] into the
//! page whenever a call returns `true`. All logic lives in `mathcourse-widgets`, which the
//! preprocessor also uses to render the initial state at build time; this crate only
//! translates types. Built by `cargo xtask wasm` into `theme/widgets/`.

#![forbid(unsafe_code)]

use mathcourse_widgets::{AnyWidget, DragPhase, Event, Params};
use wasm_bindgen::prelude::*;

/// One live widget.
#[wasm_bindgen]
pub struct WidgetHandle {
    widget: AnyWidget,
}

#[wasm_bindgen]
impl WidgetHandle {
    /// Builds the widget `kind` from its parameters (a JSON object); throws an `Error`
    /// with the parameter problem in words.
    #[wasm_bindgen(constructor)]
    pub fn new(kind: &str, params_json: &str) -> Result<WidgetHandle, JsError> {
        let params = Params::from_json(params_json).map_err(|e| JsError::new(&e.to_string()))?;
        let widget = AnyWidget::new(kind, &params).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(WidgetHandle { widget })
    }

    /// The widget's inner markup; element ids are prefixed with `id`.
    pub fn render(&self, id: &str) -> String {
        self.widget.render(id)
    }

    /// A control named `control` now has `value`. True when the markup changed.
    pub fn input(&mut self, control: &str, value: &str) -> bool {
        self.widget.update(&Event::Input { control, value })
    }

    /// A button with `data-action="name"` was pressed.
    pub fn action(&mut self, name: &str) -> bool {
        self.widget.update(&Event::Action { action: name })
    }

    /// A key (`KeyboardEvent.key`) pressed on the element with `data-key="target"`.
    pub fn key(&mut self, target: &str, key: &str, shift: bool) -> bool {
        self.widget.update(&Event::Key { target, key, shift })
    }

    /// A drag of `data-drag="target"` at (x, y) in SVG user units; `phase`: 0 start,
    /// 1 move, 2 end.
    pub fn drag(&mut self, target: &str, x: f64, y: f64, phase: u8) -> bool {
        let phase = match phase {
            0 => DragPhase::Start,
            2 => DragPhase::End,
            _ => DragPhase::Move,
        };
        self.widget.update(&Event::Drag {
            target,
            x,
            y,
            phase,
        })
    }

    /// Hover or focus entered `data-hover="target"` (`Some`) or left it (`None`).
    pub fn hover(&mut self, target: Option<String>) -> bool {
        self.widget.update(&Event::Hover {
            target: target.as_deref(),
        })
    }
}
