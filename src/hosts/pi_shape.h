/* pi_shape.h — the JSON protocol of rampart's in-process extensions (Pi's extension and
 * opencode's plugin in integrations/), shared by the pi and opencode adapters. pi.c documents
 * the protocol. */
#ifndef RAMPART_HOSTS_PI_SHAPE_H
#define RAMPART_HOSTS_PI_SHAPE_H

#include "hosts/hook_event.h"
#include "hosts/host.h"

/* Parses one extension payload (host.h's parse contract). With `opencode`, opencode's own
 * event names (tool.execute.before, tool.execute.after, chat.message, session.idle) are
 * accepted besides the protocol's. */
int rp_hook_pi_shape_parse(const rp_hook_adapter *host, bool opencode, const rp_json *payload,
                           const rp_hook_env *env, rp_arena *a, rp_hook_call *call, char *err,
                           size_t err_size);

/* {"result":"ALLOW"|"ASK"|"DENY","reason":REASON|null[,"input":NEWARGS]}\n, exit 0. */
void rp_hook_pi_shape_answer(const rp_hook_call *call, const rp_hook_verdict *v,
                             const rp_host_settings *settings, rp_arena *a, rp_hook_answer *out);

#endif
