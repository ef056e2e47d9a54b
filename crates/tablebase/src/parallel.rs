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
        .map(&check)
        .find_first(Result::is_err)
    {
        Some(failure) => failure,
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::first_failure;

    #[test]
    fn the_lowest_failing_chunk_is_reported_whichever_thread_finds_it() {
        for _ in 0..20 {
            let r = first_failure(1000, |c| {
                if c == 997 || c == 3 || c == 500 {
                    Err(c)
                } else {
                    Ok(())
                }
            });
            assert_eq!(r, Err(3));
        }
        assert_eq!(first_failure(1000, |_| Ok::<(), u64>(())), Ok(()));
        assert_eq!(first_failure(0, Err::<(), u64>), Ok(()));
    }
}
