/* shell.c — rp_sh_parse and the state it shares with the lexer, the grammar and the unwrapper:
 * growable stacks in the arena, the command list, failure, offsets. */
#include <string.h>

#include "shell/channels.h"
#include "shell/shell_internal.h"

/* Grows an arena array of elem_size elements to hold at least need elements. */
static void *grow(rp_arena *a, void *old, size_t *cap, size_t need, size_t elem_size)
{
    if (need <= *cap)
        return old;
    size_t new_cap = *cap ? *cap * 2 : 16;
    while (new_cap < need)
        new_cap *= 2;
    void *p = rp_arena_realloc(a, old, *cap * elem_size, new_cap * elem_size);
    *cap = new_cap;
    return p;
}

void rp_sh_fail(rp_sh_src *s, size_t pos, const char *why)
{
    rp_sh_state *st = s->st;
    if (!st->failed) {
        st->failed = true;
        st->error = why;
        st->error_offset = rp_sh_offset(s, pos);
    }
    s->pos = s->end; /* every loop ends at the end of input */
}

void rp_sh_fail_state(rp_sh_state *st, size_t offset, const char *why)
{
    if (!st->failed) {
        st->failed = true;
        st->error = why;
        st->error_offset = offset > st->top_len ? st->top_len : offset;
    }
}

size_t rp_sh_offset(const rp_sh_src *s, size_t pos)
{
    size_t off = s->exact ? s->base + pos : s->base;
    return off > s->st->top_len ? s->st->top_len : off;
}

void rp_sh_src_init(rp_sh_src *s, rp_sh_state *st, const char *text, size_t len, size_t base,
                    bool exact)
{
    memset(s, 0, sizeof *s);
    s->st = st;
    s->text = text;
    s->end = len;
    s->base = base;
    s->exact = exact;
}

void rp_sh_push_word(rp_sh_state *st, const rp_sh_word *w)
{
    st->words = grow(st->arena, st->words, &st->cap_words, st->n_words + 1, sizeof *w);
    st->words[st->n_words++] = *w;
}

void rp_sh_push_assign(rp_sh_state *st, const rp_sh_word *w)
{
    st->assigns = grow(st->arena, st->assigns, &st->cap_assigns, st->n_assigns + 1, sizeof *w);
    st->assigns[st->n_assigns++] = *w;
}

void rp_sh_push_redir(rp_sh_state *st, const rp_sh_redir *r)
{
    st->redirs = grow(st->arena, st->redirs, &st->cap_redirs, st->n_redirs + 1, sizeof *r);
    st->redirs[st->n_redirs++] = *r;
}

size_t rp_sh_reserve_command(rp_sh_state *st)
{
    if (st->n_cmds == st->cap_cmds) {
        size_t cap = st->cap_cmds;
        st->cmds = grow(st->arena, st->cmds, &cap, st->n_cmds + 1, sizeof *st->cmds);
        size_t wcap = st->cap_cmds;
        st->wrapper_of = grow(st->arena, st->wrapper_of, &wcap, cap, sizeof *st->wrapper_of);
        st->cap_cmds = cap;
    }
    size_t idx = st->n_cmds++;
    memset(&st->cmds[idx], 0, sizeof st->cmds[idx]);
    st->cmds[idx].pipeline = RP_SH_PIPELINE_UNSET;
    st->wrapper_of[idx] = -1;
    return idx;
}

void rp_sh_normalise_program(rp_sh_command *c)
{
    c->program = NULL;
    c->program_is_path = false;
    c->program_dynamic = false;
    if (c->n_words == 0)
        return;
    const rp_sh_word *w = &c->words[0];
    if (!rp_sh_word_static(w)) {
        c->program_dynamic = true;
        return;
    }
    const char *slash = strrchr(w->text, '/');
    if (slash == NULL) {
        c->program = w->text;
        return;
    }
    c->program_is_path = true;
    /* Only an absolute path names the same program as the bare name could; "./rm" or "bin/rm"
     * is whatever file sits there, so it keeps its spelling. */
    c->program = w->text[0] == '/' ? slash + 1 : w->text;
}

void rp_sh_mark_range(rp_sh_state *st, size_t from, unsigned ctx_bits)
{
    for (size_t i = from; i < st->n_cmds; i++)
        st->cmds[i].context |= ctx_bits;
}

int rp_sh_new_env(rp_sh_state *st, unsigned kind, int parent)
{
    if (st->n_envs >= st->cap_envs) { /* env 0 is implicit while cap_envs is 0 */
        size_t cap = st->cap_envs, kcap = st->cap_envs;
        st->env_parent = grow(st->arena, st->env_parent, &cap, st->n_envs + 1, sizeof(int));
        st->env_kind = grow(st->arena, st->env_kind, &kcap, st->n_envs + 1, sizeof(unsigned));
        if (st->cap_envs == 0) { /* env 0 was implicit so far */
            st->env_parent[0] = -1;
            st->env_kind[0] = RP_SH_ENV_TOP;
        }
        st->cap_envs = cap;
    }
    int id = (int)st->n_envs++;
    st->env_parent[id] = parent;
    st->env_kind[id] = kind;
    return id;
}

int rp_sh_rehome(rp_sh_state *st, size_t cmd_from, size_t env_from, int from, unsigned kind)
{
    int id = rp_sh_new_env(st, kind, from);
    for (size_t i = cmd_from; i < st->n_cmds; i++)
        if (st->cmds[i].env == from)
            st->cmds[i].env = id;
    for (size_t e = env_from; e < (size_t)id; e++)
        if (st->env_parent[e] == from) {
            st->env_parent[e] = id;
            st->env_reorder = true;
        }
    return id;
}

/* Renumbers the environments in pre-order (children in the order they started), so that a
 * parent's id is below its children's: consumers can then walk them in one forward pass. */
static void renumber_envs(rp_sh_state *st)
{
    size_t n = st->n_envs;
    int *first = rp_arena_alloc(st->arena, n * sizeof(int));
    int *next = rp_arena_alloc(st->arena, n * sizeof(int));
    int *stack = rp_arena_alloc(st->arena, n * sizeof(int));
    int *new_id = rp_arena_alloc(st->arena, n * sizeof(int));
    for (size_t e = 0; e < n; e++)
        first[e] = next[e] = -1;
    for (size_t e = n; e-- > 1;) { /* prepending in reverse keeps creation order */
        int p = st->env_parent[e];
        next[e] = first[p];
        first[p] = (int)e;
    }
    size_t top = 0;
    int count = 0;
    stack[top++] = 0;
    while (top > 0) {
        int e = stack[--top];
        new_id[e] = count++;
        /* push children last-first so that the first child is numbered next */
        size_t mark = top;
        for (int c = first[e]; c >= 0; c = next[c])
            stack[top++] = c;
        for (size_t i = mark, j = top; i + 1 < j; i++, j--) {
            int t = stack[i];
            stack[i] = stack[j - 1];
            stack[j - 1] = t;
        }
    }
    int *parent = rp_arena_alloc(st->arena, n * sizeof(int));
    unsigned *kind = rp_arena_alloc(st->arena, n * sizeof(unsigned));
    for (size_t e = 0; e < n; e++) {
        int p = st->env_parent[e];
        parent[new_id[e]] = p < 0 ? -1 : new_id[p];
        kind[new_id[e]] = st->env_kind[e];
    }
    for (size_t i = 0; i < st->n_cmds; i++)
        st->cmds[i].env = new_id[st->cmds[i].env];
    st->env_parent = parent;
    st->env_kind = kind;
}

void rp_sh_scratch_grow(rp_sh_state *st, size_t more)
{
    st->scratch = grow(st->arena, st->scratch, &st->cap_scratch, st->n_scratch + more, 1);
}

void rp_sh_scratch_put(rp_sh_state *st, const char *p, size_t n)
{
    if (n == 0)
        return;
    st->scratch = grow(st->arena, st->scratch, &st->cap_scratch, st->n_scratch + n, 1);
    memcpy(st->scratch + st->n_scratch, p, n);
    st->n_scratch += n;
}

char *rp_sh_scratch_finish(rp_sh_state *st, size_t mark, size_t *len_out)
{
    size_t n = st->n_scratch - mark;
    char *out = rp_arena_alloc(st->arena, n + 1);
    if (n)
        memcpy(out, st->scratch + mark, n);
    out[n] = '\0';
    st->n_scratch = mark;
    if (len_out)
        *len_out = n;
    return out;
}

int rp_sh_parse(rp_arena *a, const char *src, size_t len, struct rp_sh_parse *out)
{
    rp_sh_state st;
    memset(&st, 0, sizeof st);
    st.arena = a;
    st.top_len = len;
    st.n_envs = 1;

    /* bash reads a command string as a C string: a NUL byte ends it. We refuse instead, since
     * what follows the NUL would be hidden from us but may reach another reader. */
    const char *nul = memchr(src, '\0', len);
    size_t readable = nul ? (size_t)(nul - src) : len;

    rp_sh_src s;
    rp_sh_src_init(&s, &st, src, readable, 0, true);
    rp_sh_frame top = {.ctx = 0, .depth = 0, .wrapper = -1, .env = 0};
    rp_sh_parse_program(&s, &top);
    if (!st.failed)
        rp_sh_follow_channels(&st);
    if (nul && !st.failed) {
        st.failed = true;
        st.error = "NUL byte in command";
        st.error_offset = readable;
    }

    for (size_t i = 0; i < st.n_cmds; i++) {
        rp_sh_command *c = &st.cmds[i];
        if (c->pipeline == RP_SH_PIPELINE_UNSET) {
            c->pipeline = -1;
            c->stage = 0;
        }
        c->wrapper = st.wrapper_of[i] >= 0 ? &st.cmds[st.wrapper_of[i]] : NULL;
    }
    static const int top_parent[1] = {-1};
    static const unsigned top_kind[1] = {RP_SH_ENV_TOP};
    if (st.env_reorder)
        renumber_envs(&st);
    out->env_parent = st.env_parent ? st.env_parent : top_parent;
    out->env_kind = st.env_kind ? st.env_kind : top_kind;
    out->n_envs = st.n_envs;
    out->commands = st.cmds;
    out->n_commands = st.n_cmds;
    out->unreadable = st.failed;
    out->error = st.failed ? st.error : NULL;
    out->error_offset = st.failed ? st.error_offset : 0;
    return st.failed ? -1 : 0;
}

bool rp_sh_redir_writes(const rp_sh_redir *r)
{
    switch (r->op) {
    case RP_SH_REDIR_OUT:
    case RP_SH_REDIR_APPEND:
    case RP_SH_REDIR_INOUT:
    case RP_SH_REDIR_CLOBBER:
    case RP_SH_REDIR_OUT_ERR:
    case RP_SH_REDIR_APPEND_ERR:
        return true;
    case RP_SH_REDIR_DUP_OUT: {
        /* `>&2` and `>&-` duplicate or close a descriptor; `>& file` writes file like `&>`. */
        const rp_sh_word *t = &r->target;
        if (!rp_sh_word_static(t))
            return true;
        if (t->len == 1 && t->text[0] == '-')
            return false;
        for (size_t i = 0; i < t->len; i++) {
            char c = t->text[i];
            if (!(c >= '0' && c <= '9') && !(c == '-' && i + 1 == t->len && i > 0))
                return true;
        }
        return t->len == 0;
    }
    default:
        return false;
    }
}

bool rp_sh_word_is(const rp_sh_command *c, size_t i, const char *lit)
{
    if (c == NULL || i >= c->n_words)
        return false;
    const rp_sh_word *w = &c->words[i];
    if (!rp_sh_word_static(w))
        return false;
    size_t n = strlen(lit);
    return w->len == n && memcmp(w->text, lit, n) == 0;
}

const char *const *rp_sh_simple_words(rp_arena *a, const char *text, size_t len, size_t *n)
{
    *n = 0;
    struct rp_sh_parse parse;
    if (text == NULL || rp_sh_parse(a, text, len, &parse) != 0 || parse.unreadable ||
        parse.n_commands == 0 || parse.commands[0].n_words == 0)
        return NULL;
    const rp_sh_command *c = &parse.commands[0];
    const char **words = rp_arena_alloc(a, c->n_words * sizeof *words);
    for (size_t i = 0; i < c->n_words; i++)
        words[i] = c->words[i].text;
    *n = c->n_words;
    return words;
}

void rp_sh_without_inferred(rp_arena *a, const struct rp_sh_parse *p, struct rp_sh_parse *out)
{
    *out = *p;
    size_t kept = 0;
    for (size_t i = 0; i < p->n_commands; i++)
        kept += !(p->commands[i].context & RP_SH_CTX_INFERRED);
    if (kept == p->n_commands)
        return;
    /* an inferred command's wrapper may be known, never the other way round (the bit is
     * inherited), so every kept command's wrapper is kept too */
    rp_sh_command *cmds = rp_arena_alloc(a, (kept ? kept : 1) * sizeof *cmds);
    size_t *new_index = rp_arena_alloc(a, p->n_commands * sizeof *new_index);
    size_t k = 0;
    for (size_t i = 0; i < p->n_commands; i++) {
        if (p->commands[i].context & RP_SH_CTX_INFERRED)
            continue;
        new_index[i] = k;
        cmds[k++] = p->commands[i];
    }
    for (size_t i = 0; i < k; i++)
        if (cmds[i].wrapper != NULL)
            cmds[i].wrapper = &cmds[new_index[cmds[i].wrapper - p->commands]];
    out->commands = cmds;
    out->n_commands = k;
}
