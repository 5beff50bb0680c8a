"""textproto.py — a small reader of the protobuf text format, enough for the CEL conformance
data (cel-spec tests/simple/testdata/*.textproto). Schema-less: the reader does not know the
message types, so it returns what the text says and the caller interprets field names.

    msg = parse(open(path, "rb").read())
    for section in msg.getall("section"):
        for test in section.getall("test"):
            expr = test.get_str("expr")

Values:
  - a nested message (`{...}` or `<...>`)   -> Message
  - a string (adjacent literals joined)     -> bytes (escapes decoded to bytes; callers decode
                                               UTF-8 for string fields, keep bytes for bytes)
  - an integer (decimal, 0x hex, 0 octal)   -> int (arbitrary precision)
  - a float (1.5, 1e9, 1.5f, inf, nan)      -> float
  - an identifier (enum value, true/false)  -> Ident (a str subclass)
Extension and Any fields keep their bracketed name: `[type.googleapis.com/google.protobuf.
Duration] { seconds: 1 }` is a field named "[type.googleapis.com/google.protobuf.Duration]".
"""

import math
import re


class Ident(str):
    """An identifier value: an enum constant or a bool written as a word."""


class ParseError(Exception):
    pass


class Message:
    """An ordered list of (name, value) pairs; repeated fields simply appear several times."""

    __slots__ = ("fields",)

    def __init__(self):
        self.fields = []

    def getall(self, name):
        return [v for k, v in self.fields if k == name]

    def get(self, name, default=None):
        found = default
        for k, v in self.fields:
            if k == name:
                found = v  # last one wins, as for a singular field in the text format
        return found

    def has(self, name):
        return any(k == name for k, _ in self.fields)

    def names(self):
        return [k for k, _ in self.fields]

    def get_str(self, name, default=""):
        v = self.get(name)
        if v is None:
            return default
        if isinstance(v, bytes):
            return v.decode("utf-8")
        return str(v)

    def get_bool(self, name, default=False):
        v = self.get(name)
        if v is None:
            return default
        if isinstance(v, str):
            return v in ("true", "True", "t")
        return bool(v)

    def __repr__(self):
        return "Message(%r)" % (self.fields,)


# Tokens: the order matters (strings and numbers before identifiers and punctuation).
_TOKEN = re.compile(
    rb"""
    (?P<ws>[ \t\r\n\f\v]+|\#[^\n]*)
  | (?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<num>0[xX][0-9a-fA-F]+|(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][+-]?[0-9]+)?[fF]?)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[{}<>\[\]:,;\-/.])
    """,
    re.VERBOSE | re.DOTALL,
)

_SIMPLE_ESCAPES = {
    ord("a"): b"\a",
    ord("b"): b"\b",
    ord("f"): b"\f",
    ord("n"): b"\n",
    ord("r"): b"\r",
    ord("t"): b"\t",
    ord("v"): b"\v",
    ord("\\"): b"\\",
    ord("'"): b"'",
    ord('"'): b'"',
    ord("?"): b"?",
}


def unescape(body):
    """Decodes the escapes of a text-format string body (bytes, without quotes) to bytes."""
    out = bytearray()
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c != 0x5C:  # backslash
            out.append(c)
            i += 1
            continue
        i += 1
        if i >= n:
            raise ParseError("string ends in a backslash")
        c = body[i]
        if c in _SIMPLE_ESCAPES:
            out += _SIMPLE_ESCAPES[c]
            i += 1
        elif 0x30 <= c <= 0x37:  # octal: up to three digits
            j = i
            while j < n and j < i + 3 and 0x30 <= body[j] <= 0x37:
                j += 1
            out.append(int(body[i:j], 8) & 0xFF)
            i = j
        elif c in (ord("x"), ord("X")):  # hex: one or two digits
            j = i + 1
            while j < n and j < i + 3 and chr(body[j]) in "0123456789abcdefABCDEF":
                j += 1
            if j == i + 1:
                raise ParseError("\\x without hex digits")
            out.append(int(body[i + 1 : j], 16))
            i = j
        elif c in (ord("u"), ord("U")):  # code point, written to the bytes as UTF-8
            width = 4 if c == ord("u") else 8
            digits = body[i + 1 : i + 1 + width]
            if len(digits) != width or not all(chr(d) in "0123456789abcdefABCDEF" for d in digits):
                raise ParseError("bad \\u escape")
            cp = int(digits, 16)
            i += 1 + width
            # A UTF-16 surrogate pair written as two \u escapes.
            if 0xD800 <= cp < 0xDC00 and body[i : i + 2] == b"\\u":
                low = int(body[i + 2 : i + 6], 16)
                if 0xDC00 <= low < 0xE000:
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
            out += chr(cp).encode("utf-8", "surrogatepass")
        else:
            raise ParseError("unknown escape \\%c" % c)
    return bytes(out)


def _tokenize(data):
    toks = []
    pos, n = 0, len(data)
    while pos < n:
        m = _TOKEN.match(data, pos)
        if not m:
            line = data.count(b"\n", 0, pos) + 1
            raise ParseError("line %d: unexpected character %r" % (line, data[pos : pos + 1]))
        kind = m.lastgroup
        if kind != "ws":
            toks.append((kind, m.group(kind), pos))
        pos = m.end()
    toks.append(("eof", b"", n))
    return toks


def _number(text, negative):
    t = text.decode("ascii")
    if t[:2] in ("0x", "0X"):
        v = int(t, 16)
    elif re.fullmatch(r"[0-9]+", t):
        v = int(t, 8) if len(t) > 1 and t[0] == "0" else int(t)
    else:
        v = float(t.rstrip("fF"))
    return -v if negative else v


_FLOAT_WORDS = {"inf": math.inf, "infinity": math.inf, "nan": math.nan}


class _Parser:
    def __init__(self, data):
        self.data = data
        self.toks = _tokenize(data)
        self.i = 0

    def peek(self):
        return self.toks[self.i]

    def next(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def fail(self, what):
        kind, text, pos = self.peek()
        line = self.data.count(b"\n", 0, pos) + 1
        found = text.decode("utf-8", "replace")
        raise ParseError("line %d: expected %s, found %r" % (line, what, found))

    def accept(self, punct):
        kind, text, _ = self.peek()
        if kind == "punct" and text == punct:
            self.i += 1
            return True
        return False

    def expect(self, punct):
        if not self.accept(punct):
            self.fail(repr(punct.decode()))

    def message_body(self, close):
        msg = Message()
        while True:
            kind, text, _ = self.peek()
            if close is None and kind == "eof":
                return msg
            if close is not None and kind == "punct" and text == close:
                self.i += 1
                return msg
            if kind == "eof":
                self.fail(repr(close.decode()))
            name = self.field_name()
            colon = self.accept(b":")
            kind, text, _ = self.peek()
            if kind == "punct" and text == b"[":
                # A repeated field written as a list: name: [v1, v2] (an empty list adds nothing).
                self.i += 1
                if not self.accept(b"]"):
                    while True:
                        msg.fields.append((name, self.value(colon)))
                        if self.accept(b"]"):
                            break
                        self.expect(b",")
            else:
                msg.fields.append((name, self.value(colon)))
            # Optional separators between fields.
            if not self.accept(b","):
                self.accept(b";")

    def field_name(self):
        kind, text, _ = self.next()
        if kind == "ident":
            return text.decode("ascii")
        if kind == "punct" and text == b"[":
            # Extension or Any type URL: everything up to the closing bracket, without spaces.
            parts = []
            while True:
                kind, text, _ = self.next()
                if kind == "punct" and text == b"]":
                    break
                if kind == "eof":
                    self.fail("']'")
                parts.append(text.decode("utf-8"))
            return "[" + "".join(parts) + "]"
        self.i -= 1
        self.fail("a field name")

    def value(self, had_colon):
        kind, text, _ = self.peek()
        if kind == "punct" and text in (b"{", b"<"):
            self.i += 1
            return self.message_body(b"}" if text == b"{" else b">")
        if not had_colon:
            self.fail("':' before a scalar value")
        if kind == "str":
            out = b""
            while self.peek()[0] == "str":  # adjacent literals concatenate
                out += unescape(self.next()[1][1:-1])
            return out
        negative = False
        if kind == "punct" and text == b"-":
            negative = True
            self.i += 1
            kind, text, _ = self.peek()
        if kind == "num":
            self.i += 1
            return _number(text, negative)
        if kind == "ident":
            self.i += 1
            word = text.decode("ascii")
            low = word.lower()
            if low in _FLOAT_WORDS:
                v = _FLOAT_WORDS[low]
                return -v if negative else v
            if negative:
                self.fail("a number after '-'")
            return Ident(word)
        self.fail("a value")


def parse(data):
    """Parses a whole text-format document (bytes or str) into a Message."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return _Parser(data).message_body(None)


def parse_file(path):
    with open(path, "rb") as f:
        return parse(f.read())
