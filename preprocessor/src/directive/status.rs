//! A claim's epistemic status: the vocabulary `claim`, `formula` and the claims index
//! share (no directive imports another).

/// A claim's epistemic status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Established science or mathematics.
    Established,
    /// An empirical regularity: observed, well supported, not guaranteed.
    Empirical,
    /// A mathematical model: a useful idealisation.
    Model,
    /// Speculative: plausible, not established.
    Speculative,
}

/// Valid status words.
pub const STATUSES: &[&str] = &["established", "empirical", "model", "speculative"];

impl Status {
    /// Parses the argument of `{claim}` / the `status` option of `{formula}`.
    pub fn parse(word: &str) -> Option<Status> {
        match word.trim() {
            "established" => Some(Status::Established),
            "empirical" => Some(Status::Empirical),
            "model" => Some(Status::Model),
            "speculative" => Some(Status::Speculative),
            _ => None,
        }
    }

    /// CSS/HTML keyword.
    pub fn key(self) -> &'static str {
        match self {
            Status::Established => "established",
            Status::Empirical => "empirical",
            Status::Model => "model",
            Status::Speculative => "speculative",
        }
    }

    /// What the reader sees.
    pub fn label(self) -> &'static str {
        match self {
            Status::Established => "Established",
            Status::Empirical => "Empirical regularity",
            Status::Model => "Mathematical model",
            Status::Speculative => "Speculative",
        }
    }

    /// A glyph shown beside the label (decorative; the text is the signal).
    pub fn icon(self) -> &'static str {
        match self {
            Status::Established => "✓",
            Status::Empirical => "≈",
            Status::Model => "∿",
            Status::Speculative => "?",
        }
    }

    /// Puts the badge fields in a template context.
    pub fn insert_into(self, context: &mut tera::Context) {
        context.insert("status", self.key());
        context.insert("status_label", self.label());
        context.insert("status_icon", self.icon());
    }
}
