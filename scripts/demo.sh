#!/bin/sh
# demo.sh BINARY — replays the recorded agent sessions of examples/sessions/ through
# `rampart eval` and prints what rampart decided, one table per session, then a summary.
#
# Each session gets a fresh state directory and a fixed clock (RAMPART_NOW), and ASKs are
# approved (--on-ask approve) as the person watching the agent would have done, so the replay is
# the same on every machine. Colour only on a terminal (and never with NO_COLOR set).
set -eu

BIN=${1:?usage: scripts/demo.sh path/to/rampart}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
EXAMPLES="$ROOT/examples"

if [ ! -x "$BIN" ]; then
    echo "demo: $BIN is not an executable (build first: make)" >&2
    exit 1
fi
command -v python3 >/dev/null 2>&1 || { echo "demo: python3 is needed to print the tables" >&2; exit 1; }

RAMPART_NOW=2026-03-15T12:00:00Z
export RAMPART_NOW
unset RAMPART_STATE_DIR || true

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rampart-demo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

colour=0
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
    colour=1
fi

# session file : config file (report-only agents get the report-only config)
SESSIONS="runaway-agent:rampart.yaml thrashing-agent:rampart.yaml
orchestrator-agent:rampart.yaml report-only-agent:report-only.yaml"

set --
for pair in $SESSIONS; do
    name=${pair%%:*}
    config=$EXAMPLES/${pair#*:}
    events=$EXAMPLES/sessions/$name.jsonl
    mkdir "$tmp/$name"
    # Exit 1 would mean a malformed line in a recorded session: show it, fail the demo.
    if ! "$BIN" eval -c "$config" --state-dir "$tmp/$name/state" --on-ask approve "$events" \
        >"$tmp/$name/decisions.jsonl" 2>"$tmp/$name/stderr"; then
        echo "demo: rampart eval failed on $events:" >&2
        cat "$tmp/$name/stderr" >&2
        exit 1
    fi
    set -- "$@" "$name" "${config#"$ROOT"/}" "$events" "$tmp/$name/decisions.jsonl"
done

python3 - "$colour" "$@" <<'PY'
import json
import shutil
import sys

colour = sys.argv[1] == "1"
sys.stdout.reconfigure(errors="replace")  # a non-UTF-8 terminal gets "?" for the arrows
args = sys.argv[2:]
# On a terminal the reason gets what is left of its width; in a log or pipe, a generous 160.
width = max(100, shutil.get_terminal_size((160, 24)).columns) if colour else 160
COLOURS = {"ALLOW": "32", "ASK": "33", "DENY": "31", "ABSTAIN": "2"}


def paint(text, result):
    if not colour or result not in COLOURS:
        return text
    return f"\033[{COLOURS[result]}m{text}\033[0m"


def one_line(text, limit):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_argument(event):
    """What the agent asked for, in a few words."""
    data = event.get("data")
    kind = event.get("type", "")
    if kind == "request":
        text = data.get("user_content") if isinstance(data, dict) else data
        return f'"{text}"' if isinstance(text, str) else ""
    if kind == "tool_result":
        result = data.get("result") if isinstance(data, dict) else data
        return "→ " + (str(result).splitlines() or [""])[0]
    if kind != "tool_call" or not isinstance(data, dict):
        return ""
    a = data.get("arguments")
    if not isinstance(a, dict):
        return ""
    for key in ("command", "pattern", "query", "file_path", "notebook_path", "path", "url",
                "skill", "document_id"):
        if isinstance(a.get(key), str):
            return a[key].splitlines()[0] if key == "command" and a[key] else a[key]
    if isinstance(a.get("args"), dict):
        purpose = a["args"].get("purpose")
        return f"{a.get('agent', '?')} purpose={purpose if purpose else '(none)'}"
    if "to" in a:
        return f"to {a['to']}"
    return one_line(json.dumps(a, ensure_ascii=False), 40)


summary = []
for i in range(0, len(args), 4):
    name, config, events_path, decisions_path = args[i : i + 4]
    with open(events_path, encoding="utf-8") as f:
        events = [json.loads(line) for line in f if line.strip()]
    with open(decisions_path, encoding="utf-8") as f:
        decisions = [json.loads(line) for line in f if line.strip()]
    if len(events) != len(decisions):
        sys.exit(f"demo: {name}: {len(events)} events but {len(decisions)} decisions")

    print(f"\n== {name}  ({config})")
    print(f"{'#':>3}  {'event':<13} {'tool':<24} {'argument':<38} {'result':<6} reason")
    counts = {"ALLOW": 0, "ASK": 0, "DENY": 0}
    reason_width = max(20, width - 92)
    for n, (ev, d) in enumerate(zip(events, decisions), 1):
        result = d.get("result", "?")
        if "error" in d:
            result, reason = "ERROR", d["error"]
        else:
            reason = d.get("reason") or ""
        counts[result] = counts.get(result, 0) + 1
        tool = ev.get("target") or ""
        if isinstance(ev.get("data"), dict) and isinstance(ev["data"].get("name"), str):
            tool = ev["data"]["name"]
        label = ev.get("type", "")
        row = (f"{n:>3}  {one_line(label, 13):<13} {one_line(tool, 24):<24} "
               f"{one_line(short_argument(ev), 38):<38} ")
        print(row + paint(f"{result:<6}", result) + " " + one_line(reason, reason_width))
    summary.append((name, len(events), counts))

print("\nsummary")
print(f"  {'session':<22} {'events':>6} {'allowed':>8} {'asked':>6} {'denied':>7}")
total = {"events": 0, "ALLOW": 0, "ASK": 0, "DENY": 0}
for name, n, c in summary:
    print(f"  {name:<22} {n:>6} {c['ALLOW']:>8} {c['ASK']:>6} {c['DENY']:>7}")
    total["events"] += n
    for k in ("ALLOW", "ASK", "DENY"):
        total[k] += c[k]
print(f"  {'all sessions':<22} {total['events']:>6} {total['ALLOW']:>8} {total['ASK']:>6} "
      f"{total['DENY']:>7}")
print(f"\ndemo: {len(summary)} sessions, {total['events']} events: {total['ALLOW']} allowed, "
      f"{total['ASK']} asked, {total['DENY']} denied")
PY
