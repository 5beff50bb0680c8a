/* usage.c — usage reports → ledger rows (see usage.h). */
#include "cost/usage.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "engine/event.h"

static const char *const token_fields[] = {
    "input_tokens",
    "output_tokens",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
};

static int read_count_raw(const rp_json *v, const char *name, int64_t *out, char *err, size_t n);
static int price_from_table(const char *model, const rp_cost_pricing *pricing, bool clamp,
                            rp_usage_record *out, char *err, size_t err_size);

/* A token count: a JSON integer >= 0, or an integral double (some hosts write 12.0), at most
 * RP_USAGE_MAX_TOKENS (or clamped to it). */
static int read_count(const rp_json *v, const char *name, bool clamp, int64_t *out, char *err,
                      size_t n)
{
    if (read_count_raw(v, name, out, err, n) != 0)
        return -1;
    if (*out > RP_USAGE_MAX_TOKENS) {
        if (!clamp) {
            snprintf(err, n, "%s must be at most %lld, got %lld", name,
                     (long long)RP_USAGE_MAX_TOKENS, (long long)*out);
            return -1;
        }
        *out = RP_USAGE_MAX_TOKENS;
    }
    return 0;
}

static int read_count_raw(const rp_json *v, const char *name, int64_t *out, char *err, size_t n)
{
    if (v == NULL || v->type == RP_JSON_NULL) {
        *out = 0;
        return 0;
    }
    if (v->type == RP_JSON_INT && v->v.i >= 0) {
        *out = v->v.i;
        return 0;
    }
    if (v->type == RP_JSON_DOUBLE && v->v.d >= 0 && v->v.d < 9.2e18 && floor(v->v.d) == v->v.d) {
        *out = (int64_t)v->v.d;
        return 0;
    }
    if (v->type == RP_JSON_INT || v->type == RP_JSON_DOUBLE)
        snprintf(err, n, "%s must be an integer >= 0, got %g", name,
                 v->type == RP_JSON_INT ? (double)v->v.i : v->v.d);
    else
        snprintf(err, n, "%s must be an integer >= 0, got a %s", name, rp_json_type_name(v->type));
    return -1;
}

/* USD → nano-dollars, rounded; refuses what the ledger cannot hold (about $9.2 billion). */
static int usd_to_nusd(double usd, int64_t *out)
{
    double n = usd * (double)RP_NUSD_PER_USD;
    if (!(n >= 0) || n > 9.0e18)
        return -1;
    *out = (int64_t)llround(n);
    return 0;
}

int rp_cost_usage_read(const rp_json *usage, const char *model, const rp_cost_pricing *pricing,
                       bool clamp, rp_usage_record *out, char *err, size_t err_size)
{
    if (!rp_json_is_object(usage)) {
        snprintf(err, err_size, "usage must be an object, got %s",
                 usage ? rp_json_type_name(usage->type) : "nothing");
        return -1;
    }
    int64_t counts[4];
    for (size_t i = 0; i < 4; i++) {
        if (read_count(rp_json_get(usage, token_fields[i]), token_fields[i], clamp, &counts[i], err,
                       err_size) != 0)
            return -1;
    }
    out->input_tokens = counts[0];
    out->output_tokens = counts[1];
    out->cache_read_input_tokens = counts[2];
    out->cache_creation_input_tokens = counts[3];
    out->priced = false;
    out->cost_nusd = 0;
    out->priced_by = NULL;

    const rp_json *cost = rp_json_get(usage, "cost_usd");
    if (cost != NULL && cost->type != RP_JSON_NULL) {
        double usd;
        if (!rp_json_number(cost, &usd) || cost->type == RP_JSON_BOOL) {
            snprintf(err, err_size, "cost_usd must be a number >= 0, got a %s",
                     rp_json_type_name(cost->type));
            return -1;
        }
        if (!(usd >= 0)) {
            snprintf(err, err_size, "cost_usd must be a number >= 0, got %g", usd);
            return -1;
        }
        if (usd_to_nusd(usd, &out->cost_nusd) != 0 || out->cost_nusd > RP_USAGE_MAX_COST_NUSD) {
            if (!clamp) {
                snprintf(err, err_size, "cost_usd must be at most 1000000, got %g", usd);
                return -1;
            }
            out->cost_nusd = RP_USAGE_MAX_COST_NUSD;
        }
        out->priced = true;
        out->priced_by = RP_PRICED_BY_HOST;
        return 0;
    }
    return price_from_table(model, pricing, clamp, out, err, err_size);
}

/* Prices out's token counts at model's price in the table, when it has one. */
static int price_from_table(const char *model, const rp_cost_pricing *pricing, bool clamp,
                            rp_usage_record *out, char *err, size_t err_size)
{
    const rp_cost_price *price =
        pricing && model && model[0] ? rp_cost_pricing_find(pricing, model) : NULL;
    if (price != NULL) {
        out->cost_nusd =
            rp_cost_price_cost_nusd(price, out->input_tokens, out->output_tokens,
                                    out->cache_read_input_tokens, out->cache_creation_input_tokens);
        out->priced = true;
        out->priced_by = price->from_config ? RP_PRICED_BY_CONFIG : RP_PRICED_BY_TABLE;
        if (out->cost_nusd > RP_USAGE_MAX_COST_NUSD) {
            if (!clamp) {
                snprintf(err, err_size, "the computed cost is above $1,000,000 for one record");
                return -1;
            }
            out->cost_nusd = RP_USAGE_MAX_COST_NUSD;
        }
    }
    return 0;
}

/* A string field that must be a non-empty string when present. */
static int read_string(const rp_json *obj, const char *name, bool required, const char **out,
                       char *err, size_t n)
{
    const rp_json *v = rp_json_get(obj, name);
    *out = NULL;
    if (v == NULL || v->type == RP_JSON_NULL) {
        if (required) {
            snprintf(err, n, "%s is required", name);
            return -1;
        }
        return 0;
    }
    if (v->type != RP_JSON_STRING || v->len == 0 || memchr(v->v.s, '\0', v->len) != NULL) {
        snprintf(err, n, "%s must be a non-empty string, got %s", name,
                 v->type == RP_JSON_STRING ? "an invalid string" : rp_json_type_name(v->type));
        return -1;
    }
    if (!rp_id_check(name, v->v.s, err, n))
        return -1;
    *out = v->v.s;
    return 0;
}

static const char *const line_fields[] = {
    "session_id",
    "user",
    "parent_session_id",
    "root_session_id",
    "model",
    "id",
    "time",
    "usage",
    "input_tokens",
    "output_tokens",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
    "cost_usd",
};

int rp_cost_usage_record_from_json(const rp_json *line, const rp_cost_pricing *pricing,
                                   int64_t now_us, rp_usage_record *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    if (!rp_json_is_object(line)) {
        snprintf(err, err_size, "a usage record must be a JSON object, got %s",
                 rp_json_type_name(line->type));
        return -1;
    }
    for (uint32_t i = 0; i < line->len; i++) {
        const char *k = line->v.members[i].key;
        bool known = false;
        for (size_t j = 0; j < sizeof line_fields / sizeof line_fields[0] && !known; j++)
            known = strcmp(k, line_fields[j]) == 0;
        if (!known) {
            snprintf(err, err_size,
                     "unknown field '%s' (known: session_id, user, parent_session_id, "
                     "root_session_id, model, id, time, input_tokens, output_tokens, "
                     "cache_read_input_tokens, cache_creation_input_tokens, cost_usd, usage)",
                     k);
            return -1;
        }
    }
    if (read_string(line, "session_id", true, &out->session_id, err, err_size) != 0 ||
        read_string(line, "user", false, &out->user_id, err, err_size) != 0 ||
        read_string(line, "parent_session_id", false, &out->parent_session_id, err, err_size) !=
            0 ||
        read_string(line, "root_session_id", false, &out->root_session_id, err, err_size) != 0 ||
        read_string(line, "model", false, &out->model, err, err_size) != 0 ||
        read_string(line, "id", false, &out->record_id, err, err_size) != 0)
        return -1;

    const char *time_text = NULL;
    if (read_string(line, "time", false, &time_text, err, err_size) != 0)
        return -1;
    out->time_us = now_us;
    if (time_text != NULL && rp_rfc3339_parse(time_text, &out->time_us) != 0) {
        snprintf(err, err_size, "time must be an RFC 3339 timestamp, got '%s'", time_text);
        return -1;
    }
    /* Spend dated in the future would count in no current window and then land in a later one
     * all at once; a day of clock skew is allowed. Back-dated imports are fine. */
    if (out->time_us < 0) {
        snprintf(err, err_size, "time %s is before 1970", time_text);
        return -1;
    }
    if (out->time_us > now_us + 86400LL * 1000000LL) {
        snprintf(err, err_size, "time %s is more than a day in the future", time_text);
        return -1;
    }

    /* Tokens at the top level or in a nested `usage` object (the llm_response shape), not both:
     * a line with both would be counted by whichever the reader happened to prefer. */
    const rp_json *nested = rp_json_get(line, "usage");
    if (nested != NULL) {
        for (size_t i = 0; i < 4; i++) {
            if (rp_json_get(line, token_fields[i]) != NULL) {
                snprintf(err, err_size, "%s given both at the top level and in usage",
                         token_fields[i]);
                return -1;
            }
        }
        if (rp_json_get(line, "cost_usd") != NULL && rp_json_get(nested, "cost_usd") != NULL) {
            snprintf(err, err_size, "cost_usd given both at the top level and in usage");
            return -1;
        }
    }
    if (nested != NULL && rp_json_is_object(nested)) {
        for (uint32_t i = 0; i < nested->len; i++) {
            const char *k = nested->v.members[i].key;
            bool known = strcmp(k, "cost_usd") == 0 || strcmp(k, "total_tokens") == 0;
            for (size_t j = 0; j < 4 && !known; j++)
                known = strcmp(k, token_fields[j]) == 0;
            if (!known) {
                snprintf(err, err_size,
                         "unknown field 'usage.%s' (known: input_tokens, output_tokens, "
                         "cache_read_input_tokens, cache_creation_input_tokens, cost_usd, "
                         "total_tokens)",
                         k);
                return -1;
            }
        }
    }
    if (rp_cost_usage_read(nested ? nested : line, out->model, pricing, false, out, err,
                           err_size) != 0)
        return -1;
    const rp_json *top_cost = nested ? rp_json_get(line, "cost_usd") : NULL;
    if (top_cost != NULL && top_cost->type != RP_JSON_NULL) {
        /* tokens nested, the cost beside them */
        double usd;
        if (top_cost->type == RP_JSON_BOOL || !rp_json_number(top_cost, &usd) ||
            usd_to_nusd(usd, &out->cost_nusd) != 0 || out->cost_nusd > RP_USAGE_MAX_COST_NUSD) {
            snprintf(err, err_size, "cost_usd must be a number in 0..1000000");
            return -1;
        }
        out->priced = true;
        out->priced_by = RP_PRICED_BY_HOST;
    }
    return 0;
}

int rp_cost_usage_from_llm_response(const rp_json *data, const char *context_model,
                                    const rp_cost_pricing *pricing, int64_t now_us,
                                    rp_usage_record *out, char *err, size_t err_size)
{
    const rp_json *usage = rp_json_get(data, "usage");
    if (usage == NULL || usage->type == RP_JSON_NULL)
        return 0;
    memset(out, 0, sizeof *out);
    const rp_json *model = rp_json_get(data, "model");
    if (model && model->type == RP_JSON_STRING && memchr(model->v.s, '\0', model->len)) {
        snprintf(err, err_size, "model contains a NUL character");
        return -1;
    }
    out->model =
        model && model->type == RP_JSON_STRING && model->len > 0 ? model->v.s : context_model;
    static const char *const id_fields[] = {"id", "message_id", "response_id", "request_id"};
    for (size_t i = 0; i < 4 && out->record_id == NULL; i++) {
        const rp_json *id = rp_json_get(data, id_fields[i]);
        if (id && id->type == RP_JSON_STRING && id->len > 0) {
            /* "m\u0000a" and "m\u0000b" would both dedupe as "m" and drop a response. */
            if (memchr(id->v.s, '\0', id->len)) {
                snprintf(err, err_size, "%s contains a NUL character", id_fields[i]);
                return -1;
            }
            out->record_id = id->v.s;
        }
    }
    out->time_us = now_us;
    /* Clamped, not refused: a report the host made must be counted, or it cannot trip a budget. */
    if (rp_cost_usage_read(usage, out->model, pricing, true, out, err, err_size) != 0)
        return -1;
    /* A host reports cost 0 for a provider it cannot price (opencode and Pi do): a zero cost
     * for tokens is no price, so the table prices them when it can. */
    if (out->priced && out->cost_nusd == 0 &&
        out->input_tokens + out->output_tokens + out->cache_read_input_tokens +
                out->cache_creation_input_tokens >
            0 &&
        price_from_table(out->model, pricing, true, out, err, err_size) != 0)
        return -1;
    return 1;
}

rp_json rp_cost_usage_totals_to_json(rp_arena *a, const rp_usage_totals *t)
{
    rp_json o = rp_json_make_object();
    rp_json_object_set(a, &o, "input_tokens", rp_json_make_int(t->input_tokens));
    rp_json_object_set(a, &o, "output_tokens", rp_json_make_int(t->output_tokens));
    rp_json_object_set(a, &o, "total_tokens", rp_json_make_int(t->input_tokens + t->output_tokens));
    rp_json_object_set(a, &o, "cache_read_input_tokens",
                       rp_json_make_int(t->cache_read_input_tokens));
    rp_json_object_set(a, &o, "cache_creation_input_tokens",
                       rp_json_make_int(t->cache_creation_input_tokens));
    /* The reference's default seed (nothing recorded) has total_cost_usd 0.0; with records it is
     * absent until one was priced, which is how the cost policies recognise unpriced spend. */
    if (t->priced_records > 0 || t->records == 0)
        rp_json_object_set(a, &o, "total_cost_usd",
                           rp_json_make_double((double)t->cost_nusd / (double)RP_NUSD_PER_USD));
    if (t->unpriced_tokens > 0)
        rp_json_object_set(a, &o, "unpriced_tokens", rp_json_make_int(t->unpriced_tokens));
    return o;
}
