//! Reading compressed tables: finding a slot's WDL block, decoding its
//! value, and the distance parts with the slot's rank in them (the layout
//! is `jungletb_format::compressed`'s).

use super::layout::{new_block_store, parse_part, Compressed, Part};
use super::{prefetch, with_range, Table};
use jungletb_format::compressed;
use jungletb_format::wdl_code;
use jungletb_format::TableError;
use jungletb_rules::{Value, Wdl};
use std::cell::RefCell;
use std::ops::Range;
use std::sync::OnceLock;

impl Table {
    /// Calls `f` with each part of `c` that `range` touches and the slots
    /// of `range` in it (numbered within the part), in order: one part
    /// unless the table has sections.
    pub(super) fn each_part<E: From<TableError>>(
        &self,
        c: &Compressed,
        range: Range<u64>,
        mut f: impl FnMut(&Part, Range<u64>) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut at = range.start;
        while at < range.end {
            let (part, local) = self.locate(c, at)?;
            let end = range.end.min(part.first_slot + part.layout.size);
            f(part, local..end - part.first_slot)?;
            at = end;
        }
        Ok(())
    }

    /// The part of `c` holding table slot `i` (below the index size), and
    /// `i` within it; the part parsed now if no probe read it before.
    #[inline(always)]
    pub(super) fn locate<'a>(
        &self,
        c: &'a Compressed,
        i: u64,
    ) -> Result<(&'a Part, u64), TableError> {
        let k = if c.parts.len() == 1 {
            0
        } else {
            ((i / c.per_part) as usize).min(c.parts.len() - 1)
        };
        let part = match c.parts[k].get() {
            Some(part) => part,
            None => self.open_part(c, k)?,
        };
        Ok((part, i - part.first_slot))
    }

    /// Parses part `k` of `c` (a section no probe read before), checks it
    /// against the first, and keeps it.
    #[cold]
    fn open_part<'a>(&self, c: &'a Compressed, k: usize) -> Result<&'a Part, TableError> {
        let sections = c.parts.len() as u64;
        let (mut part, read) = parse_part(
            &self.source,
            &self.path,
            &c.places[k],
            k as u64,
            sections,
            true,
        )?;
        if part.layout.dont_cares != c.dont_cares {
            return Err(self.corrupt(format!(
                "section {k} of {sections} disagrees with section 0 on don't-cares"
            )));
        }
        if self.budget.limit > 0 {
            part.kept = new_block_store(&part);
        }
        // Bytes checked now and read by every later probe of the section:
        // a reader that drops bytes keeps these.
        if let super::Source::Ranges(reader) = &self.source {
            for &(at, len) in &read {
                reader.retain(at, len);
            }
        }
        // Another thread may have parsed it meanwhile: either is the same.
        Ok(c.parts[k].get_or_init(|| part))
    }

    /// Every part of the table, each parsed if no probe read it before.
    pub(super) fn all_parts<'a>(&self, c: &'a Compressed) -> Result<Vec<&'a Part>, TableError> {
        c.places
            .iter()
            .map(|p| self.locate(c, p.first_slot).map(|(part, _)| part))
            .collect()
    }
}

/// A decoded DTM part, per thread (see `CACHE`).
struct BlockCache {
    /// (table uid, part number); (0, 0) for none.
    key: (u64, u64),
    /// The tick of its last use.
    used: u64,
    data: Vec<u8>,
}

/// Decoded DTM parts a thread keeps (each at most 32 KiB: 16,384 slots of
/// two bytes).
const CACHED_PARTS: usize = 16;

/// This thread's last decoded DTM parts, least recently used out.
struct PartCache {
    entries: Vec<BlockCache>,
    tick: u64,
}

impl PartCache {
    /// The entry of `key`, and whether it holds that part already: else
    /// the entry to decode it into (a free one or the least recently
    /// used), emptied.
    fn entry(&mut self, key: (u64, u64)) -> (&mut BlockCache, bool) {
        self.tick += 1;
        let k = match self.entries.iter().position(|e| e.key == key) {
            Some(k) => k,
            None if self.entries.len() < CACHED_PARTS => {
                self.entries.push(BlockCache {
                    key: (0, 0),
                    used: 0,
                    data: Vec::new(),
                });
                self.entries.len() - 1
            }
            None => (0..self.entries.len())
                .min_by_key(|&k| self.entries[k].used)
                .expect("a full cache"),
        };
        let entry = &mut self.entries[k];
        entry.used = self.tick;
        let hit = entry.key == key;
        if !hit {
            entry.key = (0, 0);
        }
        (entry, hit)
    }
}

thread_local! {
    /// This thread's last decoded DTM parts: reading a block's slots in
    /// order reads its two parts (wins, losses) again and again, and a
    /// check of a range of slots reads their successors' parts, which
    /// neighbouring slots share.
    static CACHE: RefCell<PartCache> = const {
        RefCell::new(PartCache { entries: Vec::new(), tick: 0 })
    };
}

impl Table {
    /// Runs `f` on decoded DTM part `p` (see [`compressed::DtmPart`]): a
    /// part kept from an earlier probe, this thread's last part, or the part
    /// decoded now (and kept if the budget allows).
    #[inline]
    pub(super) fn with_dtm_part<R>(
        &self,
        part: &Part,
        p: u64,
        f: impl FnOnce(&[u8]) -> R,
    ) -> Result<R, TableError> {
        // Unique within the table: a part has fewer than 2^33 DTM parts.
        let global = (part.section << 40) | p;
        let kept = part.kept.get(p as usize);
        if let Some(part) = kept.and_then(OnceLock::get) {
            return Ok(f(part));
        }
        CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            let key = (self.uid, global);
            let (slot, hit) = cache.entry(key);
            if !hit {
                self.decode_dtm_part(part, p, &mut slot.data)?;
                slot.key = key;
                if let Some(store) = kept {
                    let n = slot.data.len() as u64;
                    if self.budget.try_reserve(n) && store.set(slot.data.clone().into()).is_err() {
                        self.budget.release(n); // another thread kept it first
                    }
                }
            }
            Ok(f(&slot.data))
        })
    }

    /// The record of DTM part `p` (its check and entries).
    #[inline]
    pub(super) fn dtm_part(&self, part: &Part, p: u64) -> Result<compressed::DtmPart, TableError> {
        let at = part.layout.dtm.records_at + compressed::DtmPart::BYTES as u64 * p;
        with_range(
            &self.source,
            at,
            compressed::DtmPart::BYTES,
            compressed::DtmPart::from_bytes,
        )
        .map_err(|e| self.io_error(e))
    }

    /// Decodes DTM part `p` into `out`.
    pub(super) fn decode_dtm_part(
        &self,
        part: &Part,
        p: u64,
        out: &mut Vec<u8>,
    ) -> Result<(), TableError> {
        let section = &part.layout.dtm;
        let record = self.dtm_part(part, p)?;
        let mut o = [0u8; 16];
        with_range(&self.source, section.offsets_at + 8 * p, 16, |b| {
            o.copy_from_slice(b)
        })
        .map_err(|e| self.io_error(e))?;
        let start = u64::from_le_bytes(o[..8].try_into().expect("8 bytes"));
        let end = u64::from_le_bytes(o[8..].try_into().expect("8 bytes"));
        // Offsets were checked with the part's layout; re-checked here because they are
        // read again (the file could have been replaced).
        if start > end || end > section.data_len {
            return Err(self.corrupt(format!("DTM part {p}: bad offsets")));
        }
        out.resize(record.raw_len(part.layout.dtm_width), 0);
        with_range(
            &self.source,
            section.data_at + start,
            (end - start) as usize,
            |stored| compressed::decode_dtm_block(stored, out),
        )
        .map_err(|e| self.io_error(e))?
        .map_err(|e| self.corrupt(format!("DTM part {p}: {e}")))?;
        if compressed::dtm_check(p, out) != record.check {
            return Err(self.corrupt(format!("DTM part {p} fails its check")));
        }
        Ok(())
    }

    /// A little-endian `u32` of the file.
    #[inline]
    pub(super) fn u32_at(&self, at: u64) -> Result<u32, TableError> {
        with_range(&self.source, at, 4, |b| {
            u32::from_le_bytes(b.try_into().expect("4 bytes"))
        })
        .map_err(|e| self.io_error(e))
    }

    /// The WDL block holding slot `i`, with its first slot and checkpoint.
    #[inline]
    pub(super) fn wdl_block_of(&self, part: &Part, i: u64) -> Result<(u64, u64, u32), TableError> {
        let w = &part.layout.wdl;
        let mut b = self.u32_at(w.sparse_at + 4 * (i >> w.sparse_shift))? as u64;
        // The block is usually this one or the next: ask for both while
        // the starts are read, rather than one miss after the other.
        prefetch(&self.source, w.blocks_at + wdl_code::BLOCK_BYTES as u64 * b);
        prefetch(
            &self.source,
            w.blocks_at + wdl_code::BLOCK_BYTES as u64 * (b + 1),
        );
        // Block starts were checked with the part's layout (increasing, ending at the
        // index size), so this stops within the table.
        loop {
            // This block's first slot and checkpoint, the next one's first
            // slot (the index size after the last block).
            let (start, checkpoint, next) =
                with_range(&self.source, w.starts_at + 8 * b, 12, |x| {
                    let word =
                        |k: usize| u32::from_le_bytes(x[k..k + 4].try_into().expect("4 bytes"));
                    (word(0) as u64, word(4), word(8) as u64)
                })
                .map_err(|e| self.io_error(e))?;
            if i < next || b + 1 >= w.blocks {
                return Ok((b, start, checkpoint));
            }
            b += 1;
        }
    }

    pub(super) fn wdl_compressed(&self, part: &Part, i: u64) -> Result<Wdl, TableError> {
        let (b, start, checkpoint) = self.wdl_block_of(part, i)?;
        let at = part.layout.wdl.blocks_at + wdl_code::BLOCK_BYTES as u64 * b;
        // The distance index follows the last WDL block, so 8 bytes past
        // any block are in the file: the decoder reads the block in place.
        let len = wdl_code::BLOCK_BYTES + 8;
        with_range(&self.source, at, len, |block| {
            wdl_code::block_is_intact(b, block).then(|| {
                part.layout
                    .wdl
                    .decoder
                    .value_in_block(block, start, i, checkpoint)
            })
        })
        .map_err(|e| self.io_error(e))?
        .ok_or_else(|| {
            self.corrupt(format!(
                "slot {}: WDL block {b} fails its check",
                part.first_slot + i
            ))
        })?
        .and_then(compressed::wdl_of)
        .ok_or_else(|| {
            self.corrupt(format!(
                "slot {}: WDL block {b} does not decode",
                part.first_slot + i
            ))
        })
    }

    /// The value of slot `i` (reads both streams). DTM block `k` keeps the
    /// distances of its wins in part `2k` and of its losses in part
    /// `2k + 1`: the slot's entry is its rank among the block's slots of its
    /// kind ([`Table::rank_at`]).
    pub(super) fn value_compressed(&self, part: &Part, i: u64) -> Result<Value, TableError> {
        let (wdl, before) = self.rank_at(part, i)?;
        let kind = match wdl {
            Wdl::Draw => return Ok(Value::Draw),
            Wdl::Win => 0,
            Wdl::Loss => 1,
        };
        let k = part.layout.dtm.locate(i).0;
        self.value_from_entry(part, 2 * k + kind as u64, before[kind], wdl)
    }

    /// The WDL value of slot `i` and the wins and losses among the slots of
    /// its DTM block before it: the file's rank counts up to `i`'s WDL
    /// block, plus those counted in that block by the walk that finds the
    /// value.
    pub(super) fn rank_at(&self, part: &Part, i: u64) -> Result<(Wdl, [u64; 2]), TableError> {
        let w = &part.layout.wdl;
        let (b, start, _) = self.wdl_block_of(part, i)?;
        let block_start = i - part.layout.dtm.locate(i).1;
        let at = w.blocks_at + wdl_code::BLOCK_BYTES as u64 * b;
        let (code, counted) = with_range(&self.source, at, wdl_code::BLOCK_BYTES + 8, |block| {
            wdl_code::block_is_intact(b, block).then(|| {
                w.decoder
                    .value_and_counts(block, start, i, start.max(block_start))
            })
        })
        .map_err(|e| self.io_error(e))?
        .ok_or_else(|| {
            self.corrupt(format!(
                "slot {}: WDL block {b} fails its check",
                part.first_slot + i
            ))
        })?
        .ok_or_else(|| {
            self.corrupt(format!(
                "slot {}: WDL block {b} does not decode",
                part.first_slot + i
            ))
        })?;
        let wdl = compressed::wdl_of(code).ok_or_else(|| {
            self.corrupt(format!(
                "slot {}: WDL block {b} does not decode",
                part.first_slot + i
            ))
        })?;
        let before = if start >= block_start {
            let at = part.layout.dtm.ranks_at + compressed::RANK_BYTES as u64 * b;
            with_range(&self.source, at, compressed::RANK_BYTES, |x| {
                [
                    u16::from_le_bytes([x[0], x[1]]),
                    u16::from_le_bytes([x[2], x[3]]),
                ]
                .map(u64::from)
            })
            .map_err(|e| self.io_error(e))?
        } else {
            [0, 0] // the WDL block began in an earlier DTM block
        };
        Ok((wdl, [before[0] + counted[0], before[1] + counted[1]]))
    }

    /// The value of entry `entry` of DTM part `p`, for a slot whose WDL is
    /// `wdl` (a win or a loss).
    #[inline]
    pub(super) fn value_from_entry(
        &self,
        part: &Part,
        p: u64,
        entry: u64,
        wdl: Wdl,
    ) -> Result<Value, TableError> {
        let width = part.layout.dtm_width;
        self.with_dtm_part(part, p, |b| compressed::dtm_in_block(b, entry, width))?
            .map(|half| compressed::value_from(wdl, half))
            .ok_or_else(|| self.corrupt(format!("DTM part {p} has no entry {entry}")))
    }

    /// The WDL codes of the slots of `range` of a compressed table, each
    /// block decoded once: the first slot of the first block touched, and
    /// the codes from there to the end of the last block touched.
    pub(super) fn wdl_codes(
        &self,
        part: &Part,
        range: Range<u64>,
    ) -> Result<(u64, Vec<u8>), TableError> {
        let w = &part.layout.wdl;
        if range.is_empty() {
            return Ok((range.start, Vec::new()));
        }
        let (mut b, first, _) = self.wdl_block_of(part, range.start)?;
        let mut out = Vec::with_capacity((range.end - range.start) as usize);
        let mut stack = Vec::new();
        let mut end = first;
        while end < range.end && b < w.blocks {
            let next = self.u32_at(w.starts_at + 8 * (b + 1))? as u64;
            let at = w.blocks_at + wdl_code::BLOCK_BYTES as u64 * b;
            with_range(&self.source, at, wdl_code::BLOCK_BYTES, |block| {
                wdl_code::block_is_intact(b, block).then(|| {
                    w.decoder
                        .expand_block(block, next - end, &mut out, &mut stack)
                })
            })
            .map_err(|e| self.io_error(e))?
            .ok_or_else(|| self.corrupt(format!("WDL block {b} fails its check")))?
            .ok_or_else(|| self.corrupt(format!("WDL block {b} does not decode")))?;
            end = next;
            b += 1;
        }
        Ok((first, out))
    }

    /// The stored WDL value of every slot of `range` (numbered within
    /// `part`), in order (unused slots too), appended to `out`, each block
    /// decoded once.
    pub(super) fn wdl_values_in_part(
        &self,
        part: &Part,
        range: Range<u64>,
        out: &mut Vec<Wdl>,
    ) -> Result<(), TableError> {
        let (first, codes) = self.wdl_codes(part, range.clone())?;
        let codes = codes
            .get((range.start - first) as usize..(range.end - first) as usize)
            .ok_or_else(|| self.corrupt("WDL blocks end early".to_string()))?;
        for (i, &c) in range.zip(codes) {
            out.push(compressed::wdl_of(c).ok_or_else(|| {
                self.corrupt(format!("slot {}: invalid WDL code", part.first_slot + i))
            })?);
        }
        Ok(())
    }

    /// [`Table::values_as_stored`] of `range` (numbered within `part`)
    /// appended to `out`.
    pub(super) fn values_in_part(
        &self,
        part: &Part,
        range: Range<u64>,
        out: &mut Vec<Option<Value>>,
    ) -> Result<(), TableError> {
        let (first, codes) = self.wdl_codes(part, range.clone())?;
        // The DTM block being read and the wins and losses met in it so far
        // (every slot counts, unused ones too: the WDL stream stores a value
        // for each).
        let mut block: Option<(u64, [u64; 2])> = None;
        for i in range {
            let w = codes
                .get((i - first) as usize)
                .copied()
                .and_then(compressed::wdl_of)
                .ok_or_else(|| {
                    self.corrupt(format!("slot {}: invalid WDL code", part.first_slot + i))
                })?;
            let k = part.layout.dtm.locate(i).0;
            if block.is_none_or(|b| b.0 != k) {
                block = Some((k, self.rank_at(part, i)?.1));
            }
            let seen = &mut block.as_mut().expect("set above").1;
            let kind = match w {
                Wdl::Draw => None,
                Wdl::Win => Some(0),
                Wdl::Loss => Some(1),
            };
            let entry = kind.map(|kind| {
                seen[kind] += 1;
                (kind, seen[kind] - 1)
            });
            out.push(if !self.index.is_canonical_slot(part.first_slot + i) {
                None
            } else {
                match entry {
                    None => Some(Value::Draw),
                    Some((kind, e)) => {
                        Some(self.value_from_entry(part, 2 * k + kind as u64, e, w)?)
                    }
                }
            });
        }
        Ok(())
    }
}
