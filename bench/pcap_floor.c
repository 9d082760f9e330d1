/* pcap_floor: the cheapest possible pass over a capture with libpcap, the
 * floor any analyzer reading through libpcap can reach: pcap_open_offline +
 * pcap_next_ex, counting packets and captured bytes (and touching one byte of
 * each packet so the data is really read).
 * Build: cc -O2 -o pcap_floor pcap_floor.c -lpcap
 */
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: pcap_floor FILE\n");
        return 2;
    }
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *pc = pcap_open_offline(argv[1], err);
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
