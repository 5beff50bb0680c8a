/* hook.c — one host hook call, start to answer (the runtime behind `rampart hook HOST`).
 *
 * The order of work: arm the deadline, read stdin, load the config, parse the payload with the
 * host's adapter (src/hosts/<host>.c), read new spend from the host's transcript, evaluate the
 * PolicyEvent statefully (src/session/session.c), answer in the host's exact format.
 *
 * Fail closed where it protects, fail safe where blocking would harm: anything that keeps
 * rampart from deciding a pre-tool or prompt event (unreadable stdin, garbage JSON, a bad
 * config, a store that cannot be opened or stays locked, the deadline) is answered with an
 * explicit DENY (or the config's on_error) whose reason names the problem; on post-tool, model,
 * stop and session events the problem is logged to stderr and the host is told nothing that
 * blocks. The deadline is a timer whose signal handler writes an answer prepared in advance,
 * so no state of the evaluation has to be trusted when it fires. Nothing but the answer is ever
 * written to stdout. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hosts/hook.h"
#include "hosts/hook_deadline.h"
#include "hosts/hook_spend.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "cost/pricing.h"
#include "config/stack.h"
#include "session/session.h"
#include "hosts/host.h"
#include "scan/redact.h"

#define HOOK_MAX_INPUT (64u << 20) /* a hook payload is KBs; a runaway one must not eat memory */
/* Reads all of stdin. Returns 0, or -1 with err set. */
static int read_input(rp_buf *in, char *err, size_t err_size)
{
    char chunk[65536];
    for (;;) {
        size_t n = fread(chunk, 1, sizeof chunk, stdin);
        if (n > 0) {
            if (in->len + n > HOOK_MAX_INPUT) {
                snprintf(err, err_size, "the hook input is larger than %u MB",
                         HOOK_MAX_INPUT >> 20);
                return -1;
            }
            rp_buf_append(in, chunk, n);
        }
        if (n < sizeof chunk) {
            if (ferror(stdin)) {
                snprintf(err, err_size, "cannot read the hook input: %s", strerror(errno));
                return -1;
            }
            return 0;
        }
    }
}

/* The OS login name: $USER / $LOGNAME, else "uid:N". Never a passwd lookup: in the static binary
 * glibc would dlopen an NSS module for it, and that crashes (issue 16); the uid is an identity. */
static const char *os_user(void)
{
    const char *u = getenv("USER");
    if (u == NULL || u[0] == '\0')
        u = getenv("LOGNAME");
    if (u != NULL && u[0] != '\0')
        return u;
    static char uid_name[32];
    snprintf(uid_name, sizeof uid_name, "uid:%lu", (unsigned long)getuid());
    return uid_name;
}

/* The verdict when rampart could not decide: on protecting phases the config's on_error (DENY
 * before a config is loaded), ASK only where the host can ask; elsewhere ALLOW. */
static rp_hook_verdict error_verdict(const rp_config *cfg, rp_hook_phase phase, bool can_ask,
                                     const char *reason)
{
    rp_hook_verdict v = {.result = RP_ALLOW, .reason = reason, .internal_error = true};
    if (!rp_hook_phase_protects(phase))
        return v;
    rp_on_error on = cfg ? cfg->on_error : RP_ON_ERROR_DENY;
    if (on == RP_ON_ERROR_ALLOW)
        v.result = RP_ALLOW;
    else if (on == RP_ON_ERROR_ASK && can_ask)
        v.result = RP_ASK;
    else
        v.result = RP_DENY;
    return v;
}

/* Renders the answer to v for call into out (reset first). */
static void render(const rp_hook_adapter *host, const rp_hook_call *call, const rp_hook_verdict *v,
                   const rp_host_settings *settings, rp_arena *a, rp_hook_answer *out)
{
    rp_buf_reset(&out->out);
    rp_buf_reset(&out->err);
    out->exit_code = 0;
    rp_hook_told(out, v->result, v->reason);
    host->answer(call, v, settings, a, out);
}

/* Prepares the answer the deadline gives for call (the phase decides deny or pass). */
static void arm_fallback(const rp_hook_adapter *host, const rp_hook_call *call,
                         const rp_config *cfg, const rp_host_settings *settings, int64_t ms,
                         rp_arena *a)
{
    char reason[256];
    snprintf(reason, sizeof reason,
             "rampart could not decide within %lld ms (hosts.%s.deadline_ms) or failed%s",
             (long long)ms, host->name,
             rp_hook_phase_protects(call->phase) ? "; denied to be safe" : "");
    rp_hook_verdict v = error_verdict(cfg, call->phase, call->can_ask, reason);
    rp_hook_answer ans = {0};
    render(host, call, &v, settings, a, &ans);
    if (!rp_hook_phase_protects(call->phase))
        rp_buf_printf(&ans.err, "rampart: %s\n", reason);
    rp_hook_deadline_set_answer(ans.out.data, ans.out.len, ans.err.data, ans.err.len,
                                ans.exit_code);
    rp_buf_free(&ans.out);
    rp_buf_free(&ans.err);
}

typedef struct hook_run {
    rp_hook_options o;
    rp_arena arena;
    rp_buf input;
    rp_config *cfg;
    rp_store *store;
    rp_config_trust_probe probe;
    rp_hook_call call;
    rp_hook_answer answer;
    bool answered; /* the answer was rendered from the decision before the audit (tell) */
    const rp_host_settings *settings;
    const rp_json *payload; /* the host's input, parsed */
    bool in_process;        /* rp_hook_answer_in_process: no deadline, the caller's store */
    rp_session_needs needs; /* what the config's policies ask of the ledger, read once */
    /* The price table, built at most once per process: the transcript's messages and the
     * event's own usage are priced with the same one. */
    rp_cost_pricing_once own_pricing;
    rp_cost_pricing_once *pricing; /* &own_pricing, or the in-process caller's */
} hook_run;

static void store_warn(void *self, const char *policy, const char *message)
{
    (void)self;
    fprintf(stderr, "rampart hook: warning: %s: %s\n", policy, message);
}

static bool hook_trusted(void *self, const char *dir)
{
    hook_run *r = self;
    return r->store ? rp_store_is_trusted(r->store, dir) : rp_config_probe_trusted(&r->probe, dir);
}

/* Spend the host reports only in its transcript, into the ledger before the policies run
 * (src/hosts/hook_spend.h). Returns, for a call that can be blocked and a policy that reads spend,
 * why the spend is not all known yet (a backlog of the transcript left for a later call), else
 * NULL: rp_session_opts.spend_unknown. */
static const char *record_transcript(hook_run *r)
{
    bool reads_spend = r->needs.reads_spend;
    int64_t unread = rp_hook_spend_before_eval(r->store, r->pricing, reads_spend, r->o.host->name,
                                               r->payload, &r->call, &r->arena);
    if (unread <= 0 || !reads_spend || !rp_hook_phase_protects(r->call.phase))
        return NULL;
    /* Fail closed, as for any event rampart cannot decide (on_error): the spend known so far
     * did not cross a budget, but what is still unread may have. The next calls read on. */
    return rp_arena_sprintf(&r->arena,
                            "rampart: the session's spend is not known yet: %lld KB of the "
                            "transcript are still to be read (later calls read on), so its cost "
                            "budget cannot be checked",
                            (long long)((unread + 1023) / 1024));
}

/* The reason of a prompt ASK on a host that can only block, with how to approve it: the
 * session parks the ASK under the prompt's key (context.tool_use_id), and either way of
 * approving applies its withheld updates. */
static const char *approval_hint(hook_run *r, const char *reason, const rp_json *policies)
{
    const char *prompt_key = rp_json_get_str(rp_json_get(&r->call.event, "context"), "tool_use_id");
    if (prompt_key == NULL || r->store == NULL)
        return reason;
    const char *askers[64];
    size_t n = 0;
    for (uint32_t i = 0; rp_json_is_array(policies) && i < policies->len && n < 64; i++)
        if (rp_json_is_string(&policies->v.items[i]))
            askers[n++] = policies->v.items[i].v.s;
    const char *key = rp_session_prompt_ask_key(&r->arena, prompt_key, askers, n);
    size_t len = strlen(reason);
    bool stop = len > 0 && strchr(".!?", reason[len - 1]) != NULL;
    return rp_arena_sprintf(&r->arena,
                            "%s%s To approve, send the same prompt again within %d minutes, or "
                            "run `rampart approve %s %s`.",
                            reason, stop ? "" : ".", RP_SESSION_RESEND_APPROVAL_S / 60,
                            r->call.session_id, key);
}

/* The verdict the adapter answers for a decision. An ALLOW whose content a policy rewrote
 * carries the redacting policies' reasons, so that an answer that cannot apply the rewrite
 * says which policy and which findings. */
static rp_hook_verdict verdict_of(const rp_decision *d)
{
    rp_hook_verdict v = {.result = d->result == RP_ABSTAIN ? RP_ALLOW : d->result,
                         .reason = d->reason};
    v.data = d->data && d->data->type != RP_JSON_NULL ? d->data : NULL;
    if (v.result == RP_ALLOW)
        v.reason = v.data ? d->redaction : NULL;
    if (v.result != RP_ALLOW && (v.reason == NULL || v.reason[0] == '\0'))
        v.reason = v.result == RP_DENY ? "denied by rampart" : "rampart asks for approval";
    return v;
}

/* rp_session_opts.tell: the answer is decided from the decision before the session audits it,
 * and the audit records what that answer told the host. */
static void tell(void *self, const rp_decision *d, rp_session_told *told)
{
    hook_run *r = self;
    rp_hook_verdict v = verdict_of(d);
    /* A prompt ASK on a host that can only block: say how to approve it. */
    if (v.result == RP_ASK && r->call.phase == RP_HOOK_PROMPT && !r->call.can_ask) {
        rp_json askers = rp_json_make_array();
        for (size_t i = 0; i < d->n_policies; i++)
            rp_json_array_push(&r->arena, &askers, rp_json_make_string_ref(d->policies[i]));
        v.reason = approval_hint(r, v.reason, &askers);
    }
    render(r->o.host, &r->call, &v, r->settings, &r->arena, &r->answer);
    r->answered = true;
    /* The session commits this answer's state and audit row next: the deadline must not
     * answer otherwise after the COMMIT (issue 16). Until here, its answer ends the process
     * with the transaction open, and nothing is committed. */
    rp_hook_deadline_claim();
    if (r->answer.told != v.result || r->answer.told_reason != v.reason) {
        told->result = r->answer.told;
        told->reason = r->answer.told_reason;
        told->redacted = told->redacted && r->answer.told == RP_ALLOW;
    } else if (v.result == RP_ASK && told->reason == d->reason) {
        told->reason = v.reason; /* with how to approve it */
    }
}

/* Everything after a successful parse: spend, evaluation, the answer. */
static void decide(hook_run *r)
{
    rp_hook_call *call = &r->call;
    const rp_hook_adapter *host = r->o.host;
    char err[768] = "";
    rp_hook_verdict v;

    /* An over-long identifier is refused before the transcript's spend can store it. */
    rp_event ids;
    if (rp_event_from_json(&call->event, &ids) && !rp_event_check_ids(&ids, err, sizeof err)) {
        v = error_verdict(
            r->cfg, call->phase, call->can_ask,
            rp_arena_sprintf(&r->arena, "rampart: the %s event is malformed: %s", host->name, err));
        if (v.internal_error && !rp_hook_phase_protects(call->phase))
            fprintf(stderr, "rampart hook: %s\n", v.reason);
        render(host, call, &v, r->settings, &r->arena, &r->answer);
        return;
    }

    rp_session_needs_of(r->cfg, &r->needs);
    if (r->pricing == NULL) {
        r->own_pricing.config_pricing = r->cfg->pricing;
        r->pricing = &r->own_pricing;
    }

    /* The store: the probe's when it was opened for the same directory. Every evaluated call
     * opens it, whatever its policies: its audit row, its session's ledger link and the
     * transcript's spend are written for every one (docs/architecture-store.md, "When a process
     * opens the store"); a call that is not evaluated has returned before here. */
    const char *dir = r->o.state_dir ? r->o.state_dir : r->cfg->state_dir;
    const char *store_problem = NULL;
    if (r->store) {
        /* the caller's (rp_hook_answer_in_process) */
    } else if (r->probe.store && (r->o.state_dir || !r->cfg->state_dir)) {
        r->store = r->probe.store;
        r->probe.store = NULL;
    } else {
        r->store = rp_store_open_sqlite(dir, err, sizeof err);
        if (r->store == NULL)
            store_problem = rp_arena_sprintf(&r->arena, "the state store cannot be opened: %s",
                                             err[0] ? err : "unknown error");
    }

    const char *spend_unknown = record_transcript(r);
    if (r->store && call->usage && !rp_json_get(&call->event, "data"))
        rp_json_object_set(&r->arena, &call->event, "data", *call->usage);

    rp_session_opts opts = {
        .store = r->store,
        /* A post-tool ASK cannot be put to anyone (the tool already ran): it is surfaced as
         * feedback and its state updates apply, as a DENY's would, so that detect_thrashing's
         * window keeps the failure that tripped it (omnigent-policies.md §2.4). */
        .on_ask =
            call->phase == RP_HOOK_POST_TOOL ? RP_SESSION_ON_ASK_APPROVE : RP_SESSION_ON_ASK_REPORT,
        .audit = r->store != NULL,
        .store_unavailable = store_problem,
        .is_trusted = hook_trusted,
        .trust_self = r,
        .warn = store_warn,
        .prompt_resend_approves = call->phase == RP_HOOK_PROMPT && !call->can_ask,
        .tell = tell,
        .tell_self = r,
        .spend_unknown = spend_unknown,
        .pricing = r->pricing,
        .needs = &r->needs,
    };
    /* The tree the adapter built goes to the session as it is, and the decision comes back as
     * rp_decision: no JSON text in between (issue 17). */
    rp_decision d;
    rp_session_status st =
        rp_session_eval_event(r->cfg, &opts, &call->event, &r->arena, &d, err, sizeof err);
    if (st == RP_SESSION_BAD_EVENT) {
        v = error_verdict(
            r->cfg, call->phase, call->can_ask,
            rp_arena_sprintf(&r->arena, "rampart: the %s event is malformed: %s", host->name, err));
    } else if (st == RP_SESSION_STORE_ERROR) {
        /* The session answered with on_error; shape it like every other error (an ASK only
         * where the host can ask, nothing that blocks on the fail-safe phases). */
        v = error_verdict(r->cfg, call->phase, call->can_ask, d.reason);
        fprintf(stderr, "rampart hook: state store error: %s\n",
                store_problem ? store_problem
                : err[0]      ? err
                              : "unknown");
    } else {
        v = verdict_of(&d); /* tell() answered already, as audited */
    }

    if (st == RP_SESSION_OK && r->answered)
        return; /* answered in tell(), as audited */
    if (v.internal_error && !rp_hook_phase_protects(call->phase) && v.reason)
        fprintf(stderr, "rampart hook: %s\n", v.reason);
    render(host, call, &v, r->settings, &r->arena, &r->answer);
}

static int finish(hook_run *r)
{
    rp_hook_deadline_disarm();
    fwrite(r->answer.out.data ? r->answer.out.data : "", 1, r->answer.out.len, stdout);
    fflush(stdout);
    fwrite(r->answer.err.data ? r->answer.err.data : "", 1, r->answer.err.len, stderr);
    return r->answer.exit_code;
}

/* An answer before (or instead of) a parsed call: the adapter's form for `phase`. */
static void answer_error(hook_run *r, rp_hook_phase phase, const char *reason)
{
    rp_hook_call *call = &r->call;
    call->phase = phase;
    /* The error may quote the payload or the config (a value): redacted like any reason. */
    reason = rp_redact_text(&r->arena, reason);
    rp_hook_verdict v = error_verdict(r->cfg, phase, call->can_ask, reason);
    render(r->o.host, call, &v, r->settings, &r->arena, &r->answer);
    if (!rp_hook_phase_protects(phase))
        rp_buf_printf(&r->answer.err, "rampart hook: %s\n", reason);
}

static void answer_input(hook_run *r, int64_t deadline_ms);

static int hook_run_main(hook_run *r)
{
    const rp_hook_adapter *host = r->o.host;
    char err[768] = "";
    int64_t deadline_ms = host->deadline_ms;

    /* Until the payload says otherwise, the call is a pre-tool call: the form that blocks. */
    r->call.phase = RP_HOOK_PRE_TOOL;
    arm_fallback(host, &r->call, NULL, NULL, deadline_ms, &r->arena);
    rp_hook_deadline_arm(deadline_ms);

    if (rp_clock_check_env(err, sizeof err) != 0) {
        answer_error(r, RP_HOOK_PRE_TOOL,
                     rp_arena_sprintf(&r->arena, "rampart: RAMPART_NOW: %s", err));
        return finish(r);
    }
    if (read_input(&r->input, err, sizeof err) != 0) {
        answer_error(r, RP_HOOK_PRE_TOOL, rp_arena_sprintf(&r->arena, "rampart: %s", err));
        return finish(r);
    }

    r->probe = (rp_config_trust_probe){.prog = "rampart hook", .dir = r->o.state_dir};
    r->cfg = rp_config_load_stack(r->o.configs, r->o.n_configs, &r->probe, false);
    if (r->cfg->n_errors == 0) {
        r->settings = rp_config_host(r->cfg, host->name);
        if (r->settings && r->settings->deadline_ms > 0)
            deadline_ms = r->settings->deadline_ms;
    }

    answer_input(r, deadline_ms);
    return finish(r);
}

/* From the host's payload (r->input) to the answer in r->answer, the config loaded. */
static void answer_input(hook_run *r, int64_t deadline_ms)
{
    const rp_hook_adapter *host = r->o.host;
    char err[768] = "";
    rp_json_error jerr;
    rp_json *payload =
        rp_json_parse(&r->arena, r->input.data ? r->input.data : "", r->input.len, &jerr);
    if (payload == NULL) {
        answer_error(r, RP_HOOK_PRE_TOOL,
                     rp_arena_sprintf(&r->arena,
                                      "rampart: the hook input is not JSON (line %d, column %d: "
                                      "%s)",
                                      jerr.line, jerr.col, jerr.msg));
        return;
    }

    char home_cwd[PATH_MAX];
    rp_hook_env env = {
        .config_user = r->cfg->n_errors == 0 ? r->cfg->user : NULL,
        .os_user = os_user(),
        .home = getenv("HOME"),
        .process_cwd = getcwd(home_cwd, sizeof home_cwd),
        .subagents = r->cfg->n_errors == 0 ? r->cfg->subagents : NULL,
    };
    r->payload = payload;
    int parsed = host->parse(payload, &env, &r->arena, &r->call, err, sizeof err);
    if (r->call.phase == RP_HOOK_IGNORED && parsed == 0)
        return; /* nothing to say */
    arm_fallback(host, &r->call, r->cfg->n_errors == 0 ? r->cfg : NULL, r->settings, deadline_ms,
                 &r->arena);
    if (!r->in_process)
        rp_hook_deadline_arm(deadline_ms);

    if (r->cfg->n_errors > 0) {
        rp_buf line = {0};
        for (size_t i = 0; i < r->cfg->n_diags; i++)
            if (!r->cfg->diags[i].warning) {
                rp_diag_format(&r->cfg->diags[i], &line);
                break;
            }
        rp_config_print_diags(r->cfg, stderr);
        const char *why = rp_arena_sprintf(&r->arena, "rampart: configuration error: %s",
                                           line.data ? line.data : "unknown");
        rp_buf_free(&line);
        rp_config *bad = r->cfg;
        r->cfg = NULL; /* its on_error is not to be trusted */
        answer_error(r, r->call.phase, why);
        r->cfg = bad;
        return;
    }
    if (parsed != 0) {
        answer_error(
            r, r->call.phase,
            rp_arena_sprintf(&r->arena, "rampart: bad %s hook input: %s", host->name, err));
        return;
    }
    decide(r);
}

int rp_hook_run(const rp_hook_options *o)
{
    hook_run r = {0};
    r.o = *o;
    rp_arena_init(&r.arena, 64 * 1024);
    int status = hook_run_main(&r);
    if (r.store)
        rp_store_close(r.store);
    if (r.probe.store)
        rp_store_close(r.probe.store);
    rp_cost_pricing_once_free(&r.own_pricing);
    if (r.cfg)
        rp_config_free(r.cfg);
    rp_buf_free(&r.input);
    rp_buf_free(&r.answer.out);
    rp_buf_free(&r.answer.err);
    rp_arena_free(&r.arena);
    return status;
}

int rp_hook_answer_in_process(const rp_hook_in_process *o, const char *input, size_t len,
                              rp_hook_answer *out)
{
    hook_run r = {0};
    r.o.host = o->host;
    r.in_process = true;
    r.cfg = (rp_config *)o->cfg;
    r.store = o->store;
    r.pricing = o->pricing;
    rp_arena_init(&r.arena, 64 * 1024);
    rp_buf_append(&r.input, input, len);
    r.settings = r.cfg->n_errors == 0 ? rp_config_host(r.cfg, o->host->name) : NULL;
    r.call.phase = RP_HOOK_PRE_TOOL;
    answer_input(&r, o->host->deadline_ms);
    if (r.store && r.store != o->store)
        rp_store_close(r.store);
    rp_buf_reset(&out->out);
    rp_buf_reset(&out->err);
    rp_buf_append(&out->out, r.answer.out.data ? r.answer.out.data : "", r.answer.out.len);
    rp_buf_append(&out->err, r.answer.err.data ? r.answer.err.data : "", r.answer.err.len);
    out->exit_code = r.answer.exit_code;
    rp_cost_pricing_once_free(&r.own_pricing);
    rp_buf_free(&r.input);
    rp_buf_free(&r.answer.out);
    rp_buf_free(&r.answer.err);
    rp_arena_free(&r.arena);
    return out->exit_code;
}
