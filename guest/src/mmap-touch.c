// SPDX-License-Identifier: GPL-2.0
/*
 * The mmap/touch/munmap loop: map SIZE MiB of anonymous memory, write one
 * byte in every STRIDE bytes, unmap, ITER times. Page-fault and page-table
 * allocation heavy; used as a regression guard for MMU changes.
 *
 * Usage: mmap-touch [SIZE_MIB [ITER [STRIDE]]]   (default 128 500, and the
 *        page size: every page)
 * Prints: mmap-touch size_mib=.. iter=.. stride=.. seconds=..
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long size = (argc > 1 ? strtoul(argv[1], NULL, 0) : 128) << 20;
	unsigned long iter = argc > 2 ? strtoul(argv[2], NULL, 0) : 500;
	long page = sysconf(_SC_PAGESIZE);
	unsigned long stride = argc > 3 ? strtoul(argv[3], NULL, 0) :
			       page > 0 ? (unsigned long)page : 0;
	double t0;

	if (!size || !iter || !stride) {
		fprintf(stderr, "usage: %s [SIZE_MIB [ITER [STRIDE]]]\n", argv[0]);
		return 2;
	}
	t0 = now();
	for (unsigned long i = 0; i < iter; i++) {
		volatile char *c = mmap(NULL, size, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (c == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		for (unsigned long off = 0; off < size; off += stride)
			c[off] = 0xf;
		munmap((void *)c, size);
	}
	printf("mmap-touch size_mib=%lu iter=%lu stride=%lu seconds=%.6f\n",
	       size >> 20, iter, stride, now() - t0);
	return 0;
}
