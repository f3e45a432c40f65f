//! Our scripts as shipped: without comment lines and indentation.
//!
//! Shared by `build.rs` (which embeds `theme/*.js` through it) and by
//! `cargo xtask bench-widgets` (which measures what a reader downloads), so it is a
//! standalone file with no dependencies.

/// `source` without blank lines, lines that are only a comment, block comments that
/// start a line, and leading indentation. Newlines between statements stay, so automatic
/// semicolon insertion works as in the source (line numbers in error messages shift).
/// Written for the style of our scripts: a `/*` that starts a line always opens a
/// comment (no regular expression or string starts a line with it), no template
/// literals, and code after a closing `*/` is kept.
pub fn compact_js(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut in_block = false;
    for line in source.lines() {
        let mut t = line.trim();
        if in_block {
            match t.find("*/") {
                Some(end) => {
                    in_block = false;
                    t = t[end + 2..].trim();
                }
                None => continue,
            }
        } else if let Some(rest) = t.strip_prefix("/*") {
            match rest.find("*/") {
                Some(end) => t = rest[end + 2..].trim(),
                None => {
                    in_block = true;
                    continue;
                }
            }
        }
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        out.push_str(t);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::compact_js;

    #[test]
    fn drops_comments_blank_lines_and_indentation_only() {
        let src = "/*\n * Header.\n */\n(function () {\n  \"use strict\";\n\n  // A comment.\n  var a = 1; // kept: code first\n  /* one line */ var b = \"// not a comment\";\n  /* two\n     lines */ var c = 3;\n  return a\n    + b;\n})();\n";
        assert_eq!(
            compact_js(src),
            "(function () {\n\"use strict\";\nvar a = 1; // kept: code first\nvar b = \"// not a comment\";\nvar c = 3;\nreturn a\n+ b;\n})();\n"
        );
    }

    #[test]
    fn the_shipped_scripts_keep_every_code_line() {
        for (name, src) in [
            ("mathcourse.js", include_str!("../theme/mathcourse.js")),
            ("inspect.js", include_str!("../theme/inspect.js")),
            ("progress.js", include_str!("../theme/progress.js")),
        ] {
            let out = compact_js(src);
            assert!(out.len() < src.len() * 9 / 10, "{name}: little was removed");
            // Every line that starts with code in the source is in the output as is.
            let kept: std::collections::HashSet<&str> = out.lines().collect();
            let mut in_block = false;
            for line in src.lines().map(str::trim) {
                if line.starts_with("/*") && !line.contains("*/") {
                    in_block = true;
                }
                if in_block {
                    in_block = !line.contains("*/");
                    continue;
                }
                if line.is_empty() || line.starts_with("//") || line.starts_with("/*") {
                    continue;
                }
                assert!(kept.contains(line), "{name}: lost `{line}`");
            }
        }
    }
}
