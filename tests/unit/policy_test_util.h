/* policy_test_util.h — drive one builtin policy type directly, without the engine or the config
 * validator: parse params, fill the schema's defaults, create; parse an event, evaluate it
 * against its own session_state; inspect the result as text.
 *
 * Header-only (static inline) so each test_policy_*.c stays one self-contained program.
 * Include it after <cmocka.h>. */
#ifndef RAMPART_TESTS_POLICY_TEST_UTIL_H
#define RAMPART_TESTS_POLICY_TEST_UTIL_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "engine/event.h"
#include "engine/policy.h"

typedef struct pt_policy {
    rp_arena arena; /* params, instance */
    const rp_policy_type *type;
    void *instance;
    rp_param_error err;
    int create_rc;
} pt_policy;

typedef struct pt_eval {
    rp_arena arena; /* event, result */
    rp_eval_ctx ctx;
    rp_result result;
    int rc;
} pt_eval;

static inline rp_json *pt_parse(rp_arena *a, const char *text)
{
    rp_json_error jerr;
    rp_json *v = rp_json_parse(a, text, strlen(text), &jerr);
    if (v == NULL) {
        fprintf(stderr, "test JSON does not parse (%s): %s\n", jerr.msg, text);
        abort();
    }
    return v;
}

/* What the validator would hand create(): every declared param, defaults filled, enum values
 * in their canonical (listed) spelling. */
static inline rp_json *pt_params(rp_arena *a, const rp_policy_type *t, const char *params_json)
{
    rp_json *params = pt_parse(a, params_json ? params_json : "{}");
    for (size_t i = 0; i < t->n_params; i++) {
        const rp_param_spec *spec = &t->params[i];
        const rp_json *given = rp_json_get(params, spec->name);
        if ((given == NULL || given->type == RP_JSON_NULL) && spec->default_json != NULL)
            rp_json_object_set(a, params, spec->name, *pt_parse(a, spec->default_json));
        given = rp_json_get(params, spec->name);
        if (spec->enum_values != NULL && rp_json_is_string(given))
            for (size_t k = 0; spec->enum_values[k] != NULL; k++)
                if (strcasecmp(spec->enum_values[k], given->v.s) == 0)
                    rp_json_object_set(a, params, spec->name,
                                       rp_json_make_string(a, spec->enum_values[k]));
    }
    return params;
}

/* Creates an instance; check p->create_rc (and p->err on failure). */
static inline void pt_create(pt_policy *p, const rp_policy_type *t, const char *params_json)
{
    memset(p, 0, sizeof *p);
    p->type = t;
    p->create_rc =
        t->create(pt_params(&p->arena, t, params_json), &p->arena, &p->instance, &p->err);
}

static inline void pt_policy_free(pt_policy *p)
{
    if (p->type != NULL && p->type->destroy != NULL && p->create_rc == 0)
        p->type->destroy(p->instance);
    rp_arena_free(&p->arena);
}

/* Evaluates one event; the snapshot is the event's session_state (or {}). */
static inline void pt_eval_event(pt_eval *e, const pt_policy *p, const char *event_json)
{
    static const rp_json empty_state = {.type = RP_JSON_OBJECT};
    rp_event ev;

    memset(e, 0, sizeof *e);
    e->ctx.arena = &e->arena;
    e->ctx.now_us = 1773576000000000LL; /* 2026-03-15T12:00:00Z */
    e->ctx.policy_name = p->type->name;
    const rp_json *root = pt_parse(&e->arena, event_json);
    if (!rp_event_from_json(root, &ev)) {
        fprintf(stderr, "test event is not an object: %s\n", event_json);
        abort();
    }
    const rp_json *state = ev.session_state ? ev.session_state : &empty_state;
    e->ctx.config = &empty_state;
    e->result.verdict = RP_ABSTAIN;
    e->rc = p->type->evaluate(p->instance, &ev, state, &e->ctx, &e->result);
}

static inline void pt_eval_free(pt_eval *e)
{
    rp_arena_free(&e->arena);
}

/* The updates as compact JSON, in the vectors' shape:
 * [{"key":"k","action":"set","value":...}, ...]  ("[]" when none). Arena-allocated. */
static inline const char *pt_updates_json(pt_eval *e)
{
    rp_buf b = {0};
    rp_buf_putc(&b, '[');
    for (size_t i = 0; i < e->result.n_updates; i++) {
        const rp_state_update *u = &e->result.updates[i];
        if (i > 0)
            rp_buf_putc(&b, ',');
        rp_buf_puts(&b, "{\"key\":");
        rp_json_write_string(&b, u->key, strlen(u->key));
        rp_buf_printf(&b, ",\"action\":\"%s\",\"value\":", rp_update_action_name(u->action));
        rp_json_write(&b, &u->value);
        rp_buf_putc(&b, '}');
    }
    rp_buf_putc(&b, ']');
    char *r = rp_arena_strndup(&e->arena, b.data, b.len);
    rp_buf_free(&b);
    return r;
}

/* One-call checks: evaluate `event_json`, expect `verdict`, `reason` (NULL = none) and
 * `updates` (NULL = none; else pt_updates_json's text). */
#define PT_EXPECT(p, event_json, verdict, reason, updates)                                         \
    pt_expect_impl((p), (event_json), (verdict), (reason), (updates), __FILE__, __LINE__)

static inline void pt_expect_impl(const pt_policy *p, const char *event_json, rp_verdict verdict,
                                  const char *reason, const char *updates, const char *file,
                                  int line)
{
    pt_eval e;
    pt_eval_event(&e, p, event_json);
    if (e.rc != 0)
        fprintf(stderr, "%s:%d: evaluate failed: %s\n", file, line, e.ctx.error);
    _assert_int_equal(e.rc, 0, file, line);
    _assert_string_equal(rp_verdict_name(e.result.verdict), rp_verdict_name(verdict), file, line);
    if (reason == NULL) {
        if (e.result.reason != NULL)
            fprintf(stderr, "%s:%d: unexpected reason: %s\n", file, line, e.result.reason);
        _assert_true(e.result.reason == NULL, "reason == NULL", file, line);
    } else {
        _assert_true(e.result.reason != NULL, "reason != NULL", file, line);
        _assert_string_equal(e.result.reason, reason, file, line);
    }
    _assert_string_equal(pt_updates_json(&e), updates ? updates : "[]", file, line);
    pt_eval_free(&e);
}

/* Expects evaluate() to fail (return -1 with a message containing `needle`). */
#define PT_EXPECT_FAIL(p, event_json, needle)                                                      \
    pt_expect_fail_impl((p), (event_json), (needle), __FILE__, __LINE__)

static inline void pt_expect_fail_impl(const pt_policy *p, const char *event_json,
                                       const char *needle, const char *file, int line)
{
    pt_eval e;
    pt_eval_event(&e, p, event_json);
    _assert_int_equal(e.rc, -1, file, line);
    if (strstr(e.ctx.error, needle) == NULL)
        fprintf(stderr, "%s:%d: error '%s' lacks '%s'\n", file, line, e.ctx.error, needle);
    _assert_true(strstr(e.ctx.error, needle) != NULL, "error mentions needle", file, line);
    pt_eval_free(&e);
}

/* A spec of the type by name (NULL when absent). */
static inline const rp_param_spec *pt_param(const rp_policy_type *t, const char *name)
{
    for (size_t i = 0; i < t->n_params; i++)
        if (strcmp(t->params[i].name, name) == 0)
            return &t->params[i];
    return NULL;
}

#endif
