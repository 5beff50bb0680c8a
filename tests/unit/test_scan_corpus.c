/* test_scan_corpus.c — precision and recall of the content scanner on the labelled corpus.
 *
 * Every case of the JSONL files in tests/data/scan/ (format: tests/data/scan/README.md) is scanned
 * by one scanner for every type; findings are matched to the case's labels and counted per type: a
 * finding of the label's type whose span overlaps the label's is a true positive (exact when the
 * spans are equal), any other finding a false positive, a label with no such finding a false
 * negative. The test prints the table and every miss, then holds the default types (ssn,
 * credit_card, email, phone and every secret type) to precision and recall >= 0.98 and the opt-in
 * ones to >= 0.90.
 *
 * Secret positives are assembled here at run time ({{type}} placeholders filled by
 * rp_gen_secret), so the committed corpus holds no secret-shaped string. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "scan/scan.h"
#include "scan_secret_gen.h"

static const char *const corpus_files[] = {"pii.jsonl", "secrets.jsonl", "negatives.jsonl"};

#define DEFAULT_SEEDS   8  /* expansions of a case with placeholders, unless it says "seeds" */
#define MAX_LABELS      16 /* per case */
#define MAX_SLOTS       16 /* distinct placeholders per case */
#define DEFAULT_TARGET  0.98
#define OPT_IN_TARGET   0.90
#define MIN_POSITIVES   300
#define MIN_NEGATIVES   300
#define MAX_DETAIL_LINE 120 /* characters of a case or a finding shown in a miss report */

/* ---- per-type counts ---- */

typedef struct type_stats {
    size_t positives, tp, exact, fp, fn;
} type_stats;

typedef struct corpus_stats {
    type_stats t[RP_SCAN_N_TYPES];
    size_t lines;          /* corpus lines read */
    size_t negative_lines; /* of which labelled with no findings */
    size_t scans;          /* expanded cases scanned */
    size_t labels;         /* positive labels over all scans */
    size_t errors;         /* corpus errors (bad JSON, a match not in the text, ...) */
    size_t scan_failures;  /* rp_scanner_scan returned -1 */
} corpus_stats;

typedef struct label {
    rp_scan_type type;
    size_t start, end;
} label;

/* One expanded case, ready to scan. */
typedef struct corpus_case {
    const char *file;
    int line;
    const char *text;
    size_t len;
    label labels[MAX_LABELS];
    size_t n_labels;
} corpus_case;

/* Writes s[0, n) to stdout on one line, escaped and cut to MAX_DETAIL_LINE characters: the
 * corpus is test data (no real personal data, generated secrets), so it may be shown. */
static void print_snippet(const char *s, size_t n)
{
    putchar('\'');
    size_t shown = 0;
    for (size_t i = 0; i < n && shown < MAX_DETAIL_LINE; i++, shown++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n')
            fputs("\\n", stdout);
        else if (c == '\t')
            fputs("\\t", stdout);
        else if (c < 0x20)
            printf("\\x%02x", c);
        else
            putchar(c);
    }
    if (n > MAX_DETAIL_LINE)
        fputs("...", stdout);
    putchar('\'');
}

static bool overlaps(size_t a0, size_t a1, size_t b0, size_t b1)
{
    return a0 < b1 && b0 < a1;
}

/* Matches the findings of one scan to the case's labels and adds to st. Each label takes the
 * first unused finding of its type that overlaps it. When verbose, every miss is printed. */
static void score_case(const corpus_case *c, const rp_scan_finding *f, size_t n_findings,
                       corpus_stats *st, bool verbose)
{
    bool used[RP_SCAN_MAX_FINDINGS] = {false};
    for (size_t i = 0; i < c->n_labels; i++) {
        const label *l = &c->labels[i];
        type_stats *ts = &st->t[l->type];
        ts->positives++;
        st->labels++;
        size_t hit = n_findings;
        for (size_t j = 0; j < n_findings && hit == n_findings; j++)
            if (!used[j] && f[j].type == l->type &&
                overlaps(l->start, l->end, f[j].start, f[j].end))
                hit = j;
        if (hit == n_findings) {
            ts->fn++;
            if (verbose) {
                printf("FN %-21s %s:%d expected ", rp_scan_type_name(l->type), c->file, c->line);
                print_snippet(c->text + l->start, l->end - l->start);
                fputs(" in ", stdout);
                print_snippet(c->text, c->len);
                putchar('\n');
            }
            continue;
        }
        used[hit] = true;
        ts->tp++;
        if (f[hit].start == l->start && f[hit].end == l->end) {
            ts->exact++;
        } else if (verbose) {
            printf("SPAN %-19s %s:%d expected ", rp_scan_type_name(l->type), c->file, c->line);
            print_snippet(c->text + l->start, l->end - l->start);
            fputs(" found ", stdout);
            print_snippet(c->text + f[hit].start, f[hit].end - f[hit].start);
            putchar('\n');
        }
    }
    for (size_t j = 0; j < n_findings; j++) {
        if (used[j])
            continue;
        st->t[f[j].type].fp++;
        if (verbose) {
            printf("FP %-21s %s:%d found ", rp_scan_type_name(f[j].type), c->file, c->line);
            print_snippet(c->text + f[j].start, f[j].end - f[j].start);
            fputs(" in ", stdout);
            print_snippet(c->text, c->len);
            putchar('\n');
        }
    }
}

/* ---- placeholders ---- */

/* A placeholder is {{name}}, {{name#k}} (a second, third ... value of that name in one case),
 * optionally followed by ~N (only the first N bytes: a truncated token) and by |json (the value
 * as the inside of a JSON string literal: a key file embedded in a tool call). name is a secret
 * type (the value comes from rp_gen_secret) or alnum:N, hex:N, b64:N, b64url:N, upper32:N
 * (N random characters of that alphabet, for negatives such as sk_test_ keys). Equal
 * name#k in one case means the same value. */
typedef struct slot {
    char key[48]; /* name#k */
    int type;     /* the secret type, or -1 for a random-characters slot */
    char *value;  /* from the arena */
    size_t len;
} slot;

typedef struct placeholder {
    char key[48];
    int type;
    const char *alphabet; /* random-characters slot */
    size_t count;         /* its length */
    size_t cut;           /* ~N, or SIZE_MAX */
    bool json;            /* |json */
} placeholder;

static const struct {
    const char *name;
    const char *alphabet;
} random_classes[] = {
    {"alnum", RP_GEN_ALNUM},   {"hex", RP_GEN_HEX},         {"b64", RP_GEN_B64},
    {"b64url", RP_GEN_B64URL}, {"upper32", RP_GEN_UPPER32},
};

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static size_t parse_number(const char *s, size_t n, size_t *i)
{
    size_t v = 0, start = *i;
    while (*i < n && s[*i] >= '0' && s[*i] <= '9' && v < 100000)
        v = v * 10 + (size_t)(s[(*i)++] - '0');
    return *i > start ? v : SIZE_MAX;
}

/* Parses the inside of {{...}} (s[0, n)). Returns 1 for a placeholder, 0 for text that is not
 * meant as one (it does not start with a name: "{{ .Values.x }}"), -1 for a malformed or
 * unknown one (a corpus error). */
static int parse_placeholder(const char *s, size_t n, placeholder *p)
{
    size_t i = 0;
    while (i < n && is_name_char(s[i]))
        i++;
    if (i == 0)
        return 0;
    char name[32];
    if (i >= sizeof name)
        return -1;
    memcpy(name, s, i);
    name[i] = '\0';
    memset(p, 0, sizeof *p);
    p->type = -1;
    p->cut = SIZE_MAX;
    if (i < n && s[i] == ':') {
        i++;
        for (size_t k = 0; k < sizeof random_classes / sizeof random_classes[0]; k++)
            if (strcmp(name, random_classes[k].name) == 0)
                p->alphabet = random_classes[k].alphabet;
        p->count = parse_number(s, n, &i);
        if (p->alphabet == NULL || p->count == SIZE_MAX || p->count == 0 ||
            p->count >= RP_GEN_SECRET_MAX)
            return -1;
    } else {
        int t = rp_scan_type_from_name(name);
        if (t < 0 || !rp_scan_type_is_secret((rp_scan_type)t))
            return -1;
        p->type = t;
    }
    size_t key_end = i;
    if (i < n && s[i] == '#') {
        i++;
        if (parse_number(s, n, &i) == SIZE_MAX)
            return -1;
        key_end = i;
    }
    if (key_end >= sizeof p->key)
        return -1;
    memcpy(p->key, s, key_end);
    p->key[key_end] = '\0';
    if (i < n && s[i] == '~') {
        i++;
        p->cut = parse_number(s, n, &i);
        if (p->cut == SIZE_MAX)
            return -1;
    }
    if (n - i == 5 && memcmp(s + i, "|json", 5) == 0) {
        p->json = true;
        i += 5;
    }
    return i == n ? 1 : -1;
}

typedef struct expansion {
    rp_arena *arena;
    uint64_t seed;
    slot slots[MAX_SLOTS];
    size_t n_slots;
    bool create; /* a new key makes a new slot (the text) or is an error (a label's match) */
} expansion;

static const slot *slot_for(expansion *x, const placeholder *p)
{
    for (size_t i = 0; i < x->n_slots; i++)
        if (strcmp(x->slots[i].key, p->key) == 0)
            return &x->slots[i];
    if (!x->create || x->n_slots == MAX_SLOTS)
        return NULL;
    slot *s = &x->slots[x->n_slots];
    snprintf(s->key, sizeof s->key, "%s", p->key);
    s->type = p->type;
    s->value = rp_arena_alloc(x->arena, RP_GEN_SECRET_MAX);
    if (p->type >= 0) {
        s->len = rp_gen_secret((rp_scan_type)p->type, &x->seed, s->value, RP_GEN_SECRET_MAX);
        if (s->len == 0)
            return NULL;
    } else {
        size_t m = strlen(p->alphabet);
        for (size_t i = 0; i < p->count; i++)
            s->value[i] = p->alphabet[rp_gen_below(&x->seed, m)];
        s->value[p->count] = '\0';
        s->len = p->count;
    }
    x->n_slots++;
    return s;
}

/* Expands every placeholder of s[0, n) into out. Returns false on a corpus error. When the
 * whole of s is one untruncated secret placeholder, *whole is its slot, else NULL. */
static bool expand(expansion *x, const char *s, size_t n, rp_buf *out, const slot **whole)
{
    *whole = NULL;
    rp_buf_reset(out);
    rp_buf_append(out, "", 0);
    size_t i = 0;
    while (i < n) {
        const char *open = n - i >= 2 ? strstr(s + i, "{{") : NULL;
        if (open == NULL || (size_t)(open - s) >= n) {
            rp_buf_append(out, s + i, n - i);
            break;
        }
        size_t at = (size_t)(open - s);
        const char *close = strstr(open + 2, "}}");
        placeholder p;
        int kind = close ? parse_placeholder(open + 2, (size_t)(close - open - 2), &p) : 0;
        if (kind < 0)
            return false;
        if (kind == 0) {
            rp_buf_append(out, s + i, at + 2 - i);
            i = at + 2;
            continue;
        }
        const slot *v = slot_for(x, &p);
        if (v == NULL)
            return false;
        rp_buf_append(out, s + i, at - i);
        size_t len = p.cut < v->len ? p.cut : v->len;
        if (p.json) {
            rp_buf quoted = {0};
            rp_json_write_string(&quoted, v->value, len); /* "...", without the quotes */
            rp_buf_append(out, quoted.data + 1, quoted.len - 2);
            rp_buf_free(&quoted);
        } else {
            rp_buf_append(out, v->value, len);
        }
        i = (size_t)(close - s) + 2;
        if (at == 0 && i == n && p.type >= 0 && p.cut == SIZE_MAX && !p.json)
            *whole = v;
    }
    return true;
}

static bool has_placeholder(const char *s, size_t n)
{
    for (const char *open = strstr(s, "{{"); open; open = strstr(open + 2, "{{")) {
        const char *close = strstr(open + 2, "}}");
        placeholder p;
        if (close && (size_t)(close - s) < n &&
            parse_placeholder(open + 2, (size_t)(close - open - 2), &p) != 0)
            return true;
    }
    return false;
}

/* ---- corpus ---- */

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    rp_buf b = {0};
    char chunk[8192];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        rp_buf_append(&b, chunk, got);
    fclose(f);
    rp_buf_append(&b, "", 0);
    *len = b.len;
    return rp_buf_take(&b);
}

static void corpus_error(corpus_stats *st, const char *file, int line, const char *what)
{
    st->errors++;
    printf("CORPUS ERROR %s:%d: %s\n", file, line, what);
}

/* The nth (1-based) occurrence of needle in text, or SIZE_MAX. */
static size_t find_nth(const char *text, size_t len, const char *needle, size_t nlen, size_t nth)
{
    if (nlen == 0 || nlen > len)
        return SIZE_MAX;
    for (size_t i = 0; i + nlen <= len; i++)
        if (memcmp(text + i, needle, nlen) == 0 && --nth == 0)
            return i;
    return SIZE_MAX;
}

/* Resolves the labels of one expansion of a case into c; false on a corpus error. */
static bool resolve_labels(expansion *x, const rp_json *findings, corpus_case *c, corpus_stats *st)
{
    rp_buf match = {0};
    bool ok = true;
    x->create = false;
    for (uint32_t i = 0; ok && i < findings->len; i++) {
        const rp_json *f = rp_json_at(findings, i);
        const char *type_name = rp_json_get_str(f, "type");
        const rp_json *m = rp_json_get(f, "match");
        const rp_json *nth_v = rp_json_get(f, "nth");
        int type = rp_scan_type_from_name(type_name);
        double nth = 1;
        if (type < 0 || !rp_json_is_string(m) || m->len == 0 ||
            (nth_v && (!rp_json_number(nth_v, &nth) || nth < 1)) || c->n_labels == MAX_LABELS) {
            corpus_error(st, c->file, c->line, "a finding needs a known type and a match");
            ok = false;
            break;
        }
        const slot *whole;
        if (!expand(x, m->v.s, m->len, &match, &whole)) {
            corpus_error(st, c->file, c->line, "the match names a placeholder the text has not");
            ok = false;
            break;
        }
        size_t at = find_nth(c->text, c->len, match.data, match.len, (size_t)nth);
        if (at == SIZE_MAX) {
            corpus_error(st, c->file, c->line, "the match is not in the text");
            ok = false;
            break;
        }
        label *l = &c->labels[c->n_labels++];
        l->type = (rp_scan_type)type;
        l->start = at;
        l->end = at + match.len;
        if (whole && whole->type == type) { /* a url_password's finding is its password */
            size_t s0, s1;
            rp_gen_secret_span((rp_scan_type)type, whole->value, whole->len, &s0, &s1);
            l->start = at + s0;
            l->end = at + s1;
        }
    }
    rp_buf_free(&match);
    return ok;
}

/* FNV-1a: a stable seed per corpus line, so a failure reproduces. */
static uint64_t line_seed(const char *file, int line)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *p = file; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    return (h ^ (uint64_t)line) * 1099511628211ull;
}

static void run_line(const rp_scanner *scanner, const char *file, int line_no, const char *line,
                     size_t len, corpus_stats *st, bool verbose)
{
    rp_arena a = {0};
    rp_json_error err;
    rp_json *doc = rp_json_parse(&a, line, len, &err);
    const rp_json *text = rp_json_get(doc, "text");
    const rp_json *findings = rp_json_get(doc, "findings");
    const rp_json *seeds_v = rp_json_get(doc, "seeds");
    double seeds = DEFAULT_SEEDS;
    if (!rp_json_is_string(text) || !rp_json_is_array(findings) ||
        (seeds_v && (!rp_json_number(seeds_v, &seeds) || seeds < 1))) {
        corpus_error(st, file, line_no, doc ? "needs \"text\" and \"findings\"" : err.msg);
        rp_arena_free(&a);
        return;
    }
    st->lines++;
    if (findings->len == 0)
        st->negative_lines++;
    size_t runs = has_placeholder(text->v.s, text->len) ? (size_t)seeds : 1;
    rp_buf expanded = {0};
    rp_arena scan_arena = {0};
    for (size_t k = 0; k < runs; k++) {
        expansion x = {.arena = &a, .seed = line_seed(file, line_no) + k, .create = true};
        const slot *whole;
        if (!expand(&x, text->v.s, text->len, &expanded, &whole)) {
            corpus_error(st, file, line_no, "bad placeholder in the text");
            break;
        }
        corpus_case c = {.file = file, .line = line_no, .text = expanded.data, .len = expanded.len};
        if (!resolve_labels(&x, findings, &c, st))
            break;
        rp_scan_result r;
        rp_arena_reset(&scan_arena);
        if (rp_scanner_scan(scanner, &scan_arena, c.text, c.len, &r) != 0) {
            st->scan_failures++;
            continue;
        }
        st->scans++;
        score_case(&c, r.findings, r.n, st, verbose);
    }
    rp_arena_free(&scan_arena);
    rp_buf_free(&expanded);
    rp_arena_free(&a);
}

static void run_file(const rp_scanner *scanner, const char *dir, const char *name, corpus_stats *st)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/scan/%s", dir, name);
    size_t len;
    char *data = read_file(path, &len);
    if (data == NULL) {
        corpus_error(st, name, 0, "cannot read the file");
        return;
    }
    int line_no = 0;
    for (char *p = data; p < data + len;) {
        char *nl = memchr(p, '\n', (size_t)(data + len - p));
        char *end = nl ? nl : data + len;
        line_no++;
        if (end > p) /* blank lines are allowed */
            run_line(scanner, name, line_no, p, (size_t)(end - p), st, true);
        p = end + 1;
    }
    free(data);
}

static bool is_opt_in(rp_scan_type t)
{
    return t == RP_SCAN_IBAN || t == RP_SCAN_IP_ADDRESS || t == RP_SCAN_PASSPORT_US ||
           t == RP_SCAN_DATE_OF_BIRTH;
}

static double precision_of(const type_stats *ts)
{
    return ts->tp + ts->fp ? (double)ts->tp / (double)(ts->tp + ts->fp) : 0.0;
}

static double recall_of(const type_stats *ts)
{
    return ts->positives ? (double)ts->tp / (double)ts->positives : 0.0;
}

static void print_table(const corpus_stats *st)
{
    printf("\n%-22s %9s %6s %6s %5s %5s %9s %7s %6s\n", "type", "positives", "TP", "exact", "FP",
           "FN", "precision", "recall", "target");
    type_stats all = {0};
    for (int t = 0; t < RP_SCAN_N_TYPES; t++) {
        const type_stats *ts = &st->t[t];
        printf("%-22s %9zu %6zu %6zu %5zu %5zu %9.3f %7.3f %6.2f\n",
               rp_scan_type_name((rp_scan_type)t), ts->positives, ts->tp, ts->exact, ts->fp, ts->fn,
               precision_of(ts), recall_of(ts),
               is_opt_in((rp_scan_type)t) ? OPT_IN_TARGET : DEFAULT_TARGET);
        all.positives += ts->positives;
        all.tp += ts->tp;
        all.exact += ts->exact;
        all.fp += ts->fp;
        all.fn += ts->fn;
    }
    printf("%-22s %9zu %6zu %6zu %5zu %5zu %9.3f %7.3f\n", "all", all.positives, all.tp, all.exact,
           all.fp, all.fn, precision_of(&all), recall_of(&all));
    printf("corpus: %zu lines, %zu scans, %zu positive labels, %zu negative lines, "
           "%zu errors\n\n",
           st->lines, st->scans, st->labels, st->negative_lines, st->errors);
}

/* ---- the tests ---- */

static corpus_stats corpus;

static int run_corpus(void **state)
{
    (void)state;
    const char *dir = getenv("RAMPART_SOURCE_DIR");
    if (dir == NULL)
        dir = RAMPART_SOURCE_DIR;
    rp_scan_options opt = {
        .types = RP_SCAN_BIT(RP_SCAN_N_TYPES) - 1u, .ip_include_private = false, .cache_dir = ""};
    rp_scanner *scanner = NULL;
    char err[256];
    if (rp_scanner_open(&opt, &scanner, err, sizeof err) != 0) {
        printf("rp_scanner_open: %s\n", err);
        return -1;
    }
    memset(&corpus, 0, sizeof corpus);
    for (size_t i = 0; i < sizeof corpus_files / sizeof corpus_files[0]; i++)
        run_file(scanner, dir, corpus_files[i], &corpus);
    rp_scanner_free(scanner);
    print_table(&corpus);
    return 0;
}

static void test_corpus_is_well_formed_and_large_enough(void **state)
{
    (void)state;
    assert_int_equal(corpus.errors, 0);
    assert_int_equal(corpus.scan_failures, 0);
    assert_true(corpus.labels >= MIN_POSITIVES);
    assert_true(corpus.negative_lines >= MIN_NEGATIVES);
    for (int t = 0; t < RP_SCAN_N_TYPES; t++)
        if (corpus.t[t].positives == 0)
            fail_msg("no positives of type %s", rp_scan_type_name((rp_scan_type)t));
}

static void check_targets(bool opt_in)
{
    int failed = 0;
    for (int t = 0; t < RP_SCAN_N_TYPES; t++) {
        if (is_opt_in((rp_scan_type)t) != opt_in)
            continue;
        const type_stats *ts = &corpus.t[t];
        double target = opt_in ? OPT_IN_TARGET : DEFAULT_TARGET;
        double p = precision_of(ts), r = recall_of(ts);
        if (ts->positives == 0 || p < target || r < target) {
            printf("below target %.2f: %s (precision %.3f, recall %.3f, %zu positives)\n", target,
                   rp_scan_type_name((rp_scan_type)t), p, r, ts->positives);
            failed++;
        }
    }
    assert_int_equal(failed, 0);
}

static void test_default_types_meet_targets(void **state)
{
    (void)state;
    check_targets(false);
}

static void test_opt_in_types_meet_targets(void **state)
{
    (void)state;
    check_targets(true);
}

/* The counting itself, on made-up findings: overlap is a hit, an exact span is counted apart,
 * a finding of another type or a second finding for one label is a false positive. */
static void test_scoring_counts_overlaps_and_misses(void **state)
{
    (void)state;
    const char *text = "mail a@b.example or call (415) 555-0132, ssn 536-22-1234";
    corpus_case c = {.file = "inline", .line = 1, .text = text, .len = strlen(text)};
    c.labels[c.n_labels++] = (label){RP_SCAN_EMAIL, 5, 16};
    c.labels[c.n_labels++] = (label){RP_SCAN_PHONE, 25, 39};
    c.labels[c.n_labels++] = (label){RP_SCAN_SSN, 45, 56};
    rp_scan_finding f[4] = {0};
    f[0] = (rp_scan_finding){.type = RP_SCAN_EMAIL, .start = 5, .end = 16};
    f[1] = (rp_scan_finding){.type = RP_SCAN_PHONE, .start = 26, .end = 39}; /* no "(" */
    f[2] = (rp_scan_finding){.type = RP_SCAN_PHONE, .start = 30, .end = 39}; /* a second one */
    f[3] = (rp_scan_finding){.type = RP_SCAN_CREDIT_CARD, .start = 45, .end = 56};
    corpus_stats st = {0};
    score_case(&c, f, 4, &st, false);
    assert_int_equal(st.labels, 3);
    assert_int_equal(st.t[RP_SCAN_EMAIL].tp, 1);
    assert_int_equal(st.t[RP_SCAN_EMAIL].exact, 1);
    assert_int_equal(st.t[RP_SCAN_PHONE].tp, 1);
    assert_int_equal(st.t[RP_SCAN_PHONE].exact, 0);
    assert_int_equal(st.t[RP_SCAN_PHONE].fp, 1);
    assert_int_equal(st.t[RP_SCAN_SSN].fn, 1);
    assert_int_equal(st.t[RP_SCAN_CREDIT_CARD].fp, 1);
    assert_int_equal(st.t[RP_SCAN_CREDIT_CARD].positives, 0);
}

/* Placeholders: one value per name in a case, #k for another, ~N truncates, text that only
 * looks like one stays, an unknown name is an error; a url_password label is its password. */
static void test_placeholders_expand_and_labels_resolve(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_buf out = {0};
    const slot *whole;
    expansion x = {.arena = &a, .seed = 42, .create = true};
    const char *t = "a={{github_token}} b={{github_token}} c={{github_token#2}} "
                    "d={{github_token~6}} e={{ .Values.x }} f={{hex:8}}";
    assert_true(expand(&x, t, strlen(t), &out, &whole));
    assert_null(whole);
    assert_int_equal(x.n_slots, 3);
    const slot *tok = &x.slots[0];
    assert_non_null(strstr(out.data, "{{ .Values.x }}"));
    assert_int_equal(find_nth(out.data, out.len, tok->value, tok->len, 2) != SIZE_MAX, 1);
    assert_int_equal(find_nth(out.data, out.len, tok->value, tok->len, 3), SIZE_MAX);
    assert_string_not_equal(x.slots[1].value, tok->value);
    assert_true(rp_scan_github_token(tok->value, tok->len));
    char head[16];
    snprintf(head, sizeof head, "d=%.6s ", tok->value);
    assert_non_null(strstr(out.data, head));
    assert_false(expand(&x, "{{no_such_type}}", 16, &out, &whole));
    const char *pem = "k={{private_key|json}}";
    assert_true(expand(&x, pem, strlen(pem), &out, &whole));
    assert_null(strchr(out.data, '\n'));
    assert_non_null(strstr(out.data, "KEY-----\\n"));
    assert_false(has_placeholder("{{ .Values.x }}", 15));

    const char *line = "{\"text\": \"DATABASE_URL={{url_password}}\", \"findings\": "
                       "[{\"type\": \"url_password\", \"match\": \"{{url_password}}\"}]}";
    rp_json_error err;
    rp_json *doc = rp_json_parse(&a, line, strlen(line), &err);
    assert_non_null(doc);
    const rp_json *text = rp_json_get(doc, "text");
    expansion y = {.arena = &a, .seed = 7, .create = true};
    assert_true(expand(&y, text->v.s, text->len, &out, &whole));
    corpus_case c = {.file = "inline", .line = 1, .text = out.data, .len = out.len};
    corpus_stats st = {0};
    assert_true(resolve_labels(&y, rp_json_get(doc, "findings"), &c, &st));
    assert_int_equal(c.n_labels, 1);
    assert_int_equal(c.text[c.labels[0].start - 1], ':');
    assert_int_equal(c.text[c.labels[0].end], '@');
    rp_buf_free(&out);
    rp_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest unit[] = {
        cmocka_unit_test(test_scoring_counts_overlaps_and_misses),
        cmocka_unit_test(test_placeholders_expand_and_labels_resolve),
    };
    const struct CMUnitTest corpus_tests[] = {
        cmocka_unit_test(test_corpus_is_well_formed_and_large_enough),
        cmocka_unit_test(test_default_types_meet_targets),
        cmocka_unit_test(test_opt_in_types_meet_targets),
    };
    int failed = cmocka_run_group_tests_name("scan_corpus_counting", unit, NULL, NULL);
    failed += cmocka_run_group_tests_name("scan_corpus", corpus_tests, run_corpus, NULL);
    return failed;
}
