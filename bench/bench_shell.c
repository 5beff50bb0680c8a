/* bench_shell.c — the shell parser alone: ~20 realistic commands (git, npm, pipelines, bash -c,
 * here-docs, wrappers), parsed 1M times in total with one arena reset per command, as a policy
 * evaluation would. Reports ns per command and ns per byte.
 *
 * Usage: bench_shell [TOTAL_PARSES] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/arena.h"
#include "shell/shell.h"

static const char *const commands[] = {
    "git status --short",
    "git log --oneline -n 20 --format='%h %s'",
    "git commit -m \"fix: handle empty input (closes #12)\"",
    "git push origin feature/login",
    "git -C ../other fetch --all --prune",
    "npm install --save-dev typescript@5",
    "npm test -- --watch=false",
    "npm run build && npm run lint",
    "ls -la src | grep -v '^total' | wc -l",
    "find . -name '*.o' -exec rm -f {} \\;",
    "cat package.json | jq '.dependencies | keys[]'",
    "bash -c 'cd /tmp && make clean all'",
    "sudo -u deploy -- systemctl restart app.service",
    "timeout 30 pytest tests/ -q -x 2>&1 | tail -n 50",
    "for f in *.txt; do wc -l \"$f\"; done",
    "cat <<'EOF' > notes.md\n# Notes\nsome $(text) here\nEOF",
    "docker run --rm -v \"$PWD\":/src -w /src node:20 npm ci",
    "export PATH=\"$HOME/.local/bin:$PATH\"; python3 -m pip install -r requirements.txt",
    "curl -fsSL https://example.com/install.sh | sh",
    "echo \"rm -rf /\" >> log.txt && rm -rf ./build",
};

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long total = argc > 1 ? atol(argv[1]) : 1000000;
    size_t n = sizeof commands / sizeof commands[0];
    size_t lens[sizeof commands / sizeof commands[0]];
    size_t bytes_per_round = 0;
    for (size_t i = 0; i < n; i++) {
        lens[i] = strlen(commands[i]);
        bytes_per_round += lens[i];
    }
    rp_arena arena;
    rp_arena_init(&arena, 1 << 16);
    struct rp_sh_parse p;
    size_t sink = 0;
    for (size_t i = 0; i < n; i++) { /* warm up, and check they all read */
        rp_arena_reset(&arena);
        if (rp_sh_parse(&arena, commands[i], lens[i], &p) != 0) {
            fprintf(stderr, "bench_shell: unreadable: %s (%s)\n", commands[i], p.error);
            return 1;
        }
    }
    long rounds = total / (long)n;
    double start = now_ns();
    for (long r = 0; r < rounds; r++) {
        for (size_t i = 0; i < n; i++) {
            rp_arena_reset(&arena);
            rp_sh_parse(&arena, commands[i], lens[i], &p);
            sink += p.n_commands;
        }
    }
    double elapsed = now_ns() - start;
    double parses = (double)rounds * (double)n;
    printf("bench_shell: %zu commands, %.0f parses, avg %.1f bytes/command\n", n, parses,
           (double)bytes_per_round / (double)n);
    printf("  %.1f ns per command, %.2f ns per byte (%zu commands listed per round)\n",
           elapsed / parses, elapsed / ((double)rounds * (double)bytes_per_round),
           sink / (size_t)rounds);

    /* One typical 80-byte command on its own (the yardstick). */
    const char *typical =
        "git add -A && git commit -m \"fix: parse empty input\" && git push -q origin "
        "2>&1 | tail -3";
    size_t typical_len = strlen(typical);
    start = now_ns();
    for (long r = 0; r < total; r++) {
        rp_arena_reset(&arena);
        rp_sh_parse(&arena, typical, typical_len, &p);
        sink += p.n_commands;
    }
    elapsed = now_ns() - start;
    printf("  typical %zu-byte command: %.1f ns per parse\n", typical_len, elapsed / (double)total);
    rp_arena_free(&arena);
    return sink == 0;
}
