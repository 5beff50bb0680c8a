/* pii.c — scanner rules for personal data (placeholder until the extractors land). */
#include "scan/scan_rules.h"

const rp_scan_rule rp_scan_pii_rules[1] = {{0}};
const size_t rp_scan_pii_rule_count = 0;
