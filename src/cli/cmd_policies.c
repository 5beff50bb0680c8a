/* cmd_policies.c — `rampart policies [--json] [--all]`: the builtin policy types and their
 * parameter schemas, straight from the registry (so the listing cannot drift from the code). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/utf8.h"
#include "policies/registry.h"

static const char policies_usage[] =
    "usage: rampart policies [--json] [--all]\n"
    "\n"
    "Lists every builtin policy: its handler path, what it does, and its parameters (type,\n"
    "default, required, allowed values, range).\n"
    "\n"
    "options:\n"
    "  --json   one JSON array (an object per policy) instead of text\n"
    "  --all    include internal-only entries (legacy handler paths)\n";

/* A schema bound as JSON: integral values print as integers ("minimum": 1, not 1.0). */
static rp_json number_value(double d)
{
    if (isfinite(d) && d == floor(d) && fabs(d) < 9007199254740992.0) {
        return rp_json_make_int((int64_t)d);
    }
    return rp_json_make_double(d);
}

/* The default as a JSON value. The schema holds JSON text; it is parsed so that the listing is
 * valid JSON even if a default were ever mistyped (it then shows as a string, visibly wrong). */
static rp_json default_value(rp_arena *a, const char *default_json)
{
    if (!default_json) {
        return rp_json_make_null();
    }
    rp_json_error err;
    rp_json *v = rp_json_parse(a, default_json, strlen(default_json), &err);
    return v ? *v : rp_json_make_string(a, default_json);
}

static rp_json param_to_json(rp_arena *a, const rp_param_spec *p)
{
    rp_json o = rp_json_make_object();
    rp_json_object_set(a, &o, "name", rp_json_make_string_ref(p->name));
    rp_json_object_set(a, &o, "kind", rp_json_make_string_ref(rp_param_kind_name(p->kind)));
    rp_json_object_set(a, &o, "default", default_value(a, p->default_json));
    rp_json_object_set(a, &o, "required", rp_json_make_bool(p->required));
    rp_json values = rp_json_make_null();
    if (p->enum_values) {
        values = rp_json_make_array();
        for (const char *const *e = p->enum_values; *e; e++) {
            rp_json_array_push(a, &values, rp_json_make_string_ref(*e));
        }
    }
    rp_json_object_set(a, &o, "enum", values);
    rp_json_object_set(a, &o, "minimum", p->has_min ? number_value(p->min) : rp_json_make_null());
    rp_json_object_set(a, &o, "maximum", p->has_max ? number_value(p->max) : rp_json_make_null());
    rp_json_object_set(a, &o, "description",
                       p->description ? rp_json_make_string_ref(p->description)
                                      : rp_json_make_null());
    return o;
}

static rp_json type_to_json(rp_arena *a, const rp_policy_type *t)
{
    char handler[256];
    rp_json o = rp_json_make_object();
    rp_json_object_set(a, &o, "name", rp_json_make_string_ref(t->name));
    rp_json_object_set(a, &o, "handler",
                       rp_json_make_string(a, rp_policy_handler(t, handler, sizeof handler)));
    rp_json_object_set(a, &o, "description",
                       t->description ? rp_json_make_string_ref(t->description)
                                      : rp_json_make_null());
    rp_json_object_set(a, &o, "direct_callable", rp_json_make_bool(t->direct_callable));
    rp_json_object_set(a, &o, "internal_only", rp_json_make_bool(t->internal_only));
    rp_json params = rp_json_make_array();
    for (size_t i = 0; i < t->n_params; i++) {
        rp_json_array_push(a, &params, param_to_json(a, &t->params[i]));
    }
    rp_json_object_set(a, &o, "params", params);
    rp_json keys = rp_json_make_array();
    for (const char *const *k = t->owned_keys; k && *k; k++) {
        rp_json_array_push(a, &keys, rp_json_make_string_ref(*k));
    }
    rp_json_object_set(a, &o, "owned_keys", keys);
    return o;
}

static void print_json(const rp_policy_type *const *types, size_t n, bool all)
{
    rp_arena a = {0};
    rp_buf out = {0};
    bool first = true;
    rp_buf_puts(&out, "[");
    for (size_t i = 0; i < n; i++) {
        if (types[i]->internal_only && !all) {
            continue;
        }
        rp_json v = type_to_json(&a, types[i]);
        rp_buf_puts(&out, first ? "\n" : ",\n");
        rp_json_write(&out, &v);
        first = false;
    }
    rp_buf_puts(&out, "\n]\n");
    fwrite(out.data, 1, out.len, stdout);
    rp_buf_free(&out);
    rp_arena_free(&a);
}

enum { TEXT_DEFAULT_MAX = 60 };

/* One parameter as text: "limit  integer  default 100 min 0", then its description. */
static void print_param_text(const rp_param_spec *p, rp_buf *line)
{
    rp_buf_reset(line);
    rp_buf_printf(line, "      %-24s %-16s", p->name, rp_param_kind_name(p->kind));
    if (p->required && !p->default_json) {
        rp_buf_puts(line, " required");
    } else {
        /* Long defaults (whole sentences) are cut here; --json carries them in full. */
        const char *text = p->default_json ? p->default_json : "null";
        size_t cut = strlen(text);
        if (cut > TEXT_DEFAULT_MAX) {
            cut = TEXT_DEFAULT_MAX;
            while (cut > 0 && rp_utf8_is_cont((unsigned char)text[cut])) {
                cut--; /* never split a UTF-8 sequence */
            }
        }
        rp_buf_printf(line, " default %.*s%s", (int)cut, text, text[cut] ? "..." : "");
    }
    if (p->enum_values) {
        rp_buf_puts(line, " one of");
        for (const char *const *e = p->enum_values; *e; e++) {
            rp_buf_printf(line, "%s%s", e == p->enum_values ? " " : "|", *e);
        }
    }
    if (p->has_min) {
        rp_buf_printf(line, " min %g", p->min);
    }
    if (p->has_max) {
        rp_buf_printf(line, " max %g", p->max);
    }
    printf("%s\n", line->data);
    if (p->description && p->description[0]) {
        printf("          %s\n", p->description);
    }
}

static void print_text(const rp_policy_type *const *types, size_t n, bool all)
{
    rp_buf line = {0};
    size_t shown = 0;
    for (size_t i = 0; i < n; i++) {
        const rp_policy_type *t = types[i];
        if (t->internal_only && !all) {
            continue;
        }
        char handler[256];
        printf("%s%s\n", shown ? "\n" : "", t->name);
        printf("    handler: %s%s\n", rp_policy_handler(t, handler, sizeof handler),
               t->internal_only ? " (internal only)" : "");
        if (t->description && t->description[0]) {
            printf("    %s\n", t->description);
        }
        if (t->direct_callable) {
            printf("    parameters: none (a direct callable)\n");
        } else if (t->n_params == 0) {
            printf("    parameters: none\n");
        } else {
            printf("    parameters:\n");
            for (size_t k = 0; k < t->n_params; k++) {
                print_param_text(&t->params[k], &line);
            }
        }
        if (t->owned_keys && t->owned_keys[0]) {
            printf("    state keys:");
            for (const char *const *k = t->owned_keys; *k; k++) {
                printf(" %s", *k);
            }
            printf("\n");
        }
        shown++;
    }
    rp_buf_free(&line);
}

static int policies_run(int argc, char **argv)
{
    const rp_cli_command *cmd = &rp_cmd_policies;
    bool json = false;
    bool all = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--all") == 0) {
            all = true;
        } else if (rp_cli_is_help(argv[i])) {
            rp_cli_print_usage(cmd, stdout);
            return RP_EXIT_OK;
        } else {
            return rp_cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
        }
    }
    size_t n;
    const rp_policy_type *const *types = rp_registry_all(&n);
    if (json) {
        print_json(types, n, all);
    } else {
        print_text(types, n, all);
    }
    fflush(stdout);
    return ferror(stdout) ? RP_EXIT_FAIL : RP_EXIT_OK;
}

const rp_cli_command rp_cmd_policies = {
    .name = "policies",
    .summary = "list the builtin policies and their parameters",
    .usage = policies_usage,
    .run = policies_run,
};
