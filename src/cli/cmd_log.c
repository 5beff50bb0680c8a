/* cmd_log.c — `rampart log`: the audit rows of past decisions, oldest first. */
#include <errno.h>
#include <limits.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/arena.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "engine/event.h"
#include "scan/redact.h"

static const char log_usage[] =
    "usage: rampart log [--session ID] [--since T] [--json] [--state-dir DIR]\n"
    "\n"
    "Prints the audited decisions, oldest first: time, session, event type, target, what the\n"
    "host was told (ALLOW, ASK, DENY, or REDACT: allowed with the input rewritten), the\n"
    "deciding policies in brackets, and the reason. T is an RFC 3339 time\n"
    "(2026-03-15T12:00:00Z) or an age such as 30s, 10m, 2h, 7d.\n"
    "\n"
    "options:\n"
    "  --session ID     only this session\n"
    "  --since T        only decisions at or after T\n"
    "  --json           one JSON object per line\n"
    "  --state-dir DIR  the state store directory (default: user/system config's state_dir,\n"
    "                   else $RAMPART_STATE_DIR, else $XDG_STATE_HOME/rampart)\n";

typedef struct log_printer {
    bool json;
    rp_buf line;
    rp_arena arena; /* per row: the parsed policies array */
    size_t rows;
} log_printer;

/* Text columns must stay on one line: control characters (a reason may hold a newline) print
 * as spaces. Pads to `width` bytes (0 = no padding) so short columns line up. */
static void put_field(rp_buf *b, const char *s, size_t width)
{
    size_t start = b->len;
    if (!s || !s[0]) {
        rp_buf_putc(b, '-');
    } else {
        for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
            rp_buf_putc(b, *p < 0x20 || *p == 0x7f ? ' ' : (char)*p);
        }
    }
    for (size_t n = b->len - start; n < width; n++) {
        rp_buf_putc(b, ' ');
    }
}

static void put_json_string_member(rp_buf *b, const char *key, const char *value)
{
    rp_buf_printf(b, ",\"%s\":", key);
    if (value) {
        rp_json_write_string(b, value, strlen(value));
    } else {
        rp_buf_puts(b, "null");
    }
}

static int print_row(void *self, const rp_audit_row *row)
{
    log_printer *p = self;
    char when[64];
    rp_rfc3339_format(row->time_us, when, sizeof when);
    rp_buf *b = &p->line;
    rp_buf_reset(b);
    rp_arena_reset(&p->arena);
    /* Rows are written redacted (the engine masks every reason and note); rows written before
     * that, or by an older rampart, are masked here, so no secret is ever shown (issue 16). */
    const char *reason = rp_redact_text(&p->arena, row->reason);
    const char *note = rp_redact_text(&p->arena, row->note);
    if (p->json) {
        rp_buf_puts(b, "{\"time\":");
        rp_json_write_string(b, when, strlen(when));
        rp_buf_printf(b, ",\"time_us\":%lld", (long long)row->time_us);
        put_json_string_member(b, "session_id", row->session_id);
        put_json_string_member(b, "event_type", row->event_type);
        put_json_string_member(b, "target", row->target);
        put_json_string_member(b, "result", row->result);
        put_json_string_member(b, "reason", reason);
        /* The store keeps the deciding policies as JSON text; re-emit it as a value, or as a
         * string if it ever is not valid JSON, so the line always parses. */
        rp_buf_puts(b, ",\"policies\":");
        rp_json_error err;
        rp_json *pol = row->policies
                           ? rp_json_parse(&p->arena, row->policies, strlen(row->policies), &err)
                           : NULL;
        if (pol) {
            rp_json_write(b, pol);
        } else if (row->policies) {
            rp_json_write_string(b, row->policies, strlen(row->policies));
        } else {
            rp_buf_puts(b, "[]");
        }
        put_json_string_member(b, "note", note);
        rp_buf_putc(b, '}');
    } else {
        rp_buf_printf(b, "%-20s  ", when);
        put_field(b, row->session_id, 16);
        rp_buf_puts(b, "  ");
        put_field(b, row->event_type, 13);
        rp_buf_puts(b, "  ");
        put_field(b, row->target, 20);
        rp_buf_puts(b, "  ");
        put_field(b, row->result, 6);
        rp_buf_puts(b, "  ");
        /* Who decided, then why: "deny_secrets: Secrets redacted: ..." reads with the reason. */
        rp_json_error err;
        rp_json *pol = row->policies
                           ? rp_json_parse(&p->arena, row->policies, strlen(row->policies), &err)
                           : NULL;
        size_t named = 0;
        for (uint32_t i = 0; rp_json_is_array(pol) && i < pol->len; i++) {
            if (!rp_json_is_string(&pol->v.items[i]))
                continue;
            rp_buf_puts(b, named++ ? "," : "[");
            put_field(b, pol->v.items[i].v.s, 0);
        }
        if (named)
            rp_buf_puts(b, "]  ");
        put_field(b, reason, 0);
        if (note && note[0]) {
            /* Notes are rare (a dropped update, a failure let through by on_error: allow):
             * shown after the reason. */
            rp_buf_puts(b, "  note: ");
            put_field(b, note, 0);
        }
    }
    rp_buf_putc(b, '\n');
    fwrite(b->data, 1, b->len, stdout);
    p->rows++;
    return ferror(stdout) ? 1 : 0;
}

static int log_run(int argc, char **argv)
{
    const rp_cli_command *cmd = &rp_cmd_log;
    const char *session = NULL;
    const char *since_text = NULL;
    const char *state_dir = NULL;
    bool json = false;
    char why[160];
    for (int i = 1; i < argc; i++) {
        const char *value = NULL;
        int m;
        if (rp_cli_is_help(argv[i])) {
            rp_cli_print_usage(cmd, stdout);
            return RP_EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--session", NULL, &value)) != 0) {
            if (m < 0) {
                return rp_cli_usage_error(cmd, "--session needs a session id");
            }
            if (!rp_id_check("--session", value, why, sizeof why)) {
                return rp_cli_usage_error(cmd, "%s", why);
            }
            session = value;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--since", NULL, &value)) != 0) {
            if (m < 0) {
                return rp_cli_usage_error(cmd, "--since needs a time or an age");
            }
            since_text = value;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--state-dir", NULL, &value)) != 0) {
            if (m < 0 || value[0] == '\0') {
                return rp_cli_usage_error(cmd, "--state-dir needs a directory");
            }
            state_dir = value;
        } else {
            return rp_cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
        }
    }

    char clock_err[256] = "";
    if (rp_clock_check_env(clock_err, sizeof clock_err) != 0) {
        fprintf(stderr, "rampart log: RAMPART_NOW: %s\n", clock_err);
        return RP_EXIT_USAGE;
    }
    int64_t since_us = 0;
    if (since_text && rp_cli_parse_since(since_text, rp_now_us(), &since_us) != 0) {
        return rp_cli_usage_error(cmd, "--since '%s' is neither RFC 3339 nor an age like 10m",
                                  since_text);
    }

    char *dir = rp_cli_state_dir_from_stack(state_dir);
    /* A read command must not create state: with no database there is no log to show. */
    char def[PATH_MAX] = "", db[PATH_MAX + 16];
    const char *where = dir ? dir : rp_store_default_dir(def, sizeof def);
    if (where != NULL) {
        snprintf(db, sizeof db, "%s/state.db", where);
        if (access(db, F_OK) != 0 && errno == ENOENT) {
            fprintf(stderr, "rampart log: no state store in %s (nothing evaluated yet)\n", where);
            free(dir);
            return RP_EXIT_OK;
        }
    }
    rp_store *store = rp_cli_open_store(dir);
    free(dir);
    if (!store) {
        return RP_EXIT_FAIL;
    }
    log_printer p = {.json = json};
    int status = RP_EXIT_OK;
    if (rp_store_audit_query(store, session, since_us, print_row, &p) != 0) {
        fprintf(stderr, "rampart log: %s\n", rp_store_error(store));
        status = RP_EXIT_FAIL;
    }
    fflush(stdout);
    if (ferror(stdout)) {
        status = RP_EXIT_FAIL;
    }
    rp_buf_free(&p.line);
    rp_arena_free(&p.arena);
    rp_store_close(store);
    return status;
}

const rp_cli_command rp_cmd_log = {
    .name = "log",
    .summary = "show the audit log of past decisions",
    .usage = log_usage,
    .run = log_run,
};
