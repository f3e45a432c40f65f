//! `[preprocessor.mathcourse]` errors as the author sees them.

use mathcourse_tests::{check_snapshot, BookTest};

#[test]
fn unknown_option_names_the_key_and_lists_valid_ones() {
    let mut test = BookTest::from_dir("config/unknown_key");
    let err = test.build_error();
    check_snapshot(&err, &test.fixture.join("expected/error.txt"));
    assert!(err.contains("on-eror"));
    assert!(err.contains("`on-error`"));
}
