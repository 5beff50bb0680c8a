// rampart.ts — rampart's extension for the Pi coding agent.
//
// Install: `rampart install pi [-c FILE]` writes this file with RAMPART_COMMAND set (or copy it
// to ~/.pi/agent/extensions/rampart.ts, or .pi/extensions/ in a project, and /reload in Pi).
// Every tool call, tool result, prompt, usage report and session event goes to
// `rampart hook pi` (RAMPART_COMMAND below: the binary and its -c) as one JSON object
// on stdin; rampart answers one JSON line {"result":"ALLOW"|"ASK"|"DENY","reason",...} that
// this extension acts on. The protocol is documented in rampart's src/hosts/pi.c and
// integrations/README.md.
//
// Fail closed: when rampart cannot be run, does not answer within 3 s, or answers anything
// but that JSON, tool calls and prompts are BLOCKED with a reason naming the problem; the
// other events are only reported and never block.
//
// Written in the part of TypeScript that is also plain JavaScript (types are in JSDoc), so it
// needs no build step and no dependencies. Pi loads the default export; it is the only one.
import { spawnSync } from "node:child_process";

// The command: the binary, then its options (-c FILE). `rampart install` rewrites the next line
// with its own absolute path and the -c files it was given; there is deliberately no
// environment override (a variable set by whoever starts the host would switch rampart off).
const RAMPART_COMMAND = ["rampart"];
const BIN = RAMPART_COMMAND[0];
const OPTIONS = RAMPART_COMMAND.slice(1);
const TIMEOUT_MS = 3000;
const RESULTS = ["ALLOW", "ASK", "DENY"];

/**
 * Runs `rampart hook <host>` with payload on stdin.
 * @param {string} host
 * @param {Record<string, unknown>} payload
 * @returns {{answer?: {result: string, reason: string | null, input?: Record<string, unknown>}, problem?: string}}
 */
function runRampart(host, payload) {
  let r;
  try {
    r = spawnSync(BIN, ["hook", host, ...OPTIONS], {
      input: JSON.stringify(payload),
      encoding: "utf8",
      timeout: TIMEOUT_MS,
      shell: false,
      windowsHide: true,
      maxBuffer: 4 * 1024 * 1024,
    });
  } catch (e) {
    return { problem: `rampart could not be run (${BIN}): ${String(e && e.message ? e.message : e)}` };
  }
  if (r.error) {
    const code = /** @type {any} */ (r.error).code;
    if (code === "ETIMEDOUT")
      return { problem: `rampart (${BIN}) did not answer within ${TIMEOUT_MS / 1000} s` };
    return { problem: `rampart could not be run (${BIN}): ${r.error.message}` };
  }
  if (r.signal) return { problem: `rampart (${BIN}) was killed by ${r.signal}` };
  return parseAnswer(String(r.stdout || ""));
}

/**
 * Reads rampart's one JSON line.
 * @param {string} stdout
 */
function parseAnswer(stdout) {
  const text = stdout.trim();
  let answer;
  try {
    answer = JSON.parse(text);
  } catch (e) {
    return { problem: `rampart's answer is not JSON: ${JSON.stringify(text.slice(0, 200))}` };
  }
  if (answer === null || typeof answer !== "object" || Array.isArray(answer) ||
      !RESULTS.includes(answer.result))
    return { problem: `rampart's answer has no valid result: ${JSON.stringify(text.slice(0, 200))}` };
  if (answer.reason !== null && answer.reason !== undefined && typeof answer.reason !== "string")
    return { problem: "rampart's answer has a reason that is not a string" };
  if (answer.input !== undefined &&
      (answer.input === null || typeof answer.input !== "object" || Array.isArray(answer.input)))
    return { problem: "rampart's answer has an input that is not an object" };
  if (answer.prompt !== undefined && typeof answer.prompt !== "string")
    return { problem: "rampart's answer has a prompt that is not a string" };
  return { answer };
}

/** @param {any} ctx */
function sessionId(ctx) {
  try {
    const id = ctx && ctx.sessionManager && ctx.sessionManager.getSessionId
      ? ctx.sessionManager.getSessionId()
      : undefined;
    if (typeof id === "string" && id !== "") return id;
  } catch (e) {
    // fall through: a session id of our own
  }
  return `pi-${process.pid}`;
}

/** @param {any} ctx */
function base(ctx, event) {
  return { event, session_id: sessionId(ctx), cwd: (ctx && ctx.cwd) || process.cwd() };
}

/** @param {any} ctx @param {string} message */
function warn(ctx, message) {
  try {
    if (ctx && ctx.hasUI && ctx.ui && ctx.ui.notify) ctx.ui.notify(message, "warning");
    else console.error(message);
  } catch (e) {
    console.error(message);
  }
}

/** The text of a tool result's content blocks. @param {any} content */
function contentText(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content === undefined ? null : content;
  return content
    .filter((c) => c && c.type === "text" && typeof c.text === "string")
    .map((c) => c.text)
    .join("\n");
}

/**
 * Whether a gated event may go on: DENY no, ASK only when the person confirms.
 * @param {any} ctx
 * @param {{answer?: any, problem?: string}} r
 * @returns {Promise<{ok: boolean, reason: string}>}
 */
async function decide(ctx, r) {
  if (r.problem) return { ok: false, reason: `rampart: ${r.problem}; blocked to be safe` };
  const a = r.answer;
  const reason = a.reason || (a.result === "DENY" ? "denied by rampart" : "rampart asks for approval");
  if (a.result === "ALLOW") return { ok: true, reason: "" };
  if (a.result === "DENY") return { ok: false, reason };
  if (ctx && ctx.hasUI && ctx.ui && ctx.ui.confirm) {
    let yes = false;
    try {
      yes = (await ctx.ui.confirm("rampart", reason)) === true;
    } catch (e) {
      return { ok: false, reason: `${reason} (the confirmation failed: blocked to be safe)` };
    }
    return yes ? { ok: true, reason: "" } : { ok: false, reason: `declined: ${reason}` };
  }
  return { ok: false, reason: `${reason} (rampart asks for approval, and there is no UI to ask in)` };
}

/** @param {any} pi */
export default function (pi) {
  pi.on("tool_call", async (/** @type {any} */ event, /** @type {any} */ ctx) => {
    const r = runRampart("pi", {
      ...base(ctx, "tool_call"),
      tool_name: event.toolName,
      tool_call_id: event.toolCallId,
      input: event.input,
    });
    const d = await decide(ctx, r);
    if (!d.ok) return { block: true, reason: d.reason };
    if (r.answer && r.answer.input && event.input && typeof event.input === "object")
      Object.assign(event.input, r.answer.input); // a rewrite (e.g. a secret redacted)
    return undefined;
  });

  pi.on("tool_result", async (/** @type {any} */ event, /** @type {any} */ ctx) => {
    const r = runRampart("pi", {
      ...base(ctx, "tool_result"),
      tool_name: event.toolName,
      tool_call_id: event.toolCallId,
      input: event.input,
      output: contentText(event.content),
      // Pi's own failure signal; rampart falls back to reading the text only without it.
      ...(typeof event.isError === "boolean" ? { is_error: event.isError } : {}),
    });
    if (r.problem) {
      warn(ctx, `rampart: ${r.problem}`);
      return undefined;
    }
    if (r.answer.result === "ALLOW") return undefined;
    // The output is withheld from the model: the reason replaces it.
    return {
      content: [{ type: "text", text: `rampart withheld this output: ${r.answer.reason || "blocked"}` }],
      isError: true,
    };
  });

  // Pi sends the prompt as it is when an input handler throws: nothing here may throw.
  pi.on("input", async (/** @type {any} */ event, /** @type {any} */ ctx) => {
    try {
      const r = runRampart("pi", { ...base(ctx, "input"), prompt: String(event.text ?? "") });
      const d = await decide(ctx, r);
      if (!d.ok) {
        warn(ctx, `rampart blocked this prompt: ${d.reason}`);
        return { action: "handled" };
      }
      // A rewrite (a secret redacted): Pi sends the rewritten text instead.
      if (r.answer && typeof r.answer.prompt === "string")
        return { action: "transform", text: r.answer.prompt };
      return { action: "continue" };
    } catch (e) {
      warn(ctx, `rampart blocked this prompt: ${String(e && e.message ? e.message : e)}; blocked to be safe`);
      return { action: "handled" };
    }
  });

  pi.on("message_end", async (/** @type {any} */ event, /** @type {any} */ ctx) => {
    const m = event && event.message;
    if (!m || m.role !== "assistant" || !m.usage) return undefined;
    const sid = sessionId(ctx);
    const r = runRampart("pi", {
      ...base(ctx, "message_end"),
      model: m.model,
      message_id: m.responseId || m.id || `${sid}:${m.timestamp}`,
      usage: m.usage,
    });
    if (r.problem) warn(ctx, `rampart: usage not recorded: ${r.problem}`);
    return undefined;
  });

  for (const name of ["session_start", "session_shutdown", "turn_end"]) {
    pi.on(name, async (/** @type {any} */ _event, /** @type {any} */ ctx) => {
      const r = runRampart("pi", base(ctx, name));
      if (r.problem) warn(ctx, `rampart: ${r.problem}`);
      return undefined;
    });
  }
}
