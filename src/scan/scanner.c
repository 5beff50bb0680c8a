/* scanner.c — the scanner core: one vectorscan pass, extractor dispatch, findings (scan.h).
 *
 * Vectorscan reports the end offset of every match of every rule's expression. The core hands
 * each such trigger to the rule's extractor (pii.c, secrets.c), which delimits and validates the
 * candidate and emits findings; the extractor's return value lets the core skip the further
 * triggers of a token it has already examined (a long digit run fires a card trigger at every
 * digit). After the pass the findings are sorted and overlaps resolved once. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hs.h>

#include "scan/normalize.h"
#include "scan/scan.h"
#include "scan/scan_cache.h"
#include "scan/scan_rules.h"

struct rp_scanner {
    rp_scan_options opt;
    char cache_dir[4096];
    const rp_scan_rule **rules; /* the enabled rules; an expression's id is its index here */
    size_t n_rules;
    hs_database_t *db; /* NULL when no rule is enabled */
    rp_scan_db_source source;
    /* One scratch for the common single-threaded case; a concurrent scan clones its own. */
    pthread_mutex_t scratch_lock;
    hs_scratch_t *scratch;
    hs_scratch_t *prototype; /* never scanned with: what concurrent scans clone */
};

/* The per-scan state behind rp_scan_job.core. */
typedef struct scan_core {
    const rp_scanner *scanner;
    size_t *skip_until; /* per rule: triggers ending at or before this are redundant */
    rp_scan_finding *findings;
    size_t n, cap;
    bool truncated;
} scan_core;

const char *rp_scan_default_cache_dir(char *buf, size_t size)
{
    const char *v;
    int k = -1;
    if ((v = getenv("RAMPART_CACHE_DIR")) != NULL && v[0] != '\0')
        k = snprintf(buf, size, "%s", v);
    else if ((v = getenv("XDG_CACHE_HOME")) != NULL && v[0] == '/')
        k = snprintf(buf, size, "%s/rampart", v);
    else if ((v = getenv("HOME")) != NULL && v[0] == '/')
        k = snprintf(buf, size, "%s/.cache/rampart", v);
    if (k < 0 || (size_t)k >= size)
        buf[0] = '\0';
    return buf;
}

static int fail(char *err, size_t err_size, const char *fmt, const char *a, const char *b)
{
    if (err != NULL && err_size > 0)
        snprintf(err, err_size, fmt, a, b);
    return -1;
}

static void collect_rules(rp_scanner *s, const rp_scan_rule *table, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (table[i].expression != NULL && (s->opt.types & RP_SCAN_BIT(table[i].type)))
            s->rules[s->n_rules++] = &table[i];
}

static int compile_db(rp_scanner *s, char *err, size_t err_size)
{
    const char **exprs = calloc(s->n_rules, sizeof *exprs);
    unsigned *flags = calloc(s->n_rules, sizeof *flags);
    unsigned *ids = calloc(s->n_rules, sizeof *ids);
    char key[RP_SCAN_CACHE_KEY_HEX];
    int rc = -1;

    if (exprs == NULL || flags == NULL || ids == NULL) {
        fail(err, err_size, "scanner: out of memory%s%s", "", "");
        goto done;
    }
    for (size_t i = 0; i < s->n_rules; i++) {
        exprs[i] = s->rules[i]->expression;
        flags[i] = s->rules[i]->flags;
        ids[i] = (unsigned)i;
    }
    rp_scan_cache_key(exprs, flags, s->n_rules, key);
    s->db = rp_scan_cache_load(s->cache_dir, key);
    if (s->db != NULL) {
        s->source = RP_SCAN_DB_CACHED;
        rc = 0;
        goto done;
    }
    hs_compile_error_t *cerr = NULL;
    if (hs_compile_multi(exprs, flags, ids, (unsigned)s->n_rules, HS_MODE_BLOCK, NULL, &s->db,
                         &cerr) != HS_SUCCESS) {
        const char *type = "";
        if (cerr != NULL && cerr->expression >= 0 && (size_t)cerr->expression < s->n_rules)
            type = rp_scan_type_name(s->rules[cerr->expression]->type);
        fail(err, err_size, "scanner: the %s pattern does not compile: %s", type,
             cerr != NULL ? cerr->message : "unknown error");
        hs_free_compile_error(cerr);
        s->db = NULL;
        goto done;
    }
    s->source = RP_SCAN_DB_COMPILED;
    rp_scan_cache_store(s->cache_dir, key, s->db);
    rc = 0;
done:
    free(exprs);
    free(flags);
    free(ids);
    return rc;
}

int rp_scanner_open(const rp_scan_options *opt, rp_scanner **out, char *err, size_t err_size)
{
    *out = NULL;
    rp_scanner *s = calloc(1, sizeof *s);
    if (s == NULL)
        return fail(err, err_size, "scanner: out of memory%s%s", "", "");
    s->opt = *opt;
    s->opt.types &= RP_SCAN_BIT(RP_SCAN_N_TYPES) - 1u;
    if (opt->cache_dir == NULL)
        rp_scan_default_cache_dir(s->cache_dir, sizeof s->cache_dir);
    else
        snprintf(s->cache_dir, sizeof s->cache_dir, "%s", opt->cache_dir);
    s->opt.cache_dir = s->cache_dir;
    pthread_mutex_init(&s->scratch_lock, NULL);

    s->rules = calloc(rp_scan_pii_rule_count + rp_scan_secret_rule_count + 1, sizeof *s->rules);
    if (s->rules == NULL) {
        rp_scanner_free(s);
        return fail(err, err_size, "scanner: out of memory%s%s", "", "");
    }
    collect_rules(s, rp_scan_pii_rules, rp_scan_pii_rule_count);
    collect_rules(s, rp_scan_secret_rules, rp_scan_secret_rule_count);
    if (s->n_rules > 0) {
        if (compile_db(s, err, err_size) != 0) {
            rp_scanner_free(s);
            return -1;
        }
        if (hs_alloc_scratch(s->db, &s->prototype) != HS_SUCCESS ||
            hs_clone_scratch(s->prototype, &s->scratch) != HS_SUCCESS) {
            rp_scanner_free(s);
            return fail(err, err_size, "scanner: cannot allocate scratch space%s%s", "", "");
        }
    }
    *out = s;
    return 0;
}

void rp_scanner_free(rp_scanner *s)
{
    if (s == NULL)
        return;
    hs_free_scratch(s->scratch);
    hs_free_scratch(s->prototype);
    hs_free_database(s->db);
    pthread_mutex_destroy(&s->scratch_lock);
    free(s->rules);
    free(s);
}

rp_scan_db_source rp_scanner_db_source(const rp_scanner *s)
{
    return s->source;
}

rp_scan_set rp_scanner_types(const rp_scanner *s)
{
    return s->opt.types;
}

void rp_scan_emit(rp_scan_job *job, rp_scan_type type, size_t start, size_t end, rp_mask_kind mask)
{
    scan_core *c = job->core;
    if (start >= end || end > job->len || !(c->scanner->opt.types & RP_SCAN_BIT(type)))
        return;
    /* Triggers come in end order, so a repeat of the same span is one of the last few. */
    for (size_t i = c->n; i > 0 && i + 8 > c->n; i--) {
        const rp_scan_finding *f = &c->findings[i - 1];
        if (f->type == type && f->start == start && f->end == end)
            return;
    }
    if (c->n == RP_SCAN_MAX_FINDINGS) {
        c->truncated = true;
        return;
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        c->findings = rp_arena_realloc(job->arena, c->findings, c->cap * sizeof *c->findings,
                                       cap * sizeof *c->findings);
        c->cap = cap;
    }
    rp_scan_finding *f = &c->findings[c->n++];
    f->type = type;
    f->start = start;
    f->end = end;
    rp_scan_mask(mask, job->text + start, end - start, f->preview);
}

static int on_match(unsigned id, unsigned long long from, unsigned long long to, unsigned flags,
                    void *ctx)
{
    (void)from;
    (void)flags;
    rp_scan_job *job = ctx;
    scan_core *c = job->core;
    size_t end = (size_t)to;
    if (end <= c->skip_until[id])
        return 0;
    size_t next = c->scanner->rules[id]->extract(job, end);
    c->skip_until[id] = next > end ? next : end;
    return c->truncated ? 1 : 0; /* stop the pass once the findings are full */
}

static int by_start(const void *pa, const void *pb)
{
    const rp_scan_finding *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end > b->end ? -1 : 1; /* the longer first: it contains the shorter */
    return (int)a->type - (int)b->type;
}

/* Sorts and resolves overlaps: after sorting by (start, longer first, type), a finding whose
 * end is within the furthest end kept so far is contained in an earlier finding and goes; a
 * finding that starts inside the last kept one of its own type overlaps it and goes. */
static void resolve(scan_core *c)
{
    size_t type_end[RP_SCAN_N_TYPES] = {0};
    size_t max_end = 0, kept = 0;
    if (c->n > 1) /* findings is NULL when there are none: qsort(NULL, 0) is undefined */
        qsort(c->findings, c->n, sizeof *c->findings, by_start);
    for (size_t i = 0; i < c->n; i++) {
        rp_scan_finding *f = &c->findings[i];
        if (kept > 0 && f->end <= max_end)
            continue;
        if (f->start < type_end[f->type])
            continue;
        type_end[f->type] = f->end;
        if (f->end > max_end)
            max_end = f->end;
        c->findings[kept++] = *f;
    }
    c->n = kept;
}

int rp_scanner_scan(const rp_scanner *s, rp_arena *a, const char *text, size_t n,
                    rp_scan_result *out)
{
    memset(out, 0, sizeof *out);
    if (s->db == NULL || n == 0)
        return 0;
    if (n > UINT_MAX)
        return -1; /* vectorscan takes an unsigned length; no event is this big */

    /* Unicode digits are scanned as ASCII ones and the spans mapped back (normalize.h). */
    rp_digit_fold fold;
    bool folded = rp_fold_unicode_digits(a, text, n, &fold);
    if (folded) {
        text = fold.text;
        n = fold.len;
    }

    scan_core core = {.scanner = s};
    core.skip_until = rp_arena_calloc(a, s->n_rules * sizeof *core.skip_until);
    rp_scan_job job = {.text = text, .len = n, .arena = a, .opt = &s->opt, .core = &core};

    /* The scanner is shared and read-only but a scratch is not: take the scanner's own when
     * it is free, else clone one for this scan. The const cast touches only the lock. */
    rp_scanner *ms = (rp_scanner *)s;
    hs_scratch_t *scratch = NULL;
    bool own = pthread_mutex_trylock(&ms->scratch_lock) == 0;
    if (own)
        scratch = ms->scratch;
    else if (hs_clone_scratch(s->prototype, &scratch) != HS_SUCCESS)
        return -1;
    hs_error_t rc = hs_scan(s->db, text, (unsigned)n, 0, scratch, on_match, &job);
    if (own)
        pthread_mutex_unlock(&ms->scratch_lock);
    else
        hs_free_scratch(scratch);
    if (rc != HS_SUCCESS && rc != HS_SCAN_TERMINATED)
        return -1;

    resolve(&core);
    if (folded) {
        for (size_t i = 0; i < core.n; i++) {
            core.findings[i].start = fold.origin[core.findings[i].start];
            core.findings[i].end = fold.origin[core.findings[i].end];
        }
    }
    out->findings = core.findings;
    out->n = core.n;
    out->truncated = core.truncated;
    return 0;
}

/* text with every finding's span replaced: by "[REDACTED:<type>]", or by the finding's masked
 * preview. Findings arrive sorted by start (rp_scanner_scan); overlaps merge as we go, into
 * the first one's marker. */
static char *rewrite(rp_arena *a, const char *text, size_t n, const rp_scan_finding *f,
                     size_t n_findings, bool preview, size_t *out_len)
{
    size_t cap = n + 1;
    for (size_t i = 0; i < n_findings; i++)
        cap += preview ? sizeof f[i].preview
                       : sizeof "[REDACTED:]" + strlen(rp_scan_type_name(f[i].type));
    char *out = rp_arena_alloc(a, cap);
    size_t k = 0, pos = 0, i = 0;
    while (i < n_findings) {
        size_t start = f[i].start, end = f[i].end;
        const rp_scan_finding *first = &f[i];
        if (start < pos)
            start = pos;
        for (i++; i < n_findings && f[i].start < end; i++)
            if (f[i].end > end)
                end = f[i].end;
        if (end > n)
            end = n;
        if (start >= end)
            continue;
        memcpy(out + k, text + pos, start - pos);
        k += start - pos;
        if (preview)
            k += (size_t)snprintf(out + k, cap - k, "%s", first->preview);
        else
            k +=
                (size_t)snprintf(out + k, cap - k, "[REDACTED:%s]", rp_scan_type_name(first->type));
        pos = end;
    }
    memcpy(out + k, text + pos, n - pos);
    k += n - pos;
    out[k] = '\0';
    if (out_len != NULL)
        *out_len = k;
    return out;
}

char *rp_scan_redact(rp_arena *a, const char *text, size_t n, const rp_scan_finding *f,
                     size_t n_findings, size_t *out_len)
{
    return rewrite(a, text, n, f, n_findings, false, out_len);
}

char *rp_scan_mask_text(rp_arena *a, const char *text, size_t n, const rp_scan_finding *f,
                        size_t n_findings, size_t *out_len)
{
    return rewrite(a, text, n, f, n_findings, true, out_len);
}
