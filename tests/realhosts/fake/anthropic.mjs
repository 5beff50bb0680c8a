// anthropic.mjs — the Anthropic Messages API (POST /v1/messages, SSE when `stream` is true, JSON
// otherwise) and /v1/messages/count_tokens, playing the scenario steps of script.mjs.
import { findScenario, stepAt, usageFor, record, pickTool } from "./script.mjs";

export const api = "anthropic";

export function match(method, path) {
  return method === "POST" && /\/v1\/messages(\/count_tokens)?$/.test(path);
}

const blocks = (m) => (Array.isArray(m.content) ? m.content : [{ type: "text", text: String(m.content ?? "") }]);

// Steps the conversation has answered since the scenario's first prompt: tool results, and
// assistant messages with text only (a finished {text} step).
export function answered(messages, id) {
  const token = `[[scenario:${id}]]`;
  const first = messages.findIndex((m) => m.role === "user" && JSON.stringify(m.content).includes(token));
  let n = 0;
  for (const m of messages.slice(first < 0 ? 0 : first + 1)) {
    const bs = blocks(m);
    if (m.role === "user") n += bs.filter((b) => b.type === "tool_result").length;
    else if (m.role === "assistant" && !bs.some((b) => b.type === "tool_use") && bs.some((b) => b.type === "text")) n++;
  }
  return n;
}

// The tool_use block for a step, with the tool names this request registered.
function toolUse(step, names, id, index) {
  const tid = `toolu_${id.replace(/[^A-Za-z0-9]/g, "")}_${index}`;
  if (step.shell !== undefined) {
    const tool = pickTool(names, ["Bash", "bash"], /shell|bash/i);
    if (!tool) return null;
    return { type: "tool_use", id: tid, name: tool, input: { command: step.shell, description: "scripted step" } };
  }
  if (step.tool) {
    if (!names.includes(step.tool.name)) return null;
    return { type: "tool_use", id: tid, name: step.tool.name, input: step.tool.args || {} };
  }
  if (step.mcp) {
    const { server, tool, args } = step.mcp;
    const name = pickTool(names, [`mcp__${server}__${tool}`], new RegExp(`(^|_)${tool}$`));
    if (!name) return null;
    return { type: "tool_use", id: tid, name, input: args || {} };
  }
  return null;
}

function sse(res, events) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": "req_fake" });
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

export async function handle({ res, path, body, entry }) {
  body = body && typeof body === "object" ? body : {};
  if (path.endsWith("/count_tokens")) {
    entry.side = true;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ input_tokens: 100 }));
    return;
  }
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const names = (body.tools || []).map((t) => t.name).filter(Boolean);
  // The token of the user's own text (a tool_use input or tool_result may quote another).
  entry.scenario = findScenario(messages.filter((m) => m.role === "user")
    .map((m) => blocks(m).filter((b) => b.type === "text").map((b) => b.text).join("\n")).join("\n"));
  let id = entry.scenario;
  let content;
  let stop = "end_turn";
  if (id && names.length) {
    const { index, step } = stepAt(id, answered(messages, id));
    entry.step = index;
    const use = step.text === undefined ? toolUse(step, names, id, index) : null;
    if (use) { content = [use]; stop = "tool_use"; }
    else if (step.text !== undefined) content = [{ type: "text", text: step.text }];
    else {
      content = [{ type: "text", text: `fake server: no tool for step ${index} among ${names.join(",")}` }];
      entry.error = content[0].text;
    }
  } else {
    // A side request (title, summary, warm-up, quota probe): a short plain answer.
    id = null;
    entry.side = true;
    content = [{ type: "text", text: "Scripted session" }];
  }
  const u = usageFor(id);
  const model = body.model || "claude-sonnet-4-5";
  const msgId = `msg_fake_${id ? id.replace(/[^A-Za-z0-9]/g, "") : "side"}_${u.n}`;
  const usage = { input_tokens: u.input, cache_creation_input_tokens: u.cache_write,
                  cache_read_input_tokens: u.cache_read, output_tokens: u.output };
  record(id, { response_id: msgId, model, input: u.input, output: u.output, cache_read: u.cache_read,
               cache_write: u.cache_write, path });
  if (!body.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id: msgId, type: "message", role: "assistant", model, content,
                             stop_reason: stop, stop_sequence: null, usage }));
    return;
  }
  // As the real API streams: message_start carries the input side and output 1, message_delta
  // the final output count.
  const events = [["message_start", { type: "message_start", message: { id: msgId, type: "message", role: "assistant",
    model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }]];
  content.forEach((b, i) => {
    if (b.type === "text") {
      events.push(["content_block_start", { type: "content_block_start", index: i, content_block: { type: "text", text: "" } }]);
      events.push(["content_block_delta", { type: "content_block_delta", index: i, delta: { type: "text_delta", text: b.text } }]);
    } else {
      events.push(["content_block_start", { type: "content_block_start", index: i,
        content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } }]);
      events.push(["content_block_delta", { type: "content_block_delta", index: i,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) } }]);
    }
    events.push(["content_block_stop", { type: "content_block_stop", index: i }]);
  });
  events.push(["message_delta", { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: u.output } }]);
  events.push(["message_stop", { type: "message_stop" }]);
  sse(res, events);
}

