/* perm.h — what the files of the `permissions` policy share (pi-permission-system's model,
 * reference permissions.md). One file per part:
 *   perm_config.c   the `permission` map: parse (strict or front-matter leniency), scope merge
 *                   (§1.4, §1.6)
 *   perm_rules.c    ruleset composition (§2.2) and the three evaluators (§2.6)
 *   perm_jsonc.c    JSONC → JSON text (§1.2)
 *   perm_frontmatter.c  the agent front-matter reader (§1.7)
 *   perm_load.c     pi's own files (§1.1) when load_pi_config is on
 *   perm_bash.c     bash command units and wrapper floors (§4.2–4.6)
 *   perm_bash_words.c   a bash word's value as the shell would pass it ($HOME, $PWD, braces)
 *   perm_bash_paths.c   bash path tokens, the cd fold and the projections (§4.7–4.10)
 *   perm_mcp.c      the MCP candidate list (§3.7)
 *   perm_suggest.c  suggested session-approval patterns (§5.3)
 *   perm_tools.c    the host tool mapping (one table)
 *   permissions.c   the policy: parameters, the gate pipeline (§3.3), session approvals
 * Everything is allocated from arenas; nothing here does I/O except perm_load.c, which reads
 * only through the evaluation context's filesystem view. */
#ifndef RAMPART_PERMISSIONS_PERM_H
#define RAMPART_PERMISSIONS_PERM_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "core/json.h"
#include "path/flavor.h"
#include "path/glob.h"
#include "path/policy_values.h"

/* Ordered by restrictiveness: a larger value is stricter. */
typedef enum rp_perm_action { RP_PERM_ALLOW = 0, RP_PERM_ASK = 1, RP_PERM_DENY = 2 } rp_perm_action;

const char *rp_perm_action_name(rp_perm_action a); /* "allow", "ask", "deny" */
/* "allow"/"ask"/"deny" (exact, lower case) → 0 and *out; else -1. */
int rp_perm_action_parse(const char *s, rp_perm_action *out);

typedef enum rp_perm_layer {
    RP_PERM_LAYER_DEFAULT = 0, /* the universal fallback rule */
    RP_PERM_LAYER_BASELINE,    /* the five mcp_* allows */
    RP_PERM_LAYER_CONFIG,
    RP_PERM_LAYER_SESSION
} rp_perm_layer;

typedef enum rp_perm_origin {
    RP_PERM_ORIGIN_GLOBAL = 0,
    RP_PERM_ORIGIN_PROJECT,
    RP_PERM_ORIGIN_AGENT,
    RP_PERM_ORIGIN_PROJECT_AGENT,
    RP_PERM_ORIGIN_BUILTIN,
    RP_PERM_ORIGIN_BASELINE,
    RP_PERM_ORIGIN_SESSION,
    RP_PERM_ORIGIN_YOLO,
    RP_PERM_ORIGIN_FAIL_CLOSED
} rp_perm_origin;

const char *rp_perm_origin_name(rp_perm_origin o); /* "global", "project", ... "fail-closed" */

/* ---- the `permission` map (§1.4) ---- */

typedef struct rp_perm_entry {
    const char *pattern;
    rp_perm_action action;
    const char *reason; /* only with deny; NULL = none */
    rp_perm_origin origin;
} rp_perm_entry;

typedef struct rp_perm_surface {
    const char *surface; /* the key: "*" or a surface glob */
    bool is_map;         /* false: a plain state (action/origin below) */
    rp_perm_action action;
    rp_perm_origin origin;
    rp_perm_entry *entries; /* is_map: in key order */
    size_t n_entries;
} rp_perm_surface;

typedef struct rp_perm_map {
    rp_perm_surface *surfaces; /* in key order */
    size_t n_surfaces;
} rp_perm_map;

/* A config problem: where (a JSON path such as "permission.bash.git *") and what. */
typedef struct rp_perm_issue {
    char path[192];
    char message[256];
} rp_perm_issue;

/* Reads a `permission` object. strict (config.json and rampart YAML): any bad key, value,
 * pattern or reason rejects the whole map (-1, *issue filled; path starts with `where`).
 * Not strict (agent front-matter): bad entries are dropped quietly. Key order is JavaScript's:
 * integer-like keys ("0", "42") first in ascending order, then the others as written. */
int rp_perm_map_parse(rp_arena *a, const rp_json *permission, rp_perm_origin origin, bool strict,
                      const char *where, rp_perm_map *out, rp_perm_issue *issue);

/* Scope merge of §1.6: higher's surfaces applied over *into (map ∪ map keeps first-appearance
 * order, a clashing key keeps its old position with the new value; otherwise replace). */
void rp_perm_map_merge(rp_arena *a, rp_perm_map *into, const rp_perm_map *higher);

/* ---- rules and the evaluators (§2) ---- */

typedef struct rp_perm_rule {
    const char *surface; /* glob over surface names */
    const char *pattern; /* glob over values, as written (home-expanded at match time) */
    rp_perm_action action;
    const char *reason;
    rp_perm_layer layer;
    rp_perm_origin origin;
} rp_perm_rule;

typedef struct rp_perm_ruleset {
    rp_perm_rule *rules; /* lowest priority first */
    size_t n_rules;
} rp_perm_ruleset;

/* §2.2 without the check-time parts: default rule (U = merged "*" or ask), the mcp baseline
 * when any config rule on surface "mcp" allows, the config rules in merged order, then the
 * allow→ask clamp (origin fail-closed) when clamp is set. */
void rp_perm_compose(rp_arena *a, const rp_perm_map *merged, bool clamp, rp_perm_ruleset *out);

/* What a check runs against: the composed rules, then the session rules (allow-only, appended
 * last, never clamped), yolo (every ask → allow, origin yolo), the path flavor and HOME. */
typedef struct rp_perm_rules_view {
    const rp_perm_ruleset *config;
    const rp_perm_rule *session;
    size_t n_session;
    bool yolo;
    rp_path_flavor flavor;
    const char *home;
} rp_perm_rules_view;

typedef struct rp_perm_match {
    const rp_perm_rule *rule; /* the winning rule (never NULL) */
    const char *value;        /* the value it matched */
    rp_perm_action action;    /* after yolo */
    bool yolo;                /* the action was turned into allow by yolo */
    bool explicit_match;      /* the rule's layer is config or session (§2.6 "explicit") */
} rp_perm_match;

/* read write edit grep find ls path external_directory: folded on win32 (§2.4). */
bool rp_perm_is_path_surface(const char *surface);

/* Whether rule r applies to surface s and matches value v (the fold of s). */
bool rp_perm_rule_matches(rp_arena *a, const rp_perm_rules_view *rv, const rp_perm_rule *r,
                          const char *surface, const char *value);

/* The evaluators of §2.6. An empty value list means ["*"]. */
rp_perm_match rp_perm_evaluate(rp_arena *a, const rp_perm_rules_view *rv, const char *surface,
                               const char *value);
rp_perm_match rp_perm_evaluate_first(rp_arena *a, const rp_perm_rules_view *rv,
                                     const char *surface, const char *const *values, size_t n);
rp_perm_match rp_perm_evaluate_any(rp_arena *a, const rp_perm_rules_view *rv, const char *surface,
                                   const char *const *values, size_t n);

/* ---- text formats of pi's own files ---- */

/* JSONC → JSON: removes // and block comments outside '…' and "…" strings (backslash escapes
 * honoured). Trailing commas are left in, so the JSON reader then rejects the file. Returns an
 * arena copy (*out_len set). */
char *rp_perm_jsonc_strip(rp_arena *a, const char *text, size_t len, size_t *out_len);

/* The front-matter `permission:` block of an agent .md file (§1.7) as a JSON object built in
 * the arena: NULL when the file has no front-matter or no permission block. */
rp_json *rp_perm_frontmatter_permission(rp_arena *a, const char *text, size_t len);

/* ---- bash analysis (§4) ---- */

typedef enum rp_perm_floor {
    RP_PERM_FLOOR_NONE = 0,
    RP_PERM_FLOOR_OPAQUE,      /* eval, sh -c …: "<opaque-bash-wrapper>" */
    RP_PERM_FLOOR_INDIRECTION, /* sudo, env, xargs, find -exec …: "<indirection-bash-wrapper>" */
    RP_PERM_FLOOR_ENVIRONMENT  /* rampart: an assignment that changes what runs (LD_PRELOAD=,
                                  PATH=, BASH_ENV=, …): "<environment-bash-prefix>" */
} rp_perm_floor;

const char *rp_perm_floor_sentinel(rp_perm_floor f); /* "<opaque-bash-wrapper>", …; NULL for none */

/* One command unit: what a command-pattern rule is matched against. */
typedef struct rp_perm_unit {
    /* The source text of the simple command from its first word to its last (NAME=value
     * prefixes and redirections removed, so no comment line either); a bare assignment as
     * written; for a wrapper's command the slice of the wrapper's words it consists of
     * (`sudo 'rm' x` → "'rm' x"); the canonical text when there is no source to show (a
     * string a shell runs: `bash -c "…"`, eval, ssh). */
    const char *text;
    /* The spelling-independent text: the program (quotes and backslashes removed; the
     * basename when it is a path in a system bin directory, else as written) and the argv
     * words after quote removal, joined by single spaces. NULL when equal to text. */
    const char *canonical;
    rp_perm_floor floor;
    /* The parsed command (the parser's words: git's global options, upload operands); NULL
     * for a unit without words (a bare assignment, redirections alone). */
    const struct rp_sh_command *command;
    unsigned context; /* RP_SH_CTX_* of the command */
    bool unwrapped;   /* produced by unwrapping a wrapper (RP_SH_CTX_WRAPPED) */
} rp_perm_unit;

/* Token kinds (bits). */
enum {
    RP_PERM_TOK_STRICT = 1u << 0,   /* external-shaped: /…, ~/…, contains "..", drive path */
    RP_PERM_TOK_BROAD = 1u << 1,    /* path-rule-shaped: starts with '.', has a separator, … */
    RP_PERM_TOK_BARE = 1u << 2,     /* neither: a candidate only when it exists (lstat) */
    RP_PERM_TOK_GLOB = 1u << 3,     /* holds shell glob characters (matched by what it can
                                       expand to: rp_glob_could_match) */
    RP_PERM_TOK_INDIRECT = 1u << 4, /* its value comes through $VAR, ${…:-…}, $(…): unknown */
    RP_PERM_TOK_UNKNOWN_BASE = 1u << 5, /* relative, after a cd to an unknown directory */
    RP_PERM_TOK_REDIRECT = 1u << 6, /* a redirection target */
    RP_PERM_TOK_CD_TARGET = 1u << 7,  /* the directory of a cd */
    RP_PERM_TOK_DIRECTORY = 1u << 8,  /* names a directory (cd target, trailing '/', lstat) */
    RP_PERM_TOK_WORKDIR = 1u << 9,    /* a shell tool's workdir argument */
    /* A bare word after a cd that names nothing that exists (yet): kept so that
     * `cd ~/.ssh && cat id_rsa` meets a `~/.ssh/` + "*" deny, but only a specific rule counts for
     * it, never a catch-all ("*"), so `cd src && git status` stays quiet. */
    RP_PERM_TOK_MISSING = 1u << 10
};

/* A path operand of the command, projected (§4.10). */
typedef struct rp_perm_path_token {
    const char *raw;       /* the token as the shell passes it: prompts, logs, approvals */
    rp_path_values values; /* the policy values matched against path rules */
    unsigned kind;         /* RP_PERM_TOK_* */
    bool external;         /* outside cwd (or conservatively treated so) */
} rp_perm_path_token;

typedef struct rp_perm_bash {
    rp_perm_unit *units; /* in source order */
    size_t n_units;
    rp_perm_path_token *candidates; /* path-rule candidates (the `path` surface), deduplicated */
    size_t n_candidates;
    rp_perm_path_token *externals; /* external paths (`external_directory`), deduplicated */
    size_t n_externals;
    bool empty;       /* no command at all (missing, blank) */
    bool unreadable;  /* the parser could not read it all (units so far still listed) */
    const char *match_text; /* the whole command without leading comment lines (§3.4) */
} rp_perm_bash;

/* Analyses one command (NULL = empty). workdir (a shell tool's workdirArgument, may be NULL)
 * seeds the effective directory as `cd WORKDIR` would and is itself an external path when
 * outside. The filesystem is read only through pc->fs (lstat of bare words, realpath inside
 * the policy values), never when it is NULL. Returns 0; -1 only when a, pc or out is NULL.
 * Details and where rampart is stricter: perm_bash.c, perm_bash_words.c, perm_bash_paths.c. */
int rp_perm_bash_analyse(rp_arena *a, const rp_path_ctx *pc, const char *command,
                         const char *workdir, rp_perm_bash *out);

/* The same with the parse of `command` already made (rp_sh_parse of exactly that text, e.g. the
 * one parse of the evaluation every shell policy shares; it is only read). parse NULL: parse
 * it here. */
struct rp_sh_parse;
int rp_perm_bash_analyse_parsed(rp_arena *a, const rp_path_ctx *pc, const char *command,
                                const struct rp_sh_parse *parse, const char *workdir,
                                rp_perm_bash *out);

/* The program of a unit with a command as its canonical text spells it: the basename when it
 * is a path in a system bin directory, else words[0] as the parser reads it. */
const char *rp_perm_unit_program(rp_arena *a, const rp_perm_unit *u);

/* Text with its comment lines removed (every line whose first non-blank is '#'), trimmed;
 * the raw text when nothing remains. No copy when there is nothing to remove or trim. */
const char *rp_perm_strip_comment_lines(rp_arena *a, const char *text);

/* ---- MCP (§3.7) ---- */

/* The candidate list for an MCP proxy input (object with tool/server/connect/describe/search),
 * most specific first, "mcp" last. servers: configured server names (any order; sorted longest
 * first, ties alphabetical, inside). */
size_t rp_perm_mcp_candidates(rp_arena *a, const rp_json *input, const char *const *servers,
                              size_t n_servers, const char ***out);

/* ---- suggestions (§5.3) ---- */

/* suggestBashPattern: the session pattern offered for a bash unit. */
const char *rp_perm_suggest_bash(rp_arena *a, const char *unit_text);
/* The mcp pattern for the candidate that matched. */
const char *rp_perm_suggest_mcp(rp_arena *a, const char *candidate);

#endif
