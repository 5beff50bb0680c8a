/* settings_splice.h — adding and removing rampart's hook entries in a host's JSON settings
 * file as a text splice.
 *
 * A user's settings file is theirs: key order, indentation, line endings and everything rampart
 * does not own must come through an install byte for byte. So the file is not parsed and
 * rewritten; it is scanned with byte offsets, and install inserts runs of text at a few places
 * (after the last member of an object or item of an array, copying the separator the file
 * already uses there, or into an empty container). Uninstall deletes exactly such runs: an
 * element that is not the first goes together with the separator before it, which is what
 * install had put there, so that install then uninstall restores the original bytes. (The one
 * thing a splice cannot know is the whitespace an empty container had before install filled
 * it; rp_install_splice_uninstall_exact settles that with the backup install wrote.)
 *
 * Pure: no I/O. Text in, text out. */
#ifndef RAMPART_INSTALL_SETTINGS_SPLICE_H
#define RAMPART_INSTALL_SETTINGS_SPLICE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "core/buf.h"

typedef enum rp_install_splice_shape {
    /* Claude Code, Codex, Gemini: "hooks": {EVENT: [{"matcher"?, "hooks": [HANDLER]}]} with
     * HANDLER = {"type": "command", "command": ..., "timeout": N}. */
    RP_INSTALL_SPLICE_GROUPS = 0,
    /* Cursor: {"version": 1, "hooks": {EVENT: [{"command": ...}]}}. */
    RP_INSTALL_SPLICE_FLAT
} rp_install_splice_shape;

typedef struct rp_install_splice_event {
    const char *name;
    const char *matcher; /* NULL: the group has no matcher key (groups shape only) */
} rp_install_splice_event;

typedef struct rp_install_splice_spec {
    rp_install_splice_shape shape;
    const rp_install_splice_event *events;
    size_t n_events;
    const char *host;    /* a handler is ours when its command runs `rampart hook HOST` */
    const char *command; /* the command install writes */
    int timeout;         /* 0: no timeout key */
} rp_install_splice_spec;

typedef enum rp_install_splice_status {
    RP_INSTALL_SPLICE_ERROR = -1,
    RP_INSTALL_SPLICE_UNCHANGED = 0, /* install: already installed; uninstall: nothing of ours */
    RP_INSTALL_SPLICE_CHANGED = 1
} rp_install_splice_status;

typedef struct rp_install_splice_error {
    int line, col; /* 1-based; where the problem is */
    char msg[160];
} rp_install_splice_error;

/* Registers spec's handler for every event of spec into text[0..len) (len 0 or whitespace
 * only: a new file), writing the whole new text to out. An event that already has a handler of
 * ours with the same command is left alone; one with another command (a moved binary, another
 * -c) gets its command string replaced. Returns CHANGED, UNCHANGED (out = the input) or
 * ERROR (err set; text that is not JSON, or "hooks" / an event of the wrong type). */
rp_install_splice_status rp_install_splice_install(const char *text, size_t len,
                                                   const rp_install_splice_spec *spec, rp_buf *out,
                                                   rp_install_splice_error *err);

/* Removes every handler of ours (any path, any arguments) from spec's events; a group, event
 * array, or "hooks" object left empty by that goes too (and, for the flat shape, a "version"
 * then left alone in the file). Returns CHANGED, UNCHANGED or ERROR as above. */
rp_install_splice_status rp_install_splice_uninstall(const char *text, size_t len,
                                                     const rp_install_splice_spec *spec,
                                                     rp_buf *out, rp_install_splice_error *err);

/* Uninstall with the file's state before install at hand: when installing into `before` gives
 * exactly text, the answer is `before` itself (byte-exact even where a splice cannot know the
 * original whitespace); otherwise rp_install_splice_uninstall. before may be NULL (no backup). */
rp_install_splice_status rp_install_splice_uninstall_exact(const char *text, size_t len,
                                                           const char *before, size_t before_len,
                                                           const rp_install_splice_spec *spec,
                                                           rp_buf *out,
                                                           rp_install_splice_error *err);

/* Whether a command string runs `rampart hook HOST` (via any path to a binary named rampart,
 * quoted or not): the first three words of the command as sh reads it (rp_sh_simple_words). */
bool rp_install_splice_is_our_command(const char *command, const char *host);

/* The commands of our handlers in text, for `rampart doctor`: calls fn once per handler of
 * ours under spec's events. Returns the number of our handlers, or -1 (err set). */
int rp_install_splice_find_ours(const char *text, size_t len, const rp_install_splice_spec *spec,
                                void (*fn)(void *self, const char *command), void *self,
                                rp_install_splice_error *err);

#endif
