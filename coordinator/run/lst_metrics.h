/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Live metrics for Prometheus: a small store of gauges and counters and an HTTP endpoint that
 * serves them in the Prometheus text format (version 0.0.4) on GET /metrics.
 *
 * Nothing here has a thread of its own: the listening socket and the open connections are
 * non-blocking descriptors that the owner's poll loop waits on (lst_metrics_pollfds) next to
 * its other sockets, and lst_metrics_serve then accepts, reads and answers whatever is ready,
 * never waiting. A request is bounded (LST_METRICS_REQ_MAX bytes of head), a connection is
 * closed after its answer or after LST_METRICS_IDLE_NS, and at most LST_METRICS_CLIENTS are open
 * at once (a connection beyond those is accepted and closed at once, so the backlog never wakes
 * the loop in vain). The store knows nothing of runs: the families are the caller's table, a
 * series is a family and a label set ("a=\"x\",b=\"y\"", made with lst_metrics_labels).
 */
#ifndef LST_METRICS_H
#define LST_METRICS_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_err.h"

#define LST_METRICS_CLIENTS 4
#define LST_METRICS_REQ_MAX 4096
#define LST_METRICS_IDLE_NS (5 * 1000000000LL)
#define LST_METRICS_NFDS (1 + LST_METRICS_CLIENTS) /* what lst_metrics_pollfds may fill */
#define LST_METRICS_DEFAULT_HOST "127.0.0.1"

enum lst_metric_type { LST_METRIC_GAUGE, LST_METRIC_COUNTER };

/* One family: its full name, its type, its HELP text. The strings are the caller's, static. */
struct lst_metric_family {
	const char *name;
	enum lst_metric_type type;
	const char *help;
};

typedef struct lst_metrics lst_metrics;

/*
 * Parse "HOST:PORT", ":PORT" (HOST 127.0.0.1) or "[V6]:PORT" into host (size bytes) and port.
 * HOST must be a numeric address: nothing is looked up. 0, or -EINVAL with err saying why.
 */
int lst_metrics_parse_addr(const char *spec, char *host, size_t size, uint16_t *port, lst_err *err);

/*
 * A store for the nfams families of fams (borrowed, must outlive it) and, when spec is not
 * NULL, an endpoint listening on it (lst_metrics_parse_addr). NULL with err when spec is bad
 * or the address cannot be bound.
 */
lst_metrics *lst_metrics_new(const char *spec, const struct lst_metric_family *fams, size_t nfams,
			     lst_err *err);
/* Close the endpoint and its connections, free the store; safe twice. */
void lst_metrics_destroy(lst_metrics **p);

/* The address really bound ("127.0.0.1:9400"), "" without an endpoint. Borrowed. */
const char *lst_metrics_address(const lst_metrics *m);

/*
 * Labels text for a series: pairs of name and value up to a (char *)NULL name (a pointer: a
 * bare NULL may be an int 0 in a variadic call), values escaped as the format says. Written into buf (size bytes, cut short if too small). Returns buf.
 */
char *lst_metrics_labels(char *buf, size_t size, ...) __attribute__((sentinel));

/* Series (family fam, labels) is v now / grows by v. A new label set makes a new series. */
void lst_metrics_set(lst_metrics *m, size_t fam, const char *labels, double v);
void lst_metrics_add(lst_metrics *m, size_t fam, const char *labels, double v);
/* Drop every series of family fam (an info gauge whose labels changed). */
void lst_metrics_clear(lst_metrics *m, size_t fam);

/* The whole exposition, as GET /metrics answers it. The caller frees it. */
char *lst_metrics_render(const lst_metrics *m);

/*
 * The descriptors to wait on, at most LST_METRICS_NFDS, into fds (events set, revents 0).
 * Returns how many; 0 without an endpoint.
 */
size_t lst_metrics_pollfds(const lst_metrics *m, struct pollfd *fds);
/*
 * After the wait: accept, read and answer what fds (as lst_metrics_pollfds filled them, with
 * revents) say is ready, then lst_metrics_expire. Never blocks.
 */
void lst_metrics_serve(lst_metrics *m, const struct pollfd *fds, size_t nfds);

/*
 * Close every connection open for more than LST_METRICS_IDLE_NS at now (lst_mono_ns). A
 * connection that sends nothing wakes no poll, so the owner calls this at each wake-up of its
 * loop, whether or not a metrics descriptor was ready: its limit then holds to within the
 * loop's longest wait.
 */
void lst_metrics_expire(lst_metrics *m, int64_t now);

#endif
