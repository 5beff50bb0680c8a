// claude.mjs — Claude Code (`claude -p`) against the fake Anthropic API, in four temporary homes:
//   main     the plan of lib.mjs (checks 2-6) plus a sub-agent as the first turn, a second,
//            text-only turn of the same session (--resume), then the spend of both turns and
//            of the sub-agent (check 7: the last message of each turn included);
//   budget   cost_budget with expensive_models (points 2 and 3 of issue 15);
//   redact   a deny_secrets REDACT rewrite must not approve the call (point 4);
//   offSwitch  disableAllHooks really switches rampart off, and doctor must say so (point 9).
// Each host run takes about a second.
import { join } from "node:path";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { plan, checkPlan, checkSpend } from "../lib.mjs";

export const name = "claude";
export const host = "claude-code";

const MODEL = "claude-sonnet-4-5"; // priced by rampart; the fake API answers with the asked model

export async function run(ctx) {
  const { root, project, env: base } = ctx.newHome();
  const env = claudeEnv(ctx, base);

  const inst = ctx.rampartCli(env, ["install", host, "-c", ctx.config]);
  const doc = ctx.rampartCli(env, ["doctor"]);
  ctx.check("rampart install claude-code -c config.yaml; doctor ok",
    inst.code === 0 && doc.code === 0 && /^claude-code: ok \(/m.test(doc.stdout),
    `install: ${inst.code} ${inst.stdout}${inst.stderr}\ndoctor: ${doc.code} ${doc.stdout}${doc.stderr}`);

  const mcpLog = join(root, "mcp.log");
  const mcpConfig = join(root, "mcp.json");
  writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { github: {
    type: "stdio", command: ctx.node, args: [ctx.mcpServer], env: { FAKE_MCP_LOG: mcpLog } } } }));
  // A sub-agent (the Agent tool) with a scenario of its own: its messages count in the spend,
  // its final one included (issue 15, point 2).
  const sub = ctx.scenario([{ shell: `echo sub > ${join(project, "sub.txt")}` }]);
  const p = plan(ctx, project, { extra: [{ tool: { name: "Agent", args: {
    description: "Scripted sub-agent", prompt: `Follow the script. [[scenario:${sub}]]`, subagent_type: "general-purpose" } } }] });
  const id = ctx.scenario(p.steps);
  // --allowedTools, not bypassPermissions: rampart's ASK must still stop a call (in -p mode
  // Claude Code refuses a call its hook asks about; bypass mode would hide that).
  const common = ["--output-format", "json", "--model", MODEL, "--mcp-config", mcpConfig, "--strict-mcp-config",
                  "--allowedTools", "Bash", "mcp__github__create_pull_request"];
  const r1 = await ctx.exec(ctx.bin("claude"), ["-p", `Follow the script. [[scenario:${id}]]`, ...common],
                            { env, cwd: project });
  let session = null;
  try { session = JSON.parse(r1.stdout).session_id; } catch { /* reported by the checks */ }
  ctx.log(`turn 1: exit ${r1.code} session ${session} in ${r1.ms} ms`);
  checkPlan(ctx, { env, project, id, p, mcpLog, run: r1 });
  ctx.check("a sub-agent runs its own scripted tool call", existsSync(join(project, "sub.txt")),
    `sub-agent requests: ${ctx.server.requests(sub).length}; Agent tool result: ${JSON.stringify(
      (ctx.server.requests(id).find((r) => r.step === p.at.extra + 1) || {}).body?.messages?.slice(-1) ?? null).slice(0, 600)}`);

  const id2 = ctx.scenario([{ text: "Second turn answered." }]);
  const r2 = session
    ? await ctx.exec(ctx.bin("claude"), ["-p", `Answer once more. [[scenario:${id2}]]`, "--resume", session, ...common],
                     { env, cwd: project })
    : { code: -1, stderr: "no session id from turn 1", stdout: "" };
  ctx.check("a second turn of the same session (--resume) runs", r2.code === 0,
    `exit ${r2.code}${r2.timedOut ? " (TIMED OUT)" : ""}: ${(r2.stderr || r2.stdout || "").trim().slice(-600)}`);
  checkSpend(ctx, env, [id, sub, id2], { what: "spend equals what the model reported (every message of both turns and of the sub-agent)" });

  await budget(ctx);
  await redact(ctx);
  await offSwitch(ctx);
}

// `disableAllHooks: true` beside rampart's hooks in the same settings file switches rampart off
// (the rm -rf runs: the host really does skip the hooks); doctor must say so (issue 15, point 9).
async function offSwitch(ctx) {
  const { home, project, env: base } = ctx.newHome();
  const env = claudeEnv(ctx, base);
  const inst = ctx.rampartCli(env, ["install", host, "-c", ctx.config]);
  const settings = join(home, ".claude", "settings.json");
  const json = JSON.parse(readFileSync(settings, "utf8"));
  writeFileSync(settings, JSON.stringify({ ...json, disableAllHooks: true }, null, 2) + "\n");
  const victim = join(project, "victim");
  mkdirSync(victim);
  const id = ctx.scenario([{ shell: `rm -rf ${victim}` }]);
  await ctx.exec(ctx.bin("claude"), ["-p", `Follow the script. [[scenario:${id}]]`, "--output-format", "json",
    "--model", "claude-sonnet-4-5", "--allowedTools", "Bash"], { env, cwd: project });
  ctx.check("(host behaviour) disableAllHooks: true really switches the hooks off: the rm -rf runs",
    inst.code === 0 && !existsSync(victim), existsSync(victim) ? "the victim survived: Claude Code ran the hooks anyway" : inst.stderr);
  const doc = ctx.rampartCli(env, ["doctor"]);
  const line = doc.stdout.split("\n").find((l) => l.startsWith("claude-code:")) || doc.stdout;
  ctx.check("doctor reports disableAllHooks in the settings file", /disableAllHooks/.test(line), line);
}

// A REDACT rewrite (deny_secrets) must not approve the call by itself (issue 15, point 4): with
// Bash allowed the command runs with the key redacted; with Bash not allowed, Claude Code's own
// permission check still applies, and in -p mode (nobody to ask) the call is refused.
async function redact(ctx) {
  const { root, project, env: base } = ctx.newHome();
  const env = claudeEnv(ctx, base);
  const config = join(root, "redact.yaml");
  writeFileSync(config, readFileSync(ctx.config, "utf8") + [
    "  secrets:",
    "    type: function",
    "    handler: deny_secrets",
    "    factory_params: {action: REDACT}",
    ""].join("\n"));
  const inst = ctx.rampartCli(env, ["install", host, "-c", config]);
  if (!ctx.check("install with a deny_secrets REDACT config", inst.code === 0, inst.stdout + inst.stderr)) return;
  const key = "AKIAIOSFODNN7EXAMPLF"; // fake, but shaped like an AWS access key id
  const run = async (file, allowed) => {
    // Not allowed: first a plain command, the control that -p mode refuses what nobody approved.
    const id = ctx.scenario([...(allowed ? [] : [{ shell: `echo plain > ${join(project, "plain.txt")}` }]),
                             { shell: `echo K=${key} > ${join(project, file)}` }]);
    const r = await ctx.exec(ctx.bin("claude"), ["-p", `Follow the script. [[scenario:${id}]]`, "--output-format", "json",
      "--model", "claude-sonnet-4-5", ...(allowed ? ["--allowedTools", "Bash"] : [])], { env, cwd: project });
    const path = join(project, file);
    return { r, text: existsSync(path) ? readFileSync(path, "utf8") : null };
  };
  const a = await run("allowed.txt", true);
  ctx.check("a redacted command runs with the key replaced (Bash allowed)",
    a.text !== null && !a.text.includes(key) && a.text.includes("REDACTED"),
    `file: ${a.text === null ? "missing" : JSON.stringify(a.text)}\n${auditTail(ctx, env)}`);
  const b = await run("unallowed.txt", false);
  ctx.check("(control) claude -p without --allowedTools refuses a plain Bash call", !existsSync(join(project, "plain.txt")),
    "plain.txt was written: the redaction checks below prove nothing");
  ctx.check("a redaction does not approve the call: Claude Code's own permission check still applies",
    b.text === null, `the command ran without Claude Code's approval: ${JSON.stringify(b.text)}\n${auditTail(ctx, env)}`);
}

// cost_budget over its cap with expensive_models [opus], in a HOME of its own: a sonnet session
// goes on (its model comes from the transcript: the hook payload has none; issue 15, point 3),
// an opus session is stopped at the first tool call after the message that crossed the cap
// (point 2). With the fake's usage numbers (script.mjs), sonnet-4-5 crosses $0.008 with its
// third message, opus-4-5 with its second.
async function budget(ctx) {
  const { root, project, env: base } = ctx.newHome();
  const env = claudeEnv(ctx, base);
  const config = join(root, "budget.yaml");
  writeFileSync(config, readFileSync(ctx.config, "utf8") + [
    "  budget:",
    "    type: function",
    "    handler: cost_budget",
    "    factory_params: {max_cost_usd: 0.008, expensive_models: [opus]}",
    ""].join("\n"));
  const inst = ctx.rampartCli(env, ["install", host, "-c", config]);
  if (!ctx.check("install with a cost_budget config", inst.code === 0, inst.stdout + inst.stderr)) return;
  const run = async (model, files) => {
    const id = ctx.scenario(files.map((f) => ({ shell: `echo ${f} > ${join(project, f)}` })));
    const r = await ctx.exec(ctx.bin("claude"), ["-p", `Follow the script. [[scenario:${id}]]`, "--output-format", "json",
      "--model", model, "--allowedTools", "Bash"], { env, cwd: project });
    return { r, ran: files.filter((f) => existsSync(join(project, f))) };
  };
  const sonnet = await run("claude-sonnet-4-5", ["s1", "s2", "s3", "s4", "s5", "s6"]);
  ctx.check("over the cap, a sonnet session is not denied as expensive (model from the transcript)",
    sonnet.ran.length === 6, `ran: ${sonnet.ran.join(" ") || "none"} of s1-s6\n${auditTail(ctx, env)}\n${sonnet.r.stderr.slice(-300)}`);
  const opus = await run("claude-opus-4-5", ["o1", "o2", "o3"]);
  ctx.check("an opus session is denied at the first tool call after the message that crossed the cap",
    opus.ran.join(" ") === "o1", `ran: ${opus.ran.join(" ") || "none"} (want o1 only)\n${auditTail(ctx, env)}`);
}

function auditTail(ctx, env) {
  return ctx.rampartCli(env, ["log"]).stdout.trim().split("\n").slice(-8).join("\n");
}

function claudeEnv(ctx, base) {
  return { ...base, ANTHROPIC_BASE_URL: ctx.server.url, ANTHROPIC_API_KEY: "sk-ant-fake-realhosts",
           DISABLE_TELEMETRY: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", DISABLE_AUTOUPDATER: "1",
           DISABLE_ERROR_REPORTING: "1", CLAUDE_CODE_DISABLE_TERMINAL_TITLE: "1" };
}
