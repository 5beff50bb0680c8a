/* perm_load.h — pi-permission-system's own files (reference permissions.md §1.1–§1.3, §1.7):
 * the global and project config.json, the global and project agent .md files and the MCP server
 * names of mcp.json, read through a caller-supplied reader (the policy feeds it from the
 * evaluation context's filesystem view, tests from memory). Also the two JavaScript-object
 * details the readers share: key order and String.prototype.trim. */
#ifndef RAMPART_PERMISSIONS_PERM_LOAD_H
#define RAMPART_PERMISSIONS_PERM_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "core/json.h"
#include "permissions/perm.h"
#include "permissions/perm_policy.h"

/* Reads a whole file into the arena (NUL-terminated): 0, or -1 with errno ENOENT (or ENOTDIR)
 * when it does not exist and any other errno when it exists but cannot be read. */
typedef struct rp_perm_file_reader {
    void *self;
    int (*read)(void *self, const char *path, rp_arena *a, char **data, size_t *len);
} rp_perm_file_reader;

/* One scope of §1.6. */
typedef struct rp_perm_scope {
    const char *file; /* the file looked at; NULL when the scope was not looked for */
    rp_perm_map map;  /* empty unless present */
    bool present;     /* the file exists and supplied a permission object */
    bool invalid;     /* rejected or unreadable: for a non-global scope, the clamp (§1.2) */
} rp_perm_scope;

/* A config problem: which file, where in it (a JSON path, "(root)" for the whole file), what. */
typedef struct rp_perm_load_issue {
    const char *file;
    const char *path;
    const char *message;
} rp_perm_load_issue;

typedef struct rp_perm_pi_config {
    rp_perm_scope global, project, agent, project_agent;
    /* Runtime knobs, merged global → project (the project only when trusted and valid). */
    bool yolo;
    const char **infra; /* piInfrastructureReadPaths, as written */
    size_t n_infra;
    rp_perm_shell_alias *shell_tools; /* shellTools; a project entry replaces the global one */
    size_t n_shell_tools;
    const char **mcp_servers; /* mcp.json server names: trimmed, non-empty, deduplicated */
    size_t n_mcp_servers;
    rp_perm_load_issue *issues; /* every rejection, in reading order */
    size_t n_issues;
    /* Everything else worth telling (an untrusted project's files ignored, deprecated keys, an
     * unreadable mcp.json), "; "-joined; NULL when nothing. */
    const char *warning;
} rp_perm_pi_config;

/* Reads pi's files: <agent_dir>/extensions/pi-permission-system/config.json, then (only when
 * project_trusted) <cwd>/.pi/extensions/pi-permission-system/config.json, then with an agent
 * name <agent_dir>/agents/<agent>.md and (trusted only) <cwd>/.pi/agents/<agent>.md, and
 * <agent_dir>/mcp.json. A rejected file is reported in out->issues, never as a failure: a global
 * file then contributes nothing, any other scope is marked invalid. cwd and agent may be NULL.
 * Returns -1 (err filled) only when it cannot look at all (no reader, no agent_dir). */
int rp_perm_load_pi(rp_arena *a, const rp_perm_file_reader *rd, const char *agent_dir,
                    const char *cwd, const char *agent, bool project_trusted,
                    rp_perm_pi_config *out, char *err, size_t err_size);

/* The merged permission map of the four scopes (§1.6, global → project-agent) and whether the
 * allow→ask clamp applies (a project, agent or project-agent scope is invalid). */
void rp_perm_pi_merge(rp_arena *a, const rp_perm_pi_config *cfg, rp_perm_map *merged, bool *clamp);

/* ---- shared by the readers ---- */

/* An object's members as JavaScript's Object.entries sees them after JSON.parse: a duplicated
 * key appears once, where it first appeared, with its last value; canonical array-index keys
 * ("0", "42"; not "01", "-1" or 4294967295 and above) come first in ascending numeric order. */
typedef struct rp_perm_js_member {
    const char *key;
    uint32_t key_len;
    const rp_json *value;
} rp_perm_js_member;

size_t rp_perm_js_members(rp_arena *a, const rp_json *obj, rp_perm_js_member **out);

/* Whether key[0..len) is a canonical array index, and its value. */
bool rp_perm_js_index_key(const char *key, size_t len, uint32_t *value);

/* dst = base + one key, JavaScript-style: ".name" for an identifier, otherwise ["…"] with the
 * key JSON-escaped, so that `permission.bash["git *"]` names a pattern whatever it holds. */
void rp_perm_json_path(char *dst, size_t size, const char *base, const char *key, size_t n);

/* String.prototype.trim: s[0..n) without leading and trailing JavaScript white space (ASCII
 * blanks, line terminators, NBSP, U+FEFF and the Unicode space separators); *out_len set. */
const char *rp_perm_js_trim(const char *s, size_t n, size_t *out_len);

#endif
