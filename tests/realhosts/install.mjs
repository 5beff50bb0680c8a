// install.mjs — installs the pinned hosts of hosts.json once into a cache directory and says,
// per host, whether its binary is there (or why not). Used by run.mjs; also runnable alone:
//   node tests/realhosts/install.mjs            installs (if needed) and prints the bin dir
// The cache is $RAMPART_HOSTS_CACHE, else ~/.cache/rampart/realhosts/<hash of hosts.json>: a
// new pin gets a new directory, so an old install is never half-reused.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const hostsFile = join(here, "hosts.json");

export function pins() {
  return JSON.parse(readFileSync(hostsFile, "utf8"));
}

// "@scope/name@1.2.3" -> ["@scope/name", "1.2.3"]
function split(spec) {
  const at = spec.lastIndexOf("@");
  return [spec.slice(0, at), spec.slice(at + 1)];
}

export function cacheDir() {
  if (process.env.RAMPART_HOSTS_CACHE) return process.env.RAMPART_HOSTS_CACHE;
  const hash = createHash("sha256").update(readFileSync(hostsFile)).digest("hex").slice(0, 12);
  const base = join(homedir(), ".cache");
  return join(base, "rampart", "realhosts", hash);
}

// The pinned version is installed and its binary exists: nothing to do for this host.
function installed(dir, name, spec) {
  const [pkg, ver] = split(spec);
  try {
    const meta = JSON.parse(readFileSync(join(dir, "node_modules", pkg, "package.json"), "utf8"));
    if (meta.version !== ver) return `installed version ${meta.version}, pinned ${ver}`;
  } catch {
    return "not installed";
  }
  return existsSync(join(dir, "node_modules", ".bin", name)) ? null : `no binary node_modules/.bin/${name}`;
}

function npmInstall(dir, specs, log) {
  log(`install: npm install ${specs.join(" ")} into ${dir}`);
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--save-exact", "--loglevel=error",
    "--prefix", dir, ...specs], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 600_000 });
  if (r.error) return { err: `npm: ${r.error.message}`, network: false };
  if (r.status === 0) return null;
  const out = r.stderr || "";
  // The lines that say why (npm's "code E..." line first), not its advice about proxies.
  const why = out.split("\n").filter((l) => /npm error (code|errno|\d{3}|404|network|request to)/i.test(l)).slice(0, 3);
  return { err: `npm install failed (exit ${r.status}): ${(why.length ? why : out.trim().split("\n").slice(-2)).join(" | ")}`,
           network: /ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ECONNRESET|ENETUNREACH/.test(out) };
}

// One npm at a time per cache (two test runs at once): an exclusive lock file, taken over when
// older than 15 minutes (a crashed run).
function lock(dir, log) {
  const file = join(dir, ".install.lock");
  const t0 = Date.now();
  for (;;) {
    try {
      closeSync(openSync(file, "wx"));
      return () => rmSync(file, { force: true });
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
      let age = 0;
      try { age = Date.now() - statSync(file).mtimeMs; } catch { continue; }
      if (age > 15 * 60_000) { rmSync(file, { force: true }); continue; }
      if (Date.now() - t0 > 15 * 60_000) throw new Error(`install: ${file} held for 15 minutes`);
      if (Date.now() - t0 < 1000) log(`install: waiting for another install (${file})`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
    }
  }
}

// Returns {dir, binDir, hosts: {name: {ok, reason, bin}}} for the wanted host names.
export function installHosts(names, log = (m) => console.error(m)) {
  const all = pins();
  const dir = cacheDir();
  mkdirSync(dir, { recursive: true });
  const pkgJson = join(dir, "package.json");
  if (!existsSync(pkgJson)) writeFileSync(pkgJson, '{"private": true}\n');
  const wanted = names.filter((n) => all[n]);
  let missing = wanted.filter((n) => installed(dir, n, all[n]) !== null);
  const npmErr = {};
  const unlock = missing.length ? lock(dir, log) : () => {};
  // Another run may have installed them while this one waited for the lock.
  missing = wanted.filter((n) => installed(dir, n, all[n]) !== null);
  if (missing.length) {
    // One npm run for all (about 45 s for the five); if it fails, each alone, so that one
    // unavailable package costs only its own host.
    const all1 = npmInstall(dir, missing.map((n) => all[n]), log);
    // No registry at all: one try per package would only wait for the same network error.
    if (all1 && all1.network) for (const n of missing) npmErr[n] = all1.err;
    else if (all1) {
      for (const n of missing) {
        const one = npmInstall(dir, [all[n]], log);
        if (one) npmErr[n] = one.err;
      }
    }
  }
  unlock();
  const binDir = join(dir, "node_modules", ".bin");
  const hosts = {};
  for (const n of names) {
    if (!all[n]) { hosts[n] = { ok: false, reason: `not in hosts.json` }; continue; }
    const why = installed(dir, n, all[n]);
    hosts[n] = why === null ? { ok: true, bin: join(binDir, n), spec: all[n] }
                            : { ok: false, reason: npmErr[n] || why, spec: all[n] };
  }
  return { dir, binDir, hosts };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(pins());
  const r = installHosts(names);
  for (const [n, h] of Object.entries(r.hosts)) console.log(`${n}: ${h.ok ? "ok " + h.bin : "NOT INSTALLED: " + h.reason}`);
  console.log(r.binDir);
  process.exit(Object.values(r.hosts).every((h) => h.ok) ? 0 : 1);
}
