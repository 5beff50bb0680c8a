/* blast_fallback.c — blast_radius's reading of a command the parser cannot read (unbalanced
 * quotes, an unterminated substitution): the reference's own splitter (§5.13), made no weaker.
 *
 * Statements split on && || ; | and newline; words split on whitespace with quote characters
 * dropped (the command is broken, so the quotes mean nothing reliable); env assignments and sudo
 * with its options are skipped; the program is matched by basename; then the rm and git push
 * rules and the reference's regexes over the whole text. The caller adds risky_action when the
 * text still mentions rm, git push, mkfs or dd. */
#include <ctype.h>
#include <string.h>

#include "policies/shell/blast_radius.h"
#include "shell/git.h"

#define MAX_TOKENS 256

static bool streq(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

static bool is_word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Whether `w` occurs at s[at] as a whole word (\bw\b). */
static bool word_at(const char *s, size_t len, size_t at, const char *w)
{
    size_t n = strlen(w);
    if (at + n > len || strncmp(s + at, w, n) != 0)
        return false;
    if (at > 0 && is_word_char(s[at - 1]))
        return false;
    return at + n == len || !is_word_char(s[at + n]);
}

/* First position >= from where `w` occurs as a word, or len. */
static size_t find_word(const char *s, size_t len, size_t from, const char *w)
{
    for (size_t i = from; i < len; i++)
        if (word_at(s, len, i, w))
            return i;
    return len;
}

static size_t skip_spaces(const char *s, size_t len, size_t i)
{
    while (i < len && is_space(s[i]))
        i++;
    return i;
}

/* \bgit\b.*\breset\s+--hard\s+\w+/ */
static bool matches_hard_reset_to_remote(const char *s, size_t len)
{
    size_t git = find_word(s, len, 0, "git");
    if (git == len)
        return false;
    for (size_t r = find_word(s, len, git + 3, "reset"); r < len;
         r = find_word(s, len, r + 1, "reset")) {
        size_t i = r + 5, j = skip_spaces(s, len, i);
        if (j == i || strncmp(s + j, "--hard", 6) != 0)
            continue;
        i = j + 6;
        j = skip_spaces(s, len, i);
        if (j == i)
            continue;
        size_t k = j;
        while (k < len && is_word_char(s[k]))
            k++;
        if (k > j && k < len && s[k] == '/')
            return true;
    }
    return false;
}

/* \bgh\s+(pr\s+merge|release|repo\s+delete)\b */
static bool matches_gh(const char *s, size_t len)
{
    for (size_t g = find_word(s, len, 0, "gh"); g < len; g = find_word(s, len, g + 1, "gh")) {
        size_t i = skip_spaces(s, len, g + 2);
        if (i == g + 2)
            continue;
        if (word_at(s, len, i, "release"))
            return true;
        const char *pairs[][2] = {{"pr", "merge"}, {"repo", "delete"}};
        for (size_t p = 0; p < 2; p++) {
            if (!word_at(s, len, i, pairs[p][0]))
                continue;
            size_t j = i + strlen(pairs[p][0]), k = skip_spaces(s, len, j);
            if (k > j && word_at(s, len, k, pairs[p][1]))
                return true;
        }
    }
    return false;
}

/* \b(kubectl|helm|terraform|databricks)\b.*\b(apply|deploy|destroy|delete)\b */
static bool matches_infra(const char *s, size_t len)
{
    static const char *const tools[] = {"kubectl", "helm", "terraform", "databricks"};
    static const char *const verbs[] = {"apply", "deploy", "destroy", "delete"};
    size_t first = len;
    for (size_t t = 0; t < 4; t++) {
        size_t at = find_word(s, len, 0, tools[t]);
        if (at < first)
            first = at;
    }
    if (first == len)
        return false;
    for (size_t v = 0; v < 4; v++)
        if (find_word(s, len, first + 1, verbs[v]) < len)
            return true;
    return false;
}

bool rp_blast_mentions_guarded(const char *command)
{
    size_t len = strlen(command);
    if (find_word(command, len, 0, "rm") < len || find_word(command, len, 0, "dd") < len)
        return true;
    for (size_t i = 0; i + 4 <= len; i++)
        if (strncmp(command + i, "mkfs", 4) == 0 && (i == 0 || !is_word_char(command[i - 1])))
            return true;
    size_t git = find_word(command, len, 0, "git");
    return git < len && find_word(command, len, git + 3, "push") < len;
}

/* Whitespace words of s[0..n) with quotes and backslashes dropped. */
static size_t split_words(rp_arena *a, const char *s, size_t n, const char **out)
{
    size_t count = 0;
    for (size_t i = 0; i < n && count < MAX_TOKENS;) {
        while (i < n && is_space(s[i]))
            i++;
        if (i >= n)
            break;
        char *w = rp_arena_alloc(a, n - i + 1);
        size_t len = 0;
        for (; i < n && !is_space(s[i]); i++)
            if (s[i] != '\'' && s[i] != '"' && s[i] != '\\')
                w[len++] = s[i];
        w[len] = '\0';
        out[count++] = w;
    }
    return count;
}

static bool is_assignment(const char *t)
{
    if (!(isalpha((unsigned char)t[0]) || t[0] == '_'))
        return false;
    size_t i = 1;
    while (is_word_char(t[i]))
        i++;
    return t[i] == '=';
}

static bool sudo_takes_value(const char *t)
{
    static const char *const opts[] = {
        "-C",      "-D",      "-g",           "-h",           "-p",
        "-R",      "-r",      "-T",           "-t",           "-U",
        "-u",      "--chdir", "--chroot",     "--close-from", "--command-timeout",
        "--group", "--host",  "--other-user", "--prompt",     "--role",
        "--type",  "--user"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (streq(t, opts[i]))
            return true;
    return false;
}

/* The index of git's subcommand in w (w[0] is git, the words static): its global options
 * read by the one reader, shell/git.h. */
static size_t git_subcommand(rp_arena *a, const char *const *w, size_t n)
{
    rp_sh_word *words = rp_arena_calloc(a, n * sizeof *words);
    for (size_t k = 0; k < n; k++) {
        words[k].text = words[k].raw = w[k];
        words[k].len = words[k].raw_len = strlen(w[k]);
    }
    rp_sh_command c = {.words = words, .n_words = n, .program = "git"};
    rp_sh_git_globals g;
    rp_sh_git_read_globals(&c, &g);
    return g.subcommand;
}

/* Index of the program word after assignments and sudo with its options. */
static size_t skip_prefix(const char *const *w, size_t n)
{
    size_t i = 0;
    while (i < n && is_assignment(w[i]))
        i++;
    if (i < n && streq(w[i], "sudo")) {
        i++;
        while (i < n && w[i][0] == '-') {
            const char *t = w[i++];
            if (streq(t, "--"))
                break;
            if (t[1] == '-') {
                if (sudo_takes_value(t))
                    i++;
                continue;
            }
            for (const char *p = t + 1; *p; p++) {
                char opt[3] = {'-', *p, '\0'};
                if (sudo_takes_value(opt)) {
                    if (p[1] == '\0')
                        i++;
                    break;
                }
            }
        }
    }
    while (i < n && is_assignment(w[i]))
        i++;
    return i;
}

static const char *basename_of(const char *t)
{
    const char *slash = strrchr(t, '/');
    return slash != NULL && slash[1] != '\0' ? slash + 1 : t;
}

static rp_blast_severity statement_severity(rp_arena *a, const char *s, size_t n, const char *home)
{
    const char **w = rp_arena_alloc(a, MAX_TOKENS * sizeof *w);
    size_t count = split_words(a, s, n, w);
    size_t i = skip_prefix(w, count);
    if (i >= count)
        return RP_BLAST_NONE;
    const char *program = basename_of(w[i]);
    if (streq(program, "rm")) {
        bool recursive = false, catastrophic = false, after_dashes = false;
        for (size_t k = i + 1; k < count; k++) {
            const char *t = w[k];
            if (!after_dashes && streq(t, "--")) {
                after_dashes = true;
                continue;
            }
            if (!after_dashes && t[0] == '-' && t[1] != '\0') {
                recursive |= streq(t, "--recursive") || (t[1] != '-' && strpbrk(t, "rR"));
                continue;
            }
            catastrophic |= rp_blast_rm_target_catastrophic(a, t, home);
        }
        if (!recursive)
            return RP_BLAST_NONE;
        return catastrophic ? RP_BLAST_CATASTROPHIC : RP_BLAST_RISKY;
    }
    if (streq(program, "git")) {
        size_t k = i + git_subcommand(a, w + i, count - i);
        if (k < count && streq(w[k], "push"))
            return rp_blast_push_args(w + k + 1, count - k - 1);
    }
    return RP_BLAST_NONE;
}

rp_blast_severity rp_blast_fallback(rp_arena *a, const char *command, const char *home)
{
    size_t len = strlen(command);
    rp_blast_severity worst = RP_BLAST_NONE;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        size_t sep = 0;
        if (i == len || command[i] == ';' || command[i] == '\n')
            sep = 1;
        else if ((command[i] == '&' || command[i] == '|') && i + 1 < len &&
                 command[i + 1] == command[i])
            sep = 2;
        else if (command[i] == '|')
            sep = 1;
        if (sep == 0)
            continue;
        rp_blast_severity s = statement_severity(a, command + start, i - start, home);
        if (s > worst)
            worst = s;
        i += sep - 1;
        start = i + 1;
    }
    if (matches_hard_reset_to_remote(command, len))
        worst = RP_BLAST_CATASTROPHIC;
    if (worst < RP_BLAST_RISKY && (matches_gh(command, len) || matches_infra(command, len)))
        worst = RP_BLAST_RISKY;
    return worst;
}
