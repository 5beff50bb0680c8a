// openai.mjs — the OpenAI Responses API (POST .../responses, SSE or JSON) and Chat Completions
// (POST .../chat/completions, SSE or JSON), playing the scenario steps of script.mjs.
//
// Usage is reported the OpenAI way: input_tokens (prompt_tokens) INCLUDES the cached tokens,
// output_tokens INCLUDES the reasoning tokens. The recorded entry keeps both the raw numbers and
// the split a ledger should hold: input = 1000+n uncached + cached, cache_read = cached.
import { findScenario, stepAt, usageFor, record, pickTool } from "./script.mjs";

export const api = "openai";

export function match(method, path) {
  return method === "POST" && /\/(responses|chat\/completions)$/.test(path);
}

const SHELL_NAMES = ["shell", "exec_command", "bash", "Bash", "shell_command", "local_shell"];

// A tool's name and JSON-schema parameters, whatever the wire shape ({type:"function", name,
// parameters} in Responses, {type:"function", function:{name, parameters}} in chat).
function toolList(tools) {
  const out = [];
  for (const t of tools || []) {
    if (t.function) out.push({ name: t.function.name, params: t.function.parameters, type: t.type });
    else if (t.name) out.push({ name: t.name, params: t.parameters, type: t.type });
    else if (t.type === "local_shell") out.push({ name: "local_shell", params: null, type: t.type });
    // Namespaced tools (a group of functions under one name): list each as namespace__name.
    if (Array.isArray(t.tools)) for (const s of t.tools) out.push({ name: `${t.name}__${s.name}`, params: s.parameters, type: s.type, ns: t.name, inner: s.name });
  }
  return out;
}

// The shell tool's arguments, shaped by its schema: an argv array, `cmd` or `command` string.
function shellArgs(tool, cmd) {
  const props = (tool.params && tool.params.properties) || {};
  const a = {};
  if (props.command && props.command.type === "array") a.command = ["bash", "-lc", cmd];
  else if (props.cmd) a.cmd = cmd;
  else a.command = cmd;
  if (props.description) a.description = "scripted step";
  return a;
}

// The tool call {name, args} for a step, or null when the request registered no fitting tool.
function toolCall(step, tools) {
  const names = tools.map((t) => t.name);
  if (step.shell !== undefined) {
    const name = pickTool(names, SHELL_NAMES, /shell|bash|exec/i);
    if (!name) return null;
    const tool = tools.find((t) => t.name === name);
    return { name, tool, cmd: step.shell, args: shellArgs(tool, step.shell) };
  }
  if (step.tool) {
    const tool = tools.find((t) => t.name === step.tool.name);
    return tool ? { name: tool.name, tool, args: step.tool.args || {} } : null;
  }
  if (step.mcp) {
    const { server, tool, args } = step.mcp;
    const name = pickTool(names, [`mcp__${server}__${tool}`, `${server}__${tool}`, `mcp_${server}_${tool}`, `${server}_${tool}`],
                          new RegExp(`(^|_)${tool}$`));
    if (!name) return null;
    return { name, tool: tools.find((t) => t.name === name), args: args || {} };
  }
  return null;
}

// ---- Responses API ----

const textOf = (v) => JSON.stringify(v ?? "");

// Steps answered since the first input item carrying the scenario's token.
function answeredResponses(input, id) {
  const token = `[[scenario:${id}]]`;
  const items = Array.isArray(input) ? input : [];
  const first = items.findIndex((it) => (it.role === "user" || it.type === "message") && textOf(it.content).includes(token));
  let n = 0;
  for (const it of items.slice(first < 0 ? 0 : first + 1)) {
    if (/_call_output$/.test(it.type || "")) n++;
    else if (it.type === "message" && it.role === "assistant") n++;
  }
  return n;
}

function responsesItem(call, id, index, step) {
  const tag = `${id.replace(/[^A-Za-z0-9]/g, "")}_${index}`;
  if (!call) return { type: "message", id: `msg_${tag}`, role: "assistant", status: "completed",
                      content: [{ type: "output_text", text: step.text ?? "no tool for this step", annotations: [] }] };
  if (call.tool && call.tool.type === "local_shell")
    return { type: "local_shell_call", id: `lsh_${tag}`, call_id: `call_${tag}`, status: "completed",
             action: { type: "exec", command: ["bash", "-lc", call.cmd] } };
  if (call.tool && call.tool.ns)
    return { type: "function_call", id: `fc_${tag}`, call_id: `call_${tag}`, namespace: call.tool.ns, name: call.tool.inner,
             arguments: JSON.stringify(call.args), status: "completed" };
  return { type: "function_call", id: `fc_${tag}`, call_id: `call_${tag}`, name: call.name,
           arguments: JSON.stringify(call.args), status: "completed" };
}

function plan(body, entry, list, answeredFn) {
  // The token of the user's own messages (a tool call's arguments may quote another).
  const items = Array.isArray(list) ? list : [];
  entry.scenario = findScenario(items.filter((m) => m.role === "user").map((m) => textOf(m.content)).join("\n"));
  const id = entry.scenario;
  const tools = toolList(body.tools);
  if (!id || !tools.length) { entry.side = true; return { id: null, call: null, step: { text: "Scripted session" } }; }
  const { index, step } = stepAt(id, answeredFn(list, id));
  entry.step = index;
  const call = step.text === undefined ? toolCall(step, tools) : null;
  if (!call && step.text === undefined) entry.error = `no tool for step ${index} among ${tools.map((t) => t.name)}`;
  return { id, call, step, index };
}

function usageRecord(id, model, path) {
  const u = usageFor(id);
  const cached = id ? u.cached : 0;
  const thinking = id ? u.thinking : 0;
  // input_tokens counts the cached ones too, output_tokens the reasoning ones.
  const rawIn = u.input + cached, rawOut = u.output + thinking;
  record(id, { response_id: null, model, input: u.input, cache_read: cached, output: rawOut, reasoning: thinking,
               raw_input: rawIn, raw_output: rawOut, path });
  return { u, rawIn, rawOut, cached, thinking };
}

function sseWrite(res, events) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const e of events) res.write(e.type ? `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n` : `data: ${e}\n\n`);
  res.end();
}

async function responses({ res, body, entry, path }) {
  const { id, call, step, index } = plan(body, entry, body.input, answeredResponses);
  const model = body.model || "gpt-5";
  const item = id ? responsesItem(call, id, index, step)
                  : { type: "message", id: "msg_side", role: "assistant", status: "completed",
                      content: [{ type: "output_text", text: "Scripted session", annotations: [] }] };
  const { u, rawIn, rawOut, cached, thinking } = usageRecord(id, model, path);
  const respId = `resp_${id ? id.replace(/[^A-Za-z0-9]/g, "") : "side"}_${u.n}`;
  const usage = { input_tokens: rawIn, input_tokens_details: { cached_tokens: cached },
                  output_tokens: rawOut, output_tokens_details: { reasoning_tokens: thinking },
                  total_tokens: rawIn + rawOut };
  const response = { id: respId, object: "response", created_at: Math.floor(Date.now() / 1000), status: "completed",
                     model, output: [item], usage };
  if (body.stream === false) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(response));
    return;
  }
  const events = [{ type: "response.created", response: { ...response, status: "in_progress", output: [], usage: null } },
                  { type: "response.output_item.added", output_index: 0, item: { ...item, status: "in_progress" } }];
  if (item.type === "message") {
    const text = item.content[0].text;
    events.push({ type: "response.content_part.added", item_id: item.id, output_index: 0, content_index: 0,
                  part: { type: "output_text", text: "", annotations: [] } });
    events.push({ type: "response.output_text.delta", item_id: item.id, output_index: 0, content_index: 0, delta: text });
    events.push({ type: "response.output_text.done", item_id: item.id, output_index: 0, content_index: 0, text });
    events.push({ type: "response.content_part.done", item_id: item.id, output_index: 0, content_index: 0,
                  part: item.content[0] });
  } else if (item.type === "function_call") {
    events.push({ type: "response.function_call_arguments.delta", item_id: item.id, output_index: 0, delta: item.arguments });
    events.push({ type: "response.function_call_arguments.done", item_id: item.id, output_index: 0, arguments: item.arguments });
  }
  events.push({ type: "response.output_item.done", output_index: 0, item });
  events.push({ type: "response.completed", response });
  sseWrite(res, events);
}

// ---- Chat Completions ----

function answeredChat(messages, id) {
  const token = `[[scenario:${id}]]`;
  const ms = Array.isArray(messages) ? messages : [];
  const first = ms.findIndex((m) => m.role === "user" && textOf(m.content).includes(token));
  let n = 0;
  for (const m of ms.slice(first < 0 ? 0 : first + 1)) {
    if (m.role === "tool") n++;
    else if (m.role === "assistant" && !(m.tool_calls && m.tool_calls.length)) n++;
  }
  return n;
}

async function chat({ res, body, entry, path }) {
  const { id, call, step, index } = plan(body, entry, body.messages, answeredChat);
  const model = body.model || "gpt-4.1";
  const { u, rawIn, rawOut, cached, thinking } = usageRecord(id, model, path);
  const cid = `chatcmpl_${id ? id.replace(/[^A-Za-z0-9]/g, "") : "side"}_${u.n}`;
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: rawIn, completion_tokens: rawOut, total_tokens: rawIn + rawOut,
                  prompt_tokens_details: { cached_tokens: cached }, completion_tokens_details: { reasoning_tokens: thinking } };
  const tc = call ? { id: `call_${id.replace(/[^A-Za-z0-9]/g, "")}_${index}`, type: "function",
                      function: { name: call.name, arguments: JSON.stringify(call.args) } } : null;
  const text = call ? null : (step.text ?? "no tool for this step");
  const finish = call ? "tool_calls" : "stop";
  if (!body.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id: cid, object: "chat.completion", created, model, usage,
      choices: [{ index: 0, finish_reason: finish, message: { role: "assistant", content: text, ...(tc ? { tool_calls: [tc] } : {}) } }] }));
    return;
  }
  const chunk = (delta, finish_reason = null, extra = {}) =>
    JSON.stringify({ id: cid, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason }], ...extra });
  const events = [chunk({ role: "assistant", content: tc ? null : "" })];
  if (tc) events.push(chunk({ tool_calls: [{ index: 0, ...tc }] }));
  else events.push(chunk({ content: text }));
  events.push(chunk({}, finish));
  events.push(JSON.stringify({ id: cid, object: "chat.completion.chunk", created, model, choices: [], usage }));
  events.push("[DONE]");
  sseWrite(res, events);
}

export async function handle(x) {
  x.body = x.body && typeof x.body === "object" ? x.body : {};
  if (x.path.endsWith("/responses")) return responses(x);
  return chat(x);
}
