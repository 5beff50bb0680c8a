/* shell_partial.h — which listed commands of an unreadable parse were cut short.
 *
 * When a command string cannot be read, rp_sh_parse still lists what it read, including the
 * simple command it was in the middle of when it hit the error (`git push "origin` lists
 * `git push`). That last command is truncated: it is missing words, so judging it alone would
 * misread it (a push with no remote, a `cd` with no target). The shell policies decide the
 * complete commands first, then the reference's unreadable fallback, and the cut-short ones
 * last, so a stricter verdict from them still wins but a tie goes to the fallback's reason. */
#ifndef RAMPART_POLICIES_COMMON_SHELL_PARTIAL_H
#define RAMPART_POLICIES_COMMON_SHELL_PARTIAL_H

#include <stdbool.h>
#include <string.h>

#include "shell/shell.h"

/* Whether c was still being read when the parse failed: nothing but blanks lies between its
 * end and the error (so no operator closed it), or the error lies inside its span. */
static inline bool rp_shell_cut_short(const struct rp_sh_parse *p, const rp_sh_command *c,
                                      const char *src)
{
    if (!p->unreadable)
        return false;
    if (c->end >= p->error_offset)
        return c->offset <= p->error_offset;
    if (p->error_offset > strlen(src))
        return false;
    for (size_t i = c->end; i < p->error_offset; i++)
        if (src[i] != ' ' && src[i] != '\t')
            return false;
    return true;
}

#endif
