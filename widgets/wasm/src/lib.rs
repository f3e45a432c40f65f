//! wasm-bindgen bindings of the course widgets.
//!
//! The browser loader (`preprocessor/theme/mathcourse.js`) creates one [`WidgetHandle`] per widget on
//! the page from its `data-widget` name and `data-params` JSON, turns DOM events into
//! the calls below, and morphs the markup returned by [`WidgetHandle::render`] into the
//! page whenever a call returns `true`. All logic lives in `mathcourse-widgets`, which the
//! preprocessor also uses to render the initial state at build time; this crate only
//! translates types. Built by `cargo xtask wasm` into `preprocessor/theme/widgets/`.

#![forbid(unsafe_code)]

use mathcourse_widgets::{AnyWidget, DragPhase, Event, Params};
use wasm_bindgen::prelude::*;

/// talc instead of the default dlmalloc: about 6 KB less wasm, and faster for the many
/// short-lived strings of a re-render.
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

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
        let params = Params::from_json(params_json).map_err(|e| JsError::new(&e.text()))?;
        let widget = AnyWidget::new(kind, &params).map_err(|e| JsError::new(&e.text()))?;
        Ok(WidgetHandle { widget })
    }

    /// The widget's inner markup; element ids are prefixed with `id`.
    pub fn render(&self, id: &str) -> String {
        self.widget.render(id)
    }

    /// Something the reader did; true when the markup changed. One entry point keeps the
    /// bundle small. `kind`: 0 input (`target` = control name, `value`), 1 action
    /// (`target` = `data-action`), 2 key (`target` = `data-key`, `value` =
    /// `KeyboardEvent.key`, `x` ≠ 0 when Shift is held), 3 / 4 / 5 drag start / move / end
    /// (`target` = `data-drag`, (`x`, `y`) in SVG user units), 6 hover or focus entered
    /// `data-hover="target"` (`target` empty: it left).
    pub fn event(&mut self, kind: u8, target: &str, value: &str, x: f64, y: f64) -> bool {
        let event = match kind {
            0 => Event::Input {
                control: target,
                value,
            },
            1 => Event::Action { action: target },
            2 => Event::Key {
                target,
                key: value,
                shift: x != 0.0,
            },
            3..=5 => Event::Drag {
                target,
                x,
                y,
                phase: match kind {
                    3 => DragPhase::Start,
                    5 => DragPhase::End,
                    _ => DragPhase::Move,
                },
            },
            6 => Event::Hover {
                target: Some(target).filter(|t| !t.is_empty()),
            },
            _ => return false,
        };
        self.widget.update(&event)
    }
}
