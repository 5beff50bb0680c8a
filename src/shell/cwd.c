/* cwd.c — the cd fold (cwd.h).
 *
 * It follows the parser's shell environments as bash does: each environment starts with its
 * parent's directory as it is when the environment's first command runs, and a cd changes only
 * its own environment (`(cd /x); rm y` removes ./y). A cd counts when the shell itself runs it:
 * written as a command, or through `command`/`builtin`, or in a string the shell evaluates;
 * `sudo cd /` runs no builtin and changes nothing. A cd that may not run (right of && or ||, in
 * an if, a loop, a case arm or a function body) is taken as run: the later commands are read
 * in the directory it names, which is where an agent's `cd DIR && CMD` runs CMD. */
#include <string.h>

#include "path/path.h"
#include "shell/cwd.h"

static bool streq(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

/* Whether c was run by the shell (not exec'd by a wrapper other than command/builtin): a
 * command a wrapper runs directly is a slice of the wrapper's own words. */
static bool run_by_shell(const rp_sh_command *c)
{
    for (const rp_sh_command *w = c->wrapper; w != NULL; c = w, w = w->wrapper) {
        bool slice = c->words >= w->words && c->words < w->words + w->n_words;
        if (!slice)
            return true; /* parsed from a string the wrapper hands to a shell */
        if (w->program == NULL || !(streq(w->program, "command") || streq(w->program, "builtin")))
            return false;
    }
    return true;
}

/* The directory `cd`/`pushd` goes to from base (see cwd.h for the values). Options -L -P -e -@
 * are skipped; `cd -`, a dynamic operand and `cd ~user` are unknown. */
static const char *after_cd(rp_arena *a, const rp_sh_command *c, const char *base, const char *home)
{
    size_t i = 1;
    while (i < c->n_words && rp_sh_word_static(&c->words[i]) && c->words[i].text[0] == '-' &&
           c->words[i].text[1] != '\0') {
        if (streq(c->words[i].text, "--")) {
            i++;
            break;
        }
        i++;
    }
    if (i >= c->n_words)
        return home ? rp_path_normalize(a, home) : ""; /* `cd` alone goes home */
    const rp_sh_word *w = &c->words[i];
    if ((w->flags & RP_SH_WORD_DYNAMIC) || streq(w->text, "-"))
        return "";
    const char *dir = w->text;
    if (dir[0] == '\0')
        return base; /* `cd ""` changes nothing */
    if (dir[0] == '~') {
        if (home == NULL || (dir[1] != '\0' && dir[1] != '/'))
            return "";
        return rp_path_normalize(a, rp_path_expand_home(a, dir, home));
    }
    if (dir[0] == '/')
        return rp_path_normalize(a, dir);
    if (base != NULL && base[0] == '\0')
        return "";
    return base == NULL ? rp_path_normalize(a, dir) : rp_path_join(a, base, dir);
}

/* The directory of env e: an environment not started yet starts (with its unstarted
 * ancestors, outermost first) from its parent's directory as it is now. Iterative, since
 * environments nest as deep as the command does. */
static const char *env_dir(const struct rp_sh_parse *p, const char **cur, bool *started, int *stack,
                           int e)
{
    size_t top = 0;
    for (int x = e; x >= 0 && !started[x]; x = p->env_parent[x])
        stack[top++] = x;
    while (top > 0) {
        int x = stack[--top];
        int parent = p->env_parent[x];
        cur[x] = parent < 0 ? NULL : cur[parent];
        started[x] = true;
    }
    return cur[e];
}

const char **rp_sh_fold_cd(rp_arena *a, const struct rp_sh_parse *p, const char *home)
{
    if (p->n_commands == 0)
        return NULL;
    const char **dirs = rp_arena_calloc(a, p->n_commands * sizeof *dirs);
    const char **cur = rp_arena_calloc(a, p->n_envs * sizeof *cur);
    bool *started = rp_arena_calloc(a, p->n_envs * sizeof *started);
    int *stack = rp_arena_alloc(a, p->n_envs * sizeof *stack);
    if (home != NULL && home[0] != '/')
        home = NULL;
    for (size_t i = 0; i < p->n_commands; i++) {
        const rp_sh_command *c = &p->commands[i];
        int e = c->env;
        dirs[i] = env_dir(p, cur, started, stack, e);
        if (c->program == NULL || !run_by_shell(c))
            continue;
        if (streq(c->program, "cd") || streq(c->program, "pushd"))
            cur[e] = after_cd(a, c, cur[e], home);
        else if (streq(c->program, "popd"))
            cur[e] = "";
    }
    return dirs;
}
