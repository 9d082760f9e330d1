/* -w FILE: every captured frame saved with pcap_dump, rotated like tcpdump
 * -C/-W (names: FILE, FILE1, FILE2...; with -W N every name gets a number
 * padded to the digits of N-1: FILE0..FILE9 for -W 10, overwritten in turn). */
#ifndef NFSSCOPE_CAPTURE_SAVE_H
#define NFSSCOPE_CAPTURE_SAVE_H
#include <pcap/pcap.h>
#include <stddef.h>
#include <stdint.h>

struct capture_save;

/* Open the first file (before privileges are dropped). NULL with a reason. */
struct capture_save *save_open(pcap_t *p, const char *name, uint64_t rotate_bytes, int rotate_files, char *err,
                               size_t errlen);
/* Save one frame, rotating first when the file is past -C. Returns 0, or -1
 * once saving failed (the reason in save_error; later frames are not saved). */
int save_frame(struct capture_save *s, const struct pcap_pkthdr *h, const unsigned char *data);
const char *save_error(const struct capture_save *s);
/* Flush and close; -1 with the reason in err if the last writes failed. */
int save_close(struct capture_save *s, char *err, size_t errlen);

#endif
