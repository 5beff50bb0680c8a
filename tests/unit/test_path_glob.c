/* test_path_glob.c — the permission rules' wildcard (reference §2.3: home expansion, `*`, `?`,
 * the optional trailing " *", folding) and the shell-glob checks (has_meta, literal,
 * could_match), the last also against glibc's fnmatch as an independent model of bash's
 * pathname expansion. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <fnmatch.h>

#include "path/glob.h"

static rp_arena arena;

static const rp_glob_opts win_fold = {.fold_case = true, .fold_sep = true};

static void check_match(const char *pattern, const char *value, const rp_glob_opts *o, bool want)
{
    bool got = rp_glob_match(&arena, pattern, value, o);
    if (got != want)
        fprintf(stderr, "match(%s, %s) = %d, want %d\n", pattern, value, got, want);
    assert_int_equal(got, want);
}

#define YES(p, v) check_match(p, v, NULL, true)
#define NO(p, v)  check_match(p, v, NULL, false)

static void check_could(const char *pattern, const char *token, bool any_prefix,
                        const rp_glob_opts *o, bool want)
{
    bool got = rp_glob_could_match(pattern, token, any_prefix, o);
    if (got != want)
        fprintf(stderr, "could_match(%s, %s, %d) = %d, want %d\n", pattern, token, any_prefix, got,
                want);
    assert_int_equal(got, want);
}

#define COULD(p, t)    check_could(p, t, false, NULL, true)
#define COULDNT(p, t)  check_could(p, t, false, NULL, false)
#define PCOULD(p, t)   check_could(p, t, true, NULL, true)
#define PCOULDNT(p, t) check_could(p, t, true, NULL, false)

/* ---- the wildcard ---- */

static void test_glob_star_matches_any_sequence(void **unused)
{
    (void)unused;
    YES("*", "");
    YES("*", "anything at all");
    YES("*", "/etc/passwd");        /* '/' included: no single-segment semantics */
    YES("*", "line one\nline two"); /* newlines included (dotAll) */
    YES("/etc/*", "/etc/ssh/sshd_config");
    YES("a*b", "ab");
    YES("a*b", "a/x/y\nb");
    NO("a*b", "a/x/y\nbc");
    YES("g*t", "git"); /* vectors: a middle star */
    NO("g*t", "g");
    YES("exa_*", "exa_search");
    YES("research_query-*", "research_query-docs");
    NO("research_query-*", "search_provider");
    YES("*a*a*b", "aaab");
    NO("*a*a*b", "aab?");
}

static void test_glob_double_star_is_star(void **unused)
{
    (void)unused;
    YES("**", "a/b/c");
    YES("/home/**/x", "/home/u/x");
    YES("/home/**/x", "/home/u/v/w/x");
    YES("a**b", "a/b");
    NO("/home/**/x", "/home/u/y");
}

static void test_glob_question_is_one_character(void **unused)
{
    (void)unused;
    YES("lib?", "libs");
    NO("lib?", "libxy");
    NO("lib?", "lib");
    YES("src?x", "src/x"); /* '?' matches a separator (vector) */
    YES("a?b", "a\nb");
    YES("a?b", "a?b"); /* and a literal '?' */
    YES("???", "a/b");
    /* One UTF-8 sequence is one character (JS counts UTF-16 units: the same in the BMP). */
    YES("caf?", "caf\xc3\xa9");
    NO("caf??", "caf\xc3\xa9");
    YES("?", "\xe2\x82\xac");     /* € */
    YES("?", "\xf0\x9f\x98\x80"); /* U+1F600: one character here, two code units in JS */
    YES("?", "\xff");             /* a byte that is not UTF-8 is a character of its own */
    YES("??", "\xc3x");           /* a cut sequence: not one character... */
    NO("??", "\xc3\xa9");         /* ...a whole one is */
}

static void test_glob_other_characters_are_literal(void **unused)
{
    (void)unused;
    NO("a.b", "axb"); /* regex metacharacters are literal (vectors) */
    YES("a.b", "a.b");
    YES("a+(b)", "a+(b)");
    NO("a+(b)", "aab");
    YES("[abc]", "[abc]"); /* no classes */
    NO("[abc]", "a");
    YES("{a,b}", "{a,b}"); /* no braces */
    NO("{a,b}", "a");
    YES("a\\*", "a\\xyz"); /* no escapes: the backslash is a character, the star a star */
    NO("a\\*", "a*");
    YES("^$|", "^$|");
    /* A value with a literal '*' is matched by '*' or '?' only. */
    YES("rm -rf ?", "rm -rf *");
    YES("*", "*");
    NO("x", "*");
}

static void test_glob_anchored_at_both_ends(void **unused)
{
    (void)unused;
    NO("git status", "git status --short");
    NO("git status", "xgit status");
    YES("git status", "git status");
    NO("", "x");
    YES("", "");
    /* A dot-file rule needs a leading star to meet an absolute alias. */
    NO(".env", "/workspace/project/.env");
    YES("*.env", "/workspace/project/.env");
}

static void test_glob_trailing_space_star_is_optional(void **unused)
{
    (void)unused;
    YES("git *", "git");
    YES("git *", "git status --short");
    YES("git *", "git ");
    NO("git *", "gitk --all");
    YES("git*", "gitk --all");
    YES("git*", "git");
    YES("git status *", "git status");
    NO("git **", "git"); /* " .*.*" does not end in " .*" */
    YES("git **", "git x");
    YES("git? *", "gitx");
    YES("git? *", "gitx y");
    NO("git? *", "git");
    YES(" *", "");
    YES(" *", " x");
    YES("a* *", "abc");
    NO("git  *", "git"); /* the optional part is " *" only: "git " remains */
    YES("git  *", "git ");
    NO("git *x", "git");
}

static void test_glob_fold_options(void **unused)
{
    (void)unused;
    const rp_glob_opts fold_case = {.fold_case = true};
    const rp_glob_opts fold_sep = {.fold_sep = true};
    /* Default: case- and separator-sensitive. */
    NO("GIT *", "git status");
    NO("C:/Users/*", "C:\\Users\\x");
    check_match("GIT *", "git status", &fold_case, true);
    check_match("*.ENV", "/w/.env", &fold_case, true);
    check_match("\xc3\x89", "\xc3\xa9", &fold_case, false); /* ASCII folding only */
    check_match("C:/Users/*", "C:\\Users\\x", &fold_case, false);
    check_match("C:/Users/*", "C:\\Users\\x", &fold_sep, true);
    check_match("C:\\Users\\*", "C:/Users/x", &fold_sep, true); /* both sides */
    check_match("a/b", "a\\b", &fold_sep, true);
    check_match("a\\b", "a\\b", &fold_sep, true);
    check_match("C:/Users/*", "c:\\users\\x", &fold_sep, false);
    /* The vector: win32 path surfaces fold case and separators on both sides. */
    check_match("C:/Users/Foo/pi/*", "C:\\Users\\Foo\\pi\\docs\\readme.md", &win_fold, true);
    check_match("C:/Users/Foo/pi/*", "c:\\users\\foo\\pi\\docs\\readme.md", &win_fold, true);
    check_match("C:/Users/Foo/pi/*", "c:\\users\\foo\\pix", &win_fold, false);
    check_match("a?b", "a\\b", &win_fold, true);
}

static void test_glob_home_expansion_forms(void **unused)
{
    (void)unused;
    const rp_glob_opts o = {.home = "/home/u"};
    struct {
        const char *in, *out;
    } cases[] = {
        {"~", "/home/u"},
        {"$HOME", "/home/u"},
        {"${HOME}", "/home/u"},
        {"~/", "/home/u"}, /* join(HOME, "") is HOME */
        {"~/.ssh/config", "/home/u/.ssh/config"},
        {"$HOME/.ssh/*", "/home/u/.ssh/*"},
        {"${HOME}/x", "/home/u/x"},
        {"~\\x", "/home/u/x"}, /* '\\' also ends the prefix */
        {"~/a/../b", "/home/u/b"},
        {"~/./a//b", "/home/u/a/b"},
        {"~/a/", "/home/u/a/"}, /* the join keeps a trailing separator */
        {"~//", "/home/u/"},
        {"~/..", "/home"},
        {"~user", "~user"},
        {"~user/x", "~user/x"},
        {"$HOMEDIR", "$HOMEDIR"},
        {"$HOMEDIR/x", "$HOMEDIR/x"},
        {"${HOME:-/tmp}", "${HOME:-/tmp}"},
        {"${HOME}x", "${HOME}x"},
        {"x/~/y", "x/~/y"},
        {"/abs/~", "/abs/~"},
        {"*", "*"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = rp_glob_expand_home(&arena, cases[i].in, &o);
        if (strcmp(got, cases[i].out) != 0)
            fprintf(stderr, "expand(%s) = %s, want %s\n", cases[i].in, got, cases[i].out);
        assert_string_equal(got, cases[i].out);
    }
    /* Nothing expands: the pattern itself comes back. */
    const char *p = "~user/x";
    assert_ptr_equal(rp_glob_expand_home(&arena, p, &o), p);
    const char *q = "~/x";
    assert_ptr_equal(rp_glob_expand_home(&arena, q, NULL), q);
    const rp_glob_opts no_home = {.home = NULL}, empty_home = {.home = ""};
    assert_string_equal(rp_glob_expand_home(&arena, "~/x", &no_home), "~/x");
    assert_string_equal(rp_glob_expand_home(&arena, "~/x", &empty_home), "~/x");
    /* win32 HOME: the host join is win32's. */
    const rp_glob_opts w = {.home = "C:\\Users\\u", .win32 = true};
    assert_string_equal(rp_glob_expand_home(&arena, "~/.ssh/config", &w),
                        "C:\\Users\\u\\.ssh\\config");
    assert_string_equal(rp_glob_expand_home(&arena, "~", &w), "C:\\Users\\u");
    assert_string_equal(rp_glob_expand_home(&arena, "$HOME\\a\\..\\b", &w), "C:\\Users\\u\\b");
}

static void test_glob_match_expands_the_pattern_only(void **unused)
{
    (void)unused;
    const rp_glob_opts o = {.home = "/home/u"};
    check_match("~/.ssh/*", "/home/u/.ssh/id_rsa", &o, true);
    check_match("$HOME/.ssh/*", "/home/u/.ssh/id_rsa", &o, true);
    check_match("${HOME}", "/home/u", &o, true);
    check_match("~/.ssh/*", "~/.ssh/id_rsa", &o, false); /* the value is never expanded */
    check_match("~user/*", "~user/x", &o, true);
    check_match("~/.ssh/*", "~/.ssh/id_rsa", NULL, true); /* no HOME: as written */
    /* Without an arena the expansion still happens (on a scratch arena). */
    assert_true(rp_glob_match(NULL, "~/x/*", "/home/u/x/y", &o));
    assert_false(rp_glob_match(NULL, "~/x/*", "~/x/y", &o));
    assert_true(rp_glob_match(NULL, "a*", "abc", NULL));
    /* The expanded form is matched as it is. */
    assert_true(rp_glob_match_expanded("~/x", "~/x", &o));
    assert_false(rp_glob_match_expanded("~/x", "/home/u/x", &o));
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static void test_glob_pathological_pattern_is_fast(void **unused)
{
    (void)unused;
    /* A backtracking regex needs exponential time here; the matcher is O(len(p) * len(v)). */
    size_t n = 200000;
    char *v = malloc(n + 2);
    memset(v, 'a', n);
    v[n] = '\0';
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_false(rp_glob_match_expanded("*a*a*a*a*a*a*a*a*a*a*b", v, NULL));
    assert_false(rp_glob_match_expanded("*a?a*a?a*a*?*a*a*a*?b *", v, NULL));
    v[n] = 'b';
    v[n + 1] = '\0';
    assert_true(rp_glob_match_expanded("*a*a*a*a*a*a*a*a*a*a*b", v, NULL));
    v[n] = '\0';
    assert_false(
        rp_glob_could_match("*a*a*a*a*a*b", "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a", false, NULL));
    double s = seconds_since(&t0);
    if (s > 5.0)
        fprintf(stderr, "pathological matches took %.2f s\n", s);
    assert_true(s < 5.0);
    free(v);
}

/* ---- shell globs ---- */

static void test_shell_glob_has_meta(void **unused)
{
    (void)unused;
    assert_true(rp_glob_has_meta("*.env"));
    assert_true(rp_glob_has_meta(".en?"));
    assert_true(rp_glob_has_meta("/etc/[p]asswd"));
    assert_true(rp_glob_has_meta("[.]env"));
    assert_false(rp_glob_has_meta("/etc/passwd"));
    assert_false(rp_glob_has_meta("a[b"));  /* no closing ']' */
    assert_false(rp_glob_has_meta("a]b[")); /* ']' before '[' */
    assert_false(rp_glob_has_meta(""));
    assert_false(rp_glob_has_meta("{a,b}"));
}

static void test_shell_glob_literal(void **unused)
{
    (void)unused;
    assert_string_equal(rp_glob_literal(&arena, "/etc/[p]asswd"), "/etc/passwd");
    assert_string_equal(rp_glob_literal(&arena, "[.]env"), ".env");
    assert_string_equal(rp_glob_literal(&arena, "/e[t]c/[p][a]sswd"), "/etc/passwd");
    assert_string_equal(rp_glob_literal(&arena, "[]]x"), "]x");     /* ']' first: member */
    assert_string_equal(rp_glob_literal(&arena, "[[]x"), "[x");     /* '[' as a member */
    assert_string_equal(rp_glob_literal(&arena, "[[=a=]]b"), "ab"); /* equivalence class */
    assert_string_equal(rp_glob_literal(&arena, "[.-.]x"), ".x");   /* a one-char range */
    assert_string_equal(rp_glob_literal(&arena, "\\[p]x"), "[p]x"); /* escaped: no class */
    assert_string_equal(rp_glob_literal(&arena, "a\\*b"), "a*b");
    assert_string_equal(rp_glob_literal(&arena, "[\xc3\xa9]t\xc3\xa9"), "\xc3\xa9t\xc3\xa9");
    assert_string_equal(rp_glob_literal(&arena, "plain"), "plain");
    assert_string_equal(rp_glob_literal(&arena, "a[b"), "a[b");     /* unterminated: literal */
    assert_string_equal(rp_glob_literal(&arena, "a[/]b"), "a[/]b"); /* '/' ends it */
    assert_null(rp_glob_literal(&arena, "*.env"));
    assert_null(rp_glob_literal(&arena, ".en?"));
    assert_null(rp_glob_literal(&arena, "[ab]c"));
    assert_null(rp_glob_literal(&arena, "[!a]c"));
    assert_null(rp_glob_literal(&arena, "[^a]c"));
    assert_null(rp_glob_literal(&arena, "[a-c]"));
    assert_null(rp_glob_literal(&arena, "[[:alpha:]]"));
    assert_null(rp_glob_literal(&arena, "[[:]x"));  /* '[' and ':' (no "[:…:]") */
    assert_null(rp_glob_literal(&arena, "[=a=]b")); /* '=', 'a', '=' */
}

static void test_could_match_brackets_are_seen_through(void **unused)
{
    (void)unused;
    COULD("/etc/passwd", "/etc/[p]asswd");
    COULD("/etc/passwd", "/etc/pass[w]d");
    COULD("/etc/passwd", "/etc/[a-z]asswd");
    COULD("/etc/passwd", "/etc/[!x]asswd");
    COULD("/etc/passwd", "/etc/[^x]asswd");
    COULDNT("/etc/passwd", "/etc/[!p]asswd");
    COULDNT("/etc/passwd", "/etc/[^p]asswd");
    COULDNT("/etc/passwd", "/etc/[a-o]asswd");
    COULD("/etc/passwd", "/etc/[[:lower:]]asswd");
    COULDNT("/etc/passwd", "/etc/[[:digit:]]asswd");
    COULD("/x/]", "/x/[]]"); /* ']' first is a member */
    COULD("/x/a", "/x/[]a]");
    COULDNT("/x/b", "/x/[]a]");
    COULD("/x/b", "/x/[!]a]");
    COULD("/x/-", "/x/[a-]");    /* '-' last is a member */
    COULD("/x/[p]", "/x/\\[p]"); /* escaped '[': no class */
    COULDNT("/x/p", "/x/\\[p]");
    COULD("/x/a[b", "/x/a[b"); /* unterminated: literal */
    COULD("a[/]b", "a[/]b");   /* a '/' inside: no class (bash splits at '/') */
    COULDNT("a/b", "a[/]b");
    COULD("/x/*", "/x/\\*");     /* an escaped star is a literal star... */
    COULDNT("/x/ab", "/x/a\\*"); /* ...that cannot be "b" */
    COULD("/x/a*", "/x/a\\*");
    COULDNT("/x/cb", "/x/[z-a]b"); /* a reversed range is empty */
}

static void test_could_match_wildcards(void **unused)
{
    (void)unused;
    COULD("*.env", ".en?"); /* #822: the glob dodged the deny in the reference */
    COULD("*.env", "/w/p/.en?");
    COULD("*.env", "/w/p/*.env");
    COULD("*.env", "/w/p/*");
    COULDNT("*.env", "*.ts");
    COULDNT("*.env", "/w/p/*.ts");
    COULD("/w/p/src/*", "/w/p/src/*.ts");
    COULD("/w/*", "/w/p/src/*.ts"); /* the pattern's star crosses '/' */
    COULDNT("/w/p/*.ts", "/w/p/src/*.js");
    COULD("*", "");
    COULDNT("a", "");
    COULD("", "");
    COULDNT("", "*?"); /* '?' is one character */
    COULD("", "*");    /* '*' may produce nothing */
    COULD("/w/a", "/w/?");
    COULDNT("/w/ab", "/w/?");
    COULD("/w/ab", "/w/??");
    COULD("/w/caf\xc3\xa9", "/w/caf?"); /* '?' is a whole UTF-8 character on both sides */
    COULD("/w/caf?", "/w/caf\xc3\xa9");
    COULD("/w/caf\xc3\xa9", "/w/caf[\xc3\xa9]");
    /* Not UTF-8: bash matches bytes, which may join into characters ("\xcf" + "\xb2" is one):
     * the answer is "could", whatever the pattern. */
    COULD("/w/\xcf\xb2", "/w/\xcf[\xb2]");
    COULD("/nothing/alike", "/w/\xff*");
    COULDNT("/nothing/alike", "/w/\xc3\xa9*");
}

static void test_could_match_never_produces_slash(void **unused)
{
    (void)unused;
    COULDNT("/etc/a/b", "/etc/*");
    COULD("/etc/a/b", "/etc/*/b");
    COULD("/etc/a/b", "/etc/*/*");
    COULDNT("/etc/a/b", "/etc/a?b");
    COULDNT("/etc/a/b", "/etc/a[/]b");
    COULDNT("/etc/a/b", "/etc/a[!x]b");
    COULD("/etc/*", "/etc/a/b"); /* the pattern side may */
    COULD("/e?c/*", "/e*c/x");
}

static void test_could_match_leading_dot_must_be_literal(void **unused)
{
    (void)unused;
    COULDNT(".env", "*");
    COULDNT(".env", "?env");
    COULDNT(".env", "[.]env");
    COULDNT(".env", "*.env"); /* '*' at the start cannot yield nothing and then a '.' */
    COULDNT(".env", "**.env");
    COULDNT("/w/.env", "/w/*");
    COULDNT("/w/.env", "/w/*env");
    COULDNT("/w/.env", "/w/[!a]env");
    COULDNT("*/.env", "/w/*");
    COULD("/w/.env", "/w/.*");
    COULD("/w/.env", "/w/.en?");
    COULD("/w/.env", "/w/\\.env"); /* an escaped '.' is still a literal one */
    COULD("/w/x.env", "/w/*.env"); /* only the first character of a component */
    COULD("/w/a.b.env", "/w/a*");
    COULD("/w/a/.x", "/w/*/.x");
    COULD("/w/a/.x", "/w/?/.*");
    COULD("/w/..", "/w/.*"); /* (bash 5.2 skips "." and ".."; counting them only adds) */
}

static void test_could_match_any_prefix(void **unused)
{
    (void)unused;
    /* "cd $DIR && cat passwd": the file is some …/passwd. */
    PCOULD("/etc/passwd", "passwd");
    PCOULD("/etc/passwd", "etc/passwd");
    PCOULD("*/.ssh/*", "id_rsa");
    PCOULD("~/.ssh/*", "x"); /* an unexpanded "~" is a literal directory name */
    PCOULDNT("/etc/passwd", "shadow");
    PCOULDNT("/etc/passwd", "asswd"); /* the token starts a component */
    PCOULDNT("passwd", "passwd");     /* something ending in '/' comes first */
    PCOULD("*passwd", "passwd");
    PCOULD("src/*", "x"); /* "src/" itself may be the prefix */
    PCOULDNT("/etc/*.conf", "*.ts");
    PCOULD("/etc/*", "*.ts");
    PCOULDNT("/w/.env", "*"); /* still a component start */
    PCOULD("/w/.env", ".e*");
    PCOULD("/a/b/c", "c");
    PCOULD("/a/b/c", "b/c");
    PCOULDNT("/a/b/c", "a/c");
    PCOULD("?", ""); /* the prefix "/" alone */
    PCOULDNT("", "");
}

static void test_could_match_fold_options(void **unused)
{
    (void)unused;
    const rp_glob_opts fold_case = {.fold_case = true};
    check_could("*.ENV", "/w/*.env", false, NULL, false);
    check_could("*.ENV", "/w/*.env", false, &fold_case, true);
    check_could("*.env", "/w/*.E[N]V", false, &fold_case, true);
    check_could("/w/A", "/w/[a]", false, &fold_case, true); /* a case variant of the member */
    check_could("/w/A", "/w/[a]", false, NULL, false);
    check_could("/w/a", "/w/[!A]", false, NULL, true);
    check_could("/w/b", "/w/[a-c]", false, &fold_case, true);
    check_could("/w/B", "/w/[a-c]", false, &fold_case, true);
    /* win32 values come with '\\' separators: they are separators, not escapes. */
    check_could("C:/Users/*/.ssh/*", "c:\\users\\u\\.ssh\\*", false, &win_fold, true);
    check_could("C:/Users/u/.ssh/*", "c:\\users\\*\\.ssh\\id_rsa", false, &win_fold, true);
    check_could("C:/Users/u/x/y", "c:\\users\\u\\*", false, &win_fold, false); /* no '\\' from * */
    check_could("C:/Users/u/.env", "c:\\users\\u\\*", false, &win_fold, false);
    check_could("*.ENV", "c:\\w\\.en?", false, &win_fold, true);
    check_could("C:\\w\\*", "c:/w/x", false, &win_fold, true);
    check_could("C:/w/x/id", "id", true, &win_fold, true);
    check_could("C:/w/x\\id", "id", true, &win_fold, true);
}

static void test_could_match_trailing_space_star(void **unused)
{
    (void)unused;
    COULD("git *", "gi?");
    COULD("git *", "git");
    COULD("git *", "g*");
    COULDNT("git **", "gi?");
    COULD("git **", "gi? x");
}

/* A token without shell metacharacters expands to itself: could_match is then match. */
static void test_could_match_agrees_with_match_on_plain_tokens(void **unused)
{
    (void)unused;
    const char *patterns[] = {"*",        "*.env", "/etc/*", "git *", "src?x", "a*b?c",
                              "/w/p/.en", "?.env", ".env",   "",      "/a/b/", "* *"};
    const char *tokens[] = {"/etc/passwd", ".env", "/w/p/.env", "git",   "git x", "src/x",
                            "a/b/c",       "",     "x.env",     "/a/b/", "axbyc", "a b"};
    const rp_glob_opts *opts[] = {NULL, &win_fold};
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++)
            for (size_t j = 0; j < sizeof tokens / sizeof tokens[0]; j++) {
                bool m = rp_glob_match_expanded(patterns[i], tokens[j], opts[k]);
                check_could(patterns[i], tokens[j], false, opts[k], m);
            }
}

/* ---- against an independent model: glibc fnmatch(FNM_PATHNAME | FNM_PERIOD) ---- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

static void gen(char *out, const char *alphabet, unsigned maxlen)
{
    unsigned n = rnd(maxlen + 1), k = (unsigned)strlen(alphabet);
    for (unsigned i = 0; i < n; i++)
        out[i] = alphabet[rnd(k)];
    out[n] = '\0';
}

typedef struct brute {
    const char *pattern, *token;
    char alphabet[24];
    char cand[16];
    unsigned maxlen;
} brute;

/* Whether some string of up to maxlen characters of the alphabet is both an expansion of the
 * token and matched by the pattern. */
static bool brute_search(brute *b, unsigned pos)
{
    b->cand[pos] = '\0';
    if (fnmatch(b->token, b->cand, FNM_PATHNAME | FNM_PERIOD) == 0 &&
        rp_glob_match_expanded(b->pattern, b->cand, NULL))
        return true;
    if (pos == b->maxlen)
        return false;
    for (const char *c = b->alphabet; *c; c++) {
        b->cand[pos] = *c;
        if (brute_search(b, pos + 1))
            return true;
    }
    return false;
}

static void add_chars(char *alphabet, const char *s)
{
    for (; *s; s++)
        if (strchr(alphabet, *s) == NULL) {
            size_t n = strlen(alphabet);
            alphabet[n] = *s;
            alphabet[n + 1] = '\0';
        }
}

/* Where bash and glibc part ways (an unterminated '[', a '/' inside brackets, a trailing or
 * slash-escaping backslash), glibc is no model of bash: such tokens are not compared. */
static bool comparable(const char *tok)
{
    size_t n = strlen(tok);
    if (n > 0 && tok[n - 1] == '\\')
        return false;
    if (strstr(tok, "\\/") != NULL)
        return false;
    for (const char *lb = strchr(tok, '['); lb; lb = strchr(lb + 1, '[')) {
        const char *rb = strchr(lb + 1, ']');
        if (rb == NULL)
            return false;
        for (const char *q = lb; q < rb; q++)
            if (*q == '/')
                return false;
    }
    return true;
}

static void test_could_match_agrees_with_fnmatch(void **unused)
{
    (void)unused;
    int compared = 0, possible = 0;
    char pattern[8], token[8];
    while (compared < 600) {
        gen(pattern, "ab./*? ", 4);
        gen(token, "ab./*?[]!-\\", 4);
        if (!comparable(token))
            continue;
        brute b = {.pattern = pattern, .token = token, .alphabet = "z/", .maxlen = 5};
        add_chars(b.alphabet, pattern);
        add_chars(b.alphabet, token);
        bool want = brute_search(&b, 0);
        bool got = rp_glob_could_match(pattern, token, false, NULL);
        if (got != want)
            fprintf(stderr, "could_match(%s, %s) = %d, fnmatch search says %d\n", pattern, token,
                    got, want);
        assert_int_equal(got, want);
        compared++;
        possible += want;
    }
    assert_true(possible > 30); /* the comparison is not all "no" */
}

static void test_could_match_long_inputs(void **unused)
{
    (void)unused;
    size_t n = 3000;
    char *p = malloc(n + 1), *t = malloc(n + 1);
    for (size_t i = 0; i < n; i++) {
        p[i] = i % 3 == 0 ? '*' : 'a';
        t[i] = i % 5 == 0 ? '?' : (i % 7 == 0 ? '*' : 'a');
    }
    p[n] = t[n] = '\0';
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_true(rp_glob_could_match(p, t, false, NULL));
    assert_true(rp_glob_could_match(p, t, true, NULL));
    t[n - 1] = '/';
    assert_false(rp_glob_could_match("*a", t, false, NULL));
    assert_true(seconds_since(&t0) < 5.0);
    free(p);
    free(t);
}

static int teardown(void **unused)
{
    (void)unused;
    rp_arena_free(&arena);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_glob_star_matches_any_sequence, teardown),
        cmocka_unit_test_teardown(test_glob_double_star_is_star, teardown),
        cmocka_unit_test_teardown(test_glob_question_is_one_character, teardown),
        cmocka_unit_test_teardown(test_glob_other_characters_are_literal, teardown),
        cmocka_unit_test_teardown(test_glob_anchored_at_both_ends, teardown),
        cmocka_unit_test_teardown(test_glob_trailing_space_star_is_optional, teardown),
        cmocka_unit_test_teardown(test_glob_fold_options, teardown),
        cmocka_unit_test_teardown(test_glob_home_expansion_forms, teardown),
        cmocka_unit_test_teardown(test_glob_match_expands_the_pattern_only, teardown),
        cmocka_unit_test_teardown(test_glob_pathological_pattern_is_fast, teardown),
        cmocka_unit_test_teardown(test_shell_glob_has_meta, teardown),
        cmocka_unit_test_teardown(test_shell_glob_literal, teardown),
        cmocka_unit_test_teardown(test_could_match_brackets_are_seen_through, teardown),
        cmocka_unit_test_teardown(test_could_match_wildcards, teardown),
        cmocka_unit_test_teardown(test_could_match_never_produces_slash, teardown),
        cmocka_unit_test_teardown(test_could_match_leading_dot_must_be_literal, teardown),
        cmocka_unit_test_teardown(test_could_match_any_prefix, teardown),
        cmocka_unit_test_teardown(test_could_match_fold_options, teardown),
        cmocka_unit_test_teardown(test_could_match_trailing_space_star, teardown),
        cmocka_unit_test_teardown(test_could_match_agrees_with_match_on_plain_tokens, teardown),
        cmocka_unit_test_teardown(test_could_match_agrees_with_fnmatch, teardown),
        cmocka_unit_test_teardown(test_could_match_long_inputs, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
