/* tool_result.c — the one shape of a tool_result's data (tool_result.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "hosts/tool_result.h"

/* Where the text of an output came from, so that a rewrite can be put back there. */
typedef enum text_source {
    SRC_NONE = 0, /* no known text: the value is used as it is */
    SRC_STRING,   /* the output is a string */
    SRC_STDOUT,   /* Claude's stdout (stderr empty) */
    SRC_STDERR,   /* Claude's stderr (stdout empty) */
    SRC_BOTH,     /* stdout + "\n" + stderr */
    SRC_FIELD     /* a string field: llmContent (Gemini) or output (opencode, Cursor) */
} text_source;

static const char *const text_fields[] = {"llmContent", "output"};

static bool nonempty(const rp_json *v)
{
    return rp_json_is_string(v) && v->len > 0;
}

/* The text of raw, its source and (SRC_FIELD) the field's name. */
static const char *find_text(rp_arena *a, const rp_json *raw, text_source *src, const char **field)
{
    *src = SRC_NONE;
    *field = NULL;
    if (raw == NULL)
        return NULL;
    if (rp_json_is_string(raw)) {
        *src = SRC_STRING;
        return raw->v.s;
    }
    if (!rp_json_is_object(raw))
        return NULL;
    const rp_json *out = rp_json_get(raw, "stdout"), *err = rp_json_get(raw, "stderr");
    if (rp_json_is_string(out) || rp_json_is_string(err)) {
        if (nonempty(out) && nonempty(err)) {
            *src = SRC_BOTH;
            return rp_arena_sprintf(a, "%s\n%s", out->v.s, err->v.s);
        }
        *src = nonempty(err) ? SRC_STDERR : SRC_STDOUT;
        return nonempty(err) ? err->v.s : rp_json_is_string(out) ? out->v.s : "";
    }
    for (size_t i = 0; i < sizeof text_fields / sizeof text_fields[0]; i++) {
        const rp_json *v = rp_json_get(raw, text_fields[i]);
        if (rp_json_is_string(v)) {
            *src = SRC_FIELD;
            *field = text_fields[i];
            return v->v.s;
        }
    }
    return NULL;
}

const char *rp_hook_tool_result_text(rp_arena *a, const rp_json *raw)
{
    text_source src;
    const char *field;
    return find_text(a, raw, &src, &field);
}

rp_json rp_hook_tool_result_data(rp_arena *a, const rp_json *raw, rp_hook_tool_outcome outcome)
{
    rp_json data = rp_json_make_object();
    const char *text = rp_hook_tool_result_text(a, raw);
    rp_json result = text ? rp_json_make_string_ref(text) : raw ? *raw : rp_json_make_null();
    rp_json_object_set(a, &data, "result", result);
    if (outcome != RP_HOOK_TOOL_UNKNOWN)
        rp_json_object_set(a, &data, "is_error", rp_json_make_bool(outcome == RP_HOOK_TOOL_ERROR));
    return data;
}

const rp_json *rp_hook_tool_result_host_output(rp_arena *a, const rp_json *raw, const rp_json *data)
{
    const rp_json *result = rp_json_get(data, "result");
    if (result == NULL)
        return NULL;
    text_source src;
    const char *field;
    find_text(a, raw, &src, &field);
    if (src == SRC_NONE)
        return result;
    if (!rp_json_is_string(result))
        return NULL; /* the text became something else: no place for it in the host's shape */
    if (src == SRC_STRING)
        return result;
    rp_json out = rp_json_clone(a, raw);
    switch (src) {
    case SRC_STDERR:
        rp_json_object_set(a, &out, "stderr", *result);
        break;
    case SRC_BOTH:
        /* The two streams were one text to the policies; the rewrite is that one text. */
        rp_json_object_set(a, &out, "stdout", *result);
        rp_json_object_set(a, &out, "stderr", rp_json_make_string_ref(""));
        break;
    case SRC_FIELD:
        rp_json_object_set(a, &out, field, *result);
        break;
    default: /* SRC_STDOUT */
        rp_json_object_set(a, &out, "stdout", *result);
        break;
    }
    return rp_json_new(a, out);
}

/* ---- error signals ---- */

static bool is_true(const rp_json *v)
{
    return v != NULL && v->type == RP_JSON_BOOL && v->v.b;
}

rp_hook_tool_outcome rp_hook_tool_outcome_claude(const rp_json *response)
{
    if (!rp_json_is_object(response))
        return RP_HOOK_TOOL_OK;
    if (is_true(rp_json_get(response, "is_error")) || is_true(rp_json_get(response, "isError")) ||
        is_true(rp_json_get(response, "interrupted")))
        return RP_HOOK_TOOL_ERROR;
    return RP_HOOK_TOOL_OK;
}

rp_hook_tool_outcome rp_hook_tool_outcome_exit_line(const char *text, const char *label,
                                                    bool first_line)
{
    rp_hook_tool_outcome found = RP_HOOK_TOOL_UNKNOWN;
    size_t n = strlen(label);
    for (const char *line = text; line && *line;) {
        if (strncmp(line, label, n) == 0) {
            const char *p = line + n;
            while (*p == ' ')
                p++;
            char *end = (char *)p;
            /* strtol would skip a newline too and read the next line's number. */
            long code = isdigit((unsigned char)*p) || *p == '-' ? strtol(p, &end, 10) : 0;
            /* Only a whole integer counts: "Exit Code: (none)" (a signal) says nothing here. */
            if (end != p &&
                (*end == '\0' || *end == '\n' || *end == '\r' || isspace((unsigned char)*end)))
                found = code != 0 ? RP_HOOK_TOOL_ERROR : RP_HOOK_TOOL_OK;
        }
        line = first_line ? NULL : strchr(line, '\n');
        if (line)
            line++;
    }
    return found;
}
