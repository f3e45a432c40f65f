//! Integration test suite (one binary, mdBook style): fixture books under
//! `testsuite/<feature>/<case>/`, driven by the modules below.

mod cache;
mod config;
mod katex_diff;
mod math;
