//! The `{widget}` directive in built books: every widget rendered at build time into a
//! `<figure>` the loader makes live, and located diagnostics for author mistakes.

use mathcourse_tests::{check_snapshot, process, BookTest};

#[test]
fn widgets_render_their_initial_state_at_build_time() {
    let mut test = BookTest::from_dir("widgets/all");
    test.build()
        .check_main_file("vectors.html", "vectors.html")
        .check_main_file("more/gallery.html", "gallery.html");
    let main = test.main_of("vectors.html");
    // The figure carries what the loader needs; the initial render is already there.
    assert!(main.contains(
        "<figure class=\"mc-widget mc-widget-vectors\" id=\"mc-widget-1\" data-widget=\"vectors\" data-params=\"{&quot;a&quot;:[3,1],&quot;b&quot;:[1.5,3]}\">"
    ), "{main}");
    assert!(
        main.contains("<div class=\"mc-widget-root\">\n<div class=\"mc-w-vectors\">"),
        "{main}"
    );
    assert!(
        main.contains("<strong data-value=\"dot\" data-mc-t=\"7.50\"></strong>"),
        "readable without JavaScript"
    );
    assert!(main.contains("id=\"mc-widget-1-readouts\" aria-live=\"polite\""));
    // The caption is Markdown with math, in the figcaption.
    let caption = &main[main.find("<figcaption>").expect("figcaption")..];
    assert!(caption.contains("class=\"katex\""), "{caption}");
    assert!(main.contains("<p>Text after the widget.</p>"));
    // The loader and the styles are linked; the bundle sits next to the loader.
    let head = test.head_of("vectors.html");
    assert!(
        head.contains(
            "<script src=\"mathcourse-assets/[ASSETS-TAG]/mathcourse.js\" defer></script>"
        ),
        "{head}"
    );
    assert!(head
        .contains("<link rel=\"stylesheet\" href=\"mathcourse-assets/[ASSETS-TAG]/widgets.css\">"));
    let tag = mdbook_mathcourse::assets::tag();
    for file in [
        "mathcourse.js",
        "widgets.css",
        "widgets/mathcourse_widgets.js",
        "widgets/mathcourse_widgets_bg.wasm",
    ] {
        let path = test
            .root
            .join("book")
            .join(format!("mathcourse-assets/{tag}/{file}"));
        assert!(path.exists(), "{file} missing from the built book");
    }
    // Every widget of the crate is in the gallery or on the vectors page.
    let gallery = test.main_of("more/gallery.html");
    for name in mathcourse_widgets::names() {
        let figure = format!("data-widget=\"{name}\"");
        assert!(
            gallery.contains(&figure) || main.contains(&figure),
            "widget {name} missing from the fixture"
        );
    }
    assert!(test.head_of("more/gallery.html").contains(
        "<script src=\"../mathcourse-assets/[ASSETS-TAG]/mathcourse.js\" defer></script>"
    ));
    assert!(!gallery.contains(":::"), "no raw directive text");
}

#[test]
fn widget_mistakes_are_located() {
    let mut test = BookTest::from_dir("widgets/errors");
    let err = test.build_error();
    check_snapshot(&err, &test.fixture.join("expected/error.txt"));
    for needle in [
        "unknown widget `softmx`",
        "did you mean `softmax`?",
        "unknown parameter `c` for widget `vectors`",
        "valid parameters: `a`, `b`",
        "widget `vectors`, parameter `a`",
        "widget `softmax`, parameter `temperature`: expected a number, found text",
        "`widget` needs the name of a widget",
        "unknown parameter `learning-rate` for widget `gd-1d`",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
}

#[test]
fn other_renderers_get_the_caption_and_the_widget_name() {
    let mut test = BookTest::from_dir("widgets/all");
    test.change_file(
        "book.toml",
        "[book]\ntitle = \"Widgets\"\n\n[preprocessor.mathcourse]\n\n[output.markdown]\n",
    );
    test.build();
    let md = test.output("vectors.md");
    assert!(md.contains("*(interactive widget: vectors)*"), "{md}");
    assert!(md.contains("changes sign past"), "{md}");
    assert!(!md.contains("<figure"), "{md}");
}

/// Issue 23's plot hints and issue 22's `controls` link: each mistake, one message
/// naming it, with the right hint.
#[test]
fn plot_hints_name_the_real_mistake() {
    let test = BookTest::from_dir("widgets/plot-hints");
    let (text, errors) = process(&test).expect("the book loads");
    // Errors and warnings, in the order of the chapter.
    let err = format!("{text}{errors} errors\n");
    check_snapshot(&err, &test.fixture.join("expected/error.txt"));
    for needle in [
        "curve 1: unknown name `coss`",
        "did you mean `cos`?",
        "functions: sin, cos, tan, atan, exp",
        "curve 1: `x` is the curve's variable, not a function",
        "entry 2: unknown name `pix`",
        "the step must be above 0, found 0",
        "the step 1e-12 is too small",
        "the step 1e-300 is too small",
        "the range's min and max are both 1",
        "the range -1e308..1e308 reaches beyond ±1e12",
        "has no control `kk`",
        "did you mean `k`?",
        "no widget follows this card on the page",
        "warning: widget `plot`, parameter `y`: the y window 0..1.2 cuts what the sliders draw: at a = 3.5, the picture reaches 3.5",
        "10 errors",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
    for wrong in [
        "malformed",
        "a step such as 0 divides",
        "a step such as inf",
        "step 0 does not divide",
        "is above its max 1",
    ] {
        assert!(!err.contains(wrong), "{wrong:?} in\n{err}");
    }
}

#[test]
fn plot_mistakes_point_inside_the_options() {
    let mut test = BookTest::from_dir("widgets/plot-errors");
    let err = test.build_error();
    check_snapshot(&err, &test.fixture.join("expected/error.txt"));
    for needle in [
        "curve 2: unknown name `sigm`",
        "did you mean `sigma`?",
        "curve 1: expected a number, a variable, a function or `(`, found `*`",
        "the range's min 3 is above its max -3",
        "the step 0.3 does not divide the range 0..1",
        "curve 1 is undefined everywhere in the window x from -4 to -1",
        "readout 1: ",
        "readout 1: unknown name `wieght`",
        "7 errors",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
}
