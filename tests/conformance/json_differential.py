#!/usr/bin/env python3
"""Differential test of rampart's JSON reader/writer against Python's json module.

Usage: json_differential.py PATH/TO/json_roundtrip [SEED] [COUNT]

Generates a seeded corpus of single-line documents: valid ones (nested objects with duplicate
keys, arrays, every escape form, astral characters, ints up to and beyond 64 bits, doubles in
many spellings, random whitespace) and invalid ones (trailing commas, NaN/Infinity, leading
zeros, bad escapes, lone surrogates, invalid UTF-8, control characters, deep nesting, truncation
and random byte damage). Each line goes through json_roundtrip, which answers with
rp_json_write_sorted() text or ERROR.

Python is the oracle, except where rampart is deliberately stricter (json.h): NaN/Infinity
literals, numbers that overflow to infinity, lone surrogate escapes and nesting deeper than 256
must be ERROR although Python accepts them. Integers beyond the 64-bit ranges become doubles.

For a document Python accepts (and rampart need not refuse), rampart's output must parse back in
Python to an equal value with the same int/float kinds, and must be byte-identical to
json.dumps(value, sort_keys=True, separators=(',', ':'), ensure_ascii=False). For every other
document rampart must say ERROR.
"""
import json
import math
import random
import struct
import subprocess
import sys

MAX_DEPTH = 256  # RP_JSON_MAX_DEPTH
INT64_MIN, UINT64_MAX = -(2**63), 2**64 - 1


# ---- valid documents -----------------------------------------------------------------------

def rand_ws(rng):
    # No '\n': it separates documents.
    return rng.choice(["", "", "", " ", "  ", "\t", "\r", " \t "])


def rand_char(rng):
    r = rng.random()
    if r < 0.55:
        return chr(rng.randint(0x20, 0x7E))
    if r < 0.62:
        return rng.choice('"\\/\b\f\n\r\t\x00\x01\x1f\x7f')
    if r < 0.80:
        return chr(rng.randint(0x80, 0x7FF))
    if r < 0.92:
        while True:
            c = rng.randint(0x800, 0xFFFF)
            if not 0xD800 <= c <= 0xDFFF:
                return chr(c)
    return chr(rng.randint(0x10000, 0x10FFFF))


def rand_string(rng):
    n = rng.choice([0, 1, 2, 3, 5, 8, 13, 30, 80])
    return "".join(rand_char(rng) for _ in range(n))


def hex4(rng, c):
    h = "%04x" % c
    return h.upper() if rng.random() < 0.3 else h


def encode_string(rng, s):
    short = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
             "\t": "\\t"}
    out = ['"']
    for ch in s:
        c = ord(ch)
        escape = rng.random() < 0.15
        if ch in short and (ch in '"\\' or c < 0x20 or escape):
            out.append(short[ch] if rng.random() < 0.8 else "\\u" + hex4(rng, c))
        elif c < 0x20 or escape:
            if ch == "/" and rng.random() < 0.5:
                out.append("\\/")
            elif c >= 0x10000:
                v = c - 0x10000
                out.append("\\u" + hex4(rng, 0xD800 + (v >> 10)) +
                           "\\u" + hex4(rng, 0xDC00 + (v & 0x3FF)))
            else:
                out.append("\\u" + hex4(rng, c))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def rand_int_text(rng):
    r = rng.random()
    if r < 0.4:
        v = rng.randint(-1000, 1000)
    elif r < 0.6:
        v = rng.randint(INT64_MIN, 2**63 - 1)
    elif r < 0.7:
        v = rng.choice([0, -0, 2**63 - 1, INT64_MIN, 2**63, UINT64_MAX, 2**53, 2**53 + 1,
                        -(2**53) - 1])
    elif r < 0.85:
        v = rng.randint(2**63, UINT64_MAX)
    else:
        v = rng.randint(-(10**40), 10**40) * rng.choice([1, 10**100, 10**250])  # beyond 64 bits
    text = str(v)
    if v == 0 and rng.random() < 0.3:
        text = "-0"
    return text


def rand_float_text(rng):
    r = rng.random()
    if r < 0.25:
        while True:
            d = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
            if math.isfinite(d):
                break
        text = repr(d)
    elif r < 0.45:
        text = "%d.%0*d" % (rng.randint(-10000, 10000), rng.randint(1, 6), rng.randint(0, 999999))
    elif r < 0.6:
        text = "%de%s%d" % (rng.randint(-99, 99), rng.choice(["", "+", "-"]), rng.randint(0, 330))
    elif r < 0.7:
        text = rng.choice(["0.0", "-0.0", "1.0", "1e0", "1E2", "1e-5", "1.5e16", "1e16", "0.1",
                           "0.30000000000000004", "5e-324", "1.7976931348623157e308",
                           "2.2250738585072014e-308", "1e-400", "9007199254740993.0",
                           "123456789012345678901234567890.5", "0.000001", "1e22", "1e23"])
    elif r < 0.85:
        text = "%.*g" % (rng.randint(1, 17), rng.uniform(-1e6, 1e6))
    else:
        text = "%.*e" % (rng.randint(0, 20), rng.uniform(-1, 1) * 10 ** rng.randint(-300, 300))
    if not any(c in text for c in ".eE"):
        text += ".0"  # keep it a float literal
    if "e" in text and rng.random() < 0.3:
        text = text.replace("e", "E")
    return text


def rand_value(rng, depth):
    r = rng.random()
    if depth > 5:
        r = r * 0.6  # scalars only deep down
    if r < 0.06:
        return "null"
    if r < 0.12:
        return rng.choice(["true", "false"])
    if r < 0.30:
        return rand_int_text(rng)
    if r < 0.45:
        return rand_float_text(rng)
    if r < 0.60:
        return encode_string(rng, rand_string(rng))
    if r < 0.78:
        n = rng.choice([0, 1, 2, 3, 5, 8])
        items = [rand_ws(rng) + rand_value(rng, depth + 1) + rand_ws(rng) for _ in range(n)]
        return "[" + ",".join(items) + (rand_ws(rng) if not items else "") + "]"
    n = rng.choice([0, 1, 2, 3, 5, 8, 12])
    keys = [rand_string(rng) if rng.random() < 0.5 else rng.choice("abcde") for _ in range(n)]
    members = [rand_ws(rng) + encode_string(rng, k) + rand_ws(rng) + ":" + rand_ws(rng) +
               rand_value(rng, depth + 1) + rand_ws(rng) for k in keys]
    return "{" + ",".join(members) + (rand_ws(rng) if not members else "") + "}"


def valid_doc(rng):
    return (rand_ws(rng) + rand_value(rng, 0) + rand_ws(rng)).encode("utf-8")


# ---- invalid (or stricter-than-Python) documents ----------------------------------------------

FIXED_INVALID = [
    b"", b" ", b"[1,]", b"[1,2,]", b'{"a":1,}', b'{"a":[1,],"b":2}', b"[,1]", b"{,}", b"[1,,2]",
    b"NaN", b"[NaN]", b"Infinity", b"-Infinity", b'{"a":Infinity}', b"nan", b"inf",
    b"01", b"-01", b"00", b"[007]", b"00.5", b"1.", b".5", b"+1", b"-", b"1e", b"1e+", b"0x1F",
    b"1e400", b"-1e400", b"[1e309]", b"1" + b"0" * 400,
    b'"\\x41"', b'"\\u12"', b'"\\u12G4"', b'"\\U0041"', b'"\\a"', b'"\\', b'"\\u"', b'"abc',
    b'"\\ud800"', b'"\\udc00"', b'"x\\ud800y"', b'"\\ud800\\u0041"', b'"\\ude00\\ud83d"',
    b'{"\\ud800":1}', b'["\\udbff"]',
    b'"\x80"', b'"\xc3"', b'"\xc0\xaf"', b'"\xe0\x80\xaf"', b'"\xed\xa0\x80"',
    b'"\xf0\x80\x80\xaf"',
    b'"\xf4\x90\x80\x80"', b'"\xf5\x80\x80\x80"', b'"\xff"', b'"\xfe\xff"', b'"\xe2\x82"',
    b'\xef\xbb\xbf{}', b"\xff", b'{"a\xc0":1}',
    b'"a\tb"', b'"a\x00b"', b'"\x1f"', b'"\r"',
    b"{a:1}", b"{'a':1}", b"'a'", b'{"a" 1}', b'{"a":}', b'{"a"}', b"[1 2]", b'{"a":1 "b":2}',
    b"[", b"]", b"{", b"}", b"[1]]", b"[1] x", b"1 2", b"{} {}", b"tru", b"truex", b"nul",
    b"True", b"None", b"/* c */ 1", b"[1] // c", b"[\f1]", b"\x0b1",
    b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1),
    b'{"k":' * (MAX_DEPTH + 1) + b"1" + b"}" * (MAX_DEPTH + 1),
    b"[" * 300 + b"]" * 300, b"[" * 5000, b"[" * 100000 + b"]" * 100000,
]

FIXED_VALID = [
    b"[" * MAX_DEPTH + b"]" * MAX_DEPTH,
    b'{"k":' * (MAX_DEPTH - 1) + b"[]" + b"}" * (MAX_DEPTH - 1),
    b"0", b"-0", b"-0.0", b'""', b"[]", b"{}", b" \t\r 1 \t\r ", b'"\\u0000"', b'"\\/"',
    b'{"a":1,"a":2}', b'"\\ud83d\\ude00"', b'"\\uD83D\\uDE00"', b"1E+2", b"1e-2",
    b"18446744073709551615",
    b"18446744073709551616", b"-9223372036854775808", b"-9223372036854775809", b'"\x7f"',
    b'"\xf4\x8f\xbf\xbf"', b'"\xef\xbf\xbf"', b"1e-400",
]

BAD_BYTES = [b"\x80", b"\xbf", b"\xc0\xaf", b"\xc1\x81", b"\xe0\x9f\xbf", b"\xed\xbf\xbf",
             b"\xf0\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xfe", b"\xff",
             b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\x01", b"\x1f", b"\x00"]


def damaged_doc(rng):
    base = valid_doc(rng)
    kind = rng.randrange(9)
    if kind == 0 and len(base) > 1:  # truncation
        return base[: rng.randrange(len(base))]
    if kind == 1:  # a bad byte inside a string
        s = encode_string(rng, rand_string(rng)).encode("utf-8")
        cut = rng.randint(1, len(s) - 1)
        return b"[" + s[:cut] + rng.choice(BAD_BYTES) + s[cut:] + b"]"
    if kind == 2:  # trailing comma
        return rng.choice([b"[1,2,3,]", b'{"a":[true,]}', b'[{"x":1},]']) + rng.choice([b"", b" "])
    if kind == 3:  # a non-JSON literal somewhere
        lit = rng.choice([b"NaN", b"Infinity", b"-Infinity", b"01", b"-00", b"1.e3", b".1",
                          b"+5", b"0x10", b"undefined", b"'x'", b"1e999"])
        return b'{"v":[1,' + lit + b"]}"
    if kind == 4:  # lone surrogate escape
        lone = rng.choice([b"\\ud800", b"\\udfff", b"\\udbff\\u0020", b"\\udc00\\ud800"])
        return b'["ok","' + lone + b'"]'
    if kind == 5:  # bad escape
        return b'"' + rng.choice([b"\\q", b"\\u00g0", b"\\u0", b"\\x20", b"\\'", b"\\ "]) + b'"'
    if kind == 6:  # deep nesting just beyond the limit
        d = rng.randint(MAX_DEPTH + 1, MAX_DEPTH + 50)
        return b"[" * d + b"1" + b"]" * d
    if kind == 7 and base:  # delete a byte
        i = rng.randrange(len(base))
        return base[:i] + base[i + 1:]
    # insert a random byte
    i = rng.randrange(len(base) + 1)
    return base[:i] + bytes([rng.choice(b'{}[],:"\\ 0-.eE\x00\x80\xff')]) + base[i:]


# ---- oracle ------------------------------------------------------------------------------------

REJECTED = object()


class Members(list):
    """Every (key, value) pair of an object, duplicates included: a later duplicate hides an
    earlier value from the dict, but rampart's reader still sees (and may refuse) it."""


def python_parse(doc, keep_duplicates=False):
    """Python's view of the bytes, or REJECTED."""
    try:
        text = doc.decode("utf-8", errors="strict")
        if keep_duplicates:
            return json.loads(text, object_pairs_hook=Members)
        return json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return REJECTED


def rampart_must_refuse(v, depth=1):
    """True where rampart is stricter than Python: NaN/Infinity (incl. overflowed numbers),
    integers too big even for a double, lone surrogates, nesting deeper than MAX_DEPTH."""
    if isinstance(v, float):
        return not math.isfinite(v)
    if isinstance(v, bool) or v is None:
        return False
    if isinstance(v, int):
        if INT64_MIN <= v <= UINT64_MAX:
            return False
        try:
            float(v)
            return False
        except OverflowError:
            return True
    if isinstance(v, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in v)
    if depth > MAX_DEPTH:
        return True
    if isinstance(v, Members):
        return any(rampart_must_refuse(k) or rampart_must_refuse(x, depth + 1) for k, x in v)
    return any(rampart_must_refuse(x, depth + 1) for x in v)


def as_rampart_sees_it(v):
    """Integers beyond the 64-bit ranges are doubles in rampart (json.h)."""
    if isinstance(v, bool) or v is None or isinstance(v, (str, float)):
        return v
    if isinstance(v, int):
        return v if INT64_MIN <= v <= UINT64_MAX else float(v)
    if isinstance(v, list):
        return [as_rampart_sees_it(x) for x in v]
    return {k: as_rampart_sees_it(x) for k, x in v.items()}


def same(a, b):
    """Equality that also requires the same kinds: int vs float, bool, and the sign of 0.0."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    tool = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20260315
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
    rng = random.Random(seed)
    sys.setrecursionlimit(3000)  # Python then rejects the 100000-deep document too

    docs = list(FIXED_VALID) + list(FIXED_INVALID)
    docs += [valid_doc(rng) for _ in range(count)]
    docs += [damaged_doc(rng) for _ in range(count // 10)]
    for d in docs:
        assert b"\n" not in d

    proc = subprocess.run([tool], input=b"\n".join(docs) + b"\n", stdout=subprocess.PIPE,
                          check=False)
    if proc.returncode != 0:
        print("json differential: %s exited with %d" % (tool, proc.returncode))
        return 1
    outputs = proc.stdout.split(b"\n")
    if outputs and outputs[-1] == b"":
        outputs.pop()
    if len(outputs) != len(docs):
        print("json differential: %d documents but %d output lines" % (len(docs), len(outputs)))
        return 1

    passed = failed = accepted = refused = 0
    for i, (doc, out) in enumerate(zip(docs, outputs)):
        py = python_parse(doc)
        must_refuse = py is REJECTED or rampart_must_refuse(python_parse(doc, True))
        problem = None
        if must_refuse:
            if out != b"ERROR":
                problem = "rampart accepted a document it must refuse"
        elif out == b"ERROR":
            problem = "rampart refused a valid document"
        else:
            expected = as_rampart_sees_it(py)
            try:
                got = json.loads(out.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as e:
                got, problem = None, "rampart's output is not JSON (%s)" % e
            if problem is None and not same(got, expected):
                problem = "value or kind differs"
            canonical = json.dumps(expected, sort_keys=True, separators=(",", ":"),
                                   ensure_ascii=False).encode("utf-8")
            if problem is None and out != canonical:
                problem = "text differs from json.dumps: %r" % canonical[:200]
        if problem:
            failed += 1
            if failed <= 20:
                print("MISMATCH #%d: %s\n  input:  %r\n  output: %r"
                      % (i, problem, doc[:200], out[:200]))
        else:
            passed += 1
            if must_refuse:
                refused += 1
            else:
                accepted += 1
    print("json differential: %d passed, %d failed (%d valid, %d refused; seed %d)"
          % (passed, failed, accepted, refused, seed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
