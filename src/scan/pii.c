/* pii.c — scanner rules for personal data: ssn, credit_card, email, phone,
 * iban, ip_address, passport_us, date_of_birth (the contract is in
 * scan_rules.h).
 *
 * Each expression is a cheap trigger whose match end falls on or inside a
 * candidate; the extractor then delimits the token around that offset, checks
 * that it is not glued to a longer word or number, validates it (validate.c)
 * and emits it. Extractors look at most a few dozen bytes back; forward they
 * stop at the token's end, which they return so that the core skips the further
 * triggers inside the same token (a 20-digit run fires the card trigger 8
 * times). Every read is bounded by [0, job->len). */
#include <string.h>

#include "scan/ascii.h"
#include "scan/scan_rules.h"

/* The byte at i, or NUL outside the text: lets the checks below look past
 * either end. */
static char at(const rp_scan_job *job, size_t i)
{
    return i < job->len ? job->text[i] : '\0';
}
/* The byte before start, where an escape such as the "\n" of a JSON string
 * inside a string
 * ("contacts:\\nana@example.com") counts as a separator, not as the letter 'n'.
 */
static char before(const rp_scan_job *job, size_t start)
{
    if (start == 0)
        return '\0';
    char c = job->text[start - 1];
    if ((c == 'n' || c == 't' || c == 'r') && start >= 2 && job->text[start - 2] == '\\')
        return ' ';
    return c;
}

/* A number glued to a word, another number, a decimal point or a dash is part
 * of something else: an id, a version, a longer digit run, a hash. */
static bool glued_before(const rp_scan_job *job, size_t start)
{
    char c = before(job, start);
    if (is_alnum(c) || c == '_' || c == '-')
        return true;
    return c == '.' && start >= 2 && is_digit(job->text[start - 2]);
}
static bool glued_after(const rp_scan_job *job, size_t end)
{
    char c = at(job, end);
    if (is_alnum(c) || c == '_' || c == '-')
        return true;
    return c == '.' && is_digit(at(job, end + 1));
}

/* ---- ssn ---- */

static size_t emit_ssn(rp_scan_job *job, size_t start, size_t end, bool bare)
{
    if (glued_before(job, start) || glued_after(job, end))
        return end;
    if (rp_scan_ssn(job->text + start, end - start, bare))
        rp_scan_emit(job, RP_SCAN_SSN, start, end, RP_MASK_SSN);
    return end;
}

/* AAA-GG-SSSS: the match is the whole candidate. */
static size_t extract_ssn_dashed(rp_scan_job *job, size_t end)
{
    return emit_ssn(job, end - 11, end, false);
}

/* AAA GG SSSS, unless it is a stretch of a longer list of space-separated
 * numbers (a table row, a spaced-out card number). */
static size_t extract_ssn_spaced(rp_scan_job *job, size_t end)
{
    size_t start = end - 11;
    if (before(job, start) == ' ' && start >= 2 && is_digit(job->text[start - 2]))
        return end;
    if (at(job, end) == ' ' && is_digit(at(job, end + 1)))
        return end;
    return emit_ssn(job, start, end, false);
}

/* A bare AAAGGSSSS after an "SSN" label (the expression checked the label). */
static size_t extract_ssn_labelled(rp_scan_job *job, size_t end)
{
    return emit_ssn(job, end - 9, end, true);
}

/* ---- credit_card ---- */

#define CARD_MAX_DIGITS 19

/* Groups of a card written in groups: 4-4-4-4, 4-6-5 (Amex), 4-6-4 (Diners),
 * 4-4-4-4-3; a group of one or two digits is only seen last (4-4-4-1). */
static bool card_groups_ok(const char *s, size_t n)
{
    size_t len = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && is_digit(s[i])) {
            len++;
            continue;
        }
        if (len > 6 || (len < 3 && i < n))
            return false;
        len = 0;
    }
    return true;
}

/* The token around a trigger is a run of digits joined by single spaces or
 * dashes; it may hold one card, several cards in a row ("4111 1111 1111 1111
 * 5500 0000 0000 0004"), or be a long digit run (a timestamp, an id) that holds
 * none. From each group, the longest run of whole groups that is a valid card
 * is taken; an unbroken candidate must be one group on its own. */
static size_t extract_card(rp_scan_job *job, size_t end)
{
    const char *t = job->text;
    size_t p = end, q = end;
    /* Back to the token start: the first trigger of a token is its 13th digit, so
     * at most 25 bytes back; the bound only guards against a contract slip. */
    while (p > 0 && end - p < 64) {
        char c = t[p - 1];
        if (is_digit(c) || ((c == ' ' || c == '-') && p >= 2 && is_digit(t[p - 2])))
            p--;
        else
            break;
    }
    if (!is_digit(t[p]))
        p++;
    while (q < job->len) {
        char c = t[q];
        if (is_digit(c) || ((c == ' ' || c == '-') && is_digit(at(job, q + 1))))
            q++;
        else
            break;
    }
    if (glued_before(job, p) || glued_after(job, q))
        return q;
    size_t i = p;
    while (i < q) {
        size_t best = 0, digits = 0, g = i;
        char sep = 0;
        while (g < q) {
            size_t ge = g;
            while (ge < q && is_digit(t[ge]))
                ge++;
            digits += ge - g;
            if (digits > CARD_MAX_DIGITS)
                break;
            /* Only the last group may be shorter than 3 or longer than 6 (or the
             * candidate is that one group): no longer run from i is a card. */
            bool odd_group = ge - g < 3 || ge - g > 6;
            if (digits >= 13 && (g == i || card_groups_ok(t + i, ge - i)) &&
                rp_scan_credit_card(t + i, ge - i) != RP_CARD_NONE)
                best = ge;
            if (ge >= q || (sep && t[ge] != sep) || odd_group)
                break;
            sep = t[ge];
            g = ge + 1;
        }
        if (best) {
            rp_scan_emit(job, RP_SCAN_CREDIT_CARD, i, best, RP_MASK_CARD);
            i = best + 1;
            continue;
        }
        while (i < q && is_digit(t[i])) /* on to the next group */
            i++;
        i++;
    }
    return q;
}

/* ---- email ---- */

static bool is_local_char(char c)
{
    return is_alnum(c) || (c != '\0' && strchr("._%+-", c) != NULL);
}
static bool is_domain_char(char c)
{
    return is_alnum(c) || c == '.' || c == '-';
}

/* Is the '@' at atpos the end of a URL's userinfo
 * ("scheme://user:password@host")? Back from it to "://" without leaving the
 * authority: no '/', space, quote or bracket in between. */
static bool in_url_authority(const char *t, size_t atpos)
{
    size_t lo = atpos > 256 ? atpos - 256 : 0;
    for (size_t k = atpos; k > lo; k--) {
        char c = t[k - 1];
        if (c == '/')
            return k >= 3 && t[k - 2] == '/' && t[k - 3] == ':';
        if (c == ' ' || c == '\n' || c == '\t' || c == '"' || c == '\'' || c == '<' || c == '>' ||
            c == '(' || c == ')' || c == '[' || c == ']' || c == '\0' || c == '@')
            return false;
    }
    return false;
}

/* The trigger is "x@y": '@' sits at end - 2. The local part is taken with the
 * reference's narrow class (not every RFC atext: "key=john@x.com" is john's
 * address, "'john@x.com'" is quoted), an apostrophe only inside a name
 * (o'brien). Not addresses, though address-shaped:
 *   - "git@github.com:org/repo" and "user@host:path": scp/SSH remotes, a host
 * and a path;
 *   - "ssh://git@host/..": the user part of a URL.
 * Both name an account on a host, not a person's mailbox; and in
 * "scheme://user:pass@host" the part before '@' is a password (url_password's),
 * not the local part of an address. */
static size_t extract_email(rp_scan_job *job, size_t end)
{
    const char *t = job->text;
    size_t atpos = end - 2, ls = atpos, de = atpos + 1;
    while (ls > 0 && atpos - ls <= 64) {
        char c = t[ls - 1];
        if (is_local_char(c) || (c == '\'' && ls >= 2 && is_alnum(t[ls - 2]) && is_alnum(t[ls])))
            ls--;
        else
            break;
    }
    if (atpos - ls > 64)
        return end; /* no local part is that long: a blob */
    /* "see...john@": the address starts after ".." */
    for (size_t i = atpos; i > ls + 1; i--)
        if (t[i - 1] == '.' && t[i - 2] == '.') {
            ls = i;
            break;
        }
    while (ls < atpos && t[ls] == '.')
        ls++;
    if (ls > 0 && t[ls - 1] == '\\' && (t[ls] == 'n' || t[ls] == 't' || t[ls] == 'r'))
        ls++; /* "\nana@..": an escaped new line, then the address */
    while (de < job->len && de - atpos <= 254 && is_domain_char(t[de]))
        de++;
    size_t scan_end = de;
    while (de > atpos + 1 && (t[de - 1] == '.' || t[de - 1] == '-')) /* "mail a@b.com." */
        de--;
    if (ls == atpos || de - atpos > 254)
        return scan_end;
    char next = at(job, de);
    if (next == '@' || next == '_')
        return scan_end;
    if (next == ':' && (is_alnum(at(job, de + 1)) || at(job, de + 1) == '/' ||
                        at(job, de + 1) == '~' || at(job, de + 1) == '.'))
        return scan_end;
    if (in_url_authority(t, atpos))
        return scan_end;
    if (rp_scan_email(t + ls, de - ls))
        rp_scan_emit(job, RP_SCAN_EMAIL, ls, de, RP_MASK_EMAIL);
    return scan_end;
}

/* ---- phone ---- */

#define PHONE_MAX_SPAN 24 /* rp_scan_phone's own limit */
#define PHONE_BACK     48
#define PHONE_AHEAD    32

static bool is_phone_sep(char c)
{
    return c == ' ' || c == '-' || c == '.';
}

/* The word that ends before `end`, after skipping the punctuation of a label
 * (" ", ":", ".", "=", "\t"); "#" counts as a word. Lower-cased into w (at most
 * 15 letters, else empty). Returns where the word starts. */
static size_t word_before(const char *t, size_t end, char w[16])
{
    size_t e = end;
    while (e > 0 && (t[e - 1] == ' ' || t[e - 1] == ':' || t[e - 1] == '.' || t[e - 1] == '=' ||
                     t[e - 1] == '\t'))
        e--;
    size_t b = e;
    if (b > 0 && t[b - 1] == '#')
        b--;
    else
        while (b > 0 && e - b < 15 && is_alpha(t[b - 1]))
            b--;
    if (b > 0 && is_alpha(t[b - 1]))
        b = e; /* longer than any label */
    for (size_t k = b; k < e; k++)
        w[k - b] = lower(t[k]);
    w[e - b] = '\0';
    return b;
}

static bool word_in(const char *w, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(w, *list))
            return true;
    return false;
}

/* "Invoice No. 0123-4567-8901", "order 0123 4567 8901", "Ref: 020 7946 0958":
 * a trunk-prefixed national number (the loosest form rp_scan_phone accepts:
 * 10-12 digits after a 0) after the label of an identifier is that
 * identifier. A phone label wins ("Phone No. 020 7946 0958"); so does a bare
 * "number". Numbers with more structure (NANP, E.164) are phones whatever the
 * label. */
static bool id_labelled(const char *t, size_t start)
{
    static const char *const ids[] = {
        "invoice",  "order",    "ref",     "reference", "account", "acct",        "id",
        "serial",   "ticket",   "case",    "tracking",  "policy",  "customer",    "receipt",
        "txn",      "booking",  "claim",   "member",    "sku",     "part",        "po",
        "isbn",     "vat",      "tax",     "batch",     "lot",     "transaction", "confirmation",
        "shipment", "contract", "license", "licence",   NULL};
    static const char *const numbering[] = {"no", "nr", "num", "number", "#", NULL};
    static const char *const phones[] = {"phone", "tel",     "telephone", "mobile",   "cell", "fax",
                                         "call",  "contact", "whatsapp",  "landline", NULL};
    char w1[16], w2[16];
    size_t b = word_before(t, start, w1);
    if (word_in(w1, ids))
        return true;
    if (!word_in(w1, numbering))
        return false;
    word_before(t, b, w2);
    if (word_in(w2, phones))
        return false;
    return strcmp(w1, "number") != 0 || word_in(w2, ids);
}

/* Whether a candidate ending at j (exclusive, inside the token [.., q)) can
 * end there at all: rp_scan_phone rejects a number followed by a digit, a dash
 * or a dot and a digit, so those ends are skipped without calling it. */
static bool phone_end_possible(const char *t, size_t q, size_t j)
{
    if (!is_digit(t[j - 1]))
        return false;
    if (j >= q)
        return true;
    return !is_digit(t[j]) && t[j] != '-' && !(t[j] == '.' && j + 1 < q && is_digit(t[j + 1]));
}

/* A phone token is digits, single separators (' ', '-', '.') between digit
 * groups, parentheses around a group and a leading '+'. Spaces also join
 * unrelated numbers ("room 12 415 555 0132"), so every run of whole groups that
 * starts at the token start, after a space, at '(' or '+' and ends at a group
 * end is a candidate; rp_scan_phone sees the whole text and rejects a candidate
 * glued to a dash, a dot or a digit, so splits happen only at spaces. From each
 * start the longest valid candidate wins and the search goes on after it.
 *
 * The work per trigger is bounded: the window is at most PHONE_BACK +
 * PHONE_AHEAD bytes, starts already examined by an earlier trigger are not
 * examined again (job->examined), and a candidate of digits and spaces only
 * with more numbers on either side is rejected without the validator. */
static size_t extract_phone(rp_scan_job *job, size_t end)
{
    const char *t = job->text;
    size_t p = end, q = end;
    while (p > 0 && end - p < PHONE_BACK) {
        char c = t[p - 1];
        char right = at(job, p);
        if (is_digit(c) || (c == ')' && p >= 2 && is_digit(t[p - 2])))
            p--;
        else if (c == '(' && is_digit(right))
            p--;
        else if (c == '+' && is_digit(right)) {
            p--;
            break;
        } else if (is_phone_sep(c) && p >= 2 && (is_digit(t[p - 2]) || t[p - 2] == ')') &&
                   (is_digit(right) || right == '('))
            p--;
        else
            break;
    }
    while (q < job->len && q - end < PHONE_AHEAD) {
        char c = t[q];
        char left = q > 0 ? t[q - 1] : '\0';
        if (is_digit(c) || (c == ')' && is_digit(left)))
            q++;
        else if (c == '(' && is_digit(at(job, q + 1)))
            q++;
        else if (is_phone_sep(c) && (is_digit(left) || left == ')') &&
                 (is_digit(at(job, q + 1)) || at(job, q + 1) == '('))
            q++;
        else
            break;
    }
    bool cut = q - end == PHONE_AHEAD && q < job->len;        /* the token may go on past q */
    while (q > end && !is_digit(t[q - 1]) && t[q - 1] != ')') /* "67 (Marseille)" */
        q--;
    size_t *examined = &job->examined[RP_SCAN_PHONE];
    size_t i = p > *examined ? p : *examined;
    /* nd: the first byte at or after i that is not a digit or a space. */
    size_t nd = i;
    while (i < q) {
        char c = t[i];
        if (nd < i)
            nd = i;
        while (nd < q && (is_digit(t[nd]) || t[nd] == ' '))
            nd++;
        bool start_ok = i == p || t[i - 1] == ' ' || c == '(' || c == '+';
        size_t found = 0;
        if (start_ok && (is_digit(c) || c == '(' || c == '+')) {
            bool list_before = i > p && t[i - 1] == ' ' && i >= 2 && is_digit(t[i - 2]);
            size_t lim = q - i < PHONE_MAX_SPAN ? q : i + PHONE_MAX_SPAN;
            /* rp_scan_phone allows one bracketed group: no candidate reaches a
             * second '(' ("(12) 34 (56) 78" is a list, not one number). */
            size_t opens = c == '(';
            for (size_t k = nd > i + 1 ? nd : i + 1; k < lim; k++) /* none before nd */
                if (t[k] == '(' && ++opens == 2)
                    lim = k;
            /* With more numbers before, every end up to nd is a list stretch. */
            size_t jmin = list_before && nd > i + 6 ? nd : i + 6;
            for (size_t j = lim; j > jmin; j--) {
                if (!phone_end_possible(t, q, j))
                    continue;
                /* Digits and spaces only, cut out of a longer run of
                 * space-separated numbers (a table row, the groups of an IBAN or
                 * an account number): a stretch of that run, not a phone. */
                if (j <= nd && (list_before || (j < q && t[j] == ' ')))
                    continue;
                if (rp_scan_phone(t, job->len, i, j - i)) {
                    found = j;
                    break;
                }
            }
        }
        if (found) {
            bool trunk = t[i] == '0' || (t[i] == '(' && t[i + 1] == '0');
            if (!trunk || !id_labelled(t, i))
                rp_scan_emit(job, RP_SCAN_PHONE, i, found, RP_MASK_GENERIC);
            i = found;
        } else {
            i++;
        }
    }
    /* Starts whose whole window lay inside [p, q) need no second look; when the
     * token was cut at q, the last PHONE_MAX_SPAN starts saw a shortened one. */
    size_t done = cut ? (q > PHONE_MAX_SPAN ? q - PHONE_MAX_SPAN : 0) : q;
    if (done > *examined)
        *examined = done;
    return q;
}

/* ---- iban ---- */

/* The trigger is two letters, two digits and 11 more characters (spaces allowed
 * after each 4): the shortest IBAN (Norway) is 15. The candidate starts at a
 * word start 15-18 bytes back; its length is the country's, unbroken or in
 * groups of 4. */
static size_t extract_iban(rp_scan_job *job, size_t end)
{
    const char *t = job->text;
    for (size_t back = 18; back >= 15; back--) {
        if (back > end)
            continue;
        size_t p = end - back;
        if (!is_alpha(t[p]) || !is_alpha(t[p + 1]) || !is_digit(t[p + 2]) || !is_digit(t[p + 3]) ||
            is_alnum(before(job, p)))
            continue;
        size_t len = (size_t)rp_scan_iban_length(t + p);
        if (len == 0)
            continue;
        if (at(job, p + 4) == ' ')
            len += (len - 1) / 4;
        if (len > job->len - p || is_alnum(at(job, p + len)))
            continue;
        if (rp_scan_iban(t + p, len)) {
            rp_scan_emit(job, RP_SCAN_IBAN, p, p + len, RP_MASK_GENERIC);
            return p + len;
        }
    }
    return end;
}

/* ---- ip_address ---- */

static void emit_ip(rp_scan_job *job, size_t start, size_t end)
{
    rp_ip_class c = rp_scan_ip_address(job->text + start, end - start);
    if (c == RP_IP_PUBLIC || (c != RP_IP_INVALID && job->opt->ip_include_private))
        rp_scan_emit(job, RP_SCAN_IP_ADDRESS, start, end, RP_MASK_GENERIC);
}

/* Dotted quads. "1.2.3.4.5" is not an address (a longer dotted run), nor
 * "v1.2.3.4" or "1.2.3.4-beta" (versions: a letter before, or a dash and a word
 * after); "8.8.8.8:53" and "10.0.0.0/8" are. The IPv4 tail of an IPv6 address
 * ("::ffff:1.2.3.4") is the IPv6 rule's. */
static size_t extract_ipv4(rp_scan_job *job, size_t end)
{
    const char *t = job->text;
    size_t p = end, q = end;
    while (p > 0 && end - p < 16 && (is_digit(t[p - 1]) || t[p - 1] == '.'))
        p--;
    while (q < job->len && q - end < 16 && (is_digit(t[q]) || t[q] == '.'))
        q++;
    size_t scan_end = q;
    if (q > p && t[q - 1] == '.' && !is_digit(at(job, q)))
        q--; /* a full stop */
    char b = before(job, p), a = at(job, q);
    if (is_alnum(b) || b == '_' || b == '-' || b == '.' || is_alnum(a) || a == '_' ||
        (a == '-' && is_alnum(at(job, q + 1))))
        return scan_end;
    if (b == ':') { /* an IPv6 prefix before it: "::ffff:" or "64:ff9b::" */
        size_t k = p - 1, colons = 0;
        while (k > 0 && p - k < 40 && (is_hex(t[k - 1]) || t[k - 1] == ':'))
            colons += t[--k] == ':';
        if (colons >= 1)
            return scan_end;
    }
    emit_ip(job, p, q);
    return scan_end;
}

static bool is_ipv6_char(char c)
{
    return is_hex(c) || c == ':' || c == '.';
}

/* Colon-hex forms. The trigger fires on times (12:30:45), MAC addresses and C++
 * scopes
 * ("std::"); the token is delimited over hex digits, ':' and '.', and must not
 * be glued to a word ("std::cerr" starts after 't'). A trailing single ':'
 * ("addr 2001:db8::1: up") is punctuation. */
static size_t extract_ipv6(rp_scan_job *job, size_t end)
{
    const char *t = job->text;
    size_t p = end, q = end;
    while (p > 0 && end - p < 45 && is_ipv6_char(t[p - 1]))
        p--;
    while (q < job->len && q - p < 46 && is_ipv6_char(t[q]))
        q++;
    size_t scan_end = q;
    char b = before(job, p), a = at(job, q);
    if (is_alnum(b) || b == '_' || is_alnum(a) || a == '_' || is_ipv6_char(a) || is_ipv6_char(b))
        return scan_end; /* glued, or longer than any address */
    if (q > p && t[q - 1] == '.')
        q--;
    if (q - p >= 2 && t[q - 1] == ':' && t[q - 2] != ':')
        q--;
    /* Scopes like "a::b" or "Foo::bar" parse; a real address has a digit. */
    bool digit = false;
    for (size_t i = p; i < q && !digit; i++)
        digit = is_digit(t[i]);
    if (!digit || memchr(t + p, ':', q - p) == NULL)
        return scan_end;
    emit_ip(job, p, q);
    return scan_end;
}

/* ---- passport_us ---- */

/* The expression saw "passport" at most 40 bytes before a 9-character candidate
 * ending here. */
static size_t extract_passport(rp_scan_job *job, size_t end)
{
    size_t start = end - 9;
    if (is_alnum(at(job, end)) || is_alnum(before(job, start)) || before(job, start) == '-')
        return end;
    if (rp_scan_passport_us(job->text + start, 9))
        rp_scan_emit(job, RP_SCAN_PASSPORT_US, start, end, RP_MASK_GENERIC);
    return end;
}

/* ---- date_of_birth ---- */

#define DATE_MAX_SPAN 32

/* The expression saw a birth label at most 40 bytes before a digit ending here.
 * A date ends in its year (4 digits: "12 March 1985", "03/12/1985") or, in the
 * ISO form, in a 1-2 digit day after a separator ("1985-03-12"); any other end
 * is rejected before a start is tried, which keeps a label followed by a run
 * of numbers cheap. The start is a word start at most 32 bytes back (the ISO
 * form: 8-10 bytes back). The longest valid date wins (the day of
 * "12 March 1985", not just "March 1985"). */
static size_t extract_dob(rp_scan_job *job, size_t end)
{
    const char *t = job->text;
    if (end < 8 || is_alnum(at(job, end))) /* the shortest date is 8 bytes */
        return end;
    size_t run = 0;
    while (run < end && run < 5 && is_digit(t[end - 1 - run]))
        run++;
    char sep = run < end ? t[end - 1 - run] : '\0';
    size_t lo, hi = end - 8;
    if (run == 4 && (sep == ' ' || sep == '-' || sep == '/' || sep == '.'))
        lo = end > DATE_MAX_SPAN ? end - DATE_MAX_SPAN : 0;
    else if ((run == 1 || run == 2) && (sep == '-' || sep == '/' || sep == '.'))
        lo = end >= 10 ? end - 10 : 0;
    else
        return end;
    for (size_t s = lo; s <= hi; s++) {
        if (!is_alnum(t[s]) || is_alnum(before(job, s)))
            continue;
        if (rp_scan_date_of_birth(t + s, end - s)) {
            rp_scan_emit(job, RP_SCAN_DATE_OF_BIRTH, s, end, RP_MASK_GENERIC);
            return end;
        }
    }
    return end;
}

/* ---- the rules ---- */

#define CI RP_SCAN_RULE_CASELESS

/* Trigger frequency matters more than expression shape: the default set (ssn,
 * credit_card, email, phone) must stay rare on prose, code and logs, so no
 * trigger fires on short digit runs: cards need 13 digits, national phones 10,
 * E.164 phones '+' and 8 digits. */
const rp_scan_rule rp_scan_pii_rules[] = {
    {RP_SCAN_SSN, "\\d{3}-\\d{2}-\\d{4}", 0, extract_ssn_dashed},
    {RP_SCAN_SSN, "\\d{3} \\d{2} \\d{4}", 0, extract_ssn_spaced},
    {RP_SCAN_SSN,
     "\\b(?:ssn|social\\s+security(?:\\s+(?:number|no|num))?)s?\\b[^0-9\\n]{0,"
     "20}\\d{9}",
     CI, extract_ssn_labelled},
    {RP_SCAN_CREDIT_CARD, "\\d(?:[ \\-]?\\d){12}", 0, extract_card},
    {RP_SCAN_EMAIL, "[A-Za-z0-9._%+\\-]@[A-Za-z0-9]", 0, extract_email},
    {RP_SCAN_PHONE, "\\+\\d(?:[ \\-.()]{0,2}\\d){7}", 0, extract_phone},
    {RP_SCAN_PHONE, "\\(\\d{2,5}\\)[ \\-]?\\d", 0, extract_phone},
    {RP_SCAN_PHONE, "\\d(?:[ \\-.]?\\d){9}", 0, extract_phone},
    {RP_SCAN_IBAN, "\\b[A-Za-z]{2}\\d{2}(?: ?[A-Za-z0-9]{4}){2} ?[A-Za-z0-9]{3}", 0, extract_iban},
    {RP_SCAN_IP_ADDRESS, "\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d", 0, extract_ipv4},
    {RP_SCAN_IP_ADDRESS, "[0-9A-Fa-f]{1,4}::", 0, extract_ipv6},
    {RP_SCAN_IP_ADDRESS, "[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}", 0, extract_ipv6},
    {RP_SCAN_IP_ADDRESS, "(?:^|[^0-9A-Za-z_:])::[0-9A-Fa-f]", 0, extract_ipv6},
    {RP_SCAN_PASSPORT_US,
     "(?:passport|reisepass|passeport|pasaporte|passaporto|paspoort).{0,40}[A-"
     "Za-z0-9]\\d{8}",
     CI | RP_SCAN_RULE_DOTALL, extract_passport},
    {RP_SCAN_DATE_OF_BIRTH,
     "(?:\\bdob\\b|d\\.o\\.b|date[\\s_-]*of[\\s_-]*birth|birth[\\s_-]*date|"
     "birthday|\\bborn\\b|"
     "geburtsdatum|date\\s+de\\s+naissance|fecha\\s+de\\s+nacimiento|data\\s+"
     "di\\s+nascita|"
     "geboortedatum|n\\xc3\\xa9e?\\s+le|"
     "\\xe7\\x94\\x9f\\xe5\\xb9\\xb4\\xe6\\x9c\\x88\\xe6\\x97\\xa5|"
     "\\xe5\\x87\\xba\\xe7\\x94\\x9f\\xe6\\x97\\xa5\\xe6\\x9c\\x9f)[^\\n]{0,40}"
     "\\d",
     CI, extract_dob},
};
const size_t rp_scan_pii_rule_count = sizeof rp_scan_pii_rules / sizeof rp_scan_pii_rules[0];
