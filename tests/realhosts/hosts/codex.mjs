// codex.mjs — Codex CLI (`codex exec`) against the fake OpenAI Responses API. Codex runs a hook
// only once the user trusted its hash: the test trusts rampart's hooks as a user would, from the
// hashes `codex app-server` reports (hooks/list), written to config.toml's [hooks.state].
import { join } from "node:path";
import { readFileSync, writeFileSync, appendFileSync } from "node:fs";
import { plan, checkPlan, checkSpend } from "../lib.mjs";

export const name = "codex";
export const host = "codex";

const MODEL = "gpt-5"; // priced by rampart; the fake API answers with the asked model
const q = (s) => JSON.stringify(s); // a TOML basic string (paths and URLs need no other escape)

// Codex's view of its hooks for `cwd`: [{key, currentHash, trustStatus, eventName, ...}].
async function listHooks(ctx, env, cwd) {
  const input = [
    { jsonrpc: "2.0", id: 1, method: "initialize", params: { clientInfo: { name: "rampart-realhosts", version: "1" } } },
    { jsonrpc: "2.0", method: "initialized" },
    { jsonrpc: "2.0", id: 2, method: "hooks/list", params: { cwds: [cwd] } },
  ].map((m) => JSON.stringify(m) + "\n").join("");
  const r = await ctx.exec(ctx.bin("codex"), ["app-server"], { env, cwd, input, timeout: 30_000,
    until: (out) => out.split("\n").some((l) => l.startsWith('{"id":2,')) });
  const line = r.stdout.split("\n").find((l) => l.startsWith('{"id":2,'));
  if (!line) throw new Error(`codex app-server hooks/list: no answer: ${r.stderr.slice(-500)}`);
  const msg = JSON.parse(line);
  if (msg.error) throw new Error(`codex app-server hooks/list: ${JSON.stringify(msg.error)}`);
  return msg.result.data.flatMap((d) => d.hooks);
}

export async function run(ctx) {
  const { root, home, project, env: base } = ctx.newHome();
  const codexHome = join(home, ".codex");
  const env = { ...base, CODEX_HOME: codexHome, FAKE_OPENAI_KEY: "sk-fake-realhosts", RUST_LOG: "error" };
  const mcpLog = join(root, "mcp.log");
  const config = join(codexHome, "config.toml");

  const inst = ctx.rampartCli(env, ["install", host, "-c", ctx.config]);
  writeFileSync(config, [
    `model = ${q(MODEL)}`,
    `model_provider = "fake"`,
    `approval_policy = "never"`,
    `sandbox_mode = "danger-full-access"`,
    `check_for_update_on_startup = false`,
    ``,
    `[model_providers.fake]`,
    `name = "fake"`,
    `base_url = ${q(ctx.server.url + "/v1")}`,
    `wire_api = "responses"`,
    `env_key = "FAKE_OPENAI_KEY"`,
    `request_max_retries = 0`,
    `stream_max_retries = 0`,
    ``,
    `[mcp_servers.github]`,
    `command = ${q(ctx.node)}`,
    `args = [${q(ctx.mcpServer)}]`,
    `env = { FAKE_MCP_LOG = ${q(mcpLog)} }`,
    ``,
  ].join("\n"));
  // Trust rampart's hooks the way Codex records a user's trust.
  let hooks = [];
  let trustErr = "";
  try {
    hooks = (await listHooks(ctx, env, project)).filter((h) => (h.command || "").includes(ctx.rampart));
    appendFileSync(config, hooks.map((h) => `[hooks.state.${q(h.key)}]\ntrusted_hash = ${q(h.currentHash)}\n`).join("\n"));
    const after = await listHooks(ctx, env, project);
    const untrusted = after.filter((h) => (h.command || "").includes(ctx.rampart) && h.trustStatus !== "trusted");
    if (!hooks.length) trustErr = "codex lists no rampart hook";
    else if (untrusted.length) trustErr = `still not trusted: ${untrusted.map((h) => `${h.key} ${h.trustStatus}`).join(", ")}`;
  } catch (e) {
    trustErr = String(e.message || e);
  }
  const doc = ctx.rampartCli(env, ["doctor"]);
  ctx.check("rampart install codex -c config.yaml; hooks trusted; doctor ok",
    inst.code === 0 && !trustErr && doc.code === 0 && /^codex: ok \(/m.test(doc.stdout),
    `install: ${inst.code} ${inst.stdout}${inst.stderr}\ntrust: ${trustErr || "ok"}\ndoctor: ${doc.code} ${doc.stdout}${doc.stderr}`);
  // The hooks are trusted ([hooks.state] holds their current hashes): doctor can read that and
  // must not warn (issue 15, point 9).
  const line = (doc.stdout.split("\n").find((l) => l.startsWith("codex:")) || "");
  ctx.check("doctor reads Codex's hook trust (trusted: no warning)",
    !trustErr && /^codex: ok \(/.test(line) && !/UNVERIFIED|untrusted|not trusted|trust it/i.test(line), line || doc.stdout);

  const p = plan(ctx, project);
  const id = ctx.scenario(p.steps);
  const r = await ctx.exec(ctx.bin("codex"), ["exec", "--skip-git-repo-check", "-C", project,
                                              `Follow the script. [[scenario:${id}]]`], { env, cwd: project });
  ctx.log(`exec: exit ${r.code} in ${r.ms} ms\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
  checkPlan(ctx, { env, project, id, p, mcpLog, run: r });
  // OpenAI usage: cached tokens are part of input_tokens; the ledger keeps them apart. Codex's
  // hooks carry no usage: rampart reads it from the session's rollout file (transcript_path).
  checkSpend(ctx, env, [id]);
}
