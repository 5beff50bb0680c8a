// rampart.ts — rampart's plugin for opencode.
//
// Install: `rampart install opencode [-c FILE]` writes this file with RAMPART_COMMAND set (or
// copy it to ~/.config/opencode/plugin/rampart.ts, or .opencode/plugin/ in a project), and
// restart opencode. Every tool call, tool result, prompt, usage report and session event goes
// to `rampart hook opencode` (RAMPART_COMMAND below: the binary and its -c) as one JSON object
// on stdin; rampart answers one JSON line {"result":"ALLOW"|"ASK"|"DENY","reason",...} that
// this plugin acts on. The protocol is documented in rampart's src/hosts/pi.c and
// integrations/README.md.
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
// needs no build step and no dependencies. opencode calls every export of a plugin file as a
// plugin, so RampartPlugin is the only export; everything else is private to this file.
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
  return { answer };
}

/**
 * Throws unless a gated event may go on: a problem, DENY, or ASK (unless
 * RAMPART_OPENCODE_ASK=allow) throw an Error with the reason.
 * @param {{answer?: any, problem?: string}} r
 */
function enforce(r) {
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
 * What a tool result tells rampart: its text and opencode's own failure signal (is_error),
 * left out when opencode gave none. Built-in tools return {output, metadata} (bash: exit in
 * metadata); an MCP tool returns the MCP result {content: [...], isError?}.
 * @param {any} output
 */
function resultOf(output) {
  if (output && Array.isArray(output.content) && output.output === undefined) {
    const text = output.content
      .filter((/** @type {any} */ c) => c && c.type === "text" && typeof c.text === "string")
      .map((/** @type {any} */ c) => c.text)
      .join("\n");
    return { output: text, ...(typeof output.isError === "boolean" ? { is_error: output.isError } : {}) };
  }
  const exit = output && output.metadata ? output.metadata.exit : undefined;
  return {
    output: output && output.output !== undefined ? output.output : null,
    ...(typeof exit === "number" ? { is_error: exit !== 0 } : {}),
  };
}

/** opencode's MCP tool key part: the name with every character but [a-zA-Z0-9_-] as "_". */
function sanitize(/** @type {string} */ name) {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}

/**
 * {mcp: {server, tool}} when `tool` is an MCP tool, which opencode names
 * `<server>_<tool>` (both sanitized); {} otherwise. rampart then names the call
 * mcp__<server>__<tool>, the name its MCP policies (github_policy, permissions `mcp`) know.
 * @param {string} tool @param {string[]} servers
 */
function mcpOf(tool, servers) {
  let best = null;
  for (const server of servers) {
    const prefix = `${sanitize(server)}_`;
    if (typeof tool === "string" && tool.startsWith(prefix) && tool.length > prefix.length &&
        (!best || prefix.length > best.prefix.length))
      best = { server, prefix };
  }
  return best ? { mcp: { server: best.server, tool: tool.slice(best.prefix.length) } } : {};
}

const MCP_REFRESH_MS = 10000;

/**
 * The names of opencode's MCP servers, from the plugin's SDK client (client.mcp.status(),
 * which lists every configured server), and whether that list could be had (`ok`). Asked when a
 * tool name is not yet known: at once for a name that may be an MCP one (`<server>_<tool>` has an
 * underscore) or after a failed answer, else at most every 10 s; never for longer than 2 s.
 * @param {any} client
 */
function mcpServers(client) {
  /** @type {string[]} */
  let names = [];
  let asked = 0;
  let ok = false;
  const canAsk = !!(client && client.mcp && typeof client.mcp.status === "function");
  return async (/** @type {string} */ tool) => {
    const maybeMcp = typeof tool === "string" && tool.includes("_");
    if (Object.keys(mcpOf(tool, names)).length > 0 || !canAsk ||
        (ok && !maybeMcp && Date.now() - asked < MCP_REFRESH_MS))
      return { names, ok: ok || !canAsk };
    asked = Date.now();
    try {
      const r = await Promise.race([
        client.mcp.status(),
        new Promise((resolve) => setTimeout(() => resolve(null), 2000).unref()),
      ]);
      const data = r && typeof r === "object" && "data" in r ? r.data : r;
      ok = !!(data && typeof data === "object" && !Array.isArray(data));
      if (ok) names = Object.keys(data);
      else warn("rampart: opencode's MCP servers could not be listed: no answer within 2 s");
    } catch (e) {
      ok = false;
      warn(`rampart: opencode's MCP servers could not be listed: ${String(e && e.message ? e.message : e)}`);
    }
    return { names, ok };
  };
}

/**
 * Throws (blocks the call) when `tool` may be an MCP tool that rampart cannot name, because
 * opencode's MCP servers could not be listed: judged under its plain name, an MCP call would
 * escape the MCP policies (github_policy, permissions `mcp`). A name without an underscore is
 * never an MCP tool's.
 * @param {string} tool @param {{names: string[], ok: boolean}} known
 */
function refuseUnknownMcp(tool, known) {
  if (known.ok || typeof tool !== "string" || !tool.includes("_") ||
      Object.keys(mcpOf(tool, known.names)).length > 0)
    return;
  throw new Error(`rampart: opencode's MCP servers could not be listed, so ${tool} may be an MCP ` +
                  "tool rampart cannot judge; blocked to be safe");
}

/** @param {string} message */
function warn(message) {
  console.error(message);
}

/** @param {{directory?: string, client?: any}} ctx */
export const RampartPlugin = async ({ directory, client }) => {
  const cwd = directory || process.cwd();
  const servers = mcpServers(client);
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
      const known = await servers(input.tool);
      refuseUnknownMcp(input.tool, known);
      const r = runRampart("opencode", {
        ...base("tool.execute.before", input.sessionID),
        tool_name: input.tool,
        tool_call_id: input.callID,
        input: output.args,
        ...mcpOf(input.tool, known.names),
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
        ...resultOf(output),
        ...mcpOf(input.tool, (await servers(input.tool)).names),
      });
      if (r.problem) {
        warn(`rampart: ${r.problem}`);
        return;
      }
      if (r.answer.result === "ALLOW" || !output) return;
      const withheld = `rampart withheld this output: ${r.answer.reason || "blocked"}`;
      if (Array.isArray(output.content) && output.output === undefined)
        output.content = [{ type: "text", text: withheld }]; // an MCP result
      else output.output = withheld;
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
