//! Integration tests of the whole pipeline: generated tables against an
//! independent reference solver, the published Leiden data, symmetry,
//! probing, and bad table files.

mod bad_tables;
mod big_files;
mod byte_identity;
mod checkpoint;
mod compressed;
mod cross_rules;
mod dont_cares;
mod eviction;
mod fixture;
mod interrupt;
mod probe_api;
mod propagation;
mod published;
mod reference;
mod reference_solver;
mod remote;
mod replies;
mod symmetry;
mod variants;
mod verify;
