/* test_policy_tools_doc.c — docs/tools.md prints the tool table of src/policies/common/tools.c; this
 * test fails when the two disagree (a name or its hosts added, removed or changed on one side).
 * The document is found through RAMPART_SOURCE_DIR, which ctest sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policies/common/tools.h"

#define MAX_ROWS 256

typedef struct doc_row {
    char set[64];
    char name[128];
    char hosts[256];
    bool matched;
} doc_row;

static doc_row rows[MAX_ROWS];
static size_t n_rows;

/* Reads "## Set `<name>` ..." headings and "| `<tool>` | <hosts> |" rows. */
static void load_doc(void)
{
    const char *dir = getenv("RAMPART_SOURCE_DIR");
    char path[1024], line[1024], set[64] = "";
    snprintf(path, sizeof path, "%s/docs/tools.md", dir ? dir : RAMPART_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    n_rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "## Set `", 8) == 0) {
            const char *end = strchr(line + 8, '`');
            assert_non_null(end);
            snprintf(set, sizeof set, "%.*s", (int)(end - (line + 8)), line + 8);
            continue;
        }
        if (strncmp(line, "| `", 3) != 0)
            continue;
        const char *name_end = strchr(line + 3, '`');
        assert_non_null(name_end);
        const char *hosts = strstr(name_end, "| ");
        assert_non_null(hosts);
        hosts += 2;
        const char *hosts_end = strstr(hosts, " |");
        assert_non_null(hosts_end);
        assert_true(set[0] != '\0');
        assert_true(n_rows < MAX_ROWS);
        doc_row *r = &rows[n_rows++];
        snprintf(r->set, sizeof r->set, "%s", set);
        snprintf(r->name, sizeof r->name, "%.*s", (int)(name_end - (line + 3)), line + 3);
        snprintf(r->hosts, sizeof r->hosts, "%.*s", (int)(hosts_end - hosts), hosts);
        r->matched = false;
    }
    fclose(f);
}

static void test_doc_matches_table(void **unused)
{
    (void)unused;
    load_doc();
    assert_true(n_rows > 0);
    for (int s = 0; s < RP_TOOLS__COUNT; s++) {
        size_t n;
        const rp_tool_entry *e = rp_tool_set_entries((rp_tool_set)s, &n);
        assert_true(n > 0);
        for (size_t i = 0; i < n; i++) {
            bool found = false;
            for (size_t k = 0; k < n_rows && !found; k++) {
                doc_row *r = &rows[k];
                if (!r->matched && strcmp(r->set, rp_tool_set_name((rp_tool_set)s)) == 0 &&
                    strcmp(r->name, e[i].name) == 0) {
                    if (strcmp(r->hosts, e[i].hosts) != 0)
                        fail_msg("docs/tools.md set %s: %s hosts '%s', table says '%s'", r->set,
                                 r->name, r->hosts, e[i].hosts);
                    r->matched = found = true;
                }
            }
            if (!found)
                fail_msg("docs/tools.md lacks %s in set %s", e[i].name,
                         rp_tool_set_name((rp_tool_set)s));
        }
    }
    for (size_t k = 0; k < n_rows; k++)
        if (!rows[k].matched)
            fail_msg("docs/tools.md lists %s in set %s, which the table does not have",
                     rows[k].name, rows[k].set);
}

static void test_set_lookups(void **unused)
{
    (void)unused;
    size_t n;
    rp_tool_set_entries(RP_TOOLS_OS, &n);
    assert_int_equal(n, 28);
    rp_tool_set_entries(RP_TOOLS_WORKTREE_WRITE, &n);
    assert_int_equal(n, 7);
    assert_true(rp_tool_in_set(RP_TOOLS_SHELL, "run_shell_command"));
    assert_false(rp_tool_in_set(RP_TOOLS_SHELL, "exec_command"));
    assert_false(rp_tool_in_set(RP_TOOLS_SHELL, "shell"));
    assert_false(rp_tool_in_set(RP_TOOLS_SHELL, NULL));
    assert_false(rp_tool_in_set(RP_TOOLS_SHELL, ""));
    assert_false(rp_tool_in_set(RP_TOOLS__COUNT, "Bash"));
    assert_null(rp_tool_set_entries(RP_TOOLS__COUNT, &n));
    assert_int_equal(n, 0);
    assert_string_equal(rp_tool_set_name(RP_TOOLS_WRITE), "write");
    assert_true(strlen(rp_tool_set_description(RP_TOOLS_WRITE)) > 0);
    /* the preview sets are subsets of the os set */
    const rp_tool_entry *e = rp_tool_set_entries(RP_TOOLS_OS_SHELL, &n);
    for (size_t i = 0; i < n; i++)
        assert_true(rp_tool_in_set(RP_TOOLS_OS, e[i].name));
    e = rp_tool_set_entries(RP_TOOLS_OS_PATTERN, &n);
    for (size_t i = 0; i < n; i++)
        assert_true(rp_tool_in_set(RP_TOOLS_OS, e[i].name));
    /* no set lists a name twice */
    for (int s = 0; s < RP_TOOLS__COUNT; s++) {
        e = rp_tool_set_entries((rp_tool_set)s, &n);
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++)
                assert_string_not_equal(e[i].name, e[j].name);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_doc_matches_table),
        cmocka_unit_test(test_set_lookups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
