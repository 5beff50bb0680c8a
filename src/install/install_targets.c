/* install_targets.c — the per-host tables of install_targets.h (agent-hosts.md A.1.1, A.2.1,
 * A.3, A.4, A.5). */
#include "install/install_targets.h"

#include <stdlib.h>
#include <string.h>

#include "core/json.h"

/* Claude Code: "*" matches every tool; events without a tool take no matcher. */
static const rp_install_splice_event claude_events[] = {
    {"PreToolUse", "*"},
    {"PostToolUse", "*"},
    {"PostToolUseFailure", "*"},
    {"UserPromptSubmit", NULL},
    {"SessionStart", NULL},
    {"SessionEnd", NULL},
    {"Stop", NULL},
    {"SubagentStop", NULL},
};

/* Codex validates the matcher as a regex and skips a hook whose matcher does not compile, so
 * the match-everything matcher is ".*", not Claude's "*". */
static const rp_install_splice_event codex_events[] = {
    {"SessionStart", NULL}, {"UserPromptSubmit", NULL}, {"PreToolUse", ".*"}, {"PostToolUse", ".*"},
    {"Stop", NULL},         {"SubagentStop", NULL},
};

static const rp_install_splice_event cursor_events[] = {
    {"beforeShellExecution", NULL}, {"beforeMCPExecution", NULL},
    {"beforeReadFile", NULL},       {"preToolUse", NULL},
    {"postToolUse", NULL},          {"afterShellExecution", NULL},
    {"beforeSubmitPrompt", NULL},   {"stop", NULL},
    {"sessionStart", NULL},         {"sessionEnd", NULL},
};

/* Gemini: the matcher is a regex for tool events and an exact string for lifecycle events,
 * where leaving it out matches all. */
static const rp_install_splice_event gemini_events[] = {
    {"BeforeTool", ".*"},  {"AfterTool", ".*"},  {"BeforeAgent", NULL},  {"AfterAgent", NULL},
    {"BeforeModel", NULL}, {"AfterModel", NULL}, {"SessionStart", NULL}, {"SessionEnd", NULL},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const rp_install_target targets[] = {
    {"claude-code", ".claude/settings.json", ".claude/settings.json", RP_INSTALL_SPLICE_GROUPS,
     claude_events, N(claude_events), 5, NULL, NULL},
    {"codex", ".codex/hooks.json", ".codex/hooks.json", RP_INSTALL_SPLICE_GROUPS, codex_events,
     N(codex_events), 5, NULL, NULL},
    {"cursor", ".cursor/hooks.json", ".cursor/hooks.json", RP_INSTALL_SPLICE_FLAT, cursor_events,
     N(cursor_events), 0, NULL, NULL},
    {"gemini", ".gemini/settings.json", ".gemini/settings.json", RP_INSTALL_SPLICE_GROUPS,
     gemini_events, N(gemini_events), 5000, NULL, NULL},
    {"pi", ".pi/agent/extensions/rampart.ts", ".pi/extensions/rampart.ts", RP_INSTALL_SPLICE_GROUPS,
     NULL, 0, 0, rp_extension_pi, &rp_extension_pi_len},
    {"opencode", ".config/opencode/plugin/rampart.ts", ".opencode/plugin/rampart.ts",
     RP_INSTALL_SPLICE_GROUPS, NULL, 0, 0, rp_extension_opencode, &rp_extension_opencode_len},
};

const rp_install_target *rp_install_targets(size_t *count)
{
    *count = N(targets);
    return targets;
}

const rp_install_target *rp_install_target_find(const char *host)
{
    for (size_t i = 0; i < N(targets); i++) {
        if (strcmp(targets[i].host, host) == 0) {
            return &targets[i];
        }
    }
    return NULL;
}

void rp_install_path(const rp_install_target *t, bool project, const char *base, rp_buf *out)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    static const char home_config[] = ".config/";
    if (!project && xdg && xdg[0] == '/' && strcmp(t->host, "opencode") == 0 &&
        strncmp(t->user_path, home_config, strlen(home_config)) == 0) {
        rp_buf_printf(out, "%s/%s", xdg, t->user_path + strlen(home_config));
    } else {
        rp_buf_printf(out, "%s/%s", base, project ? t->project_path : t->user_path);
    }
}

rp_install_splice_spec rp_install_spec(const rp_install_target *t, const char *command)
{
    return (rp_install_splice_spec){
        .shape = t->shape,
        .events = t->events,
        .n_events = t->n_events,
        .host = t->host,
        .command = command,
        .timeout = t->timeout,
    };
}

void rp_install_sh_quote(rp_buf *out, const char *s)
{
    bool plain = s[0] != '\0';
    for (const char *p = s; *p; p++) {
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-", *p)) {
            plain = false;
            break;
        }
    }
    if (plain) {
        rp_buf_puts(out, s);
        return;
    }
    rp_buf_putc(out, '\'');
    for (const char *p = s; *p; p++) {
        if (*p == '\'') {
            rp_buf_puts(out, "'\\''");
        } else {
            rp_buf_putc(out, *p);
        }
    }
    rp_buf_putc(out, '\'');
}

/* The start of the RAMPART_COMMAND line in text[0..n) (at the start of a line), or NULL. */
static const char *command_line(const char *text, size_t n)
{
    size_t kl = strlen(RP_INSTALL_EXT_COMMAND);
    for (size_t i = 0; i + kl <= n; i++) {
        if ((i == 0 || text[i - 1] == '\n') && memcmp(text + i, RP_INSTALL_EXT_COMMAND, kl) == 0) {
            return text + i;
        }
    }
    return NULL;
}

/* Whether s, written as a JSON string, reads back as exactly s: not when it is not UTF-8 (the
 * writer puts U+FFFD for a bad byte), so the extension would run another path. */
static bool literal_exact(const char *s)
{
    rp_buf lit = {0};
    rp_json_write_string(&lit, s, strlen(s));
    rp_arena a;
    rp_arena_init(&a, 256);
    rp_json_error err;
    const rp_json *v = rp_json_parse(&a, lit.data, lit.len, &err);
    bool same = rp_json_is_string(v) && v->len == strlen(s) && memcmp(v->v.s, s, v->len) == 0;
    rp_arena_free(&a);
    rp_buf_free(&lit);
    return same;
}

bool rp_install_extension_text(const rp_install_target *t, const char *const *argv, size_t argc,
                               rp_buf *out)
{
    const char *text = t->extension;
    size_t n = *t->extension_len;
    const char *line = command_line(text, n);
    if (!line) {
        return false;
    }
    for (size_t i = 0; i < argc; i++) {
        if (!literal_exact(argv[i])) {
            return false;
        }
    }
    const char *eol = memchr(line, '\n', n - (size_t)(line - text));
    eol = eol ? eol : text + n;
    rp_buf_printf(out, "%s\n", RP_INSTALL_EXT_MARKER);
    rp_buf_append(out, text, (size_t)(line - text));
    /* A JSON array of JSON strings is a JavaScript array literal of the same strings. */
    rp_buf_puts(out, RP_INSTALL_EXT_COMMAND "[");
    for (size_t i = 0; i < argc; i++) {
        if (i > 0) {
            rp_buf_puts(out, ", ");
        }
        rp_json_write_string(out, argv[i], strlen(argv[i]));
    }
    rp_buf_puts(out, "];");
    rp_buf_append(out, eol, n - (size_t)(eol - text));
    return true;
}

const char **rp_install_extension_command(rp_arena *a, const char *text, size_t n, size_t *argc)
{
    *argc = 0;
    const char *line = command_line(text, n);
    if (!line) {
        return NULL;
    }
    const char *open = line + strlen(RP_INSTALL_EXT_COMMAND);
    const char *eol = memchr(line, '\n', n - (size_t)(line - text));
    const char *end = eol ? eol : text + n;
    while (end > open && (end[-1] == ';' || end[-1] == ' ' || end[-1] == '\r')) {
        end--;
    }
    rp_json_error err;
    const rp_json *v = rp_json_parse(a, open, (size_t)(end - open), &err);
    if (!rp_json_is_array(v) || v->len == 0) {
        return NULL;
    }
    const char **words = rp_arena_calloc(a, (v->len + 1) * sizeof *words);
    for (uint32_t i = 0; i < v->len; i++) {
        words[i] = rp_json_str(&v->v.items[i]);
        if (!words[i]) {
            return NULL;
        }
    }
    *argc = v->len;
    return words;
}
