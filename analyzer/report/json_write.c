#include "json_write.h"

#include "nfsscope/view.h"

void json_str(FILE *o, const char *s, size_t n)
{
    fputc('"', o);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') { fputc('\\', o); fputc(c, o); }
        else if (c == '\n') fputs("\\n", o);
        else if (c == '\t') fputs("\\t", o);
        else if (c < 0x20 || c >= 0x7f) fprintf(o, "\\u%04x", c); /* wire bytes, not UTF-8 */
        else fputc(c, o);
    }
    fputc('"', o);
}

void json_ts(FILE *o, int64_t ns)
{
    int64_t us = ns / 1000;
    if (us < 0) { fputc('-', o); us = -us; }
    fprintf(o, "%lld.%06lld", (long long)(us / 1000000), (long long)(us % 1000000));
}

void json_hex(FILE *o, const uint8_t *b, size_t n)
{
    fputc('"', o);
    for (size_t i = 0; i < n; i++) fprintf(o, "%02x", b[i]);
    fputc('"', o);
}

void json_conn(FILE *o, uint32_t id)
{
    char b[NS_CONN_NAME_LEN];
    json_cstr(o, ns_conn_name(id, b, sizeof b));
}
