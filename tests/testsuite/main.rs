//! Integration test suite (one binary, mdBook style): fixture books under
//! `testsuite/<feature>/<case>/`, driven by the modules below.

mod blocks;
mod book;
mod browser;
mod cache;
mod check;
mod compat;
mod config;
mod directives;
mod github;
mod hardening;
mod header;
mod inspect;
mod katex_diff;
mod math;
mod mathjax;
mod messages;
mod page_cache;
mod progress;
mod reader;
mod safety;
mod widgets;
mod workflows;
