#!/usr/bin/env python3
"""check_layout.py — the house rules the build keeps (ctest `layout.check`).

In the spirit of curl's checksrc and top-length: the rules of docs/architecture.md that a
reviewer would otherwise have to remember, checked on every test run.

  1. Include edges: a file in module A may include a header of module B only when the table
     ALLOWED below has the arrow A -> B. A module is the first folder under src/ (policies/
     families count as `policies`); a family folder policies/<family>/ includes only itself,
     policies/common/ and the headers on top of policies/.
  2. No include cycle between modules (implied by 1 while the table is acyclic; checked
     anyway so that a widened table cannot bring one in).
  3. Sizes: no function over 150 lines, no file over 1,200 lines, except the entries of
     SIZE_ALLOW, each with its reason.
  4. One home per rule: the patterns of BANNED mark a second copy of a shared rule and may
     appear only in their home files.
  5. One prefix per module: an `rp_<word>` prefix declared in one module's headers is not
     declared in another's (PREFIX_SHARED lists the exceptions, with their reasons), and the
     old folder-less prefixes (sh_, pb_, ck_) are gone.

Usage: check_layout.py [ROOT]   (exit 0 clean, 1 with one line per violation)
       check_layout.py --self-test ROOT   copies src/ to a temporary tree, adds a backward
                                          include and checks that the checker fails on it.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Arrows run one way: cli -> hosts, install -> session -> config -> policies, permissions
# -> cost -> engine -> core. The leaf libraries depend on core alone (shell also on path, a
# leaf below it) and may be used from any layer above the engine's contract.
LEAVES = {"shell", "path", "cel", "scan", "store"}
ALLOWED = {
    "core": set(),
    # path: write targets are normalised against the cwd by the one path normaliser.
    "shell": {"path", "core"},
    "path": {"core"},
    "cel": {"core"},
    "scan": {"core"},
    "store": {"core"},
    # The contract. scan: reasons are redacted where the engine composes them.
    "engine": {"core", "scan"},
    # store: the usage row type the ledger and the transcript reader share.
    "cost": {"engine", "store", "core"},
    # pi's rule model, usable without the engine: policies/permissions.c adapts it.
    "permissions": {"shell", "path", "core"},
    "policies": {"engine", "cost", "permissions", "shell", "path", "cel", "scan", "core"},
    # store: the trust file's checks; path: `cwd` aliases in permission paths.
    "config": {"policies", "permissions", "engine", "cost", "store", "path", "cel", "scan", "core"},
    "session": {"config", "cost", "store", "engine", "scan", "core"},
    "hosts": {"session", "config", "cost", "store", "engine", "shell", "path", "scan", "core"},
    "install": {"hosts", "permissions", "config", "store", "engine", "shell", "path", "core"},
    "cli": None,  # anything
}

FUNCTION_MAX = 150
FILE_MAX = 1200
# path (relative to src/) or path:function -> reason
SIZE_ALLOW = {
    "shell/lex_word.c:rp_sh_lex_word": "one state machine over bash's word grammar; split, its "
                                     "cases would share a dozen locals through a struct",
}

# (regex, home files relative to src/, what it marks)
BANNED = [
    (r'"\*\*\* (Add|Update|Delete) File|"\*\*\* (Begin|End) Patch', {"shell/patch.c"},
     "an apply_patch header reader outside shell/patch.c"),
    (r'"(\+\+\+|---) ', {"shell/patch.c"}, "a unified-diff header reader outside shell/patch.c"),
    # A hex digit read by hand ('a' + 10, isxdigit) or a helper named for it: rp_hex_digit.
    (r"\bhex_value\s*\(|\bhexval\s*\(|\bhex_digit_value\s*\(|<=\s*'[fF]'|\bisxdigit\s*\(",
     {"core/utf8.c"}, "a hex-digit helper outside core/utf8.c"),
    # A UTF-8 codec: a static utf8_* helper, a decoder's (cp << 6) | (b & 0x3F) step, an
    # encoder's 0x80 | (cp & 0x3F) byte, or a lead-byte class test (c & 0xE0) == 0xC0.
    (r'^\s*static\b[^;{]*\butf8_\w*\s*\(|<<\s*6\)?\s*\|[^;]*&\s*0x3[fF]\b|'
     r'0x80\s*\|[^;]*&\s*0x3[fF]\b|&\s*0x[eE]0\)\s*==\s*0x[cC]0\b',
     {"core/utf8.c"}, "a private UTF-8 helper outside core/utf8.c"),
    (r'\bpcre2_\w+\s*\(|\bregcomp\s*\(', {"core/regex.c"},
     "a regular-expression engine call outside core/regex.c"),
    (r'strcspn\s*\([^;]*" "\)|strtok(_r)?\s*\([^;]*" "', None,
     "a space tokeniser for command text outside shell/ (use rp_sh_parse)"),
    # a word loop by hand: `while (*s && *s != ' ' && *s != '\t')`
    (r"while\s*\(\s*\*(\w+)\s*&&\s*\*\1\s*!=\s*' '\s*&&\s*\*\1\s*!=\s*'\\t'", None,
     "a space tokeniser for command text outside shell/ (use rp_sh_parse)"),
]
BANNED_TOKENISER_HOME = "shell/"
# path (relative to src/) -> why it may split text on blanks
TOKENISER_ALLOW = {
    "permissions/perm_suggest.c": "the suggested session rule is a glob over the command text "
                                  "as written (pi-permission-system's §5.3 arity prefix), so it "
                                  "keeps the written tokens, not argv",
}

# prefix -> reason it is declared by more than one module
PREFIX_SHARED = {
    "rp_policy": "engine declares the contract (rp_policy_type, rp_policy_slot); policies/ "
                 "define its instances, rp_policy_<name>, one per builtin",
}
OLD_PREFIXES = re.compile(r"^(sh|pb|ck|SH|PB|CK)_")

INCLUDE_RX = re.compile(r'^\s*#\s*include\s+([<"])([^">]+)[">]', re.M)


def module_of(rel):
    return rel.split("/", 1)[0]


def policy_family_problem(rel, inc):
    """A builtin family (policies/<family>/) sees its own family, policies/common/ and the
    registry on top, never another family: families are independent, as curl's vtls backends."""
    parts, inc_parts = rel.split("/"), inc.split("/")
    if len(parts) < 3 or parts[0] != "policies" or len(inc_parts) < 3 or inc_parts[0] != "policies":
        return None
    family, other = parts[1], inc_parts[1]
    if other in (family, "common"):
        return None
    return f"policies/{family}/ may not include {inc} (families are independent; share through policies/common/)"


def source_files(src):
    for dirpath, _, names in os.walk(src):
        for n in sorted(names):
            if n.endswith((".c", ".h")):
                yield os.path.relpath(os.path.join(dirpath, n), src)


def strip_comments_and_strings(text, keep_strings=False):
    """Blank out comments (and string/char literals unless keep_strings), keeping newlines."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(text[i:j] if keep_strings else c + " " * (j - i - 2) + c)
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


FUNC_HEAD_RX = re.compile(r"([A-Za-z_]\w*)\s*\([^;{}]*\)\s*$")


def functions(text):
    """Yields (name, first_line, line_count) of each top-level function definition."""
    clean = strip_comments_and_strings(text)
    depth = 0
    start = None
    name = None
    line = 1
    head = ""
    for ch in clean:
        if ch == "\n":
            line += 1
        if depth == 0:
            if ch == "{":
                m = FUNC_HEAD_RX.search(head.strip())
                # struct/enum/union bodies and initialisers are not functions
                if m and not re.search(r"=\s*$", head) and not re.search(
                        r"\b(struct|enum|union)\s+\w*\s*$", head.strip()):
                    name, start = m.group(1), line
                else:
                    name, start = None, None
                depth = 1
                head = ""
                continue
            if ch in ";}":
                head = ""
            else:
                head += ch
        else:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    if name:
                        yield name, start, line - start + 1
                    name = None
                    head = ""
    return


def declared_names(text):
    """Identifiers a header declares: functions, types, tags, enum constants, externs."""
    t = re.sub(r"^#.*$", "", strip_comments_and_strings(text), flags=re.M)
    out = set()
    for m in re.finditer(r"^(?:extern\s+|static\s+inline\s+)?[A-Za-z_][\w\s\*]*?\b([A-Za-z_]\w*)\s*\(",
                         t, re.M):
        out.add(m.group(1))
    for m in re.finditer(r"typedef\s+[^;{}]*?\b([A-Za-z_]\w*)\s*;", t):
        out.add(m.group(1))
    for m in re.finditer(r"\b(?:struct|enum|union)\s+([A-Za-z_]\w*)\s*\{", t):
        out.add(m.group(1))
    for m in re.finditer(r"^\}\s*([A-Za-z_]\w*)\s*;", t, re.M):
        out.add(m.group(1))
    for m in re.finditer(r"^extern\s+[^;()]*?\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*;", t, re.M):
        out.add(m.group(1))
    return out


def prefix_problems(src):
    owners = {}
    problems = []
    for rel in source_files(src):
        if not rel.endswith(".h"):
            continue
        parts = rel.split("/")
        mod = "/".join(parts[:2]) if parts[0] == "policies" and len(parts) > 2 else parts[0]
        text = open(os.path.join(src, rel), encoding="utf-8", errors="replace").read()
        for name in sorted(declared_names(text)):
            if OLD_PREFIXES.match(name):
                problems.append(f"src/{rel}: {name} has a prefix that does not say its module "
                                "(rp_sh_, rp_perm_, cel_check_)")
            if name.startswith("rp_") and name.count("_") >= 1:
                prefix = "_".join(name.split("_")[:2])
                owners.setdefault(prefix, {}).setdefault(mod, rel)
    for prefix, mods in sorted(owners.items()):
        if len(mods) > 1 and prefix not in PREFIX_SHARED:
            where = ", ".join(f"{m} (src/{r})" for m, r in sorted(mods.items()))
            problems.append(f"prefix {prefix}_ is declared by more than one module: {where}")
    return problems


def check(root):
    src = os.path.join(root, "src")
    problems = []
    edges = {}
    for rel in source_files(src):
        mod = module_of(rel)
        text = open(os.path.join(src, rel), encoding="utf-8", errors="replace").read()
        if mod not in ALLOWED:
            problems.append(f"src/{rel}: module '{mod}' is not in the layout table "
                            "(scripts/check_layout.py ALLOWED)")
            continue
        # 1. include edges
        for m in INCLUDE_RX.finditer(text):
            quote, inc = m.group(1), m.group(2)
            lineno = text.count("\n", 0, m.start()) + 1
            if ".." in inc.split("/") or inc.startswith("/"):
                # "../engine/policy.h", "core/../engine/policy.h": write module/file.h, so that
                # the module an include reaches is its first folder
                problems.append(f"src/{rel}:{lineno}: include \"{inc}\" names a path with "
                                "'..' or from '/'; write \"module/file.h\"")
                here = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
                inc = here if os.path.exists(os.path.join(src, here)) else os.path.normpath(inc)
            if "/" not in inc:
                continue
            if not os.path.exists(os.path.join(src, inc)):
                continue  # a system or generated header
            if quote == "<":
                problems.append(f"src/{rel}:{lineno}: <{inc}> is one of rampart's headers; "
                                "include it with quotes")
            target = module_of(inc)
            family_problem = policy_family_problem(rel, inc)
            if family_problem:
                problems.append(f"src/{rel}:{lineno}: {family_problem}")
            if target != mod:
                edges.setdefault(mod, set()).add(target)
                allowed = ALLOWED[mod]
                if allowed is not None and target not in allowed:
                    problems.append(f"src/{rel}:{lineno}: {mod}/ may not include {inc} "
                                    f"({mod} -> {target} runs against the arrows)")
        # 3. sizes
        nlines = text.count("\n")
        if nlines > FILE_MAX and rel not in SIZE_ALLOW:
            problems.append(f"src/{rel}: {nlines} lines (limit {FILE_MAX}); split it or add "
                            "it to SIZE_ALLOW with a reason")
        for fname, first, count in functions(text):
            if count > FUNCTION_MAX and f"{rel}:{fname}" not in SIZE_ALLOW:
                problems.append(f"src/{rel}:{first}: function {fname} is {count} lines "
                                f"(limit {FUNCTION_MAX})")
        # 4. second homes
        code = strip_comments_and_strings(text, keep_strings=True)
        for rx, homes, what in BANNED:
            if homes is None:
                if rel.startswith(BANNED_TOKENISER_HOME) or rel in TOKENISER_ALLOW:
                    continue
            elif rel in homes:
                continue
            for m in re.finditer(rx, code, re.M):
                lineno = code.count("\n", 0, m.start()) + 1
                problems.append(f"src/{rel}:{lineno}: {what}")
    # 5. one prefix per module
    problems.extend(prefix_problems(src))
    # 2. cycles between modules
    seen, stack = set(), []

    def visit(m):
        if m in stack:
            cyc = stack[stack.index(m):] + [m]
            problems.append("include cycle between modules: " + " -> ".join(cyc))
            return
        if m in seen:
            return
        seen.add(m)
        stack.append(m)
        for t in sorted(edges.get(m, ())):
            visit(t)
        stack.pop()

    for m in sorted(edges):
        visit(m)
    return problems


# (file under src/, text appended to it, words a reported problem must contain, what it is)
SELF_TEST_PROBES = [
    ("core/arena.c", '\n#include "engine/policy.h"\n', ["core/arena.c", "engine/policy.h"],
     "a backward include core -> engine"),
    ("core/clock.c", "\n#include <engine/policy.h>\n", ["core/clock.c", "engine"],
     "#include <engine/policy.h> in core/"),
    ("core/clock.c", '\n#include "../engine/policy.h"\n', ["core/clock.c", "engine"],
     '#include "../engine/policy.h" in core/'),
    ("core/clock.c", '\n#include "core/../engine/policy.h"\n', ["core/clock.c", "engine"],
     '#include "core/../engine/policy.h" in core/'),
    ("core/buf.c", "\nint rp_layout_probe(void);\nint rp_layout_probe(void)\n{\n" +
     "    int x = 0;\n" * 160 + "    return x;\n}\n", ["rp_layout_probe"],
     "a 160-line function"),
    ("hosts/codex.c", '\nstatic const char *rp_layout_hdr = "*** Update File: ";\n',
     ["hosts/codex.c", "apply_patch"], "a second apply_patch reader"),
    ("install/settings_splice.c", "\nstatic void rp_layout_words(const char *s)\n{\n"
     "    while (*s && *s != ' ' && *s != '\\t')\n        s++;\n}\n",
     ["install/settings_splice.c", "tokeniser"], "a word splitter outside shell/"),
    ("shell/ansi_c.c", "\nstatic char rp_layout_cont(unsigned cp)\n{\n"
     "    return (char)(0x80 | (cp & 0x3F));\n}\n", ["shell/ansi_c.c", "UTF-8"],
     "a second UTF-8 encoder"),
]


def self_test(root):
    """The check must be able to fail: each probe, planted alone in a copy of src/, must be
    reported."""
    tmp = tempfile.mkdtemp(prefix="rampart-layout-")
    try:
        shutil.copytree(os.path.join(root, "src"), os.path.join(tmp, "src"))
        if check(tmp):
            print("self-test: the tree is not clean to begin with", file=sys.stderr)
            return 1
        for rel, text, needles, what in SELF_TEST_PROBES:
            path = os.path.join(tmp, "src", rel)
            original = open(path, encoding="utf-8").read()
            with open(path, "a", encoding="utf-8") as f:
                f.write(text)
            found = check(tmp)
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
            if not any(all(n in p for n in needles) for p in found):
                print(f"self-test: {what} was not reported", file=sys.stderr)
                return 1
        print(f"self-test: all {len(SELF_TEST_PROBES)} probes reported (backward includes, a long "
              "function, second homes)")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    args = sys.argv[1:]
    if args and args[0] == "--self-test":
        return self_test(args[1] if len(args) > 1 else ".")
    root = args[0] if args else "."
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layout problem(s); the rules are in docs/architecture.md",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
