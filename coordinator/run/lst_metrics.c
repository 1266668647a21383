/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Live metrics (lst_metrics.h): the store is an array of families, each an array of series
 * (label text and value) kept in the order they first appeared, so an exposition lists each
 * family's series together under one HELP and TYPE, as the format requires. A family holds tens
 * of series at most, so finding one is a linear scan.
 *
 * The endpoint is plain non-blocking sockets: accept what the listening socket has, read each
 * connection's request head until its blank line, answer (the exposition is rendered then, into
 * the connection's own buffer), write what the socket takes and the rest when it is writable
 * again, then close. Any error on a connection closes it; nothing here logs per request.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lst_metrics.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_util.h"

struct s_series {
	char *labels;
	double v;
};

struct s_family {
	size_t n, cap;
	struct s_series *s;
};

struct s_client {
	int fd;			      /* -1: the slot is free */
	char in[LST_METRICS_REQ_MAX]; /* the request head so far */
	size_t nin;
	char *out; /* the answer, once made */
	size_t nout, sent;
	int64_t deadline;
};

struct lst_metrics {
	const struct lst_metric_family *fams;
	size_t nfams;
	struct s_family *f;
	int lfd; /* listening socket, -1 without an endpoint */
	char address[80];
	struct s_client cl[LST_METRICS_CLIENTS];
};

int lst_metrics_parse_addr(const char *spec, char *host, size_t size, uint16_t *port, lst_err *err)
{
	const char *colon = strrchr(spec, ':'), *h = spec;
	size_t hlen;
	char *end;
	long p;

	if (!colon || !colon[1])
		return lst_err_set(err, -EINVAL, "%s: give ADDR:PORT or :PORT", spec);
	errno = 0;
	p = strtol(colon + 1, &end, 10);
	if (*end || errno || p < 1 || p > 65535)
		return lst_err_set(err, -EINVAL, "%s: the port must be 1 to 65535", spec);
	hlen = (size_t)(colon - spec);
	if (hlen >= 2 && spec[0] == '[' && spec[hlen - 1] == ']') {
		h++;
		hlen -= 2;
	}
	if (!hlen) {
		lst_copy(host, size, LST_METRICS_DEFAULT_HOST);
	} else {
		unsigned char bin[16];
		char tmp[64];

		if (hlen >= sizeof(tmp))
			return lst_err_set(err, -EINVAL, "%s: the address is too long", spec);
		memcpy(tmp, h, hlen);
		tmp[hlen] = '\0';
		if (inet_pton(AF_INET, tmp, bin) != 1 && inet_pton(AF_INET6, tmp, bin) != 1)
			return lst_err_set(err, -EINVAL,
					   "%s: '%s' is not a numeric IPv4 or [IPv6] address", spec,
					   tmp);
		lst_copy(host, size, tmp);
	}
	*port = (uint16_t)p;
	return 0;
}

/* A non-blocking, close-on-exec listening socket on host:port; the fd or -errno with err. */
static int s_listen(const char *host, uint16_t port, lst_err *err)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai;
	char ports[8];
	int fd, one = 1, rc;

	snprintf(ports, sizeof(ports), "%u", port);
	if ((rc = getaddrinfo(host, ports, &hints, &ai)))
		return lst_err_set(err, -EINVAL, "%s: %s", host, gai_strerror(rc));
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		rc = -errno;
		freeaddrinfo(ai);
		return lst_err_sys(err, rc, "socket()");
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 16)) {
		rc = -errno;
		close(fd);
		freeaddrinfo(ai);
		return lst_err_sys(err, rc, "cannot listen on %s port %u", host, port);
	}
	freeaddrinfo(ai);
	return fd;
}

lst_metrics *lst_metrics_new(const char *spec, const struct lst_metric_family *fams, size_t nfams,
			     lst_err *err)
{
	lst_metrics *m;
	char host[64];
	uint16_t port = 0;
	int fd = -1;

	if (spec) {
		if (lst_metrics_parse_addr(spec, host, sizeof(host), &port, err))
			return NULL;
		fd = s_listen(host, port, err);
		if (fd < 0)
			return NULL;
	}
	m = lst_calloc(1, sizeof(*m));
	m->fams = fams;
	m->nfams = nfams;
	m->f = lst_calloc(nfams, sizeof(*m->f));
	m->lfd = fd;
	if (spec)
		snprintf(m->address, sizeof(m->address), strchr(host, ':') ? "[%s]:%u" : "%s:%u",
			 host, port);
	for (size_t i = 0; i < LST_METRICS_CLIENTS; i++)
		m->cl[i].fd = -1;
	return m;
}

static void s_client_close(struct s_client *cl)
{
	if (cl->fd >= 0)
		close(cl->fd);
	free(cl->out);
	cl->out = NULL;
	cl->fd = -1;
	cl->nin = cl->nout = cl->sent = 0;
}

void lst_metrics_destroy(lst_metrics **p)
{
	lst_metrics *m = *p;

	if (!m)
		return;
	for (size_t i = 0; i < LST_METRICS_CLIENTS; i++)
		s_client_close(&m->cl[i]);
	if (m->lfd >= 0)
		close(m->lfd);
	for (size_t f = 0; f < m->nfams; f++) {
		for (size_t i = 0; i < m->f[f].n; i++)
			free(m->f[f].s[i].labels);
		free(m->f[f].s);
	}
	free(m->f);
	free(m);
	*p = NULL;
}

const char *lst_metrics_address(const lst_metrics *m)
{
	return m->address;
}

/* Append s to buf (at *at, size bytes), escaped as a label value; cut short when full. */
static void s_escape(char *buf, size_t size, size_t *at, const char *s)
{
	for (; *s && *at + 3 < size; s++) {
		if (*s == '\\' || *s == '"') {
			buf[(*at)++] = '\\';
			buf[(*at)++] = *s;
		} else if (*s == '\n') {
			buf[(*at)++] = '\\';
			buf[(*at)++] = 'n';
		} else {
			buf[(*at)++] = *s;
		}
	}
	buf[*at] = '\0';
}

char *lst_metrics_labels(char *buf, size_t size, ...)
{
	va_list ap;
	const char *k;
	size_t at = 0;

	buf[0] = '\0';
	va_start(ap, size);
	while ((k = va_arg(ap, const char *))) {
		const char *v = va_arg(ap, const char *);
		int n = snprintf(buf + at, size - at, "%s%s=\"", at ? "," : "", k);

		if (n < 0 || (size_t)n >= size - at)
			break;
		at += (size_t)n;
		s_escape(buf, size, &at, v ? v : "");
		if (at + 2 > size)
			break;
		buf[at++] = '"';
		buf[at] = '\0';
	}
	va_end(ap);
	return buf;
}

/* Series (fam, labels), made (value 0) when new. */
static struct s_series *s_series(lst_metrics *m, size_t fam, const char *labels)
{
	struct s_family *f = &m->f[fam];
	struct s_series *s;

	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->s[i].labels, labels))
			return &f->s[i];
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 8;
		f->s = lst_realloc(f->s, f->cap * sizeof(*f->s));
	}
	s = &f->s[f->n++];
	s->labels = lst_strdup(labels);
	s->v = 0;
	return s;
}

void lst_metrics_set(lst_metrics *m, size_t fam, const char *labels, double v)
{
	s_series(m, fam, labels)->v = v;
}

void lst_metrics_add(lst_metrics *m, size_t fam, const char *labels, double v)
{
	s_series(m, fam, labels)->v += v;
}

void lst_metrics_clear(lst_metrics *m, size_t fam)
{
	struct s_family *f = &m->f[fam];

	for (size_t i = 0; i < f->n; i++)
		free(f->s[i].labels);
	f->n = 0;
}

/* A value as the format writes it: shortest exact form, NaN and infinities by name. */
static void s_value(FILE *o, double v)
{
	if (isnan(v))
		fputs("NaN", o);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", o);
	else
		fprintf(o, "%.17g", v);
}

char *lst_metrics_render(const lst_metrics *m)
{
	char *text = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&text, &len);

	if (!o)
		abort(); /* out of memory */
	for (size_t f = 0; f < m->nfams; f++) {
		const struct lst_metric_family *fam = &m->fams[f];

		if (!m->f[f].n)
			continue;
		fprintf(o, "# HELP %s %s\n# TYPE %s %s\n", fam->name, fam->help, fam->name,
			fam->type == LST_METRIC_COUNTER ? "counter" : "gauge");
		for (size_t i = 0; i < m->f[f].n; i++) {
			const struct s_series *s = &m->f[f].s[i];

			fprintf(o, s->labels[0] ? "%s{%s} " : "%s%s ", fam->name, s->labels);
			s_value(o, s->v);
			fputc('\n', o);
		}
	}
	fclose(o);
	return text;
}

size_t lst_metrics_pollfds(const lst_metrics *m, struct pollfd *fds)
{
	size_t n = 0;

	if (m->lfd < 0)
		return 0;
	fds[n++] = (struct pollfd){ .fd = m->lfd, .events = POLLIN };
	for (size_t i = 0; i < LST_METRICS_CLIENTS; i++)
		if (m->cl[i].fd >= 0)
			fds[n++] = (struct pollfd){ .fd = m->cl[i].fd,
						    .events = m->cl[i].out ? POLLOUT : POLLIN };
	return n;
}

/* Take every pending connection: into a free slot, or closed at once when none is free. */
static void s_accept(lst_metrics *m, int64_t now)
{
	for (;;) {
		int fd = accept4(m->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		size_t i;

		if (fd < 0)
			return;
		for (i = 0; i < LST_METRICS_CLIENTS && m->cl[i].fd >= 0; i++)
			;
		if (i == LST_METRICS_CLIENTS) {
			close(fd);
			continue;
		}
		m->cl[i].fd = fd;
		m->cl[i].nin = 0;
		m->cl[i].deadline = now + LST_METRICS_IDLE_NS;
	}
}

/* The answer to a whole request head (NUL-terminated): status and body. */
static void s_answer(lst_metrics *m, struct s_client *cl)
{
	const char *status = "200 OK", *type = "text/plain; version=0.0.4; charset=utf-8";
	char *body = NULL;
	bool get = !strncmp(cl->in, "GET ", 4), head = !strncmp(cl->in, "HEAD ", 5);
	const char *path = cl->in + (get ? 4 : 5);

	if (!get && !head) {
		status = "405 Method Not Allowed";
		body = lst_strdup("GET /metrics only\n");
	} else if (strncmp(path, "/metrics ", 9) && strncmp(path, "/metrics?", 9)) {
		status = "404 Not Found";
		body = lst_strdup("lockstep serves /metrics\n");
	} else {
		body = lst_metrics_render(m);
	}
	cl->out = lst_asprintf("HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
			       "Connection: close\r\n\r\n%s",
			       status, strncmp(status, "200", 3) ? "text/plain" : type,
			       strlen(body), head ? "" : body);
	cl->nout = strlen(cl->out);
	cl->sent = 0;
	free(body);
}

/* Read what there is; once the head is whole (or too long), make the answer. */
static void s_read(lst_metrics *m, struct s_client *cl)
{
	ssize_t r = read(cl->fd, cl->in + cl->nin, sizeof(cl->in) - 1 - cl->nin);

	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (r <= 0) {
		s_client_close(cl);
		return;
	}
	cl->nin += (size_t)r;
	cl->in[cl->nin] = '\0';
	if (strstr(cl->in, "\r\n\r\n") || strstr(cl->in, "\n\n")) {
		s_answer(m, cl);
	} else if (cl->nin == sizeof(cl->in) - 1) {
		cl->out = lst_strdup("HTTP/1.1 431 Request Header Fields Too Large\r\n"
				     "Content-Length: 0\r\nConnection: close\r\n\r\n");
		cl->nout = strlen(cl->out);
	}
}

/* Write what the socket takes; close once all of it is gone. */
static void s_write(struct s_client *cl)
{
	ssize_t w = send(cl->fd, cl->out + cl->sent, cl->nout - cl->sent, MSG_NOSIGNAL);

	if (w < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (w < 0) {
		s_client_close(cl);
		return;
	}
	cl->sent += (size_t)w;
	if (cl->sent == cl->nout)
		s_client_close(cl);
}

void lst_metrics_serve(lst_metrics *m, const struct pollfd *fds, size_t nfds)
{
	int64_t now = lst_mono_ns();

	for (size_t k = 0; k < nfds; k++) {
		if (!fds[k].revents)
			continue;
		if (fds[k].fd == m->lfd) {
			s_accept(m, now);
			continue;
		}
		for (size_t i = 0; i < LST_METRICS_CLIENTS; i++) {
			struct s_client *cl = &m->cl[i];

			if (cl->fd != fds[k].fd)
				continue;
			if (!cl->out)
				s_read(m, cl);
			if (cl->fd >= 0 && cl->out)
				s_write(cl); /* most answers go out at once */
			break;
		}
	}
	lst_metrics_expire(m, now);
}

void lst_metrics_expire(lst_metrics *m, int64_t now)
{
	for (size_t i = 0; i < LST_METRICS_CLIENTS; i++)
		if (m->cl[i].fd >= 0 && now > m->cl[i].deadline)
			s_client_close(&m->cl[i]);
}
