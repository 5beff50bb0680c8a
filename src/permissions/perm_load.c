/* perm_load.c — reads pi-permission-system's own files (reference permissions.md §1.1–§1.3,
 * §1.7) through the caller's reader, so that the policy sees exactly what pi would.
 *
 * config.json is JSONC under a strict schema: one bad key, type, integer or permission entry
 * rejects the whole file. A rejected or unreadable global file contributes nothing (every
 * surface falls to the built-in ask); a rejected project file, or an agent file that exists but
 * cannot be read, marks its scope invalid and so clamps every allow to ask (§1.2). A project is
 * read only when trusted; otherwise its files are ignored, knobs included (yoloMode too, §6.1).
 * Agent front-matter is read leniently (bad entries dropped), as pi reads it. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "permissions/perm_load.h"

typedef struct loader {
    rp_arena *a;
    const rp_perm_file_reader *rd;
    rp_perm_pi_config *out;
    size_t cap_issues;
} loader;

/* The runtime knobs one config.json sets (has_* = the key was present). */
typedef struct knobs {
    bool has_yolo, yolo;
    bool has_infra;
    const char **infra;
    size_t n_infra;
    bool has_shell;
    rp_perm_shell_alias *shell;
    size_t n_shell;
} knobs;

static void add_issue(loader *L, const char *file, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void add_issue(loader *L, const char *file, const char *path, const char *fmt, ...)
{
    rp_perm_pi_config *o = L->out;
    if (o->n_issues == L->cap_issues) {
        size_t cap = L->cap_issues ? L->cap_issues * 2 : 8;
        o->issues = rp_arena_realloc(L->a, o->issues, L->cap_issues * sizeof *o->issues,
                                     cap * sizeof *o->issues);
        L->cap_issues = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    char *msg = rp_arena_vsprintf(L->a, fmt, ap);
    va_end(ap);
    o->issues[o->n_issues++] =
        (rp_perm_load_issue){file, rp_arena_strdup(L->a, path && path[0] ? path : "(root)"), msg};
}

static void add_warning(loader *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_warning(loader *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = rp_arena_vsprintf(L->a, fmt, ap);
    va_end(ap);
    L->out->warning =
        L->out->warning ? rp_arena_sprintf(L->a, "%s; %s", L->out->warning, msg) : msg;
}

static const char *join(rp_arena *a, const char *dir, const char *rest)
{
    return rp_pathf_join(a, RP_PATH_POSIX, dir, rest);
}

/* 1 = read, 0 = does not exist, -1 = exists but unreadable (*why set). */
static int read_file(loader *L, const char *path, char **data, size_t *len, const char **why)
{
    errno = 0;
    if (L->rd->read(L->rd->self, path, L->a, data, len) == 0)
        return 1;
    int e = errno;
    if (e == ENOENT || e == ENOTDIR)
        return 0;
    *why = e ? strerror(e) : "read failed";
    return -1;
}

/* ---- config.json (§1.3) ---- */

static const char *const config_keys =
    "$schema, permission, debugLog, permissionReviewLog, yoloMode, doublePressToConfirm, "
    "forwardingTimeoutMs, promptMaxRows, promptFieldMaxWidth, reviewLogFieldMaxWidth, "
    "toolInputPreviewMaxLength, toolTextSummaryMaxLength, piInfrastructureReadPaths, "
    "authorizerChain, shellTools";

static bool key_is(const rp_perm_js_member *m, const char *name)
{
    return m->key_len == strlen(name) && memcmp(m->key, name, m->key_len) == 0;
}

static bool key_in(const rp_perm_js_member *m, const char *const *names)
{
    for (; *names; names++)
        if (key_is(m, *names))
            return true;
    return false;
}

/* zod's z.number().int().min(1): a JavaScript safe integer (so 1.0 and 1e3 count), at least 1. */
static bool positive_int(const rp_json *v)
{
    const double max_safe = 9007199254740991.0;
    if (v->type == RP_JSON_INT)
        return v->v.i >= 1 && (double)v->v.i <= max_safe;
    if (v->type == RP_JSON_DOUBLE)
        return isfinite(v->v.d) && v->v.d >= 1 && v->v.d <= max_safe && floor(v->v.d) == v->v.d;
    return false; /* RP_JSON_UINT is above INT64_MAX, far beyond the safe range */
}

static bool nonempty_string(const rp_json *v)
{
    return rp_json_is_string(v) && v->len > 0;
}

/* A string array; nonempty: every item non-empty. Returns the first bad index, or -1. */
static long bad_string_item(const rp_json *v, bool nonempty)
{
    for (uint32_t i = 0; i < v->len; i++)
        if (!rp_json_is_string(&v->v.items[i]) || (nonempty && v->v.items[i].len == 0))
            return (long)i;
    return -1;
}

static bool read_shell_tools(loader *L, const char *file, const rp_json *v, knobs *k)
{
    rp_perm_js_member *m;
    size_t n = rp_perm_js_members(L->a, v, &m);
    k->shell = rp_arena_calloc(L->a, (n ? n : 1) * sizeof *k->shell);
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        char p[192];
        rp_perm_json_path(p, sizeof p, "shellTools", m[i].key, m[i].key_len);
        if (m[i].key_len == 0 || strlen(m[i].key) != m[i].key_len) {
            add_issue(L, file, p, "a tool name must be a non-empty string");
            ok = false;
            continue;
        }
        const rp_json *e = m[i].value;
        if (!rp_json_is_object(e)) {
            add_issue(L, file, p,
                      "must be {\"commandArgument\": string, \"workdirArgument\"?: "
                      "string}");
            ok = false;
            continue;
        }
        rp_perm_js_member *f;
        size_t nf = rp_perm_js_members(L->a, e, &f);
        const rp_json *cmd = NULL, *wd = NULL;
        for (size_t j = 0; j < nf; j++) {
            char q[192];
            rp_perm_json_path(q, sizeof q, p, f[j].key, f[j].key_len);
            if (key_is(&f[j], "commandArgument"))
                cmd = f[j].value;
            else if (key_is(&f[j], "workdirArgument"))
                wd = f[j].value;
            else {
                add_issue(L, file, q, "unknown key: expected commandArgument or workdirArgument");
                ok = false;
            }
        }
        char q[192];
        if (cmd == NULL || !nonempty_string(cmd)) {
            rp_perm_json_path(q, sizeof q, p, "commandArgument", 15);
            add_issue(L, file, q,
                      "must be a non-empty string (the input argument holding the "
                      "command)");
            ok = false;
        }
        if (wd != NULL && !nonempty_string(wd)) {
            rp_perm_json_path(q, sizeof q, p, "workdirArgument", 15);
            add_issue(L, file, q, "must be a non-empty string when given");
            ok = false;
        }
        if (ok)
            k->shell[k->n_shell++] = (rp_perm_shell_alias){m[i].key, cmd->v.s, wd ? wd->v.s : NULL};
    }
    return ok;
}

/* Validates one parsed config.json; fills *scope and *k only when the whole file is good. */
static bool read_config(loader *L, const char *file, const rp_json *root, rp_perm_origin origin,
                        rp_perm_scope *scope, knobs *k)
{
    static const char *const bools[] = {"debugLog", "permissionReviewLog", "yoloMode",
                                        "doublePressToConfirm", NULL};
    static const char *const ints[] = {"forwardingTimeoutMs",
                                       "promptMaxRows",
                                       "promptFieldMaxWidth",
                                       "reviewLogFieldMaxWidth",
                                       "toolInputPreviewMaxLength",
                                       "toolTextSummaryMaxLength",
                                       NULL};
    if (!rp_json_is_object(root)) {
        add_issue(L, file, "", "the file must hold a JSON object, not %s",
                  rp_json_type_name(root->type));
        return false;
    }
    rp_perm_js_member *m;
    size_t n = rp_perm_js_members(L->a, root, &m);
    bool ok = true;
    knobs got = {0};
    rp_perm_map map = {0};
    bool has_map = false;
    for (size_t i = 0; i < n; i++) {
        char p[192];
        rp_perm_json_path(p, sizeof p, "", m[i].key, m[i].key_len);
        const char *path = p[0] == '.' ? p + 1 : p; /* top level: "yoloMode", not ".yoloMode" */
        const rp_json *v = m[i].value;
        if (key_is(&m[i], "$schema")) {
            if (!rp_json_is_string(v)) {
                add_issue(L, file, path, "must be a string");
                ok = false;
            }
        } else if (key_is(&m[i], "permission")) {
            rp_perm_issue issue;
            if (rp_perm_map_parse(L->a, v, origin, true, "permission", &map, &issue) != 0) {
                add_issue(L, file, issue.path, "%s", issue.message);
                ok = false;
            } else {
                has_map = true;
            }
        } else if (key_in(&m[i], bools)) {
            if (v->type != RP_JSON_BOOL) {
                add_issue(L, file, path, "must be true or false, not %s",
                          rp_json_type_name(v->type));
                ok = false;
            } else if (key_is(&m[i], "yoloMode")) {
                got.has_yolo = true;
                got.yolo = v->v.b;
            }
        } else if (key_in(&m[i], ints)) {
            if (!positive_int(v)) {
                add_issue(L, file, path, "must be an integer of at least 1");
                ok = false;
            } else if (key_is(&m[i], "toolInputPreviewMaxLength") ||
                       key_is(&m[i], "toolTextSummaryMaxLength")) {
                add_warning(L, "%s: %s is deprecated and ignored", file, path);
            }
        } else if (key_is(&m[i], "piInfrastructureReadPaths") || key_is(&m[i], "authorizerChain")) {
            bool infra = key_is(&m[i], "piInfrastructureReadPaths");
            long bad = rp_json_is_array(v) ? bad_string_item(v, infra) : -2;
            if (bad == -2) {
                add_issue(L, file, path, "must be an array of strings");
                ok = false;
            } else if (bad >= 0) {
                const char *q = rp_arena_sprintf(L->a, "%s[%ld]", path, bad);
                add_issue(L, file, q, infra ? "must be a non-empty string" : "must be a string");
                ok = false;
            } else if (infra) {
                got.has_infra = true;
                got.infra = rp_arena_calloc(L->a, (v->len ? v->len : 1) * sizeof *got.infra);
                for (uint32_t j = 0; j < v->len; j++)
                    got.infra[got.n_infra++] = v->v.items[j].v.s;
            }
        } else if (key_is(&m[i], "shellTools")) {
            if (!rp_json_is_object(v)) {
                add_issue(L, file, path,
                          "must be an object {toolName: {commandArgument, workdirArgument?}}");
                ok = false;
            } else if (!read_shell_tools(L, file, v, &got)) {
                ok = false;
            } else {
                got.has_shell = true;
            }
        } else {
            add_issue(L, file, path, "unknown key: expected one of %s", config_keys);
            ok = false;
        }
    }
    if (!ok)
        return false;
    scope->map = map;
    scope->present = has_map;
    *k = got;
    return true;
}

/* One config.json. Returns false when the file exists but is rejected or unreadable. */
static bool load_config(loader *L, const char *file, rp_perm_origin origin, rp_perm_scope *scope,
                        knobs *k)
{
    scope->file = file;
    char *data;
    size_t len;
    const char *why;
    int r = read_file(L, file, &data, &len, &why);
    if (r == 0)
        return true;
    if (r < 0) {
        add_issue(L, file, "", "cannot read the file: %s", why);
        return false;
    }
    size_t n;
    char *json = rp_perm_jsonc_strip(L->a, data, len, &n);
    rp_json_error je;
    rp_json *root = rp_json_parse(L->a, json, n, &je);
    if (root == NULL) {
        add_issue(L, file, "",
                  "not valid JSON (comments removed; trailing commas are not "
                  "accepted): line %d, column %d: %s",
                  je.line, je.col, je.msg);
        return false;
    }
    return read_config(L, file, root, origin, scope, k);
}

/* ---- agent files (§1.7) ---- */

static void load_agent(loader *L, const char *file, rp_perm_origin origin, rp_perm_scope *scope)
{
    scope->file = file;
    char *data;
    size_t len;
    const char *why;
    int r = read_file(L, file, &data, &len, &why);
    if (r == 0)
        return; /* no such agent file: an empty scope, not an invalid one */
    if (r < 0) {
        add_issue(L, file, "", "cannot read the agent file: %s", why);
        scope->invalid = true;
        return;
    }
    rp_json *perm = rp_perm_frontmatter_permission(L->a, data, len);
    if (perm == NULL)
        return;
    rp_perm_map_parse(L->a, perm, origin, false, "permission", &scope->map, NULL);
    scope->present = true;
}

/* An agent name that names a file directly inside the agents directory. pi joins whatever it
 * is given; rampart refuses a name that would reach another directory's .md file. */
static bool plain_agent_name(const char *s)
{
    return s[0] != '\0' && strcmp(s, ".") != 0 && strcmp(s, "..") != 0 && strpbrk(s, "/\\") == NULL;
}

/* ---- mcp.json ---- */

static void load_mcp_names(loader *L, const char *file)
{
    char *data;
    size_t len;
    const char *why;
    int r = read_file(L, file, &data, &len, &why);
    if (r == 0)
        return;
    if (r < 0) {
        add_warning(L, "%s: cannot read (%s): no MCP server names", file, why);
        return;
    }
    size_t n;
    char *json = rp_perm_jsonc_strip(L->a, data, len, &n);
    rp_json_error je;
    rp_json *root = rp_json_parse(L->a, json, n, &je);
    if (root == NULL) {
        add_warning(L, "%s: not valid JSON (line %d, column %d): no MCP server names", file,
                    je.line, je.col);
        return;
    }
    /* root.mcpServers ?? root["mcp-servers"], a non-object reading as {}. */
    const rp_json *servers = rp_json_get(root, "mcpServers");
    if (servers == NULL || servers->type == RP_JSON_NULL)
        servers = rp_json_get(root, "mcp-servers");
    rp_perm_js_member *m;
    size_t k = rp_perm_js_members(L->a, servers, &m);
    rp_perm_pi_config *o = L->out;
    o->mcp_servers = rp_arena_calloc(L->a, (k ? k : 1) * sizeof *o->mcp_servers);
    for (size_t i = 0; i < k; i++) {
        if (strlen(m[i].key) != m[i].key_len)
            continue; /* a name holding U+0000 cannot be carried as a C string */
        size_t tn;
        const char *t = rp_perm_js_trim(m[i].key, m[i].key_len, &tn);
        if (tn == 0)
            continue;
        bool seen = false;
        for (size_t j = 0; j < o->n_mcp_servers && !seen; j++)
            seen = strlen(o->mcp_servers[j]) == tn && memcmp(o->mcp_servers[j], t, tn) == 0;
        if (!seen)
            o->mcp_servers[o->n_mcp_servers++] = rp_arena_strndup(L->a, t, tn);
    }
}

/* ---- the whole load ---- */

static void merge_knobs(loader *L, const knobs *g, const knobs *p)
{
    rp_perm_pi_config *o = L->out;
    o->yolo = p->has_yolo ? p->yolo : g->has_yolo && g->yolo;
    const knobs *infra = p->has_infra ? p : g;
    o->infra = infra->infra;
    o->n_infra = infra->n_infra;
    /* shellTools: {...global, ...project}: a project entry replaces the global entry of that
     * tool in its place and never removes another. */
    size_t cap = g->n_shell + p->n_shell;
    o->shell_tools = rp_arena_calloc(L->a, (cap ? cap : 1) * sizeof *o->shell_tools);
    for (size_t i = 0; i < g->n_shell; i++)
        o->shell_tools[o->n_shell_tools++] = g->shell[i];
    for (size_t i = 0; i < p->n_shell; i++) {
        size_t j = 0;
        while (j < o->n_shell_tools && strcmp(o->shell_tools[j].tool, p->shell[i].tool) != 0)
            j++;
        o->shell_tools[j] = p->shell[i];
        if (j == o->n_shell_tools)
            o->n_shell_tools++;
    }
}

int rp_perm_load_pi(rp_arena *a, const rp_perm_file_reader *rd, const char *agent_dir,
                    const char *cwd, const char *agent, bool project_trusted,
                    rp_perm_pi_config *out, char *err, size_t err_size)
{
    *out = (rp_perm_pi_config){0};
    if (rd == NULL || rd->read == NULL || agent_dir == NULL || agent_dir[0] == '\0') {
        if (err && err_size)
            snprintf(err, err_size, "%s",
                     rd == NULL || rd->read == NULL ? "no file reader to read pi's files with"
                                                    : "pi's agent directory is unknown");
        return -1;
    }
    loader L = {.a = a, .rd = rd, .out = out};
    knobs g = {0}, p = {0};

    const char *gfile = join(a, agent_dir, "extensions/pi-permission-system/config.json");
    if (!load_config(&L, gfile, RP_PERM_ORIGIN_GLOBAL, &out->global, &g)) {
        /* A rejected global file adds nothing, knobs included; no clamp (§1.2). */
        out->global = (rp_perm_scope){.file = gfile, .invalid = true};
        g = (knobs){0};
    }

    bool have_cwd = cwd != NULL && cwd[0] != '\0';
    if (have_cwd) {
        const char *pfile = join(a, cwd, ".pi/extensions/pi-permission-system/config.json");
        if (project_trusted) {
            if (!load_config(&L, pfile, RP_PERM_ORIGIN_PROJECT, &out->project, &p)) {
                out->project = (rp_perm_scope){.file = pfile, .invalid = true};
                p = (knobs){0};
            }
        } else {
            out->project.file = pfile;
            char *d;
            size_t n;
            const char *why;
            if (read_file(&L, pfile, &d, &n, &why) != 0)
                add_warning(&L, "%s ignored: the project is not trusted", pfile);
        }
    }
    merge_knobs(&L, &g, &p);

    if (agent != NULL && agent[0] != '\0') {
        if (!plain_agent_name(agent)) {
            const char *afile = join(a, agent_dir, "agents");
            add_issue(&L, afile, "",
                      "agent name \"%s\" is not a plain file name: its agent scopes fail closed",
                      agent);
            out->agent = (rp_perm_scope){.file = afile, .invalid = true};
            if (have_cwd && project_trusted)
                out->project_agent = (rp_perm_scope){.file = afile, .invalid = true};
        } else {
            const char *md = rp_arena_sprintf(a, "%s.md", agent);
            load_agent(&L, join(a, join(a, agent_dir, "agents"), md), RP_PERM_ORIGIN_AGENT,
                       &out->agent);
            if (have_cwd) {
                const char *pafile = join(a, join(a, cwd, ".pi/agents"), md);
                if (project_trusted) {
                    load_agent(&L, pafile, RP_PERM_ORIGIN_PROJECT_AGENT, &out->project_agent);
                } else {
                    out->project_agent.file = pafile;
                    char *d;
                    size_t n;
                    const char *why;
                    if (read_file(&L, pafile, &d, &n, &why) != 0)
                        add_warning(&L, "%s ignored: the project is not trusted", pafile);
                }
            }
        }
    }

    load_mcp_names(&L, join(a, agent_dir, "mcp.json"));
    return 0;
}

void rp_perm_pi_merge(rp_arena *a, const rp_perm_pi_config *cfg, rp_perm_map *merged, bool *clamp)
{
    *merged = (rp_perm_map){0};
    const rp_perm_scope *scopes[] = {&cfg->global, &cfg->project, &cfg->agent, &cfg->project_agent};
    for (size_t i = 0; i < 4; i++)
        if (scopes[i]->present)
            rp_perm_map_merge(a, merged, &scopes[i]->map);
    /* The global scope is the floor: when it fails, nothing more permissive is inherited. */
    *clamp = cfg->project.invalid || cfg->agent.invalid || cfg->project_agent.invalid;
}
