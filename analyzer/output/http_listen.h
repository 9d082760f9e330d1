/* The listening sockets of the metrics endpoint: one per address that
 * "HOST:PORT" names. ":PORT" is every address of both families (0.0.0.0
 * and [::], the IPv6 socket IPv6-only so that the two can coexist); a name
 * is each address it resolves to; "[v6]:PORT" that IPv6 address ("[::]"
 * alone keeps the system's dual-stack default). */
#ifndef NFSSCOPE_OUTPUT_HTTP_LISTEN_H
#define NFSSCOPE_OUTPUT_HTTP_LISTEN_H
#include <stddef.h>

#define HTTP_LISTEN_MAX 4

struct http_listen {
    int n;
    int fd[HTTP_LISTEN_MAX];             /* non-blocking, close-on-exec */
    char addr[HTTP_LISTEN_MAX][64];      /* as bound: "127.0.0.1:9464", "[::]:9464" */
};

/* 0, or -1 with a one-line reason in err (nothing left open). Port 0: the
 * kernel picks one, the same for every address. An address of a family
 * this host lacks is skipped; any other failure to bind fails the whole. */
int http_listen_open(struct http_listen *l, const char *hostport, int backlog, char *err, size_t errlen);
void http_listen_close(struct http_listen *l);

#endif
