// script.mjs — the scenario registry and step logic every fake API shares.
//
// A scenario is {id, steps}; a step is {shell: "cmd"}, {mcp: {server, tool, args}}, {text: "..."}
// or {tool: {name, args}} (a host's own tool by its exact name, e.g. Claude Code's Agent). The driver puts the token [[scenario:<id>]] in the prompt; an API module finds
// it anywhere in a request and asks for the step to play. Stateless: the step index is the
// number of steps the conversation in the request has already answered — its tool results plus
// its assistant messages that carried only text (a {text} step ends a turn, and the next turn's
// request shows that answer). A request past the last step gets a final text.
//
// Usage bookkeeping: every response a module sends reports distinct, known token numbers
// (usageFor), and records them here, so that a check can compare `rampart spend` with what the
// "model" really reported (reported(id)).

const scenarios = new Map();
const reports = new Map(); // id -> [{model, input, output, cache_read, cache_write, cached, thinking, response_id}]
let counter = 0;

export const TOKEN_RE = /\[\[scenario:([A-Za-z0-9_.-]+)\]\]/;

export function register(steps, prefix = "s") {
  const id = `${prefix}${++counter}`;
  scenarios.set(id, { id, steps });
  reports.set(id, []);
  return id;
}

export function get(id) {
  return scenarios.get(id);
}

// The scenario token of a request. The server first searches the whole parsed body (so every
// API shape gets one); an API module then narrows it to the user's own messages (userTexts),
// since a tool call's input can quote another scenario's token (Claude's Agent prompt). The
// LAST token wins: a conversation that switched scenario (a second prompt in a resumed session)
// plays the newer one.
export function findScenario(body) {
  const text = typeof body === "string" ? body : JSON.stringify(body ?? "");
  const all = [...text.matchAll(new RegExp(TOKEN_RE.source, "g"))];
  for (let i = all.length - 1; i >= 0; i--) if (scenarios.has(all[i][1])) return all[i][1];
  return null;
}

export const FINAL_TEXT = "All steps done.";

// The step for a conversation that has already answered `answered` steps: {index, step}, where
// step is the scenario's step or {text: FINAL_TEXT, final: true} past the end.
export function stepAt(id, answered) {
  const sc = scenarios.get(id);
  if (!sc || answered >= sc.steps.length) return { index: answered, step: { text: FINAL_TEXT, final: true } };
  return { index: answered, step: sc.steps[answered] };
}

// Distinct usage per response: the n-th response of a scenario (n from 0) reports input 1000+n,
// output 20+n, cache read 300+n, cache creation 40+n (APIs without cache creation ignore it).
// Side requests (no scenario) report small fixed numbers and are recorded under "side".
export function usageFor(id) {
  const key = id || "side";
  if (!reports.has(key)) reports.set(key, []);
  const n = reports.get(key).length;
  if (!id) return { n, input: 10, output: 2, cache_read: 0, cache_write: 0, cached: 0, thinking: 0 };
  return { n, input: 1000 + n, output: 20 + n, cache_read: 300 + n, cache_write: 40 + n, cached: 300 + n, thinking: 5 + n };
}

// Records what a response reported (call once per response actually sent).
export function record(id, entry) {
  const key = id || "side";
  if (!reports.has(key)) reports.set(key, []);
  reports.get(key).push(entry);
}

export function reported(id) {
  return reports.get(id || "side") || [];
}

// A tool name among the request's registered tools: the first of `candidates` present, else the
// first tool whose name matches `re`; null when none.
export function pickTool(names, candidates, re) {
  for (const c of candidates) if (names.includes(c)) return c;
  if (re) for (const n of names) if (re.test(n)) return n;
  return null;
}
