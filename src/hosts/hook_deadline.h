/* hook_deadline.h — the per-call deadline of `rampart hook`.
 *
 * A host that waits too long for a hook either kills it (and most then let the call through)
 * or stalls the agent. So the hook arms a timer at start; if no answer is out when it fires,
 * the signal handler writes the answer prepared in advance with rp_hook_deadline_set_answer
 * (a deny on protecting events, a pass elsewhere) and exits at once. A crash (an abort on
 * memory exhaustion, a fault, SIGSYS from a seccomp filter) and every catchable signal that ends a
 * process (SIGTERM, SIGXCPU, SIGHUP, SIGINT, SIGQUIT, SIGUSR1/2, SIGPWR, SIGVTALRM, SIGPROF,
 * SIGSTKFLT) give the same answer; SIGXFSZ is ignored (a write past `ulimit -f` fails with EFBIG:
 * a store error, which fails closed) and so is SIGPIPE. Only write(2) and _exit(2) run in the
 * handler. */
#ifndef RAMPART_HOSTS_HOOK_DEADLINE_H
#define RAMPART_HOSTS_HOOK_DEADLINE_H

#include <stddef.h>
#include <stdint.h>

/* Before anything is allocated: installs the crash and kill handlers with a static answer (exit 2,
 * the reason on stderr, nothing on stdout: a block for Claude Code, Codex, Gemini CLI, Pi and
 * opencode), for a failure
 * before the host's own answer is prepared (issue 16: `ulimit -v` aborted the first malloc). */
void rp_hook_deadline_prepare(void);
/* (Re)arms the deadline at ms after the FIRST call (the hook's start), at least 1 ms from now. */
void rp_hook_deadline_arm(int64_t ms);
/* Milliseconds left before the armed deadline fires (0 when it is due), or -1 when none is
 * armed: a wait inside the hook takes only a share of it (hook_spend.c). */
int64_t rp_hook_deadline_left_ms(void);
/* The answer the deadline gives; copied (truncated at 64 KB each). */
void rp_hook_deadline_set_answer(const char *out, size_t out_len, const char *err, size_t err_len,
                                 int exit_code);
/* The real answer is decided and about to be committed with the call's state and audit row:
 * from now on the deadline (and the kill signals) can no longer answer, so that
 * what the host is told is what was committed (issue 16). Before the claim, a deadline that
 * fires ends the process with its open transaction, which is then rolled back: nothing of the
 * call is recorded. A crash after the claim still gets the prepared answer. */
void rp_hook_deadline_claim(void);
/* The real answer is about to be written: the deadline can no longer answer. */
void rp_hook_deadline_disarm(void);

#endif
