/* github_remote.c — which GitHub repository a piece of text names, and branch names
 * (reference §5.11 "Repo normalisation", "Branch normalisation").
 *
 * The reference uses regular expressions; these are hand-written matchers for exactly those
 * expressions, so look-alike hosts (`evil-github.com`, `notgithub.com`) and a trailing ":main"
 * fail the same way. Unlike the reference, "github.com" is matched without regard to case:
 * hostnames are case-insensitive, and git sends `GITHUB.COM/x/y` to GitHub too.
 *
 * write_branches entries are globs (the reference's docs promise `feature/...` globs; its code
 * compares literally). The match is fnmatch(3) with FNM_NOESCAPE and without FNM_PATHNAME or
 * FNM_PERIOD, i.e. Python's fnmatch.fnmatchcase: `*` matches across '/', `?` one character, `[...]`
 * a set,
 * `[!...]` its complement, a backslash is an ordinary character, case matters. An entry without
 * glob characters therefore matches only itself. */
#include <fnmatch.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "policies/github/github.h"
#include "core/pyrepr.h"

/* The reference's repo-name character class [A-Za-z0-9._-]. */
static bool is_name_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '.' || ch == '_' || ch == '-';
}

static size_t name_run(const char *s)
{
    size_t n = 0;
    while (is_name_char(s[n]))
        n++;
    return n;
}

static char *owner_repo(rp_arena *a, const char *owner, size_t owner_len, const char *repo,
                        size_t repo_len)
{
    char *out = rp_arena_alloc(a, owner_len + repo_len + 2);
    for (size_t i = 0; i < owner_len; i++)
        out[i] = (char)((owner[i] >= 'A' && owner[i] <= 'Z') ? owner[i] + 32 : owner[i]);
    out[owner_len] = '/';
    for (size_t i = 0; i < repo_len; i++)
        out[owner_len + 1 + i] =
            (char)((repo[i] >= 'A' && repo[i] <= 'Z') ? repo[i] + 32 : repo[i]);
    out[owner_len + repo_len + 1] = '\0';
    return out;
}

/* The repo part of `([A-Za-z0-9._-]+?)(?:\.git)?` followed by a terminator: the shortest run for
 * which the rest is ".git" + terminator or a terminator itself. Returns its length, 0 if none.
 * The terminator is '/', '?', '#' or the end for the URL form, only the end for the bare form. */
static size_t repo_length(const char *s, bool url_form)
{
    size_t run = name_run(s);
    for (size_t k = 1; k < run; k++) {
        if (strncmp(s + k, ".git", 4) != 0)
            continue;
        char after = s[k + 4];
        if (after == '\0' || (url_form && (after == '/' || after == '?' || after == '#')))
            return k;
    }
    if (run == 0)
        return 0;
    char after = s[run];
    if (after == '\0' || (url_form && (after == '/' || after == '?' || after == '#')))
        return run;
    return 0;
}

/* Whether the path rest (up to '?', '#' or the end) has a "." or ".." segment. */
static bool has_dot_segment(const char *rest)
{
    for (const char *p = rest; *p != '\0' && *p != '?' && *p != '#'; p++) {
        if (*p != '/' || p[1] != '.')
            continue;
        const char *after = p[2] == '.' ? p + 3 : p + 2;
        if (*after == '\0' || *after == '/' || *after == '?' || *after == '#')
            return true;
    }
    return false;
}

char *rp_gh_repo_from_url(rp_arena *a, const char *text)
{
    if (text == NULL)
        return NULL;
    for (const char *p = text; *p != '\0'; p++) {
        if (strncasecmp(p, "github.com", 10) != 0)
            continue;
        if (p > text && is_name_char(p[-1]))
            continue;
        const char *q = p + 10;
        if (*q != ':' && *q != '/')
            continue;
        while (*q == ':' || *q == '/')
            q++;
        size_t owner_len = name_run(q);
        if (owner_len == 0 || q[owner_len] != '/')
            continue;
        const char *repo = q + owner_len + 1;
        size_t repo_len = repo_length(repo, true);
        if (repo_len == 0)
            continue;
        /* `…/octo/hello/../../evil/x`: HTTP clients remove dot segments, so the repo the path
         * starts with is not the one it reaches. */
        if (has_dot_segment(repo + repo_len))
            return NULL;
        return owner_repo(a, q, owner_len, repo, repo_len);
    }
    return NULL;
}

char *rp_gh_repo_from_api_path(rp_arena *a, const char *text)
{
    if (text == NULL)
        return NULL;
    for (const char *p = text; *p != '\0'; p++) {
        if (strncmp(p, "repos/", 6) != 0 || (p > text && p[-1] != '/'))
            continue;
        const char *owner = p + 6;
        size_t owner_len = name_run(owner);
        if (owner_len == 0 || owner[owner_len] != '/')
            continue;
        const char *repo = owner + owner_len + 1;
        size_t repo_len = name_run(repo);
        if (repo_len == 0)
            continue;
        return owner_repo(a, owner, owner_len, repo, repo_len);
    }
    return NULL;
}

char *rp_gh_repo_from_bare(rp_arena *a, const char *text)
{
    if (text == NULL)
        return NULL;
    size_t start, len;
    rp_py_strip(text, strlen(text), &start, &len);
    char *s = rp_arena_strndup(a, text + start, len);
    size_t owner_len = name_run(s);
    if (owner_len == 0 || s[owner_len] != '/')
        return NULL;
    size_t repo_len = repo_length(s + owner_len + 1, false);
    if (repo_len == 0)
        return NULL;
    return owner_repo(a, s, owner_len, s + owner_len + 1, repo_len);
}

char *rp_gh_repo_from_spec(rp_arena *a, const char *text)
{
    char *repo = rp_gh_repo_from_url(a, text);
    return repo != NULL ? repo : rp_gh_repo_from_bare(a, text);
}

char *rp_gh_branch_normalize(rp_arena *a, const char *text)
{
    if (text == NULL)
        return NULL;
    const char *colon = strchr(text, ':');
    const char *s = colon != NULL ? colon + 1 : text;
    size_t start, len;
    rp_py_strip(s, strlen(s), &start, &len);
    s += start;
    if (len >= 11 && strncmp(s, "refs/heads/", 11) == 0) {
        s += 11;
        len -= 11;
    } else if (len >= 6 && strncmp(s, "heads/", 6) == 0) {
        s += 6;
        len -= 6;
    }
    return len == 0 ? NULL : rp_arena_strndup(a, s, len);
}

bool rp_gh_branch_allowed(const char *branch, const char *const *patterns, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(patterns[i], branch) == 0 || fnmatch(patterns[i], branch, FNM_NOESCAPE) == 0)
            return true;
    return false;
}

bool rp_gh_repo_in(const char *repo, const char *const *repos, size_t n)
{
    if (repo == NULL)
        return false;
    for (size_t i = 0; i < n; i++)
        if (strcmp(repos[i], repo) == 0)
            return true;
    return false;
}
