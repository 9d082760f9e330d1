#define _GNU_SOURCE /* setresuid, setresgid */
#include "cli_privs.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Debian's tcpdump package creates this user for exactly this purpose. */
static const char *const default_users[] = {"tcpdump", "nobody"};

static bool lookup(struct privs *pv, const char *name)
{
    errno = 0;
    struct passwd *pw = getpwnam(name);
    if (!pw) return false;
    pv->uid = pw->pw_uid;
    pv->gid = pw->pw_gid;
    snprintf(pv->name, sizeof pv->name, "%s", name);
    return true;
}

int privs_plan(struct privs *pv, const char *user, bool live, char *err, size_t errlen)
{
    memset(pv, 0, sizeof *pv);
    if (user) {
        if (!lookup(pv, user)) {
            snprintf(err, errlen, "-Z %s: no such user", user);
            return -1;
        }
        if (geteuid() != 0 && pv->uid != geteuid()) {
            snprintf(err, errlen, "-Z %s: only root can switch to another user", user);
            return -1;
        }
        pv->drop = geteuid() == 0 && pv->uid != 0;
        return 0;
    }
    if (!live || geteuid() != 0) return 0;
    for (size_t i = 0; i < sizeof default_users / sizeof default_users[0]; i++) {
        if (lookup(pv, default_users[i])) {
            pv->drop = true;
            return 0;
        }
    }
    snprintf(err, errlen, "running as root and neither user 'tcpdump' nor 'nobody' exists to switch to: give -Z USER (-Z root to stay root)");
    return -1;
}

int privs_drop(const struct privs *pv, char *err, size_t errlen)
{
    if (!pv->drop) return 0;
    if (setgroups(1, &pv->gid) != 0 || setresgid(pv->gid, pv->gid, pv->gid) != 0 ||
        setresuid(pv->uid, pv->uid, pv->uid) != 0) {
        snprintf(err, errlen, "cannot switch to user %s: %s", pv->name, strerror(errno));
        return -1;
    }
    if (pv->uid != 0 && (setuid(0) == 0 || seteuid(0) == 0)) {
        snprintf(err, errlen, "switched to user %s but root could be regained", pv->name);
        return -1;
    }
    return 0;
}
