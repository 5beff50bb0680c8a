/* rampart.h — embedding API: load a config, evaluate PolicyEvent JSON, get decision JSON.
 *
 *   char *err = NULL;
 *   const char *files[] = {"rampart.yaml"};
 *   rampart *r = rampart_open(files, 1, NULL, &err);        // NULL state dir = default
 *   char *decision = rampart_eval(r, event_json, strlen(event_json), &err);
 *   ... {"result":"ALLOW|ASK|DENY","reason":...,"policies":[...],"state_updates":[...]} ...
 *   rampart_free(decision);
 *   rampart_close(r);
 *
 * A handle is not thread-safe; use one per thread (they may share a state directory: the
 * store serialises writers). */
#ifndef RAMPART_H
#define RAMPART_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rampart rampart;

/* Flags for rampart_open. */
#define RAMPART_STATELESS 1u /* the event's own session_state is the snapshot; nothing stored */

/* Loads the config files (in evaluation order) and opens the state store. On failure returns
 * NULL and sets *err to a malloc'd message listing every problem (free with rampart_free). */
rampart *rampart_open(const char *const *config_files, size_t n_files, const char *state_dir,
                      char **err);
rampart *rampart_open_flags(const char *const *config_files, size_t n_files,
                            const char *state_dir, unsigned flags, char **err);
/* Evaluates one event. Returns malloc'd decision JSON, or NULL with *err set when the event is
 * malformed. A store failure still returns a decision (the config's on_error verdict). */
char *rampart_eval(rampart *r, const char *event_json, size_t len, char **err);
void rampart_free(void *p);
void rampart_close(rampart *r);
const char *rampart_version(void);

#ifdef __cplusplus
}
#endif

#endif
