/* deny_secrets — DENY (or ASK, or REDACT) credentials in requests, LLM requests, tool-call
 * arguments and, when asked, tool results (issue 7; rampart's own, the reference has none).
 *
 * The reference never looks at tool calls, yet that is where a key leaves: a command that
 * echoes a token, a file write that embeds one, an MCP call that posts one. Every string of the
 * arguments is scanned with its JSON path for the reason; for a shell tool the words of the
 * command after quote removal are scanned as well, joined by spaces, so `echo "gh""p_…"` or
 * `gh\p_…` cannot split a token past the scanner. Such a token cannot be cut out of the command
 * as written, so REDACT denies it instead. `allow_patterns` lists known test keys to ignore. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/regex.h"
#include "core/buf.h"
#include "engine/policy.h"
#include "policies/builtins.h"
#include "policies/common/common.h"
#include "policies/content/scan_common.h"
#include "policies/common/shell_input.h"
#include "shell/shell.h"

typedef enum secret_action { SECRET_DENY = 0, SECRET_ASK, SECRET_REDACT } secret_action;

typedef struct deny_secrets {
    rp_scan_set types;
    secret_action action;
    bool scan_results;
    rp_regex **allow; /* compiled allow_patterns */
    size_t n_allow;
    rp_content_lazy_scanner *scanner;
} deny_secrets;

static const char *const action_names[] = {"DENY", "ASK", "REDACT", NULL};

/* Every secret type of scan.h, for the param schema (so a typo is rejected with the list);
 * create() checks each against rp_scan_type_from_name. */
static const char *const secret_type_names[] = {
    "aws_access_key_id",
    "aws_secret_access_key",
    "github_token",
    "gitlab_token",
    "slack_token",
    "slack_webhook",
    "stripe_key",
    "google_api_key",
    "openai_api_key",
    "anthropic_api_key",
    "npm_token",
    "private_key",
    "jwt",
    "url_password",
    "generic_secret",
    NULL,
};

static const rp_param_spec deny_secrets_params[] = {
    {.name = "types",
     .kind = RP_PARAM_STRING_LIST,
     .default_json = NULL,
     .enum_values = secret_type_names,
     .description = "Secret types to look for (case-insensitive); null = every secret type."},
    {.name = "action",
     .kind = RP_PARAM_STRING,
     .default_json = "\"DENY\"",
     .enum_values = action_names,
     .description = "DENY, ASK, or REDACT (allow with every finding replaced by "
                    "[REDACTED:<type>]; a token visible only after shell quote removal is "
                    "denied)."},
    {.name = "scan_results",
     .kind = RP_PARAM_BOOL,
     .default_json = "false",
     .description = "Also scan tool results (what a tool returned to the agent)."},
    {.name = "allow_patterns",
     .kind = RP_PARAM_STRING_LIST,
     .default_json = NULL,
     .description = "Regular expressions (RE2 syntax, as CEL's matches()) of known test keys: a "
                    "finding whose text contains a match is ignored."},
};

static int parse_types(const rp_json *types, deny_secrets *d, rp_param_error *err)
{
    if (!rp_json_is_array(types)) {
        d->types = RP_SCAN_SECRETS_ALL;
        return 0;
    }
    if (types->len == 0)
        return rp_param_fail(err, "types",
                             "types must name at least one secret type (null = every type)");
    for (uint32_t i = 0; i < types->len; i++) {
        const rp_json *item = &types->v.items[i];
        int t = rp_json_is_string(item) && strlen(item->v.s) == item->len
                    ? rp_scan_type_from_name(item->v.s)
                    : -1;
        if (t < 0 || !rp_scan_type_is_secret(t))
            return rp_param_fail(err, "types",
                                 "types[%u]: unknown secret type '%.64s' (see `rampart "
                                 "policies` for the list)",
                                 (unsigned)i, rp_json_is_string(item) ? item->v.s : "?");
        d->types |= RP_SCAN_BIT(t);
    }
    return 0;
}

static void free_patterns(deny_secrets *d)
{
    for (size_t i = 0; i < d->n_allow; i++)
        rp_regex_free(d->allow[i]);
    d->n_allow = 0;
}

static int parse_allow_patterns(const rp_json *list, rp_arena *a, deny_secrets *d,
                                rp_param_error *err)
{
    if (!rp_json_is_array(list) || list->len == 0)
        return 0;
    d->allow = rp_arena_calloc(a, list->len * sizeof *d->allow);
    for (uint32_t i = 0; i < list->len; i++) {
        const rp_json *item = &list->v.items[i];
        char why[160] = "";
        rp_regex *re = rp_json_is_string(item)
                           ? rp_regex_compile(item->v.s, item->len, why, sizeof why)
                           : NULL;
        if (re == NULL) {
            free_patterns(d);
            return rp_param_fail(err, "allow_patterns", "allow_patterns[%u] '%.48s': %s",
                                 (unsigned)i, rp_json_is_string(item) ? item->v.s : "?",
                                 why[0] ? why : "not a string");
        }
        d->allow[d->n_allow++] = re;
    }
    return 0;
}

static int deny_secrets_create(const rp_json *params, rp_arena *a, void **instance,
                               rp_param_error *err)
{
    const char *action = rp_json_get_str(params, "action");
    deny_secrets *d = rp_arena_calloc(a, sizeof *d);

    if (action == NULL || strcasecmp(action, "DENY") == 0)
        d->action = SECRET_DENY;
    else if (strcasecmp(action, "ASK") == 0)
        d->action = SECRET_ASK;
    else if (strcasecmp(action, "REDACT") == 0)
        d->action = SECRET_REDACT;
    else
        return rp_param_fail(err, "action", "action must be one of DENY, ASK, REDACT");
    if (parse_types(rp_json_get(params, "types"), d, err) != 0)
        return -1;
    d->scan_results = rp_json_truthy(rp_json_get(params, "scan_results"));
    if (parse_allow_patterns(rp_json_get(params, "allow_patterns"), a, d, err) != 0)
        return -1;
    d->scanner = rp_content_lazy_scanner_new(a, d->types);
    *instance = d;
    return 0;
}

/* allow_patterns: a finding whose text matches one is a known test key. A pattern that hits a
 * matching limit does not excuse the finding. A value that is a redaction marker
 * (password=[REDACTED:generic_secret], from this policy or an earlier one) is no secret. */
static bool is_allowed(const void *self, const char *match, size_t len, rp_arena *a)
{
    static const char marker[] = "[REDACTED:";
    const deny_secrets *d = self;
    char err[128];
    for (size_t i = 0; i + sizeof marker - 1 <= len; i++)
        if (memcmp(match + i, marker, sizeof marker - 1) == 0)
            return true;
    for (size_t i = 0; i < d->n_allow; i++)
        if (rp_regex_search(d->allow[i], match, len, a, err, sizeof err) == 1)
            return true;
    return false;
}

static void put_word(rp_buf *b, const rp_sh_word *w)
{
    if (b->len > 0)
        rp_buf_putc(b, ' ');
    rp_buf_append(b, w->text, w->len);
}

/* The words of every simple command of `command` after quote removal (assignments, argv and
 * redirection targets), joined by spaces; wrapped and re-parsed commands (bash -c '…') are
 * listed by the parser and included. */
static void shell_words(rp_eval_ctx *ctx, const char *command, bool memo, rp_buf *b)
{
    struct rp_sh_parse parse;
    if (memo)
        rp_shell_parse_once(ctx, command, &parse);
    else
        rp_sh_parse(ctx->arena, command, strlen(command), &parse);
    for (size_t i = 0; i < parse.n_commands; i++) {
        const rp_sh_command *c = &parse.commands[i];
        for (size_t k = 0; k < c->n_assigns; k++)
            put_word(b, &c->assigns[k]);
        for (size_t k = 0; k < c->n_words; k++)
            put_word(b, &c->words[k]);
        for (size_t k = 0; k < c->n_redirs; k++)
            put_word(b, &c->redirs[k].target);
    }
}

#define WORDS_WHERE "tool_call argument 'command' after shell quote removal"

/* The command of a bash-like shell tool call in data (the event's, or the redacted copy). */
static const char *bash_command(const rp_event *ev, const rp_json *data)
{
    if (rp_shell_command_of(ev, NULL) == NULL || !rp_shell_tool_is_bash(ev->tool_name))
        return NULL;
    return rp_json_str(rp_json_get(rp_json_get(data, "arguments"), "command"));
}

static void add_shell_words(rp_eval_ctx *ctx, const char *command, bool memo, rp_content_texts *t)
{
    rp_buf b = {0};
    shell_words(ctx, command, memo, &b);
    size_t len = b.len;
    rp_content_texts_add_derived(ctx->arena, t, rp_buf_to_arena(&b, ctx->arena), len, WORDS_WHERE);
}

static const char *finding_reason(rp_arena *a, const rp_scan_finding *f, const char *where)
{
    return rp_arena_sprintf(a, "Secret detected (%s) in %s: '%s'", rp_scan_type_label(f->type),
                            where, f->preview);
}

/* REDACT: ALLOW with every finding rewritten, unless a token shows only in the shell words
 * (it cannot be cut out of the command as written) or there were too many to rewrite. */
static int redact(const deny_secrets *d, const rp_event *ev, rp_eval_ctx *ctx,
                  rp_content_texts *texts, rp_result *out)
{
    size_t where;
    const rp_scan_finding *f = rp_content_first_in_order(texts, &where);
    if (f != NULL && rp_content_texts_truncated(texts)) {
        out->verdict = RP_DENY;
        out->reason = rp_arena_sprintf(ctx->arena, "%s (too many findings to redact)",
                                       finding_reason(ctx->arena, f, texts->items[where].where));
        return 0;
    }
    const rp_json *data =
        f != NULL ? rp_content_redact_data(ctx->arena, ev->data, texts) : ev->data;

    const char *command = ev->type == RP_EV_TOOL_CALL ? bash_command(ev, data) : NULL;
    if (command != NULL) {
        rp_content_texts words = {0};
        add_shell_words(ctx, command, f == NULL, &words);
        if (rp_content_texts_run(d->scanner, ctx, &words, is_allowed, d) != 0)
            return -1;
        size_t w;
        const rp_scan_finding *hidden = rp_content_first_in_order(&words, &w);
        if (hidden != NULL) {
            out->verdict = RP_DENY;
            out->reason = rp_arena_sprintf(
                ctx->arena,
                "%s (visible only after shell quote removal: it cannot be redacted "
                "in place)",
                finding_reason(ctx->arena, hidden, WORDS_WHERE));
            return 0;
        }
    }
    if (f == NULL)
        return 0;
    out->data = data;
    out->reason = rp_content_redaction_reason(ctx->arena, "Secrets", texts);
    return 0;
}

static int deny_secrets_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                                 rp_eval_ctx *ctx, rp_result *out)
{
    const deny_secrets *d = instance;
    rp_content_texts texts = {0};

    (void)state;
    out->verdict = RP_ALLOW;
    switch (ev->type) {
    case RP_EV_REQUEST:
        rp_content_gather_request(ev, ctx->arena, &texts);
        break;
    case RP_EV_LLM_REQUEST:
        rp_content_gather_llm_request(ev, ctx->arena, &texts);
        break;
    case RP_EV_TOOL_CALL: {
        rp_content_gather_strings(ev, "arguments", ctx->arena, &texts, "tool_call argument",
                                  "tool_call arguments");
        /* REDACT looks at the words of the command it would let through instead. */
        const char *command = d->action != SECRET_REDACT ? bash_command(ev, ev->data) : NULL;
        if (command != NULL)
            add_shell_words(ctx, command, true, &texts);
        break;
    }
    case RP_EV_TOOL_RESULT:
        if (!d->scan_results)
            return 0;
        rp_content_gather_strings(ev, NULL, ctx->arena, &texts, "tool_result field", "tool_result");
        break;
    default:
        return 0;
    }
    if (rp_content_texts_run(d->scanner, ctx, &texts, is_allowed, d) != 0)
        return -1;
    if (d->action == SECRET_REDACT)
        return redact(d, ev, ctx, &texts, out);

    size_t where;
    const rp_scan_finding *f = rp_content_first_in_order(&texts, &where);
    if (f == NULL)
        return 0;
    out->verdict = d->action == SECRET_ASK ? RP_ASK : RP_DENY;
    out->reason = finding_reason(ctx->arena, f, texts.items[where].where);
    return 0;
}

static void deny_secrets_destroy(void *instance)
{
    deny_secrets *d = instance;
    free_patterns(d);
    rp_content_lazy_scanner_destroy(d->scanner);
}

const rp_policy_type rp_policy_deny_secrets = {
    .name = "deny_secrets",
    .module = "rampart.policies.safety",
    .description = "Deny, ask about or redact credentials (cloud and API keys, tokens, private "
                   "keys, passwords) in requests, LLM requests, tool-call arguments and "
                   "optionally tool results.",
    .params = deny_secrets_params,
    .n_params = sizeof deny_secrets_params / sizeof deny_secrets_params[0],
    .create = deny_secrets_create,
    .evaluate = deny_secrets_evaluate,
    .destroy = deny_secrets_destroy,
};
