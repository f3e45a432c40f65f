//! Output: tokens joined back into TeX.

use crate::token::{Kind, Tok};

/// Joins tokens, keeping a space between a control word and a following letter.
#[derive(Default)]
pub(crate) struct Writer {
    pub(crate) out: String,
    pub(crate) after_word: bool,
}

impl Writer {
    pub(crate) fn token(&mut self, t: &Tok) {
        if self.after_word
            && t.text
                .starts_with(|c: char| c.is_ascii_alphabetic() || c == '@')
        {
            self.out.push(' ');
        }
        self.out.push_str(&t.text);
        self.after_word = t.kind == Kind::Word;
    }

    pub(crate) fn raw(&mut self, s: &str) {
        self.out.push_str(s);
        self.after_word = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key;
    use crate::testkit::plain_tok;

    #[test]
    fn output_never_glues_a_control_word_to_a_letter() {
        let mut w = Writer::default();
        let word = plain_tok(r"\alpha");
        let letter = plain_tok("x");
        w.token(&word);
        w.token(&letter);
        w.token(&word);
        w.raw("}");
        w.token(&letter);
        assert_eq!(w.out, r"\alpha x\alpha}x");
        assert_eq!(key(r"\alpha  x"), r"\alpha x");
    }
}
