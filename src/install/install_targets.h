/* install_targets.h — where `rampart install` registers rampart in each host, and how.
 *
 * One table entry per host: the settings file (user and project scope, relative to $HOME or the
 * current directory), the events to register with their matchers, the handler's timeout in the
 * host's unit, and the shape of the registration (see settings_splice.h). Pi and opencode take
 * an extension file instead of a settings entry: its text is compiled into the binary from
 * integrations/<host>/rampart.ts (see CMakeLists.txt). */
#ifndef RAMPART_INSTALL_INSTALL_TARGETS_H
#define RAMPART_INSTALL_INSTALL_TARGETS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "install/settings_splice.h"

/* Generated from integrations/pi/rampart.ts and integrations/opencode/rampart.ts. */
extern const char rp_extension_pi[];
extern const size_t rp_extension_pi_len;
extern const char rp_extension_opencode[];
extern const size_t rp_extension_opencode_len;

/* The first line of an extension file that `rampart install` wrote: uninstall deletes only a
 * file that starts with it. */
#define RP_INSTALL_EXT_MARKER "// installed by `rampart install`; `rampart uninstall` removes it."

typedef struct rp_install_target {
    const char *host;         /* "claude-code", ... as `rampart hook HOST` spells it */
    const char *user_path;    /* relative to $HOME */
    const char *project_path; /* relative to the current directory */
    /* Settings hosts: */
    rp_install_splice_shape shape;
    const rp_install_splice_event *events;
    size_t n_events;
    int timeout; /* in the host's unit; 0 = no timeout key */
    /* Extension hosts (NULL for settings hosts): */
    const char *extension;
    const size_t *extension_len;
} rp_install_target;

/* Every host, in the order `rampart doctor` reports them. */
const rp_install_target *rp_install_targets(size_t *count);
const rp_install_target *rp_install_target_find(const char *host); /* NULL if unknown */

/* The file t's registration lives in: base (the current directory for a project install,
 * $HOME else) joined with t's path; opencode's user file follows $XDG_CONFIG_HOME as opencode
 * does (its config directory is $XDG_CONFIG_HOME/opencode when that is set). */
void rp_install_path(const rp_install_target *t, bool project, const char *base, rp_buf *out);

/* The splice spec of a settings host for handler `command`. */
rp_install_splice_spec rp_install_spec(const rp_install_target *t, const char *command);

/* Appends s to out, quoted for sh when it holds anything outside [A-Za-z0-9_./-]. */
void rp_install_sh_quote(rp_buf *out, const char *s);

/* The line of an extension file that names the command it runs: the binary, then its options
 * (-c FILE), as a JavaScript array of strings. `rampart install` rewrites it; doctor reads it. */
#define RP_INSTALL_EXT_COMMAND "const RAMPART_COMMAND = "

/* The extension text that runs `argv[0] hook HOST argv[1..]`: the marker line, then the embedded
 * text with its RAMPART_COMMAND line set to argv. False when the embedded text has no such line,
 * or when a word of argv cannot be written there exactly (it is not UTF-8: the extension would
 * run another path). */
bool rp_install_extension_text(const rp_install_target *t, const char *const *argv, size_t argc,
                               rp_buf *out);

/* The command an installed extension text runs (its RAMPART_COMMAND line), allocated in a;
 * NULL (and *argc 0) when the text has no such line or it is not an array of strings. */
const char **rp_install_extension_command(rp_arena *a, const char *text, size_t n, size_t *argc);

#endif
