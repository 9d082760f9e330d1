/* Listening sockets for the metrics endpoint (http_listen.h). */
#include "http_listen.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* "127.0.0.1:9464" or "[::1]:9464" of a bound socket; its port. */
static int name_of(int fd, char *out, size_t len)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    char a[INET6_ADDRSTRLEN] = "?";
    snprintf(out, len, "?");
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0) return 0;
    if (ss.ss_family == AF_INET6) {
        const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&ss;
        inet_ntop(AF_INET6, &s6->sin6_addr, a, sizeof a);
        snprintf(out, len, "[%s]:%d", a, ntohs(s6->sin6_port));
        return ntohs(s6->sin6_port);
    }
    const struct sockaddr_in *s4 = (const struct sockaddr_in *)&ss;
    inet_ntop(AF_INET, &s4->sin_addr, a, sizeof a);
    snprintf(out, len, "%s:%d", a, ntohs(s4->sin_port));
    return ntohs(s4->sin_port);
}

/* Bind one address; port (when not 0) replaces the address's own. The
 * socket, or -1 with errno set. */
static int bind_one(const struct addrinfo *ai, int port, int backlog, int v6only)
{
    struct sockaddr_storage ss;
    memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
    if (port && ss.ss_family == AF_INET6) ((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)port);
    if (port && ss.ss_family == AF_INET) ((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)port);
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    /* [::] beside 0.0.0.0 must not take IPv4 too, or the second bind fails;
     * alone ("[::]:PORT") it keeps the system's default (dual stack) */
    if (ai->ai_family == AF_INET6 && v6only) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&ss, ai->ai_addrlen) != 0 || listen(fd, backlog) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

static int seen(const struct addrinfo *res, const struct addrinfo *ai)
{
    for (const struct addrinfo *p = res; p != ai; p = p->ai_next)
        if (p->ai_addrlen == ai->ai_addrlen && memcmp(p->ai_addr, ai->ai_addr, ai->ai_addrlen) == 0) return 1;
    return 0;
}

int http_listen_open(struct http_listen *l, const char *hostport, int backlog, char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    char host[256];
    const char *colon = strrchr(hostport, ':');
    if (!colon || !colon[1] || (size_t)(colon - hostport) >= sizeof host) {
        snprintf(err, errlen, "--metrics: expected HOST:PORT, got %s", hostport);
        return -1;
    }
    memcpy(host, hostport, (size_t)(colon - hostport));
    host[colon - hostport] = 0;
    if (host[0] == '[' && host[strlen(host) - 1] == ']') { /* [v6] */
        memmove(host, host + 1, strlen(host));
        host[strlen(host) - 1] = 0;
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
    struct addrinfo *res;
    int rc = getaddrinfo(host[0] ? host : NULL, colon + 1, &hints, &res);
    if (rc != 0) {
        snprintf(err, errlen, "--metrics %s: %s", hostport, gai_strerror(rc));
        return -1;
    }
    int e = 0, port = 0, v4 = 0;
    for (const struct addrinfo *ai = res; ai; ai = ai->ai_next) v4 |= ai->ai_family == AF_INET;
    for (const struct addrinfo *ai = res; ai && l->n < HTTP_LISTEN_MAX; ai = ai->ai_next) {
        if (seen(res, ai)) continue;
        int fd = bind_one(ai, port, backlog, v4);
        if (fd < 0) {
            e = errno;
            if (e == EAFNOSUPPORT || e == EADDRNOTAVAIL) continue; /* no such family or address here */
            char a[INET6_ADDRSTRLEN] = "?";
            const void *in = ai->ai_family == AF_INET6 ? (const void *)&((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr
                                                       : (const void *)&((struct sockaddr_in *)ai->ai_addr)->sin_addr;
            inet_ntop(ai->ai_family, in, a, sizeof a);
            snprintf(err, errlen, ai->ai_family == AF_INET6 ? "--metrics %s: [%s]: %s" : "--metrics %s: %s: %s", hostport,
                     a, strerror(e));
            freeaddrinfo(res);
            http_listen_close(l);
            return -1;
        }
        l->fd[l->n] = fd;
        int p = name_of(fd, l->addr[l->n], sizeof l->addr[l->n]);
        if (!port) port = p; /* port 0: the others take the one the kernel gave the first */
        l->n++;
    }
    freeaddrinfo(res);
    if (l->n == 0) {
        snprintf(err, errlen, "--metrics %s: %s", hostport, strerror(e ? e : EADDRNOTAVAIL));
        return -1;
    }
    return 0;
}

void http_listen_close(struct http_listen *l)
{
    for (int i = 0; i < l->n; i++) close(l->fd[i]);
    l->n = 0;
}
