/* Giving up root once the capture is open (like tcpdump -Z). */
#ifndef NFSSCOPE_CLI_PRIVS_H
#define NFSSCOPE_CLI_PRIVS_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct privs {
    bool drop;          /* switch user after opening the capture and the output files */
    uid_t uid;
    gid_t gid;
    char name[64];
};

/* Decide whom to become: user (-Z, NULL if not given), live (capturing from
 * an interface). As root, live capture drops to "tcpdump" if that user exists,
 * else "nobody"; -Z USER always switches (-Z root keeps root). Returns 0, or
 * -1 with a message in err (unknown user, or -Z given to a non-root process
 * for another user). Call before opening anything, so mistakes show early. */
int privs_plan(struct privs *pv, const char *user, bool live, char *err, size_t errlen);
/* Switch to the planned user and group (supplementary groups: the user's
 * primary group only) and check that root cannot be regained. Returns 0 or
 * -1 with a message in err. */
int privs_drop(const struct privs *pv, char *err, size_t errlen);

#endif
