/* pricing.h — model prices (USD per million tokens) and the cost of one usage record.
 *
 * The table is data/pricing.json, compiled into rampart (so a hook needs no file), overlaid by
 * the config's `pricing:` block (an entry there replaces or adds a model). A model id is looked
 * up lower-cased, exactly first, then through its common spellings, one decoration removed at a
 * time: a provider prefix (anything up to the last "/", "databricks-", "anthropic.", "us." and
 * the other Bedrock region prefixes), a version suffix ("-20251101", "-2025-08-07", "@20251101",
 * "-latest", "-v1:0", "[1m]"); a dot between two digits equals a dash ("claude-opus-4.5",
 * "gemini-2-5-pro"). Never by prefix: "claude-opus-4-5-foo" is unpriced. Cache reads and writes
 * default to 0.10× and 1.25× the input price when an entry gives none (reference §4.3). Pure:
 * the caller passes the parsed tables. */
#ifndef RAMPART_COST_PRICING_H
#define RAMPART_COST_PRICING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/json.h"

typedef struct rp_cost_price {
    const char *model;    /* the table's key */
    double input, output; /* USD per 1M tokens */
    double cache_read;    /* given, or 0.10 × input */
    double cache_write;   /* given, or 1.25 × input */
    const char *recorded; /* "YYYY-MM-DD" the price was recorded, NULL for config entries */
    const char *source;   /* URL of the public price list, or "config: FILE" */
    bool from_config;
    /* Added by the pricing work: */
    const char *note;       /* shipped entries: e.g. the long-prompt tier not recorded, or NULL */
    const rp_json *aliases; /* shipped entries: array of extra spellings, or NULL */
    bool replaced_shipped;  /* a config entry that replaced a shipped one of the same id */
} rp_cost_price;

typedef struct rp_cost_pricing rp_cost_pricing;

/* The compiled-in data/pricing.json text (NUL-terminated) and its length. */
const char *rp_cost_pricing_shipped_json(size_t *len);

/* Builds the table: the shipped entries, then `config_pricing` (cfg->pricing: an object of
 * model → {input, output, cache_read?, cache_write?}; NULL = none) over them. Everything lives
 * in `a`. Returns NULL with err set when the shipped file or an override is malformed (the
 * config loader validates overrides first, so that names the model). */
rp_cost_pricing *rp_cost_pricing_build(rp_arena *a, const rp_json *config_pricing, char *err,
                                       size_t err_size);

/* A table built on first use and then kept, so that a process parses the shipped file at most
 * once however many events it prices (a hook call reads the transcript and records the event's
 * own usage; `rampart eval` prices a stream). Zero-initialise it with the config's pricing
 * block in config_pricing; it owns its arena. */
typedef struct rp_cost_pricing_once {
    const rp_json *config_pricing; /* cfg->pricing, or NULL */
    rp_arena arena;                /* holds the table */
    rp_cost_pricing *table;        /* built, or NULL */
} rp_cost_pricing_once;

/* The table, built now when it is not yet. NULL with err set when it cannot be built (then
 * the next call tries again, and fails the same way). */
const rp_cost_pricing *rp_cost_pricing_once_get(rp_cost_pricing_once *o, char *err,
                                                size_t err_size);
void rp_cost_pricing_once_free(rp_cost_pricing_once *o);

/* Validates one config override entry. Returns 0, or -1 with *field (the offending key, or NULL
 * for the entry itself) and err set, e.g. "input must be a number >= 0". */
int rp_cost_price_entry_check(const rp_json *entry, const char **field, char *err, size_t err_size);
/* Validates one member of an override entry (so a loader can report every bad field): 0, or -1
 * with err set ("unknown price field (known: …)" or "must be a number >= 0 (USD per 1M
 * tokens)"). */
int rp_cost_price_field_check(const char *key, const rp_json *value, char *err, size_t err_size);

/* The price of `model`, or NULL when the table has none under any spelling (unpriced). */
const rp_cost_price *rp_cost_pricing_find(const rp_cost_pricing *p, const char *model);

/* Every entry in table order (shipped first, overrides after), for `rampart pricing`. A config
 * entry whose id (folded: lower case, dots between digits as dashes) equals a shipped one
 * replaces it in place instead, with replaced_shipped set. */
const rp_cost_price *rp_cost_pricing_entries(const rp_cost_pricing *p, size_t *n);
/* Metadata of the shipped file: its "updated" date and a note, may be NULL. */
const char *rp_cost_pricing_updated(const rp_cost_pricing *p);
const char *rp_cost_pricing_note(const rp_cost_pricing *p);

/* "YYYY-MM-DD" (a real calendar date, 1970 or later) → days since 1970-01-01 (days may be
 * NULL). Returns 0, or -1 when malformed. */
int rp_cost_pricing_date_days(const char *ymd, int64_t *days);

/* The cost of the given token counts at price `pr`, in nano-dollars, rounded to nearest. */
int64_t rp_cost_price_cost_nusd(const rp_cost_price *pr, int64_t input_tokens,
                                int64_t output_tokens, int64_t cache_read_input_tokens,
                                int64_t cache_creation_input_tokens);

#endif
