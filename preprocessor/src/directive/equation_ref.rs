//! The `` {eq}`label` `` role: a link to a labelled equation, showing its number
//! ("(6.2)"), numbered book-wide by the book-wide pass.

use super::{options, relative_html_path, Cx, Role};
use crate::html;
use crate::scan::RoleSpan;

/// The `eq` role.
pub static EQ: Role = Role {
    name: "eq",
    inline_math: false,
    render,
    degrade,
};

fn render(cx: &mut Cx, role: &RoleSpan) -> Option<String> {
    let label = role.content.trim();
    warn_doubled_parentheses(cx, role);
    match cx.book.labels.get(label) {
        Some(target) => {
            let href = format!(
                "{}#{}",
                relative_html_path(cx.chapter_path, &target.chapter),
                html::escape(label)
            );
            Some(format!(
                "<a class=\"mc-eqref\" href=\"{}\">({})</a>",
                href,
                html::escape(&target.number)
            ))
        }
        None => {
            let known: Vec<&str> = cx.book.labels.keys().map(String::as_str).collect();
            let d = cx
                .report
                .error(
                    role.range.clone(),
                    format!("unknown equation label `{label}`"),
                )
                .with_label("no `math` or `formula` block has this label")
                .with_hint(format!(
                    "give an equation `:label: {label}`{}",
                    options::did_you_mean(label, &known)
                ));
            cx.report.push(d);
            None
        }
    }
}

/// `({eq}`label`)` would show "((2.1))".
fn warn_doubled_parentheses(cx: &mut Cx, role: &RoleSpan) {
    let before = cx.source[..role.range.start].trim_end_matches(' ');
    let after = cx.source[role.range.end..].trim_start_matches(' ');
    if before.ends_with('(') && after.starts_with(')') {
        let start = before.len() - 1;
        let end = role.range.end + (cx.source.len() - role.range.end - after.len()) + 1;
        let d = cx
            .report
            .warning(
                start..end,
                "the equation number would show two pairs of parentheses",
            )
            .with_label("`{eq}` already writes \"(2.1)\"")
            .with_hint(
                "drop the parentheses around the role: write {eq}`label`, not ({eq}`label`)",
            );
        cx.report.push(d);
    }
}

/// Other renderers: the number in parentheses, or the label as written.
fn degrade(cx: &mut Cx, role: &RoleSpan) -> String {
    match cx.book.labels.get(role.content.trim()) {
        Some(target) => format!("({})", target.number),
        None => role.content.clone(),
    }
}
