//! Chapter front matter: a YAML block between `---` lines at the very top of a chapter.
//!
//! mdBook itself does not know front matter, so this module always removes it from the
//! chapter (for every renderer) and reads the keys mathcourse understands.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;

/// The keys a chapter's front matter may set.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct FrontMatter {
    /// Chapter macros, added to (and overriding) the book-wide ones.
    #[serde(default)]
    pub macros: BTreeMap<String, String>,
    /// Module number, shown above the title ("Module 6").
    #[serde(default)]
    pub module: Option<u32>,
    /// Suggested week ("suggested week 6").
    #[serde(default)]
    pub week: Option<u32>,
    /// The page title; when present the chapter gets a header (see [`crate::header`])
    /// and the body should not start with its own `# Title`.
    #[serde(default)]
    pub title: Option<String>,
    /// One line under the title (inline Markdown).
    #[serde(default)]
    pub subtitle: Option<String>,
    /// Time the chapter takes, as text ("about 3 focused hours").
    #[serde(default)]
    pub time: Option<String>,
    /// Modules (or other things) this chapter builds on.
    #[serde(default)]
    pub prerequisites: Vec<Prerequisite>,
    /// Whether the prerequisites are advisory (the default) or required.
    #[serde(default)]
    pub prerequisites_advisory: Option<bool>,
    /// "What you will be able to do": one inline-Markdown string each.
    #[serde(default)]
    pub objectives: Vec<String>,
}

impl FrontMatter {
    /// True when the prerequisites are advisory (the default).
    pub fn advisory(&self) -> bool {
        self.prerequisites_advisory.unwrap_or(true)
    }

    /// Header keys set without a `title` (they are shown only with one).
    pub fn header_keys_without_title(&self) -> Vec<&'static str> {
        if self.title.is_some() {
            return Vec::new();
        }
        let mut keys = Vec::new();
        if self.module.is_some() {
            keys.push("module");
        }
        if self.week.is_some() {
            keys.push("week");
        }
        if self.subtitle.is_some() {
            keys.push("subtitle");
        }
        if self.time.is_some() {
            keys.push("time");
        }
        if !self.prerequisites.is_empty() {
            keys.push("prerequisites");
        }
        if !self.objectives.is_empty() {
            keys.push("objectives");
        }
        keys
    }
}

/// One prerequisite: a module (`1`, or `{module: 1, title: Vectors}`) or free text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prerequisite {
    /// A module of the course.
    Module {
        /// Its number.
        module: u32,
        /// Its title, if given.
        title: Option<String>,
    },
    /// Anything else ("high-school algebra").
    Text(String),
}

impl<'de> Deserialize<'de> for Prerequisite {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(PrerequisiteVisitor)
    }
}

struct PrerequisiteVisitor;

impl<'de> serde::de::Visitor<'de> for PrerequisiteVisitor {
    type Value = Prerequisite;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a module number, `{module: 3, title: ...}` or a text")
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Prerequisite, E> {
        let module = u32::try_from(v).map_err(|_| E::custom("module number too large"))?;
        Ok(Prerequisite::Module {
            module,
            title: None,
        })
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Prerequisite, E> {
        let v = u64::try_from(v).map_err(|_| E::custom("a module number is not negative"))?;
        self.visit_u64(v)
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Prerequisite, E> {
        Ok(Prerequisite::Text(v.to_string()))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Prerequisite, A::Error> {
        const FIELDS: &[&str] = &["module", "title"];
        let mut module = None;
        let mut title = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "module" => module = Some(map.next_value::<u32>()?),
                "title" => title = Some(map.next_value::<String>()?),
                other => return Err(serde::de::Error::unknown_field(other, FIELDS)),
            }
        }
        let module = module.ok_or_else(|| serde::de::Error::missing_field("module"))?;
        Ok(Prerequisite::Module { module, title })
    }
}

/// Where the front matter sits in a chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontMatterBlock {
    /// The YAML text between the fences.
    pub yaml: Range<usize>,
    /// First byte after the closing fence line.
    pub body_start: usize,
}

#[cfg(test)]
thread_local! {
    /// How many times [`locate`] ran on this thread (the book-wide pass locates each
    /// chapter's front matter once; a test counts).
    pub(crate) static LOCATED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Finds a front-matter block: the chapter starts with a `---` line and a later line is
/// `---` (or `...`). Returns `None` when there is none.
pub fn locate(source: &str) -> Option<FrontMatterBlock> {
    #[cfg(test)]
    LOCATED.with(|n| n.set(n.get() + 1));
    let first_end = source.find('\n')?;
    if source[..first_end].trim_end() != "---" {
        return None;
    }
    let yaml_start = first_end + 1;
    let mut pos = yaml_start;
    while pos <= source.len() {
        let line_end = source[pos..].find('\n').map_or(source.len(), |i| pos + i);
        let line = source[pos..line_end].trim_end();
        if line == "---" || line == "..." {
            let body_start = (line_end + 1).min(source.len());
            return Some(FrontMatterBlock {
                yaml: yaml_start..pos,
                body_start,
            });
        }
        if line_end == source.len() {
            break;
        }
        pos = line_end + 1;
    }
    None
}

/// A front-matter problem, with the byte offset (in the chapter) it points at.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontMatterError {
    /// Byte offset in the chapter source.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses the YAML of `block` in `source`.
pub fn parse(source: &str, block: &FrontMatterBlock) -> Result<FrontMatter, FrontMatterError> {
    let yaml = &source[block.yaml.clone()];
    if yaml.trim().is_empty() {
        return Ok(FrontMatter::default());
    }
    serde_saphyr::from_str::<FrontMatter>(yaml).map_err(|err| {
        let offset = err
            .location()
            .map(|loc| offset_of(yaml, loc.line() as usize, loc.column() as usize))
            .unwrap_or(0);
        let mut message = first_line(&err.to_string());
        if let Some(key) = message
            .strip_prefix("unknown field `")
            .and_then(|rest| rest.split_once('`'))
            .map(|(key, _)| key.to_string())
        {
            message = format!(
                "unknown key `{key}`; the keys are {}{}",
                KEYS.join(", "),
                crate::diagnostic::did_you_mean(&key, KEYS)
            );
        }
        FrontMatterError {
            offset: block.yaml.start + offset,
            message,
        }
    })
}

/// The keys a chapter's front matter may set, as written.
pub const KEYS: &[&str] = &[
    "macros",
    "module",
    "week",
    "title",
    "subtitle",
    "time",
    "prerequisites",
    "prerequisites-advisory",
    "objectives",
];

/// What a chapter's front matter gives: every key that reads, and the first problem.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parsed {
    /// The keys that read. One wrong key does not drop the others (a misspelled
    /// `objective:` keeps the chapter's macros, so its formulas still typeset).
    pub front: FrontMatter,
    /// The first problem, if any.
    pub error: Option<FrontMatterError>,
    /// True when the YAML did not read at all and it writes a `macros:` key: the
    /// chapter's macros are lost, and formulas that use them fail because of this error.
    pub macros_lost: bool,
}

/// Parses the front matter like [`parse`], keeping what reads: with an unknown key or a
/// value of the wrong type, every other key is still read (the first problem is
/// reported). Only YAML that does not read at all gives the defaults.
pub fn parse_keeping(source: &str, block: &FrontMatterBlock) -> Parsed {
    let error = match parse(source, block) {
        Ok(front) => {
            return Parsed {
                front,
                error: None,
                macros_lost: false,
            }
        }
        Err(err) => err,
    };
    let yaml = &source[block.yaml.clone()];
    let Ok(map) = serde_saphyr::from_str::<serde_json::Map<String, serde_json::Value>>(yaml) else {
        let macros_lost = yaml.lines().any(|l| l.starts_with("macros:"));
        return Parsed {
            front: FrontMatter::default(),
            error: Some(error),
            macros_lost,
        };
    };
    let readable: serde_json::Map<_, _> = map
        .into_iter()
        .filter(|(key, value)| {
            let one = serde_json::Map::from_iter([(key.clone(), value.clone())]);
            serde_json::from_value::<FrontMatter>(serde_json::Value::Object(one)).is_ok()
        })
        .collect();
    let front = serde_json::from_value(serde_json::Value::Object(readable)).unwrap_or_default();
    Parsed {
        front,
        error: Some(error),
        macros_lost: false,
    }
}

/// The first line of the YAML library's message, without its own "error: line N column
/// M:" prefix: that position is relative to the YAML block, while the diagnostic shows the
/// chapter's line and column (one coordinate system).
fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    let line = line.strip_prefix("error:").unwrap_or(line).trim_start();
    let without = line
        .strip_prefix("line ")
        .and_then(|rest| {
            let (_, rest) = rest.split_once(" column ")?;
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            rest[digits..].strip_prefix(':')
        })
        .map_or(line, str::trim_start);
    without.to_string()
}

/// Byte offset of 1-based `line`, `column` (in characters) in `text`.
pub fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (n, l) in text.split_inclusive('\n').enumerate() {
        if n + 1 == line {
            let col_bytes: usize = l
                .chars()
                .take(column.saturating_sub(1))
                .map(char::len_utf8)
                .sum();
            return offset + col_bytes;
        }
        offset += l.len();
    }
    offset.min(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_and_parses() {
        let src = "---\nmacros:\n  \\R: \\mathbb{R}\n---\n# Title\n";
        let block = locate(src).unwrap();
        assert_eq!(&src[block.body_start..], "# Title\n");
        let fm = parse(src, &block).unwrap();
        assert_eq!(fm.macros["\\R"], "\\mathbb{R}");
    }

    #[test]
    fn no_front_matter() {
        assert_eq!(locate("# Title\n---\n"), None);
        assert_eq!(locate("---\nnever closed\n"), None);
    }

    #[test]
    fn chapter_header_keys() {
        let src = "---\nmodule: 6\nweek: 6\ntitle: Attention\nsubtitle: Weighted averages\ntime: about 3 focused hours\nprerequisites:\n  - 1\n  - {module: 4, title: Probability}\n  - high-school algebra\nprerequisites-advisory: false\nobjectives:\n  - compute $QK^\\top$\n---\nbody";
        let fm = parse(src, &locate(src).unwrap()).unwrap();
        assert_eq!(fm.module, Some(6));
        assert_eq!(fm.title.as_deref(), Some("Attention"));
        assert_eq!(
            fm.prerequisites,
            vec![
                Prerequisite::Module {
                    module: 1,
                    title: None
                },
                Prerequisite::Module {
                    module: 4,
                    title: Some("Probability".into())
                },
                Prerequisite::Text("high-school algebra".into()),
            ]
        );
        assert!(!fm.advisory());
        assert_eq!(fm.objectives, vec!["compute $QK^\\top$"]);
        assert!(fm.header_keys_without_title().is_empty());
        let fm = parse(
            "---\nweek: 2\n---\n",
            &locate("---\nweek: 2\n---\n").unwrap(),
        )
        .unwrap();
        assert!(fm.advisory());
        assert_eq!(fm.header_keys_without_title(), vec!["week"]);
    }

    #[test]
    fn bad_prerequisite_is_located() {
        let src = "---\ntitle: T\nprerequisites:\n  - {modul: 4}\n---\nbody";
        let err = parse(src, &locate(src).unwrap()).unwrap_err();
        assert!(err.message.contains("modul"), "{err:?}");
        let (line, _) = crate::diagnostic::line_col(src, err.offset);
        assert_eq!(line, 4, "{err:?}");
    }

    #[test]
    fn unknown_key_is_located() {
        let src = "---\nmacros: {}\ntitel: x\n---\nbody";
        let block = locate(src).unwrap();
        let err = parse(src, &block).unwrap_err();
        assert!(err.message.contains("titel"), "{err:?}");
        assert_eq!(&src[err.offset..err.offset + 5], "titel");
    }

    #[test]
    fn messages_carry_no_yaml_block_coordinates() {
        let src = "---\ntitle: x\nbogus: 1\n---\n# T\n";
        let err = parse(src, &locate(src).unwrap()).unwrap_err();
        assert!(
            err.message.starts_with("unknown key `bogus`"),
            "{}",
            err.message
        );
        assert!(!err.message.contains("line"), "{}", err.message);
        assert_eq!(&src[err.offset..err.offset + 5], "bogus");
    }
}
