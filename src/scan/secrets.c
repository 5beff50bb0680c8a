/* secrets.c — scanner rules for credentials (placeholder until the extractors land). */
#include "scan/scan_rules.h"

const rp_scan_rule rp_scan_secret_rules[1] = {{0}};
const size_t rp_scan_secret_rule_count = 0;
