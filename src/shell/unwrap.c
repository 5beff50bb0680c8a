/* unwrap.c — commands that run other commands: sudo, env, nohup, timeout, xargs, find -exec,
 * `bash -c STRING`, eval, ssh host CMD, … Each wrapper's own options are skipped with their
 * values (as its getopt would read them: options end at the first operand or `--`), and what
 * it runs is listed as a command of its own: a slice of the wrapper's words when it executes
 * them directly, or a new parse when it hands a string to a shell.
 *
 * The inner command carries RP_SH_CTX_WRAPPED (and RP_SH_CTX_STRING for a parsed string), one
 * more depth, and the wrapper's context bits; it is unwrapped in turn. Past RP_SH_MAX_DEPTH the
 * command is unreadable. */
#include <stdlib.h>
#include <string.h>

#include "shell/programs.h"
#include "shell/shell_internal.h"

typedef struct option_spec {
    const char *short_values;       /* letters whose option takes a value (attached or next) */
    const char *short_optional;     /* letters whose value can only be attached (xargs -i) */
    const char *const *long_values; /* long options whose value may be the next word */
} option_spec;

static bool is_static(const rp_sh_word *w)
{
    return rp_sh_word_static(w);
}

static bool text_is(const rp_sh_word *w, const char *lit)
{
    return is_static(w) && strcmp(w->text, lit) == 0;
}

static bool in_list(const char *const *list, const char *s, size_t len)
{
    for (; list && *list; list++)
        if (strlen(*list) == len && memcmp(*list, s, len) == 0)
            return true;
    return false;
}

/* Index of the first operand at or after i; a dynamic word stops the scan (it might be
 * anything, so it is taken as the program, which is then unknown). */
static size_t skip_options(const rp_sh_word *w, size_t n, size_t i, const option_spec *spec)
{
    while (i < n) {
        if (!is_static(&w[i]))
            return i;
        const char *t = w[i].text;
        if (t[0] != '-' || t[1] == '\0')
            return i;
        if (strcmp(t, "--") == 0)
            return i + 1;
        if (t[1] == '-') {
            const char *eq = strchr(t, '=');
            bool takes = !eq && in_list(spec->long_values, t, strlen(t));
            i += takes ? 2 : 1;
            continue;
        }
        size_t step = 1;
        for (size_t j = 1; t[j]; j++) {
            if (spec->short_optional && strchr(spec->short_optional, t[j]))
                break; /* the rest of the bundle is its value */
            if (spec->short_values && strchr(spec->short_values, t[j])) {
                if (t[j + 1] == '\0')
                    step = 2;
                break;
            }
        }
        i += step;
    }
    return i > n ? n : i;
}

static bool is_assignment_text(const rp_sh_word *w)
{
    if (!is_static(w) || !rp_sh_is_name_start(w->text[0]))
        return false;
    size_t i = 1;
    while (rp_sh_is_name_char(w->text[i]))
        i++;
    return w->text[i] == '=';
}

/* The frame of what the wrapper at idx runs. */
static bool child_frame(rp_sh_state *st, size_t idx, const rp_sh_frame *f, unsigned extra_ctx,
                        rp_sh_frame *out)
{
    if (f->depth + 1 > RP_SH_MAX_DEPTH) {
        rp_sh_fail_state(st, st->cmds[idx].offset, "wrappers nested too deep");
        return false;
    }
    *out = *f;
    out->ctx = f->ctx | RP_SH_CTX_WRAPPED | extra_ctx;
    out->depth = f->depth + 1;
    out->wrapper = (int)idx;
    if (!f->span_fixed) {
        out->span_fixed = true;
        out->span_off = st->cmds[idx].offset;
        out->span_end = st->cmds[idx].end;
    }
    return true;
}

typedef struct inner_spec {
    rp_sh_word *words;
    size_t n_words;
    rp_sh_word *assigns;
    size_t n_assigns;
    unsigned extra_ctx;
    bool extra_args;
    bool builtin;
} inner_spec;

/* Lists the command a wrapper executes directly (a slice of its words). */
static void emit_inner(rp_sh_state *st, size_t idx, const rp_sh_frame *f, const inner_spec *in)
{
    if (in->n_words == 0 || st->failed)
        return;
    rp_sh_frame inner;
    if (!child_frame(st, idx, f, in->extra_ctx, &inner))
        return;
    size_t k = rp_sh_reserve_command(st);
    rp_sh_command *c = &st->cmds[k];
    c->words = in->words;
    c->n_words = in->n_words;
    c->assigns = in->assigns;
    c->n_assigns = in->n_assigns;
    c->extra_args = in->extra_args;
    c->is_builtin_wrapped = in->builtin;
    c->context = inner.ctx;
    c->depth = inner.depth;
    c->env = inner.env;
    c->remote_host = inner.remote_host;
    c->offset = inner.span_off;
    c->end = inner.span_end;
    st->wrapper_of[k] = (int)idx;
    rp_sh_normalise_program(c);
    rp_sh_unwrap(st, k, &inner);
}

static void emit_words(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w, size_t n)
{
    inner_spec in = {.words = w, .n_words = n};
    emit_inner(st, idx, f, &in);
}

/* Parses a string the wrapper hands to a shell. A syntax error there makes the whole command
 * unreadable; the error says where it was, since `bash -n` sees only a quoted string. */
static void parse_run_string(rp_sh_state *st, const char *text, size_t len, size_t base,
                             const rp_sh_frame *inner)
{
    bool failed_before = st->failed;
    rp_sh_parse_string(st, text, len, base, false, inner);
    if (st->failed && !failed_before)
        st->error = RP_SH_ERROR_IN_STRING;
}

/* A string a shell will run: parsed as a program; a dynamic one is an unknown command.
 * new_shell: a new shell process runs it (bash -c, su -c, …), so it gets an environment of
 * its own; eval and env -S do not start one. */
static void run_string(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w,
                       const char *text, size_t len, unsigned extra_ctx, const char *host,
                       bool new_shell)
{
    if (st->failed)
        return;
    rp_sh_frame inner;
    if (!child_frame(st, idx, f, RP_SH_CTX_STRING | extra_ctx, &inner))
        return;
    if (host)
        inner.remote_host = host;
    if (new_shell)
        inner.env = rp_sh_new_env(st, RP_SH_ENV_STRING, f->env);
    if (w && !is_static(w)) {
        rp_sh_frame outer = *f; /* so that the unknown command keeps the ssh destination */
        if (host)
            outer.remote_host = host;
        outer.env = inner.env;
        inner_spec in = {.words = w, .n_words = 1, .extra_ctx = RP_SH_CTX_STRING | extra_ctx};
        emit_inner(st, idx, &outer, &in);
        return;
    }
    parse_run_string(st, text, len, w ? w->offset : inner.span_off, &inner);
}

/* words[from..n) joined by single spaces (as eval, ssh and watch join them). Sets *dynamic
 * when one of them is not static. */
static char *join_words(rp_sh_state *st, const rp_sh_word *w, size_t from, size_t n, bool quote,
                        size_t *len, bool *dynamic)
{
    size_t mark = st->n_scratch;
    *dynamic = false;
    for (size_t i = from; i < n; i++) {
        if (i > from)
            rp_sh_scratch_putc(st, ' ');
        if (!is_static(&w[i]))
            *dynamic = true;
        if (!quote) {
            rp_sh_scratch_put(st, w[i].text, w[i].len);
            continue;
        }
        rp_sh_scratch_putc(st, '\'');
        for (size_t k = 0; k < w[i].len; k++) {
            if (w[i].text[k] == '\'')
                rp_sh_scratch_put(st, "'\\''", 4);
            else
                rp_sh_scratch_putc(st, w[i].text[k]);
        }
        rp_sh_scratch_putc(st, '\'');
    }
    return rp_sh_scratch_finish(st, mark, len);
}

static void run_joined(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w,
                       size_t from, size_t n, unsigned extra_ctx, const char *host, bool new_shell)
{
    if (from >= n)
        return;
    bool dynamic;
    size_t len;
    char *text = join_words(st, w, from, n, false, &len, &dynamic);
    if (dynamic) {
        run_string(st, idx, f, &w[from], text, len, extra_ctx, host, new_shell);
        return;
    }
    rp_sh_word *anchor = &w[from];
    rp_sh_frame inner;
    if (!child_frame(st, idx, f, RP_SH_CTX_STRING | extra_ctx, &inner))
        return;
    if (host)
        inner.remote_host = host;
    if (new_shell)
        inner.env = rp_sh_new_env(st, RP_SH_ENV_STRING, f->env);
    parse_run_string(st, text, len, anchor->offset, &inner);
}

/* ---- the wrappers ---- */

static const char *const sudo_long[] = {
    "--auth-type", "--login-class", "--close-from", "--chdir", "--group",
    "--host",      "--prompt",      "--chroot",     "--role",  "--command-timeout",
    "--type",      "--other-user",  "--user",       NULL};
static const char *const env_long[] = {"--unset", "--chdir", NULL};
static const char *const nice_long[] = {"--adjustment", NULL};
static const char *const ionice_long[] = {"--class", "--classdata", "--pid",
                                          "--pgid",  "--uid",       NULL};
static const char *const timeout_long[] = {"--signal", "--kill-after", NULL};
static const char *const stdbuf_long[] = {"--input", "--output", "--error", NULL};
static const char *const time_long[] = {"--format", "--output", NULL};
static const char *const chroot_long[] = {"--userspec", "--groups", NULL};
static const char *const xargs_long[] = {"--arg-file",  "--delimiter", "--max-args",
                                         "--max-procs", "--max-chars", "--process-slot-var",
                                         NULL};
static const char *const watch_long[] = {"--interval", "--equexit", NULL};
static const char *const flock_long[] = {"--timeout", "--wait", "--conflict-exit-code", NULL};
static const char *const ssh_long[] = {NULL};

/* sudo/env: NAME=value operands before the program are the inner command's assignments. */
static void emit_with_assigns(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w,
                              size_t n, size_t i)
{
    size_t j = i;
    while (j < n && is_assignment_text(&w[j]))
        j++;
    inner_spec in = {.words = w + j, .n_words = n - j, .assigns = w + i, .n_assigns = j - i};
    emit_inner(st, idx, f, &in);
}

/* env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=VALUE]… [COMMAND [ARG]…] */
static void unwrap_env(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w, size_t n)
{
    size_t i = 1;
    rp_sh_word *split = NULL; /* the word holding the -S string */
    const char *split_text = NULL;
    while (i < n && !split && is_static(&w[i])) {
        const char *t = w[i].text;
        if (strcmp(t, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(t, "-") == 0) { /* `env -` is `env -i` */
            i++;
            continue;
        }
        if (t[0] != '-')
            break;
        if (t[1] == '-') {
            if (strcmp(t, "--split-string") == 0) {
                if (i + 1 < n) {
                    split = &w[i + 1];
                    split_text = split->text;
                }
                i += 2;
            } else if (strncmp(t, "--split-string=", 15) == 0) {
                split = &w[i];
                split_text = t + 15;
                i++;
            } else {
                i += !strchr(t, '=') && in_list(env_long, t, strlen(t)) ? 2 : 1;
            }
            continue;
        }
        size_t step = 1;
        for (size_t j = 1; t[j]; j++) {
            if (t[j] == 'S') {
                if (t[j + 1]) {
                    split = &w[i];
                    split_text = t + j + 1;
                } else {
                    step = 2;
                    if (i + 1 < n) {
                        split = &w[i + 1];
                        split_text = split->text;
                    }
                }
                break;
            }
            if (t[j] == 'u' || t[j] == 'C') {
                step = t[j + 1] ? 1 : 2;
                break;
            }
        }
        i += step;
    }
    if (i > n)
        i = n;
    if (!split) {
        emit_with_assigns(st, idx, f, w, n, i);
        return;
    }
    if (!is_static(split)) {
        run_string(st, idx, f, split, split->text, split->len, 0, NULL, false);
        return;
    }
    /* env splits the string into arguments that take its place: parse `env STRING 'rest'…`. */
    size_t mark = st->n_scratch;
    rp_sh_scratch_put(st, "env ", 4);
    rp_sh_scratch_put(st, split_text, strlen(split_text));
    if (i < n) {
        bool dynamic;
        size_t rest_len;
        char *rest = join_words(st, w, i, n, true, &rest_len, &dynamic);
        rp_sh_scratch_putc(st, ' ');
        rp_sh_scratch_put(st, rest, rest_len);
    }
    size_t len;
    char *text = rp_sh_scratch_finish(st, mark, &len);
    run_string(st, idx, f, NULL, text, len, 0, NULL, false);
}

static void unwrap_command_builtin(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w,
                                   size_t n, bool is_command)
{
    size_t i = 1;
    while (i < n && is_static(&w[i]) && w[i].text[0] == '-' && w[i].text[1] != '\0') {
        if (strcmp(w[i].text, "--") == 0) {
            i++;
            break;
        }
        /* `command -v rm` / `-V` only look the name up */
        if (is_command && strpbrk(w[i].text + 1, "vV"))
            return;
        if (!is_command)
            break;
        i++;
    }
    inner_spec in = {.words = w + i, .n_words = n - i, .builtin = true};
    emit_inner(st, idx, f, &in);
}

static void unwrap_find(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w, size_t n)
{
    for (size_t i = 1; i < n && !st->failed; i++) {
        if (!(text_is(&w[i], "-exec") || text_is(&w[i], "-execdir") || text_is(&w[i], "-ok") ||
              text_is(&w[i], "-okdir")))
            continue;
        size_t from = i + 1, end = from;
        while (end < n && !text_is(&w[end], ";") &&
               !(text_is(&w[end], "+") && end > from && text_is(&w[end - 1], "{}")))
            end++;
        inner_spec in = {.words = w + from, .n_words = end - from, .extra_args = true};
        emit_inner(st, idx, f, &in);
        i = end;
    }
}

void rp_sh_read_shell_args(const rp_sh_word *w, size_t n, rp_sh_shell_args *out)
{
    memset(out, 0, sizeof *out);
    size_t i = 1;
    while (i < n && is_static(&w[i]) && (w[i].text[0] == '-' || w[i].text[0] == '+') &&
           w[i].text[1] != '\0') {
        const char *t = w[i].text;
        if (strcmp(t, "--") == 0 || strcmp(t, "-") == 0) {
            i++;
            break;
        }
        if (t[0] == '-' && t[1] == '-') {
            if (strcmp(t, "--command") == 0) /* fish, zsh */
                out->command = true;
            bool takes = strcmp(t, "--rcfile") == 0 || strcmp(t, "--init-file") == 0 ||
                         strcmp(t, "--init-command") == 0;
            i += takes ? 2 : 1;
            continue;
        }
        if (t[0] == '-') {
            out->command |= strchr(t + 1, 'c') != NULL;
            out->no_exec |= strchr(t + 1, 'n') != NULL;
            out->read_stdin |= strchr(t + 1, 's') != NULL;
        }
        /* -o OPTION / -O SHOPT take the next word */
        i += strpbrk(t + 1, "oO") ? 2 : 1;
    }
    out->operand = i < n ? i : n;
}

static void unwrap_shell(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w, size_t n)
{
    rp_sh_shell_args a;
    rp_sh_read_shell_args(w, n, &a);
    if (!a.command || a.operand >= n)
        return;
    run_string(st, idx, f, &w[a.operand], w[a.operand].text, w[a.operand].len, 0, NULL, true);
}

/* The command string of `su` and `script`: `-c STRING` (also bundled, `-lc STRING`, or
 * attached, `-cSTRING`), `--command STRING`, `--command=STRING`, or su's
 * `--session-command`. Short options listed in `value_shorts` take a value (attached or the next
 * word); those in `attached_only` take only an attached one (script's `-t[FILE]`). */
static void unwrap_dash_c(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w,
                          size_t n, bool session_command, const char *value_shorts,
                          const char *attached_only)
{
    for (size_t i = 1; i < n; i++) {
        if (!is_static(&w[i]))
            continue;
        const char *t = w[i].text;
        if (strcmp(t, "--") == 0)
            return;
        if (strcmp(t, "--command") == 0 ||
            (session_command && strcmp(t, "--session-command") == 0)) {
            if (i + 1 < n)
                run_string(st, idx, f, &w[i + 1], w[i + 1].text, w[i + 1].len, 0, NULL, true);
            return;
        }
        if (strncmp(t, "--command=", 10) == 0) {
            run_string(st, idx, f, &w[i], t + 10, strlen(t + 10), 0, NULL, true);
            return;
        }
        if (t[0] != '-' || t[1] == '-' || t[1] == '\0')
            continue;
        for (size_t j = 1; t[j]; j++) {
            if (t[j] == 'c') {
                if (t[j + 1])
                    run_string(st, idx, f, &w[i], t + j + 1, strlen(t + j + 1), 0, NULL, true);
                else if (i + 1 < n)
                    run_string(st, idx, f, &w[i + 1], w[i + 1].text, w[i + 1].len, 0, NULL, true);
                return;
            }
            if (strchr(attached_only, t[j]))
                break;
            if (strchr(value_shorts, t[j])) {
                if (!t[j + 1])
                    i++;
                break;
            }
        }
    }
}

static void unwrap_su(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w, size_t n)
{
    unwrap_dash_c(st, idx, f, w, n, true, "gGsw", "");
}

static void unwrap_script(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w,
                          size_t n)
{
    unwrap_dash_c(st, idx, f, w, n, false, "EIOBTm", "t");
}

static void unwrap_flock(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w, size_t n)
{
    static const option_spec spec = {"wE", NULL, flock_long};
    size_t i = skip_options(w, n, 1, &spec);
    if (i >= n)
        return;
    i++; /* the lock file (or a descriptor number, then nothing runs) */
    if (i < n && (text_is(&w[i], "-c") || text_is(&w[i], "--command"))) {
        if (i + 1 < n)
            run_string(st, idx, f, &w[i + 1], w[i + 1].text, w[i + 1].len, 0, NULL, true);
        return;
    }
    emit_words(st, idx, f, w + i, n - i);
}

static void unwrap_watch(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w, size_t n)
{
    static const option_spec spec = {"nq", "d", watch_long};
    size_t i = skip_options(w, n, 1, &spec);
    bool exec = false;
    for (size_t k = 1; k < i; k++) {
        const char *t = is_static(&w[k]) ? w[k].text : "";
        if (strcmp(t, "--exec") == 0 || (t[0] == '-' && t[1] != '-' && strchr(t, 'x') &&
                                         strcspn(t + 1, "nqd") > (size_t)(strchr(t, 'x') - t - 1)))
            exec = true;
    }
    if (exec)
        emit_words(st, idx, f, w + i, n - i);
    else
        run_joined(st, idx, f, w, i, n, 0, NULL, true); /* watch runs sh -c "ARGS…" */
}

static void unwrap_ssh(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w, size_t n)
{
    static const option_spec spec = {"bcDEeFIiJLlmOopQRSWw", NULL, ssh_long};
    size_t i = skip_options(w, n, 1, &spec);
    if (i + 1 >= n)
        return; /* no host, or an interactive login */
    const char *host = w[i].text;
    run_joined(st, idx, f, w, i + 1, n, RP_SH_CTX_REMOTE, host, true);
}

static void unwrap_with_spec(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w,
                             size_t n, const option_spec *spec, size_t positionals, bool extra_args)
{
    size_t i = skip_options(w, n, 1, spec);
    i += positionals;
    if (i >= n)
        return;
    inner_spec in = {.words = w + i, .n_words = n - i, .extra_args = extra_args};
    emit_inner(st, idx, f, &in);
}

/* Whether one of the options in w[1..end) is the short letter `letter` (alone or in a bundle,
 * before a letter of value_letters takes the rest) or the long option `long_name`. */
static bool has_option(const rp_sh_word *w, size_t end, char letter, const char *value_letters,
                       const char *long_name)
{
    for (size_t k = 1; k < end; k++) {
        const char *t = is_static(&w[k]) ? w[k].text : "";
        if (t[0] != '-' || t[1] == '\0')
            continue;
        if (t[1] == '-') {
            size_t n = strlen(long_name);
            if (long_name[0] && strncmp(t, long_name, n) == 0 && (t[n] == '\0' || t[n] == '='))
                return true;
            continue;
        }
        for (size_t j = 1; t[j]; j++) {
            if (t[j] == letter)
                return true;
            if (value_letters && strchr(value_letters, t[j]))
                break;
        }
    }
    return false;
}

/* runuser (util-linux): `-u USER [--] COMMAND ARGS…` runs COMMAND itself; without -u it is su
 * (`runuser [-] USER -c STRING`). */
static void unwrap_runuser(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w,
                           size_t n)
{
    static const char *const runuser_long[] = {"--user",
                                               "--group",
                                               "--supp-group",
                                               "--shell",
                                               "--whitelist-environment",
                                               "--command",
                                               "--session-command",
                                               NULL};
    static const option_spec spec = {"ugGswc", NULL, runuser_long};
    size_t i = skip_options(w, n, 1, &spec);
    if (has_option(w, i, 'u', "gGswc", "--user"))
        unwrap_with_spec(st, idx, f, w, n, &spec, 0, false);
    else
        unwrap_dash_c(st, idx, f, w, n, true, "gGsuw", "");
}

/* taskset [-a] [-c] MASK|LIST COMMAND…, chrt [-f|-r|…] [PRIORITY] COMMAND… (util-linux). With
 * -p they change a running process and run nothing; chrt -m only prints. chrt's priority may be
 * left out for the policies that have none, so only a number is taken as one. */
static void unwrap_sched(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w, size_t n,
                         bool chrt)
{
    static const char *const chrt_long[] = {"--sched-runtime", "--sched-period", "--sched-deadline",
                                            NULL};
    static const option_spec chrt_spec = {"TPD", NULL, chrt_long};
    static const option_spec taskset_spec = {NULL, NULL, NULL};
    const option_spec *spec = chrt ? &chrt_spec : &taskset_spec;
    size_t i = skip_options(w, n, 1, spec);
    if (has_option(w, i, 'p', spec->short_values, "--pid") ||
        (chrt && has_option(w, i, 'm', spec->short_values, "--max")) || i >= n)
        return;
    bool number = is_static(&w[i]) && w[i].len > 0 && strspn(w[i].text, "0123456789") == w[i].len;
    if (!chrt || number)
        i++;
    emit_words(st, idx, f, w + i, n > i ? n - i : 0);
}

/* sg [-] GROUP [-c] COMMAND (shadow): COMMAND is one string /bin/sh -c runs. */
static void unwrap_sg(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w, size_t n)
{
    size_t i = 1;
    if (i < n && text_is(&w[i], "-"))
        i++;
    i++; /* the group */
    if (i < n && text_is(&w[i], "-c"))
        i++;
    if (i < n)
        run_string(st, idx, f, &w[i], w[i].text, w[i].len, 0, NULL, true);
}

/* runcon CONTEXT COMMAND… or runcon [-c] [-u U] [-r R] [-t T] [-l L] COMMAND… (coreutils):
 * the context operand is there only when no option is. setarch ARCH [-R…] COMMAND… takes its
 * operand first. */
static void unwrap_runcon(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w,
                          size_t n)
{
    static const char *const runcon_long[] = {"--user", "--role", "--type", "--range", NULL};
    static const option_spec spec = {"urtl", NULL, runcon_long};
    size_t i = skip_options(w, n, 1, &spec);
    unwrap_with_spec(st, idx, f, w, n, &spec, i == 1 ? 1 : 0, false);
}

static void unwrap_setarch(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w,
                           size_t n)
{
    static const option_spec none = {NULL, NULL, NULL};
    if (n < 3 || !is_static(&w[1]) || w[1].text[0] == '-')
        return; /* setarch --list, or nothing to run */
    size_t i = skip_options(w, n, 2, &none);
    emit_words(st, idx, f, w + i, n > i ? n - i : 0);
}

/* bwrap [OPTION…] [--] COMMAND… (bubblewrap's bwrap.xml): options are long only and take 0, 1,
 * 2 or 3 separate values; an option not listed as taking none or two or three takes one. */
static void unwrap_bwrap(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w, size_t n)
{
    static const char *const none[] = {"--help",
                                       "--version",
                                       "--unshare-all",
                                       "--share-net",
                                       "--unshare-user",
                                       "--unshare-user-try",
                                       "--unshare-ipc",
                                       "--unshare-pid",
                                       "--unshare-net",
                                       "--unshare-uts",
                                       "--unshare-cgroup",
                                       "--unshare-cgroup-try",
                                       "--clearenv",
                                       "--new-session",
                                       "--die-with-parent",
                                       "--as-pid-1",
                                       "--disable-userns",
                                       "--assert-userns-disabled",
                                       "--level-prefix",
                                       NULL};
    static const char *const two[] = {
        "--setenv",  "--bind",        "--bind-try", "--dev-bind",   "--dev-bind-try",
        "--ro-bind", "--ro-bind-try", "--file",     "--bind-data",  "--ro-bind-data",
        "--symlink", "--chmod",       "--bind-fd",  "--ro-bind-fd", NULL};
    size_t i = 1;
    while (i < n && is_static(&w[i]) && strncmp(w[i].text, "--", 2) == 0) {
        const char *t = w[i].text;
        if (t[2] == '\0') {
            i++;
            break;
        }
        size_t len = strlen(t);
        if (in_list(none, t, len))
            i += 1;
        else if (in_list(two, t, len))
            i += 3;
        else if (strcmp(t, "--overlay") == 0)
            i += 4;
        else
            i += 2;
    }
    if (i < n)
        emit_words(st, idx, f, w + i, n - i);
}

typedef enum wrapper_kind {
    WRAP_NONE = 0,
    WRAP_SUDO,
    WRAP_DOAS,
    WRAP_ENV,
    WRAP_COMMAND,
    WRAP_BUILTIN,
    WRAP_EXEC,
    WRAP_PLAIN, /* nohup, setsid, busybox/toybox (multi-call: the applet is the command) */
    WRAP_NICE,
    WRAP_IONICE,
    WRAP_TIMEOUT,
    WRAP_STDBUF,
    WRAP_TIME,
    WRAP_CHROOT,
    WRAP_XARGS,
    WRAP_FIND,
    WRAP_SHELL,
    WRAP_EVAL,
    WRAP_WATCH,
    WRAP_SU,
    WRAP_FLOCK,
    WRAP_SCRIPT,
    WRAP_SSH,
    WRAP_TRAP,
    WRAP_SPEC, /* options per the table's spec, then `positionals` operands, then the command */
    WRAP_RUNUSER,
    WRAP_TASKSET,
    WRAP_CHRT,
    WRAP_SG,
    WRAP_SETARCH,
    WRAP_RUNCON,
    WRAP_BWRAP
} wrapper_kind;

/* `trap ACTION SIGNAL…`: ACTION is a string the current shell runs later (on a signal, at
 * EXIT, on ERR); `trap -p`/`-l`, `trap - SIG` (reset) and `trap '' SIG` (ignore) run nothing. */
static void unwrap_trap(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w, size_t n)
{
    size_t i = 1;
    if (i < n && is_static(&w[i]) && strcmp(w[i].text, "--") == 0)
        i++;
    if (i + 1 >= n) /* no ACTION and SIGNAL pair (trap, trap SIG, trap -p, trap -l) */
        return;
    if (is_static(&w[i]) &&
        (w[i].text[0] == '\0' || strcmp(w[i].text, "-") == 0 || (w[i].text[0] == '-' && i == 1)))
        return;
    run_joined(st, idx, f, w, i, i + 1, 0, NULL, false);
}

/* Wrappers read by their getopt string alone (WRAP_SPEC). Sources: the --help of util-linux
 * 2.38 (unshare, nsenter, setpriv, prlimit), systemd 252 (systemd-run, systemd-inhibit) and
 * strace 6.1 on this machine; the man pages of ltrace, pkexec, firejail, proxychains-ng,
 * dbus-launch, dbus-run-session, fakeroot, xvfb-run, sshpass, torsocks, cgexec, numactl,
 * tini, dumb-init, caffeinate and sandbox-exec. A short letter in short_optional takes only an
 * attached value (getopt's "m::"); long options given only as --opt=VALUE need no entry. */
static const char *const unshare_long[] = {"--propagation", "--setgroups", "--root",
                                           "--wd",          "--setuid",    "--setgid",
                                           "--monotonic",   "--boottime",  NULL};
static const option_spec unshare_spec = {"RwSG", "muinpUCT", unshare_long};
static const char *const nsenter_long[] = {"--target", "--setuid", "--setgid", "--wdns", NULL};
static const option_spec nsenter_spec = {"tSGW", "muinpCUTrw", nsenter_long};
static const char *const setpriv_long[] = {"--ambient-caps",
                                           "--inh-caps",
                                           "--bounding-set",
                                           "--ruid",
                                           "--euid",
                                           "--rgid",
                                           "--egid",
                                           "--reuid",
                                           "--regid",
                                           "--groups",
                                           "--securebits",
                                           "--pdeathsig",
                                           "--selinux-label",
                                           "--apparmor-profile",
                                           "--landlock-access",
                                           "--landlock-rule",
                                           NULL};
static const option_spec setpriv_spec = {NULL, NULL, setpriv_long};
static const char *const prlimit_long[] = {"--pid", "--output", NULL};
static const option_spec prlimit_spec = {"po", "cdefilmnqrstuvxy", prlimit_long};
static const char *const systemd_run_long[] = {"--host",
                                               "--machine",
                                               "--unit",
                                               "--property",
                                               "--description",
                                               "--slice",
                                               "--service-type",
                                               "--uid",
                                               "--gid",
                                               "--nice",
                                               "--working-directory",
                                               "--setenv",
                                               "--path-property",
                                               "--socket-property",
                                               "--on-active",
                                               "--on-boot",
                                               "--on-startup",
                                               "--on-unit-active",
                                               "--on-unit-inactive",
                                               "--on-calendar",
                                               "--timer-property",
                                               NULL};
static const option_spec systemd_run_spec = {"HMupE", NULL, systemd_run_long};
static const char *const inhibit_long[] = {"--what", "--who", "--why", "--mode", NULL};
static const option_spec inhibit_spec = {NULL, NULL, inhibit_long};
static const char *const strace_long[] = {"--env",
                                          "--attach",
                                          "--user",
                                          "--detach-on",
                                          "--interruptible",
                                          "--trace",
                                          "--signal",
                                          "--status",
                                          "--trace-path",
                                          "--columns",
                                          "--abbrev",
                                          "--verbose",
                                          "--raw",
                                          "--read",
                                          "--write",
                                          "--kvm",
                                          "--output",
                                          "--string-limit",
                                          "--const-print-style",
                                          "--summary-syscall-overhead",
                                          "--summary-sort-by",
                                          "--summary-columns",
                                          "--inject",
                                          "--fault",
                                          NULL};
static const option_spec strace_spec = {"abeEIoOpPsSuUX", NULL, strace_long};
static const option_spec ltrace_spec = {"aADeFlnopsuwx", NULL, NULL};
static const char *const pkexec_long[] = {"--user", NULL};
static const option_spec pkexec_spec = {NULL, NULL, pkexec_long};
static const option_spec proxychains_spec = {"f", NULL, NULL};
static const char *const dbus_session_long[] = {"--config-file", "--dbus-daemon", NULL};
static const option_spec dbus_session_spec = {NULL, NULL, dbus_session_long};
static const char *const fakeroot_long[] = {"--lib", "--faked", "--fd-base", NULL};
static const option_spec fakeroot_spec = {"lisb", NULL, fakeroot_long};
static const char *const xvfb_long[] = {
    "--error-file", "--auth-file", "--server-num", "--xauth-protocol", "--server-args",
    "--wait",       NULL};
static const option_spec xvfb_spec = {"efnpsw", NULL, xvfb_long};
static const option_spec sshpass_spec = {"fdpP", NULL, NULL};
static const option_spec torsocks_spec = {"uapP", NULL, NULL};
static const option_spec cgexec_spec = {"g", NULL, NULL};
static const char *const numactl_long[] = {
    "--interleave", "--preferred",      "--physcpubind",         "--cpunodebind",
    "--membind",    "--preferred-many", "--weighted-interleave", NULL};
static const option_spec numactl_spec = {"cCimNpPw", NULL, numactl_long};
static const option_spec tini_spec = {"ep", NULL, NULL};
static const option_spec dumb_init_spec = {"r", NULL, NULL};
static const option_spec caffeinate_spec = {"tw", NULL, NULL};
static const option_spec sandbox_exec_spec = {"fpnD", NULL, NULL};

/* Sorted by name, for bsearch: every program is looked up, most are no wrapper. */
static const struct wrapper_name {
    const char *name;
    wrapper_kind kind;
    const option_spec *spec; /* WRAP_SPEC */
    size_t positionals;      /* WRAP_SPEC: operands before the command */
} wrapper_names[] = {
    {"ash", WRAP_SHELL, NULL, 0},
    {"bash", WRAP_SHELL, NULL, 0},
    {"builtin", WRAP_BUILTIN, NULL, 0},
    {"busybox", WRAP_PLAIN, NULL, 0},
    {"bwrap", WRAP_BWRAP, NULL, 0},
    {"caffeinate", WRAP_SPEC, &caffeinate_spec, 0},
    {"catchsegv", WRAP_PLAIN, NULL, 0},
    {"cgexec", WRAP_SPEC, &cgexec_spec, 0},
    {"chroot", WRAP_CHROOT, NULL, 0},
    {"chronic", WRAP_PLAIN, NULL, 0},
    {"chrt", WRAP_CHRT, NULL, 0},
    {"command", WRAP_COMMAND, NULL, 0},
    {"dash", WRAP_SHELL, NULL, 0},
    {"dbus-launch", WRAP_PLAIN, NULL, 0},
    {"dbus-run-session", WRAP_SPEC, &dbus_session_spec, 0},
    {"doas", WRAP_DOAS, NULL, 0},
    {"dumb-init", WRAP_SPEC, &dumb_init_spec, 0},
    {"eatmydata", WRAP_PLAIN, NULL, 0},
    {"env", WRAP_ENV, NULL, 0},
    {"eval", WRAP_EVAL, NULL, 0},
    {"exec", WRAP_EXEC, NULL, 0},
    {"fakeroot", WRAP_SPEC, &fakeroot_spec, 0},
    {"find", WRAP_FIND, NULL, 0},
    {"firejail", WRAP_PLAIN, NULL, 0}, /* every option is --name or --name=value */
    {"fish", WRAP_SHELL, NULL, 0},
    {"flock", WRAP_FLOCK, NULL, 0},
    {"ionice", WRAP_IONICE, NULL, 0},
    {"ksh", WRAP_SHELL, NULL, 0},
    {"linux32", WRAP_PLAIN, NULL, 0},
    {"linux64", WRAP_PLAIN, NULL, 0},
    {"lksh", WRAP_SHELL, NULL, 0},
    {"ltrace", WRAP_SPEC, &ltrace_spec, 0},
    {"mksh", WRAP_SHELL, NULL, 0},
    {"nice", WRAP_NICE, NULL, 0},
    {"nocache", WRAP_PLAIN, NULL, 0},
    {"nohup", WRAP_PLAIN, NULL, 0},
    {"nsenter", WRAP_SPEC, &nsenter_spec, 0},
    {"numactl", WRAP_SPEC, &numactl_spec, 0},
    {"pdksh", WRAP_SHELL, NULL, 0},
    {"pkexec", WRAP_SPEC, &pkexec_spec, 0},
    {"prlimit", WRAP_SPEC, &prlimit_spec, 0},
    {"proxychains", WRAP_SPEC, &proxychains_spec, 0},
    {"proxychains4", WRAP_SPEC, &proxychains_spec, 0},
    {"rbash", WRAP_SHELL, NULL, 0},
    {"runcon", WRAP_RUNCON, NULL, 0},
    {"runuser", WRAP_RUNUSER, NULL, 0},
    {"sandbox-exec", WRAP_SPEC, &sandbox_exec_spec, 0},
    {"script", WRAP_SCRIPT, NULL, 0},
    {"setarch", WRAP_SETARCH, NULL, 0},
    {"setpriv", WRAP_SPEC, &setpriv_spec, 0},
    {"setsid", WRAP_PLAIN, NULL, 0},
    {"sg", WRAP_SG, NULL, 0},
    {"sh", WRAP_SHELL, NULL, 0},
    {"ssh", WRAP_SSH, NULL, 0},
    {"sshpass", WRAP_SPEC, &sshpass_spec, 0},
    {"stdbuf", WRAP_STDBUF, NULL, 0},
    {"strace", WRAP_SPEC, &strace_spec, 0},
    {"su", WRAP_SU, NULL, 0},
    {"sudo", WRAP_SUDO, NULL, 0},
    {"systemd-inhibit", WRAP_SPEC, &inhibit_spec, 0},
    {"systemd-run", WRAP_SPEC, &systemd_run_spec, 0},
    {"taskset", WRAP_TASKSET, NULL, 0},
    {"time", WRAP_TIME, NULL, 0},
    {"timeout", WRAP_TIMEOUT, NULL, 0},
    {"tini", WRAP_SPEC, &tini_spec, 0},
    {"torify", WRAP_PLAIN, NULL, 0},
    {"torsocks", WRAP_SPEC, &torsocks_spec, 0},
    {"toybox", WRAP_PLAIN, NULL, 0},
    {"trap", WRAP_TRAP, NULL, 0},
    {"unbuffer", WRAP_PLAIN, NULL, 0},
    {"unshare", WRAP_SPEC, &unshare_spec, 0},
    {"watch", WRAP_WATCH, NULL, 0},
    {"xargs", WRAP_XARGS, NULL, 0},
    {"xvfb-run", WRAP_SPEC, &xvfb_spec, 0},
    {"yash", WRAP_SHELL, NULL, 0},
    {"zsh", WRAP_SHELL, NULL, 0},
};

static int compare_wrapper_name(const void *key, const void *entry)
{
    return strcmp(key, ((const struct wrapper_name *)entry)->name);
}

static const struct wrapper_name *wrapper_of(const char *program)
{
    return bsearch(program, wrapper_names, sizeof wrapper_names / sizeof wrapper_names[0],
                   sizeof wrapper_names[0], compare_wrapper_name);
}

/* ---- commands inferred from the operands of unknown programs ---- */

#define MAX_INFERRED       64   /* suffixes listed per command */
#define MAX_INFERRED_WORDS 4096 /* their words together, per command */

/* Whether w names a program rampart reads (programs.h; the data programs excepted, and cd,
 * which only the shell itself can run) or a wrapper: what an inferred command may start with. */
static bool starts_inferred(const rp_sh_word *w)
{
    if (!is_static(w) || w->len == 0)
        return false;
    const char *slash = strrchr(w->text, '/');
    if (slash != NULL && w->text[0] != '/')
        return false; /* ./rm, bin/rm: a file of that name, not the program */
    const char *name = slash ? slash + 1 : w->text;
    if (strcmp(name, "install") == 0)
        return false; /* a subcommand of every package manager (npm/pip/apt/go install) */
    rp_sh_program_kind kind = rp_sh_program_kind_of(name);
    if (kind == RP_SH_PROG_DATA || kind == RP_SH_PROG_CD)
        return false;
    return kind != RP_SH_PROG_UNKNOWN || wrapper_of(name) != NULL;
}

/* A program rampart does not know may run its operands (tmux new -d CMD, docker run IMG CMD,
 * gdb --args CMD, npm exec -- CMD, …): every argv suffix that starts with a known program is
 * also listed as that command, with RP_SH_CTX_INFERRED. Programs that treat operands as data
 * (echo, grep, man, …: programs.c) are not read so; nor is an inferred command again (each of
 * its suffixes is already one of the outer command's). Too many suffixes make the command
 * unreadable rather than leaving one out. */
static void infer_commands(rp_sh_state *st, size_t idx, const rp_sh_frame *f, rp_sh_word *w,
                           size_t n)
{
    if ((f->ctx & RP_SH_CTX_INFERRED) ||
        rp_sh_program_kind_of(st->cmds[idx].program) != RP_SH_PROG_UNKNOWN)
        return;
    size_t listed = 0, words = 0;
    for (size_t i = 1; i < n && !st->failed; i++) {
        if (!starts_inferred(&w[i]))
            continue;
        words += n - i;
        if (++listed > MAX_INFERRED || words > MAX_INFERRED_WORDS) {
            rp_sh_fail_state(st, w[i].offset, "too many commands inferred from one command");
            return;
        }
        inner_spec in = {.words = w + i, .n_words = n - i, .extra_ctx = RP_SH_CTX_INFERRED};
        emit_inner(st, idx, f, &in);
    }
}

void rp_sh_unwrap(rp_sh_state *st, size_t idx, const rp_sh_frame *f)
{
    const rp_sh_command *c = &st->cmds[idx];
    const char *p = c->program;
    rp_sh_word *w = c->words;
    size_t n = c->n_words;
    if (p == NULL || n < 2 || st->failed)
        return;

    static const option_spec none = {NULL, NULL, NULL};
    static const option_spec sudo = {"aCcDghpRrTtUu", NULL, sudo_long};
    static const option_spec doas = {"uC", NULL, NULL};
    static const option_spec exec = {"a", NULL, NULL};
    static const option_spec nice = {"n", NULL, nice_long};
    static const option_spec ionice = {"cnpPu", NULL, ionice_long};
    static const option_spec timeout = {"sk", NULL, timeout_long};
    static const option_spec stdbuf = {"ioe", NULL, stdbuf_long};
    static const option_spec time = {"fo", NULL, time_long};
    static const option_spec chroot = {NULL, NULL, chroot_long};
    static const option_spec xargs = {"adEILnPs", "ile", xargs_long};

    const struct wrapper_name *entry = wrapper_of(p);
    switch (entry ? entry->kind : WRAP_NONE) {
    case WRAP_NONE:
        infer_commands(st, idx, f, w, n);
        break;
    case WRAP_SPEC:
        unwrap_with_spec(st, idx, f, w, n, entry->spec, entry->positionals, false);
        break;
    case WRAP_RUNUSER:
        unwrap_runuser(st, idx, f, w, n);
        break;
    case WRAP_TASKSET:
    case WRAP_CHRT:
        unwrap_sched(st, idx, f, w, n, entry->kind == WRAP_CHRT);
        break;
    case WRAP_SG:
        unwrap_sg(st, idx, f, w, n);
        break;
    case WRAP_SETARCH:
        unwrap_setarch(st, idx, f, w, n);
        break;
    case WRAP_RUNCON:
        unwrap_runcon(st, idx, f, w, n);
        break;
    case WRAP_BWRAP:
        unwrap_bwrap(st, idx, f, w, n);
        break;
    case WRAP_SUDO:
        emit_with_assigns(st, idx, f, w, n, skip_options(w, n, 1, &sudo));
        break;
    case WRAP_DOAS:
        unwrap_with_spec(st, idx, f, w, n, &doas, 0, false);
        break;
    case WRAP_ENV:
        unwrap_env(st, idx, f, w, n);
        break;
    case WRAP_COMMAND:
    case WRAP_BUILTIN:
        unwrap_command_builtin(st, idx, f, w, n, p[0] == 'c');
        break;
    case WRAP_EXEC:
        unwrap_with_spec(st, idx, f, w, n, &exec, 0, false);
        break;
    case WRAP_PLAIN:
        unwrap_with_spec(st, idx, f, w, n, &none, 0, false);
        break;
    case WRAP_NICE:
        unwrap_with_spec(st, idx, f, w, n, &nice, 0, false);
        break;
    case WRAP_IONICE:
        unwrap_with_spec(st, idx, f, w, n, &ionice, 0, false);
        break;
    case WRAP_TIMEOUT:
        unwrap_with_spec(st, idx, f, w, n, &timeout, 1, false);
        break;
    case WRAP_STDBUF:
        unwrap_with_spec(st, idx, f, w, n, &stdbuf, 0, false);
        break;
    case WRAP_TIME:
        unwrap_with_spec(st, idx, f, w, n, &time, 0, false);
        break;
    case WRAP_CHROOT:
        unwrap_with_spec(st, idx, f, w, n, &chroot, 1, false);
        break;
    case WRAP_XARGS:
        unwrap_with_spec(st, idx, f, w, n, &xargs, 0, true);
        break;
    case WRAP_FIND:
        unwrap_find(st, idx, f, w, n);
        break;
    case WRAP_SHELL:
        unwrap_shell(st, idx, f, w, n);
        break;
    case WRAP_EVAL:
        run_joined(st, idx, f, w, 1, n, 0, NULL, false); /* eval: the current shell */
        break;
    case WRAP_WATCH:
        unwrap_watch(st, idx, f, w, n);
        break;
    case WRAP_SU:
        unwrap_su(st, idx, f, w, n);
        break;
    case WRAP_FLOCK:
        unwrap_flock(st, idx, f, w, n);
        break;
    case WRAP_SCRIPT:
        unwrap_script(st, idx, f, w, n);
        break;
    case WRAP_SSH:
        unwrap_ssh(st, idx, f, w, n);
        break;
    case WRAP_TRAP:
        unwrap_trap(st, idx, f, w, n);
        break;
    }
}
