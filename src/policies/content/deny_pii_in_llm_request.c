/* deny_pii_in_llm_request — DENY (or ASK) when the user text, an attachment or an LLM request
 * carries personal data, or REDACT it (reference §5.7, issue 7).
 *
 * The reference runs four Python regexes that take a millisecond timestamp for a card number
 * and 999-99-9999 for an SSN; rampart asks the scanner (src/scan/), whose validators know
 * Luhn, issuer prefixes, SSN area rules and phone digit counts. Phases, category order and the
 * reason's shape are the reference's, but the reason shows the scanner's masked preview instead
 * of the first 20 characters of the match: the personal data itself never goes into a reason
 * or a log. Rampart's additions: the opt-in types of the scanner, `action: REDACT` (ALLOW with
 * the data rewritten), and `ask` in any case meaning ASK. */
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "engine/policy.h"
#include "policies/builtins.h"
#include "policies/common/common.h"
#include "policies/content/scan_common.h"

typedef enum pii_action { PII_DENY = 0, PII_ASK, PII_REDACT } pii_action;

typedef struct deny_pii {
    rp_scan_set types; /* 0 when only unknown names were listed: nothing is scanned */
    pii_action action;
    const char *unknown_warning; /* names in pii_types the scanner does not know, or NULL */
    rp_content_lazy_scanner *scanner;
} deny_pii;

static const char *const action_names[] = {"DENY", "ASK", "REDACT", NULL};

static const rp_param_spec deny_pii_params[] = {
    {.name = "pii_types",
     .kind = RP_PARAM_STRING_LIST,
     .default_json = NULL,
     .description = "PII types to look for (case-insensitive): ssn, credit_card, email, phone, "
                    "and the opt-in iban, ip_address, passport_us, date_of_birth. null or [] = "
                    "the first four; unknown names are ignored with a warning."},
    {.name = "action",
     .kind = RP_PARAM_STRING,
     .default_json = "\"DENY\"",
     .enum_values = action_names,
     .description = "DENY, ASK, or REDACT (allow with every finding replaced by "
                    "[REDACTED:<type>])."},
};

/* "ssn, credit_card, ..., date_of_birth": every PII type name. */
static void put_known_types(rp_buf *b)
{
    for (int t = 0; t < RP_SCAN_FIRST_SECRET; t++)
        rp_buf_printf(b, "%s%s", t ? ", " : "", rp_scan_type_name(t));
}

static int deny_pii_create(const rp_json *params, rp_arena *a, void **instance, rp_param_error *err)
{
    const rp_json *types = rp_json_get(params, "pii_types");
    const char *action = rp_json_get_str(params, "action");
    deny_pii *p = rp_arena_calloc(a, sizeof *p);

    if (action == NULL || strcasecmp(action, "DENY") == 0)
        p->action = PII_DENY;
    else if (strcasecmp(action, "ASK") == 0)
        p->action = PII_ASK;
    else if (strcasecmp(action, "REDACT") == 0)
        p->action = PII_REDACT;
    else
        return rp_param_fail(err, "action", "action must be one of DENY, ASK, REDACT");

    /* The reference: null or empty selects its four; otherwise only the known names listed,
     * whatever their order (the scan order is fixed). */
    if (!rp_json_is_array(types) || types->len == 0) {
        p->types = RP_SCAN_PII_DEFAULT;
    } else {
        rp_buf unknown = {0};
        size_t n_unknown = 0;
        for (uint32_t i = 0; i < types->len; i++) {
            const rp_json *item = &types->v.items[i];
            if (!rp_json_is_string(item))
                return rp_param_fail(err, "pii_types", "pii_types[%u] must be a string",
                                     (unsigned)i);
            int t = strlen(item->v.s) == item->len ? rp_scan_type_from_name(item->v.s) : -1;
            if (t >= 0 && !rp_scan_type_is_secret(t)) {
                p->types |= RP_SCAN_BIT(t);
                continue;
            }
            rp_buf_printf(&unknown, "%s'%s'", n_unknown++ ? ", " : "", item->v.s);
        }
        if (n_unknown > 0) {
            rp_buf msg = {0};
            rp_buf_printf(&msg, "pii_types: unknown PII type%s %s ignored (known: ",
                          n_unknown > 1 ? "s" : "", unknown.data);
            put_known_types(&msg);
            rp_buf_puts(&msg, p->types == 0 ? "); nothing is scanned" : ")");
            p->unknown_warning = rp_buf_to_arena(&msg, a);
        }
        rp_buf_free(&unknown);
    }
    p->scanner = rp_content_lazy_scanner_new(a, p->types);
    *instance = p;
    return 0;
}

static int deny_pii_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                             rp_eval_ctx *ctx, rp_result *out)
{
    const deny_pii *p = instance;
    rp_content_texts texts = {0};

    (void)state;
    out->verdict = RP_ALLOW; /* the reference answers ALLOW, never None */
    if (ev->type != RP_EV_REQUEST && ev->type != RP_EV_LLM_REQUEST)
        return 0;
    if (p->unknown_warning != NULL) {
        out->note = p->unknown_warning;
        rp_content_warn_once(p->scanner, ctx, p->unknown_warning);
    }
    if (p->types == 0)
        return 0;

    if (ev->type == RP_EV_REQUEST)
        rp_content_gather_request(ev, ctx->arena, &texts);
    else
        rp_content_gather_llm_request(ev, ctx->arena, &texts);
    if (rp_content_texts_run(p->scanner, ctx, &texts, NULL, NULL) != 0)
        return -1;

    size_t where;
    const rp_scan_finding *f = rp_content_first_by_type(&texts, &where);
    if (f == NULL)
        return 0;
    const char *reason = rp_arena_sprintf(ctx->arena, "PII detected (%s): '%s...'",
                                          rp_scan_type_label(f->type), f->preview);
    if (p->action == PII_REDACT) {
        if (rp_content_texts_truncated(&texts)) {
            /* More findings than one scan reports: a partial redaction would let PII pass. */
            out->verdict = RP_DENY;
            out->reason = rp_arena_sprintf(ctx->arena, "%s (too many findings to redact)", reason);
            return 0;
        }
        out->data = rp_content_redact_data(ctx->arena, ev->data, &texts);
        out->reason = rp_content_redaction_reason(ctx->arena, "PII", &texts);
        return 0;
    }
    out->verdict = p->action == PII_ASK ? RP_ASK : RP_DENY;
    out->reason = reason;
    return 0;
}

static void deny_pii_destroy(void *instance)
{
    deny_pii *p = instance;
    rp_content_lazy_scanner_destroy(p->scanner);
}

const rp_policy_type rp_policy_deny_pii_in_llm_request = {
    .name = "deny_pii_in_llm_request",
    .module = "omnigent.policies.builtins.safety",
    .description = "Deny, ask about or redact personal data (SSNs, card numbers, e-mail "
                   "addresses, phone numbers, ...) in user requests and LLM requests.",
    .params = deny_pii_params,
    .n_params = sizeof deny_pii_params / sizeof deny_pii_params[0],
    .create = deny_pii_create,
    .evaluate = deny_pii_evaluate,
    .destroy = deny_pii_destroy,
};
