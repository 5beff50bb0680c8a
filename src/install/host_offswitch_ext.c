/* host_offswitch_ext.c — what keeps rampart's extension from running in Pi and opencode
 * (host_offswitch.h), read the way the pinned hosts do: Pi 0.73.1
 * (dist/core/package-manager.js, its extension discovery), opencode 1.18.33 (its config
 * directories, OPENCODE_PURE, and the log where a plugin that fails to load is the only trace).
 */
#include <dirent.h>
#include <fnmatch.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "install/host_offswitch.h"
#include "core/arena.h"
#include "core/json.h"

/* ---- Pi ---- */

/* Pi's normalizeExactPattern: a leading "./" does not count. */
static const char *exact(const char *p)
{
    return strncmp(p, "./", 2) == 0 ? p + 2 : p;
}

/* Pi's isEnabledByOverrides for the auto-discovered file `file` (rel: relative to the settings'
 * base directory): "!glob" excludes, "+path" forces it back in, "-path" forces it out. The globs
 * are minimatch's; fnmatch without FNM_PATHNAME lets `*` cross a '/', which finds a superset.
 * Returns the entry that switches it off, or NULL. */
static const char *pi_override_off(const rp_json *list, const char *file, const char *rel)
{
    const char *name = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    const char *excluded = NULL, *forced_out = NULL;
    bool forced_in = false;
    for (uint32_t i = 0; rp_json_is_array(list) && i < list->len; i++) {
        const char *p = rp_json_str(&list->v.items[i]);
        if (!p || !p[0])
            continue;
        const char *q = p + 1;
        if (p[0] == '!' &&
            (fnmatch(q, rel, 0) == 0 || fnmatch(q, name, 0) == 0 || fnmatch(q, file, 0) == 0))
            excluded = excluded ? excluded : p;
        else if (p[0] == '+' && (strcmp(exact(q), rel) == 0 || strcmp(exact(q), file) == 0))
            forced_in = true;
        else if (p[0] == '-' && (strcmp(exact(q), rel) == 0 || strcmp(exact(q), file) == 0))
            forced_out = forced_out ? forced_out : p;
    }
    return forced_out ? forced_out : excluded && !forced_in ? excluded : NULL;
}

/* Whether an ignore file (.gitignore, .ignore, .fdignore) in the extensions directory makes Pi
 * skip `name` there: its lines in order, "!" re-including (gitignore semantics, enough for the
 * lines that can name a file at the directory's top). Returns the line, or NULL. */
static const char *pi_ignored(rp_arena *a, const char *path, const char *name)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char line[1024];
    const char *hit = NULL;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *p = line;
        bool negate = p[0] == '!';
        p += negate;
        if (!p[0] || p[0] == '#')
            continue;
        p += p[0] == '/';
        char pat[1024];
        snprintf(pat, sizeof pat, "%s", p);
        size_t n = strlen(pat);
        if (n > 0 && pat[n - 1] == '/')
            continue; /* directories only */
        if (fnmatch(pat, name, 0) == 0 ||
            (strncmp(pat, "**/", 3) == 0 && fnmatch(pat + 3, name, 0) == 0))
            hit = negate ? NULL : rp_arena_strdup(a, line);
    }
    fclose(f);
    return hit;
}

/* Pi loads only a directory's own entry points when it has them: a package.json whose "pi"
 * manifest lists extensions, or an index.ts / index.js. Returns which, or NULL. */
static const char *pi_entry_points(rp_arena *a, const char *dir)
{
    const char *pkg = rp_arena_sprintf(a, "%s/package.json", dir);
    const rp_json *ext =
        rp_json_get(rp_json_get(rp_install_offswitch_read_json(a, pkg), "pi"), "extensions");
    if (rp_json_is_array(ext) && ext->len > 0)
        return rp_arena_sprintf(a, "%s lists its own \"pi\".\"extensions\"", pkg);
    for (int i = 0; i < 2; i++) {
        const char *index = rp_arena_sprintf(a, "%s/index.%s", dir, i ? "js" : "ts");
        if (access(index, F_OK) == 0)
            return rp_arena_sprintf(a, "%s exists", index);
    }
    return NULL;
}

void rp_install_offswitch_pi(bool project, const char *hook_file, rp_buf *off)
{
    rp_arena a = {0};
    rp_arena_init(&a, 4096);
    const char *dir = getenv("PI_CODING_AGENT_DIR");
    const char *home = getenv("HOME");
    char cwd[PATH_MAX];
    const char *base = NULL; /* where Pi reads this scope's settings.json and extensions/ */
    if (project)
        base = getcwd(cwd, sizeof cwd) ? rp_arena_sprintf(&a, "%s/.pi", cwd) : NULL;
    else if (dir && dir[0])
        base = dir;
    else if (home)
        base = rp_arena_sprintf(&a, "%s/.pi/agent", home);
    /* PI_CODING_AGENT_DIR names the same place in another spelling (a trailing slash, a link):
     * then the checks below go on from the extension's own directory. */
    char have[PATH_MAX], same[PATH_MAX], hook_dir[PATH_MAX];
    snprintf(hook_dir, sizeof hook_dir, "%s", hook_file);
    if (!project && dir && dir[0] && realpath(rp_arena_sprintf(&a, "%s/extensions", dir), same) &&
        realpath(dirname(hook_dir), have) && strcmp(same, have) == 0) {
        snprintf(hook_dir, sizeof hook_dir, "%s", hook_file);
        base = dirname(dirname(hook_dir));
    }
    const char *want = base ? rp_arena_sprintf(&a, "%s/extensions/", base) : NULL;
    if (!project && dir && dir[0] && strncmp(hook_file, want, strlen(want)) != 0) {
        rp_install_offswitch_say(
            off, rp_arena_sprintf(&a,
                                  "PI_CODING_AGENT_DIR is %s, so Pi started from "
                                  "this environment loads its extensions from %s, "
                                  "not %s: unset it, or copy the extension there",
                                  dir, want, rp_install_offswitch_shown(&a, hook_file)));
        rp_arena_free(&a);
        return;
    }
    if (!base || strncmp(hook_file, want, strlen(want)) != 0) {
        rp_arena_free(&a);
        return;
    }
    /* The settings' "extensions" overrides. */
    const char *settings = rp_arena_sprintf(&a, "%s/settings.json", base);
    const rp_json *s = rp_install_offswitch_read_json(&a, settings);
    const char *rel = hook_file + strlen(base) + 1;
    const char *entry = pi_override_off(rp_json_get(s, "extensions"), hook_file, rel);
    if (entry)
        rp_install_offswitch_say(off,
                                 rp_arena_sprintf(&a,
                                                  "\"%s\" in the \"extensions\" of %s switches "
                                                  "rampart's extension off, so Pi does not load "
                                                  "it: remove that entry (or enable rampart.ts in "
                                                  "`pi config`)",
                                                  entry, rp_install_offswitch_shown(&a, settings)));
    /* The extensions directory itself: its own entry points, or an ignore file. */
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", hook_file);
    const char *ext_dir = rp_arena_strdup(&a, dirname(buf));
    const char *why = pi_entry_points(&a, ext_dir);
    if (why)
        rp_install_offswitch_say(off, rp_arena_sprintf(&a,
                                                       "%s, so Pi loads only that from %s and not "
                                                       "rampart.ts: move it into a subdirectory",
                                                       rp_install_offswitch_shown(&a, why),
                                                       rp_install_offswitch_shown(&a, ext_dir)));
    static const char *const ignores[] = {".gitignore", ".ignore", ".fdignore"};
    for (size_t i = 0; i < sizeof ignores / sizeof ignores[0]; i++) {
        const char *f = rp_arena_sprintf(&a, "%s/%s", ext_dir, ignores[i]);
        const char *line = pi_ignored(&a, f, strrchr(hook_file, '/') + 1);
        if (line)
            rp_install_offswitch_say(off,
                                     rp_arena_sprintf(&a,
                                                      "\"%s\" in %s makes Pi skip rampart.ts: "
                                                      "remove that line",
                                                      line, rp_install_offswitch_shown(&a, f)));
    }
    rp_arena_free(&a);
}

/* ---- opencode ---- */

/* opencode's boolean environment flags: "true" or "1", in any case. */
static bool oc_flag(const char *name)
{
    const char *v = getenv(name);
    return v && (strcasecmp(v, "true") == 0 || strcmp(v, "1") == 0);
}

/* The newest *.log in dir (by modification time), in a; NULL when there is none. */
static const char *newest_log(rp_arena *a, const char *dir, struct stat *st_out)
{
    DIR *d = opendir(dir);
    const char *best = NULL;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".log") != 0)
            continue;
        const char *p = rp_arena_sprintf(a, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && (!best || st.st_mtime > st_out->st_mtime)) {
            best = p;
            *st_out = st;
        }
    }
    if (d)
        closedir(d);
    return best;
}

/* The last line of the log at path that says rampart's plugin (hook_file) failed to load, in
 * a (cut to 300 bytes); NULL when there is none. Only the last 4 MiB are read. */
static const char *oc_load_failure(rp_arena *a, const char *path, const char *hook_file)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        fseek(f, size > (4L << 20) ? size - (4L << 20) : 0, SEEK_SET);
    }
    char line[8192];
    const char *hit = NULL;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, "failed to load plugin") && strstr(line, hook_file)) {
            line[strcspn(line, "\r\n")] = '\0';
            hit = rp_arena_strndup(a, line, strlen(line) > 300 ? 300 : strlen(line));
        }
    }
    fclose(f);
    return hit;
}

void rp_install_offswitch_opencode(bool project, const char *hook_file, rp_buf *off)
{
    rp_arena a = {0};
    rp_arena_init(&a, 4096);
    if (oc_flag("OPENCODE_PURE"))
        rp_install_offswitch_say(off, "OPENCODE_PURE is set, so opencode started from this "
                                      "environment loads no external plugin, rampart's included: "
                                      "unset it");
    if (project && oc_flag("OPENCODE_DISABLE_PROJECT_CONFIG"))
        rp_install_offswitch_say(off, "OPENCODE_DISABLE_PROJECT_CONFIG is set, so opencode started "
                                      "from this environment loads no plugin of the project's "
                                      ".opencode/: unset it");
    /* A plugin that fails to load is only logged, and the session goes on unguarded. The
     * newest log tells about the last start; one older than the plugin file is about a file
     * that has since been replaced. */
    const char *data = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    const char *log_dir = data && data[0] ? rp_arena_sprintf(&a, "%s/opencode/log", data)
                          : home ? rp_arena_sprintf(&a, "%s/.local/share/opencode/log", home)
                                 : NULL;
    struct stat log_st, hook_st;
    const char *log = log_dir ? newest_log(&a, log_dir, &log_st) : NULL;
    const char *line = NULL;
    if (log && stat(hook_file, &hook_st) == 0 && hook_st.st_mtime <= log_st.st_mtime)
        line = oc_load_failure(&a, log, hook_file);
    if (line)
        rp_install_offswitch_say(off,
                                 rp_arena_sprintf(&a,
                                                  "opencode's newest log %s says rampart's plugin "
                                                  "failed to load, so that session ran unguarded "
                                                  "(%s): fix what the error says, run `rampart "
                                                  "install opencode` again and restart opencode",
                                                  rp_install_offswitch_shown(&a, log), line));
    rp_arena_free(&a);
}
