/*
 * A minimal engine-side use of libjungletb: load tables, print the value,
 * the best move and the line to the end for a position.
 *
 *   cc -Icrates/capi/include crates/capi/examples/best_move.c target/release/libjungletb_c.a \
 *      -lpthread -ldl -lm -o best_move
 *   ./best_move tables standard "7/7/7/7/7/7/2E4/7/6r b"
 */
#include <stdio.h>
#include "jungletb.h"

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s TABLES_DIR RULESET POSITION\n", argv[0]);
        return 2;
    }
    jtb_tablebase *tb = jtb_open(argv[1], argv[2]);
    if (!tb) {
        fprintf(stderr, "error: %s\n", jtb_last_error());
        return 1;
    }
    int wdl = 0, plies = 0;
    if (jtb_probe(tb, argv[3], &wdl, &plies) != JTB_OK) {
        fprintf(stderr, "error: %s\n", jtb_last_error());
        jtb_close(tb);
        return 1;
    }
    jtb_root_move moves[JTB_MAX_MOVES];
    size_t n = 0;
    if (jtb_probe_root(tb, argv[3], moves, JTB_MAX_MOVES, &n) != JTB_OK) {
        fprintf(stderr, "error: %s\n", jtb_last_error());
        jtb_close(tb);
        return 1;
    }
    char line[4096];
    if (jtb_probe_line(tb, argv[3], line, sizeof line, NULL) != JTB_OK) {
        fprintf(stderr, "error: %s\n", jtb_last_error());
        jtb_close(tb);
        return 1;
    }
    const char *name = wdl > 0 ? "win" : wdl < 0 ? "loss" : "draw";
    printf("value: %s\n", name);
    if (wdl != 0) printf("plies: %d\n", plies);
    printf("best: %s\n", n > 0 ? moves[0].text : "(none)");
    printf("line: %s\n", line);
    jtb_close(tb);
    return 0;
}
