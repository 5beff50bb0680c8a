/* period.h — UTC budget windows for the per-user cost policies (issue 6): the calendar day,
 * ISO week (Monday to today), month, quarter and year that contain a moment. Pure date math. */
#ifndef RAMPART_COST_PERIOD_H
#define RAMPART_COST_PERIOD_H

#include <stdint.h>

typedef enum rp_cost_period {
    RP_COST_PERIOD_DAY = 0,
    RP_COST_PERIOD_WEEK,
    RP_COST_PERIOD_MONTH,
    RP_COST_PERIOD_QUARTER,
    RP_COST_PERIOD_YEAR
} rp_cost_period;

#define RP_COST_DAY_KEY_SIZE 11 /* "YYYY-MM-DD" + NUL */

/* "day" | "week" | "month" | "quarter" | "year" (exact, lower case). 0, or -1 when unknown. */
int rp_cost_period_parse(const char *s, rp_cost_period *out);
const char *rp_cost_period_name(rp_cost_period p);
/* Words for reason texts: "daily"/"weekly"/"monthly"/"quarterly"/"yearly", and
 * "today"/"this week"/"this month"/"this quarter"/"this year". */
const char *rp_cost_period_adjective(rp_cost_period p);
const char *rp_cost_period_phrase(rp_cost_period p);

/* The UTC calendar date of `us` (µs since the epoch) as "YYYY-MM-DD". */
void rp_cost_utc_day(int64_t us, char out[RP_COST_DAY_KEY_SIZE]);
/* The first day of the window of period p that contains `us`, and the last (= the day of us). */
void rp_cost_period_window(rp_cost_period p, int64_t us, char first_day[RP_COST_DAY_KEY_SIZE],
                           char last_day[RP_COST_DAY_KEY_SIZE]);
/* The window start as µs since the epoch (00:00:00 UTC of first_day). */
int64_t rp_cost_period_window_start_us(rp_cost_period p, int64_t us);

#endif
