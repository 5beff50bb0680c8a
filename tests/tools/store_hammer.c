/* store_hammer — drives the SQLite store from several processes at once (see
 * tests/e2e/store_concurrency.sh).
 *
 *   store_hammer DIR SESSION N        N times: begin → load → state.n += 1 → save → commit
 *   store_hammer DIR SESSION --print  prints the session's state JSON on one line
 *
 * It retries nothing itself: any failure of rp_store_begin (which does retry while the database
 * is busy) or of a later step is reported and exits 1, so a lost or failed update shows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "store/store.h"

static int usage(void)
{
    fprintf(stderr, "usage: store_hammer DIR SESSION N\n"
                    "       store_hammer DIR SESSION --print\n");
    return 2;
}

static int print_state(rp_store *s, const char *session)
{
    rp_arena a = {0};
    rp_json *state = NULL;
    int rc = 0;
    if (rp_store_load_state(s, session, &a, &state) != 0) {
        fprintf(stderr, "store_hammer: load: %s\n", rp_store_error(s));
        rc = 1;
    } else {
        rp_buf out = {0};
        rp_json_write(&out, state);
        printf("%s\n", out.data);
        rp_buf_free(&out);
    }
    rp_arena_free(&a);
    return rc;
}

/* One load → increment → save cycle inside the caller's transaction. */
static int increment(rp_store *s, const char *session, rp_arena *a, long iteration)
{
    rp_json *state = NULL;
    if (rp_store_load_state(s, session, a, &state) != 0) {
        fprintf(stderr, "store_hammer: iteration %ld: load: %s\n", iteration, rp_store_error(s));
        return -1;
    }
    const rp_json *n = rp_json_get(state, "n");
    int64_t value = 0;
    if (n != NULL) {
        if (n->type != RP_JSON_INT) {
            fprintf(stderr, "store_hammer: state.n is %s, not an integer\n",
                    rp_json_type_name(n->type));
            return -1;
        }
        value = n->v.i;
    }
    rp_json_object_set(a, state, "n", rp_json_make_int(value + 1));
    if (rp_store_save_state(s, session, state) != 0) {
        fprintf(stderr, "store_hammer: iteration %ld: save: %s\n", iteration, rp_store_error(s));
        return -1;
    }
    return 0;
}

static int hammer(rp_store *s, const char *session, long count)
{
    rp_arena a = {0};
    int rc = 0;
    for (long i = 0; i < count; i++) {
        if (rp_store_begin(s) != 0) {
            fprintf(stderr, "store_hammer: iteration %ld: begin: %s\n", i, rp_store_error(s));
            rc = 1;
            break;
        }
        if (increment(s, session, &a, i) != 0) {
            rp_store_rollback(s);
            rc = 1;
            break;
        }
        if (rp_store_commit(s) != 0) {
            fprintf(stderr, "store_hammer: iteration %ld: commit: %s\n", i, rp_store_error(s));
            rc = 1;
            break;
        }
        rp_arena_reset(&a);
    }
    rp_arena_free(&a);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        return usage();
    }
    const char *dir = argv[1];
    const char *session = argv[2];
    bool print = strcmp(argv[3], "--print") == 0;
    long count = 0;
    if (!print) {
        char *end = NULL;
        errno = 0;
        count = strtol(argv[3], &end, 10);
        if (errno != 0 || end == argv[3] || *end != '\0' || count < 0) {
            fprintf(stderr, "store_hammer: N must be a non-negative integer, got '%s'\n", argv[3]);
            return 2;
        }
    }

    char err[1024];
    rp_store *s = rp_store_open_sqlite(dir, err, sizeof err);
    if (s == NULL) {
        fprintf(stderr, "store_hammer: %s\n", err);
        return 1;
    }
    int rc = print ? print_state(s, session) : hammer(s, session, count);
    rp_store_close(s);
    return rc;
}
