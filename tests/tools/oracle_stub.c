/* oracle_stub.c — the one program behind every name on the soundness oracle's PATH
 * (tests/conformance/shell_oracle.py).
 *
 * The oracle hard-links this binary as ROOT/bin/NAME for every command name a test script may
 * run. Each execution appends one JSON line to ROOT/log.jsonl — {"p":NAME,"a":[argv[1..]],
 * "cwd":DIR,"id":ORACLE_ID} — in a single O_APPEND write, then:
 *   - when ROOT/real/NAME exists (a pure filter such as base64 or rev, a shell, or a wrapper
 *     whose real program runs its operand through PATH such as env or xargs), it executes that
 *     real program with the same argv, so the script sees the true output and wrapped commands
 *     reach their own stubs;
 *   - for sudo and doas (not runnable here), it skips their options and executes the operand
 *     command through PATH, as they would;
 *   - for a wrapper named in ROOT/runs/ (one rampart does not know: taskset, unshare, strace, …),
 *     it executes the argv suffix from the first word that is a command name on the PATH;
 *   - otherwise it exits 0 having done nothing.
 * ROOT is found from /proc/self/exe (a hard link keeps the path it was run by), so a script
 * that empties its environment cannot make the stub lose its log. */
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char line[1 << 16];
static size_t used;

static void put(const char *s, size_t n)
{
    if (used + n < sizeof line)
        memcpy(line + used, s, n);
    used += n;
}

static void put_json(const char *s)
{
    put("\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        if (*p == '"' || *p == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*p;
            put(esc, 2);
        } else if (*p < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", *p);
            put(esc, 6);
        } else {
            put((const char *)p, 1);
        }
    }
    put("\"", 1);
}

/* Whether a sudo (or doas) option takes the next argument as its value: a short cluster that
 * ends in one of the value letters (-u root, -nu root), or a long option without "=". */
static bool takes_value(const char *opt)
{
    static const char *const longs[] = {
        "--user",   "--group", "--login-class", "--close-from", "--chdir",  "--host",
        "--prompt", "--role",  "--type",        "--other-user", "--chroot", "--command-timeout"};
    if (opt[1] == '-') {
        for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++)
            if (strcmp(opt, longs[i]) == 0)
                return true;
        return false;
    }
    return strchr("ugCDhpRrtTU", opt[strlen(opt) - 1]) != NULL;
}

static void run_operand(char **argv)
{
    int i = 1;
    while (argv[i] != NULL && argv[i][0] == '-') {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        i += takes_value(argv[i]) && argv[i + 1] != NULL ? 2 : 1;
    }
    if (argv[i] != NULL) {
        execvp(argv[i], argv + i);
        _exit(127);
    }
}

/* A wrapper rampart does not know (taskset, unshare, strace, …): what it runs is the argv suffix
 * from the first word that is a command name on the oracle's PATH. */
static void run_suffix(const char *root, char **argv)
{
    char path[PATH_MAX + 64];
    for (int i = 1; argv[i] != NULL; i++) {
        if (strchr(argv[i], '/') != NULL || argv[i][0] == '.' || argv[i][0] == 0)
            continue;
        snprintf(path, sizeof path, "%s/bin/%s", root, argv[i]);
        if (access(path, X_OK) == 0) {
            execv(path, argv + i);
            _exit(127);
        }
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    char exe[PATH_MAX], root[PATH_MAX], path[PATH_MAX + 64], cwd[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 0;
    exe[n] = 0;
    const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    snprintf(root, sizeof root, "%s", exe);
    for (int up = 0; up < 2; up++) { /* ROOT/bin/NAME → ROOT */
        char *slash = strrchr(root, '/');
        if (slash == NULL)
            return 0;
        *slash = 0;
    }
    put("{\"p\":", 5);
    put_json(name);
    put(",\"a\":[", 6);
    for (int i = 1; argv[i] != NULL; i++) {
        if (i > 1)
            put(",", 1);
        put_json(argv[i]);
    }
    put("],\"cwd\":", 8);
    put_json(getcwd(cwd, sizeof cwd) ? cwd : "");
    if (getenv("ORACLE_ID") != NULL) { /* which script: background jobs may outlive theirs */
        put(",\"id\":", 6);
        put_json(getenv("ORACLE_ID"));
    }
    put("}\n", 2);
    snprintf(path, sizeof path, "%s/log.jsonl", root);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
        if (used > sizeof line) /* too long to log whole: say so, the oracle fails on it */
            used = (size_t)snprintf(line, sizeof line, "{\"p\":\"(overlong)\",\"a\":[]}\n");
        if (write(fd, line, used) < 0)
            return 1;
        close(fd);
    }
    snprintf(path, sizeof path, "%s/real/%s", root, name);
    if (access(path, X_OK) == 0) {
        execv(path, argv);
        return 127;
    }
    if (strcmp(name, "sudo") == 0 || strcmp(name, "doas") == 0)
        run_operand(argv);
    snprintf(path, sizeof path, "%s/runs/%s", root, name);
    if (access(path, F_OK) == 0)
        run_suffix(root, argv);
    return 0;
}
