/* targets.c — which files a shell command writes (targets.h).
 *
 * Only argv is read, after the parser's quote removal, so `echo "> /etc/x"` writes nothing.
 * Options with values are skipped per program so that `touch -d 2024-01-01 f` names f, not
 * the date. */
#include "shell/cwd.h"
#include "shell/targets.h"

#include <string.h>

#include "path/path.h"

static bool streq(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

void rp_sh_write_targets_add(rp_arena *a, rp_sh_write_targets *t, const char *path, bool dynamic,
                             const char *base)
{
    if (path == NULL || path[0] == '\0')
        return;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 8;
        t->items = rp_arena_realloc(a, t->items, t->cap * sizeof *t->items, cap * sizeof *t->items);
        t->cap = cap;
    }
    t->items[t->n++] = (rp_sh_write_target){.path = path, .dynamic = dynamic, .base = base};
}

/* ---- shell commands ---- */

typedef struct cmd_view {
    const rp_sh_command *c;
    rp_arena *a;
    rp_sh_write_targets *out;
    const char *base;
} cmd_view;

static void add_word(cmd_view *v, size_t i)
{
    const rp_sh_word *w = &v->c->words[i];
    rp_sh_write_targets_add(v->a, v->out, w->text, !rp_sh_word_static(w), v->base);
}

/* Whether the short option letter `opt` of program-specific `value_opts` takes a value. */
static bool takes_value(const char *value_opts, char opt)
{
    return value_opts != NULL && strchr(value_opts, opt) != NULL;
}

/* Positional (non-option) words of c, skipping the values of short options in `short_values`
 * and of long options in `long_values` (written `--opt VALUE`). Returns their indexes. */
static size_t positional(const rp_sh_command *c, const char *short_values,
                         const char *const *long_values, size_t *idx, size_t cap)
{
    size_t n = 0;
    bool after_dashes = false;
    for (size_t i = 1; i < c->n_words && n < cap; i++) {
        const char *t = c->words[i].text;
        if (!after_dashes && streq(t, "--")) {
            after_dashes = true;
            continue;
        }
        if (!after_dashes && t[0] == '-' && t[1] != '\0') {
            if (t[1] == '-') {
                for (size_t k = 0; long_values != NULL && long_values[k] != NULL; k++)
                    if (streq(t, long_values[k]))
                        i++;
                continue;
            }
            for (const char *p = t + 1; *p; p++)
                if (takes_value(short_values, *p)) {
                    if (p[1] == '\0')
                        i++;
                    break;
                }
            continue;
        }
        idx[n++] = i;
    }
    return n;
}

#define MAX_POS 128

static void all_positional(cmd_view *v, const char *short_values, const char *const *long_values)
{
    size_t idx[MAX_POS];
    size_t n = positional(v->c, short_values, long_values, idx, MAX_POS);
    for (size_t i = 0; i < n; i++)
        add_word(v, idx[i]);
}

/* cp, mv, install, ln: -t DIR / --target-directory=DIR, else the last positional. */
static void destination(cmd_view *v, const char *short_values, bool install)
{
    const rp_sh_command *c = v->c;
    bool make_dirs = false;
    for (size_t i = 1; i < c->n_words; i++) {
        const char *t = c->words[i].text;
        if (streq(t, "--"))
            break;
        if (starts_with(t, "--target-directory=")) {
            rp_sh_write_targets_add(v->a, v->out, t + 19, !rp_sh_word_static(&c->words[i]),
                                    v->base);
            return;
        }
        if ((streq(t, "-t") || streq(t, "--target-directory")) && i + 1 < c->n_words) {
            add_word(v, i + 1);
            return;
        }
        if (t[0] == '-' && t[1] == 't' && t[2] != '\0') {
            rp_sh_write_targets_add(v->a, v->out, t + 2, !rp_sh_word_static(&c->words[i]), v->base);
            return;
        }
        if (install && t[0] == '-' && t[1] != '-' && strchr(t, 'd') != NULL)
            make_dirs = true;
    }
    size_t idx[MAX_POS];
    size_t n = positional(c, short_values, NULL, idx, MAX_POS);
    if (make_dirs) {
        for (size_t i = 0; i < n; i++)
            add_word(v, idx[i]);
        return;
    }
    if (n >= 2 || (n == 1 && streq(c->program, "ln")))
        add_word(v, idx[n - 1]);
}

/* sed -i / --in-place: files are the positionals after the script (none is the script when
 * -e or -f gave it). */
static void sed_in_place(cmd_view *v)
{
    const rp_sh_command *c = v->c;
    bool in_place = false, script_given = false;
    for (size_t i = 1; i < c->n_words; i++) {
        const char *t = c->words[i].text;
        if (streq(t, "--"))
            break;
        if (starts_with(t, "--in-place"))
            in_place = true;
        else if (streq(t, "--expression") || streq(t, "--file") ||
                 starts_with(t, "--expression=") || starts_with(t, "--file="))
            script_given = true;
        else if (t[0] == '-' && t[1] != '-')
            for (const char *p = t + 1; *p; p++) {
                if (*p == 'i') {
                    in_place = true;
                    break; /* the rest is the backup suffix */
                }
                if (*p == 'e' || *p == 'f') {
                    script_given = true;
                    break;
                }
                if (*p == 'l')
                    break;
            }
    }
    if (!in_place)
        return;
    size_t idx[MAX_POS];
    size_t n =
        positional(c, "efl", (const char *const[]){"--expression", "--file", "--line-length", NULL},
                   idx, MAX_POS);
    for (size_t i = script_given ? 0 : 1; i < n; i++)
        add_word(v, idx[i]);
}

/* perl -i[ext]: the files after the program (-e gives it inline). */
static void perl_in_place(cmd_view *v)
{
    const rp_sh_command *c = v->c;
    bool in_place = false, inline_script = false;
    for (size_t i = 1; i < c->n_words; i++) {
        const char *t = c->words[i].text;
        if (streq(t, "--") || t[0] != '-')
            break;
        for (const char *p = t + 1; *p; p++) {
            if (*p == 'i') {
                in_place = true;
                break; /* the rest is the backup extension */
            }
            if (*p == 'e' || *p == 'E') {
                inline_script = true;
                break;
            }
        }
    }
    if (!in_place)
        return;
    size_t idx[MAX_POS];
    size_t n = positional(c, "eEIMmxlC0", NULL, idx, MAX_POS);
    for (size_t i = inline_script ? 0 : 1; i < n; i++)
        add_word(v, idx[i]);
}

static void dd_output(cmd_view *v)
{
    for (size_t i = 1; i < v->c->n_words; i++) {
        const rp_sh_word *w = &v->c->words[i];
        if (starts_with(w->text, "of="))
            rp_sh_write_targets_add(v->a, v->out, w->text + 3, !rp_sh_word_static(w), v->base);
    }
}

static void command_targets(cmd_view *v)
{
    const rp_sh_command *c = v->c;
    for (size_t i = 0; i < c->n_redirs; i++)
        if (rp_sh_redir_writes(&c->redirs[i]))
            rp_sh_write_targets_add(v->a, v->out, c->redirs[i].target.text,
                                    !rp_sh_word_static(&c->redirs[i].target), v->base);
    const char *p = c->program;
    if (p == NULL)
        return;
    if (streq(p, "tee"))
        all_positional(v, NULL, NULL);
    else if (streq(p, "touch"))
        all_positional(v, "dtr", (const char *const[]){"--date", "--reference", NULL});
    else if (streq(p, "mkdir"))
        all_positional(v, "m", (const char *const[]){"--mode", "--context", NULL});
    else if (streq(p, "rm") || streq(p, "rmdir") || streq(p, "shred") || streq(p, "unlink"))
        all_positional(v, "n", NULL);
    else if (streq(p, "truncate"))
        all_positional(v, "sr", (const char *const[]){"--size", "--reference", NULL});
    else if (streq(p, "cp") || streq(p, "mv") || streq(p, "ln"))
        destination(v, "S", false);
    else if (streq(p, "install"))
        destination(v, "mogS", true);
    else if (streq(p, "sed"))
        sed_in_place(v);
    else if (streq(p, "perl"))
        perl_in_place(v);
    else if (streq(p, "dd"))
        dd_output(v);
}

void rp_sh_write_targets_of(rp_arena *a, const struct rp_sh_parse *p, rp_sh_write_targets *out)
{
    const char **dirs = rp_sh_fold_cd(a, p, NULL); /* no home: `cd ~` is an unknown place */
    for (size_t i = 0; i < p->n_commands; i++) {
        const rp_sh_command *c = &p->commands[i];
        if (c->context & RP_SH_CTX_REMOTE)
            continue;
        cmd_view v = {.c = c, .a = a, .out = out, .base = dirs[i]};
        command_targets(&v);
    }
}

void rp_sh_write_targets_fallback(rp_arena *a, const char *command, rp_sh_write_targets *out)
{
    const char *s = command;
    while (*s) {
        const char *gt = strchr(s, '>');
        if (gt == NULL)
            return;
        s = gt + 1;
        while (*s == '>' || *s == '|' || *s == '&')
            s++;
        if (s[-1] == '&' && (*s >= '0' && *s <= '9'))
            continue; /* >&2 */
        while (*s == ' ' || *s == '\t')
            s++;
        size_t n = strcspn(s, " \t\n;&|<>()");
        char *w = rp_arena_alloc(a, n + 1);
        size_t len = 0;
        for (size_t i = 0; i < n; i++)
            if (s[i] != '\'' && s[i] != '"' && s[i] != '\\')
                w[len++] = s[i];
        w[len] = '\0';
        rp_sh_write_targets_add(a, out, w, strchr(w, '$') != NULL || strchr(w, '`') != NULL, NULL);
        s += n;
    }
}
