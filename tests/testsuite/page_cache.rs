//! The page cache: a chapter's whole output is reused by the next build when nothing it
//! is made from changed. The rule tested: after any edit, a warm build (pages kept by the
//! build before) gives exactly what a build from an empty cache gives.

use mathcourse_tests::BookTest;
use mdbook_driver::MDBook;
use mdbook_mathcourse::RunStats;
use mdbook_preprocessor::book::BookItem;
use mdbook_preprocessor::PreprocessorContext;

/// What a build of the book gives: every chapter's output, the diagnostics as printed,
/// and the counters.
struct Built {
    pages: Vec<(String, String)>,
    diagnostics: String,
    stats: RunStats,
}

fn build(test: &BookTest) -> Built {
    let md = MDBook::load(&test.root).unwrap();
    let ctx = PreprocessorContext::new(test.root.clone(), md.config.clone(), "html".into());
    let outcome = mdbook_mathcourse::process(&ctx, md.book.clone()).unwrap();
    let pages = outcome
        .book
        .iter()
        .filter_map(|item| match item {
            BookItem::Chapter(ch) => Some((ch.name.clone(), ch.content.clone())),
            _ => None,
        })
        .collect();
    Built {
        pages,
        diagnostics: mdbook_mathcourse::diagnostic::render_all(&outcome.diagnostics, false),
        stats: outcome.stats,
    }
}

fn cache_dir(test: &BookTest) -> std::path::PathBuf {
    test.root.join(".mathcourse-cache")
}

/// Builds warm, then from an empty cache, and asserts both give the same pages and
/// diagnostics; returns the warm build.
fn warm_equals_cold(test: &BookTest, edit: &str) -> Built {
    let warm = build(test);
    std::fs::remove_dir_all(cache_dir(test)).unwrap();
    let cold = build(test);
    assert_eq!(
        cold.stats.pages_reused, 0,
        "{edit}: an empty cache reuses nothing"
    );
    assert_eq!(
        warm.diagnostics, cold.diagnostics,
        "{edit}: diagnostics differ"
    );
    for ((name, warm_page), (_, cold_page)) in warm.pages.iter().zip(&cold.pages) {
        assert!(
            warm_page == cold_page,
            "{edit}: the warm build's page of {name} is not the page a cold build makes"
        );
    }
    assert_eq!(warm.pages.len(), cold.pages.len(), "{edit}");
    warm
}

fn edit(test: &mut BookTest, path: &str, from: &str, to: &str) {
    let text = std::fs::read_to_string(test.root.join(path)).unwrap();
    assert!(text.contains(from), "{path} has no {from:?}");
    test.change_file(path, &text.replacen(from, to, 1));
}

#[test]
fn a_build_with_nothing_changed_reuses_every_page() {
    let test = BookTest::from_dir("inspect/basic");
    let cold = build(&test);
    assert_eq!(cold.stats.pages_reused, 0);
    let warm = build(&test);
    assert_eq!(warm.stats.pages_reused, warm.stats.chapters);
    assert_eq!(warm.stats.cache_misses, 0);
    assert_eq!(
        warm.stats.cache_hits,
        cold.stats.cache_hits + cold.stats.cache_misses
    );
    assert_eq!(warm.pages, cold.pages);
}

/// Edits of every kind of book-wide input, one after the other; after each, the warm
/// build is the cold build.
#[test]
fn after_any_edit_a_warm_build_is_the_cold_build() {
    let mut test = BookTest::from_dir("inspect/basic");
    build(&test);

    // One chapter's prose: only that page is rendered again.
    let text = std::fs::read_to_string(test.root.join("src/softmax.md")).unwrap();
    test.change_file("src/softmax.md", &format!("{text}\nOne more: $q^2$.\n"));
    let warm = warm_equals_cold(&test, "a sentence added");
    assert_eq!(warm.stats.pages_reused, warm.stats.chapters - 1);

    let edits: &[(&str, &str, &str)] = &[
        // A symbol's meaning, shown by the inspectable formula of another chapter.
        (
            "src/descent.md",
            "meaning: The learning rate",
            "meaning: The step size",
        ),
        // A new use of a symbol, in a chapter that used none: the notation index lists
        // that chapter under it.
        (
            "src/claims.md",
            "by status.",
            "by status, each about numbers in $\\mathbb{R}$.",
        ),
        // The symbols file.
        (
            "symbols.yml",
            "Every number on the number line",
            "Every real number",
        ),
        // Lines before a definition: where it is defined moves.
        (
            "src/descent.md",
            "# Gradient descent\n",
            "# Gradient descent\n\nA new first paragraph.\n\n",
        ),
        // A chapter title (links to it elsewhere).
        ("src/SUMMARY.md", "[Gradient descent]", "[Descent]"),
        // A claim's status (the claims page).
        (
            "src/descent.md",
            ":::{claim} empirical",
            ":::{claim} established",
        ),
        // A reference to another chapter's equation; then a new labelled equation
        // there, before it: its number changes.
        (
            "src/descent.md",
            "# Gradient descent\n",
            "# Gradient descent\n\nSee {eq}`eq-update-size`.\n",
        ),
        // (after the chapter's definitions: none of them moves).
        (
            "src/softmax.md",
            ":::{math}\n:label: eq-update-size",
            ":::{math}\n:label: eq-first\nx = 1\n:::\n\n:::{math}\n:label: eq-update-size",
        ),
        // A chapter's own macros.
        (
            "src/softmax.md",
            "# Softmax\n",
            "---\nmacros:\n  \\\\T: 'T'\n---\n# Softmax\n",
        ),
        // The book's configuration.
        (
            "book.toml",
            "[preprocessor.mathcourse]",
            "[preprocessor.mathcourse]\nfleqn = true",
        ),
    ];
    for (path, from, to) in edits {
        edit(&mut test, path, from, to);
        warm_equals_cold(&test, &format!("{path}: {from:?} → {to:?}"));
    }
    // A template override (with a mark at its end): every claim shows it.
    let claim = std::fs::read_to_string(
        mathcourse_tests::repo_dir().join("preprocessor/templates/claim.html"),
    )
    .unwrap();
    test.change_file(
        "mathcourse-templates/claim.html",
        &format!("{claim}<!-- overridden -->"),
    );
    let warm = warm_equals_cold(&test, "a template override");
    assert!(warm
        .pages
        .iter()
        .any(|(_, p)| p.contains("<!-- overridden -->")));

    // The use added above is on the notation page.
    let notation = &warm.pages.iter().find(|(n, _)| n == "Notation").unwrap().1;
    assert!(notation.contains("claims.html"), "{notation}");

    // The meaning edited above reached the other chapter's page.
    let softmax = build(&test);
    let page = &softmax
        .pages
        .iter()
        .find(|(n, _)| n == "Softmax")
        .unwrap()
        .1;
    assert!(page.contains("The step size") && !page.contains("The learning rate"));
}

/// A chapter that reports something is not kept: the next build reports it again.
#[test]
fn a_chapter_with_a_warning_is_rendered_and_reported_every_build() {
    let mut test = BookTest::from_dir("inspect/basic");
    let text = std::fs::read_to_string(test.root.join("src/softmax.md")).unwrap();
    test.change_file("src/softmax.md", &format!("{text}\n:::{{nope}}\n:::\n"));
    let first = build(&test);
    let second = build(&test);
    assert!(first.diagnostics.contains("nope"), "{}", first.diagnostics);
    assert_eq!(first.diagnostics, second.diagnostics);
    assert_eq!(second.stats.pages_reused, second.stats.chapters - 1);
}

/// A page damaged on disk (cut short, or edited) is not served: the chapter is rendered
/// again and its page rewritten.
#[test]
fn a_damaged_page_is_rendered_again() {
    let test = BookTest::from_dir("inspect/basic");
    let cold = build(&test);
    for entry in std::fs::read_dir(cache_dir(&test)).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "page") {
            let text = std::fs::read_to_string(&path).unwrap();
            std::fs::write(&path, &text[..text.len() - 10]).unwrap();
        }
    }
    let warm = build(&test);
    assert_eq!(warm.stats.pages_reused, 0);
    assert_eq!(warm.pages, cold.pages);
    assert_eq!(build(&test).stats.pages_reused, cold.stats.chapters);
}

/// Only regular files are read from the cache: a FIFO where a page (or the uses kept
/// for a chapter) should be is skipped with one warning at its chapter, never opened
/// (the build would wait).
#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_a_page_is_skipped_with_a_warning() {
    for (extension, message) in [
        ("page", "the page cache of this chapter was skipped"),
        ("uses", "the symbol uses kept for this chapter were skipped"),
    ] {
        let test = BookTest::from_dir("inspect/basic");
        build(&test);
        mathcourse_tests::fifo_in_place_of(&cache_dir(&test), extension);
        let outcome = mathcourse_tests::process_or_hang(&test.root);
        let text = mdbook_mathcourse::diagnostic::render_all(&outcome.diagnostics, false);
        assert_eq!(text.matches(message).count(), 1, "{text}");
        assert!(
            text.contains("is a FIFO (named pipe), not a regular file"),
            "{text}"
        );
    }
}

/// A cache folder that cannot be written (here a file in its place; read-only or full
/// alike) is the folder's problem, not each chapter's: one warning for the build, not
/// one per chapter; the pages are the ones a build with a working cache makes.
#[test]
fn an_unwritable_cache_folder_is_one_warning_not_one_per_chapter() {
    let test = BookTest::from_dir("inspect/basic");
    let working = build(&test);
    std::fs::remove_dir_all(cache_dir(&test)).unwrap();
    std::fs::write(cache_dir(&test), "not a folder").unwrap();
    let md = MDBook::load(&test.root).unwrap();
    let ctx = PreprocessorContext::new(test.root.clone(), md.config.clone(), "html".into());
    let outcome = mdbook_mathcourse::process(&ctx, md.book.clone()).unwrap();
    assert!(outcome.stats.chapters > 1);
    let text = mdbook_mathcourse::diagnostic::render_all(&outcome.diagnostics, false);
    assert!(!text.contains("could not write"), "{text}");
    let warnings: Vec<_> = outcome
        .config_warnings
        .iter()
        .filter(|w| w.contains("could not write the cache folder `.mathcourse-cache`"))
        .collect();
    assert_eq!(warnings.len(), 1, "{:?}", outcome.config_warnings);
    assert!(
        warnings[0].contains(&format!("of {} chapters", outcome.stats.chapters)),
        "{}",
        warnings[0]
    );
    let pages: Vec<(String, String)> = outcome
        .book
        .iter()
        .filter_map(|item| match item {
            BookItem::Chapter(ch) => Some((ch.name.clone(), ch.content.clone())),
            _ => None,
        })
        .collect();
    assert!(pages == working.pages, "the pages differ without a cache");
    assert_eq!(working.diagnostics, text);
}

fn page<'a>(built: &'a Built, name: &str) -> &'a str {
    &built
        .pages
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no chapter {name}"))
        .1
}

/// What other chapters read of a chapter's place in the book: its module number (the
/// prerequisites that link to it, its equations' numbers in `{eq}` references), its
/// folder (every link to it), an override removed, an included file edited while the
/// including chapter is not. After each edit the warm build is the cold build.
#[test]
fn renumbering_moving_and_included_files_reach_every_page() {
    let mut test = BookTest::from_dir("inspect/basic");
    edit(
        &mut test,
        "book.toml",
        "[preprocessor.mathcourse]",
        "[preprocessor.mathcourse]\nbefore = [\"links\"]",
    );
    edit(
        &mut test,
        "src/softmax.md",
        "# Softmax\n",
        "---\nmodule: 7\n---\n# Softmax\n",
    );
    edit(
        &mut test,
        "src/descent.md",
        "# Gradient descent\n",
        "---\ntitle: Gradient descent\nprerequisites: [7]\n---\n\nAs in {eq}`eq-softmax`.\n\n{{#include parts/note.md}}\n",
    );
    test.change_file("src/parts/note.md", "An included note: $a^2$.\n");
    let first = warm_equals_cold(&test, "module 7");
    assert!(page(&first, "Gradient descent").contains("(7.1)"));
    build(&test);

    assert!(page(&first, "Gradient descent").contains("softmax.html\">7</a>"));
    // Softmax only: the page of descent is not edited, its references change.
    edit(&mut test, "src/softmax.md", "module: 7", "module: 8");
    let warm = warm_equals_cold(&test, "module 8");
    let descent = page(&warm, "Gradient descent");
    assert!(
        descent.contains("(8.1)") && !descent.contains("(7.1)"),
        "{descent}"
    );
    assert!(!descent.contains("softmax.html\">7</a>"), "{descent}");
    edit(
        &mut test,
        "src/descent.md",
        "prerequisites: [7]",
        "prerequisites: [8]",
    );
    let warm = warm_equals_cold(&test, "prerequisite 8");
    assert!(page(&warm, "Gradient descent").contains("softmax.html\">8</a>"));

    // The included file only: the chapter that includes it is not edited.
    test.change_file("src/parts/note.md", "An included note, edited: $b^2$.\n");
    let warm = warm_equals_cold(&test, "an included file");
    assert!(page(&warm, "Gradient descent").contains("edited"));

    // Softmax moves into a folder: links to it and to its symbols change.
    let text = std::fs::read_to_string(test.root.join("src/softmax.md")).unwrap();
    std::fs::remove_file(test.root.join("src/softmax.md")).unwrap();
    test.change_file("src/models/softmax.md", &text);
    edit(
        &mut test,
        "src/SUMMARY.md",
        "(softmax.md)",
        "(models/softmax.md)",
    );
    let warm = warm_equals_cold(&test, "a chapter moved into a folder");
    assert!(page(&warm, "Gradient descent").contains("models/softmax.html"));

    // A template override added, then removed: every claim is back to the built-in.
    let claim = std::fs::read_to_string(
        mathcourse_tests::repo_dir().join("preprocessor/templates/claim.html"),
    )
    .unwrap();
    test.change_file(
        "mathcourse-templates/claim.html",
        &format!("{claim}<!-- overridden -->"),
    );
    build(&test);
    std::fs::remove_file(test.root.join("mathcourse-templates/claim.html")).unwrap();
    let warm = warm_equals_cold(&test, "a template override removed");
    assert!(!warm
        .pages
        .iter()
        .any(|(_, p)| p.contains("<!-- overridden -->")));
}

/// A line added above a chapter's labels and definitions moves where they are written,
/// which only diagnostics quote (and a chapter that reports anything is rendered every
/// build): the other pages are reused, and a warning of another chapter that quotes the
/// place shows the new line.
#[test]
fn a_line_added_above_a_definition_renders_only_its_chapter() {
    let mut test = BookTest::from_dir("inspect/basic");
    let first = build(&test);
    assert_eq!(
        build(&test).stats.pages_reused,
        first.stats.chapters,
        "nothing changed"
    );
    edit(
        &mut test,
        "src/softmax.md",
        "# Softmax\n",
        "# Softmax\n\nA first paragraph.\n\n",
    );
    let warm = warm_equals_cold(&test, "a line above a label");
    assert_eq!(warm.stats.pages_reused, warm.stats.chapters - 1);

    // Claims borrows η from descent without `uses:`: its warning says where η is.
    edit(
        &mut test,
        "src/claims.md",
        "by status.",
        "by status.\n\n:::{formula} Borrowed\n---\nstatus: established\ntex: '\\eta + 1'\n---\nA step.\n:::\n",
    );
    let before = warm_equals_cold(&test, "a borrowed symbol");
    assert!(
        before.diagnostics.contains("src/descent.md:7:3"),
        "{}",
        before.diagnostics
    );
    edit(
        &mut test,
        "src/descent.md",
        "# Gradient descent\n",
        "# Gradient descent\n\nTwo new\nlines.\n",
    );
    let after = warm_equals_cold(&test, "lines above the borrowed symbol");
    assert!(
        after.diagnostics.contains("src/descent.md:10:3"),
        "{}",
        after.diagnostics
    );
    assert_eq!(after.stats.pages_reused, after.stats.chapters - 2);
}

/// The packs, pages and uses files in the cache folder.
fn cache_files(test: &BookTest) -> usize {
    std::fs::read_dir(cache_dir(test))
        .unwrap()
        .filter(|e| {
            let path = e.as_ref().unwrap().path();
            path.extension()
                .is_some_and(|x| x == "pack" || x == "page" || x == "uses")
        })
        .count()
}

#[test]
fn a_chapter_removed_or_renamed_leaves_no_cache_files_behind() {
    let mut test = BookTest::from_dir("inspect/basic");
    let summary = "src/SUMMARY.md";
    let first = build(&test);
    assert_eq!(first.stats.cache_files_removed, 0);
    let files = cache_files(&test);
    // Something of the author's own in the folder is never touched.
    test.change_file(".mathcourse-cache/notes.page.txt", "mine\n");

    // Softmax renamed: its files go, the new name gets as many of its own.
    std::fs::rename(
        test.root.join("src/softmax.md"),
        test.root.join("src/softmax-function.md"),
    )
    .unwrap();
    edit(&mut test, summary, "(softmax.md)", "(softmax-function.md)");
    let renamed = build(&test);
    assert!(
        renamed.stats.cache_files_removed >= 2,
        "the pack and page of softmax.md are deleted"
    );
    assert_eq!(cache_files(&test), files);

    // Claims removed from the book: its files go, the others stay.
    edit(&mut test, summary, "- [Claims](claims.md)\n", "");
    let removed = build(&test);
    assert!(removed.stats.cache_files_removed >= 1);
    assert_eq!(
        cache_files(&test),
        files - removed.stats.cache_files_removed
    );
    assert_eq!(
        std::fs::read_to_string(cache_dir(&test).join("notes.page.txt")).unwrap(),
        "mine\n"
    );
    // Nothing left to delete, and what stays is what a cold build makes.
    let again = warm_equals_cold(&test, "claims removed");
    assert_eq!(again.stats.cache_files_removed, 0);
}
