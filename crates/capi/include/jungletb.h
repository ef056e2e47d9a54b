/*
 * jungletb.h — C interface of the jungletb probe library.
 *
 * Link with -ljungletb_c (target/release/libjungletb_c.a or .so; the static
 * library also needs -lpthread -ldl -lm), or use the pkg-config file that
 * crates/capi/install.sh writes. All probing functions are thread-safe: one
 * jtb_tablebase may be probed from many threads at once. jtb_close must not
 * run while another thread still probes the same tablebase.
 *
 * Values are for the side to move. Distances are plies to the end of the
 * game under optimal play: wins odd, losses even, JTB_DRAW has none.
 * jtb_probe_root gives each move's value for the side playing it, and
 * plies counted from the position before the move (the HTTP API and
 * `jungletb probe --json` give the position after the move instead).
 *
 * Costs: tables open lazily. The first probe of a material opens its
 * table and checks its checksum, which reads the whole file (0.8-2.6 ms
 * for a 4-piece table here, in proportion to the file's size, so far more
 * for 5 pieces); jtb_preload does that for every table before a search.
 * After that a probe reads a few bytes of a memory map: no system call,
 * no allocation, no lock. A missing table costs a failed open the first
 * time and nothing after (the failure is remembered: JTB_ERR_MISSING).
 * An open table holds a memory map of its file (address space, and the
 * pages the kernel keeps cached) and a few KiB; see jtb_options for caps.
 *
 * fork(): open tablebases in each process after forking. A child may use
 * one opened before the fork only if no other thread was inside a
 * jungletb call at that moment (the maps are inherited read-only).
 */
#ifndef JUNGLETB_H
#define JUNGLETB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of this header; jtb_version() gives the library's. A
 * development version ("0.3.0-dev": tables it writes may change before
 * 0.3.0) numbers as the release it leads to. */
#define JTB_VERSION_MAJOR 0
#define JTB_VERSION_MINOR 3
#define JTB_VERSION_PATCH 0
#define JTB_VERSION "0.3.0-dev"

/* Return codes. */
#define JTB_OK 0
#define JTB_ERR_ARGUMENT 1   /* NULL pointer or a bad argument */
#define JTB_ERR_POSITION 2   /* malformed or impossible position */
#define JTB_ERR_GAME_OVER 3  /* finished game: a piece on the enemy den, or a side without pieces */
#define JTB_ERR_TABLE 4      /* a table is corrupt, truncated or of another rule set: warn the user */
#define JTB_ERR_RULESET 5    /* unknown rule set or option, or conflicting options */
#define JTB_ERR_MISSING 6    /* the table needed is not there: not covered, search instead */
#define JTB_ERR_BUFFER 7     /* output buffer too small: the size needed is reported */
#define JTB_ERR_LIMIT 8      /* the caps on open files and mapped bytes keep the table closed (jtb_options) */
#define JTB_ERR_INTERNAL 9   /* a failure inside the library: a bug, please report it */

/* Most legal moves a position can have: a jtb_root_move buffer of this size
 * always suffices. */
#define JTB_MAX_MOVES 32

/* Values (wdl). */
#define JTB_LOSS (-1)
#define JTB_DRAW 0
#define JTB_WIN 1

/* Side to move in jtb_position. */
#define JTB_WHITE 0
#define JTB_BLACK 1

/* No piece, in jtb_position.squares. */
#define JTB_NO_SQUARE 255

/* Animals, as numbered in jtb_position: by ANIMAL, not by rank. The numbers
 * are the standard ranks minus one (Rat 0 ... Elephant 7), and they stay the
 * same under every rule set: under wolf_outranks_dog the Wolf still is
 * JTB_WOLF (2) and the Dog JTB_DOG (3), under tiger_outranks_lion the Tiger
 * still is JTB_TIGER (5). Numbering pieces by your engine's ranks gives
 * wrong answers without an error under those rules: use these names, or
 * jtb_position_from_text. squares[JTB_PIECE(JTB_BLACK, JTB_LION)] is the
 * Black Lion. */
#define JTB_RAT 0
#define JTB_CAT 1
#define JTB_WOLF 2
#define JTB_DOG 3
#define JTB_PANTHER 4
#define JTB_TIGER 5
#define JTB_LION 6
#define JTB_ELEPHANT 7
#define JTB_PIECE(color, animal) ((color) * 8 + (animal))

typedef struct jtb_tablebase jtb_tablebase;

/*
 * A position as plain data: squares[JTB_PIECE(color, animal)] is the square
 * (0 = a1, 1 = b1, ..., 6 = g1, 7 = a2, ..., 62 = g9) of that piece, or
 * JTB_NO_SQUARE. Every probe has a form taking this struct (no text to
 * format in a search).
 */
typedef struct jtb_position {
    uint8_t squares[16];
    uint8_t side_to_move;
} jtb_position;

/*
 * Fills *out from position text ("7/7/7/7/7/7/2E4/7/6r b", or "start" for
 * the starting position, as every call taking position text reads). JTB_OK,
 * JTB_ERR_POSITION for text that does not parse, JTB_ERR_ARGUMENT for NULL.
 * Test vector: "7/7/7/7/7/7/2E4/7/6r b" gives
 *   squares[JTB_PIECE(JTB_WHITE, JTB_ELEPHANT)] == 16   (c3)
 *   squares[JTB_PIECE(JTB_BLACK, JTB_RAT)]      == 6    (g1)
 *   every other square JTB_NO_SQUARE, side_to_move == JTB_BLACK.
 */
int jtb_position_from_text(const char *text, jtb_position *out);

/* A legal move and its value for the side playing it. */
typedef struct jtb_root_move {
    uint8_t from;      /* square, as in jtb_position */
    uint8_t to;
    int8_t wdl;        /* JTB_WIN, JTB_DRAW or JTB_LOSS */
    uint16_t plies;    /* distance; 0 for a draw */
    char text[5];      /* "a3a4" and NUL */
    uint8_t capture;   /* 1 if the move captures, else 0 */
    uint8_t den;       /* 1 if the move enters the enemy den (a win), else 0 */
} jtb_root_move;

/*
 * Opens the tables of a rule set under the tables root `dir` (the
 * directory `jungletb generate --out` wrote, or the rule set's directory in
 * it). The rule set is named the ways the command line names it: a named
 * one ("standard", "leiden", "popular"), optionally followed by options
 * ("popular;wolf_outranks_dog=true"), or the label of a custom rule set's
 * directory ("popular-custom-96041d..."), whose options are read from its
 * tables. Returns NULL on error, with jtb_last_error() saying why: an
 * unknown or conflicting rule option (JTB_ERR_RULESET), no table of that
 * rule set at all in `dir` (JTB_ERR_MISSING; the message lists the rule
 * sets found there), or a directory under the rule set's name whose tables
 * record other rules (JTB_ERR_RULESET, naming both). Tables open lazily on
 * first use (see Costs above). A tablebase answers only under its own
 * rules: check them with jtb_ruleset_label.
 */
jtb_tablebase *jtb_open(const char *dir, const char *ruleset);

/* The tables' rule-set label, as their directory is named ("standard",
 * "popular-custom-96041d7177d2e47e"): an engine checks it at open against
 * the rules it plays. NULL for a NULL tablebase; valid until jtb_close. */
const char *jtb_ruleset_label(const jtb_tablebase *tb);

/*
 * How a tablebase reads its tables and how much it may hold at once.
 * Fill with jtb_default_options, change what you need, pass to
 * jtb_open_with. A probe needing a table beyond both file limits fails
 * with JTB_ERR_LIMIT.
 */
typedef struct jtb_options {
    int backend;                /* 0 memory maps (default), 1 positional reads */
    uint64_t max_mapped_bytes;  /* most bytes of table files mapped at once; beyond: positional reads */
    uint64_t max_open_files;    /* most files held open for positional reads (default 512) */
    uint64_t max_decoded_bytes; /* most bytes of decoded distance blocks kept (default 1 GiB; 0 none) */
} jtb_options;

/* Writes the default options to *out. JTB_OK, or JTB_ERR_ARGUMENT for NULL. */
int jtb_default_options(jtb_options *out);

/* jtb_open with options (NULL: the defaults). An unknown backend is
 * JTB_ERR_ARGUMENT. */
jtb_tablebase *jtb_open_with(const char *dir, const char *ruleset, const jtb_options *options);

/* Flags of jtb_open_with_flags. */
#define JTB_PREFER_COMPRESSED 1u /* where both X.jtb and X.jtbz exist, read X.jtbz (default: X.jtb) */

/* jtb_open_with and flags (0 for none; JTB_PREFER_COMPRESSED). An unknown
 * flag is JTB_ERR_ARGUMENT (NULL returned). */
jtb_tablebase *jtb_open_with_flags(const char *dir, const char *ruleset,
                                   const jtb_options *options, unsigned int flags);

/* Frees a tablebase (NULL is allowed). No other thread may be probing it. */
void jtb_close(jtb_tablebase *tb);

/* The message of the last failed call on this thread; "" after a call that
 * succeeded. Valid until the next call on this thread. */
const char *jtb_last_error(void);

/* The library's version ("0.3.0-dev"), and as a number (major * 10000 +
 * minor * 100 + patch: 300; a development version numbers as the
 * release it leads to). */
const char *jtb_version(void);
int jtb_version_number(void);

/* What is covered: 1 if the table of `material` ("ELvR"; either colour
 * order) is present, else 0; 1 if the table a probe of `position` reads is
 * present (or it is a finished game, which needs none), else 0; and the
 * largest N such that EVERY table of up to N pieces is present (0 if not
 * even all 2-piece tables are): a directory with all 3-piece tables and
 * some 4-piece ones gives 3, so ask jtb_has_table_for per position. */
int jtb_has_table(const jtb_tablebase *tb, const char *material);
int jtb_has_table_for(const jtb_tablebase *tb, const char *position);
int jtb_has_table_for_position(const jtb_tablebase *tb, const jtb_position *pos);
int jtb_max_pieces(const jtb_tablebase *tb);

/* Opens every table present of up to max_pieces pieces now (see Costs
 * above). Returns the number of tables open, or minus an error code
 * (-JTB_ERR_TABLE for a damaged table). */
int jtb_preload(const jtb_tablebase *tb, int max_pieces);

/* Whether the game is over, and why, without reading a table: *reason 0
 * (not over), 1 (a piece on the enemy den), 2 (a side without pieces), 3
 * (the side to move has no legal move); *winner JTB_WHITE, JTB_BLACK, or
 * -1 (not over, or a draw under no_move=draw). The probes answer a game
 * ended by a den entry or a side without pieces with JTB_ERR_GAME_OVER;
 * a side to move without a legal move is in its table and probes JTB_OK
 * with its value: a loss in 0 plies (a draw under no_move=draw). A
 * position no game reaches (a piece on the enemy den with its own side to
 * move, both dens entered) is JTB_ERR_POSITION here and in every probe. */
int jtb_game_over(const jtb_tablebase *tb, const char *position, int *reason, int *winner);
int jtb_game_over_position(const jtb_tablebase *tb, const jtb_position *pos, int *reason,
                           int *winner);

/* Value only (the fast path for search). */
int jtb_probe_wdl(const jtb_tablebase *tb, const char *position, int *wdl);
int jtb_probe_wdl_position(const jtb_tablebase *tb, const jtb_position *pos, int *wdl);

/* Win, draw or loss of n positions in one call (the crossing into the
 * library is paid once): wdl[i] for position i, codes[i] its return code
 * when codes is not NULL. Returns JTB_OK, or the first failing code. */
int jtb_probe_wdl_many(const jtb_tablebase *tb, const jtb_position *positions, size_t n,
                       int *wdl, int *codes);

/* Value and distance in plies (0 for a draw); plies may be NULL. */
int jtb_probe(const jtb_tablebase *tb, const char *position, int *wdl, int *plies);
int jtb_probe_position(const jtb_tablebase *tb, const jtb_position *pos, int *wdl, int *plies);

/*
 * Every legal move with its value, best first. Writes at most `capacity`
 * moves to `moves` and the number of legal moves to `*count`; if that is
 * more than `capacity`, returns JTB_ERR_BUFFER (the first `capacity` moves
 * are written). A buffer of JTB_MAX_MOVES always suffices. A side without
 * a legal move has lost: JTB_OK with *count = 0.
 */
int jtb_probe_root(const jtb_tablebase *tb, const char *position, jtb_root_move *moves,
                   size_t capacity, size_t *count);
int jtb_probe_root_position(const jtb_tablebase *tb, const jtb_position *pos,
                            jtb_root_move *moves, size_t capacity, size_t *count);

/*
 * How hard a move is to answer: the opponent's replies to `move` ("a3a4")
 * in `position`, counted by their value for the opponent (win: replies
 * that win for the opponent). All 0 when the move ends the game or leaves
 * the opponent without a legal move. Among moves of equal value, the one
 * with fewest winning (then drawing) replies is the practical choice. A
 * ply of WDL probes. JTB_ERR_ARGUMENT for a move that does not parse or is
 * not legal in the position.
 */
typedef struct jtb_replies {
    uint32_t win;
    uint32_t draw;
    uint32_t loss;
} jtb_replies;
int jtb_probe_replies(const jtb_tablebase *tb, const char *position, const char *move,
                      jtb_replies *out);

/*
 * An optimal line of play to the end of the game, as space-separated moves
 * ("a1a2 b8b7 ..."), NUL-terminated, into `buffer` of `capacity` bytes.
 * Empty for a draw. `*needed` (if `needed` is not NULL) receives the size
 * the line takes, NUL included; if it exceeds `capacity`, JTB_ERR_BUFFER
 * (call with capacity 0 and buffer NULL to ask for the size).
 */
int jtb_probe_line(const jtb_tablebase *tb, const char *position, char *buffer,
                   size_t capacity, size_t *needed);
int jtb_probe_line_position(const jtb_tablebase *tb, const jtb_position *pos, char *buffer,
                            size_t capacity, size_t *needed);

#ifdef __cplusplus
}
#endif

#endif /* JUNGLETB_H */
