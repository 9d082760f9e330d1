/* --peer: the two-point analysis (nfsscope/two_point.h, doc/two-points.md).
 * The server capture is analysed first, to its end, by an analyzer of its
 * own; the client capture's transactions then pass through here on their
 * way to the report's filter and the transaction log (each learns its
 * split); after the run the client capture's frames are read once more for
 * their TCP segments. */
#ifndef NFSSCOPE_CLI_PEER_H
#define NFSSCOPE_CLI_PEER_H
#include <stddef.h>

#include "nfsscope/nfsscope.h"
#include "nfsscope/two_point.h"

struct peer {
    ns_two_point *tp;
    ns_analyzer *a;              /* the client capture's analyzer */
    ns_txn_fn next;              /* where transactions go on to */
    void *next_ctx;
    struct ns_tp_split split;    /* the split of the transaction being handed on */
};

/* Analyse server_file with an analyzer configured as cfg: 0, or -1 with a
 * one-line reason in err. */
int peer_open(struct peer *p, const char *server_file, const struct ns_config *cfg, char *err, size_t errlen);
/* Route the client analyzer a's transactions through the peer, then to next. */
void peer_attach(struct peer *p, ns_analyzer *a, ns_txn_fn next, void *next_ctx);
/* ns_txn_fn; ctx is the struct peer. */
void peer_on_txn(void *ctx, const struct ns_txn *t);
/* After the client run: its frames from client_file, then the figures. */
int peer_finish(struct peer *p, const char *client_file, char *err, size_t errlen);
void peer_close(struct peer *p);

#endif
