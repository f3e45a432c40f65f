//! MyST roles (`{name}` right before a code span) and the `{calc}`/`{eq}` written where
//! no role is read (a leaf of `scan`).

use std::ops::Range;

/// A role the build does not read, where an author wrote one
/// ([`Scan::unread_roles`](super::Scan::unread_roles)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadRole {
    /// `{name}` as written.
    pub range: Range<usize>,
    /// `eq` or `calc`.
    pub name: &'static str,
    /// Inside HTML (else: not followed directly by a code span).
    pub in_html: bool,
}

/// `{calc}` and `{eq}` in `source[range]` (text or HTML) that no role reading takes:
/// in HTML every one; in text, those not directly followed by a backtick (a role's code
/// span ends a text event, so one followed by its code span is never inside the text).
pub(super) fn unread_roles_in(source: &str, range: Range<usize>, in_html: bool) -> Vec<UnreadRole> {
    let text = &source[range.clone()];
    let mut out = Vec::new();
    for name in ["calc", "eq"] {
        let written = format!("{{{name}}}");
        for (at, _) in text.match_indices(&written) {
            let end = range.start + at + written.len();
            let next = source[end..].chars().next();
            if in_html || next != Some('`') {
                out.push(UnreadRole {
                    range: range.start + at..end,
                    name,
                    in_html,
                });
            }
        }
    }
    out.sort_by_key(|r| r.range.start);
    out
}

/// A MyST role: `{name}` immediately followed by a code span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleSpan {
    /// `{name}` plus the code span.
    pub range: Range<usize>,
    /// Role name.
    pub name: String,
    /// Bytes of the name.
    pub name_span: Range<usize>,
    /// The code span's text.
    pub content: String,
}

/// The role whose `{name}` sits right before the code span at `code`, if one does.
pub(super) fn role_before(source: &str, code: Range<usize>, content: &str) -> Option<RoleSpan> {
    let before = &source[..code.start];
    let before = before.strip_suffix('}')?;
    let open = before.rfind('{')?;
    let name = &before[open + 1..];
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        || !name.starts_with(|c: char| c.is_ascii_alphabetic())
    {
        return None;
    }
    Some(RoleSpan {
        range: open..code.end,
        name: name.to_string(),
        name_span: open + 1..open + 1 + name.len(),
        content: content.to_string(),
    })
}
