//! Answers about positions: value, moves, the line to the end.

use jungletb_rules::{Color, Move, Position, Ruleset, Value};
use jungletb_tablebase::{Evaluation, GameOver, Replies};
use serde::Serialize;

/// Win, loss or draw, for the side to move of the position it describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    /// The side to move wins with best play.
    Win,
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force the end of the game.
    Draw,
}

impl Category {
    /// The category of `v`.
    pub fn of(v: Value) -> Category {
        match v {
            Value::Win(_) => Category::Win,
            Value::Loss(_) => Category::Loss,
            Value::Draw => Category::Draw,
        }
    }

    /// The category of a win, draw or loss.
    pub fn of_wdl(w: jungletb_rules::Wdl) -> Category {
        match w {
            jungletb_rules::Wdl::Win => Category::Win,
            jungletb_rules::Wdl::Loss => Category::Loss,
            jungletb_rules::Wdl::Draw => Category::Draw,
        }
    }
}

/// A side: `"w"` (White, who moves first) or `"b"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Side {
    /// White.
    #[serde(rename = "w")]
    White,
    /// Black.
    #[serde(rename = "b")]
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// One legal move and the value of the position after it, for the side
/// to move there (see the crate docs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveAnswer {
    /// The move, from-square then to-square (`"a1b1"`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Category after the move, for the opponent of the mover.
    pub category: Category,
    /// Plies to the end after the move (`null`: a draw).
    pub plies: Option<u16>,
    /// The move captures.
    pub capture: bool,
    /// The move enters the opponent's den (and so ends the game).
    pub den: bool,
    /// The opponent's replies by their value for the opponent, when asked
    /// for (`&replies=true`, `probe --json --replies`):
    /// `{"win": 2, "draw": 0, "loss": 1}`; all 0 where the move ends the
    /// game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replies: Option<RepliesAnswer>,
}

/// A move's replies counted by their value for the side replying.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RepliesAnswer {
    /// Replies that win for the replying side.
    pub win: u32,
    /// Replies that draw.
    pub draw: u32,
    /// Replies that lose for the replying side.
    pub loss: u32,
}

impl From<Replies> for RepliesAnswer {
    fn from(r: Replies) -> RepliesAnswer {
        RepliesAnswer {
            win: r.win,
            draw: r.draw,
            loss: r.loss,
        }
    }
}

/// A position's value and every legal move: `GET /api/{ruleset}?position=`
/// and each line of `jungletb probe --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PositionAnswer {
    /// The text asked about, as given (`probe --json` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// The label of the rule set that answered (`standard`, or
    /// `popular-custom-<id>`): the tables' rules, which are the position's.
    pub ruleset: String,
    /// The position in jungletb notation.
    pub position: String,
    /// Whose move it is.
    pub side_to_move: Side,
    /// For the side to move.
    pub category: Category,
    /// Plies to the end with best play (`null`: a draw).
    pub plies: Option<u16>,
    /// Why the game is over: `"den"`, `"no_pieces"` or `"no_moves"`
    /// (`null` while it goes on).
    pub game_over: Option<&'static str>,
    /// Who has won a finished game (`null` while it goes on, or for a
    /// finished game without winner).
    pub winner: Option<Side>,
    /// Every legal move, best first for the mover.
    pub moves: Vec<MoveAnswer>,
    /// The moves as good as the best one (`probe --json` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_moves: Option<Vec<String>>,
    /// An optimal line to the end (`probe --json` only; empty for a draw
    /// or a finished game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<Vec<String>>,
}

/// The answer for an evaluation under `rules`: `input` and `line` are set
/// by the callers that give them.
pub fn position_answer(rules: &Ruleset, e: &Evaluation) -> PositionAnswer {
    let board = rules.board();
    let winner = e.game_over.and_then(|_| winner(&e.position, e.value));
    PositionAnswer {
        input: None,
        ruleset: rules.label(),
        position: e.position.to_string(),
        side_to_move: e.position.side_to_move().into(),
        category: Category::of(e.value),
        plies: e.value.plies(),
        game_over: e.game_over.map(GameOver::name),
        winner,
        moves: e
            .moves
            .iter()
            .map(|r| {
                let after = r.value_after();
                MoveAnswer {
                    mv: r.mv.to_string(),
                    category: Category::of(after),
                    plies: after.plies(),
                    capture: r.mv.captured.is_some(),
                    den: board.is_den(r.mv.to),
                    replies: r.replies.map(RepliesAnswer::from),
                }
            })
            .collect(),
        best_moves: None,
        line: None,
    }
}

/// The winner of a decided position, if any.
fn winner(pos: &Position, v: Value) -> Option<Side> {
    let me = pos.side_to_move();
    match v {
        Value::Win(_) => Some(me.into()),
        Value::Loss(_) => Some(me.opponent().into()),
        Value::Draw => None,
    }
}

/// One step of a line to the end: the move and the position after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MainlineStep {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// The position after it.
    pub position: String,
    /// Category of that position, for its side to move.
    pub category: Category,
    /// Plies to the end from that position.
    pub plies: Option<u16>,
}

/// `GET /api/{ruleset}/mainline?position=`: an optimal line to the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MainlineAnswer {
    /// The label of the rule set that answered (`standard`, or
    /// `popular-custom-<id>`): the tables' rules, which are the position's.
    pub ruleset: String,
    /// The position asked about.
    pub position: String,
    /// For its side to move.
    pub category: Category,
    /// Plies to the end.
    pub plies: Option<u16>,
    /// The line (empty for a draw or a finished game).
    pub mainline: Vec<MainlineStep>,
    /// Who wins at the end of the line (`null`: a draw).
    pub winner: Option<Side>,
}

impl MainlineAnswer {
    /// The answer under `rules` for `pos`, of value `value` for its side
    /// to move, and the optimal `line` from it (along which the values
    /// follow from the first one).
    pub fn new(rules: &Ruleset, pos: &Position, value: Value, line: &[Move]) -> MainlineAnswer {
        let (mut cur, mut v) = (*pos, value);
        let mut steps = Vec::with_capacity(line.len());
        for mv in line {
            let next = cur.play(mv);
            v = v.to_child();
            steps.push(MainlineStep {
                mv: mv.to_string(),
                position: next.to_string(),
                category: Category::of(v),
                plies: v.plies(),
            });
            cur = next;
        }
        MainlineAnswer {
            ruleset: rules.label(),
            position: pos.to_string(),
            category: Category::of(value),
            plies: value.plies(),
            mainline: steps,
            winner: winner(pos, value),
        }
    }
}

/// A position's WDL value alone (`probeWdl` of the JavaScript package).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WdlAnswer {
    /// The label of the rule set that answered (`standard`, or
    /// `popular-custom-<id>`): the tables' rules, which are the position's.
    pub ruleset: String,
    /// The position in jungletb notation.
    pub position: String,
    /// Whose move it is.
    pub side_to_move: Side,
    /// For the side to move.
    pub category: Category,
}

/// A legal move without a value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LegalMove {
    /// The move, from-square then to-square (`"a1b1"`).
    #[serde(rename = "move")]
    pub mv: String,
    /// The move captures.
    pub capture: bool,
    /// The move enters the opponent's den (and so ends the game).
    pub den: bool,
    /// The position after the move.
    pub after: String,
}

/// A position and its legal moves, under a rule set, with no tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MovesAnswer {
    /// The label of the rule set the moves are legal under.
    pub ruleset: String,
    /// The position in jungletb notation.
    pub position: String,
    /// Whose move it is.
    pub side_to_move: Side,
    /// Every legal move, in move-generation order (none when the game is
    /// over).
    pub moves: Vec<LegalMove>,
    /// Why the game is over (`"den"`, `"no_pieces"`, `"no_moves"`), or
    /// `null`.
    pub game_over: Option<&'static str>,
}

impl MovesAnswer {
    /// The legal moves of `pos` (valid under `rules`).
    pub fn new(rules: &Ruleset, pos: &Position) -> MovesAnswer {
        let board = rules.board();
        let den = pos
            .pieces()
            .any(|(p, s)| board.is_den_of(s, p.color.opponent()));
        let bare = Color::ALL.into_iter().any(|c| pos.count(c) == 0);
        let moves: Vec<LegalMove> = if den || bare {
            Vec::new()
        } else {
            pos.legal_moves(rules)
                .iter()
                .map(|m| LegalMove {
                    mv: m.to_string(),
                    capture: m.captured.is_some(),
                    den: board.is_den(m.to),
                    after: pos.play(m).to_string(),
                })
                .collect()
        };
        let game_over = if den {
            Some(GameOver::Den.name())
        } else if bare {
            Some(GameOver::NoPieces.name())
        } else if moves.is_empty() {
            Some(GameOver::NoMoves.name())
        } else {
            None
        };
        MovesAnswer {
            ruleset: rules.label(),
            position: pos.to_string(),
            side_to_move: pos.side_to_move().into(),
            moves,
            game_over,
        }
    }
}
