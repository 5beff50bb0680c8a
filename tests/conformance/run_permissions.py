#!/usr/bin/env python3
"""Conformance runner: feeds ../shared/vectors/permissions.jsonl through `rampart eval`.

usage: run_permissions.py RAMPART_BINARY PERMISSIONS_JSONL DIVERGENCES_JSONL [-v]

Each vector (reference permissions.md §7.2) becomes one `rampart eval --stateless --policy
permissions --params JSON` run of one tool_call event, with HOME=/home/user:
  * config.permission → permission, yoloMode → yolo_mode, piInfrastructureReadPaths →
    infrastructure_read_paths, shellTools → shell_tool_args; project_config → project_permission
    (+ project_invalid); agent + agent_config → agent + agent_permission; mcp_servers,
    platform → the parameters of the same name;
  * session_rules → the event's session_state under _permissions_session_rules;
  * fs fixtures are created at the absolute paths the vector names and removed afterwards.
The result (allow/ask/deny) is compared with expect. A mismatch listed in the divergences file
(same line, field "result", rampart returning exactly the recorded value) is a documented
divergence and must be stricter than the reference; an entry that matches nothing is stale and
fails the run. Prints `permissions conformance: N passed, M failed` (+ divergences); exits 1 on
any failure.
"""

import json
import os
import shutil
import subprocess
import sys

VECTOR_FILE = "permissions.jsonl"
HOME = "/home/user"
STRICTNESS = {"allow": 0, "ask": 1, "deny": 2}
TIMEOUT_S = 30


def load_divergences(path):
    entries, errors = {}, []
    with open(path, encoding="utf-8") as f:
        for n, text in enumerate(f, 1):
            if not text.strip():
                continue
            try:
                e = json.loads(text)
            except json.JSONDecodeError as err:
                errors.append(f"{path}:{n}: invalid JSON: {err}")
                continue
            if e.get("file") != VECTOR_FILE:
                continue
            missing = [k for k in ("line", "field", "rampart", "why") if k not in e]
            if missing:
                errors.append(f"{path}:{n}: missing {', '.join(missing)}")
                continue
            if e["field"] != "result":
                errors.append(f"{path}:{n}: permissions divergences are on field 'result'")
                continue
            if not isinstance(e["why"], str) or not (
                    "Known weakness" in e["why"] or "issue 4" in e["why"]):
                errors.append(f"{path}:{n}: 'why' must cite the reference's Known weakness "
                              "or the issue's stricter rule")
                continue
            if e["line"] in entries:
                errors.append(f"{path}:{n}: duplicate entry for line {e['line']}")
                continue
            entries[e["line"]] = e
    return entries, errors


def params_of(v):
    cfg = v["config"]
    p = {"permission": cfg.get("permission", {})}
    if "yoloMode" in cfg:
        p["yolo_mode"] = cfg["yoloMode"]
    if "piInfrastructureReadPaths" in cfg:
        p["infrastructure_read_paths"] = cfg["piInfrastructureReadPaths"]
    if "shellTools" in cfg:
        p["shell_tool_args"] = cfg["shellTools"]
    if "project_config" in v:
        p["project_permission"] = v["project_config"].get("permission", {})
        if v["project_config"].get("invalid"):
            p["project_invalid"] = True
    if "agent" in v:
        p["agent"] = v["agent"]
        if "agent_config" in v:
            p["agent_permission"] = v["agent_config"].get("permission", {})
    if "mcp_servers" in v:
        p["mcp_servers"] = v["mcp_servers"]
    p["platform"] = v.get("platform", "posix")
    return p


def event_of(v, line):
    ev = {"type": "tool_call", "session_id": f"vector-{line}",
          "data": {"name": v["tool"], "arguments": v["input"]},
          "context": {"cwd": v["cwd"], "home": HOME}}
    if "session_rules" in v:
        ev["session_state"] = {"_permissions_session_rules": v["session_rules"]}
    return ev


def make_fs(entries):
    made = []
    for e in entries:
        path = e["path"]
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if e["type"] == "dir":
            os.makedirs(path, exist_ok=True)
        elif e["type"] == "file":
            open(path, "w").close()
        elif e["type"] == "symlink":
            os.symlink(e["target"], path)
        made.append(path)
    return made


def remove_fs(entries):
    roots = set()
    for e in entries:
        parts = e["path"].split("/")
        roots.add("/".join(parts[:3]))  # the scratch directory, e.g. /tmp/pps-vec
    for r in roots:
        if r.startswith("/tmp/"):
            shutil.rmtree(r, ignore_errors=True)


def run_vector(binary, v, line):
    env = dict(os.environ, HOME=HOME)
    fs = v.get("fs", [])
    if fs:
        remove_fs(fs)
        make_fs(fs)
    try:
        proc = subprocess.run(
            [binary, "eval", "--stateless", "--policy", "permissions",
             "--params", json.dumps(params_of(v)), "-"],
            input=json.dumps(event_of(v, line)) + "\n", capture_output=True, text=True,
            timeout=TIMEOUT_S, env=env)
    finally:
        if fs:
            remove_fs(fs)
    if proc.returncode not in (0, 1):
        return None, f"exit {proc.returncode}: {proc.stderr.strip()}"
    try:
        got = json.loads(proc.stdout.strip().splitlines()[0])
    except (json.JSONDecodeError, IndexError):
        return None, f"unreadable output {proc.stdout!r} {proc.stderr!r}"
    return str(got.get("result", "")).lower(), got.get("reason")


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    binary, vectors_path, div_path = argv[1], argv[2], argv[3]
    verbose = "-v" in argv[4:]
    divergences, errors = load_divergences(div_path)
    used = set()
    passed = failed = diverged = 0
    with open(vectors_path, encoding="utf-8") as f:
        lines = [l for l in f]
    for line, text in enumerate(lines, 1):
        if not text.strip():
            continue
        v = json.loads(text)
        got, reason = run_vector(binary, v, line)
        want = v["expect"]
        if got == want:
            passed += 1
            if verbose:
                print(f"ok   {line} {v['tool']} {json.dumps(v['input'])[:80]}")
            continue
        d = divergences.get(line)
        if d is not None and got is not None and d["rampart"].lower() == got:
            used.add(line)
            if STRICTNESS.get(got, -1) <= STRICTNESS[want]:
                errors.append(f"line {line}: divergence {got} is not stricter than {want}")
                failed += 1
                continue
            diverged += 1
            if verbose:
                print(f"div  {line} {got} (reference {want}): {d['why'][:90]}")
            continue
        failed += 1
        print(f"FAIL {line}: {v['tool']} {json.dumps(v['input'])} cwd={v['cwd']}\n"
              f"     expected {want}, got {got}: {reason}\n     note: {v['note']}")
    for line in sorted(set(divergences) - used):
        errors.append(f"divergence for line {line} matches nothing (stale)")
    for e in errors:
        print(f"ERROR {e}")
    print(f"permissions conformance: {passed} passed, {failed} failed, "
          f"{diverged} stricter divergences")
    return 1 if failed or errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
