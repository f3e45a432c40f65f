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
}

/// Where the front matter sits in a chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontMatterBlock {
    /// The YAML text between the fences.
    pub yaml: Range<usize>,
    /// First byte after the closing fence line.
    pub body_start: usize,
}

/// Finds a front-matter block: the chapter starts with a `---` line and a later line is
/// `---` (or `...`). Returns `None` when there is none.
pub fn locate(source: &str) -> Option<FrontMatterBlock> {
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
        FrontMatterError {
            offset: block.yaml.start + offset,
            message: first_line(&err.to_string()),
        }
    })
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").trim().to_string()
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
    fn unknown_key_is_located() {
        let src = "---\nmacros: {}\ntitel: x\n---\nbody";
        let block = locate(src).unwrap();
        let err = parse(src, &block).unwrap_err();
        assert!(err.message.contains("titel"), "{err:?}");
        assert_eq!(&src[err.offset..err.offset + 5], "titel");
    }
}
