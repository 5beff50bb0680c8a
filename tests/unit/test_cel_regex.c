/* test_cel_regex.c — RE2 syntax checking, translation to PCRE2, matching and limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cel/cel.h"
#include "cel/fn.h"
#include "core/regex.h"

/* One search with re; fails the test when matching errs. */
static int search_with(rp_regex *re, const char *pattern, const char *subject)
{
    char err[256];
    rp_arena a = {0};
    int rc = rp_regex_search(re, subject, strlen(subject), &a, err, sizeof err);
    if (rc < 0)
        fail_msg("matching %s against %s failed: %s", pattern, subject, err);
    rp_arena_free(&a);
    rp_regex_free(re);
    return rc;
}

/* 1 match, 0 no match; fails the test when the pattern does not compile, matching errs, or the
 * JIT-compiled and the interpreted pattern disagree. */
static int search(const char *pattern, const char *subject)
{
    char err[256];
    rp_regex *jit = rp_regex_compile(pattern, strlen(pattern), err, sizeof err);
    if (!jit)
        fail_msg("pattern %s did not compile: %s", pattern, err);
    if (!rp_regex_is_jit(jit))
        fail_msg("pattern %s was not JIT-compiled", pattern);
    rp_regex *interpreted = rp_regex_compile_once(pattern, strlen(pattern), err, sizeof err);
    if (!interpreted)
        fail_msg("pattern %s did not compile without the JIT: %s", pattern, err);
    if (rp_regex_is_jit(interpreted))
        fail_msg("pattern %s compiled once was JIT-compiled", pattern);
    int rc = search_with(jit, pattern, subject);
    if (search_with(interpreted, pattern, subject) != rc)
        fail_msg("%s against %s: the JIT says %d, the interpreter not", pattern, subject, rc);
    return rc;
}

static void assert_match(const char *pattern, const char *subject)
{
    if (search(pattern, subject) != 1)
        fail_msg("expected %s to match %s", pattern, subject);
}

static void assert_no_match(const char *pattern, const char *subject)
{
    if (search(pattern, subject) != 0)
        fail_msg("expected %s not to match %s", pattern, subject);
}

/* The pattern is rejected and the message contains `needle`. */
static void assert_rejected(const char *pattern, const char *needle)
{
    char err[256] = "";
    rp_regex *re = rp_regex_compile(pattern, strlen(pattern), err, sizeof err);
    if (re) {
        rp_regex_free(re);
        fail_msg("expected pattern %s to be rejected", pattern);
    }
    if (!strstr(err, needle))
        fail_msg("pattern %s: message '%s' does not mention '%s'", pattern, err, needle);
}

static void test_partial_match_semantics(void **state)
{
    (void)state;
    assert_match("ubb", "hubba");
    assert_no_match("foo|bar", "");
    assert_match("", "cows");
    assert_match("", "");
    assert_match("gr(a|e)y", "grey");
    assert_match("ba(na)*", "banana");
    assert_match("a+ñ+a+", "mañana");
    assert_match("(a|\xF0\x9F\x98\x80){2}", "\xF0\x9F\x90\xB1\xF0\x9F\x98\x80\xF0\x9F\x98\x80");
    assert_match("^abc$", "abc");
    assert_no_match("^b", "abc");
    /* '.' is one code point, not one byte. */
    assert_match("^.$", "ñ");
    assert_match("^\\x{1F600}$", "\xF0\x9F\x98\x80");
}

static void test_re2_line_semantics(void **state)
{
    (void)state;
    /* RE2's $ matches only at the end of the text; PCRE2's would also before a final \n. */
    assert_no_match("abc$", "abc\n");
    assert_match("(?m)abc$", "abc\n");
    assert_match("(?m)^b", "a\nb");
    assert_no_match("a.b", "a\nb");
    assert_match("(?s)a.b", "a\nb");
    assert_match("(?i)ÉTÉ", "été");
    assert_match("\\Aab\\z", "ab");
    assert_no_match("\\Aab\\z", "ab\n");
}

static void test_re2_escapes_and_classes(void **state)
{
    (void)state;
    /* \v is the vertical tab in RE2 (PCRE2 reads a class of vertical space). */
    assert_match("^\\v$", "\v");
    assert_no_match("^\\v$", "\n");
    /* \s excludes \v in RE2. */
    assert_match("^\\s$", "\t");
    assert_no_match("^\\s$", "\v");
    assert_no_match("^\\S$", " ");
    assert_match("^[\\s]+$", " \t\n");
    /* \d and \w are ASCII-only in RE2. */
    assert_match("^\\d+$", "0123");
    assert_no_match("^\\d$", "\xD9\xA3"); /* ARABIC-INDIC DIGIT THREE */
    assert_no_match("^\\w$", "é");
    assert_match("^\\pL$", "é");
    assert_match("^\\p{Greek}+$", "αβγ");
    assert_match("^[[:alpha:]]+$", "abc");
    assert_match("^[]a]+$", "]a");
    assert_match("^[a-c^]+$", "^b");
    assert_match("\\Qa.b\\E", "a.b");
    assert_no_match("\\Qa.b\\E", "axb");
    assert_match("^a{2,3}$", "aaa");
    assert_no_match("^a{2,3}$", "aaaa");
    assert_match("a{,2}", "a{,2}"); /* not a repetition in RE2: literal text */
    assert_match("x}", "x}");
    assert_match("(?P<year>\\d{4})-(?<m>\\d\\d)", "2024-01");
    assert_match("(?i:AB)c", "abc");
    assert_match("a*?b", "aab");
    assert_match("(?U)a+", "aa");
    assert_match("\\.\\*\\+\\?\\(\\)", ".*+?()");
    /* RE2 octal escapes: \0, \12 (a newline), \101 ("A"); a lone \1 is a backreference. */
    assert_match("^a\\12b$", "a\nb");
    assert_match("^\\101x\\0?$", "Ax");
    assert_match("^[\\101-\\103]+$", "ABC");
}

static void test_rejects_non_re2_constructs(void **state)
{
    (void)state;
    assert_rejected("(a)\\1", "backreference");
    assert_rejected("(?<n>a)\\k<n>", "backreference");
    assert_rejected("(a)\\g1", "backreference");
    assert_rejected("(?P<n>a)(?P=n)", "backreference");
    assert_rejected("a(?=b)", "lookahead");
    assert_rejected("a(?!b)", "lookahead");
    assert_rejected("(?<=a)b", "lookbehind");
    assert_rejected("(?<!a)b", "lookbehind");
    assert_rejected("(?>a+)b", "atomic");
    assert_rejected("a*+", "possessive");
    assert_rejected("[[:<:]]a", "[:<:]");
    assert_rejected("a[[:>:]]", "[:>:]");
    assert_rejected("\\p{Xan}", "property");
    assert_rejected("\\p{Xwd}", "property");
    assert_rejected("\\p{L&}", "property");
    assert_rejected("a++", "possessive");
    assert_rejected("a?+", "possessive");
    assert_rejected("a{2}+", "possessive");
    assert_rejected("(a|(?R))", "recursion");
    assert_rejected("(a)(?1)", "recursion");
    assert_rejected("(a)(?-1)", "recursion");
    assert_rejected("(?<n>a)(?&n)", "subroutine");
    assert_rejected("(?P<n>a)(?P>n)", "subroutine");
    assert_rejected("(?(1)a|b)", "conditional");
    assert_rejected("a\\Kb", "\\K");
    assert_rejected("(?C1)a", "callout");
    assert_rejected("\\Ga", "\\G");
    assert_rejected("\\C", "\\C");
    assert_rejected("(*ACCEPT)a", "verbs");
    assert_rejected("(*LIMIT_MATCH=100000000)a", "verbs");
    assert_rejected("(?|(a)|(b))", "branch reset");
    assert_rejected("(?#comment)a", "comment");
    assert_rejected("(?x)a b", "unsupported");
    assert_rejected("\\R", "\\R");
    assert_rejected("\\h", "\\h");
    assert_rejected("a**", "nested repetition");
    assert_rejected("*a", "missing argument");
    assert_rejected("a{1001}", "repeat count");
    assert_rejected("a{3,2}", "repeat count");
    assert_rejected("a\\", "trailing backslash");
    assert_rejected("[a", "missing closing ]");
    /* PCRE2 itself still rejects what is malformed for both. */
    assert_rejected("(a", "invalid regex");
}

static void test_translation(void **state)
{
    (void)state;
    rp_buf b = {0};
    char err[128];
    assert_int_equal(rp_regex_translate("a\\vb{x", 6, &b, err, sizeof err), 0);
    assert_string_equal(b.data, "a\\x0Bb\\{x");
    rp_buf_reset(&b);
    assert_int_equal(rp_regex_translate("", 0, &b, err, sizeof err), 0);
    assert_string_equal(b.data, "");
    assert_int_equal(rp_regex_translate("(?=x)", 5, NULL, err, sizeof err), -1);
    assert_true(strstr(err, "(?=") != NULL);
    rp_buf_free(&b);
}

/* Searches subject with pattern compiled for the JIT (jit) or for the interpreter; the result,
 * and the message in err. */
static int search_mode(const char *pattern, const char *subject, size_t len, bool jit, char *err,
                       size_t err_size)
{
    rp_regex_use_jit(jit);
    rp_regex *re = rp_regex_compile(pattern, strlen(pattern), err, err_size);
    rp_regex_use_jit(true);
    assert_non_null(re);
    assert_int_equal(rp_regex_is_jit(re), jit);
    rp_arena a = {0};
    int rc = rp_regex_search(re, subject, len, &a, err, err_size);
    rp_arena_free(&a);
    rp_regex_free(re);
    return rc;
}

/* Classic catastrophic backtracking (nested quantifiers that cannot match) ends at PCRE2's
 * match limit, JIT-compiled or interpreted. */
static void test_match_limit(void **state)
{
    (void)state;
    char subject[64];
    memset(subject, 'a', 60);
    subject[60] = '!';
    subject[61] = '\0';
    for (int jit = 0; jit <= 1; jit++) {
        char err[256] = "";
        assert_int_equal(search_mode("^(a|aa)+$", subject, 61, jit, err, sizeof err), -1);
        assert_non_null(strstr(err, "match limit"));
    }
}

/* The interpreter's match limit does not count the steps of a scan and a backtrack inside a
 * single-character repeat at every start position (quadratic): interpreted, the search ends at
 * the step limit instead of running for tens of seconds. The JIT skips that work and gives
 * RE2's answer at once. A long but linear search succeeds either way. */
static void test_step_limit(void **state)
{
    (void)state;
    size_t n = 100000;
    char *subject = malloc(n + 2);
    assert_non_null(subject);
    memset(subject, ' ', n);
    subject[n] = 'x';
    subject[n + 1] = '\0';
    char err[256] = "";
    assert_int_equal(search_mode("\\s+$", subject, n + 1, false, err, sizeof err), -1);
    assert_non_null(strstr(err, "step limit"));
    clock_t t0 = clock();
    assert_int_equal(search_mode("\\s+$", subject, n + 1, true, err, sizeof err), 0);
    /* Interpreted: about 30 ms to the step limit (40 s before it); JIT: well under 1 ms. */
    assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 0.02);
    /* ^(\S+\s+)*rm over 5,000 words: deep but linear; matches as RE2 would. */
    char *words = malloc(5000 * 2 + 16);
    assert_non_null(words);
    for (int i = 0; i < 5000; i++)
        memcpy(words + 2 * i, "x ", 2);
    strcpy(words + 10000, "rm -rf /");
    for (int jit = 0; jit <= 1; jit++)
        assert_int_equal(
            search_mode("^(\\S+\\s+)*rm\\s+-rf", words, strlen(words), jit, err, sizeof err), 1);
    free(words);
    free(subject);
}

/* The JIT's depth bound is its stack (PCRE2's depth and heap limits are the interpreter's): a
 * search that needs more than RP_REGEX_JIT_STACK_MAX fails, as the interpreter's fails at the
 * step limit. */
static void test_jit_stack_limit(void **state)
{
    (void)state;
    size_t n = 200000;
    char *subject = malloc(n + 2);
    assert_non_null(subject);
    memset(subject, ' ', n);
    subject[n] = 'x';
    subject[n + 1] = '\0';
    char err[256] = "";
    assert_int_equal(search_mode("(\\s)+$", subject, n + 1, true, err, sizeof err), -1);
    assert_non_null(strstr(err, "stack limit"));
    assert_int_equal(search_mode("(\\s)+$", subject, n + 1, false, err, sizeof err), -1);
    assert_non_null(strstr(err, "limit"));
    free(subject);
}

/* The JIT does not count the entries of a repeated group against its match limit: the
 * translation opens each group with a callout that counts them against the step limit.
 * Without it, `(\s)+$` over 1 MB of spaces broken by an x every 20 KB ran for 22 s. */
static void test_jit_group_steps(void **state)
{
    (void)state;
    size_t n = 200000, block = 20000;
    char *subject = malloc(n + 1);
    assert_non_null(subject);
    for (size_t i = 0; i < n; i++)
        subject[i] = i % block == block - 1 ? 'x' : ' ';
    subject[n] = '\0';
    const char *groups[] = {"(\\s)+$", "(?:\\s|y)+$", "(?P<sp>\\s)+$", "(?i:\\s)+$"};
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        char err[256] = "";
        clock_t t0 = clock();
        assert_int_equal(search_mode(groups[i], subject, n, true, err, sizeof err), -1);
        assert_non_null(strstr(err, "step limit"));
        assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 0.5); /* about 5 ms */
    }
    /* The callouts change no answer. */
    assert_match("^(a(b)|c)+$", "abcab");
    assert_no_match("^(?:a(b)|c)+$", "abcabd");
    assert_match("^(?P<x>ab)(?i:CD)$", "abcd");
    free(subject);
}

/* Each thread has its own match data and JIT stack: one compiled pattern searched from several
 * threads at once gives every thread the right answers. */
enum { THREADS = 4, ROUNDS = 2000 };

static void *search_many(void *arg)
{
    const rp_regex *re = arg;
    rp_arena a = {0};
    char err[128];
    intptr_t wrong = 0;
    for (int i = 0; i < ROUNDS; i++) {
        wrong += rp_regex_search(re, "git push --force origin", 23, &a, err, sizeof err) != 1;
        wrong += rp_regex_search(re, "git push origin", 15, &a, err, sizeof err) != 0;
        rp_arena_reset(&a);
    }
    rp_arena_free(&a);
    return (void *)wrong;
}

static void test_jit_threads(void **state)
{
    (void)state;
    char err[256];
    const char *pattern = "^git\\s+push\\s+(\\S+\\s+)*--force";
    rp_regex *re = rp_regex_compile(pattern, strlen(pattern), err, sizeof err);
    assert_non_null(re);
    assert_true(rp_regex_is_jit(re));
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, search_many, re), 0);
    for (int i = 0; i < THREADS; i++) {
        void *wrong = NULL;
        assert_int_equal(pthread_join(t[i], &wrong), 0);
        assert_null(wrong);
    }
    rp_regex_free(re);
}

/* Through the function table: prepared (constant) and per-call patterns give the same answers
 * and a bad pattern is an error value. */
static void test_matches_function(void **state)
{
    (void)state;
    const cel_function *f = cel_function_find("matches", true);
    assert_non_null(f);
    assert_ptr_equal(cel_function_find("matches", false), f);
    rp_arena a = {0};
    cel_value args[2] = {cel_string_ref("hubba", 5), cel_string_ref("u(b+)a", 6)};
    bool is_const[2] = {false, true};
    void *prepared = f->prepare(args, is_const, 2);
    assert_non_null(prepared);
    assert_true(rp_regex_is_jit(prepared)); /* compiled once, searched at every evaluation */
    cel_call with = {.arena = &a, .prepared = prepared};
    cel_call without = {.arena = &a};
    cel_value v = f->impl(&with, args, 2);
    assert_int_equal(v.kind, CEL_BOOL);
    assert_true(v.v.b);
    v = f->impl(&without, args, 2);
    assert_int_equal(v.kind, CEL_BOOL);
    assert_true(v.v.b);
    f->release(prepared);

    is_const[1] = false;
    assert_null(f->prepare(args, is_const, 2));

    cel_value bad[2] = {cel_string_ref("x", 1), cel_string_ref("(?=x)", 5)};
    is_const[1] = true;
    assert_null(f->prepare(bad, is_const, 2));
    v = f->impl(&without, bad, 2);
    assert_int_equal(v.kind, CEL_ERROR);
    assert_true(strstr(v.v.err->message, "lookahead") != NULL);

    cel_value wrong[2] = {cel_int(1), cel_string_ref("x", 1)};
    v = f->impl(&without, wrong, 2);
    assert_int_equal(v.kind, CEL_ERROR);
    assert_true(strstr(v.v.err->message, "no such overload") != NULL);
    rp_arena_free(&a);
}

/* Evaluates src with `s` bound to a string; the result stays valid until the arena is freed. */
static cel_value eval_with(rp_arena *a, const char *src, const char *s)
{
    cel_program *p;
    cel_source_error err;
    if (cel_compile(src, strlen(src), NULL, &p, &err) != 0)
        fail_msg("compile %s: %d:%d %s", src, err.line, err.col, err.message);
    cel_binding vars[] = {{"s", cel_string_ref(s, strlen(s))}};
    cel_activation act = {vars, 1, NULL, NULL};
    cel_value v = cel_eval(p, &act, a);
    cel_program_free(p);
    return v;
}

/* Through the compiler: constant patterns (prepared once) and computed ones (compiled per
 * call) in both call styles. */
static void test_matches_expressions(void **state)
{
    (void)state;
    rp_arena a = {0};
    const char *yes[] = {
        "s.matches('^ab+c$')",
        "matches(s, 'b{2}')",
        "s.matches('^' + 'a' + 'b+')",
        "['x', 'b+'].exists(p, s.matches(p))",
    };
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        cel_value v = eval_with(&a, yes[i], "abbc");
        if (v.kind != CEL_BOOL || !v.v.b)
            fail_msg("%s: expected true (kind %d)", yes[i], v.kind);
    }
    cel_value v = eval_with(&a, "s.matches('^b')", "abbc");
    assert_int_equal(v.kind, CEL_BOOL);
    assert_false(v.v.b);
    v = eval_with(&a, "s.matches('(a)\\\\1')", "aa");
    assert_int_equal(v.kind, CEL_ERROR);
    assert_true(strstr(v.v.err->message, "backreference") != NULL);
    v = eval_with(&a, "s.matches(s + '(?=x)')", "a");
    assert_int_equal(v.kind, CEL_ERROR);
    assert_true(strstr(v.v.err->message, "lookahead") != NULL);
    /* A runaway pattern is an error value, and || can still absorb it. */
    char subject[64];
    memset(subject, 'a', 60);
    strcpy(subject + 60, "!");
    v = eval_with(&a, "s.matches('^(a|aa)+$')", subject);
    assert_int_equal(v.kind, CEL_ERROR);
    v = eval_with(&a, "s.matches('^(a|aa)+$') || true", subject);
    assert_int_equal(v.kind, CEL_BOOL);
    assert_true(v.v.b);
    rp_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partial_match_semantics),
        cmocka_unit_test(test_re2_line_semantics),
        cmocka_unit_test(test_re2_escapes_and_classes),
        cmocka_unit_test(test_rejects_non_re2_constructs),
        cmocka_unit_test(test_translation),
        cmocka_unit_test(test_match_limit),
        cmocka_unit_test(test_step_limit),
        cmocka_unit_test(test_jit_stack_limit),
        cmocka_unit_test(test_jit_group_steps),
        cmocka_unit_test(test_jit_threads),
        cmocka_unit_test(test_matches_function),
        cmocka_unit_test(test_matches_expressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
