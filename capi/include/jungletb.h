/*
 * jungletb.h — C interface of the jungletb probe library.
 *
 * Link with -ljungletb_c (target/release/libjungletb_c.a or .so; the static
 * library also needs -lpthread -ldl -lm). All functions
 * are thread-safe: one jtb_tablebase may be probed from many threads at once.
 *
 * Values are for the side to move. Distances are plies to the end of the
 * game under optimal play: wins odd, losses even, JTB_DRAW has none.
 */
#ifndef JUNGLETB_H
#define JUNGLETB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes. */
#define JTB_OK 0
#define JTB_ERR_ARGUMENT 1   /* NULL pointer or bad buffer */
#define JTB_ERR_POSITION 2   /* malformed or impossible position */
#define JTB_ERR_GAME_OVER 3  /* a side has no pieces */
#define JTB_ERR_TABLE 4      /* table missing, corrupt or of another rule set */
#define JTB_ERR_RULESET 5    /* unknown rule set or option */

/* Values (wdl). */
#define JTB_LOSS (-1)
#define JTB_DRAW 0
#define JTB_WIN 1

/* Side to move in jtb_position. */
#define JTB_WHITE 0
#define JTB_BLACK 1

/* No piece, in jtb_position.squares. */
#define JTB_NO_SQUARE 255

typedef struct jtb_tablebase jtb_tablebase;

/*
 * A position as plain data: squares[color * 8 + animal] is the square
 * (0 = a1, 1 = b1, ..., 6 = g1, 7 = a2, ..., 62 = g9) of that piece, or
 * JTB_NO_SQUARE. Animals: 0 Rat, 1 Cat, 2 Wolf, 3 Dog, 4 Panther, 5 Tiger,
 * 6 Lion, 7 Elephant; color 0 White, 1 Black.
 */
typedef struct jtb_position {
    uint8_t squares[16];
    uint8_t side_to_move;
} jtb_position;

/* A legal move and its value for the side playing it. */
typedef struct jtb_root_move {
    uint8_t from;      /* square, as in jtb_position */
    uint8_t to;
    int8_t wdl;        /* JTB_WIN, JTB_DRAW or JTB_LOSS */
    uint16_t plies;    /* distance; 0 for a draw */
    char text[5];      /* "a3a4" and NUL */
} jtb_root_move;

/*
 * Opens the tables of a rule set ("standard", "leiden", "popular", optionally
 * followed by options: "standard;universal_traps=true") under the tables
 * root `dir` (the directory `jungletb generate --out` wrote). Returns NULL on
 * error; jtb_last_error() says why. Tables open lazily on first use.
 */
jtb_tablebase *jtb_open(const char *dir, const char *ruleset);

/* Frees a tablebase (NULL is allowed). */
void jtb_close(jtb_tablebase *tb);

/* The message of the last error on this thread ("" if none). Valid until
 * the next call on this thread. */
const char *jtb_last_error(void);

/* Value only (the fast path for search). */
int jtb_probe_wdl(const jtb_tablebase *tb, const char *position, int *wdl);

/* Value and distance in plies (0 for a draw). */
int jtb_probe(const jtb_tablebase *tb, const char *position, int *wdl, int *plies);

/* The same for a position given as plain data. */
int jtb_probe_position(const jtb_tablebase *tb, const jtb_position *pos, int *wdl, int *plies);

/*
 * Every legal move with its value, best first. Writes at most `capacity`
 * moves to `moves` and their number to `*count` (a position has at most 32).
 */
int jtb_probe_root(const jtb_tablebase *tb, const char *position, jtb_root_move *moves,
                   size_t capacity, size_t *count);

/*
 * An optimal line of play to the end of the game, as space-separated moves
 * ("a1a2 b8b7 ..."), NUL-terminated, into `buffer` of `capacity` bytes.
 * Empty for a draw. JTB_ERR_ARGUMENT if the buffer is too small.
 */
int jtb_probe_line(const jtb_tablebase *tb, const char *position, char *buffer, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* JUNGLETB_H */
