/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent daemon's C integration tests' shared set-up: see agent_client.h.
 */
#include "agent_client.h"

#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.h>

#include "lst_test.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_util.h"

#define S_LOG_MAX (64 * 1024 * 1024)

struct lst_ac lst_ac = { .pid = -1 };

static int s_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void s_cleanup(void)
{
	if (lst_ac.pid > 0) {
		kill(lst_ac.pid, SIGKILL);
		waitpid(lst_ac.pid, NULL, 0);
	}
	if (!lst_ac.passed) {
		char *text = NULL;
		size_t len;

		if (!lst_read_file(lst_ac.log, S_LOG_MAX, &text, &len))
			fprintf(stderr, "---- agent log (last 6000 bytes) ----\n%s\n----\n",
				len > 6000 ? text + len - 6000 : text);
		free(text);
	}
	if (lst_ac.dir[0])
		nftw(lst_ac.dir, s_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static int s_free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	T_ASSERT(fd >= 0);
	T_ASSERT(!bind(fd, (struct sockaddr *)&a, sizeof(a)));
	T_ASSERT(!getsockname(fd, (struct sockaddr *)&a, &len));
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

void lst_ac_setup(const char *name)
{
	snprintf(lst_ac.dir, sizeof(lst_ac.dir), "/tmp/lst-%s.XXXXXX", name);
	T_ASSERT(mkdtemp(lst_ac.dir));
	snprintf(lst_ac.log, sizeof(lst_ac.log), "%s/agent.log", lst_ac.dir);
	atexit(s_cleanup);
	snprintf(lst_ac.endpoint, sizeof(lst_ac.endpoint), "tcp://127.0.0.1:%d", s_free_port());
}

pid_t lst_ac_spawn(const char *agent, const char *const *args)
{
	const char *argv[32] = { agent, "--foreground", "--listen", lst_ac.endpoint };
	size_t n = 4;
	int64_t deadline;
	pid_t pid;

	for (size_t k = 0; args && args[k]; k++) {
		T_ASSERT(n < 31);
		argv[n++] = args[k];
	}
	argv[n] = NULL;
	pid = fork();
	T_ASSERT(pid >= 0);
	if (pid == 0) {
		int fd = open(lst_ac.log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (fd >= 0) {
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
		execv(agent, (char *const *)argv);
		_exit(127);
	}
	lst_ac.pid = pid;
	deadline = lst_mono_ns() + 10 * LST_NS_PER_S;
	for (;;) {
		char *text = NULL;
		bool up = false;
		int status;

		if (!lst_read_file(lst_ac.log, S_LOG_MAX, &text, NULL))
			up = strstr(text, "listening on") != NULL;
		free(text);
		if (up)
			return pid;
		if (waitpid(pid, &status, WNOHANG) == pid) {
			lst_ac.pid = -1;
			T_FAIL("the agent exited at start-up (status 0x%x)", status);
		}
		if (lst_mono_ns() > deadline)
			T_FAIL("the agent did not start listening within 10 s");
		lst_sleep_ns(20 * LST_NS_PER_MS);
	}
}

char *lst_ac_stop(void)
{
	int status = 0;
	char *log = NULL;

	T_ASSERT(!kill(lst_ac.pid, SIGTERM));
	T_EQ_INT(waitpid(lst_ac.pid, &status, 0), lst_ac.pid);
	lst_ac.pid = -1;
	T_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	T_EQ_INT(lst_read_file(lst_ac.log, S_LOG_MAX, &log, NULL), 0);
	if (strstr(log, "runtime error:") || strstr(log, "Sanitizer") ||
	    strstr(log, "assertion failed"))
		T_FAIL("the agent's log reports a bug");
	return log;
}

struct lst_ac_peer *lst_ac_peer_new(void)
{
	struct lst_ac_peer *p = lst_calloc(1, sizeof(*p));

	p->sock = zsock_new(ZMQ_DEALER);
	T_ASSERT(p->sock);
	zsock_set_linger(p->sock, 0);
	zsock_set_maxmsgsize(p->sock, LST_MSG_MAX_BYTES);
	T_ASSERT(zsock_connect(p->sock, "%s", lst_ac.endpoint) == 0);
	p->zs = zsock_resolve(p->sock);
	return p;
}

void lst_ac_peer_destroy(struct lst_ac_peer **p)
{
	if (!*p)
		return;
	zsock_destroy(&(*p)->sock);
	free(*p);
	*p = NULL;
}

uint64_t lst_ac_send(struct lst_ac_peer *p, lst_msg *m, bool command)
{
	uint8_t *buf;
	size_t len;
	lst_err err;

	m->seq = ++p->seq;
	if (command && !m->id)
		m->id = ++p->id;
	if (lst_msg_encode(m, &buf, &len, &err))
		T_FAIL("encode %s: %s", lst_msg_type_name(m->type), err.msg);
	T_ASSERT(zmq_send(p->zs, buf, len, 0) == (int)len);
	free(buf);
	return m->id;
}

lst_msg *lst_ac_recv(struct lst_ac_peer *p, int timeout_ms)
{
	zmq_pollitem_t it = { .socket = p->zs, .events = ZMQ_POLLIN };
	zmq_msg_t msg;
	lst_msg *m = NULL;
	lst_err err;

	if (zmq_poll(&it, 1, timeout_ms) <= 0)
		return NULL;
	zmq_msg_init(&msg);
	T_ASSERT(zmq_msg_recv(&msg, p->zs, 0) >= 0);
	if (lst_msg_decode(zmq_msg_data(&msg), zmq_msg_size(&msg), &m, &err))
		T_FAIL("the agent sent a frame that does not decode: %s", err.msg);
	zmq_msg_close(&msg);
	if (m->seq > p->max_seq)
		p->max_seq = m->seq;
	return m;
}

lst_msg *lst_ac_expect(struct lst_ac_peer *p, uint32_t type, uint64_t re, int timeout_ms)
{
	lst_msg *m = lst_ac_recv(p, timeout_ms);

	if (!m)
		T_FAIL("no %s within %d ms", lst_msg_type_name(type), timeout_ms);
	if (m->type != type)
		T_FAIL("expected %s, got %s%s%s", lst_msg_type_name(type),
		       lst_msg_type_name(m->type), m->type == LST_MSG_ERROR ? ": " : "",
		       m->type == LST_MSG_ERROR ? m->u.error.text : "");
	if (re)
		T_EQ_U64(m->re, re);
	return m;
}

lst_msg *lst_ac_expect_error(struct lst_ac_peer *p, int code, uint64_t re, int timeout_ms)
{
	lst_msg *m = lst_ac_expect(p, LST_MSG_ERROR, re, timeout_ms);

	if (m->u.error.code != code)
		T_FAIL("expected error %d, got %d '%s'", code, m->u.error.code, m->u.error.text);
	return m;
}

void lst_ac_ack(struct lst_ac_peer *p, uint64_t upto)
{
	lst_msg *m = lst_msg_new(LST_MSG_ACK);

	m->u.ack.upto = upto ? upto : p->max_seq;
	lst_ac_send(p, m, false);
	lst_msg_destroy(&m);
}

lst_msg *lst_ac_hello(struct lst_ac_peer *p, const char *run, const char *cap)
{
	lst_msg *m = lst_msg_new(LST_MSG_HELLO);
	uint64_t id;

	m->u.hello.proto = LST_PROTO_VERSION;
	m->u.hello.ncaps = cap != NULL;
	lst_copy(m->u.hello.caps[0], sizeof(m->u.hello.caps[0]), cap ? cap : "");
	lst_copy(m->u.hello.run, sizeof(m->u.hello.run), run);
	lst_copy(m->u.hello.coordinator, sizeof(m->u.hello.coordinator), "test");
	m->u.hello.lease_ms = 30000;
	id = lst_ac_send(p, m, true);
	lst_msg_destroy(&m);
	return lst_ac_expect(p, LST_MSG_WELCOME, id, 3000);
}
