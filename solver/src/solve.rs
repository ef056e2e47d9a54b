//! Solving one material by retrograde analysis (see the crate docs).

use crate::error::SolveError;
use crate::work::WorkArray;
use jungletb_format::encoding::{self, RAW_DRAW, RAW_UNUSED};
use jungletb_format::{Table, Tablebase};
use jungletb_indexer::{Material, PositionIndex};
use jungletb_rules::{NoMoveRule, Piece, Position, Ruleset, Value};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};
use std::sync::Arc;

/// Working value of a position not decided yet (a draw if it never is).
const UNDECIDED: u16 = u16::MAX;
/// Index slots handed to a thread at a time.
const CHUNK: usize = 4096;

/// Figures of one solve.
#[derive(Debug, Clone, Default)]
pub struct SolveStats {
    /// Index slots.
    pub slots: u64,
    /// Positions (used slots).
    pub positions: u64,
    /// Highest distance level processed.
    pub levels: u16,
}

/// Everything the passes share.
struct Ctx<'a> {
    rules: &'a Ruleset,
    index: &'a PositionIndex,
    /// By captured piece code: the table of the material after that capture
    /// and whether positions must be colour-flipped to probe it.
    subs: Vec<Option<(Arc<Table>, bool)>>,
    value: &'a [AtomicU16],
    count: &'a [AtomicU8],
    /// 1 + the longest win among successors outside the material (0 if none):
    /// the earliest level at which the position can be a loss.
    floor: &'a [AtomicU16],
}

#[inline]
fn win(n: u16) -> u16 {
    encoding::encode(Value::Win(n)).expect("checked level")
}
#[inline]
fn loss(n: u16) -> u16 {
    encoding::encode(Value::Loss(n)).expect("checked level")
}

/// Solves canonical `material` under `rules`, reading its sub-materials from
/// `subtables`, with working files under `work_dir`. Returns the raw values
/// (see [`jungletb_format::encoding`]) for every slot of the material's index.
/// `on_progress` is called with counts of positions swept.
pub fn solve_material(
    material: Material,
    rules: &Ruleset,
    subtables: &Tablebase,
    work_dir: &Path,
    on_progress: &(dyn Fn(u64) + Sync),
) -> Result<(Vec<u16>, SolveStats), SolveError> {
    let index =
        PositionIndex::new(material, rules).map_err(|e| SolveError::Invalid(e.to_string()))?;
    let n = index.size() as usize;
    let mut subs: Vec<Option<(Arc<Table>, bool)>> = vec![None; 16];
    for p in material.pieces() {
        if let Some(m) = material.without(p) {
            let (canonical, flip) = m.canonical();
            subs[p.code()] = Some((subtables.table(canonical)?, flip));
        }
    }
    let mut values = WorkArray::u16(work_dir, "values", n)?;
    let counts = WorkArray::u8(work_dir, "counts", n)?;
    let floors = WorkArray::u16(work_dir, "floors", n)?;
    let ctx = Ctx {
        rules,
        index: &index,
        subs,
        value: values.atomic_u16(),
        count: counts.atomic_u8(),
        floor: floors.atomic_u16(),
    };

    // Pass 1: forward sweep. Seeds are (level, index) of decided positions.
    let chunks = n.div_ceil(CHUNK);
    let seeds: Vec<Result<Vec<(u16, u32)>, SolveError>> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let range = c * CHUNK..((c + 1) * CHUNK).min(n);
            let len = range.len() as u64;
            let out = init_chunk(&ctx, range);
            on_progress(len);
            out
        })
        .collect();
    let mut levels: BTreeMap<u16, Vec<u32>> = BTreeMap::new();
    for s in seeds {
        for (level, i) in s? {
            levels.entry(level).or_default().push(i);
        }
    }

    // Pass 2: level by level.
    let mut stats = SolveStats {
        slots: n as u64,
        ..Default::default()
    };
    while let Some((d, list)) = levels.pop_first() {
        if d >= encoding::MAX_PLIES - 1 {
            return Err(SolveError::DistanceOverflow(format!(
                "{material}: distances beyond {} plies",
                encoding::MAX_PLIES
            )));
        }
        stats.levels = d;
        let produced: Vec<(u16, u32)> = list
            .par_chunks(CHUNK)
            .flat_map_iter(|chunk| {
                let mut out = Vec::new();
                for &c in chunk {
                    expand(&ctx, d, c, &mut out);
                }
                out
            })
            .collect();
        for (level, i) in produced {
            levels.entry(level).or_default().push(i);
        }
    }
    drop(ctx);

    // Undecided positions are draws.
    let raw = values.u16_mut();
    raw.par_iter_mut().for_each(|v| {
        if *v == UNDECIDED {
            *v = RAW_DRAW;
        }
    });
    stats.positions = raw.par_iter().filter(|&&v| v != RAW_UNUSED).count() as u64;
    Ok((raw.to_vec(), stats))
}

/// The forward sweep over one chunk of slots.
fn init_chunk(ctx: &Ctx, range: std::ops::Range<usize>) -> Result<Vec<(u16, u32)>, SolveError> {
    let mut seeds = Vec::new();
    let mut children: Vec<u32> = Vec::with_capacity(32);
    for i in range {
        let Some(pos) = ctx.index.canonical_position(i as u64) else {
            ctx.value[i].store(RAW_UNUSED, Relaxed);
            continue;
        };
        let moves = pos.legal_moves(ctx.rules);
        if moves.is_empty() {
            match ctx.rules.no_move {
                NoMoveRule::Loss => {
                    ctx.value[i].store(loss(0), Relaxed);
                    seeds.push((0, i as u32));
                }
                NoMoveRule::Draw => ctx.value[i].store(RAW_DRAW, Relaxed),
            }
            continue;
        }
        children.clear();
        let mut best_win: Option<u16> = None; // shortest win through a capture
        let mut floor: u16 = 0;
        let mut outside_draw = false;
        let mut immediate = false;
        for mv in &moves {
            if pos.is_winning_move(ctx.rules, mv) {
                immediate = true;
                break;
            }
            let child = pos.play(mv);
            match mv.captured {
                Some(animal) => {
                    let victim = Piece::new(pos.side_to_move().opponent(), animal);
                    let v = probe_sub(ctx, victim, &child)?;
                    match v {
                        Value::Loss(k) => best_win = Some(best_win.map_or(k + 1, |b| b.min(k + 1))),
                        Value::Win(k) => floor = floor.max(k + 1),
                        Value::Draw => outside_draw = true,
                    }
                }
                None => children.push(ctx.index.index(&child) as u32),
            }
        }
        if immediate {
            ctx.value[i].store(win(1), Relaxed);
            seeds.push((1, i as u32));
            continue;
        }
        children.sort_unstable();
        children.dedup();
        let count = children.len() + outside_draw as usize;
        ctx.count[i].store(count as u8, Relaxed);
        ctx.floor[i].store(floor, Relaxed);
        if let Some(w) = best_win {
            // Tentative: a win found inside the material may be shorter.
            ctx.value[i].store(win(w), Relaxed);
            seeds.push((w, i as u32));
        } else if count == 0 {
            // Every move is a capture into a lost-for-us smaller table.
            ctx.value[i].store(loss(floor), Relaxed);
            seeds.push((floor, i as u32));
        } else {
            ctx.value[i].store(UNDECIDED, Relaxed);
        }
    }
    Ok(seeds)
}

/// The value of `child` (reached by capturing `victim`) from the smaller table.
fn probe_sub(ctx: &Ctx, victim: Piece, child: &Position) -> Result<Value, SolveError> {
    let (table, flip) = ctx.subs[victim.code()]
        .as_ref()
        .expect("every capturable piece has a sub-table");
    let v = if *flip {
        table.probe(&child.color_flip())
    } else {
        table.probe(child)
    };
    Ok(v?)
}

/// Processes position `c`, decided at level `d`: visits its predecessors.
fn expand(ctx: &Ctx, d: u16, c: u32, out: &mut Vec<(u16, u32)>) {
    let raw = ctx.value[c as usize].load(Relaxed);
    let Some(v) = encoding::decode(raw).filter(|v| v.plies() == Some(d)) else {
        return; // stale entry: decided at another level
    };
    let pos = ctx
        .index
        .position(c as u64)
        .expect("decided positions are in range");
    let mut preds: arrayvec::ArrayVec<u32, 32> = pos
        .unmoves(ctx.rules, None)
        .iter()
        .map(|u| ctx.index.index(&pos.unplay(u)) as u32)
        .collect();
    preds.sort_unstable();
    let mut last = u32::MAX;
    for &p in &preds {
        if p == last {
            continue;
        }
        last = p;
        let slot = &ctx.value[p as usize];
        match v {
            Value::Loss(_) => {
                // The predecessor wins in d + 1 unless it already wins sooner.
                let target = win(d + 1);
                let mut cur = slot.load(Relaxed);
                loop {
                    let improvable = cur == UNDECIDED
                        || matches!(encoding::decode(cur), Some(Value::Win(w)) if w > d + 1);
                    if !improvable {
                        break;
                    }
                    match slot.compare_exchange_weak(cur, target, Relaxed, Relaxed) {
                        Ok(_) => {
                            out.push((d + 1, p));
                            break;
                        }
                        Err(now) => cur = now,
                    }
                }
            }
            Value::Win(_) => {
                if ctx.count[p as usize].fetch_sub(1, Relaxed) == 1 {
                    // Last undecided successor: a loss, unless already a win.
                    let level = (d + 1).max(ctx.floor[p as usize].load(Relaxed));
                    if slot
                        .compare_exchange(UNDECIDED, loss(level), Relaxed, Relaxed)
                        .is_ok()
                    {
                        out.push((level, p));
                    }
                }
            }
            Value::Draw => unreachable!("draws are never propagated"),
        }
    }
}
