//! Command tables: how each command takes its arguments, which commands are delimiters,
//! sizes, barriers or big operators, and which letters and styles make a symbol.

use crate::token::{Kind, Tok};

/// How a command takes its arguments.
pub(crate) struct Spec {
    /// One entry per mandatory argument: is it opaque (no match may start inside, its
    /// letters are never undefined)?
    pub(crate) args: &'static [bool],
    /// Takes an optional `[...]` argument first; is it opaque?
    pub(crate) opt: Option<bool>,
    /// May be followed by `*` (`\operatorname*`).
    pub(crate) star: bool,
}

const fn spec(args: &'static [bool]) -> Spec {
    Spec {
        args,
        opt: None,
        star: false,
    }
}

const O: bool = true; // opaque argument
const M: bool = false; // math argument

pub(crate) fn command_spec(name: &str) -> Option<Spec> {
    Some(match name {
        // Text and font commands: the argument is not math or is one glyph of a font.
        "\\text" | "\\textrm" | "\\textbf" | "\\textit" | "\\textsf" | "\\texttt"
        | "\\textnormal" | "\\textup" | "\\textmd" | "\\textsl" | "\\textsc" | "\\mbox"
        | "\\hbox" | "\\mathrm" | "\\mathbf" | "\\boldsymbol" | "\\bm" | "\\mathcal"
        | "\\mathbb" | "\\mathsf" | "\\mathit" | "\\mathtt" | "\\mathfrak" | "\\mathscr" => {
            spec(&[O])
        }
        "\\operatorname" => Spec {
            args: &[O],
            opt: None,
            star: true,
        },
        "\\operatornamewithlimits" => spec(&[O]),
        // Accents: the decorated letter is one symbol.
        "\\vec" | "\\hat" | "\\widehat" | "\\bar" | "\\overline" | "\\tilde" | "\\widetilde"
        | "\\dot" | "\\ddot" | "\\dddot" | "\\check" | "\\widecheck" | "\\breve" | "\\acute"
        | "\\grave" | "\\mathring" | "\\overrightarrow" | "\\overleftarrow" => spec(&[O]),
        "\\underline" | "\\boxed" | "\\cancel" | "\\overbrace" | "\\underbrace" | "\\mathop"
        | "\\mathbin" | "\\mathrel" | "\\mathord" | "\\mathopen" | "\\mathclose"
        | "\\mathpunct" | "\\mathinner" => spec(&[M]),
        "\\sqrt" => Spec {
            args: &[M],
            opt: Some(M),
            star: false,
        },
        "\\frac" | "\\dfrac" | "\\tfrac" | "\\cfrac" | "\\binom" | "\\dbinom" | "\\tbinom"
        | "\\overset" | "\\underset" | "\\stackrel" => spec(&[M, M]),
        "\\htmlData" | "\\htmlClass" | "\\htmlId" | "\\htmlStyle" | "\\href" => spec(&[O, O]),
        "\\url" | "\\label" | "\\ref" | "\\eqref" | "\\color" => spec(&[O]),
        "\\tag" => Spec {
            args: &[O],
            opt: None,
            star: true,
        },
        "\\textcolor" => spec(&[O, M]),
        "\\colorbox" => spec(&[O, O]),
        "\\fcolorbox" => spec(&[O, O, O]),
        "\\includegraphics" => Spec {
            args: &[O],
            opt: Some(O),
            star: false,
        },
        // Author overrides, replaced during normalization.
        "\\sym" => spec(&[O, O]),
        "\\nosym" => spec(&[O]),
        _ => return None,
    })
}

/// `\left`, `\right`, `\middle`, `\big` and friends: the next token is a delimiter.
pub(crate) fn is_delimiter_command(name: &str) -> bool {
    matches!(
        name,
        "\\left"
            | "\\right"
            | "\\middle"
            | "\\big"
            | "\\Big"
            | "\\bigg"
            | "\\Bigg"
            | "\\bigl"
            | "\\Bigl"
            | "\\biggl"
            | "\\Biggl"
            | "\\bigr"
            | "\\Bigr"
            | "\\biggr"
            | "\\Biggr"
            | "\\bigm"
            | "\\Bigm"
            | "\\biggm"
            | "\\Biggm"
    )
}

/// Commands followed by a dimension (`\kern1em`, `\hspace{2pt}`): never part of a match.
pub(crate) fn is_size_command(name: &str) -> bool {
    matches!(
        name,
        "\\kern" | "\\mkern" | "\\mskip" | "\\hskip" | "\\hspace" | "\\mspace" | "\\vspace"
    )
}

/// Environments with an extra argument after the name (`\begin{array}{cc}`).
pub(crate) fn env_has_spec_arg(name: &str) -> bool {
    matches!(
        name,
        "array" | "darray" | "subarray" | "alignat" | "alignat*" | "alignedat"
    )
}

/// Tokens that may not be inside a match at its own level: cell and row separators, infix
/// fractions and switches that affect the rest of the group.
pub(crate) fn is_barrier(t: &Tok) -> bool {
    matches!(
        t.text.as_str(),
        "&" | "\\\\"
            | "\\cr"
            | "\\newline"
            | "\\over"
            | "\\atop"
            | "\\choose"
            | "\\above"
            | "\\brace"
            | "\\brack"
            | "\\displaystyle"
            | "\\textstyle"
            | "\\scriptstyle"
            | "\\scriptscriptstyle"
            | "\\color"
            | "\\rm"
            | "\\bf"
            | "\\it"
            | "\\sf"
            | "\\tt"
            | "\\cal"
            | "\\frak"
            | "\\Bbb"
            | "\\bold"
            | "\\mit"
            | "\\em"
            | "\\tiny"
            | "\\scriptsize"
            | "\\footnotesize"
            | "\\small"
            | "\\normalsize"
            | "\\large"
            | "\\Large"
            | "\\LARGE"
            | "\\huge"
            | "\\Huge"
            | "\\bfseries"
            | "\\itshape"
            | "\\mdseries"
            | "\\rmfamily"
            | "\\sffamily"
            | "\\ttfamily"
            | "\\upshape"
            | "\\normalfont"
    ) && t.kind != Kind::Space
}

/// Bases whose scripts KaTeX may set as limits: a wrapper must keep the scripts inside.
pub(crate) fn is_limits_base(name: &str) -> bool {
    matches!(
        name,
        "\\sum"
            | "\\prod"
            | "\\coprod"
            | "\\bigcup"
            | "\\bigcap"
            | "\\bigvee"
            | "\\bigwedge"
            | "\\bigoplus"
            | "\\bigotimes"
            | "\\bigodot"
            | "\\biguplus"
            | "\\bigsqcup"
            | "\\int"
            | "\\iint"
            | "\\iiint"
            | "\\oint"
            | "\\oiint"
            | "\\oiiint"
            | "\\intop"
            | "\\smallint"
            | "\\lim"
            | "\\liminf"
            | "\\limsup"
            | "\\max"
            | "\\min"
            | "\\sup"
            | "\\inf"
            | "\\det"
            | "\\Pr"
            | "\\gcd"
            | "\\argmax"
            | "\\argmin"
            | "\\plim"
            | "\\injlim"
            | "\\projlim"
            | "\\varliminf"
            | "\\varlimsup"
            | "\\varinjlim"
            | "\\varprojlim"
            | "\\mathop"
            | "\\operatornamewithlimits"
            | "\\overbrace"
            | "\\underbrace"
    )
}

/// Font and accent commands that turn a letter into a symbol of its own (`\mathbf{x}` is
/// not `x`): unregistered, the whole command is reported as undefined.
pub(crate) const STYLED: &[&str] = &[
    "mathbf",
    "boldsymbol",
    "bm",
    "mathcal",
    "mathbb",
    "mathfrak",
    "mathscr",
    "mathsf",
    "mathit",
    "vec",
    "hat",
    "widehat",
    "bar",
    "tilde",
    "widetilde",
    "dot",
    "ddot",
    "check",
    "breve",
    "mathring",
];

/// True for a Greek-letter control word without its backslash (`alpha`, `varphi`, `Omega`).
pub fn is_greek(name: &str) -> bool {
    GREEK.contains(&name)
}

pub(crate) const GREEK: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "omicron",
    "pi",
    "rho",
    "sigma",
    "tau",
    "upsilon",
    "phi",
    "chi",
    "psi",
    "omega",
    "Alpha",
    "Beta",
    "Gamma",
    "Delta",
    "Epsilon",
    "Zeta",
    "Eta",
    "Theta",
    "Iota",
    "Kappa",
    "Lambda",
    "Mu",
    "Nu",
    "Xi",
    "Omicron",
    "Pi",
    "Rho",
    "Sigma",
    "Tau",
    "Upsilon",
    "Phi",
    "Chi",
    "Psi",
    "Omega",
    "varepsilon",
    "vartheta",
    "varphi",
    "varrho",
    "varsigma",
    "varpi",
    "varkappa",
    "varGamma",
    "varDelta",
    "varTheta",
    "varLambda",
    "varXi",
    "varPi",
    "varSigma",
    "varUpsilon",
    "varPhi",
    "varPsi",
    "varOmega",
    "digamma",
    "ell",
];

pub(crate) fn is_letter_like(t: &Tok) -> bool {
    match t.kind {
        Kind::Char => {
            let mut cs = t.text.chars();
            matches!((cs.next(), cs.next()), (Some(c), None) if c.is_ascii_alphabetic())
        }
        Kind::Word => t
            .text
            .strip_prefix('\\')
            .is_some_and(|name| GREEK.contains(&name)),
        _ => false,
    }
}

pub(crate) fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}
