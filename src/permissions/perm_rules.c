/* perm_rules.c — pi-permission-system's rule model (reference permissions.md §2): composing the
 * ruleset from the merged map (§2.2) and the three evaluators (§2.6), last match wins.
 *
 * A check walks the rules from the end: the session rules (appended last, §5.2), then the
 * composed ones. Every pattern is home-expanded as pi does (§2.3 step 1); the expansion is
 * done once per rule, not per value, and allocates only for a pattern that starts with "~" or
 * "$HOME", so the common check allocates nothing. */
#include <string.h>

#include "permissions/perm.h"

/* What evaluate() answers when no rule matches: cannot happen with a composed ruleset (its
 * default rule matches everything), so it is a plain least-privilege ask. */
static const rp_perm_rule no_rule = {.surface = "*",
                                     .pattern = "*",
                                     .action = RP_PERM_ASK,
                                     .layer = RP_PERM_LAYER_DEFAULT,
                                     .origin = RP_PERM_ORIGIN_BUILTIN};

static const char *const baseline_targets[] = {"mcp_status", "mcp_list", "mcp_search",
                                               "mcp_describe", "mcp_connect"};

/* ---- composition (§2.2) ---- */

static bool surface_allows(const rp_perm_surface *s)
{
    if (!s->is_map)
        return s->action == RP_PERM_ALLOW;
    for (size_t i = 0; i < s->n_entries; i++)
        if (s->entries[i].action == RP_PERM_ALLOW)
            return true;
    return false;
}

void rp_perm_compose(rp_arena *a, const rp_perm_map *merged, bool clamp, rp_perm_ruleset *out)
{
    static const rp_perm_map empty = {0};
    if (merged == NULL)
        merged = &empty;
    /* U = merged["*"] when it is a state; a "*" pattern map is no fallback (and, like every
     * "*" key, no config rule either), so U is then the built-in ask. */
    rp_perm_action u = RP_PERM_ASK;
    rp_perm_origin u_origin = RP_PERM_ORIGIN_BUILTIN;
    bool baseline = false;
    size_t n_config = 0;
    for (size_t i = 0; i < merged->n_surfaces; i++) {
        const rp_perm_surface *s = &merged->surfaces[i];
        if (strcmp(s->surface, "*") == 0) {
            if (!s->is_map) {
                u = s->action;
                u_origin = s->origin;
            }
            continue;
        }
        n_config += s->is_map ? s->n_entries : 1;
        /* "surface == mcp" exactly: a glob key such as "mc*" is no reason for the baseline. */
        if (strcmp(s->surface, "mcp") == 0 && surface_allows(s))
            baseline = true;
    }
    size_t n_base = baseline ? sizeof baseline_targets / sizeof baseline_targets[0] : 0;
    size_t n = 1 + n_base + n_config;
    rp_perm_rule *r = rp_arena_calloc(a, n * sizeof *r);
    size_t k = 0;
    r[k++] = (rp_perm_rule){.surface = "*",
                            .pattern = "*",
                            .action = u,
                            .layer = RP_PERM_LAYER_DEFAULT,
                            .origin = u_origin};
    for (size_t i = 0; i < n_base; i++)
        r[k++] = (rp_perm_rule){.surface = "mcp",
                                .pattern = baseline_targets[i],
                                .action = RP_PERM_ALLOW,
                                .layer = RP_PERM_LAYER_BASELINE,
                                .origin = RP_PERM_ORIGIN_BASELINE};
    for (size_t i = 0; i < merged->n_surfaces; i++) {
        const rp_perm_surface *s = &merged->surfaces[i];
        if (strcmp(s->surface, "*") == 0)
            continue;
        if (!s->is_map) {
            r[k++] = (rp_perm_rule){.surface = s->surface,
                                    .pattern = "*",
                                    .action = s->action,
                                    .layer = RP_PERM_LAYER_CONFIG,
                                    .origin = s->origin};
            continue;
        }
        for (size_t j = 0; j < s->n_entries; j++) {
            const rp_perm_entry *e = &s->entries[j];
            r[k++] = (rp_perm_rule){.surface = s->surface,
                                    .pattern = e->pattern,
                                    .action = e->action,
                                    .reason = e->reason,
                                    .layer = RP_PERM_LAYER_CONFIG,
                                    .origin = e->origin};
        }
    }
    /* An invalid higher scope: nothing inherited may stay a silent allow (#646). The baseline
     * and the universal default are floored too; deny and ask are left alone. */
    if (clamp)
        for (size_t i = 0; i < k; i++)
            if (r[i].action == RP_PERM_ALLOW) {
                r[i].action = RP_PERM_ASK;
                r[i].origin = RP_PERM_ORIGIN_FAIL_CLOSED;
            }
    out->rules = r;
    out->n_rules = k;
}

/* ---- matching ---- */

bool rp_perm_is_path_surface(const char *surface)
{
    static const char *const path_surfaces[] = {"read", "write", "edit", "grep",
                                                "find", "ls",    "path", "external_directory"};
    if (surface == NULL)
        return false;
    for (size_t i = 0; i < sizeof path_surfaces / sizeof path_surfaces[0]; i++)
        if (strcmp(surface, path_surfaces[i]) == 0)
            return true;
    return false;
}

/* Surface names are never folded (§2.5). The home join follows the host flavor everywhere: pi
 * joins with its platform's path.join for every surface, bash included. */
static rp_glob_opts surface_opts(const rp_perm_rules_view *rv)
{
    return (rp_glob_opts){.home = rv->home, .win32 = rv->flavor == RP_PATH_WIN32};
}

/* Values are folded (case and separators) only on a win32 host's path surfaces (§2.4). */
static rp_glob_opts value_opts(const rp_perm_rules_view *rv, const char *surface)
{
    bool win = rv->flavor == RP_PATH_WIN32;
    bool fold = win && rp_perm_is_path_surface(surface);
    return (rp_glob_opts){.home = rv->home, .win32 = win, .fold_case = fold, .fold_sep = fold};
}

static size_t n_rules(const rp_perm_rules_view *rv)
{
    return (rv->config ? rv->config->n_rules : 0) + rv->n_session;
}

/* Rule i of config ++ session. */
static const rp_perm_rule *rule_at(const rp_perm_rules_view *rv, size_t i)
{
    size_t nc = rv->config ? rv->config->n_rules : 0;
    return i < nc ? &rv->config->rules[i] : &rv->session[i - nc];
}

/* ---- the wildcard, with a fast path ----
 *
 * Nearly every pattern has one of a few shapes: no wildcard ("git status"), only stars ("*"),
 * a literal then stars ("src/" + "*", "git *"), stars then a literal ("*.env"), or literal,
 * stars, literal ("/x/" + "*.pem"). Those are decided here by comparing the literal ends, which
 * keeps a check far below the budget (rp_glob_match_expanded walks the value character by character
 * for every star). The answers are exactly rp_glob_match_expanded's: a literal end is used to
 * say "match" only when it is ASCII, because the matcher decodes UTF-8 and an ASCII byte is
 * always a character boundary; a mismatching end says "no match" whatever it holds. */

static unsigned char canon_byte(unsigned char c, const rp_glob_opts *o)
{
    if (o->fold_case && c >= 'A' && c <= 'Z')
        c = (unsigned char)(c + ('a' - 'A'));
    if (o->fold_sep && c == '\\')
        c = '/';
    return c;
}

static bool same(const char *x, const char *y, size_t n, const rp_glob_opts *o)
{
    if (!o->fold_case && !o->fold_sep)
        return memcmp(x, y, n) == 0;
    for (size_t i = 0; i < n; i++)
        if (canon_byte((unsigned char)x[i], o) != canon_byte((unsigned char)y[i], o))
            return false;
    return true;
}

static bool ascii(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80)
            return false;
    return true;
}

/* A pattern taken apart once, then matched against any number of values. */
typedef struct shape {
    const char *p;
    size_t pn, lead, trail; /* literal prefix before the first wildcard, suffix after the last */
    bool wild;              /* has a wildcard at all */
    bool only_stars;        /* nothing but '*' between lead and trail */
    bool optional_tail;     /* "git *": also matches the lead without its space */
    bool decides;           /* a match of both ends is a match (only stars, ASCII ends) */
} shape;

static shape shape_of(const char *p)
{
    shape sh = {.p = p, .pn = strlen(p)};
    sh.lead = strcspn(p, "*?");
    sh.wild = sh.lead < sh.pn;
    if (!sh.wild)
        return sh;
    while (sh.p[sh.pn - 1 - sh.trail] != '*' && sh.p[sh.pn - 1 - sh.trail] != '?')
        sh.trail++;
    sh.only_stars = true;
    for (size_t i = sh.lead; i < sh.pn - sh.trail && sh.only_stars; i++)
        sh.only_stars = p[i] == '*';
    sh.optional_tail = sh.only_stars && sh.trail == 0 && sh.pn - sh.lead == 1 && sh.lead > 0 &&
                       p[sh.lead - 1] == ' ';
    sh.decides = sh.only_stars && ascii(p, sh.lead) && ascii(p + sh.pn - sh.trail, sh.trail);
    return sh;
}

/* rp_glob_match_expanded(sh->p, v, o), deciding the common shapes without it. */
static bool shape_match(const shape *sh, const char *v, const rp_glob_opts *o)
{
    size_t vn = strlen(v);
    if (!sh->wild)
        return vn == sh->pn && same(sh->p, v, vn, o); /* no wildcard: the whole value */
    /* "git *" also matches "git" (§2.3 step 4): the one way to be shorter than the lead. */
    if (sh->optional_tail && vn == sh->lead - 1)
        return same(sh->p, v, vn, o);
    /* Otherwise both literal ends must match in every case, the optional tail's included. */
    if (vn < sh->lead + sh->trail || !same(sh->p, v, sh->lead, o) ||
        !same(sh->p + sh->pn - sh->trail, v + vn - sh->trail, sh->trail, o))
        return false;
    return sh->decides || rp_glob_match_expanded(sh->p, v, o);
}

static bool match_expanded(const char *p, const char *v, const rp_glob_opts *o)
{
    shape sh = shape_of(p);
    return shape_match(&sh, v, o);
}

/* Whether the pattern needs home expansion under o (rp_glob_match's own test). */
static bool needs_home(const char *p, const rp_glob_opts *o)
{
    return o->home && o->home[0] && (p[0] == '~' || p[0] == '$');
}

static bool match(rp_arena *a, const char *p, const char *v, const rp_glob_opts *o)
{
    if (!needs_home(p, o))
        return match_expanded(p, v, o);
    if (a == NULL)
        return rp_glob_match(NULL, p, v, o);
    return match_expanded(rp_glob_expand_home(a, p, o), v, o);
}

static bool surface_applies(rp_arena *a, const rp_perm_rules_view *rv, const rp_perm_rule *r,
                            const char *surface)
{
    /* Most surface keys are plain names ("bash", "path"): no wildcard and nothing to expand,
     * so the glob is an exact comparison. */
    const char *k = r->surface;
    if (k[0] == surface[0] && strcmp(k, surface) == 0 && k[0] != '~' && k[0] != '$')
        return true;
    if (k[0] != '~' && k[0] != '$' && strpbrk(k, "*?") == NULL)
        return false;
    if (k[0] == '*' && k[1] == '\0')
        return true;
    rp_glob_opts so = surface_opts(rv);
    return match(a, r->surface, surface, &so);
}

bool rp_perm_rule_matches(rp_arena *a, const rp_perm_rules_view *rv, const rp_perm_rule *r,
                          const char *surface, const char *value)
{
    if (!surface_applies(a, rv, r, surface))
        return false;
    rp_glob_opts vo = value_opts(rv, surface);
    return match(a, r->pattern, value, &vo);
}

static rp_perm_match result(const rp_perm_rules_view *rv, const rp_perm_rule *r, const char *value)
{
    rp_perm_match m = {.rule = r, .value = value, .action = r->action};
    /* Yolo rewrites the rules of the check (§2.2), not the synthetic no-match answer. */
    if (rv->yolo && r != &no_rule && r->action == RP_PERM_ASK) {
        m.action = RP_PERM_ALLOW;
        m.yolo = true;
    }
    m.explicit_match = r->layer == RP_PERM_LAYER_CONFIG || r->layer == RP_PERM_LAYER_SESSION;
    return m;
}

/* The last rule matching any of values[0..n); *which = the first value it matches. */
static const rp_perm_rule *last_match(rp_arena *a, const rp_perm_rules_view *rv,
                                      const char *surface, const char *const *values, size_t n,
                                      size_t *which)
{
    rp_glob_opts vo = value_opts(rv, surface);
    for (size_t i = n_rules(rv); i-- > 0;) {
        const rp_perm_rule *r = rule_at(rv, i);
        if (!surface_applies(a, rv, r, surface))
            continue;
        /* Expanded and taken apart once per rule, not per value; only "~…"/"$HOME…" patterns
         * allocate. */
        const char *exp = r->pattern;
        if (needs_home(exp, &vo))
            exp = a ? rp_glob_expand_home(a, exp, &vo) : NULL;
        shape sh = shape_of(exp ? exp : "");
        for (size_t j = 0; j < n; j++)
            if (exp ? shape_match(&sh, values[j], &vo)
                    : rp_glob_match(NULL, r->pattern, values[j], &vo)) {
                *which = j;
                return r;
            }
    }
    return NULL;
}

rp_perm_match rp_perm_evaluate(rp_arena *a, const rp_perm_rules_view *rv, const char *surface,
                               const char *value)
{
    size_t which;
    const rp_perm_rule *r = last_match(a, rv, surface, &value, 1, &which);
    return result(rv, r ? r : &no_rule, value);
}

rp_perm_match rp_perm_evaluate_first(rp_arena *a, const rp_perm_rules_view *rv, const char *surface,
                                     const char *const *values, size_t n)
{
    static const char *const star[] = {"*"};
    if (n == 0) {
        values = star;
        n = 1;
    }
    /* The first value whose winner is not the universal default decides: baseline, config
     * and session rules all count (§2.6). */
    for (size_t i = 0; i < n; i++) {
        rp_perm_match m = rp_perm_evaluate(a, rv, surface, values[i]);
        if (m.rule->layer != RP_PERM_LAYER_DEFAULT)
            return m;
    }
    return rp_perm_evaluate(a, rv, surface, values[0]);
}

rp_perm_match rp_perm_evaluate_any(rp_arena *a, const rp_perm_rules_view *rv, const char *surface,
                                   const char *const *values, size_t n)
{
    static const char *const star[] = {"*"};
    if (n == 0) {
        values = star;
        n = 1;
    }
    /* Rule order wins, not alias order: a catch-all that one spelling matches early cannot mask
     * a later, more specific rule on another spelling (plan 0393). */
    size_t which = 0;
    const rp_perm_rule *r = last_match(a, rv, surface, values, n, &which);
    if (r == NULL)
        return result(rv, &no_rule, values[0]);
    return result(rv, r, values[which]);
}
