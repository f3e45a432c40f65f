//! What every scanning pass asks of the source text: sorted byte ranges with fast
//! lookups, escaped bytes, the block-quote and list prefixes of a formula's continuation
//! lines, and mdBook's `{{#include}}` links (a leaf of `scan`).

use std::ops::Range;

/// Sorted, merged byte ranges with logarithmic lookups.
#[derive(Debug, Clone, Default)]
pub(super) struct Regions(pub(super) Vec<Range<usize>>);

impl Regions {
    pub(super) fn new(mut ranges: Vec<Range<usize>>) -> Regions {
        ranges.retain(|r| !r.is_empty());
        ranges.sort_by_key(|r| r.start);
        let mut merged: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
        for r in ranges {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        Regions(merged)
    }

    /// The region that contains `pos`.
    pub(super) fn containing(&self, pos: usize) -> Option<&Range<usize>> {
        let i = self.0.partition_point(|r| r.end <= pos);
        self.0.get(i).filter(|r| r.start <= pos)
    }

    /// True when some region overlaps `range`.
    pub(super) fn overlaps(&self, range: &Range<usize>) -> bool {
        let i = self.0.partition_point(|r| r.end <= range.start);
        self.0.get(i).is_some_and(|r| r.start < range.end)
    }
}

/// How many block-quote markers (`>`) start the line that holds byte `pos`.
pub(super) fn quote_depth(source: &str, pos: usize) -> usize {
    let line_start = source[..pos].rfind('\n').map_or(0, |i| i + 1);
    source[line_start..pos]
        .bytes()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'>'))
        .filter(|&b| b == b'>')
        .count()
}

/// True when the byte at `i` is preceded by an odd number of backslashes.
pub(super) fn escaped(bytes: &[u8], i: usize) -> bool {
    bytes[..i].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}

/// Removes indentation and up to `depth` block-quote markers from the continuation
/// lines of a multi-line formula inside a list item or block quote.
pub(super) fn strip_container_prefixes(raw: &str, depth: usize) -> String {
    let mut out = String::with_capacity(raw.len());
    for (n, line) in raw.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let mut rest = if n == 0 {
            line
        } else {
            line.trim_start_matches([' ', '\t'])
        };
        if n > 0 {
            for _ in 0..depth {
                match rest.strip_prefix('>') {
                    Some(r) => rest = r.trim_start_matches([' ', '\t']),
                    None => break,
                }
            }
        }
        out.push_str(rest);
    }
    out
}

/// Byte ranges of `{{#include ...}}`-style mdBook links inside `region` (regions start
/// at a line start), which are never touched. Only the region is searched: a chapter
/// of many blocks is scanned once in all, not once per block.
pub(super) fn include_ranges(source: &str, region: &Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut from = region.start;
    while from < region.end {
        let Some(pos) = source[from..region.end].find("{{#") else {
            break;
        };
        let start = from + pos;
        let line_end = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        match source[start..line_end].find("}}") {
            Some(end) => {
                if start + end + 2 <= region.end {
                    out.push(start..start + end + 2);
                }
                from = start + end + 2;
            }
            None => from = start + 3,
        }
    }
    out
}
