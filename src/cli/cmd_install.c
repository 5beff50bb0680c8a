/* cmd_install.c — `rampart install HOST` and `rampart uninstall HOST` (issue 8).
 *
 * Settings hosts (Claude Code, Codex, Cursor, Gemini) get rampart's hook entries spliced into
 * their JSON settings file (settings_splice.h): every other byte of the file stays as it was,
 * the previous file is kept as FILE.rampart-backup, and the new one replaces it atomically.
 * Pi and opencode get the extension file compiled into this binary, with its RAMPART_COMMAND
 * line set to the same command. The hook command names this binary by its absolute path, so
 * the hook does not depend on the host's PATH. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "install/host_offswitch.h"
#include "core/safe_file.h"
#include "install/install_targets.h"
#include "scan/redact.h"

static const char install_usage[] =
    "usage: rampart install HOST [--user | --project] [-c FILE] [--dry-run]\n"
    "\n"
    "Registers `rampart hook HOST` in the host's settings, for every event rampart gates.\n"
    "HOST is claude-code, codex, cursor, gemini, pi or opencode. --user (the default) writes\n"
    "the user's file under $HOME, --project the current directory's:\n"
    "  claude-code  ~/.claude/settings.json            ./.claude/settings.json\n"
    "  codex        ~/.codex/hooks.json                ./.codex/hooks.json\n"
    "  cursor       ~/.cursor/hooks.json               ./.cursor/hooks.json\n"
    "  gemini       ~/.gemini/settings.json            ./.gemini/settings.json\n"
    "  pi           ~/.pi/agent/extensions/rampart.ts  ./.pi/extensions/rampart.ts\n"
    "  opencode     ~/.config/opencode/plugin/rampart.ts  ./.opencode/plugin/rampart.ts\n"
    "(opencode's user file is under $XDG_CONFIG_HOME/opencode/ when that is set, as opencode\n"
    "reads it.) The JSON files are edited in place: only rampart's entries are added, the rest\n"
    "of the file is kept byte for byte, and the previous version is saved as\n"
    "FILE.rampart-backup. Running install again changes nothing. -c FILE makes the hook (or\n"
    "pi's and opencode's extension) use that config; installing again with another -c\n"
    "replaces it. Without -c and with no user or system config, install writes the starter\n"
    "config of `rampart init` (a hook with no policy would allow everything) and says so.\n"
    "--dry-run prints the resulting file instead of writing it.\n"
    "\n"
    "Files are written through a new temporary file beside them and a rename, never through\n"
    "whatever is already at a name. A symlinked user file (a dotfile manager's) is followed:\n"
    "the file it points at is rewritten and the link stays. A --project file, or a directory\n"
    "on its path (.claude, ...), that is a symlink is followed only when it stays inside the\n"
    "project; one leading out of it is refused, since a cloned repository may have planted it.\n"
    "A dangling symlinked settings file is refused, and so is anything at FILE.rampart-backup\n"
    "that is not a regular file of yours with one link (a symlink, directory, fifo, another\n"
    "user's file, a hard link): install then writes nothing and says what to remove.\n";

static const char uninstall_usage[] =
    "usage: rampart uninstall HOST [--user | --project] [--dry-run]\n"
    "\n"
    "Removes what `rampart install HOST` added: every hook entry that runs `rampart hook HOST`\n"
    "(any path), and groups, events or a \"hooks\" object left empty by that; install then\n"
    "uninstall gives back the original file byte for byte. For pi and opencode it deletes the\n"
    "extension file if rampart wrote it.\n";

typedef struct install_args {
    const char *host;
    bool project;
    bool dry_run;
    const char *config;
} install_args;

static int parse_args(const rp_cli_command *cmd, int argc, char **argv, install_args *a,
                      bool allow_config)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *value = NULL;
        int m;
        if (rp_cli_is_help(argv[i])) {
            rp_cli_print_usage(cmd, stdout);
            return -1;
        } else if (strcmp(argv[i], "--project") == 0) {
            a->project = true;
        } else if (strcmp(argv[i], "--user") == 0) {
            a->project = false;
        } else if (strcmp(argv[i], "--dry-run") == 0) {
            a->dry_run = true;
        } else if (allow_config &&
                   (m = rp_cli_flag_value(argc, argv, &i, "--config", "-c", &value)) != 0) {
            if (m < 0 || value[0] == '\0') {
                return rp_cli_usage_error(cmd, "-c needs a config file");
            }
            a->config = value;
        } else if (argv[i][0] == '-') {
            return rp_cli_usage_error(cmd, "unknown option '%s'", argv[i]);
        } else if (a->host) {
            return rp_cli_usage_error(cmd, "one host at a time");
        } else {
            a->host = argv[i];
        }
    }
    if (!a->host) {
        return rp_cli_usage_error(cmd, "which host? (claude-code, codex, cursor, gemini, pi, "
                                       "opencode)");
    }
    if (!rp_install_target_find(a->host)) {
        return rp_cli_usage_error(cmd, "unknown host '%s'", a->host);
    }
    return RP_EXIT_OK;
}

/* The settings or extension file of t for the chosen scope (malloc'd), or NULL. For --project,
 * root is the project directory without symlinks (what a write must stay under); else "". */
static char *target_path(const rp_install_target *t, bool project, char root[PATH_MAX],
                         const char *prog)
{
    const char *base;
    root[0] = '\0';
    if (project) {
        if (!realpath(".", root)) {
            fprintf(stderr, "%s: the current directory: %s\n", prog, strerror(errno));
            return NULL;
        }
        base = root;
    } else {
        base = getenv("HOME");
        if (!base || base[0] != '/') {
            fprintf(stderr, "%s: $HOME is not set to an absolute path\n", prog);
            return NULL;
        }
    }
    rp_buf p = {0};
    rp_install_path(t, project, base, &p);
    return rp_buf_take(&p);
}

/* Reads a whole file. Returns 1 (read), 0 (it does not exist) or -1 (error printed). */
static int read_file(const char *path, rp_buf *out, mode_t *mode, const char *prog)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) {
            return 0;
        }
        fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (mode) {
        *mode = fstat(fileno(f), &st) == 0 ? (st.st_mode & 07777) : 0644;
    }
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        rp_buf_append(out, chunk, n);
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: %s: read error\n", prog, path);
        return -1;
    }
    if (!out->data) {
        rp_buf_append(out, "", 0);
    }
    return 1;
}

/* Where the file at path is written (rp_safe_resolve: a symlinked user file is followed, a
 * project's file must stay inside the project), malloc'd, or NULL (error printed). */
static char *resolve(const char *path, const char *root, bool make_parents, const char *prog)
{
    rp_buf err = {0};
    char *real = rp_safe_resolve(path, root[0] ? root : NULL, make_parents, &err);
    if (!real) {
        fprintf(stderr, "%s: %s\n", prog, err.data);
    }
    rp_buf_free(&err);
    return real;
}

/* Writes data to path atomically (rp_safe_write); path is what resolve() gave. */
static int write_atomic(const char *path, const char *data, size_t len, mode_t mode,
                        const char *prog)
{
    rp_buf err = {0};
    int rc = rp_safe_write(path, data, len, mode, 0, &err) == 1 ? 0 : -1;
    if (rc != 0) {
        fprintf(stderr, "%s: %s\n", prog, err.data);
    }
    rp_buf_free(&err);
    return rc;
}

/* Checks the backup path before anything is written: 0 none, 1 rampart's own, -1 refused. */
static int check_backup(const char *bak, const char *prog)
{
    rp_buf err = {0};
    int rc = rp_safe_check_backup(bak, &err);
    if (rc < 0) {
        fprintf(stderr, "%s: %s\n", prog, err.data);
    }
    rp_buf_free(&err);
    return rc;
}

static char *backup_path(const char *path)
{
    rp_buf b = {0};
    rp_buf_printf(&b, "%s.rampart-backup", path);
    return rp_buf_take(&b);
}

/* The absolute path of this binary. */
static int self_path(char *out, size_t size, const char *prog)
{
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n <= 0) {
        fprintf(stderr, "%s: cannot find this binary's path (/proc/self/exe): %s\n", prog,
                strerror(errno));
        return -1;
    }
    out[n] = '\0';
    return 0;
}

/* The absolute path of -c's file in real (empty without -c), or -1 (error printed). */
static int config_path(const install_args *a, char real[PATH_MAX], const char *prog)
{
    real[0] = '\0';
    if (!a->config) {
        return 0;
    }
    if (!realpath(a->config, real)) {
        fprintf(stderr, "%s: %s: %s\n", prog, a->config, strerror(errno));
        return -1;
    }
    /* A hook with a config that does not load would deny every tool call: refuse it now. */
    rp_config_file f = {real, RP_LEVEL_EXPLICIT};
    rp_config *cfg = rp_config_load(&f, 1);
    size_t n_errors = cfg->n_errors;
    if (n_errors > 0) {
        rp_config_print_diags(cfg, stderr);
    }
    rp_config_free(cfg);
    if (n_errors > 0) {
        fprintf(stderr, "%s: %s does not load; not installing a hook that uses it\n", prog, real);
        return -1;
    }
    return 0;
}

/* The hook command of a settings host: `BIN hook HOST [-c CONFIG]`, quoted for sh. */
static void hook_command(const install_args *a, const char *bin, const char *config, rp_buf *cmd)
{
    rp_install_sh_quote(cmd, bin);
    rp_buf_printf(cmd, " hook %s", a->host);
    if (config[0]) {
        rp_buf_puts(cmd, " -c ");
        rp_install_sh_quote(cmd, config);
    }
}

/* Says, the moment the hook is in place, what keeps the host from running it (Codex's trust,
 * reset by any change of the hook; Claude Code's disableAllHooks; Gemini's folder trust, ...):
 * the same checks as `rampart doctor`. */
static void warn_offswitch(const rp_install_target *t, const install_args *a, const char *path,
                           const rp_buf *text, const char *prog)
{
    rp_buf off = {0}, caveat = {0};
    rp_install_offswitch(t->host, a->project, path, text->data ? text->data : "", text->len, &off,
                         &caveat);
    if (off.len) {
        fprintf(stderr, "%s: warning: %s: the hook is installed but will not run: %s\n", prog,
                t->host, off.data);
    }
    if (caveat.len) {
        fprintf(stderr, "%s: note: %s: %s\n", prog, t->host, caveat.data);
    }
    rp_buf_free(&off);
    rp_buf_free(&caveat);
}

/* The extension file runs the same command as a settings host's hook: this binary, by its
 * absolute path, with the same -c; install writes both into the file's RAMPART_COMMAND line. */
static int install_extension(const rp_install_target *t, const install_args *a, const char *bin,
                             const char *config, const char *path, const char *root,
                             const char *prog)
{
    char *real = resolve(path, root, !a->dry_run, prog);
    if (!real) {
        return RP_EXIT_FAIL;
    }
    rp_buf text = {0}, old = {0};
    const char *argv[] = {bin, "-c", config};
    int rc = RP_EXIT_OK;
    int have = read_file(real, &old, NULL, prog);
    if (!rp_install_extension_text(t, argv, config[0] ? 3 : 1, &text)) {
        fprintf(stderr,
                "%s: cannot write the %s extension's RAMPART_COMMAND line for %s%s%s (a path "
                "that is not UTF-8 cannot be named there; or this binary's extension lacks the "
                "line)\n",
                prog, t->host, bin, config[0] ? " -c " : "", config);
        rc = RP_EXIT_FAIL;
    } else if (have < 0) {
        rc = RP_EXIT_FAIL;
    } else if (have && old.len == text.len && memcmp(old.data, text.data, text.len) == 0) {
        printf("%s: already installed (%s)\n", t->host, path);
        warn_offswitch(t, a, path, &text, prog);
    } else if (have && strncmp(old.data, RP_INSTALL_EXT_MARKER, strlen(RP_INSTALL_EXT_MARKER))) {
        fprintf(stderr, "%s: %s exists and was not written by rampart install; not replacing it\n",
                prog, path);
        rc = RP_EXIT_FAIL;
    } else if (a->dry_run) {
        fwrite(text.data, 1, text.len, stdout);
    } else if (write_atomic(real, text.data, text.len, 0644, prog) != 0) {
        rc = RP_EXIT_FAIL;
    } else {
        printf("%s: installed %s (runs %s hook %s%s%s)\n", t->host, path, bin, t->host,
               config[0] ? " -c " : "", config);
        warn_offswitch(t, a, path, &text, prog);
    }
    free(real);
    rp_buf_free(&text);
    rp_buf_free(&old);
    return rc;
}

static void count_only(void *self, const char *command)
{
    (void)self;
    (void)command;
}

/* Whether text already holds a handler of ours. The backup keeps the file as it was before
 * rampart was first installed, so a re-install (a moved binary, another -c) does not replace
 * it with a version that has our entries in it. */
static bool has_ours(const rp_install_target *t, const rp_buf *text)
{
    rp_install_splice_spec spec = rp_install_spec(t, "");
    rp_install_splice_error err;
    return rp_install_splice_find_ours(text->data ? text->data : "", text->len, &spec, count_only,
                                       NULL, &err) > 0;
}

static int install_settings(const rp_install_target *t, const install_args *a, const char *cmd,
                            const char *path, const char *root, const char *prog)
{
    char *real = resolve(path, root, !a->dry_run, prog);
    if (!real) {
        return RP_EXIT_FAIL;
    }
    rp_buf old = {0}, out = {0};
    mode_t mode = 0644;
    int have = read_file(real, &old, &mode, prog);
    if (have < 0) {
        free(real);
        return RP_EXIT_FAIL;
    }
    rp_install_splice_spec spec = rp_install_spec(t, cmd);
    rp_install_splice_error err;
    rp_install_splice_status st =
        rp_install_splice_install(old.data ? old.data : "", old.len, &spec, &out, &err);
    int rc = RP_EXIT_OK;
    char *bak = backup_path(path);
    if (st == RP_INSTALL_SPLICE_ERROR) {
        fprintf(stderr, "%s: %s:%d:%d: %s (file left unchanged)\n", prog, path, err.line, err.col,
                err.msg);
        rc = RP_EXIT_FAIL;
    } else if (a->dry_run) {
        fwrite(out.data, 1, out.len, stdout);
    } else if (st == RP_INSTALL_SPLICE_UNCHANGED) {
        printf("%s: already installed (%s)\n", t->host, path);
        warn_offswitch(t, a, path, &old, prog);
    } else if (check_backup(bak, prog) < 0) {
        rc = RP_EXIT_FAIL; /* something planted at the backup's name: write nothing */
    } else if (have && !has_ours(t, &old) &&
               write_atomic(bak, old.data, old.len, mode, prog) != 0) {
        rc = RP_EXIT_FAIL;
    } else if (write_atomic(real, out.data, out.len, mode, prog) != 0) {
        rc = RP_EXIT_FAIL;
    } else {
        if (!have) {
            unlink(bak); /* an older backup would not describe this file */
        }
        if (have && access(bak, F_OK) == 0) {
            printf("%s: installed in %s (the original is kept in %s)\n", t->host, path, bak);
        } else {
            printf("%s: installed in %s\n", t->host, path);
        }
        warn_offswitch(t, a, path, &out, prog);
    }
    free(bak);
    free(real);
    rp_buf_free(&old);
    rp_buf_free(&out);
    return rc;
}

/* A hook without -c reads the default stack; with no user or system config that stack has no
 * policy and every call would be allowed. Install then writes `rampart init`'s starter config
 * (a system config is the administrator's: it is left to speak alone) and says so. */
static void ensure_config(const install_args *a)
{
    if (a->config || a->dry_run || access("/etc/rampart/config.yaml", F_OK) == 0) {
        return;
    }
    char path[PATH_MAX], err[PATH_MAX + 128];
    int rc = rp_cli_write_starter_config(false, path, sizeof path, err, sizeof err);
    if (rc > 0) {
        printf("no rampart config was found, so the starter config was written to %s (as "
               "`rampart init` does): shell guards, loop and error-streak detection, a "
               "1000-call cap, credentials, daily spend checkpoints. Edit it to taste.\n",
               path);
    } else if (rc < 0) {
        fprintf(stderr,
                "rampart install: warning: no rampart config, and the starter config could not "
                "be written (%s): every call will be allowed until `rampart init` succeeds\n",
                err);
    }
}

/* The hook masks secrets in every reason it writes (scan/redact.h); its scanner database is
 * compiled on first use and cached on disk. Compiling it here keeps that one-time cost (~90 ms
 * idle, several times that on a loaded machine) out of the first hook's deadline, where it could
 * turn the first reasons of a busy session into the deadline's answer. */
static void warm_scanner(const char *prog)
{
    char err[256];
    if (rp_redact_prepare(err, sizeof err) != 0) {
        fprintf(stderr,
                "%s: warning: the secret scanner's cache was not prepared (%s); the first "
                "hook call prepares it\n",
                prog, err);
    }
}

static int install_run(int argc, char **argv)
{
    const rp_cli_command *cmd = &rp_cmd_install;
    const char *prog = "rampart install";
    install_args a;
    int prc = parse_args(cmd, argc, argv, &a, true);
    if (prc != RP_EXIT_OK) {
        return prc < 0 ? RP_EXIT_OK : prc;
    }
    const rp_install_target *t = rp_install_target_find(a.host);
    char bin[PATH_MAX], config[PATH_MAX];
    if (self_path(bin, sizeof bin, prog) != 0) {
        return RP_EXIT_FAIL;
    }
    char root[PATH_MAX];
    char *path = target_path(t, a.project, root, prog);
    if (!path) {
        return RP_EXIT_FAIL;
    }
    if (config_path(&a, config, prog) != 0) {
        free(path);
        return RP_EXIT_FAIL;
    }
    ensure_config(&a);
    int rc;
    if (t->extension) {
        rc = install_extension(t, &a, bin, config, path, root, prog);
    } else {
        rp_buf command = {0};
        hook_command(&a, bin, config, &command);
        rc = install_settings(t, &a, command.data, path, root, prog);
        rp_buf_free(&command);
    }
    free(path);
    if (rc == RP_EXIT_OK && !a.dry_run) {
        warm_scanner(prog);
    }
    return rc;
}

static int uninstall_extension(const rp_install_target *t, const install_args *a, const char *path,
                               const char *root, const char *prog)
{
    char *real = resolve(path, root, false, prog);
    if (!real) {
        return RP_EXIT_FAIL;
    }
    rp_buf old = {0};
    int have = read_file(real, &old, NULL, prog);
    free(real);
    int rc = RP_EXIT_OK;
    if (have < 0) {
        rc = RP_EXIT_FAIL;
    } else if (!have) {
        printf("%s: not installed (%s)\n", t->host, path);
    } else if (strncmp(old.data, RP_INSTALL_EXT_MARKER, strlen(RP_INSTALL_EXT_MARKER)) != 0) {
        fprintf(stderr, "%s: %s was not written by rampart install; leaving it\n", prog, path);
        rc = RP_EXIT_FAIL;
    } else if (a->dry_run) {
        printf("%s: would delete %s\n", t->host, path);
    } else if (unlink(path) != 0) {
        fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
        rc = RP_EXIT_FAIL;
    } else {
        printf("%s: removed %s\n", t->host, path);
    }
    rp_buf_free(&old);
    return rc;
}

/* Whether text is exactly what install writes into a missing file (uninstall then deletes it). */
static bool created_by_install(const rp_install_splice_spec *spec, const rp_buf *text)
{
    rp_buf fresh = {0};
    rp_install_splice_error err;
    rp_install_splice_install("", 0, spec, &fresh, &err);
    bool same = fresh.len == text->len && memcmp(fresh.data, text->data, text->len) == 0;
    rp_buf_free(&fresh);
    return same;
}

static void first_command(void *self, const char *command)
{
    rp_buf *b = self;
    if (!b->data) {
        rp_buf_puts(b, command);
    }
}

static int uninstall_settings(const rp_install_target *t, const install_args *a, const char *path,
                              const char *root, const char *prog)
{
    char *real = resolve(path, root, false, prog);
    if (!real) {
        return RP_EXIT_FAIL;
    }
    rp_buf old = {0}, bak = {0}, out = {0}, ours = {0};
    mode_t mode = 0644;
    int have = read_file(real, &old, &mode, prog);
    if (have <= 0) {
        if (have == 0) {
            printf("%s: not installed (%s)\n", t->host, path);
        }
        free(real);
        return have < 0 ? RP_EXIT_FAIL : RP_EXIT_OK;
    }
    char *bpath = backup_path(path);
    /* The backup is read only when it is rampart's own: never through a planted link. */
    int have_bak = check_backup(bpath, prog);
    if (have_bak > 0) {
        rp_buf err = {0};
        have_bak = rp_safe_read_nofollow(bpath, &bak, &err);
        if (have_bak < 0) {
            fprintf(stderr, "%s: %s\n", prog, err.data);
        }
        rp_buf_free(&err);
    }
    if (have_bak < 0) {
        free(bpath);
        free(real);
        rp_buf_free(&old);
        return RP_EXIT_FAIL;
    }
    /* Removal takes any handler running `rampart hook HOST`; the command install wrote (found
     * in the file) lets the backup be checked: if installing into it gives this file, the
     * backup is the exact original. Without a backup the original may have been no file. */
    rp_install_splice_spec spec = rp_install_spec(t, "");
    rp_install_splice_error err;
    int n = rp_install_splice_find_ours(old.data, old.len, &spec, first_command, &ours, &err);
    spec.command = ours.data ? ours.data : "";
    rp_install_splice_status st = RP_INSTALL_SPLICE_ERROR;
    bool delete_file = false;
    /* A backup with entries of ours in it is not the original (written by an older version,
     * or by hand): only a clean one is restored. */
    bool usable_bak = have_bak > 0 && !has_ours(t, &bak);
    if (n > 0 && usable_bak) {
        st = rp_install_splice_uninstall_exact(old.data, old.len, bak.data, bak.len, &spec, &out,
                                               &err);
    } else if (n > 0 && created_by_install(&spec, &old)) {
        st = RP_INSTALL_SPLICE_CHANGED;
        delete_file = true;
    } else if (n >= 0) {
        st = rp_install_splice_uninstall(old.data, old.len, &spec, &out, &err);
    }
    int rc = RP_EXIT_OK;
    if (st == RP_INSTALL_SPLICE_ERROR) {
        fprintf(stderr, "%s: %s:%d:%d: %s (file left unchanged)\n", prog, path, err.line, err.col,
                err.msg);
        rc = RP_EXIT_FAIL;
    } else if (st == RP_INSTALL_SPLICE_UNCHANGED) {
        printf("%s: not installed (%s)\n", t->host, path);
    } else if (a->dry_run) {
        if (delete_file) {
            printf("%s: would delete %s (install created it)\n", t->host, path);
        } else {
            fwrite(out.data, 1, out.len, stdout);
        }
    } else if (delete_file) {
        if (unlink(path) != 0) {
            fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
            rc = RP_EXIT_FAIL;
        } else {
            printf("%s: removed %s (install had created it)\n", t->host, path);
        }
    } else if (write_atomic(real, out.data, out.len, mode, prog) != 0) {
        rc = RP_EXIT_FAIL;
    } else {
        printf("%s: removed from %s\n", t->host, path);
    }
    if (rc == RP_EXIT_OK && !a->dry_run && st == RP_INSTALL_SPLICE_CHANGED && have_bak > 0) {
        unlink(bpath); /* the file is back to what the backup held (or the backup was stale) */
    }
    free(bpath);
    free(real);
    rp_buf_free(&old);
    rp_buf_free(&bak);
    rp_buf_free(&out);
    rp_buf_free(&ours);
    return rc;
}

static int uninstall_run(int argc, char **argv)
{
    const rp_cli_command *cmd = &rp_cmd_uninstall;
    const char *prog = "rampart uninstall";
    install_args a;
    int prc = parse_args(cmd, argc, argv, &a, false);
    if (prc != RP_EXIT_OK) {
        return prc < 0 ? RP_EXIT_OK : prc;
    }
    const rp_install_target *t = rp_install_target_find(a.host);
    char root[PATH_MAX];
    char *path = target_path(t, a.project, root, prog);
    if (!path) {
        return RP_EXIT_FAIL;
    }
    int rc = t->extension ? uninstall_extension(t, &a, path, root, prog)
                          : uninstall_settings(t, &a, path, root, prog);
    free(path);
    return rc;
}

const rp_cli_command rp_cmd_install = {
    .name = "install",
    .summary = "register rampart's hook in a coding agent (claude-code, codex, cursor, ...)",
    .usage = install_usage,
    .run = install_run,
};

const rp_cli_command rp_cmd_uninstall = {
    .name = "uninstall",
    .summary = "remove what `rampart install` added",
    .usage = uninstall_usage,
    .run = uninstall_run,
};
