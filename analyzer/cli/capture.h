/* The capture source of the program: a file ('-' = stdin) or a live
 * interface, opened with the user's options, read frame by frame, with the
 * capture's own counters (kernel and interface drops for live capture) and
 * an optional copy of what was captured (-w, rotated with -C/-W). The main
 * loop (batch, or the screen) only calls these. */
#ifndef NFSSCOPE_CAPTURE_H
#define NFSSCOPE_CAPTURE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_options.h"
#include "nfsscope/nfsscope.h"

struct capture;

struct capture_stats {
    bool live;
    const char *source;        /* file name, "standard input" or the interface */
    uint64_t frames;           /* frames handed out */
    uint64_t frames_read;      /* frames read: with a file's filter, also those it left out */
    uint64_t kernel_drops;     /* live: pcap_stats ps_drop (ring full) */
    uint64_t interface_drops;  /* live: pcap_stats ps_ifdrop */
    uint64_t received;         /* live: pcap_stats ps_recv (passed the filter) */
    bool stats_ok;             /* drops are known (pcap_stats answered) */
    int64_t start_ns, end_ns;  /* wall clock (CLOCK_REALTIME) of open and end; end 0 while running */
};

/* Open what o names. NULL with a one-line reason in err on failure. */
struct capture *capture_open(const struct options *o, char *err, size_t errlen);
/* Why a capture file cannot be read, in the words -r uses (the caller names
 * the file): before opening it (missing, a directory, empty), true with err
 * set; and libpcap's open error ebuf said the same way (not a capture, a
 * format to convert with editcap, compressed, header cut off). */
bool capture_file_unfit(const char *path, char *err, size_t errlen);
void capture_file_error(const char *path, const char *ebuf, char *err, size_t errlen);
/* Close; also flushes and closes the -w file: -1 with the reason in err if
 * writing it failed. */
int capture_close(struct capture *c, char *err, size_t errlen);
/* One line for the user: "listening on eth0, link-type EN10MB, ..., filter: ...". */
void capture_describe(const struct capture *c, char *buf, size_t len);
/* capture_stop was called. */
bool capture_stopped(const struct capture *c);
int capture_datalink(const struct capture *c);
/* Frames handed out so far (those past the filter; -c counts these). A
 * frame's number is its place in the file, filtered-out frames counted. */
uint64_t capture_delivered(const struct capture *c);
/* The BPF expression frames pass (a live capture's default included), or NULL. */
const char *capture_filter(const struct capture *c);
/* The file being read (for progress), or NULL (live, stdin counts too). */
FILE *capture_file(const struct capture *c);
/* A descriptor to poll for frames (live capture), or -1 (files: always ready). */
int capture_fd(const struct capture *c);
/* The next frame into *f (valid until the next call): 1 a frame, 0 none
 * within the read timeout (live), -1 the end: end of file, stopped (and the
 * ring drained), or an error (capture_error says which). */
int capture_next(struct capture *c, struct ns_frame *f);
/* Ask the capture to end; safe in a signal handler. Frames already in the
 * kernel ring (stamped before the stop), or already in a pipe, are still
 * handed out by capture_next before it returns -1; a file ends at once. */
void capture_stop(struct capture *c);
/* The capture is over (also when the caller stops reading, e.g. at -c):
 * the final counters and the end time are taken now. Idempotent. */
void capture_end(struct capture *c);
/* The reason the capture ended early (damaged file, device gone), or NULL. */
const char *capture_error(const struct capture *c);
/* Counters now (live capture: reads pcap_stats; after the end, the last
 * answer, taken when capture_next returned -1). */
void capture_stats(struct capture *c, struct capture_stats *out);

#endif
