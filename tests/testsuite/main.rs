//! Integration test suite (one binary, mdBook style).
