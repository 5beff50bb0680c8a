/* git.c — git's global options before the subcommand (git.h). */
#include "shell/git.h"

#include <string.h>
#include <strings.h>

/* The global options that take the next word as their value. Every other "-…" word before the
 * subcommand is a flag or carries its value after '=' (--git-dir=X, --exec-path=X). */
static const char *const value_options[] = {
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
    "--shallow-file",
    "--attr-source",
    NULL,
};

static bool is_value_option(const char *t)
{
    for (size_t i = 0; value_options[i] != NULL; i++)
        if (strcmp(t, value_options[i]) == 0)
            return true;
    return false;
}

/* Records what a `-c` value (from_env false) or `--config-env` value configures. */
static void note_config(rp_sh_git_globals *g, const char *kv, bool from_env)
{
    if (g->n_configs < RP_SH_GIT_MAX_RECORDED) {
        g->config_from_env[g->n_configs] = from_env;
        g->configs[g->n_configs++] = kv;
    } else
        g->overflow = true;
    if (strncasecmp(kv, "url.", 4) == 0)
        g->rewrites_urls = true;
    if (strncasecmp(kv, "alias.", 6) != 0)
        return;
    if (g->n_aliases == RP_SH_GIT_MAX_RECORDED) {
        g->overflow = true;
        return;
    }
    const char *name = kv + 6;
    const char *eq = strchr(name, '=');
    g->alias_names[g->n_aliases] = name;
    g->alias_name_lens[g->n_aliases] = eq != NULL ? (size_t)(eq - name) : strlen(name);
    /* `-c alias.x` without a value sets it to "true" (git's boolean shorthand). */
    g->alias_values[g->n_aliases] = from_env ? NULL : eq != NULL ? eq + 1 : "true";
    g->n_aliases++;
}

void rp_sh_git_read_globals(const rp_sh_command *c, rp_sh_git_globals *g)
{
    memset(g, 0, sizeof *g);
    size_t i = 1;
    while (i < c->n_words) {
        const rp_sh_word *w = &c->words[i];
        const char *t = w->text;
        if (t[0] != '-' || w->len == 1)
            break;
        if (!rp_sh_word_static(w)) {
            /* `--git-dir="$D"`, `--work-tree=$W`: an option whatever the expansion gives, since
             * its dash is written (a dynamic part is kept as written, starting with '$', '`'
             * or '~'). When the option's name itself is dynamic (`-$X`, `--$X`) it may be -C or
             * -c and take the next word: which word is the subcommand is not known. */
            size_t name_len = strcspn(t, "$`=");
            if (name_len <= 2 && t[name_len] != '=')
                g->overflow = true;
            i++;
            continue;
        }
        if (is_value_option(t)) {
            if (i + 1 < c->n_words) {
                const rp_sh_word *value = &c->words[i + 1];
                if (strcmp(t, "-c") == 0 || strcmp(t, "--config-env") == 0)
                    note_config(g, value->text, t[1] == '-');
                if (strcmp(t, "-C") == 0) {
                    if (g->n_dirs < RP_SH_GIT_MAX_RECORDED)
                        g->dirs[g->n_dirs++] = value;
                    else
                        g->overflow = true;
                }
            }
            i += 2;
            continue;
        }
        if (strncmp(t, "--config-env=", 13) == 0)
            note_config(g, t + 13, true);
        i++;
    }
    g->subcommand = i < c->n_words ? i : c->n_words;
}

int rp_sh_git_alias_index(const rp_sh_git_globals *g, const char *name)
{
    size_t len = strlen(name);
    /* The last one set wins, as with every config key: `-c alias.x=status -c alias.x=log x`
     * runs log. */
    for (size_t i = g->n_aliases; i-- > 0;)
        if (g->alias_name_lens[i] == len && strncasecmp(g->alias_names[i], name, len) == 0)
            return (int)i;
    return -1;
}
