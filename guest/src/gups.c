// SPDX-License-Identifier: GPL-2.0
/*
 * A GUPS-style loop (random read-modify-write updates of a large table of
 * 64-bit words), the TLB- and page-walk-bound regression guard. The table
 * is faulted in first; only the update loop is timed. The update sequence
 * is a fixed xorshift stream, so every run does the same work.
 *
 * Usage: gups [TABLE_MIB [UPDATES_M]]   (default 256 MiB, 16 million)
 * Prints: gups table_mib=.. updates=.. seconds=.. mups=.. check=..
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 256;
	unsigned long updates = (argc > 2 ? strtoul(argv[2], NULL, 0) : 16) * 1000000UL;
	unsigned long words = (mib << 20) / sizeof(uint64_t), mask;
	uint64_t *t, x = 88172645463325252ULL, sum = 0;
	double t0, s;

	/* a power of two number of words, so an index is a mask away */
	if (!mib || (mib & (mib - 1)) || !updates) {
		fprintf(stderr, "usage: %s [TABLE_MIB (power of 2) [UPDATES_MILLIONS]]\n", argv[0]);
		return 2;
	}
	mask = words - 1;
	t = mmap(NULL, mib << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (unsigned long i = 0; i < words; i++)
		t[i] = i;
	t0 = now();
	for (unsigned long i = 0; i < updates; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		t[x & mask] ^= x;
	}
	s = now() - t0;
	for (unsigned long i = 0; i < words; i += 4099)
		sum += t[i];
	printf("gups table_mib=%lu updates=%lu seconds=%.6f mups=%.3f check=%llx\n",
	       mib, updates, s, updates / s / 1e6, (unsigned long long)sum);
	munmap(t, mib << 20);
	return 0;
}
