/* redact.h — the one redactor of everything rampart writes for people or logs: reasons, audit
 * rows, warnings, hook answers (issue 16, point 7).
 *
 * A policy's reason may quote what it judged — blast_radius quotes the command, a permission
 * rule the path, a config error the value — so a token in a denied command would reach the
 * host's screen, the audit table and `rampart log`. Every such text passes through
 * rp_redact_text, whether or not deny_secrets is configured: each secret, SSN and card number
 * is replaced by its masked preview, the form deny_secrets quotes its own findings in
 * ('ghp_****…wxyz', '****-****-****-1111'); e-mail addresses and phone numbers are kept
 * (redact.c says why). The scanner is opened once per process, on the first text that needs
 * it (from the on-disk database cache), and shared by every thread. */
#ifndef RAMPART_SCAN_REDACT_H
#define RAMPART_SCAN_REDACT_H

#include <stddef.h>

#include "core/arena.h"

/* What replaces a text that cannot be scanned (the scanner failed to open or to scan): the
 * text is withheld rather than written unread. */
#define RP_REDACT_WITHHELD "[text withheld: the secret scanner is unavailable]"

/* The longest text rp_redact_text returns, in bytes: a longer one is cut at a character boundary
 * and ends in "… [N more bytes]" (redact.c says why). */
#define RP_REASON_MAX 4096

/* text with every secret and PII finding masked and cut at RP_REASON_MAX: text itself when
 * there is nothing to change (or text is NULL or empty), else a copy from a; RP_REDACT_WITHHELD
 * when the text cannot be scanned. */
const char *rp_redact_text(rp_arena *a, const char *text);

/* Opens the scanner now — compiling its database into the on-disk cache when the cache is cold
 * (~90 ms on an idle machine, more under load) — so that a hook's first reason does not pay for
 * it inside the deadline. `rampart install` calls it. 0, or -1 with the cause in err. */
int rp_redact_prepare(char *err, size_t err_size);

#endif
