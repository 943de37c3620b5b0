//! One module per subcommand, each with one `run`.

pub mod capabilities;
pub mod check;
pub mod errors;
pub mod filter;
pub mod input_schema;
pub mod lint;
pub mod merge;
pub mod rules;
pub mod schema;
pub mod strip;
pub mod summary;
