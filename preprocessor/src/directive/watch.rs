//! `{watch}`: a card linking to a video or talk — the title is the link; source,
//! duration and what to watch for are shown under it; the body (optional) adds notes.
//! Consecutive cards sit side by side (see `theme/mathcourse.css`).
//!
//! ```markdown
//! :::{watch}
//! ---
//! title: Vectors (Essence of linear algebra, chapter 1)
//! source: 3Blue1Brown
//! duration: 10 min
//! url: https://www.youtube.com/watch?v=fNk_zzaMoSs
//! watch-for: How the arrow picture and the list picture match.
//! ---
//! :::
//! ```

use serde::Deserialize;

use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;
use crate::html;
use crate::templates::Slot;

/// The `watch` directive.
pub struct Watch;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Options {
    title: String,
    url: String,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    duration: Option<String>,
    #[serde(default)]
    watch_for: Option<String>,
}

/// True for an absolute http(s) URL that [`super::inline::safe_url`] accepts.
fn web_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    super::inline::safe_url(url)
        && (lower.starts_with("https://") || lower.starts_with("http://"))
        && lower.split("://").nth(1).is_some_and(|rest| {
            !rest.is_empty() && !rest.starts_with('/') && !rest.contains(char::is_whitespace)
        })
}

/// Inline HTML without its links (the title is itself a link; links do not nest).
fn unlink(inline_html: &str) -> String {
    let mut out = String::with_capacity(inline_html.len());
    let mut rest = inline_html;
    while let Some(i) = rest.find("<a href=\"") {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let close = after.find('>').map_or(after.len(), |j| j + 1);
        rest = &after[close..];
    }
    out.push_str(rest);
    out.replace("</a>", "")
}

impl Directive for Watch {
    fn name(&self) -> &'static str {
        "watch"
    }

    fn takes_argument(&self) -> bool {
        false
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        let options = cx.options::<Options>(block)?;
        let span_of = |key: &str| options.span(key);
        let url = options.url.trim();
        if !web_url(url) {
            return Err(cx
                .report
                .error(
                    span_of("url"),
                    format!("`url` must be an http(s) web address, not `{url}`"),
                )
                .with_label("not a link the card can open")
                .with_hint(
                    "write the full address, e.g. `url: https://www.youtube.com/watch?v=...`",
                ));
        }
        let mut context = tera::Context::new();
        let id = cx.ids.fresh_id("watch");
        context.insert("id", &id);
        context.insert("href", &html::escape(url));
        let title = unlink(&cx.inline(&options.title, span_of("title")));
        context.insert("title_html", &title);
        if let Some(source) = &options.source {
            context.insert("source_html", &cx.inline(source, span_of("source")));
        }
        if let Some(duration) = &options.duration {
            context.insert("duration", duration.trim());
        }
        if let Some(watch_for) = &options.watch_for {
            context.insert(
                "watch_for_html",
                &cx.inline(watch_for, span_of("watch-for")),
            );
        }
        let body = cx.markdown(block.body.clone());
        cx.template(
            "watch",
            context,
            vec![Slot::new("body", body)],
            block.opener.clone(),
        )
    }

    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        let raw = super::options::raw_options(&cx.source, block).unwrap_or_default();
        let get = |k: &str| raw.text(k).map(|s| s.trim().to_string());
        let title = get("title").unwrap_or_default();
        let mut out = match get("url").filter(|u| web_url(u)) {
            Some(url) => format!("**Watch:** [{title}](<{url}>)"),
            None => format!("**Watch:** {title}"),
        };
        let meta: Vec<String> = [get("source"), get("duration")]
            .into_iter()
            .flatten()
            .collect();
        if !meta.is_empty() {
            out.push_str(&format!(" ({})", meta.join(" · ")));
        }
        out.push_str("\n\n");
        if let Some(w) = get("watch-for") {
            out.push_str(&format!("*Watch for:* {w}\n\n"));
        }
        let body = cx.markdown(block.body.clone());
        out.push_str(body.trim());
        format!("{}\n", out.trim_end())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{degrade, errors, render};
    use super::{unlink, web_url};

    const OK: &str = ":::{watch}\n---\ntitle: Vectors, *chapter 1*\nsource: 3Blue1Brown\nduration: 10 min\nurl: https://www.youtube.com/watch?v=fNk_zzaMoSs&t=1\nwatch-for: The arrow $\\vec v$.\n---\n:::\n";

    #[test]
    fn renders_a_link_card() {
        let out = render(OK);
        assert!(out.contains("<aside class=\"mc-watch\""), "{out}");
        assert!(
            out.contains("<a href=\"https://www.youtube.com/watch?v=fNk_zzaMoSs&amp;t=1\" rel=\"noopener\">Vectors, <em>chapter 1</em></a>"),
            "{out}"
        );
        assert!(out.contains("3Blue1Brown"), "{out}");
        assert!(out.contains("10 min"), "{out}");
        assert!(out.contains("Watch for:"), "{out}");
        assert!(out.contains("class=\"katex\""), "{out}");
    }

    #[test]
    fn url_must_be_safe_http() {
        for bad in [
            "javascript:alert(1)",
            "data:text/html,x",
            "../local.html",
            "//evil.example",
            "https://",
            "ftp://x.org/a",
        ] {
            let e = errors(&OK.replace("https://www.youtube.com/watch?v=fNk_zzaMoSs&t=1", bad));
            assert!(
                e.contains("`url` must be an http(s) web address"),
                "{bad}: {e}"
            );
            assert!(e.contains("src/t.md:6:1"), "{e}");
        }
        assert!(web_url("http://example.org"));
    }

    #[test]
    fn option_errors() {
        let e = errors(&OK.replace("watch-for:", "watch_for:"));
        assert!(e.contains("unknown option `watch_for`"), "{e}");
        assert!(e.contains("did you mean `watch-for`?"), "{e}");
        let e = errors(&OK.replace("url: https://www.youtube.com/watch?v=fNk_zzaMoSs&t=1\n", ""));
        assert!(
            e.contains("directive `watch` needs the option `url`"),
            "{e}"
        );
        let e = errors(&OK.replace("duration: 10 min", "duration: [10]"));
        assert!(e.contains("option `duration`: invalid type"), "{e}");
    }

    #[test]
    fn title_links_are_dropped_inside_the_card_link() {
        assert_eq!(unlink("a <a href=\"x\">b</a> c"), "a b c");
    }

    #[test]
    fn degrade_keeps_every_field() {
        assert_eq!(
            degrade(OK),
            "**Watch:** [Vectors, *chapter 1*](<https://www.youtube.com/watch?v=fNk_zzaMoSs&t=1>) (3Blue1Brown · 10 min)\n\n*Watch for:* The arrow $\\vec v$.\n\n"
        );
    }
}
