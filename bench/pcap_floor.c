/* pcap_floor: the cheapest possible pass over a capture with libpcap, the
 * floor any analyzer reading through libpcap can reach: pcap_open_offline +
 * pcap_next_ex, counting packets and captured bytes (and touching one byte of
 * each packet so the data is really read).
 * With -b KIB the file is read through a stdio buffer of that size.
 * Build: cc -O2 -o pcap_floor pcap_floor.c -lpcap
 */
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    /* -b KIB: read through a stdio buffer of that size (libpcap's own open
     * reads 4 KiB per system call); nfsscope reads files with 1 MiB */
    size_t buf_kib = 0;
    if (argc == 4 && strcmp(argv[1], "-b") == 0) {
        buf_kib = strtoul(argv[2], NULL, 10);
        argv += 2;
        argc -= 2;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: pcap_floor [-b KIB] FILE\n");
        return 2;
    }
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *pc;
    if (buf_kib) {
        FILE *f = fopen(argv[1], "rb");
        if (!f) {
            perror(argv[1]);
            return 1;
        }
        /* a buffer of ours: given NULL, glibc ignores the size (4 KiB reads) */
        setvbuf(f, malloc(buf_kib * 1024), _IOFBF, buf_kib * 1024);
        pc = pcap_fopen_offline(f, err);
    } else {
        pc = pcap_open_offline(argv[1], err);
    }
    if (!pc) {
        fprintf(stderr, "pcap_floor: %s\n", err);
        return 1;
    }
    struct pcap_pkthdr *h;
    const u_char *data;
    uint64_t packets = 0, bytes = 0, wire = 0;
    unsigned x = 0;
    int rc;
    while ((rc = pcap_next_ex(pc, &h, &data)) == 1) {
        packets++;
        bytes += h->caplen;
        wire += h->len;
        if (h->caplen)
            x ^= data[h->caplen - 1];
    }
    if (rc == -1) {
        fprintf(stderr, "pcap_floor: %s\n", pcap_geterr(pc));
        pcap_close(pc);
        return 1;
    }
    pcap_close(pc);
    printf("%" PRIu64 " packets, %" PRIu64 " bytes captured, %" PRIu64 " on the wire (%02x)\n", packets,
           bytes, wire, x);
    return 0;
}
