/* claude_shape.h — what the Claude Code, Codex and Cursor adapters share: the Claude-shaped
 * hook payload (Codex's hooks copy it, agent-hosts.md A.2.1), the answers written in that
 * shape, and the small readers every one of the three needs. Only these three adapters use it. */
#ifndef RAMPART_HOSTS_CLAUDE_SHAPE_H
#define RAMPART_HOSTS_CLAUDE_SHAPE_H

#include "hosts/hook_event.h"
#include "hosts/host.h"

/* The dialect of a Claude-shaped payload. */
typedef enum rp_hook_claude_dialect {
    RP_HOOK_DIALECT_CLAUDE = 0, /* Claude Code */
    RP_HOOK_DIALECT_CODEX       /* Codex: fewer events, apply_patch, no ASK */
} rp_hook_claude_dialect;

/* Parses a Claude Code or Codex payload (host.h's parse contract). */
int rp_hook_claude_shape_parse(const rp_hook_adapter *host, rp_hook_claude_dialect dialect,
                               const rp_json *payload, const rp_hook_env *env, rp_arena *a,
                               rp_hook_call *call, char *err, size_t err_size);

/* ---- readers (shared with Cursor) ---- */

/* Fails with err naming the first string or key of v (a dotted path such as
 * "tool_input.command") that holds U+0000. The readers and policies take strings up to their
 * first NUL, so such a value would be judged on its head while the host acts on all of it; the
 * adapters refuse it on the phases that protect. */
int rp_hook_shape_reject_nul(const rp_json *v, char *err, size_t err_size);

/* ---- answers ---- */

/* {"hookSpecificOutput":{"hookEventName":EVENT,"permissionDecision":DECISION (when not NULL),
 * "permissionDecisionReason":REASON (when non-empty and DECISION is set),"updatedInput":UPDATED
 * (when not NULL)}}\n. A NULL DECISION with UPDATED is Claude Code's bare rewrite: the input is
 * replaced and Claude's own permission rules and prompts still decide. */
void rp_hook_shape_write_decision(rp_buf *out, rp_arena *a, const char *event, const char *decision,
                                  const char *reason, const rp_json *updated);

/* {"decision":"block","reason":REASON}\n */
void rp_hook_shape_write_block(rp_buf *out, rp_arena *a, const char *reason);

/* The whole new tool input for a rewrite `data` (the new event data) of `call`: each field of
 * the host's tool_input replaced by its rewritten value, the fields rampart added to the
 * event's arguments (apply_patch paths, the dispatch purpose) left out, fields a policy added
 * kept, fields a policy removed dropped. NULL when the rewrite cannot be expressed (no tool
 * input, rewritten arguments not an object). */
const rp_json *rp_hook_shape_updated_input(rp_arena *a, const rp_hook_call *call,
                                           const rp_json *data);

/* "PREFIX: " + reason, or PREFIX + ": a policy rewrote it" without one. */
const char *rp_hook_shape_rewrite_reason(rp_arena *a, const char *prefix, const char *reason);

#endif
