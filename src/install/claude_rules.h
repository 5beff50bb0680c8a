/* claude_rules.h — Claude Code's permission rules (settings.json `permissions.allow`, `.ask`,
 * `.deny`) translated into the `permission` map of rampart's `permissions` policy.
 *
 * Pure: a parsed settings object in, the YAML text of a `policies:` block and the list of rules
 * that could not be translated out. No I/O; the caller (src/cli/cmd_import.c) reads the file
 * and decides where `/path` rules are anchored.
 *
 * The two models differ in how they order rules. Claude Code checks every deny rule, then every
 * ask rule, then every allow rule, and the first match wins; rampart's last matching rule wins.
 * So within each surface the translation lists the allows first, then the asks, then the
 * denies, and a pattern that several lists name appears once, with the strictest action.
 *
 * Nothing is dropped silently: a rule that cannot be expressed (a WebFetch domain, a parameter
 * rule such as Bash(run_in_background:true), a non-string entry) is returned in `skipped` and
 * printed as a comment. A translation that matches more than Claude Code would (an allow
 * whose single-segment `*` becomes rampart's `*`, which crosses '/') carries a note. */
#ifndef RAMPART_INSTALL_CLAUDE_RULES_H
#define RAMPART_INSTALL_CLAUDE_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"

/* Ordered by strictness, as in Claude Code's evaluation (deny beats ask beats allow). */
typedef enum rp_install_claude_action {
    RP_INSTALL_CLAUDE_ALLOW = 0,
    RP_INSTALL_CLAUDE_ASK = 1,
    RP_INSTALL_CLAUDE_DENY = 2
} rp_install_claude_action;

const char *rp_install_claude_action_name(rp_install_claude_action a); /* "allow", "ask", "deny" */

/* One pattern of one surface of the output, in the order it is printed. */
typedef struct rp_install_claude_entry {
    const char *surface; /* "bash", "read", "mcp", "WebFetch", ... */
    const char *pattern; /* the rampart glob */
    rp_install_claude_action action;
    const char *sources; /* the Claude rules it comes from: "allow Bash(git diff:*)"; "; "-joined */
    const char *note;    /* how it differs from Claude Code's rule (widening), or NULL */
} rp_install_claude_entry;

/* A rule (or setting) that was not translated. */
typedef struct rp_install_claude_skip {
    const char *where;  /* "permissions.allow[3]", "permissions.defaultMode" */
    const char *rule;   /* the rule as written; NULL when the entry is not a string */
    const char *reason; /* why it cannot be expressed */
} rp_install_claude_skip;

typedef struct rp_install_claude_options {
    /* The absolute directory Claude Code anchors `/path` rules at: the project root of a
     * project settings file (the parent of its .claude directory), ~/.claude for the user's.
     * NULL: such rules are not translated. */
    const char *root;
    /* Named in the header comment (the settings file), or NULL. */
    const char *source;
} rp_install_claude_options;

typedef struct rp_install_claude_result {
    char *yaml; /* the policies: block (arena), also when rules were skipped */
    rp_install_claude_entry *entries;
    size_t n_entries;
    rp_install_claude_skip *skipped;
    size_t n_skipped;
    const char **notes; /* other remarks printed as comments (rules another rule shadows) */
    size_t n_notes;
    size_t n_rules;       /* entries read from the three lists */
    const char *fallback; /* the "*" state: "ask", or "deny" (deny "*", defaultMode dontAsk) */
    char error[256];      /* when rp_install_claude_import returns -1 */
} rp_install_claude_result;

/* Translates settings (the whole parsed settings.json). Returns 0, or -1 when the input does not
 * have the shape of a settings file (not an object; `permissions` or one of its lists of the
 * wrong type): out->error says what and where, and nothing else is filled. */
int rp_install_claude_import(rp_arena *a, const rp_json *settings,
                             const rp_install_claude_options *opts, rp_install_claude_result *out);

/* Appends s to b as a YAML scalar: plain when that reads back as the same string (a simple
 * word that is not null/true/false/yes/...), otherwise double-quoted with escapes for quotes,
 * backslashes, control characters, and the characters YAML treats as line breaks or forbids
 * (NEL, U+2028, U+2029, BOM, U+FFFE/U+FFFF). always_quote forces the quoted form. */
void rp_install_claude_yaml_scalar(rp_buf *b, const char *s, bool always_quote);

#endif
