#!/usr/bin/env python3
"""run_cel.py — runs the official CEL conformance tests (cel-spec tests/simple/testdata) against
rampart's CEL implementation through the tests/tools/cel_conformance driver.

    run_cel.py BINARY_DIR_OR_DRIVER TESTDATA_DIR [--only FILE]... [--all] [-v]
               [--failures OUT]

Every test of the target files is either skipped (it needs protobuf messages, which rampart does
not model: its values come from JSON events) or run; a missing feature is a failure, never a
skip. All tests go to one driver process as JSON lines (see cel_conformance.c for the protocol),
so a run takes seconds; a driver that crashes or hangs costs only the test it was running (the
driver is restarted for the rest).

Exit status 1 when a target is missed: at least 99% of the run (non-skipped) tests pass over the
core files together and in each core file, and at least 90% in each of string_ext, math_ext and
optionals. The semantics follow cel-spec's simple.proto (SimpleTest): the default expectation is
`value { bool_value: true }`; eval_error passes on any error (messages are not compared); a test
is type-checked unless disable_check is set.
"""

import argparse
import base64
import json
import math
import os
import re
import select
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree from ctest runs
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import textproto  # noqa: E402

CORE_FILES = [
    "basic", "comparisons", "conversions", "fields", "fp_math", "integer_math", "lists", "logic",
    "macros", "macros2", "namespace", "parse", "plumbing", "string", "timestamps",
]
EXT_FILES = ["string_ext", "math_ext", "optionals"]
CORE_TARGET = 0.99
EXT_TARGET = 0.90
# Seconds the driver may take for one test before it is killed and restarted.
ANSWER_TIMEOUT = float(os.environ.get("CEL_CONFORMANCE_TIMEOUT", "10"))
MAX_FAILURE_LINES = 40


class Skip(Exception):
    """The test needs protobuf messages; args[0] is the reason category."""


# ---------------------------------------------------------------------------------------------
# What needs protobuf

# The well-known types rampart models natively (timestamps and durations are CEL values).
MODELED_MESSAGES = {"google.protobuf.Timestamp", "google.protobuf.Duration"}

# Message and enum types of the conformance protos and the protobuf wrappers/Any/Struct family.
PROTO_NAME = re.compile(
    r"\b(?:TestAllTypes|NestedTestAllTypes|TestRequired\w*|NestedMessage|GlobalEnum|NestedEnum"
    r"|cel\.expr\.conformance|google\.api\.expr\.test|proto[23]\."
    r"|google\.protobuf\.(?:Any|Value|Struct|ListValue|NullValue|Empty|FieldMask|BoolValue"
    r"|BytesValue|DoubleValue|FloatValue|Int32Value|Int64Value|StringValue|UInt32Value"
    r"|UInt64Value))\b"
)
# Message construction `Name{...}` (CEL's map literal has no name in front of the brace).
MESSAGE_LITERAL = re.compile(r"(?<![\w.])\.?[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*\s*\{")
CEL_KEYWORDS = {"in", "true", "false", "null"}


def strip_cel_strings(expr):
    """The expression with the contents of its string and bytes literals blanked, so that a
    literal's text is not mistaken for a message type name."""
    out = []
    i, n = 0, len(expr)
    while i < n:
        c = expr[i]
        if c in "'\"":
            j = i - 1
            raw = False
            while j >= 0 and expr[j] in "rRbB":
                raw = raw or expr[j] in "rR"
                j -= 1
            quote = expr[i : i + 3] if expr[i : i + 3] in ("'''", '"""') else c
            k = i + len(quote)
            while k < n and not expr.startswith(quote, k):
                k += 2 if (expr[k] == "\\" and not raw) else 1
            out.append(quote + quote)
            i = k + len(quote)
        else:
            out.append(c)
            i += 1
    return "".join(out)


def expr_needs_protobuf(expr):
    code = strip_cel_strings(expr)
    if PROTO_NAME.search(code):
        return "protobuf type in expression"
    for m in MESSAGE_LITERAL.finditer(code):
        name = m.group(0).rstrip("{ \t\n").lstrip(".")
        if name not in CEL_KEYWORDS:
            return "protobuf message literal"
    return None


# ---------------------------------------------------------------------------------------------
# Conformance data -> driver request

PRIMITIVES = {
    "BOOL": "bool", "INT64": "int", "UINT64": "uint", "DOUBLE": "double", "STRING": "string",
    "BYTES": "bytes",
}
WELL_KNOWN = {"TIMESTAMP": "google.protobuf.Timestamp", "DURATION": "google.protobuf.Duration"}


def type_text(t):
    """A cel.expr.Type message as CEL type text ("list(int)", "map(string, dyn)")."""
    if t.has("primitive"):
        return PRIMITIVES[str(t.get("primitive"))]
    if t.has("dyn"):
        return "dyn"
    if t.has("null"):
        return "null_type"
    if t.has("error"):
        return "error"
    if t.has("well_known"):
        wk = str(t.get("well_known"))
        if wk not in WELL_KNOWN:
            raise Skip("protobuf well-known type in type_env")
        return WELL_KNOWN[wk]
    if t.has("wrapper"):
        raise Skip("protobuf wrapper type in type_env")
    if t.has("message_type"):
        name = t.get_str("message_type")
        if name not in MODELED_MESSAGES:
            raise Skip("protobuf message type in type_env")
        return name
    if t.has("list_type"):
        return "list(%s)" % type_text(t.get("list_type").get("elem_type"))
    if t.has("map_type"):
        m = t.get("map_type")
        return "map(%s, %s)" % (type_text(m.get("key_type")), type_text(m.get("value_type")))
    if t.has("type_param"):
        return t.get_str("type_param")
    if t.has("type"):
        inner = t.get("type")
        return "type(%s)" % type_text(inner) if inner.fields else "type"
    if t.has("abstract_type"):
        a = t.get("abstract_type")
        params = [type_text(p) for p in a.getall("parameter_types")]
        return "%s(%s)" % (a.get_str("name"), ", ".join(params)) if params else a.get_str("name")
    if t.has("function"):
        raise Skip("function type in type_env")
    raise ValueError("unsupported type %r" % (t,))


def any_to_typed(any_msg):
    """object_value (a google.protobuf.Any in text form) as a typed value, when modeled."""
    for name, body in any_msg.fields:
        if name == "[type.googleapis.com/google.protobuf.Timestamp]":
            return {"timestamp": [int(body.get("seconds", 0)), int(body.get("nanos", 0))]}
        if name == "[type.googleapis.com/google.protobuf.Duration]":
            return {"duration": [int(body.get("seconds", 0)), int(body.get("nanos", 0))]}
    raise Skip("protobuf message value")


def value_to_typed(v):
    """A cel.expr.Value message as the driver's typed JSON."""
    if not v.fields:
        raise ValueError("empty Value")
    kind, x = v.fields[-1]
    if kind == "null_value":
        return {"null": None}
    if kind == "bool_value":
        return {"bool": str(x) in ("true", "True", "t", "1")}
    if kind == "int64_value":
        return {"int": str(int(x))}
    if kind == "uint64_value":
        return {"uint": str(int(x))}
    if kind == "double_value":
        d = float(x)
        if math.isnan(d):
            return {"double": "NaN"}
        if math.isinf(d):
            return {"double": "Infinity" if d > 0 else "-Infinity"}
        return {"double": d}
    if kind == "string_value":
        return {"string": x.decode("utf-8")}
    if kind == "bytes_value":
        return {"bytes": base64.b64encode(x).decode("ascii")}
    if kind == "list_value":
        return {"list": [value_to_typed(e) for e in x.getall("values")]}
    if kind == "map_value":
        return {
            "map": [
                [value_to_typed(e.get("key")), value_to_typed(e.get("value"))]
                for e in x.getall("entries")
            ]
        }
    if kind == "type_value":
        return {"type": x.decode("utf-8")}
    if kind == "object_value":
        return any_to_typed(x)
    if kind == "enum_value":
        raise Skip("protobuf enum value")
    raise ValueError("unsupported Value field %r" % kind)


def binding_to_typed(ev):
    """A cel.expr.ExprValue (value, error or unknown) as typed JSON."""
    if ev.has("value"):
        return value_to_typed(ev.get("value"))
    if ev.has("error"):
        msgs = [e.get_str("message") for e in ev.get("error").getall("errors")]
        return {"error": "; ".join(msgs) or "error"}
    if ev.has("unknown"):
        return {"unknown": [str(int(i)) for i in ev.get("unknown").getall("exprs")]}
    raise ValueError("empty ExprValue")


class Test:
    __slots__ = ("file", "section", "name", "expr", "request", "expect", "skip")

    def __init__(self, file, section, t):
        self.file = file
        self.section = section
        self.name = t.get_str("name")
        self.expr = t.get_str("expr")
        self.request = None
        self.expect = None
        self.skip = None
        try:
            self._build(t)
        except Skip as s:
            self.skip = s.args[0]

    @property
    def full_name(self):
        return "%s/%s/%s" % (self.file, self.section, self.name)

    def _build(self, t):
        why = expr_needs_protobuf(self.expr)
        if why:
            raise Skip(why)
        check = not t.get_bool("disable_check")
        decls = []
        for d in t.getall("type_env"):
            if d.has("ident"):
                ident_type = type_text(d.get("ident").get("type"))
                decls.append({"name": d.get_str("name"), "type": ident_type})
            # Function declarations are ignored: the driver knows its own functions.
        bindings = {}
        for b in t.getall("bindings"):
            bindings[b.get_str("key")] = binding_to_typed(b.get("value"))
        self.request = {
            "expr": self.expr,
            "container": t.get_str("container"),
            "disable_macros": t.get_bool("disable_macros"),
            "check": check,
            "decls": decls,
            "bindings": bindings,
            "check_only": t.get_bool("check_only"),
        }
        if t.has("value"):
            self.expect = ("value", value_to_typed(t.get("value")), None)
        elif t.has("typed_result"):
            tr = t.get("typed_result")
            val = value_to_typed(tr.get("result")) if tr.has("result") else None
            typ = type_text(tr.get("deduced_type")) if tr.has("deduced_type") else None
            self.expect = ("value", val, typ)
        elif t.has("eval_error") or t.has("any_eval_errors"):
            self.expect = ("error", None, None)
        elif t.has("unknown"):
            ids = [int(i) for i in t.get("unknown").getall("exprs")]
            self.expect = ("unknown", ids, None)
        elif t.has("any_unknowns"):
            self.expect = ("unknown", None, None)
        else:
            self.expect = ("value", {"bool": True}, None)


def load_file(path):
    msg = textproto.parse_file(path)
    base = os.path.basename(path)[: -len(".textproto")]
    return [
        Test(base, s.get_str("name"), t)
        for s in msg.getall("section")
        for t in s.getall("test")
    ]


# ---------------------------------------------------------------------------------------------
# Comparison of typed values


def normalize(v):
    """Typed JSON -> a comparable Python structure (exact ints, bytes, floats)."""
    if not isinstance(v, dict) or len(v) != 1:
        raise ValueError("malformed typed value %r" % (v,))
    (kind, x), = v.items()
    if kind in ("int", "uint"):
        return (kind, int(x))
    if kind == "double":
        return ("double", float({"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}.get(x, x)))
    if kind == "bytes":
        return ("bytes", base64.b64decode(x))
    if kind in ("string", "bool", "type"):
        return (kind, x)
    if kind == "null":
        return ("null", None)
    if kind == "list":
        return ("list", [normalize(e) for e in x])
    if kind == "map":
        return ("map", [(normalize(k), normalize(val)) for k, val in x])
    if kind in ("timestamp", "duration"):
        return (kind, (int(x[0]), int(x[1])))
    if kind == "optional":
        return ("optional", None if x is None else normalize(x))
    if kind in ("error", "unknown"):
        return (kind, None)
    raise ValueError("unknown typed kind %r" % kind)


def same(a, b):
    """Exact equality of normalized values; NaN equals NaN; maps compare regardless of order."""
    if a[0] != b[0]:
        return False
    kind = a[0]
    if kind == "double":
        if math.isnan(a[1]) or math.isnan(b[1]):
            return math.isnan(a[1]) and math.isnan(b[1])
        return a[1] == b[1]
    if kind == "list":
        return len(a[1]) == len(b[1]) and all(same(x, y) for x, y in zip(a[1], b[1]))
    if kind == "map":
        if len(a[1]) != len(b[1]):
            return False
        for k, v in a[1]:
            if not any(same(k, k2) and same(v, v2) for k2, v2 in b[1]):
                return False
        return True
    if kind == "optional":
        if a[1] is None or b[1] is None:
            return a[1] is None and b[1] is None
        return same(a[1], b[1])
    return a[1] == b[1]


def norm_type(t):
    return re.sub(r"\s+", "", t)


def judge(test, answer):
    """(passed, text of what we got)."""
    kind, want, want_type = test.expect
    if "compile_error" in answer:
        return False, "compile error %d:%d: %s" % (
            answer.get("line", 0), answer.get("col", 0), answer["compile_error"])
    if "crash" in answer or "bad_request" in answer:
        return False, answer.get("crash") or "bad request: " + answer["bad_request"]
    if "checked" in answer:  # check_only
        if test.request["check_only"]:
            got_type = answer.get("type")
            ok = (want_type is None or got_type is None
                  or norm_type(got_type) == norm_type(want_type))
            return ok, "checked, type %s" % got_type
        return False, "driver answered checked"
    if "error" in answer:
        return kind == "error", "error: %s" % answer["error"]
    if "unknown" in answer:
        ok = kind == "unknown" and (want is None or sorted(want) == sorted(answer["unknown"]))
        return ok, "unknown %s" % answer["unknown"]
    if "value" not in answer:
        return False, "malformed answer %r" % (answer,)
    got = answer["value"]
    got_text = "value %s" % json.dumps(got, ensure_ascii=False)
    if kind != "value":
        return False, got_text
    try:
        ok = want is None or same(normalize(want), normalize(got))
    except (ValueError, TypeError, KeyError) as e:
        return False, "%s (%s)" % (got_text, e)
    got_type = answer.get("type")
    if ok and want_type is not None and got_type is not None:
        ok = norm_type(got_type) == norm_type(want_type)
        got_text += " type %s" % got_type
    return ok, got_text


def expected_text(test):
    kind, want, want_type = test.expect
    if kind == "value":
        s = "value %s" % json.dumps(want, ensure_ascii=False) if want is not None else "any value"
        return s + (" type %s" % want_type if want_type else "")
    if kind == "unknown":
        return "unknown %s" % (want,)
    return "an error"


# ---------------------------------------------------------------------------------------------
# The driver process


class Driver:
    """Runs requests through the driver, one JSON line each; restarts it after a crash or a
    hang and answers the test that caused it with {"crash": ...}."""

    def __init__(self, path):
        self.path = path

    def run(self, requests):
        answers = []
        while len(answers) < len(requests):
            answers.extend(self._run_from(requests, len(answers)))
        return answers

    def _run_from(self, requests, start):
        proc = subprocess.Popen([self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
        lines = [(json.dumps(r, ensure_ascii=False) + "\n").encode("utf-8")
                 for r in requests[start:]]

        def feed():
            try:
                for line in lines:
                    proc.stdin.write(line)
                proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        answers = []
        buf = b""
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + ANSWER_TIMEOUT
        failure = None
        while len(answers) < len(lines):
            nl = buf.find(b"\n")
            if nl >= 0:
                line, buf = buf[:nl], buf[nl + 1 :]
                try:
                    answers.append(json.loads(line.decode("utf-8")))
                except (ValueError, UnicodeDecodeError):
                    answers.append({"crash": "unreadable answer %r" % line[:200]})
                deadline = time.monotonic() + ANSWER_TIMEOUT
                continue
            left = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(left, 0))
            if not ready:
                failure = "timeout after %.0fs" % ANSWER_TIMEOUT
                break
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                failure = "driver exited"
                break
            buf += chunk
        if failure:
            proc.kill()
            rc = proc.wait()
            if failure == "driver exited":
                failure += " (status %d)" % rc
            answers.append({"crash": failure})
        else:
            proc.stdout.close()
            proc.wait()
        writer.join(timeout=1)
        return answers


# ---------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("driver", help="the cel_conformance program or the build directory holding it")
    ap.add_argument("testdata", help="directory of the cel-spec *.textproto files")
    ap.add_argument("--only", action="append", default=[], help="run only this file (repeatable)")
    ap.add_argument("--all", action="store_true", help="also run the files without targets")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every failure and skip")
    ap.add_argument("--failures", help="write every failure (one per line) to this file")
    ap.add_argument("--no-check", action="store_true",
                    help="never type-check (to tell checker failures from evaluator ones)")
    args = ap.parse_args()

    driver = args.driver
    if os.path.isdir(driver):
        driver = os.path.join(driver, "cel_conformance")
    if not os.access(driver, os.X_OK):
        print("run_cel: no driver at %s" % driver, file=sys.stderr)
        return 2

    if args.only:
        files = [os.path.basename(f).replace(".textproto", "") for f in args.only]
    elif args.all:
        files = sorted(f[: -len(".textproto")] for f in os.listdir(args.testdata)
                       if f.endswith(".textproto"))
    else:
        files = CORE_FILES + EXT_FILES

    tests = []
    for f in files:
        path = os.path.join(args.testdata, f + ".textproto")
        if not os.path.exists(path):
            print("run_cel: missing %s" % path, file=sys.stderr)
            return 2
        loaded = load_file(path)
        # Every target file has tests; none found means the text-format reader went wrong.
        if not loaded and f in CORE_FILES + EXT_FILES:
            print("run_cel: no tests read from %s" % path, file=sys.stderr)
            return 2
        tests.extend(loaded)

    started = time.monotonic()
    to_run = [t for t in tests if t.skip is None]
    if args.no_check:
        for t in to_run:
            t.request["check"] = False
    answers = Driver(driver).run([t.request for t in to_run])
    elapsed = time.monotonic() - started

    stats = {f: {"pass": 0, "fail": 0, "skip": 0} for f in files}
    skip_reasons = {}
    failures = []
    for t in tests:
        if t.skip:
            stats[t.file]["skip"] += 1
            key = (t.file, t.skip)
            skip_reasons[key] = skip_reasons.get(key, 0) + 1
    for t, a in zip(to_run, answers):
        ok, got = judge(t, a)
        stats[t.file]["pass" if ok else "fail"] += 1
        if not ok:
            failures.append((t, got))

    # Per-file table.
    print("%-14s %6s %6s %6s %8s %7s" % ("file", "pass", "fail", "skip", "passing", "target"))
    missed = []
    core_pass = core_run = 0
    for f in files:
        s = stats[f]
        run = s["pass"] + s["fail"]
        pct = s["pass"] / run if run else 1.0
        target = CORE_TARGET if f in CORE_FILES else EXT_TARGET if f in EXT_FILES else None
        if f in CORE_FILES:
            core_pass += s["pass"]
            core_run += run
        mark = ""
        if target is not None and pct < target:
            missed.append("%s %.1f%% < %.0f%%" % (f, 100 * pct, 100 * target))
            mark = "  MISSED"
        print("%-14s %6d %6d %6d %7.1f%% %7s%s" % (
            f, s["pass"], s["fail"], s["skip"], 100 * pct,
            "%.0f%%" % (100 * target) if target is not None else "-", mark))
    if core_run:
        core_pct = core_pass / core_run
        print("%-14s %6d %6d %6s %7.1f%% %7s" % ("core (all)", core_pass, core_run - core_pass, "",
                                                  100 * core_pct, "99%"))
        if core_pct < CORE_TARGET:
            missed.append("core files together %.1f%% < 99%%" % (100 * core_pct))

    if skip_reasons:
        print("skipped (needs protobuf messages):")
        for (f, why), n in sorted(skip_reasons.items()):
            print("  %-14s %4d  %s" % (f, n, why))

    if failures:
        print("failures:")
        limit = None if args.verbose else MAX_FAILURE_LINES
        for i, (t, got) in enumerate(failures):
            if limit is not None and i >= limit:
                print("  ... %d more (use -v or --failures FILE)" % (len(failures) - limit))
                break
            print("  %s: %s\n      expected %s, got %s"
                  % (t.full_name, t.expr, expected_text(t), got))
    if args.failures:
        with open(args.failures, "w", encoding="utf-8") as out:
            for t, got in failures:
                out.write("%s\t%s\texpected %s\tgot %s\n" % (
                    t.full_name, json.dumps(t.expr, ensure_ascii=False), expected_text(t), got))
    if args.verbose:
        for t in tests:
            if t.skip:
                print("  skipped %s (%s): %s" % (t.full_name, t.skip, t.expr))

    total = {k: sum(s[k] for s in stats.values()) for k in ("pass", "fail", "skip")}
    print("cel conformance: %d passed, %d failed, %d skipped (%.1fs)" % (
        total["pass"], total["fail"], total["skip"], elapsed))
    if missed:
        print("targets missed: " + "; ".join(missed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
