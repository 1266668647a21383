/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lst-devcheck: drive the agent's disk safety checks (agent/dev) from a shell script.
 *
 * Built into build/tests for tests/integration/safety/dev_safety.sh, never installed. It runs one
 * check, open or purge with a policy given by flags, exactly as the agent would, and prints
 * key=value lines: on success the identity found, on a refusal the code and the message.
 * Exit status: 0 allowed (and done), 3 refused (check or open failed), 1 purge failed after the
 * open, 2 usage.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "lst_dev.h"
#include "lst_util.h"

enum { EXIT_ALLOWED = 0, EXIT_PURGE_FAILED = 1, EXIT_USAGE = 2, EXIT_REFUSED = 3 };

static void s_usage(FILE *f)
{
	fprintf(f,
		"usage: lst-devcheck [--allow-write GLOB]... [--read-only] [--identity X]\n"
		"                    [--direct] [--hold DURATION] [--offset SIZE] [--length SIZE]\n"
		"                    [--secure]\n"
		"                    check|open|purge PATH read|write|purge\n"
		"exit: 0 allowed, 3 refused, 1 purge failed, 2 usage\n");
}

static void s_print_identity(const struct lst_path_identity *id)
{
	printf("path=%s\n", id->path);
	printf("real_path=%s\n", id->real_path);
	printf("kind=%s\n", id->kind);
	printf("wwn=%s\n", id->wwn);
	printf("serial=%s\n", id->serial);
	printf("model=%s\n", id->model);
	printf("vendor=%s\n", id->vendor);
	printf("firmware=%s\n", id->firmware);
	printf("backing_file=%s\n", id->backing_file);
	printf("size=%llu\n", (unsigned long long)id->size);
	printf("lbs=%u\n", id->lbs);
	printf("pbs=%u\n", id->pbs);
	printf("dev=%llu\n", (unsigned long long)id->dev);
	printf("ino=%llu\n", (unsigned long long)id->ino);
	if (!strcmp(id->kind, "block")) {
		printf("rdev=%u:%u\n", major((dev_t)id->dev), minor((dev_t)id->dev));
		if (id->wwn[0])
			printf("identity=wwn:%s\n", id->wwn);
		else if (id->backing_file[0])
			printf("identity=loop:%s\n", id->backing_file);
		else if (id->serial[0])
			printf("identity=serial:%s\n", id->serial);
	} else {
		printf("identity=file:%llu:%llu\n", (unsigned long long)id->dev,
		       (unsigned long long)id->ino);
	}
}

static int s_refused(const lst_err *err, int code)
{
	const char *name = strerrorname_np(-code);

	printf("result=refused\n");
	printf("code=%d\n", code);
	printf("errno=%s\n", name ? name : "?");
	printf("error=%s\n", err->msg);
	return EXIT_REFUSED;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "allow-write", required_argument, NULL, 'w' },
		{ "read-only", no_argument, NULL, 'r' },
		{ "identity", required_argument, NULL, 'i' },
		{ "direct", no_argument, NULL, 'd' },
		{ "hold", required_argument, NULL, 'H' },
		{ "offset", required_argument, NULL, 'o' },
		{ "length", required_argument, NULL, 'l' },
		{ "secure", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lst_path_identity id;
	enum lst_dev_access access;
	const char *identity = NULL, *cmd, *path, *acc;
	uint64_t offset = 0, length = 0;
	int64_t hold_ns = 0;
	bool direct = false, secure = false;
	lst_dev_policy *policy;
	lst_err err;
	int c, rc, fd, status = EXIT_ALLOWED;

	lst_err_clear(&err);
	policy = lst_dev_policy_new();
	while ((c = getopt_long(argc, argv, "w:ri:dH:o:l:sh", opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			if (lst_dev_policy_allow(policy, optarg)) {
				fprintf(stderr,
					"lst-devcheck: --allow-write '%s': must be an "
					"absolute path glob\n",
					optarg);
				goto usage;
			}
			break;
		case 'r':
			lst_dev_policy_set_read_only(policy, true);
			break;
		case 'i':
			identity = optarg;
			break;
		case 'd':
			direct = true;
			break;
		case 'H':
			if (lst_parse_duration(optarg, &hold_ns, &err) || hold_ns < 0)
				goto bad_value;
			break;
		case 'o':
			if (lst_parse_size(optarg, &offset, &err))
				goto bad_value;
			break;
		case 'l':
			if (lst_parse_size(optarg, &length, &err))
				goto bad_value;
			break;
		case 's':
			secure = true;
			break;
		case 'h':
			s_usage(stdout);
			lst_dev_policy_destroy(&policy);
			return 0;
		default:
			goto usage;
		}
	}
	if (argc - optind != 3)
		goto usage;
	cmd = argv[optind];
	path = argv[optind + 1];
	acc = argv[optind + 2];
	if (!strcmp(acc, "read"))
		access = LST_DEV_READ;
	else if (!strcmp(acc, "write"))
		access = LST_DEV_WRITE;
	else if (!strcmp(acc, "purge"))
		access = LST_DEV_PURGE;
	else
		goto usage;
	if (!strcmp(cmd, "check")) {
		rc = lst_dev_check(policy, path, access, identity, &id, &err);
		if (rc) {
			status = s_refused(&err, rc);
			goto out;
		}
		printf("result=allowed\n");
		s_print_identity(&id);
	} else if (!strcmp(cmd, "open") || !strcmp(cmd, "purge")) {
		if (!strcmp(cmd, "purge") && access != LST_DEV_PURGE)
			goto usage;
		fd = lst_dev_open(policy, path, access, direct, identity, &id, &err);
		if (fd < 0) {
			status = s_refused(&err, fd);
			goto out;
		}
		if (!strcmp(cmd, "purge")) {
			rc = lst_dev_purge(fd, &id, offset, length, secure, &err);
			if (rc) {
				printf("result=error\ncode=%d\nerror=%s\n", rc, err.msg);
				close(fd);
				status = EXIT_PURGE_FAILED;
				goto out;
			}
			printf("purged=%llu+%llu\n", (unsigned long long)offset,
			       (unsigned long long)length);
		}
		printf("result=allowed\n");
		s_print_identity(&id);
		fflush(stdout);
		if (hold_ns > 0) {
			struct timespec ts = { hold_ns / 1000000000, hold_ns % 1000000000 };

			while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
				;
		}
		close(fd);
	} else {
		goto usage;
	}
out:
	lst_dev_policy_destroy(&policy);
	return status;
bad_value:
	fprintf(stderr, "lst-devcheck: %s\n", err.msg);
usage:
	s_usage(stderr);
	lst_dev_policy_destroy(&policy);
	return EXIT_USAGE;
}
