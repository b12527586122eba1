// SPDX-License-Identifier: GPL-2.0
/*
 * agebench: the aging half of 'make bench'. Times MGLRU aging walks of a
 * working set with non-leaf PMD young off (lru_gen/enabled 0x0003) and on
 * (0x0007), alternating the two settings (A B A B ...) inside one boot.
 *
 * Usage: agebench [-s MiB] [-r REPS] [-n | -c] SCENARIO...
 *   -s MiB  working set (default 1024)      -r N  repetitions (default 5)
 *   -n      only 0x0003 (for CPUs without HAFT; also used to measure the
 *           cost of 0x0004 on a CPU that cannot use it)
 *   -c      the same-versus-same control: both sides of each pair 0x0003
 *           (side=a and side=b), to show how far a paired ratio strays
 *           from 1 when nothing differs
 * Scenarios, each measured on the walk(s) after a "warm" walk that found
 * the whole set young (so every PTE table is in MGLRU's Bloom filter and,
 * with 0x0004, its table Access flag has just been cleared):
 *   cold      nothing touched: the first cold walk ("cold-after-hot"), and
 *             the walk after it ("steady-cold")
 *   hot       every page touched again
 *   hot10     every 10th 2 MiB region touched whole
 *   sparse    one page touched in every 2 MiB region (worst case)
 *   coldP     P% (0..100) of the tables, spread evenly, went cold since
 *             the warm walk, the others were touched whole: cold0 is hot,
 *             cold100 is cold-after-hot
 *   idle      the set is built once and never touched again, its owner
 *             keeps running: the walks after the first ("running owner")
 *   seed      the protocol of the original series: stress-ng --vm builds
 *             the set and sleeps; walks with the debugfs default
 *             force_scan=1 ("seed-fs1") and with force_scan=0 ("seed-fs0")
 * Each walk prints one line:
 *   BENCH scenario=S caps=0x0003 side=off rep=R walk=W mib=M ms=T
 *         visited=N young=N tables_found=N tables_added=N youngest=N
 * side is off (0x0003) or on (0x0007), or a and b with -c; mib the set.
 * "visited" is the walk's count of leaf entries (lru_gen_full, tyfa), the
 * deterministic cost; "youngest" the pages in the youngest generation after
 * it (pages promoted). Lines starting '#' are commentary.
 *
 * The walk protocol is the kselftest's (selftests/mm/lru_gen_nonleaf); the
 * code that reads lru_gen and drives the walks is the lab's (guest/lib/
 * lru_gen_util.c): force_scan=0 for every measured walk, a force_scan=1 seed
 * walk to fill the Bloom filter, an mprotect() round trip through PROT_NONE
 * before touching so the emulator's TLB cannot hide accesses, and eviction
 * only of (nearly) empty generations. The page size is the system's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "lru_gen_util.h"

#define ENABLED		LRU_GEN_ENABLED
#define THP		"/sys/kernel/mm/transparent_hugepage/enabled"
#define CG		"/sys/fs/cgroup"
#define SWAPPINESS	200
#define SLACK		64
/* The pages found young by a walk, counted back from the new max_seq */
#define FOUND		1

static unsigned long set_mib = 1024, nr_pages, nr_regions;
static size_t page_size, pmd_span, per_region;	/* pages in a PTE table */
static int reps = 5;
static bool only_off;
static const char *sides[2] = { "off", "on" };
static char *set;
static size_t set_len;
static unsigned int memcg_id;
static char cg_dir[128], saved_caps[32], saved_thp[64];
static pid_t seed_pid;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("BENCH-ERROR ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	exit(1);
}

static int put(const char *path, const char *fmt, ...)
{
	char buf[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return lru_gen_write_str(path, buf);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void restore(void)
{
	if (seed_pid > 0) {
		kill(seed_pid, SIGKILL);
		waitpid(seed_pid, NULL, 0);
		seed_pid = 0;
	}
	if (saved_caps[0])
		put(ENABLED, "%s", saved_caps);
	if (saved_thp[0])
		put(THP, "%s", saved_thp);
}

static void use_caps(unsigned int caps)
{
	if (lru_gen_set_caps(caps) != caps)
		die("lru_gen/enabled does not take 0x%04x", caps);
}

/*
 * One walk from max_seq. Prints a BENCH line when @scenario is set.
 * Returns false when a force_scan=0 walk has no room (the oldest generation
 * holds the working set).
 */
static bool walk(bool force, const char *scenario, int side, unsigned int caps,
		 int rep, int nr)
{
	const struct lru_gen_target t = {
		.memcg = memcg_id,
		.node = 0,
		.swappiness = SWAPPINESS,
		.slack = SLACK,
		.nr_to_reclaim = nr_pages,
	};
	struct lru_gen_lruvec g;
	struct lru_gen_walk w;
	int ret = lru_gen_walk(&t, force, &g, &w);

	if (ret > 0 && !force)
		return false;
	if (ret)
		die("%s", lru_gen_error());
	if (scenario)
		printf("BENCH scenario=%s caps=0x%04x side=%s rep=%d walk=%d mib=%lu ms=%.3f visited=%lu young=%lu tables_found=%lu tables_added=%lu youngest=%lu\n",
		       scenario, caps, sides[side], rep, nr, set_mib, w.ms,
		       w.counts.total, w.counts.young, w.counts.found,
		       w.counts.added, g.anon[FOUND]);
	fflush(stdout);
	return true;
}

static void drop_tlb(char *p, size_t len)
{
	if (lru_gen_drop_translations(p, len))
		die("mprotect: %s", strerror(errno));
}

/* Touch pages of [p, p + len): every page, or one per region (@sparse). */
static void touch(char *p, size_t len, bool sparse)
{
	static char stamp;

	drop_tlb(p, len);
	stamp++;
	for (size_t off = 0; off < len; off += sparse ? pmd_span : page_size)
		p[off + (sparse ? ((off / pmd_span) * 37 % per_region) * page_size : 0)] = stamp;
}

/* Seed the Bloom filter with every table, then warm: all young, table AF clear. */
static void warm_up(unsigned int caps)
{
	touch(set, set_len, false);
	walk(true, NULL, 0, caps, 0, 0);
	touch(set, set_len, false);
	if (!walk(false, NULL, 0, caps, 0, 0))
		die("no room for the warm walk");
}

static void join_cgroup(pid_t pid, const char *name)
{
	char path[192];

	snprintf(cg_dir, sizeof(cg_dir), CG "/%s", name);
	if (mkdir(cg_dir, 0755) && errno != EEXIST)
		die("mkdir %s: %s", cg_dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg_dir);
	if (put(path, "%d", pid))
		die("cannot move %d into %s: %s", pid, cg_dir, strerror(errno));
}

static void find_memcg(void)
{
	if (lru_gen_memcg_id(cg_dir + strlen(CG), &memcg_id))
		die("%s", lru_gen_error());
}

static void map_set(void)
{
	char *map;

	set_len = set_mib << 20;
	map = mmap(NULL, set_len + pmd_span, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	set = (char *)(((unsigned long)map + pmd_span - 1) & ~(pmd_span - 1));
	if (madvise(set, set_len, MADV_NOHUGEPAGE))
		die("MADV_NOHUGEPAGE: %s", strerror(errno));
	touch(set, set_len, false);
	walk(true, NULL, 0, 0, 0, 0);	/* a new mm's first walk is forced anyway */
}

static void touch_hot10(void)
{
	drop_tlb(set, set_len);
	for (unsigned long r = 0; r < nr_regions; r += 10)
		touch(set + r * pmd_span, pmd_span, false);
}

/*
 * @pct percent of the regions, spread evenly, stay cold; the others are
 * touched whole. Region r is cold when the count of cold regions up to it,
 * (r + 1) * pct / 100, grows at r.
 */
static void touch_cold_pct(unsigned long pct)
{
	drop_tlb(set, set_len);
	for (unsigned long r = 0; r < nr_regions; r++)
		if ((r + 1) * pct / 100 == r * pct / 100)
			touch(set + r * pmd_span, pmd_span, false);
}

/* One repetition of @name with the setting of @side. */
static void scenario(const char *name, int side, unsigned int caps, int rep)
{
	unsigned long pct;
	char *end;

	use_caps(caps);
	if (!strcmp(name, "idle")) {
		/* fresh set, built once, owner keeps running, touches nothing */
		munmap(set, set_len);
		map_set();
		for (int w = 1; w <= 2; w++)
			if (!walk(false, "running-owner", side, caps, rep, w))
				break;
		return;
	}
	warm_up(caps);
	if (!strcmp(name, "cold")) {
		walk(false, "cold-after-hot", side, caps, rep, 1);
		walk(false, "steady-cold", side, caps, rep, 2);
		return;
	}
	if (!strcmp(name, "hot"))
		touch(set, set_len, false);
	else if (!strcmp(name, "hot10"))
		touch_hot10();
	else if (!strcmp(name, "sparse"))
		touch(set, set_len, true);
	else if (!strncmp(name, "cold", 4) && name[4] &&
		 (pct = strtoul(name + 4, &end, 10)) <= 100 && !*end)
		touch_cold_pct(pct);
	else
		die("unknown scenario '%s'", name);
	if (!walk(false, name, side, caps, rep, 1))
		die("%s: no room for the measured walk", name);
}

/*
 * The seed protocol: stress-ng --vm 1 --vm-bytes SET --vm-hang 0 maps and
 * fills the set once and sleeps. Walks: 1 (absorbs the forced first walk of
 * a new mm), then 2 and 3 measured with @force.
 */
static void seed_run(int side, unsigned int caps, int rep, bool force)
{
	const char *name = force ? "seed-fs1" : "seed-fs0";
	char bytes[32], buf[64], path[192];
	double t0 = now_ms();

	use_caps(caps);
	snprintf(bytes, sizeof(bytes), "%luM", set_mib);
	seed_pid = fork();
	if (seed_pid < 0)
		die("fork: %s", strerror(errno));
	if (!seed_pid) {
		join_cgroup(getpid(), "agebench.seed");
		execlp("stress-ng", "stress-ng", "--vm", "1", "--vm-bytes", bytes,
		       "--vm-hang", "0", "--vm-keep", "--vm-method", "write64",
		       "--quiet", (char *)NULL);
		_exit(127);
	}
	snprintf(cg_dir, sizeof(cg_dir), CG "/agebench.seed");
	snprintf(path, sizeof(path), "%s/memory.current", cg_dir);
	/* built when the cgroup holds the whole set and stops growing */
	for (unsigned long last = 0;;) {
		unsigned long cur;

		usleep(500000);
		if (waitpid(seed_pid, NULL, WNOHANG) == seed_pid)
			die("stress-ng exited early");
		if (lru_gen_read_str(path, buf, sizeof(buf)))
			die("cannot read %s", path);
		cur = strtoul(buf, NULL, 10);
		if (cur >= set_len && cur == last)
			break;
		last = cur;
		if (now_ms() - t0 > 300e3)
			die("stress-ng did not fill %lu MiB in 300 s (%lu bytes)", set_mib, cur);
	}
	find_memcg();
	walk(true, NULL, side, caps, rep, 0);
	for (int w = 2; w <= 3; w++)
		if (!walk(force, name, side, caps, rep, w))
			break;
	kill(seed_pid, SIGKILL);
	waitpid(seed_pid, NULL, 0);
	seed_pid = 0;
}

/* The host shows 'LAB: ' lines as they come: progress of a long run. */
static void progress(const char *what, int rep)
{
	printf("LAB: agebench: %s, repetition %d of %d\n", what, rep, reps);
}

static void on_signal(int sig)
{
	restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

int main(int argc, char **argv)
{
	unsigned int settings[2] = { 0x0003, 0x0007 };
	int opt, nset = 2;

	setvbuf(stdout, NULL, _IOLBF, 0);
	page_size = sysconf(_SC_PAGESIZE);
	/* A PTE table is one page of 8-byte entries. */
	per_region = page_size / 8;
	pmd_span = page_size * per_region;
	while ((opt = getopt(argc, argv, "s:r:nc")) != -1) {
		switch (opt) {
		case 'n':
			only_off = true;
			break;
		case 'r':
			reps = atoi(optarg);
			break;
		case 's':
			set_mib = strtoul(optarg, NULL, 0);
			break;
		case 'c':
			settings[1] = 0x0003;
			sides[0] = "a";
			sides[1] = "b";
			break;
		default:
			fprintf(stderr, "usage: %s [-s MiB] [-r REPS] [-n | -c] SCENARIO...\n", argv[0]);
			return 2;
		}
	}
	if (optind >= argc || !set_mib || (set_mib << 20) % pmd_span || reps < 1 ||
	    (only_off && settings[1] == 0x0003)) {
		fprintf(stderr, "usage: %s [-s MiB] [-r REPS] [-n | -c] SCENARIO...\n", argv[0]);
		return 2;
	}
	if (only_off)
		nset = 1;
	nr_pages = (set_mib << 20) / page_size;
	nr_regions = (set_mib << 20) / pmd_span;
	if (lru_gen_read_str(ENABLED, saved_caps, sizeof(saved_caps)))
		die("no %s", ENABLED);
	saved_caps[strcspn(saved_caps, "\n")] = '\0';
	atexit(restore);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (put(CG "/cgroup.subtree_control", "+memory"))
		die("cannot enable the memory controller: %s", strerror(errno));
	printf("# agebench: %lu MiB, %d repetitions, settings %s, lru_gen/enabled was %s\n",
	       set_mib, reps,
	       only_off ? "0x0003" :
	       settings[1] == 0x0003 ? "0x0003 0x0003 alternated (control)" :
	       "0x0003 0x0007 alternated", saved_caps);

	for (int a = optind; a < argc; a++) {
		const char *name = argv[a];

		if (!strcmp(name, "seed")) {
			char thp[128];

			/* stress-ng's vm stressor may ask for THP: keep PTE tables */
			if (!lru_gen_read_str(THP, thp, sizeof(thp))) {
				char *b = strchr(thp, '['), *e = b ? strchr(b, ']') : NULL;

				if (b && e) {
					*e = '\0';
					snprintf(saved_thp, sizeof(saved_thp), "%s", b + 1);
					put(THP, "never");
				}
			}
			for (int force = 1; force >= 0; force--) {
				for (int r = 1; r <= reps; r++) {
					progress(force ? "seed (force_scan=1)" : "seed (force_scan=0)", r);
					for (int s = 0; s < nset; s++)
						seed_run(s, settings[s], r, force);
				}
			}
			if (saved_thp[0])
				put(THP, "%s", saved_thp);
			saved_thp[0] = '\0';
			continue;
		}
		if (!set) {
			join_cgroup(getpid(), "agebench.own");
			find_memcg();
			map_set();
		}
		snprintf(cg_dir, sizeof(cg_dir), CG "/agebench.own");
		find_memcg();
		for (int r = 1; r <= reps; r++) {
			progress(name, r);
			for (int s = 0; s < nset; s++)
				scenario(name, s, settings[s], r);
		}
	}
	printf("# agebench: done\n");
	return 0;
}
