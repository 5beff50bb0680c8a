// pi.mjs — the Pi coding agent (`pi -p`) against the fake OpenAI Chat Completions API
// (fake/openai.mjs). One host run carries checks 2, 3, 4 and 5 (lib.mjs's plan without MCP).
//
// How Pi 0.73 runs here, offline:
// * a custom provider in ~/.pi/agent/models.json (api "openai-completions", baseUrl, a fake
//   key), chosen with --provider/--model; PI_OFFLINE=1 skips the update check and telemetry.
// * the extension is `rampart install pi -c config.yaml` (~/.pi/agent/extensions/rampart.ts runs
//   that binary with that config). In -p mode Pi has no UI, so the extension blocks what
//   rampart asks about.
// * Pi has no MCP ("No MCP." in its README): the MCP check is not applicable and is reported
//   as skipped, with that reason.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkPlan, checkSpend, plan } from "../lib.mjs";
import { checkPriced } from "../priced.mjs";

export const name = "pi";
export const host = "pi";

const MODEL = "gpt-4o-mini"; // priced by rampart; Pi's custom provider has no price: cost 0

export async function run(ctx) {
  const { project, home, env: base } = ctx.newHome();
  const env = { ...base, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" };
  const agentDir = join(home, ".pi", "agent");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { fake: {
    baseUrl: `${ctx.server.url}/v1`, api: "openai-completions", apiKey: "sk-fake-realhosts",
    compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
    models: [{ id: MODEL }] } } }, null, 2) + "\n");

  const inst = ctx.rampartCli(env, ["install", host, "-c", ctx.config]);
  const doc = ctx.rampartCli(env, ["doctor"]);
  ctx.check("rampart install pi -c config.yaml; doctor ok",
    inst.code === 0 && doc.code === 0 && /^pi: ok \(/m.test(doc.stdout),
    `install: ${inst.code} ${inst.stdout}${inst.stderr}\ndoctor: ${doc.code} ${doc.stdout}${doc.stderr}`);

  const p = plan(ctx, project, { mcp: false });
  const id = ctx.scenario(p.steps);
  const r = await ctx.exec(ctx.bin("pi"), ["--provider", "fake", "--model", MODEL, "-p", `Follow the script. [[scenario:${id}]]`],
                           { env, cwd: project });
  ctx.log(`exit ${r.code} in ${r.ms} ms`);
  // Pi reports an extension that fails to load on stderr ("Failed to load extension ...") and
  // exits 1: loud, but checked so that the line says why.
  ctx.check("Pi loads the rampart extension without an error",
    !/failed to load extension/i.test(r.stderr), r.stderr.trim().slice(-800));

  checkPlan(ctx, { env, project, id, p, run: r });
  console.log("skip pi: MCP pull requests meet github_policy: not applicable, Pi has no MCP support");
  checkSpend(ctx, env, [id], { what: "spend equals what the model reported (each assistant message)" });
  checkPriced(ctx, env, MODEL);
}
