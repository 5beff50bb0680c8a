/* decision.c — a decision as JSON (the `rampart eval` output line), and the key under which an
 * ASK's withheld updates wait for a person's answer. */
#include <string.h>

#include "core/sha256.h"
#include "engine/engine.h"

/* Appends a string literal without a strlen: a decision is written for every event. */
#define PUT_LITERAL(out, lit) rp_buf_append((out), (lit), sizeof(lit) - 1)

static void write_updates(rp_buf *out, const rp_state_update *u, size_t n)
{
    rp_buf_putc(out, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            rp_buf_putc(out, ',');
        PUT_LITERAL(out, "{\"key\":");
        rp_json_write_string(out, u[i].key, strlen(u[i].key));
        PUT_LITERAL(out, ",\"action\":\"");
        rp_buf_puts(out, rp_update_action_name(u[i].action));
        PUT_LITERAL(out, "\",\"value\":");
        rp_json_write(out, &u[i].value);
        if (u[i].policy != NULL) {
            PUT_LITERAL(out, ",\"policy\":");
            rp_json_write_string(out, u[i].policy, strlen(u[i].policy));
        }
        rp_buf_putc(out, '}');
    }
    rp_buf_putc(out, ']');
}

void rp_decision_write_json(rp_buf *out, const rp_decision *d)
{
    PUT_LITERAL(out, "{\"result\":\"");
    rp_buf_puts(out, rp_verdict_name(d->result));
    PUT_LITERAL(out, "\",\"reason\":");
    if (d->reason != NULL)
        rp_json_write_string(out, d->reason, strlen(d->reason));
    else
        PUT_LITERAL(out, "null");
    PUT_LITERAL(out, ",\"policies\":[");
    for (size_t i = 0; i < d->n_policies; i++) {
        if (i)
            rp_buf_putc(out, ',');
        rp_json_write_string(out, d->policies[i], strlen(d->policies[i]));
    }
    PUT_LITERAL(out, "],\"state_updates\":");
    if (d->result == RP_ASK)
        write_updates(out, d->withheld, d->n_withheld);
    else
        write_updates(out, d->apply, d->n_apply);
    if (d->labels.type == RP_JSON_OBJECT && d->labels.len > 0) {
        PUT_LITERAL(out, ",\"labels\":");
        rp_json_write(out, &d->labels);
    }
    if (d->data != NULL) {
        PUT_LITERAL(out, ",\"data\":");
        rp_json_write(out, d->data);
    }
    rp_buf_putc(out, '}');
}

const char *rp_ask_key(const rp_event *ev, rp_arena *a)
{
    if (ev->tool_use_id != NULL && ev->tool_use_id[0] != '\0')
        return ev->tool_use_id;

    /* Without an id, the same call (type, target, content) must map to the same key so that an
     * approval can find its withheld updates; sorted keys make the text canonical. */
    rp_json canon = rp_json_make_object();
    rp_json_object_set(a, &canon, "type", rp_json_make_string_ref(ev->type_name));
    rp_json_object_set(a, &canon, "target",
                       ev->tool_name ? rp_json_make_string_ref(ev->tool_name)
                                     : rp_json_make_null());
    rp_json_object_set(a, &canon, "data", ev->data ? *ev->data : rp_json_make_null());
    rp_buf text = {0};
    rp_json_write_sorted(&text, &canon);
    char hex[65];
    rp_sha256_hex(text.data, text.len, hex);
    rp_buf_free(&text);
    return rp_arena_sprintf(a, "h:%s", hex);
}
