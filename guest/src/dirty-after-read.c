// SPDX-License-Identifier: GPL-2.0
/*
 * Is a store through a writable, clean page table entry recorded as dirty
 * when the entry was first used by a load?
 *
 * With hardware dirty state management (TCR_EL1.HD), a writable clean
 * entry (DBM set, AP[2] or, under FEAT_S1PIE, nDirty set) must not let a
 * store through without the walker marking it dirty first, even when a
 * load has already put the translation in the TLB. The kernel relies on
 * that for MADV_FREE: it cleans the entries, and reclaim discards a
 * lazily freed page that is still clean. So, per page: write A, MADV_FREE,
 * then (pass "write") store B, or (pass "read-write") load once and store
 * B; then MADV_PAGEOUT. A page that reads back 0 lost its store: its
 * entry stayed clean and reclaim dropped it.
 *
 * Usage: dirty-after-read [PAGES]   (default 64)
 * Prints one line per pass: dirty-after-read pass=.. pages=.. kept=..
 * lost=.. other=..; exits 1 when a page lost its store or held anything
 * but B or 0, 2 on a usage or system call error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static int one_pass(const char *name, int load_first, unsigned long pages,
		    long psz)
{
	unsigned long len = pages * psz, kept = 0, lost = 0, other = 0;
	volatile unsigned char *p;
	unsigned long i;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED) {
		perror("dirty-after-read: mmap");
		return 2;
	}
	if (madvise((void *)p, len, MADV_NOHUGEPAGE)) {
		perror("dirty-after-read: MADV_NOHUGEPAGE");
		return 2;
	}
	memset((void *)p, 0xa5, len);
	if (madvise((void *)p, len, MADV_FREE)) {
		perror("dirty-after-read: MADV_FREE");
		return 2;
	}
	for (i = 0; i < pages; i++) {
		volatile unsigned char *b = p + i * psz;

		if (load_first)
			(void)*b;
		*b = 0x5a;
	}
	if (madvise((void *)p, len, MADV_PAGEOUT)) {
		perror("dirty-after-read: MADV_PAGEOUT");
		return 2;
	}
	for (i = 0; i < pages; i++) {
		unsigned char v = p[i * psz];

		if (v == 0x5a)
			kept++;
		else if (v == 0)
			lost++;
		else
			other++;
	}
	munmap((void *)p, len);
	printf("dirty-after-read pass=%s pages=%lu kept=%lu lost=%lu other=%lu\n",
	       name, pages, kept, lost, other);
	return lost || other;
}

int main(int argc, char **argv)
{
	unsigned long pages = argc > 1 ? strtoul(argv[1], NULL, 0) : 64;
	long psz = sysconf(_SC_PAGESIZE);
	int cpu = sched_getcpu(), rc, r;
	cpu_set_t set;

	if (argc > 2 || !pages || psz <= 0) {
		fprintf(stderr, "usage: %s [PAGES]\n", argv[0]);
		return 2;
	}
	/* One CPU, so the load and the store use the same TLB. */
	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "dirty-after-read: sched_setaffinity: %s\n",
			strerror(errno));
		return 2;
	}
	rc = one_pass("write", 0, pages, psz);
	r = one_pass("read-write", 1, pages, psz);
	return rc > r ? rc : r;
}
