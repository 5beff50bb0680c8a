// gemini.mjs — Gemini CLI (`gemini -p`) against the fake Gemini API (fake/gemini.mjs). One host
// run carries checks 2-6 (lib.mjs's plan); spend and the audit are read after it.
//
// What it takes to run Gemini CLI 0.61 headless against a local endpoint, each learned the hard
// way:
// * GEMINI_API_KEY + GOOGLE_GEMINI_BASE_URL, and `security.auth.selectedType: gemini-api-key`
//   in settings.json: from the environment alone the base URL selects the "gateway" auth type,
//   which -p refuses ("Invalid auth method selected.").
// * The project folder trusted in ~/.gemini/trustedFolders.json: -p in an untrusted folder exits
//   55, and `--skip-trust` / GEMINI_CLI_TRUST_WORKSPACE would run it without loading the
//   project's settings (a project install's hooks); the user-level install is used here anyway.
// * `-m gemini-2.5-flash`: the default "auto" model first asks a router model for a JSON
//   complexity score (fake/gemini.mjs answers it, but it costs a request per turn).
// * `--approval-mode yolo`: without it -p offers the model no shell tool at all
//   (run_shell_command is left out of tools[] when nobody can approve it). rampart's hooks
//   still run before every tool in yolo mode; an ASK is a deny on this host.
// * MCP servers in settings.json `mcpServers`; their tools reach the model and the hooks as
//   `mcp_<server>_<tool>` (with `mcp_context` in BeforeTool).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { audit, checkPlan, checkSpend, plan } from "../lib.mjs";

export const name = "gemini";
export const host = "gemini";

const MODEL = "gemini-2.5-flash"; // priced by rampart (src/cost/pricing_data.h)

export async function run(ctx) {
  const { root, home, project, env: base } = ctx.newHome();
  const env = { ...base, GEMINI_API_KEY: "fake-gemini-key", GOOGLE_GEMINI_BASE_URL: ctx.server.url,
                GEMINI_CLI_NO_RELAUNCH: "true" };
  const mcpLog = join(root, "mcp.log");
  const gdir = join(home, ".gemini");
  mkdirSync(gdir, { recursive: true });
  // Written before `rampart install`, which adds its hooks to this file and keeps the rest.
  writeFileSync(join(gdir, "settings.json"), JSON.stringify({
    security: { auth: { selectedType: "gemini-api-key" } },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    mcpServers: { github: { command: ctx.node, args: [ctx.mcpServer], env: { FAKE_MCP_LOG: mcpLog }, trust: true } },
  }, null, 2) + "\n");
  writeFileSync(join(gdir, "trustedFolders.json"), JSON.stringify({ [project]: "TRUST_FOLDER" }) + "\n");

  const inst = ctx.rampartCli(env, ["install", host, "-c", ctx.config]);
  const doc = ctx.rampartCli(env, ["doctor"]);
  ctx.check("rampart install gemini -c config.yaml; doctor ok",
    inst.code === 0 && doc.code === 0 && /^gemini: ok \(/m.test(doc.stdout),
    `install: ${inst.code} ${inst.stdout}${inst.stderr}\ndoctor: ${doc.code} ${doc.stdout}${doc.stderr}`);

  const p = plan(ctx, project);
  const id = ctx.scenario(p.steps);
  const t0 = Date.now();
  const r = await ctx.exec(ctx.bin("gemini"), ["-p", `Follow the script. [[scenario:${id}]]`, "-m", MODEL,
                                              "--approval-mode", "yolo", "--output-format", "text"],
                           { env, cwd: project });
  ctx.log(`exit ${r.code} in ${r.ms} ms`);
  checkPlan(ctx, { env, project, id, p, mcpLog, run: r });

  // Every model response of the run, side requests (none expected with -m) included.
  const responses = ctx.server.all().filter((e) => e.api === "gemini" && e.at >= t0 && !/countTokens$/.test(e.path));
  const side = responses.filter((e) => e.side).length;
  checkSpend(ctx, env, [id], {
    what: "spend equals what the model reported (each response once, cached and thinking tokens included)",
    extra: { records: side, input_tokens: 10 * side, output_tokens: 2 * side },
    fields: { input_tokens: "input", output_tokens: (e) => e.output + e.thinking,
              cache_read_input_tokens: "cached", cache_creation_input_tokens: "cache_write" },
  });
  const rows = audit(ctx, env).filter((x) => x.event_type === "llm_response");
  ctx.check("one llm_response audit row per model response (not one per streamed chunk)",
    rows.length === responses.length,
    `${rows.length} llm_response rows in rampart log for ${responses.length} responses (${3 * responses.length} chunks or fewer)`);

  await untrustedProject(ctx);
}

// The silent off-switch of a project install: Gemini CLI loads a project's settings (and so its
// hooks) only in a trusted folder, and `--skip-trust` runs the folder without trusting it. The
// host is run that way; whatever it does, `rampart doctor --project` must not say ok when the
// hooks did not run.
async function untrustedProject(ctx) {
  const { home, project, env: base } = ctx.newHome();
  const env = { ...base, GEMINI_API_KEY: "fake-gemini-key", GOOGLE_GEMINI_BASE_URL: ctx.server.url,
                GEMINI_CLI_NO_RELAUNCH: "true" };
  mkdirSync(join(home, ".gemini"), { recursive: true });
  writeFileSync(join(home, ".gemini", "settings.json"),
                JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }) + "\n");
  const inst = ctx.rampartCli(env, ["install", host, "--project", "-c", ctx.config], { cwd: project });
  const doc = ctx.rampartCli(env, ["doctor", "--project"], { cwd: project });
  const victim = join(project, "victim");
  mkdirSync(victim);
  writeFileSync(join(victim, "keep.txt"), "precious\n");
  const id = ctx.scenario([{ shell: `rm -rf ${victim}` }]);
  const r = await ctx.exec(ctx.bin("gemini"), ["-p", `Follow the script. [[scenario:${id}]]`, "-m", MODEL,
                                              "--approval-mode", "yolo", "--skip-trust"], { env, cwd: project });
  const hooksRan = audit(ctx, env).length > 0;
  const docOk = /^gemini: ok\b/m.test(doc.stdout);
  ctx.check("untrusted folder: doctor --project says ok only if the project's hooks really run",
    inst.code === 0 && (hooksRan || !docOk),
    `install --project: ${inst.code} ${(inst.stdout + inst.stderr).trim()}\n` +
    `gemini --skip-trust ran the project's hooks: ${hooksRan}; the victim ${existsSync(victim) ? "survives" : "is GONE"}; ` +
    `host exit ${r.code}\ndoctor --project: ${doc.stdout.trim()}`);
}
