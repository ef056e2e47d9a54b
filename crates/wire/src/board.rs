//! The board's terrain (`GET /api/{ruleset}/board`) and a piece's map
//! (`GET /api/{ruleset}/map`).

use crate::{Category, Side};
use jungletb_analysis::piece_map::{MapSquare, PieceMap};
use jungletb_rules::{Animal, BaseRuleset, Color, Ruleset, Square, COMMON_DISAGREEMENTS};
use jungletb_tablebase::GameOver;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Squares of each side, by side letter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BySide {
    /// White's.
    pub w: Vec<String>,
    /// Black's.
    pub b: Vec<String>,
}

/// An animal as a rule set has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnimalInfo {
    /// Its notation letter (upper case).
    pub letter: String,
    /// Its name.
    pub name: &'static str,
    /// Its rank (higher captures lower).
    pub rank: u8,
    /// The rule set plays with it.
    pub in_game: bool,
    /// It may enter the water.
    pub swims: bool,
}

/// A rule other Jungle rules often differ on, with the option that plays it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleDisagreement {
    /// What those rules say.
    pub rules_say: &'static str,
    /// The option (`name=value`).
    pub rule: &'static str,
}

/// The terrain and the animals of a rule set, for drawing a board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardAnswer {
    /// The rule set's label.
    pub ruleset: String,
    /// Where a named rule set comes from (`null` for a custom one).
    pub source: Option<&'static str>,
    /// What other rules often differ on.
    pub common_disagreements: Vec<RuleDisagreement>,
    /// Files (7).
    pub files: u8,
    /// Ranks (9).
    pub ranks: u8,
    /// Water squares.
    pub water: Vec<String>,
    /// Each side's traps.
    pub traps: BySide,
    /// Each side's den.
    pub dens: BySide,
    /// Every animal, strongest last as numbered.
    pub animals: Vec<AnimalInfo>,
    /// Every rule option and its value.
    pub options: BTreeMap<&'static str, String>,
}

impl BoardAnswer {
    /// The board of `rules`.
    pub fn new(rules: &Ruleset) -> Self {
        let b = rules.board();
        let names = |f: &dyn Fn(Square) -> bool| -> Vec<String> {
            Square::all()
                .filter(|&s| f(s))
                .map(|s| s.to_string())
                .collect()
        };
        let by_side = |f: &dyn Fn(Square, Color) -> bool| BySide {
            w: names(&|s| f(s, Color::White)),
            b: names(&|s| f(s, Color::Black)),
        };
        BoardAnswer {
            ruleset: rules.label(),
            source: rules.matching_name().and_then(|n| {
                BaseRuleset::ALL
                    .iter()
                    .find(|b| b.name() == n)
                    .map(|b| b.source())
            }),
            common_disagreements: COMMON_DISAGREEMENTS
                .iter()
                .map(|&(rules_say, rule)| RuleDisagreement { rules_say, rule })
                .collect(),
            files: 7,
            ranks: 9,
            water: names(&|s| b.is_water(s)),
            traps: by_side(&|s, c| b.is_trap_of(s, c)),
            dens: by_side(&|s, c| b.is_den_of(s, c)),
            animals: Animal::ALL
                .iter()
                .map(|&a| AnimalInfo {
                    letter: a.letter().to_string(),
                    name: a.name(),
                    rank: rules.rank(a),
                    in_game: rules.animal_allowed(a),
                    swims: rules.swims(a),
                })
                .collect(),
            options: rules.options().into_iter().collect(),
        }
    }
}

/// One square of a map where the piece may stand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MapCell {
    /// The square.
    pub square: String,
    /// The value there, for the side to move of the position asked about.
    pub category: Category,
    /// Its plies (`null`: a draw).
    pub plies: Option<u16>,
    /// Why the game is over there (`"den"`), if it is.
    pub game_over: Option<&'static str>,
}

/// A piece's map: the position's value with the piece on each square.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MapAnswer {
    /// The position asked about.
    pub position: String,
    /// Where the piece stands in it.
    pub square: String,
    /// The piece's letter.
    pub piece: String,
    /// Whose piece it is.
    pub owner: Side,
    /// Who is to move.
    pub side_to_move: Side,
    /// By square index (a1 = 0, b1, … g9): `null` where the piece may not
    /// stand.
    pub squares: Vec<Option<MapCell>>,
}

impl MapAnswer {
    /// The answer for `map`.
    pub fn new(map: &PieceMap) -> Self {
        MapAnswer {
            position: map.position.to_string(),
            square: map.from.to_string(),
            piece: map.piece.letter().to_string(),
            owner: map.piece.color.into(),
            side_to_move: map.position.side_to_move().into(),
            squares: Square::all()
                .zip(&map.squares)
                .map(|(sq, cell)| match cell {
                    MapSquare::Unavailable => None,
                    MapSquare::Value(e) => Some(MapCell {
                        square: sq.to_string(),
                        category: Category::of(e.value),
                        plies: e.value.plies(),
                        game_over: e.game_over.map(GameOver::name),
                    }),
                })
                .collect(),
        }
    }
}

/// Some of a piece count's tables (`/api/rulesets`' `partial`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartialCount {
    /// Pieces.
    pub pieces: u32,
    /// Tables there.
    pub present: usize,
    /// Tables of that many pieces under the rule set.
    pub total: usize,
}

/// One rule set a server or a site holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesetEntry {
    /// Its label (its directory's name).
    pub label: String,
    /// The named rule set its label starts with (a site's list only: what
    /// the JavaScript package opens it as).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// Every option's value (a site's list only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<BTreeMap<String, String>>,
    /// True if its tables can be read.
    pub tables: bool,
    /// The most pieces of any table (`null` without tables).
    pub max_pieces: Option<u32>,
    /// Every table up to this many pieces is there.
    pub complete_pieces: Option<u32>,
    /// The piece counts above it with some tables.
    pub partial: Vec<PartialCount>,
}

/// `GET /api/rulesets`, and a site's `rulesets.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesetsAnswer {
    /// The rule sets.
    pub rulesets: Vec<RulesetEntry>,
}

impl RulesetEntry {
    /// The entry of `rules` with tables of `coverage` (`None`: its tables
    /// cannot be read).
    pub fn new(label: String, coverage: Option<&jungletb_tablebase::Coverage>) -> Self {
        RulesetEntry {
            label,
            base: None,
            options: None,
            tables: coverage.is_some(),
            max_pieces: coverage.map(|c| c.max_pieces()),
            complete_pieces: coverage.map(|c| c.complete),
            partial: coverage
                .map(|c| {
                    c.partial()
                        .map(|p| PartialCount {
                            pieces: p.pieces,
                            present: p.present,
                            total: p.total,
                        })
                        .collect()
                })
                .unwrap_or_default(),
        }
    }
}
