/* cel_conformance.c — the CEL conformance driver: reads one JSON request per stdin line,
 * compiles and evaluates the expression, and prints one JSON answer per line (flushed), for
 * tests/conformance/run_cel.py. One process runs every test of a run, so the whole suite takes
 * seconds; each test gets a fresh arena.
 *
 * Request:  {"expr": "...", "container": "", "disable_macros": false, "check": false,
 *            "decls": [{"name": "x", "type": "int"}], "bindings": {"x": <typed>},
 *            "check_only": false}
 * Answer:   {"value": <typed>, "type": "..."} | {"error": "message"} | {"unknown": [ids]}
 *           | {"compile_error": "message", "line": L, "col": C} | {"bad_request": "message"}
 *
 * <typed> keeps CEL types exactly (JSON alone cannot tell int from uint or double):
 *   {"int": "-5"} {"uint": "5"} {"double": 1.5 | "NaN" | "Infinity" | "-Infinity"}
 *   {"string": "..."} {"bytes": "<base64>"} {"bool": true} {"null": null} {"list": [..]}
 *   {"map": [[k, v], ...]} {"type": "int"} {"timestamp": [sec, nsec]}
 *   {"duration": [sec, nsec]} {"optional": null | <typed>}
 * and, for bindings only, {"error": "message"} and {"unknown": [ids]}. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cel/cel.h"
#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"

#define MAX_DEPTH 64 /* nesting of typed values in requests and answers */

/* ---- request: typed JSON -> cel_value ---- */

static int b64_digit(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62;
    if (c == '/' || c == '_')
        return 63;
    return -1;
}

/* Standard base64 (padding optional) into an arena buffer; -1 on a bad character. */
static int b64_decode(rp_arena *a, const char *s, size_t len, char **out, size_t *out_len)
{
    char *buf = rp_arena_alloc(a, len * 3 / 4 + 3);
    size_t n = 0;
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '=')
            break;
        int d = b64_digit(s[i]);
        if (d < 0)
            return -1;
        acc = (acc << 6) | (unsigned)d;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            buf[n++] = (char)((acc >> bits) & 0xFF);
        }
    }
    *out = buf;
    *out_len = n;
    return 0;
}

/* Integers travel as decimal strings so that the full int64/uint64 range survives. */
static int parse_int_text(const rp_json *j, bool is_unsigned, int64_t *i, uint64_t *u)
{
    if (j->type == RP_JSON_INT) {
        if (is_unsigned && j->v.i < 0)
            return -1;
        *i = j->v.i;
        *u = (uint64_t)j->v.i;
        return 0;
    }
    if (j->type == RP_JSON_UINT && is_unsigned) {
        *u = j->v.u;
        return 0;
    }
    if (j->type != RP_JSON_STRING || j->len == 0)
        return -1;
    char *end;
    errno = 0;
    if (is_unsigned) {
        if (j->v.s[0] == '-')
            return -1;
        *u = strtoull(j->v.s, &end, 10);
    } else {
        *i = strtoll(j->v.s, &end, 10);
    }
    return (errno != 0 || *end != '\0') ? -1 : 0;
}

/* [sec, nsec] of a timestamp or duration. */
static int parse_time_pair(const rp_json *j, int64_t *sec, int32_t *nsec)
{
    int64_t i = 0, n = 0;
    uint64_t u;
    if (!rp_json_is_array(j) || j->len != 2)
        return -1;
    if (parse_int_text(&j->v.items[0], false, &i, &u) != 0 ||
        parse_int_text(&j->v.items[1], false, &n, &u) != 0)
        return -1;
    if (n <= -1000000000 || n >= 1000000000)
        return -1;
    *sec = i;
    *nsec = (int32_t)n;
    return 0;
}

static int to_cel(rp_arena *a, const rp_json *j, int depth, cel_value *out, const char **why);

static int list_to_cel(rp_arena *a, const rp_json *items, int depth, cel_value *out,
                       const char **why)
{
    if (!rp_json_is_array(items)) {
        *why = "list: not an array";
        return -1;
    }
    cel_value *vals = rp_arena_calloc(a, sizeof *vals * (items->len + 1));
    for (uint32_t k = 0; k < items->len; k++)
        if (to_cel(a, &items->v.items[k], depth + 1, &vals[k], why) != 0)
            return -1;
    *out = cel_list_new(a, vals, items->len);
    return 0;
}

static int map_to_cel(rp_arena *a, const rp_json *entries, int depth, cel_value *out,
                      const char **why)
{
    if (!rp_json_is_array(entries)) {
        *why = "map: not an array";
        return -1;
    }
    uint32_t n = entries->len;
    cel_value *keys = rp_arena_calloc(a, sizeof *keys * (n + 1));
    cel_value *vals = rp_arena_calloc(a, sizeof *vals * (n + 1));
    for (uint32_t k = 0; k < n; k++) {
        const rp_json *e = &entries->v.items[k];
        if (!rp_json_is_array(e) || e->len != 2) {
            *why = "map: an entry is not a [key, value] pair";
            return -1;
        }
        if (to_cel(a, &e->v.items[0], depth + 1, &keys[k], why) != 0 ||
            to_cel(a, &e->v.items[1], depth + 1, &vals[k], why) != 0)
            return -1;
    }
    *out = cel_map_new(a, keys, vals, n);
    if (cel_is_error(out)) {
        *why = out->v.err->message;
        return -1;
    }
    return 0;
}

static int to_cel(rp_arena *a, const rp_json *j, int depth, cel_value *out, const char **why)
{
    if (depth > MAX_DEPTH) {
        *why = "value nested too deeply";
        return -1;
    }
    if (!rp_json_is_object(j) || j->len != 1) {
        *why = "a typed value must be an object with one member";
        return -1;
    }
    const char *tag = j->v.members[0].key;
    const rp_json *x = &j->v.members[0].value;
    int64_t i = 0;
    uint64_t u = 0;
    int32_t nsec = 0;
    if (strcmp(tag, "null") == 0) {
        *out = cel_null();
    } else if (strcmp(tag, "bool") == 0 && x->type == RP_JSON_BOOL) {
        *out = cel_bool(x->v.b);
    } else if (strcmp(tag, "int") == 0 && parse_int_text(x, false, &i, &u) == 0) {
        *out = cel_int(i);
    } else if (strcmp(tag, "uint") == 0 && parse_int_text(x, true, &i, &u) == 0) {
        *out = cel_uint(u);
    } else if (strcmp(tag, "double") == 0 && (rp_json_is_number(x) || rp_json_is_string(x))) {
        double d = 0;
        if (rp_json_is_number(x))
            rp_json_number(x, &d);
        else if (strcmp(x->v.s, "NaN") == 0)
            d = NAN;
        else if (strcmp(x->v.s, "Infinity") == 0)
            d = INFINITY;
        else if (strcmp(x->v.s, "-Infinity") == 0)
            d = -INFINITY;
        else {
            *why = "double: bad text";
            return -1;
        }
        *out = cel_double(d);
    } else if (strcmp(tag, "string") == 0 && rp_json_is_string(x)) {
        *out = cel_string_ref(x->v.s, x->len); /* the JSON reader checked UTF-8 */
    } else if (strcmp(tag, "bytes") == 0 && rp_json_is_string(x)) {
        char *b;
        size_t blen;
        if (b64_decode(a, x->v.s, x->len, &b, &blen) != 0) {
            *why = "bytes: bad base64";
            return -1;
        }
        *out = cel_bytes_ref(b, blen);
    } else if (strcmp(tag, "type") == 0 && rp_json_is_string(x)) {
        *out = cel_type(x->v.s);
    } else if (strcmp(tag, "timestamp") == 0 && parse_time_pair(x, &i, &nsec) == 0) {
        *out = cel_timestamp(i, nsec);
    } else if (strcmp(tag, "duration") == 0 && parse_time_pair(x, &i, &nsec) == 0) {
        *out = cel_duration(i, nsec);
    } else if (strcmp(tag, "list") == 0) {
        return list_to_cel(a, x, depth, out, why);
    } else if (strcmp(tag, "map") == 0) {
        return map_to_cel(a, x, depth, out, why);
    } else if (strcmp(tag, "optional") == 0) {
        if (x->type == RP_JSON_NULL) {
            *out = cel_optional_none();
            return 0;
        }
        cel_value inner;
        if (to_cel(a, x, depth + 1, &inner, why) != 0)
            return -1;
        *out = cel_optional_of(a, inner);
    } else if (strcmp(tag, "error") == 0 && rp_json_is_string(x)) {
        *out = cel_error_new(a, "%s", x->v.s);
    } else if (strcmp(tag, "unknown") == 0 && rp_json_is_array(x)) {
        int64_t *ids = rp_arena_calloc(a, sizeof *ids * (x->len + 1));
        for (uint32_t k = 0; k < x->len; k++)
            if (parse_int_text(&x->v.items[k], false, &ids[k], &u) != 0) {
                *why = "unknown: bad id";
                return -1;
            }
        *out = cel_unknown_new(a, ids, x->len);
    } else {
        *why = "unknown or malformed typed value";
        return -1;
    }
    return 0;
}

/* ---- answer: cel_value -> typed JSON ---- */

static void b64_encode(rp_buf *out, const unsigned char *s, size_t len)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    rp_buf_putc(out, '"');
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned)s[i] << 16;
        if (i + 1 < len)
            v |= (unsigned)s[i + 1] << 8;
        if (i + 2 < len)
            v |= s[i + 2];
        rp_buf_putc(out, digits[(v >> 18) & 63]);
        rp_buf_putc(out, digits[(v >> 12) & 63]);
        rp_buf_putc(out, i + 1 < len ? digits[(v >> 6) & 63] : '=');
        rp_buf_putc(out, i + 2 < len ? digits[v & 63] : '=');
    }
    rp_buf_putc(out, '"');
}

static void put_cstr(rp_buf *out, const char *s)
{
    rp_json_write_string(out, s ? s : "(null)", s ? strlen(s) : 6);
}

static void write_typed(rp_buf *out, const cel_value *v, int depth)
{
    if (depth > MAX_DEPTH) {
        rp_buf_puts(out, "{\"error\":\"result nested too deeply\"}");
        return;
    }
    switch ((cel_kind)v->kind) {
    case CEL_NULL:
        rp_buf_puts(out, "{\"null\":null}");
        break;
    case CEL_BOOL:
        rp_buf_puts(out, v->v.b ? "{\"bool\":true}" : "{\"bool\":false}");
        break;
    case CEL_INT:
        rp_buf_printf(out, "{\"int\":\"%" PRId64 "\"}", v->v.i);
        break;
    case CEL_UINT:
        rp_buf_printf(out, "{\"uint\":\"%" PRIu64 "\"}", v->v.u);
        break;
    case CEL_DOUBLE:
        if (isnan(v->v.d))
            rp_buf_puts(out, "{\"double\":\"NaN\"}");
        else if (isinf(v->v.d))
            rp_buf_puts(out,
                        v->v.d > 0 ? "{\"double\":\"Infinity\"}" : "{\"double\":\"-Infinity\"}");
        else
            rp_buf_printf(out, "{\"double\":%.17g}", v->v.d);
        break;
    case CEL_STRING:
        rp_buf_puts(out, "{\"string\":");
        rp_json_write_string(out, v->v.s, v->len);
        rp_buf_putc(out, '}');
        break;
    case CEL_BYTES:
        rp_buf_puts(out, "{\"bytes\":");
        b64_encode(out, (const unsigned char *)v->v.s, v->len);
        rp_buf_putc(out, '}');
        break;
    case CEL_LIST: {
        rp_buf_puts(out, "{\"list\":[");
        uint32_t n = cel_list_size(v);
        for (uint32_t k = 0; k < n; k++) {
            cel_value item = cel_list_at(v, k);
            if (k)
                rp_buf_putc(out, ',');
            write_typed(out, &item, depth + 1);
        }
        rp_buf_puts(out, "]}");
        break;
    }
    case CEL_MAP: {
        rp_buf_puts(out, "{\"map\":[");
        uint32_t n = cel_map_size(v);
        for (uint32_t k = 0; k < n; k++) {
            cel_value key, val;
            cel_map_entry(v, k, &key, &val);
            if (k)
                rp_buf_putc(out, ',');
            rp_buf_putc(out, '[');
            write_typed(out, &key, depth + 1);
            rp_buf_putc(out, ',');
            write_typed(out, &val, depth + 1);
            rp_buf_putc(out, ']');
        }
        rp_buf_puts(out, "]}");
        break;
    }
    case CEL_TIMESTAMP:
        rp_buf_printf(out, "{\"timestamp\":[\"%" PRId64 "\",\"%d\"]}", v->v.t.sec,
                      (int)v->v.t.nsec);
        break;
    case CEL_DURATION:
        rp_buf_printf(out, "{\"duration\":[\"%" PRId64 "\",\"%d\"]}", v->v.t.sec, (int)v->v.t.nsec);
        break;
    case CEL_TYPE:
        rp_buf_puts(out, "{\"type\":");
        put_cstr(out, v->v.type_name);
        rp_buf_putc(out, '}');
        break;
    case CEL_OPTIONAL:
        rp_buf_puts(out, "{\"optional\":");
        if (v->v.opt)
            write_typed(out, v->v.opt, depth + 1);
        else
            rp_buf_puts(out, "null");
        rp_buf_putc(out, '}');
        break;
    case CEL_ERROR:
        /* Only reachable inside a container (a top-level error is answered separately). */
        rp_buf_puts(out, "{\"error\":");
        put_cstr(out, v->v.err ? v->v.err->message : NULL);
        rp_buf_putc(out, '}');
        break;
    case CEL_UNKNOWN:
        rp_buf_puts(out, "{\"unknown\":[]}");
        break;
    default:
        rp_buf_printf(out, "{\"error\":\"bad value kind %d\"}", (int)v->kind);
        break;
    }
}

static void write_result(rp_buf *out, const cel_value *v, const char *type)
{
    if (v->kind == CEL_ERROR) {
        rp_buf_puts(out, "{\"error\":");
        put_cstr(out, v->v.err ? v->v.err->message : NULL);
        rp_buf_putc(out, '}');
        return;
    }
    if (v->kind == CEL_UNKNOWN) {
        rp_buf_puts(out, "{\"unknown\":[");
        for (uint32_t k = 0; v->v.unk && k < v->v.unk->n; k++)
            rp_buf_printf(out, "%s%" PRId64, k ? "," : "", v->v.unk->expr_ids[k]);
        rp_buf_puts(out, "]}");
        return;
    }
    rp_buf_puts(out, "{\"value\":");
    write_typed(out, v, 0);
    if (type) {
        rp_buf_puts(out, ",\"type\":");
        put_cstr(out, type);
    }
    rp_buf_putc(out, '}');
}

/* ---- one test ---- */

static bool get_flag(const rp_json *req, const char *key)
{
    const rp_json *f = rp_json_get(req, key);
    return f && f->type == RP_JSON_BOOL && f->v.b;
}

static void bad_request(rp_buf *out, const char *why)
{
    rp_buf_puts(out, "{\"bad_request\":");
    put_cstr(out, why);
    rp_buf_putc(out, '}');
}

static void run_one(rp_arena *a, const char *line, size_t len, rp_buf *out)
{
    rp_json_error jerr;
    const rp_json *req = rp_json_parse(a, line, len, &jerr);
    const rp_json *expr = req ? rp_json_get(req, "expr") : NULL;
    if (!expr || !rp_json_is_string(expr)) {
        bad_request(out, req ? "no expr" : jerr.msg);
        return;
    }

    cel_compile_opts opts = {0};
    const char *container = rp_json_get_str(req, "container");
    opts.container = container && *container ? container : NULL;
    opts.disable_macros = get_flag(req, "disable_macros");
    opts.check = get_flag(req, "check");
    const rp_json *decls = rp_json_get(req, "decls");
    if (decls && rp_json_is_array(decls) && decls->len > 0) {
        cel_decl *d = rp_arena_calloc(a, sizeof *d * decls->len);
        for (uint32_t k = 0; k < decls->len; k++) {
            d[k].name = rp_json_get_str(&decls->v.items[k], "name");
            d[k].type = rp_json_get_str(&decls->v.items[k], "type");
            if (!d[k].name || !d[k].type) {
                bad_request(out, "a decl needs name and type");
                return;
            }
        }
        opts.decls = d;
        opts.n_decls = decls->len;
    }

    const rp_json *binds = rp_json_get(req, "bindings");
    cel_binding *vars = NULL;
    size_t n_vars = 0;
    if (binds && rp_json_is_object(binds) && binds->len > 0) {
        vars = rp_arena_calloc(a, sizeof *vars * binds->len);
        for (uint32_t k = 0; k < binds->len; k++) {
            const char *why = NULL;
            vars[k].name = binds->v.members[k].key;
            if (to_cel(a, &binds->v.members[k].value, 0, &vars[k].value, &why) != 0) {
                bad_request(out, why);
                return;
            }
        }
        n_vars = binds->len;
    }

    cel_program *prog = NULL;
    cel_source_error err;
    memset(&err, 0, sizeof err);
    if (cel_compile(expr->v.s, expr->len, &opts, &prog, &err) != 0 || !prog) {
        err.message[sizeof err.message - 1] = '\0';
        rp_buf_puts(out, "{\"compile_error\":");
        put_cstr(out, err.message);
        rp_buf_printf(out, ",\"line\":%d,\"col\":%d}", err.line, err.col);
        return;
    }
    const char *type = cel_program_result_type(prog);
    if (get_flag(req, "check_only")) {
        rp_buf_puts(out, "{\"checked\":true");
        if (type) {
            rp_buf_puts(out, ",\"type\":");
            put_cstr(out, type);
        }
        rp_buf_putc(out, '}');
    } else {
        cel_activation act = {vars, n_vars, NULL, NULL};
        cel_value v = cel_eval(prog, &act, a);
        write_result(out, &v, type);
    }
    cel_program_free(prog);
}

int main(void)
{
    rp_arena arena;
    rp_arena_init(&arena, 64 * 1024);
    rp_buf out = {0};
    char *line = NULL;
    size_t line_cap = 0;
    ssize_t n;
    while ((n = getline(&line, &line_cap, stdin)) >= 0) {
        size_t len = (size_t)n;
        if (len > 0 && line[len - 1] == '\n')
            len--;
        if (len == 0)
            continue;
        rp_buf_reset(&out);
        run_one(&arena, line, len, &out);
        rp_buf_putc(&out, '\n');
        if (fwrite(out.data, 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
            perror("cel_conformance: write");
            return 1;
        }
        rp_arena_reset(&arena);
    }
    free(line);
    rp_buf_free(&out);
    rp_arena_free(&arena);
    return ferror(stdin) ? 1 : 0;
}
