// opencode.mjs — opencode (`opencode run`) against the fake OpenAI Chat Completions API
// (fake/openai.mjs). One host run carries checks 2-6 (lib.mjs's plan).
//
// How opencode 1.18 runs here, offline:
// * a custom provider in ~/.config/opencode/opencode.json with "npm": "@ai-sdk/openai-compatible"
//   and options.baseURL: that package is bundled in the opencode binary, so nothing is
//   installed at run time; OPENCODE_DISABLE_MODELS_FETCH keeps it from fetching models.dev.
// * `permission` allows bash (and edits, and paths outside the project), else `opencode run`
//   rejects the calls it would ask about.
// * MCP servers under `mcp` ({type: "local", command: [...], environment}); opencode names their
//   tools `<server>_<tool>` (github_create_pull_request).
// * the plugin (`rampart install opencode`) takes no -c: rampart reads the user config
//   ($XDG_CONFIG_HOME/rampart/config.yaml), where config.yaml is copied first.
// * opencode logs a plugin that fails to load in its log file and goes on without it: the only
//   trace of that off-switch, checked here.
// * on the first start in a fresh HOME opencode installs @opencode-ai/plugin into
//   ~/.config/opencode/node_modules from the npm registry (in the background; plugins wait for
//   it, about 13 s here). Offline that install fails with a warning and the plugin, which
//   imports nothing, still loads.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkPlan, checkSpend, plan } from "../lib.mjs";
import { checkPriced } from "../priced.mjs";

export const name = "opencode";
export const host = "opencode";

const MODEL = "gpt-4o-mini"; // priced by rampart, unknown to opencode (a custom provider): cost 0

export async function run(ctx) {
  const { root, home, project, env: base } = ctx.newHome();
  const env = { ...base, OPENCODE_DISABLE_AUTOUPDATE: "1", OPENCODE_DISABLE_MODELS_FETCH: "1",
                OPENCODE_DISABLE_LSP_DOWNLOAD: "1", OPENCODE_DISABLE_SHARE: "1", OPENCODE_DISABLE_PRUNE: "1" };
  const mcpLog = join(root, "mcp.log");
  const ocdir = join(env.XDG_CONFIG_HOME, "opencode");
  const rpdir = join(env.XDG_CONFIG_HOME, "rampart");
  mkdirSync(ocdir, { recursive: true });
  mkdirSync(rpdir, { recursive: true });
  copyFileSync(ctx.config, join(rpdir, "config.yaml"));
  writeFileSync(join(ocdir, "opencode.json"), JSON.stringify({
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    model: `fake/${MODEL}`,
    permission: { bash: "allow", edit: "allow", external_directory: "allow" },
    provider: { fake: { npm: "@ai-sdk/openai-compatible", name: "Fake", models: { [MODEL]: { name: MODEL } },
                        options: { baseURL: `${ctx.server.url}/v1`, apiKey: "sk-fake-realhosts" } } },
    mcp: { github: { type: "local", command: [ctx.node, ctx.mcpServer], environment: { FAKE_MCP_LOG: mcpLog },
                     enabled: true } },
  }, null, 2) + "\n");

  const inst = ctx.rampartCli(env, ["install", host]);
  const doc = ctx.rampartCli(env, ["doctor"]);
  ctx.check("rampart install opencode (config.yaml as the user config); doctor ok",
    inst.code === 0 && doc.code === 0 && /^opencode: ok \(/m.test(doc.stdout),
    `install: ${inst.code} ${inst.stdout}${inst.stderr}\ndoctor: ${doc.code} ${doc.stdout}${doc.stderr}`);

  const p = plan(ctx, project);
  const id = ctx.scenario(p.steps);
  const r = await ctx.exec(ctx.bin("opencode"), ["run", `Follow the script. [[scenario:${id}]]`], { env, cwd: project });
  ctx.log(`exit ${r.code} in ${r.ms} ms`);

  const logDir = join(env.XDG_DATA_HOME, "opencode", "log");
  const logs = existsSync(logDir) ? readdirSync(logDir).map((f) => readFileSync(join(logDir, f), "utf8")).join("\n") : "";
  const pluginErrors = logs.split("\n").filter((l) => /failed to load plugin/i.test(l));
  ctx.check("opencode loads the rampart plugin without an error",
    existsSync(logDir) && pluginErrors.length === 0,
    existsSync(logDir) ? pluginErrors.slice(0, 3).join("\n") : `no opencode log in ${logDir}`);

  checkPlan(ctx, { env, project, id, p, mcpLog, run: r });
  checkSpend(ctx, env, [id], { what: "spend equals what the model reported (each assistant message)" });
  checkPriced(ctx, env, MODEL);
}
