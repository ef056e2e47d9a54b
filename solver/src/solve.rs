//! Solving one material by retrograde analysis (see the crate docs).
//!
//! Working state: one 32-bit cell per index slot, in a memory-mapped file.
//! The high 16 bits hold the value (the table encoding of
//! [`jungletb_format::encoding`], or "undecided + floor", see [`UNDECIDED`]),
//! the low 8 bits the weighted count of successors inside the material not
//! yet known to be wins for the opponent. One cell touches one cache line per
//! predecessor update instead of two (on the 2-core machine this measured no
//! faster than separate arrays, but it is one array instead of three).

use crate::error::SolveError;
use crate::frontier::Frontier;
use crate::subtables::SubTables;
use crate::work::WorkArray;
use jungletb_format::encoding::{self, RAW_DRAW, RAW_UNUSED};
use jungletb_format::Tablebase;
use jungletb_indexer::{Material, Neighbours, PositionIndex};
use jungletb_rules::{MoveTables, NoMoveRule, RawPosition, Ruleset, Value};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Working values from here up mean "not decided yet" (a draw if it never
/// is); the offset above it is the position's floor: 1 + the longest win
/// among its successors outside the material (0 if none), the earliest level
/// at which it can be a loss.
const UNDECIDED: u16 = 0x8000;
/// Longest distance the working encoding can hold.
const MAX_WORK_PLIES: u16 = UNDECIDED - 3;
/// Index slots handed to a thread at a time.
const CHUNK: usize = 4096;

#[inline]
fn is_undecided(value: u16) -> bool {
    value >= UNDECIDED
}
#[inline]
fn win(n: u16) -> u16 {
    encoding::encode(Value::Win(n)).expect("checked level")
}
#[inline]
fn loss(n: u16) -> u16 {
    encoding::encode(Value::Loss(n)).expect("checked level")
}
#[inline]
fn cell(value: u16, count: u8) -> u32 {
    (value as u32) << 16 | count as u32
}
#[inline]
fn value_of(cell: u32) -> u16 {
    (cell >> 16) as u16
}
#[inline]
fn with_value(cell: u32, value: u16) -> u32 {
    (value as u32) << 16 | (cell & 0xFFFF)
}

/// Figures of one solve.
#[derive(Debug, Clone, Default)]
pub struct SolveStats {
    /// Index slots.
    pub slots: u64,
    /// Positions (used slots).
    pub positions: u64,
    /// Highest distance level processed.
    pub levels: u16,
    /// Time of the forward sweep (pass 1).
    pub sweep: Duration,
    /// Time of the level-by-level propagation (pass 2).
    pub propagate: Duration,
}

/// Everything the passes share.
struct Ctx<'a> {
    rules: &'a Ruleset,
    tables: MoveTables,
    index: &'a PositionIndex,
    /// The tables captures lead into.
    subs: SubTables,
    cells: &'a [AtomicU32],
}

/// Solves canonical `material` under `rules`, reading its sub-materials from
/// `subtables`, with working files under `work_dir`. Returns the raw values
/// (see [`jungletb_format::encoding`]) for every slot of the material's index.
///
/// `mem_budget` (bytes) decides where the big arrays live: when the cells
/// and the output fit in it (see [`in_memory_bytes`]) they are ordinary
/// memory, otherwise memory-mapped files in `work_dir`, which the kernel
/// pages to disk as needed. Only the frontier bitmaps (1/4 byte per slot)
/// must fit in memory (see [`minimum_memory`]). `on_progress` is called
/// with counts of positions swept.
pub fn solve_material(
    material: Material,
    rules: &Ruleset,
    subtables: &Tablebase,
    work_dir: &Path,
    mem_budget: u64,
    on_progress: &(dyn Fn(u64) + Sync),
) -> Result<(SolvedValues, SolveStats), SolveError> {
    let index =
        PositionIndex::new(material, rules).map_err(|e| SolveError::Invalid(e.to_string()))?;
    let n = index.size() as usize;
    let subs = SubTables::open(material, subtables)?;
    let in_memory = in_memory_bytes(n as u64) <= mem_budget;
    let mut cells = if in_memory {
        WorkArray::anonymous(n, 4)?
    } else {
        WorkArray::file(work_dir, "cells", n, 4)?
    };
    let ctx = Ctx {
        rules,
        tables: MoveTables::new(rules),
        index: &index,
        subs,
        cells: cells.atomic_u32(),
    };

    // Pass 1: forward sweep. Positions decided at levels 0 (no move) and 1
    // (an immediate win) go straight to the first two frontiers; the rest
    // (wins through captures, losses with a floor) to per-level lists.
    let t0 = Instant::now();
    let mut current = Frontier::new(n);
    let mut next = Frontier::new(n);
    let seeds: Vec<Result<SweepSeeds, SolveError>> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let range = c * CHUNK..((c + 1) * CHUNK).min(n);
            let len = range.len() as u64;
            let out = sweep_chunk(&ctx, range, [&current, &next]);
            on_progress(len);
            out
        })
        .collect();
    let mut levels: BTreeMap<u16, Vec<u32>> = BTreeMap::new();
    let (mut pending, mut pending_next) = (0u64, 0u64);
    for s in seeds {
        let s = s?;
        pending += s.first[0];
        pending_next += s.first[1];
        for (level, i) in s.later {
            levels.entry(level).or_default().push(i);
        }
    }
    let mut stats = SolveStats {
        slots: n as u64,
        sweep: t0.elapsed(),
        ..Default::default()
    };

    // Pass 2: level by level, each decided position visits its predecessors.
    // Positions decided for the next level go to a bitmap (see `frontier`);
    // the few losses held back by a floor, and the seeds beyond level 1,
    // wait in lists.
    let t1 = Instant::now();
    let mut d = 0u16;
    loop {
        if let Some(list) = levels.remove(&d) {
            pending += list.len() as u64;
            list.par_iter().for_each(|&i| current.insert(i));
        }
        if pending == 0 && pending_next == 0 {
            match levels.first_key_value() {
                Some((&l, _)) => {
                    d = l;
                    continue;
                }
                None => break,
            }
        }
        if pending == 0 {
            // Nothing at this level, but some at the next.
            std::mem::swap(&mut current, &mut next);
            (pending, pending_next) = (pending_next, 0);
            d += 1;
            continue;
        }
        if d >= MAX_WORK_PLIES - 1 {
            return Err(SolveError::DistanceOverflow(format!(
                "{material}: distances beyond {MAX_WORK_PLIES} plies"
            )));
        }
        stats.levels = d;
        let words = current.word_count();
        let expand = expand_for(&index);
        let (found, later) = (0..words.div_ceil(CHUNK / 64))
            .into_par_iter()
            .fold(
                || (0u64, Vec::new()),
                |(mut found, mut later), c| {
                    let range = c * (CHUNK / 64)..((c + 1) * (CHUNK / 64)).min(words);
                    let mut batch = Vec::with_capacity(BATCH + 64);
                    // Each position's cell is asked for `AHEAD` positions
                    // before it is expanded.
                    let mut ahead = [0u32; AHEAD];
                    let mut taken = 0usize;
                    let mut visit = |c: u32, batch: &mut Vec<Update>| {
                        expand(&ctx, d, c, batch);
                        if batch.len() >= BATCH {
                            apply(&ctx, d, batch, &next, &mut found, &mut later);
                        }
                    };
                    current.drain_words(range, |i| {
                        prefetch(&ctx.cells[i as usize]);
                        let slot = &mut ahead[taken % AHEAD];
                        if taken >= AHEAD {
                            visit(*slot, &mut batch);
                        }
                        *slot = i;
                        taken += 1;
                    });
                    for k in taken.saturating_sub(AHEAD)..taken {
                        visit(ahead[k % AHEAD], &mut batch);
                    }
                    apply(&ctx, d, &mut batch, &next, &mut found, &mut later);
                    (found, later)
                },
            )
            .reduce(
                || (0, Vec::new()),
                |(a, mut b), (c, e)| {
                    b.extend(e);
                    (a + c, b)
                },
            );
        for (level, i) in later {
            levels.entry(level).or_default().push(i);
        }
        std::mem::swap(&mut current, &mut next);
        (pending, pending_next) = (pending_next + found, 0);
        d += 1;
    }
    drop(ctx);
    stats.propagate = t1.elapsed();

    // Undecided positions are draws.
    let mut values = if in_memory {
        WorkArray::anonymous(n, 2)?
    } else {
        WorkArray::file(work_dir, "values", n, 2)?
    };
    values
        .u16_mut()
        .par_iter_mut()
        .zip(cells.u32_mut().par_iter())
        .for_each(|(out, &c)| {
            *out = match value_of(c) {
                v if is_undecided(v) => RAW_DRAW,
                v => v,
            }
        });
    drop(cells);
    let raw = SolvedValues(values);
    stats.positions = raw.par_iter().filter(|&&v| v != RAW_UNUSED).count() as u64;
    Ok((raw, stats))
}

/// The raw values of a solved material, one per index slot (see
/// [`jungletb_format::encoding`]): in memory or in a memory-mapped working
/// file, as the memory budget decided.
pub struct SolvedValues(WorkArray);

impl std::fmt::Debug for SolvedValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolvedValues")
            .field("slots", &self.len())
            .finish()
    }
}

impl std::ops::Deref for SolvedValues {
    type Target = [u16];
    fn deref(&self) -> &[u16] {
        self.0.u16()
    }
}

/// Bytes of memory a material of `slots` index slots needs to be solved
/// entirely in memory: the cells (4 bytes a slot), the output (2), the
/// frontier bitmaps (1/4) and a margin for lists and buffers.
pub fn in_memory_bytes(slots: u64) -> u64 {
    slots * 6 + minimum_memory(slots)
}

/// The least memory budget that lets a material of `slots` index slots make
/// progress: the frontier bitmaps (1/4 byte a slot) and 64 MiB for lists,
/// buffers and the move tables. Everything else can live in files.
pub fn minimum_memory(slots: u64) -> u64 {
    slots / 4 + (64 << 20)
}

/// What the sweep of one chunk decided: counts of the positions put in the
/// level-0 and level-1 frontiers, and the other decided positions by level.
struct SweepSeeds {
    first: [u64; 2],
    later: Vec<(u16, u32)>,
}

/// The forward sweep over one chunk of slots: counts each position's moves
/// inside the material and resolves the others.
fn sweep_chunk(
    ctx: &Ctx,
    range: std::ops::Range<usize>,
    first: [&Frontier; 2],
) -> Result<SweepSeeds, SolveError> {
    let mut seeds = SweepSeeds {
        first: [0, 0],
        later: Vec::new(),
    };
    let mut seed = |level: u16, i: usize| {
        if level < 2 {
            first[level as usize].insert(i as u32);
            seeds.first[level as usize] += 1;
        } else {
            seeds.later.push((level, i as u32));
        }
    };
    for i in range {
        let Some(pos) = ctx.index.canonical_raw_position(i as u64) else {
            ctx.cells[i].store(cell(RAW_UNUSED, 0), Relaxed);
            continue;
        };
        let mut any_move = false;
        let mut inside = 0usize; // quiet moves: successors in this material
        let mut immediate = false; // a move that ends the game at once
        let mut best_win: Option<u16> = None; // shortest win through a capture
        let mut floor: u16 = 0;
        let mut outside_draw = false;
        let mut error = None;
        // Same as `pos.is_winning_move`, with the piece count read once.
        let lone = pos.count(pos.side_to_move().opponent()) == 1;
        ctx.tables.for_each_move(&pos, |mv| {
            any_move = true;
            if mv.enters_den || (lone && mv.is_capture()) {
                immediate = true;
            } else if !mv.is_capture() {
                inside += 1;
            } else if !immediate && error.is_none() {
                match ctx.subs.value_after(&pos, &mv) {
                    Ok(Value::Loss(k)) => best_win = Some(best_win.map_or(k + 1, |b| b.min(k + 1))),
                    Ok(Value::Win(k)) => floor = floor.max(k + 1),
                    Ok(Value::Draw) => outside_draw = true,
                    Err(e) => error = Some(e),
                }
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        if !any_move {
            let value = match ctx.rules.no_move {
                NoMoveRule::Loss => {
                    seed(0, i);
                    loss(0)
                }
                NoMoveRule::Draw => RAW_DRAW,
            };
            ctx.cells[i].store(cell(value, 0), Relaxed);
            continue;
        }
        if best_win.unwrap_or(0) > MAX_WORK_PLIES || floor > MAX_WORK_PLIES {
            return Err(SolveError::DistanceOverflow(format!(
                "a smaller table holds distances beyond {MAX_WORK_PLIES} plies"
            )));
        }
        // Every position stores its true count, so decrements never underflow.
        let count = (inside * weight(&pos) as usize + outside_draw as usize) as u8;
        let value = if immediate {
            seed(1, i);
            win(1)
        } else if let Some(w) = best_win {
            // Tentative: a win found inside the material may be shorter.
            seed(w, i);
            win(w)
        } else if count == 0 {
            // Every move is a capture into a smaller table lost for us.
            seed(floor, i);
            loss(floor)
        } else {
            UNDECIDED + floor
        };
        ctx.cells[i].store(cell(value, count), Relaxed);
    }
    Ok(seeds)
}

/// The counting weight of a position: the size of its symmetry class up to
/// a common factor (1 if it is its own mirror image, else 2).
///
/// Counters are not deduplicated by successor, so a move into a class and
/// the un-moves out of it must balance: a position P counts each quiet move
/// `weight(P)` times, and a decided successor C decrements once per un-move
/// by `weight(C)`. Both sums equal |class P| × (moves of P into class C),
/// because moves commute with the symmetries.
#[inline]
fn weight(pos: &RawPosition) -> u8 {
    if pos.is_mirror_symmetric() {
        1
    } else {
        2
    }
}

/// Predecessor updates gathered before any is applied. Which batch size
/// was measured in `benches/generate.rs`.
const BATCH: usize = 64;
/// Positions between the prefetch of a position's cell and its expansion.
const AHEAD: usize = 8;

/// One pending predecessor update: the slot, and by how much its counter
/// drops (the weight of a won successor), or 0 when the successor is lost
/// (the predecessor wins).
#[derive(Clone, Copy)]
struct Update {
    slot: u32,
    decrement: u8,
}

/// Asks for the cache line of `cell` ahead of its update.
#[inline(always)]
fn prefetch(cell: &AtomicU32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it never faults, and the address
    // is a valid reference anyway.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(cell as *const AtomicU32 as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = cell;
}

/// Gathers the predecessor updates of position `c`, decided at level `d`,
/// into `batch`, prefetching their cells.
fn expand<const N: usize>(ctx: &Ctx, d: u16, c: u32, batch: &mut Vec<Update>) {
    let value = value_of(ctx.cells[c as usize].load(Relaxed));
    let Some(v) = encoding::decode(value).filter(|v| v.plies() == Some(d)) else {
        return; // stale entry: decided at another level
    };
    let pos = ctx
        .index
        .raw_position(c as u64)
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
        let slot = near.index_after(code, from) as u32;
        prefetch(&ctx.cells[slot as usize]);
        batch.push(Update { slot, decrement });
    });
}

/// [`expand`] for the piece count of `index`.
fn expand_for(index: &PositionIndex) -> fn(&Ctx, u16, u32, &mut Vec<Update>) {
    match index.piece_count() {
        2 => expand::<2>,
        3 => expand::<3>,
        4 => expand::<4>,
        5 => expand::<5>,
        6 => expand::<6>,
        _ => expand::<{ Neighbours::<16>::PIECES_ANY }>,
    }
}

/// Applies the gathered updates of level `d` and empties `batch`. New
/// decisions for level `d + 1` go to `next` (counted in `found`), later
/// ones to `later`.
fn apply(
    ctx: &Ctx,
    d: u16,
    batch: &mut Vec<Update>,
    next: &Frontier,
    found: &mut u64,
    later: &mut Vec<(u16, u32)>,
) {
    for &Update { slot: p, decrement } in batch.iter() {
        let slot = &ctx.cells[p as usize];
        if decrement == 0 {
            // The predecessor wins in d + 1 unless it already wins sooner.
            let target = win(d + 1);
            let mut cur = slot.load(Relaxed);
            loop {
                let old = value_of(cur);
                let improvable = is_undecided(old)
                    || matches!(encoding::decode(old), Some(Value::Win(k)) if k > d + 1);
                if !improvable {
                    break;
                }
                match slot.compare_exchange_weak(cur, with_value(cur, target), Relaxed, Relaxed) {
                    Ok(_) => {
                        next.insert(p);
                        *found += 1;
                        break;
                    }
                    Err(now) => cur = now,
                }
            }
            continue;
        }
        // A decided predecessor's count no longer matters: skip the write,
        // which keeps the cache line shared between cores.
        if !is_undecided(value_of(slot.load(Relaxed))) {
            continue;
        }
        let w = decrement as u32;
        let before_sub = slot.fetch_sub(w, Relaxed);
        if before_sub & 0xFF != w {
            continue;
        }
        // That was the last undecided successor: a loss, unless the
        // position is a win already.
        let mut cur = before_sub - w;
        loop {
            let old = value_of(cur);
            if !is_undecided(old) {
                break;
            }
            let level = (d + 1).max(old - UNDECIDED);
            match slot.compare_exchange_weak(cur, with_value(cur, loss(level)), Relaxed, Relaxed) {
                Ok(_) => {
                    if level == d + 1 {
                        next.insert(p);
                        *found += 1;
                    } else {
                        later.push((level, p));
                    }
                    break;
                }
                Err(now) => cur = now,
            }
        }
    }
    batch.clear();
}
