// SPDX-License-Identifier: GPL-2.0
/*
 * merge-any: run a program with KSM merging on for every mapping it makes,
 * as systemd's MemoryKSM=yes does: PR_SET_MEMORY_MERGE, which fork() and
 * exec() pass on.
 *
 * Usage: merge-any PROGRAM [ARG...]
 *        merge-any -c SECONDS
 * With -c, the positive control of the condition: 64 pages of the same
 * contents are mapped with merging on, and merge-any waits up to SECONDS
 * for ksmd to merge them (/proc/self/ksm_merging_pages), exits 0 when it
 * did and 1 when it did not. Exits 2 on bad usage, 1 when the prctl fails
 * or PROGRAM cannot be executed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#ifndef PR_SET_MEMORY_MERGE
#define PR_SET_MEMORY_MERGE 67
#endif

#define NR_PAGES 64

static long merging_pages(void)
{
	char line[128];
	long n = -1;
	FILE *f = fopen("/proc/self/ksm_merging_pages", "r");

	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f))
		n = strtol(line, NULL, 10);
	fclose(f);
	return n;
}

static int control(int seconds)
{
	long page = sysconf(_SC_PAGESIZE), n = 0;
	char *p = mmap(NULL, NR_PAGES * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("merge-any: mmap");
		return 1;
	}
	for (int i = 0; i < NR_PAGES; i++)
		memset(p + i * page, 0x5a, page);
	for (int t = 0; t < seconds * 10; t++) {
		n = merging_pages();
		if (n >= NR_PAGES / 2)
			break;
		usleep(100000);
	}
	printf("merge-any: ksmd merged %ld of %d identical pages\n", n, NR_PAGES);
	return n >= NR_PAGES / 2 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc < 2 || (!strcmp(argv[1], "-c") && argc != 3)) {
		fputs("usage: merge-any PROGRAM [ARG...] | merge-any -c SECONDS\n", stderr);
		return 2;
	}
	if (prctl(PR_SET_MEMORY_MERGE, 1, 0, 0, 0)) {
		perror("merge-any: PR_SET_MEMORY_MERGE");
		return 1;
	}
	if (!strcmp(argv[1], "-c"))
		return control(atoi(argv[2]));
	execvp(argv[1], argv + 1);
	perror("merge-any: exec");
	return 1;
}
