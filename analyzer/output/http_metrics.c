#define _GNU_SOURCE /* accept4 */
/* The metrics endpoint (http_metrics.h). Everything non-blocking: a slow or
 * silent client costs the capture nothing but a poll() with no wait. */
#include "http_metrics.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http_listen.h"

/* A client is reading its request, sending the answer, or lingering
 * (answer sent, write side shut, reading what is left until EOF). */
enum state { FREE, READING, SENDING, CLOSING };

struct client {
    int fd;
    enum state st;
    uint64_t seq;                  /* accept order: the oldest is closed first */
    uint64_t round;                /* the poll that accepted it */
    int64_t deadline_ms;           /* monotonic: closed when reached */
    size_t len;                    /* request bytes read */
    char req[METRICS_HTTP_REQ_MAX];
    char *resp;                    /* response (headers and body) once the request is complete */
    size_t resp_len, sent;
};

struct metrics_http {
    struct http_listen l;
    uint64_t seq, round;
    struct client c[METRICS_HTTP_CLIENTS];
    char *body;                    /* the last render, served until METRICS_HTTP_CACHE_MS old */
    size_t blen;
    int body_rc;                   /* what render returned */
    int64_t body_ms;
    bool rendered;
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Connections the kernel holds while every slot is busy: they get in as
 * the oldest clients are closed. */
#define LISTEN_BACKLOG 64

struct metrics_http *metrics_http_open(const char *hostport, char *err, size_t errlen)
{
    struct metrics_http *h = calloc(1, sizeof *h);
    if (!h) { snprintf(err, errlen, "out of memory"); return NULL; }
    if (http_listen_open(&h->l, hostport, LISTEN_BACKLOG, err, errlen) != 0) { free(h); return NULL; }
    for (int i = 0; i < METRICS_HTTP_CLIENTS; i++) h->c[i].fd = -1;
    return h;
}

const char *metrics_http_address(const struct metrics_http *h, int i)
{
    return i >= 0 && i < h->l.n ? h->l.addr[i] : NULL;
}

static void drop(struct client *c)
{
    if (c->fd >= 0) close(c->fd);
    free(c->resp);
    *c = (struct client){.fd = -1, .st = FREE};
}

/* Closing with unread request bytes would reset the connection and could
 * destroy the answer before the client reads it (431): shut the write side
 * and read until the client closes, for at most LINGER_MS. */
#define LINGER_MS 1000

void metrics_http_close(struct metrics_http *h)
{
    if (!h) return;
    for (int i = 0; i < METRICS_HTTP_CLIENTS; i++) drop(&h->c[i]);
    http_listen_close(&h->l);
    free(h->body);
    free(h);
}

static void respond(struct client *c, const char *status, const char *type, const char *body, size_t blen)
{
    char head[256];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n", status,
                     type, blen);
    c->resp = malloc((size_t)n + blen);
    if (!c->resp) { drop(c); return; }
    memcpy(c->resp, head, (size_t)n);
    if (blen) memcpy(c->resp + n, body, blen);
    c->resp_len = (size_t)n + blen;
    c->sent = 0;
    c->st = SENDING;
}

static void error_page(struct client *c, const char *status)
{
    char body[128];
    int n = snprintf(body, sizeof body, "%s: nfsscope serves only GET /metrics\n", status);
    respond(c, status, "text/plain; charset=utf-8", body, (size_t)n);
}

/* The body of a scrape: the last render while it is younger than
 * METRICS_HTTP_CACHE_MS, else a new one (however many clients scrape, the
 * capture pays a render per interval at most). render's return value. */
static int body_of(struct metrics_http *h, int (*render)(void *, FILE *), void *ctx, int64_t now)
{
    if (h->rendered && now - h->body_ms < METRICS_HTTP_CACHE_MS) return h->body_rc;
    free(h->body);
    h->body = NULL;
    h->blen = 0;
    FILE *f = open_memstream(&h->body, &h->blen);
    int rc = f ? render(ctx, f) : -1;
    if (f && fclose(f) != 0) rc = -1;
    h->body_rc = rc;
    h->body_ms = now;
    h->rendered = true;
    return rc;
}

/* The request is complete (its headers ended): answer it. */
static void answer(struct metrics_http *h, struct client *c, int (*render)(void *, FILE *), void *ctx, int64_t now)
{
    c->req[c->len] = 0;
    char *sp1 = strchr(c->req, ' '), *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
    if (!sp1 || !sp2) { error_page(c, "400 Bad Request"); return; }
    *sp1 = *sp2 = 0;
    const char *path = sp1 + 1;
    size_t pl = strcspn(path, "?");
    if (strcmp(c->req, "GET") != 0) { error_page(c, "405 Method Not Allowed"); return; }
    if (pl != 8 || strncmp(path, "/metrics", 8) != 0) { error_page(c, "404 Not Found"); return; }
    if (body_of(h, render, ctx, now) == 0)
        respond(c, "200 OK", "text/plain; version=0.0.4; charset=utf-8", h->body, h->blen);
    else
        error_page(c, "500 Internal Server Error");
}

/* Read what the request has sent; answer once its headers end. The end is
 * looked for in the new bytes only (a trickling client costs no rescans). */
static void read_request(struct metrics_http *h, struct client *c, int (*render)(void *, FILE *), void *ctx, int64_t now)
{
    ssize_t r = read(c->fd, c->req + c->len, sizeof c->req - 1 - c->len);
    if (r < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (r <= 0) { drop(c); return; }
    size_t from = c->len > 3 ? c->len - 3 : 0;
    c->len += (size_t)r;
    if (memmem(c->req + from, c->len - from, "\r\n\r\n", 4) || memmem(c->req + from, c->len - from, "\n\n", 2))
        answer(h, c, render, ctx, now);
    else if (c->len >= sizeof c->req - 1)
        error_page(c, "431 Request Header Fields Too Large");
}

static void send_answer(struct client *c, int64_t now)
{
    ssize_t w = send(c->fd, c->resp + c->sent, c->resp_len - c->sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w < 0 && errno != EAGAIN && errno != EINTR) { drop(c); return; }
    if (w > 0) c->sent += (size_t)w;
    if (c->sent == c->resp_len) { /* all sent: close (Connection: close) */
        shutdown(c->fd, SHUT_WR);
        c->st = CLOSING;
        c->deadline_ms = now + LINGER_MS;
    }
}

/* One step of whatever the client is doing; a request completed here is
 * answered at once. */
static void serve(struct metrics_http *h, struct client *c, int (*render)(void *, FILE *), void *ctx, int64_t now)
{
    if (c->st == CLOSING) {
        char sink[4096];
        ssize_t r = read(c->fd, sink, sizeof sink);
        if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) drop(c);
        return;
    }
    if (c->st == READING) read_request(h, c, render, ctx, now);
    if (c->st == SENDING) send_answer(c, now);
}

/* The slot a new connection takes: a free one, else the oldest client
 * still reading its request or lingering, else the oldest of all; never one
 * accepted in this poll (it has not had the chance to send). NULL: none. */
static struct client *slot_for_new(struct metrics_http *h)
{
    struct client *idle = NULL, *any = NULL;
    for (int i = 0; i < METRICS_HTTP_CLIENTS; i++) {
        struct client *c = &h->c[i];
        if (c->st == FREE) return c;
        if (c->round == h->round) continue;
        if (!any || c->seq < any->seq) any = c;
        if (c->st != SENDING && (!idle || c->seq < idle->seq)) idle = c;
    }
    return idle ? idle : any;
}

/* Take the connections waiting on a listening socket, each into a
 * slot_for_new. */
static void accept_new(struct metrics_http *h, int lfd, int (*render)(void *, FILE *), void *ctx, int64_t now)
{
    for (;;) {
        struct client *c = slot_for_new(h);
        if (!c) return; /* the rest wait in the backlog for the next poll */
        int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) return;
        drop(c);
        *c = (struct client){.fd = fd, .st = READING, .seq = ++h->seq, .round = h->round,
                             .deadline_ms = now + METRICS_HTTP_DEADLINE_MS};
        serve(h, c, render, ctx, now); /* the request is often there already */
    }
}

static short events_of(const struct client *c)
{
    return c->st == SENDING ? POLLOUT : POLLIN;
}

void metrics_http_poll(struct metrics_http *h, int (*render)(void *ctx, FILE *f), void *ctx)
{
    struct pollfd pfd[METRICS_HTTP_CLIENTS + HTTP_LISTEN_MAX];
    int idx[METRICS_HTTP_CLIENTS], n = 0;
    for (int i = 0; i < METRICS_HTTP_CLIENTS; i++) {
        if (h->c[i].st == FREE) continue;
        pfd[n] = (struct pollfd){.fd = h->c[i].fd, .events = events_of(&h->c[i])};
        idx[n++] = i;
    }
    /* the listeners always: a full house must not keep newcomers out */
    for (int i = 0; i < h->l.n; i++) pfd[n + i] = (struct pollfd){.fd = h->l.fd[i], .events = POLLIN};
    if (poll(pfd, (nfds_t)(n + h->l.n), 0) < 0) return;
    int64_t now = now_ms();
    h->round++;
    /* clients first: a request that has arrived is answered before a
     * newcomer may close its connection */
    for (int k = 0; k < n; k++) {
        struct client *c = &h->c[idx[k]];
        if (pfd[k].revents & (POLLERR | POLLNVAL)) drop(c);
        else if (pfd[k].revents) serve(h, c, render, ctx, now);
    }
    for (int i = 0; i < METRICS_HTTP_CLIENTS; i++)
        if (h->c[i].st != FREE && now >= h->c[i].deadline_ms) drop(&h->c[i]);
    for (int i = 0; i < h->l.n; i++)
        if (pfd[n + i].revents & POLLIN) accept_new(h, h->l.fd[i], render, ctx, now);
}
