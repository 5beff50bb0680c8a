/* test_install_settings_splice.c — rampart's hook entries spliced into host settings files
 * (src/install/settings_splice.c) through the real per-host tables (install_targets.c): the exact
 * text install writes into a fresh file and next to existing content, install then uninstall
 * giving back the exact bytes of many real-looking files (permissions, env, other tools' hooks,
 * odd whitespace, CRLF, tabs, minified, unicode escapes, empty), idempotence, other handlers in
 * the same event surviving, a moved binary being updated, and files that are not JSON (or not
 * shaped like settings) being refused with line:col. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "install/install_targets.h"
#include "install/settings_splice.h"

#define CLAUDE_CMD "/usr/local/bin/rampart hook claude-code"

/* A two-event Claude-shaped spec, to keep the exact expected texts short. */
static const rp_install_splice_event two_events[] = {{"PreToolUse", "*"}, {"Stop", NULL}};
static const rp_install_splice_spec two = {
    RP_INSTALL_SPLICE_GROUPS, two_events, 2, "claude-code", CLAUDE_CMD, 5};

static rp_install_splice_spec host_spec(const char *host, const char *command)
{
    const rp_install_target *t = rp_install_target_find(host);
    assert_non_null(t);
    return rp_install_spec(t, command);
}

static char *install(const rp_install_splice_spec *spec, const char *text,
                     rp_install_splice_status want)
{
    rp_buf out = {0};
    rp_install_splice_error err;
    rp_install_splice_status st = rp_install_splice_install(text, strlen(text), spec, &out, &err);
    if (st != want) {
        fail_msg("install: status %d, want %d (%d:%d %s)", st, want, err.line, err.col, err.msg);
    }
    return rp_buf_take(&out);
}

static char *uninstall(const rp_install_splice_spec *spec, const char *text,
                       rp_install_splice_status want)
{
    rp_buf out = {0};
    rp_install_splice_error err;
    rp_install_splice_status st = rp_install_splice_uninstall(text, strlen(text), spec, &out, &err);
    if (st != want) {
        fail_msg("uninstall: status %d, want %d (%d:%d %s)", st, want, err.line, err.col, err.msg);
    }
    return rp_buf_take(&out);
}

/* install → (install again: unchanged) → uninstall gives back text, byte for byte. */
static void round_trip(const rp_install_splice_spec *spec, const char *text)
{
    char *in = install(spec, text, RP_INSTALL_SPLICE_CHANGED);
    assert_true(strlen(in) > strlen(text));
    char *again = install(spec, in, RP_INSTALL_SPLICE_UNCHANGED);
    assert_string_equal(again, in);
    char *back = uninstall(spec, in, RP_INSTALL_SPLICE_CHANGED);
    if (strlen(back) != strlen(text) || memcmp(back, text, strlen(text)) != 0) {
        fail_msg("not restored:\n--- original\n%s\n--- installed\n%s\n--- uninstalled\n%s", text,
                 in, back);
    }
    char *none = uninstall(spec, back, RP_INSTALL_SPLICE_UNCHANGED);
    assert_string_equal(none, text);
    free(in);
    free(again);
    free(back);
    free(none);
}

static const char *hosts[] = {"claude-code", "codex", "gemini", "cursor"};

/* Every settings host, and a path that needs sh quoting. */
static void round_trip_all(const char *text)
{
    for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "'/opt/my tools/rampart' hook %s -c /etc/r.yaml", hosts[i]);
        rp_install_splice_spec spec = host_spec(hosts[i], cmd);
        round_trip(&spec, text);
    }
    round_trip(&two, text);
}

static void test_fresh_file_exact(void **state)
{
    const char *want = "{\n"
                       "  \"hooks\": {\n"
                       "    \"PreToolUse\": [\n"
                       "      {\n"
                       "        \"matcher\": \"*\",\n"
                       "        \"hooks\": [\n"
                       "          {\n"
                       "            \"type\": \"command\",\n"
                       "            \"command\": \"/usr/local/bin/rampart hook claude-code\",\n"
                       "            \"timeout\": 5\n"
                       "          }\n"
                       "        ]\n"
                       "      }\n"
                       "    ],\n"
                       "    \"Stop\": [\n"
                       "      {\n"
                       "        \"hooks\": [\n"
                       "          {\n"
                       "            \"type\": \"command\",\n"
                       "            \"command\": \"/usr/local/bin/rampart hook claude-code\",\n"
                       "            \"timeout\": 5\n"
                       "          }\n"
                       "        ]\n"
                       "      }\n"
                       "    ]\n"
                       "  }\n"
                       "}\n";
    const char *blanks[] = {"", "\n", "  \r\n\t"};
    for (size_t i = 0; i < 3; i++) {
        char *got = install(&two, blanks[i], RP_INSTALL_SPLICE_CHANGED);
        assert_string_equal(got, want);
        /* An empty file has nothing to restore structurally... */
        char *back = uninstall(&two, got, RP_INSTALL_SPLICE_CHANGED);
        assert_string_equal(back, "{}\n");
        free(back);
        /* ...but with the backup at hand, uninstall gives back its exact bytes. */
        rp_buf out = {0};
        rp_install_splice_error err;
        assert_int_equal(rp_install_splice_uninstall_exact(got, strlen(got), blanks[i],
                                                           strlen(blanks[i]), &two, &out, &err),
                         RP_INSTALL_SPLICE_CHANGED);
        assert_int_equal(out.len, strlen(blanks[i]));
        assert_memory_equal(out.data ? out.data : "", blanks[i], out.len);
        rp_buf_free(&out);
        free(got);
    }

    /* Cursor: version 1 and flat entries. */
    rp_install_splice_spec cursor = host_spec("cursor", "/r/rampart hook cursor");
    cursor.n_events = 2;
    char *got = install(&cursor, "", RP_INSTALL_SPLICE_CHANGED);
    assert_string_equal(got, "{\n"
                             "  \"version\": 1,\n"
                             "  \"hooks\": {\n"
                             "    \"beforeShellExecution\": [\n"
                             "      {\n"
                             "        \"command\": \"/r/rampart hook cursor\"\n"
                             "      }\n"
                             "    ],\n"
                             "    \"beforeMCPExecution\": [\n"
                             "      {\n"
                             "        \"command\": \"/r/rampart hook cursor\"\n"
                             "      }\n"
                             "    ]\n"
                             "  }\n"
                             "}\n");
    char *back = uninstall(&cursor, got, RP_INSTALL_SPLICE_CHANGED);
    assert_string_equal(back, "{}\n");
    free(got);
    free(back);
}

static void test_next_to_existing_content_exact(void **state)
{
    const char *orig = "{\n"
                       "    \"permissions\": {\n"
                       "        \"allow\": [\"Bash(git status)\"]\n"
                       "    },\n"
                       "    \"model\": \"opus\"\n"
                       "}\n";
    char *got = install(&two, orig, RP_INSTALL_SPLICE_CHANGED);
    assert_string_equal(got, "{\n"
                             "    \"permissions\": {\n"
                             "        \"allow\": [\"Bash(git status)\"]\n"
                             "    },\n"
                             "    \"model\": \"opus\",\n"
                             "    \"hooks\": {\n"
                             "        \"PreToolUse\": [\n"
                             "            {\n"
                             "                \"matcher\": \"*\",\n"
                             "                \"hooks\": [\n"
                             "                    {\n"
                             "                        \"type\": \"command\",\n"
                             "                        \"command\": \"" CLAUDE_CMD "\",\n"
                             "                        \"timeout\": 5\n"
                             "                    }\n"
                             "                ]\n"
                             "            }\n"
                             "        ],\n"
                             "        \"Stop\": [\n"
                             "            {\n"
                             "                \"hooks\": [\n"
                             "                    {\n"
                             "                        \"type\": \"command\",\n"
                             "                        \"command\": \"" CLAUDE_CMD "\",\n"
                             "                        \"timeout\": 5\n"
                             "                    }\n"
                             "                ]\n"
                             "            }\n"
                             "        ]\n"
                             "    }\n"
                             "}\n");
    free(got);

    /* An existing event gets our group appended after the other tool's. */
    const char *other = "{\n"
                        "  \"hooks\": {\n"
                        "    \"PreToolUse\": [\n"
                        "      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", "
                        "\"command\": \"guard.sh\"}]}\n"
                        "    ]\n"
                        "  }\n"
                        "}";
    got = install(&two, other, RP_INSTALL_SPLICE_CHANGED);
    assert_string_equal(got, "{\n"
                             "  \"hooks\": {\n"
                             "    \"PreToolUse\": [\n"
                             "      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", "
                             "\"command\": \"guard.sh\"}]},\n"
                             "      {\n"
                             "        \"matcher\": \"*\",\n"
                             "        \"hooks\": [\n"
                             "          {\n"
                             "            \"type\": \"command\",\n"
                             "            \"command\": \"" CLAUDE_CMD "\",\n"
                             "            \"timeout\": 5\n"
                             "          }\n"
                             "        ]\n"
                             "      }\n"
                             "    ],\n"
                             "    \"Stop\": [\n"
                             "      {\n"
                             "        \"hooks\": [\n"
                             "          {\n"
                             "            \"type\": \"command\",\n"
                             "            \"command\": \"" CLAUDE_CMD "\",\n"
                             "            \"timeout\": 5\n"
                             "          }\n"
                             "        ]\n"
                             "      }\n"
                             "    ]\n"
                             "  }\n"
                             "}");
    free(got);
}

static void test_minified_exact(void **state)
{
    char *got = install(&two, "{\"model\":\"opus\"}", RP_INSTALL_SPLICE_CHANGED);
    assert_string_equal(got, "{\"model\":\"opus\",\"hooks\":{\"PreToolUse\":[{\"matcher\":\"*\","
                             "\"hooks\":[{\"type\":\"command\",\"command\":\"" CLAUDE_CMD
                             "\",\"timeout\":5}]}],\"Stop\":[{\"hooks\":[{\"type\":\"command\","
                             "\"command\":\"" CLAUDE_CMD "\",\"timeout\":5}]}]}}");
    free(got);
}

static const char claude_settings[] =
    "{\n"
    "  \"$schema\": \"https://json.schemastore.org/claude-code-settings.json\",\n"
    "  \"permissions\": {\n"
    "    \"allow\": [\n"
    "      \"Bash(npm run lint)\",\n"
    "      \"Bash(npm run test:*)\",\n"
    "      \"Read(~/.zshrc)\"\n"
    "    ],\n"
    "    \"deny\": [\n"
    "      \"Bash(curl:*)\",\n"
    "      \"Read(./.env)\",\n"
    "      \"Read(./secrets/**)\"\n"
    "    ],\n"
    "    \"defaultMode\": \"acceptEdits\"\n"
    "  },\n"
    "  \"env\": {\n"
    "    \"CLAUDE_CODE_ENABLE_TELEMETRY\": \"1\",\n"
    "    \"OTEL_METRICS_EXPORTER\": \"otlp\"\n"
    "  },\n"
    "  \"includeCoAuthoredBy\": false,\n"
    "  \"cleanupPeriodDays\": 20\n"
    "}\n";

static const char other_hooks[] =
    "{\n"
    "  \"hooks\": {\n"
    "    \"PreToolUse\": [\n"
    "      {\n"
    "        \"matcher\": \"Bash\",\n"
    "        \"hooks\": [\n"
    "          { \"type\": \"command\", \"command\": "
    "\"$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh\" "
    "}\n"
    "        ]\n"
    "      },\n"
    "      {\n"
    "        \"matcher\": \"Edit|Write\",\n"
    "        \"hooks\": [\n"
    "          { \"type\": \"command\", \"command\": \"npx prettier --write\", \"timeout\": 30 },\n"
    "          { \"type\": \"command\", \"command\": \"/opt/notrampart hook claude-code\" }\n"
    "        ]\n"
    "      }\n"
    "    ],\n"
    "    \"Notification\": [\n"
    "      { \"hooks\": [ { \"type\": \"command\", \"command\": \"notify-send Claude\" } ] }\n"
    "    ]\n"
    "  },\n"
    "  \"statusLine\": { \"type\": \"command\", \"command\": \"~/.claude/statusline.sh\" }\n"
    "}\n";

static void test_round_trips(void **state)
{
    const char *files[] = {
        claude_settings,
        other_hooks,
        "{}",
        "{}\n",
        "{\"a\":1}",
        "{\"model\":\"opus\",\"permissions\":{\"allow\":[\"Read\"]},\"hooks\":{\"PreToolUse\":[{"
        "\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"x\"}]}]}}",
        /* odd whitespace: spaces before commas and colons, blank lines, trailing spaces */
        "\n\n  {  \"a\" : 1 ,\n\n     \"b\"   :  [ 1 , 2 ]  ,  \"c\":{ }   }  \n\n",
        /* CRLF */
        "{\r\n  \"env\": {\r\n    \"A\": \"1\"\r\n  },\r\n  \"hooks\": {\r\n    \"PreToolUse\": "
        "[\r\n      {\r\n        \"matcher\": \"Bash\",\r\n        \"hooks\": [{\"type\": "
        "\"command\", \"command\": \"g\"}]\r\n      }\r\n    ]\r\n  }\r\n}\r\n",
        /* tabs */
        "{\n\t\"permissions\": {\n\t\t\"deny\": [\"Read(./.env)\"]\n\t},\n\t\"hooks\": {\n\t\t"
        "\"SessionStart\": [\n\t\t\t{\"hooks\": [{\"type\": \"command\", \"command\": "
        "\"echo hi\"}]}\n\t\t]\n\t}\n}\n",
        /* unicode: escapes in keys ("\u0068ooks" is "hooks") and raw UTF-8 in values */
        "{\n  \"\\u0068ooks\": {\n    \"Pre\\u0054oolUse\": [\n      {\"matcher\": \"Bash\", "
        "\"hooks\": [{\"type\": \"command\", \"command\": \"caf\\u00e9.sh\"}]}\n    ]\n  },\n  "
        "\"note\": \"h\xc3\xa9llo \\ud83d\\ude00\"\n}\n",
        /* a single member on one line with its braces */
        "{ \"model\": \"sonnet\" }\n",
        /* nested empty arrays and objects elsewhere */
        "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [[], {}, [{}]]\n}\n",
        /* cursor file with a version and another hook */
        "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [\n      { \"command\": "
        "\"./hooks/audit.sh\" }\n    ],\n    \"stop\": [\n      { \"command\": \"./hooks/stop.sh\" "
        "}\n    ]\n  }\n}\n",
        /* gemini settings */
        "{\n  \"theme\": \"GitHub\",\n  \"mcpServers\": {\n    \"github\": {\"command\": \"npx\", "
        "\"args\": [\"-y\", \"@modelcontextprotocol/server-github\"]}\n  },\n  \"hooks\": {\n    "
        "\"BeforeTool\": [\n      {\"matcher\": \"write_file|replace\", \"hooks\": [{\"type\": "
        "\"command\", \"command\": \"lint.sh\", \"timeout\": 30000}]}\n    ]\n  }\n}\n",
        /* duplicate key: the last "hooks" is the one readers use */
        "{\"hooks\": 5, \"hooks\": {\"Notification\": []}, \"x\": true}",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        round_trip_all(files[i]);
    }
}

static void test_other_handlers_survive(void **state)
{
    char *in = install(&two, other_hooks, RP_INSTALL_SPLICE_CHANGED);
    assert_non_null(strstr(in, "guard.sh"));
    assert_non_null(strstr(in, "/opt/notrampart hook claude-code"));
    char *back = uninstall(&two, in, RP_INSTALL_SPLICE_CHANGED);
    assert_string_equal(back, other_hooks);
    free(in);
    free(back);

    /* An event that was an empty array: ours is its only entry, and uninstall, which removes
     * an event it leaves empty, drops it (the backup gives the exact original back). */
    const char *empty_stop = "{\"hooks\": {\"Stop\": [], \"Notification\": []}}";
    in = install(&two, empty_stop, RP_INSTALL_SPLICE_CHANGED);
    back = uninstall(&two, in, RP_INSTALL_SPLICE_CHANGED);
    assert_string_equal(back, "{\"hooks\": {\"Notification\": []}}");
    free(in);
    free(back);

    /* Ours next to someone else's handler in one group: only ours goes. */
    const char *mixed = "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", "
                        "\"command\": \"a.sh\"}, {\"type\": \"command\", \"command\": "
                        "\"/x/rampart hook claude-code\"}, {\"type\": \"command\", \"command\": "
                        "\"b.sh\"}]}]}}";
    back = uninstall(&two, mixed, RP_INSTALL_SPLICE_CHANGED);
    assert_string_equal(back, "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", "
                              "\"command\": \"a.sh\"}, {\"type\": \"command\", \"command\": "
                              "\"b.sh\"}]}]}}");
    free(back);
    /* ...first in its group, and a Codex handler in a Claude file is not ours. */
    const char *first = "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"command\": \"rampart hook "
                        "claude-code\"}, {\"command\": \"rampart hook codex\"}]}]}}";
    back = uninstall(&two, first, RP_INSTALL_SPLICE_CHANGED);
    assert_string_equal(back, "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"command\": \"rampart hook "
                              "codex\"}]}]}}");
    free(back);
}

static void test_moved_binary_is_updated(void **state)
{
    rp_install_splice_spec old = two;
    old.command = "/old/path/rampart hook claude-code";
    char *in = install(&old, claude_settings, RP_INSTALL_SPLICE_CHANGED);
    char *moved = install(&two, in, RP_INSTALL_SPLICE_CHANGED);
    assert_null(strstr(moved, "/old/path"));
    /* Same text as a fresh install with the new command. */
    char *fresh = install(&two, claude_settings, RP_INSTALL_SPLICE_CHANGED);
    assert_string_equal(moved, fresh);
    char *back = uninstall(&two, moved, RP_INSTALL_SPLICE_CHANGED);
    assert_string_equal(back, claude_settings);
    free(in);
    free(moved);
    free(fresh);
    free(back);
}

static void test_exact_with_backup(void **state)
{
    /* Whitespace inside containers install filled cannot be known from the result alone. */
    const char *files[] = {"{ }",
                           "{\n}\n",
                           "{\"hooks\": {}}",
                           "{\"version\": 1}",
                           "{\"hooks\": {\"Stop\": [ ]}}",
                           "{\"hooks\": 5, \"hooks\": {}, \"x\": true}"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *in = install(&two, files[i], RP_INSTALL_SPLICE_CHANGED);
        rp_buf out = {0};
        rp_install_splice_error err;
        assert_int_equal(rp_install_splice_uninstall_exact(in, strlen(in), files[i],
                                                           strlen(files[i]), &two, &out, &err),
                         RP_INSTALL_SPLICE_CHANGED);
        assert_string_equal(out.data, files[i]);
        rp_buf_free(&out);
        /* A backup that does not match this file (edited since) is not used. */
        assert_int_equal(
            rp_install_splice_uninstall_exact(in, strlen(in), "{\"z\": 1}", 8, &two, &out, &err),
            RP_INSTALL_SPLICE_CHANGED);
        assert_null(strstr(out.data, "rampart"));
        assert_null(strstr(out.data, "\"z\""));
        rp_buf_free(&out);
        free(in);
    }
}

static void test_not_json_rejected(void **state)
{
    struct {
        const char *text;
        int line, col;
    } bad[] = {
        {"{\n  // comment\n  \"a\": 1\n}\n", 2, 3},
        {"{\n  \"a\": 1,\n}\n", 3, 1},
        {"{\"a\": 1} x", 1, 10},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rp_buf out = {0};
        rp_install_splice_error err;
        assert_int_equal(
            rp_install_splice_install(bad[i].text, strlen(bad[i].text), &two, &out, &err),
            RP_INSTALL_SPLICE_ERROR);
        assert_int_equal(err.line, bad[i].line);
        assert_int_equal(err.col, bad[i].col);
        assert_true(err.msg[0] != '\0');
        assert_int_equal(
            rp_install_splice_uninstall(bad[i].text, strlen(bad[i].text), &two, &out, &err),
            RP_INSTALL_SPLICE_ERROR);
        assert_int_equal(err.line, bad[i].line);
        rp_buf_free(&out);
    }

    /* JSON, but not shaped like settings. */
    struct {
        const char *text;
        int line, col;
    } shape[] = {
        {"[1, 2]", 1, 1},
        {"{\n  \"hooks\": [1]\n}", 2, 12},
        {"{\"hooks\": {\"Stop\": {}}}", 1, 20},
    };
    for (size_t i = 0; i < sizeof shape / sizeof shape[0]; i++) {
        rp_buf out = {0};
        rp_install_splice_error err;
        assert_int_equal(
            rp_install_splice_install(shape[i].text, strlen(shape[i].text), &two, &out, &err),
            RP_INSTALL_SPLICE_ERROR);
        assert_int_equal(err.line, shape[i].line);
        assert_int_equal(err.col, shape[i].col);
        rp_buf_free(&out);
    }
}

static void test_our_command(void **state)
{
    assert_true(rp_install_splice_is_our_command("rampart hook claude-code", "claude-code"));
    assert_true(
        rp_install_splice_is_our_command("/usr/local/bin/rampart hook claude-code", "claude-code"));
    assert_true(
        rp_install_splice_is_our_command("'/opt/my tools/rampart' hook codex -c /x.yaml", "codex"));
    assert_true(rp_install_splice_is_our_command("\"/a b/rampart\" hook gemini", "gemini"));
    assert_true(
        rp_install_splice_is_our_command("/r/rampart  hook  cursor  --state-dir /s", "cursor"));
    assert_false(rp_install_splice_is_our_command("rampart hook claude-code", "codex"));
    assert_false(rp_install_splice_is_our_command("rampart hook claude-codex", "claude-code"));
    assert_false(
        rp_install_splice_is_our_command("/opt/notrampart hook claude-code", "claude-code"));
    assert_false(rp_install_splice_is_our_command("rampart eval claude-code", "claude-code"));
    assert_false(rp_install_splice_is_our_command("rampartx hook claude-code", "claude-code"));
    assert_false(rp_install_splice_is_our_command("", "claude-code"));
}

static void count_cb(void *self, const char *command)
{
    int *n = self;
    (*n)++;
    assert_string_equal(command, CLAUDE_CMD);
}

static void test_find_ours(void **state)
{
    rp_install_splice_spec claude = host_spec("claude-code", CLAUDE_CMD);
    char *in = install(&claude, other_hooks, RP_INSTALL_SPLICE_CHANGED);
    int calls = 0;
    rp_install_splice_error err;
    assert_int_equal(rp_install_splice_find_ours(in, strlen(in), &claude, count_cb, &calls, &err),
                     8);
    assert_int_equal(calls, 8);
    calls = 0;
    assert_int_equal(rp_install_splice_find_ours(other_hooks, strlen(other_hooks), &claude,
                                                 count_cb, &calls, &err),
                     0);
    assert_int_equal(rp_install_splice_find_ours("{,}", 3, &claude, count_cb, &calls, &err), -1);
    assert_int_equal(err.line, 1);
    assert_int_equal(err.col, 2);
    free(in);
}

static void test_sh_quote_and_extension(void **state)
{
    rp_buf b = {0};
    rp_install_sh_quote(&b, "/usr/local/bin/rampart");
    assert_string_equal(b.data, "/usr/local/bin/rampart");
    rp_buf_reset(&b);
    rp_install_sh_quote(&b, "/home/o'neil/my bin/rampart");
    assert_string_equal(b.data, "'/home/o'\\''neil/my bin/rampart'");
    rp_buf_reset(&b);
    rp_install_sh_quote(&b, "/a/$HOME/rampart");
    assert_string_equal(b.data, "'/a/$HOME/rampart'");
    rp_buf_reset(&b);

    /* Both extensions run the command install gives them (the binary and -c), read back as
     * written; nothing else in the file changes, and no environment variable overrides it. */
    const char *argv[] = {"/opt/r \"x\"/rampart", "-c", "/etc/r\\c.yaml"};
    for (int h = 0; h < 2; h++) {
        const rp_install_target *t = rp_install_target_find(h ? "opencode" : "pi");
        rp_buf_reset(&b);
        assert_true(rp_install_extension_text(t, argv, 3, &b));
        assert_memory_equal(b.data, RP_INSTALL_EXT_MARKER "\n", strlen(RP_INSTALL_EXT_MARKER) + 1);
        assert_non_null(strstr(b.data, "\nconst RAMPART_COMMAND = [\"/opt/r \\\"x\\\"/rampart\", "
                                       "\"-c\", \"/etc/r\\\\c.yaml\"];\n"));
        assert_null(strstr(b.data, "RAMPART_BIN"));
        assert_int_equal(b.len, strlen(RP_INSTALL_EXT_MARKER) + 1 + *t->extension_len -
                                    strlen("[\"rampart\"]") +
                                    strlen("[\"/opt/r \\\"x\\\"/rampart\", "
                                           "\"-c\", \"/etc/r\\\\c.yaml\"]"));
        rp_arena a = {0};
        rp_arena_init(&a, 1024);
        size_t n;
        const char **got = rp_install_extension_command(&a, b.data, b.len, &n);
        assert_int_equal(n, 3);
        for (size_t i = 0; i < 3; i++) {
            assert_string_equal(got[i], argv[i]);
        }
        /* The file as it is in the repository runs `rampart` from PATH. */
        got = rp_install_extension_command(&a, t->extension, *t->extension_len, &n);
        assert_int_equal(n, 1);
        assert_string_equal(got[0], "rampart");
        assert_null(rp_install_extension_command(&a, "const X = 1;\n", 13, &n));
        rp_arena_free(&a);
    }
    rp_buf_free(&b);
    assert_null(rp_install_target_find("vscode"));
}

/* A path the RAMPART_COMMAND line cannot hold exactly is refused, not written as another path:
 * a byte that is not UTF-8 would become U+FFFD in the literal (found by fuzz_extension_command).
 * Quotes, backslashes, newlines, a comment end and U+2028 are held exactly. */
static void test_extension_command_exact_or_refused(void **state)
{
    (void)state;
    for (int h = 0; h < 2; h++) {
        const rp_install_target *t = rp_install_target_find(h ? "opencode" : "pi");
        rp_buf b = {0};
        const char bin[] = {'/', 'o', 'p', 't', '/', (char)0xff, '/', 'r', '\0'};
        const char cfg[] = {'/', 'c', (char)0xc3, '.', 'y', '\0'}; /* a cut sequence */
        const char *argv1[] = {bin};
        const char *argv2[] = {"/usr/bin/rampart", "-c", cfg};
        assert_false(rp_install_extension_text(t, argv1, 1, &b));
        assert_false(rp_install_extension_text(t, argv2, 3, &b));
        const char *odd[] = {"/o\"p\\t/*/x\n\x7f\xe2\x80\xa8/r", "-c", "/c'.yaml"};
        rp_buf_reset(&b);
        assert_true(rp_install_extension_text(t, odd, 3, &b));
        rp_arena a = {0};
        rp_arena_init(&a, 1024);
        size_t n;
        const char **got = rp_install_extension_command(&a, b.data, b.len, &n);
        assert_int_equal(n, 3);
        for (size_t i = 0; i < 3; i++) {
            assert_string_equal(got[i], odd[i]);
        }
        rp_arena_free(&a);
        rp_buf_free(&b);
    }
}

/* Every prefix of an installed file (and every single-byte corruption of a small one) is
 * either refused with a position or handled; nothing crashes, nothing is silently accepted. */
static void test_damaged_files(void **state)
{
    char *in = install(&two, claude_settings, RP_INSTALL_SPLICE_CHANGED);
    size_t n = strlen(in);
    for (size_t cut = 1; cut < n - 1; cut++) {
        rp_buf out = {0};
        rp_install_splice_error err;
        assert_int_equal(rp_install_splice_install(in, cut, &two, &out, &err),
                         RP_INSTALL_SPLICE_ERROR);
        assert_true(err.line >= 1 && err.col >= 1);
        assert_int_equal(rp_install_splice_uninstall(in, cut, &two, &out, &err),
                         RP_INSTALL_SPLICE_ERROR);
        rp_buf_free(&out);
    }
    const char *small = "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"command\": \"rampart hook "
                        "claude-code\"}]}]}, \"a\": [1, \"\\u00e9\"]}";
    char buf[256];
    const char bytes[] = {'{', '}', '[', ']', '"', ',', ':', '\\', '\0', 'x', ' '};
    for (size_t i = 0; i < strlen(small); i++) {
        for (size_t b = 0; b < sizeof bytes; b++) {
            memcpy(buf, small, strlen(small));
            buf[i] = bytes[b];
            rp_buf out = {0};
            rp_install_splice_error err;
            rp_install_splice_status st =
                rp_install_splice_install(buf, strlen(small), &two, &out, &err);
            if (st == RP_INSTALL_SPLICE_ERROR) {
                assert_true(err.line >= 1 && err.msg[0] != '\0');
            } else {
                /* Accepted text must have been valid: uninstalling what was added works. */
                rp_buf back = {0};
                assert_int_not_equal(
                    rp_install_splice_uninstall(out.data, out.len, &two, &back, &err),
                    RP_INSTALL_SPLICE_ERROR);
                rp_buf_free(&back);
            }
            rp_buf_free(&out);
        }
    }
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fresh_file_exact),
        cmocka_unit_test(test_next_to_existing_content_exact),
        cmocka_unit_test(test_minified_exact),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_other_handlers_survive),
        cmocka_unit_test(test_moved_binary_is_updated),
        cmocka_unit_test(test_exact_with_backup),
        cmocka_unit_test(test_not_json_rejected),
        cmocka_unit_test(test_our_command),
        cmocka_unit_test(test_find_ours),
        cmocka_unit_test(test_sh_quote_and_extension),
        cmocka_unit_test(test_extension_command_exact_or_refused),
        cmocka_unit_test(test_damaged_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
