/* test_shell_patch.c — the one reader of a patch's files (shell/patch.h): Codex apply_patch
 * headers as codex-rs/apply-patch/src/parser.rs reads them (each line trimmed with Rust's
 * str::trim, "*** Move to: " matched untrimmed right after an Update header, \r\n lines, the
 * lenient heredoc wrapping), unified-diff file lines, and where the reader is deliberately
 * wider than Codex (a header behind a space inside a hunk, no space after the colon). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/buf.h"
#include "shell/patch.h"

#define BOTH (RP_SH_PATCH_HEADERS | RP_SH_PATCH_DIFF)

/* The targets as "K path" lines, K one of A U D M - +. */
static void expect_targets(const char *text, unsigned what, const char *want)
{
    static const char kinds[] = "AUDM-+";
    rp_arena a;
    rp_arena_init(&a, 0);
    rp_sh_patch_target *t;
    size_t n = rp_sh_patch_targets(&a, text, what, &t);
    rp_buf b = {0};
    for (size_t i = 0; i < n; i++) {
        assert_true(t[i].path[0] != '\0');
        rp_buf_putc(&b, kinds[t[i].kind]);
        rp_buf_putc(&b, ' ');
        rp_buf_puts(&b, t[i].path);
        rp_buf_putc(&b, '\n');
    }
    assert_string_equal(b.data ? b.data : "", want);
    rp_buf_free(&b);
    rp_arena_free(&a);
}

static void test_headers(void **state)
{
    (void)state;
    expect_targets("*** Begin Patch\n*** Add File: a.txt\n+hi\n*** Update File: b.txt\n@@\n-x\n+y\n"
                   "*** Delete File: c.txt\n*** End Patch\n",
                   RP_SH_PATCH_HEADERS, "A a.txt\nU b.txt\nD c.txt\n");
    expect_targets("", BOTH, "");
    expect_targets("*** Begin Patch\n*** End Patch", BOTH, "");
}

/* Codex trims each hunk header line (parse_one_hunk: `lines[0].trim()`), with Unicode
 * White_Space: the bypass of issue 17 was a reader that did not. */
static void test_header_trimmed(void **state)
{
    (void)state;
    expect_targets("   *** Update File: /etc/passwd\n", BOTH, "U /etc/passwd\n");
    expect_targets("\t*** Add File: x  \t\n", BOTH, "A x\n");
    expect_targets("\xe2\x80\x83*** Delete File: x\xc2\xa0\n", BOTH, "D x\n"); /* em, nbsp */
    expect_targets("*** Update File: x\r\n*** Add File: y\r\n", BOTH, "U x\nA y\n");
    expect_targets("*** Update File: x\r", BOTH, "U x\n");
}

/* Codex's path is the text after "*** Add File: " on the trimmed line, so a second space is
 * part of it: both readings are listed, the trimmed one first. */
static void test_exact_path(void **state)
{
    (void)state;
    expect_targets("*** Add File:  /etc/x\n", BOTH, "A /etc/x\nA  /etc/x\n");
    /* No space after the colon: Codex rejects the hunk; listed anyway (wider, safe). */
    expect_targets("*** Add File:/etc/x\n*** Update File:\t/etc/y\n", BOTH, "A /etc/x\nU /etc/y\n");
}

/* "*** Move to: " is matched on the untrimmed line (Codex: `strip_prefix(MOVE_TO_MARKER)` on
 * the line after an Update header), so its path keeps trailing whitespace; an indented one
 * is listed too although Codex would read it as hunk content. */
static void test_move(void **state)
{
    (void)state;
    expect_targets("*** Update File: a\n*** Move to: b\n", BOTH, "U a\nM b\n");
    expect_targets("*** Update File: a\n*** Move to: b \n", BOTH, "U a\nM b\nM b \n");
    expect_targets("*** Update File: a\n  *** Move to: /etc/b\n", BOTH, "U a\nM /etc/b\n");
    expect_targets("*** Move to: c\n", BOTH, "M c\n");
}

/* An empty path is no target (Codex rejects the hunk); `*** Move to: ` matched untrimmed can
 * leave a path of spaces, which Codex would write (a file named " "), so that one is listed. */
static void test_empty_path(void **state)
{
    (void)state;
    expect_targets("*** Add File:\n*** Update File: \n*** Delete File:\t \n*** Move to: \n", BOTH,
                   "");
    expect_targets("*** Move to:  \n", BOTH, "M  \n");
}

/* A '+' line is content in both Codex hunk kinds; a ' ' line is content in an update hunk
 * but a header after an Add hunk (whose content lines all start with '+'): listed always. */
static void test_content_lines(void **state)
{
    (void)state;
    expect_targets("*** Add File: a\n+*** Update File: /etc/x\n", RP_SH_PATCH_HEADERS, "A a\n");
    expect_targets("*** Update File: a\n@@\n-*** Delete File: /etc/x\n", RP_SH_PATCH_HEADERS,
                   "U a\n");
    expect_targets("*** Update File: a\n@@\n *** Update File: /etc/x\n", RP_SH_PATCH_HEADERS,
                   "U a\nU /etc/x\n");
    expect_targets("*** Add File: a\n+x\n  *** Add File: /etc/x\n+y\n", RP_SH_PATCH_HEADERS,
                   "A a\nA /etc/x\n");
}

/* Codex's lenient mode strips `<<'EOF'` … `EOF` around the patch; the markers are no headers. */
static void test_heredoc(void **state)
{
    (void)state;
    expect_targets("<<'EOF'\n*** Begin Patch\n  *** Update File: /etc/passwd\n@@\n-a\n+b\n"
                   "*** End Patch\nEOF\n",
                   BOTH, "U /etc/passwd\n");
    expect_targets("apply_patch <<\"EOF\"\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF",
                   RP_SH_PATCH_HEADERS, "D x\n");
}

static void test_unified_diff(void **state)
{
    (void)state;
    expect_targets("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", BOTH,
                   "- x\n+ x\n");
    expect_targets("--- /dev/null\n+++ b/new.c\t2024-01-01 10:00:00\n", BOTH, "+ new.c\n");
    expect_targets("--- a/old \r\n+++ /dev/null\r\n", BOTH, "- old\n");
    expect_targets("---  b/x\n+++ \n", BOTH, "- b/x\n- x\n");
    /* Any first component is dropped by git apply / patch -p1, not only a/ and b/. */
    expect_targets("--- w/.git/hooks/pre-commit\n+++ i/src/x.c\n", BOTH,
                   "- w/.git/hooks/pre-commit\n- .git/hooks/pre-commit\n+ i/src/x.c\n+ src/x.c\n");
    /* Indented, as GNU patch accepts it: wider than the old reader. */
    expect_targets("    --- a/x\n    +++ b/y\n", BOTH, "- x\n+ y\n");
    /* Only when asked for. */
    expect_targets("--- a/x\n+++ b/x\n", RP_SH_PATCH_HEADERS, "");
    expect_targets("*** Add File: a\n", RP_SH_PATCH_DIFF, "");
    expect_targets("----\n+++\n", BOTH, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_headers),    cmocka_unit_test(test_header_trimmed),
        cmocka_unit_test(test_exact_path), cmocka_unit_test(test_move),
        cmocka_unit_test(test_empty_path), cmocka_unit_test(test_content_lines),
        cmocka_unit_test(test_heredoc),    cmocka_unit_test(test_unified_diff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
