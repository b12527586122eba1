// SPDX-License-Identifier: GPL-2.0
/*
 * Multi-gen LRU aging with the Access flag of non-leaf PMD entries.
 *
 * When lru_gen/enabled has 0x0004 (ARCH_HAS_NONLEAF_PMD_YOUNG and hardware
 * that sets the Access flag in table descriptors, e.g. arm64 FEAT_HAFT), the
 * aging walk tests and clears the Access flag of each PMD that points to a
 * PTE table and skips the whole table when it is clear. This test checks the
 * saving on a cold working set, and that a page touched since the last walk
 * is never skipped.
 *
 * The protocol avoids the ways MGLRU aging can be driven into measuring
 * something else:
 *  - Every walk that is measured is requested with force_scan=0: the
 *    debugfs default (1) bypasses both the non-leaf check and the Bloom
 *    filter. Swappiness is passed explicitly so that anonymous memory is
 *    walked without swap.
 *  - Without force_scan the walk only enters PTE tables that are in the
 *    Bloom filter, i.e. that were mostly young in the previous walk. Each
 *    round therefore starts with one force_scan=1 walk of a freshly
 *    touched set to put all of its tables into the filter, then touches the
 *    set again and walks it with force_scan=0 ("warm"), which clears the
 *    table Access flags. Only the walk after that sees a cold set whose
 *    tables are all in the filter: that is the one compared.
 *  - Without force_scan, aging fails with -ERANGE once there are four
 *    generations. The seed walk may move the oldest generation up (it is
 *    forced); otherwise room is made by evicting only generations that
 *    are (nearly) empty: evicting the working set without swap would clear
 *    its Access flags through the rmap and make it young again.
 *  - A walk skips an mm that has not run since the previous walk, which
 *    the kernel notes when it switches to a task of the mm. So before each
 *    walk the test sleeps until its context-switch count has changed; a
 *    sleep can end without one when its timer expires early.
 *  - The first walk after an mm joins a memcg is forced; a setup walk
 *    absorbs it.
 *  - The walk clears Access flags without flushing the TLB, and a TLB hit
 *    need not set them again; how many accesses a TLB hides depends on its
 *    size (an emulator's can hold the whole set). Before touching memory
 *    again the test makes the kernel invalidate its translations (an
 *    mprotect() round trip), so every touch is seen by a table walk. Every
 *    warm walk still verifies that the whole set was found young.
 *
 * The per-walk counters come from lru_gen_full, read by lru_gen_util.c:
 * leaf entries visited, leaf entries young, PTE tables found in the Bloom
 * filter, PTE tables added to it. With CONFIG_LRU_GEN_STATS the line under
 * a generation holds the walk that aged from it; without, as distributions
 * build the kernel, one line holds the sums over all walks, and a walk's
 * figures are the difference of the reads before and after it.
 *
 * The test runs on one NUMA node, the one with the most free memory (see
 * choose_node()), and skips when that is too little for the set. The set
 * and the THP case are sized from the PMD span (see size_from_pmd_span()),
 * and the counts allow a slack that grows with the set (choose_slack()).
 *
 * Result names are fixed; what a case measured is printed before its
 * result. The cases run in a child process, so that the parent can restore
 * the system's settings however the child ends.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <linux/magic.h>
#include <linux/mempolicy.h>
#include <linux/limits.h>

#include "../kselftest.h"
#include "vm_util.h"
#include "lru_gen_util.h"

#define ENABLED_PATH	LRU_GEN_ENABLED
#define LRU_GEN_PATH	LRU_GEN_DEBUGFS
#define LRU_GEN_FULL	LRU_GEN_DEBUGFS_FULL
#define THP_PATH	"/sys/kernel/mm/transparent_hugepage/enabled"
#define ZONEINFO	"/proc/zoneinfo"
#define CGROUP_ROOT	"/sys/fs/cgroup"
#define KDAMONDS	"/sys/kernel/mm/damon/admin/kdamonds"

#define CAP_CORE	0x0001
#define CAP_MM_WALK	0x0002
#define CAP_NONLEAF	0x0004
#define CAPS_OFF	(CAP_CORE | CAP_MM_WALK)
#define CAPS_ON		(CAP_CORE | CAP_MM_WALK | CAP_NONLEAF)

#define NR_GENS		LRU_GEN_NR_GENS
/*
 * A walk from max_seq moves what it finds young into generation max_seq,
 * then opens max_seq + 1 empty. Counted back from the new max_seq, the
 * pages found young by the last walk are in anon[FOUND], those not found
 * stay where they were: in anon[FOUND + 1] after being found one walk
 * earlier.
 */
#define FOUND		1
#define SWAPPINESS	200
/*
 * How many touched pages a walk may fail to count young, and how many
 * stray pages a generation may hold besides those expected; see
 * choose_slack().
 */
#define SLACK_FIXED	64
#define SLACK_SHIFT	12
#define MAX_ROUNDS	16
/* CONFIG_NODES_SHIFT is at most 10 */
#define MAX_NODES	1024
/*
 * Free memory required on the node besides the working set and its page
 * tables: this process's other pages and whatever the rest of the system
 * allocates there during the test.
 */
#define HEADROOM_MIB	32

/* Options */
static unsigned long set_mib;		/* 0: see size_from_pmd_span() */
static int rounds = 3;
static int hot_pct = 5;

/* Set up once */
static size_t page_size, pmd_span;
static unsigned long nr_pages, nr_regions, slack;
static int thp_count;
static char *set;
static char *scratch;			/* one page, never touched */
static size_t set_len;
static unsigned int memcg_id;
static bool nonleaf_ok;
static char cg_dir[256], cg_procs[300], cg_home[600];
static char caps_saved[32];
static bool caps_changed, subtree_changed;
static pid_t child;			/* the process that runs the cases */
static bool keep_damon;			/* -d */

/* DAMON's modules that sample pages by testing and clearing Access flags */
static struct damon_module {
	const char *path;
	bool paused;
} damon_modules[] = {
	{ "/sys/module/damon_stat/parameters/enabled" },
	{ "/sys/module/damon_reclaim/parameters/enabled" },
	{ "/sys/module/damon_lru_sort/parameters/enabled" },
};

static int node;				/* the node tested */
static bool numa;			/* mbind() is available */
static unsigned long node_mask[MAX_NODES / (8 * sizeof(long))];
static char why[512];

/* Results carried from one case to the next */
static unsigned long cold_off[MAX_ROUNDS], cold_on[MAX_ROUNDS];
static bool have_cold_off;
static unsigned long hot_off[2], hot_on[2];
static bool have_hot_off;

#define explain(...) snprintf(why, sizeof(why), __VA_ARGS__)

/*
 * Cleanup runs from atexit() and from signal handlers, so it only uses
 * async-signal-safe calls. It runs in both processes (see main()) and
 * repeating any of its steps is harmless.
 */
static void write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return;
	/* Nothing more can be done if this fails while leaving. */
	write(fd, s, strlen(s));
	close(fd);
}

static void cleanup(void)
{
	if (caps_changed) {
		write_str(ENABLED_PATH, caps_saved);
		caps_changed = false;
	}
	for (size_t i = 0; i < ARRAY_SIZE(damon_modules); i++) {
		if (damon_modules[i].paused) {
			write_str(damon_modules[i].path, "Y");
			damon_modules[i].paused = false;
		}
	}
	if (!cg_dir[0])
		return;
	if (set) {
		munmap(set, set_len);
		set = NULL;
	}
	/* "0" moves the writer back to where it came from */
	write_str(cg_home, "0");
	rmdir(cg_dir);
	cg_dir[0] = '\0';
	if (subtree_changed) {
		write_str(CGROUP_ROOT "/cgroup.subtree_control", "-memory");
		subtree_changed = false;
	}
}

static void on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* In the parent: the child cleans up, then the parent again. */
static void pass_signal(int sig)
{
	kill(child, sig);
}

static void catch_signals(void (*handler)(int))
{
	signal(SIGINT, handler);
	signal(SIGTERM, handler);
	signal(SIGHUP, handler);
	signal(SIGALRM, handler);
}

/* Write @caps to lru_gen/enabled and return what it reads back. */
static unsigned int set_caps(unsigned int caps)
{
	caps_changed = true;
	return lru_gen_set_caps(caps);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static bool node_set(const unsigned long *mask, int nid)
{
	return mask[nid / (8 * sizeof(long))] & (1UL << (nid % (8 * sizeof(long))));
}

/*
 * The node tested is the one, of those this process may allocate from,
 * with the most free memory above its zones' high watermarks: node 0 can
 * be small or have no memory at all. The sets are bound to it with
 * mbind(), and only its lruvec is aged and read. Without CONFIG_NUMA there
 * is no /sys/devices/system/node, no mempolicy calls, and one node, 0.
 *
 * Any reclaim on that node during the test would age and evict the test's
 * lruvec too, moving its pages between generations behind its back: free
 * memory must stay above the high watermark (where kswapd stops) with the
 * set in place. Free pages are what counts, not MemAvailable: making room
 * by dropping page cache is reclaim. So the node needs the set, its PTE
 * tables, HEADROOM_MIB and the watermark (with any boost) free, or the
 * test skips rather than fail or be OOM-killed.
 */
static void choose_node(size_t need)
{
	static unsigned long free_pages[MAX_NODES], wmark_pages[MAX_NODES];
	static unsigned long allowed[MAX_NODES / (8 * sizeof(long))];
	unsigned long best = 0, v;
	int cur = -1, nid;
	struct lru_gen_lines zi = { .fd = -1 };
	char *line, word[16];

	numa = !access("/sys/devices/system/node", F_OK);
	if (!numa)
		memset(allowed, 0xff, sizeof(allowed));
	else if (syscall(__NR_get_mempolicy, NULL, allowed, MAX_NODES + 1, NULL,
			 MPOL_F_MEMS_ALLOWED))
		ksft_exit_skip("cannot read the nodes allowed: get_mempolicy: %s\n",
			       strerror(errno));
	if (lru_gen_lines_open(&zi, ZONEINFO))
		ksft_exit_skip("cannot open %s: %s\n", ZONEINFO, strerror(zi.err));
	while ((line = lru_gen_next_line(&zi))) {
		if (sscanf(line, "Node %d, zone", &nid) == 1) {
			cur = nid >= 0 && nid < MAX_NODES ? nid : -1;
			continue;
		}
		if (cur < 0)
			continue;
		if (sscanf(line, " pages free %lu", &v) == 1)
			free_pages[cur] += v;
		else if (sscanf(line, " %15s %lu", word, &v) == 2 &&
			 (!strcmp(word, "high") || !strcmp(word, "boost")))
			wmark_pages[cur] += v;
	}
	if (lru_gen_lines_close(&zi))
		ksft_exit_skip("cannot read %s: %s\n", ZONEINFO, strerror(zi.err));
	lru_gen_lines_free(&zi);

	node = -1;
	for (nid = 0; nid < MAX_NODES; nid++) {
		if (!node_set(allowed, nid) || free_pages[nid] <= wmark_pages[nid])
			continue;
		v = (free_pages[nid] - wmark_pages[nid]) * page_size;
		if (v > best) {
			best = v;
			node = nid;
		}
	}
	if (node < 0)
		ksft_exit_skip("not enough free memory on any node\n");
	ksft_print_msg("node %d: %lu MiB free above the high watermark, %zu MiB needed%s\n",
		       node, best >> 20, need >> 20, numa ? "" : " (no NUMA)");
	if (best < need)
		ksft_exit_skip("not enough free memory: %lu MiB on node %d, %zu MiB needed\n",
			       best >> 20, node, need >> 20);
	node_mask[node / (8 * sizeof(long))] = 1UL << (node % (8 * sizeof(long)));
}

/*
 * DAMON samples pages by testing and clearing their Access flags (PMD
 * leaves included) and keeps what it saw in the folio, not in the page
 * table, and MGLRU's walk reads only the page table: a page DAMON sampled
 * after the test touched it looks old to the next walk, which the test
 * would count against the walk. Its modules that run on their own
 * (DAMON_STAT is on by default where CONFIG_DAMON_STAT_ENABLED_DEFAULT=y)
 * are paused for the test and restored on exit, like lru_gen/enabled; -d
 * leaves them running, to measure what they hide. A kdamond started
 * through sysfs cannot be paused from here: it is reported.
 */
static void pause_damon(void)
{
	char buf[64], path[128];
	unsigned long n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(damon_modules); i++) {
		struct damon_module *m = &damon_modules[i];

		if (lru_gen_read_str(m->path, buf, sizeof(buf)) || buf[0] != 'Y')
			continue;
		if (keep_damon) {
			ksft_print_msg("%s is Y: left running (-d)\n", m->path);
			continue;
		}
		m->paused = true;
		if (lru_gen_write_str(m->path, "N"))
			ksft_exit_fail_msg("cannot pause DAMON: %s: %s\n", m->path,
					   strerror(errno));
		ksft_print_msg("%s was Y: N during the test\n", m->path);
	}
	if (!lru_gen_read_str(KDAMONDS "/nr_kdamonds", buf, sizeof(buf)))
		n = strtoul(buf, NULL, 10);
	for (unsigned long i = 0; i < n; i++) {
		snprintf(path, sizeof(path), KDAMONDS "/%lu/state", i);
		if (!lru_gen_read_str(path, buf, sizeof(buf)) && !strncmp(buf, "on", 2))
			ksft_print_msg("kdamond %lu is on: pages it samples can look old\n", i);
	}
}

/*
 * The set is 1 GiB, or two PMD spans where that is more, so that hot and
 * cold regions lie side by side: 512 regions of 2 MiB with 4 KiB pages,
 * 32 of 32 MiB with 16 KiB pages, 2 of 512 MiB with 64 KiB pages. The THP
 * case maps four huge pages, or two where a PMD spans more than 256 MiB,
 * and touches half of them.
 */
static void size_from_pmd_span(void)
{
	/* A PTE table is one page of 8-byte entries. */
	pmd_span = page_size * (page_size / 8);
	if (!set_mib)
		set_mib = (2 * pmd_span) >> 20 > 1024 ? (2 * pmd_span) >> 20 : 1024;
	thp_count = pmd_span > (256UL << 20) ? 2 : 4;
}

/*
 * The page counts a case checks are exact but for two kinds of pages.
 * Stray anonymous pages of this process (its stack, its copies of pages
 * shared with the parent, the helper's buffers) share the memcg's
 * generations: a fixed number, SLACK_FIXED at most. And a walk can miss
 * a page touched since the last one: a page off the LRU for a moment
 * (migration, compaction, a per-CPU batch) is not counted young, and one
 * whose Access flag something else tested and cleared meanwhile looks
 * old. Each page has a small chance of that, so this part grows with the
 * set: one page in 2^SLACK_SHIFT, 64 of 1 GiB of 4 KiB pages. The sum
 * stays below half the entries of a PTE table, so a table skipped wrongly
 * cannot hide in it.
 */
static void choose_slack(void)
{
	unsigned long ptes = page_size / 8;

	slack = SLACK_FIXED + (nr_pages >> SLACK_SHIFT);
	if (slack >= ptes / 2)
		slack = ptes / 2 - 1;
}

/* Allocate the pages of [p, p + len) on the node tested. */
static int bind_to_node(void *p, size_t len)
{
	if (numa && syscall(__NR_mbind, p, len, MPOL_BIND, node_mask,
			    MAX_NODES + 1, 0)) {
		explain("mbind to node %d: %s", node, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * One aging walk, from max_seq to max_seq + 1. On return @g describes the
 * generations after it and @w the walk's counters and elapsed time.
 */
static int age(bool force_scan, struct lru_gen_lruvec *g, struct lru_gen_walk *w,
	       const char *what)
{
	const struct lru_gen_target t = {
		.memcg = memcg_id,
		.node = node,
		.swappiness = SWAPPINESS,
		.slack = slack,
		.nr_to_reclaim = nr_pages,
	};

	if (lru_gen_walk(&t, force_scan, g, w)) {
		explain("%s", lru_gen_error());
		return -1;
	}
	if (w->sleeps > 1)
		ksft_print_msg("%s: switched out and back after %u sleeps of 1 ms\n",
			       what, w->sleeps);
	ksft_print_msg("%-22s %lu->%lu: visited %6lu young %6lu tables %4lu/%4lu %7.1f ms,",
		       what, w->seq, w->seq + 1, w->counts.total, w->counts.young,
		       w->counts.found, w->counts.added, w->ms);
	printf(" early %lu, gens", w->early);
	for (int i = NR_GENS - 1; i >= 0; i--)
		printf(" %lu", g->anon[i]);
	printf("\n");
	return 0;
}

/*
 * Make the kernel drop the TLB entries of [p, p + len), so that the next
 * access to each page goes through a table walk (see lru_gen_util.h).
 */
static void drop_tlb(char *p, size_t len)
{
	if (lru_gen_drop_translations(p, len))
		ksft_exit_fail_msg("mprotect: %s\n", strerror(errno));
}

/* Write to every page: no read fault first, and the page gets dirty. */
static void touch_all(char *p, size_t len)
{
	static char stamp;

	drop_tlb(p, len);
	stamp++;
	for (size_t off = 0; off < len; off += page_size)
		p[off] = stamp;
}

/*
 * Fault in [p, p + len) so that every page is on the LRU when this
 * returns. A new page reaches the LRU through a per-CPU batch, and while
 * it waits there it is on no LRU list: a walk neither moves it nor (on
 * kernels that check the folio's generation first) counts it young, and
 * it joins the youngest generation whenever the batch happens to be
 * drained. Later walks then see it in an older generation, and evicting
 * that generation makes the rmap look around it and age its neighbours in
 * the set behind the test's back. So fault the pages in on one CPU and
 * drain that CPU's batches afterwards: MADV_COLD drains them before it
 * looks at its range, here one page that is never touched.
 */
static void fault_in(char *p, size_t len)
{
	cpu_set_t saved, one;
	bool pinned = false;
	int cpu = sched_getcpu();

	if (cpu >= 0 && !sched_getaffinity(0, sizeof(saved), &saved)) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		pinned = !sched_setaffinity(0, sizeof(one), &one);
	}
	touch_all(p, len);
	if (madvise(scratch, page_size, MADV_COLD))
		ksft_exit_fail_msg("MADV_COLD: %s\n", strerror(errno));
	if (pinned)
		sched_setaffinity(0, sizeof(saved), &saved);
}

static bool region_is_hot(unsigned long r)
{
	return r % (100 / hot_pct) == 0;
}

/*
 * The hot subset: every (100 / hot_pct)-th PMD-span region whole, and one
 * page, at a varying offset, in each of the other regions.
 */
static unsigned long touch_hot(void)
{
	unsigned long per_region = pmd_span / page_size, n = 0;

	drop_tlb(set, set_len);
	for (unsigned long r = 0; r < nr_regions; r++) {
		char *base = set + r * pmd_span;

		if (region_is_hot(r)) {
			touch_all(base, pmd_span);
			n += per_region;
		} else {
			base[((r * 37 + 11) % per_region) * page_size]++;
			n++;
		}
	}
	return n;
}

static unsigned long hot_whole_pages(void)
{
	unsigned long n = 0;

	for (unsigned long r = 0; r < nr_regions; r++)
		n += region_is_hot(r) ? pmd_span / page_size : 0;
	return n;
}

static bool use_caps(unsigned int caps)
{
	unsigned int got = set_caps(caps);

	if (got != caps) {
		explain("lru_gen/enabled reads 0x%04x after writing 0x%04x", got, caps);
		return false;
	}
	return true;
}

/*
 * Bring the whole set into the Bloom filter, then warm it with a walk that
 * clears its table Access flags (with non-leaf young on). Afterwards every
 * page is in the youngest generation and its PTE Access flag is clear.
 */
static int warm_up(struct lru_gen_lruvec *g, const char *mode)
{
	struct lru_gen_walk w;
	char what[64];

	touch_all(set, set_len);
	snprintf(what, sizeof(what), "%s seed (force_scan)", mode);
	if (age(true, g, &w, what))
		return -1;
	touch_all(set, set_len);
	snprintf(what, sizeof(what), "%s warm", mode);
	if (age(false, g, &w, what))
		return -1;
	if (w.counts.young + w.early + slack < nr_pages) {
		explain("%s: the walk after touching all %lu pages found %lu young (%lu early)",
			mode, nr_pages, w.counts.young, w.early);
		return -1;
	}
	if (g->anon[FOUND] + slack < nr_pages) {
		explain("%s: youngest generation holds %lu pages after touching all %lu",
			mode, g->anon[FOUND], nr_pages);
		return -1;
	}
	return 0;
}

/* Case 1: a cold set, measured with non-leaf young off or on. */
static int cold_rounds(bool on, unsigned long *visited)
{
	const char *mode = on ? "on" : "off";
	struct lru_gen_lruvec g;
	struct lru_gen_walk w;
	double ms = 0;

	if (!use_caps(on ? CAPS_ON : CAPS_OFF))
		return KSFT_FAIL;
	for (int r = 0; r < rounds; r++) {
		char what[64];

		if (warm_up(&g, mode))
			return KSFT_FAIL;
		snprintf(what, sizeof(what), "%s cold (round %d)", mode, r + 1);
		if (age(false, &g, &w, what))
			return KSFT_FAIL;
		if (w.counts.young > slack) {
			explain("%s: the cold walk found %lu young, expected at most %lu",
				mode, w.counts.young, slack);
			return KSFT_FAIL;
		}
		if (g.anon[FOUND + 1] + slack < nr_pages) {
			explain("%s: the cold set left its generation (%lu of %lu pages there)",
				mode, g.anon[FOUND + 1], nr_pages);
			return KSFT_FAIL;
		}
		visited[r] = w.counts.total;
		ms += w.ms;
	}
	ksft_print_msg("cold walks with non-leaf young %s: %.1f ms each on average\n",
		       mode, ms / rounds);
	return KSFT_PASS;
}

static int test_cold_off(void)
{
	int ret = cold_rounds(false, cold_off);

	if (ret != KSFT_PASS)
		return ret;
	for (int r = 0; r < rounds; r++) {
		if (cold_off[r] < nr_pages) {
			explain("cold walk %d visited %lu leaf entries, expected all %lu",
				r + 1, cold_off[r], nr_pages);
			return KSFT_FAIL;
		}
	}
	have_cold_off = true;
	explain("every cold walk visited all %lu leaf entries (%lu in the first)",
		nr_pages, cold_off[0]);
	return KSFT_PASS;
}

static int test_cold_on(void)
{
	int ret = cold_rounds(true, cold_on);

	if (ret != KSFT_PASS)
		return ret;
	for (int r = 0; r < rounds; r++) {
		unsigned long base = have_cold_off ? cold_off[r] : nr_pages;

		if (cold_on[r] * 100 > base) {
			explain("round %d: visited %lu leaf entries, over 1%% of %lu (off)",
				r + 1, cold_on[r], base);
			return KSFT_FAIL;
		}
	}
	explain("cold walks visited %lu leaf entries with non-leaf young on, %lu off (first round)",
		cold_on[0], have_cold_off ? cold_off[0] : nr_pages);
	return KSFT_PASS;
}

/*
 * Case 2: re-touch the hot subset after the warm walk cleared the table
 * Access flags. The next walk must find all of it young and move it to the
 * youngest generation, while the rest stays behind. A second round shows
 * the whole hot regions again; the single pages are not in the Bloom
 * filter any more (one young entry in 512), with non-leaf young off or on.
 */
static int hot_rounds(bool on, unsigned long *youngest)
{
	const char *mode = on ? "on" : "off";
	unsigned long hot, whole = hot_whole_pages();
	struct lru_gen_lruvec g;
	struct lru_gen_walk w;

	if (!use_caps(on ? CAPS_ON : CAPS_OFF))
		return KSFT_FAIL;
	if (warm_up(&g, mode))
		return KSFT_FAIL;

	hot = touch_hot();
	if (age(false, &g, &w, on ? "on hot 1" : "off hot 1"))
		return KSFT_FAIL;
	youngest[0] = g.anon[FOUND];
	if (w.counts.young + w.early + slack < hot || g.anon[FOUND] + slack < hot ||
	    g.anon[FOUND] > hot + slack) {
		explain("%s: re-touched %lu pages, found %lu young, youngest gen %lu",
			mode, hot, w.counts.young, g.anon[FOUND]);
		return KSFT_FAIL;
	}
	if (g.anon[FOUND + 1] + hot + slack < nr_pages) {
		explain("%s: only %lu of the %lu untouched pages stayed in their generation",
			mode, g.anon[FOUND + 1], nr_pages - hot);
		return KSFT_FAIL;
	}

	touch_hot();
	if (age(false, &g, &w, on ? "on hot 2" : "off hot 2"))
		return KSFT_FAIL;
	youngest[1] = g.anon[FOUND];
	if (w.counts.young + w.early + slack < whole || g.anon[FOUND] + slack < whole ||
	    g.anon[FOUND] > hot + slack) {
		explain("%s: re-touched %lu in whole regions, found %lu young, youngest gen %lu",
			mode, whole, w.counts.young, g.anon[FOUND]);
		return KSFT_FAIL;
	}
	explain("youngest gen after re-touching %lu pages: %lu, then %lu (whole regions %lu)",
		hot, youngest[0], youngest[1], whole);
	return KSFT_PASS;
}

static int test_hot_off(void)
{
	int ret = hot_rounds(false, hot_off);

	have_hot_off = ret == KSFT_PASS;
	return ret;
}

static int test_hot_on(void)
{
	int ret = hot_rounds(true, hot_on);

	if (ret != KSFT_PASS || !have_hot_off)
		return ret;
	for (int i = 0; i < 2; i++) {
		long d = (long)hot_on[i] - (long)hot_off[i];

		/* Eviction's look-around moves a varying few single pages up. */
		if (labs(d) > (long)slack) {
			explain("hot walk %d: youngest gen %lu pages with it on, %lu off",
				i + 1, hot_on[i], hot_off[i]);
			return KSFT_FAIL;
		}
	}
	explain("the youngest generation matches non-leaf young off: %lu/%lu on, %lu/%lu off",
		hot_on[0], hot_on[1], hot_off[0], hot_off[1]);
	return KSFT_PASS;
}

/* Case 3: switching 0x0004 between walks takes effect on the next walk. */
static int test_toggle(void)
{
	struct lru_gen_lruvec g;
	struct lru_gen_walk w;

	/* on -> off between the warm and the cold walk: nothing is skipped */
	if (!use_caps(CAPS_ON) || warm_up(&g, "on"))
		return KSFT_FAIL;
	if (!use_caps(CAPS_OFF) || age(false, &g, &w, "switched off, cold"))
		return KSFT_FAIL;
	if (w.counts.total < nr_pages) {
		explain("switched off: the cold walk visited %lu leaf entries, not all %lu",
			w.counts.total, nr_pages);
		return KSFT_FAIL;
	}

	/* off -> on between the seed and the warm walk */
	touch_all(set, set_len);
	if (age(true, &g, &w, "off seed (force_scan)"))
		return KSFT_FAIL;
	touch_all(set, set_len);
	if (!use_caps(CAPS_ON) || age(false, &g, &w, "switched on, warm"))
		return KSFT_FAIL;
	if (w.counts.young + w.early + slack < nr_pages) {
		explain("switched on: the warm walk found %lu of %lu pages young (%lu early)",
			w.counts.young, nr_pages, w.early);
		return KSFT_FAIL;
	}
	if (age(false, &g, &w, "on, cold"))
		return KSFT_FAIL;
	if (w.counts.total * 100 > nr_pages) {
		explain("switched on: the cold walk visited %lu of %lu leaf entries",
			w.counts.total, nr_pages);
		return KSFT_FAIL;
	}
	explain("off took effect at once (%lu visited), on from the next walk",
		nr_pages);
	return KSFT_PASS;
}

/*
 * Case 4: PMD leaf entries (THP) are tested and cleared as before: the
 * huge pages touched since the last walk move to the youngest generation,
 * the others stay.
 */
static int thp_case(bool on)
{
	const char *mode = on ? "on" : "off";
	size_t len = thp_count * pmd_span, half = len / 2;
	unsigned long per_thp = pmd_span / page_size;
	char buf[64], *map, *thp;
	struct lru_gen_lruvec g;
	struct lru_gen_walk w;
	int ret = KSFT_FAIL;

	if (lru_gen_read_str(THP_PATH, buf, sizeof(buf)) || strstr(buf, "[never]")) {
		explain("THP is not available (%s)", THP_PATH);
		return KSFT_SKIP;
	}
	if (!use_caps(on ? CAPS_ON : CAPS_OFF))
		return KSFT_FAIL;
	map = mmap(NULL, len + pmd_span, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		explain("mmap: %s", strerror(errno));
		return KSFT_FAIL;
	}
	thp = (char *)(((unsigned long)map + pmd_span - 1) & ~(pmd_span - 1));
	if (madvise(thp, len, MADV_HUGEPAGE)) {
		explain("MADV_HUGEPAGE: %s", strerror(errno));
		goto out;
	}
	if (bind_to_node(thp, len))
		goto out;
	fault_in(thp, len);
	if (!check_huge_anon(thp, thp_count, pmd_span)) {
		explain("could not get %d huge pages", thp_count);
		ret = KSFT_SKIP;
		goto out;
	}
	touch_all(thp, len);
	if (age(true, &g, &w, on ? "thp on seed" : "thp off seed"))
		goto out;
	touch_all(thp, len);
	if (age(false, &g, &w, on ? "thp on warm" : "thp off warm"))
		goto out;
	if (w.counts.young < thp_count || g.anon[FOUND] < thp_count * per_thp) {
		explain("%s: warm walk found %lu young, youngest generation holds %lu pages",
			mode, w.counts.young, g.anon[FOUND]);
		goto out;
	}
	touch_all(thp, half);
	if (age(false, &g, &w, on ? "thp on half hot" : "thp off half hot"))
		goto out;
	if (w.counts.young < thp_count / 2 || g.anon[FOUND] < half / page_size ||
	    g.anon[FOUND] > half / page_size + slack ||
	    g.anon[FOUND + 1] < half / page_size) {
		explain("%s: touched %d of %d THPs, found %lu young; gens %lu (youngest), %lu",
			mode, thp_count / 2, thp_count, w.counts.young, g.anon[FOUND],
			g.anon[FOUND + 1]);
		goto out;
	}
	explain("%d touched THPs moved to the youngest gen (%lu pages), %d stayed (%lu)",
		thp_count / 2, g.anon[FOUND], thp_count / 2, g.anon[FOUND + 1]);
	ret = KSFT_PASS;
out:
	munmap(map, len + pmd_span);
	return ret;
}

static int test_thp_off(void)
{
	return thp_case(false);
}

static int test_thp_on(void)
{
	return thp_case(true);
}

static const struct test_case {
	const char *name;
	bool needs_nonleaf;
	bool needs_set;
	int (*fn)(void);
} cases[] = {
	{ "cold set, non-leaf young off: every leaf visited", false, true, test_cold_off },
	{ "cold set, non-leaf young on: at most 1% of that", true, true, test_cold_on },
	{ "hot subset, non-leaf young off: found, rest ages", false, true, test_hot_off },
	{ "hot subset, non-leaf young on: same as off", true, true, test_hot_on },
	{ "toggling non-leaf young between walks", true, true, test_toggle },
	{ "THP, non-leaf young off: PMD leaves age", false, false, test_thp_off },
	{ "THP, non-leaf young on: PMD leaves age", true, false, test_thp_on },
};

static void show_options(const char *prog)
{
	printf("usage: %s [-s MiB] [-p rounds] [-f hot%%] [-d]\n"
	       "  -s MiB    set size, a multiple of the PMD span (default 1024, or two PMD spans)\n"
	       "  -p N      cold walks measured per setting (default 3, at most %d)\n"
	       "  -f PCT    percentage of PMD-span regions touched whole as hot (default 5)\n"
	       "  -d        leave DAMON's modules running (see pause_damon())\n",
	       prog, MAX_ROUNDS);
}

/* Pages this process touches later must not be charged to the test memcg. */
static void prefault(void)
{
	char stack[64 << 10];

	memset(stack, 0, sizeof(stack));
	asm volatile("" : : "r" (stack) : "memory");
	if (lru_gen_reserve(2 * PATH_MAX))
		ksft_exit_fail_msg("%s\n", lru_gen_error());
}

/*
 * A cgroup that cannot be used is a property of where the test runs (a
 * container, a read-only or delegated cgroupfs), not a kernel failure:
 * each of these skips with the reason.
 */
static void setup_cgroup(void)
{
	char buf[512], *p;
	struct statfs sfs;

	if (statfs(CGROUP_ROOT, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC)
		ksft_exit_skip("cgroup v2 is not mounted at %s\n", CGROUP_ROOT);
	if (lru_gen_read_str(CGROUP_ROOT "/cgroup.controllers", buf, sizeof(buf)) ||
	    !strstr(buf, "memory"))
		ksft_exit_skip("the memory controller is not available\n");
	if (lru_gen_read_str("/proc/self/cgroup", buf, sizeof(buf)) ||
	    strncmp(buf, "0::", 3))
		ksft_exit_skip("this process is not in a cgroup v2 hierarchy\n");
	p = strchr(buf, '\n');
	if (p)
		*p = '\0';
	snprintf(cg_home, sizeof(cg_home), CGROUP_ROOT "%s/cgroup.procs",
		 strcmp(buf + 3, "/") ? buf + 3 : "");

	if (lru_gen_read_str(CGROUP_ROOT "/cgroup.subtree_control", buf, sizeof(buf)))
		ksft_exit_skip("cannot read %s/cgroup.subtree_control: %s\n",
			       CGROUP_ROOT, strerror(errno));
	if (!strstr(buf, "memory")) {
		if (lru_gen_write_str(CGROUP_ROOT "/cgroup.subtree_control", "+memory"))
			ksft_exit_skip("cannot enable the memory controller: %s\n",
				       strerror(errno));
		subtree_changed = true;
	}
	snprintf(cg_dir, sizeof(cg_dir), CGROUP_ROOT "/lru_gen_nonleaf.%d", getpid());
	if (mkdir(cg_dir, 0755)) {
		snprintf(buf, sizeof(buf), "%s", cg_dir);
		cg_dir[0] = '\0';
		ksft_exit_skip("cannot make the cgroup %s: %s\n", buf, strerror(errno));
	}
	snprintf(cg_procs, sizeof(cg_procs), "%s/cgroup.procs", cg_dir);
}

/* In the child: move into the cgroup the parent made. */
static void join_cgroup(void)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", getpid());
	if (lru_gen_write_str(cg_procs, buf))
		ksft_exit_skip("cannot join %s: %s\n", cg_dir, strerror(errno));
}

/* Find the memcg ID that lru_gen lists for our cgroup. */
static void find_memcg_id(void)
{
	if (lru_gen_memcg_id(cg_dir + strlen(CGROUP_ROOT), &memcg_id))
		ksft_exit_fail_msg("%s\n", lru_gen_error());
}

static void map_set(void)
{
	struct lru_gen_lruvec g;
	struct lru_gen_walk w;
	char *map;

	map = mmap(NULL, set_len + pmd_span, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED)
		ksft_exit_fail_msg("mmap %zu bytes: %s\n", set_len, strerror(errno));
	set = (char *)(((unsigned long)map + pmd_span - 1) & ~(pmd_span - 1));
	if (set > map)
		munmap(map, set - map);
	munmap(set + set_len, map + pmd_span - set);
	if (madvise(set, set_len, MADV_NOHUGEPAGE))
		ksft_exit_fail_msg("MADV_NOHUGEPAGE: %s\n", strerror(errno));
	if (bind_to_node(set, set_len))
		ksft_exit_fail_msg("%s\n", why);
	fault_in(set, set_len);
	if (check_huge_anon(set, 0, pmd_span) == false)
		ksft_exit_fail_msg("the working set is backed by huge pages\n");
	/* The first walk of a newly added mm is forced: get it over with. */
	if (age(true, &g, &w, "setup (force_scan)"))
		ksft_exit_fail_msg("%s\n", why);
}

/*
 * The cases run in a child process in the test memcg. Whatever ends it, a
 * SIGKILL from the OOM killer or a runner's timeout included, the parent
 * is left to restore lru_gen/enabled and subtree_control and remove the
 * cgroup; if the parent dies first, the child is sent SIGTERM and cleans
 * up itself.
 */
static void __noreturn run_cases(pid_t parent, double start)
{
	catch_signals(on_signal);
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
		ksft_exit_fail_msg("lost the parent process\n");
	prefault();
	scratch = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (scratch == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	join_cgroup();
	find_memcg_id();
	ksft_print_msg("memcg %u: %s\n", memcg_id, cg_dir);
	if (set_caps(CAPS_OFF) != CAPS_OFF)
		ksft_exit_fail_msg("cannot write %s\n", ENABLED_PATH);
	map_set();

	/* Result names never change; what was measured goes in a message. */
	ksft_set_plan(ARRAY_SIZE(cases));
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct test_case *c = &cases[i];
		int ret;

		if (c->needs_nonleaf && !nonleaf_ok) {
			ksft_test_result_code(KSFT_SKIP, c->name,
					      "lru_gen/enabled cannot set 0x0004");
			continue;
		}
		if (!c->needs_set && set) {
			munmap(set, set_len);
			set = NULL;
		}
		why[0] = '\0';
		ret = c->fn();
		if (ret == KSFT_SKIP) {
			ksft_test_result_code(ret, c->name, "%s", why);
			continue;
		}
		if (why[0])
			ksft_print_msg("%s: %s\n", c->name, why);
		ksft_test_result(ret == KSFT_PASS, "%s\n", c->name);
	}
	ksft_print_msg("%.1f s in all\n", (now_ms() - start) / 1e3);
	cleanup();
	ksft_finished();
}

int main(int argc, char **argv)
{
	double start = now_ms();
	pid_t parent = getpid();
	unsigned int caps;
	size_t need;
	int opt, status;

	while ((opt = getopt(argc, argv, "s:p:f:dh")) != -1) {
		switch (opt) {
		case 's':
			set_mib = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			rounds = atoi(optarg);
			break;
		case 'f':
			hot_pct = atoi(optarg);
			break;
		case 'd':
			keep_damon = true;
			break;
		default:
			show_options(argv[0]);
			return opt == 'h' ? KSFT_PASS : KSFT_FAIL;
		}
	}
	page_size = psize();
	size_from_pmd_span();
	if (!set_mib || (set_mib << 20) % pmd_span || rounds < 1 ||
	    rounds > MAX_ROUNDS || hot_pct < 1 || hot_pct > 50) {
		show_options(argv[0]);
		return KSFT_FAIL;
	}
	set_len = set_mib << 20;
	nr_pages = (set_mib << 20) / page_size;
	nr_regions = (set_mib << 20) / pmd_span;
	choose_slack();

	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("needs root\n");
	if (access(ENABLED_PATH, F_OK))
		ksft_exit_skip("no multi-gen LRU (%s)\n", ENABLED_PATH);
	if (access(LRU_GEN_FULL, R_OK) || access(LRU_GEN_PATH, W_OK))
		ksft_exit_skip("no lru_gen in debugfs (mounted at /sys/kernel/debug?)\n");
	if (lru_gen_read_str(ENABLED_PATH, caps_saved, sizeof(caps_saved)))
		ksft_exit_fail_msg("cannot read %s\n", ENABLED_PATH);
	caps_saved[strcspn(caps_saved, "\n")] = '\0';
	caps = strtoul(caps_saved, NULL, 0);
	/* The set and its PTE tables, or the THP case's huge pages after it */
	need = set_len + set_len / (page_size / 8);
	if (need < thp_count * pmd_span)
		need = thp_count * pmd_span;
	choose_node(need + ((size_t)HEADROOM_MIB << 20));
	ksft_print_msg("%zu KiB pages, a PMD spans %zu MiB: %lu MiB set (%lu region%s)\n",
		       page_size >> 10, pmd_span >> 20, set_mib, nr_regions,
		       nr_regions == 1 ? "" : "s");
	ksft_print_msg("%d THPs, %lu pages of slack\n", thp_count, slack);

	atexit(cleanup);
	catch_signals(on_signal);

	/*
	 * The test turns the multi-gen LRU on where it is off (a kernel built
	 * without LRU_GEN_ENABLED) and restores what it found on exit.
	 * Without a hardware Access flag there are no page table walks.
	 */
	if (!(set_caps(CAPS_OFF) & CAP_MM_WALK))
		ksft_exit_skip("lru_gen/enabled cannot set 0x0002: no hardware Access flag\n");
	nonleaf_ok = set_caps(CAPS_ON) == CAPS_ON;
	pause_damon();
	ksft_print_msg("lru_gen/enabled was %s%s; 0x%04x %s be set; %lu pages, %d%% hot\n",
		       caps_saved, caps & CAP_CORE ? "" : " (off: turned on for the test)",
		       CAPS_ON, nonleaf_ok ? "can" : "cannot", nr_pages, hot_pct);

	setup_cgroup();
	fflush(stdout);
	child = fork();
	if (child < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!child)
		run_cases(parent, start);

	catch_signals(pass_signal);
	while (waitpid(child, &status, 0) < 0) {
		if (errno != EINTR)
			ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
	}
	cleanup();
	if (WIFSIGNALED(status)) {
		printf("Bail out! the test process was killed by signal %d (%s)\n",
		       WTERMSIG(status), strsignal(WTERMSIG(status)));
		return KSFT_FAIL;
	}
	return WEXITSTATUS(status);
}
