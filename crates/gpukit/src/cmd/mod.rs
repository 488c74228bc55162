//! One module per command family, one file per subcommand.
pub mod visa;
