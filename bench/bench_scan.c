/* bench_scan.c — content-scanning throughput and database load cost (issue 7's targets: the
 * default PII set at >= 300 MB/s, where the reference's four Python regexes manage ~27 MB/s;
 * a fresh hook process loads the cached database in well under 1 ms).
 *
 * Usage: bench_scan [SECONDS_PER_FIGURE] [PROCESSES]     defaults 0.3 and 50
 *        bench_scan --load-once DIR TYPESET              (internal: a child of part 2)
 *
 * Part 1, throughput. Four generated texts: a 2 KB LLM prompt (prose with numbers, a code
 * block, a log excerpt, a JSON snippet, a table of ids, dates and versions) and a 200 KB text
 * made the same way, each clean and with a few findings (an e-mail and a phone). Engines:
 * rampart's scanner with the default PII set, every secret type, and every type; and the
 * reference's four regexes (omnigent-policies.md §5.7, verbatim) on PCRE2 in this program, JIT
 * and interpreted, both the way the reference runs them (category by category in its fixed
 * order, the first match ends the scan) and finding every match. Python's `\d`, `\s` and `\b`
 * are Unicode-aware, hence PCRE2_UTF | PCRE2_UCP. Each figure is the median over batches of
 * thread CPU time (so that time spent descheduled on a busy machine does not count), the
 * batches of all figures interleaved, SECONDS_PER_FIGURE in all per figure.
 *
 * Part 2, loading. For each of the three type sets the database is compiled once into a fresh
 * cache directory, then PROCESSES fresh processes (this program re-executed) each time
 * rp_scanner_open with clock_gettime and print it; the parent checks that every child loaded
 * from the cache and reports median and p95, next to the compile time without a cache. The
 * cache directory is temporary and removed at exit. */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <dirent.h>
#include <errno.h>
#include <pcre2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/arena.h"
#include "core/buf.h"
#include "scan/scan.h"

#define TEXT_SMALL   2048u
#define TEXT_LARGE   (200u * 1024u)
#define TEXT_HOSTILE (1024u * 1024u)
#define MAX_SAMPLES  2000
#define COMPILE_RUNS 5

/* ---- timing and statistics ---- */

static double wall_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* The thread's CPU time: around whole batches only. */
static double cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Nearest rank, on a sorted array. */
static double percentile(const double *sorted, size_t n, double p)
{
    size_t rank = (size_t)(p / 100.0 * (double)n + 0.999999);
    return sorted[rank == 0 ? 0 : rank - 1];
}

static void die(const char *what)
{
    fprintf(stderr, "bench_scan: %s\n", what);
    exit(1);
}

/* ---- deterministic text generation ---- */

static uint64_t rng_state;

static uint64_t rng_next(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int rnd(int lo, int hi) /* inclusive */
{
    return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}

static const char *pick(const char *const *words, size_t n)
{
    return words[rng_next() % n];
}
#define PICK(arr) pick(arr, sizeof arr / sizeof arr[0])

static const char *const services[] = {"billing", "checkout",   "search",
                                       "ingest",  "auth-proxy", "reporting"};
static const char *const months[] = {"March", "June", "September", "October", "November"};
static const char *const components[] = {"billing", "api", "worker", "scheduler", "ui", "db"};
static const char *const statuses[] = {"open", "triaged", "blocked", "fixed", "wontfix"};
static const char *const levels[] = {"INFO", "INFO", "INFO", "WARN", "ERROR", "DEBUG"};

static void hex(rp_buf *b, int n)
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < n; i++)
        rp_buf_putc(b, digits[rng_next() & 15]);
}

static void prose(rp_buf *b, int sentences)
{
    for (int i = 0; i < sentences; i++) {
        switch (rnd(0, 8)) {
        case 0:
            rp_buf_printf(b,
                          "I'm looking at the %s service (v%d.%d.%d) and the nightly job "
                          "failed again around %02d:%02d UTC. ",
                          PICK(services), rnd(1, 4), rnd(0, 20), rnd(0, 9), rnd(0, 23), rnd(0, 59));
            break;
        case 1:
            rp_buf_printf(b,
                          "We processed %d,%03d records out of %d,%03d before it stopped; the "
                          "retry budget is %d attempts with a %d ms backoff. ",
                          rnd(10, 99), rnd(0, 999), rnd(100, 200), rnd(0, 999), rnd(2, 6),
                          rnd(50, 500));
            break;
        case 2:
            rp_buf_printf(b,
                          "Memory peaked at %d.%d GB on the %d-core runner, about %d%% more "
                          "than last week. ",
                          rnd(2, 31), rnd(0, 9), rnd(2, 64), rnd(5, 80));
            break;
        case 3:
            rp_buf_printf(b,
                          "Can you explain why the p95 latency went from %d ms to %d ms after "
                          "the upgrade to Postgres %d.%d? ",
                          rnd(20, 90), rnd(100, 900), rnd(13, 17), rnd(0, 9));
            break;
        case 4:
            rp_buf_printf(b,
                          "The ticket is TKT-%d, opened on %s %d; the customer says it started "
                          "after release %d.%d.%d. ",
                          rnd(1000, 99999), PICK(months), rnd(1, 28), rnd(1, 9), rnd(0, 30),
                          rnd(0, 12));
            break;
        case 5:
            rp_buf_puts(b, "Here is the relevant part of the code, the log and the config "
                           "\xe2\x80\x94 please keep the answer short and suggest a fix. ");
            break;
        case 6:
            rp_buf_printf(b,
                          "Our SLA is %d.%d%% per month, so we can afford roughly %d minutes "
                          "of downtime. ",
                          rnd(99, 99), rnd(1, 9), rnd(4, 40));
            break;
        case 7:
            rp_buf_printf(b,
                          "The caf\xc3\xa9 team in Z\xc3\xbcrich sees the same error on build "
                          "%d, but only for orders above %d EUR. ",
                          rnd(1000, 9999), rnd(50, 900));
            break;
        default:
            rp_buf_printf(b,
                          "Disk usage on the database host is at %d%% (%d GB of %d GB) and "
                          "the WAL is %d MB. ",
                          rnd(40, 95), rnd(100, 900), rnd(1000, 2000), rnd(16, 900));
            break;
        }
    }
    rp_buf_puts(b, "\n\n");
}

static void code_block(rp_buf *b)
{
    switch (rnd(0, 2)) {
    case 0:
        rp_buf_printf(b,
                      "```python\n"
                      "def retry(fn, attempts=%d, backoff_ms=%d):\n"
                      "    for i in range(attempts):\n"
                      "        try:\n"
                      "            return fn()\n"
                      "        except TimeoutError as exc:\n"
                      "            log.warning(\"attempt %%d of %%d failed: %%s\", i + 1, "
                      "attempts, exc)\n"
                      "            time.sleep(backoff_ms * (2 ** i) / 1000)\n"
                      "    raise RuntimeError(\"gave up after %%d attempts\" %% attempts)\n"
                      "```\n\n",
                      rnd(2, 8), rnd(100, 900));
        break;
    case 1:
        rp_buf_printf(b,
                      "```c\n"
                      "static int parse_header(const char *buf, size_t n, struct hdr *out)\n"
                      "{\n"
                      "    if (n < %d)\n"
                      "        return -1;\n"
                      "    out->version = (uint8_t)buf[0];\n"
                      "    out->length = (uint32_t)(uint8_t)buf[1] << 8 | (uint8_t)buf[2];\n"
                      "    return out->length > %d ? -1 : 0;\n"
                      "}\n"
                      "```\n\n",
                      rnd(3, 16), rnd(1024, 65535));
        break;
    default:
        rp_buf_printf(b,
                      "```sh\n"
                      "export BILLING_API_KEY=${BILLING_API_KEY:?set it first}\n"
                      "curl -sS -H \"Authorization: Bearer $TOKEN\" \\\n"
                      "  \"https://api.internal.example/v%d/invoices?limit=%d&page=%d\" | jq "
                      "'.items | length'\n"
                      "kubectl -n %s rollout restart deploy/%s-worker --timeout=%ds\n"
                      "```\n\n",
                      rnd(1, 3), rnd(50, 500), rnd(1, 40), PICK(services), PICK(services),
                      rnd(30, 600));
        break;
    }
}

static void log_excerpt(rp_buf *b)
{
    int lines = rnd(5, 7), day = rnd(1, 28), hour = rnd(0, 23), minute = rnd(0, 58);
    rp_buf_puts(b, "```\n");
    for (int i = 0; i < lines; i++) {
        rp_buf_printf(b, "2026-11-%02dT%02d:%02d:%02d.%03dZ %-5s ", day, hour, minute, rnd(0, 59),
                      rnd(0, 999), PICK(levels));
        switch (rnd(0, 3)) {
        case 0:
            rp_buf_printf(b, "worker-%d job=invoice-sync batch=%d rows=%d took=%dms\n", rnd(1, 8),
                          rnd(1, 400), rnd(1, 512), rnd(3, 2000));
            break;
        case 1:
            rp_buf_printf(b, "db: connection reset by peer (10.0.%d.%d:5432), retrying in %d ms\n",
                          rnd(0, 9), rnd(2, 250), rnd(100, 800));
            break;
        case 2:
            rp_buf_printf(b, "http: GET /api/v2/orders/%d 200 %dms request_id=", rnd(10000, 999999),
                          rnd(1, 400));
            hex(b, 8);
            rp_buf_putc(b, '-');
            hex(b, 4);
            rp_buf_puts(b, "-4");
            hex(b, 3);
            rp_buf_putc(b, '-');
            hex(b, 4);
            rp_buf_putc(b, '-');
            hex(b, 12);
            rp_buf_putc(b, '\n');
            break;
        default:
            rp_buf_printf(b, "cache: hit ratio %d.%02d, %d keys, evicted %d\n", rnd(0, 0),
                          rnd(50, 99), rnd(1000, 90000), rnd(0, 500));
            break;
        }
    }
    rp_buf_puts(b, "```\n\n");
}

static void json_snippet(rp_buf *b)
{
    rp_buf_printf(b,
                  "```json\n{\n"
                  "  \"order_id\": \"ORD-2026-%06d\",\n"
                  "  \"status\": \"failed\",\n"
                  "  \"amount\": %d.%02d,\n"
                  "  \"currency\": \"EUR\",\n"
                  "  \"items\": %d,\n"
                  "  \"created_at\": \"2026-11-%02dT%02d:%02d:%02dZ\",\n"
                  "  \"trace_id\": \"",
                  rnd(0, 999999), rnd(1, 999), rnd(0, 99), rnd(1, 20), rnd(1, 28), rnd(0, 23),
                  rnd(0, 59), rnd(0, 59));
    hex(b, 32);
    rp_buf_printf(b,
                  "\",\n"
                  "  \"retries\": %d,\n"
                  "  \"region\": \"eu-west-%d\",\n"
                  "  \"api_key\": \"<your-key>\"\n"
                  "}\n```\n\n",
                  rnd(0, 5), rnd(1, 3));
}

static void table(rp_buf *b)
{
    rp_buf_puts(b, "| ticket | opened | version | component | status |\n"
                   "|---|---|---|---|---|\n");
    int rows = rnd(4, 6);
    for (int i = 0; i < rows; i++)
        rp_buf_printf(b, "| TKT-%05d | 2026-%02d-%02d | %d.%d.%d | %s | %s |\n", rnd(0, 99999),
                      rnd(1, 11), rnd(1, 28), rnd(1, 9), rnd(0, 30), rnd(0, 12), PICK(components),
                      PICK(statuses));
    rp_buf_puts(b, "\n");
}

/* The findings variant's only difference: one e-mail and one phone number. */
static const char findings_sentence[] =
    "The customer who reported it, maria.keller@example.org, asked us to call back on "
    "+1 415-555-0132 before Friday. ";

/* One prompt-shaped section of about 2 KB. */
static void prompt_chunk(rp_buf *b, bool with_findings)
{
    prose(b, 3);
    code_block(b);
    if (with_findings)
        rp_buf_puts(b, findings_sentence);
    prose(b, 2);
    log_excerpt(b);
    json_snippet(b);
    table(b);
    prose(b, 2);
}

/* Cuts b to exactly `size` bytes at a whitespace boundary (never inside a UTF-8 sequence or a
 * token) and pads with spaces and a final newline. */
static void fit(rp_buf *b, size_t size)
{
    if (b->len < size)
        die("generated text too short");
    size_t cut = size - 1;
    while (cut > 0 && b->data[cut - 1] != ' ' && b->data[cut - 1] != '\n')
        cut--;
    memset(b->data + cut, ' ', size - 1 - cut);
    b->data[size - 1] = '\n';
    b->len = size;
    b->data[size] = '\0';
}

/* A seed under which the clean texts are clean for the reference too, so that its four searches
 * run to the end: about every other seed gives a 200 KB text where a request id such as
 * 09964885-dc5d-… is a "phone" to it. */
#define TEXT_SEED 20261205u

/* The same seed for the clean and the findings variant: they differ only by the inserted
 * sentences. The large text is ~100 chunks; four of them (at 1/8, 3/8, 5/8, 7/8) carry the
 * sentence, so that a first-match search still has to walk into the text. */
static char *make_text(size_t size, bool with_findings, size_t *len)
{
    rp_buf b = {0};
    rng_state = TEXT_SEED;
    if (size <= 4096) {
        prompt_chunk(&b, with_findings);
        while (b.len < size)
            prose(&b, 1);
    } else {
        size_t chunks = 0; /* how many the clean text needs */
        while (b.len < size) {
            prompt_chunk(&b, false);
            chunks++;
        }
        rp_buf_reset(&b);
        rng_state = TEXT_SEED;
        for (size_t i = 0; b.len < size; i++)
            prompt_chunk(&b, with_findings && i % (chunks / 4) == chunks / 8);
    }
    fit(&b, size);
    *len = b.len;
    return rp_buf_take(&b);
}

/* ---- engines ---- */

typedef struct engine engine;
struct engine {
    const char *name;
    /* Scans text[0, n) once; returns the number of findings (matches). */
    size_t (*scan)(engine *e, const char *text, size_t n);
    /* rampart */
    rp_scanner *scanner;
    rp_arena arena;
    /* the reference on PCRE2 */
    pcre2_code **codes;
    pcre2_match_data **match;
    uint32_t match_flags; /* 0 (JIT) or PCRE2_NO_JIT */
    bool find_all;
    int first_category; /* first-match mode: the category that matched, -1 for none */
};

static size_t scan_rampart(engine *e, const char *text, size_t n)
{
    rp_scan_result r;
    if (rp_scanner_scan(e->scanner, &e->arena, text, n, &r) != 0)
        die("rp_scanner_scan failed");
    rp_arena_reset(&e->arena);
    return r.n;
}

/* omnigent-policies.md §5.7, in the reference's fixed scan order. The phone category's three
 * alternatives are one pattern. */
enum { N_CATEGORIES = 4 };
static const char *const category_names[N_CATEGORIES] = {"ssn", "credit_card", "email", "phone"};
static const char *const reference_patterns[N_CATEGORIES] = {
    "\\b\\d{3}-\\d{2}-\\d{4}\\b",
    "\\b(?:\\d[ -]*?){13,19}\\b",
    "\\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Z|a-z]{2,}\\b",
    "\\+\\d{1,3}[-.\\s]?\\(?\\d{1,4}\\)?[-.\\s]?\\d{1,4}[-.\\s]?\\d{1,9}\\b"
    "|\\b\\(?\\d{3}\\)?[-.\\s]\\d{3}[-.\\s]\\d{4}\\b"
    "|\\b0\\d{1,4}[-.\\s]?\\d{2,4}[-.\\s]?\\d{3,4}\\b",
};
static pcre2_code *reference_codes[N_CATEGORIES];

static void compile_reference(void)
{
    for (int c = 0; c < N_CATEGORIES; c++) {
        int code;
        PCRE2_SIZE offset;
        reference_codes[c] = pcre2_compile((PCRE2_SPTR)reference_patterns[c], PCRE2_ZERO_TERMINATED,
                                           PCRE2_UTF | PCRE2_UCP, &code, &offset, NULL);
        if (!reference_codes[c] || pcre2_jit_compile(reference_codes[c], PCRE2_JIT_COMPLETE) != 0)
            die("a reference pattern does not compile");
    }
}

/* Python's str is already valid Unicode, so the UTF-8 validity check runs once per scan (on the
 * first call), not once per call. */
static size_t scan_reference(engine *e, const char *text, size_t n)
{
    uint32_t check = 0;
    size_t found = 0;
    e->first_category = -1;
    for (int c = 0; c < N_CATEGORIES; c++) {
        PCRE2_SIZE at = 0;
        for (;;) {
            int rc = pcre2_match(e->codes[c], (PCRE2_SPTR)text, n, at, e->match_flags | check,
                                 e->match[c], NULL);
            check = PCRE2_NO_UTF_CHECK;
            if (rc == PCRE2_ERROR_NOMATCH)
                break;
            if (rc < 0)
                die("pcre2_match failed");
            found++;
            if (!e->find_all) {
                e->first_category = c;
                return found;
            }
            PCRE2_SIZE *ov = pcre2_get_ovector_pointer(e->match[c]);
            at = ov[1] > ov[0] ? ov[1] : ov[1] + 1; /* no pattern here matches empty */
            if (at >= n)
                break;
        }
    }
    return found;
}

/* ---- throughput ---- */

/* One figure: an engine on a text. Its samples are batches of scans, taken in ROUNDS rounds
 * that visit every figure in turn, so that a burst of load on the machine (other builds on the
 * sibling hardware thread slow a scan by up to 50% here, CPU time or not) spreads over all the
 * figures instead of spoiling a few. */
typedef struct figure {
    engine *engine;
    const char *text;
    size_t len;
    long reps;       /* scans per batch */
    double *samples; /* ns per scan, one per batch */
    size_t n_samples;
    size_t findings;
    int first_category;
    double mbps, us_per_scan; /* the median */
} figure;

#define ROUNDS 10

static double time_batch(engine *e, const char *text, size_t n, long reps)
{
    double t0 = cpu_ns();
    for (long i = 0; i < reps; i++)
        e->scan(e, text, n);
    return cpu_ns() - t0;
}

/* Warms up, counts the findings and sizes a batch at about 10 ms (one scan when longer). */
static void calibrate(figure *f)
{
    f->findings = f->engine->scan(f->engine, f->text, f->len);
    f->first_category = f->engine->first_category;
    long reps = 1;
    double t, batch_ns = 10e6;
    while ((t = time_batch(f->engine, f->text, f->len, reps)) < batch_ns / 4)
        reps *= 2;
    f->reps = t >= batch_ns ? reps : (long)((double)reps * batch_ns / t);
    f->samples = malloc(MAX_SAMPLES * sizeof *f->samples);
    if (f->samples == NULL)
        die("out of memory");
}

/* One round's share of the figure's time budget, at least one batch. */
static void sample(figure *f, double round_ns)
{
    double spent = 0;
    do {
        double t = time_batch(f->engine, f->text, f->len, f->reps);
        spent += t;
        if (f->n_samples < MAX_SAMPLES)
            f->samples[f->n_samples++] = t / (double)f->reps;
    } while (spent < round_ns);
}

static void summarize(figure *f)
{
    double ns = median(f->samples, f->n_samples);
    f->us_per_scan = ns / 1e3;
    f->mbps = (double)f->len / ns * 1e3;
    free(f->samples);
}

/* ---- loading: the fresh-process child ---- */

static const char *source_name(rp_scan_db_source s)
{
    switch (s) {
    case RP_SCAN_DB_CACHED:
        return "cached";
    case RP_SCAN_DB_COMPILED:
        return "compiled";
    default:
        return "none";
    }
}

static int load_once(const char *dir, const char *typeset)
{
    rp_scan_options opt = {.types = (rp_scan_set)strtoul(typeset, NULL, 0), .cache_dir = dir};
    rp_scanner *s = NULL;
    char err[256];
    double t0 = wall_ns();
    int rc = rp_scanner_open(&opt, &s, err, sizeof err);
    double t1 = wall_ns();
    if (rc != 0) {
        fprintf(stderr, "bench_scan --load-once: %s\n", err);
        return 1;
    }
    printf("%.1f %s\n", (t1 - t0) / 1e3, source_name(rp_scanner_db_source(s)));
    rp_scanner_free(s);
    return 0;
}

/* ---- loading: the parent ---- */

static char cache_root[64];

static void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *ent;
        while ((ent = readdir(d)) != NULL) {
            if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, ".."))
                continue;
            char child[4096];
            snprintf(child, sizeof child, "%s/%s", path, ent->d_name);
            struct stat st;
            if (lstat(child, &st) == 0 && S_ISDIR(st.st_mode))
                remove_tree(child);
            else
                unlink(child);
        }
        closedir(d);
    }
    rmdir(path);
}

static void remove_cache_root(void)
{
    if (cache_root[0])
        remove_tree(cache_root);
}

static long tree_bytes(const char *path)
{
    long total = 0;
    DIR *d = opendir(path);
    if (!d)
        return 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, ".."))
            continue;
        char child[4096];
        snprintf(child, sizeof child, "%s/%s", path, ent->d_name);
        struct stat st;
        if (lstat(child, &st) != 0)
            continue;
        total += S_ISDIR(st.st_mode) ? tree_bytes(child) : (long)st.st_size;
    }
    closedir(d);
    return total;
}

/* One child: fork, exec ourselves with --load-once, read its line. Returns the µs it timed, or
 * -1 when it failed or did not load from the cache; *process_ms gets fork-to-exit time. */
static double run_child(const char *dir, rp_scan_set set, double *process_ms)
{
    char typeset[16];
    snprintf(typeset, sizeof typeset, "0x%x", (unsigned)set);
    int out[2];
    if (pipe(out) != 0)
        return -1;
    fflush(stdout); /* a child must not flush a copy of our buffer */
    double t0 = wall_ns();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(out[1], 1);
        close(out[0]);
        close(out[1]);
        char *argv[] = {"bench_scan", "--load-once", (char *)dir, typeset, NULL};
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    close(out[1]);
    char line[128];
    size_t got = 0;
    ssize_t r;
    while (got < sizeof line - 1 && (r = read(out[0], line + got, sizeof line - 1 - got)) != 0) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        got += (size_t)r;
    }
    close(out[0]);
    line[got] = '\0';
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    *process_ms = (wall_ns() - t0) / 1e6;
    double us;
    char source[16];
    if (sscanf(line, "%lf %15s", &us, source) != 2 || strcmp(source, "cached") != 0) {
        fprintf(stderr, "bench_scan: child did not load from the cache: %s", line);
        return -1;
    }
    return us;
}

static double compile_ms(rp_scan_set set, const char *cache_dir, rp_scan_db_source *source)
{
    rp_scan_options opt = {.types = set, .cache_dir = cache_dir};
    rp_scanner *s = NULL;
    char err[256];
    double t0 = wall_ns();
    if (rp_scanner_open(&opt, &s, err, sizeof err) != 0) {
        fprintf(stderr, "bench_scan: rp_scanner_open: %s\n", err);
        exit(1);
    }
    double ms = (wall_ns() - t0) / 1e6;
    *source = rp_scanner_db_source(s);
    rp_scanner_free(s);
    return ms;
}

/* ---- main ---- */

typedef struct type_set {
    const char *name, *dir;
    rp_scan_set set;
} type_set;

static const type_set type_sets[] = {
    {"default PII", "pii", RP_SCAN_PII_DEFAULT},
    {"all secret types", "secrets", RP_SCAN_SECRETS_ALL},
    {"every type", "all", RP_SCAN_PII_ALL | RP_SCAN_SECRETS_ALL},
};
enum { N_SETS = sizeof type_sets / sizeof type_sets[0] };

static void print_rule(int width)
{
    for (int i = 0; i < width; i++)
        putchar('-');
    putchar('\n');
}

/* ---- part 3: hostile inputs ---- */

/* Texts built to make the extractors work hardest: every byte near a trigger, tokens that run
 * on for the whole text, labels that keep re-arming a window. A scan must stay linear on each;
 * the figure to watch is the slowest. */
typedef struct hostile {
    const char *name;
    const char *unit; /* repeated to fill the text; "%d" is a counter (0-9) */
} hostile;

static const hostile hostiles[] = {
    {"digits and spaces", "%d "},
    {"digits and dashes", "%d-"},
    {"digits and dots", "%d."},
    {"one digit run", "%d"},
    {"parenthesised groups", "(%d%d) %d%d "},
    {"E.164 prefixes", "+%d "},
    {"birth labels and digits", "born %d %d %d "},
    {"ssn labels", "ssn 12345678%d "},
    {"IBAN-like groups", "DE%d%d ABCD "},
    {"IPv6-like groups", "a%d:"},
    {"IPv6 double colons", "a::%d"},
    {"at signs", "a%d@b"},
    {"assignments", "password=%d"},
    {"URL credentials", "://a:%d@"},
    {"JWT heads", "eyJa%d.eyJ"},
    {"token prefixes", "sk-ghp_AKIA%d"},
    {"unclosed private keys", "-----BEGIN PRIVATE KEY-----%d"},
};
enum { N_HOSTILE = sizeof hostiles / sizeof hostiles[0] };

static char *make_hostile(const hostile *h, size_t size, size_t *len)
{
    rp_buf b = {0};
    for (int i = 0; b.len < size; i++) {
        char unit[64];
        int d = i % 10;
        snprintf(unit, sizeof unit, h->unit, d, (d + 3) % 10, (d + 7) % 10, (d + 1) % 10);
        rp_buf_puts(&b, unit);
    }
    *len = b.len < size ? b.len : size;
    return rp_buf_take(&b);
}

static void hostile_inputs(double seconds)
{
    rp_scan_options opt = {.types = RP_SCAN_PII_ALL | RP_SCAN_SECRETS_ALL, .cache_dir = ""};
    char err[256];
    engine e = {.name = "every type", .scan = scan_rampart};
    if (rp_scanner_open(&opt, &e.scanner, err, sizeof err) != 0) {
        fprintf(stderr, "bench_scan: rp_scanner_open: %s\n", err);
        exit(1);
    }
    rp_arena_init(&e.arena, 64 * 1024);
    printf("Hostile inputs, %u KB each, every type (%d); median of batches, %.2f s per figure\n",
           TEXT_HOSTILE / 1024, __builtin_popcount(opt.types), seconds);
    printf("%-36s%14s%14s%14s\n", "", "MB/s", "ms per scan", "findings");
    print_rule(36 + 14 * 3);
    double slowest = 0;
    for (int i = 0; i < N_HOSTILE; i++) {
        size_t len;
        char *text = make_hostile(&hostiles[i], TEXT_HOSTILE, &len);
        figure f = {.engine = &e, .text = text, .len = len};
        calibrate(&f);
        sample(&f, seconds * 1e9);
        summarize(&f);
        printf("%-36s%14.1f%14.2f%14zu\n", hostiles[i].name, f.mbps, f.us_per_scan / 1e3,
               f.findings);
        if (slowest == 0 || f.mbps < slowest)
            slowest = f.mbps;
        free(text);
    }
    printf("\nSlowest: %.1f MB/s.\n\n", slowest);
    rp_scanner_free(e.scanner);
    rp_arena_free(&e.arena);
}

static void throughput(double seconds)
{
    enum { N_TEXTS = 4 };
    static const char *const text_names[N_TEXTS] = {"2K clean", "2K findings", "200K clean",
                                                    "200K findings"};
    char *texts[N_TEXTS];
    size_t lens[N_TEXTS];
    for (int t = 0; t < N_TEXTS; t++)
        texts[t] = make_text(t < 2 ? TEXT_SMALL : TEXT_LARGE, t % 2 == 1, &lens[t]);

    compile_reference();
    enum { N_ENGINES = N_SETS + 4 };
    engine engines[N_ENGINES];
    char names[N_SETS][64];
    memset(engines, 0, sizeof engines);
    pcre2_match_data *match[N_CATEGORIES];
    for (int c = 0; c < N_CATEGORIES; c++)
        match[c] = pcre2_match_data_create_from_pattern(reference_codes[c], NULL);
    for (int i = 0; i < N_SETS; i++) {
        rp_scan_options opt = {.types = type_sets[i].set, .cache_dir = ""};
        char err[256];
        if (rp_scanner_open(&opt, &engines[i].scanner, err, sizeof err) != 0) {
            fprintf(stderr, "bench_scan: rp_scanner_open: %s\n", err);
            exit(1);
        }
        snprintf(names[i], sizeof names[i], "rampart, %s (%d types)", type_sets[i].name,
                 __builtin_popcount(type_sets[i].set));
        engines[i].name = names[i];
        engines[i].scan = scan_rampart;
        rp_arena_init(&engines[i].arena, 64 * 1024);
    }
    static const char *const ref_names[4] = {
        "reference, PCRE2 JIT, first match", "reference, PCRE2 JIT, find all",
        "reference, PCRE2 interpreted, first match", "reference, PCRE2 interpreted, find all"};
    for (int i = 0; i < 4; i++) {
        engine *e = &engines[N_SETS + i];
        e->name = ref_names[i];
        e->scan = scan_reference;
        e->codes = reference_codes;
        e->match = match;
        e->match_flags = i < 2 ? 0 : PCRE2_NO_JIT;
        e->find_all = i % 2 == 1;
    }

    static figure fig[N_ENGINES][N_TEXTS];
    for (int e = 0; e < N_ENGINES; e++)
        for (int t = 0; t < N_TEXTS; t++) {
            fig[e][t] = (figure){.engine = &engines[e], .text = texts[t], .len = lens[t]};
            calibrate(&fig[e][t]);
        }
    for (int r = 0; r < ROUNDS; r++)
        for (int e = 0; e < N_ENGINES; e++)
            for (int t = 0; t < N_TEXTS; t++)
                sample(&fig[e][t], seconds * 1e9 / ROUNDS);
    size_t fewest = MAX_SAMPLES;
    for (int e = 0; e < N_ENGINES; e++)
        for (int t = 0; t < N_TEXTS; t++) {
            if (fig[e][t].n_samples < fewest)
                fewest = fig[e][t].n_samples;
            summarize(&fig[e][t]);
        }

    printf("Texts: %zu and %zu bytes, generated (prose, code block, log excerpt, JSON, table);\n"
           "the findings variants add 1 e-mail + 1 phone (2K) and 4 + 4 (200K).\n"
           "Median of >= %zu batches of thread CPU time per figure (%.2f s, in %d interleaved "
           "rounds); MB = 10^6 bytes.\n\n",
           lens[0], lens[2], fewest, seconds, ROUNDS);
    static const char *const titles[3] = {"Throughput, MB/s", "Time per scan, us",
                                          "Findings per scan (first match: the category)"};
    for (int table_kind = 0; table_kind < 3; table_kind++) {
        printf("%-44s", titles[table_kind]);
        for (int t = 0; t < N_TEXTS; t++)
            printf("%14s", text_names[t]);
        printf("\n");
        print_rule(44 + 14 * N_TEXTS);
        for (int e = 0; e < N_ENGINES; e++) {
            printf("%-44s", engines[e].name);
            for (int t = 0; t < N_TEXTS; t++) {
                if (table_kind == 0)
                    printf("%14.1f", fig[e][t].mbps);
                else if (table_kind == 1)
                    printf("%14.2f", fig[e][t].us_per_scan);
                else if (!engines[e].find_all && engines[e].codes)
                    printf("%14s", fig[e][t].first_category < 0
                                       ? "none"
                                       : category_names[fig[e][t].first_category]);
                else
                    printf("%14zu", fig[e][t].findings);
            }
            printf("\n");
        }
        printf("\n");
    }
    printf("Target: default PII >= 300 MB/s; 2K clean: %.0f MB/s, %.1fx the reference on PCRE2 "
           "JIT (quoted for Python: ~27 MB/s).\n\n",
           fig[0][0].mbps, fig[0][0].mbps / fig[N_SETS][0].mbps);

    for (int i = 0; i < N_SETS; i++) {
        rp_scanner_free(engines[i].scanner);
        rp_arena_free(&engines[i].arena);
    }
    for (int c = 0; c < N_CATEGORIES; c++) {
        pcre2_match_data_free(match[c]);
        pcre2_code_free(reference_codes[c]);
    }
    for (int t = 0; t < N_TEXTS; t++)
        free(texts[t]);
}

static void loading(int processes)
{
    snprintf(cache_root, sizeof cache_root, "/tmp/rampart-bench-scan-XXXXXX");
    if (!mkdtemp(cache_root))
        die("mkdtemp failed");
    atexit(remove_cache_root);

    printf("Database load in a fresh process (warm cache, %d processes per set)\n", processes);
    printf("%-36s%14s%14s%14s%14s%12s\n", "", "open median", "open p95", "process", "compile",
           "cache");
    printf("%-36s%14s%14s%14s%14s%12s\n", "", "us", "us", "median ms", "median ms", "bytes");
    print_rule(36 + 14 * 4 + 12);
    double *us = malloc((size_t)processes * sizeof *us);
    double *proc = malloc((size_t)processes * sizeof *proc);
    if (!us || !proc)
        die("out of memory");
    for (int i = 0; i < N_SETS; i++) {
        double compile[COMPILE_RUNS];
        rp_scan_db_source source;
        for (int k = 0; k < COMPILE_RUNS; k++)
            compile[k] = compile_ms(type_sets[i].set, "", &source);
        if (source == RP_SCAN_DB_NONE) { /* before the extractors: no rule, no database */
            printf("%-36s  no rules for these types: nothing to load\n", type_sets[i].name);
            continue;
        }
        char dir[128];
        snprintf(dir, sizeof dir, "%s/%s", cache_root, type_sets[i].dir);
        if (mkdir(dir, 0700) != 0)
            die("mkdir failed");
        compile_ms(type_sets[i].set, dir, &source); /* warms the cache */
        for (int k = 0; k < processes; k++) {
            us[k] = run_child(dir, type_sets[i].set, &proc[k]);
            if (us[k] < 0)
                die("a --load-once child failed");
        }
        qsort(us, (size_t)processes, sizeof *us, cmp_double);
        char label[64];
        snprintf(label, sizeof label, "%s (%d types)", type_sets[i].name,
                 __builtin_popcount(type_sets[i].set));
        printf("%-36s%14.1f%14.1f%14.2f%14.2f%12ld\n", label, median(us, (size_t)processes),
               percentile(us, (size_t)processes, 95), median(proc, (size_t)processes),
               median(compile, COMPILE_RUNS), tree_bytes(dir));
    }
    printf("\nopen: rp_scanner_open in the child (clock_gettime around it), "
           "every child "
           "RP_SCAN_DB_CACHED;\nprocess: fork to exit of the child; compile: "
           "rp_scanner_open "
           "without a cache, median of %d.\n",
           COMPILE_RUNS);
    free(us);
    free(proc);
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--load-once"))
        return load_once(argv[2], argv[3]);
    double seconds = argc > 1 ? strtod(argv[1], NULL) : 0.3;
    long processes = argc > 2 ? strtol(argv[2], NULL, 10) : 50;
    if (seconds <= 0 || processes <= 0 || processes > 100000) {
        fprintf(stderr, "usage: bench_scan [SECONDS_PER_FIGURE] [PROCESSES]\n");
        return 2;
    }
    throughput(seconds);
    hostile_inputs(seconds);
    loading((int)processes);
    return 0;
}
