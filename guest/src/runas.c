// SPDX-License-Identifier: GPL-2.0
/*
 * runas: run a program as another user, for the servers that will not run
 * as root (PostgreSQL). busybox's setpriv cannot change IDs and the guest
 * has no su.
 *
 * Usage: runas UID GID PROGRAM [ARG...]
 * Drops the supplementary groups, then sets the real, effective and saved
 * group and user IDs, and executes PROGRAM (looked up in PATH). Exits 2 on
 * bad usage, 1 when an ID cannot be set or PROGRAM cannot be executed.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int id_arg(const char *s, unsigned int *id)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v > 0xfffffffeUL)
		return -1;
	*id = v;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int uid, gid;

	if (argc < 4 || id_arg(argv[1], &uid) || id_arg(argv[2], &gid)) {
		fputs("usage: runas UID GID PROGRAM [ARG...]\n", stderr);
		return 2;
	}
	if (setgroups(0, NULL) || setresgid(gid, gid, gid) ||
	    setresuid(uid, uid, uid)) {
		perror("runas: setting the IDs");
		return 1;
	}
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 1;
}
