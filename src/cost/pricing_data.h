/* pricing_data.h — the bytes of data/pricing.json, compiled in by the build (the generated
 * pricing_data.c in the build tree, see cmake/embed_text.cmake). Only pricing.c reads them,
 * through rp_cost_pricing_shipped_json(). */
#ifndef RAMPART_COST_PRICING_DATA_H
#define RAMPART_COST_PRICING_DATA_H

#include <stddef.h>

extern const char rp_cost_pricing_data[];     /* NUL-terminated */
extern const size_t rp_cost_pricing_data_len; /* without the NUL */

#endif
