// Type declarations of the jungletb JavaScript package (index.js).

/** Win, loss or draw, for the side to move of the position described. */
export type Category = "win" | "loss" | "draw";
/** A side: White (moves first) or Black. */
export type Side = "w" | "b";
/** Why a game is over. */
export type GameOver = "den" | "no_pieces" | "no_moves";

/** A legal move and the value of the position after it, for the side to
 * move there (the mover's opponent), as the HTTP API answers. */
export interface MoveAnswer {
  move: string;
  category: Category;
  plies: number | null;
  capture: boolean;
  den: boolean;
  /** With `probe(p, {replies: true})`: the opponent's replies by their
   * value for the opponent (all 0 where the move ends the game). */
  replies?: { win: number; draw: number; loss: number };
}

/** A position's value and every legal move: `GET /api/{ruleset}?position=`. */
export interface PositionAnswer {
  /** The label of the rule set that answered. */
  ruleset: string;
  position: string;
  side_to_move: Side;
  category: Category;
  plies: number | null;
  game_over: GameOver | null;
  winner: Side | null;
  moves: MoveAnswer[];
}

/** The WDL value alone. */
export interface WdlAnswer {
  /** The label of the rule set that answered. */
  ruleset: string;
  position: string;
  side_to_move: Side;
  category: Category;
}

/** One step of a line to the end. */
export interface MainlineStep {
  move: string;
  position: string;
  category: Category;
  plies: number | null;
}

/** An optimal line to the end: `GET /api/{ruleset}/mainline`. */
export interface MainlineAnswer {
  /** The label of the rule set that answered. */
  ruleset: string;
  position: string;
  category: Category;
  plies: number | null;
  mainline: MainlineStep[];
  winner: Side | null;
}

/** A legal move without a value, with the position it leads to. */
export interface LegalMove {
  move: string;
  capture: boolean;
  den: boolean;
  after: string;
}

/** Rule set and loading options. */
export interface RulesOptions {
  /** `standard` (default), `leiden` or `popular`. */
  ruleset?: string;
  /** Rule options over the rule set, e.g. `{ dog_swims: "true" }`. */
  rules?: Record<string, string | boolean>;
  /** The WebAssembly module: a URL, its bytes or a compiled module
   * (default: `jungletb.wasm` beside index.js). */
  wasm?: string | URL | ArrayBuffer | Uint8Array | WebAssembly.Module;
}

/** Options of {@link Tablebase.open}. */
export interface OpenOptions extends RulesOptions {
  /** Read every table whole at once (default false). */
  memory?: boolean;
  /** Tables up to this size are fetched whole and checked by their
   * checksum (default 65536 bytes). */
  wholeFileBelow?: number;
  /** A host that ignores `Range` and sends whole files: used up to this
   * size (default 16 MiB), else a HostError. */
  wholeFallbackMax?: number;
  /** Bytes of a fetched page (default 4096). */
  pageBytes?: number;
  /** Most bytes of probe pages kept between probes (default 32 MiB). */
  maxCachedBytes?: number;
  /** Most bytes of decoded distance blocks kept (default 16 MiB). */
  maxDecodedBytes?: number;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
}

/** Every error of this package; `kind` is the HTTP API's error kind. */
export class JungleError extends Error {
  readonly kind: string;
}
/** The position text does not parse, or the position cannot occur. */
export class PositionError extends JungleError {}
/** No table holds the position. */
export class MissingTableError extends JungleError {}
/** A table is damaged (a check failed) or not a jungletb table. */
export class BadTableError extends JungleError {}
/** The tables, or the options, are of another rule set. */
export class RulesError extends JungleError {}
/** A network or HTTP failure, or a host that ignores `Range`. */
export class HostError extends JungleError {}
/** An unknown option (refused, never ignored) or an argument of the wrong
 * type. */
export class OptionsError extends JungleError {}

/** Loads the WebAssembly module (once; every open and parse does it). */
export function init(source?: RulesOptions["wasm"]): Promise<unknown>;

/** A position and its legal moves under a rule set: no tables needed. */
export class Position {
  /** Parses `text` (`"7/7/7/7/7/7/7/2E4/r6 w"`); throws a PositionError. */
  static parse(text: string, options?: RulesOptions): Promise<Position>;
  /** The named rule set these rules start from (`"popular"`). */
  readonly ruleset: string;
  /** The rule options over `ruleset`. */
  readonly rules: Record<string, string>;
  /** The rule set's label (`standard`, `popular-custom-<id>`): tables
   * answer a Position only under their own rules. */
  readonly rulesetLabel: string;
  readonly text: string;
  readonly sideToMove: Side;
  readonly moves: LegalMove[];
  readonly gameOver: GameOver | null;
  /** The position after a legal move (`"c2b2"`). */
  play(move: string): Position;
  toString(): string;
}

/** Jungle endgame tablebases of one rule set. */
export class Tablebase {
  /** Opens the tables at a URL (a site of `jungletb site`, read by range
   * requests) or, in Node, a local directory. */
  static open(location: string | URL, options?: OpenOptions): Promise<Tablebase>;
  /** The materials with a table. */
  readonly materials: string[];
  /** The named rule set the tables' rules start from. */
  readonly ruleset: string;
  /** The rule options over `ruleset`, as given at open. */
  readonly rules: Record<string, string>;
  /** The tables' rule-set label (their directory's name). */
  readonly rulesetLabel: string;
  /** `text` as a Position under the tables' rules. */
  position(text?: string): Position;
  /** Requests made, bytes fetched and rounds of fetches waited for. */
  readonly stats: { requests: number; bytes: number; rounds: number };
  /** A text is read under the tables' rules; a Position of other rules
   * is refused with a RulesError (kind `ruleset_mismatch`). */
  probe(position: string | Position, options?: { replies?: boolean }): Promise<PositionAnswer>;
  probeWdl(position: string | Position): Promise<WdlAnswer>;
  mainline(position: string | Position): Promise<MainlineAnswer>;
  /** The piece map: `{position, square, squares: [...]}` as `/api/{ruleset}/map`. */
  map(position: string | Position, square: string): Promise<unknown>;
  usage(): { pinned_bytes: number; cached_bytes: number; evicted_pages: number };
  close(): void;
}
