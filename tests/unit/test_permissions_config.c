/* test_permissions_config.c — reading pi-permission-system's configuration (reference permissions.md
 * §1): the strict `permission` grammar and its error paths, the lenient front-matter form, JSONC,
 * the agent front-matter reader (including what it cannot express) and rp_perm_load_pi over a
 * fake filesystem (trust, rejected files, the clamp, agent files, mcp.json). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/json.h"
#include "permissions/perm.h"
#include "permissions/perm_load.h"

static rp_arena arena;

static int teardown(void **unused)
{
    (void)unused;
    rp_arena_free(&arena);
    return 0;
}

static rp_json *json(const char *text)
{
    rp_json_error je;
    rp_json *v = rp_json_parse(&arena, text, strlen(text), &je);
    if (v == NULL)
        fprintf(stderr, "bad test JSON %s: %s\n", text, je.msg);
    assert_non_null(v);
    return v;
}

/* ---- strict parsing: every error kind rejects the map and names where ---- */

static void expect_reject(const char *perm, const char *path, const char *in_message)
{
    rp_perm_map m;
    rp_perm_issue issue;
    int rc = rp_perm_map_parse(&arena, json(perm), RP_PERM_ORIGIN_GLOBAL, true, "permission", &m,
                               &issue);
    if (rc != -1 || strcmp(issue.path, path) != 0 || strstr(issue.message, in_message) == NULL)
        fprintf(stderr, "%s → rc %d, %s: %s (want %s: …%s…)\n", perm, rc, issue.path, issue.message,
                path, in_message);
    assert_int_equal(rc, -1);
    assert_string_equal(issue.path, path);
    assert_non_null(strstr(issue.message, in_message));
    assert_int_equal(m.n_surfaces, 0); /* nothing of a rejected map survives */
}

static void test_strict_rejects_bad_surface_values(void **s)
{
    (void)s;
    expect_reject("[]", "permission", "must be an object");
    expect_reject("{\"bash\":\"allw\"}", "permission.bash", "\"allow\", \"ask\" or \"deny\"");
    expect_reject("{\"bash\":\"Allow\"}", "permission.bash", "invalid action \"Allow\"");
    expect_reject("{\"bash\":true}", "permission.bash", "not bool");
    expect_reject("{\"bash\":[\"allow\"]}", "permission.bash", "\"allow\", \"ask\" or \"deny\"");
    expect_reject("{\"bash\":null}", "permission.bash", "not null");
    expect_reject("{\"\":\"allow\"}", "permission[\"\"]", "surface key must not be empty");
    expect_reject("{\"read\":\"allow\",\"exa-search\":5}", "permission[\"exa-search\"]",
                  "\"allow\", \"ask\" or \"deny\"");
}

static void test_strict_rejects_bad_patterns(void **s)
{
    (void)s;
    expect_reject("{\"bash\":{\"git *\":\"allow\",\"\":\"deny\"}}", "permission.bash[\"\"]",
                  "non-empty");
    expect_reject("{\"bash\":{\"git *\":\"alow\"}}", "permission.bash[\"git *\"]",
                  "\"allow\", \"ask\" or \"deny\"");
    expect_reject("{\"bash\":{\"git *\":1}}", "permission.bash[\"git *\"]",
                  "{\"action\": \"deny\", \"reason\"?: string}");
    expect_reject("{\"bash\":{\"rm\\u0000x\":\"allow\"}}", "permission.bash[\"rm\\u0000x\"]",
                  "U+0000");
    expect_reject("{\"mcp\":{\"exa:*\":{\"action\":\"deny\",\"why\":\"x\"}}}",
                  "permission.mcp[\"exa:*\"].why", "only \"action\"");
    expect_reject("{\"mcp\":{\"exa:*\":{\"action\":\"allow\"}}}",
                  "permission.mcp[\"exa:*\"].action", "must be \"deny\"");
    expect_reject("{\"mcp\":{\"exa:*\":{\"reason\":\"x\"}}}", "permission.mcp[\"exa:*\"].action",
                  "must be \"deny\"");
    expect_reject("{\"mcp\":{\"exa:*\":{\"action\":\"deny\",\"reason\":7}}}",
                  "permission.mcp[\"exa:*\"].reason", "string of at most 500");
}

static char *repeat(const char *unit, size_t n)
{
    size_t u = strlen(unit);
    char *s = rp_arena_alloc(&arena, u * n + 1);
    for (size_t i = 0; i < n; i++)
        memcpy(s + i * u, unit, u);
    s[u * n] = '\0';
    return s;
}

static int parse_reason(const char *reason, bool strict, rp_perm_map *m)
{
    char *text = rp_arena_sprintf(
        &arena, "{\"bash\":{\"rm *\":{\"action\":\"deny\",\"reason\":\"%s\"}}}", reason);
    rp_perm_issue issue;
    return rp_perm_map_parse(&arena, json(text), RP_PERM_ORIGIN_GLOBAL, strict, "permission", m,
                             &issue);
}

static void test_strict_reason_is_at_most_500_utf16_units(void **s)
{
    (void)s;
    rp_perm_map m;
    assert_int_equal(parse_reason(repeat("a", 500), true, &m), 0);
    assert_string_equal(m.surfaces[0].entries[0].reason, repeat("a", 500));
    assert_int_equal(m.surfaces[0].entries[0].action, RP_PERM_DENY);
    assert_int_equal(parse_reason(repeat("a", 501), true, &m), -1);
    /* JavaScript counts UTF-16 units: 500 three-byte characters fit, 251 emoji (502) do not. */
    assert_int_equal(parse_reason(repeat("\xe6\x97\xa5", 500), true, &m), 0);
    assert_int_equal(parse_reason(repeat("\xf0\x9f\x98\x80", 250), true, &m), 0);
    assert_int_equal(parse_reason(repeat("\xf0\x9f\x98\x80", 251), true, &m), -1);
    /* Front-matter is not schema-checked: the long reason is kept. */
    assert_int_equal(parse_reason(repeat("a", 501), false, &m), 0);
    assert_int_equal(m.surfaces[0].n_entries, 1);
}

static void test_strict_accepts_the_grammar(void **s)
{
    (void)s;
    rp_perm_map m;
    rp_perm_issue issue;
    const char *text =
        "{\"*\":\"ask\",\"bash\":{\"git *\":\"allow\",\"rm *\":{\"action\":\"deny\",\"reason\":"
        "\"no\"},\"sudo *\":{\"action\":\"deny\"}},\"read\":\"allow\",\"empty\":{}}";
    assert_int_equal(rp_perm_map_parse(&arena, json(text), RP_PERM_ORIGIN_PROJECT, true,
                                       "permission", &m, &issue),
                     0);
    assert_int_equal(m.n_surfaces, 4);
    assert_string_equal(m.surfaces[0].surface, "*");
    assert_false(m.surfaces[0].is_map);
    assert_int_equal(m.surfaces[0].action, RP_PERM_ASK);
    assert_int_equal(m.surfaces[0].origin, RP_PERM_ORIGIN_PROJECT);
    const rp_perm_surface *b = &m.surfaces[1];
    assert_true(b->is_map);
    assert_int_equal(b->n_entries, 3);
    assert_string_equal(b->entries[1].pattern, "rm *");
    assert_string_equal(b->entries[1].reason, "no");
    assert_null(b->entries[2].reason);
    assert_null(b->entries[0].reason);
    assert_int_equal(b->entries[0].origin, RP_PERM_ORIGIN_PROJECT);
    assert_true(m.surfaces[3].is_map); /* an empty map is valid (and yields no rules) */
    assert_int_equal(m.surfaces[3].n_entries, 0);
}

static void test_strict_issue_path_starts_with_where(void **s)
{
    (void)s;
    rp_perm_map m;
    rp_perm_issue issue;
    assert_int_equal(rp_perm_map_parse(&arena, json("{\"bash\":{\"x\":\"nope\"}}"),
                                       RP_PERM_ORIGIN_PROJECT, true, "project_permission", &m,
                                       &issue),
                     -1);
    assert_string_equal(issue.path, "project_permission.bash.x");
}

static void test_duplicate_keys_read_as_json_parse_does(void **s)
{
    (void)s;
    /* JSON.parse keeps the first position and the last value; an overwritten bad value is
     * therefore no error. */
    rp_perm_map m;
    rp_perm_issue issue;
    assert_int_equal(rp_perm_map_parse(&arena,
                                       json("{\"bash\":\"bogus\",\"read\":\"ask\",\"bash\":{"
                                            "\"a\":\"deny\",\"b\":\"ask\",\"a\":\"allow\"}}"),
                                       RP_PERM_ORIGIN_GLOBAL, true, "permission", &m, &issue),
                     0);
    assert_int_equal(m.n_surfaces, 2);
    assert_string_equal(m.surfaces[0].surface, "bash");
    assert_int_equal(m.surfaces[0].n_entries, 2);
    assert_string_equal(m.surfaces[0].entries[0].pattern, "a");
    assert_int_equal(m.surfaces[0].entries[0].action, RP_PERM_ALLOW);
    assert_string_equal(m.surfaces[1].surface, "read");
}

static void test_lenient_drops_bad_entries(void **s)
{
    (void)s;
    rp_perm_map m;
    const char *text = "{\"bash\":{\"git *\":\"allow\",\"rm *\":\"nope\",\"\":\"deny\","
                       "\"x\":{\"action\":\"deny\",\"reason\":5},\"y\":{\"action\":\"deny\","
                       "\"extra\":1}},\"read\":\"sometimes\",\"write\":{\"a\":\"maybe\"},"
                       "\"edit\":7,\"\":\"allow\",\"ls\":\"deny\"}";
    assert_int_equal(
        rp_perm_map_parse(&arena, json(text), RP_PERM_ORIGIN_AGENT, false, "permission", &m, NULL),
        0);
    assert_int_equal(m.n_surfaces, 2); /* bash (two survivors) and ls */
    assert_string_equal(m.surfaces[0].surface, "bash");
    assert_int_equal(m.surfaces[0].n_entries, 2);
    assert_string_equal(m.surfaces[0].entries[0].pattern, "git *");
    /* pi's lenient deny-with-reason check only looks at action and reason. */
    assert_string_equal(m.surfaces[0].entries[1].pattern, "y");
    assert_int_equal(m.surfaces[0].entries[1].action, RP_PERM_DENY);
    assert_int_equal(m.surfaces[0].entries[1].origin, RP_PERM_ORIGIN_AGENT);
    assert_string_equal(m.surfaces[1].surface, "ls");
    /* Not an object at all: nothing, and no error. */
    assert_int_equal(rp_perm_map_parse(&arena, json("\"allow\""), RP_PERM_ORIGIN_AGENT, false,
                                       "permission", &m, NULL),
                     0);
    assert_int_equal(m.n_surfaces, 0);
}

static void test_names(void **s)
{
    (void)s;
    assert_string_equal(rp_perm_action_name(RP_PERM_ALLOW), "allow");
    assert_string_equal(rp_perm_action_name(RP_PERM_ASK), "ask");
    assert_string_equal(rp_perm_action_name(RP_PERM_DENY), "deny");
    rp_perm_action a = RP_PERM_ALLOW;
    assert_int_equal(rp_perm_action_parse("deny", &a), 0);
    assert_int_equal(a, RP_PERM_DENY);
    assert_int_equal(rp_perm_action_parse("Deny", &a), -1);
    assert_int_equal(rp_perm_action_parse("", &a), -1);
    assert_int_equal(rp_perm_action_parse(NULL, &a), -1);
    assert_string_equal(rp_perm_origin_name(RP_PERM_ORIGIN_PROJECT_AGENT), "project-agent");
    assert_string_equal(rp_perm_origin_name(RP_PERM_ORIGIN_FAIL_CLOSED), "fail-closed");
    assert_string_equal(rp_perm_origin_name(RP_PERM_ORIGIN_YOLO), "yolo");
    assert_string_equal(rp_perm_origin_name(RP_PERM_ORIGIN_GLOBAL), "global");
}

static void test_js_object_helpers(void **s)
{
    (void)s;
    /* Object.entries order: index keys first ascending (a key holding U+0000 is none), then the
     * rest as first written, a repeated key with its last value. */
    rp_perm_js_member *m;
    size_t n = rp_perm_js_members(
        &arena, json("{\"b\":1,\"1\\u0000x\":2,\"7\":3,\"0\":4,\"b\":5,\"007\":6}"), &m);
    assert_int_equal(n, 5);
    assert_string_equal(m[0].key, "0");
    assert_string_equal(m[1].key, "7");
    assert_string_equal(m[2].key, "b");
    assert_int_equal(m[2].value->v.i, 5);
    assert_int_equal(m[3].key_len, 3); /* "1\0x" */
    assert_string_equal(m[4].key, "007");
    assert_int_equal(rp_perm_js_members(&arena, json("[1]"), &m), 0);

    uint32_t v;
    assert_true(rp_perm_js_index_key("0", 1, &v));
    assert_int_equal(v, 0);
    assert_true(rp_perm_js_index_key("4294967294", 10, &v));
    assert_int_equal(v, 4294967294u);
    assert_false(rp_perm_js_index_key("4294967295", 10, &v));
    assert_false(rp_perm_js_index_key("99999999999", 11, &v));
    assert_false(rp_perm_js_index_key("01", 2, &v));
    assert_false(rp_perm_js_index_key("-1", 2, &v));
    assert_false(rp_perm_js_index_key("1.5", 3, &v));
    assert_false(rp_perm_js_index_key("", 0, &v));

    /* String.prototype.trim: ASCII blanks, NBSP, U+3000, U+FEFF and U+2028 go; U+200B stays. */
    const char *t = " \t\xc2\xa0\xe3\x80\x80x y\xef\xbb\xbf\xe2\x80\xa8\r\n";
    size_t tn;
    const char *r = rp_perm_js_trim(t, strlen(t), &tn);
    assert_int_equal(tn, 3);
    assert_memory_equal(r, "x y", 3);
    const char *zw = "\xe2\x80\x8bx";
    r = rp_perm_js_trim(zw, strlen(zw), &tn);
    assert_int_equal(tn, strlen(zw));
    r = rp_perm_js_trim("   ", 3, &tn);
    assert_int_equal(tn, 0);
}

/* ---- JSONC (§1.2) ---- */

static const char *strip(const char *text)
{
    size_t n;
    char *out = rp_perm_jsonc_strip(&arena, text, strlen(text), &n);
    assert_int_equal(n, strlen(out));
    return out;
}

static void test_jsonc_strips_comments_outside_strings(void **s)
{
    (void)s;
    assert_string_equal(strip("{\"a\": 1, // note\n\"b\": 2}"), "{\"a\": 1, \n\"b\": 2}");
    assert_string_equal(strip("{/* x\ny */\"a\":1}"), "{\"a\":1}");
    assert_string_equal(strip("1/**/2"), "12"); /* removed whole, nothing left behind */
    assert_string_equal(strip("{\"u\": \"http://x/*y*/\"}"), "{\"u\": \"http://x/*y*/\"}");
    assert_string_equal(strip("['//', \"/*\"] // c"), "['//', \"/*\"] ");
    assert_string_equal(strip("{\"q\": \"a\\\"//b\"}"), "{\"q\": \"a\\\"//b\"}");
    assert_string_equal(strip("{\"q\": \"a\\\\\"// gone\n}"), "{\"q\": \"a\\\\\"\n}");
    assert_string_equal(strip("{} /* unterminated"), "{} ");
    assert_string_equal(strip("{} // to the end"), "{} ");
    assert_string_equal(strip("\"open // string"), "\"open // string");
    assert_string_equal(strip("a / b"), "a / b");
}

static void test_jsonc_leaves_trailing_commas_for_the_reader(void **s)
{
    (void)s;
    const char *text = "{\n  // comment\n  \"permission\": {\"bash\": \"ask\",},\n}";
    size_t n;
    char *out = rp_perm_jsonc_strip(&arena, text, strlen(text), &n);
    assert_non_null(strstr(out, "\"ask\",}"));
    rp_json_error je;
    assert_null(rp_json_parse(&arena, out, n, &je));
    const char *ok = "{\n  // comment\n  \"permission\": {\"bash\": \"ask\"} /* end */\n}";
    out = rp_perm_jsonc_strip(&arena, ok, strlen(ok), &n);
    assert_non_null(rp_json_parse(&arena, out, n, &je));
}

/* ---- front-matter (§1.7) ---- */

static rp_json *fm(const char *text)
{
    return rp_perm_frontmatter_permission(&arena, text, strlen(text));
}

static const char *fm_str(const rp_json *obj, const char *dotted)
{
    const rp_json *v = rp_json_path(obj, dotted);
    return rp_json_is_string(v) ? v->v.s : NULL;
}

static void test_frontmatter_reads_nested_permission(void **s)
{
    (void)s;
    rp_json *p = fm(
        "---\nname: reviewer\ndescription: \"reads code\"\npermission:\n"
        "  # read: allow (a comment, skipped)\n\n  bash:\n    \"git *\": allow\n    rm *: 'deny'\n"
        "  read: ask\nmodel: x\n---\nBody: not front-matter\n");
    assert_non_null(p);
    assert_int_equal(p->len, 2);
    assert_string_equal(p->v.members[0].key, "bash");
    const rp_json *bash = rp_json_get(p, "bash");
    assert_int_equal(bash->len, 2);
    assert_string_equal(bash->v.members[0].key, "git *");
    assert_string_equal(bash->v.members[0].value.v.s, "allow");
    assert_string_equal(bash->v.members[1].key, "rm *");
    assert_string_equal(bash->v.members[1].value.v.s, "deny");
    assert_string_equal(fm_str(p, "read"), "ask");

    /* Into the lenient map parse. */
    rp_perm_map m;
    assert_int_equal(
        rp_perm_map_parse(&arena, p, RP_PERM_ORIGIN_AGENT, false, "permission", &m, NULL), 0);
    assert_int_equal(m.n_surfaces, 2);
    assert_int_equal(m.surfaces[0].entries[1].action, RP_PERM_DENY);
}

static void test_frontmatter_cannot_write_a_colon_pattern(void **s)
{
    (void)s;
    /* `"exa:*": allow` is the key `exa` (text before the first ':', one quote stripped) with the
     * value `*": allow`, which is no state: the rule is lost. */
    rp_json *p = fm("---\npermission:\n  mcp:\n    \"exa:*\": allow\n    exa_*: deny\n---\n");
    assert_non_null(p);
    const rp_json *mcp = rp_json_get(p, "mcp");
    assert_int_equal(mcp->len, 2);
    assert_string_equal(mcp->v.members[0].key, "exa");
    assert_string_equal(mcp->v.members[0].value.v.s, "*\": allow");
    rp_perm_map m;
    assert_int_equal(
        rp_perm_map_parse(&arena, p, RP_PERM_ORIGIN_AGENT, false, "permission", &m, NULL), 0);
    assert_int_equal(m.surfaces[0].n_entries, 1);
    assert_string_equal(m.surfaces[0].entries[0].pattern, "exa_*");
}

static void test_frontmatter_crlf_quotes_and_repeats(void **s)
{
    (void)s;
    rp_json *p = fm("---\r\npermission:\r\n  bash: \"allow\"\r\n  'read': deny\r\n"
                    "  write: ask\r\n  bash: deny\r\n  q: \"\r\n  edit: \"ask'\r\n---\r\n");
    assert_non_null(p);
    /* A repeated key keeps its first place with the later value. */
    assert_string_equal(p->v.members[0].key, "bash");
    assert_string_equal(p->v.members[0].value.v.s, "deny");
    assert_string_equal(fm_str(p, "read"), "deny");
    assert_string_equal(fm_str(p, "q"), "");          /* a lone quote "unwraps" to "" */
    assert_string_equal(fm_str(p, "edit"), "\"ask'"); /* mismatched quotes stay */
    assert_int_equal(p->len, 5);
}

static void test_frontmatter_indentation_closes_maps(void **s)
{
    (void)s;
    rp_json *p = fm("---\npermission:\n    bash:\n        ls: allow\n    read: deny\n"
                    "other:\n  bash: allow\n---\n");
    assert_non_null(p);
    assert_int_equal(p->len, 2);
    assert_string_equal(fm_str(p, "bash.ls"), "allow");
    assert_string_equal(fm_str(p, "read"), "deny");
    /* A permission block given as a string is no map. */
    assert_null(fm("---\npermission: allow\n---\n"));
}

static void test_frontmatter_absent(void **s)
{
    (void)s;
    assert_null(fm("no front-matter\n---\npermission:\n  bash: allow\n---\n"));
    assert_null(fm("---\npermission:\n  bash: allow\n")); /* never closed */
    assert_null(fm("---\nname: x\n---\n"));
    assert_null(fm(" ---\npermission:\n  bash: allow\n---\n"));
    assert_null(fm(""));
    assert_null(rp_perm_frontmatter_permission(&arena, NULL, 0));
    /* The closing line needs only to start with ---. */
    rp_json *p = fm("---\npermission:\n  bash: deny\n----- end\n");
    assert_non_null(p);
    assert_string_equal(fm_str(p, "bash"), "deny");
}

/* ---- rp_perm_load_pi over a fake filesystem ---- */

#define AGENT_DIR "/home/user/.pi/agent"
#define CWD       "/workspace/project"
#define GLOBAL    AGENT_DIR "/extensions/pi-permission-system/config.json"
#define PROJECT   CWD "/.pi/extensions/pi-permission-system/config.json"
#define AGENT_MD  AGENT_DIR "/agents/reviewer.md"
#define PAGENT_MD CWD "/.pi/agents/reviewer.md"
#define MCP_JSON  AGENT_DIR "/mcp.json"

typedef struct fake_file {
    const char *path;
    const char *text; /* NULL: exists but unreadable (err) */
    int err;
} fake_file;

typedef struct fake_fs {
    const fake_file *files;
    size_t n;
    int reads;
} fake_fs;

static int fake_read(void *self, const char *path, rp_arena *a, char **data, size_t *len)
{
    fake_fs *fs = self;
    fs->reads++;
    for (size_t i = 0; i < fs->n; i++) {
        if (strcmp(fs->files[i].path, path) != 0)
            continue;
        if (fs->files[i].text == NULL) {
            errno = fs->files[i].err;
            return -1;
        }
        *len = strlen(fs->files[i].text);
        *data = rp_arena_strndup(a, fs->files[i].text, *len);
        return 0;
    }
    errno = ENOENT;
    return -1;
}

static rp_perm_pi_config load(const fake_file *files, size_t n, const char *agent, bool trusted)
{
    fake_fs fs = {files, n, 0};
    rp_perm_file_reader rd = {&fs, fake_read};
    rp_perm_pi_config cfg;
    char err[128];
    assert_int_equal(
        rp_perm_load_pi(&arena, &rd, AGENT_DIR, CWD, agent, trusted, &cfg, err, sizeof err), 0);
    return cfg;
}

#define LOAD(files, agent, trusted) load(files, sizeof files / sizeof files[0], agent, trusted)

/* The verdict of a surface/value under the merged, composed scopes. */
static const char *verdict(const rp_perm_pi_config *cfg, const char *surface, const char *value)
{
    rp_perm_map merged;
    bool clamp;
    rp_perm_pi_merge(&arena, cfg, &merged, &clamp);
    rp_perm_ruleset rs;
    rp_perm_compose(&arena, &merged, clamp, &rs);
    rp_perm_rules_view rv = {.config = &rs, .yolo = cfg->yolo, .home = "/home/user"};
    return rp_perm_action_name(rp_perm_evaluate(&arena, &rv, surface, value).action);
}

static bool clamped(const rp_perm_pi_config *cfg)
{
    rp_perm_map merged;
    bool clamp;
    rp_perm_pi_merge(&arena, cfg, &merged, &clamp);
    return clamp;
}

static const fake_file trusted_files[] = {
    {GLOBAL,
     "{\n  // global\n  \"$schema\": \"x\",\n  \"yoloMode\": true,\n  \"permission\": {\"bash\": "
     "{\"git *\": \"allow\", \"git push\": \"deny\"}, \"read\": \"allow\"},\n"
     "  \"piInfrastructureReadPaths\": [\"~/tools\"],\n  \"shellTools\": {\"exec_command\": "
     "{\"commandArgument\": \"cmd\", \"workdirArgument\": \"workdir\"}, \"run\": "
     "{\"commandArgument\": \"script\"}}\n}",
     0},
    {PROJECT,
     "{\"yoloMode\": false, \"permission\": {\"bash\": {\"git *\": \"ask\"}}, \"shellTools\": "
     "{\"run\": {\"commandArgument\": \"command\"}, \"sh\": {\"commandArgument\": \"c\"}}, "
     "\"promptMaxRows\": 1.0}",
     0},
};

static void test_load_trusted_project_merges_over_global(void **s)
{
    (void)s;
    rp_perm_pi_config cfg = LOAD(trusted_files, NULL, true);
    assert_int_equal(cfg.n_issues, 0);
    assert_true(cfg.global.present);
    assert_true(cfg.project.present);
    assert_string_equal(cfg.global.file, GLOBAL);
    assert_false(clamped(&cfg));
    /* §1.6: the project's "git *" keeps the global position, so git push is still denied. */
    assert_string_equal(verdict(&cfg, "bash", "git push"), "deny");
    assert_false(cfg.yolo); /* the project's false replaces the global true */
    assert_string_equal(verdict(&cfg, "bash", "git status"), "ask");
    assert_string_equal(verdict(&cfg, "read", "/x"), "allow");
    assert_int_equal(cfg.n_infra, 1); /* the project does not set it: the global one stays */
    assert_string_equal(cfg.infra[0], "~/tools");
    /* shellTools by tool name: run replaced in place, sh added, exec_command kept. */
    assert_int_equal(cfg.n_shell_tools, 3);
    assert_string_equal(cfg.shell_tools[0].tool, "exec_command");
    assert_string_equal(cfg.shell_tools[0].workdir_arg, "workdir");
    assert_string_equal(cfg.shell_tools[1].tool, "run");
    assert_string_equal(cfg.shell_tools[1].command_arg, "command");
    assert_null(cfg.shell_tools[1].workdir_arg);
    assert_string_equal(cfg.shell_tools[2].tool, "sh");
    assert_null(cfg.warning);
}

static void test_load_untrusted_project_is_ignored(void **s)
{
    (void)s;
    rp_perm_pi_config cfg = LOAD(trusted_files, NULL, false);
    assert_false(cfg.project.present);
    assert_false(cfg.project.invalid);
    assert_non_null(cfg.warning);
    assert_non_null(strstr(cfg.warning, PROJECT));
    assert_non_null(strstr(cfg.warning, "not trusted"));
    assert_true(cfg.yolo); /* the untrusted project's yoloMode:false is not read either */
    assert_string_equal(verdict(&cfg, "bash", "git status"), "allow"); /* yolo aside: global */
    assert_int_equal(cfg.n_shell_tools, 2);
    assert_string_equal(cfg.shell_tools[1].command_arg, "script");
}

static void test_load_untrusted_project_without_files_warns_nothing(void **s)
{
    (void)s;
    const fake_file files[] = {{GLOBAL, "{\"permission\": {\"bash\": \"ask\"}}", 0}};
    rp_perm_pi_config cfg = LOAD(files, "reviewer", false);
    assert_null(cfg.warning);
    assert_true(cfg.global.present);
}

static void test_load_rejected_global_contributes_nothing(void **s)
{
    (void)s;
    const fake_file files[] = {
        {GLOBAL, "{\"yoloMode\": true, \"bogus\": 1, \"permission\": {\"*\": \"allow\"}}", 0}};
    rp_perm_pi_config cfg = LOAD(files, NULL, true);
    assert_int_equal(cfg.n_issues, 1);
    assert_string_equal(cfg.issues[0].file, GLOBAL);
    assert_string_equal(cfg.issues[0].path, "bogus");
    assert_non_null(strstr(cfg.issues[0].message, "unknown key"));
    assert_true(cfg.global.invalid);
    assert_false(cfg.global.present);
    assert_false(cfg.yolo);      /* knobs of a rejected file are gone too */
    assert_false(clamped(&cfg)); /* a global failure never clamps */
    assert_string_equal(verdict(&cfg, "bash", "ls"), "ask");
}

static void expect_global_rejected(const char *text, const char *path, const char *in_message)
{
    const fake_file files[] = {{GLOBAL, text, 0}};
    rp_perm_pi_config cfg = LOAD(files, NULL, true);
    if (cfg.n_issues == 0 || strcmp(cfg.issues[0].path, path) != 0 ||
        strstr(cfg.issues[0].message, in_message) == NULL)
        fprintf(stderr, "%s → %zu issues: %s: %s\n", text, cfg.n_issues,
                cfg.n_issues ? cfg.issues[0].path : "", cfg.n_issues ? cfg.issues[0].message : "");
    assert_true(cfg.n_issues >= 1);
    assert_string_equal(cfg.issues[0].path, path);
    assert_non_null(strstr(cfg.issues[0].message, in_message));
    assert_true(cfg.global.invalid);
    assert_false(cfg.global.present);
}

static void test_load_strict_schema_errors(void **s)
{
    (void)s;
    expect_global_rejected("{\"permission\": {\"bash\": \"ask\",}}", "(root)", "not valid JSON");
    expect_global_rejected("[1]", "(root)", "JSON object");
    expect_global_rejected("{\"yoloMode\": \"yes\"}", "yoloMode", "true or false");
    expect_global_rejected("{\"debugLog\": null}", "debugLog", "true or false");
    expect_global_rejected("{\"promptMaxRows\": 0}", "promptMaxRows", "integer of at least 1");
    expect_global_rejected("{\"forwardingTimeoutMs\": 1.5}", "forwardingTimeoutMs", "integer");
    expect_global_rejected("{\"promptFieldMaxWidth\": \"3\"}", "promptFieldMaxWidth", "integer");
    expect_global_rejected("{\"reviewLogFieldMaxWidth\": 9007199254740992}",
                           "reviewLogFieldMaxWidth", "integer");
    expect_global_rejected("{\"piInfrastructureReadPaths\": \"/x\"}", "piInfrastructureReadPaths",
                           "array of strings");
    expect_global_rejected("{\"piInfrastructureReadPaths\": [\"/x\", \"\"]}",
                           "piInfrastructureReadPaths[1]", "non-empty");
    expect_global_rejected("{\"authorizerChain\": [1]}", "authorizerChain[0]", "string");
    expect_global_rejected("{\"shellTools\": {\"exec\": {\"workdirArgument\": \"w\"}}}",
                           "shellTools.exec.commandArgument", "non-empty string");
    expect_global_rejected("{\"shellTools\": {\"exec\": {\"commandArgument\": \"c\", \"x\": 1}}}",
                           "shellTools.exec.x", "unknown key");
    expect_global_rejected("{\"shellTools\": {\"exec\": \"cmd\"}}", "shellTools.exec",
                           "commandArgument");
    expect_global_rejected("{\"shellTools\": {\"\": {\"commandArgument\": \"c\"}}}",
                           "shellTools[\"\"]", "non-empty");
    expect_global_rejected("{\"permission\": {\"bash\": {\"git *\": \"yes\"}}}",
                           "permission.bash[\"git *\"]", "\"allow\", \"ask\" or \"deny\"");
    expect_global_rejected("{\"permission\": \"allow\"}", "permission", "must be an object");

    /* Accepted: integral doubles, deprecated keys (with a warning), every documented key. */
    const fake_file ok[] = {
        {GLOBAL,
         "{\"$schema\": \"s\", \"debugLog\": true, \"permissionReviewLog\": false, "
         "\"doublePressToConfirm\": true, \"forwardingTimeoutMs\": 1e3, \"promptMaxRows\": 2, "
         "\"promptFieldMaxWidth\": 3, \"reviewLogFieldMaxWidth\": 4, "
         "\"toolInputPreviewMaxLength\": 5, \"toolTextSummaryMaxLength\": 6, "
         "\"authorizerChain\": [\"judge\"], \"piInfrastructureReadPaths\": []}",
         0}};
    rp_perm_pi_config cfg = LOAD(ok, NULL, true);
    assert_int_equal(cfg.n_issues, 0);
    assert_false(cfg.global.invalid);
    assert_false(cfg.global.present); /* no permission key */
    assert_non_null(cfg.warning);
    assert_non_null(strstr(cfg.warning, "toolInputPreviewMaxLength is deprecated"));
}

static void test_load_rejected_project_clamps(void **s)
{
    (void)s;
    const fake_file files[] = {
        {GLOBAL, "{\"permission\": {\"*\": \"allow\", \"bash\": {\"rm *\": \"deny\"}}}", 0},
        {PROJECT, "{\"permission\": {\"bash\": {\"ls\": \"allow\"}}, \"yoloMode\": 1}", 0}};
    rp_perm_pi_config cfg = LOAD(files, NULL, true);
    assert_true(cfg.project.invalid);
    assert_false(cfg.project.present);
    assert_int_equal(cfg.n_issues, 1);
    assert_string_equal(cfg.issues[0].file, PROJECT);
    assert_string_equal(cfg.issues[0].path, "yoloMode");
    assert_true(clamped(&cfg));
    /* The inherited global allow becomes ask; the deny stays. */
    assert_string_equal(verdict(&cfg, "read", "/x"), "ask");
    assert_string_equal(verdict(&cfg, "bash", "rm -rf x"), "deny");
    assert_string_equal(verdict(&cfg, "bash", "ls"), "ask");
}

static void test_load_unreadable_files(void **s)
{
    (void)s;
    const fake_file files[] = {{GLOBAL, NULL, EACCES}, {PROJECT, NULL, EIO}};
    rp_perm_pi_config cfg = LOAD(files, NULL, true);
    assert_int_equal(cfg.n_issues, 2);
    assert_non_null(strstr(cfg.issues[0].message, "cannot read"));
    assert_true(cfg.global.invalid);
    assert_true(cfg.project.invalid);
    assert_true(clamped(&cfg));
    /* ENOTDIR is "does not exist", as for pi's existsSync. */
    const fake_file gone[] = {{GLOBAL, NULL, ENOTDIR}};
    cfg = LOAD(gone, NULL, true);
    assert_int_equal(cfg.n_issues, 0);
    assert_false(cfg.global.invalid);
}

static void test_load_agent_files(void **s)
{
    (void)s;
    const fake_file files[] = {
        {GLOBAL, "{\"permission\": {\"bash\": {\"*\": \"ask\", \"git *\": \"allow\"}}}", 0},
        {AGENT_MD, "---\nname: reviewer\npermission:\n  bash:\n    git push*: deny\n---\n", 0},
        {PAGENT_MD, "---\npermission:\n  bash:\n    git *: ask\n  read: nonsense\n---\n", 0}};
    rp_perm_pi_config cfg = LOAD(files, "reviewer", true);
    assert_int_equal(cfg.n_issues, 0);
    assert_true(cfg.agent.present);
    assert_true(cfg.project_agent.present);
    assert_string_equal(cfg.agent.file, AGENT_MD);
    assert_string_equal(cfg.project_agent.file, PAGENT_MD);
    assert_int_equal(cfg.project_agent.map.n_surfaces, 1); /* read: nonsense dropped quietly */
    assert_false(clamped(&cfg));
    assert_string_equal(verdict(&cfg, "bash", "git push"), "deny");
    assert_string_equal(verdict(&cfg, "bash", "git status"), "ask");
    /* No agent name: the agent files are not looked at. */
    cfg = LOAD(files, NULL, true);
    assert_false(cfg.agent.present);
    assert_null(cfg.agent.file);
    assert_string_equal(verdict(&cfg, "bash", "git push"), "allow");
    /* Untrusted: the project agent file is ignored (with a warning), the global one is read. */
    cfg = LOAD(files, "reviewer", false);
    assert_true(cfg.agent.present);
    assert_false(cfg.project_agent.present);
    assert_non_null(strstr(cfg.warning, PAGENT_MD));
}

static void test_load_missing_and_unreadable_agent_files(void **s)
{
    (void)s;
    const fake_file files[] = {{GLOBAL, "{\"permission\": {\"*\": \"allow\"}}", 0}};
    rp_perm_pi_config cfg = LOAD(files, "reviewer", true);
    assert_false(cfg.agent.present);
    assert_false(cfg.agent.invalid); /* a missing file is an empty scope */
    assert_false(clamped(&cfg));
    assert_string_equal(verdict(&cfg, "task", "*"), "allow");

    const fake_file unreadable[] = {{GLOBAL, "{\"permission\": {\"*\": \"allow\"}}", 0},
                                    {AGENT_MD, NULL, EACCES}};
    cfg = LOAD(unreadable, "reviewer", true);
    assert_true(cfg.agent.invalid);
    assert_int_equal(cfg.n_issues, 1);
    assert_string_equal(cfg.issues[0].file, AGENT_MD);
    assert_true(clamped(&cfg));
    assert_string_equal(verdict(&cfg, "task", "*"), "ask");

    /* An agent file without front-matter is an empty scope, not an invalid one. */
    const fake_file plain[] = {{AGENT_MD, "# just markdown\n", 0}};
    cfg = LOAD(plain, "reviewer", true);
    assert_false(cfg.agent.present);
    assert_false(cfg.agent.invalid);
}

static void test_load_agent_name_must_be_plain(void **s)
{
    (void)s;
    const fake_file files[] = {{GLOBAL, "{\"permission\": {\"*\": \"allow\"}}", 0}};
    const char *bad[] = {"../../etc/evil", "a/b", "..", ".", "x\\y"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rp_perm_pi_config cfg = LOAD(files, bad[i], true);
        assert_true(cfg.agent.invalid);
        assert_true(cfg.project_agent.invalid);
        assert_true(clamped(&cfg));
        assert_int_equal(cfg.n_issues, 1);
    }
}

static void test_load_mcp_server_names(void **s)
{
    (void)s;
    const fake_file files[] = {
        {MCP_JSON,
         "{ // servers\n \"mcpServers\": {\" exa \": {}, \"exa\": {}, \"  \": {}, \"github\": {}, "
         "\"2\": {}}, \"mcp-servers\": {\"ignored\": {}}}",
         0}};
    rp_perm_pi_config cfg = LOAD(files, NULL, true);
    assert_int_equal(cfg.n_mcp_servers, 3);
    assert_string_equal(cfg.mcp_servers[0], "2"); /* JavaScript key order */
    assert_string_equal(cfg.mcp_servers[1], "exa");
    assert_string_equal(cfg.mcp_servers[2], "github");

    const fake_file dashed[] = {
        {MCP_JSON, "{\"mcpServers\": null, \"mcp-servers\": {\"linear\": {}}}", 0}};
    cfg = LOAD(dashed, NULL, true);
    assert_int_equal(cfg.n_mcp_servers, 1);
    assert_string_equal(cfg.mcp_servers[0], "linear");

    const fake_file broken[] = {{MCP_JSON, "{\"mcpServers\": {\"a\": {},}}", 0}};
    cfg = LOAD(broken, NULL, true);
    assert_int_equal(cfg.n_mcp_servers, 0);
    assert_non_null(cfg.warning);
    assert_int_equal(cfg.n_issues, 0); /* mcp.json is no policy scope */
}

static void test_load_needs_a_reader_and_an_agent_dir(void **s)
{
    (void)s;
    rp_perm_pi_config cfg;
    char err[128] = "";
    assert_int_equal(
        rp_perm_load_pi(&arena, NULL, AGENT_DIR, CWD, NULL, true, &cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, "reader"));
    fake_fs fs = {NULL, 0, 0};
    rp_perm_file_reader rd = {&fs, fake_read};
    assert_int_equal(rp_perm_load_pi(&arena, &rd, NULL, CWD, NULL, true, &cfg, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "agent directory"));
    /* Without a cwd the project files are not looked for at all. */
    assert_int_equal(
        rp_perm_load_pi(&arena, &rd, AGENT_DIR, NULL, "reviewer", true, &cfg, err, sizeof err), 0);
    assert_int_equal(fs.reads, 3); /* global config, global agent, mcp.json */
    assert_null(cfg.project.file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_strict_rejects_bad_surface_values, teardown),
        cmocka_unit_test_teardown(test_strict_rejects_bad_patterns, teardown),
        cmocka_unit_test_teardown(test_strict_reason_is_at_most_500_utf16_units, teardown),
        cmocka_unit_test_teardown(test_strict_accepts_the_grammar, teardown),
        cmocka_unit_test_teardown(test_strict_issue_path_starts_with_where, teardown),
        cmocka_unit_test_teardown(test_duplicate_keys_read_as_json_parse_does, teardown),
        cmocka_unit_test_teardown(test_lenient_drops_bad_entries, teardown),
        cmocka_unit_test_teardown(test_names, teardown),
        cmocka_unit_test_teardown(test_js_object_helpers, teardown),
        cmocka_unit_test_teardown(test_jsonc_strips_comments_outside_strings, teardown),
        cmocka_unit_test_teardown(test_jsonc_leaves_trailing_commas_for_the_reader, teardown),
        cmocka_unit_test_teardown(test_frontmatter_reads_nested_permission, teardown),
        cmocka_unit_test_teardown(test_frontmatter_cannot_write_a_colon_pattern, teardown),
        cmocka_unit_test_teardown(test_frontmatter_crlf_quotes_and_repeats, teardown),
        cmocka_unit_test_teardown(test_frontmatter_indentation_closes_maps, teardown),
        cmocka_unit_test_teardown(test_frontmatter_absent, teardown),
        cmocka_unit_test_teardown(test_load_trusted_project_merges_over_global, teardown),
        cmocka_unit_test_teardown(test_load_untrusted_project_is_ignored, teardown),
        cmocka_unit_test_teardown(test_load_untrusted_project_without_files_warns_nothing,
                                  teardown),
        cmocka_unit_test_teardown(test_load_rejected_global_contributes_nothing, teardown),
        cmocka_unit_test_teardown(test_load_strict_schema_errors, teardown),
        cmocka_unit_test_teardown(test_load_rejected_project_clamps, teardown),
        cmocka_unit_test_teardown(test_load_unreadable_files, teardown),
        cmocka_unit_test_teardown(test_load_agent_files, teardown),
        cmocka_unit_test_teardown(test_load_missing_and_unreadable_agent_files, teardown),
        cmocka_unit_test_teardown(test_load_agent_name_must_be_plain, teardown),
        cmocka_unit_test_teardown(test_load_mcp_server_names, teardown),
        cmocka_unit_test_teardown(test_load_needs_a_reader_and_an_agent_dir, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
