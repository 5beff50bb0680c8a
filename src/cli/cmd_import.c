/* cmd_import.c — `rampart import claude-code [--root DIR] [SETTINGS.json | -]`.
 *
 * Reads Claude Code's settings file and prints the rampart `policies:` block that enforces the
 * same permission rules (the translation itself is src/install/claude_rules.c). Printing rather
 * than writing a config file leaves the person in charge of where the rules go and lets them
 * read the "not translated" list first. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "install/claude_rules.h"

/* Settings files are small; a bigger input is a mistake, not something to translate. */
#define MAX_SETTINGS_BYTES (16u << 20)

static const char import_usage[] =
    "usage: rampart import claude-code [--root DIR] [SETTINGS.json | -]\n"
    "\n"
    "Prints the rampart `policies:` block (the `permissions` policy) that enforces Claude\n"
    "Code's permission rules: permissions.allow, permissions.ask and permissions.deny of\n"
    "SETTINGS.json (default ./.claude/settings.json when it exists, else\n"
    "~/.claude/settings.json; `-` reads standard input). Claude Code checks deny, then ask,\n"
    "then allow; rampart's last matching rule wins, so each surface lists its allows, then\n"
    "its asks, then its denies. A rule that cannot be expressed is listed as a comment in the\n"
    "output and on stderr, never dropped. See docs/permissions.md.\n"
    "\n"
    "  --root DIR  the directory `/path` rules are anchored at (default: the project the\n"
    "              settings file belongs to, i.e. the parent of its .claude directory;\n"
    "              ~/.claude for the user's own settings; the current directory for stdin)\n"
    "\n"
    "Exit status: 0 every rule translated, 1 some rules not translated (the block is still\n"
    "printed), 2 unreadable or invalid settings, or a usage error.\n";

/* Reads all of f into b. Returns 0, or -1 with errno set (EFBIG when too large). */
static int read_all(FILE *f, rp_buf *b)
{
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (b->len + n > MAX_SETTINGS_BYTES) {
            errno = EFBIG;
            return -1;
        }
        rp_buf_append(b, chunk, n);
    }
    if (ferror(f)) {
        if (errno == 0)
            errno = EIO;
        return -1;
    }
    if (b->data == NULL)
        rp_buf_append(b, "", 0);
    return 0;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Prints s to stderr with control characters shown as '?', so that a hostile settings file
 * cannot drive the terminal. */
static void put_safe(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        fputc(*p < 0x20 || *p == 0x7F ? '?' : *p, stderr);
}

/* Where Claude Code anchors `/path` rules of the settings file at `path` (reference
 * agent-hosts.md §A.1.8): the project root for a project's .claude/settings*.json (the parent
 * of .claude), ~/.claude for the user's settings, the file's own directory otherwise. */
static char *settings_root(const char *path)
{
    char real[PATH_MAX];
    if (realpath(path, real) == NULL)
        return NULL;
    char *slash = strrchr(real, '/');
    if (slash == NULL)
        return NULL;
    if (slash == real)
        slash[1] = '\0';
    else
        *slash = '\0';
    const char *base = strrchr(real, '/');
    base = base ? base + 1 : real;
    if (strcmp(base, ".claude") != 0)
        return strdup(real);
    const char *home = getenv("HOME");
    if (home && home[0]) {
        char user[PATH_MAX], user_real[PATH_MAX];
        if (snprintf(user, sizeof user, "%s/.claude", home) < (int)sizeof user &&
            realpath(user, user_real) && strcmp(user_real, real) == 0)
            return strdup(real);
    }
    char *parent = strrchr(real, '/');
    if (parent == real)
        parent[1] = '\0';
    else
        *parent = '\0';
    return strdup(real);
}

static int import_claude_code(const char *file_arg, const char *root_arg)
{
    const rp_cli_command *cmd = &rp_cmd_import;
    char fallback_path[PATH_MAX];
    const char *path = file_arg;
    if (path == NULL) {
        const char *home = getenv("HOME");
        if (is_file(".claude/settings.json")) {
            path = ".claude/settings.json";
        } else if (home && home[0] &&
                   snprintf(fallback_path, sizeof fallback_path, "%s/.claude/settings.json", home) <
                       (int)sizeof fallback_path &&
                   is_file(fallback_path)) {
            path = fallback_path;
        } else {
            fprintf(stderr,
                    "rampart %s: no settings file: neither ./.claude/settings.json nor "
                    "~/.claude/settings.json exists (name one)\n",
                    cmd->name);
            return RP_EXIT_USAGE;
        }
    }
    bool from_stdin = strcmp(path, "-") == 0;
    const char *name = from_stdin ? "<stdin>" : path;

    rp_buf text = {0};
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    struct stat st;
    if (f && !from_stdin && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        f = NULL;
        errno = EISDIR;
    }
    if (f == NULL || read_all(f, &text) != 0) {
        int e = errno;
        fprintf(stderr, "rampart %s: %s: cannot read: %s\n", cmd->name, name, strerror(e));
        if (f && !from_stdin)
            fclose(f);
        rp_buf_free(&text);
        return RP_EXIT_USAGE;
    }
    if (!from_stdin)
        fclose(f);

    rp_arena a;
    rp_arena_init(&a, 1 << 16);
    rp_json_error jerr;
    rp_json *settings = rp_json_parse(&a, text.data, text.len, &jerr);
    rp_buf_free(&text);
    if (settings == NULL) {
        fprintf(stderr, "rampart %s: %s:%d:%d: invalid JSON: %s\n", cmd->name, name, jerr.line,
                jerr.col, jerr.msg);
        rp_arena_free(&a);
        return RP_EXIT_USAGE;
    }

    char *root = NULL;
    if (root_arg) {
        char real[PATH_MAX];
        if (realpath(root_arg, real) == NULL) {
            fprintf(stderr, "rampart %s: --root %s: %s\n", cmd->name, root_arg, strerror(errno));
            rp_arena_free(&a);
            return RP_EXIT_USAGE;
        }
        root = strdup(real);
    } else if (from_stdin) {
        char real[PATH_MAX];
        root = realpath(".", real) ? strdup(real) : NULL;
    } else {
        root = settings_root(path);
    }

    rp_install_claude_options opts = {.root = root, .source = name};
    rp_install_claude_result r;
    int status = RP_EXIT_OK;
    if (rp_install_claude_import(&a, settings, &opts, &r) != 0) {
        fprintf(stderr, "rampart %s: %s: not Claude Code settings: %s\n", cmd->name, name, r.error);
        status = RP_EXIT_USAGE;
    } else {
        fputs(r.yaml, stdout);
        fflush(stdout);
        for (size_t i = 0; i < r.n_skipped; i++) {
            const rp_install_claude_skip *s = &r.skipped[i];
            fprintf(stderr, "rampart %s: not translated: %s", cmd->name, s->where);
            if (s->rule) {
                fputc(' ', stderr);
                put_safe(s->rule);
            }
            fputs(": ", stderr);
            put_safe(s->reason);
            fputc('\n', stderr);
        }
        if (r.n_skipped > 0) {
            fprintf(stderr, "rampart %s: %zu item%s of %s not translated (listed in the output)\n",
                    cmd->name, r.n_skipped, r.n_skipped == 1 ? "" : "s", name);
            status = RP_EXIT_FAIL;
        }
    }
    free(root);
    rp_arena_free(&a);
    return status;
}

static int import_run(int argc, char **argv)
{
    const rp_cli_command *cmd = &rp_cmd_import;
    const char *host = NULL, *file = NULL, *root = NULL;
    bool only_positional = false;
    for (int i = 1; i < argc; i++) {
        const char *value = NULL;
        int m;
        if (only_positional || argv[i][0] != '-' || strcmp(argv[i], "-") == 0) {
            if (host == NULL)
                host = argv[i];
            else if (file == NULL)
                file = argv[i];
            else
                return rp_cli_usage_error(cmd, "one settings file at a time");
        } else if (strcmp(argv[i], "--") == 0) {
            only_positional = true;
        } else if (rp_cli_is_help(argv[i])) {
            rp_cli_print_usage(cmd, stdout);
            return RP_EXIT_OK;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--root", NULL, &value)) != 0) {
            if (m < 0 || value[0] == '\0')
                return rp_cli_usage_error(cmd, "--root needs a directory");
            root = value;
        } else {
            return rp_cli_usage_error(cmd, "unknown option '%s'", argv[i]);
        }
    }
    if (host == NULL)
        return rp_cli_usage_error(cmd, "name the agent host to import from (claude-code)");
    if (strcmp(host, "claude-code") != 0)
        return rp_cli_usage_error(cmd, "unknown host '%s' (known: claude-code)", host);
    return import_claude_code(file, root);
}

const rp_cli_command rp_cmd_import = {
    .name = "import",
    .summary = "translate an agent host's permission rules into a rampart policy",
    .usage = import_usage,
    .run = import_run,
};
