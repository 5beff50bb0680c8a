/* cmd_doctor.c — `rampart doctor`: one line per host saying whether rampart guards it.
 *
 * For each host it finds rampart's hook entries (or extension file) where `rampart install`
 * puts them and checks what the host will run: the binary exists, is executable and answers
 * `--version`; the config the hook uses loads and has a policy; the settings file parses.
 * Then whether the host runs the hook at all (host_offswitch.h): Claude Code's
 * disableAllHooks, Codex's hook trust, Gemini's folder trust, ... A hook that is right but
 * switched off is `OFF`, with what to do. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/json.h"
#include "install/host_offswitch.h"
#include "install/install_targets.h"
#include "shell/shell.h"

static const char doctor_usage[] =
    "usage: rampart doctor [--project]\n"
    "\n"
    "Checks every host's rampart hook (the user's files under $HOME, or with --project the\n"
    "current directory's) and prints one line per host: `HOST: ok (...)`, `HOST: not\n"
    "installed`, `HOST: BROKEN: why` (the hook's binary is missing, not executable or does\n"
    "not answer --version, its config does not load or has no policy, the settings file does\n"
    "not parse), or `HOST: OFF: why` (the hook is right but the host will not run it:\n"
    "Claude Code's disableAllHooks, a Codex hook not trusted, a Gemini folder not trusted,\n"
    "...), each with what to do. Then `state: ok (DIR)` or `state: BROKEN: why` for the state\n"
    "store (a directory or database file owned by another user, writable by group or others,\n"
    "a symlink or hard link at the database), with the fix. Exit status 0 when nothing is\n"
    "broken or off, 1 otherwise.\n";

#define MAX_COMMANDS 8

typedef struct commands {
    char *cmd[MAX_COMMANDS];
    size_t n;
} commands;

static void collect(void *self, const char *command)
{
    commands *c = self;
    for (size_t i = 0; i < c->n; i++) {
        if (strcmp(c->cmd[i], command) == 0) {
            return;
        }
    }
    if (c->n < MAX_COMMANDS) {
        c->cmd[c->n++] = strdup(command);
    }
}

/* Runs `bin --version` (output discarded) for at most 5 s; returns its exit status, or -1. */
static int run_version(const char *bin)
{
    pid_t pid = fork();
    if (pid < 0) {
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
        }
        execl(bin, bin, "--version", (char *)NULL);
        _exit(127);
    }
    int status;
    for (int i = 0; i < 500; i++) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        }
        if (r < 0) {
            return -1;
        }
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

/* Checks the binary a hook runs; on a problem writes it to why and returns false. */
static bool check_binary(const char *bin, rp_buf *why)
{
    struct stat st;
    if (bin[0] != '/') {
        rp_buf_printf(why, "the hook runs '%s', not an absolute path (re-run rampart install)",
                      bin);
        return false;
    }
    if (stat(bin, &st) != 0) {
        rp_buf_printf(why, "the hook runs %s, which does not exist", bin);
        return false;
    }
    if (!S_ISREG(st.st_mode) || access(bin, X_OK) != 0) {
        rp_buf_printf(why, "the hook runs %s, which is not an executable file", bin);
        return false;
    }
    int rc = run_version(bin);
    if (rc != 0) {
        rp_buf_printf(why, "%s --version did not succeed (%s %d)", bin,
                      rc < 0 ? "killed or timed out:" : "exit", rc);
        return false;
    }
    return true;
}

/* A path for display: $HOME shown as ~. */
static void show_path(rp_buf *out, const char *path)
{
    const char *home = getenv("HOME");
    size_t hl = home ? strlen(home) : 0;
    if (hl > 1 && strncmp(path, home, hl) == 0 && path[hl] == '/') {
        rp_buf_printf(out, "~%s", path + hl);
    } else {
        rp_buf_puts(out, path);
    }
}

/* Loads the hook's config (-c FILE, else the default stack); on an error writes the first one
 * to why. */
static bool check_config(const char *file, rp_buf *note, rp_buf *why)
{
    rp_config *cfg;
    if (file) {
        rp_config_file f = {file, RP_LEVEL_EXPLICIT};
        cfg = rp_config_load(&f, 1);
    } else {
        rp_config_trust_probe probe = {.prog = "rampart doctor"};
        cfg = rp_config_load_stack(NULL, 0, &probe, false);
        if (probe.store) {
            rp_store_close(probe.store);
        }
    }
    bool ok = cfg->n_errors == 0;
    if (!ok) {
        for (size_t i = 0; i < cfg->n_diags; i++) {
            if (!cfg->diags[i].warning) {
                rp_buf line = {0};
                rp_diag_format(&cfg->diags[i], &line);
                rp_buf_printf(why, "the config does not load: %s", line.data ? line.data : "");
                rp_buf_free(&line);
                break;
            }
        }
    } else if (cfg->engine.n_slots == 0) {
        /* It loads, and guards nothing: every call is allowed. */
        rp_buf_printf(why,
                      "%s has no policy, so every call is allowed: run `rampart init` to write "
                      "a starter config%s",
                      file ? file : "the config (no -c; the user and system config)",
                      file ? ", or add policies to it" : "");
        ok = false;
    } else {
        if (file) {
            rp_buf_puts(note, "config ");
            show_path(note, file);
        } else {
            rp_buf_puts(note, "default config");
        }
        rp_buf_printf(note, " ok (%zu %s)", cfg->engine.n_slots,
                      cfg->engine.n_slots == 1 ? "policy" : "policies");
    }
    rp_config_free(cfg);
    return ok;
}

/* Checks a hook's command, split into words; appends "BIN, config ok" to note or the problem to
 * why. */
static bool check_words(const char *const *words, size_t n, rp_buf *note, rp_buf *why)
{
    const char *config = NULL;
    for (size_t i = 1; i < n; i++) {
        if ((strcmp(words[i], "-c") == 0 || strcmp(words[i], "--config") == 0) && i + 1 < n) {
            config = words[i + 1];
        } else if (strncmp(words[i], "--config=", 9) == 0) {
            config = words[i] + 9;
        }
    }
    if (n == 0) {
        rp_buf_puts(why, "an empty hook command");
        return false;
    }
    if (!check_binary(words[0], why)) {
        return false;
    }
    if (config && access(config, R_OK) != 0) {
        rp_buf_printf(why, "the hook's config %s cannot be read (%s)", config, strerror(errno));
        return false;
    }
    rp_buf_printf(note, "%s, ", words[0]);
    return check_config(config, note, why);
}

/* Checks one hook command line (sh syntax). */
static bool check_command(const char *command, rp_buf *note, rp_buf *why)
{
    rp_arena arena = {0};
    size_t n;
    const char *const *words = rp_sh_simple_words(&arena, command, strlen(command), &n);
    bool ok;
    if (words == NULL && command[strspn(command, " \t\n")] != '\0') {
        rp_buf_puts(why, "the hook command cannot be read as sh reads it (an unclosed quote?)");
        ok = false;
    } else {
        ok = check_words(words, n, note, why);
    }
    rp_arena_free(&arena);
    return ok;
}

static void ignore(void *self, const char *command)
{
    (void)self;
    (void)command;
}

/* Whether every event install registers has a handler of ours (a removed one leaves, say,
 * PreToolUse unguarded while the rest looks installed). */
static bool all_events(const rp_install_target *t, const rp_buf *text, rp_buf *why)
{
    bool all = true;
    for (size_t i = 0; i < t->n_events; i++) {
        rp_install_splice_spec one = rp_install_spec(t, "");
        one.events = &t->events[i];
        one.n_events = 1;
        rp_install_splice_error err;
        if (rp_install_splice_find_ours(text->data, text->len, &one, ignore, NULL, &err) <= 0) {
            rp_buf_printf(why, "%s%s", all ? "no rampart hook for " : ", ", t->events[i].name);
            all = false;
        }
    }
    if (!all) {
        rp_buf_printf(why, "; run `rampart install %s`", t->host);
    }
    return all;
}

/* One host's line; returns whether it is fine (ok or not installed). */
static bool doctor_host(const rp_install_target *t, const char *base, bool project)
{
    rp_buf path = {0}, shown = {0}, note = {0}, why = {0}, text = {0};
    rp_install_path(t, project, base, &path);
    show_path(&shown, path.data);
    bool fine = true;
    int have = rp_install_read_file(path.data, &text);
    if (have < 0) {
        printf("%s: BROKEN: %s: %s\n", t->host, shown.data, strerror(errno));
        fine = false;
    } else if (have == 0) {
        printf("%s: not installed\n", t->host);
    } else if (t->extension) {
        if (strncmp(text.data, RP_INSTALL_EXT_MARKER, strlen(RP_INSTALL_EXT_MARKER)) != 0) {
            printf("%s: not installed (%s exists but was not written by rampart install)\n",
                   t->host, shown.data);
        } else {
            rp_arena arena = {0};
            rp_arena_init(&arena, 4096);
            size_t argc;
            const char **argv = rp_install_extension_command(&arena, text.data, text.len, &argc);
            if (!argv) {
                printf("%s: BROKEN: %s names no rampart command (no RAMPART_COMMAND line: written "
                       "by an older rampart): run `rampart install %s`\n",
                       t->host, shown.data, t->host);
                fine = false;
            } else if (check_words(argv, argc, &note, &why)) {
                rp_buf off = {0}, caveat = {0};
                rp_install_offswitch(t->host, project, path.data, text.data, text.len, &off,
                                     &caveat);
                /* A file that does not import is not even logged by opencode: any byte that
                 * differs from what install writes is worth a word. */
                rp_buf want = {0};
                if (rp_install_extension_text(t, argv, argc, &want) &&
                    (want.len != text.len || memcmp(want.data, text.data, want.len) != 0)) {
                    rp_buf_printf(&caveat,
                                  "%s%s differs from what this rampart installs (edited, or "
                                  "from another version; the host may not load it): run "
                                  "`rampart install %s` to rewrite it",
                                  caveat.len ? "; " : "", shown.data, t->host);
                }
                rp_buf_free(&want);
                if (off.len) {
                    printf("%s: OFF: %s (extension %s → %s)\n", t->host, off.data, shown.data,
                           note.data);
                    fine = false;
                } else {
                    printf("%s: ok (extension %s → %s)%s%s\n", t->host, shown.data, note.data,
                           caveat.len ? ", but " : "", caveat.len ? caveat.data : "");
                }
                rp_buf_free(&off);
                rp_buf_free(&caveat);
            } else {
                printf("%s: BROKEN: %s (extension %s)\n", t->host, why.data, shown.data);
                fine = false;
            }
            rp_arena_free(&arena);
        }
    } else {
        rp_install_splice_spec spec = rp_install_spec(t, "");
        rp_install_splice_error err;
        commands cmds = {0};
        int n = rp_install_splice_find_ours(text.data, text.len, &spec, collect, &cmds, &err);
        if (n < 0) {
            printf("%s: BROKEN: %s:%d:%d: %s\n", t->host, shown.data, err.line, err.col, err.msg);
            fine = false;
        } else if (n == 0) {
            printf("%s: not installed\n", t->host);
        } else {
            for (size_t i = 0; i < cmds.n && fine; i++) {
                rp_buf_reset(&note);
                fine = check_command(cmds.cmd[i], &note, &why);
            }
            if (fine) {
                fine = all_events(t, &text, &why);
            }
            rp_buf off = {0}, caveat = {0};
            if (fine) {
                /* The hook is right; does the host run it? */
                rp_install_offswitch(t->host, project, path.data, text.data, text.len, &off,
                                     &caveat);
            }
            if (!fine) {
                printf("%s: BROKEN: %s (hook in %s)\n", t->host, why.data, shown.data);
            } else if (off.len) {
                printf("%s: OFF: %s (hook in %s → %s)\n", t->host, off.data, shown.data, note.data);
                fine = false;
            } else {
                printf("%s: ok (hook in %s → %s%s)%s%s\n", t->host, shown.data, note.data,
                       strcmp(t->host, "codex") == 0 ? ", trusted in Codex" : "",
                       caveat.len ? ", but " : "", caveat.len ? caveat.data : "");
            }
            rp_buf_free(&off);
            rp_buf_free(&caveat);
        }
        for (size_t i = 0; i < cmds.n; i++) {
            free(cmds.cmd[i]);
        }
    }
    rp_buf_free(&path);
    rp_buf_free(&shown);
    rp_buf_free(&note);
    rp_buf_free(&why);
    rp_buf_free(&text);
    return fine;
}

/* The state store every hook uses (the config's state_dir or the default): the same ownership
 * and mode rules the store applies when it opens, checked without creating anything. */
static bool doctor_state(void)
{
    char *configured = rp_cli_state_dir_from_stack(NULL);
    char def[PATH_MAX];
    const char *dir = configured ? configured : rp_store_default_dir(def, sizeof def);
    bool ok = false;
    if (!dir) {
        printf("state: BROKEN: cannot determine the state directory: set RAMPART_STATE_DIR or "
               "HOME\n");
    } else {
        char problem[1024];
        ok = rp_store_check_state_dir(dir, problem, sizeof problem) == 0 &&
             rp_store_check_database(dir, problem, sizeof problem) == 0;
        if (ok) {
            printf("state: ok (%s)\n", dir);
        } else {
            printf("state: BROKEN: %s (every hook call is denied until it is fixed)\n", problem);
        }
    }
    free(configured);
    return ok;
}

static int doctor_run(int argc, char **argv)
{
    const rp_cli_command *cmd = &rp_cmd_doctor;
    bool project = false;
    for (int i = 1; i < argc; i++) {
        if (rp_cli_is_help(argv[i])) {
            rp_cli_print_usage(cmd, stdout);
            return RP_EXIT_OK;
        } else if (strcmp(argv[i], "--project") == 0) {
            project = true;
        } else if (strcmp(argv[i], "--user") == 0) {
            project = false;
        } else {
            return rp_cli_usage_error(cmd, "unknown argument '%s'", argv[i]);
        }
    }
    char cwd[PATH_MAX];
    const char *base;
    if (project) {
        if (!getcwd(cwd, sizeof cwd)) {
            fprintf(stderr, "rampart doctor: the current directory: %s\n", strerror(errno));
            return RP_EXIT_FAIL;
        }
        base = cwd;
    } else {
        base = getenv("HOME");
        if (!base || base[0] != '/') {
            fprintf(stderr, "rampart doctor: $HOME is not set to an absolute path\n");
            return RP_EXIT_FAIL;
        }
    }
    size_t n;
    const rp_install_target *targets = rp_install_targets(&n);
    bool all_fine = true;
    for (size_t i = 0; i < n; i++) {
        all_fine = doctor_host(&targets[i], base, project) && all_fine;
    }
    all_fine = doctor_state() && all_fine;
    fflush(stdout);
    return all_fine ? RP_EXIT_OK : RP_EXIT_FAIL;
}

const rp_cli_command rp_cmd_doctor = {
    .name = "doctor",
    .summary = "check that each coding agent's rampart hook works",
    .usage = doctor_usage,
    .run = doctor_run,
};
