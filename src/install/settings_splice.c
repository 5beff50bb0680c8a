/* settings_splice.c — rampart's hook entries in a host's JSON settings, as a text splice.
 *
 * The file is validated by the JSON reader (rp_json_parse), then scanned into a small tree of
 * nodes that know their byte offsets, which the reader does not keep. Install and uninstall then
 * compute a list of edits (replace bytes [from, to) by some text) against the original text and
 * apply them in one pass, so every byte outside an edit comes through unchanged. */
#include "install/settings_splice.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/utf8.h"
#include "shell/shell.h"

/* ---- the scanner ---- */

typedef enum node_type { N_OBJECT, N_ARRAY, N_STRING, N_OTHER } node_type;

typedef struct node {
    node_type type;
    size_t start, end;     /* the value's bytes: [start, end) */
    size_t key_start;      /* a member: where its key's opening quote is */
    char *key;             /* a member: the decoded key (NUL-terminated, malloc'd) */
    char *str;             /* a string value: decoded (malloc'd) */
    int first, next, last; /* children (object members / array items) and siblings; -1 none */
    int n_children;
} node;

typedef struct scanner {
    const char *s;
    size_t len, pos;
    node *nodes;
    int n, cap;
    int depth;
    rp_install_splice_error *err;
    bool failed;
} scanner;

static void set_error_at(rp_install_splice_error *err, const char *s, size_t pos, const char *msg)
{
    int line = 1, col = 1;
    for (size_t i = 0; i < pos; i++) {
        if (s[i] == '\n') {
            line++;
            col = 1;
        } else if (!rp_utf8_is_cont((unsigned char)s[i])) {
            col++; /* columns count characters, not UTF-8 continuation bytes */
        }
    }
    if (err) {
        err->line = line;
        err->col = col;
        snprintf(err->msg, sizeof err->msg, "%s", msg);
    }
}

static int sc_fail(scanner *sc, size_t pos, const char *msg)
{
    if (!sc->failed) {
        set_error_at(sc->err, sc->s, pos, msg);
        sc->failed = true;
    }
    return -1;
}

static int new_node(scanner *sc, node_type t, size_t start)
{
    if (sc->n == sc->cap) {
        sc->cap = sc->cap ? sc->cap * 2 : 64;
        node *grown = realloc(sc->nodes, (size_t)sc->cap * sizeof *grown);
        if (!grown) {
            abort();
        }
        sc->nodes = grown;
    }
    node *nd = &sc->nodes[sc->n];
    memset(nd, 0, sizeof *nd);
    nd->type = t;
    nd->start = start;
    nd->first = nd->next = nd->last = -1;
    return sc->n++;
}

static void add_child(scanner *sc, int parent, int child)
{
    node *p = &sc->nodes[parent];
    if (p->last < 0) {
        p->first = child;
    } else {
        sc->nodes[p->last].next = child;
    }
    p->last = child;
    p->n_children++;
}

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void skip_ws(scanner *sc)
{
    while (sc->pos < sc->len && is_ws(sc->s[sc->pos])) {
        sc->pos++;
    }
}

/* Scans a string at sc->pos (the opening quote) of a text already validated by rp_json_parse,
 * so only its end has to be found; the JSON reader decodes it. Returns the decoded text
 * (malloc'd) or NULL. */
static char *scan_string(scanner *sc)
{
    size_t i = sc->pos + 1;
    while (i < sc->len && sc->s[i] != '"')
        i += sc->s[i] == '\\' ? 2 : 1;
    if (i >= sc->len) {
        sc_fail(sc, sc->pos, "unterminated string");
        return NULL;
    }
    rp_arena a;
    rp_arena_init(&a, 256);
    rp_json_error jerr;
    rp_json *v = rp_json_parse(&a, sc->s + sc->pos, i + 1 - sc->pos, &jerr);
    char *out = v && v->type == RP_JSON_STRING ? strdup(v->v.s) : NULL;
    rp_arena_free(&a);
    if (out == NULL) {
        sc_fail(sc, sc->pos, "invalid string");
        return NULL;
    }
    sc->pos = i + 1;
    return out;
}

static int scan_value(scanner *sc);

/* A number or a literal (true, false, null), already validated: its bytes run to the next
 * delimiter. */
static int scan_scalar(scanner *sc)
{
    size_t start = sc->pos, i = start;
    while (i < sc->len && strchr(",]} \t\r\n", sc->s[i]) == NULL)
        i++;
    if (i == start)
        return sc_fail(sc, start, "expected a value");
    int id = new_node(sc, N_OTHER, start);
    sc->nodes[id].end = i;
    sc->pos = i;
    return id;
}

static int scan_container(scanner *sc, bool object)
{
    int id = new_node(sc, object ? N_OBJECT : N_ARRAY, sc->pos);
    char close = object ? '}' : ']';
    if (++sc->depth > 256) {
        return sc_fail(sc, sc->pos, "nesting too deep");
    }
    sc->pos++;
    skip_ws(sc);
    if (sc->pos < sc->len && sc->s[sc->pos] == close) {
        sc->pos++;
        sc->nodes[id].end = sc->pos;
        sc->depth--;
        return id;
    }
    for (;;) {
        char *key = NULL;
        size_t key_start = sc->pos;
        if (object) {
            if (sc->pos >= sc->len || sc->s[sc->pos] != '"') {
                return sc_fail(sc, sc->pos, "expected a string key");
            }
            key = scan_string(sc);
            if (!key) {
                return -1;
            }
            skip_ws(sc);
            if (sc->pos >= sc->len || sc->s[sc->pos] != ':') {
                free(key);
                return sc_fail(sc, sc->pos, "expected ':'");
            }
            sc->pos++;
            skip_ws(sc);
        }
        int child = scan_value(sc);
        if (child < 0) {
            free(key);
            return -1;
        }
        sc->nodes[child].key = key;
        sc->nodes[child].key_start = object ? key_start : sc->nodes[child].start;
        add_child(sc, id, child);
        skip_ws(sc);
        if (sc->pos < sc->len && sc->s[sc->pos] == ',') {
            sc->pos++;
            skip_ws(sc);
            continue;
        }
        if (sc->pos < sc->len && sc->s[sc->pos] == close) {
            sc->pos++;
            break;
        }
        return sc_fail(sc, sc->pos, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
    sc->nodes[id].end = sc->pos;
    sc->depth--;
    return id;
}

static int scan_value(scanner *sc)
{
    if (sc->pos >= sc->len) {
        return sc_fail(sc, sc->pos, "unexpected end of file");
    }
    char c = sc->s[sc->pos];
    switch (c) {
    case '{':
        return scan_container(sc, true);
    case '[':
        return scan_container(sc, false);
    case '"': {
        size_t start = sc->pos;
        char *str = scan_string(sc);
        if (!str) {
            return -1;
        }
        int id = new_node(sc, N_STRING, start);
        sc->nodes[id].str = str;
        sc->nodes[id].end = sc->pos;
        return id;
    }
    default:
        return scan_scalar(sc);
    }
}

static void scanner_free(scanner *sc)
{
    for (int i = 0; i < sc->n; i++) {
        free(sc->nodes[i].key);
        free(sc->nodes[i].str);
    }
    free(sc->nodes);
    sc->nodes = NULL;
    sc->n = sc->cap = 0;
}

/* Scans the whole text; returns the root object's node id, -1 for an empty (whitespace-only)
 * text, -2 on error. A UTF-8 byte order mark is skipped (and kept, as every byte is). */
static int scan_document(scanner *sc, const char *text, size_t len, rp_install_splice_error *err)
{
    memset(sc, 0, sizeof *sc);
    sc->s = text;
    sc->len = len;
    sc->err = err;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        sc->pos = 3;
    }
    skip_ws(sc);
    if (sc->pos == len) {
        return -1;
    }
    if (text[sc->pos] != '{') {
        sc_fail(sc, sc->pos, "a settings file must be a JSON object");
        return -2;
    }
    /* Validity is the JSON reader's: RFC 8259 exactly, the errors it names. The scan below only
     * records where each value lies. */
    size_t body = sc->pos;
    rp_arena a;
    rp_arena_init(&a, 4096);
    rp_json_error jerr;
    bool valid = rp_json_parse(&a, text + body, len - body, &jerr) != NULL;
    rp_arena_free(&a);
    if (!valid) {
        sc_fail(sc, body + jerr.offset, jerr.msg);
        return -2;
    }
    int root = scan_value(sc);
    if (root < 0) {
        return -2;
    }
    skip_ws(sc);
    if (sc->pos != len) {
        sc_fail(sc, sc->pos, "text after the JSON object");
        return -2;
    }
    return root;
}

static node *N(scanner *sc, int id)
{
    return id >= 0 ? &sc->nodes[id] : NULL;
}

/* The member of object `obj` named key (the last one: duplicates resolve as most JSON readers
 * do), or -1. */
static int member(scanner *sc, int obj, const char *key)
{
    int found = -1;
    for (int c = sc->nodes[obj].first; c >= 0; c = sc->nodes[c].next) {
        if (strcmp(sc->nodes[c].key, key) == 0) {
            found = c;
        }
    }
    return found;
}

/* ---- edits ---- */

typedef struct edit {
    size_t from, to;
    char *text; /* malloc'd */
} edit;

typedef struct edits {
    edit *v;
    size_t n, cap;
} edits;

static void add_edit(edits *e, size_t from, size_t to, const char *text, size_t n)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 16;
        edit *grown = realloc(e->v, e->cap * sizeof *grown);
        if (!grown) {
            abort();
        }
        e->v = grown;
    }
    char *copy = malloc(n + 1);
    if (!copy) {
        abort();
    }
    memcpy(copy, text, n);
    copy[n] = '\0';
    e->v[e->n++] = (edit){from, to, copy};
}

static int edit_cmp(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    if (x->from != y->from) {
        return x->from < y->from ? -1 : 1;
    }
    return x->to < y->to ? -1 : (x->to > y->to);
}

/* Applies non-overlapping edits to text, writing the result to out. */
static void apply_edits(const char *text, size_t len, edits *e, rp_buf *out)
{
    if (e->n > 1) {
        qsort(e->v, e->n, sizeof *e->v, edit_cmp);
    }
    size_t at = 0;
    for (size_t i = 0; i < e->n; i++) {
        rp_buf_append(out, text + at, e->v[i].from - at);
        rp_buf_puts(out, e->v[i].text);
        at = e->v[i].to;
    }
    rp_buf_append(out, text + at, len - at);
    if (!out->data) {
        rp_buf_puts(out, "");
    }
}

static void edits_free(edits *e)
{
    for (size_t i = 0; i < e->n; i++) {
        free(e->v[i].text);
    }
    free(e->v);
    memset(e, 0, sizeof *e);
}

/* ---- the file's style ---- */

typedef struct style {
    const char *nl;    /* "\n" or "\r\n" */
    char unit[17];     /* one indentation level, e.g. "  " or "\t" */
    bool compact;      /* the file is minified: insert minified text */
    const char *colon; /* ": " or ":" */
} style;

static void detect_style(scanner *sc, int root, style *st)
{
    const char *s = sc->s;
    st->nl = "\n";
    for (size_t i = 0; i + 1 < sc->len; i++) {
        if (s[i] == '\r' && s[i + 1] == '\n') {
            st->nl = "\r\n";
            break;
        }
    }
    strcpy(st->unit, "  ");
    st->compact = false;
    st->colon = ": ";
    if (root < 0 || sc->nodes[root].first < 0) {
        return;
    }
    node *first = N(sc, sc->nodes[root].first);
    /* The whitespace between '{' and the first key: a line break then the indentation of one
     * level, or (minified) nothing. */
    size_t a = sc->nodes[root].start + 1, b = first->key_start;
    const char *lf = NULL;
    for (size_t i = a; i < b; i++) {
        if (s[i] == '\n') {
            lf = s + i;
        }
    }
    if (!lf) {
        st->compact = true;
    } else {
        size_t n = (size_t)(s + b - (lf + 1));
        if (n > 0 && n < sizeof st->unit) {
            memcpy(st->unit, lf + 1, n);
            st->unit[n] = '\0';
        }
    }
    /* Between the first key's closing quote and the ':' ... and the value. */
    size_t i = first->key_start + 1;
    while (i < first->start && s[i] != ':') {
        i++;
    }
    if (i + 1 <= first->start && i + 1 < sc->len && s[i] == ':' && s[i + 1] != ' ') {
        st->colon = ":";
    }
}

/* The indentation of the line holding offset pos. */
static void line_indent(const char *s, size_t pos, rp_buf *out)
{
    size_t b = pos;
    while (b > 0 && s[b - 1] != '\n') {
        b--;
    }
    size_t e = b;
    while (e < pos && (s[e] == ' ' || s[e] == '\t')) {
        e++;
    }
    rp_buf_append(out, s + b, e - b);
}

/* Re-lays compact JSON text (no whitespace outside strings, no empty containers) in the file's
 * style, with `base` as the indentation of the line it starts on. */
static void layout(const char *compact, const style *st, const char *base, rp_buf *out)
{
    int depth = 0;
    bool in_str = false;
    for (const char *p = compact; *p; p++) {
        char c = *p;
        if (in_str) {
            rp_buf_putc(out, c);
            if (c == '\\' && p[1]) {
                rp_buf_putc(out, *++p);
            } else if (c == '"') {
                in_str = false;
            }
            continue;
        }
        if (st->compact) {
            if (c == ':') {
                rp_buf_puts(out, st->colon);
            } else {
                rp_buf_putc(out, c);
                in_str = c == '"';
            }
            continue;
        }
        switch (c) {
        case '"':
            in_str = true;
            rp_buf_putc(out, c);
            break;
        case '{':
        case '[':
        case ',':
            rp_buf_putc(out, c);
            if (c != ',') {
                depth++;
            }
            rp_buf_puts(out, st->nl);
            rp_buf_puts(out, base);
            for (int i = 0; i < depth; i++) {
                rp_buf_puts(out, st->unit);
            }
            break;
        case '}':
        case ']':
            depth--;
            rp_buf_puts(out, st->nl);
            rp_buf_puts(out, base);
            for (int i = 0; i < depth; i++) {
                rp_buf_puts(out, st->unit);
            }
            rp_buf_putc(out, c);
            break;
        case ':':
            rp_buf_puts(out, st->colon);
            break;
        default:
            rp_buf_putc(out, c);
        }
    }
}

/* Appends compact elements (each a complete member or item, in order) to container `cont`,
 * as one edit at the end of its last element, or filling it when empty. */
static void append_elements(scanner *sc, int cont, const style *st, const char *const *elems,
                            size_t n_elems, edits *e)
{
    const char *s = sc->s;
    node *c = N(sc, cont);
    rp_buf text = {0};
    rp_buf base = {0};
    if (c->first < 0) {
        /* Empty: "{" NL indent+1 ELEM ("," NL indent+1 ELEM)* NL indent "}" */
        rp_buf ind = {0};
        line_indent(s, c->start, &ind);
        rp_buf_puts(&base, ind.data ? ind.data : "");
        rp_buf_puts(&base, st->unit);
        for (size_t i = 0; i < n_elems; i++) {
            if (i > 0) {
                rp_buf_putc(&text, ',');
            }
            if (!st->compact) {
                rp_buf_puts(&text, st->nl);
                rp_buf_puts(&text, base.data);
            }
            layout(elems[i], st, base.data, &text);
        }
        if (!st->compact) {
            rp_buf_puts(&text, st->nl);
            rp_buf_puts(&text, ind.data ? ind.data : "");
        }
        add_edit(e, c->start + 1, c->end - 1, text.data ? text.data : "", text.len);
        rp_buf_free(&ind);
    } else {
        /* The separator the file already uses before an element: the whitespace after the
         * last comma (or after the opening bracket when there is one element). */
        node *last = N(sc, c->last);
        size_t ws_end = last->key_start, ws_start = ws_end;
        while (ws_start > c->start + 1 && is_ws(s[ws_start - 1])) {
            ws_start--;
        }
        const char *sep = s + ws_start;
        size_t sep_len = ws_end - ws_start;
        const char *lf = NULL;
        for (size_t i = 0; i < sep_len; i++) {
            if (sep[i] == '\n') {
                lf = sep + i;
            }
        }
        style local = *st;
        if (lf) {
            rp_buf_append(&base, lf + 1, (size_t)(sep + sep_len - (lf + 1)));
        } else {
            local.compact = true; /* elements on one line: keep them on one line */
        }
        if (!base.data) {
            rp_buf_puts(&base, "");
        }
        for (size_t i = 0; i < n_elems; i++) {
            rp_buf_putc(&text, ',');
            rp_buf_append(&text, sep, sep_len);
            layout(elems[i], &local, base.data, &text);
        }
        add_edit(e, last->end, last->end, text.data, text.len);
    }
    rp_buf_free(&text);
    rp_buf_free(&base);
}

/* Removes the children of container `cont` marked in `gone` (indexed by node id). */
static void remove_elements(scanner *sc, int cont, const bool *gone, edits *e)
{
    node *c = N(sc, cont);
    int first_kept = -1, prev = -1;
    for (int k = c->first; k >= 0; k = sc->nodes[k].next) {
        if (!gone[k]) {
            first_kept = k;
            break;
        }
    }
    if (first_kept < 0) {
        add_edit(e, c->start + 1, c->end - 1, "", 0);
        return;
    }
    if (first_kept != c->first) {
        /* Everything before the first kept element, up to where that element begins. */
        add_edit(e, sc->nodes[c->first].key_start, sc->nodes[first_kept].key_start, "", 0);
    }
    prev = first_kept;
    for (int k = sc->nodes[first_kept].next; k >= 0; k = sc->nodes[k].next) {
        if (gone[k]) {
            add_edit(e, sc->nodes[prev].end, sc->nodes[k].end, "", 0);
        }
        prev = k;
    }
}

/* ---- handlers ---- */

bool rp_install_splice_is_our_command(const char *command, const char *host)
{
    if (!command || !host) {
        return false;
    }
    rp_arena a = {0};
    size_t n;
    const char *const *w = rp_sh_simple_words(&a, command, strlen(command), &n);
    bool ours = false;
    if (n >= 3) {
        const char *slash = strrchr(w[0], '/');
        const char *base = slash ? slash + 1 : w[0];
        ours = strcmp(base, "rampart") == 0 && strcmp(w[1], "hook") == 0 && strcmp(w[2], host) == 0;
    }
    rp_arena_free(&a);
    return ours;
}

/* The command string node of a handler object, or -1. */
static int handler_command(scanner *sc, int h)
{
    if (sc->nodes[h].type != N_OBJECT) {
        return -1;
    }
    int c = member(sc, h, "command");
    return c >= 0 && sc->nodes[c].type == N_STRING ? c : -1;
}

static bool is_ours(scanner *sc, int h, const char *host)
{
    int c = handler_command(sc, h);
    return c >= 0 && rp_install_splice_is_our_command(sc->nodes[c].str, host);
}

/* The handler arrays of an event array: for the groups shape each group's "hooks" array, for
 * the flat shape the event array itself. Calls fn per handler. */
typedef void (*handler_fn)(scanner *sc, int handler, void *self);

static int for_each_handler(scanner *sc, int ev_array, rp_install_splice_shape shape, handler_fn fn,
                            void *self)
{
    for (int g = sc->nodes[ev_array].first; g >= 0; g = sc->nodes[g].next) {
        if (shape == RP_INSTALL_SPLICE_FLAT) {
            fn(sc, g, self);
            continue;
        }
        if (sc->nodes[g].type != N_OBJECT) {
            continue;
        }
        int hs = member(sc, g, "hooks");
        if (hs < 0 || sc->nodes[hs].type != N_ARRAY) {
            continue;
        }
        for (int h = sc->nodes[hs].first; h >= 0; h = sc->nodes[h].next) {
            fn(sc, h, self);
        }
    }
    return 0;
}

/* ---- rendering our entries (compact; layout() restyles them) ---- */

static void put_string(rp_buf *b, const char *s)
{
    rp_json_write_string(b, s, strlen(s));
}

static void render_handler(const rp_install_splice_spec *spec, rp_buf *b)
{
    if (spec->shape == RP_INSTALL_SPLICE_FLAT) {
        rp_buf_puts(b, "{\"command\":");
        put_string(b, spec->command);
        rp_buf_putc(b, '}');
        return;
    }
    rp_buf_puts(b, "{\"type\":\"command\",\"command\":");
    put_string(b, spec->command);
    if (spec->timeout > 0) {
        rp_buf_printf(b, ",\"timeout\":%d", spec->timeout);
    }
    rp_buf_putc(b, '}');
}

/* The item install adds to an event array: a matcher group, or the bare handler (flat). */
static void render_item(const rp_install_splice_spec *spec, const rp_install_splice_event *ev,
                        rp_buf *b)
{
    if (spec->shape == RP_INSTALL_SPLICE_FLAT) {
        render_handler(spec, b);
        return;
    }
    rp_buf_putc(b, '{');
    if (ev->matcher) {
        rp_buf_puts(b, "\"matcher\":");
        put_string(b, ev->matcher);
        rp_buf_putc(b, ',');
    }
    rp_buf_puts(b, "\"hooks\":[");
    render_handler(spec, b);
    rp_buf_puts(b, "]}");
}

static void render_event_member(const rp_install_splice_spec *spec,
                                const rp_install_splice_event *ev, rp_buf *b)
{
    put_string(b, ev->name);
    rp_buf_puts(b, ":[");
    render_item(spec, ev, b);
    rp_buf_putc(b, ']');
}

/* ---- install ---- */

typedef struct find_state {
    const char *host;
    const char *command;
    int ours, same;
    int mismatched[64];
    int n_mismatched;
} find_state;

static void find_cb(scanner *sc, int h, void *self)
{
    find_state *fs = self;
    if (!is_ours(sc, h, fs->host)) {
        return;
    }
    fs->ours++;
    int c = handler_command(sc, h);
    if (strcmp(sc->nodes[c].str, fs->command) == 0) {
        fs->same++;
    } else if (fs->n_mismatched < 64) {
        fs->mismatched[fs->n_mismatched++] = c;
    }
}

static rp_install_splice_status type_error(scanner *sc, int id, const char *what,
                                           rp_install_splice_error *err)
{
    set_error_at(err, sc->s, sc->nodes[id].start, what);
    return RP_INSTALL_SPLICE_ERROR;
}

/* Checks "version" of a flat (Cursor) file: absent or 1. */
static rp_install_splice_status check_version(scanner *sc, int root, rp_install_splice_error *err,
                                              int *version)
{
    *version = member(sc, root, "version");
    if (*version < 0) {
        return RP_INSTALL_SPLICE_CHANGED;
    }
    node *v = N(sc, *version);
    if (v->end - v->start != 1 || sc->s[v->start] != '1') {
        return type_error(sc, *version, "\"version\" must be 1", err);
    }
    return RP_INSTALL_SPLICE_CHANGED;
}

static rp_install_splice_status install_into(scanner *sc, int root,
                                             const rp_install_splice_spec *spec, edits *e,
                                             rp_install_splice_error *err)
{
    style st;
    detect_style(sc, root, &st);
    rp_buf tmp = {0};
    int version = -1;
    if (spec->shape == RP_INSTALL_SPLICE_FLAT && check_version(sc, root, err, &version) < 0) {
        return RP_INSTALL_SPLICE_ERROR;
    }
    int hooks = member(sc, root, "hooks");
    if (hooks < 0) {
        /* Every event in one new "hooks" member (and Cursor's "version" before it). */
        const char *elems[2];
        size_t n = 0;
        rp_buf ver = {0};
        if (spec->shape == RP_INSTALL_SPLICE_FLAT && version < 0) {
            rp_buf_puts(&ver, "\"version\":1");
            elems[n++] = ver.data;
        }
        rp_buf_puts(&tmp, "\"hooks\":{");
        for (size_t i = 0; i < spec->n_events; i++) {
            if (i > 0) {
                rp_buf_putc(&tmp, ',');
            }
            render_event_member(spec, &spec->events[i], &tmp);
        }
        rp_buf_putc(&tmp, '}');
        elems[n++] = tmp.data;
        append_elements(sc, root, &st, elems, n, e);
        rp_buf_free(&ver);
        rp_buf_free(&tmp);
        return RP_INSTALL_SPLICE_CHANGED;
    }
    if (sc->nodes[hooks].type != N_OBJECT) {
        return type_error(sc, hooks, "\"hooks\" is not an object", err);
    }
    const char **new_members = calloc(spec->n_events + 1, sizeof *new_members);
    rp_buf *bufs = calloc(spec->n_events + 1, sizeof *bufs);
    size_t n_new = 0;
    rp_install_splice_status status = RP_INSTALL_SPLICE_UNCHANGED;
    for (size_t i = 0; i < spec->n_events; i++) {
        const rp_install_splice_event *ev = &spec->events[i];
        int arr = member(sc, hooks, ev->name);
        if (arr < 0) {
            render_event_member(spec, ev, &bufs[n_new]);
            new_members[n_new] = bufs[n_new].data;
            n_new++;
            continue;
        }
        if (sc->nodes[arr].type != N_ARRAY) {
            status = RP_INSTALL_SPLICE_ERROR;
            char msg[120];
            snprintf(msg, sizeof msg, "\"hooks\".\"%s\" is not an array", ev->name);
            type_error(sc, arr, msg, err);
            break;
        }
        find_state fs = {.host = spec->host, .command = spec->command};
        for_each_handler(sc, arr, spec->shape, find_cb, &fs);
        if (fs.same > 0 && fs.n_mismatched == 0) {
            continue; /* already installed */
        }
        if (fs.ours > 0) {
            /* A moved binary or another -c: point our handlers at the new command. */
            for (int k = 0; k < fs.n_mismatched; k++) {
                node *c = N(sc, fs.mismatched[k]);
                rp_buf_reset(&tmp);
                put_string(&tmp, spec->command);
                add_edit(e, c->start, c->end, tmp.data, tmp.len);
            }
            status = RP_INSTALL_SPLICE_CHANGED;
            continue;
        }
        rp_buf_reset(&tmp);
        render_item(spec, ev, &tmp);
        const char *item = tmp.data;
        append_elements(sc, arr, &st, &item, 1, e);
        status = RP_INSTALL_SPLICE_CHANGED;
    }
    if (status != RP_INSTALL_SPLICE_ERROR && n_new > 0) {
        append_elements(sc, hooks, &st, new_members, n_new, e);
        status = RP_INSTALL_SPLICE_CHANGED;
    }
    for (size_t i = 0; i < n_new; i++) {
        rp_buf_free(&bufs[i]);
    }
    free(bufs);
    free(new_members);
    rp_buf_free(&tmp);
    return status;
}

static void new_file(const rp_install_splice_spec *spec, rp_buf *out)
{
    /* Installing into "{}" gives the file's text, laid out with the defaults, plus a final
     * newline. */
    scanner sc;
    const char empty[] = "{}";
    int root = scan_document(&sc, empty, 2, NULL);
    edits e = {0};
    install_into(&sc, root, spec, &e, NULL);
    apply_edits(empty, 2, &e, out);
    rp_buf_puts(out, "\n");
    edits_free(&e);
    scanner_free(&sc);
}

rp_install_splice_status rp_install_splice_install(const char *text, size_t len,
                                                   const rp_install_splice_spec *spec, rp_buf *out,
                                                   rp_install_splice_error *err)
{
    scanner sc;
    int root = scan_document(&sc, text, len, err);
    if (root == -2) {
        scanner_free(&sc);
        return RP_INSTALL_SPLICE_ERROR;
    }
    if (root == -1) {
        scanner_free(&sc);
        new_file(spec, out);
        return RP_INSTALL_SPLICE_CHANGED;
    }
    edits e = {0};
    rp_install_splice_status st = install_into(&sc, root, spec, &e, err);
    if (st != RP_INSTALL_SPLICE_ERROR) {
        apply_edits(text, len, &e, out);
    }
    edits_free(&e);
    scanner_free(&sc);
    return st;
}

/* ---- uninstall ---- */

/* Marks what goes in one event array; returns whether the array is left empty. */
static bool plan_event(scanner *sc, int arr, const rp_install_splice_spec *spec, bool *gone,
                       edits *e, int *removed)
{
    bool any_item_gone = false, all_gone = sc->nodes[arr].first >= 0;
    for (int g = sc->nodes[arr].first; g >= 0; g = sc->nodes[g].next) {
        if (spec->shape == RP_INSTALL_SPLICE_FLAT) {
            if (is_ours(sc, g, spec->host)) {
                gone[g] = true;
                any_item_gone = true;
                (*removed)++;
            } else {
                all_gone = false;
            }
            continue;
        }
        int hs = sc->nodes[g].type == N_OBJECT ? member(sc, g, "hooks") : -1;
        if (hs < 0 || sc->nodes[hs].type != N_ARRAY) {
            all_gone = false;
            continue;
        }
        bool any = false, all = sc->nodes[hs].first >= 0;
        for (int h = sc->nodes[hs].first; h >= 0; h = sc->nodes[h].next) {
            if (is_ours(sc, h, spec->host)) {
                gone[h] = true;
                any = true;
                (*removed)++;
            } else {
                all = false;
            }
        }
        if (any && all) {
            gone[g] = true; /* the group held only our handlers */
            any_item_gone = true;
        } else {
            if (any) {
                remove_elements(sc, hs, gone, e);
            }
            all_gone = false;
        }
    }
    if (any_item_gone && !all_gone) {
        remove_elements(sc, arr, gone, e);
    }
    return any_item_gone && all_gone;
}

static rp_install_splice_status uninstall_from(scanner *sc, int root,
                                               const rp_install_splice_spec *spec, edits *e,
                                               rp_install_splice_error *err)
{
    int hooks = member(sc, root, "hooks");
    if (hooks < 0) {
        return RP_INSTALL_SPLICE_UNCHANGED;
    }
    if (sc->nodes[hooks].type != N_OBJECT) {
        return type_error(sc, hooks, "\"hooks\" is not an object", err);
    }
    bool *gone = calloc((size_t)sc->n, sizeof *gone);
    int removed = 0;
    bool any_event_gone = false, all_events_gone = sc->nodes[hooks].first >= 0;
    for (int ev = sc->nodes[hooks].first; ev >= 0; ev = sc->nodes[ev].next) {
        bool ours_event = false;
        for (size_t i = 0; i < spec->n_events; i++) {
            if (strcmp(sc->nodes[ev].key, spec->events[i].name) == 0) {
                ours_event = true;
            }
        }
        if (ours_event && sc->nodes[ev].type != N_ARRAY) {
            char msg[120];
            snprintf(msg, sizeof msg, "\"hooks\".\"%s\" is not an array", sc->nodes[ev].key);
            free(gone);
            return type_error(sc, ev, msg, err);
        }
        if (!ours_event) {
            all_events_gone = false;
            continue;
        }
        if (plan_event(sc, ev, spec, gone, e, &removed)) {
            gone[ev] = true;
            any_event_gone = true;
        } else {
            all_events_gone = false;
        }
    }
    if (removed == 0) {
        free(gone);
        return RP_INSTALL_SPLICE_UNCHANGED;
    }
    if (any_event_gone && all_events_gone) {
        gone[hooks] = true;
        /* Cursor: install adds "version" right before "hooks" when the file has none, so a
         * "version" just before a "hooks" that goes was ours too (when it was the user's,
         * rp_install_splice_uninstall_exact restores it from the backup). */
        int version = member(sc, root, "version");
        if (spec->shape == RP_INSTALL_SPLICE_FLAT && version >= 0 &&
            sc->nodes[version].next == hooks) {
            gone[version] = true;
        }
        remove_elements(sc, root, gone, e);
    } else if (any_event_gone) {
        remove_elements(sc, hooks, gone, e);
    }
    free(gone);
    return RP_INSTALL_SPLICE_CHANGED;
}

rp_install_splice_status rp_install_splice_uninstall(const char *text, size_t len,
                                                     const rp_install_splice_spec *spec,
                                                     rp_buf *out, rp_install_splice_error *err)
{
    scanner sc;
    int root = scan_document(&sc, text, len, err);
    if (root == -2) {
        scanner_free(&sc);
        return RP_INSTALL_SPLICE_ERROR;
    }
    rp_install_splice_status st = RP_INSTALL_SPLICE_UNCHANGED;
    edits e = {0};
    if (root >= 0) {
        st = uninstall_from(&sc, root, spec, &e, err);
    }
    if (st != RP_INSTALL_SPLICE_ERROR) {
        apply_edits(text, len, &e, out);
    }
    edits_free(&e);
    scanner_free(&sc);
    return st;
}

rp_install_splice_status rp_install_splice_uninstall_exact(const char *text, size_t len,
                                                           const char *before, size_t before_len,
                                                           const rp_install_splice_spec *spec,
                                                           rp_buf *out,
                                                           rp_install_splice_error *err)
{
    if (before) {
        rp_buf again = {0};
        rp_install_splice_error ignored;
        rp_install_splice_status st =
            rp_install_splice_install(before, before_len, spec, &again, &ignored);
        bool same = st == RP_INSTALL_SPLICE_CHANGED && again.len == len &&
                    memcmp(again.data, text, len) == 0;
        rp_buf_free(&again);
        if (same) {
            rp_buf_append(out, before, before_len);
            if (!out->data) {
                rp_buf_puts(out, "");
            }
            return RP_INSTALL_SPLICE_CHANGED;
        }
    }
    return rp_install_splice_uninstall(text, len, spec, out, err);
}

/* ---- doctor ---- */

typedef struct ours_state {
    const char *host;
    void (*fn)(void *self, const char *command);
    void *self;
    int count;
} ours_state;

static void ours_cb(scanner *sc, int h, void *self)
{
    ours_state *os = self;
    if (!is_ours(sc, h, os->host)) {
        return;
    }
    os->count++;
    if (os->fn) {
        os->fn(os->self, sc->nodes[handler_command(sc, h)].str);
    }
}

int rp_install_splice_find_ours(const char *text, size_t len, const rp_install_splice_spec *spec,
                                void (*fn)(void *self, const char *command), void *self,
                                rp_install_splice_error *err)
{
    scanner sc;
    int root = scan_document(&sc, text, len, err);
    if (root == -2) {
        scanner_free(&sc);
        return -1;
    }
    ours_state os = {.host = spec->host, .fn = fn, .self = self};
    int hooks = root >= 0 ? member(&sc, root, "hooks") : -1;
    if (hooks >= 0 && sc.nodes[hooks].type != N_OBJECT) {
        /* The host cannot read its hooks either: as broken as a file that does not parse. */
        type_error(&sc, hooks, "\"hooks\" is not an object", err);
        scanner_free(&sc);
        return -1;
    }
    for (size_t i = 0; hooks >= 0 && i < spec->n_events; i++) {
        int arr = member(&sc, hooks, spec->events[i].name);
        if (arr >= 0 && sc.nodes[arr].type != N_ARRAY) {
            char msg[120];
            snprintf(msg, sizeof msg, "\"hooks\".\"%s\" is not an array", spec->events[i].name);
            type_error(&sc, arr, msg, err);
            scanner_free(&sc);
            return -1;
        }
        if (arr >= 0) {
            for_each_handler(&sc, arr, spec->shape, ours_cb, &os);
        }
    }
    scanner_free(&sc);
    return os.count;
}
