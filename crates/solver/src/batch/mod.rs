//! The batch layer: many materials in dependency order into a tables
//! directory (`generate.rs`), what is left and what it costs (`plan.rs`),
//! job arrays for a Slurm cluster (`slurm.rs`), generators sharing a
//! directory (`claim.rs`), which files a request means (`files.rs`), disk
//! space (`space.rs`), compressing (`compress.rs`) and verifying
//! (`verify_files.rs`) a directory's tables.

pub(crate) mod claim;
pub(crate) mod compress;
pub(crate) mod files;
pub(crate) mod generate;
pub(crate) mod plan;
pub mod slurm;
pub(crate) mod space;
pub(crate) mod verify_files;
