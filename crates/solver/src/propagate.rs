//! One level of the propagation: every position decided at level `d`
//! visits its predecessors (see the crate docs and `solve.rs`).
//!
//! The work of one chunk of the frontier is a pipeline in three stages, so
//! that memory reads overlap instead of waiting one after another:
//!
//! 1. a position taken from the frontier has its cell prefetched, and is
//!    expanded [`AHEAD`] positions later (its value says win or loss);
//! 2. expanding decodes it, generates its un-moves and indexes each
//!    predecessor ([`Neighbours`]), prefetching the predecessor's cell and
//!    queueing the update in a [`Batch`];
//! 3. a full batch is applied: wins set, counters decremented, losses found.
//!
//! Updates commute within a level (that is what lets threads share one), so
//! delaying them changes nothing but the order of memory accesses.

use crate::cell::{count_of, floor_of, improves_to_win, is_undecided, loss, weight, win};
use crate::context::Ctx;
use crate::frontier::Frontier;
use jungletb_format::encoding;
use jungletb_indexer::{Neighbours, PositionIndex};
use jungletb_rules::Value;
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

/// Updates gathered before a batch is applied. Measured on TRvTR (1
/// thread): 16 was 6 % slower than 64; 256 no faster.
const BATCH: usize = 64;
/// Positions between the prefetch of a position's cell and its expansion
/// (16 measured no faster than 8).
const AHEAD: usize = 8;
/// Room of a batch: a full batch plus the un-moves of one more position
/// (at most 4 per piece, 8 pieces a side), rounded up to a power of two.
const BATCH_ROOM: usize = 128;
const _: () = assert!(BATCH + 32 <= BATCH_ROOM && BATCH_ROOM.is_power_of_two());

/// What one chunk of a level decided.
#[derive(Debug, Default)]
pub(crate) struct LevelOutcome {
    /// Positions decided for level `d + 1` (inserted in `next`).
    pub(crate) found: u64,
    /// Losses decided for later levels (held back by a floor).
    pub(crate) later: Vec<(u16, u64)>,
}

/// Expands the positions of `current` in `slots`, all decided at level
/// `d`, adding what they decide to `out`: new decisions for level `d + 1`
/// go to `next`. `SHARED`: other threads may update the same cells at the
/// same time (locked updates); otherwise plain ones ([`update_alone`],
/// see `schedule.rs` for when that is safe).
pub(crate) fn propagate_slots<const SHARED: bool>(
    ctx: &Ctx,
    d: u16,
    current: &Frontier,
    slots: std::ops::Range<u64>,
    next: &Frontier,
    out: &mut LevelOutcome,
) {
    let expand = expand_for::<Batch>(ctx.index);
    let mut batch = Batch::new();
    drain_ahead(ctx, current, slots, |c| {
        expand(ctx, d, c, &mut batch);
        if batch.len >= BATCH {
            batch.apply::<SHARED>(ctx, d, next, out);
        }
    });
    batch.apply::<SHARED>(ctx, d, next, out);
}

/// One pending predecessor update: the slot, and by how much its counter
/// drops (the weight of a won successor), or 0 when the successor is lost
/// (the predecessor wins).
#[derive(Clone, Copy, Default)]
struct Update {
    slot: u64,
    decrement: u8,
}

/// Updates waiting for their cells' cache lines: a fixed array, so that
/// queueing one is a store and an increment (a `Vec` push measured 7
/// instructions with its capacity check).
struct Batch {
    updates: [Update; BATCH_ROOM],
    len: usize,
}

impl Batch {
    fn new() -> Batch {
        Batch {
            updates: [Update::default(); BATCH_ROOM],
            len: 0,
        }
    }

    /// Queues an update (the caller applies the batch once it holds
    /// [`BATCH`]; one position adds at most 32).
    #[inline(always)]
    fn queue(&mut self, update: Update) {
        self.updates[self.len % BATCH_ROOM] = update;
        self.len += 1;
    }

    /// Applies the queued updates of level `d` and empties the batch.
    fn apply<const SHARED: bool>(
        &mut self,
        ctx: &Ctx,
        d: u16,
        next: &Frontier,
        out: &mut LevelOutcome,
    ) {
        for &Update { slot: p, decrement } in &self.updates[..self.len.min(BATCH_ROOM)] {
            let slot = &ctx.cells[p as usize];
            if !SHARED {
                update_alone(slot, p, decrement, d, next, out);
            } else if decrement == 0 {
                set_win(slot, p, d + 1, next, out);
            } else {
                count_down(slot, p, decrement, d, next, out);
            }
        }
        self.len = 0;
    }
}

/// The predecessor in `slot` (index `p`) of a position lost in `n - 1`
/// plies wins in `n`, unless it already wins sooner.
#[inline(always)]
fn set_win(slot: &AtomicU16, p: u64, n: u16, next: &Frontier, out: &mut LevelOutcome) {
    let target = win(n);
    let mut cur = slot.load(Relaxed);
    while improves_to_win(cur, n) {
        match slot.compare_exchange_weak(cur, target, Relaxed, Relaxed) {
            Ok(_) => {
                next.insert(p);
                out.found += 1;
                return;
            }
            Err(now) => cur = now,
        }
    }
}

/// One successor of the predecessor in `slot` (index `p`) is won at level
/// `d` for the side to move there: its counter drops by `w`; at zero the
/// predecessor is lost.
///
/// A compare-and-swap, not a `fetch_sub`: a decided cell holds no count
/// (see `cell.rs`), so a subtraction racing with another thread's win
/// would corrupt the value. One locked instruction either way.
#[inline(always)]
fn count_down(slot: &AtomicU16, p: u64, w: u8, d: u16, next: &Frontier, out: &mut LevelOutcome) {
    let mut cur = slot.load(Relaxed);
    loop {
        // A decided predecessor's count no longer matters: no write, which
        // also keeps the cache line shared between cores.
        if !is_undecided(cur) {
            return;
        }
        let new = if count_of(cur) != w {
            cur - w as u16
        } else {
            // The last undecided successor: a loss, at the floor's level
            // if that is later.
            loss((d + 1).max(floor_of(cur)))
        };
        match slot.compare_exchange_weak(cur, new, Relaxed, Relaxed) {
            Ok(_) => {
                if !is_undecided(new) {
                    lost(p, new, d, next, out);
                }
                return;
            }
            Err(now) => cur = now,
        }
    }
}

/// Records the predecessor `p` just decided as `value`, a loss at level
/// `d + 1` or later: in `next`, or held back in `out.later`.
#[inline(always)]
fn lost(p: u64, value: u16, d: u16, next: &Frontier, out: &mut LevelOutcome) {
    if value == loss(d + 1) {
        next.insert(p);
        out.found += 1;
    } else {
        let level = encoding::decode(value)
            .and_then(|v| v.plies())
            .expect("a loss");
        out.later.push((level, p));
    }
}

/// [`set_win`] (`w == 0`) or [`count_down`] (by `w`) when no other thread
/// touches the cells (a solve on one thread, or see `schedule.rs`): plain loads and stores
/// instead of locked read-modify-writes, which on x86 also keep the loads
/// after them waiting, so the batch's cell reads overlap less. Measured on
/// one thread, old and new builds alternated four times: propagation of
/// ELvTR 0.501-0.509 s -> 0.428-0.431 s, TRvTR 0.316-0.319 -> 0.275-0.279 s.
/// The same decisions as the shared path (tested: one, two and three
/// threads write identical tables). Two threads use it too, while each
/// writes only cells the other never writes (see `schedule.rs`).
#[inline(always)]
pub(crate) fn update_alone(
    slot: &AtomicU16,
    p: u64,
    w: u8,
    d: u16,
    next: &Frontier,
    out: &mut LevelOutcome,
) {
    let cur = slot.load(Relaxed);
    if w == 0 {
        if improves_to_win(cur, d + 1) {
            slot.store(win(d + 1), Relaxed);
            next.insert(p);
            out.found += 1;
        }
        return;
    }
    if !is_undecided(cur) {
        return;
    }
    if count_of(cur) != w {
        slot.store(cur - w as u16, Relaxed);
        return;
    }
    let value = loss((d + 1).max(floor_of(cur)));
    slot.store(value, Relaxed);
    lost(p, value, d, next, out);
}

/// Asks for the cache line of `cell` (a 16-bit cell, or a word of one-byte
/// cells) ahead of its use.
#[inline(always)]
pub(crate) fn prefetch<T>(cell: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it never faults, and the address
    // is a valid reference anyway.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(cell as *const T as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = cell;
}

/// Where [`expand`] puts the predecessor updates it finds: a [`Batch`]
/// applied as it fills, or region buckets applied after a round (see
/// `regions.rs`).
pub(crate) trait Updates {
    /// Queues the update of the predecessor in `slot`: its counter drops by
    /// `decrement`, or it wins when `decrement` is 0.
    fn push(&mut self, ctx: &Ctx, slot: u64, decrement: u8);
}

impl Updates for Batch {
    /// Queues the update and prefetches the predecessor's cell, to be
    /// applied with the rest of the batch.
    #[inline(always)]
    fn push(&mut self, ctx: &Ctx, slot: u64, decrement: u8) {
        prefetch(&ctx.cells[slot as usize]);
        self.queue(Update { slot, decrement });
    }
}

/// Calls `visit` with every slot `current` holds in `slots` (taking them
/// out), [`AHEAD`] slots after prefetching its cell.
#[inline(always)]
pub(crate) fn drain_ahead(
    ctx: &Ctx,
    current: &Frontier,
    slots: std::ops::Range<u64>,
    mut visit: impl FnMut(u64),
) {
    let mut ahead = [0u64; AHEAD];
    let mut taken = 0usize;
    current.drain(slots, |i| {
        prefetch(&ctx.cells[i as usize]);
        let slot = &mut ahead[taken % AHEAD];
        if taken >= AHEAD {
            visit(*slot);
        }
        *slot = i;
        taken += 1;
    });
    for k in taken.saturating_sub(AHEAD)..taken {
        visit(ahead[k % AHEAD]);
    }
}

/// Queues the predecessor updates of position `c`, decided at level `d`, in
/// `out`. `N` is the piece count (see [`Neighbours`]).
fn expand<const N: usize, U: Updates>(ctx: &Ctx, d: u16, c: u64, out: &mut U) {
    let value = ctx.cells[c as usize].load(Relaxed);
    let Some(v) = encoding::decode(value).filter(|v| v.plies() == Some(d)) else {
        return; // stale entry: decided at another level
    };
    let pos = ctx
        .index
        .raw_position(c)
        .expect("decided positions are in range");
    let before = pos.side_to_move().opponent();
    let decrement = match v {
        Value::Loss(_) => 0,
        Value::Win(_) => weight(&pos),
        Value::Draw => unreachable!("draws are never propagated"),
    };
    let near = ctx
        .index
        .neighbours::<N>(pos.squares(), before)
        .expect("N is the piece count");
    ctx.tables.for_each_quiet_unmove(&pos, |code, from| {
        let slot = near.index_after(code, from);
        // What lets two threads update without locked instructions (see
        // `schedule.rs`): a predecessor lies in the other side's half.
        debug_assert!(
            ctx.index.white_to_move_only()
                || (slot < ctx.index.size() / 2) != (c < ctx.index.size() / 2)
        );
        out.push(ctx, slot, decrement);
    });
}

/// [`expand`] for the piece count of `index`.
pub(crate) fn expand_for<U: Updates>(index: &PositionIndex) -> fn(&Ctx, u16, u64, &mut U) {
    match index.piece_count() {
        2 => expand::<2, U>,
        3 => expand::<3, U>,
        4 => expand::<4, U>,
        5 => expand::<5, U>,
        6 => expand::<6, U>,
        _ => expand::<{ Neighbours::<16>::PIECES_ANY }, U>,
    }
}
