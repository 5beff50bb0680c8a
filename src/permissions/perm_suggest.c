/* perm_suggest.c — the pattern offered when a person approves "for this session" (reference
 * permissions.md §5.3). Bash: the command's prefix by the arity table (how many words name the
 * operation: `git push`, `npm run build`, `docker compose up`), so that the approval covers the
 * same operation with other arguments and nothing else. MCP: the server's or family's `*`. */
#include <ctype.h>
#include <string.h>

#include "core/buf.h"
#include "permissions/perm.h"

/* Prefixes (lower case, single-spaced) and how many words they keep. Longest match wins. */
static const struct {
    const char *prefix;
    int arity;
} arity_table[] = {
    {"git", 2},
    {"hg", 2},
    {"svn", 2},
    {"npm", 2},
    {"npx", 2},
    {"pnpm", 2},
    {"yarn", 2},
    {"bun", 2},
    {"bun add", 2},
    {"deno", 2},
    {"pip", 2},
    {"pip3", 2},
    {"uv", 2},
    {"cargo", 2},
    {"go", 2},
    {"bundle", 2},
    {"docker", 2},
    {"podman", 2},
    {"kubectl", 2},
    {"helm", 2},
    {"gh", 2},
    {"fly", 2},
    {"vercel", 2},
    {"wrangler", 2},
    {"bazel", 2},
    {"terraform", 2},
    {"tofu", 2},
    {"pulumi", 2},
    {"systemctl", 2},
    {"service", 2},
    {"brew", 2},
    {"apt", 2},
    {"apt-get", 2},
    {"yum", 2},
    {"dnf", 2},
    {"npm run", 3},
    {"npm exec", 3},
    {"pnpm run", 3},
    {"pnpm exec", 3},
    {"pnpm dlx", 3},
    {"yarn run", 3},
    {"bun run", 3},
    {"bun x", 3},
    {"deno run", 3},
    {"deno task", 3},
    {"deno compile", 3},
    {"uv run", 3},
    {"uv pip", 3},
    {"go run", 3},
    {"bundle exec", 3},
    {"docker compose", 3},
    {"docker container", 3},
    {"docker image", 3},
    {"docker network", 3},
    {"docker volume", 3},
    {"podman compose", 3},
    {"aws", 3},
    {"az", 3},
    {"gcloud", 3},
    {"gh pr", 3},
    {"gh issue", 3},
    {"gh repo", 3},
};

#define MAX_TOKENS 64

/* Splits on runs of blanks; returns the count (at most MAX_TOKENS). */
static size_t split_tokens(const char *s, const char **start, size_t *len)
{
    size_t n = 0;
    while (*s && n < MAX_TOKENS) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
            s++;
        if (!*s)
            break;
        start[n] = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            s++;
        len[n] = (size_t)(s - start[n]);
        n++;
    }
    return n;
}

/* Whether the first k tokens, lower-cased and single-spaced, equal prefix. */
static bool prefix_is(const char *const *start, const size_t *len, size_t k, const char *prefix)
{
    const char *p = prefix;
    for (size_t i = 0; i < k; i++) {
        if (i > 0) {
            if (*p != ' ')
                return false;
            p++;
        }
        for (size_t j = 0; j < len[i]; j++, p++)
            if (*p == '\0' || tolower((unsigned char)start[i][j]) != *p)
                return false;
    }
    return *p == '\0';
}

static size_t words_in(const char *s)
{
    size_t n = 1;
    for (; *s; s++)
        n += *s == ' ';
    return n;
}

const char *rp_perm_suggest_bash(rp_arena *a, const char *unit_text)
{
    const char *text = rp_perm_strip_comment_lines(a, unit_text);
    const char *start[MAX_TOKENS];
    size_t len[MAX_TOKENS];
    size_t n = split_tokens(text, start, len);
    if (n == 0)
        return rp_arena_strdup(a, text);
    if (n == 1)
        return rp_arena_strndup(a, start[0], len[0]);
    size_t arity = 1;
    size_t best_words = 0;
    for (size_t i = 0; i < sizeof arity_table / sizeof arity_table[0]; i++) {
        size_t w = words_in(arity_table[i].prefix);
        if (w > n || w <= best_words)
            continue;
        if (prefix_is(start, len, w, arity_table[i].prefix)) {
            best_words = w;
            arity = (size_t)arity_table[i].arity;
        }
    }
    if (arity > n)
        arity = n;
    rp_buf b = {0};
    for (size_t i = 0; i < arity; i++) {
        if (i)
            rp_buf_putc(&b, ' ');
        rp_buf_append(&b, start[i], len[i]);
    }
    /* Covering every token: the text + "*" with no space (`git push` → `git push*`). */
    rp_buf_puts(&b, arity == n ? "*" : " *");
    return rp_buf_to_arena(&b, a);
}

const char *rp_perm_suggest_mcp(rp_arena *a, const char *candidate)
{
    const char *colon = strchr(candidate, ':');
    if (colon && colon > candidate && colon[1] != '\0')
        return rp_arena_sprintf(a, "%.*s:*", (int)(colon - candidate), candidate);
    const char *us = strchr(candidate, '_');
    if (us)
        return rp_arena_sprintf(a, "%.*s_*", (int)(us - candidate), candidate);
    return "*";
}
