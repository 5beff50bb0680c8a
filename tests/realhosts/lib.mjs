// lib.mjs — the checks every host module shares: one scripted plan that carries checks 2-6 in a
// single host run, their assertions (from the files the commands touch, rampart's audit log,
// the fake server's request log and the MCP server's log), and the spend comparison.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// detect_thrashing's threshold, read from the config the hosts are installed with.
export function thrashThreshold(configPath) {
  const m = /consecutive_threshold:\s*(\d+)/.exec(readFileSync(configPath, "utf8"));
  return m ? Number(m[1]) : 5;
}

// The plan: its steps and where each check's steps sit. The victim directory is created here.
// MCP steps come before the failing ones: once detect_thrashing asks, every later tool call of
// the session is asked about too.
// `extra`: host-specific steps played after the MCP ones (before any failure), at.extra on.
export function plan(ctx, project, { mcp = true, extra = [] } = {}) {
  const victim = join(project, "victim");
  mkdirSync(victim, { recursive: true });
  writeFileSync(join(victim, "keep.txt"), "precious\n");
  const n = thrashThreshold(ctx.config);
  const steps = [];
  const at = {};
  at.rm = steps.push({ shell: `rm -rf ${victim}` }) - 1;
  at.harmless = steps.push({ shell: `echo hi > ${join(project, "harmless.txt")}` }) - 1;
  if (mcp) {
    const pr = (repo) => ({ mcp: { server: "github", tool: "create_pull_request",
      args: { owner: "acme", repo, title: `Scripted PR to ${repo}`, head: "feature/x", base: "main" } } });
    at.mcpDenied = steps.push(pr("forbidden")) - 1;
    at.mcpAllowed = steps.push(pr("allowed")) - 1;
  }
  at.extra = steps.length;
  steps.push(...extra);
  at.fail = steps.length;
  for (let i = 1; i <= n; i++) steps.push({ shell: `ls /nonexistent-${i}` });
  at.after = steps.push({ shell: `echo after > ${join(project, "after.txt")}` }) - 1;
  return { steps, at, n, victim };
}

export function audit(ctx, env) {
  const r = ctx.rampartCli(env, ["log", "--json"]);
  return r.stdout.split("\n").filter(Boolean).map((l) => { try { return JSON.parse(l); } catch { return { bad: l }; } });
}

const show = (rows) => rows.map((r) => `${r.event_type} ${r.target ?? "-"} ${r.result} ${r.reason ?? ""}`).join("\n");

// Checks 2-6 after the host ran the plan `p` as scenario `id`.
export function checkPlan(ctx, { env, project, id, p, mcpLog, run }) {
  const rows = audit(ctx, env);
  const reqs = ctx.server.requests(id);
  const tail = run ? `host exit ${run.code}${run.timedOut ? " (TIMED OUT)" : ""}; ${(run.stderr || "").trim().slice(-400)}` : "";
  const deny = rows.find((r) => r.result === "DENY" && (r.policies || []).includes("blast"));
  ctx.check("rm -rf blocked, victim survives",
    existsSync(join(p.victim, "keep.txt")) && !!deny,
    `victim ${existsSync(join(p.victim, "keep.txt")) ? "survives" : "GONE"}; blast_radius DENY in audit: ${!!deny}\n${show(rows)}\n${tail}`);
  const harmless = join(project, "harmless.txt");
  ctx.check("harmless command runs",
    existsSync(harmless) && readFileSync(harmless, "utf8") === "hi\n", `${harmless} missing\n${tail}`);
  const next = reqs.find((r) => r.step === p.at.rm + 1);
  ctx.check("deny reason reaches the model in the next request",
    !!deny && !!next && JSON.stringify(next.body).includes(deny.reason),
    !deny ? "no DENY row in the audit" : !next ? `no request after the rm step (steps seen: ${reqs.map((r) => r.step)})`
          : `reason ${JSON.stringify(deny.reason)} not in the request after the rm step`);
  if (p.at.mcpDenied !== undefined) {
    const calls = existsSync(mcpLog) ? readFileSync(mcpLog, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
    const repos = calls.map((c) => `${c.arguments.owner}/${c.arguments.repo}`);
    const gdeny = rows.find((r) => r.result === "DENY" && (r.policies || []).includes("github"));
    ctx.check("MCP pull request outside write_repos denied (never reaches the MCP server)",
      !repos.includes("acme/forbidden") && !!gdeny,
      `MCP server saw: ${repos.join(", ") || "nothing"}; github_policy DENY in audit: ${!!gdeny}\n${show(rows.filter((r) => /pull|mcp|github/i.test(r.target || "")))}`);
    ctx.check("MCP pull request to acme/allowed goes through",
      repos.includes("acme/allowed"), `MCP server saw: ${repos.join(", ") || "nothing"}\n${show(rows.filter((r) => /pull|mcp|github/i.test(r.target || "")))}`);
  }
  const ask = rows.find((r) => r.result === "ASK" && (r.policies || []).includes("thrashing"));
  const after = existsSync(join(project, "after.txt"));
  ctx.check(`${p.n} failing calls make detect_thrashing ask, the next command does not run`,
    !!ask && !after,
    `detect_thrashing ASK in audit: ${!!ask}; command after the failures ${after ? "RAN" : "did not run"}\n${show(rows.slice(-2 * p.n - 3))}`);
}

// Check 7: `rampart spend --json` totals equal the sum of what the fake server reported for
// these scenarios. `fields` maps spend's total fields to the reported entry's (a field name, or
// a function of the entry); `extra` adds to the expected totals (side requests of the run).
export function checkSpend(ctx, env, ids, { what = "spend equals what the model reported",
  fields = { input_tokens: "input", output_tokens: "output", cache_read_input_tokens: "cache_read",
             cache_creation_input_tokens: "cache_write" }, extra = {} } = {}) {
  const r = ctx.rampartCli(env, ["spend", "--json"]);
  let total = null;
  try { total = JSON.parse(r.stdout).total; } catch { /* reported below */ }
  const reported = ids.flatMap((id) => ctx.server.reported(id));
  const want = { records: reported.length };
  const of = (e, f) => (typeof f === "function" ? f(e) : e[f]) || 0;
  for (const [k, f] of Object.entries(fields)) want[k] = reported.reduce((s, e) => s + of(e, f), 0);
  for (const [k, v] of Object.entries(extra)) want[k] = (want[k] || 0) + v;
  const got = {};
  for (const k of Object.keys(want)) got[k] = total ? total[k] : undefined;
  const ok = !!total && Object.keys(want).every((k) => got[k] === want[k]) && total.unpriced_records === 0;
  let bySession = "";
  try {
    bySession = JSON.parse(ctx.rampartCli(env, ["spend", "--json", "--by", "session"]).stdout).rows
      .map((x) => `  ${x.key}: ${x.records} records, ${x.input_tokens} input`).join("\n");
  } catch { /* the totals above say enough */ }
  const perScenario = ids.map((id) => `  ${id}: ${ctx.server.reported(id).length} responses`).join("\n");
  ctx.check(what, ok, `rampart spend: ${JSON.stringify(got)}${total ? ` unpriced ${total.unpriced_records}` : ` (${r.stderr.trim()})`}\nfake server: ${JSON.stringify(want)}\nrampart by session:\n${bySession}\nfake server by scenario:\n${perScenario}`);
  return ok;
}
