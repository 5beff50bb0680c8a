/* permissions — pi-permission-system's permission rules (reference permissions.md): surfaces
 * and glob patterns, last match wins, cwd-aware path aliases, cd-aware bash path tokens.
 *
 * The scopes (global, project, agent, project-agent) are given inline as parameters and merged
 * exactly as pi merges its files (§1.6); an invalid higher scope clamps every allow to ask. The
 * composed rules are built once at create time; what varies per call (cwd, HOME, the session's
 * approvals) comes from the event and the state snapshot. The gates are in perm_gates.c.
 *
 * Session approvals: an event {"type": "permission_approval", "data": {"scope": "session",
 * "name": TOOL, "arguments": {...}}} records, for that call, the allow rules "approve for this
 * session" stands for (reference §5.3, with rampart's fixes) in session state under
 * _permissions_session_rules; later checks append them after the config rules. */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "engine/policy.h"
#include "policies/builtins.h"
#include "policies/common/common.h"
#include "policies/common/shell_input.h"
#include "permissions/perm_load.h"
#include "permissions/perm_policy.h"

typedef struct permissions {
    rp_perm_settings settings;
    const char *env_home;     /* $HOME at load time, used when the event carries none */
    const char *agent_dir;    /* pi_agent_dir, or NULL = <HOME>/.pi/agent */
    const char **extra_infra; /* infrastructure_read_paths */
    size_t n_extra_infra;
    bool load_pi;              /* load_pi_config: the scopes come from pi's files per check */
    const char *agent_name;    /* `agent`, for the agent .md files */
    const char *env_agent_dir; /* $PI_CODING_AGENT_DIR at load time */
} permissions;

static const char *const platform_values[] = {"posix", "win32", NULL};

static const rp_param_spec permissions_params[] = {
    {.name = "permission",
     .kind = RP_PARAM_OBJECT,
     .description = "The global scope: pi's `permission` map (surface → allow|ask|deny or an "
                    "ordered pattern map; \"*\" is the fallback, default ask)."},
    {.name = "project_permission",
     .kind = RP_PARAM_OBJECT,
     .description = "The project scope's `permission` map (merged over the global one)."},
    {.name = "project_invalid",
     .kind = RP_PARAM_BOOL,
     .default_json = "false",
     .description = "The project file failed validation: every allow becomes ask (fail closed)."},
    {.name = "agent_permission",
     .kind = RP_PARAM_OBJECT,
     .description = "The active agent's front-matter `permission` block."},
    {.name = "project_agent_permission",
     .kind = RP_PARAM_OBJECT,
     .description = "The project agent file's `permission` block."},
    {.name = "agent_invalid",
     .kind = RP_PARAM_BOOL,
     .default_json = "false",
     .description = "An agent file exists but could not be read: fail closed as project_invalid."},
    {.name = "agent",
     .kind = RP_PARAM_STRING,
     .description = "The active agent's name (the agent scopes apply only with a name)."},
    {.name = "shell_tool_args",
     .kind = RP_PARAM_OBJECT,
     .description = "pi's shellTools: {tool: {commandArgument, workdirArgument?}} for tools "
                    "other than bash that run shell commands."},
    {.name = "yolo_mode",
     .kind = RP_PARAM_BOOL,
     .default_json = "false",
     .description = "Every ask becomes allow; deny is kept."},
    {.name = "infrastructure_read_paths",
     .kind = RP_PARAM_STRING_LIST,
     .default_json = "[]",
     .description = "Extra read-only directories or globs outside cwd that reads may use "
                    "without the external_directory gate (piInfrastructureReadPaths)."},
    {.name = "mcp_servers",
     .kind = RP_PARAM_STRING_LIST,
     .default_json = "[]",
     .description = "Configured MCP server names (to recognise `tool_server` names)."},
    {.name = "skills",
     .kind = RP_PARAM_ARRAY,
     .default_json = "[]",
     .description = "Active skills [{name, path}]: a read inside a skill's directory is decided "
                    "by the skill surface."},
    {.name = "platform",
     .kind = RP_PARAM_STRING,
     .enum_values = platform_values,
     .description = "posix or win32 path rules (default: the host's), so Windows folding can be "
                    "tested anywhere."},
    {.name = "load_pi_config",
     .kind = RP_PARAM_BOOL,
     .default_json = "false",
     .description = "Read the scopes from pi's own files at each check (config.json, agent "
                    "front-matter, mcp.json); the project's files only from a directory trusted "
                    "with `rampart trust`. Excludes the inline scope parameters."},
    {.name = "pi_agent_dir",
     .kind = RP_PARAM_STRING,
     .description = "pi's agent directory (default <HOME>/.pi/agent), an infrastructure "
                    "read path."},
};

static const char *const permissions_keys[] = {RP_PERM_SESSION_KEY, NULL};

/* ---- create ---- */

static int merge_scope(rp_arena *a, const rp_json *params, const char *name, rp_perm_origin origin,
                       rp_perm_map *merged, bool *present, rp_param_error *err)
{
    const rp_json *v = rp_json_get(params, name);
    *present = false;
    if (v == NULL || v->type == RP_JSON_NULL)
        return 0;
    rp_perm_map m;
    rp_perm_issue issue;
    if (rp_perm_map_parse(a, v, origin, true, name, &m, &issue) != 0)
        return rp_param_fail(err, name, "%s: %s", issue.path, issue.message);
    rp_perm_map_merge(a, merged, &m);
    *present = true;
    return 0;
}

static int read_aliases(rp_arena *a, const rp_json *v, permissions *p, rp_param_error *err)
{
    if (v == NULL || v->type == RP_JSON_NULL)
        return 0;
    rp_perm_shell_alias *list = rp_arena_calloc(a, (v->len + 1) * sizeof *list);
    for (uint32_t i = 0; i < v->len; i++) {
        const rp_json_member *m = &v->v.members[i];
        const rp_json *e = &m->value;
        if (!rp_json_is_object(e))
            return rp_param_fail(err, "shell_tool_args",
                                 "shell_tool_args.%s must be an object "
                                 "{commandArgument, workdirArgument?}",
                                 m->key);
        for (uint32_t k = 0; k < e->len; k++) {
            const char *key = e->v.members[k].key;
            if (strcmp(key, "commandArgument") != 0 && strcmp(key, "workdirArgument") != 0)
                return rp_param_fail(err, "shell_tool_args",
                                     "shell_tool_args.%s: unknown key '%s' (expected "
                                     "commandArgument, workdirArgument)",
                                     m->key, key);
        }
        const char *cmd = rp_json_get_str(e, "commandArgument");
        const rp_json *wd = rp_json_get(e, "workdirArgument");
        if (cmd == NULL || cmd[0] == '\0')
            return rp_param_fail(err, "shell_tool_args",
                                 "shell_tool_args.%s.commandArgument must be a non-empty string",
                                 m->key);
        if (wd && !(rp_json_is_string(wd) && wd->len > 0))
            return rp_param_fail(err, "shell_tool_args",
                                 "shell_tool_args.%s.workdirArgument must be a non-empty string",
                                 m->key);
        if (m->key[0] == '\0')
            return rp_param_fail(err, "shell_tool_args", "shell_tool_args: empty tool name");
        list[i] = (rp_perm_shell_alias){m->key, cmd, wd ? wd->v.s : NULL};
    }
    p->settings.aliases = list;
    p->settings.n_aliases = v->len;
    return 0;
}

static int read_skills(rp_arena *a, const rp_json *v, permissions *p, rp_param_error *err)
{
    rp_perm_skill *list = rp_arena_calloc(a, (v->len + 1) * sizeof *list);
    for (uint32_t i = 0; i < v->len; i++) {
        const rp_json *e = &v->v.items[i];
        const char *name = rp_json_get_str(e, "name"), *path = rp_json_get_str(e, "path");
        if (!rp_json_is_object(e) || name == NULL || path == NULL || path[0] != '/')
            return rp_param_fail(err, "skills",
                                 "skills[%u] must be {name: string, path: absolute path}",
                                 (unsigned)i);
        const char *norm = rp_pathf_normalize(a, RP_PATH_POSIX, path);
        size_t n = strlen(norm);
        bool is_file = n > 3 && strcmp(norm + n - 3, ".md") == 0;
        list[i].name = name;
        list[i].location = is_file ? norm : NULL;
        list[i].dir = is_file ? rp_pathf_dirpart(a, RP_PATH_POSIX, norm) : norm;
        if (is_file && strlen(list[i].dir) > 1)
            ((char *)list[i].dir)[strlen(list[i].dir) - 1] = '\0';
    }
    p->settings.skills = list;
    p->settings.n_skills = v->len;
    return 0;
}

static int permissions_create(const rp_json *params, rp_arena *a, void **instance,
                              rp_param_error *err)
{
    permissions *p = rp_arena_calloc(a, sizeof *p);
    p->load_pi = rp_json_truthy(rp_json_get(params, "load_pi_config"));
    if (p->load_pi) {
        static const char *const inline_scopes[] = {"permission", "project_permission",
                                                    "agent_permission", "project_agent_permission"};
        for (size_t i = 0; i < 4; i++) {
            const rp_json *v = rp_json_get(params, inline_scopes[i]);
            if (v && v->type != RP_JSON_NULL)
                return rp_param_fail(err, inline_scopes[i],
                                     "%s cannot be combined with load_pi_config: the scopes "
                                     "then come from pi's files",
                                     inline_scopes[i]);
        }
    }
    rp_perm_map merged = {0};
    bool present;
    if (merge_scope(a, params, "permission", RP_PERM_ORIGIN_GLOBAL, &merged, &present, err) != 0 ||
        merge_scope(a, params, "project_permission", RP_PERM_ORIGIN_PROJECT, &merged, &present,
                    err) != 0)
        return -1;
    bool clamp = rp_json_truthy(rp_json_get(params, "project_invalid"));
    const char *agent = rp_json_get_str(params, "agent");
    bool has_agent_scope = rp_json_get(params, "agent_permission") &&
                           rp_json_get(params, "agent_permission")->type != RP_JSON_NULL;
    bool has_project_agent = rp_json_get(params, "project_agent_permission") &&
                             rp_json_get(params, "project_agent_permission")->type != RP_JSON_NULL;
    if ((has_agent_scope || has_project_agent) && (agent == NULL || agent[0] == '\0'))
        return rp_param_fail(err, "agent",
                             "agent_permission/project_agent_permission need the active agent's "
                             "name in `agent`");
    if (merge_scope(a, params, "agent_permission", RP_PERM_ORIGIN_AGENT, &merged, &present, err) !=
            0 ||
        merge_scope(a, params, "project_agent_permission", RP_PERM_ORIGIN_PROJECT_AGENT, &merged,
                    &present, err) != 0)
        return -1;
    if (agent && agent[0])
        clamp = clamp || rp_json_truthy(rp_json_get(params, "agent_invalid"));
    rp_perm_compose(a, &merged, clamp, &p->settings.rules);

    p->settings.yolo = rp_json_truthy(rp_json_get(params, "yolo_mode"));
    const char *platform = rp_json_get_str(params, "platform");
    p->settings.flavor = platform ? (strcmp(platform, "win32") == 0 ? RP_PATH_WIN32 : RP_PATH_POSIX)
                                  : rp_path_host_flavor();
    if (read_aliases(a, rp_json_get(params, "shell_tool_args"), p, err) != 0 ||
        read_skills(a, rp_json_get(params, "skills"), p, err) != 0)
        return -1;
    p->extra_infra =
        rp_pol_string_list(rp_json_get(params, "infrastructure_read_paths"), a, &p->n_extra_infra);
    for (size_t i = 0; i < p->n_extra_infra; i++)
        if (p->extra_infra[i][0] == '\0')
            return rp_param_fail(err, "infrastructure_read_paths",
                                 "infrastructure_read_paths[%zu] is empty", i);
    p->settings.mcp_servers =
        rp_pol_string_list(rp_json_get(params, "mcp_servers"), a, &p->settings.n_mcp_servers);
    for (size_t i = 0; i < p->settings.n_mcp_servers; i++) {
        /* Names are trimmed (pi reads them from mcp.json keys). */
        const char *s = p->settings.mcp_servers[i];
        while (*s == ' ' || *s == '\t')
            s++;
        size_t n = strlen(s);
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
            n--;
        p->settings.mcp_servers[i] = rp_arena_strndup(a, s, n);
    }
    const char *agent_dir = rp_json_get_str(params, "pi_agent_dir");
    p->agent_dir = agent_dir ? rp_arena_strdup(a, agent_dir) : NULL;
    const char *home = getenv("HOME");
    p->env_home = home && home[0] ? rp_arena_strdup(a, home) : NULL;
    const char *pi_dir = getenv("PI_CODING_AGENT_DIR");
    p->env_agent_dir = pi_dir && pi_dir[0] ? rp_arena_strdup(a, pi_dir) : NULL;
    p->agent_name = agent && agent[0] ? rp_arena_strdup(a, agent) : NULL;
    *instance = p;
    return 0;
}

/* ---- evaluate ---- */

/* The session's approvals from state: [{surface, pattern}], malformed entries skipped. */
static size_t session_rules(rp_arena *a, const rp_json *state, rp_perm_rule **out)
{
    const rp_json *list = rp_json_get(state, RP_PERM_SESSION_KEY);
    *out = NULL;
    if (!rp_json_is_array(list) || list->len == 0)
        return 0;
    rp_perm_rule *rules = rp_arena_calloc(a, list->len * sizeof *rules);
    size_t n = 0;
    for (uint32_t i = 0; i < list->len; i++) {
        const rp_json *e = &list->v.items[i];
        const char *surface = rp_json_get_str(e, "surface"),
                   *pattern = rp_json_get_str(e, "pattern");
        if (surface == NULL || pattern == NULL || surface[0] == '\0' || pattern[0] == '\0')
            continue;
        rules[n++] = (rp_perm_rule){.surface = surface,
                                    .pattern = pattern,
                                    .action = RP_PERM_ALLOW,
                                    .layer = RP_PERM_LAYER_SESSION,
                                    .origin = RP_PERM_ORIGIN_SESSION};
    }
    *out = rules;
    return n;
}

/* The file reader of perm_load.c, from the evaluation context's filesystem view. */
static int read_through_view(void *self, const char *path, rp_arena *a, char **data, size_t *len)
{
    const rp_fs_view *fs = self;
    return fs->read_file(fs->self, path, a, data, len);
}

/* load_pi_config: the settings from pi's files for this call's cwd and HOME. Problems in the
 * files (a rejected config.json, an untrusted project) do not stop the check: pi's own
 * fail-closed rules apply (a rejected global asks everything, a rejected project clamps), and
 * they are said, in *notes (added to the reason) and through ctx->warn. */
static int load_pi_settings(const permissions *p, rp_eval_ctx *ctx, const rp_path_ctx *pc,
                            const char *home, rp_perm_settings *s, const char **agent_dir_out,
                            const char **notes)
{
    rp_arena *a = ctx->arena;
    if (ctx->fs == NULL || ctx->fs->read_file == NULL)
        return rp_fail(ctx, "load_pi_config: this evaluation cannot read files");
    const char *agent_dir = p->agent_dir ? p->agent_dir : p->env_agent_dir;
    if (agent_dir == NULL && home)
        agent_dir = rp_pathf_join(a, RP_PATH_POSIX, home, ".pi/agent");
    if (agent_dir == NULL)
        return rp_fail(ctx, "load_pi_config: no HOME and no pi_agent_dir to find pi's files");
    const char *cwd = pc->cwd;
    bool trusted = cwd && ctx->is_trusted &&
                   ctx->is_trusted(ctx->trust_self, pc->cwd_canonical ? pc->cwd_canonical : cwd);
    rp_perm_file_reader rd = {(void *)ctx->fs, read_through_view};
    rp_perm_pi_config cfg;
    char err[256];
    if (rp_perm_load_pi(a, &rd, agent_dir, cwd, p->agent_name, trusted, &cfg, err, sizeof err) != 0)
        return rp_fail(ctx, "load_pi_config: %s", err);
    rp_perm_map merged;
    bool clamp;
    rp_perm_pi_merge(a, &cfg, &merged, &clamp);
    rp_perm_compose(a, &merged, clamp, &s->rules);
    s->yolo = cfg.yolo;
    s->aliases = cfg.shell_tools;
    s->n_aliases = cfg.n_shell_tools;
    s->mcp_servers = cfg.mcp_servers;
    s->n_mcp_servers = cfg.n_mcp_servers;
    if (cfg.n_infra) {
        const char **infra = rp_arena_alloc(a, (cfg.n_infra + s->n_infra) * sizeof *infra);
        if (s->n_infra)
            memcpy(infra, s->infra, s->n_infra * sizeof *infra);
        memcpy(infra + s->n_infra, cfg.infra, cfg.n_infra * sizeof *infra);
        s->infra = infra;
        s->n_infra += cfg.n_infra;
    }
    *agent_dir_out = agent_dir;
    rp_buf b = {0};
    for (size_t i = 0; i < cfg.n_issues; i++)
        rp_buf_printf(&b, "%s%s: %s: %s", b.len ? "; " : "", cfg.issues[i].file, cfg.issues[i].path,
                      cfg.issues[i].message);
    if (cfg.warning)
        rp_buf_printf(&b, "%s%s", b.len ? "; " : "", cfg.warning);
    if (b.len == 0) {
        rp_buf_free(&b);
        *notes = NULL;
        return 0;
    }
    *notes = rp_buf_to_arena(&b, a);
    if (ctx->warn)
        ctx->warn(ctx->warn_self, ctx->policy_name ? ctx->policy_name : "permissions", *notes);
    return 0;
}

/* rp_perm_call.parse_shell: the evaluation's one parse, shared with the other shell policies. */
static int parse_shell(void *self, const char *command, struct rp_sh_parse *out)
{
    return rp_shell_parse_once(self, command, out);
}

static int check_call(const permissions *p, const rp_event *ev, const char *tool,
                      const rp_json *args, const rp_json *state, rp_eval_ctx *ctx,
                      rp_perm_outcome *out, const char **notes)
{
    *notes = NULL;
    rp_arena *a = ctx->arena;
    const char *home = ev->home && ev->home[0] ? ev->home : p->env_home;
    /* The infrastructure list gets the agent dir (<HOME>/.pi/agent) in the gate, and only
     * when a read outside cwd asks for it. */
    rp_perm_settings s = p->settings;
    s.infra = p->extra_infra;
    s.n_infra = p->n_extra_infra;
    rp_path_ctx pc;
    rp_path_ctx_init(&pc, a, s.flavor, ev->cwd && ev->cwd[0] ? ev->cwd : NULL, home,
                     s.flavor == RP_PATH_WIN32 ? NULL : ctx->fs);
    const char *agent_dir = p->agent_dir;
    if (p->load_pi && load_pi_settings(p, ctx, &pc, home, &s, &agent_dir, notes) != 0)
        return -1;
    rp_perm_rule *session;
    size_t n_session = session_rules(a, state, &session);
    rp_json empty = rp_json_make_object();
    rp_perm_call call = {.tool = tool,
                         .input = rp_json_is_object(args) ? args : &empty,
                         .pc = &pc,
                         .agent_dir = agent_dir,
                         .parse_shell = parse_shell,
                         .parse_self = ctx};
    return rp_perm_run_gates(a, &s, session, n_session, &call, out);
}

/* An approval "for this session": append the suggested rules of the call to session state. */
static int record_approval(const permissions *p, const rp_event *ev, const rp_json *state,
                           rp_eval_ctx *ctx, rp_result *out)
{
    rp_arena *a = ctx->arena;
    const char *scope = rp_json_get_str(ev->data, "scope");
    const char *tool = rp_json_get_str(ev->data, "name");
    const rp_json *args = rp_json_get(ev->data, "arguments");
    if (tool == NULL || tool[0] == '\0')
        return rp_fail(ctx, "permission_approval needs data.name (the tool) and data.arguments");
    if (scope == NULL || strcmp(scope, "session") != 0) {
        out->verdict = RP_ABSTAIN; /* "approve once" records nothing */
        return 0;
    }
    rp_perm_outcome o;
    const char *notes;
    if (check_call(p, ev, tool, args, state, ctx, &o, &notes) != 0)
        return -1;
    if (o.action != RP_PERM_ASK || o.n_suggestions == 0) {
        out->verdict = RP_ABSTAIN;
        return 0;
    }
    const rp_json *old = rp_json_get(state, RP_PERM_SESSION_KEY);
    rp_json list = rp_json_is_array(old) ? rp_json_clone(a, old) : rp_json_make_array();
    for (size_t i = 0; i < o.n_suggestions; i++) {
        bool dup = false;
        for (uint32_t k = 0; k < list.len && !dup; k++) {
            const char *s2 = rp_json_get_str(&list.v.items[k], "surface");
            const char *p2 = rp_json_get_str(&list.v.items[k], "pattern");
            dup = s2 && p2 && strcmp(s2, o.suggestions[i].surface) == 0 &&
                  strcmp(p2, o.suggestions[i].pattern) == 0;
        }
        if (dup)
            continue;
        rp_json e = rp_json_make_object();
        rp_json_object_set(a, &e, "surface", rp_json_make_string(a, o.suggestions[i].surface));
        rp_json_object_set(a, &e, "pattern", rp_json_make_string(a, o.suggestions[i].pattern));
        rp_json_array_push(a, &list, e);
    }
    rp_result_add_update(a, out, RP_PERM_SESSION_KEY, RP_UPDATE_SET, list);
    out->verdict = RP_ALLOW;
    rp_buf b = {0};
    rp_buf_puts(&b, "approved for this session:");
    for (size_t i = 0; i < o.n_suggestions; i++)
        rp_buf_printf(&b, " %s \"%s\"", o.suggestions[i].surface, o.suggestions[i].pattern);
    out->reason = rp_buf_to_arena(&b, a);
    return 0;
}

/* A `/skill:<name>` prompt (reference §3.8): a skill whose state is deny is not loaded. Session
 * approvals do not apply to it, as in pi. */
static int check_skill_request(const permissions *p, const rp_event *ev, rp_eval_ctx *ctx,
                               rp_result *out)
{
    rp_arena *a = ctx->arena;
    const char *text = rp_event_request_text(ev, a);
    if (text == NULL)
        return 0;
    while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
        text++;
    if (strncmp(text, "/skill:", 7) != 0)
        return 0;
    const char *name = text + 7;
    size_t n = strcspn(name, " \t\n\r");
    if (n == 0)
        return 0;
    name = rp_arena_strndup(a, name, n);
    const char *home = ev->home && ev->home[0] ? ev->home : p->env_home;
    rp_perm_rules_view rv = {.config = &p->settings.rules,
                             .yolo = p->settings.yolo,
                             .flavor = p->settings.flavor,
                             .home = home};
    rp_perm_match m = rp_perm_evaluate(a, &rv, "skill", name);
    if (m.action != RP_PERM_DENY) {
        out->verdict = RP_ALLOW;
        return 0;
    }
    out->verdict = RP_DENY;
    out->reason =
        rp_arena_sprintf(a, "skill \"%s\" denied by rule skill \"%s\"%s%s", name, m.rule->pattern,
                         m.rule->reason ? ": " : "", m.rule->reason ? m.rule->reason : "");
    return 0;
}

static int permissions_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                                rp_eval_ctx *ctx, rp_result *out)
{
    const permissions *p = instance;
    if (ev->type == RP_EV_UNKNOWN && strcmp(ev->type_name, "permission_approval") == 0)
        return record_approval(p, ev, state, ctx, out);
    if (ev->type == RP_EV_REQUEST)
        return check_skill_request(p, ev, ctx, out);
    if (ev->type != RP_EV_TOOL_CALL)
        return 0;
    if (ev->tool_name == NULL || ev->tool_name[0] == '\0') {
        out->verdict = RP_DENY;
        out->reason = "permissions: a tool call without a tool name cannot be checked";
        return 0;
    }
    const rp_json *args = ev->arguments;
    if (args && args->type != RP_JSON_NULL && !rp_json_is_object(args)) {
        out->verdict = RP_DENY;
        out->reason = rp_arena_sprintf(
            ctx->arena, "permissions: the arguments of %s are not an object", ev->tool_name);
        return 0;
    }
    rp_perm_outcome o;
    const char *notes;
    if (check_call(p, ev, ev->tool_name, args, state, ctx, &o, &notes) != 0)
        return -1;
    out->verdict = o.action == RP_PERM_DENY ? RP_DENY : o.action == RP_PERM_ASK ? RP_ASK : RP_ALLOW;
    out->reason = o.reason;
    if (notes)
        out->reason = rp_arena_sprintf(ctx->arena, "%s%s(pi config: %s)", o.reason ? o.reason : "",
                                       o.reason ? " " : "", notes);
    return 0;
}

const rp_policy_type rp_policy_permissions = {
    .name = "permissions",
    .module = "rampart.policies.permissions",
    .description = "pi-permission-system permission rules: surfaces and glob patterns, last "
                   "match wins, cwd-aware path aliases and cd-aware bash path tokens.",
    .params = permissions_params,
    .n_params = sizeof permissions_params / sizeof permissions_params[0],
    .owned_keys = permissions_keys,
    .create = permissions_create,
    .evaluate = permissions_evaluate,
};
