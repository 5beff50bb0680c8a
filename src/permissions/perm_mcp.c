/* perm_mcp.c — the MCP candidate list (reference permissions.md §3.7): the targets an MCP proxy
 * call is matched on, most specific first ("server_tool", "server:tool", "server", the tool, the
 * operation), then "mcp". permissions.c decides on them; see there for why a catch-all "*" does
 * not hide a server rule in rampart. */
#include <stdlib.h>
#include <string.h>

#include "permissions/perm.h"

typedef struct cand_list {
    rp_arena *a;
    const char **items;
    size_t n, cap;
} cand_list;

static void add(cand_list *l, const char *s)
{
    if (s == NULL || s[0] == '\0')
        return;
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i], s) == 0)
            return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        l->items =
            rp_arena_realloc(l->a, l->items, l->cap * sizeof *l->items, cap * sizeof *l->items);
        l->cap = cap;
    }
    l->items[l->n++] = s;
}

/* input[key] trimmed, NULL when absent, not a string or empty. */
static const char *field(rp_arena *a, const rp_json *input, const char *key)
{
    const char *s = rp_json_get_str(input, key);
    if (s == NULL)
        return NULL;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r' ||
                     s[n - 1] == '\f' || s[n - 1] == '\v'))
        n--;
    return n ? rp_arena_strndup(a, s, n) : NULL;
}

static const char *cat3(rp_arena *a, const char *x, const char *sep, const char *y)
{
    return rp_arena_sprintf(a, "%s%s%s", x, sep, y);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

static void tool_refs(cand_list *l, const char *ref, const char *input_server,
                      const char *const *servers, size_t n_servers)
{
    rp_arena *a = l->a;
    const char *q_server = NULL, *q_tool = NULL;
    const char *colon = strchr(ref, ':');
    if (colon && colon > ref && colon[1] != '\0') {
        q_server = rp_arena_strndup(a, ref, (size_t)(colon - ref));
        q_tool = colon + 1;
    }
    const char *server = input_server ? input_server : q_server;
    const char *t = q_tool ? q_tool : ref;
    if (server) {
        add(l, cat3(a, server, "_", t));
        add(l, cat3(a, server, ":", t));
        add(l, server);
    } else {
        for (size_t i = 0; i < n_servers; i++) {
            const char *s = servers[i];
            if (ends_with(t, cat3(a, "_", s, "")) &&
                strncmp(t, cat3(a, s, "_", ""), strlen(s) + 1) != 0) {
                add(l, cat3(a, s, "_", t));
                add(l, cat3(a, s, ":", t));
                add(l, s);
            }
        }
    }
    add(l, t);
    add(l, ref);
}

/* Longest first, ties alphabetical (reference §1.1). */
static int by_length_then_name(const void *x, const void *y)
{
    const char *a = *(const char *const *)x, *b = *(const char *const *)y;
    size_t la = strlen(a), lb = strlen(b);
    if (la != lb)
        return la > lb ? -1 : 1;
    return strcmp(a, b);
}

size_t rp_perm_mcp_candidates(rp_arena *a, const rp_json *input, const char *const *servers,
                              size_t n_servers, const char ***out)
{
    cand_list l = {.a = a};
    const char **sorted = rp_arena_alloc(a, (n_servers + 1) * sizeof *sorted);
    size_t ns = 0;
    for (size_t i = 0; i < n_servers; i++) {
        const char *s = servers[i];
        if (s == NULL || s[0] == '\0')
            continue;
        bool dup = false;
        for (size_t j = 0; j < ns && !dup; j++)
            dup = strcmp(sorted[j], s) == 0;
        if (!dup)
            sorted[ns++] = s;
    }
    qsort(sorted, ns, sizeof *sorted, by_length_then_name);

    const char *tool = field(a, input, "tool"), *server = field(a, input, "server");
    const char *connect = field(a, input, "connect"), *describe = field(a, input, "describe");
    const char *search = field(a, input, "search");
    if (tool) {
        tool_refs(&l, tool, server, sorted, ns);
        add(&l, "mcp_call");
    } else if (connect) {
        add(&l, cat3(a, "mcp_connect_", connect, ""));
        add(&l, connect);
        add(&l, "mcp_connect");
    } else if (describe) {
        tool_refs(&l, describe, server, sorted, ns);
        add(&l, "mcp_describe");
    } else if (search) {
        if (server) {
            add(&l, cat3(a, "mcp_server_", server, ""));
            add(&l, server);
        }
        add(&l, search);
        add(&l, "mcp_search");
    } else if (server) {
        add(&l, cat3(a, "mcp_server_", server, ""));
        add(&l, server);
        add(&l, "mcp_list");
    } else {
        add(&l, "mcp_status");
    }
    add(&l, "mcp");
    *out = l.items;
    return l.n;
}
