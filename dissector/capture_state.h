/* The plugin's state for the open capture file (or live capture): one
 * analyzer of the core library fed each whole frame on the first pass, in
 * frame order, exactly as `nfsscope -r` feeds it, and the per-frame table
 * its events fill. Uses only the core's public API; knows nothing of
 * Wireshark, so it can be driven by a harness too. */
#ifndef NFSSCOPE_CAPTURE_STATE_H
#define NFSSCOPE_CAPTURE_STATE_H
#include <stdbool.h>
#include <stdint.h>

#include "frame_table.h"
#include "nfsscope/nfsscope.h"

struct capture_state {
    ns_analyzer *a;             /* NULL: not open, or the core refused (err) */
    char err[NS_ERRBUF_SIZE];
    struct frame_table frames;
    uint64_t last_fed;          /* highest frame number fed */
    uint64_t frames_out_of_order; /* first-pass frames not after the last fed: not fed */
    uint64_t synced_gen;        /* finding generation the table has taken in */
    uint64_t synced_frames;     /* frames fed when the table last took them in */
};

/* table_cap: bytes for the per-frame table. */
void capture_state_open(struct capture_state *cs, uint64_t table_cap);
void capture_state_close(struct capture_state *cs);
/* Feeds frame n (first pass). linktype is the DLT value; false if the
 * frame was not fed (out of order, link type unknown, state not open). */
bool capture_state_feed(struct capture_state *cs, uint64_t n, int64_t ts_ns, uint32_t caplen, uint32_t len,
                        int linktype, const uint8_t *data);
/* Before a revisit: bring findings up to date (settle) and mark every frame
 * a finding lists with it. Cheap when nothing changed since the last call. */
void capture_state_sync(struct capture_state *cs);
/* End of input (tshark's statistics are drawn): finish, then sync. */
void capture_state_finish(struct capture_state *cs);

#endif
