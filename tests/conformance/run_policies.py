#!/usr/bin/env python3
"""Conformance runner: feeds ../shared/vectors/policies.jsonl through `rampart eval`.

usage: run_policies.py RAMPART_BINARY POLICIES_JSONL DIVERGENCES_JSONL [-v]

For every vector of a policy rampart implements (`rampart policies --json --all`), one
`rampart eval --policy NAME [--params JSON]` process evaluates the vector's events, one per line:
  * stateless (each event carries the session_state the reference engine injected, §0.3 rule 2),
    except spawn_bounds, which keeps its per-turn count in session state: those vectors run
    statefully in a fresh --state-dir, `__reset_turn__` becomes a `request` event, and only
    results are compared (a RESET expectation is met by the request producing any result);
  * the result of every event is compared (ABSTAIN is a valid single-policy answer), and the
    reason and state_updates where expect_detail records them;
  * a factory-error vector must fail validation: rampart exits 2.
A mismatch listed in the divergences file (same line, event and field, and rampart returning
exactly the recorded value) is a documented divergence, not a failure; an entry that matches
nothing is stale and fails the run. Vectors of policies rampart does not implement are skipped.
Prints a per-policy table and `policies conformance: N passed, M failed, K skipped`; exits 1 on
any failure.
"""

import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

VECTOR_FILE = "policies.jsonl"
STATEFUL_POLICIES = {"spawn_bounds"}
RESET_EVENT = {"type": "request", "data": {"user_content": ""}}
TIMEOUT_S = 60


def strict_equal(a, b):
    """JSON equality that keeps number kinds apart: 1, 1.0 and true all differ."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(strict_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(strict_equal(x, y) for x, y in zip(a, b))
    return a == b


def normalise_updates(updates):
    """[{key, action, value}] with the action lower-cased, for comparison; None if malformed."""
    if not isinstance(updates, list):
        return None
    out = []
    for u in updates:
        if not isinstance(u, dict) or not isinstance(u.get("action"), str):
            return None
        out.append({"key": u.get("key"), "action": u["action"].lower(), "value": u.get("value")})
    return out


def implemented_policies(binary):
    proc = subprocess.run([binary, "policies", "--json", "--all"], capture_output=True,
                          text=True, timeout=TIMEOUT_S)
    if proc.returncode != 0:
        sys.exit(f"run_policies: `{binary} policies --json --all` exited {proc.returncode}: "
                 f"{proc.stderr.strip()}")
    try:
        listing = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        sys.exit(f"run_policies: `policies --json --all` printed invalid JSON: {e}")
    return {p["name"] for p in listing if isinstance(p, dict) and "name" in p}


def load_divergences(path):
    """Returns ({(line, event, field): entry}, [errors])."""
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
            missing = [k for k in ("file", "line", "event", "field", "rampart", "why")
                       if k not in e]
            if missing:
                errors.append(f"{path}:{n}: missing {', '.join(missing)}")
                continue
            if e["field"] not in ("result", "reason", "state_updates", "validation"):
                errors.append(f"{path}:{n}: unknown field {e['field']!r}")
                continue
            if not isinstance(e["why"], str) or not e["why"].strip():
                errors.append(f"{path}:{n}: 'why' must say why")
                continue
            if e["file"] != VECTOR_FILE:
                continue  # another runner's vectors (permissions.jsonl)
            key = (e["line"], e["event"], e["field"])
            if key in entries:
                errors.append(f"{path}:{n}: duplicate entry for line {e['line']} "
                              f"event {e['event']} field {e['field']}")
                continue
            e["_where"] = f"{path}:{n}"
            entries[key] = e
    return entries, errors


def run_eval(binary, args, stdin_text, state_dir=None):
    cmd = [binary, "eval"] + args
    cmd += ["--state-dir", state_dir] if state_dir else ["--stateless"]
    env = dict(os.environ)
    env.pop("RAMPART_NOW", None)  # hermetic: vectors do not depend on a fixed clock
    proc = subprocess.run(cmd + ["-"], input=stdin_text, capture_output=True, text=True,
                          env=env, timeout=TIMEOUT_S)
    return proc


def policy_args(vector):
    args = ["--policy", vector.get("handler") or vector["policy"]]
    if vector.get("params") is not None:
        args += ["--params", json.dumps(vector["params"])]
    return args


class Mismatch:
    def __init__(self, event, field, expected, got):
        self.event, self.field, self.expected, self.got = event, field, expected, got


def check_vector(binary, vector):
    """Evaluates one vector. Returns a list of Mismatch (empty = conforms)."""
    args = policy_args(vector)
    if "expect_factory_error" in vector:
        proc = run_eval(binary, args, "")
        if proc.returncode != 2:
            return [Mismatch(None, "validation", "exit 2", f"exit {proc.returncode}")]
        return []

    stateful = vector["policy"] in STATEFUL_POLICIES
    events = [RESET_EVENT if e.get("type") == "__reset_turn__" else e for e in vector["events"]]
    stdin_text = "".join(json.dumps(e) + "\n" for e in events)
    tmp = tempfile.mkdtemp(prefix="rampart-conf-") if stateful else None
    try:
        proc = run_eval(binary, args, stdin_text, state_dir=tmp)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    if proc.returncode == 2:
        return [Mismatch(None, "validation", "exit 0", "exit 2")]

    lines = proc.stdout.splitlines()
    mismatches = []
    if proc.returncode != 0:
        mismatches.append(Mismatch(None, "exit", "exit 0",
                                   f"exit {proc.returncode}: {proc.stderr.strip()[:300]}"))
    if len(lines) != len(events):
        mismatches.append(Mismatch(None, "output", f"{len(events)} decision lines",
                                   f"{len(lines)} lines"))
    details = vector.get("expect_detail") or []
    for i, expected in enumerate(vector["expect"]):
        if i >= len(lines):
            break
        try:
            got = json.loads(lines[i])
        except json.JSONDecodeError:
            mismatches.append(Mismatch(i, "result", expected, lines[i]))
            continue
        if not isinstance(got, dict) or "result" not in got:
            mismatches.append(Mismatch(i, "result", expected, got))
            continue
        if expected == "RESET":
            continue  # the request that stands for the reset produced a decision
        if got["result"] != expected:
            mismatches.append(Mismatch(i, "result", expected, got["result"]))
        if stateful:
            continue
        detail = details[i] if i < len(details) and isinstance(details[i], dict) else {}
        if "reason" in detail and got.get("reason") != detail["reason"]:
            mismatches.append(Mismatch(i, "reason", detail["reason"], got.get("reason")))
        if "state_updates" in detail:
            want = normalise_updates(detail["state_updates"])
            have = normalise_updates(got.get("state_updates", []))
            if have is None or not strict_equal(want, have):
                mismatches.append(Mismatch(i, "state_updates", want,
                                           have if have is not None
                                           else got.get("state_updates")))
    return mismatches


def main(argv):
    verbose = "-v" in argv
    argv = [a for a in argv if a != "-v"]
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    binary, vectors_path, divergences_path = argv[1:]
    implemented = implemented_policies(binary)
    divergences, errors = load_divergences(divergences_path)
    used = set()

    table = collections.OrderedDict()  # policy -> Counter(passed, divergent, failed, skipped)
    skipped_by_policy = collections.Counter()
    failures = []
    policy_of_line = {}
    with open(vectors_path, encoding="utf-8") as f:
        for line_no, text in enumerate(f, 1):
            if not text.strip():
                continue
            vector = json.loads(text)
            name = vector["policy"]
            policy_of_line[line_no] = name
            counts = table.setdefault(name, collections.Counter())
            if name not in implemented:
                counts["skipped"] += 1
                skipped_by_policy[name] += 1
                continue
            bad, divergent = [], False
            for m in check_vector(binary, vector):
                entry = divergences.get((line_no, m.event, m.field))
                if entry is not None and strict_equal(entry["rampart"], m.got):
                    used.add((line_no, m.event, m.field))
                    divergent = True
                else:
                    bad.append(m)
            if bad:
                counts["failed"] += 1
                for m in bad:
                    failures.append(f"{VECTOR_FILE}:{line_no} [{name}] event {m.event} "
                                    f"{m.field}: expected {json.dumps(m.expected)}, "
                                    f"rampart {json.dumps(m.got)}  ({vector.get('note', '')})")
            else:
                counts["passed"] += 1
                if divergent:
                    counts["divergent"] += 1
                if verbose:
                    print(f"ok {VECTOR_FILE}:{line_no} [{name}]")

    for key, entry in divergences.items():
        if key in used:
            continue
        # An entry for a vector that was skipped (its policy is not implemented yet) waits; an
        # entry for a vector that ran without producing that mismatch is stale.
        if policy_of_line.get(entry["line"]) in implemented:
            errors.append(f"{entry['_where']}: stale divergence: {VECTOR_FILE}:{entry['line']} "
                          f"event {entry['event']} field {entry['field']} no longer differs "
                          f"as recorded (rampart {json.dumps(entry['rampart'])})")
        elif entry["line"] not in policy_of_line:
            errors.append(f"{entry['_where']}: {VECTOR_FILE} has no vector on line "
                          f"{entry['line']}")

    print(f"{'policy':34} {'vectors':>7} {'passed':>7} {'diverg.':>7} {'failed':>7} "
          f"{'skipped':>7}")
    for name, c in sorted(table.items(), key=lambda kv: (kv[1]["skipped"] > 0, kv[0])):
        total = c["passed"] + c["failed"] + c["skipped"]
        print(f"{name:34} {total:7} {c['passed']:7} {c['divergent']:7} {c['failed']:7} "
              f"{c['skipped']:7}")
    if skipped_by_policy:
        listed = ", ".join(f"{n} ({k})" for n, k in sorted(skipped_by_policy.items()))
        print(f"\nskipped (not implemented yet): {listed}")
    for line in failures:
        print(f"FAIL {line}")
    for line in errors:
        print(f"ERROR {line}")

    passed = sum(c["passed"] for c in table.values())
    # A stale or malformed divergence entry is a failure of its own.
    failed = sum(c["failed"] for c in table.values()) + len(errors)
    skipped = sum(c["skipped"] for c in table.values())
    divergent = sum(c["divergent"] for c in table.values())
    if divergent:
        print(f"({divergent} of the passed vectors differ from the reference as documented "
              f"in {os.path.basename(divergences_path)})")
    print(f"policies conformance: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed or errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
