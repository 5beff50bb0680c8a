/* producers.c — the text a command's stdin carries and the output of the pure producers, when
 * they are statically knowable (see channels.h for KNOWN/UNKNOWN/NONE).
 *
 * Read as bash would feed them: a here-doc body (a quoted delimiter keeps it as is; an unquoted
 * one is KNOWN only when it has no expansion left after `\$`, `\`` and `\\` are undone), a
 * here-string word plus the newline bash adds, the previous stage of a pipeline, the data a
 * `tee >(…)` or `> >(…)` writes into a process substitution, and a file an earlier command of
 * the same line wrote. Producers evaluated: echo, printf (%s %b %% and the common escapes), cat
 * and tee (pass their input through), base64 -d, rev, and tr with plain sets; a wrapper that runs
 * one directly (sudo echo …) produces what it runs. Anything else that writes to the pipe is
 * UNKNOWN. */
#include <string.h>

#include "shell/channels.h"

static const rp_sh_text text_none = {RP_SH_TEXT_NONE, NULL, 0};
static const rp_sh_text text_unknown = {RP_SH_TEXT_UNKNOWN, NULL, 0};

static rp_sh_text known(const char *text, size_t len)
{
    rp_sh_text t = {RP_SH_TEXT_KNOWN, text, len};
    if (len > RP_SH_CHANNEL_MAX_TEXT || memchr(text, '\0', len) != NULL)
        return text_unknown;
    return t;
}

/* UNKNOWN, with the text as written (expansions not done) for the policies to read. */
static rp_sh_text template_of(const char *text, size_t len)
{
    rp_sh_text t = {RP_SH_TEXT_UNKNOWN, text, len};
    if (len > RP_SH_CHANNEL_MAX_TEXT || memchr(text, '\0', len) != NULL)
        return text_unknown;
    return t;
}

/* The scratch bytes since mark, as a KNOWN text (UNKNOWN when too long). */
static rp_sh_text finish(rp_sh_state *st, size_t mark)
{
    size_t len;
    if (st->n_scratch - mark > RP_SH_CHANNEL_MAX_TEXT) {
        st->n_scratch = mark;
        return text_unknown;
    }
    const char *text = rp_sh_scratch_finish(st, mark, &len);
    return known(text, len);
}

bool rp_sh_chan_spend(rp_sh_chan *ch, size_t visits)
{
    if (ch->budget < visits) {
        ch->budget = 0;
        return false;
    }
    ch->budget -= visits;
    return true;
}

bool rp_sh_is_stdin_path(const char *path)
{
    return strcmp(path, "/dev/stdin") == 0 || strcmp(path, "/dev/fd/0") == 0 ||
           strcmp(path, "/proc/self/fd/0") == 0;
}

static bool word_is(const rp_sh_word *w, const char *lit)
{
    return rp_sh_word_static(w) && strcmp(w->text, lit) == 0;
}

/* ---- here-documents and here-strings ---- */

static rp_sh_text heredoc_text(rp_sh_state *st, const rp_sh_redir *r)
{
    const char *b = r->heredoc_body;
    if (b == NULL)
        return text_unknown;
    size_t n = strlen(b);
    if (r->heredoc_quoted)
        return known(b, n);
    /* Unquoted: `\$`, `\`` and `\\` lose their backslash; any other `$` or backquote expands. */
    size_t mark = st->n_scratch;
    for (size_t i = 0; i < n; i++) {
        char c = b[i];
        if (c == '\\' && i + 1 < n && (b[i + 1] == '$' || b[i + 1] == '`' || b[i + 1] == '\\')) {
            rp_sh_scratch_putc(st, b[++i]);
            continue;
        }
        if (c == '$' || c == '`') {
            st->n_scratch = mark;
            return template_of(b, n); /* expanded when bash reads it */
        }
        rp_sh_scratch_putc(st, c);
    }
    return finish(st, mark);
}

static rp_sh_text herestring_text(rp_sh_state *st, const rp_sh_word *w)
{
    if (!rp_sh_word_static(w) || (w->flags & RP_SH_WORD_TILDE))
        return template_of(w->text, w->len);
    size_t mark = st->n_scratch;
    rp_sh_scratch_put(st, w->text, w->len);
    rp_sh_scratch_putc(st, '\n');
    return finish(st, mark);
}

/* The redirection of c that feeds its fd 0 (the last one wins), or NULL. */
static const rp_sh_redir *stdin_redir(const rp_sh_command *c)
{
    const rp_sh_redir *in = NULL;
    for (size_t i = 0; i < c->n_redirs; i++) {
        const rp_sh_redir *r = &c->redirs[i];
        bool reads = r->op == RP_SH_REDIR_IN || r->op == RP_SH_REDIR_INOUT ||
                     r->op == RP_SH_REDIR_DUP_IN || r->op == RP_SH_REDIR_HEREDOC ||
                     r->op == RP_SH_REDIR_HEREDOC_STRIP || r->op == RP_SH_REDIR_HERESTRING;
        if (r->fd == 0 || (r->fd < 0 && reads))
            in = reads ? r : NULL; /* `0>file` replaces an earlier input */
    }
    return in;
}

static rp_sh_text redir_text(rp_sh_chan *ch, size_t k, const rp_sh_redir *r, int hops)
{
    switch (r->op) {
    case RP_SH_REDIR_HEREDOC:
    case RP_SH_REDIR_HEREDOC_STRIP:
        return heredoc_text(ch->st, r);
    case RP_SH_REDIR_HERESTRING:
        return herestring_text(ch->st, &r->target);
    case RP_SH_REDIR_IN:
        if (word_is(&r->target, "/dev/null"))
            return known("", 0);
        if (r->target.flags & RP_SH_WORD_PROCSUB)
            return rp_sh_procsub_text(ch, &r->target, hops + 1);
        if (rp_sh_word_static(&r->target)) {
            return rp_sh_file_text(ch, k, r->target.text, hops + 1); /* NONE: a file */
        }
        return text_unknown;
    default:
        return text_unknown;
    }
}

static rp_sh_text produced_text(rp_sh_chan *ch, size_t k, int hops);

/* What a filter reads: its stdin, where nothing known (the terminal, a file) is UNKNOWN. */
static rp_sh_text filter_input(rp_sh_chan *ch, size_t k, int hops)
{
    rp_sh_text t = rp_sh_stdin_text(ch, k, hops);
    return t.kind == RP_SH_TEXT_NONE ? text_unknown : t;
}

/* ---- pipelines and process substitutions ---- */

/* The output of stage `stage` of pipeline `pipe`: its one outermost command's. */
static rp_sh_text stage_output(rp_sh_chan *ch, int pipe, int stage, int hops)
{
    rp_sh_state *st = ch->st;
    if (!rp_sh_chan_spend(ch, st->n_cmds))
        return text_unknown;
    size_t root = 0, roots = 0;
    for (size_t j = 0; j < st->n_cmds; j++) {
        const rp_sh_command *c = &st->cmds[j];
        if (c->pipeline != pipe || c->stage != stage)
            continue;
        int w = st->wrapper_of[j];
        if (w >= 0 && st->cmds[w].pipeline == pipe && st->cmds[w].stage == stage)
            continue; /* run by a command of the same stage */
        root = j;
        roots++;
    }
    if (roots != 1)
        return text_unknown; /* `{ a; b; } | sh`, a stage with no command */
    return rp_sh_output_text(ch, root, hops + 1);
}

rp_sh_text rp_sh_procsub_text(rp_sh_chan *ch, const rp_sh_word *w, int hops)
{
    rp_sh_state *st = ch->st;
    if (hops > RP_SH_CHANNEL_MAX_HOPS || !rp_sh_chan_spend(ch, st->n_cmds))
        return text_unknown;
    size_t from = w->offset, to = w->offset + w->raw_len;
    size_t last = 0, roots = 0;
    int pipe = -1;
    bool one_pipeline = true;
    for (size_t j = 0; j < st->n_cmds; j++) {
        const rp_sh_command *c = &st->cmds[j];
        if (!(c->context & RP_SH_CTX_PROCSUB) || c->offset < from || c->end > to)
            continue;
        int wr = st->wrapper_of[j];
        if (wr >= 0 && st->cmds[wr].offset >= from && st->cmds[wr].end <= to)
            continue;
        if (roots == 0)
            pipe = c->pipeline;
        one_pipeline &= c->pipeline >= 0 && c->pipeline == pipe;
        if (roots == 0 || c->stage >= st->cmds[last].stage)
            last = j;
        roots++;
    }
    if (roots == 0 || (roots > 1 && !one_pipeline))
        return text_unknown;
    return rp_sh_output_text(ch, last, hops + 1);
}

/* Command k runs inside a `>(…)` word of an earlier command: what that command writes into it
 * (tee copies its stdin to each file operand; `> >(…)` receives the command's output). */
static rp_sh_text procsub_input(rp_sh_chan *ch, size_t k, int hops, bool *found)
{
    rp_sh_state *st = ch->st;
    const rp_sh_command *c = &st->cmds[k];
    *found = false;
    if (!rp_sh_chan_spend(ch, k))
        return text_unknown;
    for (size_t j = k; j-- > 0;) {
        const rp_sh_command *e = &st->cmds[j];
        for (size_t i = 0; i < e->n_words + e->n_redirs; i++) {
            bool redir = i >= e->n_words;
            const rp_sh_word *w = redir ? &e->redirs[i - e->n_words].target : &e->words[i];
            if (!(w->flags & RP_SH_WORD_PROCSUB) || w->raw_len < 2 || w->raw[0] != '>' ||
                c->offset < w->offset || c->end > w->offset + w->raw_len)
                continue;
            *found = true;
            if (redir && rp_sh_redir_writes(&e->redirs[i - e->n_words]))
                return produced_text(ch, j, hops + 1);
            if (!redir && e->program && strcmp(e->program, "tee") == 0)
                return filter_input(ch, j, hops + 1);
            return text_unknown;
        }
    }
    return text_unknown;
}

rp_sh_text rp_sh_stdin_text(rp_sh_chan *ch, size_t k, int hops)
{
    rp_sh_state *st = ch->st;
    if (hops > RP_SH_CHANNEL_MAX_HOPS)
        return text_unknown;
    for (size_t cur = k;;) {
        const rp_sh_command *c = &st->cmds[cur];
        const rp_sh_redir *r = stdin_redir(c);
        if (r)
            return redir_text(ch, cur, r, hops);
        if (c->pipeline >= 0 && c->stage > 0)
            return stage_output(ch, c->pipeline, c->stage - 1, hops);
        if (c->context & RP_SH_CTX_PROCSUB) {
            bool found;
            rp_sh_text t = procsub_input(ch, cur, hops, &found);
            if (found)
                return t;
        }
        int w = st->wrapper_of[cur];
        if (w < 0)
            return text_none;
        /* Code a shell read from its stdin does not read that stdin again as data. */
        if ((c->context & RP_SH_CTX_CHANNEL) && !(st->cmds[w].context & RP_SH_CTX_CHANNEL))
            return text_none;
        cur = (size_t)w;
    }
}

/* ---- files written on the spot ---- */

static const char *strip_dot_slash(const char *p)
{
    while (p[0] == '.' && p[1] == '/' && p[2] != '\0')
        p += 2;
    return p;
}

/* cur, then what appending t to it gives. */
static rp_sh_text append_text(rp_sh_state *st, rp_sh_text cur, rp_sh_text t)
{
    if (cur.kind != RP_SH_TEXT_KNOWN || t.kind != RP_SH_TEXT_KNOWN)
        return text_unknown;
    size_t mark = st->n_scratch;
    rp_sh_scratch_put(st, cur.text, cur.len);
    rp_sh_scratch_put(st, t.text, t.len);
    return finish(st, mark);
}

/* tee's file operands (after its options -a -i -p and their long forms). */
static rp_sh_text tee_writes(rp_sh_chan *ch, size_t j, const char *path, rp_sh_text cur, int hops)
{
    const rp_sh_command *e = &ch->st->cmds[j];
    bool append = false, opts = true;
    for (size_t i = 1; i < e->n_words; i++) {
        const rp_sh_word *w = &e->words[i];
        if (!rp_sh_word_static(w))
            continue;
        if (opts && strcmp(w->text, "--") == 0) {
            opts = false;
            continue;
        }
        if (opts && w->text[0] == '-' && w->text[1] != '\0') {
            append |= strcmp(w->text, "--append") == 0 ||
                      (w->text[1] != '-' && strchr(w->text, 'a') != NULL);
            continue;
        }
        if (strcmp(strip_dot_slash(w->text), path) != 0)
            continue;
        rp_sh_text in = filter_input(ch, j, hops + 1);
        return append ? append_text(ch->st, cur, in) : in;
    }
    return cur;
}

rp_sh_text rp_sh_file_text(rp_sh_chan *ch, size_t before, const char *path, int hops)
{
    rp_sh_state *st = ch->st;
    if (hops > RP_SH_CHANNEL_MAX_HOPS || !rp_sh_chan_spend(ch, before))
        return text_unknown;
    path = strip_dot_slash(path);
    rp_sh_text cur = text_none;
    for (size_t j = 0; j < before; j++) {
        const rp_sh_command *e = &st->cmds[j];
        for (size_t i = 0; i < e->n_redirs; i++) {
            const rp_sh_redir *r = &e->redirs[i];
            if (!rp_sh_redir_writes(r) || (r->fd != -1 && r->fd != 1) ||
                !rp_sh_word_static(&r->target) ||
                strcmp(strip_dot_slash(r->target.text), path) != 0)
                continue;
            rp_sh_text out = produced_text(ch, j, hops + 1);
            bool append = r->op == RP_SH_REDIR_APPEND || r->op == RP_SH_REDIR_APPEND_ERR;
            if (append)
                cur = append_text(st, cur.kind == RP_SH_TEXT_NONE ? known("", 0) : cur, out);
            else
                cur = out;
        }
        if (e->program && strcmp(e->program, "tee") == 0)
            cur = tee_writes(ch, j, path, cur, hops);
    }
    return cur;
}

/* ---- the producers ---- */

/* The decoded escape of printf's format (and of %b) at p[0] == '\\'; 0 when not one read. */
static size_t printf_escape(const char *p, char *out)
{
    static const char from[] = "\\\"'abfnrtv";
    static const char to[] = "\\\"'\a\b\f\n\r\t\v";
    const char *hit = p[1] ? strchr(from, p[1]) : NULL;
    if (hit == NULL)
        return 0;
    *out = to[hit - from];
    return 2;
}

static bool put_escaped(rp_sh_state *st, const char *s)
{
    for (size_t i = 0; s[i];) {
        if (s[i] != '\\') {
            rp_sh_scratch_putc(st, s[i++]);
            continue;
        }
        char c;
        size_t n = printf_escape(s + i, &c);
        if (n == 0)
            return false;
        rp_sh_scratch_putc(st, c);
        i += n;
    }
    return true;
}

/* printf FORMAT ARGS…: the format is reused while arguments remain (as printf does). */
static rp_sh_text printf_output(rp_sh_state *st, const rp_sh_command *c)
{
    size_t i = 1;
    if (i < c->n_words && word_is(&c->words[i], "--"))
        i++;
    if (i < c->n_words && word_is(&c->words[i], "-v"))
        return known("", 0); /* assigns a variable, prints nothing */
    if (i >= c->n_words)
        return text_unknown;
    const char *fmt = c->words[i].text;
    size_t arg = i + 1, mark = st->n_scratch;
    do {
        size_t used = arg;
        for (size_t p = 0; fmt[p];) {
            if (st->n_scratch - mark > RP_SH_CHANNEL_MAX_TEXT)
                goto unknown;
            if (fmt[p] == '\\') {
                char e;
                size_t n = printf_escape(fmt + p, &e);
                if (n == 0)
                    goto unknown;
                rp_sh_scratch_putc(st, e);
                p += n;
            } else if (fmt[p] == '%' && fmt[p + 1] == '%') {
                rp_sh_scratch_putc(st, '%');
                p += 2;
            } else if (fmt[p] == '%' && (fmt[p + 1] == 's' || fmt[p + 1] == 'b')) {
                const char *a = arg < c->n_words ? c->words[arg++].text : "";
                if (fmt[p + 1] == 's')
                    rp_sh_scratch_put(st, a, strlen(a));
                else if (!put_escaped(st, a))
                    goto unknown;
                p += 2;
            } else if (fmt[p] == '%') {
                goto unknown; /* widths, numbers, %q: not evaluated */
            } else {
                rp_sh_scratch_putc(st, fmt[p++]);
            }
        }
        if (arg == used)
            break; /* the format takes no argument: printed once */
    } while (arg < c->n_words);
    return finish(st, mark);
unknown:
    st->n_scratch = mark;
    return text_unknown;
}

/* echo: leading -n/-e/-E bundles are options (bash's). A backslash makes the text unknown
 * whatever the options: bash's echo keeps it without -e, but dash's (the sh of Debian), zsh's,
 * POSIX's and bash's under `shopt -s xpg_echo` interpret it, and the echo may run under any of
 * them (`sh -c 'echo … | bash'`). */
static rp_sh_text echo_output(rp_sh_state *st, const rp_sh_command *c)
{
    size_t i = 1;
    bool newline = true;
    for (; i < c->n_words; i++) {
        const char *t = c->words[i].text;
        if (t[0] != '-' || t[1] == '\0' || strspn(t + 1, "neE") != strlen(t + 1))
            break;
        for (const char *o = t + 1; *o; o++)
            newline &= *o != 'n';
    }
    size_t mark = st->n_scratch;
    for (size_t k = i; k < c->n_words; k++) {
        if (strchr(c->words[k].text, '\\')) {
            st->n_scratch = mark;
            return text_unknown;
        }
        rp_sh_scratch_put(st, c->words[k].text, c->words[k].len);
        if (k + 1 < c->n_words)
            rp_sh_scratch_putc(st, ' ');
    }
    if (newline)
        rp_sh_scratch_putc(st, '\n');
    return finish(st, mark);
}

/* cat [-] [FILE…]: the concatenation of its stdin and files written on the spot. */
static rp_sh_text cat_output(rp_sh_chan *ch, size_t k, int hops)
{
    const rp_sh_command *c = &ch->st->cmds[k];
    size_t i = 1;
    if (i < c->n_words && word_is(&c->words[i], "--"))
        i++;
    if (i >= c->n_words)
        return filter_input(ch, k, hops + 1);
    rp_sh_text cur = known("", 0);
    for (; i < c->n_words && cur.kind == RP_SH_TEXT_KNOWN; i++) {
        const rp_sh_word *w = &c->words[i];
        rp_sh_text t = text_unknown;
        if (w->flags & RP_SH_WORD_PROCSUB)
            t = rp_sh_procsub_text(ch, w, hops + 1);
        else if (!rp_sh_word_static(w) || (w->text[0] == '-' && w->text[1] != '\0'))
            t = text_unknown; /* options change the text */
        else if (strcmp(w->text, "-") == 0 || rp_sh_is_stdin_path(w->text))
            t = filter_input(ch, k, hops + 1);
        else
            t = rp_sh_file_text(ch, k, w->text, hops + 1);
        if (t.kind == RP_SH_TEXT_NONE)
            t = text_unknown;
        cur = append_text(ch->st, cur, t);
    }
    return cur;
}

static int base64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

static rp_sh_text base64_decode(rp_sh_state *st, rp_sh_text in)
{
    if (in.kind != RP_SH_TEXT_KNOWN)
        return text_unknown;
    size_t mark = st->n_scratch;
    unsigned acc = 0;
    int bits = 0;
    bool padded = false;
    for (size_t i = 0; i < in.len; i++) {
        char c = in.text[i];
        if (c == '\n')
            continue;
        if (c == '=') {
            padded = true;
            continue;
        }
        int v = base64_value(c);
        if (v < 0 || padded) {
            st->n_scratch = mark; /* base64 -d refuses it */
            return text_unknown;
        }
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            rp_sh_scratch_putc(st, (char)((acc >> bits) & 0xff));
        }
    }
    return finish(st, mark);
}

static rp_sh_text base64_output(rp_sh_chan *ch, size_t k, int hops)
{
    const rp_sh_command *c = &ch->st->cmds[k];
    bool decode = false;
    for (size_t i = 1; i < c->n_words; i++) {
        const char *t = c->words[i].text;
        if (!rp_sh_word_static(&c->words[i]))
            return text_unknown;
        if (strcmp(t, "-d") == 0 || strcmp(t, "--decode") == 0 || strcmp(t, "-D") == 0)
            decode = true;
        else if (strcmp(t, "-") != 0)
            return text_unknown; /* a file operand, -w, -i: not evaluated */
    }
    if (!decode)
        return text_unknown;
    return base64_decode(ch->st, filter_input(ch, k, hops + 1));
}

/* rev: each line reversed (bytes; text that is not ASCII is not evaluated). */
static rp_sh_text rev_output(rp_sh_chan *ch, size_t k, int hops)
{
    rp_sh_state *st = ch->st;
    if (st->cmds[k].n_words > 1)
        return text_unknown;
    rp_sh_text in = filter_input(ch, k, hops + 1);
    if (in.kind != RP_SH_TEXT_KNOWN)
        return text_unknown;
    size_t mark = st->n_scratch;
    for (size_t start = 0; start < in.len;) {
        const char *nl = memchr(in.text + start, '\n', in.len - start);
        size_t end = nl ? (size_t)(nl - in.text) : in.len;
        for (size_t i = end; i-- > start;) {
            if ((unsigned char)in.text[i] >= 0x80) {
                st->n_scratch = mark;
                return text_unknown;
            }
            rp_sh_scratch_putc(st, in.text[i]);
        }
        if (nl)
            rp_sh_scratch_putc(st, '\n');
        start = end + 1;
    }
    return finish(st, mark);
}

/* A tr set: literal bytes, `a-z` ranges and the escapes backslash-n, -t and -backslash; false on
 * classes, `[x*n]` and other escapes, which are not evaluated. out holds 256 bytes. */
static bool tr_set(const char *t, unsigned char *out, size_t *n)
{
    *n = 0;
    for (size_t i = 0; t[i];) {
        unsigned char c = (unsigned char)t[i];
        if (c == '[' || (c == '\\' && (t[i + 1] == '\0' || !strchr("nt\\", t[i + 1]))))
            return false;
        if (c == '\\') {
            c = t[i + 1] == 'n' ? '\n' : t[i + 1] == 't' ? '\t' : '\\';
            i += 2;
        } else
            i++;
        if (t[i] == '-' && t[i + 1] && t[i + 1] != '\\' && t[i + 1] != '[') {
            unsigned char hi = (unsigned char)t[i + 1];
            if (hi < c)
                return false;
            for (unsigned v = c; v <= hi && *n < 256; v++)
                out[(*n)++] = (unsigned char)v;
            i += 2;
        } else if (*n < 256)
            out[(*n)++] = c;
        else
            return false;
    }
    return true;
}

/* tr SET1 SET2 (SET2 padded with its last byte) and tr -d SET1. */
static rp_sh_text tr_output(rp_sh_chan *ch, size_t k, int hops)
{
    rp_sh_state *st = ch->st;
    const rp_sh_command *c = &st->cmds[k];
    bool del = c->n_words == 3 && strcmp(c->words[1].text, "-d") == 0;
    if (!(c->n_words == 3 && (del || c->words[1].text[0] != '-')))
        return text_unknown;
    unsigned char from[256], to[256], map[256];
    size_t nf, nt = 0;
    if (!tr_set(c->words[del ? 2 : 1].text, from, &nf) ||
        (!del && (!tr_set(c->words[2].text, to, &nt) || nt == 0)))
        return text_unknown;
    bool gone[256] = {false};
    for (unsigned v = 0; v < 256; v++)
        map[v] = (unsigned char)v;
    for (size_t i = 0; i < nf; i++) {
        if (del)
            gone[from[i]] = true;
        else
            map[from[i]] = to[i < nt ? i : nt - 1];
    }
    rp_sh_text in = filter_input(ch, k, hops + 1);
    if (in.kind != RP_SH_TEXT_KNOWN)
        return text_unknown;
    size_t mark = st->n_scratch;
    for (size_t i = 0; i < in.len; i++) {
        unsigned char b = (unsigned char)in.text[i];
        if (!gone[b])
            rp_sh_scratch_putc(st, (char)map[b]);
    }
    return finish(st, mark);
}

/* A wrapper that executes its command directly (sudo, env, nice, …): the first command it
 * runs that is not a string it parsed. */
static bool direct_inner(const rp_sh_state *st, size_t k, size_t *inner)
{
    for (size_t j = k + 1; j < st->n_cmds; j++) {
        if (st->wrapper_of[j] != (int)k)
            continue;
        if (st->cmds[j].context & (RP_SH_CTX_STRING | RP_SH_CTX_CHANNEL))
            return false;
        *inner = j;
        return true;
    }
    return false;
}

/* What command k writes, wherever its fd 1 goes. */
static rp_sh_text produced_text(rp_sh_chan *ch, size_t k, int hops)
{
    rp_sh_state *st = ch->st;
    const rp_sh_command *c = &st->cmds[k];
    if (hops > RP_SH_CHANNEL_MAX_HOPS || c->program == NULL || c->extra_args ||
        c->program_is_path || !rp_sh_chan_spend(ch, 1))
        return text_unknown;
    bool dynamic = false;
    for (size_t i = 1; i < c->n_words; i++)
        dynamic |= !rp_sh_word_static(&c->words[i]) && !(c->words[i].flags & RP_SH_WORD_PROCSUB);
    const char *p = c->program;
    if (strcmp(p, "echo") == 0 || strcmp(p, "printf") == 0) {
        rp_sh_text t = p[0] == 'e' ? echo_output(st, c) : printf_output(st, c);
        return dynamic && t.kind == RP_SH_TEXT_KNOWN ? template_of(t.text, t.len) : t;
    }
    if (dynamic)
        return text_unknown;
    if (strcmp(p, "cat") == 0)
        return cat_output(ch, k, hops);
    if (strcmp(p, "tee") == 0)
        return filter_input(ch, k, hops + 1);
    if (strcmp(p, "base64") == 0)
        return base64_output(ch, k, hops);
    if (strcmp(p, "rev") == 0)
        return rev_output(ch, k, hops);
    if (strcmp(p, "tr") == 0)
        return tr_output(ch, k, hops);
    size_t inner;
    if (direct_inner(st, k, &inner))
        return produced_text(ch, inner, hops + 1);
    return text_unknown;
}

rp_sh_text rp_sh_output_text(rp_sh_chan *ch, size_t k, int hops)
{
    const rp_sh_command *c = &ch->st->cmds[k];
    for (size_t i = 0; i < c->n_redirs; i++) {
        const rp_sh_redir *r = &c->redirs[i];
        if (rp_sh_redir_writes(r) && (r->fd == -1 || r->fd == 1))
            return known("", 0); /* its output goes to a file, not down the pipe */
    }
    return produced_text(ch, k, hops);
}
