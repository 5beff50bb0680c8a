/* blast_classify.c — blast_radius's verdict on each simple command the parser found.
 *
 * The reference reads commands with its own splitter and is bypassed by every wrapper, path and
 * list form (§5.13). Here each simple command of rp_sh_parse — wrapped, re-parsed, substituted
 * or remote — is judged by its normalised program name and its argv after quote removal, so
 * text inside arguments (`echo "rm -rf /"`) stays data. Catastrophic = irreversible (DENY);
 * risky = recoverable but worth a human look (risky_action). */
#include <string.h>

#include "core/buf.h"
#include "path/path.h"
#include "policies/shell/blast_radius.h"
#include "shell/cwd.h"
#include "shell/devices.h"
#include "shell/git.h"
#include "shell/programs.h"

#define DEFAULT_HOME "/home/user" /* when the event carries no context.home */
#define MAX_ARGS     256          /* words of one git push considered (more are ignored) */

static bool streq(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Whether `opt` (up to any '=') abbreviates `full` with at least `min_len` characters: git and
 * GNU getopt accept any unambiguous prefix of a long option. */
static bool long_opt_abbrev(const char *opt, const char *full, size_t min_len)
{
    size_t n = strcspn(opt, "=");
    return n >= min_len && n <= strlen(full) && strncmp(opt, full, n) == 0;
}

static bool is_short_bundle(const char *t)
{
    return t[0] == '-' && t[1] != '-' && t[1] != '\0';
}

static const char *word(const rp_sh_command *c, size_t i)
{
    return c->words[i].text;
}

static bool word_static(const rp_sh_command *c, size_t i)
{
    return rp_sh_word_static(&c->words[i]);
}

/* The outermost command a wrapped one came from: it carries the pipeline position. */
static const rp_sh_command *outermost(const rp_sh_command *c)
{
    while (c->wrapper != NULL)
        c = c->wrapper;
    return c;
}

/* ---- paths ---- */

static const char *const system_dirs[] = {"/",     "/etc",   "/usr", "/bin",  "/sbin",
                                          "/lib",  "/lib64", "/var", "/boot", "/root",
                                          "/home", "/opt",   "/dev", "/proc", "/sys"};
static const char *const system_parents[] = {"/etc", "/usr",  "/bin", "/sbin", "/lib", "/lib64",
                                             "/var", "/boot", "/dev", "/proc", "/sys"};

/* A normalised absolute path that is a system directory or lies under a system parent. */
static bool is_system_path(const char *path)
{
    if (path[0] != '/')
        return false;
    for (size_t i = 0; i < sizeof system_dirs / sizeof system_dirs[0]; i++)
        if (streq(path, system_dirs[i]))
            return true;
    for (size_t i = 0; i < sizeof system_parents / sizeof system_parents[0]; i++)
        if (rp_path_is_under(path, system_parents[i]))
            return true;
    return false;
}

/* "~name" → that user's home, as far as text can tell. */
static const char *expand_user_home(rp_arena *a, const char *t)
{
    size_t n = strcspn(t + 1, "/");
    if (n == 4 && strncmp(t + 1, "root", 4) == 0)
        return rp_arena_sprintf(a, "/root%s", t + 1 + n);
    return rp_arena_sprintf(a, "/home/%.*s%s", (int)n, t + 1, t + 1 + n);
}

bool rp_blast_rm_target_catastrophic(rp_arena *a, const char *target, const char *home)
{
    if (home == NULL || home[0] != '/')
        home = DEFAULT_HOME;
    if (starts_with(target, "/*"))
        return true;
    const char *t = target;
    if (t[0] == '~' && t[1] != '\0' && t[1] != '/')
        t = expand_user_home(a, t);
    else
        t = rp_path_expand_home(a, t, home);
    const char *norm = rp_path_normalize(a, t);
    const char *norm_home = rp_path_normalize(a, home);
    if (streq(norm, norm_home) || is_system_path(norm))
        return true;
    /* A glob of everything in a directory ("dir/" then "*" or ".*") empties it as surely as
     * removing it. */
    const char *last = strrchr(norm, '/');
    if (last != NULL && (streq(last, "/*") || streq(last, "/.*"))) {
        char *parent = rp_arena_strndup(a, norm, last == norm ? 1 : (size_t)(last - norm));
        return streq(parent, norm_home) || is_system_path(parent);
    }
    /* A glob in the first component of an absolute path may match a system directory. */
    if (norm[0] == '/' && strcspn(norm + 1, "*?[") < strcspn(norm + 1, "/"))
        return true;
    return false;
}

/* An operand as the path it names after the cd fold (shell/cwd.h): a relative word is joined
 * to the directory the command runs in when that is a known absolute one (`cd / && rm -rf *`
 * removes everything under /); otherwise it is kept as written. A word starting with a variable or
 * a substitution keeps its spelling, so that `$HOME/x` is still read as such. */
static const char *in_cwd(rp_arena *a, const rp_sh_word *w, const char *cwd)
{
    unsigned expands = RP_SH_WORD_VAR | RP_SH_WORD_CMDSUB | RP_SH_WORD_ARITH | RP_SH_WORD_PROCSUB;
    if (cwd == NULL || cwd[0] != '/' || w->text[0] == '/' || w->text[0] == '~' ||
        (w->flags & expands))
        return w->text;
    return rp_path_join(a, cwd, w->text);
}

/* ---- rm ---- */

/* rm's severity over words[first..]: recursive (--recursive or its abbreviations, or a short
 * bundle with r/R) with a catastrophic target is catastrophic, otherwise recursive is risky.
 * A dynamic word before `--` may be an option: with a catastrophic target that is risky.
 * extra_targets are targets the wrapper adds (find's start points for -exec rm). */
static rp_blast_severity rm_severity(rp_arena *a, const rp_sh_command *c, size_t first,
                                     const char *home, const char *cwd,
                                     const char *const *extra_targets, size_t n_extra)
{
    bool recursive = false, maybe_option = false, catastrophic = false, after_dashes = false;
    for (size_t i = first; i < c->n_words; i++) {
        const char *t = word(c, i);
        bool is_static = word_static(c, i);
        if (!after_dashes && is_static && streq(t, "--")) {
            after_dashes = true;
            continue;
        }
        if (!after_dashes && t[0] == '-' && t[1] != '\0') {
            if (t[1] == '-')
                recursive |= long_opt_abbrev(t, "--recursive", 3);
            else
                recursive |= strpbrk(t + 1, "rR") != NULL;
            continue;
        }
        if (!after_dashes && !is_static)
            maybe_option = true;
        catastrophic |= rp_blast_rm_target_catastrophic(a, in_cwd(a, &c->words[i], cwd), home);
    }
    for (size_t i = 0; i < n_extra; i++)
        catastrophic |= rp_blast_rm_target_catastrophic(a, extra_targets[i], home);
    if (recursive)
        return catastrophic ? RP_BLAST_CATASTROPHIC : RP_BLAST_RISKY;
    if (maybe_option && catastrophic)
        return RP_BLAST_RISKY;
    return RP_BLAST_NONE;
}

/* Whether find selects files by more than their type and depth (-name, -mtime, …): then an rm
 * it runs does not reach every file below its start points. */
static bool find_narrows(const rp_sh_command *f)
{
    static const char *const narrow[] = {
        "-name",   "-iname",    "-path",   "-ipath", "-wholename", "-iwholename", "-regex",
        "-iregex", "-lname",    "-ilname", "-newer", "-mtime",     "-mmin",       "-atime",
        "-amin",   "-ctime",    "-cmin",   "-size",  "-user",      "-group",      "-perm",
        "-inum",   "-samefile", "-links",  "-empty", "-uid",       "-gid",        "-prune"};
    for (size_t i = 1; i < f->n_words; i++) {
        if (!word_static(f, i))
            return true;
        for (size_t k = 0; k < sizeof narrow / sizeof narrow[0]; k++)
            if (streq(word(f, i), narrow[k]))
                return true;
    }
    return false;
}

/* find's start points (the words before the first expression) for find -exec rm. find walks
 * the whole tree below them, so an rm it runs on every file it finds (`find ~ -type f -exec rm
 * {} \;`) removes the tree as `rm -r` would. */
static rp_blast_severity rm_under_find(rp_arena *a, const rp_sh_command *c, const char *home,
                                       const char *cwd)
{
    const rp_sh_command *f = c->wrapper;
    const char *starts[16];
    size_t n = 0;
    for (size_t i = 1; i < f->n_words && n < 16; i++) {
        const char *t = word(f, i);
        if (t[0] == '-' || t[0] == '(' || t[0] == '!')
            break;
        starts[n++] = in_cwd(a, &f->words[i], cwd);
    }
    rp_blast_severity s = rm_severity(a, c, 1, home, cwd, starts, n);
    if (s < RP_BLAST_CATASTROPHIC && !find_narrows(f))
        for (size_t i = 0; i < n; i++)
            if (rp_blast_rm_target_catastrophic(a, starts[i], home))
                return RP_BLAST_CATASTROPHIC;
    return s;
}

/* `find START… -delete`: removes the whole tree below START. */
static rp_blast_severity find_severity(rp_arena *a, const rp_sh_command *c, const char *home,
                                       const char *cwd)
{
    bool deletes = false;
    for (size_t i = 1; i < c->n_words; i++)
        deletes |= word_static(c, i) && streq(word(c, i), "-delete");
    if (!deletes)
        return RP_BLAST_NONE;
    for (size_t i = 1; i < c->n_words; i++) {
        const char *t = word(c, i);
        if (t[0] == '-' || t[0] == '(' || t[0] == '!')
            break;
        if (rp_blast_rm_target_catastrophic(a, in_cwd(a, &c->words[i], cwd), home))
            return RP_BLAST_CATASTROPHIC;
    }
    return RP_BLAST_NONE;
}

/* ---- git ---- */

rp_blast_severity rp_blast_push_args(const char *const *args, size_t n)
{
    bool after_dashes = false;
    for (size_t i = 0; i < n; i++) {
        const char *t = args[i];
        if (!after_dashes && streq(t, "--")) {
            after_dashes = true;
            continue;
        }
        if (!after_dashes && t[0] == '-' && t[1] == '-') {
            if (starts_with(t, "--force") || long_opt_abbrev(t, "--force-with-lease", 4) ||
                long_opt_abbrev(t, "--force-if-includes", 4) || long_opt_abbrev(t, "--delete", 4) ||
                long_opt_abbrev(t, "--mirror", 3) || long_opt_abbrev(t, "--prune", 5))
                return RP_BLAST_CATASTROPHIC;
            /* Options with a separate value: the value is not a refspec. */
            if (streq(t, "--push-option") || streq(t, "--repo") || streq(t, "--receive-pack") ||
                streq(t, "--exec"))
                i++;
            continue;
        }
        if (!after_dashes && is_short_bundle(t)) {
            for (const char *p = t + 1; *p; p++) {
                if (*p == 'f' || *p == 'd')
                    return RP_BLAST_CATASTROPHIC;
                if (*p == 'o') {
                    if (p[1] == '\0')
                        i++; /* `-o VALUE` */
                    break;   /* the rest of the bundle is -o's value */
                }
            }
            continue;
        }
        /* A refspec: `+src:dst` forces, `:dst` deletes. */
        if ((t[0] == '+' || t[0] == ':') && t[1] != '\0')
            return RP_BLAST_CATASTROPHIC;
    }
    return RP_BLAST_RISKY;
}

/* A `-c key=value` that makes every push of the remote forced or mirrored. */
static bool config_forces_push(const char *kv)
{
    const char *eq = strchr(kv, '=');
    size_t klen = eq ? (size_t)(eq - kv) : strlen(kv);
    const char *value = eq ? eq + 1 : "true";
    if (!starts_with(kv, "remote."))
        return false;
    if (klen > 7 && strncmp(kv + klen - 7, ".mirror", 7) == 0)
        return !streq(value, "false") && !streq(value, "0") && !streq(value, "no");
    if (klen > 5 && strncmp(kv + klen - 5, ".push", 5) == 0)
        return value[0] == '+';
    return false;
}

/* `git reset --hard X` where X names a remote-tracking ref (`origin/main`, `@{u}`): the local
 * work is replaced by the remote's, irrecoverably. */
static bool names_remote_ref(const char *t)
{
    if (strstr(t, "@{u") != NULL || strstr(t, "@{push}") != NULL)
        return true;
    const char *slash = strchr(t, '/');
    return slash != NULL && slash != t && t[0] != '-' && t[0] != '.';
}

static rp_blast_severity git_reset_severity(const rp_sh_command *c, size_t first)
{
    bool hard = false, remote = false;
    for (size_t i = first; i < c->n_words; i++) {
        const char *t = word(c, i);
        if (streq(t, "--"))
            break;
        if (t[0] == '-')
            hard |= long_opt_abbrev(t, "--hard", 4);
        else
            remote |= names_remote_ref(t);
    }
    if (!hard)
        return RP_BLAST_NONE;
    return remote ? RP_BLAST_CATASTROPHIC : RP_BLAST_RISKY;
}

static rp_blast_severity git_clean_severity(const rp_sh_command *c, size_t first)
{
    for (size_t i = first; i < c->n_words; i++) {
        const char *t = word(c, i);
        if (streq(t, "--"))
            break;
        if ((is_short_bundle(t) && strchr(t, 'f') != NULL) || long_opt_abbrev(t, "--force", 4))
            return RP_BLAST_RISKY;
    }
    return RP_BLAST_NONE;
}

static rp_blast_severity git_branch_severity(const rp_sh_command *c, size_t first)
{
    bool del = false, force = false;
    for (size_t i = first; i < c->n_words; i++) {
        const char *t = word(c, i);
        if (streq(t, "--"))
            break;
        if (is_short_bundle(t)) {
            if (strchr(t, 'D') != NULL)
                return RP_BLAST_RISKY;
            del |= strchr(t, 'd') != NULL;
            force |= strchr(t, 'f') != NULL;
        } else if (t[0] == '-') {
            del |= long_opt_abbrev(t, "--delete", 4);
            force |= long_opt_abbrev(t, "--force", 4);
        }
    }
    return del && force ? RP_BLAST_RISKY : RP_BLAST_NONE;
}

static rp_blast_severity git_stash_severity(const rp_sh_command *c, size_t first)
{
    for (size_t i = first; i < c->n_words; i++) {
        const char *t = word(c, i);
        if (t[0] == '-')
            continue;
        return streq(t, "drop") || streq(t, "clear") ? RP_BLAST_RISKY : RP_BLAST_NONE;
    }
    return RP_BLAST_NONE;
}

/* Pushes given argv-like args (alias words first, then the command's own). */
static rp_blast_severity git_push_severity(rp_arena *a, const rp_sh_command *c, size_t first,
                                           const char *const *alias_args, size_t n_alias,
                                           bool forced_by_config)
{
    if (forced_by_config)
        return RP_BLAST_CATASTROPHIC;
    size_t n = 0;
    size_t cap = n_alias + (c->n_words > first ? c->n_words - first : 0);
    if (cap > MAX_ARGS)
        cap = MAX_ARGS;
    const char **args = rp_arena_alloc(a, (cap + 1) * sizeof *args);
    for (size_t i = 0; i < n_alias && n < cap; i++)
        args[n++] = alias_args[i];
    for (size_t i = first; i < c->n_words && n < cap; i++)
        args[n++] = word(c, i);
    return rp_blast_push_args(args, n);
}

static rp_blast_severity git_subcommand_severity(rp_arena *a, const rp_sh_command *c,
                                                 const rp_sh_git_globals *gp)
{
    const rp_sh_git_globals g = *gp;
    bool forced_by_config = false;
    for (size_t k = 0; k < g.n_configs; k++)
        forced_by_config |= !g.config_from_env[k] && config_forces_push(g.configs[k]);
    size_t i = g.subcommand;
    if (i >= c->n_words)
        return RP_BLAST_NONE;
    const char *sub = word(c, i);
    size_t first = i + 1;
    if (!word_static(c, i)) {
        /* An unknown subcommand whose arguments would force a push is not a harmless one. */
        return git_push_severity(a, c, first, NULL, 0, false) == RP_BLAST_CATASTROPHIC
                   ? RP_BLAST_RISKY
                   : RP_BLAST_NONE;
    }

    const char *alias_args[16];
    size_t n_alias = 0;
    int alias = rp_sh_git_alias_index(&g, sub); /* alias names are case-insensitive, as in git */
    if (alias >= 0) {
        const char *value = g.alias_values[alias];
        /* A shell alias, or one whose text is in the environment: not ours to read. */
        if (value == NULL || value[0] == '!')
            return RP_BLAST_RISKY;
        /* git splits an alias value as split_cmdline does: quotes and backslashes as in sh. */
        size_t n_words;
        const char *const *words = rp_sh_simple_words(a, value, strlen(value), &n_words);
        if (words == NULL)
            return RP_BLAST_RISKY; /* an alias text we cannot read: not ours to clear */
        for (size_t k = 0; k < n_words && n_alias < 16; k++)
            alias_args[n_alias++] = words[k];
        if (n_alias == 0)
            return RP_BLAST_NONE;
        sub = alias_args[0];
        memmove(alias_args, alias_args + 1, (n_alias - 1) * sizeof alias_args[0]);
        n_alias--;
    }

    if (streq(sub, "push"))
        return git_push_severity(a, c, first, alias_args, n_alias, forced_by_config);
    if (n_alias > 0)
        return RP_BLAST_RISKY; /* an alias with arguments to a subcommand below: ask */
    if (streq(sub, "reset"))
        return git_reset_severity(c, first);
    if (streq(sub, "clean"))
        return git_clean_severity(c, first);
    if (streq(sub, "branch"))
        return git_branch_severity(c, first);
    if (streq(sub, "stash"))
        return git_stash_severity(c, first);
    return RP_BLAST_NONE;
}

static rp_blast_severity git_severity(rp_arena *a, const rp_sh_command *c)
{
    /* Global options come before the subcommand (shell/git.h reads them as git does); -c values
     * may force pushes or define one-off aliases. */
    rp_sh_git_globals g;
    rp_sh_git_read_globals(c, &g);
    rp_blast_severity s = git_subcommand_severity(a, c, &g);
    /* More options than are read, or one whose name is dynamic: at least risky, and still
     * catastrophic when what is read says so. */
    if (g.overflow && s < RP_BLAST_RISKY)
        s = RP_BLAST_RISKY;
    return s;
}

/* ---- gh, infrastructure tools ---- */

static rp_blast_severity gh_severity(const rp_sh_command *c)
{
    const char *pos[2] = {NULL, NULL};
    size_t n_pos = 0;
    bool api_delete = false;
    for (size_t i = 1; i < c->n_words; i++) {
        const char *t = word(c, i);
        /* -R/--repo OWNER/REPO may stand anywhere, before the group too. */
        if (streq(t, "-R") || streq(t, "--repo")) {
            i++;
            continue;
        }
        if ((streq(t, "-X") || streq(t, "--method")) && i + 1 < c->n_words)
            api_delete |= strcmp(word(c, i + 1), "DELETE") == 0;
        if (starts_with(t, "--method=") || starts_with(t, "-XDELETE"))
            api_delete |= strstr(t, "DELETE") != NULL;
        if (t[0] == '-')
            continue;
        if (n_pos < 2)
            pos[n_pos++] = t;
    }
    if (pos[0] == NULL)
        return RP_BLAST_NONE;
    if (streq(pos[0], "release"))
        return RP_BLAST_RISKY;
    if (pos[1] == NULL)
        return RP_BLAST_NONE;
    if ((streq(pos[0], "pr") && streq(pos[1], "merge")) ||
        (streq(pos[0], "repo") && streq(pos[1], "delete")) || (streq(pos[0], "api") && api_delete))
        return RP_BLAST_RISKY;
    return RP_BLAST_NONE;
}

/* Any argument that is one of the verbs (also as a flag: `terraform plan -destroy`). */
static rp_blast_severity infra_severity(const rp_sh_command *c)
{
    for (size_t i = 1; i < c->n_words; i++) {
        const char *t = word(c, i);
        while (*t == '-')
            t++;
        if (streq(t, "apply") || streq(t, "deploy") || streq(t, "destroy") || streq(t, "delete"))
            return RP_BLAST_RISKY;
    }
    return RP_BLAST_NONE;
}

/* ---- disks ---- */

/* A word naming a device a write would damage (catastrophic); a dynamic word under /dev/ may
 * name one (risky: `/dev/$X` may be /dev/null as well as a disk). */
static rp_blast_severity device_word(rp_arena *a, const char *t, bool is_static)
{
    if (!is_static)
        return strstr(t, "/dev/") != NULL ? RP_BLAST_RISKY : RP_BLAST_NONE;
    if (t[0] != '/')
        return RP_BLAST_NONE;
    return rp_sh_dev_is_device(rp_path_normalize(a, t)) ? RP_BLAST_CATASTROPHIC : RP_BLAST_NONE;
}

static rp_blast_severity dd_severity(rp_arena *a, const rp_sh_command *c)
{
    rp_blast_severity s = RP_BLAST_NONE;
    for (size_t i = 1; i < c->n_words; i++) {
        const char *t = word(c, i);
        if (starts_with(t, "of=")) {
            /* An unknown output of dd is worth a look: dd is how disks get overwritten. */
            rp_blast_severity d = word_static(c, i) ? device_word(a, t + 3, true) : RP_BLAST_RISKY;
            if (d > s)
                s = d;
        }
    }
    return s;
}

/* tee FILE… and cp/mv SRC… DEST: copying onto a device overwrites the disk like dd. */
static rp_blast_severity copy_onto_device(rp_arena *a, const rp_sh_command *c, bool all_args)
{
    for (size_t i = all_args ? 1 : c->n_words - 1; i < c->n_words && i > 0; i++) {
        const char *t = word(c, i);
        if (t[0] != '-' && device_word(a, t, word_static(c, i)) == RP_BLAST_CATASTROPHIC)
            return RP_BLAST_CATASTROPHIC;
    }
    return RP_BLAST_NONE;
}

static rp_blast_severity shred_severity(rp_arena *a, const rp_sh_command *c)
{
    for (size_t i = 1; i < c->n_words; i++) {
        const char *t = word(c, i);
        if (t[0] != '-' && word_static(c, i) && device_word(a, t, true) == RP_BLAST_CATASTROPHIC)
            return RP_BLAST_CATASTROPHIC;
    }
    return RP_BLAST_NONE;
}

/* chmod/chown/chgrp -R on / or a system directory. */
static rp_blast_severity chmod_severity(rp_arena *a, const rp_sh_command *c, const char *cwd)
{
    bool recursive = false, system = false;
    for (size_t i = 1; i < c->n_words; i++) {
        const char *t = word(c, i);
        if (t[0] == '-' && t[1] == '-')
            recursive |= long_opt_abbrev(t, "--recursive", 5);
        else if (is_short_bundle(t) && strchr(t, 'R') != NULL)
            recursive = true;
        else if ((t = in_cwd(a, &c->words[i], cwd))[0] == '/')
            system |= is_system_path(rp_path_normalize(a, t));
    }
    return recursive && system ? RP_BLAST_CATASTROPHIC : RP_BLAST_NONE;
}

static rp_blast_severity redirect_severity(rp_arena *a, const rp_sh_command *c)
{
    rp_blast_severity s = RP_BLAST_NONE;
    for (size_t i = 0; i < c->n_redirs; i++) {
        const rp_sh_redir *r = &c->redirs[i];
        if (!rp_sh_redir_writes(r))
            continue;
        rp_blast_severity d = device_word(a, r->target.text, rp_sh_word_static(&r->target));
        if (d > s)
            s = d;
    }
    return s;
}

/* ---- downloads fed to a shell ---- */

static bool is_downloader(const char *p)
{
    return p != NULL &&
           (streq(p, "curl") || streq(p, "wget") || streq(p, "fetch") || streq(p, "aria2c"));
}

static bool is_shell_program(const char *p)
{
    static const char *const shells[] = {"sh",   "bash",   "zsh",     "dash", "ksh",
                                         "fish", "python", "python3", "perl", "ruby",
                                         "node", "eval",   "source",  ".",    "busybox"};
    if (p == NULL)
        return false;
    for (size_t i = 0; i < sizeof shells / sizeof shells[0]; i++)
        if (streq(p, shells[i]))
            return true;
    return false;
}

/* `curl … | sh`, `sh <(curl …)`, `eval "$(curl …)"`: whatever the server sends runs. */
static bool downloads_into_shell(const struct rp_sh_parse *p)
{
    for (size_t i = 0; i < p->n_commands; i++) {
        const rp_sh_command *d = &p->commands[i];
        if (!is_downloader(d->program))
            continue;
        const rp_sh_command *droot = outermost(d);
        for (size_t k = 0; k < p->n_commands; k++) {
            const rp_sh_command *s = &p->commands[k];
            if (s == d || !is_shell_program(s->program))
                continue;
            const rp_sh_command *sroot = outermost(s);
            if ((droot->context & RP_SH_CTX_PIPELINE) && droot->pipeline >= 0 &&
                sroot->pipeline == droot->pipeline && sroot->stage > droot->stage)
                return true;
            if ((d->context & (RP_SH_CTX_CMDSUB | RP_SH_CTX_PROCSUB)) && d->offset >= s->offset &&
                d->offset < s->end)
                return true;
        }
    }
    return false;
}

/* A shell reading its commands from stdin: no -c and no script operand (or -s). */
static bool reads_stdin(const rp_sh_command *c)
{
    static const char *const shells[] = {"sh", "bash", "zsh", "dash", "ksh", "fish"};
    bool is_shell = false;
    for (size_t i = 0; i < sizeof shells / sizeof shells[0]; i++)
        is_shell |= c->program != NULL && streq(c->program, shells[i]);
    if (!is_shell)
        return false;
    for (size_t i = 1; i < c->n_words; i++) {
        const char *t = word(c, i);
        if (streq(t, "-s") || streq(t, "-"))
            return true;
        if (t[0] != '-' || strchr(t, 'c') != NULL)
            return false;
    }
    return true;
}

/* Whether the parser followed the code shell s reads (shell/channels.c) and all of it is known:
 * then the commands it lists are classified on their own. */
static bool code_followed(const struct rp_sh_parse *p, const rp_sh_command *s)
{
    bool followed = false;
    for (size_t i = 0; i < p->n_commands; i++) {
        const rp_sh_command *c = &p->commands[i];
        if (c->wrapper != s || !(c->context & RP_SH_CTX_CHANNEL))
            continue;
        if (c->program_dynamic && c->n_words == 1)
            return false; /* code nobody can know before it runs */
        followed = true;
    }
    return followed;
}

/* `curl … | sh`, `cat script | bash`: a shell reading code from a pipe whose text the parser
 * could not know (a producer it does not evaluate) is risky. A known text was parsed by the
 * parser and its commands are classified like any other (`echo 'rm -rf /' | sh`). */
static rp_blast_severity piped_into_shell(const struct rp_sh_parse *p)
{
    for (size_t i = 0; i < p->n_commands; i++) {
        const rp_sh_command *s = &p->commands[i];
        const rp_sh_command *sroot = outermost(s);
        if (!reads_stdin(s) || !(sroot->context & RP_SH_CTX_PIPELINE) || sroot->stage == 0)
            continue;
        if (!code_followed(p, s))
            return RP_BLAST_RISKY;
    }
    return RP_BLAST_NONE;
}

/* ---- fork bombs ---- */

/* A function that starts itself more than once in the background or through a pipe
 * (`:(){ :|:& };:`, `bomb(){ bomb|bomb& }`, `f(){ f & f & }`). The parser does not name
 * functions, so the name is confirmed in the source: "NAME(" or "function NAME". */
static bool is_fork_bomb(rp_arena *a, const struct rp_sh_parse *p, const char *src)
{
    for (size_t i = 0; i < p->n_commands; i++) {
        const rp_sh_command *c = &p->commands[i];
        unsigned fan = RP_SH_CTX_PIPELINE | RP_SH_CTX_BACKGROUND;
        if (c->program == NULL || !(c->context & RP_SH_CTX_FUNCTION) || !(c->context & fan))
            continue;
        size_t calls = 0;
        for (size_t k = 0; k < p->n_commands; k++) {
            const rp_sh_command *o = &p->commands[k];
            if (o->program != NULL && (o->context & RP_SH_CTX_FUNCTION) && (o->context & fan) &&
                streq(o->program, c->program))
                calls++;
        }
        if (calls < 2)
            continue;
        const char *def = rp_arena_sprintf(a, "%s(", c->program);
        const char *kw = rp_arena_sprintf(a, "function %s", c->program);
        if (strstr(src, def) != NULL || strstr(src, kw) != NULL)
            return true;
    }
    return false;
}

/* ---- one command ---- */

static rp_blast_severity command_severity(rp_arena *a, const rp_sh_command *c, const char *home,
                                          const char *cwd)
{
    rp_blast_severity s = redirect_severity(a, c);
    if (s == RP_BLAST_CATASTROPHIC)
        return s;
    rp_blast_severity w = RP_BLAST_NONE;
    const char *p = c->program;
    if (c->n_words == 0)
        return s;
    if (p == NULL) {
        /* `$RM -rf /`: the program is unknown, its arguments are not. */
        w = rm_severity(a, c, 1, home, cwd, NULL, 0) == RP_BLAST_CATASTROPHIC ? RP_BLAST_RISKY
                                                                              : RP_BLAST_NONE;
        return w > s ? w : s;
    }
    switch (rp_sh_program_kind_of(p)) { /* the one table of programs: shell/programs.h */
    case RP_SH_PROG_RM:
        if (c->wrapper != NULL && c->wrapper->program != NULL && streq(c->wrapper->program, "find"))
            w = rm_under_find(a, c, home, cwd);
        else
            w = rm_severity(a, c, 1, home, cwd, NULL, 0); /* xargs rm: flags are still ours */
        break;
    case RP_SH_PROG_GIT:
        w = git_severity(a, c);
        break;
    case RP_SH_PROG_GH:
        w = gh_severity(c);
        break;
    case RP_SH_PROG_INFRA:
        w = infra_severity(c);
        break;
    case RP_SH_PROG_MKFS:
        w = RP_BLAST_CATASTROPHIC;
        break;
    case RP_SH_PROG_DD:
        w = dd_severity(a, c);
        break;
    case RP_SH_PROG_TEE:
        w = copy_onto_device(a, c, true);
        break;
    case RP_SH_PROG_COPY:
        w = copy_onto_device(a, c, false);
        break;
    case RP_SH_PROG_SHRED:
        w = shred_severity(a, c);
        break;
    case RP_SH_PROG_CHMOD:
        w = chmod_severity(a, c, cwd);
        break;
    case RP_SH_PROG_FIND:
        w = find_severity(a, c, home, cwd);
        break;
    default:
        break;
    }
    return w > s ? w : s;
}

rp_blast_severity rp_blast_classify(rp_arena *a, const struct rp_sh_parse *p, const char *src,
                                    const char *home)
{
    rp_blast_severity worst = RP_BLAST_NONE;
    /* `cd ~` goes to the same home `rm -rf ~` is read against */
    const char **dirs = rp_sh_fold_cd(a, p, home != NULL && home[0] == '/' ? home : DEFAULT_HOME);
    for (size_t i = 0; i < p->n_commands && worst < RP_BLAST_CATASTROPHIC; i++) {
        rp_blast_severity s = command_severity(a, &p->commands[i], home, dirs[i]);
        if (s > worst)
            worst = s;
    }
    if (worst < RP_BLAST_CATASTROPHIC && is_fork_bomb(a, p, src))
        worst = RP_BLAST_CATASTROPHIC;
    if (worst < RP_BLAST_RISKY && downloads_into_shell(p))
        worst = RP_BLAST_RISKY;
    if (worst < RP_BLAST_RISKY && piped_into_shell(p) == RP_BLAST_RISKY)
        worst = RP_BLAST_RISKY;
    return worst;
}
