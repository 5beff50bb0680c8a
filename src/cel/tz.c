/* tz.c — UTC offsets of time zones for the timestamp accessors.
 *
 * A zone is a fixed offset ("+05:30", "-08:00", "02:00": anything with a colon, as cel-go reads
 * it) or an IANA name whose TZif file (RFC 8536) is read from $TZDIR or /usr/share/zoneinfo.
 * Only the 64-bit (version 2+) section is used; instants after the last transition follow the
 * POSIX TZ rule in the file's footer, which is all that "slim" zone files carry for the future.
 *
 * Parsed zones are cached for the life of the process in a list guarded by a mutex: a policy
 * names a handful of zones and evaluates them on every event, and re-reading the file each time
 * would dominate the accessor's cost. Entries are immutable once published and never freed; the
 * list is bounded by the number of zone files on the system. */
#include "cel/time.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A POSIX TZ rule: "EST5EDT,M3.2.0,M11.1.0". Offsets are east of UTC, in seconds. */
typedef struct tz_date {
    char kind;        /* 'J' (1..365, no Feb 29), 'D' (0..365), 'M' (month.week.day) */
    int n, m, w, d;   /* n for J/D; m, w, d for M */
    int32_t time_sec; /* local time of day of the change (may be negative or > 24h) */
} tz_date;

typedef struct tz_rule {
    bool valid;
    int32_t std_off;
    bool has_dst;
    int32_t dst_off;
    tz_date start, end;
} tz_rule;

typedef struct tz_zone {
    struct tz_zone *next;
    char *name;
    uint32_t n_trans;
    int64_t *trans;      /* transition instants, ascending */
    uint8_t *trans_type; /* index into offsets */
    uint32_t n_types;
    int32_t *offsets; /* utoff of each local time type */
    tz_rule rule;     /* the footer, for instants after the last transition */
} tz_zone;

static pthread_mutex_t zones_lock = PTHREAD_MUTEX_INITIALIZER;
static tz_zone *zones;

/* ---- POSIX TZ strings ---- */

static bool parse_num(const char **p, int *out)
{
    if (**p < '0' || **p > '9')
        return false;
    int v = 0;
    while (**p >= '0' && **p <= '9' && v < 100000)
        v = v * 10 + (*(*p)++ - '0');
    *out = v;
    return true;
}

/* [+-]hh[:mm[:ss]] as seconds. */
static bool parse_hms(const char **p, int32_t *out)
{
    int sign = 1;
    if (**p == '+' || **p == '-') {
        sign = **p == '-' ? -1 : 1;
        (*p)++;
    }
    int h, m = 0, s = 0;
    if (!parse_num(p, &h) || h > 167)
        return false;
    if (**p == ':') {
        (*p)++;
        if (!parse_num(p, &m) || m > 59)
            return false;
        if (**p == ':') {
            (*p)++;
            if (!parse_num(p, &s) || s > 59)
                return false;
        }
    }
    *out = sign * (h * 3600 + m * 60 + s);
    return true;
}

static bool skip_name(const char **p)
{
    const char *s = *p;
    if (*s == '<') {
        while (*s && *s != '>')
            s++;
        if (*s != '>')
            return false;
        *p = s + 1;
        return true;
    }
    while ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z'))
        s++;
    if (s - *p < 3)
        return false;
    *p = s;
    return true;
}

static bool parse_date(const char **p, tz_date *d)
{
    memset(d, 0, sizeof *d);
    d->time_sec = 7200; /* 02:00 by default */
    if (**p == 'J') {
        (*p)++;
        d->kind = 'J';
        if (!parse_num(p, &d->n) || d->n < 1 || d->n > 365)
            return false;
    } else if (**p == 'M') {
        (*p)++;
        d->kind = 'M';
        if (!parse_num(p, &d->m) || d->m < 1 || d->m > 12 || *(*p)++ != '.')
            return false;
        if (!parse_num(p, &d->w) || d->w < 1 || d->w > 5 || *(*p)++ != '.')
            return false;
        if (!parse_num(p, &d->d) || d->d > 6)
            return false;
    } else {
        d->kind = 'D';
        if (!parse_num(p, &d->n) || d->n > 365)
            return false;
    }
    if (**p == '/') {
        (*p)++;
        if (!parse_hms(p, &d->time_sec))
            return false;
    }
    return true;
}

static void parse_rule(const char *s, tz_rule *r)
{
    memset(r, 0, sizeof *r);
    const char *p = s;
    int32_t off;
    if (!skip_name(&p) || !parse_hms(&p, &off))
        return;
    r->std_off = -off; /* POSIX offsets are west of UTC */
    if (*p == '\0') {
        r->valid = true;
        return;
    }
    if (!skip_name(&p))
        return;
    r->dst_off = r->std_off + 3600;
    if (*p != ',' && *p != '\0') {
        if (!parse_hms(&p, &off))
            return;
        r->dst_off = -off;
    }
    if (*p == '\0') {
        /* No rule: POSIX leaves it to the implementation; the US rules are the usual default. */
        r->start = (tz_date){'M', 0, 3, 2, 0, 7200};
        r->end = (tz_date){'M', 0, 11, 1, 0, 7200};
    } else {
        p++;
        if (!parse_date(&p, &r->start) || *p++ != ',' || !parse_date(&p, &r->end) || *p != '\0')
            return;
    }
    r->has_dst = true;
    r->valid = true;
}

/* Days since the epoch of the rule date in year y. */
static int64_t rule_day(const tz_date *d, int64_t y)
{
    int64_t jan1 = cel_days_from_civil(y, 1, 1);
    if (d->kind == 'J')
        return jan1 + d->n - 1 + (cel_is_leap_year(y) && d->n >= 60 ? 1 : 0);
    if (d->kind == 'D')
        return jan1 + d->n;
    int64_t first = cel_days_from_civil(y, d->m, 1);
    int64_t wd = (first + 4) % 7; /* weekday of the 1st; the epoch was a Thursday */
    if (wd < 0)
        wd += 7;
    int64_t day = 1 + (d->d - wd + 7) % 7 + (int64_t)(d->w - 1) * 7;
    while (day > cel_days_in_month(y, d->m))
        day -= 7;
    return first + day - 1;
}

static int32_t rule_offset(const tz_rule *r, int64_t t)
{
    if (!r->has_dst)
        return r->std_off;
    cel_civil c;
    cel_civil_from_seconds(t + r->std_off, &c);
    /* Check the neighbouring years too, so that a change near New Year is not missed. */
    for (int64_t y = c.year - 1; y <= c.year + 1; y++) {
        int64_t start = rule_day(&r->start, y) * 86400 + r->start.time_sec - r->std_off;
        int64_t end = rule_day(&r->end, y) * 86400 + r->end.time_sec - r->dst_off;
        if (start < end) {
            if (t >= start && t < end)
                return r->dst_off;
        } else {
            /* Southern hemisphere: DST spans New Year, from start of y to end of y+1. */
            int64_t end_next = rule_day(&r->end, y + 1) * 86400 + r->end.time_sec - r->dst_off;
            if (t >= start && t < end_next)
                return r->dst_off;
        }
    }
    return r->std_off;
}

/* ---- TZif ---- */

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int64_t be64(const unsigned char *p)
{
    return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

typedef struct tzif_counts {
    uint32_t isut, isstd, leap, time, type, chars;
} tzif_counts;

static bool read_header(const unsigned char *p, size_t len, tzif_counts *c)
{
    if (len < 44 || memcmp(p, "TZif", 4) != 0)
        return false;
    c->isut = be32(p + 20);
    c->isstd = be32(p + 24);
    c->leap = be32(p + 28);
    c->time = be32(p + 32);
    c->type = be32(p + 36);
    c->chars = be32(p + 40);
    return c->type >= 1 && c->type <= 256 && c->time < 1000000 && c->leap < 100000 &&
           c->chars < 100000 && c->isut <= c->type && c->isstd <= c->type;
}

static size_t block_size(const tzif_counts *c, size_t time_size)
{
    return c->time * time_size + c->time + c->type * 6 + c->chars + c->leap * (time_size + 4) +
           c->isstd + c->isut;
}

static void zone_free(tz_zone *z)
{
    if (!z)
        return;
    free(z->name);
    free(z->trans);
    free(z->trans_type);
    free(z->offsets);
    free(z);
}

static tz_zone *parse_tzif(const unsigned char *p, size_t len)
{
    tzif_counts c;
    if (!read_header(p, len, &c) || p[4] < '2')
        return NULL; /* version 1 files have no 64-bit data; every current tzdata has it */
    size_t v1 = 44 + block_size(&c, 4);
    if (v1 > len || !read_header(p + v1, len - v1, &c))
        return NULL;
    const unsigned char *d = p + v1 + 44;
    size_t need = block_size(&c, 8);
    if (need > len - v1 - 44)
        return NULL;
    tz_zone *z = calloc(1, sizeof *z);
    if (!z)
        return NULL;
    z->n_trans = c.time;
    z->n_types = c.type;
    z->trans = malloc((c.time + 1) * sizeof *z->trans);
    z->trans_type = malloc(c.time + 1);
    z->offsets = malloc(c.type * sizeof *z->offsets);
    if (!z->trans || !z->trans_type || !z->offsets) {
        zone_free(z);
        return NULL;
    }
    for (uint32_t i = 0; i < c.time; i++)
        z->trans[i] = be64(d + 8 * i);
    const unsigned char *idx = d + 8 * c.time;
    for (uint32_t i = 0; i < c.time; i++) {
        if (idx[i] >= c.type) {
            zone_free(z);
            return NULL;
        }
        z->trans_type[i] = idx[i];
    }
    const unsigned char *types = idx + c.time;
    for (uint32_t i = 0; i < c.type; i++)
        z->offsets[i] = (int32_t)be32(types + 6 * i);
    /* The footer: "\n<POSIX TZ>\n" after the 64-bit data block. */
    const char *foot = (const char *)d + need;
    size_t foot_len = len - (size_t)((const unsigned char *)foot - p);
    if (foot_len >= 2 && foot[0] == '\n') {
        const char *nl = memchr(foot + 1, '\n', foot_len - 1);
        if (nl && nl - foot - 1 < 128) {
            char tz[128];
            memcpy(tz, foot + 1, (size_t)(nl - foot - 1));
            tz[nl - foot - 1] = '\0';
            parse_rule(tz, &z->rule);
        }
    }
    return z;
}

static int32_t zone_offset(const tz_zone *z, int64_t t)
{
    if (z->n_trans == 0 || t < z->trans[0]) {
        if (z->n_trans == 0 && z->rule.valid)
            return rule_offset(&z->rule, t);
        return z->offsets[0];
    }
    if (t >= z->trans[z->n_trans - 1] && z->rule.valid)
        return rule_offset(&z->rule, t);
    uint32_t lo = 0, hi = z->n_trans; /* the last transition <= t */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (z->trans[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return z->offsets[z->trans_type[lo]];
}

static bool valid_name(const char *name, size_t len)
{
    if (len == 0 || len > 255 || name[0] == '/')
        return false;
    for (size_t i = 0; i < len; i++) {
        char ch = name[i];
        bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
                  (ch >= '0' && ch <= '9') || ch == '/' || ch == '_' || ch == '-' || ch == '+' ||
                  ch == '.';
        if (!ok)
            return false;
        if (ch == '.' && i + 1 < len && name[i + 1] == '.')
            return false;
    }
    return true;
}

static tz_zone *load_zone(const char *name)
{
    const char *dir = getenv("TZDIR");
    if (!dir || !*dir)
        dir = "/usr/share/zoneinfo";
    char path[1024];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    /* Zone files are a few kilobytes; 1 MiB is far beyond any real one. */
    size_t cap = 1 << 20, len = 0;
    unsigned char *buf = malloc(cap);
    if (buf)
        len = fread(buf, 1, cap, f);
    fclose(f);
    tz_zone *z = buf ? parse_tzif(buf, len) : NULL;
    free(buf);
    if (z) {
        z->name = strdup(name);
        if (!z->name) {
            zone_free(z);
            return NULL;
        }
    }
    return z;
}

static const tz_zone *find_zone(const char *name)
{
    pthread_mutex_lock(&zones_lock);
    tz_zone *z = zones;
    while (z && strcmp(z->name, name) != 0)
        z = z->next;
    if (!z) {
        /* Loading under the lock keeps two threads from parsing the same file; it happens
         * once per zone per process. */
        z = load_zone(name);
        if (z) {
            z->next = zones;
            zones = z;
        }
    }
    pthread_mutex_unlock(&zones_lock);
    return z;
}

/* "+05:30", "-08:00", "02:00": hours and minutes, as cel-go's strconv.Atoi on each side. */
static int fixed_offset(const char *s, size_t len, size_t colon, int32_t *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < colon && (s[i] == '+' || s[i] == '-')) {
        neg = s[i] == '-';
        i++;
    }
    if (i == colon || colon - i > 2 || len - colon - 1 == 0 || len - colon - 1 > 2)
        return -1;
    int h = 0, m = 0;
    for (; i < colon; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        h = h * 10 + (s[i] - '0');
    }
    for (i = colon + 1; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        m = m * 10 + (s[i] - '0');
    }
    if (h > 23 || m > 59)
        return -1;
    int32_t off = h * 3600 + m * 60;
    *out = neg ? -off : off;
    return 0;
}

int cel_tz_offset(const char *name, size_t name_len, int64_t utc_sec, int32_t *offset_sec)
{
    const char *colon = memchr(name, ':', name_len);
    if (colon)
        return fixed_offset(name, name_len, (size_t)(colon - name), offset_sec);
    if (!valid_name(name, name_len))
        return -1;
    char buf[256];
    memcpy(buf, name, name_len);
    buf[name_len] = '\0';
    const tz_zone *z = find_zone(buf);
    if (!z) {
        /* Without a zoneinfo database UTC must still work. */
        if (strcmp(buf, "UTC") == 0 || strcmp(buf, "Etc/UTC") == 0 || strcmp(buf, "GMT") == 0) {
            *offset_sec = 0;
            return 0;
        }
        return -1;
    }
    *offset_sec = zone_offset(z, utc_sec);
    return 0;
}
