/* github_gh.c — a `gh` simple command as github_policy sees it (reference §5.11 "Shell path",
 * `gh`).
 *
 * The group is the first word that is not an option and the action the next one, wherever
 * `-R/--repo OWNER/REPO` (and other flags) sit: the reference reads fixed positions, so
 * `gh -R o/r pr merge 1` looked like a read and `gh --repo o/r repo delete` hid a delete.
 * gh's flag syntax is pflag's: `-R X`, `-RX`, `-R=X`, `--repo X`, `--repo=X`; the last wins.
 * A group or action that is a variable is asked about. */
#include <string.h>
#include <strings.h>

#include "policies/github/github.h"

/* Groups that never touch a repository's contents (reference list). */
static const char *const ignored_groups[] = {
    "auth",    "config",   "alias",  "extension", "completion", "browse",
    "copilot", "licenses", "search", "status",    NULL,
};

typedef struct gh_group {
    const char *name;
    const char *writes;      /* space-separated write actions */
    const char *destructive; /* the subset that deletes */
} gh_group;

static const gh_group groups[] = {
    {"pr", "create merge close edit comment review ready reopen lock unlock", ""},
    {"issue", "create edit close comment reopen delete lock unlock transfer pin unpin", "delete"},
    {"repo", "create delete fork edit rename archive sync set-default", "delete"},
    {"release", "create delete edit upload", "delete"},
    {"run", "rerun cancel delete", "delete"},
    {"workflow", "run enable disable", ""},
    {"secret", "set delete", "delete"},
    {"label", "create delete edit", "delete"},
    {"gist", "create edit delete", "delete"},
    {"cache", "delete", "delete"},
    {"codespace", "create delete stop rebuild", "delete"},
    {"project",
     "create delete edit close mark-template field-create field-delete item-add item-archive "
     "item-create item-delete item-edit",
     "delete item-delete"},
    {"variable", "set delete", "delete"},
    {"ssh-key", "add delete", "delete"},
    {"gpg-key", "add delete", "delete"},
};

static bool in_list(const char *s, const char *const *list)
{
    for (size_t i = 0; list[i] != NULL; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

/* Whether `word` is one of the space-separated words of `list`. */
static bool in_words(const char *word, const char *list)
{
    size_t len = strlen(word);
    for (const char *p = list; *p != '\0';) {
        const char *end = strchr(p, ' ');
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, word, n) == 0)
            return true;
        p += n;
        while (*p == ' ')
            p++;
    }
    return false;
}

/* If word i is flag `s`/`l` with a value (`-s X`, `-sX`, `-s=X`, `--l X`, `--l=X`), stores the
 * value (NULL when missing) and returns how many words it used (1 or 2); else 0. */
static size_t flag_value(const rp_sh_command *c, size_t i, char s, const char *l,
                         const char **value)
{
    const char *t = c->words[i].text;
    const char *next = i + 1 < c->n_words ? c->words[i + 1].text : NULL;
    size_t l_len = strlen(l);
    if (s != '\0' && t[0] == '-' && t[1] == s) {
        if (t[2] == '\0') {
            *value = next;
            return next != NULL ? 2 : 1;
        }
        *value = t + 2 + (t[2] == '=');
        return 1;
    }
    if (t[0] == '-' && t[1] == '-' && strncmp(t + 2, l, l_len) == 0) {
        if (t[2 + l_len] == '\0') {
            *value = next;
            return next != NULL ? 2 : 1;
        }
        if (t[2 + l_len] == '=') {
            *value = t + 3 + l_len;
            return 1;
        }
    }
    return 0;
}

/* `gh api` options: the method, and whether fields are sent (which makes gh POST). Options that
 * take a value are skipped with it so the endpoint is not mistaken. */
static void read_api(const rp_sh_command *c, size_t first, const char **method, bool *has_fields)
{
    static const struct {
        char s;
        const char *l;
    } value_flags[] = {{'H', "header"},  {'q', "jq"},     {'t', "template"},
                       {'p', "preview"}, {0, "hostname"}, {0, "cache"}};
    for (size_t i = first; i < c->n_words;) {
        const char *value = NULL;
        size_t used;
        if ((used = flag_value(c, i, 'X', "method", &value)) != 0) {
            *method = value;
        } else if ((used = flag_value(c, i, 'f', "field", &value)) != 0 ||
                   (used = flag_value(c, i, 'F', "raw-field", &value)) != 0 ||
                   (used = flag_value(c, i, 0, "input", &value)) != 0) {
            *has_fields = true;
        } else {
            for (size_t k = 0; used == 0 && k < sizeof value_flags / sizeof value_flags[0]; k++)
                used = flag_value(c, i, value_flags[k].s, value_flags[k].l, &value);
        }
        i += used != 0 ? used : 1;
    }
}

bool rp_gh_classify_gh(rp_arena *a, const rp_sh_command *c, const char *src, rp_gh_op *op)
{
    const char *repo_flag = NULL, *base = NULL;
    bool has_repo_flag = false;
    const rp_sh_word *group = NULL, *action = NULL;

    memset(op, 0, sizeof *op);
    /* One pass for the flags every group shares, and the first two positionals. */
    for (size_t i = 1; i < c->n_words;) {
        const rp_sh_word *w = &c->words[i];
        const char *value = NULL;
        size_t used;
        if ((used = flag_value(c, i, 'R', "repo", &value)) != 0) {
            repo_flag = value;
            has_repo_flag = true;
        } else if ((used = flag_value(c, i, 'B', "base", &value)) != 0) {
            base = value;
        } else if (w->text[0] == '-' && w->len > 1) {
            used = 1;
            /* gh api's own value options come after the group; its endpoint is found below. */
            if (group != NULL && strcmp(group->text, "api") == 0)
                break;
        } else {
            used = 1;
            if (group == NULL)
                group = w;
            else if (action == NULL)
                action = w;
        }
        i += used;
    }
    if (group == NULL)
        return false;
    if ((rp_sh_word_static(group) && in_list(group->text, ignored_groups)))
        return false;
    if (!rp_sh_word_static(group) ||
        (action != NULL && !rp_sh_word_static(action) && strcmp(group->text, "api") != 0)) {
        op->kind = RP_GH_OP_UNPARSEABLE;
        op->segment = rp_gh_command_text(a, c, src);
        return true;
    }

    /* The repository: --repo/-R (normalised as an allowlist entry), else the first URL or API
     * path among the words. */
    if (has_repo_flag) {
        op->repo = repo_flag != NULL ? rp_gh_repo_from_spec(a, repo_flag) : NULL;
    } else {
        for (size_t i = 1; op->repo == NULL && i < c->n_words; i++) {
            op->repo = rp_gh_repo_from_url(a, c->words[i].text);
            if (op->repo == NULL)
                op->repo = rp_gh_repo_from_api_path(a, c->words[i].text);
        }
    }
    if (base != NULL) {
        char *branch = rp_gh_branch_normalize(a, base);
        if (branch != NULL) {
            op->branches = rp_arena_alloc(a, sizeof *op->branches);
            op->branches[0] = branch;
            op->n_branches = 1;
        }
    }

    if (strcmp(group->text, "api") == 0) {
        const char *method = NULL;
        bool has_fields = false;
        size_t first = (size_t)(group - c->words) + 1;
        read_api(c, first, &method, &has_fields);
        op->detail = "gh api";
        if (method != NULL)
            op->kind = (strcasecmp(method, "POST") == 0 || strcasecmp(method, "PUT") == 0 ||
                        strcasecmp(method, "PATCH") == 0 || strcasecmp(method, "DELETE") == 0)
                           ? RP_GH_OP_WRITE
                           : RP_GH_OP_READ;
        else
            op->kind = has_fields ? RP_GH_OP_WRITE : RP_GH_OP_READ;
        return true;
    }

    const char *action_text = action != NULL ? action->text : "";
    op->detail = action != NULL ? rp_arena_sprintf(a, "gh %s %s", group->text, action_text)
                                : rp_arena_sprintf(a, "gh %s", group->text);
    op->kind = RP_GH_OP_READ;
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        if (strcmp(groups[g].name, group->text) != 0)
            continue;
        if (action != NULL && in_words(action_text, groups[g].writes)) {
            op->kind = RP_GH_OP_WRITE;
            op->destructive = in_words(action_text, groups[g].destructive);
        }
        break;
    }
    return true;
}
