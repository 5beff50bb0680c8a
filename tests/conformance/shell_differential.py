#!/usr/bin/env python3
"""Differential test of rampart's shell parser (rp_sh_parse) against bash itself.

Usage: shell_differential.py PATH/TO/shell_words [VECTORS.jsonl] [SEED] [COUNT]

The corpus: every shell command of the policy vectors (data.arguments.command of tool_call
events) and of examples/sessions, a hand-written list of tricky constructs, COUNT commands from a
seeded grammar-based generator (words with every kind of quoting and escaping, ANSI-C strings,
line continuations, comments, assignments, redirections, here-documents, pipelines, lists,
subshells and brace groups), and damaged copies of them (a character deleted, inserted or
doubled, or the text cut short) that bash mostly refuses.

Two checks:
1. Validity: `bash -n -c CMD` fails  <=>  rp_sh_parse says unreadable. Documented exceptions,
   where rampart is deliberately stricter than bash:
     - a here-document without its delimiter line (bash warns and runs it);
     - a syntax error inside `…` (bash parses a backtick body only when it runs it, so
       `bash -n` accepts it; rp_sh_parse reads the body at once and refuses);
     - likewise a bad substitution inside an unquoted here-document body;
     - a string a wrapper runs as a command (bash -c 'cd /et)c', eval, env -S, ssh host …)
       that does not parse: to bash -n it is only a quoted word;
     - a NUL byte (never generated).
2. Words: for a command rampart reads as simple constructs only (no expansions, loops,
   conditionals, substitutions), the argv of every simple command at depth 0 must be what bash
   passes. bash runs the commands in a throw-away directory with PATH empty and every program
   name defined as a shell function that logs "$@" (NUL-separated) to a file; the logs of each
   command are compared with rampart's words as multisets (pipeline stages run concurrently).
   Programs that are bash keywords or builtins that a function cannot stand in for are not run.

Prints "shell differential: N passed, M failed" and exits 1 on any failure.
"""
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.dirname(os.path.dirname(HERE))

# RP_SH_CTX_* bits a command may carry and still be compared word by word.
CTX_PIPELINE, CTX_BACKGROUND, CTX_SUBSHELL, CTX_BRACE = 1, 2, 4, 8
CTX_CONDITIONAL = 1 << 14
SIMPLE_CTX = CTX_PIPELINE | CTX_BACKGROUND | CTX_SUBSHELL | CTX_BRACE | CTX_CONDITIONAL

# rp_sh_redir_op values whose use keeps a command runnable in the sandbox.
REDIR_OUT, REDIR_APPEND, REDIR_IN, REDIR_INOUT, REDIR_CLOBBER = 0, 1, 2, 3, 4
REDIR_DUP_OUT, REDIR_DUP_IN, REDIR_OUT_ERR, REDIR_APPEND_ERR = 5, 6, 7, 8
REDIR_HEREDOC, REDIR_HEREDOC_STRIP, REDIR_HERESTRING = 9, 10, 11
FILE_WRITES = {REDIR_OUT, REDIR_APPEND, REDIR_INOUT, REDIR_CLOBBER, REDIR_OUT_ERR,
               REDIR_APPEND_ERR}
IN_BACKTICKS = "syntax error inside a backtick substitution"  # SH_ERROR_IN_BACKTICKS
IN_HEREDOC = "syntax error in a substitution inside a here-document"  # SH_ERROR_IN_HEREDOC
IN_STRING = "syntax error in a string a wrapper runs as a command"  # SH_ERROR_IN_STRING
SAFE_TARGET = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]*$")

# Names a logging function may not stand in for: keywords, and builtins whose arguments bash
# parses specially or that run other code (printf is the logger's own).
NOT_STUBBABLE = set("""
if then else elif fi case esac for select while until do done in function time coproc
declare typeset local export readonly command builtin exec eval source . enable unset alias
unalias set shopt trap exit return break continue shift wait printf let mapfile readarray
""".split())
STUB_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.+-]*$")


# ---- the corpus ------------------------------------------------------------------------------

def commands_in(value, out):
    if isinstance(value, dict):
        if value.get("type") == "tool_call" and isinstance(value.get("data"), dict):
            args = value["data"].get("arguments")
            if isinstance(args, dict) and isinstance(args.get("command"), str):
                out.append(args["command"])
        for v in value.values():
            commands_in(v, out)
    elif isinstance(value, list):
        for v in value:
            commands_in(v, out)


def corpus_from_files(paths):
    out = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    line = line.strip()
                    if line:
                        try:
                            commands_in(json.loads(line), out)
                        except ValueError:
                            pass
        except OSError:
            pass
    return out


TRICKY = [
    "echo \"$(printf ')' \"$(id -u)\")\"",
    "x=$(case a in a) echo hi;; esac)",
    "echo $(echo ')')",
    "echo `echo \\`echo hi\\``",
    "cat <<EOF\n$(ls)\nEOF",
    "cat <<'EOF'\n$(ls)\nEOF\n",
    "cat <<-E\n\tbody\n\tE\n",
    "cat <<A; cat <<B\na\nA\nb\nB\n",
    "a=(1 2 'x y') b+=3 prog",
    "f() { echo a; }; f",
    "function g { echo; }",
    "if a; then b; elif c; then d; else e; fi",
    "for x in a b; do echo $x; done",
    "for ((i=0;i<3;i++)); do :; done",
    "while read l; do echo; done < f",
    "case $x in (a|b) echo;; *) ;; esac",
    "[[ -f a && b < c ]]",
    "(( i = 1 + 2 ))",
    "echo $((1+(2*3)))",
    "echo $((ls) )",
    "diff <(ls) >(cat)",
    "echo a#b #c",
    "echo \\\n  continued",
    "echo $'\\x41\\u00e9\\cA'",
    "echo ${x:-\"}\"}",
    "{ echo a; } > out",
    "( cd /tmp && ls ) | wc -l",
    "ls |& cat",
    "! ls",
    "time -p ls",
    "echo a >&2",
    "exec 3>&1",
    "echo {a,b} ~ *.c",
    "echo )", "echo (", "((", "))", "{ echo a }", "if then fi", "a && && b", "a |", "a ;; b",
    "echo 'x", "echo \"x", "echo $(x", "echo ${x", "echo `x", "f() echo", "case x in a) echo",
    "for x in a; echo; done", "echo a=(b)", "cat <<", "echo >", "a; ; b", "& a", "a & & b",
    "[[ a", "(( 1", "echo $((1", "<(ls", "echo }", "}", "{", "!", "time", "a=1", "> x",
]

RUN_GENERATED = 450
PROGRAMS = ["git", "ls", "cat", "grep", "rm", "npm", "make", "touch", "p1", "tool-x", "py.t",
            "sudo", "env", "nohup", "timeout", "xargs", "echo", "cd", "test", "true"]
SAFE_CHARS = "abcdefghijklmnopqrstuvwxyzABCXYZ0123456789._-/=,:@%+"
QUOTED_CHARS = " ;|&<>()$`\"\\*?[]{}#~!\t\n=abcXYZ019'"


def gen_plain(r):
    return "".join(r.choice(SAFE_CHARS) for _ in range(r.randint(1, 6)))


def gen_single(r):
    body = "".join(r.choice(QUOTED_CHARS.replace("'", "")) for _ in range(r.randint(0, 6)))
    return "'" + body + "'"


def gen_double(r):
    parts = []
    for _ in range(r.randint(0, 5)):
        k = r.random()
        if k < 0.25:
            parts.append("\\" + r.choice("\"\\$`an\n"))
        else:
            parts.append(r.choice(QUOTED_CHARS.replace("\"", "").replace("$", "")
                                  .replace("`", "").replace("\\", "")))
    return "\"" + "".join(parts) + "\""


def gen_backslash(r):
    return "\\" + r.choice(" ;|&<>()'\"$`*?[]{}#~!\\abc=")


def gen_ansi_c(r):
    pieces = ["a", "Z", " ", "\\n", "\\t", "\\x41", "\\x7", "\\101", "\\u00e9", "\\U0001F600",
              "\\'", "\\\\", "\\a", "\\cA", "\\c?", "\\e", "\\\"", "\\?", "\\q", "$", "`"]
    return "$'" + "".join(r.choice(pieces) for _ in range(r.randint(0, 4))) + "'"


def gen_word(r):
    gens = [gen_plain, gen_plain, gen_plain, gen_single, gen_double, gen_backslash, gen_ansi_c,
            lambda r: "$\"" + gen_plain(r) + "\""]
    parts = [r.choice(gens)(r) for _ in range(r.randint(1, 3))]
    if r.random() < 0.05:
        parts.insert(r.randint(1, len(parts)), "\\\n")
    word = "".join(parts)
    if word.startswith(("#", "~", "\\\n")):
        word = "x" + word
    return word


def gen_redirect(r):
    return r.choice([
        "> o1", ">>o2", "2>&1", "2> e1", ">| o3", "&> o4", "&>>o5", "1>o6", ">&2", "2>&1 >&2",
        "<<< " + gen_word(r), "<> rw1", "3>o7",
    ])


def gen_simple(r, heredocs):
    words = []
    for _ in range(r.choice([0, 0, 0, 1, 2])):
        name = r.choice(["A", "B", "x_1", "_v"])
        words.append(name + r.choice(["=", "+="]) + r.choice(["", gen_plain(r), gen_single(r)]))
    words.append(r.choice(PROGRAMS))
    for _ in range(r.randint(0, 4)):
        words.append(gen_redirect(r) if r.random() < 0.12 else gen_word(r))
    if heredocs is not None:
        delim = r.choice(["EOF", "'EOF'", "\"E\"", "X"])
        strip = r.random() < 0.3
        words.insert(r.randint(1, len(words)), ("<<-" if strip else "<<") + delim)
        heredocs.append((delim.strip("'\""), strip))
    sep = [" ", "  ", "\t", " \\\n "]
    out = words[0]
    for w in words[1:]:
        out += r.choice(sep[:3] if r.random() < 0.95 or heredocs else sep) + w
    return out


def gen_command(r, depth):
    if depth < 2 and r.random() < 0.12:
        inner = gen_list(r, depth + 1)
        if r.random() < 0.5:
            return "( " + inner + " )" if r.random() < 0.5 else "(" + inner + ")"
        return "{ " + inner + "; }"
    return gen_simple(r, None)


def gen_pipeline(r, depth):
    out = gen_command(r, depth)
    for _ in range(r.choice([0, 0, 1, 2])):
        out += r.choice([" | ", "|", " |& "]) + gen_command(r, depth)
    return out


def gen_and_or(r, depth):
    # Every `||` follows a negated pipeline, every `&&` a plain one: stubs succeed, so then
    # every command runs.
    out = ""
    n = r.choice([1, 1, 2, 3])
    for i in range(n):
        last = i == n - 1
        op = None if last else r.choice(["&&", "||"])
        pipeline = gen_pipeline(r, depth)
        if op == "||":
            pipeline = "! " + pipeline
        out += pipeline
        if op:
            out += " " + op + r.choice([" ", "\n"])
    return out


def gen_list(r, depth):
    out = gen_and_or(r, depth)
    for _ in range(r.choice([0, 0, 1, 2])):
        sep = r.choice(["; ", ";", " & ", "\n"])
        out += sep + gen_and_or(r, depth)
    return out


def gen_program(r):
    if r.random() >= 0.12:
        text = gen_list(r, 0)
        if r.random() < 0.1:
            text += " # " + "".join(r.choice(QUOTED_CHARS.replace("\n", "")) for _ in range(8))
        return text
    # A here-document: its command ends the first line, the body follows that line.
    heredocs = []
    text = gen_simple(r, heredocs)
    if r.random() < 0.5:
        text += r.choice([" | ", " && ", "; "]) + gen_simple(r, None)
    delim, strip = heredocs[0]
    body = "\n".join(r.choice(["line one", "\tindented $x", "a `b` c", "", delim + "x"])
                     for _ in range(r.randint(0, 3)))
    text += "\n" + (body + "\n" if body else "") + ("\t" if strip else "") + delim
    if r.random() < 0.5:
        text += "\n" + gen_list(r, 0)
    return text


def damage(r, text):
    k = r.random()
    if not text:
        return text
    i = r.randrange(len(text))
    if k < 0.35:
        return text[:i] + text[i + 1:]
    if k < 0.7:
        return text[:i] + r.choice("'\"(){};|&<>$`\\\n#") + text[i:]
    if k < 0.85:
        return text[:i] + text[i] + text[i:]
    return text[:i]


def build_corpus(vector_paths, seed, count):
    r = random.Random(seed)
    seen, corpus = set(), []

    def add(c):
        if "\0" not in c and c not in seen:
            seen.add(c)
            corpus.append(c)

    for c in corpus_from_files(vector_paths):
        add(c)
    for c in TRICKY:
        add(c)
    base = list(corpus)
    for _ in range(count):
        add(gen_program(r))
    generated = corpus[len(base):]
    # Word by word: a sample of the generated commands (every command runs: see gen_and_or;
    # each costs bash a few forks, slow on small machines), and the others when no `||` or `!`
    # can skip a command. Damaged copies are for validity only.
    runnable = set(generated[:RUN_GENERATED]) | {
        c for c in base if "||" not in c and "!" not in c}
    for c in r.sample(base + generated, min(len(base + generated), count // 2)):
        add(damage(r, c))
    return corpus, runnable


# ---- oracles ---------------------------------------------------------------------------------

def run_bash_script(lines, cwd, env):
    """Runs a bash script from a file (it is too long for -c); returns stdout, stderr."""
    path = os.path.join(cwd, "..", "script.sh")
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write("\n".join(lines) + "\n")
    p = subprocess.run(["/bin/bash", path], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=300)
    return p.stdout, p.stderr


def sandbox():
    work = tempfile.mkdtemp(prefix="rp-shdiff-")
    run_dir = os.path.join(work, "run")
    os.mkdir(run_dir)
    env = {"PATH": os.path.join(work, "no-programs"), "HOME": run_dir, "LC_ALL": "C.UTF-8"}
    return work, run_dir, env


def bash_validity(corpus):
    """(accepted, stderr) per command, from one bash process and without running anything.

    Processes are slow to start on small CI machines (a fork costs ~10 ms), so a command is
    parsed as the body of a function definition, which bash parses but does not run: eval of
    `__rp_f() {` CMD `}` fails exactly when CMD does not parse. A `}` in CMD could close that
    body early and run the rest, so such a command is instead parsed by eval after `set -n`
    (bash's eval skips execution under -n in a non-interactive shell) in a subshell, so that
    -n does not stick. The blank line before the closing brace keeps a trailing backslash from
    joining it."""
    result = [None] * len(corpus)
    start = 0
    while start < len(corpus):
        # Some syntax errors (inside $( … )) make bash abandon the whole script: the command it
        # died on is refused, and a new bash goes on from the next one.
        status, errors = validity_batch(corpus, start)
        for i, rc in status.items():
            result[i] = (rc == 0, errors.get(i, ""))
        done = max(list(status) + list(errors) + [start - 1])
        if done < start:
            sys.exit("bash answered nothing from command %d on" % start)
        if result[done] is None:
            result[done] = (False, errors.get(done, ""))
        start = done + 1
    return result


def validity_batch(corpus, start):
    work, run_dir, env = sandbox()
    try:
        lines = ["__rp_c[%d]=%s" % (i, ansi_c_quote(corpus[i])) for i in range(start, len(corpus))]
        lines.append(
            "for __rp_i in \"${!__rp_c[@]}\"; do __rp_t=${__rp_c[$__rp_i]}; "
            "printf '\\036%s\\n' \"$__rp_i\" >&2; "
            "if [[ $__rp_t == *}* ]]; then ( eval $'set -n\\n'\"$__rp_t\" ); "
            "else eval $'__rp_f() {\\n:\\n'\"$__rp_t\"$'\\n\\n}'; fi; "
            "printf '%s %s\\n' \"$__rp_i\" \"$?\"; done")
        out, err = run_bash_script(lines, run_dir, env)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    status = {}
    for line in out.decode().splitlines():
        i, rc = line.split()
        status[int(i)] = int(rc)
    errors = {}
    for chunk in err.decode("utf-8", "replace").split("\036")[1:]:
        head, _, rest = chunk.partition("\n")
        errors[int(head)] = rest
    return status, errors


def bash_n(cmd):
    """`bash -n -c CMD`: (accepted, stderr)."""
    p = subprocess.run(["bash", "-n", "-c", cmd], stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=30)
    return p.returncode == 0, p.stderr.decode("utf-8", "replace")


def heredoc_at_end(stderr):
    return "here-document" in stderr and "delimited by end-of-file" in stderr


def rampart_reads(tool, corpus):
    data = "".join(json.dumps(c) + "\n" for c in corpus).encode()
    p = subprocess.run([tool], input=data, capture_output=True, timeout=120)
    if p.returncode != 0:
        sys.exit("shell_words failed: " + p.stderr.decode("utf-8", "replace"))
    lines = p.stdout.decode("utf-8", "surrogateescape").splitlines()
    if len(lines) != len(corpus):
        sys.exit("shell_words answered %d lines for %d commands" % (len(lines), len(corpus)))
    return [json.loads(line) for line in lines]


def comparable(parse):
    """The depth-0 argvs rampart says bash runs, or None when the command is not simple."""
    if not parse["ok"]:
        return None
    argvs = []
    for c in parse["cmds"]:
        if c["depth"] != 0:
            continue
        if not c["static"] or c["ctx"] & ~SIMPLE_CTX:
            return None
        for op, fd, target in c["redirs"]:
            if op in FILE_WRITES and not SAFE_TARGET.match(target):
                return None
            if op in (REDIR_IN, REDIR_DUP_IN):
                return None
            if op == REDIR_DUP_OUT and target not in ("0", "1", "2"):
                return None
        if not c["argv"]:
            continue
        prog = c["argv"][0]
        if c["program"] in ("[[", "((") or prog in NOT_STUBBABLE or not STUB_NAME.match(prog):
            return None
        argvs.append(c["argv"])
    # Nothing to compare (a lone function definition would even replace a stub).
    return argvs or None


def ansi_c_quote(text):
    out = []
    for b in text.encode("utf-8", "surrogateescape"):
        ch = chr(b)
        if 0x20 <= b < 0x7F and ch not in "\\'":
            out.append(ch)
        else:
            out.append("\\x%02x" % b)
    return "$'" + "".join(out) + "'"


def bash_argvs(cases):
    """Runs each command in a sandboxed bash; returns, per command, the argvs logged. Every
    call of a stub writes its own file (concurrent pipeline stages cannot interleave)."""
    names = sorted({argv[0] for _, argvs in cases for argv in argvs})
    work, run_dir, env = sandbox()
    try:
        log = os.path.join(work, "log")
        os.mkdir(log)
        env["__RP_LOG"] = log
        script = ["shopt -s lastpipe", "__rp_log() { __rp_n=$((__rp_n + 1)); "
                  "printf '%s\\0' \"$@\" > \"$__RP_LOG/$__rp_i/$BASHPID.$__rp_n\"; }"]
        for name in names:
            script.append("%s() { __rp_log %s \"$@\"; }" % (name, name))
        for i, (cmd, _) in enumerate(cases):
            script.append("__rp_c[%d]=%s" % (i, ansi_c_quote(cmd)))
            os.mkdir(os.path.join(log, str(i)))
        script.append("for __rp_i in \"${!__rp_c[@]}\"; do "
                      "eval \"${__rp_c[$__rp_i]}\"; wait; done </dev/null >/dev/null 2>&1")
        run_bash_script(script, run_dir, env)
        result = []
        for i in range(len(cases)):
            argvs = []
            case_dir = os.path.join(log, str(i))
            for name in os.listdir(case_dir) if os.path.isdir(case_dir) else []:
                with open(os.path.join(case_dir, name), "rb") as f:
                    data = f.read()
                argvs.append([t.decode("utf-8", "surrogateescape")
                              for t in data.split(b"\0")[:-1]])
            result.append(argvs)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return result


# ---- the test --------------------------------------------------------------------------------

def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    tool = sys.argv[1]
    vectors = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        SOURCE_DIR, "..", "shared", "vectors", "policies.jsonl")
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 1500
    sessions = os.path.join(SOURCE_DIR, "examples", "sessions")
    paths = [vectors] + ([os.path.join(sessions, f) for f in sorted(os.listdir(sessions))]
                         if os.path.isdir(sessions) else [])
    corpus, runnable = build_corpus(paths, seed, count)
    parses = rampart_reads(tool, corpus)
    # Both bash runs at once. Commands are run when rampart reads them; those bash refuses
    # are not compared (bash stops at the syntax error, in the sandbox).
    candidates = []
    for cmd, parse in zip(corpus, parses):
        argvs = comparable(parse) if cmd in runnable else None
        if argvs is not None:
            candidates.append((cmd, argvs))
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        run = pool.submit(bash_argvs, candidates)
        validity = bash_validity(corpus)
        validity_seconds = time.monotonic() - started
        logged = dict(zip([c for c, _ in candidates], run.result()))
    run_seconds = time.monotonic() - started

    passed = failed = exceptions = 0
    failures = []
    # The oracle itself: eval under -n must agree with `bash -n -c` (a sample, one process each).
    for i in random.Random(seed).sample(range(len(corpus)), min(25, len(corpus))):
        accepted, stderr = bash_n(corpus[i])
        if heredoc_at_end(stderr) or heredoc_at_end(validity[i][1]):
            continue  # inside the function body the here-doc swallows the closing brace
        if accepted != validity[i][0]:
            failed += 1
            failures.append("oracle: bash -n -c and eval under set -n disagree: %r" % corpus[i])
    cases = []
    for cmd, parse, (bash_ok, bash_err) in zip(corpus, parses, validity):
        if bash_ok == parse["ok"]:
            passed += 1
        elif heredoc_at_end(bash_err) and not parse["ok"]:
            passed += 1
            exceptions += 1
        elif bash_ok and parse["error"] in (IN_BACKTICKS, IN_HEREDOC, IN_STRING):
            passed += 1
            exceptions += 1
        else:
            failed += 1
            failures.append("validity: bash %s, rampart %s: %r" % (
                "accepts" if bash_ok else "rejects", "reads" if parse["ok"] else "refuses", cmd))
            continue
        if bash_ok and cmd in logged:
            cases.append((cmd, comparable(parse)))

    for cmd, ours in cases:
        theirs = logged[cmd]
        if sorted(ours) == sorted(theirs):
            passed += 1
        else:
            failed += 1
            failures.append("argv: %r\n    rampart %r\n    bash    %r" % (cmd, ours, theirs))

    for f in failures[:60]:
        print(f)
    if len(failures) > 60:
        print("... and %d more" % (len(failures) - 60))
    print("(%d commands, %d compared word by word with bash, %d documented exceptions; "
          "bash took %.1f s to check validity, %.1f s to run)" % (
              len(corpus), len(cases), exceptions, validity_seconds, run_seconds))
    print("shell differential: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
