/* hook_deadline.c — the timer behind `rampart hook`'s deadline (hook_deadline.h). */
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "hosts/hook_deadline.h"

#define ANSWER_MAX 65536

static char fallback_out[ANSWER_MAX], fallback_err[ANSWER_MAX];
static size_t fallback_out_len, fallback_err_len;
static int fallback_exit;
static volatile sig_atomic_t answered;
static struct timespec started;
static int started_set;
static int64_t armed_ms = -1; /* after `started`; -1: not armed */

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

/* Every signal whose default action ends the process and that another process, a limit or a
 * terminal sends (the kernel's own for a fault are crash_signals below): a host or supervisor
 * that kills its hook, a CPU limit, a closed terminal. Each gets the prepared answer, not a
 * silent death after which the host runs the tool (issue 16). SIGKILL and SIGSTOP cannot be
 * caught; SIGXFSZ and SIGPIPE are ignored instead (a failed write is an error that fails closed;
 * a closed stdout means no one is left to answer). */
static const int kill_signals[] = {SIGTERM, SIGXCPU, SIGHUP,    SIGINT,  SIGQUIT,  SIGUSR1,
                                   SIGUSR2, SIGPWR,  SIGVTALRM, SIGPROF, SIGSTKFLT};

/* The signals whose handler writes the prepared answer and that can come at any time: each is
 * blocked while another runs, while the answer is replaced, and from disarm on, so that no
 * answer is torn or cut short by a second one (a torn answer reads as a hook error, and the
 * hosts then run the tool). */
static void answer_signals(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGALRM);
    for (size_t i = 0; i < sizeof kill_signals / sizeof kill_signals[0]; i++)
        sigaddset(set, kill_signals[i]);
}

static void on_deadline(int sig)
{
    if (answered) {
        if (sig != SIGALRM) { /* a crash after the answer: die of it, do not loop on it */
            signal(sig, SIG_DFL);
            raise(sig);
        }
        return;
    }
    answered = 1;
    write_all(STDOUT_FILENO, fallback_out, fallback_out_len);
    write_all(STDERR_FILENO, fallback_err, fallback_err_len);
    _exit(fallback_exit);
}

/* A crash (out of memory abort, a fault) must not leave the host without an answer: most hosts
 * run the tool then. The same prepared answer is written. Not under the sanitizers, whose own
 * reports are the point of those builds. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define RAMPART_CRASH_ANSWER 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define RAMPART_CRASH_ANSWER 0
#endif
#endif
#ifndef RAMPART_CRASH_ANSWER
#define RAMPART_CRASH_ANSWER 1
#endif

#if RAMPART_CRASH_ANSWER
static char alt_stack[64 * 1024]; /* a stack overflow still gets its answer */

static void install_crash_answer(void)
{
    stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_deadline;
    sa.sa_flags = SA_ONSTACK;
    answer_signals(&sa.sa_mask);
    const int crashes[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP};
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
        sigaction(crashes[i], &sa, NULL);
}
#endif

/* kill_signals get the prepared answer; SIGXFSZ and SIGPIPE are ignored (see kill_signals). */
static void install_kill_answer(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_deadline;
    sa.sa_flags = SA_ONSTACK;
    answer_signals(&sa.sa_mask);
    for (size_t i = 0; i < sizeof kill_signals / sizeof kill_signals[0]; i++)
        sigaction(kill_signals[i], &sa, NULL);
    signal(SIGXFSZ, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
}

static int handlers_set;

static void install_handlers(void)
{
    if (handlers_set)
        return;
    handlers_set = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_deadline;
    answer_signals(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
#if RAMPART_CRASH_ANSWER
    install_crash_answer();
#endif
    install_kill_answer();
}

void rp_hook_deadline_prepare(void)
{
    static const char early[] = "rampart: the hook failed before it could decide (out of memory?); "
                                "denied to be safe\n";
    memcpy(fallback_err, early, sizeof early - 1);
    fallback_err_len = sizeof early - 1;
    fallback_out_len = 0;
    fallback_exit = 2;
    install_handlers();
}

static void block_answer_signals(sigset_t *old)
{
    sigset_t set;
    answer_signals(&set);
    sigprocmask(SIG_BLOCK, &set, old);
}

void rp_hook_deadline_arm(int64_t ms)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (!started_set) {
        started = now;
        started_set = 1;
        install_handlers();
    }
    int64_t elapsed_us =
        (int64_t)(now.tv_sec - started.tv_sec) * 1000000 + (now.tv_nsec - started.tv_nsec) / 1000;
    armed_ms = ms;
    int64_t left_us = ms * 1000 - elapsed_us;
    if (left_us < 1000)
        left_us = 1000;
    struct itimerval t = {{0, 0}, {(time_t)(left_us / 1000000), (suseconds_t)(left_us % 1000000)}};
    setitimer(ITIMER_REAL, &t, NULL);
}

int64_t rp_hook_deadline_left_ms(void)
{
    if (armed_ms < 0 || answered)
        return -1;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t elapsed_ms =
        (int64_t)(now.tv_sec - started.tv_sec) * 1000 + (now.tv_nsec - started.tv_nsec) / 1000000;
    return armed_ms > elapsed_ms ? armed_ms - elapsed_ms : 0;
}

void rp_hook_deadline_set_answer(const char *out, size_t out_len, const char *err, size_t err_len,
                                 int exit_code)
{
    sigset_t old;
    block_answer_signals(&old);
    fallback_out_len = out_len < ANSWER_MAX ? out_len : ANSWER_MAX;
    fallback_err_len = err_len < ANSWER_MAX ? err_len : ANSWER_MAX;
    if (fallback_out_len)
        memcpy(fallback_out, out, fallback_out_len);
    if (fallback_err_len)
        memcpy(fallback_err, err, fallback_err_len);
    fallback_exit = exit_code;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

/* The signals stay blocked to the end: one that comes now waits, and at the disarm finds the
 * answer given. The crash signals are not blocked (a fault in the commit must still answer). */
void rp_hook_deadline_claim(void)
{
    sigset_t old;
    block_answer_signals(&old);
}

void rp_hook_deadline_disarm(void)
{
    sigset_t old;
    block_answer_signals(&old);
    answered = 1;
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
}
