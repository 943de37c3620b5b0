//! One module per subcommand, each with one `run`, and the resolve step
//! that turns their shared arguments into the engines' options.

pub mod capabilities;
pub mod check;
pub mod errors;
pub mod filter;
pub mod input_schema;
pub mod lint;
pub mod merge;
pub(crate) mod resolve;
pub mod rules;
pub mod schema;
pub mod strip;
pub mod summary;
