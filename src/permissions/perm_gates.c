/* perm_gates.c — the gate pipeline of the `permissions` policy (reference permissions.md §3.3):
 * skill read, path, external_directory, bash external_directory, bash path, per tool. Each gate
 * enforces in turn; the first deny stops the pipeline and every ask is remembered, so the
 * outcome is the most restrictive across gates (deny > ask > allow), as if every ask had been
 * approved once.
 *
 * Where rampart is stricter than the reference (each is a "Known weakness" there):
 *   - a command rule is matched on the unit as written AND on its spelling-independent form, so
 *     `'rm' x`, `r\m x`, `/bin/rm x` cannot dodge `rm *: deny`;
 *   - a wrapper's inner command is a unit of its own (`nice rm -rf x` meets `rm *: deny`), and a
 *     session approval never clears a wrapper floor;
 *   - path tokens whose value is not known exactly (a shell glob, a `$VAR`, a relative path
 *     after `cd "$DIR"`) are matched against everything they could name: a rule that could
 *     apply and is stricter than what certainly applies makes the answer at least ASK;
 *   - in the mcp map a catch-all "*" does not hide a server or tool rule;
 *   - an external-directory approval records the directory approved, never the root ("/" + "*"). */
#include <string.h>

#include "core/buf.h"
#include "permissions/perm_policy.h"
#include "shell/git.h"
#include "shell/patch.h"

typedef struct gate_env {
    rp_arena *a;
    const rp_perm_settings *s;
    rp_perm_rules_view rv;
    const rp_perm_call *call;
    rp_perm_outcome *out;
    rp_buf asks;    /* reasons of the asks so far, "; "-joined */
    bool tree_tool; /* the file tool may read a whole directory (read_many_files) */
} gate_env;

/* ---- results ---- */

static void suggest(gate_env *g, const char *surface, const char *pattern)
{
    rp_perm_outcome *o = g->out;
    if (pattern == NULL)
        return;
    for (size_t i = 0; i < o->n_suggestions; i++)
        if (strcmp(o->suggestions[i].surface, surface) == 0 &&
            strcmp(o->suggestions[i].pattern, pattern) == 0)
            return;
    if (o->n_suggestions == o->cap_suggestions) {
        size_t cap = o->cap_suggestions ? o->cap_suggestions * 2 : 4;
        o->suggestions =
            rp_arena_realloc(g->a, o->suggestions, o->cap_suggestions * sizeof *o->suggestions,
                             cap * sizeof *o->suggestions);
        o->cap_suggestions = cap;
    }
    o->suggestions[o->n_suggestions++] = (rp_perm_suggestion){surface, pattern};
}

/* Records a gate's verdict. Returns true when the pipeline must stop (deny). */
static bool enforce(gate_env *g, rp_perm_action action, const char *reason)
{
    if (action == RP_PERM_ALLOW)
        return false;
    if (action == RP_PERM_DENY) {
        g->out->action = RP_PERM_DENY;
        g->out->reason = reason;
        return true;
    }
    g->out->action = RP_PERM_ASK;
    if (g->asks.len)
        rp_buf_puts(&g->asks, "; ");
    rp_buf_puts(&g->asks, reason);
    return false;
}

static bool is_catch_all(const char *pattern)
{
    if (pattern[0] == '\0')
        return false;
    for (const char *p = pattern; *p; p++)
        if (*p != '*')
            return false;
    return true;
}

static const char *rule_text(gate_env *g, const rp_perm_match *m)
{
    const rp_perm_rule *r = m->rule;
    if (m->yolo)
        return "yolo mode";
    switch (r->layer) {
    case RP_PERM_LAYER_DEFAULT:
        return rp_arena_sprintf(g->a, "the default \"*\": %s", rp_perm_action_name(r->action));
    case RP_PERM_LAYER_SESSION:
        return rp_arena_sprintf(g->a, "session rule %s \"%s\"", r->surface, r->pattern);
    default:
        return rp_arena_sprintf(g->a, "rule %s \"%s\": %s (%s)", r->surface, r->pattern,
                                rp_perm_action_name(r->action), rp_perm_origin_name(r->origin));
    }
}

static const char *verdict_reason(gate_env *g, rp_perm_action action, const char *what,
                                  const char *value, const rp_perm_match *m, const char *extra)
{
    const char *why = m ? rule_text(g, m) : "";
    const char *own = (m && m->rule->reason && action == RP_PERM_DENY) ? m->rule->reason : NULL;
    return rp_arena_sprintf(g->a, "%s %s \"%s\"%s%s%s%s%s", what,
                            action == RP_PERM_DENY ? "denied:" : "needs approval:", value,
                            why[0] ? " by " : "", why, extra ? extra : "", own ? ": " : "",
                            own ? own : "");
}

/* ---- uncertain path values ---- */

typedef enum uncertain_kind {
    CERTAIN = 0,
    UNCERTAIN_GLOB,
    UNCERTAIN_SUFFIX,
    UNCERTAIN_ANY
} uncertain_kind;

/* What an uncertain token could name: the glob text itself, "…/suffix", or anything. */
typedef struct uncertain {
    uncertain_kind kind;
    const char *const *values; /* GLOB: the values (globs) */
    size_t n;
    const char *suffix; /* SUFFIX: the token's text after the unknown part */
} uncertain;

static bool rule_could_match(gate_env *g, const rp_perm_rule *r, const char *surface,
                             const uncertain *u)
{
    if (!rp_glob_match(g->a, r->surface, surface, &(rp_glob_opts){.home = g->rv.home}))
        return false;
    if (u->kind == UNCERTAIN_ANY)
        return true;
    bool fold = g->rv.flavor == RP_PATH_WIN32 && rp_perm_is_path_surface(surface);
    rp_glob_opts o = {.home = g->rv.home,
                      .win32 = g->rv.flavor == RP_PATH_WIN32,
                      .fold_case = fold,
                      .fold_sep = fold};
    const char *pat = rp_glob_expand_home(g->a, r->pattern, &o);
    if (u->kind == UNCERTAIN_SUFFIX)
        return rp_glob_could_match(pat, u->suffix, true, &o);
    for (size_t i = 0; i < u->n; i++)
        if (rp_glob_could_match(pat, u->values[i], false, &o))
            return true;
    return false;
}

static rp_perm_action effective(const gate_env *g, const rp_perm_rule *r)
{
    return (g->rv.yolo && r->action == RP_PERM_ASK) ? RP_PERM_ALLOW : r->action;
}

/* Refines m (the match of the token's text as written) with what the token could name: the
 * last rule that could apply is a possible outcome; an earlier stricter one that could apply
 * (before a catch-all hides it) makes the answer at least ASK. Sets *explicit_out when some
 * config or session rule could apply. */
static rp_perm_action uncertain_action(gate_env *g, const char *surface, const uncertain *u,
                                       rp_perm_match *m, const rp_perm_rule **decider)
{
    const rp_perm_ruleset *cfg = g->rv.config;
    size_t total = cfg->n_rules + g->rv.n_session;
    rp_perm_action action = m->action;
    *decider = NULL;
    bool have_last = false;
    rp_perm_action last = RP_PERM_ALLOW, worst_earlier = RP_PERM_ALLOW;
    for (size_t k = total; k-- > 0;) {
        const rp_perm_rule *r =
            k < cfg->n_rules ? &cfg->rules[k] : &g->rv.session[k - cfg->n_rules];
        if (!rule_could_match(g, r, surface, u))
            continue;
        rp_perm_action ra = effective(g, r);
        if (!have_last) {
            have_last = true;
            last = ra;
            if (r->layer == RP_PERM_LAYER_CONFIG || r->layer == RP_PERM_LAYER_SESSION)
                *decider = r;
        } else if (ra > worst_earlier) {
            worst_earlier = ra;
            if (ra > last && (r->layer == RP_PERM_LAYER_CONFIG))
                *decider = r;
        }
        if (is_catch_all(r->pattern))
            break;
    }
    /* What the token could name is not what it certainly names: at most ASK from here. */
    rp_perm_action possible = last > worst_earlier ? last : worst_earlier;
    if (possible > RP_PERM_ASK)
        possible = RP_PERM_ASK;
    return possible > action ? possible : action;
}

/* The token's uncertainty, from its kind bits and text. */
static uncertain token_uncertainty(const rp_perm_path_token *t)
{
    uncertain u = {CERTAIN, NULL, 0, NULL};
    if (t->kind & RP_PERM_TOK_INDIRECT) {
        /* "$DIR/notes.txt" can only name something ending in "/notes.txt". */
        const char *text = t->values.literal ? t->values.literal : t->raw;
        const char *last = NULL;
        for (const char *p = text; *p; p++)
            if (*p == '$' || *p == '`')
                last = p;
        const char *slash = last ? strchr(last, '/') : NULL;
        if (slash && slash[1] && !strpbrk(slash, "$`")) {
            u.kind = UNCERTAIN_SUFFIX;
            u.suffix = slash + 1;
        } else {
            u.kind = UNCERTAIN_ANY;
        }
    } else if (t->kind & RP_PERM_TOK_UNKNOWN_BASE) {
        u.kind = UNCERTAIN_SUFFIX;
        u.suffix = t->values.literal ? t->values.literal : t->raw;
        while (u.suffix[0] == '.' && u.suffix[1] == '/')
            u.suffix += 2;
        if (strstr(u.suffix, "..") || u.suffix[0] == '\0')
            u.kind = UNCERTAIN_ANY;
    } else if (t->kind & RP_PERM_TOK_GLOB) {
        u.kind = UNCERTAIN_GLOB;
        u.values = t->values.values;
        u.n = t->values.n;
    }
    return u;
}

/* ---- approval patterns (§5.3, with the widening to the root fixed) ---- */

static const char *dir_pattern(gate_env *g, const char *value)
{
    char *dir = rp_pathf_dirpart(g->a, g->s->flavor, value);
    if (dir[0] == '\0')
        return g->s->flavor == RP_PATH_WIN32 ? ".\\*" : "./*";
    return rp_arena_sprintf(g->a, "%s*", dir);
}

static bool is_root_dir(const char *dir)
{
    size_t n = strlen(dir);
    if (n == 1 && (dir[0] == '/' || dir[0] == '\\'))
        return true;
    return n == 3 && dir[1] == ':' && (dir[2] == '\\' || dir[2] == '/');
}

/* The external-directory approval of value: the directory itself when the token names one,
 * else its parent, but never a filesystem root ("ls /tmp" records /tmp and /tmp/ + "*"). */
static void suggest_external(gate_env *g, const char *value, unsigned kind)
{
    char sep = rp_pathf_sep(g->s->flavor);
    char *dir = rp_pathf_dirpart(g->a, g->s->flavor, value);
    size_t n = strlen(value);
    bool names_dir = (kind & (RP_PERM_TOK_DIRECTORY | RP_PERM_TOK_CD_TARGET | RP_PERM_TOK_WORKDIR));
    if (!names_dir && dir[0] && !is_root_dir(dir)) {
        suggest(g, "external_directory", rp_arena_sprintf(g->a, "%s*", dir));
        return;
    }
    if (n > 0 && rp_pathf_is_sep(g->s->flavor, value[n - 1])) {
        suggest(g, "external_directory", rp_arena_sprintf(g->a, "%s*", value));
        return;
    }
    suggest(g, "external_directory", value);
    suggest(g, "external_directory", rp_arena_sprintf(g->a, "%s%c*", value, sep));
}

static const rp_perm_rule *rule_below_dir(gate_env *g, const char *surface, const char *dir,
                                          bool is_cwd)
{
    size_t n = strlen(dir);
    if (n == 0 || strcmp(dir, "*") == 0)
        return NULL;
    const rp_perm_ruleset *cfg = g->rv.config;
    const rp_perm_rule *found = NULL;
    for (size_t k = 0; k < cfg->n_rules; k++) {
        const rp_perm_rule *r = &cfg->rules[k];
        if (r->layer != RP_PERM_LAYER_CONFIG || effective(g, r) == RP_PERM_ALLOW ||
            strchr(r->pattern, '/') == NULL)
            continue;
        if (!rp_glob_match(g->a, r->surface, surface, &(rp_glob_opts){.home = g->rv.home}))
            continue;
        rp_glob_opts o = {.home = g->rv.home};
        const char *pat = rp_glob_expand_home(g->a, r->pattern, &o);
        bool root = n == 1 && dir[0] == '/';
        if (strncmp(pat, dir, n) == 0 && (root || pat[n] == '/') && pat[root ? n : n + 1] != '\0')
            found = r;
        /* The cwd itself holds everything a project-relative rule ("secrets/" + "*") names. */
        else if (is_cwd && pat[0] != '/' && pat[0] != '*' && pat[0] != '?' && pat[0] != '.')
            found = r;
    }
    return found;
}

/* A rule (not an allow) whose pattern lies below the directory the values name ("~/.ssh/" +
 * "*" below ~/.ssh, "secrets/" + "*" below secrets or below the cwd): an operand naming that
 * directory may read or copy what the rule protects (`tar czf k.tgz ~/.ssh`, Grep on
 * secrets). NULL when none. */
static const rp_perm_rule *rule_below(gate_env *g, const char *surface, const rp_path_values *v)
{
    const rp_path_ctx *pc = g->call->pc;
    bool is_cwd = v->absolute && pc->cwd && strcmp(v->absolute, pc->cwd) == 0;
    const rp_perm_rule *found = NULL;
    for (size_t i = 0; i < v->n && found == NULL; i++)
        found = rule_below_dir(g, surface, v->values[i], is_cwd);
    return found;
}

/* ---- tool path gates ---- */

static bool is_infrastructure_read(gate_env *g, const char *surface, const rp_path_values *v)
{
    if (!(strcmp(surface, "read") == 0 || strcmp(surface, "find") == 0 ||
          strcmp(surface, "grep") == 0 || strcmp(surface, "ls") == 0))
        return false;
    if (v->canonical == NULL)
        return false;
    const rp_path_ctx *pc = g->call->pc;
    rp_path_flavor f = g->s->flavor;
    const char *b = v->canonical;
    const char *agent_dir = g->call->agent_dir;
    if (agent_dir == NULL && pc->home)
        agent_dir = rp_pathf_join(g->a, f, pc->home, ".pi/agent");
    if (agent_dir && (rp_pathf_within(g->a, f, rp_pathf_resolve(g->a, f, "/", agent_dir), b) ||
                      rp_pathf_within(g->a, f, rp_pathf_join(g->a, f, agent_dir, "git"), b)))
        return true;
    for (size_t i = 0; i < g->s->n_infra; i++) {
        const char *e = g->s->infra[i];
        if (strpbrk(e, "*?")) {
            bool fold = f == RP_PATH_WIN32;
            rp_glob_opts o = {.home = pc->home, .win32 = fold, .fold_case = fold, .fold_sep = fold};
            if (rp_glob_match(g->a, e, b, &o))
                return true;
            continue;
        }
        const char *dir = rp_path_policy_literal(g->a, pc, e);
        if (dir[0] && rp_pathf_within(g->a, f, rp_pathf_resolve(g->a, f, "/", dir), b))
            return true;
    }
    if (pc->cwd) {
        const char *npm =
            rp_pathf_join(g->a, f, pc->cwd_canonical ? pc->cwd_canonical : pc->cwd, ".pi/npm");
        const char *git =
            rp_pathf_join(g->a, f, pc->cwd_canonical ? pc->cwd_canonical : pc->cwd, ".pi/git");
        if (rp_pathf_within(g->a, f, npm, b) || rp_pathf_within(g->a, f, git, b))
            return true;
    }
    return false;
}

/* Gates 2 and 3 for one path of a tool. Returns true to stop. */
static bool tool_path_gates(gate_env *g, const char *surface, const rp_path_values *v)
{
    rp_perm_match m = rp_perm_evaluate_any(g->a, &g->rv, "path", v->values, v->n);
    /* Tools that read a whole tree (grep, find, ls) on a directory above a protected path. */
    bool tree = g->tree_tool || strcmp(surface, "grep") == 0 || strcmp(surface, "find") == 0 ||
                strcmp(surface, "ls") == 0;
    if (tree && m.action == RP_PERM_ALLOW && v->absolute && g->s->flavor == RP_PATH_POSIX) {
        const rp_perm_rule *below = rule_below(g, "path", v);
        if (below && enforce(g, RP_PERM_ASK,
                             rp_arena_sprintf(g->a,
                                              "%s needs approval: \"%s\" holds what rule path "
                                              "\"%s\": %s protects",
                                              surface, v->absolute, below->pattern,
                                              rp_perm_action_name(below->action))))
            return true;
    }
    if (m.action != RP_PERM_ALLOW && m.explicit_match) {
        if (m.rule->layer != RP_PERM_LAYER_SESSION) {
            const char *value = v->absolute ? v->absolute : v->literal;
            if (m.action == RP_PERM_ASK)
                suggest(g, "path", dir_pattern(g, value));
            if (enforce(g, m.action, verdict_reason(g, m.action, "path", value, &m, NULL)))
                return true;
        }
    }
    if (v->canonical && rp_path_outside(g->a, g->call->pc, v->canonical) &&
        !is_infrastructure_read(g, surface, v)) {
        m = rp_perm_evaluate_any(g->a, &g->rv, "external_directory", v->values, v->n);
        if (m.action != RP_PERM_ALLOW) {
            if (m.action == RP_PERM_ASK)
                suggest_external(g, v->absolute, 0);
            if (enforce(g, m.action,
                        verdict_reason(g, m.action, "path outside the working directory",
                                       v->absolute, &m, NULL)))
                return true;
        }
    }
    return false;
}

static bool tool_surface_gate(gate_env *g, const char *surface, const rp_path_values *v)
{
    rp_perm_match m;
    const char *value;
    if (v && v->n) {
        m = rp_perm_evaluate_any(g->a, &g->rv, surface, v->values, v->n);
        value = v->absolute ? v->absolute : v->literal;
    } else {
        const char *star = "*";
        m = rp_perm_evaluate_first(g->a, &g->rv, surface, &star, 1);
        value = "*";
    }
    if (m.action == RP_PERM_ALLOW || m.rule->layer == RP_PERM_LAYER_SESSION)
        return false;
    if (m.action == RP_PERM_ASK)
        suggest(g, surface, (v && v->n && v->absolute) ? dir_pattern(g, v->absolute) : "*");
    return enforce(g, m.action, verdict_reason(g, m.action, surface, value, &m, NULL));
}

/* ---- skills (§3.8) ---- */

static bool skill_gate(gate_env *g, const char *name)
{
    const char *value = name ? name : "*";
    rp_perm_match m = rp_perm_evaluate(g->a, &g->rv, "skill", value);
    if (m.action == RP_PERM_ALLOW || m.rule->layer == RP_PERM_LAYER_SESSION)
        return false;
    if (m.action == RP_PERM_ASK && name)
        suggest(g, "skill", name);
    return enforce(g, m.action, verdict_reason(g, m.action, "skill", value, &m, NULL));
}

/* A read inside an active skill's directory is the skill's decision (longest base wins). */
static bool skill_read_gate(gate_env *g, const rp_path_values *v, bool *handled)
{
    *handled = false;
    if (v->canonical == NULL || g->s->n_skills == 0)
        return false;
    const rp_perm_skill *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < g->s->n_skills; i++) {
        const rp_perm_skill *k = &g->s->skills[i];
        bool in = (k->location && strcmp(k->location, v->absolute) == 0) ||
                  (k->dir && rp_pathf_within(g->a, g->s->flavor, k->dir, v->canonical));
        if (in && k->dir && strlen(k->dir) >= best_len) {
            best = k;
            best_len = strlen(k->dir);
        }
    }
    if (best == NULL)
        return false;
    *handled = true;
    return skill_gate(g, best->name);
}

/* ---- MCP (§3.7; rampart: a catch-all does not hide a more specific candidate's rule) ---- */

static bool mcp_gate(gate_env *g, const rp_json *input, const char *server, const char *tool)
{
    rp_json synth = rp_json_make_object();
    if (tool) {
        rp_json_object_set(
            g->a, &synth, "tool",
            rp_json_make_string(g->a, rp_arena_sprintf(g->a, "%s:%s", server, tool)));
        input = &synth;
    }
    const char **cands;
    size_t n = rp_perm_mcp_candidates(g->a, input, (const char *const *)g->s->mcp_servers,
                                      g->s->n_mcp_servers, &cands);
    rp_perm_match m;
    const char *value = NULL;
    for (size_t i = 0; i < n && value == NULL; i++) {
        m = rp_perm_evaluate(g->a, &g->rv, "mcp", cands[i]);
        if (m.rule->layer != RP_PERM_LAYER_DEFAULT &&
            !(m.rule->layer == RP_PERM_LAYER_CONFIG && is_catch_all(m.rule->pattern)))
            value = cands[i];
    }
    if (value == NULL) {
        value = n ? cands[0] : "*";
        m = rp_perm_evaluate(g->a, &g->rv, "mcp", value);
    }
    if (m.action == RP_PERM_ALLOW || m.rule->layer == RP_PERM_LAYER_SESSION)
        return false;
    if (m.action == RP_PERM_ASK)
        suggest(g, "mcp", rp_perm_suggest_mcp(g->a, value));
    return enforce(g, m.action, verdict_reason(g, m.action, "mcp", value, &m, NULL));
}

/* ---- bash (§4) ---- */

static bool bash_external_gate(gate_env *g, const rp_perm_bash *b)
{
    rp_perm_action worst = RP_PERM_ALLOW;
    const char *worst_reason = NULL;
    for (int pass = 0; pass < 2; pass++) {
        const rp_perm_path_token *list = pass == 0 ? b->externals : b->candidates;
        size_t n = pass == 0 ? b->n_externals : b->n_candidates;
        for (size_t i = 0; i < n; i++) {
            const rp_perm_path_token *t = &list[i];
            bool vague = (t->kind & (RP_PERM_TOK_INDIRECT | RP_PERM_TOK_UNKNOWN_BASE)) != 0;
            if (pass == 1 && (!vague || t->external))
                continue; /* candidates: only the ones whose place is unknown */
            rp_perm_match m;
            rp_perm_action action;
            if (vague) {
                uncertain u = token_uncertainty(t);
                m = rp_perm_evaluate_any(g->a, &g->rv, "external_directory", t->values.values,
                                         t->values.n);
                const rp_perm_rule *decider;
                m.action = RP_PERM_ALLOW; /* the literal spelling says nothing here */
                action = uncertain_action(g, "external_directory", &u, &m, &decider);
            } else {
                m = rp_perm_evaluate_any(g->a, &g->rv, "external_directory", t->values.values,
                                         t->values.n);
                action = m.action;
                if ((t->kind & RP_PERM_TOK_GLOB) && action != RP_PERM_DENY) {
                    uncertain u = token_uncertainty(t);
                    const rp_perm_rule *decider;
                    action = uncertain_action(g, "external_directory", &u, &m, &decider);
                }
            }
            if (action == RP_PERM_ALLOW)
                continue;
            const char *value = t->values.absolute ? t->values.absolute : t->raw;
            if (action == RP_PERM_ASK && !vague && t->values.absolute)
                suggest_external(g, t->values.absolute, t->kind);
            if (action > worst) {
                worst = action;
                worst_reason =
                    verdict_reason(g, action,
                                   vague ? "bash path that may lie outside the working directory"
                                         : "bash path outside the working directory",
                                   vague ? t->raw : value, vague ? NULL : &m, NULL);
            }
        }
    }
    return worst != RP_PERM_ALLOW && enforce(g, worst, worst_reason);
}

static bool bash_path_gate(gate_env *g, const rp_perm_bash *b)
{
    rp_perm_action worst = RP_PERM_ALLOW;
    const char *worst_reason = NULL;
    for (size_t i = 0; i < b->n_candidates; i++) {
        const rp_perm_path_token *t = &b->candidates[i];
        rp_perm_match m = rp_perm_evaluate_any(g->a, &g->rv, "path", t->values.values, t->values.n);
        rp_perm_action action = m.explicit_match ? m.action : RP_PERM_ALLOW;
        if ((t->kind & RP_PERM_TOK_MISSING) && is_catch_all(m.rule->pattern))
            action = RP_PERM_ALLOW; /* only a specific rule speaks for a word that may not exist */
        bool session = m.explicit_match && m.rule->layer == RP_PERM_LAYER_SESSION;
        uncertain u = token_uncertainty(t);
        bool vague = u.kind != CERTAIN;
        if (vague && action != RP_PERM_DENY) {
            const rp_perm_rule *decider;
            rp_perm_match mm = m;
            mm.action = action;
            rp_perm_action ua = uncertain_action(g, "path", &u, &mm, &decider);
            if (decider != NULL && ua > action) {
                action = ua;
                session = false;
            }
        }
        const rp_perm_rule *below = NULL;
        if (action == RP_PERM_ALLOW && !vague && !session && t->values.absolute &&
            g->s->flavor == RP_PATH_POSIX && !(t->kind & RP_PERM_TOK_MISSING))
            below = rule_below(g, "path", &t->values);
        if (below)
            action = RP_PERM_ASK;
        if (action == RP_PERM_ALLOW || session)
            continue;
        if (action > worst) {
            worst = action;
            worst_reason =
                below ? rp_arena_sprintf(g->a,
                                         "bash path needs approval: \"%s\" holds what rule path "
                                         "\"%s\": %s protects",
                                         t->raw, below->pattern, rp_perm_action_name(below->action))
                      : verdict_reason(g, action, vague ? "bash path (could name)" : "bash path",
                                       t->raw, m.explicit_match ? &m : NULL, NULL);
            if (action == RP_PERM_ASK && !vague && t->values.absolute)
                suggest(g, "path", dir_pattern(g, t->values.absolute));
        }
        if (action == RP_PERM_DENY)
            break;
    }
    return worst != RP_PERM_ALLOW && enforce(g, worst, worst_reason);
}

/* Whether some bash rule names a path ("cat /workspace/project/secret.txt"): only then are the
 * other spellings of a unit's path operands worth matching. */
static bool bash_rules_name_paths(gate_env *g)
{
    const rp_perm_ruleset *cfg = g->rv.config;
    for (size_t k = 0; k < cfg->n_rules + g->rv.n_session; k++) {
        const rp_perm_rule *r =
            k < cfg->n_rules ? &cfg->rules[k] : &g->rv.session[k - cfg->n_rules];
        if (r->action != RP_PERM_ALLOW && strchr(r->pattern, '/') &&
            rp_glob_match(g->a, r->surface, "bash", &(rp_glob_opts){.home = g->rv.home}))
            return true;
    }
    return false;
}

/* The unit with its path operands respelled: absolute (cd-aware through the bash path
 * candidates, else against cwd) or cwd-relative. The operands are the parser's words, so a
 * quoted operand with spaces stays one. NULL when nothing changes. */
static const char *respell(gate_env *g, const rp_perm_bash *b, const rp_perm_unit *u, bool absolute)
{
    const rp_path_ctx *pc = g->call->pc;
    if (pc->cwd == NULL || g->s->flavor != RP_PATH_POSIX || u->command == NULL)
        return NULL;
    const rp_sh_command *c = u->command;
    rp_buf out = {0};
    rp_buf_puts(&out, rp_perm_unit_program(g->a, u));
    bool changed = false;
    for (size_t i = 1; i < c->n_words; i++) {
        const char *word = c->words[i].text;
        const char *spelled = word;
        if (word[0] != '-' && word[0] != '\0' && !strpbrk(word, "=$`*?[")) {
            if (absolute && word[0] != '/') {
                spelled = NULL;
                for (size_t k = 0; k < b->n_candidates && !spelled; k++)
                    if (strcmp(b->candidates[k].raw, word) == 0)
                        spelled = b->candidates[k].values.absolute;
                if (spelled == NULL && word[0] != '~')
                    spelled = rp_pathf_resolve(g->a, RP_PATH_POSIX, pc->cwd, word);
                if (spelled == NULL)
                    spelled = word;
            } else if (!absolute && word[0] == '/' &&
                       rp_pathf_inside(g->a, RP_PATH_POSIX, pc->cwd, word)) {
                spelled = rp_pathf_relative(g->a, RP_PATH_POSIX, pc->cwd, word);
            }
        }
        changed = changed || strcmp(spelled, word) != 0;
        rp_buf_putc(&out, ' ');
        rp_buf_puts(&out, spelled);
    }
    if (!changed) {
        rp_buf_free(&out);
        return NULL;
    }
    return rp_buf_to_arena(&out, g->a);
}

/* Whether a -c / --config-env value of git makes git run a shell command of its choosing: an
 * alias (a '!' one runs the shell; any other may expand to one of these), core.sshCommand,
 * core.pager, core.fsmonitor, core.hooksPath, core.editor, a diff/merge/credential helper. */
static bool config_runs_code(rp_arena *a, const char *kv)
{
    char *v = rp_arena_strdup(a, kv);
    for (char *c = v; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    static const char *const parts[] = {"sshcommand", "core.pager", "fsmonitor", "hookspath",
                                        ".command",   ".helper",    ".textconv", "core.editor",
                                        ".program",   ".tool",      NULL};
    if (strncmp(v, "alias.", 6) == 0)
        return true;
    for (size_t k = 0; parts[k]; k++)
        if (strstr(v, parts[k]))
            return true;
    return false;
}

/* `git` with its global options removed as git reads them (shell/git.h: `git -C src -c x=y
 * --no-pager push` → `git push`), so that `git push *` rules see the subcommand; *runs_code is
 * set when a -c value makes git run a shell command (config_runs_code), or when there are more
 * of them than git.h records. NULL when there are no global options. */
static const char *git_without_global_options(rp_arena *a, const rp_perm_unit *u, bool *runs_code)
{
    *runs_code = false;
    if (u->command == NULL || strcmp(rp_perm_unit_program(a, u), "git") != 0)
        return NULL;
    const rp_sh_command *c = u->command;
    rp_sh_git_globals gl;
    rp_sh_git_read_globals(c, &gl);
    if (gl.subcommand <= 1)
        return NULL;
    *runs_code = gl.overflow;
    for (size_t k = 0; k < gl.n_configs && !*runs_code; k++)
        *runs_code = config_runs_code(a, gl.configs[k]);
    rp_buf out = {0};
    rp_buf_puts(&out, "git ");
    for (size_t i = gl.subcommand; i < c->n_words; i++) {
        if (i > gl.subcommand)
            rp_buf_putc(&out, ' ');
        rp_buf_puts(&out, c->words[i].text);
    }
    return rp_buf_to_arena(&out, a);
}

/* One unit's decision: the rule for its text as written, made stricter by a specific rule for
 * its spelling-independent form (or the other way round), or for its path operands spelled
 * absolute or cwd-relative (a rule `cat /abs/secret.txt: deny` also meets `cat secret.txt`;
 * the reference's #910 weakness), then the wrapper floor. */
static rp_perm_action unit_action(gate_env *g, const rp_perm_bash *b, const rp_perm_unit *u,
                                  bool path_rules, rp_perm_match *out, bool *session_only,
                                  bool *runs_code)
{
    rp_perm_match m = rp_perm_evaluate(g->a, &g->rv, "bash", u->text);
    if (u->canonical) {
        rp_perm_match c = rp_perm_evaluate(g->a, &g->rv, "bash", u->canonical);
        /* The canonical form decides; the written form only adds a specific stricter rule. */
        bool written_specific = m.explicit_match && !is_catch_all(m.rule->pattern);
        if (!(written_specific && m.action > c.action))
            m = c;
    }
    bool git_runs_code = false;
    const char *git = git_without_global_options(g->a, u, &git_runs_code);
    if (git) {
        rp_perm_match r = rp_perm_evaluate(g->a, &g->rv, "bash", git);
        if (r.explicit_match && !is_catch_all(r.rule->pattern) && r.action > m.action)
            m = r;
    }
    /* git -c alias.x='!…' / core.sshCommand=…: a shell command git runs for it */
    *runs_code = git_runs_code;
    if (path_rules) {
        for (int k = 0; k < 2; k++) {
            const char *alt = respell(g, b, u, k == 0);
            if (alt == NULL)
                continue;
            rp_perm_match r = rp_perm_evaluate(g->a, &g->rv, "bash", alt);
            if (r.explicit_match && !is_catch_all(r.rule->pattern) && r.action > m.action)
                m = r;
        }
    }
    *out = m;
    *session_only = m.rule->layer == RP_PERM_LAYER_SESSION;
    return m.action;
}

static bool bash_command_gate(gate_env *g, const rp_perm_bash *b)
{
    rp_perm_action worst = RP_PERM_ALLOW;
    const char *worst_reason = NULL;
    const char *worst_text = NULL;
    bool worst_floored = false;
    if (b->n_units == 0) {
        const char *text = b->empty ? "" : b->match_text;
        rp_perm_match m = rp_perm_evaluate(g->a, &g->rv, "bash", text);
        rp_perm_action action = m.rule->layer == RP_PERM_LAYER_SESSION ? RP_PERM_ALLOW : m.action;
        bool comment_only = !b->empty && b->match_text && !b->unreadable;
        if (!b->empty && !comment_only && action != RP_PERM_DENY) {
            action = RP_PERM_ASK;
            return enforce(g, action,
                           rp_arena_sprintf(g->a,
                                            "bash command \"%s\" cannot be read "
                                            "(<unparseable-bash-command>)",
                                            text));
        }
        if (action == RP_PERM_ASK)
            suggest(g, "bash", rp_perm_suggest_bash(g->a, text));
        return action != RP_PERM_ALLOW &&
               enforce(g, action, verdict_reason(g, action, "bash", text, &m, NULL));
    }
    bool path_rules = bash_rules_name_paths(g);
    for (size_t i = 0; i < b->n_units; i++) {
        const rp_perm_unit *u = &b->units[i];
        rp_perm_match m;
        bool session;
        bool runs_code = false;
        rp_perm_action action = unit_action(g, b, u, path_rules, &m, &session, &runs_code);
        if (session && u->floor == RP_PERM_FLOOR_NONE)
            action = RP_PERM_ALLOW;
        const char *extra = NULL;
        bool floored = false;
        if (runs_code && action == RP_PERM_ALLOW && !m.yolo) {
            action = RP_PERM_ASK;
            floored = true;
            extra = "; its -c options make git run a shell command (<indirection-bash-wrapper>)";
        }
        if (u->floor != RP_PERM_FLOOR_NONE && action == RP_PERM_ALLOW && !m.yolo) {
            action = RP_PERM_ASK;
            floored = true;
            extra = rp_arena_sprintf(g->a, "; it runs other commands (%s)",
                                     rp_perm_floor_sentinel(u->floor));
        } else if (u->floor != RP_PERM_FLOOR_NONE && action == RP_PERM_ALLOW && m.yolo) {
            action = RP_PERM_ALLOW; /* yolo approves the synthetic ask; a deny still blocks */
        }
        if (action > worst) {
            worst = action;
            worst_text = u->text;
            worst_floored = floored;
            worst_reason = verdict_reason(g, action, "bash", u->text, &m, extra);
        }
        if (action == RP_PERM_DENY)
            break;
    }
    if (b->unreadable && worst != RP_PERM_DENY) {
        rp_perm_match m = rp_perm_evaluate(g->a, &g->rv, "bash", b->match_text);
        if (m.action == RP_PERM_DENY && m.rule->layer != RP_PERM_LAYER_SESSION) {
            worst = RP_PERM_DENY;
            worst_reason = verdict_reason(g, worst, "bash", b->match_text, &m, NULL);
        } else {
            worst = RP_PERM_ASK;
            worst_floored = true;
            worst_reason = rp_arena_sprintf(g->a, "bash command cannot be read in full "
                                                  "(<unparseable-bash-command>)");
        }
    }
    if (worst == RP_PERM_ASK && !worst_floored && worst_text)
        suggest(g, "bash", rp_perm_suggest_bash(g->a, worst_text));
    return worst != RP_PERM_ALLOW && enforce(g, worst, worst_reason);
}

static size_t patch_paths(rp_arena *a, const char *patch, const char ***out);
static bool file_tool_gates(gate_env *g, const char *surface, const char *const *raws, size_t n,
                            bool skill_read);

/* The bash analysis of command, on the evaluation's shared parse when the caller has one. */
static int analyse(gate_env *g, const char *command, const char *workdir, rp_perm_bash *b)
{
    const rp_perm_call *call = g->call;
    if (call->parse_shell == NULL)
        return rp_perm_bash_analyse(g->a, call->pc, command, workdir, b);
    struct rp_sh_parse parse;
    call->parse_shell(call->parse_self, command, &parse);
    return rp_perm_bash_analyse_parsed(g->a, call->pc, command, &parse, workdir, b);
}

static bool shell_gates(gate_env *g, const char *command, const char *workdir)
{
    rp_perm_bash b;
    if (analyse(g, command, workdir, &b) != 0)
        return enforce(g, RP_PERM_ASK, "bash command cannot be analysed");
    /* Codex applies `apply_patch <<EOF … EOF` run through its shell itself: the files named by
     * the patch headers are edits. */
    if (rp_sh_patch_mentioned(command)) {
        const char **paths = NULL;
        size_t n = patch_paths(g->a, command, &paths);
        if (n && file_tool_gates(g, "edit", paths, n, false))
            return true;
    }
    if (bash_external_gate(g, &b))

        return true;
    if (bash_path_gate(g, &b))
        return true;
    return bash_command_gate(g, &b);
}

/* ---- inputs ---- */

static const char *trimmed_string(rp_arena *a, const rp_json *v)
{
    const char *s = rp_json_str(v);
    if (s == NULL)
        return NULL;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        n--;
    return n ? rp_arena_strndup(a, s, n) : NULL;
}

/* A command given as argv (Codex's shell tool): the script of `bash -lc SCRIPT`, else the words
 * joined with single quotes where needed. */
static const char *command_from_argv(rp_arena *a, const rp_json *arr)
{
    size_t n = arr->len;
    if (n >= 3) {
        const char *sh = rp_json_str(rp_json_at(arr, 0)), *flag = rp_json_str(rp_json_at(arr, 1));
        const char *base = sh ? strrchr(sh, '/') : NULL;
        base = base ? base + 1 : sh;
        if (base && flag && flag[0] == '-' && strchr(flag, 'c') &&
            (!strcmp(base, "bash") || !strcmp(base, "sh") || !strcmp(base, "zsh") ||
             !strcmp(base, "dash")) &&
            n == 3)
            return rp_json_str(rp_json_at(arr, 2));
    }
    rp_buf b = {0};
    for (size_t i = 0; i < n; i++) {
        const char *w = rp_json_str(rp_json_at(arr, i));
        if (w == NULL)
            w = "";
        if (i)
            rp_buf_putc(&b, ' ');
        if (w[0] &&
            strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@%+,") ==
                strlen(w)) {
            rp_buf_puts(&b, w);
            continue;
        }
        rp_buf_putc(&b, '\'');
        for (const char *p = w; *p; p++) {
            if (*p == '\'')
                rp_buf_puts(&b, "'\\''");
            else
                rp_buf_putc(&b, *p);
        }
        rp_buf_putc(&b, '\'');
    }
    return rp_buf_to_arena(&b, a);
}

/* A command string as given when the blanks around it are spaces, tabs and newlines that
 * bash skips anyway (no backslash before them; with a here-doc, only newlines after it, which
 * cannot change its delimiter line): its parse is then the one the other shell policies share.
 * Else trimmed (the reference trims); NULL when blank. */
static const char *command_string(rp_arena *a, const rp_json *v)
{
    const char *trimmed = trimmed_string(a, v);
    if (trimmed == NULL)
        return NULL;
    const char *raw = rp_json_str(v);
    size_t lead = strspn(raw, " \t\n"), n = strlen(trimmed);
    const char *rest = raw + lead + n;
    bool blanks_only =
        strncmp(raw + lead, trimmed, n) == 0 && strspn(rest, " \t\n") == strlen(rest);
    bool ends_line = strpbrk(rest, " \t") == NULL; /* only newlines after it */
    if (!blanks_only || (rest[0] && trimmed[n - 1] == '\\') ||
        (!ends_line && strstr(trimmed, "<<")))
        return trimmed;
    return raw;
}

static const char *shell_command(rp_arena *a, const rp_json *input, const char *key)
{
    const rp_json *v = rp_json_get(input, key);
    if (v && rp_json_is_array(v))
        return command_from_argv(a, v);
    return command_string(a, v);
}

/* Paths named by the headers of an apply_patch body (shell/patch.h), in order. */
static size_t patch_paths(rp_arena *a, const char *patch, const char ***out)
{
    rp_sh_patch_target *t;
    size_t n = rp_sh_patch_targets(a, patch, RP_SH_PATCH_HEADERS, &t);
    const char **list = n ? rp_arena_alloc(a, n * sizeof *list) : NULL;
    for (size_t i = 0; i < n; i++)
        list[i] = t[i].path;
    *out = list;
    return n;
}

static const rp_perm_shell_alias *find_alias(const rp_perm_settings *s, const char *tool)
{
    for (size_t i = 0; i < s->n_aliases; i++)
        if (strcmp(s->aliases[i].tool, tool) == 0)
            return &s->aliases[i];
    return NULL;
}

/* Gates 2, 3 and the per-tool gate for a file tool with the given raw paths. */
static bool file_tool_gates(gate_env *g, const char *surface, const char *const *raws, size_t n,
                            bool skill_read)
{
    if (n == 0)
        return tool_surface_gate(g, surface, NULL);
    for (size_t i = 0; i < n; i++) {
        rp_path_values v;
        rp_path_policy_values(g->a, g->call->pc, raws[i], NULL, &v);
        if (v.n == 0) {
            if (tool_surface_gate(g, surface, NULL))
                return true;
            continue;
        }
        if (skill_read) {
            bool handled;
            if (skill_read_gate(g, &v, &handled))
                return true;
            if (handled)
                continue;
        }
        if (tool_path_gates(g, surface, &v))
            return true;
        if (tool_surface_gate(g, surface, &v))
            return true;
    }
    return false;
}

/* The file filters of search tools (Grep's glob, Gemini's include, a Glob pattern) name the
 * files the tool reads or lists. A relative filter can name a file anywhere below the search
 * directory, so the rules that can match anywhere ("*.env", "*.pem") are asked whether some
 * file it names could be theirs: then the call is at least ASK. An absolute or home pattern is
 * matched like a path token (a glob), and outside cwd it meets external_directory. Returns
 * true to stop. */
static bool filter_gates(gate_env *g, const char *surface, const char *filter)
{
    if (filter == NULL || filter[0] == '\0')
        return false;
    const rp_path_ctx *pc = g->call->pc;
    bool anchored = filter[0] == '/' || filter[0] == '~' || strncmp(filter, "$HOME", 5) == 0;
    if (!anchored) {
        const char *suffix = filter;
        while (strncmp(suffix, "**/", 3) == 0)
            suffix += 3;
        const rp_perm_ruleset *cfg = g->rv.config;
        for (size_t k = cfg->n_rules; k-- > 0;) {
            const rp_perm_rule *r = &cfg->rules[k];
            if (r->layer != RP_PERM_LAYER_CONFIG || effective(g, r) == RP_PERM_ALLOW ||
                r->pattern[0] != '*' || is_catch_all(r->pattern))
                continue;
            if (!rp_glob_match(g->a, r->surface, "path", &(rp_glob_opts){.home = g->rv.home}) &&
                !rp_glob_match(g->a, r->surface, surface, &(rp_glob_opts){.home = g->rv.home}))
                continue;
            if (rp_glob_could_match(r->pattern, suffix, true, &(rp_glob_opts){0}))
                return enforce(g, RP_PERM_ASK,
                               rp_arena_sprintf(g->a,
                                                "%s needs approval: its file filter \"%s\" could "
                                                "name what rule %s \"%s\": %s protects",
                                                surface, filter, r->surface, r->pattern,
                                                rp_perm_action_name(r->action)));
        }
        return false;
    }
    rp_perm_path_token t = {.raw = filter, .kind = RP_PERM_TOK_GLOB};
    rp_path_policy_values(g->a, pc, filter, NULL, &t.values);
    if (t.values.n == 0)
        return false;
    rp_perm_match m = rp_perm_evaluate_any(g->a, &g->rv, "path", t.values.values, t.values.n);
    rp_perm_action action = m.explicit_match ? m.action : RP_PERM_ALLOW;
    uncertain u = token_uncertainty(&t);
    const rp_perm_rule *decider;
    rp_perm_match mm = m;
    mm.action = action;
    rp_perm_action ua = uncertain_action(g, "path", &u, &mm, &decider);
    const char *why = NULL;
    if (decider && ua > action) {
        action = ua;
        why = rp_arena_sprintf(g->a,
                               "file filter needs approval: \"%s\" could name what rule %s "
                               "\"%s\": %s protects",
                               filter, decider->surface, decider->pattern,
                               rp_perm_action_name(decider->action));
    }
    if (action != RP_PERM_ALLOW &&
        enforce(g, action, why ? why : verdict_reason(g, action, "file filter", filter, &m, NULL)))
        return true;
    /* The directory part before the first wildcard decides inside/outside. */
    if (t.values.canonical) {
        char *dir = rp_arena_strdup(g->a, t.values.canonical);
        char *w = strpbrk(dir, "*?[");
        if (w) {
            *w = '\0';
            char *slash = strrchr(dir, '/');
            if (slash)
                slash[slash == dir ? 1 : 0] = '\0';
        }
        if (dir[0] && rp_path_outside(g->a, pc, dir)) {
            m = rp_perm_evaluate_any(g->a, &g->rv, "external_directory", t.values.values,
                                     t.values.n);
            if (m.action != RP_PERM_ALLOW &&
                enforce(g, m.action,
                        verdict_reason(g, m.action, "path outside the working directory", dir, &m,
                                       NULL)))
                return true;
        }
    }
    return false;
}

/* Path gates for a tool that is not a file tool but exposes a path (MCP, extensions). */
static bool exposed_path_gates(gate_env *g, const char *surface, const rp_json *path)
{
    const char *raw = rp_json_str(path);
    if (raw == NULL)
        return false;
    rp_path_values v;
    rp_path_policy_values(g->a, g->call->pc, raw, NULL, &v);
    return v.n && tool_path_gates(g, surface, &v);
}

int rp_perm_run_gates(rp_arena *a, const rp_perm_settings *s, const rp_perm_rule *session,
                      size_t n_session, const rp_perm_call *call, rp_perm_outcome *out)
{
    memset(out, 0, sizeof *out);
    gate_env g = {.a = a, .s = s, .call = call, .out = out};
    g.rv = (rp_perm_rules_view){.config = &s->rules,
                                .session = session,
                                .n_session = n_session,
                                .yolo = s->yolo,
                                .flavor = s->flavor,
                                .home = call->pc->home};
    const char *tool = call->tool;
    const rp_json *in = call->input;
    const rp_perm_shell_alias *alias = find_alias(s, tool);
    const rp_perm_tool *t = rp_perm_tool_lookup(tool);

    if (alias || (t && t->kind == RP_PERM_TOOL_SHELL)) {
        const char *cmd_key = alias ? alias->command_arg : t->args[0];
        const char *wd_key = alias ? alias->workdir_arg : t->workdir;
        const char *command = shell_command(a, in, cmd_key);
        if (command == NULL && t && !alias)
            for (size_t i = 1; i < 4 && t->args[i] && command == NULL; i++)
                command = shell_command(a, in, t->args[i]);
        const char *workdir = wd_key ? trimmed_string(a, rp_json_get(in, wd_key)) : NULL;
        if (workdir == NULL && t && !alias && strcmp(t->name, "run_shell_command") == 0)
            workdir = trimmed_string(a, rp_json_get(in, "directory")); /* older Gemini CLI */
        shell_gates(&g, command ? command : "", workdir);
    } else if (t && (t->kind == RP_PERM_TOOL_PATH || t->kind == RP_PERM_TOOL_MULTI_PATH)) {
        const char *raws[64];
        size_t n = 0;
        for (size_t i = 0; i < 4 && t->args[i] && n == 0; i++) {
            const rp_json *v = rp_json_get(in, t->args[i]);
            if (v && rp_json_is_array(v)) {
                for (size_t k = 0; k < v->len && n < 64; k++)
                    if (rp_json_str(rp_json_at(v, k)))
                        raws[n++] = rp_json_str(rp_json_at(v, k));
            } else if (rp_json_str(v)) {
                raws[n++] = rp_json_str(v);
            }
        }
        g.tree_tool = t->kind == RP_PERM_TOOL_MULTI_PATH;
        if (!file_tool_gates(&g, t->surface, raws, n, strcmp(t->surface, "read") == 0) &&
            (strcmp(t->surface, "grep") == 0 || strcmp(t->surface, "find") == 0)) {
            static const char *const filters[] = {"glob", "include", "pattern", NULL};
            for (size_t k = 0; filters[k]; k++) {
                /* A Glob tool's pattern is a file filter; a Grep pattern is a regex. */
                if (strcmp(filters[k], "pattern") == 0 && strcmp(t->surface, "find") != 0)
                    continue;
                if (filter_gates(&g, t->surface, trimmed_string(a, rp_json_get(in, filters[k]))))
                    break;
            }
        }
    } else if (t && t->kind == RP_PERM_TOOL_PATCH) {
        const char *patch = NULL;
        for (size_t i = 0; i < 4 && t->args[i] && patch == NULL; i++)
            patch = rp_json_str(rp_json_get(in, t->args[i]));
        const char **paths = NULL;
        size_t n = patch ? patch_paths(a, patch, &paths) : 0;
        if (patch && n == 0)
            enforce(&g, RP_PERM_ASK, "a patch whose files cannot be read from its headers");
        else
            file_tool_gates(&g, t->surface, paths, n, false);
    } else if (t && t->kind == RP_PERM_TOOL_MCP) {
        if (!exposed_path_gates(&g, "mcp", rp_json_path(in, "arguments.path")))
            mcp_gate(&g, in, NULL, NULL);
    } else if (t && t->kind == RP_PERM_TOOL_SKILL) {
        skill_gate(&g, trimmed_string(a, rp_json_get(in, t->args[0])));
    } else if (strncmp(tool, "mcp__", 5) == 0 && tool[5]) {
        /* mcp__<server>__<tool> (Claude Code, Gemini CLI): an MCP call to that server. */
        const char *rest = tool + 5;
        const char *sep = strstr(rest, "__");
        const char *server = sep ? rp_arena_strndup(a, rest, (size_t)(sep - rest)) : rest;
        const char *name = sep && sep[2] ? sep + 2 : NULL;
        if (!exposed_path_gates(&g, "mcp", rp_json_get(in, "path"))) {
            if (name)
                mcp_gate(&g, in, server, name);
            else {
                rp_json synth = rp_json_make_object();
                rp_json_object_set(a, &synth, "server", rp_json_make_string(a, server));
                mcp_gate(&g, &synth, NULL, NULL);
            }
        }
    } else {
        if (!exposed_path_gates(&g, tool, rp_json_get(in, "path")))
            tool_surface_gate(&g, tool, NULL);
    }
    if (out->action == RP_PERM_ASK)
        out->reason = rp_buf_to_arena(&g.asks, a);
    else
        rp_buf_free(&g.asks);
    return 0;
}
