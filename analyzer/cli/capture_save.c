/* Saving captured frames (see capture_save.h). */
#include "capture_save.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct capture_save {
    pcap_t *p;
    pcap_dumper_t *d;
    const char *base;
    uint64_t rotate_bytes;
    int rotate_files;
    int digits;     /* tcpdump: digits of -W N - 1, 0 without -W */
    int count;      /* number of the file being written */
    bool failed;
    char name[1024];
    char error[1200];
};

/* tcpdump's MakeFilename: FILE for the first without -W, else FILE<count>. */
static void make_name(struct capture_save *s)
{
    if (s->count == 0 && s->digits == 0) snprintf(s->name, sizeof s->name, "%s", s->base);
    else snprintf(s->name, sizeof s->name, "%s%0*d", s->base, s->digits, s->count);
}

static int open_current(struct capture_save *s)
{
    make_name(s);
    s->d = pcap_dump_open(s->p, s->name);
    if (!s->d) {
        /* libpcap's message often names the file already: name it once */
        const char *why = pcap_geterr(s->p);
        size_t nl = strlen(s->name);
        if (strncmp(why, s->name, nl) == 0 && why[nl] == ':' && why[nl + 1] == ' ') why += nl + 2;
        snprintf(s->error, sizeof s->error, "%s: %s", s->name, why);
        s->failed = true;
        return -1;
    }
    return 0;
}

struct capture_save *save_open(pcap_t *p, const char *name, uint64_t rotate_bytes, int rotate_files, char *err,
                               size_t errlen)
{
    struct capture_save *s = calloc(1, sizeof *s);
    if (!s) { snprintf(err, errlen, "out of memory"); return NULL; }
    *s = (struct capture_save){.p = p, .base = name, .rotate_bytes = rotate_bytes};
    /* -W only means something with -C, as in tcpdump (we have no -G). */
    if (rotate_bytes && rotate_files > 0) {
        s->rotate_files = rotate_files;
        for (int x = rotate_files - 1; x > 0; x /= 10) s->digits++;
    }
    if (open_current(s) != 0) {
        snprintf(err, errlen, "%s", s->error);
        free(s);
        return NULL;
    }
    return s;
}

int save_frame(struct capture_save *s, const struct pcap_pkthdr *h, const unsigned char *data)
{
    if (s->failed) return -1;
    /* Like tcpdump: before writing, is the file already larger than -C? */
    if (s->rotate_bytes && pcap_dump_ftell64(s->d) > (int64_t)s->rotate_bytes) {
        if (pcap_dump_flush(s->d) != 0) {
            snprintf(s->error, sizeof s->error, "%s: %s", s->name, strerror(errno));
            s->failed = true;
        }
        pcap_dump_close(s->d);
        s->d = NULL;
        if (s->failed) return -1;
        s->count++;
        if (s->rotate_files && s->count >= s->rotate_files) s->count = 0;
        if (open_current(s) != 0) return -1;
    }
    pcap_dump((unsigned char *)s->d, h, data);
    return 0;
}

const char *save_error(const struct capture_save *s) { return s->error[0] ? s->error : NULL; }

int save_close(struct capture_save *s, char *err, size_t errlen)
{
    if (!s) return 0;
    int rc = 0;
    if (s->failed) { snprintf(err, errlen, "%s", s->error); rc = -1; }
    if (s->d) {
        if (pcap_dump_flush(s->d) != 0 || ferror(pcap_dump_file(s->d))) {
            snprintf(err, errlen, "%s: %s", s->name, strerror(errno));
            rc = -1;
        }
        pcap_dump_close(s->d);
    }
    free(s);
    return rc;
}
