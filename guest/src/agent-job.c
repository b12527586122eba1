// SPDX-License-Identifier: GPL-2.0
/*
 * agent-job: the jobs that age-agent watches, each with its own access
 * pattern over MIB MiB (KiB with a 'k') of anonymous memory (MADV_NOHUGEPAGE, so that it is
 * mapped by PTE tables, as without THP; pages of the system's size).
 *
 * Usage: agent-job MODE MIB[k] [-o FILE] [-z ZIPF_S] [-d DRIFT] [-v BYTES]
 *                           [-n NURSERY_MIB] [-r OPS_PER_S]
 *   kv      a key-value cache: fixed-size values (-v, default 256 bytes) in
 *           one table, placed in key order (as a slab fills its pages in
 *           insertion order). Keys are Zipf-popular (-z, default 0.99) by
 *           rank, and rank 0 drifts through the keys at -d percent of them
 *           per second (default 2): the popular set moves through memory.
 *           One operation is a get (9 in 10: four words read) or a set
 *           (two words written).
 *   gc      a garbage-collected heap: 128-byte objects bump-allocated in a
 *           young generation of -n MiB (default MIB/16) that also reads a
 *           recent object per allocation; when it is full, one object in 16
 *           survives and is copied (compacted) to just after it, and the
 *           young generation starts after the survivors. The allocation
 *           pointer so sweeps through the heap, wrapping around (the old
 *           survivors it meets again are taken as dead). One operation is
 *           one allocation.
 *   stream  a sequential scan over the whole buffer, again and again; one
 *           operation is one 64-byte line read.
 *   hot     a steady hot set: one word of a random page read and written
 *           per operation.
 *   idle    maps and fills the memory once, then sleeps.
 * With -r, a job does at most OPS_PER_S operations a second (it sleeps when
 * ahead), like a service with a given load rather than a batch job.
 * Pages are filled to compress about 4:1 (zram). When the memory is filled
 * the operation count is published in FILE (-o): 8 bytes, native endian,
 * updated every 4096 operations; FILE appears (by rename) only then, so a
 * caller can wait for it. The job runs until it is killed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include "counter.h"
#include "opts.h"

#define BATCH 4096
#define LINE 64
#define OBJ_WORDS 16 /* a gc object: 128 bytes */

static volatile uint64_t *counter;
static uint64_t ops, sink;
/* where sink goes, so that the reads it sums are not optimised away */
static volatile uint64_t sink_out;
static uint64_t seed = 0x9e3779b97f4a7c15ULL;

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

/* Knuth's MMIX LCG; the high half is the random part */
static inline uint32_t rand32(void)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return seed >> 32;
}

static inline uint64_t rand_below(uint64_t n)
{
	return (((uint64_t)rand32() << 32 | rand32()) >> 1) % n;
}

/*
 * x^-s for the Zipf weights, without libm (the guest programs are linked
 * without it): exp(-s ln x), ln through atanh's series after taking out
 * the powers of two, exp through its series after taking out ln 2.
 */
static double zipf_weight(double x, double s)
{
	const double ln2 = 0.6931471805599453;
	double y, y2, l = 0, e = 1, term = 1;
	int n = 0;

	while (x >= 2) {
		x /= 2;
		n++;
	}
	y = (x - 1) / (x + 1);
	y2 = y * y;
	for (int k = 1; k < 40; k += 2, y *= y2)
		l += y / k;
	l = -s * (2 * l + n * ln2); /* the exponent, <= 0 */
	for (n = 0; l < -ln2; n++)
		l += ln2;
	for (int k = 1; k < 20; k++) {
		term *= l / k;
		e += term;
	}
	while (n--)
		e /= 2;
	return e;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t *map_mem(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap");
	if (madvise(p, len, MADV_NOHUGEPAGE))
		fail("madvise(MADV_NOHUGEPAGE)");
	/* two random words in each 64-byte line, six zero */
	for (size_t l = 0; l < len / LINE; l++) {
		uint64_t *w = (uint64_t *)p + l * (LINE / 8);

		w[0] = rand32();
		w[3] = (uint64_t)rand32() << 32;
	}
	return p;
}

static double rate, t_start; /* -r: at most @rate operations a second */

static inline void count(uint64_t n)
{
	ops += n;
	sink_out = sink;
	if (counter)
		*counter = ops;
	if (rate) {
		double ahead = ops / rate - (now_s() - t_start);

		if (ahead > 0)
			usleep(ahead * 1e6);
	}
}

static void run_kv(uint64_t *mem, size_t len, size_t vbytes, double s,
		   double drift)
{
	size_t slots = len / vbytes, vwords = vbytes / 8;
	uint32_t *cdf = malloc(slots * sizeof(*cdf));
	double sum = 0, acc = 0, t0 = now_s();

	if (!cdf)
		fail("malloc");
	for (size_t r = 0; r < slots; r++)
		sum += zipf_weight(r + 1, s);
	for (size_t r = 0; r < slots; r++) {
		acc += zipf_weight(r + 1, s);
		cdf[r] = acc >= sum ? UINT32_MAX :
				      (uint32_t)(acc / sum * 4294967295.0);
	}
	for (;;) {
		size_t base =
			(size_t)(drift / 100 * slots * (now_s() - t0)) % slots;

		for (int i = 0; i < BATCH; i++) {
			uint32_t u = rand32();
			size_t lo = 0, hi = slots - 1;
			uint64_t *v;

			while (lo < hi) {
				size_t mid = (lo + hi) / 2;

				if (cdf[mid] < u)
					lo = mid + 1;
				else
					hi = mid;
			}
			v = mem + ((base + lo) % slots) * vwords;
			if (u % 10) {
				sink += v[0] + v[vwords / 4] + v[vwords / 2] +
					v[vwords - 1];
			} else {
				v[1] = u;
				v[vwords / 2 + 1] = sink;
			}
		}
		count(BATCH);
	}
}

static void run_gc(uint64_t *mem, size_t len, size_t nursery_bytes)
{
	size_t nobj = len / (OBJ_WORDS * 8),
	       young = nursery_bytes / (OBJ_WORDS * 8);
	size_t start = 0, used = 0;

	if (young < 16 || young * 2 > nobj) {
		fprintf(stderr,
			"agent-job gc: the young generation must be 2 KiB .. half the heap\n");
		exit(2);
	}
	for (;;) {
		for (int i = 0; i < BATCH; i++) {
			uint64_t *o = mem + ((start + used) % nobj) * OBJ_WORDS;
			uint64_t *r = mem + ((start + rand_below(used + 1)) %
					     nobj) * OBJ_WORDS;

			o[0] = ops + i; /* header */
			o[1] = r[0]; /* a reference to a recent object */
			o[2] = sink;
			o[OBJ_WORDS - 1] = 0;
			sink += r[2];
			if (++used < young)
				continue;
			/* minor collection: every 16th object survives, compacted */
			size_t to = start + young;

			for (size_t k = 0; k < young; k += 16, to++)
				memcpy(mem + (to % nobj) * OBJ_WORDS,
				       mem + ((start + k) % nobj) * OBJ_WORDS,
				       OBJ_WORDS * 8);
			start = to % nobj;
			used = 0;
		}
		count(BATCH);
	}
}

static void run_stream(uint64_t *mem, size_t len)
{
	size_t lines = len / LINE, l = 0;

	for (;;) {
		for (int i = 0; i < BATCH; i++, l = (l + 1) % lines) {
			const uint64_t *w = mem + l * (LINE / 8);

			sink += w[0] ^ w[1] ^ w[2] ^ w[3] ^ w[4] ^ w[5] ^ w[6] ^
				w[7];
		}
		count(BATCH);
	}
}

static void run_hot(uint64_t *mem, size_t len, size_t page)
{
	size_t pages = len / page, words = page / 8;

	for (;;) {
		for (int i = 0; i < BATCH; i++) {
			uint64_t *w = mem + rand_below(pages) * words +
				      rand_below(words);

			*w += 1;
		}
		count(BATCH);
	}
}

static const char usage[] =
	"usage: agent-job kv|gc|stream|hot|idle MIB [-o FILE] [-z ZIPF_S] [-d DRIFT_PCT_PER_S]\n"
	"                 [-v VALUE_BYTES] [-n NURSERY_MIB] [-r OPS_PER_S]\n";

int main(int argc, char **argv)
{
	const char *mode, *out = NULL;
	double zipf = 0.99, drift = 2;
	unsigned long vbytes = 256, nursery_mib = 0;
	size_t len, page = sysconf(_SC_PAGESIZE);
	uint64_t *mem;
	char *end;
	const struct opt opts[] = {
		{ 'o', OPT_STR, &out },		  { 'z', OPT_DOUBLE, &zipf },
		{ 'd', OPT_DOUBLE, &drift },	  { 'v', OPT_ULONG, &vbytes },
		{ 'n', OPT_ULONG, &nursery_mib }, { 'r', OPT_DOUBLE, &rate },
	};

	if (argc < 3) {
		fputs(usage, stderr);
		return 2;
	}
	mode = argv[1];
	len = strtoul(argv[2], &end, 0);
	len <<= *end == 'k' ? 10 : 20;
	optind = 3;
	if (parse_opts(argc, argv, opts, sizeof(opts) / sizeof(opts[0]))) {
		fputs(usage, stderr);
		return 2;
	}
	if (!len || vbytes < 32 || vbytes % 8 || vbytes > len) {
		fputs(usage, stderr);
		return 2;
	}
	mem = map_mem(len);
	if (out)
		counter = counter_publish(out);
	t_start = now_s();
	if (!strcmp(mode, "kv"))
		run_kv(mem, len, vbytes, zipf, drift);
	else if (!strcmp(mode, "gc"))
		run_gc(mem, len, nursery_mib ? nursery_mib << 20 : len / 16);
	else if (!strcmp(mode, "stream"))
		run_stream(mem, len);
	else if (!strcmp(mode, "hot"))
		run_hot(mem, len, page);
	else if (!strcmp(mode, "idle"))
		for (;;)
			pause();
	fputs(usage, stderr);
	return 2;
}
