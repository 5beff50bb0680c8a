// extensions.mjs — checks the Pi extension and the opencode plugin against the real binary:
//   node integrations/tests/extensions.mjs RAMPART_BIN REPO_ROOT
// It copies the two .ts files (written in the TypeScript that is also JavaScript) to a
// temporary directory as .mjs, checks that each exports only what its host loads (opencode
// calls every export of a plugin file as a plugin; Pi loads the default export), drives their
// handlers with fake Pi/opencode objects, and runs six rounds: rampart answering (every
// verdict, a rewrite, usage), what the extensions send (recorded: the hosts' error signals,
// opencode's MCP tools), rampart missing, answering garbage and too slow (3 s), where tool
// calls and prompts must be blocked, and the files `rampart install HOST -c FILE` writes, which
// run this binary with that config whatever RAMPART_BIN says.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync, chmodSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [bin, root] = process.argv.slice(2);
const mode = process.argv[4] || "all";
if (!bin || !root) {
  console.error("usage: node extensions.mjs RAMPART_BIN REPO_ROOT");
  process.exit(2);
}
if (mode === "all") {
  // Each round in its own directory and process, with the extensions' RAMPART_COMMAND line set
  // to the round's binary (they read nothing else: no environment variable overrides it).
  const dir = mkdtempSync(join(tmpdir(), "rampart-ext-"));
  mkdirSync(join(dir, "state"));
  const script = (name, body) => {
    const p = join(dir, name);
    writeFileSync(p, "#!/bin/sh\n" + body + "\n");
    chmodSync(p, 0o755);
    return p;
  };
  const rounds = {
    real: script("wrap.sh", `exec "${bin}" "$@" -c "${root}/tests/data/hosts/config.yaml" --state-dir "${dir}/state"`),
    record: script("record.sh", `cat >>"${dir}/record.jsonl"; echo >>"${dir}/record.jsonl"; echo '{"result":"ALLOW","reason":null}'`),
    missing: join(dir, "no-such-rampart"),
    garbage: script("garbage.sh", "cat >/dev/null; echo not json"),
    slow: script("slow.sh", "cat >/dev/null; sleep 5"),
    installed: null, // the files `rampart install HOST -c FILE` writes, as they are
  };
  const home = join(dir, "home");
  const homeEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_STATE_HOME: join(home, ".state") };
  mkdirSync(home);
  const line = /^const RAMPART_COMMAND = .*$/m;
  let failed = 0;
  for (const [round, rb] of Object.entries(rounds)) {
    const rdir = join(dir, round);
    mkdirSync(rdir);
    for (const [host, file] of [["pi", "pi.mjs"], ["opencode", "oc.mjs"]]) {
      let text;
      if (rb) {
        text = readFileSync(join(root, `integrations/${host}/rampart.ts`), "utf8");
        assert.match(text, line, `integrations/${host}/rampart.ts has its RAMPART_COMMAND line`);
        text = text.replace(line, `const RAMPART_COMMAND = ${JSON.stringify([rb])};`);
      } else {
        const r = spawnSync(bin, ["install", host, "-c", join(root, "tests/data/hosts/config.yaml"), "--dry-run"],
                            { env: homeEnv, encoding: "utf8" });
        assert.equal(r.status, 0, r.stderr);
        text = r.stdout;
      }
      writeFileSync(join(rdir, file), text);
    }
    copyFileSync(new URL(import.meta.url).pathname, join(rdir, "run.mjs"));
    const r = spawnSync(process.execPath, [join(rdir, "run.mjs"), bin, root, round], {
      env: { ...(rb ? process.env : homeEnv), RAMPART_BIN: join(dir, "no-such-rampart"), RECORD: join(dir, "record.jsonl") },
      encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    if (r.status === 0) console.log(`ok   - extensions: ${round}`);
    else { failed++; console.log(`FAIL - extensions: ${round}\n${r.stdout}${r.stderr}`); }
  }
  process.exit(failed ? 1 : 0);
}
process.env.RAMPART_NOW = "2026-12-01T10:00:00Z";
const piModule = await import("./pi.mjs");
const ocModule = await import("./oc.mjs");
// Exactly the plugin: opencode calls every export as a plugin, Pi loads the default export.
assert.deepEqual(Object.keys(ocModule), ["RampartPlugin"]);
for (const v of Object.values(ocModule)) assert.equal(typeof v, "function");
assert.deepEqual(Object.keys(piModule), ["default"]);
assert.equal(typeof piModule.default, "function");
const pi = piModule.default;
const { RampartPlugin } = ocModule;
const handlers = {};
pi({ on: (n, f) => { handlers[n] = f; } });
assert.deepEqual(Object.keys(handlers).sort(), ["input","message_end","session_shutdown","session_start","tool_call","tool_result","turn_end"]);
const notes = [];
const ctx = (confirm) => ({ cwd: "/w", hasUI: confirm !== undefined, sessionManager: { getSessionId: () => "js-s1" },
  ui: { confirm: async () => confirm, notify: (m) => notes.push(m) } });
const plugin = await RampartPlugin({ directory: "/w" });
if (mode === "installed") {
  // `rampart install HOST -c FILE`: this binary with that config (its marker policy denies);
  // RAMPART_BIN, set to a missing binary by the caller, changes nothing.
  assert.equal(await handlers.tool_call({ toolName: "bash", toolCallId: "i1", input: { command: "ls" } }, ctx()), undefined);
  assert.deepEqual(await handlers.tool_call({ toolName: "bash", toolCallId: "i2", input: { command: "echo DENYME" } }, ctx()),
    { block: true, reason: "marker: DENYME seen in tool_call" });
  await plugin["tool.execute.before"]({ tool: "bash", sessionID: "oci", callID: "i1" }, { args: { command: "ls" } });
  await assert.rejects(plugin["tool.execute.before"]({ tool: "bash", sessionID: "oci", callID: "i2" }, { args: { command: "echo DENYME" } }), /^Error: marker: DENYME seen in tool_call$/);
  console.log("installed ok");
} else if (mode === "real") {
  assert.equal(await handlers.tool_call({ toolName: "bash", toolCallId: "t1", input: { command: "ls" } }, ctx()), undefined);
  assert.deepEqual(await handlers.tool_call({ toolName: "bash", toolCallId: "t2", input: { command: "echo DENYME" } }, ctx()),
    { block: true, reason: "marker: DENYME seen in tool_call" });
  assert.deepEqual(await handlers.tool_call({ toolName: "bash", toolCallId: "t3", input: { command: "echo ASKME" } }, ctx(false)),
    { block: true, reason: "declined: markers: marker: ASKME seen in tool_call" });
  assert.equal(await handlers.tool_call({ toolName: "bash", toolCallId: "t4", input: { command: "echo ASKME" } }, ctx(true)), undefined);
  assert.deepEqual(await handlers.tool_call({ toolName: "bash", toolCallId: "t5", input: { command: "echo ASKME" } }, ctx()),
    { block: true, reason: "markers: marker: ASKME seen in tool_call (rampart asks for approval, and there is no UI to ask in)" });
  const ev = { toolName: "write", toolCallId: "t6", input: { path: "/w/.env", content: "K=AKIAIOSFODNN7EXAMPLF" } };
  assert.equal(await handlers.tool_call(ev, ctx()), undefined);
  assert.equal(ev.input.content, "K=[REDACTED:aws_access_key_id]");
  assert.deepEqual(await handlers.tool_result({ toolName: "bash", toolCallId: "t1", input: { command: "ls" }, content: [{ type: "text", text: "DENYME" }], isError: false }, ctx()),
    { content: [{ type: "text", text: "rampart withheld this output: marker: DENYME seen in tool_result" }], isError: true });
  assert.equal(await handlers.tool_result({ toolName: "bash", toolCallId: "t1", input: { command: "ls" }, content: [{ type: "text", text: "ok" }] }, ctx()), undefined);
  assert.deepEqual(await handlers.input({ text: "hello" }, ctx()), { action: "continue" });
  assert.deepEqual(await handlers.input({ text: "DENYME" }, ctx()), { action: "handled" });
  // Pi sends a prompt as it is when its input handler throws: a confirmation that fails blocks
  // (the prompt and the tool call), it does not throw.
  const broken = { cwd: "/w", hasUI: true, sessionManager: { getSessionId: () => "js-s1" },
    ui: { confirm: async () => { throw new Error("no tty"); }, notify: (m) => notes.push(m) } };
  assert.deepEqual(await handlers.input({ text: "ASKME" }, broken), { action: "handled" });
  assert.equal((await handlers.tool_call({ toolName: "bash", toolCallId: "t7", input: { command: "echo ASKME" } }, broken)).block, true);
  const throwing = { get text() { throw new Error("bad event"); } };
  assert.deepEqual(await handlers.input(throwing, ctx()), { action: "handled" });
  // A secret in a prompt is redacted, not blocked: Pi sends the transformed text.
  assert.deepEqual(await handlers.input({ text: "use key AKIAIOSFODNN7EXAMPLF", source: "interactive" }, ctx()),
    { action: "transform", text: "use key [REDACTED:aws_access_key_id]" });
  assert.equal(await handlers.message_end({ message: { role: "assistant", model: "claude-sonnet-4-5", responseId: "r1", usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, cost: { total: 0.5 } } } }, ctx()), undefined);
  assert.equal(await handlers.turn_end({}, ctx()), undefined);
  // opencode
  const out = { args: { command: "ls" } };
  await plugin["tool.execute.before"]({ tool: "bash", sessionID: "oc1", callID: "c1" }, out);
  await assert.rejects(plugin["tool.execute.before"]({ tool: "bash", sessionID: "oc1", callID: "c2" }, { args: { command: "echo DENYME" } }), /^Error: marker: DENYME seen in tool_call$/);
  await assert.rejects(plugin["tool.execute.before"]({ tool: "bash", sessionID: "oc1", callID: "c3" }, { args: { command: "echo ASKME" } }), /rampart asks for approval: markers: marker: ASKME/);
  process.env.RAMPART_OPENCODE_ASK = "allow";
  await plugin["tool.execute.before"]({ tool: "bash", sessionID: "oc1", callID: "c4" }, { args: { command: "echo ASKME" } });
  delete process.env.RAMPART_OPENCODE_ASK;
  const w = { args: { filePath: "/w/.env", content: "K=AKIAIOSFODNN7EXAMPLF" } };
  await plugin["tool.execute.before"]({ tool: "write", sessionID: "oc1", callID: "c5" }, w);
  assert.equal(w.args.content, "K=[REDACTED:aws_access_key_id]");
  const res = { title: "", output: "DENYME here", metadata: {} };
  await plugin["tool.execute.after"]({ tool: "bash", sessionID: "oc1", callID: "c1" }, res);
  assert.equal(res.output, "rampart withheld this output: marker: DENYME seen in tool_result");
  await plugin["chat.message"]({ sessionID: "oc1" }, { message: {}, parts: [{ type: "text", text: "hello" }] });
  await assert.rejects(plugin["chat.message"]({ sessionID: "oc1" }, { parts: [{ type: "text", text: "DENYME" }] }), /marker: DENYME seen in request/);
  await plugin.event({ event: { type: "session.idle", properties: { sessionID: "oc1" } } });
  await plugin.event({ event: { type: "message.updated", properties: { info: { id: "msg1", sessionID: "oc1", role: "assistant", modelID: "claude-sonnet-4-5", cost: 0.01, time: { completed: 1 }, tokens: { input: 5, output: 6, reasoning: 1, cache: { read: 2, write: 0 } } } } } });
  console.log("real ok");
} else if (mode === "record") {
  const { readFileSync } = await import("node:fs");
  const sent = () => readFileSync(process.env.RECORD, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
  // Pi: its isError is forwarded when Pi gives it, and only then.
  await handlers.tool_result({ toolName: "bash", toolCallId: "t1", input: { command: "ls /x" }, content: [{ type: "text", text: "ls: cannot access" }], isError: true }, ctx());
  await handlers.tool_result({ toolName: "bash", toolCallId: "t2", input: { command: "ls" }, content: [{ type: "text", text: "a" }] }, ctx());
  // opencode: a shell's metadata.exit; an MCP result's isError and text.
  const client = { mcp: { status: async () => ({ data: { github: { status: "connected" }, "my server": { status: "failed" } } }) } };
  const oc = await RampartPlugin({ directory: "/w", client });
  await oc["tool.execute.after"]({ tool: "bash", sessionID: "oc1", callID: "c1", args: { command: "ls /x" } },
    { title: "ls /x", metadata: { output: "ls: cannot access", exit: 2, truncated: false }, output: "ls: cannot access" });
  await oc["tool.execute.after"]({ tool: "bash", sessionID: "oc1", callID: "c2", args: { command: "ls" } },
    { title: "ls", metadata: { output: "a", exit: 0 }, output: "a" });
  await oc["tool.execute.after"]({ tool: "read", sessionID: "oc1", callID: "c3", args: { filePath: "/w/a" } },
    { title: "a", metadata: {}, output: "text" });
  // opencode names MCP tools <server>_<tool> (the server sanitized): the plugin says which.
  await oc["tool.execute.before"]({ tool: "github_create_pull_request", sessionID: "oc1", callID: "c4" }, { args: { owner: "o", repo: "r" } });
  await oc["tool.execute.before"]({ tool: "my_server_do_it", sessionID: "oc1", callID: "c5" }, { args: {} });
  await oc["tool.execute.before"]({ tool: "read", sessionID: "oc1", callID: "c6" }, { args: { filePath: "/w/a" } });
  const mcpOut = { content: [{ type: "text", text: "no such repo" }], isError: true };
  await oc["tool.execute.after"]({ tool: "github_create_pull_request", sessionID: "oc1", callID: "c4", args: { owner: "o", repo: "r" } }, mcpOut);
  const s = sent();
  const pick = (k) => s.map((p) => p[k]);
  assert.deepEqual(pick("is_error"), [true, undefined, true, false, undefined, undefined, undefined, undefined, true]);
  assert.deepEqual(pick("mcp"), [undefined, undefined, undefined, undefined, undefined,
    { server: "github", tool: "create_pull_request" }, { server: "my server", tool: "do_it" }, undefined,
    { server: "github", tool: "create_pull_request" }]);
  assert.equal(s[8].output, "no such repo");
  // opencode's MCP servers cannot be listed: a name that may be an MCP tool's is blocked (under
  // its plain name it would escape the MCP policies); a name without "_" still goes to rampart.
  const broken = await RampartPlugin({ directory: "/w", client: { mcp: { status: async () => { throw new Error("down"); } } } });
  await assert.rejects(broken["tool.execute.before"]({ tool: "github_create_pull_request", sessionID: "oc2", callID: "d1" }, { args: { owner: "o", repo: "r" } }),
    /MCP servers could not be listed, so github_create_pull_request may be an MCP tool rampart cannot judge; blocked to be safe/);
  await broken["tool.execute.before"]({ tool: "read", sessionID: "oc2", callID: "d2" }, { args: { filePath: "/w/a" } });
  assert.equal(sent().length, s.length + 1);
  console.log("record ok");
} else {
  // rampart missing, answering garbage, or too slow: tool calls and prompts are blocked.
  const want = { missing: /rampart could not be run/, garbage: /rampart's answer is not JSON/, slow: /did not answer within 3 s/ }[mode];
  const r = await handlers.tool_call({ toolName: "bash", toolCallId: "t1", input: { command: "ls" } }, ctx());
  assert.equal(r.block, true); assert.match(r.reason, want); assert.match(r.reason, /blocked to be safe$/);
  assert.deepEqual(await handlers.input({ text: "hello" }, ctx()), { action: "handled" });
  assert.equal(await handlers.turn_end({}, ctx()), undefined);
  assert.equal(await handlers.tool_result({ toolName: "bash", toolCallId: "t1", input: {}, content: [] }, ctx()), undefined);
  await assert.rejects(plugin["tool.execute.before"]({ tool: "bash", sessionID: "oc1", callID: "c1" }, { args: { command: "ls" } }), want);
  await assert.rejects(plugin["chat.message"]({ sessionID: "oc1" }, { parts: [{ type: "text", text: "hi" }] }), want);
  await plugin.event({ event: { type: "session.idle", properties: { sessionID: "oc1" } } });
  console.log(mode, "ok");
}
