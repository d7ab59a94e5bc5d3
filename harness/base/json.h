/* json.h - the few JSON writers the exporters and the run summary share:
 * strings escaped per RFC 8259, numbers that round-trip (%.17g), and NaN or
 * infinity as null (JSON has no NaN). */
#ifndef WB_JSON_H
#define WB_JSON_H

#include <stdio.h>

void wb_json_str(FILE *f, const char *s);
void wb_json_num(FILE *f, double v);
/* "key": with the key escaped; first != 0 leaves out the leading comma. */
void wb_json_key(FILE *f, const char *key, int first);
/* ,"key":value of a string (NULL: null) or a number: the members after an object's first. */
void wb_json_kv_str(FILE *f, const char *key, const char *value);
void wb_json_kv_num(FILE *f, const char *key, double value);

#endif
