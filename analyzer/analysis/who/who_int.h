/* Inside the who module: the tables, and the name steps of the calls
 * whose replies will say which handles their names have (who_names.c). */
#ifndef NFSSCOPE_WHO_INT_H
#define NFSSCOPE_WHO_INT_H
#include "path_map.h"
#include "who.h"
#include "who_table.h"

#define PROG_STEPS 48     /* name steps kept per COMPOUND (more: the rest not followed) */
#define PROG_ARENA 1024   /* bytes of handles and names kept per COMPOUND */
#define PENDING_SLOTS 256 /* calls awaiting their reply with steps kept; slot = id % PENDING_SLOTS */

struct prog_step {
    uint8_t step;
    uint16_t index;
    uint16_t a_off, a_len, b_off, b_len;
};

/* A call's name steps, in order. */
struct prog {
    uint64_t txn_id;      /* 0: free */
    uint16_t n, used;
    bool cut;
    bool naming;          /* has a step a reply completes */
    uint32_t main_index;  /* the COMPOUND's main operation */
    struct prog_step s[PROG_STEPS];
    uint8_t arena[PROG_ARENA];
};

/* A current handle while a COMPOUND's steps are followed: a node, then
 * names looked up below it whose handle is not known yet (rel). */
struct fh_pos {
    bool known;
    uint32_t node, gen;
    uint16_t rel_len;
    bool rel_cut;
    uint8_t rel[PATH_NAME_KEEP];
};

/* Following one reply's facts against its call's steps. */
struct run {
    bool active;
    uint64_t txn_id;
    const struct ns_txn *t;
    const struct prog *p; /* NULL: no steps kept (NFSv3 READDIRPLUS needs none) */
    uint16_t next;        /* the next step to follow */
    struct fh_pos cur, saved;
    bool getfh_seen;      /* a handle after the main operation was returned */
    uint8_t primary[WHO_KEY_MAX];
    uint8_t primary_len;
};

struct who_last {
    uint8_t len;
    uint8_t key[17];
    uint32_t idx, gen;
};

struct who {
    struct memcap *mc;
    struct path_map *pm;
    struct who_table files, users, clients;
    struct nfs_name_sink sink;
    struct prog scratch;  /* the call being decoded */
    bool scratch_reply;   /* begin() was for a reply: facts go to run */
    struct prog *pending; /* PENDING_SLOTS, made at first need */
    bool pending_refused;
    struct run run;
    uint64_t pending_evicted, txns_unattributed;
    struct who_last last_user, last_client; /* the rows counted last */
};

/* who_names.c */
void who_names_init(struct who *w);
void who_names_free(struct who *w);
/* The call t was decoded: keep its steps if its reply will complete them;
 * returns the handle current at its main operation (NULL: none known). */
const uint8_t *who_names_call(struct who *w, const struct ns_txn *t, uint32_t *len);
/* t's first reply was decoded: follow the steps that succeeded. Returns
 * the handle the transaction is about when the reply told it (the object
 * a LOOKUP, OPEN or CREATE reached), else NULL. */
const uint8_t *who_names_reply(struct who *w, const struct ns_txn *t, uint32_t *len);
/* who.c: the transaction's file row, made if needed */
void who_point_file(struct who *w, struct ns_txn *t, const uint8_t *fh, uint32_t len);

#endif
