/* parse_int.h - one rule for a whole decimal integer in text (an option's value, a raw file's
 * field): optional '-', digits, nothing before or after, no overflow, within lo..hi. */
#ifndef WB_PARSE_INT_H
#define WB_PARSE_INT_H

/* 0 with *out set; -1 (and *out untouched) when s is not such an integer. */
int wb_parse_ll(const char *s, long long lo, long long hi, long long *out);

#endif
