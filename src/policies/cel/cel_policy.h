/* cel_policy.h — the pieces of the cel_policy builtin (cel_policy.c) shared with its result
 * interpreter (cel_policy_result.c) and with tests. */
#ifndef RAMPART_POLICIES_CEL_CEL_POLICY_H
#define RAMPART_POLICIES_CEL_CEL_POLICY_H

#include <stddef.h>

#include "cel/cel.h"
#include "engine/policy.h"

/* Turns the value an expression returned into a result (reference §5.27): a map whose
 * `result`, uppercased, is DENY, ASK or ALLOW, with an optional string `reason` (non-ALLOW
 * verdicts without one get fallback_reason) and optional `state_updates`. Anything else leaves
 * out->verdict RP_ABSTAIN. Computed updates of reserved keys are dropped; each drop is
 * described in *dropped (a "; "-joined arena string, NULL when none).
 *
 * Returns 0, or -1 with a message in err when the value is a CEL error or the state_updates
 * are malformed: the caller treats both as an evaluation error (on_error applies). On -1 out
 * holds no verdict and no updates. */
int rp_cel_policy_interpret(const cel_value *v, const char *fallback_reason, rp_arena *a,
                            rp_result *out, const char **dropped, char *err, size_t err_size);

#endif
