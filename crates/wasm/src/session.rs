//! One open tablebase over fetched tables, in safe Rust: what the exports
//! of `lib.rs` call, and what the native tests drive. Every answer is a
//! JSON text in the HTTP API's types ([`jungletb_wire`]).

use jungletb_indexer::Material;
use jungletb_rules::{Position, Ruleset};
use jungletb_tablebase::remote::{Attempt, Missing, RemoteOptions, RemoteTables};
use jungletb_tablebase::{ProbeError, TableError, Tablebase, TablebaseOptions};
use jungletb_wire::{
    chain, position_answer, ErrorAnswer, ErrorKind, MainlineAnswer, MovesAnswer, WdlAnswer,
};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What a call gives back to JavaScript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The answer (JSON).
    Done(String),
    /// `{"fetch": [...]}`: the ranges to fetch before asking again.
    Fetch(String),
    /// An [`ErrorAnswer`] (JSON).
    Failed(String),
}

impl Reply {
    /// The status code the exports return: 0 done, 1 fetch, 2 failed.
    pub fn code(&self) -> u32 {
        match self {
            Reply::Done(_) => 0,
            Reply::Fetch(_) => 1,
            Reply::Failed(_) => 2,
        }
    }

    /// The JSON text, taken out.
    pub fn into_text(self) -> String {
        match self {
            Reply::Done(s) | Reply::Fetch(s) | Reply::Failed(s) => s,
        }
    }

    /// The JSON text.
    pub fn text(&self) -> &str {
        match self {
            Reply::Done(s) | Reply::Fetch(s) | Reply::Failed(s) => s,
        }
    }
}

/// How JavaScript opens a tablebase: `{"ruleset": "standard", "rules":
/// {"dog_swims": "true"}, "name": "https://…/standard", "page_bytes":
/// 4096, "max_cached_bytes": 33554432, "max_decoded_bytes": 16777216}` (all
/// but `ruleset` optional).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// `standard`, `leiden`, `popular`.
    pub ruleset: String,
    /// Rule options over the base rule set.
    #[serde(default)]
    pub rules: std::collections::BTreeMap<String, String>,
    /// The tables' location, for errors.
    #[serde(default)]
    pub name: Option<String>,
    /// [`RemoteOptions::page_bytes`].
    #[serde(default)]
    pub page_bytes: Option<u64>,
    /// [`RemoteOptions::max_cached_bytes`].
    #[serde(default)]
    pub max_cached_bytes: Option<u64>,
    /// [`TablebaseOptions::max_decoded_bytes`] (default 16 MiB).
    #[serde(default)]
    pub max_decoded_bytes: Option<u64>,
}

#[derive(Serialize)]
struct FetchRange<'a> {
    material: String,
    file: &'a str,
    at: u64,
    len: u64,
}

#[derive(Serialize)]
struct FetchAnswer<'a> {
    fetch: Vec<FetchRange<'a>>,
}

fn failed(kind: ErrorKind, error: String) -> Reply {
    let answer = ErrorAnswer {
        input: None,
        error,
        kind,
    };
    Reply::Failed(serde_json::to_string(&answer).expect("serialisable"))
}

fn done(answer: &impl Serialize) -> Reply {
    Reply::Done(serde_json::to_string(answer).expect("serialisable"))
}

/// The rule set a spec names.
pub fn rules_of(spec: &Spec) -> Result<Ruleset, Reply> {
    let mut rules =
        Ruleset::by_name(&spec.ruleset).map_err(|e| failed(ErrorKind::Rules, e.to_string()))?;
    for (k, v) in &spec.rules {
        rules
            .set_option(k, v)
            .map_err(|e| failed(ErrorKind::Rules, e.to_string()))?;
    }
    rules
        .check_supported()
        .map_err(|e| failed(ErrorKind::Rules, e.to_string()))?;
    Ok(rules)
}

/// Parses a spec's JSON.
pub fn parse_spec(json: &str) -> Result<Spec, Reply> {
    serde_json::from_str(json).map_err(|e| failed(ErrorKind::Rules, format!("options: {e}")))
}

/// Parses a position under `rules` (valid, reachable).
fn parse_position(rules: &Ruleset, text: &str) -> Result<Position, Reply> {
    let pos: Position = text
        .trim()
        .parse()
        .map_err(|e: jungletb_rules::ParseError| failed(ErrorKind::Notation, e.to_string()))?;
    pos.validate_reachable(rules)
        .map_err(|e| failed(ErrorKind::ImpossiblePosition, format!("{pos}: {e}")))?;
    Ok(pos)
}

/// A position's legal moves under a spec's rules: no tables needed.
pub fn legal_moves(spec: &str, text: &str) -> Reply {
    let rules = match parse_spec(spec).and_then(|s| rules_of(&s)) {
        Ok(r) => r,
        Err(reply) => return reply,
    };
    match parse_position(&rules, text) {
        Ok(pos) => done(&MovesAnswer::new(&rules, &pos)),
        Err(reply) => reply,
    }
}

/// An open tablebase over tables JavaScript fetches.
pub struct Session {
    store: Arc<RemoteTables>,
    tb: Tablebase,
    name: String,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Session({})", self.name)
    }
}

impl Session {
    /// A tablebase of the spec's rule set (JSON, see [`Spec`]), with no
    /// tables declared yet.
    pub fn open(spec: &str) -> Result<Session, Reply> {
        let spec = parse_spec(spec)?;
        let rules = rules_of(&spec)?;
        let defaults = RemoteOptions::default();
        let options = RemoteOptions {
            page_bytes: spec.page_bytes.unwrap_or(defaults.page_bytes),
            max_cached_bytes: spec.max_cached_bytes.unwrap_or(defaults.max_cached_bytes),
        };
        let name = spec.name.clone().unwrap_or_else(|| "tables".into());
        let store = Arc::new(RemoteTables::new(&name, options));
        let tb_options = TablebaseOptions {
            max_decoded_bytes: spec.max_decoded_bytes.unwrap_or(16 << 20),
            ..TablebaseOptions::default()
        };
        let tb = Tablebase::with_store(store.clone(), rules, tb_options)
            .map_err(|e| failed(ErrorKind::Rules, e.to_string()))?;
        Ok(Session { store, tb, name })
    }

    /// `{"label": …}`: the rule set's label, the name of its directory.
    pub fn describe(&self) -> String {
        #[derive(Serialize)]
        struct Opened {
            label: String,
        }
        let opened = Opened {
            label: self.tb.rules().label(),
        };
        serde_json::to_string(&opened).expect("serialisable")
    }

    fn material(text: &str) -> Result<Material, Reply> {
        text.parse::<Material>()
            .map_err(|e| failed(ErrorKind::Material, format!("{text}: {e}")))
    }

    /// Declares the table of `material` as `file`, of `len` bytes.
    pub fn add(&self, material: &str, file: &str, len: u64) -> Reply {
        match Self::material(material) {
            Ok(m) => {
                self.store.add(m, file, len);
                Reply::Done("null".into())
            }
            Err(reply) => reply,
        }
    }

    /// Hands in bytes from `at` of `material`'s table (`whole`: the whole
    /// file).
    pub fn supply(&self, material: &str, at: u64, bytes: &[u8], whole: bool) -> Reply {
        let m = match Self::material(material) {
            Ok(m) => m,
            Err(reply) => return reply,
        };
        let result = if whole {
            self.store.supply_whole(m, bytes.into())
        } else {
            self.store.supply(m, at, bytes)
        };
        match result {
            Ok(()) => Reply::Done("null".into()),
            Err(e) => failed(ErrorKind::BadTable, chain(&e)),
        }
    }

    /// The answer of `GET /api/{ruleset}?position=`: value and every move.
    pub fn probe(&self, text: &str) -> Reply {
        self.probe_ply(text, false)
    }

    /// [`Session::probe`] with each move's replies counted by value
    /// (`&replies=true`): a ply of WDL probes more, fetched in one round.
    pub fn probe_replies(&self, text: &str) -> Reply {
        self.probe_ply(text, true)
    }

    fn probe_ply(&self, text: &str, replies: bool) -> Reply {
        let pos = match parse_position(self.tb.rules(), text) {
            Ok(p) => p,
            Err(reply) => return reply,
        };
        let attempt = if replies {
            self.store.evaluate_with_replies(&self.tb, &pos)
        } else {
            self.store.evaluate(&self.tb, &pos)
        };
        self.reply(&pos, attempt, |e| position_answer(self.tb.rules(), &e))
    }

    /// The WDL value alone: WDL blocks only (no distances, no moves), every
    /// range a cold probe misses asked for in one round.
    pub fn probe_wdl(&self, text: &str) -> Reply {
        let pos = match parse_position(self.tb.rules(), text) {
            Ok(p) => p,
            Err(reply) => return reply,
        };
        let attempt = self.store.evaluate_wdl(&self.tb, &pos);
        self.reply(&pos, attempt, |wdl| WdlAnswer {
            ruleset: self.tb.rules().label(),
            position: pos.to_string(),
            side_to_move: pos.side_to_move().into(),
            category: jungletb_wire::Category::of_wdl(wdl),
        })
    }

    /// The answer of `GET /api/{ruleset}/mainline?position=`: the walk of
    /// [`Tablebase::line`] through [`RemoteTables::line`], each position
    /// evaluated with every move, so that each step's misses come in one
    /// round of fetches.
    pub fn mainline(&self, text: &str) -> Reply {
        let pos = match parse_position(self.tb.rules(), text) {
            Ok(p) => p,
            Err(reply) => return reply,
        };
        match self.store.line(&self.tb, &pos) {
            Attempt::Fetch(missing) => fetch(&missing),
            Attempt::Done(Err(e)) => self.probe_failed(&pos, &e),
            Attempt::Done(Ok((first, line))) => done(&MainlineAnswer::new(
                self.tb.rules(),
                &first.position,
                first.value,
                &line,
            )),
        }
    }

    /// The answer of `GET /api/{ruleset}/map?position=&square=`: the value
    /// with the piece on `square` placed on each square. Probes stop at
    /// their first missing range, so a cold map takes a round per block.
    pub fn map(&self, text: &str, square: &str) -> Reply {
        use jungletb_analysis::piece_map::{piece_map, MapError};
        let pos = match parse_position(self.tb.rules(), text) {
            Ok(p) => p,
            Err(reply) => return reply,
        };
        let from: jungletb_rules::Square = match square.trim().parse() {
            Ok(s) => s,
            Err(e) => return failed(ErrorKind::Square, format!("{square}: {e}")),
        };
        match self.store.attempt(|| Ok(piece_map(&self.tb, &pos, from))) {
            Attempt::Fetch(missing) => fetch(&missing),
            Attempt::Done(Ok(Ok(map))) => done(&jungletb_wire::MapAnswer::new(&map)),
            Attempt::Done(Ok(Err(MapError::NoPiece(_)))) => failed(
                ErrorKind::NoPiece,
                format!("there is no piece on {from} to map"),
            ),
            Attempt::Done(Ok(Err(MapError::Probe(e)))) | Attempt::Done(Err(e)) => {
                self.probe_failed(&pos, &e)
            }
        }
    }

    /// What the store keeps: `{"pinned_bytes", "cached_bytes",
    /// "evicted_pages", "whole_bytes"}`.
    pub fn usage(&self) -> Reply {
        #[derive(Serialize)]
        struct Usage {
            pinned_bytes: u64,
            cached_bytes: u64,
            evicted_pages: u64,
            whole_bytes: u64,
        }
        let u = self.store.cache_usage();
        done(&Usage {
            pinned_bytes: u.pinned_bytes,
            cached_bytes: u.cached_bytes,
            evicted_pages: u.evicted_pages,
            whole_bytes: u.whole_bytes,
        })
    }

    fn reply<T, A: Serialize>(
        &self,
        pos: &Position,
        attempt: Attempt<T>,
        answer: impl FnOnce(T) -> A,
    ) -> Reply {
        match attempt {
            Attempt::Fetch(missing) => fetch(&missing),
            Attempt::Done(Ok(t)) => done(&answer(t)),
            Attempt::Done(Err(e)) => self.probe_failed(pos, &e),
        }
    }

    fn probe_failed(&self, pos: &Position, e: &ProbeError) -> Reply {
        let material = Material::of_position(pos).map(|m| m.canonical().0);
        match e {
            ProbeError::Table(TableError::Missing(_)) => {
                let m = e_material(e).or(material);
                let what = m.map(|m| m.to_string()).unwrap_or_default();
                failed(
                    ErrorKind::MissingTable,
                    format!("{}: this site has no table for {what}", self.name),
                )
            }
            ProbeError::Table(TableError::WrongRuleset { .. }) => {
                failed(ErrorKind::RulesetMismatch, chain(e))
            }
            _ => failed(ErrorKind::of(e), chain(e)),
        }
    }
}

/// The material a missing table's name gives (`…/ELvR.jtbz`).
fn e_material(e: &ProbeError) -> Option<Material> {
    let ProbeError::Table(TableError::Missing(path)) = e else {
        return None;
    };
    path.file_stem()?.to_str()?.parse().ok()
}

fn fetch(missing: &[Missing]) -> Reply {
    let answer = FetchAnswer {
        fetch: missing
            .iter()
            .map(|m| FetchRange {
                material: m.material.to_string(),
                file: &m.file,
                at: m.at,
                len: m.len,
            })
            .collect(),
    };
    Reply::Fetch(serde_json::to_string(&answer).expect("serialisable"))
}
