//! Safety: author text in every field of every directive is escaped; no live markup,
//! no event handlers, no `javascript:` URLs, no template evaluation.

use mathcourse_tests::BookTest;

/// Payloads pushed through every field.
const PAYLOADS: &[&str] = &[
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(1)>",
    "' onmouseover='alert(1)",
    "[click](javascript:alert(1))",
    "<a href=\"javascript:alert(1)\">x</a>",
    "{{ 7*7 }} {% if true %}T{% endif %}",
    "<!-- hidden --> visible",
    "</aside></figure><script>alert(2)</script>",
    "<svg onload=alert(1)>",
];

/// One snippet per directive; `P` marks every place author text goes.
fn snippets(p: &str) -> Vec<(&'static str, String)> {
    let one_line = p.replace('\n', " ");
    let yaml = format!("'{}'", one_line.replace('\'', "''"));
    vec![
        ("claim", format!(":::{{claim}} empirical\n:source: {one_line}\nBody.\n:::\n")),
        // `check` takes no free text but its body (Markdown, like every body): options
        // are numbers and expressions that must parse, and the kind must be known.
        (
            "check",
            ":::{check} dot\n:a: [1, 2]\n:b: [3, 4]\n:expect: 11\nBody.\n:::\n".to_string(),
        ),
        (
            "formula",
            format!(
                ":::{{formula}} {one_line}\n---\nstatus: model\nsource: {yaml}\ntex: x^2\ncode: {yaml}\ndoes-not-say: {yaml}\nwhere:\n  - {{id: x, tex: x, name: {yaml}, meaning: {yaml}, code: {yaml}, shape: x}}\n---\nReading.\n:::\n"
            ),
        ),
        ("math", ":::{math}\n\\text{<script>alert(1)</script>}\n:::\n".to_string()),
        ("practice", format!("::::{{practice}} {one_line}\nQ.\n:::{{solution}} {one_line}\nA.\n:::\n::::\n")),
        ("pitfall", format!(":::{{pitfall}} {one_line}\nBody.\n:::\n")),
        ("history", format!(":::{{history}} {one_line}\n:source: {one_line}\nBody.\n:::\n")),
        ("deeper", format!(":::{{deeper}} {one_line}\nBody.\n:::\n")),
        ("skeptic", format!(":::{{skeptic}} {one_line}\n- a question?\n:::\n")),
        ("note", format!(":::{{note}} {one_line}\nBody.\n:::\n")),
        (
            "notation-index",
            format!(":::{{symbol-table}}\n---\n- {{id: b, tex: y, read: {yaml}, meaning: {yaml}, code: {yaml}}}\n---\n:::\n\n:::{{notation-index}}\n:::\n"),
        ),
        (
            "claims-index",
            // The claims themselves are in another chapter (see the test): a claim's body
            // is Markdown, where raw HTML is the author's own; its summary in the index
            // must still be escaped.
            ":::{claims-index}\n:::\n".to_string(),
        ),
        ("symbols", format!(":::{{symbols}}\n---\n- {{id: a, tex: x, name: {yaml}}}\n---\n:::\n")),
        (
            "symbol-table",
            format!(":::{{symbol-table}} {one_line}\n---\n- {{id: a, tex: x, read: {yaml}, meaning: {yaml}, code: {yaml}}}\n---\n:::\n"),
        ),
        (
            "steps",
            format!(":::{{steps}} {one_line}\n---\nlegend:\n  - {{tex: x, meaning: {yaml}}}\n---\n1. Step.\n:::\n"),
        ),
        (
            "connection",
            format!(":::{{connection}}\n---\ndiscipline: {yaml}\nlevel: 1\ntitle: {yaml}\nwhy: {yaml}\n---\nBody.\n:::\n"),
        ),
        (
            "watch",
            format!(":::{{watch}}\n---\ntitle: {yaml}\nurl: 'https://example.org/?q=\"><script>'\nsource: {yaml}\nduration: {yaml}\nwatch-for: {yaml}\n---\n:::\n"),
        ),
        ("takeaways", format!(":::{{takeaways}} {one_line}\n- A.\n:::\n")),
        ("further-reading", format!(":::{{further-reading}} {one_line}\n- B.\n:::\n")),
        ("demo", format!("::::{{demo}} {one_line}\n:::{{note}} {one_line}\nBody.\n:::\n::::\n")),
        // The caption is the body: Markdown, like every body. Parameters are escaped.
        ("widget", format!(":::{{widget}} softmax\n---\nlabels: [{yaml}, {yaml}, {yaml}]\n---\nCaption.\n:::\n")),
        // A plot's labels (slider, curve, point, line, tangent) are author text too (its
        // readouts hold `{expr}` placeholders that must parse: escaped, see its unit tests).
        ("widget", format!(":::{{widget}} plot\n---\nparams:\n  w: {{value: 1, range: [0, 2], step: 0.5, label: {yaml}}}\ncurves:\n  - {{expr: 'f(x) = w*x', label: {yaml}}}\npoints:\n  - {{at: [1, 1], label: {yaml}}}\nlines:\n  - {{x: 1, label: {yaml}}}\ntangents:\n  - {{curve: f, at: w, label: {yaml}}}\n---\nCaption.\n:::\n")),
        ("widget-reference", ":::{widget-reference}\n:::\n".to_string()),
    ]
}

/// Tags allowed in the `<main>` of a page built from the snippets.
const ALLOWED_TAGS: &[&str] = &[
    "main",
    "p",
    "span",
    "div",
    "aside",
    "section",
    "figure",
    "figcaption",
    "details",
    "summary",
    "strong",
    "em",
    "code",
    "pre",
    "a",
    "ul",
    "ol",
    "li",
    "br",
    "del",
    "h1",
    "h2",
    "h3",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "caption",
    "dl",
    "dt",
    "dd",
    "link",
    "header",
    "nav",
    "svg",
    "path",
    "line",
    "math",
    "semantics",
    "mrow",
    "mi",
    "mn",
    "mo",
    "msup",
    "msub",
    "mtext",
    "annotation",
    "mspace",
    "mfrac",
    "mstyle",
    "mover",
    "munder",
    "munderover",
    "msqrt",
    "mtable",
    "mtr",
    "mtd",
    "input",
    "label",
    "button",
    // widget markup (mathcourse-widgets): controls and SVG shapes
    "fieldset",
    "legend",
    "select",
    "option",
    "output",
    "sub",
    "sup",
    "tfoot",
    "g",
    "text",
    "tspan",
    // a picture's label: HTML drawing its text from `data-mc-t` (`svg::open_label`)
    "foreignobject",
    "title",
    "desc",
    "defs",
    "marker",
    "clippath",
    "circle",
    "rect",
    "ellipse",
    "polyline",
    "polygon",
];

fn tags(html: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut out = Vec::new();
    let bytes = html.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'<' && i + 1 < bytes.len() && bytes[i + 1].is_ascii_alphabetic() {
            let end = html[i..].find('>').map_or(html.len(), |e| i + e);
            let inner = &html[i + 1..end];
            let name: String = inner
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            let mut attrs = Vec::new();
            let mut rest = &inner[name.len()..];
            while let Some(eq) = rest.find('=') {
                let key = rest[..eq]
                    .trim()
                    .rsplit(' ')
                    .next()
                    .unwrap_or("")
                    .to_string();
                let after = rest[eq + 1..].trim_start();
                let (value, remaining) =
                    if let Some(q) = after.chars().next().filter(|c| *c == '"' || *c == '\'') {
                        let close = after[1..].find(q).map_or(after.len(), |c| c + 1);
                        (
                            after[1..close].to_string(),
                            &after[(close + 1).min(after.len())..],
                        )
                    } else {
                        let stop = after.find(' ').unwrap_or(after.len());
                        (after[..stop].to_string(), &after[stop..])
                    };
                attrs.push((key.to_ascii_lowercase(), value));
                rest = remaining;
            }
            out.push((name.to_ascii_lowercase(), attrs));
            i = end;
        }
        i += 1;
    }
    out
}

#[test]
fn xss_corpus_through_every_field_of_every_directive() {
    let mut test = BookTest::from_dir("math/basic");
    let mut chapter = String::from("# XSS\n\n");
    for p in PAYLOADS {
        for (_, snippet) in snippets(p) {
            chapter.push_str(&snippet);
            chapter.push('\n');
        }
    }
    test.change_file("src/inline.md", &chapter);
    let mut claims = String::from("# Claims elsewhere\n\n");
    for p in PAYLOADS {
        let one_line = p.replace('\n', " ");
        claims.push_str(&format!(
            ":::{{claim}} model\n:source: {one_line}\n{one_line}\n:::\n\n"
        ));
    }
    test.change_file("src/part/nested.md", &claims);
    test.build();
    let main = test.main_of("inline.html");
    for (name, attrs) in tags(&main) {
        let our_loader = name == "script"
            && attrs.iter().any(|(k, v)| {
                k == "src"
                    && ["/mathcourse.js", "/inspect.js", "/progress.js"]
                        .iter()
                        .any(|ours| v.ends_with(ours))
            })
            && attrs.len() <= 2;
        assert!(
            ALLOWED_TAGS.contains(&name.as_str()) || our_loader,
            "live <{name}> tag in output: {attrs:?}"
        );
        for (key, value) in attrs {
            assert!(
                !key.starts_with("on"),
                "event handler attribute {key}={value:?} on <{name}>"
            );
            let v = value.trim().to_ascii_lowercase();
            assert!(
                !(key == "href" || key == "src")
                    || !(v.starts_with("javascript:") || v.starts_with("data:")),
                "unsafe {key}={value:?}"
            );
        }
    }
    assert!(
        main.contains("{{ 7*7 }}"),
        "template syntax must stay literal text"
    );
    assert!(
        !main.contains(">49<") && !main.contains(" 49 "),
        "template syntax was evaluated"
    );
}

#[test]
fn every_registered_directive_is_covered_by_the_xss_corpus() {
    let covered: Vec<&str> = snippets("x").into_iter().map(|(n, _)| n).collect();
    let callouts = [
        "recognition",
        "example",
        "tip",
        "important",
        "warning",
        "caution",
    ];
    for name in mdbook_mathcourse::directive::registry::names() {
        assert!(
            covered.contains(&name) || callouts.contains(&name) || name == "solution",
            "directive `{name}` has no snippet in the XSS corpus (tests/testsuite/safety.rs)"
        );
    }
}
