// rampart.ts — rampart's plugin for opencode.
//
// Install: copy this file to .opencode/plugin/rampart.ts in a project (or
// ~/.config/opencode/plugin/rampart.ts for every project) and restart opencode. Every tool
// call, tool result, prompt, usage report and session event goes to `rampart hook opencode`
// (RAMPART_BIN, default "rampart" on PATH) as one JSON object on stdin; rampart answers one
// JSON line {"result":"ALLOW"|"ASK"|"DENY","reason",...} that this plugin acts on. The protocol
// is documented in rampart's src/hosts/pi.c and integrations/README.md.
//
// DENY throws an Error with the reason, which blocks the call (or the prompt). ASK throws too,
// unless RAMPART_OPENCODE_ASK=allow, which leaves the call to opencode's own permission
// settings (its "ask" prompt). A rewrite (a secret redacted) is written into output.args.
//
// Fail closed: when rampart cannot be run, does not answer within 3 s, or answers anything
// but that JSON, tool calls and prompts are BLOCKED (an Error naming the problem); the other
// events are only reported and never block.
//
// Written in the part of TypeScript that is also plain JavaScript (types are in JSDoc), so it
// needs no build step and no dependencies.
import { spawnSync } from "node:child_process";

const BIN = process.env.RAMPART_BIN || "rampart";
const TIMEOUT_MS = 3000;
const RESULTS = ["ALLOW", "ASK", "DENY"];

/**
 * Runs `rampart hook <host>` with payload on stdin.
 * @param {string} host
 * @param {Record<string, unknown>} payload
 * @returns {{answer?: {result: string, reason: string | null, input?: Record<string, unknown>}, problem?: string}}
 */
export function runRampart(host, payload) {
  let r;
  try {
    r = spawnSync(BIN, ["hook", host], {
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
export function parseAnswer(stdout) {
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
  return { answer };
}

/**
 * Throws unless a gated event may go on: a problem, DENY, or ASK (unless
 * RAMPART_OPENCODE_ASK=allow) throw an Error with the reason.
 * @param {{answer?: any, problem?: string}} r
 */
export function enforce(r) {
  if (r.problem) throw new Error(`rampart: ${r.problem}; blocked to be safe`);
  const a = r.answer;
  if (a.result === "DENY") throw new Error(a.reason || "denied by rampart");
  if (a.result === "ASK" && process.env.RAMPART_OPENCODE_ASK !== "allow")
    throw new Error(`rampart asks for approval: ${a.reason || "no reason was given"} ` +
                    "(set RAMPART_OPENCODE_ASK=allow to leave such calls to opencode's own permission prompts)");
}

/** The text parts of a message. @param {any} parts */
function partsText(parts) {
  if (!Array.isArray(parts)) return "";
  return parts
    .filter((p) => p && p.type === "text" && typeof p.text === "string" && !p.synthetic)
    .map((p) => p.text)
    .join("\n");
}

/**
 * {is_error} from a tool result's metadata.exit (bash), or nothing when opencode gave none.
 * @param {any} output
 */
function exitError(output) {
  const exit = output && output.metadata ? output.metadata.exit : undefined;
  return typeof exit === "number" ? { is_error: exit !== 0 } : {};
}

/** @param {string} message */
function warn(message) {
  console.error(message);
}

/** @param {{directory?: string}} ctx */
export const RampartPlugin = async ({ directory }) => {
  const cwd = directory || process.cwd();
  /** The arguments of each running call, for tool.execute.after. @type {Map<string, any>} */
  const running = new Map();
  /** @param {string} event @param {string} sessionID */
  const base = (event, sessionID) => ({ event, session_id: sessionID, cwd });

  /** Reports an event that never blocks. @param {Record<string, unknown>} payload */
  const report = (payload) => {
    const r = runRampart("opencode", payload);
    if (r.problem) warn(`rampart: ${r.problem}`);
  };

  return {
    "tool.execute.before": async (/** @type {any} */ input, /** @type {any} */ output) => {
      const r = runRampart("opencode", {
        ...base("tool.execute.before", input.sessionID),
        tool_name: input.tool,
        tool_call_id: input.callID,
        input: output.args,
      });
      enforce(r);
      if (r.answer && r.answer.input && output.args && typeof output.args === "object")
        Object.assign(output.args, r.answer.input); // a rewrite (e.g. a secret redacted)
      if (input.callID) running.set(input.callID, output.args);
    },

    "tool.execute.after": async (/** @type {any} */ input, /** @type {any} */ output) => {
      const args = input.args !== undefined ? input.args : running.get(input.callID);
      running.delete(input.callID);
      const r = runRampart("opencode", {
        ...base("tool.execute.after", input.sessionID),
        tool_name: input.tool,
        tool_call_id: input.callID,
        input: args && typeof args === "object" ? args : undefined,
        output: output && output.output !== undefined ? output.output : null,
        // opencode's own failure signal: the exit status of a shell call (metadata.exit).
        ...exitError(output),
      });
      if (r.problem) {
        warn(`rampart: ${r.problem}`);
        return;
      }
      if (r.answer.result !== "ALLOW" && output)
        output.output = `rampart withheld this output: ${r.answer.reason || "blocked"}`;
    },

    "chat.message": async (/** @type {any} */ input, /** @type {any} */ output) => {
      const r = runRampart("opencode", {
        ...base("chat.message", input.sessionID),
        prompt: partsText(output && output.parts),
      });
      enforce(r);
    },

    event: async (/** @type {any} */ { event }) => {
      const p = (event && event.properties) || {};
      switch (event && event.type) {
        case "session.idle":
          report(base("session.idle", p.sessionID));
          break;
        case "session.created":
          report(base("session_start", p.info && p.info.id));
          break;
        case "session.deleted":
          report(base("session_shutdown", p.info && p.info.id));
          break;
        case "message.updated": {
          const m = p.info;
          // One report per finished assistant message; rampart drops a repeated id.
          if (!m || m.role !== "assistant" || !m.tokens || !(m.time && m.time.completed)) break;
          const t = m.tokens;
          report({
            ...base("message_end", m.sessionID),
            model: m.modelID,
            message_id: m.id,
            usage: {
              input: t.input || 0,
              output: (t.output || 0) + (t.reasoning || 0),
              cacheRead: (t.cache && t.cache.read) || 0,
              cacheWrite: (t.cache && t.cache.write) || 0,
              // Without a reported cost rampart prices the tokens from its table.
              ...(typeof m.cost === "number" ? { cost: { total: m.cost } } : {}),
            },
          });
          break;
        }
        default:
          break;
      }
    },
  };
};
