//! The lists of the author's `plot` parameters, each into its part of the live form
//! (see [`super::compile`], which calls them in this order, so the first mistake is the
//! one reported): the sliders, the curves and the marks drawn on them, the readouts.

use super::*;

/// `params`: the sliders, each into the live form's
/// `[name, value, min, max, step, label, decimals]`, its name bound to its slot.
pub(super) fn sliders(params: &Params, c: &mut Compiler) -> Result<Vec<Value>, ParamError> {
    let mut live_params = Vec::new();
    match params.get("params") {
        None | Some(Value::Null) => {}
        Some(Value::Map(entries)) => {
            if entries.len() > MAX_ITEMS {
                return Err(err("params", format!("at most {MAX_ITEMS} parameters"), keyed(&[], "too many", "")));
            }
            for (name, v) in entries {
                let p = slider(c, name, v)?;
                c.add(name, Resolved::Slot(c.slots.len() as u16));
                c.slots.push(p[1]);
                let label = match v {
                    Value::Map(m) => map_get(m, "label").and_then(text_of),
                    _ => None,
                }
                .unwrap_or_else(|| name.clone());
                live_params.push(Value::List(vec![
                    text_value(name),
                    Value::Num(p[1]),
                    Value::Num(p[2]),
                    Value::Num(p[3]),
                    Value::Num(p[4]),
                    Value::Text(label),
                    Value::Num(super::super::decimals_of(p[4]) as f64),
                ]));
            }
        }
        Some(_) => {
            return Err(err(
                "params",
                "expected a map of parameters, `w: {value: 1, range: [-3, 3]}`".into(),
                keyed(&[], "not a map", "write one `name: {value: …, range: […], step: …}` line per slider"),
            ))
        }
    }
    Ok(live_params)
}

/// `curves`: each compiled into a function (named ones bound to it), and its mark.
pub(super) fn curves(params: &Params, c: &mut Compiler, x: (f64, f64)) -> Result<Vec<Value>, ParamError> {
    let mut marks = Vec::new();
    for (i, item) in items(params, "curves")?.iter().enumerate() {
        let what = format!("curve {}", i + 1);
        let (text, style, label) = match item {
            Value::Map(m) => {
                unknown_keys(m, CURVE_KEYS, "curves", &[])?;
                let Some(t) = map_get(m, "expr").and_then(text_of) else {
                    return Err(err("curves", format!("{what}: `expr` is missing"), keyed(&[], "here", "write `{expr: \"…\", style: dashed, label: …}`")));
                };
                let style = map_get(m, "style").and_then(text_of).unwrap_or_else(|| "solid".into());
                if !STYLES.contains(&style.as_str()) {
                    return Err(err("curves", format!("{what}: unknown style `{style}`"), Place {
                        text: Some(style.clone()),
                        label: "not a style".into(),
                        hint: format!("{}styles: `solid`, `dashed`, `dotted`, `hidden`", did_you_mean(&style, STYLES.iter().copied())),
                        ..Place::default()
                    }));
                }
                (t, style, map_get(m, "label").and_then(text_of).unwrap_or_default())
            }
            other => match text_of(other) {
                Some(t) => (t, "solid".into(), String::new()),
                None => return Err(err("curves", format!("{what}: expected an expression"), keyed(&[], "here", GRAMMAR))),
            },
        };
        let site = Site { param: "curves", keys: Vec::new(), what: what.clone() };
        let (name, program) = if text.contains('=') {
            let def = expr::parse_definition(&text).map_err(|e| c.syntax(&text, e, &site))?;
            let var = match def.params.as_slice() {
                [v] => v.clone(),
                _ => {
                    return Err(err("curves", format!("{what}: a curve is a function of one variable, `{}(x) = …`", def.name), Place {
                        text: Some(text.clone()),
                        range: Some((0, def.body_start.saturating_sub(1))),
                        label: "one variable here".into(),
                        hint: "write e.g. `f(x) = x^2`".into(),
                        ..Place::default()
                    }))
                }
            };
            let start = def.body_start;
            let body = def.body.clone();
            let (p, _) = c.parsed(&text, Some((body, start)), Some(&var), &site)?;
            check_name(c, &def.name, "curves", Place {
                text: Some(text.clone()),
                range: Some((0, def.name.len())),
                label: "this name".into(),
                hint: "give the curve another name".into(),
                ..Place::default()
            })?;
            c.vars.push((var, Some(def.name.clone())));
            (Some(def.name), p)
        } else {
            c.vars.push(("x".into(), None));
            (None, c.expr(&text, Some("x"), &site)?)
        };
        // Undefined everywhere in the window?
        let defined = (0..=200).any(|k| {
            let t = x.0 + (x.1 - x.0) * k as f64 / 200.0;
            program.eval(t, &c.slots, &c.funcs).is_finite()
        });
        if !defined {
            return Err(err("curves", format!("{what} is undefined everywhere in the window x from {} to {}", fmt_num(x.0), fmt_num(x.1)), Place {
                text: Some(text.clone()),
                label: "no value for any x shown".into(),
                hint: "check the domain (ln and sqrt need positive arguments) or widen `x`".into(),
                ..Place::default()
            }));
        }
        let f = c.funcs.len() as u16;
        if let Some(n) = &name {
            c.add(n, Resolved::Func(f));
        }
        c.costs.push(c.cost(&program));
        c.shown.push(style != "hidden");
        c.funcs.push(program);
        let style = STYLES.iter().position(|s| *s == style).unwrap_or(0);
        marks.push(mark(0, usize::from(f), 0, None, None, style, label));
    }
    Ok(marks)
}

/// The curve that list item `m` names in its `curve` key.
fn curve_of(c: &Compiler, m: &[(String, Value)], list: &str, what: &str) -> Result<usize, ParamError> {
    let name = map_get(m, "curve").and_then(text_of).unwrap_or_default();
    match c.lookup(&name, true, None) {
        Some(Resolved::Func(f)) => Ok(usize::from(f)),
        _ => {
            let named: Vec<&str> = c.names.iter().filter(|n| matches!(n.resolved, Resolved::Func(_))).map(|n| n.name.as_str()).collect();
            Err(err(list, format!("{what}: `curve` must name a curve, found `{name}`"), keyed(&["curve"], "not a named curve", format!("{}named curves: {}", did_you_mean(&name, named.iter().copied()), if named.is_empty() { "none; name one as `f(x) = …`".to_string() } else { named.join(", ") }))))
        }
    }
}

/// `areas`: a mark each; its value (the integral) in a new slot, named if asked.
pub(super) fn areas(params: &Params, c: &mut Compiler, marks: &mut Vec<Value>) -> Result<(), ParamError> {
    for (i, item) in items(params, "areas")?.iter().enumerate() {
        let what = format!("area {}", i + 1);
        let Value::Map(m) = item else {
            return Err(err("areas", format!("{what}: expected `{{curve: f, from: a, to: b}}`"), keyed(&[], "here", "")));
        };
        unknown_keys(m, &["curve", "from", "to", "name", "label"], "areas", &[])?;
        let f = curve_of(c, m, "areas", &what)?;
        let mut ends = Vec::new();
        for key in ["from", "to"] {
            let Some(t) = map_get(m, key).and_then(text_of) else {
                return Err(err("areas", format!("{what}: `{key}` is missing"), keyed(&[], "here", "write `{curve: f, from: a, to: b}`")));
            };
            let site = Site { param: "areas", keys: vec![key.into()], what: what.clone() };
            ends.push(c.expr(&t, None, &site)?);
        }
        let value = core_plot::integral(&|t| c.funcs.get(f).map_or(f64::NAN, |p| p.eval(t, &c.slots, &c.funcs[..f])), ends[0].eval(0.0, &c.slots, &c.funcs), ends[1].eval(0.0, &c.slots, &c.funcs), 400);
        let label = map_get(m, "label").and_then(text_of).unwrap_or_default();
        marks.push(mark(4, f, 0, Some(&ends[0]), Some(&ends[1]), 0, label));
        if let Some(name) = map_get(m, "name").and_then(text_of) {
            check_name(c, &name, "areas", keyed(&["name"], "this name", "choose another name"))?;
            c.add(&name, Resolved::Slot(c.slots.len() as u16));
        }
        c.slots.push(value);
    }
    Ok(())
}

/// `tangents`: a mark each, at a slider's value; its slope in a new slot, named if asked.
pub(super) fn tangents(params: &Params, c: &mut Compiler, x: (f64, f64), live_params: &[Value], marks: &mut Vec<Value>) -> Result<(), ParamError> {
    for (i, item) in items(params, "tangents")?.iter().enumerate() {
        let what = format!("tangent {}", i + 1);
        let Value::Map(m) = item else {
            return Err(err("tangents", format!("{what}: expected `{{curve: f, at: a}}`"), keyed(&[], "here", "")));
        };
        unknown_keys(m, &["curve", "at", "name", "label"], "tangents", &[])?;
        let f = curve_of(c, m, "tangents", &what)?;
        let at = map_get(m, "at").and_then(text_of).unwrap_or_default();
        let slider = live_params.iter().position(|p| matches!(p, Value::List(l) if l.first() == Some(&Value::Text(at.clone()))));
        let Some(param) = slider else {
            let names: Vec<&str> = c.names.iter().filter(|n| matches!(n.resolved, Resolved::Slot(s) if usize::from(s) < live_params.len())).map(|n| n.name.as_str()).collect();
            return Err(err("tangents", format!("{what}: `at` must name a parameter (its slider moves the point), found `{at}`"), keyed(&["at"], "not a parameter", format!("{}add a parameter such as `a: {{value: 1, range: [-3, 3]}}` and write `at: a`", did_you_mean(&at, names.iter().copied())))));
        };
        let slope = core_plot::slope(&|t| c.funcs.get(f).map_or(f64::NAN, |p| p.eval(t, &c.slots, &c.funcs[..f])), c.slots[param], (x.1 - x.0) * 1e-6);
        let label = map_get(m, "label").and_then(text_of).unwrap_or_default();
        marks.push(mark(5, f, param, None, None, 0, label));
        if let Some(name) = map_get(m, "name").and_then(text_of) {
            check_name(c, &name, "tangents", keyed(&["name"], "this name", "choose another name"))?;
            c.add(&name, Resolved::Slot(c.slots.len() as u16));
        }
        c.slots.push(slope);
    }
    Ok(())
}

/// `points`: a mark each, at two expressions.
pub(super) fn points(params: &Params, c: &mut Compiler, live_params: &[Value], marks: &mut Vec<Value>) -> Result<(), ParamError> {
    for (i, item) in items(params, "points")?.iter().enumerate() {
        let what = format!("point {}", i + 1);
        let (coords, label, keys) = match item {
            Value::List(l) => (l.clone(), String::new(), Vec::new()),
            Value::Map(m) => {
                unknown_keys(m, &["at", "label"], "points", &[])?;
                let l = match map_get(m, "at") {
                    Some(Value::List(l)) => l.clone(),
                    _ => Vec::new(),
                };
                (l, map_get(m, "label").and_then(text_of).unwrap_or_default(), vec!["at".to_string()])
            }
            _ => (Vec::new(), String::new(), Vec::new()),
        };
        let texts: Vec<String> = coords.iter().filter_map(text_of).collect();
        if texts.len() != 2 || coords.len() != 2 {
            return Err(err("points", format!("{what}: expected `[x, y]` (numbers or expressions)"), keyed(&[], "here", "write `- [-b / w, 0.5]` or `- {at: [1, 2], label: A}`")));
        }
        let mut progs = Vec::new();
        for t in &texts {
            let site = Site { param: "points", keys: keys.clone(), what: what.clone() };
            progs.push(c.expr(t, None, &site)?);
        }
        marks.push(mark(1, 0, 0, Some(&progs[0]), Some(&progs[1]), 0, label));
        c.keep_height(&progs[1], live_params.len());
    }
    Ok(())
}

/// `lines`: a mark each, vertical (`x = …`) or horizontal (`y = …`).
pub(super) fn lines(params: &Params, c: &mut Compiler, live_params: &[Value], marks: &mut Vec<Value>) -> Result<(), ParamError> {
    for (i, item) in items(params, "lines")?.iter().enumerate() {
        let what = format!("line {}", i + 1);
        let (axis, t, label) = match item {
            Value::Text(s) => match s.split_once('=') {
                Some((lhs, rhs)) if matches!(lhs.trim(), "x" | "y") => (lhs.trim().to_string(), rhs.to_string(), String::new()),
                _ => return Err(err("lines", format!("{what}: expected `x = …` (vertical) or `y = …` (horizontal)"), Place { text: Some(s.clone()), label: "here".into(), hint: "write `- x = -b / w` or `- {y: 0.5, label: half}`".into(), ..Place::default() })),
            },
            Value::Map(m) => {
                unknown_keys(m, &["x", "y", "label"], "lines", &[])?;
                let label = map_get(m, "label").and_then(text_of).unwrap_or_default();
                match (map_get(m, "x").and_then(text_of), map_get(m, "y").and_then(text_of)) {
                    (Some(t), None) => ("x".to_string(), t, label),
                    (None, Some(t)) => ("y".to_string(), t, label),
                    _ => return Err(err("lines", format!("{what}: give exactly one of `x` and `y`"), keyed(&[], "here", "write `{x: 1, label: …}` or `{y: 0.5}`"))),
                }
            }
            _ => return Err(err("lines", format!("{what}: expected `x = …` or `y = …`"), keyed(&[], "here", ""))),
        };
        let site = Site { param: "lines", keys: Vec::new(), what: what.clone() };
        let p = c.expr(&t, None, &site)?;
        if axis == "y" {
            c.keep_height(&p, live_params.len());
        }
        marks.push(mark(if axis == "x" { 2 } else { 3 }, 0, 0, Some(&p), None, 0, label));
    }
    Ok(())
}

/// `readouts`: each into its live pieces.
pub(super) fn readouts(params: &Params, c: &Compiler) -> Result<Vec<Value>, ParamError> {
    let mut readouts = Vec::new();
    for (i, item) in items(params, "readouts")?.iter().enumerate() {
        let what = format!("readout {}", i + 1);
        let Some(t) = text_of(item) else {
            return Err(err("readouts", format!("{what}: expected text"), keyed(&[], "here", "write `- \"slope: {w/4:.3}\"`")));
        };
        readouts.push(Value::List(readout(c, &t, &what)?));
    }
    Ok(readouts)
}

/// One slider: [_, value, min, max, step].
fn slider(c: &Compiler, name: &str, v: &Value) -> Result<[f64; 5], ParamError> {
    check_name(c, name, "params", keyed(&[name], "this name", "name parameters with letters, digits and `_`"))?;
    let Value::Map(m) = v else {
        return Err(err("params", format!("parameter `{name}`: expected `{{value: …, range: [min, max], step: …}}`"), keyed(&[name], "here", "write e.g. `w: {value: 1, range: [-3, 3], step: 0.1, label: weight}`")));
    };
    unknown_keys(m, PARAM_KEYS, "params", &[name])?;
    let number = |key: &str| -> Result<Option<f64>, ParamError> {
        match map_get(m, key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => constant(v, "params", &[name, key], &format!("parameter `{name}`: `{key}`")).map(Some),
        }
    };
    let range = match map_get(m, "range") {
        Some(Value::List(l)) if l.len() == 2 => {
            let what = format!("parameter `{name}`: `range`");
            (constant(&l[0], "params", &[name, "range"], &what)?, constant(&l[1], "params", &[name, "range"], &what)?)
        }
        _ => return Err(err("params", format!("parameter `{name}`: `range: [min, max]` is missing or not two numbers"), keyed(&[name], "here", "write `range: [min, max]`"))),
    };
    if range.0.abs() > SLIDER_LIMIT || range.1.abs() > SLIDER_LIMIT {
        return Err(err("params", format!("parameter `{name}`: the range {}..{} reaches beyond ±1e12", fmt_num(range.0), fmt_num(range.1)), keyed(&[name, "range"], "too large", "a slider's ends lie within -1e12..1e12; rescale the parameter (e.g. thousands instead of units)")));
    }
    if range.0 >= range.1 {
        let message = if range.0 == range.1 {
            format!("parameter `{name}`: the range's min and max are both {}: a slider needs min < max", fmt_num(range.0))
        } else {
            format!("parameter `{name}`: the range's min {} is above its max {}", fmt_num(range.0), fmt_num(range.1))
        };
        return Err(err("params", message, keyed(&[name, "range"], "min must be below max", "write `range: [min, max]` with min < max")));
    }
    let span = range.1 - range.0;
    let step = number("step")?.unwrap_or(span / 100.0);
    if step <= 0.0 {
        return Err(err("params", format!("parameter `{name}`: the step must be above 0, found {}", fmt_num(step)), keyed(&[name, "step"], "not above 0", format!("the range spans {}; a step such as {} divides it", fmt_num(span), fmt_num(dividing_step(span, span / 100.0))))));
    }
    let count = span / step;
    if count.round() > MAX_STOPS {
        return Err(err("params", format!("parameter `{name}`: the step {} is too small: it cuts the range {}..{} into more than 100000 steps", fmt_num(step), fmt_num(range.0), fmt_num(range.1)), keyed(&[name, "step"], "too small", format!("use a step of at least {} (the range spans {}), such as {}", fmt_num(span / MAX_STOPS), fmt_num(span), fmt_num(dividing_step(span, span / 100.0))))));
    }
    if (count - count.round()).abs() > 1e-6 * count.max(1.0) {
        return Err(err("params", format!("parameter `{name}`: the step {} does not divide the range {}..{} into whole steps", fmt_num(step), fmt_num(range.0), fmt_num(range.1)), keyed(&[name, "step"], "does not divide the range", format!("the range spans {}; a step such as {} divides it", fmt_num(span), fmt_num(dividing_step(span, step))))));
    }
    let value = number("value")?.unwrap_or(range.0 + span / 2.0);
    if value < range.0 || value > range.1 {
        return Err(err("params", format!("parameter `{name}`: the value {} is outside its range {}..{}", fmt_num(value), fmt_num(range.0), fmt_num(range.1)), keyed(&[name, "value"], "outside the range", "")));
    }
    // The slider can only hold min + k·step; a value between two stops would be shown
    // at one of them while the plot used the other.
    let k = (value - range.0) / step;
    if (k - k.round()).abs() > 1e-6 * k.abs().max(1.0) {
        let stop = |k: f64| ((range.0 + k * step) * 1e9).round() / 1e9;
        return Err(err("params", format!("parameter `{name}`: the value {} is not on the slider's steps ({} + a whole number of {})", fmt_num(value), fmt_num(range.0), fmt_num(step)), keyed(&[name, "value"], "between two steps", format!("the slider can hold {} or {}", fmt_num(stop(k.floor())), fmt_num(stop(k.floor() + 1.0))))));
    }
    Ok([0.0, value, range.0, range.1, step])
}

/// A step near `step` that divides `span` into whole steps and has at most 3 decimals.
fn dividing_step(span: f64, step: f64) -> f64 {
    let n = (span / step).round().max(1.0);
    for k in 0..50 {
        for m in [n + k as f64, n - k as f64] {
            if m >= 1.0 {
                let s = span / m;
                if ((s * 1000.0).round() - s * 1000.0).abs() < 1e-9 {
                    return s;
                }
            }
        }
    }
    span / 100.0
}

/// A readout's text → live pieces: text, and `[program, decimals]` per placeholder.
fn readout(c: &Compiler, t: &str, what: &str) -> Result<Vec<Value>, ParamError> {
    let fail = |start: usize, end: usize, message: String, hint: &str| {
        err("readouts", format!("{what}: {message}"), Place {
            text: Some(t.to_string()),
            range: Some((start, end.max(start + 1))),
            label: "here".into(),
            hint: hint.into(),
            ..Place::default()
        })
    };
    let mut pieces = Vec::new();
    let mut lit = String::new();
    let mut i = 0;
    let b = t.as_bytes();
    while i < b.len() {
        match b[i] {
            b'{' if b.get(i + 1) == Some(&b'{') => {
                lit.push('{');
                i += 2;
            }
            b'}' if b.get(i + 1) == Some(&b'}') => {
                lit.push('}');
                i += 2;
            }
            b'}' => return Err(fail(i, i + 1, "a `}` without its `{`".into(), "write `}}` for a literal brace")),
            b'{' => {
                let Some(close) = t[i + 1..].find('}').map(|k| i + 1 + k) else {
                    return Err(fail(i, i + 1, "this `{` is never closed".into(), "placeholders are `{expr}` or `{expr:.N}`; write `{{` for a literal brace"));
                };
                let inner = &t[i + 1..close];
                let (expr_text, decimals) = match inner.rfind(':') {
                    Some(colon) => {
                        let fmt = &inner[colon + 1..];
                        let d = fmt.strip_prefix('.').and_then(crate::fmt::parse_index).filter(|d| *d <= 12);
                        match d {
                            Some(d) => (&inner[..colon], d),
                            None => return Err(fail(i + 2 + colon, close, format!("`{fmt}` is not a format"), "write `:.N` for N decimals (0 to 12), e.g. `{w/4:.3}`")),
                        }
                    }
                    None => (inner, 2),
                };
                if !lit.is_empty() {
                    pieces.push(Value::Text(std::mem::take(&mut lit)));
                }
                let site = Site { param: "readouts", keys: Vec::new(), what: what.to_string() };
                // Errors inside the placeholder point into the readout's text.
                let p = c.expr(expr_text, None, &site).map_err(|mut e| {
                    if let Some(place) = e.place.as_mut() {
                        place.range = place.range.map(|(a, z)| (a + i + 1, z + i + 1));
                        place.text = Some(t.to_string());
                    }
                    e
                })?;
                pieces.push(Value::List(vec![ops_value(&p), Value::Num(decimals as f64)]));
                i = close + 1;
            }
            _ => {
                let ch = t[i..].chars().next().unwrap_or(' ');
                lit.push(ch);
                i += ch.len_utf8();
            }
        }
    }
    if !lit.is_empty() {
        pieces.push(Value::Text(lit));
    }
    Ok(pieces)
}

