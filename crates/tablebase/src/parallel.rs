//! Whole-table checks spread over the rayon thread pool.

use rayon::prelude::*;

/// Runs `check` on chunks `0..chunks` in parallel and returns the error of
/// the lowest-numbered chunk that fails, if any: the same answer as a loop
/// in order, whichever thread gets there first. Chunks above a failure
/// already found are skipped.
pub(crate) fn first_failure<E: Send>(
    chunks: u64,
    check: impl Fn(u64) -> Result<(), E> + Sync,
) -> Result<(), E> {
    match (0..chunks)
        .into_par_iter()
        .map(|c| check(c))
        .find_first(Result::is_err)
    {
        Some(failure) => failure,
        None => Ok(()),
    }
}
