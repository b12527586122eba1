// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim-job: the "realistic workload" of 'make bench'. A job whose data
 * does not fit in its memory cgroup: SET MiB of anonymous memory, of which
 * a hot window of WINDOW MiB takes most accesses and slides through the
 * set, so pages keep going from hot to cold (the transition non-leaf PMD
 * young is about) and reclaim has to find the cold ones among the rest.
 * One access in 64 goes to a random page anywhere (cold reads that refault).
 * Page contents compress about 4:1, like typical heap data, for zram. Pages
 * are the system's; the accesses fall in the first 4 KiB of each page.
 *
 * Run it inside a cgroup with memory.max below SET and swap available.
 * Usage: reclaim-job [SET_MIB [WINDOW_MIB [SECONDS [SLIDE_MS]]]]
 *        (default 1024 128 30 200)
 * Prints: reclaim-job set_mib=.. window_mib=.. seconds=.. ops=.. kops_per_s=..
 *         utime=.. stime=.. majflt=.. minflt=..
 * utime/stime are seconds of the timed loop (not the fill); stime includes
 * the reclaim, aging and swap compression the job did in direct reclaim.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double tv(struct timeval t)
{
	return t.tv_sec + t.tv_usec / 1e6;
}

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

int main(int argc, char **argv)
{
	unsigned long set_mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 1024;
	unsigned long win_mib = argc > 2 ? strtoul(argv[2], NULL, 0) : 128;
	double secs = argc > 3 ? atof(argv[3]) : 30;
	double slide = (argc > 4 ? atof(argv[4]) : 200) / 1e3;
	long ps = sysconf(_SC_PAGESIZE);
	unsigned long page = ps > 0 ? (unsigned long)ps : 0;
	unsigned long pages = page ? (set_mib << 20) / page : 0;
	unsigned long win = page ? (win_mib << 20) / page : 0;
	unsigned long ops = 0, start = 0;
	uint64_t x = 2463534242ULL, sum = 0;
	double t0, next, t;
	struct rusage ru0, ru;
	char *set;

	if (!pages || !win || win > pages || secs <= 0 || slide <= 0) {
		fprintf(stderr, "usage: %s [SET_MIB [WINDOW_MIB [SECONDS [SLIDE_MS]]]]\n", argv[0]);
		return 2;
	}
	set = mmap(NULL, set_mib << 20, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (set == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* a quarter of each page random, the rest zero: compresses ~4:1 */
	for (unsigned long p = 0; p < pages; p++) {
		uint64_t *w = (uint64_t *)(set + p * page);

		for (unsigned long i = 0; i < page / 8 / 4; i++)
			w[i * 4] = rnd(&x);
	}
	getrusage(RUSAGE_SELF, &ru0);
	t0 = now();
	next = t0 + slide;
	for (;;) {
		for (int i = 0; i < 256; i++, ops++) {
			unsigned long p = ops % 64 ? start + rnd(&x) % win : rnd(&x) % pages;
			uint64_t *w = (uint64_t *)(set + (p % pages) * page);

			sum += w[(x >> 20) % 128];
			w[(x >> 40) % 128 * 4] += 1;
		}
		t = now();
		if (t >= next) {
			start = (start + win / 8) % pages;
			next += slide;
			if (t - t0 >= secs)
				break;
		}
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("reclaim-job set_mib=%lu window_mib=%lu seconds=%.3f ops=%lu kops_per_s=%.1f utime=%.3f stime=%.3f majflt=%ld minflt=%ld check=%llx\n",
	       set_mib, win_mib, t - t0, ops, ops / (t - t0) / 1e3,
	       tv(ru.ru_utime) - tv(ru0.ru_utime), tv(ru.ru_stime) - tv(ru0.ru_stime),
	       ru.ru_majflt - ru0.ru_majflt, ru.ru_minflt - ru0.ru_minflt,
	       (unsigned long long)(sum & 0xffff));
	return 0;
}
