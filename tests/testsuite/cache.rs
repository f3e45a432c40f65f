//! The formula cache: a cold build renders, a warm build renders nothing, editing one
//! chapter re-renders only its new formulas.

use mathcourse_tests::BookTest;
use mdbook_driver::MDBook;
use mdbook_preprocessor::PreprocessorContext;

fn stats(test: &BookTest) -> mdbook_mathcourse::RunStats {
    let md = MDBook::load(&test.root).unwrap();
    let ctx = PreprocessorContext::new(test.root.clone(), md.config.clone(), "html".into());
    let outcome = mdbook_mathcourse::process(&ctx, md.book.clone()).unwrap();
    assert!(!outcome.has_errors());
    outcome.stats
}

#[test]
fn cold_warm_and_edited() {
    let mut test = BookTest::from_dir("math/basic");
    let cold = stats(&test);
    assert_eq!((cold.cache_hits, cold.cache_misses), (0, 9));
    assert!(test.root.join(".mathcourse-cache/.gitignore").exists());

    let warm = stats(&test);
    assert_eq!((warm.cache_hits, warm.cache_misses), (9, 0));

    test.change_file(
        "src/part/nested.md",
        "# Nested\n\nDeeper $y$ and new $z$.\n",
    );
    let edited = stats(&test);
    assert_eq!((edited.cache_hits, edited.cache_misses), (9, 1));
}

#[test]
fn changing_a_macro_invalidates_formulas() {
    let mut test = BookTest::from_dir("math/basic");
    stats(&test);
    let toml = std::fs::read_to_string(test.root.join("book.toml")).unwrap();
    test.change_file("book.toml", &toml.replace("\\\\mathbb{R}", "\\\\mathbf{R}"));
    let after = stats(&test);
    assert_eq!(after.cache_hits, 0, "every key includes the macros");
}

/// A copy of the book that skipped dotfiles lost the cache's `.gitignore`: the folder
/// holds only our packs, so it is still ours; the build uses it and restores the file.
#[test]
fn a_cache_copied_without_its_gitignore_is_recognised() {
    let test = BookTest::from_dir("math/basic");
    stats(&test);
    let ignore = test.root.join(".mathcourse-cache/.gitignore");
    std::fs::remove_file(&ignore).unwrap();
    let warm = stats(&test);
    assert_eq!((warm.cache_hits, warm.cache_misses), (9, 0));
    assert!(ignore.exists());
}

/// Issue #25: a FIFO where a chapter's cache pack should be made the build wait
/// forever. It is skipped with a warning at that chapter, and never opened. The build
/// runs on its own thread so a regression fails this test instead of hanging it.
#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_a_pack_is_skipped_with_a_warning() {
    let test = BookTest::from_dir("math/basic");
    stats(&test);
    let cache = test.root.join(".mathcourse-cache");
    // Without its page, the chapter is rendered, so its pack is looked at.
    for entry in std::fs::read_dir(&cache).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "page") {
            std::fs::remove_file(path).unwrap();
        }
    }
    let pack = mathcourse_tests::fifo_in_place_of(&cache, "pack");
    let outcome = mathcourse_tests::process_or_hang(&test.root);
    assert!(!outcome.has_errors());
    let text = mdbook_mathcourse::diagnostic::render_all(&outcome.diagnostics, false);
    assert_eq!(
        text.matches("the formula cache of this chapter was skipped")
            .count(),
        1,
        "{text}"
    );
    assert!(
        text.contains("is a FIFO (named pipe), not a regular file"),
        "{text}"
    );
    // The other chapters still come from the cache; the FIFO is left alone.
    assert!(outcome.stats.cache_hits > 0);
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(
        &std::fs::symlink_metadata(&pack).unwrap().file_type()
    ));
}
