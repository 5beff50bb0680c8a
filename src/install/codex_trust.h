/* codex_trust.h — whether Codex will run rampart's hooks.
 *
 * Codex runs a hook that is not managed only once the user has trusted its exact definition:
 * ~/.codex/config.toml keeps, per hook, a table
 *
 *     [hooks.state."<hooks.json path>:<event_snake>:<group index>:<handler index>"]
 *     trusted_hash = "sha256:<hex>"
 *     enabled = false          # optional: the user switched it off
 *
 * and the hook runs only when trusted_hash is the hash of its current definition: SHA-256 of
 * the compact, key-sorted JSON of {"event_name": "<event_snake>", "matcher": M (when the group
 * has one), "hooks": [{"async": false, "command": C, "timeout": T, "type": "command"}]}
 * (codex-rs hooks discovery.rs and config fingerprint.rs; checked against Codex 0.171's own
 * `hooks/list`). A new hook is "untrusted", a changed one (another binary, another -c)
 * "modified": Codex skips both without a word at run time. */
#ifndef RAMPART_INSTALL_CODEX_TRUST_H
#define RAMPART_INSTALL_CODEX_TRUST_H

#include <stdbool.h>
#include <stddef.h>

typedef struct rp_install_codex_trust {
    size_t ours;            /* rampart handlers in hooks.json */
    size_t trusted;         /* trusted for their current definition, and not disabled */
    size_t untrusted;       /* never trusted */
    size_t modified;        /* trusted for another definition */
    size_t disabled;        /* enabled = false */
    char event[64];         /* the first event whose handler does not run, e.g. "PreToolUse" */
    bool hooks_off;         /* [features] hooks (or codex_hooks) = false: Codex runs no hook */
    bool project_untrusted; /* project_dir given and not `trust_level = "trusted"` there */
} rp_install_codex_trust;

/* Checks every rampart handler of hooks_text (the hooks.json at hooks_path, absolute, as Codex
 * names it in the keys) against config_toml (the text of ~/.codex/config.toml; NULL or "" when
 * there is none). project_dir (or NULL): a project install's directory, whose
 * [projects."<dir>"] trust_level must be "trusted" — or, without an entry of its own, that of
 * project_git_root (the git repository holding it, or NULL) — or Codex loads its .codex/ layer
 * disabled. No other parent's entry counts.
 * Returns 0, or -1 with err when hooks_text is not the JSON it should be. */
int rp_install_codex_trust_check(const char *hooks_path, const char *hooks_text, size_t hooks_len,
                                 const char *config_toml, const char *project_dir,
                                 const char *project_git_root, rp_install_codex_trust *out,
                                 char *err, size_t err_size);

#endif
