/* Reading a capture file in a thread of its own: libpcap's reading (system
 * calls, copying, the filter) runs on one core while the analysis runs on
 * the other, so reading a file takes about max(read, analyse) rather than
 * their sum. Frames come out in file order, exactly as pcap_next_ex gives
 * them. Only for regular files: pipes and live capture keep their own loop
 * (stopping and draining them is about what is in flight). */
#ifndef NFSSCOPE_READ_AHEAD_H
#define NFSSCOPE_READ_AHEAD_H
#include <pcap/pcap.h>

struct read_ahead;

/* Open a capture file for reading with a large stdio buffer (libpcap's own
 * open reads it 4 KiB per system call). NULL with libpcap's reason in ebuf
 * (PCAP_ERRBUF_SIZE) or the system's. *stdio_buf: free it after pcap_close
 * (the stream uses it until then). */
pcap_t *read_ahead_open(const char *path, char *ebuf, void **stdio_buf);
/* Start reading p (opened, its filter set) in a thread. NULL: no thread
 * (out of memory, no thread): the caller reads p itself. */
struct read_ahead *read_ahead_start(pcap_t *p);
/* As pcap_next_ex on p: 1 and the next frame (valid until the next call),
 * PCAP_ERROR_BREAK at the end of the file, PCAP_ERROR on damage (its text
 * by read_ahead_error) after every frame before it was handed out. */
int read_ahead_next(struct read_ahead *r, struct pcap_pkthdr **h, const u_char **data);
const char *read_ahead_error(const struct read_ahead *r);
/* Stop the thread (it may be ahead of the reader) and free. NULL is fine. */
void read_ahead_stop(struct read_ahead *r);

#endif
