//! The updates of a one-byte level (`levels.rs`) and the bytes they
//! change: queued with their words prefetched (or gathered by region,
//! `buckets.rs`), then applied, a predecessor
//! of a lost position set to a win, one of a won position counted down
//! and, at 0, lost.

use crate::error::SolveError;
use crate::solve::buckets::Buckets;
use crate::solve::cells::{ByteCells, ByteCtx, Counts};
use crate::solve::codes::{decided, Layout};
use jungletb_rules::{RawPosition, Value};

/// Predecessor updates waiting for their words' cache lines: a fixed
/// array, applied once it holds [`BATCH`].
pub(crate) struct Batch {
    updates: [(u64, u8); BATCH_ROOM],
    len: usize,
}

/// Updates gathered before a batch is applied.
const BATCH: usize = 64;
/// Room of a batch: a full batch plus the un-moves of one more position.
const BATCH_ROOM: usize = 128;

impl Batch {
    pub(crate) fn new() -> Batch {
        Batch {
            updates: [(0, 0); BATCH_ROOM],
            len: 0,
        }
    }

    /// True once the batch holds [`BATCH`] updates, to be applied.
    #[inline(always)]
    pub(crate) fn full(&self) -> bool {
        self.len >= BATCH
    }

    /// Applies the updates of level `d` and empties the batch: by locked
    /// compare-and-swap if `locked`, else by plain loads and stores but in
    /// the word `shared`, which another thread writes too (`u64::MAX`:
    /// none).
    pub(crate) fn apply<const W: usize>(
        &mut self,
        ctx: &ByteCtx<W>,
        (layout, d): (Layout, u16),
        delta: &mut Counts,
        locked: bool,
        shared: u64,
    ) -> Result<(), SolveError> {
        let len = std::mem::take(&mut self.len).min(BATCH_ROOM);
        let mut updates = self.updates[..len].iter();
        // A loop a case, so that a lone thread tests nothing an update.
        match (locked, shared) {
            (true, _) => {
                updates.try_for_each(|&(p, w)| apply_one::<true, W>(ctx, layout, d, p, w, delta))
            }
            (false, u64::MAX) => {
                updates.try_for_each(|&(p, w)| apply_one::<false, W>(ctx, layout, d, p, w, delta))
            }
            (false, _) => {
                updates.try_for_each(|&(p, w)| match p / ByteCells::<W>::LANES == shared {
                    true => apply_one::<true, W>(ctx, layout, d, p, w, delta),
                    false => apply_one::<false, W>(ctx, layout, d, p, w, delta),
                })
            }
        }
    }
}

/// Where `levels::expand` puts the updates it finds: a [`Batch`]
/// applied as it fills, or region buckets applied after a round (see
/// `buckets.rs`).
pub(crate) trait ByteUpdates {
    /// Queues the update of predecessor `p`: a win for `w` 0, else a count
    /// down by `w`.
    fn push<const W: usize>(&mut self, ctx: &ByteCtx<W>, p: u64, w: u8);
}

impl ByteUpdates for Batch {
    /// Queues the update and asks for its byte's cache line.
    #[inline(always)]
    fn push<const W: usize>(&mut self, ctx: &ByteCtx<W>, p: u64, w: u8) {
        prefetch(ctx.cells.word(p));
        self.updates[self.len % BATCH_ROOM] = (p, w);
        self.len += 1;
    }
}

impl ByteUpdates for Buckets {
    #[inline(always)]
    fn push<const W: usize>(&mut self, _ctx: &ByteCtx<W>, p: u64, w: u8) {
        Buckets::push(self, p, w);
    }
}

/// Bytes prefetched ahead of their update while a bucket is applied.
const APPLY_AHEAD: usize = 16;

/// Applies the updates of level `d` in `entries`, a bucket of the region
/// starting at slot `base` (offset `<< 2 |` weight), owned by the calling
/// thread meanwhile: by plain loads and stores.
pub(crate) fn apply_region<const W: usize>(
    ctx: &ByteCtx<W>,
    layout: Layout,
    d: u16,
    base: u64,
    entries: &[u32],
    delta: &mut Counts,
) -> Result<(), SolveError> {
    for (k, &e) in entries.iter().enumerate() {
        if let Some(&ahead) = entries.get(k + APPLY_AHEAD) {
            prefetch(ctx.cells.word(base + (ahead >> 2) as u64));
        }
        apply_one::<false, W>(ctx, layout, d, base + (e >> 2) as u64, (e & 3) as u8, delta)?;
    }
    Ok(())
}

/// Applies one update of level `d` to predecessor `p`: a win at `d + 1`
/// for `w` 0, else a count down by `w`.
#[inline(always)]
fn apply_one<const SHARED: bool, const W: usize>(
    ctx: &ByteCtx<W>,
    layout: Layout,
    d: u16,
    p: u64,
    w: u8,
    delta: &mut Counts,
) -> Result<(), SolveError> {
    if w != 0 {
        return count_down::<SHARED, W>(ctx, layout, d, p, w, delta);
    }
    let win_next = decided(d + 1);
    // Undecided, or a tentative win through a capture that is longer
    // (a win's byte is odd: `n + 2` with `n` odd).
    let improves = |b: u16| b >= layout.undecided || (b > win_next && b % 2 == 1);
    if let Some(old) = ctx
        .cells
        .update_as::<SHARED>(p, |b| improves(b).then_some(win_next))
    {
        ctx.present.mark(p, win_next);
        delta[win_next as usize] += 1;
        if old < layout.undecided {
            delta[old as usize] -= 1;
        }
    }
    Ok(())
}

/// One quiet successor of the predecessor `p`, of weight `w`, is won at
/// level `d` for the side to move there: its count drops by `w`, and at 0
/// it is lost, at `max(d + 1, floor)`.
#[inline(always)]
fn count_down<const SHARED: bool, const W: usize>(
    ctx: &ByteCtx<W>,
    layout: Layout,
    d: u16,
    p: u64,
    w: u8,
    delta: &mut Counts,
) -> Result<(), SolveError> {
    let down = |b| layout.counted_down(b, w as u16);
    if ctx.cells.update_as::<SHARED>(p, down).is_some() {
        return Ok(());
    }
    let b = ctx.cells.get(p);
    if !layout.may_lose(b) {
        return Ok(());
    }
    // The last undecided successor: no other thread touches this byte
    // any more (only counts drop at a won level, and none is left but
    // this one's).
    // (A count below `w` would mean a chunk counted down twice: the
    // chunk bits of a stopped level prevent that, and a test shows the
    // values differ without them.)
    let floor = if layout.floored(b) {
        let pred = ctx.index.raw_position(p).expect("in range");
        capture_floor(ctx, &pred)?
    } else {
        0
    };
    if floor > layout.max_plies() {
        return Err(SolveError::DistanceOverflow {
            material: ctx.index.material(),
            limit: layout.max_plies(),
            in_subtable: true,
        });
    }
    let loss = decided((d + 1).max(floor));
    ctx.cells.update_as::<SHARED>(p, |_| Some(loss));
    ctx.present.mark(p, loss);
    delta[loss as usize] += 1;
    Ok(())
}

/// The floor of `pos` found again from its captures: 1 + the longest win
/// a capture leads into (for a position just lost whose byte had the
/// floor bit: none of its captures wins or draws).
#[inline(never)]
fn capture_floor<const W: usize>(ctx: &ByteCtx<W>, pos: &RawPosition) -> Result<u16, SolveError> {
    let mut floor = 0;
    let mut error = None;
    ctx.tables.for_each_move(pos, |mv| {
        if mv.is_capture() && error.is_none() {
            match ctx.subs.value_after(pos, &mv) {
                Ok(Value::Win(k)) => floor = floor.max(k + 1),
                Ok(_) => {}
                Err(e) => error = Some(e),
            }
        }
    });
    error.map_or(Ok(floor), Err)
}

/// Asks for the cache line of `word` ahead of its use.
#[inline(always)]
pub(crate) fn prefetch<T>(word: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it never faults, and the address
    // is a valid reference anyway.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(word as *const T as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = word;
}
