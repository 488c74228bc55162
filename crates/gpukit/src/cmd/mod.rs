//! One module per command family, one file per subcommand.
pub mod amd;
pub mod diff;
pub mod iga;
pub mod info;
pub mod intel;
pub mod launch;
pub mod report;
pub mod scan;
pub mod visa;
