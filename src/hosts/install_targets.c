/* install_targets.c — the per-host tables of install_targets.h (agent-hosts.md A.1.1, A.2.1,
 * A.3, A.4, A.5). */
#include "hosts/install_targets.h"

#include <string.h>

#include "core/json.h"

/* Claude Code: "*" matches every tool; events without a tool take no matcher. */
static const rp_splice_event claude_events[] = {
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
static const rp_splice_event codex_events[] = {
    {"SessionStart", NULL}, {"UserPromptSubmit", NULL}, {"PreToolUse", ".*"}, {"PostToolUse", ".*"},
    {"Stop", NULL},         {"SubagentStop", NULL},
};

static const rp_splice_event cursor_events[] = {
    {"beforeShellExecution", NULL}, {"beforeMCPExecution", NULL},
    {"beforeReadFile", NULL},       {"preToolUse", NULL},
    {"postToolUse", NULL},          {"afterShellExecution", NULL},
    {"beforeSubmitPrompt", NULL},   {"stop", NULL},
    {"sessionStart", NULL},         {"sessionEnd", NULL},
};

/* Gemini: the matcher is a regex for tool events and an exact string for lifecycle events,
 * where leaving it out matches all. */
static const rp_splice_event gemini_events[] = {
    {"BeforeTool", ".*"},  {"AfterTool", ".*"},  {"BeforeAgent", NULL},  {"AfterAgent", NULL},
    {"BeforeModel", NULL}, {"AfterModel", NULL}, {"SessionStart", NULL}, {"SessionEnd", NULL},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const rp_install_target targets[] = {
    {"claude-code", ".claude/settings.json", ".claude/settings.json", RP_SPLICE_GROUPS,
     claude_events, N(claude_events), 5, NULL, NULL},
    {"codex", ".codex/hooks.json", ".codex/hooks.json", RP_SPLICE_GROUPS, codex_events,
     N(codex_events), 5, NULL, NULL},
    {"cursor", ".cursor/hooks.json", ".cursor/hooks.json", RP_SPLICE_FLAT, cursor_events,
     N(cursor_events), 0, NULL, NULL},
    {"gemini", ".gemini/settings.json", ".gemini/settings.json", RP_SPLICE_GROUPS, gemini_events,
     N(gemini_events), 5000, NULL, NULL},
    {"pi", ".pi/agent/extensions/rampart.ts", ".pi/extensions/rampart.ts", RP_SPLICE_GROUPS, NULL,
     0, 0, rp_extension_pi, &rp_extension_pi_len},
    {"opencode", ".config/opencode/plugin/rampart.ts", ".opencode/plugin/rampart.ts",
     RP_SPLICE_GROUPS, NULL, 0, 0, rp_extension_opencode, &rp_extension_opencode_len},
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

rp_splice_spec rp_install_spec(const rp_install_target *t, const char *command)
{
    return (rp_splice_spec){
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

/* Appends text[0..n) with every `token` replaced by `with`. */
static void replace_all(rp_buf *out, const char *text, size_t n, const char *token,
                        const char *with)
{
    size_t tl = strlen(token);
    size_t pos = 0;
    while (pos < n) {
        const char *hit = NULL;
        for (size_t i = pos; i + tl <= n; i++) {
            if (memcmp(text + i, token, tl) == 0) {
                hit = text + i;
                break;
            }
        }
        if (!hit) {
            break;
        }
        rp_buf_append(out, text + pos, (size_t)(hit - text) - pos);
        rp_buf_puts(out, with);
        pos = (size_t)(hit - text) + tl;
    }
    rp_buf_append(out, text + pos, n - pos);
}

void rp_install_extension_text(const rp_install_target *t, const char *bin, rp_buf *out)
{
    /* The path as the inside of a JavaScript string literal (JSON escaping is valid JS). */
    rp_buf lit = {0};
    rp_json_write_string(&lit, bin, strlen(bin));
    char *inside = lit.data + 1;
    lit.data[lit.len - 1] = '\0';

    rp_buf step = {0};
    replace_all(&step, t->extension, *t->extension_len, "__RAMPART_BIN__", inside);
    rp_buf def = {0};
    rp_buf_printf(&def, "process.env.RAMPART_BIN || \"%s\"", inside);
    rp_buf_printf(out, "%s\n", RP_INSTALL_EXT_MARKER);
    replace_all(out, step.data, step.len, "process.env.RAMPART_BIN || \"rampart\"", def.data);
    rp_buf_free(&def);
    rp_buf_free(&step);
    rp_buf_free(&lit);
}
