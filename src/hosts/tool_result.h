/* tool_result.h — the one shape of a tool_result event's data, whatever the host sent.
 *
 * Every host reports a tool's outcome its own way: Claude Code a {stdout, stderr, ...} object
 * or a separate failure event, Codex a string, Gemini {llmContent, returnDisplay, error} with
 * the exit code as text, Cursor a string or a failure event, Pi and opencode what rampart's
 * extension forwards. The policies read one shape (the reference's PolicyEvent):
 *
 *   data = {"result": TEXT, "is_error": BOOL}
 *
 * `result` is the text the model sees (or, for an output whose text rampart does not know how
 * to find, the host's value as it came); `is_error` is the host's own signal that the call
 * failed, omitted when the host gave none (then detect_thrashing falls back to the reference's
 * text heuristics). The adapters read the signal with the helpers below and build the data
 * with rp_hook_tool_result_data; a rewritten `result` goes back into the host's own output format
 * with rp_hook_tool_result_host_output. */
#ifndef RAMPART_HOSTS_TOOL_RESULT_H
#define RAMPART_HOSTS_TOOL_RESULT_H

#include "core/arena.h"
#include "core/json.h"

/* What the host said about the call. */
typedef enum rp_hook_tool_outcome {
    RP_HOOK_TOOL_UNKNOWN = 0, /* no signal: the text heuristics decide */
    RP_HOOK_TOOL_OK,
    RP_HOOK_TOOL_ERROR
} rp_hook_tool_outcome;

/* The text the model sees of a host's tool output `raw`: a string as it is; Claude's
 * {stdout, stderr}: stdout, stderr, or both joined by a newline; {llmContent} (Gemini) or
 * {output} (opencode, Cursor) when a string. NULL for any other shape. */
const char *rp_hook_tool_result_text(rp_arena *a, const rp_json *raw);

/* {"result": the text of raw (or raw itself when it has no known text; null when raw is NULL),
 *  "is_error": outcome (omitted when RP_HOOK_TOOL_UNKNOWN)}. */
rp_json rp_hook_tool_result_data(rp_arena *a, const rp_json *raw, rp_hook_tool_outcome outcome);

/* The host's output `raw` with the text of a rewritten event data `data` (its `result`) put
 * back where rp_hook_tool_result_text took it from: a string replaces a string; Claude's stdout
 * gets it (and a stderr that was joined into it is emptied); llmContent / output get it. When raw
 * had no known text, `result` itself. NULL when the rewrite cannot be expressed (no result, or
 * a result of the wrong type). */
const rp_json *rp_hook_tool_result_host_output(rp_arena *a, const rp_json *raw,
                                               const rp_json *data);

/* ---- the hosts' error signals ---- */

/* Claude Code PostToolUse tool_response (and Cursor's postToolUse tool_output): an error when
 * it carries `is_error` / `isError` true or `interrupted` true, else OK (a failed call comes as
 * PostToolUseFailure instead). */
rp_hook_tool_outcome rp_hook_tool_outcome_claude(const rp_json *response);

/* The exit status written into a tool's text output, as `label` followed by an integer:
 * Codex's exec output starts with it ("Exit code: 2", first_line: only the first line counts,
 * so that the command's own output cannot fake it); Gemini's shell output ends with it ("Exit
 * Code: 2" after the output: the last such line counts). ERROR when not 0, OK when 0, UNKNOWN
 * without such a line. */
rp_hook_tool_outcome rp_hook_tool_outcome_exit_line(const char *text, const char *label,
                                                    bool first_line);

#endif
