/* A tiny HTTP server for Prometheus scrapes, driven by the capture loop:
 * metrics_http_poll never blocks (non-blocking sockets, poll with no wait),
 * answers only GET /metrics (404 for other paths, 405 for other methods),
 * one response per connection (Connection: close). No client can hold it:
 *  - a request line and headers over METRICS_HTTP_REQ_MAX bytes get 431;
 *  - an exchange must be over METRICS_HTTP_DEADLINE_MS after accept
 *    (request read, answer sent), however the bytes trickle in;
 *  - at most METRICS_HTTP_CLIENTS at once; when a connection waits and
 *    none is free, the oldest client still sending its request (or
 *    lingering after its answer) is closed to make room, else the oldest
 *    of all; a client accepted in this poll is never the one closed;
 *  - the body is rendered at most once per METRICS_HTTP_CACHE_MS and served
 *    from that copy: scrapes cost the capture one render a second at most. */
#ifndef NFSSCOPE_OUTPUT_HTTP_METRICS_H
#define NFSSCOPE_OUTPUT_HTTP_METRICS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define METRICS_HTTP_REQ_MAX 4096
#define METRICS_HTTP_CLIENTS 8
#define METRICS_HTTP_DEADLINE_MS 5000
#define METRICS_HTTP_CACHE_MS 1000

struct metrics_http;

/* Listen on "HOST:PORT" ("[v6]:PORT"; ":PORT" = every address, IPv4 and
 * IPv6; a name: each address it resolves to; http_listen.h). NULL with a
 * one-line reason in err. */
struct metrics_http *metrics_http_open(const char *hostport, char *err, size_t errlen);
void metrics_http_close(struct metrics_http *h);
/* The i-th address actually bound ("127.0.0.1:9100", "[::]:9100"), NULL
 * past the last. */
const char *metrics_http_address(const struct metrics_http *h, int i);
/* Serve what is ready now. render writes the body when a scrape needs a
 * fresh one; it returns 0, or -1 (the scrapes of that interval get a 500). */
void metrics_http_poll(struct metrics_http *h, int (*render)(void *ctx, FILE *f), void *ctx);

#endif
