#!/usr/bin/env python3
"""The soundness oracle: every command bash executes must be among the commands rampart reports.

Usage: shell_oracle.py SHELL_COMMANDS ORACLE_STUB [VECTORS.jsonl] [--seed N] [--count N]
                       [--all] [--min-scripts N] [--jobs N] [-v]

Generates shell scripts from a grammar (base commands, plus the shell commands of the policy
vectors, combined with constructs: lists, pipelines, subshells, bash -c, eval, wrappers,
quoting, here-docs, loops, functions, variables, cd), asks rampart (tests/tools/shell_commands:
rp_sh_parse with its unwrapped and re-parsed commands) what each could execute, runs each under
the real bash and compares. Without --all only the constructs today's rampart is expected to
handle are generated, and any disagreement fails; with --all every construct is generated and
a summary of disagreements per construct is printed (the evaluator's gap list).

The sandbox: `unshare --user --map-root-user --mount --net --pid --fork`, in which / is
remounted read-only, a tmpfs is the scratch tree (work/, work/sub/dir, home/), and PATH holds
only ROOT/bin, where every command name is a hard link of oracle_stub: it appends its name,
argv[1:] and cwd as a JSON line to the log, then exits 0 — or, for pure filters, shells and
wrappers whose real program runs its operand through PATH (env, xargs, nohup, timeout, nice,
stdbuf, setsid), executes the real program; sudo and doas run their operand. Builtins run as
bash runs them. Scripts run one after another, `bash -c SCRIPT` each, with a marker line in the
log before each one; two sandboxes run in parallel on halves of the corpus.

Soundness. An execution E (program basename, argv[1:], cwd) is COVERED by the report of its
script when
  - the report says the script is unreadable, or
  - the report holds a command whose program is unknown (a dynamic command word: bash could run
    anything there), or
  - some reported command R has program == basename(E.program) and, word by word from argv[1],
    either R's word is unknown (an expansion, a glob, a brace, a tilde: it may become any number
    of words, so the rest of E.argv is accepted) or it equals E's word; when R's words run out
    first, E must have no more words unless R has extra_args (xargs, find -exec … {}: the
    wrapper appends words at run time); and R's cwd, when rampart knows one, equals E.cwd.
The script is SOUND when every execution in its log is covered. Any unsound script fails.

The test cannot pass vacuously: it fails when fewer than --min-scripts scripts ran, when a
script's marker is missing from the log, when no execution was logged or too few were matched
by a known command, and unless a self-check passes: the report of each of a sample of sound
scripts is damaged (the matched command removed, its program renamed, or a wrong cwd given to
it) and every damaged report must be caught as a disagreement.

Exit status: 0 sound; 1 a disagreement or a failed check; 77 the sandbox cannot be made (only
when CI is not "true": in CI that is a failure).
"""
import argparse
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

# ---- the sandbox's programs -----------------------------------------------------------------

# Pure filters and shells: logged, then the real program runs (its output is the true one).
PASS_FILTERS = "base64 rev tr cut head tail sed awk cat xxd sort uniq wc".split()
PASS_SHELLS = "bash sh dash".split()
# Wrappers whose real program runs its operand through PATH (so it reaches its stub).
PASS_WRAPPERS = "env xargs nohup timeout nice stdbuf setsid ionice".split()
# Programs the base commands and constructs run, and every wrapper rampart's unwrap knows:
# logged only (sudo and doas also run their operand).
STUBBED = """
rm git dd mkfs mkfs.ext4 chmod chown curl wget npm pip python3 node make ls mkdir touch cp mv
ln tee grep find kubectl terraform docker gh ssh scp rsync shred truncate kill pkill systemctl
reboot shutdown sleep true false test printf echo sudo doas su chroot script flock watch busybox
toybox zsh ksh fish mksh yash time taskset parallel unshare runuser pkexec systemd-run strace
nsenter setpriv chrt firejail at batch crontab python perl ruby cargo go yarn pnpm npx
ash lksh pdksh rbash nq nqd
""".split()
# Wrappers rampart's unwrap does not know: their stub runs the argv suffix from the first word
# that is a command name (the general rule), so the oracle sees what they would run.
UNKNOWN_WRAPPERS = {
    "taskset": "taskset -c 0", "unshare": "unshare -r", "runuser": "runuser -u root --",
    "pkexec": "pkexec", "systemd-run": "systemd-run --scope", "strace": "strace -f",
    "nsenter": "nsenter -t 1 -m", "setpriv": "setpriv --reuid=0", "chrt": "chrt 10",
    "firejail": "firejail",
}

# Commands a script may not run in the sandbox: they escape PATH (command -p, env -i, a path as
# the program) or act on the sandbox itself.
REFUSE = ("command -p", "env -i", "exec -a", "kill", "ulimit", "trap", "chroot",
          "enable ", "hash ", "PATH=", "BASH_ENV", "/dev/tcp", "/dev/udp", "exec ")

# ---- the grammar ------------------------------------------------------------------------------

BASE = [
    ["rm", "-rf", "/"], ["rm", "-rf", "~"], ["rm", "-rf", "//"], ["rm", "-fr", "/home"],
    ["rm", "-rf", "."], ["rm", "-rf", "node_modules"], ["rm", "notes.md"],
    ["git", "push", "--force", "origin", "main"], ["git", "push", "-f"],
    ["git", "reset", "--hard", "HEAD~1"], ["git", "clean", "-fdx"], ["git", "status"],
    ["git", "commit", "-m", "wip"], ["git", "checkout", "--", "."],
    ["git", "-C", "/tmp", "push", "origin", "+main"],
    ["dd", "if=/dev/zero", "of=/dev/sda"], ["dd", "if=/dev/urandom", "of=/dev/nvme0n1", "bs=1M"],
    ["mkfs.ext4", "/dev/sda1"], ["mkfs", "-t", "ext4", "/dev/sdb"], ["chmod", "-R", "777", "/"],
    ["chown", "-R", "nobody", "/etc"], ["curl", "-fsSL", "http://example.invalid/x.sh"],
    ["wget", "-qO-", "http://example.invalid/i"], ["npm", "publish"], ["npm", "test"],
    ["kubectl", "delete", "ns", "prod"], ["terraform", "destroy", "-auto-approve"],
    ["docker", "system", "prune", "-af"], ["shred", "-u", "id_rsa"], ["truncate", "-s", "0", "db"],
    ["ls", "-la"], ["make", "install"], ["python3", "-m", "pip", "install", "x"],
    ["gh", "repo", "delete", "octo/x", "--yes"], ["systemctl", "stop", "sshd"],
    ["mkdir", "-p", "build"], ["touch", "a b"], ["cp", "-r", "src", "/tmp/x"],
]
# Words with characters that need quoting, to exercise the quoting variants.
ODD_WORDS = ["a b", "it's", 'say "hi"', "$HOME", "*", "-", "--", "x;y", "a\\b", "", "tab\there"]

# construct name -> handled by today's rampart (True) or a known gap (False).
CONSTRUCTS = {
    "plain": True, "and": True, "or": True, "seq": True, "pipe": True, "subshell": True,
    "brace_group": True, "bash_c": True, "sh_c": True, "bash_c_double": True, "eval": True,
    "env": True, "env_assign": True, "sudo": True, "sudo_user": True, "nohup": True,
    "timeout": True, "nice": True, "quote_single": True, "quote_double": True,
    "quote_backslash": True, "quote_ansi": True, "odd_words": True, "heredoc_cat": True,
    "herestring_cat": True, "if_true": True, "if_false": True, "for": True, "while_false": True,
    "case": True, "function": True, "function_args": True, "var_program": True,
    "var_arg": True, "cd": True, "data_echo": True, "data_commit": True, "data_grep": True,
    "cmdsub": True, "procsub": True, "xargs": True, "negation": True, "assign_prefix": True,
    "vector": True, "ifs_word": True, "ifs_split": True, "array": True, "set_args": True,
    "indirect": True, "glob_arg": True, "continuation": True, "background": True,
    "time_keyword": True, "command_builtin": True, "exec_subshell": True,
    # sound today because rampart reports the program unknown (the evaluator will make them
    # precise): filters into eval, brace lists; and the wrappers it now unwraps
    "base64_eval": True, "brace_list": True, "eval_cmdsub": True, "rev_program": True,
    "unknown_wrapper": True,
    # code on stdin and in files made on the spot (src/shell/channels.c)
    "bash_herestring": True, "bash_heredoc": True, "sh_s_heredoc": True, "pipe_to_bash": True,
    "bash_procsub": True, "source_stdin": True, "source_procsub": True, "written_script": True,
    "printf_pipe_sh": True,
    # gaps: aliases, dash's reading of sh code, xargs -0 into sh -c, `| time CMD`
    "alias": False, "sh_c_ansi": False, "xargs_sh": False, "time_after_pipe": False,
}

# Tags a script gets from its leaves (simple, wrap) or from another construct, never chosen as
# a construct of their own.
TAG_ONLY = {"plain", "vector", "odd_words", "quote_single", "quote_double", "quote_backslash",
            "quote_ansi", "env", "env_assign", "sudo", "sudo_user", "nohup", "timeout", "nice",
            "assign_prefix", "sh_c_ansi"}


def sq(s):
    """bash single-quoting."""
    return "'" + s.replace("'", "'\\''") + "'"


def dq(s):
    return '"' + "".join("\\" + c if c in '"\\$`' else c for c in s) + '"'


SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=+:,@%~")


def word(w, style="plain"):
    """One word as bash should receive it; a lone leading ~ stays a tilde in the plain style."""
    if style == "plain":
        if w and all(c in SAFE for c in w) and ("~" not in w[1:]):
            return w
        if w and all(c in SAFE for c in w) and w.startswith("~"):
            return w
        return sq(w)
    if w.startswith("~") and style != "plain":
        return w  # keep tildes expanding: a quoted ~ is another word
    if style == "single":
        return sq(w)
    if style == "double":
        return dq(w)
    if style == "backslash":
        return "".join("\\" + c if c not in SAFE or c == "~" else c for c in w) or "''"
    if style == "ansi":
        return "$'" + "".join("\\x%02x" % ord(c) if c in "'\\" else c for c in w) + "'"
    raise ValueError(style)


class Gen:
    def __init__(self, seed, vectors, all_constructs):
        self.r = random.Random(seed)
        self.vectors = vectors
        self.all = all_constructs

    def simple(self, tags, assign_ok=True):
        """A simple command as (words, rendered text). assign_ok: a `VAR=x` prefix may lead it
        (not after a wrapper, which would exec the word `VAR=x` as its program)."""
        r = self.r
        argv = list(r.choice(BASE))
        if r.random() < 0.15:
            argv.append(r.choice(ODD_WORDS))
            tags.add("odd_words")
        style = "plain"
        if r.random() < 0.3:
            style = r.choice(["single", "double", "backslash", "ansi"])
            tags.add("quote_" + style)
        text = " ".join(word(w, style if i or style != "ansi" else "plain")
                        for i, w in enumerate(argv))
        text = self.wrap(argv, text, tags, assign_ok)
        return argv, text

    def wrap(self, argv, text, tags, assign_ok=True):
        r = self.r
        if r.random() > 0.3:
            return text
        kinds = ["env", "env_assign", "sudo", "sudo_user", "nohup", "timeout", "nice"]
        kind = r.choice(kinds + (["assign_prefix"] if assign_ok else []))
        tags.add(kind)
        return {"env": "env " + text, "env_assign": "env FOO=1 " + text, "sudo": "sudo " + text,
                "sudo_user": "sudo -u root " + text, "nohup": "nohup " + text,
                "timeout": "timeout 10 " + text, "nice": "nice -n 5 " + text,
                "assign_prefix": "LANG=C " + text}[kind]

    def leaf(self, tags):
        if self.vectors and self.r.random() < 0.2:
            tags.add("vector")
            return self.r.choice(self.vectors)
        return self.simple(tags)[1]

    def script(self, depth, tags, gap_budget):
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            tags.add("plain")
            return self.leaf(tags)
        names = [n for n, ok in CONSTRUCTS.items()
                 if n not in TAG_ONLY and (ok or (self.all and gap_budget[0] > 0))]
        name = r.choice(names)
        if not CONSTRUCTS[name]:
            gap_budget[0] -= 1
        tags.add(name)
        return self.apply(name, depth, tags, gap_budget)

    def sh_runs(self, body, tags, as_sh, as_bash):
        """body run by sh, which is dash here: no $'…' quoting, no `time` keyword, and rampart
        reads sh's code as bash's (a gap: sh_c_ansi). Outside --all such a body goes to bash."""
        if "$'" in body or "time " in body:
            if not self.all:
                return as_bash
            tags.add("sh_c_ansi")
        return as_sh

    def apply(self, name, depth, tags, gap_budget):
        def sub():
            return self.script(depth - 1, tags, gap_budget)

        if name in ("and", "or", "seq", "pipe"):
            op = {"and": " && ", "or": " || ", "seq": "; ", "pipe": " | "}[name]
            return sub() + op + sub()
        if name == "subshell":
            return "( " + sub() + " )"
        if name == "brace_group":
            return "{ " + sub() + "; }"
        if name == "bash_c":
            return "bash -c " + sq(sub())
        if name == "sh_c":
            body = sub()
            return self.sh_runs(body, tags, "sh -c " + sq(body), "bash -c " + sq(body))
        if name == "bash_c_double":
            return "bash -c " + dq(sub())
        if name == "eval":
            return "eval " + sq(sub())
        if name == "heredoc_cat":
            return "cat <<'EOF' > notes.md\n" + sub() + "\nEOF"
        if name == "herestring_cat":
            return "cat <<< " + sq(sub())
        if name == "if_true":
            return "if true; then " + sub() + "; fi"
        if name == "if_false":
            return "if false; then " + sub() + "; else " + sub() + "; fi"
        if name == "for":
            return "for i in 1 2; do " + sub() + "; done"
        if name == "while_false":
            return "while false; do " + sub() + "; done"
        if name == "case":
            return "case x in x) " + sub() + " ;; *) " + sub() + " ;; esac"
        if name == "function":
            return "f() { " + sub() + "; }; f"
        if name == "function_args":
            argv, _ = self.simple(tags)
            body = " ".join(word(w) for w in argv[:-1]) + ' "$1"'
            return "f() { " + body + "; }; f " + word(argv[-1])
        if name == "var_program":
            argv, _ = self.simple(tags)
            return "X=%s; $X %s" % (word(argv[0]), " ".join(word(w) for w in argv[1:]))
        if name == "var_arg":
            argv, _ = self.simple(tags)
            return 'd=%s; %s "$d"' % (word(argv[-1]), " ".join(word(w) for w in argv[:-1]))
        if name == "cd":
            return "cd " + self.r.choice(["sub", "sub/dir", "..", "~", '"$HOME"']) + " && " + sub()
        if name == "data_echo":
            return "echo " + sq(sub())
        if name == "data_commit":
            return "git commit -m " + dq(sub())
        if name == "data_grep":
            return "grep -r " + dq(sub()) + " ."
        if name == "cmdsub":
            return "echo $(" + sub() + ")"
        if name == "procsub":
            return "cat <(" + sub() + ")"
        if name == "xargs":
            argv, _ = self.simple(tags)
            return "echo %s | xargs %s" % (word(argv[-1]), " ".join(word(w) for w in argv[:-1]))
        if name == "negation":
            return "! " + sub()
        if name == "background":
            return sub() + " & wait"
        if name == "time_keyword":  # a keyword only where a pipeline starts
            return "{ time " + sub() + "; }"
        if name == "time_after_pipe":  # not a keyword there: bash runs the program time
            return sub() + " | time " + self.simple(tags)[1]
        if name == "command_builtin":
            return "command " + self.simple(tags)[1]
        if name == "exec_subshell":
            return "( exec " + self.simple(tags)[1] + " )"
        if name == "continuation":
            argv, _ = self.simple(tags)
            return " \\\n".join(word(w) for w in argv)
        if name == "glob_arg":
            argv, _ = self.simple(tags)
            return "cd sub/dir && " + " ".join(word(w) for w in argv[:-1]) + " *"
        # dynamic command words: rampart reports an unknown program, which is sound
        if name in ("ifs_word", "ifs_split", "array", "set_args", "indirect"):
            argv, _ = self.simple(tags)
            words = [word(w) for w in argv]
            plain = all(w and all(c in SAFE for c in w) and "_" not in w for w in argv)
            if name == "ifs_word":
                return "${IFS}".join(words)
            if name == "ifs_split" and plain:
                return "IFS=_; c=%s; $c" % "_".join(argv)
            if name == "array":
                return 'a=(%s); "${a[@]}"' % " ".join(words)
            if name == "set_args":
                return 'set -- %s; "$@"' % " ".join(words)
            if name == "indirect" and plain:
                return "a=b; b=%s; ${!a}" % sq(" ".join(argv))
            return " ".join(words)
        # the gaps
        if name == "bash_herestring":
            return "bash <<< " + sq(sub())
        if name == "bash_heredoc":
            return "bash <<'EOF'\n" + sub() + "\nEOF"
        if name == "sh_s_heredoc":
            body = sub()
            return self.sh_runs(body, tags, "sh -s <<'EOF'\n" + body + "\nEOF",
                                "bash -s <<'EOF'\n" + body + "\nEOF")
        if name == "pipe_to_bash":
            return "echo " + sq(sub()) + " | bash"
        if name == "bash_procsub":
            return "bash <(echo " + sq(sub()) + ")"
        if name == "source_stdin":
            return ". /dev/stdin <<< " + sq(sub())
        if name == "source_procsub":
            return "source <(printf '%s\\n' " + sq(sub()) + ")"
        if name == "eval_cmdsub":
            return 'eval "$(echo ' + sq(sub()) + ')"'
        if name == "rev_program":
            argv, _ = self.simple(tags)
            return "$(echo %s | rev) %s" % (sq(argv[0][::-1]), " ".join(word(w) for w in argv[1:]))
        if name == "base64_eval":
            import base64
            return "eval $(echo %s | base64 -d)" % base64.b64encode(sub().encode()).decode()
        if name == "alias":
            return "shopt -s expand_aliases\nalias x=" + sq(sub()) + "\nx"
        if name == "brace_list":
            argv, _ = self.simple(tags)
            if any(c in w for w in argv for c in ",{} '\"\\$*"):
                return " ".join(word(w) for w in argv)
            return "{" + ",".join(argv) + "}"
        if name == "unknown_wrapper":
            return (self.r.choice(sorted(UNKNOWN_WRAPPERS.values())) + " " +
                    self.simple(tags, assign_ok=False)[1])
        if name == "written_script":
            body = sub()
            # a name of its own: a stale x.sh of an earlier script must not run when this
            # script's write does not (`… || printf … > x.sh; sh x.sh`)
            name = "x%d.sh" % self.r.randrange(10 ** 9)
            write = "printf '%s\\n' " + sq(body) + " > " + name + "; "
            return self.sh_runs(body, tags, write + "sh " + name, write + "bash " + name)
        if name == "printf_pipe_sh":
            body = sub()
            pipe = "printf '%s\\n' " + sq(body) + " | "
            return self.sh_runs(body, tags, pipe + "sh", pipe + "bash")
        if name == "xargs_sh":
            return "echo " + sq(sub()) + " | xargs -0 sh -c"
        raise ValueError(name)

    def make(self):
        tags = set()
        gap_budget = [1]
        text = self.script(self.r.choice([1, 2, 2, 3]), tags, gap_budget)
        return text, tags


# ---- corpus from the vectors ----------------------------------------------------------------

def vector_commands(path):
    out = set()

    def walk(v):
        if isinstance(v, dict):
            if v.get("type") == "tool_call" and isinstance(v.get("data"), dict):
                args = v["data"].get("arguments")
                if isinstance(args, dict) and isinstance(args.get("command"), str):
                    out.add(args["command"])
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    walk(json.loads(line))
    return sorted(out)


def runnable_vectors(cmds, tool):
    """The vector commands safe to run in the sandbox: readable, every program a plain name
    (no path: a path escapes the stubs), no file written but /dev/null, nothing that escapes PATH
    or acts on the sandbox."""
    keep = []
    reports = report(tool, cmds)
    for c, rep in zip(cmds, reports):
        if rep["unreadable"] or any(bad in c for bad in REFUSE) or "\x00" in c:
            continue
        if any(r["program"] is None or "/" in r["argv"][0] for r in rep["cmds"]):
            continue
        rest = c.replace("2>&1", "").replace(">/dev/null", "").replace("> /dev/null", "")
        if ">" in rest or "<" in rest:
            continue
        keep.append(c)
    return keep


def report(tool, scripts):
    data = "".join(json.dumps(s) + "\n" for s in scripts)
    out = subprocess.run([tool], input=data, capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    if len(lines) != len(scripts):
        raise SystemExit("shell_oracle: %s answered %d lines for %d scripts"
                         % (tool, len(lines), len(scripts)))
    return [json.loads(l) for l in lines]


# ---- running under bash ---------------------------------------------------------------------

DRIVER = r'''
set -e
mount --make-rprivate /
mount --bind "$OUT" "$OUT"
mount -t tmpfs -o size=64m oracle "$FS"
mount -o remount,bind,ro /
mkdir -p "$FS/work/sub/dir" "$FS/home"
export -n ROOT OUT FS SCRIPTS BASH_REAL PATH
set +e
for f in "$SCRIPTS"/*; do
  id=${f##*/}
  printf '{"id":"%s"}\n' "$id" >> "$OUT/log.jsonl"
  IFS= read -r -d '' s < "$f"
  ( cd "$FS/work" && PATH="$ROOT/bin" HOME="$FS/home" ORACLE_ID=$id exec "$BASH_REAL" -c "$s" ) \
    </dev/null >/dev/null 2>&1
done
sleep 0.3  # background jobs of the last scripts log before the namespace's init exits
printf '{"end":true}\n' >> "$OUT/log.jsonl"
'''


def make_root(stub, names):
    root = tempfile.mkdtemp(prefix="rampart-oracle-")
    for d in ("bin", "real", "runs", "out", "fs", "scripts"):
        os.mkdir(os.path.join(root, d))
    for n in list(UNKNOWN_WRAPPERS) + ["time"]:  # the program time runs its operand too
        open(os.path.join(root, "runs", n), "w").close()
    shutil.copy(stub, os.path.join(root, "bin", ".stub"))
    for n in sorted(names):
        os.link(os.path.join(root, "bin", ".stub"), os.path.join(root, "bin", n))
    for n in PASS_FILTERS + PASS_SHELLS + PASS_WRAPPERS:
        real = shutil.which(n, path="/usr/bin:/bin")
        if real:
            os.symlink(real, os.path.join(root, "real", n))
    # The log lives in out/, which the driver bind-mounts onto itself to keep it writable;
    # the stub finds its log as ROOT/log.jsonl, so that name points there.
    os.symlink(os.path.join(root, "out", "log.jsonl"), os.path.join(root, "log.jsonl"))
    return root


def run_batch(stub, names, batch, timeout):
    """Runs [(id, script)] in one sandbox. Returns ({id: [execution]}, error or None)."""
    root = make_root(stub, names)
    try:
        for i, s in batch:
            with open(os.path.join(root, "scripts", "%06d" % i), "w", encoding="utf-8") as f:
                f.write(s)
        env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "ROOT": root,
               "OUT": os.path.join(root, "out"), "FS": os.path.join(root, "fs"),
               "SCRIPTS": os.path.join(root, "scripts"), "BASH_REAL": shutil.which("bash")}
        cmd = ["unshare", "--user", "--map-root-user", "--mount", "--net", "--pid", "--fork",
               shutil.which("bash"), "-c", DRIVER]
        try:
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, "the sandbox ran past %d s" % timeout
        logp = os.path.join(root, "out", "log.jsonl")
        if proc.returncode != 0 or not os.path.exists(logp):
            return None, "the sandbox could not be made (unshare exit %d): %s" % (
                proc.returncode, proc.stderr.strip()[-400:])
        logs, cur, ended = {}, None, False
        with open(logp, encoding="utf-8", errors="surrogateescape") as f:
            for line in f:
                rec = json.loads(line)
                if "p" in rec:
                    # the script's id as the stub saw it in the environment, else the last marker
                    owner = int(rec["id"]) if "id" in rec else cur
                    if owner is not None:
                        logs.setdefault(owner, []).append(rec)
                elif "id" in rec:
                    cur = int(rec["id"])
                    logs.setdefault(cur, [])
                elif "end" in rec:
                    ended = True
        if not ended:
            return None, "the sandbox stopped before its last script"
        return logs, None
    finally:
        shutil.rmtree(root, ignore_errors=True)


# ---- comparing ------------------------------------------------------------------------------

def covers(r, e):
    prog = r["program"]
    if prog is None or prog.rsplit("/", 1)[-1] != e["p"]:
        return False
    if r.get("cwd") is not None and r["cwd"] != e.get("cwd"):
        return False
    args = e["a"]
    for i, w in enumerate(r["argv"][1:]):
        if not r["known"][i + 1]:
            return True
        if i >= len(args) or args[i] != w:
            return False
    return len(args) == len(r["argv"]) - 1 or r["extra_args"]


def judge(rep, execs):
    """(uncovered executions, how many were matched by a known command, covered by unknown)."""
    if rep["unreadable"]:
        return [], 0, len(execs)
    unknown = any(r["program"] is None for r in rep["cmds"])
    missed, exact, by_unknown = [], 0, 0
    for e in execs:
        if any(covers(r, e) for r in rep["cmds"]):
            exact += 1
        elif unknown:
            by_unknown += 1
        else:
            missed.append(e)
    return missed, exact, by_unknown


def damage(rep, execs, r):
    """A copy of rep made wrong for one execution it covers exactly, or None."""
    if rep["unreadable"] or any(c["program"] is None for c in rep["cmds"]):
        return None
    for e in execs:
        hits = [k for k, c in enumerate(rep["cmds"]) if covers(c, e)]
        if not hits:
            continue
        bad = json.loads(json.dumps(rep))
        how = r.randrange(3)
        if how == 0:
            bad["cmds"] = [c for k, c in enumerate(bad["cmds"]) if k not in hits]
        for k in hits if how else ():
            c = bad["cmds"][k]
            if how == 1:
                c["program"] = c["program"] + "-not"
            else:  # a known directory that is not where bash ran it
                c["cwd"] = e["cwd"] + "/elsewhere"
        return bad
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tool")
    ap.add_argument("stub")
    ap.add_argument("vectors", nargs="?")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--count", type=int, default=6000)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--min-scripts", type=int, default=5000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    ci = os.environ.get("CI") == "true"
    start = time.time()

    vectors = runnable_vectors(vector_commands(a.vectors), a.tool)
    gen = Gen(a.seed, vectors, a.all)
    scripts = [gen.make() for _ in range(a.count)]
    reports = report(a.tool, [s for s, _ in scripts])

    names = set(STUBBED) | set(PASS_FILTERS) | set(PASS_SHELLS) | set(PASS_WRAPPERS)
    for rep in report(a.tool, vectors):
        names.update(r["program"] for r in rep["cmds"] if r["program"] and "/" not in r["program"])
    names = {n for n in names if n and not n.startswith(".") and "/" not in n}

    if shutil.which("unshare") is None:
        logs, err = None, "unshare is not installed"
    else:
        jobs = max(1, a.jobs)
        batches = [[(i, s) for i, (s, _) in enumerate(scripts) if i % jobs == j]
                   for j in range(jobs)]
        logs, err = {}, None
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            for got, e in ex.map(lambda b: run_batch(a.stub, names, b, 900), batches):
                if e:
                    err = e
                else:
                    logs.update(got)
    if err:
        print("shell oracle: %s" % err)
        if ci:
            print("shell oracle: FAILED (CI=true: the sandbox must work here)")
            return 1
        print("shell oracle: SKIPPED (the sandbox cannot be made on this machine)")
        return 77

    failures = []
    per = {n: [0, 0] for n in CONSTRUCTS}  # construct -> [scripts, unsound scripts]
    n_exec = n_exact = n_unknown = 0
    for i, ((text, tags), rep) in enumerate(zip(scripts, reports)):
        if i not in logs:
            failures.append("script %d: no marker in the log (it never ran)" % i)
            continue
        missed, exact, unk = judge(rep, logs[i])
        n_exec += len(logs[i])
        n_exact += exact
        n_unknown += unk
        # A gap construct is charged with its script's disagreements; a handled one only with
        # those of scripts without a gap (--all puts at most one gap in a script).
        gaps = [t for t in tags if not CONSTRUCTS[t]]
        for t in (gaps or tags):
            per[t][0] += 1
            if missed:
                per[t][1] += 1
        if missed:
            failures.append((i, text, tags, missed))

    # The self-check: damaged reports must be caught.
    rr = random.Random(a.seed)
    sound = [i for i in range(len(scripts)) if i in logs and logs[i]
             and not any(isinstance(f, tuple) and f[0] == i for f in failures)]
    rr.shuffle(sound)
    damaged = caught = 0
    for i in sound[:300]:
        bad = damage(reports[i], logs[i], rr)
        if bad is None:
            continue
        damaged += 1
        if judge(bad, logs[i])[0]:
            caught += 1

    unsound = [f for f in failures if isinstance(f, tuple)]
    show = unsound if a.v or not a.all else unsound[:20]
    for i, text, tags, missed in show:
        print("UNSOUND script %d [%s]:\n  %s" % (i, ",".join(sorted(tags)),
                                                 text.replace("\n", "\n  ")))
        for e in missed[:5]:
            print("  bash ran %s with %s in %s; not reported" % (e["p"], json.dumps(e["a"]),
                                                                 e.get("cwd")))
    for f in failures:
        if not isinstance(f, tuple):
            print(f)

    checks = []
    if len(logs) < a.min_scripts:
        checks.append("only %d scripts ran (at least %d needed)" % (len(logs), a.min_scripts))
    if n_exec == 0 or n_exact < len(logs) // 2:
        checks.append("too few executions matched by a known command (%d of %d)"
                      % (n_exact, n_exec))
    if damaged < 100 or caught != damaged:
        checks.append("self-check: %d of %d damaged reports caught (all of at least 100 must be)"
                      % (caught, damaged))

    if a.all:
        print("disagreements by construct (unsound / run; a handled construct counts only the"
              " scripts without a gap construct):")
        for n, (run, bad) in sorted(per.items(), key=lambda kv: (-kv[1][1], kv[0])):
            if run:
                print("  %-16s %-5s %5d / %5d" % (n, "" if CONSTRUCTS[n] else "(gap)", bad, run))
    for c in checks:
        print("shell oracle: CHECK FAILED: " + c)
    print("shell oracle: seed %d, %d scripts (%d vector commands among the leaves), %d executions"
          " (%d matched by a known command, %d covered by an unknown), %d unsound;"
          " self-check %d/%d; %.1f s"
          % (a.seed, len(logs), len(vectors), n_exec, n_exact, n_unknown, len(unsound), caught,
             damaged, time.time() - start))
    return 1 if failures or checks else 0


if __name__ == "__main__":
    sys.exit(main())
