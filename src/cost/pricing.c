/* pricing.c — the price table: data/pricing.json (compiled in) overlaid by the config's
 * `pricing:` block, a lookup that understands the common spellings of a model id, and the cost
 * of one usage record in integer nano-dollars.
 *
 * Cost. Prices are USD per 1M tokens; they are turned into integer micro-dollars per 1M tokens
 * (so honoured to $0.000001 per 1M tokens, far below any published price step) and multiplied by
 * the integer token counts: tokens × µUSD/1M = pico-dollars, summed exactly in int64 and rounded
 * once to nano-dollars. 1e9 tokens at $75 is 7.5e16 pUSD, well inside int64; beyond that the
 * result saturates instead of overflowing.
 *
 * Lookup. Every key is stored "folded": lower case, and a dot between two digits written as a
 * dash, so "claude-opus-4.5" and "claude-opus-4-5", "gemini-2.5-pro" and "gemini-2-5-pro" are
 * one key. A model id is looked up exactly (folded) first; when that misses, one known decoration
 * is removed at a time (a provider prefix, a dated or versioned suffix) and the lookup repeated.
 * Nothing else: there is no prefix matching, so "claude-opus-4-5-foo" or "gpt-5-turbo" are
 * unpriced rather than silently priced as a model they may not be. */
#include "cost/pricing.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost/pricing_data.h"

/* USD per 1M tokens. No real price comes near it; above it the number is a typo. */
#define RP_PRICE_MAX 1000000.0
/* Model ids longer than this are not model ids (and would not fit the lookup buffer). */
#define RP_MODEL_ID_MAX 255

typedef struct slot {
    const char *key; /* folded; NULL = empty */
    uint32_t entry;
} slot;

struct rp_cost_pricing {
    rp_cost_price *entries;
    size_t n;
    slot *slots;
    size_t n_slots; /* a power of two, at least twice the keys */
    const char *updated, *note;
};

const char *rp_cost_pricing_shipped_json(size_t *len)
{
    if (len)
        *len = rp_cost_pricing_data_len;
    return rp_cost_pricing_data;
}

/* ---- dates ---- */

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (H. Hinnant's algorithm). */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int rp_cost_pricing_date_days(const char *ymd, int64_t *days)
{
    if (!ymd || strlen(ymd) != 10 || ymd[4] != '-' || ymd[7] != '-')
        return -1;
    for (int i = 0; i < 10; i++) {
        if (i != 4 && i != 7 && !isdigit((unsigned char)ymd[i]))
            return -1;
    }
    int y = atoi(ymd), m = atoi(ymd + 5), d = atoi(ymd + 8);
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (y < 1970 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1] + (m == 2 && leap))
        return -1;
    if (days)
        *days = days_from_civil(y, m, d);
    return 0;
}

/* ---- keys ---- */

/* Lower-cases `s` into out (size RP_MODEL_ID_MAX + 1) and writes a dot between two digits as a
 * dash. Returns the length, or -1 when s is empty or too long. */
static int fold(const char *s, char *out)
{
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)*s)) {
        s++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    if (n == 0 || n > RP_MODEL_ID_MAX)
        return -1;
    for (size_t i = 0; i < n; i++) {
        char c = (char)tolower((unsigned char)s[i]);
        if (c == '.' && i > 0 && i + 1 < n && isdigit((unsigned char)s[i - 1]) &&
            isdigit((unsigned char)s[i + 1]))
            c = '-';
        out[i] = c;
    }
    out[n] = '\0';
    return (int)n;
}

static uint64_t hash_key(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* The entry of folded key s[0..n), or -1. */
static long find_folded(const rp_cost_pricing *p, const char *s, size_t n)
{
    size_t mask = p->n_slots - 1;
    for (size_t i = hash_key(s, n) & mask;; i = (i + 1) & mask) {
        const slot *sl = &p->slots[i];
        if (!sl->key)
            return -1;
        if (strlen(sl->key) == n && memcmp(sl->key, s, n) == 0)
            return sl->entry;
    }
}

/* Adds folded key → entry. Returns -1 when the key is already taken by another entry. */
static int index_key(rp_cost_pricing *p, const char *key, uint32_t entry)
{
    size_t n = strlen(key), mask = p->n_slots - 1;
    for (size_t i = hash_key(key, n) & mask;; i = (i + 1) & mask) {
        slot *sl = &p->slots[i];
        if (!sl->key) {
            sl->key = key;
            sl->entry = entry;
            return 0;
        }
        if (strcmp(sl->key, key) == 0)
            return sl->entry == entry ? 0 : -1;
    }
}

/* ---- the decorations a lookup may remove ---- */

/* Prefixes without a slash: Databricks serving endpoints, Bedrock ids and their cross-region
 * inference profiles ("us.anthropic.claude-…"). Any "something/" is handled separately. */
static const char *const plain_prefixes[] = {
    "databricks-", "anthropic.", "us.", "eu.", "apac.", "global.", "au.", "jp.", "ca.",
};

static bool all_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return false;
    }
    return n > 0;
}

/* Removes one provider prefix from buf in place. Returns whether it did. */
static bool strip_prefix(char *buf, size_t *n)
{
    const char *slash = strrchr(buf, '/');
    if (slash && slash[1]) {
        size_t skip = (size_t)(slash + 1 - buf);
        memmove(buf, slash + 1, *n - skip + 1);
        *n -= skip;
        return true;
    }
    for (size_t i = 0; i < sizeof plain_prefixes / sizeof plain_prefixes[0]; i++) {
        size_t k = strlen(plain_prefixes[i]);
        if (*n > k && strncmp(buf, plain_prefixes[i], k) == 0) {
            memmove(buf, buf + k, *n - k + 1);
            *n -= k;
            return true;
        }
    }
    return false;
}

/* Removes one version decoration from the end of buf in place: "-v1:0" / "-v2" (Bedrock),
 * "@20251101" / "@001" (Vertex), "-latest", "-20251101", "-2025-08-07", "[1m]" (Claude Code's
 * 1M-context marker). Returns whether it did. */
static bool strip_suffix(char *buf, size_t *n)
{
    size_t len = *n;
    /* "@" only before a version number: "gpt-5@pro" must stay unpriced, not price as gpt-5. */
    char *at = strrchr(buf, '@');
    if (at && at > buf && (all_digits(at + 1, strlen(at + 1)) || strcmp(at + 1, "latest") == 0)) {
        *at = '\0';
        *n = (size_t)(at - buf);
        return true;
    }
    static const char *const words[] = {"-latest", "[1m]"};
    for (size_t i = 0; i < 2; i++) {
        size_t k = strlen(words[i]);
        if (len > k && strcmp(buf + len - k, words[i]) == 0) {
            buf[len - k] = '\0';
            *n = len - k;
            return true;
        }
    }
    /* -vN or -vN:M */
    char *dash = strrchr(buf, '-');
    if (dash && dash > buf && dash[1] == 'v') {
        const char *v = dash + 2, *colon = strchr(v, ':');
        size_t major = colon ? (size_t)(colon - v) : strlen(v);
        if (all_digits(v, major) && (!colon || all_digits(colon + 1, strlen(colon + 1)))) {
            *dash = '\0';
            *n = (size_t)(dash - buf);
            return true;
        }
    }
    if (len > 9 && buf[len - 9] == '-' && all_digits(buf + len - 8, 8)) {
        buf[len - 9] = '\0';
        *n = len - 9;
        return true;
    }
    if (len > 11 && buf[len - 11] == '-' && all_digits(buf + len - 10, 4) && buf[len - 6] == '-' &&
        all_digits(buf + len - 5, 2) && buf[len - 3] == '-' && all_digits(buf + len - 2, 2)) {
        buf[len - 11] = '\0';
        *n = len - 11;
        return true;
    }
    return false;
}

const rp_cost_price *rp_cost_pricing_find(const rp_cost_pricing *p, const char *model)
{
    char buf[RP_MODEL_ID_MAX + 1];
    if (!p || !model)
        return NULL;
    int len = fold(model, buf);
    if (len < 0)
        return NULL;
    size_t n = (size_t)len;
    /* Each step removes at least one character, so this ends; the bound is belt and braces. */
    for (int step = 0; step < 32; step++) {
        long e = find_folded(p, buf, n);
        if (e >= 0)
            return &p->entries[e];
        /* Suffixes first: a config entry keyed "anthropic/claude-opus-4-5" must also price
         * "anthropic/claude-opus-4-5-20251101", before the shipped unprefixed entry does. */
        if (!strip_suffix(buf, &n) && !strip_prefix(buf, &n))
            return NULL;
    }
    return NULL;
}

/* ---- entries ---- */

static const char *const price_fields[] = {"input", "output", "cache_read", "cache_write"};

static bool is_price_field(const char *key)
{
    for (size_t i = 0; i < 4; i++) {
        if (strcmp(key, price_fields[i]) == 0)
            return true;
    }
    return false;
}

int rp_cost_price_field_check(const char *key, const rp_json *value, char *err, size_t err_size)
{
    double d;
    if (!is_price_field(key)) {
        snprintf(err, err_size,
                 "unknown price field (known: input, output, cache_read, "
                 "cache_write)");
        return -1;
    }
    if (!rp_json_number(value, &d) || !(d >= 0) || d > RP_PRICE_MAX) {
        snprintf(err, err_size, "must be a number >= 0 (USD per 1M tokens)");
        return -1;
    }
    return 0;
}

int rp_cost_price_entry_check(const rp_json *entry, const char **field, char *err, size_t err_size)
{
    *field = NULL;
    if (!rp_json_is_object(entry)) {
        snprintf(err, err_size,
                 "must be a mapping with input and output prices (USD per 1M "
                 "tokens)");
        return -1;
    }
    for (uint32_t i = 0; i < entry->len; i++) {
        const rp_json_member *m = &entry->v.members[i];
        if (rp_cost_price_field_check(m->key, &m->value, err, err_size) != 0) {
            *field = m->key;
            return -1;
        }
    }
    for (size_t i = 0; i < 2; i++) {
        if (!rp_json_get(entry, price_fields[i])) {
            *field = price_fields[i];
            snprintf(err, err_size, "missing: give the price in USD per 1M %s tokens",
                     price_fields[i]);
            return -1;
        }
    }
    return 0;
}

static double number_or(const rp_json *obj, const char *key, double dflt)
{
    double d;
    return rp_json_number(rp_json_get(obj, key), &d) ? d : dflt;
}

/* Whether s is an https URL with a host. */
static bool is_https_url(const char *s)
{
    return s && strncmp(s, "https://", 8) == 0 && s[8] != '\0' && s[8] != '/' &&
           !strpbrk(s, " \t\r\n\"<>");
}

/* Checks one shipped entry: its four prices and its metadata. Returns 0, or -1 with err set. */
static int check_shipped_entry(const char *model, const rp_json *entry, char *err, size_t err_size)
{
    char perr[128];
    for (uint32_t i = 0; i < entry->len; i++) {
        const rp_json_member *m = &entry->v.members[i];
        const char *s = rp_json_str(&m->value);
        if (is_price_field(m->key)) {
            if (rp_cost_price_field_check(m->key, &m->value, perr, sizeof perr) != 0) {
                snprintf(err, err_size, "%s.%s: %s", model, m->key, perr);
                return -1;
            }
        } else if (strcmp(m->key, "recorded") == 0) {
            if (rp_cost_pricing_date_days(s, NULL) != 0) {
                snprintf(err, err_size, "%s.recorded: must be a date YYYY-MM-DD", model);
                return -1;
            }
        } else if (strcmp(m->key, "source") == 0) {
            if (!is_https_url(s)) {
                snprintf(err, err_size, "%s.source: must be an https:// URL", model);
                return -1;
            }
        } else if (strcmp(m->key, "note") == 0) {
            if (!s || !*s) {
                snprintf(err, err_size, "%s.note: must be a non-empty string", model);
                return -1;
            }
        } else if (strcmp(m->key, "aliases") == 0) {
            if (!rp_json_is_array(&m->value)) {
                snprintf(err, err_size, "%s.aliases: must be a list of model ids", model);
                return -1;
            }
        } else {
            snprintf(err, err_size,
                     "%s.%s: unknown field (known: input, output, cache_read, cache_write, "
                     "recorded, source, note, aliases)",
                     model, m->key);
            return -1;
        }
    }
    if (!rp_json_get(entry, "input") || !rp_json_get(entry, "output") ||
        !rp_json_get(entry, "recorded") || !rp_json_get(entry, "source")) {
        snprintf(err, err_size, "%s: input, output, recorded and source are required", model);
        return -1;
    }
    return 0;
}

/* A new, zeroed entry at the end (the array was sized for every entry up front). */
static rp_cost_price *append_entry(rp_cost_pricing *p)
{
    rp_cost_price *pr = &p->entries[p->n++];
    memset(pr, 0, sizeof *pr);
    return pr;
}

static void set_prices(rp_cost_price *pr, const rp_json *entry)
{
    pr->input = number_or(entry, "input", 0);
    pr->output = number_or(entry, "output", 0);
    pr->cache_read = number_or(entry, "cache_read", pr->input * 0.10);
    pr->cache_write = number_or(entry, "cache_write", pr->input * 1.25);
}

/* A model key of either table: a folded copy in the arena, or NULL with err set. */
static const char *model_key(rp_arena *a, const char *key, const char *what, char *err,
                             size_t err_size)
{
    char folded[RP_MODEL_ID_MAX + 1];
    if (fold(key, folded) < 0) {
        snprintf(err, err_size, "%s: a model id must be 1 to %d characters", what, RP_MODEL_ID_MAX);
        return NULL;
    }
    return rp_arena_strdup(a, folded);
}

/* A shipped key is written as the provider spells the id (so `rampart pricing` shows it): lower
 * case letters, digits and . - _ only. */
static bool is_canonical_id(const char *s)
{
    for (const char *c = s; *c; c++) {
        if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '.' || *c == '-' ||
              *c == '_'))
            return false;
    }
    return *s != '\0';
}

/* The shipped file, parsed; NULL with err set when it is not the expected shape. */
static const rp_json *parse_shipped(rp_cost_pricing *p, rp_arena *a, char *err, size_t err_size)
{
    size_t len;
    const char *text = rp_cost_pricing_shipped_json(&len);
    rp_json_error jerr;
    rp_json *root = rp_json_parse(a, text, len, &jerr);
    if (!root) {
        snprintf(err, err_size, "data/pricing.json:%d:%d: %s", jerr.line, jerr.col, jerr.msg);
        return NULL;
    }
    const rp_json *models = rp_json_get(root, "models");
    p->updated = rp_json_get_str(root, "updated");
    p->note = rp_json_get_str(root, "note");
    if (!rp_json_is_object(models) || rp_cost_pricing_date_days(p->updated, NULL) != 0) {
        snprintf(err, err_size,
                 "data/pricing.json: needs \"updated\" (YYYY-MM-DD) and a \"models\" object");
        return NULL;
    }
    for (uint32_t i = 0; i < root->len; i++) {
        const char *k = root->v.members[i].key;
        if (strcmp(k, "updated") != 0 && strcmp(k, "note") != 0 && strcmp(k, "models") != 0) {
            snprintf(err, err_size, "data/pricing.json: unknown top-level key '%s'", k);
            return NULL;
        }
    }
    return models;
}

static int load_shipped(rp_cost_pricing *p, rp_arena *a, const rp_json *models, char *err,
                        size_t err_size)
{
    char perr[256];
    for (uint32_t i = 0; i < models->len; i++) {
        const rp_json_member *m = &models->v.members[i];
        const rp_json *e = &m->value;
        if (!is_canonical_id(m->key) || m->key_len > RP_MODEL_ID_MAX) {
            snprintf(err, err_size,
                     "data/pricing.json: model '%s' must be the provider's id: lower case, no "
                     "spaces",
                     m->key);
            return -1;
        }
        if (!rp_json_is_object(e)) {
            snprintf(err, err_size, "data/pricing.json: %s: must be an object", m->key);
            return -1;
        }
        if (check_shipped_entry(m->key, e, perr, sizeof perr) != 0) {
            snprintf(err, err_size, "data/pricing.json: %s", perr);
            return -1;
        }
        uint32_t index = (uint32_t)p->n;
        rp_cost_price *pr = append_entry(p);
        pr->model = m->key;
        set_prices(pr, e);
        pr->recorded = rp_json_get_str(e, "recorded");
        pr->source = rp_json_get_str(e, "source");
        pr->note = rp_json_get_str(e, "note");
        pr->aliases = rp_json_get(e, "aliases");
        if (index_key(p, model_key(a, m->key, "", err, err_size), index) != 0) {
            snprintf(err, err_size, "data/pricing.json: model '%s' is listed twice", m->key);
            return -1;
        }
        for (uint32_t j = 0; pr->aliases && j < pr->aliases->len; j++) {
            const char *alias = rp_json_str(&pr->aliases->v.items[j]);
            const char *akey = alias ? model_key(a, alias, m->key, err, err_size) : NULL;
            if (!akey || index_key(p, akey, index) != 0) {
                snprintf(err, err_size,
                         "data/pricing.json: %s: alias '%s' is not a model id or names another "
                         "model",
                         m->key, alias ? alias : "?");
                return -1;
            }
        }
    }
    return 0;
}

static int load_overrides(rp_cost_pricing *p, rp_arena *a, const rp_json *config_pricing, char *err,
                          size_t err_size)
{
    for (uint32_t i = 0; config_pricing && i < config_pricing->len; i++) {
        const rp_json_member *m = &config_pricing->v.members[i];
        char what[RP_MODEL_ID_MAX + 16];
        snprintf(what, sizeof what, "pricing.%s", m->key);
        const char *key = model_key(a, m->key, what, err, err_size);
        if (!key)
            return -1;
        /* The config loader adds "source" (the file) to each entry it merged; everything else
         * must be a price. */
        rp_json prices = rp_json_clone(a, &m->value);
        const char *source = rp_json_get_str(&m->value, "source");
        if (rp_json_is_object(&prices))
            rp_json_object_delete(&prices, "source");
        const char *field;
        char perr[160];
        if (rp_cost_price_entry_check(&prices, &field, perr, sizeof perr) != 0) {
            snprintf(err, err_size, "pricing.%s%s%s: %s", m->key, field ? "." : "",
                     field ? field : "", perr);
            return -1;
        }
        long found = find_folded(p, key, strlen(key));
        rp_cost_price *pr;
        if (found >= 0) {
            pr = &p->entries[found];
            /* Two spellings of one model ("x-4.5", "X-4-5"): the first, from the more specific
             * file, wins, as for every other config setting. */
            if (pr->from_config)
                continue;
            pr->replaced_shipped = true;
        } else {
            index_key(p, key, (uint32_t)p->n);
            pr = append_entry(p);
            pr->model = rp_arena_strdup(a, m->key);
        }
        set_prices(pr, &prices);
        pr->recorded = NULL;
        pr->note = NULL; /* a shipped note (a long-prompt tier…) says nothing of this price */
        pr->source = source ? source : "config";
        pr->from_config = true;
    }
    return 0;
}

rp_cost_pricing *rp_cost_pricing_build(rp_arena *a, const rp_json *config_pricing, char *err,
                                       size_t err_size)
{
    rp_cost_pricing *p = rp_arena_calloc(a, sizeof *p);
    const rp_json *models = parse_shipped(p, a, err, err_size);
    if (!models)
        return NULL;
    if (config_pricing && !rp_json_is_object(config_pricing)) {
        snprintf(err, err_size, "pricing: must be a mapping of model id to prices");
        return NULL;
    }
    /* Everything is sized up front: entries for every model, slots for every key (at most half
     * full, so probes stay short). */
    size_t n_config = config_pricing ? config_pricing->len : 0;
    size_t keys = models->len + n_config;
    for (uint32_t i = 0; i < models->len; i++) {
        const rp_json *aliases = rp_json_get(&models->v.members[i].value, "aliases");
        keys += rp_json_is_array(aliases) ? aliases->len : 0;
    }
    p->entries = rp_arena_alloc(a, (models->len + n_config + 1) * sizeof *p->entries);
    for (p->n_slots = 16; p->n_slots < keys * 2;)
        p->n_slots *= 2;
    p->slots = rp_arena_calloc(a, p->n_slots * sizeof *p->slots);
    if (load_shipped(p, a, models, err, err_size) != 0 ||
        load_overrides(p, a, config_pricing, err, err_size) != 0)
        return NULL;
    return p;
}

const rp_cost_pricing *rp_cost_pricing_once_get(rp_cost_pricing_once *o, char *err, size_t err_size)
{
    if (o->table == NULL) {
        o->table = rp_cost_pricing_build(&o->arena, o->config_pricing, err, err_size);
        if (o->table == NULL)
            rp_arena_reset(&o->arena); /* nothing half-built is kept */
    }
    return o->table;
}

void rp_cost_pricing_once_free(rp_cost_pricing_once *o)
{
    rp_arena_free(&o->arena);
    o->table = NULL;
}

const rp_cost_price *rp_cost_pricing_entries(const rp_cost_pricing *p, size_t *n)
{
    *n = p ? p->n : 0;
    return p ? p->entries : NULL;
}

const char *rp_cost_pricing_updated(const rp_cost_pricing *p)
{
    return p ? p->updated : NULL;
}

const char *rp_cost_pricing_note(const rp_cost_pricing *p)
{
    return p ? p->note : NULL;
}

/* ---- cost ---- */

/* USD per 1M tokens → integer µUSD per 1M tokens, clamped so that a hand-made rp_cost_price with a
 * NaN or an absurd number cannot make the conversion undefined. */
static int64_t micro_per_m(double usd)
{
    if (!(usd == usd))
        return 0;
    if (usd > RP_PRICE_MAX)
        usd = RP_PRICE_MAX;
    if (usd < -RP_PRICE_MAX)
        usd = -RP_PRICE_MAX;
    return llround(usd * 1e6);
}

int64_t rp_cost_price_cost_nusd(const rp_cost_price *pr, int64_t input_tokens,
                                int64_t output_tokens, int64_t cache_read_input_tokens,
                                int64_t cache_creation_input_tokens)
{
    if (!pr)
        return 0;
    const int64_t tokens[4] = {input_tokens, output_tokens, cache_read_input_tokens,
                               cache_creation_input_tokens};
    const int64_t price[4] = {micro_per_m(pr->input), micro_per_m(pr->output),
                              micro_per_m(pr->cache_read), micro_per_m(pr->cache_write)};
    int64_t pico = 0;         /* tokens × µUSD per 1M tokens = 1e-12 USD */
    long double approx = 0.0; /* the same sum, only to know the sign when it overflows */
    bool overflow = false;
    for (int i = 0; i < 4; i++) {
        int64_t term;
        approx += (long double)tokens[i] * (long double)price[i];
        if (__builtin_mul_overflow(tokens[i], price[i], &term) ||
            __builtin_add_overflow(pico, term, &pico))
            overflow = true;
    }
    if (overflow)
        return approx < 0 ? INT64_MIN : INT64_MAX;
    /* pico-dollars → nano-dollars, to nearest, halves away from zero. */
    int64_t q = pico / 1000, r = pico % 1000;
    if (r >= 500)
        q++;
    else if (r <= -500)
        q--;
    return q;
}
