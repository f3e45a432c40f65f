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
