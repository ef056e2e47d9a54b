//! The probe front door: a directory of tables for one rule set.

use crate::error::{ProbeError, TableError};
use crate::table::Table;
use jungletb_indexer::Material;
use jungletb_rules::{Move, Position, Ruleset, Value, Wdl};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// File extension of table files.
pub const TABLE_EXTENSION: &str = "jtb";

/// The directory holding the tables of `rules` under the tables root `root`:
/// `root/<rule-set label>` (e.g. `tables/standard`).
pub fn table_dir(root: &Path, rules: &Ruleset) -> PathBuf {
    root.join(rules.label())
}

/// The file of `material` in a rule set's directory: `dir/ELvR.jtb`.
pub fn table_path(dir: &Path, material: Material) -> PathBuf {
    dir.join(format!("{material}.{TABLE_EXTENSION}"))
}

/// A legal move with the value it leads to, for the side playing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// The value of the position for the side to move if it plays `mv`.
    pub value: Value,
}

type Slot = OnceLock<Result<Arc<Table>, Box<TableError>>>;

/// A set of tables for one rule set, opened lazily and shared between
/// threads (`Tablebase` is `Send + Sync`; probing takes `&self`, allocates
/// nothing and makes no system call once a table is open).
pub struct Tablebase {
    dir: PathBuf,
    rules: Ruleset,
    /// By material code; each table is opened (and checksummed) on first use.
    slots: Box<[Slot]>,
}

impl Tablebase {
    /// Opens the tables of `rules` under the tables root `root` (the
    /// directory `generate --out` wrote, e.g. `tables`).
    pub fn open(root: impl AsRef<Path>, rules: Ruleset) -> Result<Tablebase, ProbeError> {
        let root = root.as_ref();
        rules
            .check_supported()
            .map_err(|e| ProbeError::NoTables(e.to_string()))?;
        let dir = table_dir(root, &rules);
        if !dir.is_dir() {
            let mut found: Vec<String> = std::fs::read_dir(root)
                .map(|rd| {
                    rd.filter_map(|e| e.ok())
                        .filter(|e| e.path().is_dir())
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .collect()
                })
                .unwrap_or_default();
            found.sort();
            let hint = if found.is_empty() {
                String::new()
            } else {
                format!("; tables found for: {}", found.join(", "))
            };
            return Err(ProbeError::NoTables(format!(
                "no tables for rule set '{}' in '{}' (expected directory '{}'; run `jungletb generate --ruleset {}`){hint}",
                rules.label(),
                root.display(),
                dir.display(),
                rules.base.name(),
            )));
        }
        Ok(Self::with_dir(dir, rules))
    }

    /// Uses `dir` itself as the rule set's directory (no `<label>` subfolder).
    pub fn with_dir(dir: PathBuf, rules: Ruleset) -> Tablebase {
        let slots = (0..256 * 256).map(|_| OnceLock::new()).collect();
        Tablebase { dir, rules, slots }
    }

    /// The rule set.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// The rule set's table directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The slot of a material's table, opening the table on first use.
    fn slot(&self, material: Material) -> &Result<Arc<Table>, Box<TableError>> {
        let m = material.canonical().0;
        self.slots[m.code()].get_or_init(|| {
            Table::open(&table_path(&self.dir, m), &self.rules, m)
                .map(Arc::new)
                .map_err(Box::new)
        })
    }

    /// The table of a material (either colour order), opened on first use.
    /// A shared handle, for callers that keep tables beyond the tablebase.
    pub fn table(&self, material: Material) -> Result<Arc<Table>, ProbeError> {
        match self.slot(material) {
            Ok(t) => Ok(Arc::clone(t)),
            Err(e) => Err(ProbeError::Table((**e).clone())),
        }
    }

    /// The table of a material, borrowed: the probe path. No reference
    /// count is touched, so threads probing the same table do not contend.
    #[inline]
    pub fn table_ref(&self, material: Material) -> Result<&Table, ProbeError> {
        match self.slot(material) {
            Ok(t) => Ok(t),
            Err(e) => Err(ProbeError::Table((**e).clone())),
        }
    }

    /// The value of `pos` for the side to move, with its distance in plies.
    pub fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        pos.validate(&self.rules)
            .map_err(|e| ProbeError::Position(e.to_string()))?;
        self.probe_valid(pos)
    }

    /// Win, draw or loss for the side to move: the fast path for search
    /// (same cost as [`Tablebase::probe`] today, as both read one byte; kept
    /// separate so compressed tables can serve it from smaller blocks).
    #[inline]
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, ProbeError> {
        self.probe(pos).map(Value::wdl)
    }

    /// [`Tablebase::probe`] without re-validating the position (for
    /// positions reached by legal moves from a valid one).
    fn probe_valid(&self, pos: &Position) -> Result<Value, ProbeError> {
        let material = Material::of_position(pos).ok_or_else(|| {
            ProbeError::GameOver("a side has no pieces left, so there is nothing to probe".into())
        })?;
        let (canonical, flipped) = material.canonical();
        let table = self.table_ref(canonical)?;
        let value = if flipped {
            table.probe(&pos.color_flip())
        } else {
            table.probe(pos)
        };
        value.map_err(ProbeError::from)
    }

    /// The value for the side to move of playing `mv` in `pos`.
    pub fn move_value(&self, pos: &Position, mv: &Move) -> Result<Value, ProbeError> {
        if pos.is_winning_move(&self.rules, mv) {
            return Ok(Value::Win(1));
        }
        Ok(Value::from_child(self.probe_valid(&pos.play(mv))?))
    }

    /// Every legal move with its value, best first (ties in move order).
    pub fn probe_root(&self, pos: &Position) -> Result<Vec<RootMove>, ProbeError> {
        pos.validate(&self.rules)
            .map_err(|e| ProbeError::Position(e.to_string()))?;
        if Material::of_position(pos).is_none() {
            return Err(ProbeError::GameOver("a side has no pieces left".into()));
        }
        let mut moves = pos
            .legal_moves(&self.rules)
            .iter()
            .map(|mv| {
                Ok(RootMove {
                    mv: *mv,
                    value: self.move_value(pos, mv)?,
                })
            })
            .collect::<Result<Vec<_>, ProbeError>>()?;
        moves.sort_by_key(|r| std::cmp::Reverse(r.value));
        Ok(moves)
    }

    /// The moves that keep the position's value (all of them, in move order).
    /// Empty if the side to move has no legal move.
    pub fn best_moves(&self, pos: &Position) -> Result<Vec<Move>, ProbeError> {
        let root = self.probe_root(pos)?;
        let Some(best) = root.first().map(|r| r.value) else {
            return Ok(Vec::new());
        };
        Ok(root
            .iter()
            .take_while(|r| r.value == best)
            .map(|r| r.mv)
            .collect())
    }

    /// An optimal line of play from `pos` to the end of the game (the first
    /// best move at every step). Empty for a draw, where no end exists.
    pub fn line(&self, pos: &Position) -> Result<Vec<Move>, ProbeError> {
        let value = self.probe(pos)?;
        let Some(plies) = value.plies() else {
            return Ok(Vec::new());
        };
        let mut line = Vec::with_capacity(plies as usize);
        let mut cur = *pos;
        for _ in 0..plies {
            let Some(mv) = self.best_moves(&cur)?.first().copied() else {
                break;
            };
            line.push(mv);
            if cur.is_winning_move(&self.rules, &mv) {
                break;
            }
            cur = cur.play(&mv);
        }
        if line.len() != plies as usize {
            return Err(ProbeError::Table(TableError::Corrupt {
                path: self.dir.clone(),
                what: format!(
                    "the line from {pos} ends after {} plies, but the table says {plies}",
                    line.len()
                ),
            }));
        }
        Ok(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn tablebase_is_send_and_sync() {
        assert_send_sync::<Tablebase>();
    }
}
