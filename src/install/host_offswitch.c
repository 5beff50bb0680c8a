/* host_offswitch.c — what keeps an installed hook from running, per host (host_offswitch.h).
 *
 * Each check reads the host's own files the way the host does (as of the pinned versions:
 * Claude Code 2.1.197, Codex 0.171.0, Gemini CLI 0.61.0; Pi and opencode in
 * host_offswitch_ext.c) and says what to do in one sentence.
 * A file that is absent or does not parse turns nothing off here: the host would not read it
 * either, or doctor reports the parse error of the file it installed into. */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "install/host_offswitch.h"
#include "core/arena.h"
#include "core/json.h"
#include "install/codex_trust.h"
#include "install/install_targets.h"
#include "install/settings_splice.h"
#include "path/path.h"

#define CLAUDE_MANAGED_DIR     "/etc/claude-code"
#define GEMINI_SYSTEM_SETTINGS "/etc/gemini-cli/settings.json"

int rp_install_read_file(const char *path, rp_buf *out)
{
    rp_buf_reset(out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno == ENOENT ? 0 : -1;
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        rp_buf_append(out, chunk, n);
    fclose(f);
    rp_buf_append(out, "", 0);
    return 1;
}

/* The JSON object in path, or NULL (absent, unreadable or not an object). */
const rp_json *rp_install_offswitch_read_json(rp_arena *a, const char *path)
{
    rp_buf b = {0};
    const rp_json *v = NULL;
    if (rp_install_read_file(path, &b) == 1) {
        rp_json_error err;
        v = rp_json_parse(a, b.data, b.len, &err);
    }
    rp_buf_free(&b);
    return rp_json_is_object(v) ? v : NULL;
}

static bool is_true(const rp_json *v)
{
    return v && v->type == RP_JSON_BOOL && v->v.b;
}

static bool is_false(const rp_json *v)
{
    return v && v->type == RP_JSON_BOOL && !v->v.b;
}

/* A path for messages: $HOME shown as ~. */
const char *rp_install_offswitch_shown(rp_arena *a, const char *path)
{
    const char *home = getenv("HOME");
    size_t n = home ? strlen(home) : 0;
    if (n > 1 && strncmp(path, home, n) == 0 && path[n] == '/')
        return rp_arena_sprintf(a, "~%s", path + n);
    return path;
}

void rp_install_offswitch_say(rp_buf *b, const char *text)
{
    if (b->len)
        rp_buf_puts(b, "; ");
    rp_buf_puts(b, text);
}

static bool env_is(const char *name, const char *value)
{
    const char *v = getenv(name);
    return v && strcmp(v, value) == 0;
}

static bool env_truthy(const char *name)
{
    const char *v = getenv(name);
    return v && v[0] && strcmp(v, "0") != 0 && strcmp(v, "false") != 0;
}

/* ---- Claude Code ---- */

static void claude_file(rp_arena *a, const char *path, bool managed, rp_buf *off)
{
    const rp_json *s = rp_install_offswitch_read_json(a, path);
    if (is_true(rp_json_get(s, "disableAllHooks")))
        rp_install_offswitch_say(
            off, rp_arena_sprintf(a,
                                  "disableAllHooks is true in %s, so Claude Code runs no hook "
                                  "(rampart's included): %s",
                                  rp_install_offswitch_shown(a, path),
                                  managed ? "ask your administrator to remove it"
                                          : "remove it or set it to false"));
    if (managed && is_true(rp_json_get(s, "allowManagedHooksOnly")))
        rp_install_offswitch_say(
            off, rp_arena_sprintf(a,
                                  "allowManagedHooksOnly is true in %s, so Claude Code runs "
                                  "only managed hooks: ask your administrator to put rampart's "
                                  "hook in the managed settings",
                                  path));
}

static void claude(rp_arena *a, rp_buf *off)
{
    const char *home = getenv("HOME");
    if (home)
        claude_file(a, rp_arena_sprintf(a, "%s/.claude/settings.json", home), false, off);
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd)) {
        claude_file(a, rp_arena_sprintf(a, "%s/.claude/settings.json", cwd), false, off);
        claude_file(a, rp_arena_sprintf(a, "%s/.claude/settings.local.json", cwd), false, off);
    }
    claude_file(a, CLAUDE_MANAGED_DIR "/managed-settings.json", true, off);
    DIR *d = opendir(CLAUDE_MANAGED_DIR "/managed-settings.d");
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0)
            claude_file(a,
                        rp_arena_sprintf(a, CLAUDE_MANAGED_DIR "/managed-settings.d/%s", e->d_name),
                        true, off);
    }
    if (d)
        closedir(d);
    if (env_truthy("CLAUDE_CODE_SIMPLE"))
        rp_install_offswitch_say(
            off, "CLAUDE_CODE_SIMPLE is set (what `claude --bare` sets), so Claude Code "
                 "started from this environment runs no hook: unset it");
    if (env_truthy("CLAUDE_CODE_SAFE_MODE"))
        rp_install_offswitch_say(
            off, "CLAUDE_CODE_SAFE_MODE is set, so Claude Code started from this environment "
                 "runs only managed hooks: unset it");
}

/* ---- Codex ---- */

/* Codex reads its user files (hooks.json, config.toml) from $CODEX_HOME when that is set. */
static bool codex_home_elsewhere(rp_arena *a, const char *hook_file, rp_buf *off)
{
    const char *ch = getenv("CODEX_HOME");
    char want[PATH_MAX], have[PATH_MAX], dir[PATH_MAX];
    if (!ch || !ch[0])
        return false;
    snprintf(dir, sizeof dir, "%s", hook_file);
    if (realpath(ch, want) && realpath(dirname(dir), have) && strcmp(want, have) == 0)
        return false;
    rp_install_offswitch_say(off,
                             rp_arena_sprintf(a,
                                              "CODEX_HOME is %s, so Codex started from this "
                                              "environment reads %s/hooks.json, not %s: unset "
                                              "it, or start Codex without it",
                                              ch, ch, rp_install_offswitch_shown(a, hook_file)));
    return true;
}

/* The root of the git repository holding dir (the nearest directory, dir included, with a
 * .git entry, a file for a worktree or a directory), or NULL: Codex takes a project's trust
 * from that root's entry too. */
static const char *git_root(rp_arena *a, const char *dir)
{
    char path[PATH_MAX];
    if (dir == NULL || snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return NULL;
    for (;;) {
        char probe[PATH_MAX + 8];
        snprintf(probe, sizeof probe, "%s/.git", strcmp(path, "/") == 0 ? "" : path);
        if (access(probe, F_OK) == 0)
            return rp_arena_strdup(a, path);
        char *slash = strrchr(path, '/');
        if (slash == NULL || strcmp(path, "/") == 0)
            return NULL;
        if (slash == path)
            slash[1] = '\0'; /* "/x" -> "/" */
        else
            *slash = '\0';
    }
}

static void codex(rp_arena *a, bool project, const char *hook_file, const char *text, size_t len,
                  rp_buf *off)
{
    if (!project && codex_home_elsewhere(a, hook_file, off))
        return;
    const char *home = getenv("HOME");
    rp_buf toml = {0};
    if (home)
        rp_install_read_file(rp_arena_sprintf(a, "%s/.codex/config.toml", home), &toml);
    char cwd[PATH_MAX];
    const char *dir = project && getcwd(cwd, sizeof cwd) ? cwd : NULL;
    rp_install_codex_trust t;
    char err[256];
    if (rp_install_codex_trust_check(hook_file, text, len, toml.data, dir, git_root(a, dir), &t,
                                     err, sizeof err) != 0) {
        rp_buf_free(&toml);
        return; /* the file doctor read does not parse: reported there */
    }
    rp_buf_free(&toml);
    if (t.hooks_off)
        rp_install_offswitch_say(
            off, "[features] hooks = false in ~/.codex/config.toml, so Codex runs no hook: "
                 "remove it");
    if (t.project_untrusted)
        rp_install_offswitch_say(
            off, rp_arena_sprintf(a,
                                  "Codex does not trust this project, so it loads %s disabled: "
                                  "run `codex` here and trust the project (or set "
                                  "[projects.\"%s\"] trust_level = \"trusted\" in "
                                  "~/.codex/config.toml)",
                                  rp_install_offswitch_shown(a, hook_file), dir));
    size_t idle = t.untrusted + t.modified + t.disabled;
    if (idle == 0)
        return;
    const char *why = t.modified && !t.untrusted
                          ? "changed since you trusted it (another binary or -c), and Codex "
                            "runs a changed hook only once it is trusted again"
                      : t.modified  ? "not trusted, or changed since it was trusted"
                      : t.untrusted ? "not trusted, and Codex runs an untrusted hook not at all"
                                    : "disabled in Codex";
    rp_install_offswitch_say(
        off, rp_arena_sprintf(a,
                              "Codex will not run %zu of rampart's %zu hook handlers (%s first) "
                              "in %s: %s. %s",
                              idle, t.ours, t.event, rp_install_offswitch_shown(a, hook_file), why,
                              t.untrusted + t.modified
                                  ? "Start `codex`, and at \"Hooks need review\" choose \"Trust "
                                    "all and continue\" (or review them in /hooks)"
                                  : "Enable them in Codex's /hooks"));
}

/* ---- Gemini CLI ---- */

/* Gemini's trust of a folder (its isPathTrusted): the longest rule that contains the folder
 * decides; TRUST_PARENT trusts the rule's parent. 1 trusted, 0 DO_NOT_TRUST, -1 no rule. */
static int gemini_trust(const rp_json *rules, const char *folder)
{
    size_t best = 0;
    int trust = -1;
    for (uint32_t i = 0; rp_json_is_object(rules) && i < rules->len; i++) {
        const rp_json_member *m = &rules->v.members[i];
        const char *level = rp_json_str(&m->value);
        if (!level)
            continue;
        char buf[PATH_MAX], real[PATH_MAX];
        snprintf(buf, sizeof buf, "%s", m->key);
        const char *dir = strcmp(level, "TRUST_PARENT") == 0 ? dirname(buf) : buf;
        dir = realpath(dir, real) ? real : dir;
        if (rp_path_is_under(folder, dir) && m->key_len + 1 > best) {
            best = m->key_len + 1;
            trust = strcmp(level, "DO_NOT_TRUST") == 0 ? 0 : 1;
        }
    }
    return trust;
}

static void gemini_settings(rp_arena *a, const char *path, const char *hook_command, rp_buf *off,
                            bool *folder_trust)
{
    const rp_json *s = rp_install_offswitch_read_json(a, path);
    const rp_json *hc = rp_json_get(s, "hooksConfig");
    if (is_false(rp_json_get(hc, "enabled")))
        rp_install_offswitch_say(
            off, rp_arena_sprintf(a,
                                  "hooksConfig.enabled is false in %s, so Gemini CLI runs no "
                                  "hook: remove it",
                                  rp_install_offswitch_shown(a, path)));
    const rp_json *disabled = rp_json_get(hc, "disabled");
    for (uint32_t i = 0; rp_json_is_array(disabled) && i < disabled->len; i++) {
        const char *name = rp_json_str(&disabled->v.items[i]);
        if (name &&
            ((hook_command && strcmp(name, hook_command) == 0) ||
             rp_install_splice_is_our_command(name, "gemini") || strcmp(name, "rampart") == 0)) {
            rp_install_offswitch_say(
                off, rp_arena_sprintf(a,
                                      "hooksConfig.disabled in %s lists rampart's hook, so "
                                      "Gemini CLI skips it: remove \"%s\" from it",
                                      rp_install_offswitch_shown(a, path), name));
            break;
        }
    }
    if (is_false(rp_json_get(rp_json_get(rp_json_get(s, "security"), "folderTrust"), "enabled")))
        *folder_trust = false;
}

/* The command of rampart's first handler in Gemini's settings text. */
static void first_command(void *self, const char *command)
{
    const char **out = self;
    if (!*out)
        *out = strdup(command);
}

static void gemini(rp_arena *a, bool project, const char *hook_text, size_t hook_len, rp_buf *off,
                   rp_buf *caveat)
{
    const char *command = NULL;
    rp_install_splice_error serr;
    rp_install_splice_spec spec = rp_install_spec(rp_install_target_find("gemini"), "");
    rp_install_splice_find_ours(hook_text, hook_len, &spec, first_command, &command, &serr);
    const char *ours = command ? rp_arena_sprintf(a, "%s", command) : NULL;
    free((char *)command);

    const char *home = getenv("HOME");
    char cwd[PATH_MAX];
    bool have_cwd = getcwd(cwd, sizeof cwd) != NULL;
    bool folder_trust = true; /* Gemini's default (security.folderTrust.enabled) */
    const char *sys = getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH");
    gemini_settings(a, sys && sys[0] ? sys : GEMINI_SYSTEM_SETTINGS, ours, off, &folder_trust);
    if (home)
        gemini_settings(a, rp_arena_sprintf(a, "%s/.gemini/settings.json", home), ours, off,
                        &folder_trust);
    if (have_cwd)
        gemini_settings(a, rp_arena_sprintf(a, "%s/.gemini/settings.json", cwd), ours, off,
                        &folder_trust);

    if (env_is("GEMINI_CLI_TRUST_WORKSPACE", "false") || env_is("GEMINI_RESTRICTED_MODE", "true"))
        rp_install_offswitch_say(
            off, "GEMINI_CLI_TRUST_WORKSPACE=false or GEMINI_RESTRICTED_MODE=true is set, so "
                 "Gemini CLI started from this environment trusts no folder and runs no hook: "
                 "unset it");
    if (!folder_trust || env_is("GEMINI_CLI_TRUST_WORKSPACE", "true"))
        return;
    const char *tf = getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH");
    const char *tf_path = tf && tf[0] ? tf
                          : home      ? rp_arena_sprintf(a, "%s/.gemini/trustedFolders.json", home)
                                      : NULL;
    const rp_json *rules = tf_path ? rp_install_offswitch_read_json(a, tf_path) : NULL;
    char real[PATH_MAX];
    const char *here = have_cwd && realpath(cwd, real) ? real : cwd;
    if (project && have_cwd && gemini_trust(rules, here) != 1)
        rp_install_offswitch_say(
            off, rp_arena_sprintf(a,
                                  "Gemini CLI does not trust this folder, and loads no hook of "
                                  "an untrusted folder (--skip-trust does not load its "
                                  ".gemini/settings.json either): run `gemini` here and choose "
                                  "\"Trust folder\", or add \"%s\": \"TRUST_FOLDER\" to %s",
                                  here,
                                  tf_path ? rp_install_offswitch_shown(a, tf_path)
                                          : "trustedFolders.json"));
    if (project)
        return;
    /* A user install runs everywhere but in the folders the user declined to trust. */
    rp_buf list = {0};
    for (uint32_t i = 0; rp_json_is_object(rules) && i < rules->len; i++)
        if (strcmp(rp_json_str(&rules->v.members[i].value) ? rp_json_str(&rules->v.members[i].value)
                                                           : "",
                   "DO_NOT_TRUST") == 0)
            rp_buf_printf(&list, "%s%s", list.len ? ", " : "", rules->v.members[i].key);
    if (list.len)
        rp_install_offswitch_say(
            caveat, rp_arena_sprintf(a,
                                     "Gemini CLI runs no hook, rampart's included, in the folders "
                                     "marked DO_NOT_TRUST in %s (%s): trust them, or run no "
                                     "agent there",
                                     rp_install_offswitch_shown(a, tf_path), list.data));
    rp_buf_free(&list);
}

void rp_install_offswitch(const char *host, bool project, const char *hook_file,
                          const char *hook_text, size_t hook_len, rp_buf *off, rp_buf *caveat)
{
    rp_arena a = {0};
    rp_arena_init(&a, 16 * 1024);
    if (strcmp(host, "claude-code") == 0)
        claude(&a, off);
    else if (strcmp(host, "codex") == 0)
        codex(&a, project, hook_file, hook_text, hook_len, off);
    else if (strcmp(host, "gemini") == 0)
        gemini(&a, project, hook_text, hook_len, off, caveat);
    else if (strcmp(host, "pi") == 0)
        rp_install_offswitch_pi(project, hook_file, off);
    else if (strcmp(host, "opencode") == 0)
        rp_install_offswitch_opencode(project, hook_file, off);
    rp_arena_free(&a);
}
