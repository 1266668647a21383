/* SPDX-License-Identifier: Apache-2.0 */
/* Clock helpers. */
#include "lst_time.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

static int64_t s_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * LST_NS_PER_S + ts.tv_nsec;
}

int64_t lst_mono_ns(void)
{
	return s_ns(CLOCK_MONOTONIC);
}

int64_t lst_real_ns(void)
{
	return s_ns(CLOCK_REALTIME);
}

static struct timespec s_ts(int64_t ns)
{
	struct timespec ts = { .tv_sec = ns / LST_NS_PER_S, .tv_nsec = ns % LST_NS_PER_S };

	return ts;
}

void lst_sleep_ns(int64_t ns)
{
	if (ns <= 0)
		return;
	lst_sleep_until_ns(lst_mono_ns() + ns, 0);
}

int64_t lst_sleep_until_ns(int64_t t, int64_t spin_ns)
{
	int64_t now = lst_mono_ns();

	if (t - spin_ns > now) {
		struct timespec ts = s_ts(t - spin_ns);

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	/*
	 * Spin, yielding while more than a few microseconds remain: on a host with more spinners
	 * than cores (several agents on one test machine), each still sees the clock every few
	 * microseconds instead of waiting out another spinner's time slice.
	 */
	for (;;) {
		now = lst_mono_ns();
		if (now >= t)
			break;
		if (t - now > 5 * LST_NS_PER_US)
			sched_yield();
	}
	return now - t;
}

const char *lst_time_iso8601(int64_t real_ns, char *buf, unsigned size)
{
	time_t sec = (time_t)(real_ns / LST_NS_PER_S);
	struct tm tm;
	size_t n;

	gmtime_r(&sec, &tm);
	n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, size - n, ".%06lldZ", (long long)(real_ns % LST_NS_PER_S) / 1000);
	return buf;
}
