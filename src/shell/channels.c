/* channels.c — code that reaches a program other than through its arguments: a shell reading
 * its script from stdin (`bash <<< …`, `echo … | sh`, `sh -s <<EOF`), from a process
 * substitution or /dev/stdin (`bash <(…)`, `. /dev/stdin`, `source <(…)`), from a file an
 * earlier command of the same line wrote (`printf … > x.sh; sh x.sh`); `at`/`batch` reading a
 * job from stdin; and the arguments a program adds to the command it runs: `xargs` (the words
 * of its stdin), `find -exec` (the roots it walks), `parallel` (the `:::` arguments).
 *
 * Runs once after the parse, over every command listed, including those it adds (so a channel
 * inside followed code is followed too, one depth deeper each time). A KNOWN text is parsed
 * like a string a wrapper runs (RP_SH_CTX_STRING | RP_SH_CTX_CHANNEL); an UNKNOWN one is
 * listed as a command whose program is unknown, as `bash -c "$X"` is; NONE lists nothing.
 * Commands added here come after the ones read from the source, each after its consumer. */
#include <string.h>

#include "shell/channels.h"

/* The stand-in word of code that cannot be known (dynamic: the program is unknown). */
static const char unknown_code[] = "$(unknown code)";

/* Where a consumer reads its code from. */
typedef enum source_kind { SRC_NONE = 0, SRC_STDIN, SRC_FILE, SRC_PROCSUB } source_kind;

typedef struct code_source {
    source_kind kind;
    const rp_sh_word *word; /* the file or process substitution operand */
    bool new_shell;         /* a new shell process runs it (not `source`) */
} code_source;

static bool word_is(const rp_sh_word *w, const char *lit)
{
    return rp_sh_word_static(w) && strcmp(w->text, lit) == 0;
}

static bool name_in(const char *p, const char *const *names)
{
    for (; *names; names++)
        if (strcmp(p, *names) == 0)
            return true;
    return false;
}

/* A script operand: stdin under another name, a `<(…)`, or a file. */
static code_source operand_source(const rp_sh_word *w, bool new_shell)
{
    code_source s = {SRC_NONE, w, new_shell};
    if ((w->flags & RP_SH_WORD_PROCSUB) && w->raw_len > 1 && w->raw[0] == '<')
        s.kind = SRC_PROCSUB;
    else if (!rp_sh_word_static(w))
        s.kind = SRC_NONE; /* `bash "$script"`: a file named at run time, as before */
    else if (rp_sh_is_stdin_path(w->text))
        s.kind = SRC_STDIN;
    else
        s.kind = SRC_FILE;
    return s;
}

/* sh/bash/…: no -c (unwrap.c reads that), and -s, or no script operand, or one of the above. */
static code_source shell_source(const rp_sh_command *c)
{
    const rp_sh_word *w = c->words;
    size_t n = c->n_words;
    rp_sh_shell_args a;
    rp_sh_read_shell_args(w, n, &a);
    if (a.command || a.no_exec) /* -c: unwrap.c reads it; -n runs nothing */
        return (code_source){SRC_NONE, NULL, true};
    size_t i = a.operand;
    if (i < n && word_is(&w[i], "-")) /* `sh -`: the end of the options */
        i++;
    if (a.read_stdin || i >= n)
        return (code_source){SRC_STDIN, NULL, true};
    return operand_source(&w[i], true);
}

/* source FILE / . FILE: the current shell reads it. */
static code_source source_source(const rp_sh_command *c)
{
    size_t i = 1;
    if (i < c->n_words && word_is(&c->words[i], "--"))
        i++;
    if (i >= c->n_words)
        return (code_source){SRC_NONE, NULL, false};
    return operand_source(&c->words[i], false);
}

/* at TIME / batch: the job is read from stdin unless -f FILE names it; -l -r -d -c only list,
 * remove or show jobs. */
static code_source at_source(const rp_sh_command *c)
{
    for (size_t i = 1; i < c->n_words; i++) {
        const rp_sh_word *w = &c->words[i];
        if (!rp_sh_word_static(w) || w->text[0] != '-' || w->text[1] == '\0')
            continue;
        if (strcmp(w->text, "--") == 0)
            break;
        for (const char *o = w->text + 1; *o; o++) {
            if (strchr("lrdc", *o))
                return (code_source){SRC_NONE, NULL, true};
            if (*o == 'f') {
                const rp_sh_word *f = o[1] ? NULL : i + 1 < c->n_words ? &c->words[i + 1] : NULL;
                return f ? operand_source(f, true) : (code_source){SRC_NONE, NULL, true};
            }
            if (strchr("qt", *o)) {
                i += o[1] ? 0 : 1;
                break;
            }
        }
    }
    return (code_source){SRC_STDIN, NULL, true};
}

static code_source code_source_of(const rp_sh_command *c)
{
    static const char *const shells[] = {"sh",   "bash",  "dash",  "zsh",  "ksh",  "mksh", "ash",
                                         "lksh", "pdksh", "rbash", "yash", "fish", NULL};
    const char *p = c->program;
    if (p == NULL)
        return (code_source){SRC_NONE, NULL, false};
    if (name_in(p, shells))
        return shell_source(c);
    if (strcmp(p, "source") == 0 || strcmp(p, ".") == 0)
        return source_source(c);
    if (strcmp(p, "at") == 0 || strcmp(p, "batch") == 0)
        return at_source(c);
    return (code_source){SRC_NONE, NULL, false};
}

/* ---- listing what is found ---- */

/* The frame of what consumer k runs: one depth deeper, k as its wrapper. */
static bool consumer_frame(rp_sh_state *st, size_t k, unsigned extra_ctx, bool new_shell,
                           rp_sh_frame *out)
{
    const rp_sh_command *c = &st->cmds[k];
    if (c->depth + 1 > RP_SH_MAX_DEPTH) {
        rp_sh_fail_state(st, c->offset, "wrappers nested too deep");
        return false;
    }
    memset(out, 0, sizeof *out);
    out->ctx = (c->context & ~(unsigned)RP_SH_CTX_PIPELINE) | RP_SH_CTX_WRAPPED |
               RP_SH_CTX_CHANNEL | extra_ctx;
    out->depth = c->depth + 1;
    out->wrapper = (int)k;
    out->env = new_shell ? rp_sh_new_env(st, RP_SH_ENV_STRING, c->env) : c->env;
    out->remote_host = c->remote_host;
    out->span_fixed = true;
    out->span_off = c->offset;
    out->span_end = c->end;
    return true;
}

/* Lists argv words[0..n) as a command consumer k runs directly (and unwraps it). The commands
 * programs add arguments to (extra_ctx 0) are counted; one unknown code per consumer is not. */
static void emit_argv(rp_sh_chan *ch, size_t k, unsigned extra_ctx, bool new_shell,
                      rp_sh_word *words, size_t n)
{
    rp_sh_state *st = ch->st;
    if (extra_ctx == 0 && ++ch->emitted > RP_SH_CHANNEL_MAX_EMITTED) {
        /* find -exec find -exec … multiplies: past the bound it cannot be read */
        rp_sh_fail_state(st, st->cmds[k].offset, "too many commands run through channels");
        return;
    }
    rp_sh_frame f;
    if (n == 0 || st->failed || !consumer_frame(st, k, extra_ctx, new_shell, &f))
        return;
    size_t j = rp_sh_reserve_command(st);
    rp_sh_command *c = &st->cmds[j];
    c->words = words;
    c->n_words = n;
    c->context = f.ctx;
    c->depth = f.depth;
    c->env = f.env;
    c->remote_host = f.remote_host;
    c->offset = f.span_off;
    c->end = f.span_end;
    st->wrapper_of[j] = (int)k;
    rp_sh_normalise_program(c);
    rp_sh_unwrap(st, j, &f);
}

/* Consumer k runs code nobody can know before it runs. */
static void emit_unknown(rp_sh_chan *ch, size_t k, bool new_shell)
{
    rp_sh_state *st = ch->st;
    rp_sh_word *w = rp_arena_alloc(st->arena, sizeof *w);
    memset(w, 0, sizeof *w);
    w->text = unknown_code;
    w->len = sizeof unknown_code - 1;
    w->raw = unknown_code;
    w->raw_len = w->len;
    w->offset = st->cmds[k].offset;
    w->flags = RP_SH_WORD_CMDSUB;
    emit_argv(ch, k, RP_SH_CTX_STRING, new_shell, w, 1);
}

/* The commands of a template (code whose expansions are not done) are listed as they are
 * written; a template that does not parse lists nothing (its expansion might). */
static void parse_template(rp_sh_chan *ch, size_t k, rp_sh_text t, bool new_shell)
{
    rp_sh_state *st = ch->st;
    if (t.len > ch->max_parsed - ch->parsed)
        return;
    ch->parsed += t.len;
    rp_sh_frame f;
    if (!consumer_frame(st, k, RP_SH_CTX_STRING, new_shell, &f))
        return;
    size_t from = st->n_cmds, mark = st->n_scratch;
    rp_sh_parse_string(st, t.text, t.len, st->cmds[k].offset, false, &f);
    if (st->failed) {
        st->failed = false;
        st->error = NULL;
        st->error_offset = 0;
        st->n_cmds = from;
        st->n_scratch = mark;
    }
    for (size_t j = from; j < st->n_cmds; j++)
        if (st->cmds[j].pipeline == RP_SH_PIPELINE_UNSET)
            st->cmds[j].pipeline = -1;
}

/* Consumer k runs the code t. */
static void emit_code(rp_sh_chan *ch, size_t k, rp_sh_text t, bool new_shell)
{
    rp_sh_state *st = ch->st;
    if (t.kind == RP_SH_TEXT_NONE || st->failed)
        return;
    if (t.kind == RP_SH_TEXT_KNOWN && t.len > ch->max_parsed - ch->parsed)
        t = (rp_sh_text){RP_SH_TEXT_UNKNOWN, NULL, 0}; /* the same big text read many times */
    if (t.kind == RP_SH_TEXT_KNOWN)
        ch->parsed += t.len;
    if (t.kind == RP_SH_TEXT_UNKNOWN) {
        if (t.text)
            parse_template(ch, k, t, new_shell);
        emit_unknown(ch, k, new_shell);
        return;
    }
    rp_sh_frame f;
    if (!consumer_frame(st, k, RP_SH_CTX_STRING, new_shell, &f))
        return;
    size_t from = st->n_cmds;
    rp_sh_parse_string(st, t.text, t.len, st->cmds[k].offset, false, &f);
    if (st->failed)
        st->error = RP_SH_ERROR_IN_STRING; /* `bash -n` sees only data there */
    for (size_t j = from; j < st->n_cmds; j++)
        if (st->cmds[j].pipeline == RP_SH_PIPELINE_UNSET)
            st->cmds[j].pipeline = -1;
}

static void follow_code(rp_sh_chan *ch, size_t k, code_source src)
{
    rp_sh_text t = {RP_SH_TEXT_NONE, NULL, 0};
    switch (src.kind) {
    case SRC_NONE:
        return;
    case SRC_STDIN:
        t = rp_sh_stdin_text(ch, k, 0);
        break;
    case SRC_PROCSUB:
        t = rp_sh_procsub_text(ch, src.word, 0);
        break;
    case SRC_FILE:
        t = rp_sh_file_text(ch, k, src.word->text, 0); /* NONE: a script file, as before */
        break;
    }
    emit_code(ch, k, t, src.new_shell);
}

/* ---- programs that add arguments to the command they run ---- */

/* The words of text split at blanks and newlines (as xargs reads them without quotes); NULL
 * when it has quotes or backslashes, which xargs would interpret. */
static rp_sh_word *split_words(rp_sh_state *st, size_t k, rp_sh_text t, size_t *n)
{
    *n = 0;
    if (t.kind != RP_SH_TEXT_KNOWN || strpbrk(t.text, "'\"\\") != NULL)
        return NULL;
    size_t count = 0;
    for (size_t i = 0; i < t.len;) {
        while (i < t.len && strchr(" \t\n", t.text[i]))
            i++;
        if (i < t.len)
            count++;
        while (i < t.len && !strchr(" \t\n", t.text[i]))
            i++;
    }
    if (count == 0)
        return NULL;
    rp_sh_word *w = rp_arena_alloc(st->arena, count * sizeof *w);
    memset(w, 0, count * sizeof *w);
    for (size_t i = 0; i < t.len;) {
        while (i < t.len && strchr(" \t\n", t.text[i]))
            i++;
        size_t s = i;
        while (i < t.len && !strchr(" \t\n", t.text[i]))
            i++;
        if (i == s)
            break;
        char *text = rp_arena_alloc(st->arena, i - s + 1);
        memcpy(text, t.text + s, i - s);
        text[i - s] = '\0';
        w[*n] = (rp_sh_word){.text = text,
                             .len = i - s,
                             .raw = text,
                             .raw_len = i - s,
                             .offset = st->cmds[k].offset};
        (*n)++;
    }
    return w;
}

/* words[0..n) with each `{}` replaced by arg (or arg appended when there is none). */
static rp_sh_word *with_argument(rp_sh_state *st, const rp_sh_word *words, size_t n,
                                 const rp_sh_word *arg, size_t n_arg, bool append, size_t *out_n)
{
    bool has_braces = false;
    for (size_t i = 0; i < n; i++)
        has_braces |= word_is(&words[i], "{}");
    size_t total = n + (has_braces || !append ? 0 : n_arg);
    for (size_t i = 0; i < n && has_braces; i++)
        total += word_is(&words[i], "{}") ? n_arg - 1 : 0;
    rp_sh_word *w = rp_arena_alloc(st->arena, (total ? total : 1) * sizeof *w);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (has_braces && word_is(&words[i], "{}")) {
            memcpy(w + m, arg, n_arg * sizeof *w);
            m += n_arg;
        } else
            w[m++] = words[i];
    }
    if (!has_braces && append) {
        memcpy(w + m, arg, n_arg * sizeof *w);
        m += n_arg;
    }
    *out_n = m;
    return w;
}

/* The first command wrapper k runs directly (xargs CMD, find -exec CMD), from index from. */
static bool next_inner(const rp_sh_state *st, size_t k, size_t from, size_t *inner)
{
    for (size_t j = from; j < st->n_cmds; j++)
        if (st->wrapper_of[j] == (int)k && (st->cmds[j].context & RP_SH_CTX_CHANNEL) == 0) {
            *inner = j;
            return true;
        }
    return false;
}

/* `echo / | xargs rm -rf` runs `rm -rf /`. Options that change how input is read (-0, -d, -a,
 * -I/-i/--replace, -E/-e/--eof) are not evaluated: the fixed part stays listed as it was. */
static void follow_xargs(rp_sh_chan *ch, size_t k)
{
    rp_sh_state *st = ch->st;
    const rp_sh_command *c = &st->cmds[k];
    for (size_t i = 1; i < c->n_words; i++) {
        const rp_sh_word *w = &c->words[i];
        if (!rp_sh_word_static(w) || w->text[0] != '-')
            break;
        if (strncmp(w->text, "--", 2) == 0 && w->text[2] != '\0' &&
            strncmp(w->text, "--max-", 6) != 0 && strcmp(w->text, "--no-run-if-empty") != 0 &&
            strcmp(w->text, "--verbose") != 0)
            return;
        if (w->text[1] != '-' && strpbrk(w->text + 1, "0daIiEe"))
            return;
    }
    size_t inner;
    if (!next_inner(st, k, k + 1, &inner))
        return;
    size_t n_arg;
    rp_sh_word *arg = split_words(st, k, rp_sh_stdin_text(ch, k, 0), &n_arg);
    if (arg == NULL)
        return;
    size_t n;
    rp_sh_word *w =
        with_argument(st, st->cmds[inner].words, st->cmds[inner].n_words, arg, n_arg, true, &n);
    emit_argv(ch, k, 0, false, w, n);
}

/* find's starting points: the operands before the first expression word. */
static size_t find_roots(const rp_sh_command *c, size_t *first)
{
    size_t i = 1;
    while (i < c->n_words && rp_sh_word_static(&c->words[i]) &&
           (strcmp(c->words[i].text, "-H") == 0 || strcmp(c->words[i].text, "-L") == 0 ||
            strcmp(c->words[i].text, "-P") == 0 || strncmp(c->words[i].text, "-O", 2) == 0 ||
            strcmp(c->words[i].text, "-D") == 0))
        i += strcmp(c->words[i].text, "-D") == 0 ? 2 : 1;
    *first = i;
    size_t n = 0;
    while (i + n < c->n_words) {
        const rp_sh_word *w = &c->words[i + n];
        if (rp_sh_word_static(w) && (w->text[0] == '-' || strcmp(w->text, "(") == 0 ||
                                     strcmp(w->text, "!") == 0 || strcmp(w->text, ",") == 0))
            break;
        n++;
    }
    return n;
}

/* `find ~ -exec rm {} \;` runs `rm ~` among others: each -exec command once per root. */
static void follow_find(rp_sh_chan *ch, size_t k)
{
    rp_sh_state *st = ch->st;
    static rp_sh_word dot = {.text = ".", .len = 1, .raw = ".", .raw_len = 1};
    size_t first, n_roots = find_roots(&st->cmds[k], &first);
    if (n_roots > 16)
        n_roots = 16;
    size_t inners[8], n_inners = 0;
    for (size_t j = k + 1; n_inners < 8 && next_inner(st, k, j, &inners[n_inners]);)
        j = inners[n_inners++] + 1;
    for (size_t i = 0; i < n_inners && !st->failed; i++) {
        for (size_t r = 0; r < (n_roots ? n_roots : 1) && !st->failed; r++) {
            const rp_sh_word *root = n_roots ? &st->cmds[k].words[first + r] : &dot;
            const rp_sh_command *in = &st->cmds[inners[i]];
            size_t n;
            rp_sh_word *w = with_argument(st, in->words, in->n_words, root, 1, true, &n);
            emit_argv(ch, k, 0, false, w, n);
        }
    }
}

/* GNU parallel: CMD ::: ARG… runs CMD with each ARG (in place of `{}`, else appended) through
 * a shell; with no CMD each ARG is a command line; without `:::` the args are stdin's words. */
static void follow_parallel(rp_sh_chan *ch, size_t k)
{
    static const char *const takes_value[] = {
        "-j",        "-P",           "-S",        "-N",         "-n",          "-L",
        "-l",        "-I",           "-E",        "-d",         "-a",          "-C",
        "--jobs",    "--sshlogin",   "--colsep",  "--arg-file", "--delimiter", "--max-args",
        "--results", "--joblog",     "--workdir", "--wd",       "--timeout",   "--retries",
        "--delay",   "--tag-string", NULL};
    rp_sh_state *st = ch->st;
    /* a copy: emitting commands moves st->cmds (the words arrays stay where they are) */
    const rp_sh_command cmd_copy = st->cmds[k], *c = &cmd_copy;
    size_t i = 1;
    while (i < c->n_words && rp_sh_word_static(&c->words[i]) && c->words[i].text[0] == '-' &&
           strcmp(c->words[i].text, "--") != 0)
        i += name_in(c->words[i].text, takes_value) ? 2 : 1;
    if (i < c->n_words && word_is(&c->words[i], "--"))
        i++;
    size_t cmd = i;
    while (i < c->n_words &&
           !(rp_sh_word_static(&c->words[i]) && strncmp(c->words[i].text, ":::", 3) == 0))
        i++;
    size_t n_cmd = (i > c->n_words ? c->n_words : i) - cmd;
    rp_sh_word *args = NULL;
    size_t n_args = 0;
    if (i < c->n_words) {
        if (!word_is(&c->words[i], ":::") && !word_is(&c->words[i], ":::+"))
            return; /* `::::` files */
        args = c->words + i + 1;
        for (size_t j = i + 1; j < c->n_words && !(rp_sh_word_static(&c->words[j]) &&
                                                   strncmp(c->words[j].text, ":::", 3) == 0);)
            n_args = ++j - (i + 1);
    } else if (n_cmd == 0) {
        emit_code(ch, k, rp_sh_stdin_text(ch, k, 0), true); /* each line is a command line */
        return;
    } else
        args = split_words(st, k, rp_sh_stdin_text(ch, k, 0), &n_args);
    if (n_args > 64)
        n_args = 64;
    for (size_t a = 0; a < n_args && !st->failed; a++) {
        if (n_cmd == 0) {
            rp_sh_text t = {rp_sh_word_static(&args[a]) ? RP_SH_TEXT_KNOWN : RP_SH_TEXT_UNKNOWN,
                            args[a].text, args[a].len};
            emit_code(ch, k, t, true);
            continue;
        }
        size_t n;
        rp_sh_word *w = with_argument(st, c->words + cmd, n_cmd, &args[a], 1, true, &n);
        emit_argv(ch, k, 0, false, w, n);
    }
    if (n_args == 0 && n_cmd > 0)
        emit_argv(ch, k, 0, false, c->words + cmd, n_cmd);
}

static void follow_one(rp_sh_chan *ch, size_t k)
{
    rp_sh_state *st = ch->st;
    const rp_sh_command *c = &st->cmds[k];
    if (c->program == NULL)
        return;
    code_source src = code_source_of(c);
    bool adds_args = strcmp(c->program, "xargs") == 0 || strcmp(c->program, "find") == 0 ||
                     strcmp(c->program, "parallel") == 0;
    if (src.kind == SRC_NONE && !adds_args)
        return;
    if (++ch->followed > RP_SH_CHANNEL_MAX_FOLLOWED) {
        if (src.kind != SRC_NONE)
            emit_unknown(ch, k, src.new_shell);
        return;
    }
    if (src.kind != SRC_NONE)
        follow_code(ch, k, src);
    else if (c->program[0] == 'x')
        follow_xargs(ch, k);
    else if (c->program[0] == 'f')
        follow_find(ch, k);
    else
        follow_parallel(ch, k);
}

void rp_sh_follow_channels(rp_sh_state *st)
{
    rp_sh_chan ch = {.st = st,
                     .budget = RP_SH_CHANNEL_BUDGET,
                     .max_parsed = st->top_len + RP_SH_CHANNEL_PARSED_SLACK};
    for (size_t k = 0; k < st->n_cmds && !st->failed; k++)
        follow_one(&ch, k);
}
