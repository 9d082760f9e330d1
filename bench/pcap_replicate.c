/* pcap_replicate: build a large capture from small ones for benchmarking.
 *
 *   pcap_replicate -o OUT.pcap (-S MEGABYTES | -n COPIES) [-g GAP_MS] [-p PORTS] IN...
 *
 * All inputs are loaded into memory (they are small). The output is written
 * copy after copy; a copy is every input once, one after the other in time.
 * In each (copy, input) pass the client addresses are shifted by a unique
 * amount, so every pass has its own connections, while the server addresses
 * stay as they are (many clients of the same servers). A client is any
 * address that is not a server; servers are the addresses seen on the server
 * ports (default 111, 2049, 20048) of TCP/UDP packets of that input.
 * Payload and TCP sequence numbers are untouched, so every connection stays
 * consistent and reassembles. IPv4 header checksums are recomputed; TCP/UDP
 * checksums are left stale (neither nfsscope nor tshark checks them by
 * default). Timestamps are shifted so the output is in time order.
 *
 * Output: pcap with nanosecond timestamps and the link type that carries the
 * most bytes among the inputs (or -l NAME); inputs with another link type are
 * skipped with a warning.
 * Build: cc -O2 -o pcap_replicate pcap_replicate.c -lpcap
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pkt {
    uint64_t t_ns;      /* relative to the input's first packet */
    uint32_t caplen, len;
    size_t off;         /* into the input's data buffer */
};

struct addr {
    int fam;            /* 4 or 6 */
    uint8_t a[16];
};

struct input {
    const char *path;
    struct pkt *pkts;
    size_t npkts, cap;
    uint8_t *data;
    size_t dlen, dcap;
    uint64_t t0_ns, span_ns;
    int dlt;
    struct addr *servers;
    size_t nservers, scap;
};

static uint16_t server_ports[32];
static size_t nserver_ports;

static void die(const char *msg)
{
    fprintf(stderr, "pcap_replicate: %s\n", msg);
    exit(1);
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q)
        die("out of memory");
    return q;
}

static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

static bool is_server_port(uint16_t port)
{
    for (size_t i = 0; i < nserver_ports; i++)
        if (server_ports[i] == port)
            return true;
    return false;
}

/* Locate the IP header: returns its offset or -1; *fam = 4 or 6. */
static long ip_offset(int dlt, const uint8_t *p, uint32_t caplen, int *fam)
{
    size_t off;
    uint16_t et;
    switch (dlt) {
    case DLT_EN10MB:
        if (caplen < 14)
            return -1;
        et = be16(p + 12);
        off = 14;
        while ((et == 0x8100 || et == 0x88a8 || et == 0x9100) && caplen >= off + 4) {
            et = be16(p + off + 2);
            off += 4;
        }
        break;
    case DLT_LINUX_SLL:
        if (caplen < 16)
            return -1;
        et = be16(p + 14);
        off = 16;
        break;
    case DLT_LINUX_SLL2:
        if (caplen < 20)
            return -1;
        et = be16(p + 0);
        off = 20;
        break;
    case DLT_RAW:
#ifdef DLT_IPV4
    case DLT_IPV4:
    case DLT_IPV6:
#endif
        if (caplen < 1)
            return -1;
        et = (p[0] >> 4) == 6 ? 0x86dd : 0x0800;
        off = 0;
        break;
    default:
        return -1;
    }
    if (et == 0x0800 && caplen >= off + 20 && (p[off] >> 4) == 4) {
        *fam = 4;
        return (long)off;
    }
    if (et == 0x86dd && caplen >= off + 40 && (p[off] >> 4) == 6) {
        *fam = 6;
        return (long)off;
    }
    return -1;
}

/* Transport header of an IP packet (first fragment only); returns offset or -1. */
static long l4_offset(const uint8_t *p, uint32_t caplen, long ipoff, int fam, int *proto)
{
    const uint8_t *ip = p + ipoff;
    if (fam == 4) {
        size_t ihl = (size_t)(ip[0] & 0x0f) * 4;
        if ((be16(ip + 6) & 0x1fff) != 0)
            return -1; /* not the first fragment */
        *proto = ip[9];
        return (size_t)ipoff + ihl + 4 <= caplen ? ipoff + (long)ihl : -1;
    }
    /* IPv6: walk the usual extension headers */
    int nh = ip[6];
    size_t off = (size_t)ipoff + 40;
    for (int guard = 0; guard < 8; guard++) {
        if (nh == 0 || nh == 43 || nh == 60) {
            if (off + 8 > caplen)
                return -1;
            nh = p[off];
            off += ((size_t)p[off + 1] + 1) * 8;
        } else if (nh == 44) {
            if (off + 8 > caplen || (be16(p + off + 2) & 0xfff8) != 0)
                return -1;
            nh = p[off];
            off += 8;
        } else {
            break;
        }
    }
    *proto = nh;
    return off + 4 <= caplen ? (long)off : -1;
}

static bool addr_eq(const struct addr *x, int fam, const uint8_t *a)
{
    return x->fam == fam && memcmp(x->a, a, fam == 4 ? 4 : 16) == 0;
}

static bool is_server(const struct input *in, int fam, const uint8_t *a)
{
    for (size_t i = 0; i < in->nservers; i++)
        if (addr_eq(&in->servers[i], fam, a))
            return true;
    return false;
}

static void add_server(struct input *in, int fam, const uint8_t *a)
{
    if (is_server(in, fam, a))
        return;
    if (in->nservers == in->scap) {
        in->scap = in->scap ? in->scap * 2 : 8;
        in->servers = xrealloc(in->servers, in->scap * sizeof *in->servers);
    }
    struct addr *s = &in->servers[in->nservers++];
    memset(s, 0, sizeof *s);
    s->fam = fam;
    memcpy(s->a, a, fam == 4 ? 4 : 16);
}

static void find_servers(struct input *in, int dlt)
{
    for (size_t i = 0; i < in->npkts; i++) {
        const uint8_t *p = in->data + in->pkts[i].off;
        uint32_t caplen = in->pkts[i].caplen;
        int fam, proto;
        long ipoff = ip_offset(dlt, p, caplen, &fam);
        if (ipoff < 0)
            continue;
        long l4 = l4_offset(p, caplen, ipoff, fam, &proto);
        if (l4 < 0 || (proto != 6 && proto != 17))
            continue;
        const uint8_t *src = p + ipoff + (fam == 4 ? 12 : 8);
        const uint8_t *dst = p + ipoff + (fam == 4 ? 16 : 24);
        if (is_server_port(be16(p + l4)))
            add_server(in, fam, src);
        if (is_server_port(be16(p + l4 + 2)))
            add_server(in, fam, dst);
    }
}

static void load(struct input *in)
{
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *pc = pcap_open_offline_with_tstamp_precision(in->path, PCAP_TSTAMP_PRECISION_NANO, err);
    if (!pc) {
        fprintf(stderr, "pcap_replicate: %s\n", err);
        exit(1);
    }
    in->dlt = pcap_datalink(pc);
    struct pcap_pkthdr *h;
    const u_char *bytes;
    int rc;
    bool first = true;
    while ((rc = pcap_next_ex(pc, &h, &bytes)) == 1) {
        uint64_t t = (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec;
        if (first) {
            in->t0_ns = t;
            first = false;
        }
        if (in->npkts == in->cap) {
            in->cap = in->cap ? in->cap * 2 : 1024;
            in->pkts = xrealloc(in->pkts, in->cap * sizeof *in->pkts);
        }
        if (in->dlen + h->caplen > in->dcap) {
            while (in->dlen + h->caplen > in->dcap)
                in->dcap = in->dcap ? in->dcap * 2 : 1 << 20;
            in->data = xrealloc(in->data, in->dcap);
        }
        struct pkt *k = &in->pkts[in->npkts++];
        k->t_ns = t >= in->t0_ns ? t - in->t0_ns : 0; /* clamp the odd backwards stamp */
        k->caplen = h->caplen;
        k->len = h->len;
        k->off = in->dlen;
        memcpy(in->data + in->dlen, bytes, h->caplen);
        in->dlen += h->caplen;
        if (k->t_ns > in->span_ns)
            in->span_ns = k->t_ns;
    }
    if (rc == -1)
        fprintf(stderr, "pcap_replicate: %s: %s (using the %zu packets before)\n", in->path,
                pcap_geterr(pc), in->npkts);
    pcap_close(pc);
    find_servers(in, in->dlt);
}

static void ipv4_checksum(uint8_t *ip)
{
    size_t ihl = (size_t)(ip[0] & 0x0f) * 4;
    uint32_t sum = 0;
    ip[10] = ip[11] = 0;
    for (size_t i = 0; i < ihl; i += 2)
        sum += (uint32_t)(ip[i] << 8 | ip[i + 1]);
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    sum = ~sum & 0xffff;
    ip[10] = (uint8_t)(sum >> 8);
    ip[11] = (uint8_t)sum;
}

/* Add `shift` to the low 32 bits of an address (big-endian). */
static void shift_addr(uint8_t *a, int fam, uint32_t shift)
{
    uint8_t *low = a + (fam == 4 ? 0 : 12);
    uint32_t v = (uint32_t)low[0] << 24 | (uint32_t)low[1] << 16 | (uint32_t)low[2] << 8 | low[3];
    v += shift;
    low[0] = (uint8_t)(v >> 24);
    low[1] = (uint8_t)(v >> 16);
    low[2] = (uint8_t)(v >> 8);
    low[3] = (uint8_t)v;
}

static void rewrite(const struct input *in, int dlt, uint8_t *p, uint32_t caplen, uint32_t shift)
{
    int fam;
    long ipoff = ip_offset(dlt, p, caplen, &fam);
    if (ipoff < 0)
        return;
    uint8_t *ip = p + ipoff;
    uint8_t *src = ip + (fam == 4 ? 12 : 8);
    uint8_t *dst = ip + (fam == 4 ? 16 : 24);
    bool s_srv = is_server(in, fam, src), d_srv = is_server(in, fam, dst);
    if (!s_srv)
        shift_addr(src, fam, shift);
    if (!d_srv)
        shift_addr(dst, fam, shift);
    if (fam == 4 && (size_t)ipoff + (size_t)(ip[0] & 0x0f) * 4 <= caplen)
        ipv4_checksum(ip);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: pcap_replicate -o OUT (-S MEGABYTES | -n COPIES) [-g GAP_MS] [-p PORT,PORT,...]\n"
            "                      [-l LINKTYPE] IN...\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    double target_mb = 0;
    long copies = 0;
    long gap_ms = 1000;
    const char *ports = "111,2049,20048";
    int c;
    int dlt = -1;
    while ((c = getopt(argc, argv, "o:S:n:g:p:l:")) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'S': target_mb = strtod(optarg, NULL); break;
        case 'n': copies = strtol(optarg, NULL, 10); break;
        case 'g': gap_ms = strtol(optarg, NULL, 10); break;
        case 'p': ports = optarg; break;
        case 'l':
            dlt = pcap_datalink_name_to_val(optarg);
            if (dlt < 0)
                die("unknown link type name");
            break;
        default: usage();
        }
    }
    if (!out || optind >= argc || (target_mb <= 0 && copies <= 0))
        usage();
    for (const char *s = ports; *s && nserver_ports < 32;) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s)
            break;
        server_ports[nserver_ports++] = (uint16_t)v;
        s = *end ? end + 1 : end;
    }

    size_t nin = (size_t)(argc - optind);
    struct input *ins = calloc(nin, sizeof *ins);
    if (!ins)
        die("out of memory");
    uint64_t pass_bytes = 0, copy_span = 0, base_ns = 0;
    size_t used = 0;
    for (size_t i = 0; i < nin; i++) {
        ins[i].path = argv[optind + (int)i];
        load(&ins[i]);
    }
    if (dlt < 0) { /* the link type with the most bytes */
        size_t best = 0;
        for (size_t i = 0; i < nin; i++) {
            size_t sum = 0;
            for (size_t j = 0; j < nin; j++)
                if (ins[j].dlt == ins[i].dlt)
                    sum += ins[j].dlen;
            if (sum > best) {
                best = sum;
                dlt = ins[i].dlt;
            }
        }
    }
    for (size_t i = 0; i < nin; i++) {
        if (ins[i].npkts == 0)
            continue;
        if (ins[i].dlt != dlt) {
            fprintf(stderr, "pcap_replicate: skipping %s (link type %s, output is %s)\n", ins[i].path,
                    pcap_datalink_val_to_name(ins[i].dlt), pcap_datalink_val_to_name(dlt));
            free(ins[i].pkts);
            free(ins[i].data);
            free(ins[i].servers);
            continue;
        }
        if (used == 0)
            base_ns = ins[i].t0_ns;
        ins[used++] = ins[i];
    }
    if (used == 0)
        die("no packets in the inputs");
    for (size_t i = 0; i < used; i++) {
        for (size_t k = 0; k < ins[i].npkts; k++)
            pass_bytes += 16 + ins[i].pkts[k].caplen;
        copy_span += ins[i].span_ns + (uint64_t)gap_ms * 1000000u;
    }
    if (copies <= 0)
        copies = (long)((target_mb * 1e6 - 24) / (double)pass_bytes) + 1;
    if (copies < 1)
        copies = 1;
    if ((uint64_t)copies * used >= (1u << 24))
        die("too many copies (client address shifts would wrap)");

    pcap_t *dead = pcap_open_dead_with_tstamp_precision(dlt, 262144, PCAP_TSTAMP_PRECISION_NANO);
    FILE *fp = strcmp(out, "-") == 0 ? stdout : fopen(out, "wb");
    if (!dead || !fp) {
        fprintf(stderr, "pcap_replicate: %s: %s\n", out, strerror(errno));
        return 1;
    }
    static char fbuf[1 << 22];
    setvbuf(fp, fbuf, _IOFBF, sizeof fbuf);
    pcap_dumper_t *dump = pcap_dump_fopen(dead, fp);
    if (!dump)
        die(pcap_geterr(dead));

    size_t maxcap = 0;
    for (size_t i = 0; i < used; i++)
        for (size_t k = 0; k < ins[i].npkts; k++)
            if (ins[i].pkts[k].caplen > maxcap)
                maxcap = ins[i].pkts[k].caplen;
    uint8_t *scratch = xrealloc(NULL, maxcap + 16);

    uint64_t npkts = 0, nbytes = 24;
    for (long cp = 0; cp < copies; cp++) {
        uint64_t t_file = base_ns + (uint64_t)cp * copy_span;
        for (size_t i = 0; i < used; i++) {
            const struct input *in = &ins[i];
            uint32_t shift = (uint32_t)(((uint64_t)cp * used + i + 1) << 8);
            for (size_t k = 0; k < in->npkts; k++) {
                const struct pkt *pk = &in->pkts[k];
                memcpy(scratch, in->data + pk->off, pk->caplen);
                rewrite(in, dlt, scratch, pk->caplen, shift);
                uint64_t t = t_file + pk->t_ns;
                struct pcap_pkthdr h;
                h.ts.tv_sec = (time_t)(t / 1000000000u);
                h.ts.tv_usec = (suseconds_t)(t % 1000000000u); /* nanoseconds: nano dumper */
                h.caplen = pk->caplen;
                h.len = pk->len;
                pcap_dump((u_char *)dump, &h, scratch);
                npkts++;
                nbytes += 16 + pk->caplen;
            }
            t_file += in->span_ns + (uint64_t)gap_ms * 1000000u;
        }
    }
    pcap_dump_flush(dump);
    if (ferror(fp)) {
        fprintf(stderr, "pcap_replicate: write error on %s\n", out);
        return 1;
    }
    pcap_dump_close(dump);
    pcap_close(dead);
    fprintf(stderr, "pcap_replicate: %s: %ld copies of %zu inputs, %" PRIu64 " packets, %" PRIu64
                    " bytes, %.1f s of capture time\n",
            out, copies, used, npkts, nbytes, (double)copies * (double)copy_span / 1e9);
    for (size_t i = 0; i < used; i++) {
        free(ins[i].pkts);
        free(ins[i].data);
        free(ins[i].servers);
    }
    free(ins);
    free(scratch);
    return 0;
}
