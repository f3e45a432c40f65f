//! The one list of directives. Adding a directive: write a module next to this file
//! implementing [`Directive`], add its template to `templates.rs`, and list it here.

use super::callout::{self, Callout};
use super::check::Check;
use super::claim::Claim;
use super::connection::Connection;
use super::demo::Demo;
use super::formula::Formula;
use super::indexes::{ClaimsIndex, NotationIndex};
use super::lists::{FurtherReading, Takeaways};
use super::math_block::MathBlock;
use super::practice::{Practice, Solution};
use super::steps::Steps;
use super::symbol_table::SymbolTable;
use super::symbols::Symbols;
use super::watch::Watch;
use super::widget::Widget;
use super::widget_reference::WidgetReference;
use super::Directive;

/// Every directive, by name.
pub static DIRECTIVES: &[&dyn Directive] = &[
    &Demo,
    &Claim,
    &Check,
    &Formula,
    &MathBlock,
    &Practice,
    &Solution,
    &Callout(&callout::RECOGNITION),
    &Callout(&callout::PITFALL),
    &Callout(&callout::EXAMPLE),
    &Callout(&callout::HISTORY),
    &Callout(&callout::DEEPER),
    &Callout(&callout::SKEPTIC),
    &Callout(&callout::NOTE),
    &Callout(&callout::TIP),
    &Callout(&callout::IMPORTANT),
    &Callout(&callout::WARNING),
    &Callout(&callout::CAUTION),
    &Symbols,
    &SymbolTable,
    &Steps,
    &Connection,
    &Watch,
    &Takeaways,
    &FurtherReading,
    &Widget,
    &WidgetReference,
    &NotationIndex,
    &ClaimsIndex,
];

/// The directive called `name`.
pub fn find(name: &str) -> Option<&'static dyn Directive> {
    DIRECTIVES.iter().copied().find(|d| d.name() == name)
}

/// All directive names, in registry order.
pub fn names() -> Vec<&'static str> {
    DIRECTIVES.iter().map(|d| d.name()).collect()
}

/// "did you mean" + the list, for an unknown directive name.
pub fn unknown_hint(name: &str) -> String {
    let names = names();
    let list = super::options::backticked(&names);
    let suggestion = super::options::did_you_mean(name, &names);
    format!("known directives: {list}{suggestion}")
}

/// `further-reading` → `Further reading`.
pub fn title_case(name: &str) -> String {
    let spaced = name.replace('-', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}
