/* host_offswitch.h — the ways a host keeps an installed rampart hook from running, each said
 * with what to do (docs/hosts.md, "Silent off-switches"). `rampart doctor` reports them and
 * `rampart install` warns about them the moment it installs into such a state.
 *
 *   claude-code  disableAllHooks: true in the user, project, local or managed settings;
 *                allowManagedHooksOnly: true in the managed settings; CLAUDE_CODE_SIMPLE
 *                (--bare) or CLAUDE_CODE_SAFE_MODE in the environment.
 *   codex        the hook not trusted, or changed since it was trusted, or disabled, in
 *                ~/.codex/config.toml [hooks.state]; [features] hooks = false; a project
 *                install in a project Codex does not trust; CODEX_HOME elsewhere.
 *   gemini       hooksConfig.enabled: false, or rampart's hook in hooksConfig.disabled; a
 *                project install in a folder Gemini does not trust (trustedFolders.json);
 *                folders marked DO_NOT_TRUST (no hook runs there at all);
 *                GEMINI_CLI_TRUST_WORKSPACE=false or GEMINI_RESTRICTED_MODE=true.
 *   pi           PI_CODING_AGENT_DIR elsewhere; an "extensions" entry ("!glob", "-path") in
 *                Pi's settings.json that excludes rampart.ts; an extensions directory with its
 *                own entry points (index.ts, a package.json "pi" manifest) or an ignore file
 *                naming rampart.ts.
 *   opencode     OPENCODE_PURE; OPENCODE_DISABLE_PROJECT_CONFIG with a project install; the
 *                newest opencode log saying rampart's plugin failed to load. */
#ifndef RAMPART_INSTALL_HOST_OFFSWITCH_H
#define RAMPART_INSTALL_HOST_OFFSWITCH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"

/* Checks host (whose rampart hook is in hook_file, an absolute path, with text hook_text)
 * for what turns the hook off. Appends to `off` why it does not run, with what to do (empty
 * when nothing turns it off), and to `caveat` where it does not run although it is on (e.g.
 * Gemini's DO_NOT_TRUST folders). `project` is an install in the current directory. */
void rp_install_offswitch(const char *host, bool project, const char *hook_file,
                          const char *hook_text, size_t hook_len, rp_buf *off, rp_buf *caveat);

/* The parts shared with the per-host files (host_offswitch_ext.c). */
void rp_install_offswitch_pi(bool project, const char *hook_file, rp_buf *off);
void rp_install_offswitch_opencode(bool project, const char *hook_file, rp_buf *off);
/* Appends a sentence to b, after "; " when b is not empty. */
void rp_install_offswitch_say(rp_buf *b, const char *text);
/* path with $HOME shown as ~, in a. */
const char *rp_install_offswitch_shown(rp_arena *a, const char *path);
/* Reads the whole file at path into out (reset first; NUL-terminated): 1, or 0 when it does
 * not exist, -1 when it cannot be read. */
int rp_install_read_file(const char *path, rp_buf *out);
/* The JSON object in path (in a), or NULL: absent, unreadable or not an object. */
const rp_json *rp_install_offswitch_read_json(rp_arena *a, const char *path);

#endif
