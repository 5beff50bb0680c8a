/* params.c — validation of a policy's parameters against its declared schema.
 *
 * The reference accepts most bad values silently (§3.4: no enum or range checks, unknown keys
 * only rejected on some paths). rampart checks everything the schema declares and reports every
 * problem, one message per parameter, so `rampart validate` can list them all at once. The
 * caller decides where a message points (the YAML loader attaches file:line:col). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "config/config.h"

static const char *kind_phrase(rp_param_kind k)
{
    switch (k) {
    case RP_PARAM_BOOL:
        return "a boolean";
    case RP_PARAM_INT:
        return "an integer";
    case RP_PARAM_NUMBER:
        return "a number";
    case RP_PARAM_STRING:
        return "a string";
    case RP_PARAM_STRING_LIST:
        return "a list of strings";
    case RP_PARAM_ARRAY:
        return "a list";
    case RP_PARAM_OBJECT:
        return "a mapping";
    case RP_PARAM_ANY:
        break;
    }
    return "a value";
}

/* Writes a short, recognisable rendering of v for "got ..." (YAML spellings for the doubles
 * JSON cannot write). */
static void describe(rp_buf *b, const rp_json *v)
{
    switch (v->type) {
    case RP_JSON_NULL:
        rp_buf_puts(b, "null");
        break;
    case RP_JSON_BOOL:
        rp_buf_puts(b, v->v.b ? "true" : "false");
        break;
    case RP_JSON_DOUBLE:
        if (isnan(v->v.d))
            rp_buf_puts(b, ".nan");
        else if (isinf(v->v.d))
            rp_buf_puts(b, v->v.d < 0 ? "-.inf" : ".inf");
        else
            rp_json_write(b, v); /* shortest round-trip text, 1.0 keeps its ".0" */
        break;
    case RP_JSON_INT:
    case RP_JSON_UINT:
        rp_json_write(b, v);
        break;
    case RP_JSON_STRING:
        if (v->len > 60)
            rp_buf_printf(b, "'%.57s...'", v->v.s);
        else
            rp_buf_printf(b, "'%s'", v->v.s);
        break;
    case RP_JSON_ARRAY:
        rp_buf_puts(b, "a list");
        break;
    case RP_JSON_OBJECT:
        rp_buf_puts(b, "a mapping");
        break;
    }
}

/* "an integer >= 1", "a number in [0, 1]". */
static void expectation(rp_buf *b, const rp_param_spec *p)
{
    rp_buf_puts(b, kind_phrase(p->kind));
    if (p->kind != RP_PARAM_INT && p->kind != RP_PARAM_NUMBER)
        return;
    if (p->has_min && p->has_max)
        rp_buf_printf(b, " in [%g, %g]", p->min, p->max);
    else if (p->has_min)
        rp_buf_printf(b, " >= %g", p->min);
    else if (p->has_max)
        rp_buf_printf(b, " <= %g", p->max);
}

typedef struct checker {
    const rp_param_spec *spec;
    rp_diag_sink report;
    void *self;
    size_t n_errors;
} checker;

static void reject(checker *c, const char *prefix, const rp_json *got)
{
    rp_buf b = {0};
    if (prefix)
        rp_buf_puts(&b, prefix);
    rp_buf_puts(&b, "must be ");
    expectation(&b, c->spec);
    rp_buf_puts(&b, ", got ");
    describe(&b, got);
    c->report(c->self, c->spec->name, b.data);
    rp_buf_free(&b);
    c->n_errors++;
}

static void reject_enum(checker *c, const char *prefix, const rp_json *got)
{
    rp_buf b = {0};
    if (prefix)
        rp_buf_puts(&b, prefix);
    rp_buf_puts(&b, "must be one of ");
    for (size_t i = 0; c->spec->enum_values[i]; i++)
        rp_buf_printf(&b, "%s'%s'", i ? ", " : "", c->spec->enum_values[i]);
    rp_buf_puts(&b, " (any case), got ");
    describe(&b, got);
    c->report(c->self, c->spec->name, b.data);
    rp_buf_free(&b);
    c->n_errors++;
}

/* The canonical spelling of s among the enum values, or NULL. */
static const char *enum_match(const rp_param_spec *p, const char *s)
{
    for (size_t i = 0; p->enum_values[i]; i++) {
        if (strcasecmp(p->enum_values[i], s) == 0)
            return p->enum_values[i];
    }
    return NULL;
}

static bool in_range(const rp_param_spec *p, double d)
{
    if (isnan(d))
        return false;
    if (p->has_min && d < p->min)
        return false;
    if (p->has_max && d > p->max)
        return false;
    return true;
}

/* Checks one given (non-null) value; returns the value to store, or NULL after reporting. */
static const rp_json *check_value(checker *c, const rp_json *v, rp_arena *a)
{
    const rp_param_spec *p = c->spec;
    double d;
    switch (p->kind) {
    case RP_PARAM_BOOL:
        if (v->type != RP_JSON_BOOL) {
            reject(c, NULL, v);
            return NULL;
        }
        return v;
    case RP_PARAM_INT:
        if (!rp_json_is_integer(v) || !rp_json_number(v, &d) || !in_range(p, d)) {
            reject(c, NULL, v);
            return NULL;
        }
        return v;
    case RP_PARAM_NUMBER:
        if (!rp_json_number(v, &d) || !in_range(p, d)) {
            reject(c, NULL, v);
            return NULL;
        }
        return v;
    case RP_PARAM_STRING:
        if (v->type != RP_JSON_STRING) {
            reject(c, NULL, v);
            return NULL;
        }
        if (p->enum_values) {
            const char *canon = enum_match(p, v->v.s);
            if (!canon) {
                reject_enum(c, NULL, v);
                return NULL;
            }
            return rp_json_new(a, rp_json_make_string_ref(canon));
        }
        return v;
    case RP_PARAM_STRING_LIST: {
        if (v->type != RP_JSON_ARRAY) {
            reject(c, NULL, v);
            return NULL;
        }
        rp_json out = rp_json_make_array();
        size_t bad = 0;
        for (uint32_t i = 0; i < v->len; i++) {
            const rp_json *item = &v->v.items[i];
            char prefix[48];
            snprintf(prefix, sizeof prefix, "item [%u] ", (unsigned)i);
            if (item->type != RP_JSON_STRING) {
                rp_buf b = {0};
                rp_buf_printf(&b, "%smust be a string, got ", prefix);
                describe(&b, item);
                c->report(c->self, p->name, b.data);
                rp_buf_free(&b);
                c->n_errors++;
                bad++;
                continue;
            }
            const char *canon = item->v.s;
            if (p->enum_values && !(canon = enum_match(p, item->v.s))) {
                reject_enum(c, prefix, item);
                bad++;
                continue;
            }
            rp_json_array_push(a, &out,
                               canon == item->v.s ? *item : rp_json_make_string_ref(canon));
        }
        return bad ? NULL : rp_json_new(a, out);
    }
    case RP_PARAM_ARRAY:
        if (v->type != RP_JSON_ARRAY) {
            reject(c, NULL, v);
            return NULL;
        }
        return v;
    case RP_PARAM_OBJECT:
        if (v->type != RP_JSON_OBJECT) {
            reject(c, NULL, v);
            return NULL;
        }
        return v;
    case RP_PARAM_ANY:
        if (p->enum_values && v->type == RP_JSON_STRING) {
            const char *canon = enum_match(p, v->v.s);
            if (!canon) {
                reject_enum(c, NULL, v);
                return NULL;
            }
            return rp_json_new(a, rp_json_make_string_ref(canon));
        }
        return v;
    }
    return v;
}

/* The one parameter every policy takes (issue 16): what a run-time failure of this policy
 * answers. Unset, the config's top-level on_error decides (default deny). */
static const char *const on_error_values[] = {"deny", "ask", "allow", NULL};
const rp_param_spec rp_config_param_on_error = {
    .name = "on_error",
    .kind = RP_PARAM_STRING,
    .enum_values = on_error_values,
    .description = "Verdict when this policy fails at run time: deny, ask or allow; unset = the "
                   "config's top-level on_error (default deny).",
};

static const rp_param_spec *find_spec(const rp_policy_type *t, const char *name)
{
    for (size_t i = 0; i < t->n_params; i++) {
        if (strcmp(t->params[i].name, name) == 0)
            return &t->params[i];
    }
    if (strcmp(name, rp_config_param_on_error.name) == 0)
        return &rp_config_param_on_error;
    return NULL;
}

static void report_unknown(const rp_policy_type *t, const char *key, rp_diag_sink report,
                           void *self)
{
    rp_buf b = {0};
    if (t->n_params == 0) {
        rp_buf_printf(&b, "unknown parameter: '%s' takes no parameters (only on_error)", t->name);
    } else {
        rp_buf_puts(&b, "unknown parameter (known: ");
        for (size_t i = 0; i < t->n_params; i++)
            rp_buf_printf(&b, "%s%s", i ? ", " : "", t->params[i].name);
        rp_buf_puts(&b, ", on_error)");
    }
    report(self, key, b.data);
    rp_buf_free(&b);
}

const rp_json *rp_params_validate(const rp_policy_type *type, const rp_json *raw, rp_arena *a,
                                  rp_diag_sink report, void *self)
{
    size_t n_errors = 0;
    if (raw && raw->type != RP_JSON_NULL && raw->type != RP_JSON_OBJECT) {
        rp_buf b = {0};
        rp_buf_puts(&b, "parameters must be a mapping, got ");
        describe(&b, raw);
        report(self, NULL, b.data);
        rp_buf_free(&b);
        return NULL;
    }
    if (raw && raw->type == RP_JSON_OBJECT) {
        for (uint32_t i = 0; i < raw->len; i++) {
            const rp_json_member *m = &raw->v.members[i];
            if (!find_spec(type, m->key) || strlen(m->key) != m->key_len) {
                report_unknown(type, m->key, report, self);
                n_errors++;
                continue;
            }
            /* JSON text (--params) may repeat a key; YAML duplicates never get this far. */
            for (uint32_t j = 0; j < i; j++) {
                if (strcmp(raw->v.members[j].key, m->key) == 0) {
                    report(self, m->key, "given more than once");
                    n_errors++;
                    break;
                }
            }
        }
    }

    rp_json *out = rp_json_new(a, rp_json_make_object());
    for (size_t i = 0; i <= type->n_params; i++) {
        /* The type's own parameters, then the common on_error (unless the type declares it). */
        const rp_param_spec *p = i < type->n_params ? &type->params[i] : &rp_config_param_on_error;
        if (i == type->n_params && (find_spec(type, p->name) != &rp_config_param_on_error ||
                                    rp_json_get(raw, p->name) == NULL))
            break; /* stored only when given, so the params of a policy without it are as before */
        checker c = {p, report, self, 0};
        const rp_json *given = rp_json_get(raw, p->name);
        const rp_json *value = NULL;
        if (given && given->type != RP_JSON_NULL) {
            value = check_value(&c, given, a);
        } else if (p->default_json) {
            /* A parameter given as null means its default, as in the reference. */
            rp_json_error jerr;
            value = rp_json_parse(a, p->default_json, strlen(p->default_json), &jerr);
            if (!value) {
                char msg[256];
                snprintf(msg, sizeof msg, "internal error: default %s is not valid JSON (%s)",
                         p->default_json, jerr.msg);
                report(self, p->name, msg);
                c.n_errors++;
            }
        } else if (p->required) {
            report(self, p->name, "required parameter is missing");
            c.n_errors++;
        } else {
            value = rp_json_new(a, rp_json_make_null());
        }
        n_errors += c.n_errors;
        if (value)
            rp_json_object_set(a, out, p->name, *value);
    }
    return n_errors ? NULL : out;
}
