/* host.h — the contract between `rampart hook` (src/hosts/hook.c) and the per-host adapters
 * (src/hosts/<host>.c, one file per host).
 *
 * An adapter is two pure functions. `parse` turns the host's stdin JSON into a PolicyEvent (the
 * shape rp_session_eval reads; docs/hosts.md lists its fields) plus what the hook needs to know
 * about the call: its phase (which decides fail-closed or fail-safe), whether the host can ask
 * or rewrite here, the transcript to read spend from. `answer` turns the decision back into the
 * exact bytes the host expects: stdout, stderr and the exit code. Neither does I/O; the hook
 * does the reading, the clock, the store and the deadline. */
#ifndef RAMPART_HOSTS_HOST_H
#define RAMPART_HOSTS_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "config/config.h"
#include "engine/policy.h"

/* What kind of host event this is. It decides what an error means: on the protecting phases
 * (PRE_TOOL, PROMPT) an error is a DENY (or the config's on_error); on the others it is logged
 * and the host is told nothing that blocks (blocking a Stop would keep the agent running). */
typedef enum rp_hook_phase {
    RP_HOOK_PRE_TOOL = 0, /* a tool is about to run: tool_call */
    RP_HOOK_PROMPT,       /* the user submitted a prompt: request */
    RP_HOOK_POST_TOOL,    /* a tool ran (or failed): tool_result */
    RP_HOOK_SESSION_START,
    RP_HOOK_SESSION_END,
    RP_HOOK_STOP,         /* the agent (or a sub-agent) finished a turn: stop */
    RP_HOOK_LLM_REQUEST,  /* Gemini BeforeModel */
    RP_HOOK_LLM_RESPONSE, /* Gemini AfterModel, Pi/opencode usage reports */
    RP_HOOK_IGNORED       /* an event rampart does not evaluate (Notification, ...): say nothing */
} rp_hook_phase;

/* True for the phases where an error must block. */
bool rp_hook_phase_protects(rp_hook_phase p);
const char *rp_hook_phase_name(rp_hook_phase p); /* "pre-tool", "prompt", ... */

/* What the adapter gets besides the payload. Every pointer may be NULL. */
typedef struct rp_hook_env {
    const char *config_user;  /* the config's `user:` (wins over everything) */
    const char *os_user;      /* the OS login name (the last fallback for context.user) */
    const char *home;         /* $HOME, for context.home */
    const char *process_cwd;  /* the hook's own working directory, when the payload has no cwd */
    const rp_json *subagents; /* the config's subagents: block (purposes map), or NULL */
} rp_hook_env;

/* One parsed host call. Everything lives in the arena passed to parse. */
typedef struct rp_hook_call {
    rp_hook_phase phase;
    const char *host_event; /* the host's own event name as received: "PreToolUse", ... */
    rp_json event;          /* the PolicyEvent (an object); unused when phase is IGNORED */
    const char *session_id; /* the event's session_id (never NULL after a successful parse) */
    const char *tool_name;  /* the host's tool name, or NULL */
    /* The tool input exactly as the host sent it (an object), for answers that must send the
     * whole input back (Claude's updatedInput replaces all of tool_input). NULL if none. */
    const rp_json *tool_input;
    /* A tool_result's output exactly as the host sent it (its event data is the normalised
     * {result, is_error}, src/hosts/tool_result.h), for answers that must send a rewritten
     * output back in the host's own shape (Claude's updatedToolOutput). NULL if none. */
    const rp_json *tool_output;
    bool can_ask;     /* the host can put an ASK to a person for this event */
    bool can_rewrite; /* the host accepts a rewritten input (REDACT) for this event */
    /* The session transcript (Claude Code), rollout file (Codex) or chat recording (Gemini),
     * read for spend by src/cli/hook_spend.c. */
    const char *transcript_path;
    /* Usage the host reported with this event (Gemini AfterModel usageMetadata, Pi/opencode
     * `usage`), already in the shape rp_cost_usage_from_llm_response reads: {usage:{...}, model,
     * id}. The hook records it through the ledger. NULL if none. */
    const rp_json *usage;
} rp_hook_call;

/* The decision, reduced to what an answer needs. */
typedef struct rp_hook_verdict {
    rp_verdict result;   /* RP_ALLOW, RP_ASK or RP_DENY */
    const char *reason;  /* non-empty on ASK and DENY */
    const rp_json *data; /* a rewrite (REDACT): the new event `data`, or NULL */
    /* Set when rampart could not decide (bad config, store error, deadline, bad stdin) and the
     * verdict is the fail-closed substitute; answers may word it differently. */
    bool internal_error;
} rp_hook_verdict;

/* The exact answer: stdout bytes, stderr bytes, exit code. Owned by the caller (rp_buf_free). */
typedef struct rp_hook_answer {
    rp_buf out;
    rp_buf err;
    int exit_code;
    /* What the host was told, for the audit: the hook sets it to the verdict before `answer`;
     * an adapter that answers something else (a rewrite it cannot apply, an ASK the host
     * cannot put) records that with rp_hook_told. */
    rp_verdict told;
    const char *told_reason;
} rp_hook_answer;

typedef struct rp_hook_adapter {
    const char *name;    /* "claude-code", "codex", "cursor", "gemini", "pi", "opencode" */
    const char *harness; /* context.harness: "claude-code", "codex-native", ... */
    int64_t deadline_ms; /* default per-event deadline, below the host's own timeout */
    /* Parses the host payload (any JSON value; not necessarily an object). Returns 0, or -1
     * with err naming the problem ("tool_input must be an object"). On -1, call->phase and
     * call->host_event are still set as far as they could be read (RP_HOOK_PRE_TOOL when the
     * event name itself is unreadable), so that the error is answered in the right form. */
    int (*parse)(const rp_json *payload, const rp_hook_env *env, rp_arena *a, rp_hook_call *call,
                 char *err, size_t err_size);
    /* Writes the answer to `v` for `call` (whose phase is not IGNORED; an IGNORED call is
     * answered with nothing by the hook). settings may be NULL (all defaults). Never fails. */
    void (*answer)(const rp_hook_call *call, const rp_hook_verdict *v,
                   const rp_host_settings *settings, rp_arena *a, rp_hook_answer *out);
} rp_hook_adapter;

/* The adapters, by name; NULL if unknown. */
const rp_hook_adapter *rp_hook_host_find(const char *name);
const rp_hook_adapter *const *rp_hook_host_all(size_t *count);

/* ---- helpers shared by the adapters (src/hosts/host.c) ---- */

/* call->tool_name (`tool_name`, a non-empty string) and call->tool_input (input_key, an
 * object) of a tool event; -1 with err naming the field when either is missing or mistyped. */
int rp_hook_read_tool(const rp_json *payload, const char *input_key, rp_hook_call *call, char *err,
                      size_t err_size);

/* The ASK key of a prompt (its context.tool_use_id): "prompt:" + the first 32 hex digits of
 * SHA-256 of its text, so that the same prompt sent again finds its pending ASK. */
const char *rp_hook_prompt_key(rp_arena *a, const char *prompt);

/* Records in out that the host is told `result` with `reason`, not the verdict it was given. */
void rp_hook_told(rp_hook_answer *out, rp_verdict result, const char *reason);

/* Appends v as compact JSON and a newline: every host reads one line. */
void rp_hook_write_line(rp_buf *out, const rp_json *v);

/* Writes the message to err and returns -1, for `return rp_hook_fail(err, size, "...")`. */
int rp_hook_fail(char *err, size_t err_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* *out = obj.key when a non-empty string; NULL when absent, null or ""; -1 with err ("cwd must
 * be a string, not integer") for another type. */
int rp_hook_opt_str(const rp_json *obj, const char *key, const char **out, char *err,
                    size_t err_size);

/* context.user: the config's user, else the host's own (may be NULL), else the OS user. */
const char *rp_hook_user(const rp_hook_env *env, const char *host_user);

/* The purpose of a sub-agent type: subagents.purposes[type], else the defaults (Explore →
 * explore, Plan → review, general-purpose → implement), else NULL. */
const char *rp_hook_subagent_purpose(const rp_hook_env *env, const char *subagent_type);

/* A stable key for a call that has no host id: "h:" + the first 32 hex digits of SHA-256 over
 * the canonical (sorted-key) JSON of {tool, input}. The pre-tool and post-tool events of one
 * call get the same key, so a pending ASK is found again. */
const char *rp_hook_call_key(rp_arena *a, const char *tool_name, const rp_json *tool_input);

#endif
