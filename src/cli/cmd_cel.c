/* cmd_cel.c — `rampart cel EXPR [--var NAME=JSON]...`: compile and evaluate one CEL expression.
 *
 * A tool for people writing cel_policy expressions: it runs the same compiler and evaluator the
 * policy does, with variables given as JSON exactly as an event reaches a policy (objects become
 * maps, `1` an int, `1.0` a double), and shows a compile error with a caret under the column. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/cel.h"
#include "cli/cli.h"
#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/utf8.h"

static const char cel_usage[] =
    "usage: rampart cel [--var NAME=JSON]... [--container NAME] [--ast] [--] EXPR\n"
    "\n"
    "Compiles and evaluates the CEL expression EXPR and prints the result, e.g.\n"
    "  rampart cel 'event.data.name in [\"Bash\", \"Shell\"]' \\\n"
    "      --var 'event={\"data\": {\"name\": \"Bash\"}}'\n"
    "prints `true`. Variables are JSON converted as cel_policy converts the event: objects\n"
    "to maps, arrays to lists, `1` to an int, `1.0` to a double.\n"
    "\n"
    "options:\n"
    "  --var NAME=JSON     bind the variable NAME (may be dotted: a.b) to the JSON value\n"
    "                      (repeatable)\n"
    "  --container NAME    resolve names inside the namespace NAME (as CEL's container)\n"
    "  --ast               print the parsed expression instead of evaluating it\n"
    "\n"
    "Exit status: 0 the result was printed; 1 the evaluation failed (`error: MESSAGE`);\n"
    "2 a usage error, a bad --var, or a compile error (`error: MESSAGE`, then the expression\n"
    "with a caret under the column).\n";

typedef struct cel_cli_options {
    const char *expr;
    const char *container;
    bool ast;
    const char **vars; /* "NAME=JSON" texts, in order */
    size_t n_vars;
} cel_cli_options;

/* Returns -1 when the arguments are fine, or the exit status to return at once. */
static int parse_args(int argc, char **argv, cel_cli_options *o)
{
    const rp_cli_command *cmd = &rp_cmd_cel;
    bool only_positional = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = NULL;
        int m;
        /* An argument starting with a single '-' that is not -h is an expression ("-1 + x",
         * "-x.y"), so that negative literals need no `--`. */
        bool option = !only_positional && arg[0] == '-' && (arg[1] == '-' || arg[1] == 'h');
        if (!option) {
            if (o->expr) {
                return rp_cli_usage_error(cmd, "one expression at a time (quote it)");
            }
            o->expr = arg;
        } else if (strcmp(arg, "--") == 0) {
            only_positional = true;
        } else if (rp_cli_is_help(arg)) {
            rp_cli_print_usage(cmd, stdout);
            return RP_EXIT_OK;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--var", NULL, &value)) != 0) {
            const char *eq = m > 0 ? strchr(value, '=') : NULL;
            if (!eq || eq == value) {
                return rp_cli_usage_error(cmd, "--var needs NAME=JSON");
            }
            o->vars[o->n_vars++] = value;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--container", NULL, &value)) != 0) {
            if (m < 0) {
                return rp_cli_usage_error(cmd, "--container needs a name");
            }
            o->container = value;
        } else if (strcmp(arg, "--ast") == 0) {
            o->ast = true;
        } else {
            return rp_cli_usage_error(cmd, "unknown option '%s'", arg);
        }
    }
    if (!o->expr) {
        return rp_cli_usage_error(cmd, "no expression given");
    }
    return -1;
}

/* Parses each --var into a binding; the JSON lives in `a`. Returns 0, or prints the problem
 * (naming the variable) and returns -1. */
static int bind_vars(rp_arena *a, const cel_cli_options *o, cel_binding *out)
{
    for (size_t i = 0; i < o->n_vars; i++) {
        const char *text = o->vars[i];
        const char *eq = strchr(text, '=');
        char *name = rp_arena_strndup(a, text, (size_t)(eq - text));
        const char *json = eq + 1;
        rp_json_error jerr = {0};
        rp_json *j = rp_json_parse(a, json, strlen(json), &jerr);
        if (!j) {
            fprintf(stderr, "rampart cel: --var %s: invalid JSON at column %d: %s\n", name,
                    jerr.col, jerr.msg);
            return -1;
        }
        out[i].name = name;
        out[i].value = cel_from_json(j);
    }
    return 0;
}

/* The line of `src` that holds byte `offset`, then a caret under it. Tabs before the column
 * are kept as tabs so the caret lines up in a terminal; other code points become one space
 * (the column counts code points, not bytes). */
static void print_caret(FILE *out, const char *src, size_t len, size_t offset)
{
    if (offset > len) {
        offset = len;
    }
    size_t start = offset;
    while (start > 0 && src[start - 1] != '\n') {
        start--;
    }
    size_t end = offset;
    while (end < len && src[end] != '\n') {
        end++;
    }
    fprintf(out, "%.*s\n", (int)(end - start), src + start);
    for (size_t i = start; i < offset; i++) {
        unsigned char c = (unsigned char)src[i];
        if (rp_utf8_is_cont(c)) {
            continue; /* a UTF-8 continuation byte: same code point */
        }
        fputc(c == '\t' ? '\t' : ' ', out);
    }
    fputs("^\n", out);
}

static int cel_run(int argc, char **argv)
{
    cel_cli_options o = {0};
    o.vars = calloc((size_t)argc, sizeof *o.vars);
    if (!o.vars) {
        fprintf(stderr, "rampart cel: out of memory\n");
        return RP_EXIT_FAIL;
    }
    int status = parse_args(argc, argv, &o);
    if (status >= 0) {
        free(o.vars);
        return status;
    }

    rp_arena vars_arena, eval_arena;
    rp_arena_init(&vars_arena, 4096);
    rp_arena_init(&eval_arena, 4096);
    cel_binding *bindings = rp_arena_calloc(&vars_arena, (o.n_vars + 1) * sizeof *bindings);
    cel_program *prog = NULL;
    rp_buf text = {0};

    if (bind_vars(&vars_arena, &o, bindings) != 0) {
        status = RP_EXIT_USAGE;
        goto done;
    }

    size_t len = strlen(o.expr);
    cel_compile_opts copts = {.container = o.container};
    cel_source_error err = {0};
    if (cel_compile(o.expr, len, &copts, &prog, &err) != 0) {
        fprintf(stderr, "error: %s\n", err.message);
        print_caret(stderr, o.expr, len, err.offset);
        status = RP_EXIT_USAGE;
        goto done;
    }

    if (o.ast) {
        /* The parse as written (macros expanded), not the compiled program, whose constant
         * lists and maps are folded into values. The source compiled, so it parses. */
        cel_parse_opts popts = {.enable_optional_syntax = true};
        int64_t next_id = 1;
        const cel_expr *root = cel_parse(&eval_arena, o.expr, len, &popts, &next_id, &err);
        cel_expr_dump(&text, root ? root : cel_program_ast(prog));
        printf("%.*s\n", (int)text.len, text.data ? text.data : "");
        status = RP_EXIT_OK;
        goto done;
    }

    cel_activation act = {bindings, o.n_vars, NULL, NULL};
    cel_value v = cel_eval(prog, &act, &eval_arena);
    if (v.kind == CEL_ERROR) {
        fprintf(stderr, "error: %s\n", v.v.err->message);
        status = RP_EXIT_FAIL;
    } else if (v.kind == CEL_UNKNOWN) {
        fprintf(stderr, "error: the result is unknown\n");
        status = RP_EXIT_FAIL;
    } else {
        cel_value_format(&text, &v);
        if (text.len >= CEL_FORMAT_MAX_BYTES) {
            fprintf(stderr, "error: the result is too long to print (over %u bytes)\n",
                    CEL_FORMAT_MAX_BYTES);
            status = RP_EXIT_FAIL;
        } else {
            printf("%.*s\n", (int)text.len, text.data ? text.data : "");
            status = RP_EXIT_OK;
        }
    }

done:
    rp_buf_free(&text);
    if (prog) {
        cel_program_free(prog);
    }
    rp_arena_free(&eval_arena);
    rp_arena_free(&vars_arena);
    free(o.vars);
    return status;
}

const rp_cli_command rp_cmd_cel = {
    .name = "cel",
    .summary = "evaluate a CEL expression (as cel_policy would) and print the result",
    .usage = cel_usage,
    .run = cel_run,
};
