/* perm_bash_uploads.c — the files a network client uploads (§4.7 of docs/permissions.md): curl's
 * -F name=@FILE / name=<FILE, -d @FILE, --data=@FILE, -T FILE / --upload-file FILE, file://
 * URLs; httpie's field@FILE. Their operands are not path-shaped to the token rules, so they are
 * added as path tokens of their own. The operands are the parser's words: `-F "a=@my file"`
 * uploads "my file", `curl  -T'f'  h` uploads "f". */
#include <string.h>

#include "permissions/perm_bash_internal.h"

static rp_perm_path_token *append_token(rp_arena *a, const rp_perm_path_token *list, size_t n,
                                        const rp_perm_path_token *t)
{
    rp_perm_path_token *out = rp_arena_alloc(a, (n + 1) * sizeof *out);
    if (n)
        memcpy(out, list, n * sizeof *out);
    out[n] = *t;
    return out;
}

/* The file word i of a client's command c uploads (NULL when none); *i moves past a value. */
static const char *uploaded_file(const rp_sh_command *c, size_t *i, bool curl)
{
    const char *word = c->words[*i].text;
    const char *at = strchr(word, '@'), *lt = strstr(word, "=<");
    if (curl && (strcmp(word, "-T") == 0 || strcmp(word, "--upload-file") == 0))
        return *i + 1 < c->n_words ? c->words[++*i].text : NULL;
    if (curl && strncmp(word, "-T", 2) == 0)
        return word + 2;
    if (curl && strncmp(word, "--upload-file=", 14) == 0)
        return word + 14;
    if (strncmp(word, "file://", 7) == 0)
        return word + 7;
    if (lt)
        return lt + 2;
    if (at && !strstr(word, "://"))
        return at + 1;
    return NULL;
}

void rp_perm_bash_uploads(rp_perm_bash_ctx *x, rp_perm_bash *b)
{
    static const char *const clients[] = {"curl", "wget", "http", "https", "xh", NULL};
    for (size_t u = 0; u < b->n_units; u++) {
        const rp_sh_command *c = b->units[u].command;
        if (c == NULL)
            continue;
        const char *program = rp_perm_unit_program(x->a, &b->units[u]);
        bool client = false;
        for (size_t k = 0; clients[k] && !client; k++)
            client = strcmp(program, clients[k]) == 0;
        bool curl = strcmp(program, "curl") == 0;
        for (size_t i = 1; client && i < c->n_words; i++) {
            const char *file = uploaded_file(c, &i, curl);
            if (file == NULL || file[0] == '\0')
                continue;
            rp_perm_path_token t = {.raw = file, .kind = RP_PERM_TOK_BROAD};
            rp_path_policy_values(x->a, x->pc, file, NULL, &t.values);
            if (t.values.n == 0)
                continue;
            t.external = t.values.canonical && rp_path_outside(x->a, x->pc, t.values.canonical);
            b->candidates = append_token(x->a, b->candidates, b->n_candidates++, &t);
            if (t.external)
                b->externals = append_token(x->a, b->externals, b->n_externals++, &t);
        }
    }
}
