/* Capture file read in a thread of its own (see read_ahead.h).
 *
 * The reader thread fills chunks of 1 MiB with frames (header, then the
 * captured bytes) and hands full chunks over; the analysis takes them in
 * order and gives each back when it moves on to the next. A lock is taken
 * once per chunk (a few thousand frames), never per frame. 8 chunks: the
 * reader can be 8 MiB ahead, a fixed amount whatever the file. */
#include "read_ahead.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#ifdef __GLIBC__
#include <stdio_ext.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define CHUNKS 8
#define CHUNK_BYTES (1u << 20)
/* what is prefetched of the next frame: a small frame, or a large one's headers */
#define PREFETCH_BYTES 256
#define RING_ALIGN (2u << 20) /* a huge page */
/* stdio buffer of the file: 256 system calls fewer than libpcap's 4 KiB */
#define FILE_BUFFER (1u << 20)

struct chunk {
    size_t used;
    bool last;          /* the file ends after this chunk (or is damaged there) */
    unsigned char *buf;
};

struct read_ahead {
    pcap_t *p;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t filled, freed;
    struct chunk chunk[CHUNKS];
    unsigned nfilled;         /* chunks handed over and not yet given back */
    unsigned put, take;       /* next chunk the thread fills / the reader takes */
    bool stop;                /* the reader is gone: the thread ends */
    bool holding;             /* the reader holds chunk[take] */
    size_t pos;               /* the reader's position in chunk[take] */
    size_t end;               /* chunk[take].used, copied when taken */
    int status;               /* PCAP_ERROR_BREAK or PCAP_ERROR once the last chunk is read */
    char error[PCAP_ERRBUF_SIZE];
    struct pcap_pkthdr hdr;   /* the frame handed out (aligned copy) */
};

pcap_t *read_ahead_open(const char *path, char *ebuf, void **stdio_buf)
{
    *stdio_buf = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(ebuf, PCAP_ERRBUF_SIZE, "%s", strerror(errno));
        return NULL;
    }
    /* The buffer must be ours: given NULL, glibc ignores the size and reads
     * 4 KiB per system call (61,000 reads for 250 MB instead of 250). */
    void *buf = malloc(FILE_BUFFER);
    if (buf) setvbuf(f, buf, _IOFBF, FILE_BUFFER);
#ifdef __GLIBC__
    /* one thread at a time reads the stream (the opener, then the reader
     * thread it starts): no lock per fread, two per frame in libpcap */
    __fsetlocking(f, FSETLOCKING_BYCALLER);
#endif
    pcap_t *p = pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO, ebuf);
    if (!p) {
        fclose(f);
        free(buf);
        return NULL;
    }
    *stdio_buf = buf;
    return p;
}

static size_t align8(size_t n) { return (n + 7) & ~(size_t)7; }

/* Hand chunk[put] over; wait for the next one to be free. false: stopped. */
static bool hand_over(struct read_ahead *r, bool last)
{
    pthread_mutex_lock(&r->lock);
    r->chunk[r->put].last = last;
    r->nfilled++;
    r->put = (r->put + 1) % CHUNKS;
    pthread_cond_signal(&r->filled);
    while (!last && !r->stop && r->nfilled == CHUNKS) pthread_cond_wait(&r->freed, &r->lock);
    bool go = !r->stop;
    pthread_mutex_unlock(&r->lock);
    return go;
}

/* The reader thread's own state, apart from what the analysis reads: the
 * fill level is stored in the chunk only at the hand-over (the chunk array
 * shares cache lines with the chunk the analysis reads, and a store there
 * per frame would cost the analysis a cache miss per frame). */
struct filling {
    struct read_ahead *r;
    struct chunk *c;
    size_t used;
    bool stopped;
};

/* pcap_dispatch's callback: libpcap's own pcap_next_ex copies the header
 * once more, and that copy stalls reading what was just written. */
static void on_frame(u_char *user, const struct pcap_pkthdr *h, const u_char *data)
{
    struct filling *fl = (struct filling *)(void *)user;
    size_t caplen = h->caplen;
    if (caplen > CHUNK_BYTES - sizeof *h) caplen = CHUNK_BYTES - sizeof *h; /* above libpcap's own limit */
    size_t need = align8(sizeof *h + caplen);
    if (fl->used + need > CHUNK_BYTES) {
        fl->c->used = fl->used;
        if (!hand_over(fl->r, false)) {
            fl->stopped = true;
            pcap_breakloop(fl->r->p);
            return;
        }
        fl->c = &fl->r->chunk[fl->r->put];
        fl->used = 0;
    }
    /* field by field: libpcap wrote the header that way */
    struct pcap_pkthdr copy;
    memset(&copy, 0, sizeof copy);
    copy.ts.tv_sec = h->ts.tv_sec;
    copy.ts.tv_usec = h->ts.tv_usec;
    copy.caplen = (bpf_u_int32)caplen;
    copy.len = h->len;
    memcpy(fl->c->buf + fl->used, &copy, sizeof copy);
    memcpy(fl->c->buf + fl->used + sizeof copy, data, caplen);
    fl->used += need;
}

static void *reader(void *arg)
{
    struct read_ahead *r = arg;
    struct filling fl = {r, &r->chunk[r->put], 0, false};
    for (;;) {
        int rc = pcap_dispatch(r->p, 4096, on_frame, (u_char *)&fl);
        if (fl.stopped) return NULL;
        if (rc > 0) continue;
        /* 0: the end of the file; the status is read by the reader only
         * after it took this last chunk */
        r->status = rc == 0 ? PCAP_ERROR_BREAK : PCAP_ERROR;
        if (r->status == PCAP_ERROR) snprintf(r->error, sizeof r->error, "%s", pcap_geterr(r->p));
        fl.c->used = fl.used;
        hand_over(r, true);
        return NULL;
    }
}

struct read_ahead *read_ahead_start(pcap_t *p)
{
    struct read_ahead *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->p = p;
    /* one region for the ring, on huge pages where the kernel allows it:
     * every frame passes through it, 4 KiB pages cost a TLB miss each */
    unsigned char *ring = aligned_alloc(RING_ALIGN, (size_t)CHUNKS * CHUNK_BYTES);
    if (!ring) goto fail;
#ifdef MADV_HUGEPAGE
    madvise(ring, (size_t)CHUNKS * CHUNK_BYTES, MADV_HUGEPAGE);
#endif
    for (int i = 0; i < CHUNKS; i++) r->chunk[i].buf = ring + (size_t)i * CHUNK_BYTES;
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->filled, NULL);
    pthread_cond_init(&r->freed, NULL);
    /* signals stay with the main thread: its waits (the screen's pacing,
     * live polls) are what a signal must cut short */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&r->thread, NULL, reader, r);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        pthread_mutex_destroy(&r->lock);
        pthread_cond_destroy(&r->filled);
        pthread_cond_destroy(&r->freed);
        goto fail;
    }
    return r;
fail:
    free(r->chunk[0].buf);
    free(r);
    return NULL;
}

int read_ahead_next(struct read_ahead *r, struct pcap_pkthdr **h, const u_char **data)
{
    for (;;) {
        if (r->holding) {
            struct chunk *c = &r->chunk[r->take];
            if (r->pos < r->end) {
                memcpy(&r->hdr, c->buf + r->pos, sizeof r->hdr);
                *h = &r->hdr;
                *data = c->buf + r->pos + sizeof r->hdr;
                r->pos += align8(sizeof r->hdr + r->hdr.caplen);
                /* the next frame was written on the other core: ask for its
                 * first lines now, they arrive while this one is analysed */
                if (r->end - r->pos >= PREFETCH_BYTES)
                    for (size_t at = 0; at < PREFETCH_BYTES; at += 64) __builtin_prefetch(c->buf + r->pos + at);
                return 1;
            }
            if (c->last) return r->status;
            /* done with it: give it back */
            pthread_mutex_lock(&r->lock);
            r->holding = false;
            r->nfilled--;
            r->take = (r->take + 1) % CHUNKS;
            pthread_cond_signal(&r->freed);
            pthread_mutex_unlock(&r->lock);
        }
        pthread_mutex_lock(&r->lock);
        while (r->nfilled == 0) pthread_cond_wait(&r->filled, &r->lock);
        pthread_mutex_unlock(&r->lock);
        r->holding = true;
        r->pos = 0;
        r->end = r->chunk[r->take].used;
    }
}

const char *read_ahead_error(const struct read_ahead *r) { return r->error; }

void read_ahead_stop(struct read_ahead *r)
{
    if (!r) return;
    pthread_mutex_lock(&r->lock);
    r->stop = true;
    pthread_cond_signal(&r->freed);
    pthread_mutex_unlock(&r->lock);
    pthread_join(r->thread, NULL);
    pthread_mutex_destroy(&r->lock);
    pthread_cond_destroy(&r->filled);
    pthread_cond_destroy(&r->freed);
    free(r->chunk[0].buf); /* the ring */
    free(r);
}
