/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The live metrics store and endpoint (coordinator/run/lst_metrics): addresses (numeric only,
 * :PORT on loopback), label escaping, the exposition (one HELP/TYPE per family, its series
 * together, empty families left out), and the endpoint driven by a poll loop as the pump does:
 * a client that never finishes its request holds no one else up, a GET is answered and closed,
 * other paths get 404, other methods 405, a head over the bound 431, connections beyond
 * LST_METRICS_CLIENTS are closed at once, and a connection that sends nothing is closed at its
 * limit by lst_metrics_expire.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lst_metrics.h"
#include "lst_test.h"
#include "lst_time.h"

static const struct lst_metric_family s_fams[] = {
	{ "t_gauge", LST_METRIC_GAUGE, "A gauge." },
	{ "t_count_total", LST_METRIC_COUNTER, "A counter." },
	{ "t_empty", LST_METRIC_GAUGE, "Never set." },
};

static void s_addrs(void)
{
	static const char *const bad[] = { "localhost:1",   "1.2.3.4:",	   "1.2.3.4:0", "9464",
					   "1.2.3.4:99999", "1.2.3.4:12a", "[::1:80",	"" };
	char host[64];
	uint16_t port;
	lst_err err;

	T_EQ_INT(lst_metrics_parse_addr(":9464", host, sizeof(host), &port, &err), 0);
	T_EQ_STR(host, "127.0.0.1");
	T_EQ_INT(port, 9464);
	T_EQ_INT(lst_metrics_parse_addr("0.0.0.0:1", host, sizeof(host), &port, &err), 0);
	T_EQ_STR(host, "0.0.0.0");
	T_EQ_INT(lst_metrics_parse_addr("[::1]:80", host, sizeof(host), &port, &err), 0);
	T_EQ_STR(host, "::1");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (lst_metrics_parse_addr(bad[i], host, sizeof(host), &port, &err) != -EINVAL)
			T_FAIL("'%s' accepted", bad[i]);
	}
	T_ASSERT(!lst_metrics_new("localhost:9464", s_fams, 3, &err));
	T_CONTAINS(err.msg, "numeric");
}

static void s_render(void)
{
	lst_err err;
	lst_metrics *m = lst_metrics_new(NULL, s_fams, 3, &err);
	char l[128], *text;

	T_ASSERT(m);
	T_EQ_STR(lst_metrics_labels(l, sizeof(l), "a", "x\"y\\z\nw", "b", "", NULL),
		 "a=\"x\\\"y\\\\z\\nw\",b=\"\"");
	lst_metrics_set(m, 0, "k=\"1\"", 1.5);
	lst_metrics_add(m, 1, "", 2);
	lst_metrics_set(m, 0, "k=\"2\"", 0.1);
	lst_metrics_add(m, 1, "", 3);
	lst_metrics_set(m, 0, "k=\"1\"", 2.5);
	text = lst_metrics_render(m);
	T_EQ_STR(text, "# HELP t_gauge A gauge.\n# TYPE t_gauge gauge\nt_gauge{k=\"1\"} 2.5\n"
		       "t_gauge{k=\"2\"} 0.10000000000000001\n"
		       "# HELP t_count_total A counter.\n# TYPE t_count_total counter\n"
		       "t_count_total 5\n");
	free(text);
	lst_metrics_clear(m, 0);
	text = lst_metrics_render(m);
	T_ASSERT(!strstr(text, "t_gauge"));
	free(text);
	lst_metrics_destroy(&m);
	lst_metrics_destroy(&m);
}

/* A free loopback port now. */
static uint16_t s_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	T_ASSERT(fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)));
	T_ASSERT(!getsockname(fd, (struct sockaddr *)&a, &len));
	close(fd);
	return ntohs(a.sin_port);
}

static int s_connect(uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	T_ASSERT(fd >= 0 && !connect(fd, (struct sockaddr *)&a, sizeof(a)));
	return fd;
}

/* Turn the endpoint's loop a few times (what the pump does). */
static void s_turn(lst_metrics *m, int times)
{
	for (int i = 0; i < times; i++) {
		struct pollfd fds[LST_METRICS_NFDS];
		size_t n = lst_metrics_pollfds(m, fds);

		T_ASSERT(poll(fds, n, 20) >= 0);
		lst_metrics_serve(m, fds, n);
	}
}

/* Everything fd receives until the server closes it (the loop turned meanwhile). */
static char *s_reply(lst_metrics *m, int fd)
{
	static char buf[16384];
	size_t n = 0;

	for (int tries = 0; tries < 200; tries++) {
		ssize_t r;

		s_turn(m, 1);
		r = recv(fd, buf + n, sizeof(buf) - 1 - n, MSG_DONTWAIT);
		if (r == 0)
			break;
		if (r > 0)
			n += (size_t)r;
	}
	buf[n] = '\0';
	close(fd);
	return buf;
}

static void s_send(int fd, const char *s)
{
	T_EQ_INT((int)send(fd, s, strlen(s), 0), (int)strlen(s));
}

static void s_endpoint(void)
{
	uint16_t port = s_port();
	char spec[32], big[LST_METRICS_REQ_MAX + 64];
	lst_err err;
	lst_metrics *m;
	int slow, fd, extra[LST_METRICS_CLIENTS + 1];

	snprintf(spec, sizeof(spec), ":%u", port);
	m = lst_metrics_new(spec, s_fams, 3, &err);
	T_ASSERT(m);
	lst_metrics_set(m, 0, "", 42);
	/* a client that sends half a request and waits: nobody else waits for it */
	slow = s_connect(port);
	s_send(slow, "GET /metr");
	fd = s_connect(port);
	s_send(fd, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
	{
		const char *r = s_reply(m, fd);

		T_CONTAINS(r, "HTTP/1.1 200 OK\r\n");
		T_CONTAINS(r, "Content-Type: text/plain; version=0.0.4");
		T_CONTAINS(r,
			   "\r\n\r\n# HELP t_gauge A gauge.\n# TYPE t_gauge gauge\nt_gauge 42\n");
	}
	fd = s_connect(port);
	s_send(fd, "GET / HTTP/1.0\r\n\r\n");
	T_CONTAINS(s_reply(m, fd), "HTTP/1.1 404");
	fd = s_connect(port);
	s_send(fd, "POST /metrics HTTP/1.0\r\n\r\n");
	T_CONTAINS(s_reply(m, fd), "HTTP/1.1 405");
	fd = s_connect(port);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memcpy(big, "GET /metrics HTTP/1.1\r\nX: ", 26);
	s_send(fd, big);
	T_CONTAINS(s_reply(m, fd), "HTTP/1.1 431");
	/* the slow one still holds a slot; fill the others, and one more is closed at once */
	for (int i = 0; i < LST_METRICS_CLIENTS; i++) {
		extra[i] = s_connect(port);
		s_turn(m, 2);
	}
	{
		char c;
		int closed = 0;

		s_turn(m, 3);
		for (int i = 0; i < LST_METRICS_CLIENTS; i++)
			closed += recv(extra[i], &c, 1, MSG_DONTWAIT) == 0;
		T_EQ_INT(closed, 1); /* 3 free slots besides the slow client */
		for (int i = 0; i < LST_METRICS_CLIENTS; i++)
			close(extra[i]);
	}
	/* the slow client finishes at last and is answered */
	s_send(slow, "ics HTTP/1.1\r\n\r\n");
	T_CONTAINS(s_reply(m, slow), "t_gauge 42");
	lst_metrics_destroy(&m);
}

/* A connection that sends nothing is closed at its limit by lst_metrics_expire alone, with no
 * descriptor ready (the clock is handed in: no test waits LST_METRICS_IDLE_NS). */
static void s_expire(void)
{
	uint16_t port = s_port();
	char spec[32], c;
	lst_err err;
	lst_metrics *m;
	int fd;
	int64_t opened;

	snprintf(spec, sizeof(spec), ":%u", port);
	m = lst_metrics_new(spec, s_fams, 3, &err);
	T_ASSERT(m);
	opened = lst_mono_ns();
	fd = s_connect(port);
	s_turn(m, 2); /* accepted */
	lst_metrics_expire(m, opened + LST_METRICS_IDLE_NS - LST_NS_PER_S);
	T_EQ_INT((int)recv(fd, &c, 1, MSG_DONTWAIT), -1); /* still open, nothing to read */
	lst_metrics_expire(m, lst_mono_ns() + LST_METRICS_IDLE_NS + 1);
	T_EQ_INT((int)recv(fd, &c, 1, MSG_DONTWAIT), 0); /* closed */
	close(fd);
	lst_metrics_destroy(&m);
}

int main(void)
{
	s_addrs();
	s_render();
	s_endpoint();
	s_expire();
	return 0;
}
