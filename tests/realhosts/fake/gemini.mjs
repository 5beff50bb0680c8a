// gemini.mjs — the Gemini API (generativelanguage v1beta) as Gemini CLI calls it:
//   POST /v1beta/models/MODEL:generateContent            one JSON response
//   POST /v1beta/models/MODEL:streamGenerateContent?alt=sse   the same, as SSE chunks
//   POST /v1beta/models/MODEL:countTokens                 a token count (side)
//
// A step becomes one model turn: a functionCall part (the shell tool or an MCP tool, by the
// names in the request's tools[].functionDeclarations) or text parts. Streamed answers are cut
// into several chunks like the real API's: every chunk carries usageMetadata (the prompt count
// from the first chunk on, the candidates count growing), only the last carries finishReason and
// the complete usage; rampart must count each response once, with its cached and thinking
// tokens. The answered steps of a conversation are its functionResponse parts plus its model
// turns that carried only text, after the user turn carrying the scenario's token.
import * as script from "./script.mjs";

export const api = "gemini";

const PATH_RE = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;

export function match(method, path) {
  return method === "POST" && PATH_RE.test(path);
}

function declaredTools(body) {
  const names = [];
  for (const t of body?.tools || []) for (const f of t.functionDeclarations || []) if (f?.name) names.push(f.name);
  return names;
}

function answered(body, id) {
  const token = `[[scenario:${id}]]`;
  const contents = body?.contents || [];
  // Counted from the user turn that carries the token: an earlier turn of a resumed session
  // played another scenario.
  const first = contents.findIndex((c) => c.role === "user" && JSON.stringify(c.parts || []).includes(token));
  let n = 0;
  for (const c of contents.slice(first < 0 ? 0 : first + 1)) {
    const parts = c.parts || [];
    n += parts.filter((p) => p.functionResponse).length;
    if (c.role === "model" && parts.length && parts.every((p) => typeof p.text === "string" && !p.thought)) n++;
  }
  return n;
}

// A side request that asks for JSON (the model router, a next-speaker check) gets an object
// with every required property of its schema filled, so the host does not retry it.
function jsonAnswer(schema) {
  const fill = (s) => {
    const t = String(s?.type || "").toUpperCase();
    if (t === "OBJECT") {
      const o = {};
      for (const k of s.required || Object.keys(s.properties || {})) o[k] = fill((s.properties || {})[k]);
      return o;
    }
    if (t === "ARRAY") return [];
    if (t === "INTEGER" || t === "NUMBER") return 1;
    if (t === "BOOLEAN") return false;
    return "ok";
  };
  return JSON.stringify(fill(schema || { type: "OBJECT" }));
}

// The model turn's parts for a step, with the request's own tool names.
function partsFor(step, tools) {
  if (step.shell !== undefined) {
    const name = pickShell(tools);
    if (!name) return noTool("a shell tool", tools);
    return [{ functionCall: { name, args: { command: step.shell } } }];
  }
  if (step.mcp) {
    const { server, tool, args } = step.mcp;
    const name = script.pickTool(tools, [`mcp_${server}_${tool}`, `${server}__${tool}`, tool],
                                 new RegExp(`${tool.replace(/[^A-Za-z0-9_]/g, "")}$`));
    if (!name) return noTool(`the MCP tool ${server}/${tool}`, tools);
    return [{ functionCall: { name, args: args || {} } }];
  }
  return [{ text: String(step.text ?? script.FINAL_TEXT) }];
}

// A step the host offers no tool for ends the turn with a text saying so (an HTTP error would
// only make the host retry until its timeout); the checks then fail with this in the log.
function noTool(what, tools) {
  return [{ text: `fake gemini: the request offers no ${what} (tools: ${tools.join(", ")})` }];
}

function pickShell(tools) {
  return script.pickTool(tools, ["run_shell_command", "shell"], /shell/i);
}

// usageMetadata as the API reports it: promptTokenCount includes the cached tokens,
// totalTokenCount includes the thinking tokens.
function usageMetadata(u) {
  const prompt = u.input + u.cached;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: u.output,
    ...(u.cached ? { cachedContentTokenCount: u.cached } : {}),
    ...(u.thinking ? { thoughtsTokenCount: u.thinking } : {}),
    totalTokenCount: prompt + u.output + u.thinking,
  };
}

// Splits a text turn into up to three streamed chunks; a function call stays one chunk.
function chunksOf(parts) {
  if (parts.length !== 1 || typeof parts[0].text !== "string" || parts[0].text.length < 3) return [parts];
  const t = parts[0].text, a = Math.floor(t.length / 3), b = Math.floor((2 * t.length) / 3);
  return [[{ text: t.slice(0, a) }], [{ text: t.slice(a, b) }], [{ text: t.slice(b) }]];
}

export async function handle({ res, path, url, body, entry }) {
  const [, pathModel, method] = PATH_RE.exec(path);
  if (method === "countTokens") {
    entry.side = true;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ totalTokens: 10 }));
    return;
  }
  const model = pathModel.startsWith("gemini-") ? pathModel : "gemini-2.5-flash";
  const tools = declaredTools(body);
  const id = entry.scenario;
  let parts;
  if (!id || tools.length === 0) {
    entry.side = true;
    const cfg = body?.generationConfig || {};
    parts = [{ text: cfg.responseMimeType === "application/json"
      ? jsonAnswer(cfg.responseJsonSchema || cfg.responseSchema) : "ok" }];
  } else {
    const { index, step } = script.stepAt(id, answered(body, id));
    entry.step = index;
    parts = partsFor(step, tools);
  }
  const key = entry.side ? null : id;
  const u = script.usageFor(key);
  const responseId = `fake-gemini-${key || "side"}-${u.n}`;
  script.record(key, { model, input: u.input, output: u.output, cache_read: u.cached, cache_write: 0,
                       cached: u.cached, thinking: u.thinking, response_id: responseId });
  const full = usageMetadata(u);
  const chunk = (p, last) => ({
    candidates: [{ content: { role: "model", parts: p }, index: 0, ...(last ? { finishReason: "STOP" } : {}) }],
    usageMetadata: last ? full : { promptTokenCount: full.promptTokenCount, totalTokenCount: full.promptTokenCount },
    modelVersion: model,
    responseId,
  });
  if (method === "generateContent") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(chunk(parts, true)));
    return;
  }
  if (url.searchParams.get("alt") !== "sse") throw new Error("gemini: streamGenerateContent without alt=sse");
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const all = chunksOf(parts);
  all.forEach((p, i) => res.write(`data: ${JSON.stringify(chunk(p, i === all.length - 1))}\r\n\r\n`));
  res.end();
}
