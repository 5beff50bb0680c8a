/* bench_redact.c — the cost of masking every decision text (issue 16, point 7): rp_redact_text
 * on typical reasons, and what the first text of a process pays to load the scanner.
 *
 *   bench_redact [ITERATIONS]      default 200000
 *
 * The first call opens the scanner from the on-disk cache ($RAMPART_CACHE_DIR, warmed by one
 * child process first, so the figure is a hook process's, not a compile). Then each reason is
 * redacted ITERATIONS times into an arena reset per call, as the engine does per decision;
 * the figure is process CPU time per call. A decision without a reason (an ALLOW) costs
 * nothing: rp_redact_text returns at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/arena.h"
#include "scan/redact.h"

static double cpu_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static double wall_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
    long iterations = argc > 1 ? atol(argv[1]) : 200000;
    if (getenv("RAMPART_CACHE_DIR") == NULL) {
        static char dir[] = "/tmp/rampart-bench-redact-XXXXXX";
        if (mkdtemp(dir) == NULL)
            return 1;
        setenv("RAMPART_CACHE_DIR", dir, 1);
    }
    /* Warm the cache in a child, so this process loads rather than compiles. */
    pid_t pid = fork();
    if (pid == 0) {
        rp_arena a = {0};
        rp_redact_text(&a, "warm");
        _exit(0);
    }
    waitpid(pid, NULL, 0);

    rp_arena a = {0};
    double t0 = wall_us();
    rp_redact_text(&a, "first text of the process");
    printf("first call (scanner loaded from the cache): %.0f us\n", wall_us() - t0);

    /* A secret built at run time, so that none sits in the source. */
    char token[64];
    snprintf(token, sizeof token, "%s%s", "xoxb-",
             "1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx");
    char with_secret[256];
    snprintf(with_secret, sizeof with_secret,
             "Blocked by the blast-radius policy. (irreversible: 'rm -rf / %s')", token);
    const char *reasons[][2] = {
        {"short, clean", "Tool call limit reached (50/50)."},
        {"blast_radius, clean",
         "blast: High-blast-radius command needs approval: 'rm -rf build/ && make -j8'"},
        {"blast_radius, a token", with_secret},
        {"cost budget, clean",
         "alice@example.com's spend today $6.00 passed the $5.00 daily warning threshold (daily "
         "limit $10.00). Continue?"},
    };
    for (size_t r = 0; r < sizeof reasons / sizeof reasons[0]; r++) {
        double c0 = cpu_us();
        for (long i = 0; i < iterations; i++) {
            rp_arena_reset(&a);
            if (rp_redact_text(&a, reasons[r][1]) == NULL)
                return 1;
        }
        double per = (cpu_us() - c0) / (double)iterations;
        printf("%-24s %4zu bytes: %.2f us per reason\n", reasons[r][0], strlen(reasons[r][1]), per);
    }
    rp_arena_free(&a);
    return 0;
}
