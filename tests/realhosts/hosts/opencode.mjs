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
// * the plugin is `rampart install opencode -c config.yaml`: the plugin file runs that binary
//   with that config, like every other host's hook command.
// * opencode logs a plugin that fails to load in its log file and goes on without it: the only
//   trace of that off-switch, checked here.
// * on its first start in a HOME, opencode npm-installs @opencode-ai/plugin into every config
//   directory (~/.config/opencode/node_modules) before it loads any plugin: 13 s with a registry,
//   70 s of retries without one. The suite installs that package (the pinned opencode's version)
//   once into the hosts cache and copies it, with its lock file, into each fresh HOME; opencode
//   then finds it in place and fetches nothing (its registry is pointed at a closed port to be
//   sure). If that install fails, opencode is left to do it and the run is slower.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cacheDir, pins } from "../install.mjs";
import { checkPlan, checkSpend, plan } from "../lib.mjs";
import { checkPriced } from "../priced.mjs";

export const name = "opencode";
export const host = "opencode";

const MODEL = "gpt-4o-mini"; // priced by rampart, unknown to opencode (a custom provider): cost 0

// The directory holding @opencode-ai/plugin at the pinned opencode's version (package.json,
// package-lock.json, node_modules), installed once; null when npm could not install it.
function pluginDeps(ctx) {
  const version = pins().opencode.split("@").pop();
  const dir = join(cacheDir(), `opencode-config-deps-${version}`);
  if (existsSync(join(dir, "node_modules", "@opencode-ai", "plugin", "package.json"))) return dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ dependencies: { "@opencode-ai/plugin": version } }, null, 2) + "\n");
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
                      { cwd: dir, encoding: "utf8", timeout: 300_000 });
  if (r.status === 0) return dir;
  ctx.log(`npm install @opencode-ai/plugin@${version} failed: ${r.error ? r.error.message : r.stderr}`);
  return null;
}

export async function run(ctx) {
  const { root, home, project, env: base } = ctx.newHome();
  const env = { ...base, OPENCODE_DISABLE_AUTOUPDATE: "1", OPENCODE_DISABLE_MODELS_FETCH: "1",
                OPENCODE_DISABLE_LSP_DOWNLOAD: "1", OPENCODE_DISABLE_SHARE: "1", OPENCODE_DISABLE_PRUNE: "1" };
  const mcpLog = join(root, "mcp.log");
  const ocdir = join(env.XDG_CONFIG_HOME, "opencode");
  mkdirSync(ocdir, { recursive: true });
  const deps = pluginDeps(ctx);
  if (deps) {
    for (const f of ["package.json", "package-lock.json", "node_modules"]) cpSync(join(deps, f), join(ocdir, f), { recursive: true });
    env.NPM_CONFIG_REGISTRY = "http://127.0.0.1:9/";
  }
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

  const inst = ctx.rampartCli(env, ["install", host, "-c", ctx.config]);
  const doc = ctx.rampartCli(env, ["doctor"]);
  ctx.check("rampart install opencode -c config.yaml; doctor ok",
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
