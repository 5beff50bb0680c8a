/* test_policy_deny_pii_in_llm_request.c — PII in requests and LLM requests (reference §5.7,
 * issue 7): phases, the fixed category order, masked previews, pii_types (opt-in, unknown and
 * case-insensitive names), ASK in any case, REDACT shapes, the lazy scanner and its failure
 * paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <unistd.h>

#include "policies/builtins.h"
#include "policies/content/scan_common.h"
#include "policy_test_util.h"

#define T         (&rp_policy_deny_pii_in_llm_request)
#define REQ(data) "{\"type\":\"request\",\"data\":" data "}"
#define LLM(system, user)                                                                          \
    "{\"type\":\"llm_request\",\"data\":{\"model\":\"gpt-4o\",\"messages_count\":3,"               \
    "\"system_prompt_preview\":\"" system "\",\"last_user_message\":\"" user "\"}}"

#define SSN_REASON  "PII detected (Social Security Number (US)): '***-**-6789...'"
#define SSN_PREVIEW "***-**-6789"

/* The masked preview the scanner gives the first finding of `types` in text ("" if none), so
 * that expected reasons follow the scanner's masks without repeating them here. */
static const char *preview_of(rp_arena *a, rp_scan_set types, const char *text)
{
    rp_scan_options opt = {.types = types};
    rp_scanner *s;
    char err[256];
    rp_scan_result r;
    assert_int_equal(rp_scanner_open(&opt, &s, err, sizeof err), 0);
    assert_int_equal(rp_scanner_scan(s, a, text, strlen(text), &r), 0);
    const char *p = r.n > 0 ? rp_arena_strdup(a, r.findings[0].preview) : "";
    rp_scanner_free(s);
    return p;
}

static const char *pii_reason(rp_arena *a, rp_scan_type type, const char *text)
{
    return rp_arena_sprintf(a, "PII detected (%s): '%s...'", rp_scan_type_label(type),
                            preview_of(a, RP_SCAN_BIT(type), text));
}

/* Evaluates and returns the result's data as compact JSON ("" when none). */
static const char *data_json(pt_eval *e)
{
    if (e->result.data == NULL)
        return "";
    return rp_json_to_string(&e->arena, e->result.data);
}

static void test_schema(void **unused)
{
    (void)unused;
    const rp_param_spec *types = pt_param(T, "pii_types");
    const rp_param_spec *action = pt_param(T, "action");
    char handler[128];
    assert_int_equal(T->n_params, 2);
    assert_int_equal(types->kind, RP_PARAM_STRING_LIST);
    assert_null(types->default_json);
    assert_null(types->enum_values); /* unknown names are ignored, not rejected */
    assert_int_equal(action->kind, RP_PARAM_STRING);
    assert_string_equal(action->default_json, "\"DENY\"");
    assert_string_equal(action->enum_values[0], "DENY");
    assert_string_equal(action->enum_values[1], "ASK");
    assert_string_equal(action->enum_values[2], "REDACT");
    assert_null(action->enum_values[3]);
    assert_string_equal(rp_policy_handler(T, handler, sizeof handler),
                        "omnigent.policies.builtins.safety.deny_pii_in_llm_request");
    assert_non_null(T->destroy);
}

static void test_request_phase(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{}");
    assert_int_equal(p.create_rc, 0);
    PT_EXPECT(&p, REQ("\"my SSN is 123-45-6789\""), RP_DENY, SSN_REASON, NULL);
    PT_EXPECT(&p, REQ("{\"user_content\":\"my SSN is 123-45-6789\"}"), RP_DENY, SSN_REASON, NULL);
    PT_EXPECT(&p, REQ("{\"text\":\"my SSN is 123-45-6789\"}"), RP_DENY, SSN_REASON, NULL);
    PT_EXPECT(&p, REQ("[{\"type\":\"text\",\"text\":\"my SSN is 123-45-6789\"}]"), RP_DENY,
              SSN_REASON, NULL);
    PT_EXPECT(&p, REQ("{\"user_content\":[{\"type\":\"image\"},{\"text\":\"123-45-6789\"}]}"),
              RP_DENY, SSN_REASON, NULL);
    PT_EXPECT(&p, REQ("\"write me a hello world program\""), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, REQ("{}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, REQ("null"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"request\"}", RP_ALLOW, NULL, NULL);

    /* attachments: after the user text, each non-empty text in order */
    PT_EXPECT(&p,
              REQ("{\"user_content\":\"print this file\",\"attachments\":[{\"filename\":"
                  "\"a.txt\",\"text\":\"\"},{\"filename\":\"b.csv\",\"text\":\"id,ssn\\n1,"
                  "123-45-6789\"},{\"text\":\"alice@example.com\"}]}"),
              RP_DENY, SSN_REASON, NULL);
    rp_arena a = {0};
    PT_EXPECT(&p,
              REQ("{\"user_content\":\"hi\",\"attachments\":[{\"filename\":\"n.txt\",\"text\":"
                  "\"no pii here\"},{\"text\":\"cc 4111 1111 1111 1111\"}]}"),
              RP_DENY, pii_reason(&a, RP_SCAN_CREDIT_CARD, "cc 4111 1111 1111 1111"), NULL);
    /* the user text comes first, even with an earlier category in an attachment */
    PT_EXPECT(&p,
              REQ("{\"user_content\":\"mail alice@example.com\",\"attachments\":[{\"text\":"
                  "\"123-45-6789\"}]}"),
              RP_DENY, pii_reason(&a, RP_SCAN_EMAIL, "alice@example.com"), NULL);
    PT_EXPECT(&p, REQ("{\"user_content\":\"x\",\"attachments\":\"123-45-6789\"}"), RP_ALLOW, NULL,
              NULL);
    rp_arena_free(&a);
    pt_policy_free(&p);
}

static void test_llm_request_phase(void **unused)
{
    (void)unused;
    pt_policy p;
    rp_arena a = {0};
    pt_create(&p, T, "{}");
    PT_EXPECT(&p, LLM("Customer SSN is 123-45-6789, handle with care.", ""), RP_DENY, SSN_REASON,
              NULL);
    PT_EXPECT(&p, LLM("You are a helpful assistant.", "my SSN is 123-45-6789"), RP_DENY, SSN_REASON,
              NULL);
    /* the system prompt preview is read first */
    PT_EXPECT(&p, LLM("Contact alice@example.com", "my SSN is 123-45-6789"), RP_DENY,
              pii_reason(&a, RP_SCAN_EMAIL, "alice@example.com"), NULL);
    PT_EXPECT(&p, LLM("", ""), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, LLM("You are a helpful coding assistant.", "write hello world"), RP_ALLOW, NULL,
              NULL);
    PT_EXPECT(&p, "{\"type\":\"llm_request\",\"data\":\"123-45-6789\"}", RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"llm_request\",\"data\":{\"system_prompt_preview\":5}}", RP_ALLOW,
              NULL, NULL);
    rp_arena_free(&a);
    pt_policy_free(&p);
}

static void test_other_phases_allow(void **unused)
{
    (void)unused;
    static const char *const events[] = {
        ("{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\",\"arguments\":{\"command\":"
         "\"echo 123-45-6789\"}}}"),
        "{\"type\":\"tool_result\",\"data\":{\"result\":\"123-45-6789\"}}",
        "{\"type\":\"response\",\"data\":\"123-45-6789\"}",
        "{\"type\":\"llm_response\",\"data\":{\"text\":\"123-45-6789\"}}",
        "{\"type\":\"session_start\",\"data\":\"123-45-6789\"}",
        "{\"type\":\"frobnicate\",\"data\":\"123-45-6789\"}",
    };
    pt_policy p;
    pt_create(&p, T, "{}");
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
        PT_EXPECT(&p, events[i], RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

static void test_category_order(void **unused)
{
    (void)unused;
    pt_policy p;
    rp_arena a = {0};
    pt_create(&p, T, "{}");
    /* ssn, credit_card, email, phone, whatever their order in the text */
    PT_EXPECT(&p, REQ("\"call (415) 555-0134 or mail alice@example.com, SSN 123-45-6789\""),
              RP_DENY, SSN_REASON, NULL);
    PT_EXPECT(&p, REQ("\"call (415) 555-0134, card 4111 1111 1111 1111, mail a@example.com\""),
              RP_DENY, pii_reason(&a, RP_SCAN_CREDIT_CARD, "4111 1111 1111 1111"), NULL);
    PT_EXPECT(&p, REQ("\"call (415) 555-0134 or mail alice@example.com\""), RP_DENY,
              pii_reason(&a, RP_SCAN_EMAIL, "alice@example.com"), NULL);
    /* within a category, the first finding */
    PT_EXPECT(&p, REQ("\"bob@example.org then alice@example.com\""), RP_DENY,
              pii_reason(&a, RP_SCAN_EMAIL, "bob@example.org"), NULL);
    /* text blocks are one text, as the reference joins them: the SSN of the second block
     * outranks the e-mail of the first */
    PT_EXPECT(&p,
              REQ("[{\"type\":\"text\",\"text\":\"mail bob@example.org\"},{\"type\":\"text\","
                  "\"text\":\"ssn 123-45-6789\"}]"),
              RP_DENY, SSN_REASON, NULL);
    /* the listed order of pii_types does not matter */
    pt_policy q;
    pt_create(&q, T, "{\"pii_types\":[\"phone\",\"email\",\"ssn\"]}");
    PT_EXPECT(&q, REQ("\"call (415) 555-0134 or mail alice@example.com, SSN 123-45-6789\""),
              RP_DENY, SSN_REASON, NULL);
    pt_policy_free(&q);
    rp_arena_free(&a);
    pt_policy_free(&p);
}

/* The reference's misfires are not findings here (divergences.jsonl has the vectors). */
static void test_precision(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{}");
    PT_EXPECT(&p, LLM("The number is 999-99-9999.", ""), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, REQ("\"ts 1749081600123\""), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, REQ("{\"user_content\":\"version 2024-01-01\",\"attachments\":[]}"), RP_ALLOW,
              NULL, NULL);
    PT_EXPECT(&p, REQ("\"x@y\""), RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

static void test_masks_never_reveal(void **unused)
{
    (void)unused;
    static const char *const cases[][2] = {
        {REQ("\"my SSN is 123-45-6789\""), "123-45"},
        {REQ("\"card 4111 1111 1111 1111\""), "4111 1111 1111"},
        {REQ("\"card 4111111111111111\""), "41111111"},
        {REQ("\"mail tomu.hirata@gmail.com\""), "tomu.hirata"},
        {REQ("\"call +81 3-1234-5678\""), "1234-5678"},
    };
    pt_policy p;
    pt_create(&p, T, "{}");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pt_eval e;
        pt_eval_event(&e, &p, cases[i][0]);
        assert_int_equal(e.rc, 0);
        assert_int_equal(e.result.verdict, RP_DENY);
        assert_non_null(e.result.reason);
        if (strstr(e.result.reason, cases[i][1]) != NULL)
            fail_msg("reason reveals '%s': %s", cases[i][1], e.result.reason);
        pt_eval_free(&e);
    }
    pt_policy_free(&p);
}

static void test_pii_types(void **unused)
{
    (void)unused;
    pt_policy p;
    rp_arena a = {0};

    pt_create(&p, T, "{\"pii_types\":[\"ssn\"]}");
    PT_EXPECT(&p, LLM("SSN is 123-45-6789", ""), RP_DENY, SSN_REASON, NULL);
    PT_EXPECT(&p, LLM("Contact alice@example.com", ""), RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);

    /* case-insensitive names */
    pt_create(&p, T, "{\"pii_types\":[\"EMAIL\"]}");
    PT_EXPECT(&p, LLM("SSN is 123-45-6789", ""), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, LLM("Contact alice@example.com", ""), RP_DENY,
              pii_reason(&a, RP_SCAN_EMAIL, "alice@example.com"), NULL);
    pt_policy_free(&p);

    /* null and [] are the reference's four; the opt-in types stay off */
    static const char *const defaults[] = {"{}", "{\"pii_types\":null}", "{\"pii_types\":[]}"};
    for (size_t i = 0; i < 3; i++) {
        pt_create(&p, T, defaults[i]);
        PT_EXPECT(&p, LLM("Email: alice@test.com", ""), RP_DENY,
                  pii_reason(&a, RP_SCAN_EMAIL, "alice@test.com"), NULL);
        PT_EXPECT(&p, REQ("\"IBAN DE89370400440532013000\""), RP_ALLOW, NULL, NULL);
        pt_policy_free(&p);
    }

    /* opt-in types */
    pt_create(&p, T, "{\"pii_types\":[\"iban\",\"ssn\"]}");
    PT_EXPECT(&p, REQ("\"IBAN DE89 3704 0044 0532 0130 00\""), RP_DENY,
              pii_reason(&a, RP_SCAN_IBAN, "IBAN DE89 3704 0044 0532 0130 00"), NULL);
    /* ssn still comes before iban */
    PT_EXPECT(&p, REQ("\"IBAN DE89 3704 0044 0532 0130 00 and 123-45-6789\""), RP_DENY, SSN_REASON,
              NULL);
    pt_policy_free(&p);
    rp_arena_free(&a);
}

static int g_warnings;
static char g_warning[512];

static void record_warning(void *self, const char *policy, const char *message)
{
    (void)self;
    g_warnings++;
    snprintf(g_warning, sizeof g_warning, "%s: %s", policy, message);
}

/* pt_eval_event with a warn channel, as `rampart eval` and the hooks provide. */
static void eval_with_warn(pt_eval *e, const pt_policy *p, const char *event_json)
{
    static const rp_json empty = {.type = RP_JSON_OBJECT};
    rp_event ev;
    memset(e, 0, sizeof *e);
    e->ctx.arena = &e->arena;
    e->ctx.policy_name = "pii";
    e->ctx.config = &empty;
    e->ctx.warn = record_warning;
    assert_true(rp_event_from_json(pt_parse(&e->arena, event_json), &ev));
    e->rc = p->type->evaluate(p->instance, &ev, &empty, &e->ctx, &e->result);
}

static void test_unknown_pii_types(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_eval e;

    /* only unknown names: nothing is scanned, as in the reference, but not silently */
    pt_create(&p, T, "{\"pii_types\":[\"nonexistent_type\"]}");
    assert_int_equal(p.create_rc, 0);
    g_warnings = 0;
    eval_with_warn(&e, &p, LLM("SSN 123-45-6789 email alice@test.com", ""));
    assert_int_equal(e.rc, 0);
    assert_int_equal(e.result.verdict, RP_ALLOW);
    assert_null(e.result.reason);
    assert_non_null(e.result.note);
    assert_non_null(strstr(e.result.note, "unknown PII type 'nonexistent_type' ignored"));
    assert_non_null(strstr(e.result.note, "known: ssn, credit_card, email, phone, iban"));
    assert_int_equal(g_warnings, 1);
    assert_non_null(strstr(g_warning, "pii: pii_types: unknown PII type 'nonexistent_type'"));
    pt_eval_free(&e);
    /* said once per loaded config, recorded for the audit log every time */
    eval_with_warn(&e, &p, REQ("\"hello\""));
    assert_int_equal(g_warnings, 1);
    assert_non_null(e.result.note);
    pt_eval_free(&e);
    /* phases the policy does not read stay quiet */
    eval_with_warn(&e, &p, "{\"type\":\"tool_call\",\"data\":{\"name\":\"x\"}}");
    assert_null(e.result.note);
    pt_eval_free(&e);
    pt_policy_free(&p);

    /* mixed: the known ones are used; a secret type is not a PII type */
    pt_create(&p, T, "{\"pii_types\":[\"ssn\",\"github_token\",\"bogus\"]}");
    g_warnings = 0;
    eval_with_warn(&e, &p, LLM("SSN 123-45-6789", ""));
    assert_int_equal(e.result.verdict, RP_DENY);
    assert_string_equal(e.result.reason, SSN_REASON);
    assert_int_equal(g_warnings, 1);
    assert_non_null(strstr(g_warning, "unknown PII types 'github_token', 'bogus' ignored"));
    pt_eval_free(&e);
    pt_policy_free(&p);

    /* without a warn channel the note still carries it */
    pt_create(&p, T, "{\"pii_types\":[\"nope\"]}");
    pt_eval_event(&e, &p, REQ("\"123-45-6789\""));
    assert_int_equal(e.result.verdict, RP_ALLOW);
    assert_non_null(strstr(e.result.note, "'nope'"));
    pt_eval_free(&e);
    pt_policy_free(&p);
}

static void test_ask(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"action\":\"ASK\"}");
    PT_EXPECT(&p, LLM("SSN is 123-45-6789", ""), RP_ASK, SSN_REASON, NULL);
    PT_EXPECT(&p, LLM("nothing", ""), RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);

    /* lower-case ask is ASK in rampart (the reference would DENY) — through the validator's
     * canonical spelling and through create() alone */
    pt_create(&p, T, "{\"action\":\"ask\"}");
    PT_EXPECT(&p, LLM("SSN is 123-45-6789", ""), RP_ASK, SSN_REASON, NULL);
    pt_policy_free(&p);
    rp_arena a = {0};
    void *inst = NULL;
    rp_param_error err;
    assert_int_equal(
        T->create(pt_parse(&a, "{\"pii_types\":null,\"action\":\"aSk\"}"), &a, &inst, &err), 0);
    pt_policy raw = {.type = T, .instance = inst};
    PT_EXPECT(&raw, LLM("SSN is 123-45-6789", ""), RP_ASK, SSN_REASON, NULL);
    T->destroy(inst);
    assert_int_equal(T->create(pt_parse(&a, "{\"action\":\"block\"}"), &a, &inst, &err), -1);
    assert_string_equal(err.param, "action");
    rp_arena_free(&a);

    /* only the selected categories are scanned (a reference vector) */
    pt_create(&p, T, "{\"pii_types\":[\"ssn\"],\"action\":\"ask\"}");
    PT_EXPECT(&p, REQ("\"mail a@b.com\""), RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

static void expect_redact(const pt_policy *p, const char *event, const char *data,
                          const char *reason)
{
    pt_eval e;
    pt_eval_event(&e, p, event);
    assert_int_equal(e.rc, 0);
    assert_string_equal(rp_verdict_name(e.result.verdict), "ALLOW");
    assert_string_equal(data_json(&e), data);
    if (reason == NULL)
        assert_null(e.result.reason);
    else
        assert_string_equal(e.result.reason, reason);
    pt_eval_free(&e);
}

static void test_scan_redact(void **unused)
{
    (void)unused;
    pt_policy p;
    rp_arena a = {0};
    pt_create(&p, T, "{\"action\":\"redact\"}");

    /* a string stays a string */
    expect_redact(&p, REQ("\"my SSN is 123-45-6789, again 123-45-6789\""),
                  "\"my SSN is [REDACTED:ssn], again [REDACTED:ssn]\"",
                  "PII redacted: Social Security Number (US) (2: '" SSN_PREVIEW "', '" SSN_PREVIEW
                  "')");
    /* every selected type, every finding; other keys and attachment fields are kept */
    const char *email_preview = preview_of(&a, RP_SCAN_BIT(RP_SCAN_EMAIL), "alice@example.com");
    expect_redact(&p,
                  REQ("{\"user_content\":\"mail alice@example.com\",\"session\":7,"
                      "\"attachments\":[{\"filename\":\"a.csv\",\"content_type\":\"text/csv\","
                      "\"text\":\"id,ssn\\n1,123-45-6789\"},{\"filename\":\"b.txt\",\"text\":"
                      "\"clean\"},{\"filename\":\"c.bin\"}]}"),
                  "{\"user_content\":\"mail [REDACTED:email]\",\"session\":7,"
                  "\"attachments\":[{\"filename\":\"a.csv\",\"content_type\":\"text/csv\","
                  "\"text\":\"id,ssn\\n1,[REDACTED:ssn]\"},{\"filename\":\"b.txt\",\"text\":"
                  "\"clean\"},{\"filename\":\"c.bin\"}]}",
                  rp_arena_sprintf(&a,
                                   "PII redacted: Social Security Number (US) (1: '" SSN_PREVIEW
                                   "'), Email Address (1: '%s')",
                                   email_preview));
    /* text blocks keep their shape */
    expect_redact(&p,
                  REQ("[{\"type\":\"text\",\"text\":\"ssn 123-45-6789\"},{\"type\":\"image\","
                      "\"text\":5}]"),
                  "[{\"type\":\"text\",\"text\":\"ssn [REDACTED:ssn]\"},{\"type\":\"image\","
                  "\"text\":5}]",
                  "PII redacted: Social Security Number (US) (1: '" SSN_PREVIEW "')");
    /* llm_request: both fields, the rest of the object as it was */
    expect_redact(&p, LLM("SSN 123-45-6789", "mail alice@example.com"),
                  "{\"model\":\"gpt-4o\",\"messages_count\":3,\"system_prompt_preview\":\"SSN "
                  "[REDACTED:ssn]\",\"last_user_message\":\"mail [REDACTED:email]\"}",
                  rp_arena_sprintf(&a,
                                   "PII redacted: Social Security Number (US) (1: '" SSN_PREVIEW
                                   "'), Email Address (1: '%s')",
                                   email_preview));
    /* nothing found: plain ALLOW, data unchanged */
    expect_redact(&p, REQ("\"hello\""), "", NULL);
    /* more than three of a type: the first three previews */
    expect_redact(&p, REQ("\"123-45-6789 123-45-6789 123-45-6789 123-45-6789\""),
                  "\"[REDACTED:ssn] [REDACTED:ssn] [REDACTED:ssn] [REDACTED:ssn]\"",
                  "PII redacted: Social Security Number (US) (4: '" SSN_PREVIEW "', '" SSN_PREVIEW
                  "', '" SSN_PREVIEW "', ...)");
    pt_policy_free(&p);

    /* only the selected types are redacted */
    pt_create(&p, T, "{\"action\":\"REDACT\",\"pii_types\":[\"email\"]}");
    expect_redact(&p, REQ("\"123-45-6789 alice@example.com\""), "\"123-45-6789 [REDACTED:email]\"",
                  rp_arena_sprintf(&a, "PII redacted: Email Address (1: '%s')", email_preview));
    pt_policy_free(&p);
    rp_arena_free(&a);
}

/* ---- the lazy scanner and its failure paths ---- */

static int g_opens;

static int counting_open(const rp_scan_options *opt, rp_scanner **out, char *err, size_t n)
{
    g_opens++;
    return rp_scanner_open(opt, out, err, n);
}

static int failing_open(const rp_scan_options *opt, rp_scanner **out, char *err, size_t n)
{
    (void)opt;
    *out = NULL;
    snprintf(err, n, "fake: out of memory");
    return -1;
}

static int failing_scan(const rp_scanner *s, rp_arena *a, const char *text, size_t n,
                        rp_scan_result *out)
{
    (void)s, (void)a, (void)text, (void)n;
    memset(out, 0, sizeof *out);
    return -1;
}

static void test_lazy_scanner(void **unused)
{
    (void)unused;
    const rp_content_backend saved = rp_content_policy_backend;
    pt_policy p;

    rp_content_policy_backend.open = counting_open;
    g_opens = 0;
    pt_create(&p, T, "{}");
    assert_int_equal(g_opens, 0); /* loading a config opens nothing */
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":\"Read\"}}", RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, REQ("{}"), RP_ALLOW, NULL, NULL); /* no text: nothing to scan */
    assert_int_equal(g_opens, 0);
    PT_EXPECT(&p, REQ("\"hello\""), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, REQ("\"123-45-6789\""), RP_DENY, SSN_REASON, NULL);
    assert_int_equal(g_opens, 1); /* opened once, kept */
    pt_policy_free(&p);

    /* only unknown types: never opened */
    pt_create(&p, T, "{\"pii_types\":[\"x\"]}");
    PT_EXPECT(&p, REQ("\"123-45-6789\""), RP_ALLOW, NULL, NULL);
    assert_int_equal(g_opens, 1);
    pt_policy_free(&p);

    /* the library cannot open or scan: the evaluation fails (the engine then denies) */
    rp_content_policy_backend.open = failing_open;
    pt_create(&p, T, "{}");
    PT_EXPECT_FAIL(&p, REQ("\"hello\""), "cannot open the content scanner: fake: out of memory");
    rp_content_policy_backend.open = saved.open;
    PT_EXPECT(&p, REQ("\"123-45-6789\""), RP_DENY, SSN_REASON, NULL); /* tried again */
    rp_content_policy_backend.scan = failing_scan;
    PT_EXPECT_FAIL(&p, LLM("hello", ""), "content scan of the llm_request system_prompt_preview");
    PT_EXPECT_FAIL(&p,
                   REQ("{\"user_content\":\"x\",\"attachments\":[{\"filename\":\"a.txt\","
                       "\"text\":\"y\"}]}"),
                   "content scan of the request text failed");
    rp_content_policy_backend = saved;
    pt_policy_free(&p);
}

/* ---- a private cache directory: no test writes the developer's ~/.cache ---- */

#include "scan_cache_fixture.h"

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema),
        cmocka_unit_test(test_request_phase),
        cmocka_unit_test(test_llm_request_phase),
        cmocka_unit_test(test_other_phases_allow),
        cmocka_unit_test(test_category_order),
        cmocka_unit_test(test_precision),
        cmocka_unit_test(test_masks_never_reveal),
        cmocka_unit_test(test_pii_types),
        cmocka_unit_test(test_unknown_pii_types),
        cmocka_unit_test(test_ask),
        cmocka_unit_test(test_scan_redact),
        cmocka_unit_test(test_lazy_scanner),
    };
    return cmocka_run_group_tests(tests, setup_cache, teardown_cache);
}
