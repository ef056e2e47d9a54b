//! Dealing one level's frontier out to the threads, and choosing where
//! cell updates may skip locked instructions.
//!
//! The slots are cut into one *segment* per thread, each in chunks of
//! [`CHUNK`] slots. A thread claims the chunks of its own segment from that
//! segment's counter, then helps with the others' (claiming from their
//! counters) until every chunk is done.
//!
//! Why not a parallel iterator over the chunks: rayon splits a range into a
//! few large pieces and splits one again only when another thread steals it.
//! A level's frontier is often bunched in part of the index (one side's
//! wins), so one thread kept most of a level while the other waited: ELvTR's
//! win levels from level 11 on ran no faster on two threads than on one.
//! Why a segment per thread rather than one shared counter: threads that
//! work on neighbouring chunks update neighbouring predecessors at the same
//! moment, and their cache lines go back and forth between the cores.
//! Measured (ELvTR LTvPR ERvDC TRvTR PCvDW LRvE, propagation summed, two
//! threads, builds alternated three times): parallel iterator 1.10-1.20 s,
//! one shared counter 1.04-1.07 s, a segment per thread 1.02-1.03 s.
//!
//! **Updates without locked instructions on two threads.** In a material
//! with both sides to move in the index (see `PositionIndex`), the first
//! half of the slots has White to move and the second Black, and every
//! predecessor of a position has the other side to move. So while thread 0
//! expands only White-to-move positions (segment 0) and thread 1 only
//! Black-to-move ones (segment 1), each writes only cells of the half the
//! other never writes, and both may update with plain loads and stores, as
//! a lone thread does (`update_alone` in `propagate.rs`). A thread that
//! finishes its segment must switch the other's segment to locked updates
//! before it helps there ([`Segment`]'s states): if the owner is inside a
//! chunk it waits for that chunk to end (the owner is running and never
//! waits for anything, so this ends), and the owner takes its later chunks
//! with locked updates too. 61-90 % of the frontier is expanded before
//! that (ELvTR 68 %, LTvPR 61 %, ERvDC 84 %, PCvDW 90 %). Same six
//! materials, alternated three times: locked updates 1.04-1.05 s, plain
//! owners 0.94-0.96 s; the one, two and three thread tables are identical
//! (`tests/tablebase/reference.rs`).

use std::ops::Range;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Index slots handed to a thread at a time.
pub(crate) const CHUNK: u64 = 4096;

/// One thread's part of a level: its slots, the next chunk to claim and
/// whether updates there may still be plain.
struct Segment {
    slots: Range<u64>,
    /// The next chunk's number (chunks are `CHUNK`-aligned slot ranges
    /// clipped to the segment).
    next: AtomicU64,
    /// `IDLE`, `BUSY`, `WANTED` or `LOCKED` (see the constants).
    state: AtomicU8,
}

impl Segment {
    /// Plain updates allowed; the owner is not inside a chunk.
    const IDLE: u8 = 0;
    /// The owner is inside a chunk with plain updates.
    const BUSY: u8 = 1;
    /// As `BUSY`, and a helper waits to lock the segment: the owner locks
    /// it when its chunk ends (so that it cannot take chunk after chunk
    /// while the helper waits).
    const WANTED: u8 = 2;
    /// Updates in this segment are locked from now on (for every thread).
    const LOCKED: u8 = 3;

    fn new(slots: Range<u64>, plain: bool) -> Segment {
        Segment {
            next: AtomicU64::new(slots.start / CHUNK),
            slots,
            state: AtomicU8::new(if plain { Self::IDLE } else { Self::LOCKED }),
        }
    }

    /// Claims the next chunk, `None` once all are claimed.
    fn claim(&self) -> Option<Range<u64>> {
        let c = self.next.fetch_add(1, Ordering::Relaxed);
        let chunk = (c * CHUNK).max(self.slots.start)..((c + 1) * CHUNK).min(self.slots.end);
        (chunk.start < chunk.end).then_some(chunk)
    }

    /// The owner's step: claims a chunk and says whether its updates may be
    /// plain (then the segment is `BUSY` until [`Segment::done`]).
    fn claim_as_owner(&self) -> Option<(Range<u64>, bool)> {
        let plain = self
            .state
            .compare_exchange(Self::IDLE, Self::BUSY, Ordering::Acquire, Ordering::Relaxed)
            .is_ok();
        match self.claim() {
            Some(chunk) => Some((chunk, plain)),
            None => {
                if plain {
                    self.done();
                }
                None
            }
        }
    }

    /// Ends the owner's plain chunk: its stores happen before the updates
    /// of whoever locks the segment next.
    fn done(&self) {
        let ended = self.state.compare_exchange(
            Self::BUSY,
            Self::IDLE,
            Ordering::Release,
            Ordering::Relaxed,
        );
        if ended.is_err() {
            // WANTED: a helper waits.
            self.state.store(Self::LOCKED, Ordering::Release);
        }
    }

    /// Before a helper updates cells here: no plain updates any more.
    /// Waits while the owner is inside a plain chunk.
    fn lock(&self) {
        let mut spins = 0u32;
        loop {
            match self.state.load(Ordering::Acquire) {
                Self::LOCKED => return,
                Self::IDLE => {
                    let locked = self.state.compare_exchange(
                        Self::IDLE,
                        Self::LOCKED,
                        Ordering::Acquire,
                        Ordering::Relaxed,
                    );
                    if locked.is_ok() {
                        return;
                    }
                }
                Self::BUSY => {
                    let _ = self.state.compare_exchange(
                        Self::BUSY,
                        Self::WANTED,
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    );
                }
                _ => {
                    // The owner's chunk takes microseconds; give the core
                    // away if it is not running (more threads than cores).
                    spins += 1;
                    if spins.is_multiple_of(1024) {
                        std::thread::yield_now();
                    } else {
                        std::hint::spin_loop();
                    }
                }
            }
        }
    }
}

/// How one solve deals out its levels: the segments, and whether owners
/// may update with plain stores.
#[derive(Debug, Clone)]
pub(crate) struct Schedule {
    segments: Vec<Range<u64>>,
    /// Owners of segments update with plain stores (one thread, or two
    /// threads on the two sides to move).
    plain_owners: bool,
}

impl Schedule {
    /// The schedule for `slots` index slots on `threads` threads;
    /// `two_sides`: the index holds both sides to move, White's first.
    pub(crate) fn new(slots: u64, threads: usize, two_sides: bool) -> Schedule {
        let threads = threads.max(1) as u64;
        if threads == 2 && two_sides {
            let half = slots / 2;
            return Schedule {
                segments: vec![0..half, half..slots],
                plain_owners: true,
            };
        }
        Schedule {
            segments: (0..threads)
                .map(|t| slots * t / threads..slots * (t + 1) / threads)
                .collect(),
            plain_owners: threads == 1,
        }
    }

    /// Runs `work(chunk, shared, &mut outcome)` over every chunk of every
    /// segment, one task per segment, and returns each task's outcome.
    /// `shared`: other threads may update the same cells meanwhile (locked
    /// updates needed).
    pub(crate) fn run<T: Default + Send>(
        &self,
        work: impl Fn(Range<u64>, bool, &mut T) + Sync,
    ) -> Vec<T> {
        use rayon::prelude::*;
        let segments: Vec<Segment> = self
            .segments
            .iter()
            .map(|s| Segment::new(s.clone(), self.plain_owners))
            .collect();
        let n = segments.len();
        (0..n)
            .into_par_iter()
            .with_max_len(1)
            .map(|me| {
                let mut out = T::default();
                let own = &segments[me];
                while let Some((chunk, plain)) = own.claim_as_owner() {
                    work(chunk, !plain, &mut out);
                    if plain {
                        own.done();
                    }
                }
                for k in 1..n {
                    let other = &segments[(me + k) % n];
                    other.lock();
                    while let Some(chunk) = other.claim() {
                        work(chunk, true, &mut out);
                    }
                }
                out
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    /// Every slot is in exactly one chunk, whatever the thread count, and
    /// the plain chunks of two threads never write the same cells.
    #[test]
    fn every_slot_once_and_plain_chunks_apart() {
        for (slots, threads, two_sides) in [
            (10_000u64, 1, false),
            (10_000, 2, true),
            (8_191, 2, true),
            (12_345, 3, false),
            (100, 2, false),
        ] {
            let seen: Vec<AtomicU32> = (0..slots).map(|_| AtomicU32::new(0)).collect();
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let schedule = Schedule::new(slots, threads, two_sides);
            let plain: Vec<Vec<Range<u64>>> = pool.install(|| {
                schedule.run(|chunk, shared, out: &mut Vec<Range<u64>>| {
                    for i in chunk.clone() {
                        seen[i as usize].fetch_add(1, Ordering::Relaxed);
                    }
                    if !shared {
                        out.push(chunk);
                    }
                })
            });
            assert!(seen.iter().all(|s| s.load(Ordering::Relaxed) == 1));
            if threads == 1 {
                assert_eq!(plain[0].iter().map(|c| c.end - c.start).sum::<u64>(), slots);
            }
            if threads == 2 && two_sides {
                // Plain chunks of task 0 are White-to-move slots, of task 1
                // Black-to-move ones.
                for (t, chunks) in plain.iter().enumerate() {
                    let side = &schedule.segments[t];
                    assert!(chunks
                        .iter()
                        .all(|c| side.start <= c.start && c.end <= side.end));
                }
            }
            if threads == 3 {
                assert!(plain.iter().all(|c| c.is_empty()));
            }
        }
    }

    /// The handover: one side's chunks are slow, so the other thread
    /// finishes first and must lock that segment to help. No plain chunk
    /// of a segment may run while any other chunk of the same segment runs
    /// (they would write the same half), and the help must have happened
    /// (else the test proves nothing).
    #[test]
    fn a_helper_never_overlaps_a_plain_chunk() {
        use std::sync::atomic::AtomicU64;
        let slots = 40 * CHUNK;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let schedule = Schedule::new(slots, 2, true);
        let clock = AtomicU64::new(0);
        // Per chunk: segment, shared, start and end ticks.
        let runs: Vec<Vec<(usize, bool, u64, u64)>> = pool.install(|| {
            schedule.run(|chunk, shared, out: &mut Vec<(usize, bool, u64, u64)>| {
                let segment = usize::from(chunk.start >= slots / 2);
                let start = clock.fetch_add(1, Ordering::SeqCst);
                if segment == 1 {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                let end = clock.fetch_add(1, Ordering::SeqCst);
                out.push((segment, shared, start, end));
            })
        });
        let all: Vec<_> = runs.iter().flatten().copied().collect();
        assert_eq!(all.len(), 40);
        let helped = runs[0].iter().filter(|r| r.0 == 1).count();
        assert!(helped > 0, "thread 0 never helped with segment 1");
        assert!(runs[0].iter().filter(|r| r.0 == 1).all(|r| r.1));
        for (k, a) in all.iter().enumerate() {
            for b in &all[k + 1..] {
                let overlap = a.2 < b.3 && b.2 < a.3;
                if a.0 == b.0 && overlap {
                    assert!(
                        a.1 && b.1,
                        "a plain chunk overlapped another of its segment"
                    );
                }
            }
        }
    }
}
