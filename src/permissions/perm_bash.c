/* perm_bash.c — a bash command as the permission rules see it (reference permissions.md §4):
 * one parse (src/shell), then the command units a command-pattern rule is matched against
 * (§4.2), their wrapper floors (§4.3) and the path tokens (perm_bash_paths.c).
 *
 * Where rampart is stricter than the reference (each a "Known weakness" there):
 *   - every simple command is a unit, wherever it sits: inside control flow, function bodies,
 *     substitutions, here-doc bodies, redirect targets, and the command a wrapper runs;
 *   - a unit also carries a spelling-independent text (quotes and backslashes removed, single
 *     spaces, /bin/rm → rm) so that `'rm' x`, `r\m x`, `/bin/rm x`, `rm<TAB>x` meet `rm *`;
 *   - floors compare the program after quote removal and take the basename of any path, so
 *     "sudo", \sudo and /usr/bin/sudo are floored; every command the parser unwrapped
 *     (command, builtin, exec, su, ssh, script, busybox, chroot …) is an indirection; a
 *     program whose name is not known ($(echo rm) x) is opaque;
 *   - an assignment that changes what a command runs (LD_PRELOAD=, PATH=, BASH_ENV=, …) is a
 *     floor of its own. */
#include <stdlib.h>
#include <string.h>

#include "permissions/perm_bash_internal.h"

const char *rp_perm_floor_sentinel(rp_perm_floor f)
{
    switch (f) {
    case RP_PERM_FLOOR_OPAQUE:
        return "<opaque-bash-wrapper>";
    case RP_PERM_FLOOR_INDIRECTION:
        return "<indirection-bash-wrapper>";
    case RP_PERM_FLOOR_ENVIRONMENT:
        return "<environment-bash-prefix>";
    default:
        return NULL;
    }
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* ---- comment lines (§3.4) ---- */

const char *rp_perm_strip_comment_lines(rp_arena *a, const char *text)
{
    if (text == NULL)
        return "";
    /* Most commands have no comment line: then the text is only trimmed, without a copy
     * when there is nothing to trim. */
    bool comment = false;
    for (const char *line = text; *line;) {
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#') {
            comment = true;
            break;
        }
        const char *nl = strchr(line, '\n');
        if (nl == NULL)
            break;
        line = nl + 1;
    }
    size_t n = strlen(text);
    if (!comment) {
        size_t s = 0, e = n;
        while (s < e && is_space(text[s]))
            s++;
        while (e > s && is_space(text[e - 1]))
            e--;
        if (s == e)
            return text;
        return s == 0 && e == n ? text : rp_arena_strndup(a, text + s, e - s);
    }
    char *out = rp_arena_alloc(a, n + 1);
    size_t len = 0;
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t line_len = nl ? (size_t)(nl - line) : strlen(line);
        const char *p = line;
        while (p < line + line_len && (*p == ' ' || *p == '\t'))
            p++;
        if (!(p < line + line_len && *p == '#')) {
            memcpy(out + len, line, line_len);
            len += line_len;
            if (nl)
                out[len++] = '\n';
        }
        if (nl == NULL)
            break;
        line = nl + 1;
    }
    size_t s = 0;
    while (s < len && is_space(out[s]))
        s++;
    while (len > s && is_space(out[len - 1]))
        len--;
    if (s == len)
        return text; /* only comments: the raw text is matched */
    out[len] = '\0';
    return out + s;
}

/* ---- programs ---- */

const char *rp_perm_bash_program_name(const rp_sh_command *c)
{
    if (c->n_words == 0 || !rp_sh_word_static(&c->words[0]))
        return NULL;
    const char *t = c->words[0].text;
    const char *slash = strrchr(t, '/');
    return slash ? slash + 1 : t;
}

static bool name_is(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(name, *list) == 0)
            return true;
    return false;
}

bool rp_perm_bash_runs_in_shell(const rp_sh_command *c)
{
    for (const rp_sh_command *w = c->wrapper; w != NULL; w = w->wrapper) {
        if (w->env != c->env)
            return true; /* a string a new shell runs: that shell is c's own */
        if (!(rp_perm_bash_program_roles(rp_perm_bash_program_name(w)) &
              (RP_PERM_BASH_ROLE_TRANSPARENT | RP_PERM_BASH_ROLE_EVAL)))
            return false;
    }
    return true;
}

/* ---- unit text ---- */

static bool in_src(const rp_perm_bash_ctx *x, const char *p)
{
    return p >= x->src && p <= x->src + x->src_len;
}

static bool is_meta_or_blank(char c)
{
    return strchr(" \t\n;&|()<>", c) != NULL;
}

/* Where the redirection whose target starts at t begins (its operator and fd), not before lo. */
static const char *redir_start(const char *lo, const char *t)
{
    const char *p = t;
    while (p > lo && (p[-1] == ' ' || p[-1] == '\t'))
        p--;
    while (p > lo && strchr("<>&|-", p[-1]))
        p--;
    if (p > lo && p[-1] == '}') { /* {fd}> */
        const char *q = p - 1;
        while (q > lo && q[-1] != '{' && !is_meta_or_blank(q[-1]))
            q--;
        if (q > lo && q[-1] == '{')
            return q - 1;
        return p;
    }
    const char *d = p;
    while (d > lo && d[-1] >= '0' && d[-1] <= '9')
        d--;
    if (d < p && (d == lo || is_meta_or_blank(d[-1])))
        return d;
    return p;
}

/* [from, to) of the source with the redirections inside it cut out (and the blanks after
 * each), trimmed. */
static const char *slice_without_redirects(rp_perm_bash_ctx *x, const rp_sh_command *c,
                                           const char *from, const char *to, const char *same_as)
{
    char *out = NULL;
    size_t len = 0;
    const char *p = from;
    for (size_t i = 0; i < c->n_redirs; i++) {
        const rp_sh_word *t = &c->redirs[i].target;
        if (!in_src(x, t->raw) || t->raw < from || t->raw + t->raw_len > to)
            continue;
        const char *s = redir_start(from, t->raw);
        if (s < p)
            continue;
        if (out == NULL)
            out = rp_arena_alloc(x->a, (size_t)(to - from) + 1);
        memcpy(out + len, p, (size_t)(s - p));
        len += (size_t)(s - p);
        p = t->raw + t->raw_len;
        while (p < to && (*p == ' ' || *p == '\t'))
            p++;
    }
    if (out == NULL) {
        size_t n = (size_t)(to - from);
        /* most commands are written as their canonical text: share it */
        if (same_as && strncmp(same_as, from, n) == 0 && same_as[n] == '\0')
            return same_as;
        return rp_arena_strndup(x->a, from, n);
    }
    memcpy(out + len, p, (size_t)(to - p));
    len += (size_t)(to - p);
    while (len > 0 && is_space(out[len - 1]))
        len--;
    out[len] = '\0';
    return out;
}

static bool in_system_bin(rp_perm_bash_ctx *x, const char *path, const char **base)
{
    static const char *const dirs[] = {
        "/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin", NULL};
    const char *norm = rp_pathf_normalize(x->a, RP_PATH_POSIX, path);
    const char *slash = strrchr(norm, '/');
    if (slash == NULL || slash[1] == '\0')
        return false;
    size_t dir_len = (size_t)(slash - norm);
    for (const char *const *d = dirs; *d; d++)
        if (strlen(*d) == dir_len && memcmp(*d, norm, dir_len) == 0) {
            *base = slash + 1;
            return true;
        }
    return false;
}

/* The program and words after quote removal, single-spaced; a system-bin path is its name. */
static const char *canonical_text(rp_perm_bash_ctx *x, const rp_sh_command *c)
{
    const char *prog = c->words[0].text;
    size_t prog_len = c->words[0].len;
    const char *base;
    if (rp_sh_word_static(&c->words[0]) && prog[0] == '/' && in_system_bin(x, prog, &base)) {
        prog = base;
        prog_len = strlen(base);
    }
    size_t total = prog_len;
    for (size_t i = 1; i < c->n_words; i++)
        total += 1 + c->words[i].len;
    char *out = rp_arena_alloc(x->a, total + 1);
    memcpy(out, prog, prog_len);
    size_t len = prog_len;
    for (size_t i = 1; i < c->n_words; i++) {
        out[len++] = ' ';
        memcpy(out + len, c->words[i].text, c->words[i].len);
        len += c->words[i].len;
    }
    out[len] = '\0';
    return out;
}

static const char *joined_assignments(rp_perm_bash_ctx *x, const rp_sh_command *c)
{
    size_t total = 0;
    for (size_t i = 0; i < c->n_assigns; i++)
        total += c->assigns[i].len + 1;
    char *out = rp_arena_alloc(x->a, total + 1);
    size_t len = 0;
    for (size_t i = 0; i < c->n_assigns; i++) {
        if (i)
            out[len++] = ' ';
        memcpy(out + len, c->assigns[i].text, c->assigns[i].len);
        len += c->assigns[i].len;
    }
    out[len] = '\0';
    return out;
}

/* Fills u's texts; false when c is no unit (the redirections after a compound command). */
static bool unit_texts(rp_perm_bash_ctx *x, const rp_sh_command *c, rp_perm_unit *u)
{
    if (c->n_words > 0) {
        const rp_sh_word *first = &c->words[0], *last = &c->words[c->n_words - 1];
        const char *canonical = canonical_text(x, c);
        const char *end = last->raw + last->raw_len;
        if (in_src(x, first->raw) && in_src(x, end) && first->raw <= last->raw)
            u->text = slice_without_redirects(x, c, first->raw, end, canonical);
        else
            u->text = canonical;
        u->canonical = u->text == canonical || strcmp(canonical, u->text) == 0 ? NULL : canonical;
        return true;
    }
    if (c->n_assigns > 0) {
        /* a bare assignment stays as it is */
        const rp_sh_word *first = &c->assigns[0], *last = &c->assigns[c->n_assigns - 1];
        const char *end = last->raw + last->raw_len;
        if (in_src(x, first->raw) && in_src(x, end) && first->raw <= last->raw)
            u->text = slice_without_redirects(x, c, first->raw, end, NULL);
        else
            u->text = joined_assignments(x, c);
        return true;
    }
    /* Only redirections: a unit when they stand alone (`> f`); after a compound command
     * (`{ …; } > f`) the commands inside are the units. */
    if (c->n_redirs == 0)
        return false;
    const rp_sh_word *t0 = &c->redirs[0].target, *tl = &c->redirs[c->n_redirs - 1].target;
    if (!in_src(x, t0->raw) || !in_src(x, tl->raw + tl->raw_len) || c->offset >= x->src_len)
        return false;
    const char *start = x->src + c->offset;
    while (start < t0->raw && (*start == ' ' || *start == '\t'))
        start++;
    if (redir_start(start, t0->raw) != start)
        return false;
    u->text = rp_arena_strndup(x->a, start, (size_t)(tl->raw + tl->raw_len - start));
    return true;
}

/* ---- what programs are ---- */

/* Sorted by name (byte order) for bsearch: every command's program is looked up once.
 * INDIRECT is the reference's list (#490, #575: sudo env xargs time nohup timeout nice parallel
 * rust-parallel rush doas setsid stdbuf watch flock) and more programs that run a command they
 * are given (chroot … script); command, builtin, exec, busybox … are floored when the parser
 * finds the command they run. */
static const struct program_role {
    const char *name;
    unsigned roles;
} program_roles[] = {
    {"((", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {":", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"[", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"[[", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"ash", RP_PERM_BASH_ROLE_SHELL},
    {"awk", RP_PERM_BASH_ROLE_PATTERN},
    {"bash", RP_PERM_BASH_ROLE_SHELL},
    {"builtin", RP_PERM_BASH_ROLE_TRANSPARENT},
    {"cd", RP_PERM_BASH_ROLE_DIR},
    {"chgrp", RP_PERM_BASH_ROLE_WRITER},
    {"chmod", RP_PERM_BASH_ROLE_WRITER},
    {"chown", RP_PERM_BASH_ROLE_WRITER},
    {"chroot", RP_PERM_BASH_ROLE_INDIRECT},
    {"chrt", RP_PERM_BASH_ROLE_INDIRECT},
    {"command", RP_PERM_BASH_ROLE_TRANSPARENT},
    {"cp", RP_PERM_BASH_ROLE_WRITER},
    {"csh", RP_PERM_BASH_ROLE_SHELL},
    {"dash", RP_PERM_BASH_ROLE_SHELL},
    {"dd", RP_PERM_BASH_ROLE_DD},
    {"declare", RP_PERM_BASH_ROLE_OUTPUT_ONLY | RP_PERM_BASH_ROLE_DECLARER},
    {"doas", RP_PERM_BASH_ROLE_INDIRECT},
    {"echo", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"egrep", RP_PERM_BASH_ROLE_PATTERN},
    {"env", RP_PERM_BASH_ROLE_INDIRECT},
    {"eval", RP_PERM_BASH_ROLE_EVAL},
    {"exit", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"export", RP_PERM_BASH_ROLE_OUTPUT_ONLY | RP_PERM_BASH_ROLE_DECLARER},
    {"false", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"fd", RP_PERM_BASH_ROLE_FD},
    {"fgrep", RP_PERM_BASH_ROLE_PATTERN},
    {"find", RP_PERM_BASH_ROLE_FIND},
    {"firejail", RP_PERM_BASH_ROLE_INDIRECT},
    {"fish", RP_PERM_BASH_ROLE_SHELL},
    {"flock", RP_PERM_BASH_ROLE_INDIRECT},
    {"gawk", RP_PERM_BASH_ROLE_PATTERN},
    {"grep", RP_PERM_BASH_ROLE_PATTERN},
    {"gsed", RP_PERM_BASH_ROLE_PATTERN},
    {"install", RP_PERM_BASH_ROLE_WRITER},
    {"ionice", RP_PERM_BASH_ROLE_INDIRECT},
    {"kill", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"ksh", RP_PERM_BASH_ROLE_SHELL},
    {"let", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"lksh", RP_PERM_BASH_ROLE_SHELL},
    {"ln", RP_PERM_BASH_ROLE_WRITER},
    {"local", RP_PERM_BASH_ROLE_OUTPUT_ONLY | RP_PERM_BASH_ROLE_DECLARER},
    {"ltrace", RP_PERM_BASH_ROLE_INDIRECT},
    {"mawk", RP_PERM_BASH_ROLE_PATTERN},
    {"mkdir", RP_PERM_BASH_ROLE_WRITER},
    {"mkfifo", RP_PERM_BASH_ROLE_WRITER},
    {"mknod", RP_PERM_BASH_ROLE_WRITER},
    {"mksh", RP_PERM_BASH_ROLE_SHELL},
    {"mv", RP_PERM_BASH_ROLE_WRITER},
    {"nawk", RP_PERM_BASH_ROLE_PATTERN},
    {"nice", RP_PERM_BASH_ROLE_INDIRECT},
    {"nohup", RP_PERM_BASH_ROLE_INDIRECT},
    {"nsenter", RP_PERM_BASH_ROLE_INDIRECT},
    {"parallel", RP_PERM_BASH_ROLE_INDIRECT},
    {"pdksh", RP_PERM_BASH_ROLE_SHELL},
    {"pkexec", RP_PERM_BASH_ROLE_INDIRECT},
    {"popd", RP_PERM_BASH_ROLE_DIR},
    {"printf", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"prlimit", RP_PERM_BASH_ROLE_INDIRECT},
    {"pushd", RP_PERM_BASH_ROLE_DIR},
    {"rbash", RP_PERM_BASH_ROLE_SHELL},
    {"readonly", RP_PERM_BASH_ROLE_OUTPUT_ONLY | RP_PERM_BASH_ROLE_DECLARER},
    {"return", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"rg", RP_PERM_BASH_ROLE_PATTERN},
    {"rm", RP_PERM_BASH_ROLE_WRITER},
    {"rmdir", RP_PERM_BASH_ROLE_WRITER},
    {"runuser", RP_PERM_BASH_ROLE_INDIRECT},
    {"rush", RP_PERM_BASH_ROLE_INDIRECT},
    {"rust-parallel", RP_PERM_BASH_ROLE_INDIRECT},
    {"script", RP_PERM_BASH_ROLE_INDIRECT},
    {"sd", RP_PERM_BASH_ROLE_PATTERN},
    {"sed", RP_PERM_BASH_ROLE_PATTERN},
    {"set", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"setsid", RP_PERM_BASH_ROLE_INDIRECT},
    {"sg", RP_PERM_BASH_ROLE_INDIRECT},
    {"sh", RP_PERM_BASH_ROLE_SHELL},
    {"shift", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"shred", RP_PERM_BASH_ROLE_WRITER},
    {"sleep", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"ssh", RP_PERM_BASH_ROLE_INDIRECT},
    {"stdbuf", RP_PERM_BASH_ROLE_INDIRECT},
    {"strace", RP_PERM_BASH_ROLE_INDIRECT},
    {"su", RP_PERM_BASH_ROLE_INDIRECT},
    {"sudo", RP_PERM_BASH_ROLE_INDIRECT},
    {"systemd-run", RP_PERM_BASH_ROLE_INDIRECT},
    {"taskset", RP_PERM_BASH_ROLE_INDIRECT},
    {"tcsh", RP_PERM_BASH_ROLE_SHELL},
    {"tee", RP_PERM_BASH_ROLE_WRITER},
    {"test", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"time", RP_PERM_BASH_ROLE_INDIRECT},
    {"timeout", RP_PERM_BASH_ROLE_INDIRECT},
    {"touch", RP_PERM_BASH_ROLE_WRITER},
    {"true", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"truncate", RP_PERM_BASH_ROLE_WRITER},
    {"typeset", RP_PERM_BASH_ROLE_OUTPUT_ONLY | RP_PERM_BASH_ROLE_DECLARER},
    {"unbuffer", RP_PERM_BASH_ROLE_INDIRECT},
    {"unlink", RP_PERM_BASH_ROLE_WRITER},
    {"unset", RP_PERM_BASH_ROLE_OUTPUT_ONLY},
    {"unshare", RP_PERM_BASH_ROLE_INDIRECT},
    {"watch", RP_PERM_BASH_ROLE_INDIRECT},
    {"xargs", RP_PERM_BASH_ROLE_INDIRECT},
    {"yash", RP_PERM_BASH_ROLE_SHELL},
    {"zsh", RP_PERM_BASH_ROLE_SHELL},
};

static int compare_role(const void *key, const void *entry)
{
    return strcmp(key, ((const struct program_role *)entry)->name);
}

unsigned rp_perm_bash_program_roles(const char *prog)
{
    if (prog == NULL)
        return 0;
    const struct program_role *hit =
        bsearch(prog, program_roles, sizeof program_roles / sizeof program_roles[0],
                sizeof program_roles[0], compare_role);
    return hit ? hit->roles : 0;
}

/* ---- floors (§4.3, stricter) ---- */

/* Assignments that change what a command runs or how its interpreter starts, rather than
 * what it works on: the dynamic loader (LD_*, DYLD_*), the command search path, shell start-up
 * and parsing (BASH_ENV, ENV, PROMPT_COMMAND, IFS, SHELLOPTS, BASHOPTS, PS4, BASH_FUNC_*,
 * CDPATH), git's helper programs and config injection (GIT_SSH*, GIT_EXEC_PATH, GIT_CONFIG*,
 * GIT_ASKPASS, SSH_ASKPASS, GIT_EXTERNAL_DIFF, GIT_PROXY_COMMAND), interpreter start-up and
 * module paths (PYTHONPATH, PYTHONSTARTUP, PYTHONHOME, NODE_OPTIONS, NODE_PATH, PERL5OPT,
 * PERL5LIB, PERLLIB, RUBYOPT, RUBYLIB) and less's input filters (LESSOPEN, LESSCLOSE). */
static const char *const env_names[] = {"PATH",
                                        "BASH_ENV",
                                        "ENV",
                                        "PROMPT_COMMAND",
                                        "IFS",
                                        "SHELLOPTS",
                                        "BASHOPTS",
                                        "PS4",
                                        "CDPATH",
                                        "GIT_SSH",
                                        "GIT_SSH_COMMAND",
                                        "GIT_EXEC_PATH",
                                        "GIT_ASKPASS",
                                        "SSH_ASKPASS",
                                        "GIT_EXTERNAL_DIFF",
                                        "GIT_PROXY_COMMAND",
                                        "PYTHONPATH",
                                        "PYTHONSTARTUP",
                                        "PYTHONHOME",
                                        "NODE_OPTIONS",
                                        "NODE_PATH",
                                        "PERL5OPT",
                                        "PERL5LIB",
                                        "PERLLIB",
                                        "RUBYOPT",
                                        "RUBYLIB",
                                        "LESSOPEN",
                                        "LESSCLOSE",
                                        NULL};
static const char *const env_prefixes[] = {"LD_", "DYLD_", "GIT_CONFIG", "BASH_FUNC_", NULL};

static bool dangerous_assignment(const char *text)
{
    size_t n = 0;
    while (text[n] && text[n] != '=' && text[n] != '+' && text[n] != '[')
        n++;
    if (text[n] == '\0')
        return false;
    for (const char *const *p = env_names; *p; p++)
        if (strlen(*p) == n && memcmp(*p, text, n) == 0)
            return true;
    for (const char *const *p = env_prefixes; *p; p++)
        if (strncmp(text, *p, strlen(*p)) == 0)
            return true;
    return false;
}

static bool sets_dangerous_variable(const rp_sh_command *c, unsigned roles)
{
    for (size_t i = 0; i < c->n_assigns; i++)
        if (dangerous_assignment(c->assigns[i].text))
            return true;
    if (roles & RP_PERM_BASH_ROLE_DECLARER)
        for (size_t i = 1; i < c->n_words; i++)
            if (dangerous_assignment(c->words[i].text))
                return true;
    return false;
}

/* A shell that runs commands it is not given as a file: a -c cluster (`-c`, `-ec`, `-lc`, …)
 * or --command before `--` (the reference's test), an argument whose value is not known (it
 * may be one), or no script operand at all or -s (it reads its commands from stdin, as in
 * `curl … | sh`). */
static bool shell_runs_string(const rp_sh_command *c)
{
    bool operand = false, from_stdin = false;
    for (size_t i = 1; i < c->n_words; i++) {
        const rp_sh_word *w = &c->words[i];
        if (!rp_sh_word_static(w))
            return true;
        const char *t = w->text;
        if (strcmp(t, "--") == 0 || strcmp(t, "-") == 0) { /* the end of the options */
            operand = operand || i + 1 < c->n_words;
            break;
        }
        if (strcmp(t, "--command") == 0)
            return true;
        if (t[0] == '-' && t[1] != '-' && strchr(t + 1, 'c'))
            return true;
        if (operand)
            continue; /* the script's own arguments */
        if ((t[0] == '-' || t[0] == '+') && t[1] != '\0') {
            if (strcmp(t, "--version") == 0 || strcmp(t, "--help") == 0)
                return false;
            if (t[0] == '-' && t[1] != '-' && strchr(t + 1, 's'))
                from_stdin = true;
            bool takes = strcmp(t, "--rcfile") == 0 || strcmp(t, "--init-file") == 0 ||
                         strcmp(t, "--init-command") == 0 ||
                         (t[1] != '-' && strpbrk(t + 1, "oO") != NULL);
            i += takes ? 1 : 0;
            continue;
        }
        operand = true;
    }
    return from_stdin || !operand;
}

static bool has_word(const rp_sh_command *c, const char *const *list)
{
    for (size_t i = 1; i < c->n_words; i++)
        if (name_is(c->words[i].text, list))
            return true;
    return false;
}

/* The `time` keyword right before the command (the parser takes it as a pipeline prefix;
 * the reference floors it, as it sees a command named time). */
static bool after_time_keyword(const rp_perm_bash_ctx *x, const rp_sh_command *c)
{
    if (c->wrapper != NULL || (c->context & RP_SH_CTX_STRING) || c->offset > x->src_len)
        return false;
    const char *lo = x->src, *p = x->src + c->offset;
    for (int round = 0; round < 2; round++) {
        while (p > lo && (p[-1] == ' ' || p[-1] == '\t'))
            p--;
        if (p - lo >= 4 && memcmp(p - 4, "time", 4) == 0 &&
            (p - 4 == lo || is_meta_or_blank(p[-5]) || strchr("{}!`", p[-5])))
            return true;
        if (round == 0 && p - lo >= 3 && memcmp(p - 2, "-p", 2) == 0 &&
            (p[-3] == ' ' || p[-3] == '\t'))
            p -= 2;
        else
            return false;
    }
    return false;
}

static rp_perm_floor floor_of(const rp_perm_bash_ctx *x, const rp_sh_command *c, bool unwrapped)
{
    static const char *const find_exec[] = {"-exec", "-execdir", "-ok", "-okdir", NULL};
    static const char *const fd_exec[] = {"-x", "--exec", "-X", "--exec-batch", NULL};
    const char *prog = rp_perm_bash_program_name(c);
    if (c->n_words > 0 && prog == NULL)
        return RP_PERM_FLOOR_OPAQUE; /* the program itself is not known */
    unsigned roles = rp_perm_bash_roles(x, c);
    if (roles & RP_PERM_BASH_ROLE_EVAL)
        return RP_PERM_FLOOR_OPAQUE;
    if ((roles & RP_PERM_BASH_ROLE_SHELL) && shell_runs_string(c))
        return RP_PERM_FLOOR_OPAQUE;
    if (unwrapped || after_time_keyword(x, c) || (roles & RP_PERM_BASH_ROLE_INDIRECT) ||
        ((roles & RP_PERM_BASH_ROLE_FIND) && has_word(c, find_exec)) ||
        ((roles & RP_PERM_BASH_ROLE_FD) && has_word(c, fd_exec)))
        return RP_PERM_FLOOR_INDIRECTION;
    if (sets_dangerous_variable(c, roles))
        return RP_PERM_FLOOR_ENVIRONMENT;
    return RP_PERM_FLOOR_NONE;
}

/* ---- the analysis ---- */

static void build_units(rp_perm_bash_ctx *x, rp_perm_bash *out)
{
    const struct rp_sh_parse *p = x->parse;
    if (p->n_commands == 0)
        return;
    bool *unwrapped = rp_arena_calloc(x->a, p->n_commands * sizeof(bool));
    for (size_t i = 0; i < p->n_commands; i++)
        if (p->commands[i].wrapper)
            unwrapped[p->commands[i].wrapper - p->commands] = true;
    out->units = rp_arena_alloc(x->a, p->n_commands * sizeof *out->units);
    for (size_t i = 0; i < p->n_commands; i++) {
        const rp_sh_command *c = &p->commands[i];
        rp_perm_unit *u = &out->units[out->n_units];
        memset(u, 0, sizeof *u);
        if (!unit_texts(x, c, u))
            continue;
        u->command = c->n_words > 0 ? c : NULL;
        u->floor = floor_of(x, c, unwrapped[i]);
        u->context = c->context;
        u->unwrapped = (c->context & RP_SH_CTX_WRAPPED) != 0;
        out->n_units++;
    }
}

const char *rp_perm_unit_program(rp_arena *a, const rp_perm_unit *u)
{
    /* the canonical text is the program and the words after it, joined by single spaces */
    const char *canonical = u->canonical ? u->canonical : u->text;
    size_t rest = 0;
    for (size_t i = 1; i < u->command->n_words; i++)
        rest += 1 + u->command->words[i].len;
    size_t len = strlen(canonical);
    return rest <= len ? rp_arena_strndup(a, canonical, len - rest) : u->command->words[0].text;
}

int rp_perm_bash_analyse(rp_arena *a, const rp_path_ctx *pc, const char *command,
                         const char *workdir, rp_perm_bash *out)
{
    return rp_perm_bash_analyse_parsed(a, pc, command, NULL, workdir, out);
}

int rp_perm_bash_analyse_parsed(rp_arena *a, const rp_path_ctx *pc, const char *command,
                                const struct rp_sh_parse *given, const char *workdir,
                                rp_perm_bash *out)
{
    if (a == NULL || pc == NULL || out == NULL)
        return -1;
    memset(out, 0, sizeof *out);
    const char *s = command ? command : "";
    size_t n = strlen(s);
    size_t k = 0;
    while (k < n && is_space(s[k]))
        k++;
    out->empty = k == n;
    out->match_text = out->empty ? "" : rp_perm_strip_comment_lines(a, s);

    struct rp_sh_parse parse;
    memset(&parse, 0, sizeof parse);
    if (!out->empty && given != NULL)
        parse = *given;
    else if (!out->empty)
        rp_sh_parse(a, s, n, &parse);
    /* the host rules are matched against what the command says, not against guesses */
    rp_sh_without_inferred(a, &parse, &parse);
    out->unreadable = parse.unreadable;

    unsigned *roles = parse.n_commands ? rp_arena_alloc(a, parse.n_commands * sizeof *roles) : NULL;
    for (size_t i = 0; i < parse.n_commands; i++)
        roles[i] = rp_perm_bash_program_roles(rp_perm_bash_program_name(&parse.commands[i]));
    rp_perm_bash_ctx x = {
        .a = a, .pc = pc, .parse = &parse, .src = s, .src_len = n, .roles = roles};
    build_units(&x, out);
    rp_perm_bash_paths(&x, workdir, out);
    rp_perm_bash_uploads(&x, out);
    return 0;
}
