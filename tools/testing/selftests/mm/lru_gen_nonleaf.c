// SPDX-License-Identifier: GPL-2.0
/*
 * Multi-gen LRU aging with the Access flag of non-leaf PMD entries.
 *
 * With bit 0x0004 in lru_gen/enabled (ARCH_HAS_NONLEAF_PMD_YOUNG, and a
 * CPU that sets the Access flag of table descriptors, such as arm64 with
 * FEAT_HAFT), an aging walk tests and clears the flag of each PMD that
 * points to a PTE table, and skips the whole table while it is clear. In
 * a memcg of its own, with 0x0004 off and then on, this test checks, by
 * the walk's own counters of PTE tables entered and added to the Bloom
 * filter and of leaf entries visited and found young:
 *
 *  - cold set: after 1 GiB of small pages (two PMD spans where that is
 *    more) went cold and one sentinel page was touched, a walk finds the
 *    sentinel young and enters every table of the set with 0x0004 off,
 *    and only the sentinel's table with it on;
 *  - hot regions: after every 20th PMD-span region was touched whole and
 *    one page in each of the others, a walk enters every table, adds the
 *    whole ones to the filter and finds every touched page young;
 *  - new table: a PTE table created after the flags were cleared, and
 *    filled without the CPU walking it (MADV_POPULATE_WRITE), is entered
 *    and its pages found young: its flag was set when it was created;
 *  - THP: touched PMD leaves are found young, untouched ones are not, and
 *    unmapping each shows which were.
 *
 * Tables are counted, not just pages, so that one table skipped wrongly
 * fails the test whatever the page size. The walks are driven so that the
 * counts are exact:
 *  - Each checked walk is asked for with force_scan=0: the debugfs
 *    default bypasses both the non-leaf test and the Bloom filter.
 *    Swappiness 200 has anonymous memory walked without swap.
 *  - Without force_scan a walk only enters the PTE tables in its Bloom
 *    filter, those with one young entry in eight or more in the walk
 *    before (with 64-byte cache lines). So the set is
 *    touched and walked with force_scan=1 ("seed"), touched and walked
 *    without it ("warm", which clears the table flags), and only then
 *    left alone for the walk that is checked.
 *  - Every mapping of the test but the one under test is MADV_RANDOM,
 *    which the walk skips (vma_has_recency()): the test's stack, heap and
 *    binary add no tables and no young pages to the counts.
 *  - A walk skips an mm that nothing switched to since the last walk,
 *    and it runs in this task: before each walk the test sleeps until
 *    getrusage() shows it was switched out (one sleep may not do it).
 *    The sentinel shows that the walk did enter the mm.
 *  - The walk clears Access flags without a TLB flush, and a TLB hit
 *    need not set them again: an mprotect() round trip through PROT_NONE
 *    before each touch makes the kernel drop the translations, keeping
 *    the flags.
 *  - A new page waits in a per-CPU batch before it joins the LRU, and a
 *    walk does not move it there. The test runs on one CPU and
 *    drains that CPU's batch (MADV_COLD) after faulting memory in.
 *  - DAMON's modules test and clear Access flags for their sampling: they
 *    are paused for the test, which skips where DAMON runs otherwise.
 *  - Reclaim would age and evict the test's lruvec behind its back: the
 *    memory is bound to the node with the most free pages above its high
 *    watermarks, and the test skips unless the set fits there with room,
 *    and within what the memory limits of the cgroup it is created in
 *    allow.
 *  - KSM would replace the set's pages by shared ones whose entries are
 *    old: merging inherited through PR_SET_MEMORY_MERGE is turned off,
 *    and every page holds its own address.
 *
 * Some of what others do to the test's memory is not the kernel's fault,
 * and is told apart from a wrong walk by what the walk's counters show. A
 * case so disturbed is tried again, up to TRIES times in all, and skips
 * with the reason when every try was:
 *  - A walk does not enter a PTE table whose lock it cannot take at once
 *    (someone reading /proc/PID/smaps holds it), but has counted it: a
 *    table counted that had fewer than all its entries visited. Of huge
 *    pages, the whole batch under one PMD lock is left: a walk that found
 *    none of the touched ones young.
 *  - Someone else aged the lruvec (kswapd, a memcg limit above): max_seq
 *    is not where the test's last walk left it.
 *  - Reclaim scanned the memcg: its memory.stat pgscan moved.
 * A page under migration has no present entry when the walk comes by: a
 * page count may be off by as many pages as /proc/vmstat shows migrated
 * during the try, and by no more.
 *
 * A kernel or CPU without non-leaf young keeps 0x0004 out of
 * lru_gen/enabled. The cases that need it skip, the others run, and the
 * test exits with KSFT_SKIP rather than 0: it did not test what it is
 * for.
 *
 * The cases run in a child process in the memcg; the parent restores
 * lru_gen/enabled, DAMON and the cgroups however the child ends.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/limits.h>
#include <linux/mempolicy.h>

#include "../kselftest.h"
#include "vm_util.h"
#include "thp_settings.h"
#include "cgroup_util.h"

#define ENABLED		"/sys/kernel/mm/lru_gen/enabled"
#define LRU_GEN		"/sys/kernel/debug/lru_gen"
#define LRU_GEN_FULL	"/sys/kernel/debug/lru_gen_full"
#define KDAMONDS	"/sys/kernel/mm/damon/admin/kdamonds"
#define LOCKDOWN	"/sys/kernel/security/lockdown"

#ifndef PR_SET_MEMORY_MERGE
#define PR_SET_MEMORY_MERGE	67
#define PR_GET_MEMORY_MERGE	68
#endif

#define CAPS_OFF	0x0003	/* the multi-gen LRU with page table walks */
#define CAPS_ON		0x0007	/* and non-leaf PMD young */
#define NR_GENS		4	/* MAX_NR_GENS */
#define SWAPPINESS	200
#define COLD_ROUNDS	2
#define HOT_EVERY	20	/* every 20th region is touched whole */
#define MAX_NODES	1024
#define HEADROOM	(32UL << 20)
#define TRIES		4	/* of a case that others disturbed */
#define RETRY		(-1)	/* a case's result: disturbed, try again */
/*
 * The test's own pages in the memcg (stack, buffers), in whatever
 * generation they sit: generation sizes may differ by that much.
 */
#define OWN_SLACK	64

/* The page table walk counters of lru_gen_full, "tyfa" or "TYFA" */
enum { VISITED, YOUNG, ENTERED, ADDED, NR_COUNTERS };

struct lruvec {
	unsigned long max_seq;
	unsigned long anon[NR_GENS];	/* by age, max_seq - seq */
	unsigned long file[NR_GENS];
	unsigned long walk[NR_COUNTERS];
	/* 't': the walk that made max_seq; 'T': the sums over all walks */
	char kind;
};

/*
 * A walk from max_seq moves what it finds young into generation max_seq,
 * and opens max_seq + 1: counted back from the new max_seq, what the
 * last walk found young is in anon[FOUND], the rest in anon[FOUND + 1].
 */
#define FOUND		1

static size_t page_size, pmd_span, set_len, per_table;
static unsigned long nr_pages, nr_regions, memcg_id;
static unsigned int thp_count;
static int node;
static char *set, *thp, *scratch;
static size_t thp_len;
static const char *mode;
static char why[512];
static pid_t parent, child;
static char root[PATH_MAX], *cg;
static char caps_saved[32];
static bool caps_changed, subtree_changed, nonleaf_ok;
/* Where the test's last walk left max_seq and the memcg's pgscan */
static unsigned long seq_left, scanned_left;
/* Pages migrated since the try began: what a page count may be off by */
static unsigned long migrated_base, slack;

static const char * const damon[] = {
	"/sys/module/damon_stat/parameters/enabled",
	"/sys/module/damon_reclaim/parameters/enabled",
	"/sys/module/damon_lru_sort/parameters/enabled",
};

static bool damon_paused[ARRAY_SIZE(damon)];

#define explain(...) snprintf(why, sizeof(why), __VA_ARGS__)

static int write_str(const char *path, const char *s)
{
	return write_text(path, (char *)s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -1;
}

static bool set_caps(unsigned int caps)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%04x", caps);
	caps_changed = true;
	write_str(ENABLED, buf);
	return read_text(ENABLED, buf, sizeof(buf)) > 0 &&
	       strtoul(buf, NULL, 0) == caps;
}

/* In the parent only (the child inherits it through fork()) */
static void cleanup(void)
{
	if (getpid() != parent)
		return;
	if (caps_changed)
		write_str(ENABLED, caps_saved);
	for (size_t i = 0; i < ARRAY_SIZE(damon); i++)
		if (damon_paused[i])
			write_str(damon[i], "Y");
	if (cg)
		cg_destroy(cg);
	if (subtree_changed)
		cg_write(root, "cgroup.subtree_control", "-memory");
}

static void forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

/* A kdamond started through sysfs cannot be paused from here. */
static void pause_damon(void)
{
	char buf[64], path[128];
	unsigned long n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(damon); i++) {
		if (read_text(damon[i], buf, sizeof(buf)) <= 0 || buf[0] != 'Y')
			continue;
		if (write_str(damon[i], "N"))
			ksft_exit_skip("cannot pause DAMON: %s\n", damon[i]);
		damon_paused[i] = true;
		ksft_print_msg("%s: N during the test\n", damon[i]);
	}
	if (read_text(KDAMONDS "/nr_kdamonds", buf, sizeof(buf)) > 0)
		n = strtoul(buf, NULL, 10);
	for (unsigned long i = 0; i < n; i++) {
		snprintf(path, sizeof(path), KDAMONDS "/%lu/state", i);
		if (read_text(path, buf, sizeof(buf)) > 0 && !strncmp(buf, "on", 2))
			ksft_exit_skip("kdamond %lu is on: it clears Access flags\n", i);
	}
}

/*
 * What the memory limits of the cgroup the test creates its own in leave
 * (ULONG_MAX: none). That is the root of the cgroup2 mount, which in a
 * container is the container's cgroup, with the container's limits.
 */
static unsigned long cgroup_room(const char **limit)
{
	static const char * const limits[] = { "memory.max", "memory.high" };
	unsigned long room = ULONG_MAX, v;
	long used = cg_read_long(root, "memory.current");
	char buf[64];

	for (size_t i = 0; i < ARRAY_SIZE(limits); i++) {
		if (cg_read(root, limits[i], buf, sizeof(buf)) || !strncmp(buf, "max", 3))
			continue;
		v = strtoul(buf, NULL, 10);
		if (used > 0)
			v = v > (unsigned long)used ? v - used : 0;
		if (v < room) {
			room = v;
			*limit = limits[i];
		}
	}
	return room;
}

/*
 * The node with the most free memory above its zones' high watermarks,
 * which must hold @need; and the cgroup's limits must allow it.
 */
static void choose_node(size_t need)
{
	static unsigned long free_pages[MAX_NODES], wmark[MAX_NODES], cache[MAX_NODES];
	unsigned long v, best = 0, room;
	char line[512], word[32];
	const char *limit = NULL;
	int nid, cur = -1;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		ksft_exit_skip("cannot read /proc/zoneinfo: %s\n", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone", &nid) == 1)
			cur = nid >= 0 && nid < MAX_NODES ? nid : -1;
		else if (cur < 0)
			continue;
		else if (sscanf(line, " pages free %lu", &v) == 1)
			free_pages[cur] += v;
		else if (sscanf(line, " %31s %lu", word, &v) != 2)
			continue;
		else if (!strcmp(word, "high") || !strcmp(word, "boost"))
			wmark[cur] += v;
		else if (!strcmp(word, "nr_zone_inactive_file") ||
			 !strcmp(word, "nr_zone_active_file"))
			cache[cur] += v;
	}
	fclose(f);
	for (nid = 0; nid < MAX_NODES; nid++) {
		if (free_pages[nid] <= wmark[nid])
			continue;
		v = (free_pages[nid] - wmark[nid]) * page_size;
		if (v > best) {
			best = v;
			node = nid;
		}
	}
	ksft_print_msg("node %d: %lu MiB free above the high watermark, %lu cached, %zu needed\n",
		       node, best >> 20, cache[node] * page_size >> 20, need >> 20);
	if (best < need && best + cache[node] * page_size >= need)
		ksft_exit_skip("not enough free memory on node %d: drop caches to make room\n",
			       node);
	if (best < need)
		ksft_exit_skip("not enough free memory on node %d: -s MiB runs a smaller set\n",
			       node);
	room = cgroup_room(&limit);
	if (room >= need)
		return;
	ksft_print_msg("%s of %s leaves %lu MiB, %zu MiB needed\n",
		       limit, root, room >> 20, need >> 20);
	ksft_exit_skip("not enough memory under %s of %s: raise it, or use -s MiB\n",
		       limit, root);
}

static void bind_node(void)
{
	unsigned long mask[MAX_NODES / (8 * sizeof(long))] = {};

	if (access("/sys/devices/system/node", F_OK))
		return;		/* no NUMA */
	mask[node / (8 * sizeof(long))] = 1UL << (node % (8 * sizeof(long)));
	if (syscall(__NR_set_mempolicy, MPOL_BIND, mask, MAX_NODES + 1))
		ksft_exit_skip("cannot bind to node %d: %s\n", node, strerror(errno));
}

/*
 * The lines of lru_gen_full that the test reads, as mm/vmscan.c prints
 * them (numbers padded with blanks):
 *   "memcg ID PATH"            a memcg, PATH from the hierarchy's root
 *   " node NID"                a node of it, its generations below
 *   " SEQ AGE ANON FILE"       a generation: sequence number, age in ms,
 *                              anon and file pages, each followed by an
 *                              'x' where the generation is older than
 *                              the oldest of that type
 *   " TIER Nc Nc Nc Nc Nc Nc"  a tier of the generation: refault counters
 *                              of anon and file, each with a letter
 *   " Nt Ny Nf Na"             the generation's page table walk counters:
 *                              leaf entries visited, leaf entries found
 *                              young, PTE tables entered, PTE tables added
 *                              to the Bloom filter; letters "tyfa", or
 *                              "TYFA" for sums, or "xxxx" for none
 * Anything else is a format the test does not know.
 */
enum { L_MEMCG, L_NODE, L_GEN, L_TIER, L_WALK, L_UNKNOWN };

static int parse_line(const char *line, unsigned long *n, char *m)
{
	const char *p = line;
	int nr = 0, len;
	char c;

	if (sscanf(line, "memcg %lu", &n[0]) == 1)
		return L_MEMCG;
	if (sscanf(line, " node %lu", &n[0]) == 1)
		return L_NODE;
	while (nr < 8 && sscanf(p, " %lu%n", &n[nr], &len) == 1) {
		p += len;
		m[nr] = ' ';
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
			m[nr] = *p++;
		nr++;
	}
	if (sscanf(p, " %c", &c) == 1)
		return L_UNKNOWN;
	if (nr == 4 && !memcmp(m, "  ", 2) && strchr(" x", m[2]) && strchr(" x", m[3]))
		return L_GEN;
	if (nr == 4 && (!memcmp(m, "tyfa", 4) || !memcmp(m, "TYFA", 4) ||
			!memcmp(m, "xxxx", 4)))
		return L_WALK;
	if (nr == 7 && m[0] == ' ' && !memchr(m + 1, ' ', 6))
		return L_TIER;
	return L_UNKNOWN;
}

/*
 * Kernel lockdown, at integrity (Secure Boot on several distributions) or
 * confidentiality, refuses to open a debugfs file that is writable, even
 * for reading: access() passes, open() fails with EPERM.
 */
static void open_debugfs(void)
{
	static const char * const files[] = { LRU_GEN, LRU_GEN_FULL };
	char lockdown[128] = "", *p;
	int fd;

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		fd = open(files[i], i ? O_RDONLY : O_RDWR);
		if (fd >= 0) {
			close(fd);
			continue;
		}
		if (errno != EPERM)
			ksft_exit_skip("no %s (%s): needs CONFIG_LRU_GEN and debugfs\n",
				       files[i], strerror(errno));
		/* "none [integrity] confidentiality" */
		read_text(LOCKDOWN, lockdown, sizeof(lockdown));
		p = strchr(lockdown, '[');
		ksft_print_msg("lockdown (Secure Boot) refuses writable debugfs files\n");
		ksft_exit_skip("%s: %s under kernel lockdown%s%.*s: boot with lockdown=none\n",
			       files[i], strerror(EPERM), p ? " " : "",
			       p ? (int)strcspn(p, "]") + 1 : 0, p ? p : "");
	}
}

/* Skip, before anything is changed, where lru_gen_full reads otherwise. */
static void check_format(void)
{
	char line[PATH_MAX + 64], m[8];
	unsigned long n[8];
	FILE *f = fopen(LRU_GEN_FULL, "r");

	if (!f)
		ksft_exit_skip("cannot open %s: %s\n", LRU_GEN_FULL, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (parse_line(line, n, m) != L_UNKNOWN)
			continue;
		line[strcspn(line, "\n")] = '\0';
		fclose(f);
		ksft_exit_skip("%s has a line in a format this test does not know: '%s'\n",
			       LRU_GEN_FULL, line);
	}
	fclose(f);
}

/* The generations and walk counters of the test's lruvec */
static int read_lruvec(struct lruvec *v)
{
	unsigned long seq[NR_GENS], anon[NR_GENS], file[NR_GENS];
	unsigned long walk[NR_GENS][NR_COUNTERS], n[8], id = 0;
	char line[PATH_MAX + 64], m[8], kind[NR_GENS];
	int i, nr = 0, nid = -1;
	FILE *f = fopen(LRU_GEN_FULL, "r");

	if (!f) {
		explain("cannot open %s: %s", LRU_GEN_FULL, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		switch (parse_line(line, n, m)) {
		case L_MEMCG:
			id = n[0];
			nid = -1;
			break;
		case L_NODE:
			nid = n[0];
			break;
		case L_GEN:
			if (id != memcg_id || nid != node || nr >= NR_GENS)
				break;
			seq[nr] = n[0];
			anon[nr] = n[2];
			file[nr] = n[3];
			kind[nr++] = 0;
			break;
		case L_WALK:
			if (id != memcg_id || nid != node || !nr || m[0] == 'x')
				break;
			memcpy(walk[nr - 1], n, sizeof(walk[0]));
			kind[nr - 1] = m[0];
			break;
		}
	}
	fclose(f);
	if (!nr) {
		explain("%s lists no generations of memcg %lu on node %d",
			LRU_GEN_FULL, memcg_id, node);
		return -1;
	}
	memset(v, 0, sizeof(*v));
	v->max_seq = seq[nr - 1];
	for (i = 0; i < nr; i++) {
		unsigned long age = v->max_seq - seq[i];

		if (age >= NR_GENS)
			continue;
		v->anon[age] = anon[i];
		v->file[age] = file[i];
		/*
		 * With CONFIG_LRU_GEN_STATS the walk that aged from seq is
		 * listed under seq; without, the sums under max_seq.
		 */
		if ((kind[i] == 't' && age == 1) || (kind[i] == 'T' && !age)) {
			memcpy(v->walk, walk[i], sizeof(v->walk));
			v->kind = kind[i];
		}
	}
	return 0;
}

static bool inside(unsigned long start, unsigned long end, char *p, size_t len)
{
	return p && start >= (unsigned long)p && end <= (unsigned long)p + len;
}

/* Keep the walk out of every mapping but the set and the THPs. */
static void hide_others(void)
{
	unsigned long start, end;
	char line[PATH_MAX + 128];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		ksft_exit_fail_msg("cannot read /proc/self/maps: %s\n", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx", &start, &end) != 2 ||
		    inside(start, end, set, set_len) || inside(start, end, thp, thp_len))
			continue;
		/* The vsyscall page and VM_PFNMAP ones cannot take it. */
		madvise((void *)start, end - start, MADV_RANDOM);
	}
	fclose(f);
}

/* Pages reclaim scanned in the test's memcg */
static unsigned long memcg_scanned(void)
{
	long n = cg_read_key_long(cg, "memory.stat", "pgscan ");

	return n > 0 ? n : 0;
}

static unsigned long read_vmstat(const char *key)
{
	char line[128], word[64];
	unsigned long v, n = 0;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lu", word, &v) == 2 && !strcmp(word, key))
			n = v;
	fclose(f);
	return n;
}

/*
 * 6.12 refuses to age without force_scan (-ERANGE) while the lruvec has
 * MAX_NR_GENS generations; mainline folds the oldest into the next. Make
 * room by evicting the oldest, where only the test's own pages may be
 * left: without swap, eviction moves them to the youngest generation.
 */
static int make_room(struct lruvec *v)
{
	unsigned long n = v->anon[NR_GENS - 1] + v->file[NR_GENS - 1];
	unsigned long young = v->anon[0];
	char cmd[96];

	if (n > OWN_SLACK) {
		explain("the oldest generation holds %lu pages: aging would evict them", n);
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "- %lu %d %lu %d %lu", memcg_id, node,
		 v->max_seq - (NR_GENS - 1), SWAPPINESS, nr_pages);
	if (write_str(LRU_GEN, cmd)) {
		explain("'%s' > %s: %s", cmd, LRU_GEN, strerror(errno));
		return -1;
	}
	if (read_lruvec(v))
		return -1;
	if (v->anon[0] > young + OWN_SLACK) {
		explain("eviction moved %lu pages to the youngest generation",
			v->anon[0] - young);
		return -1;
	}
	scanned_left = memcg_scanned();	/* what the eviction scanned */
	ksft_print_msg("evicted generation %lu (%lu pages) to make room\n",
		       v->max_seq - (NR_GENS - 1), n);
	return 0;
}

static long nr_switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		ksft_exit_fail_msg("getrusage: %s\n", strerror(errno));
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/*
 * One aging walk from max_seq, once this task was switched out and in
 * again. @v is the lruvec after it, @w the walk's own counters; both are
 * printed, with the number of 1 ms sleeps the switch took in brackets.
 * Returns 0, KSFT_FAIL on an error, or RETRY where others disturbed the
 * walk: the case's result in both.
 */
static int age(bool force_scan, struct lruvec *v, unsigned long *w,
	       const char *what)
{
	unsigned long scanned = memcg_scanned();
	struct lruvec before;
	int i, ret, sleeps = 0;
	long switches;
	char cmd[96];

	if (read_lruvec(&before))
		return KSFT_FAIL;
	if (seq_left && before.max_seq != seq_left) {
		/* kswapd, or a memory limit above */
		explain("max_seq %lu before the %s walk, not %lu: aged by someone else",
			before.max_seq, what, seq_left);
		seq_left = before.max_seq;
		return RETRY;
	}
	if (scanned != scanned_left) {
		explain("before the %s walk reclaim scanned %lu pages of the memcg",
			what, scanned - scanned_left);
		scanned_left = scanned;
		return RETRY;
	}
	hide_others();
	switches = nr_switches();
	while (nr_switches() == switches) {
		if (++sleeps > 1000) {
			explain("not switched out in 1000 sleeps of 1 ms");
			return KSFT_FAIL;
		}
		usleep(1000);
	}
	snprintf(cmd, sizeof(cmd), "+ %lu %d %lu %d %d", memcg_id, node,
		 before.max_seq, SWAPPINESS, force_scan);
	ret = write_str(LRU_GEN, cmd);
	if (ret && errno == ERANGE && !force_scan) {
		if (make_room(&before))
			return KSFT_FAIL;
		ret = write_str(LRU_GEN, cmd);
		if (ret && errno == ERANGE) {
			explain("evicting the oldest generation left no room");
			return KSFT_FAIL;
		}
	}
	if (ret) {
		explain("'%s' > %s: %s", cmd, LRU_GEN, strerror(errno));
		return KSFT_FAIL;
	}
	if (read_lruvec(v))
		return KSFT_FAIL;
	if (v->max_seq > before.max_seq + 1) {
		explain("the %s walk from %lu left max_seq %lu: aged by someone else too",
			what, before.max_seq, v->max_seq);
		seq_left = v->max_seq;
		return RETRY;
	}
	if (v->max_seq != before.max_seq + 1 || !v->kind) {
		explain("aging from %lu left max_seq %lu%s", before.max_seq,
			v->max_seq, v->kind ? "" : ", no walk counters");
		return KSFT_FAIL;
	}
	seq_left = v->max_seq;
	scanned_left = memcg_scanned();
	slack = read_vmstat("pgmigrate_success") - migrated_base;
	for (i = 0; i < NR_COUNTERS; i++)
		w[i] = v->walk[i] - (v->kind == 'T' ? before.walk[i] : 0);
	ksft_print_msg("%s %s: visited %lu young %lu tables %lu/%lu gens %lu %lu %lu %lu (%d)%s\n",
		       mode, what, w[VISITED], w[YOUNG], w[ENTERED], w[ADDED],
		       v->anon[3], v->anon[2], v->anon[1], v->anon[0], sleeps,
		       slack ? ", pages migrated meanwhile" : "");
	if (slack)
		ksft_print_msg("%lu pages migrated since the case began: page counts' slack\n",
			       slack);
	/*
	 * A walk counts a PTE table as entered before it takes the table's
	 * lock, and leaves the table if another task holds the lock.
	 */
	if (w[VISITED] < w[ENTERED] * per_table) {
		explain("the %s walk visited %lu entries of %lu tables: %lu tables' locks busy",
			what, w[VISITED], w[ENTERED],
			(w[ENTERED] * per_table - w[VISITED] + per_table - 1) / per_table);
		return RETRY;
	}
	return 0;
}

static bool near(unsigned long n, unsigned long want, unsigned long slack)
{
	return n + slack >= want && n <= want + slack;
}

/* Make the kernel drop the translations of [p, p + len); Access flags stay. */
static void drop_tlb(char *p, size_t len)
{
	if (mprotect(p, len, PROT_NONE) || mprotect(p, len, PROT_READ | PROT_WRITE))
		ksft_exit_fail_msg("mprotect: %s\n", strerror(errno));
}

/*
 * A store: a load would map the huge zero page. Each page holds its own
 * address, so that KSM finds no two alike.
 */
static void touch(char *p, size_t len)
{
	for (size_t off = 0; off < len; off += page_size)
		*(unsigned long *)(p + off) = (unsigned long)(p + off);
}

/* Put new pages on the LRU: this task runs on one CPU. */
static void drain(void)
{
	if (madvise(scratch, page_size, MADV_COLD))
		ksft_exit_fail_msg("MADV_COLD: %s\n", strerror(errno));
}

static void fault_in(char *p, size_t len)
{
	touch(p, len);
	drain();
}

/* The whole set in the Bloom filter and young, then its flags cleared */
static int warm_up(struct lruvec *v, unsigned long *w)
{
	int ret;

	drop_tlb(set, set_len);
	touch(set, set_len);
	ret = age(true, v, w, "seed");
	if (ret)
		return ret;
	drop_tlb(set, set_len);
	touch(set, set_len);
	ret = age(false, v, w, "warm");
	if (ret)
		return ret;
	if (w[ENTERED] != nr_regions || w[ADDED] != nr_regions ||
	    !near(w[YOUNG], nr_pages, slack) ||
	    v->anon[FOUND] + slack < nr_pages) {
		explain("warm walk: tables %lu/%lu of %lu, young %lu of %lu, youngest gen %lu",
			w[ENTERED], w[ADDED], nr_regions, w[YOUNG], nr_pages,
			v->anon[FOUND]);
		return KSFT_FAIL;
	}
	return 0;
}

/*
 * The sentinel, one page of the set touched after the warm walk, is the
 * positive control: a walk that did not enter the mm, or skipped the
 * sentinel's table, does not find it young.
 */
static int cold_case(bool on)
{
	char *sentinel = set + (nr_regions / 2) * pmd_span + 3 * page_size;
	unsigned long w[NR_COUNTERS], want = on ? 1 : nr_regions;
	struct lruvec v;
	int ret;

	for (int r = 1; r <= COLD_ROUNDS; r++) {
		ret = warm_up(&v, w);
		if (ret)
			return ret;
		drop_tlb(sentinel, page_size);
		touch(sentinel, page_size);
		ret = age(false, &v, w, "cold");
		if (ret)
			return ret;
		if (!near(w[YOUNG], 1, slack) || !w[YOUNG] ||
		    w[ENTERED] != want || w[ADDED] ||
		    w[VISITED] < want * per_table ||
		    (on && w[VISITED] > per_table) ||
		    v.anon[FOUND] < 1 || v.anon[FOUND + 1] + OWN_SLACK < nr_pages - 1) {
			explain("cold walk %d: young %lu, tables %lu/%lu (want %lu/0), visited %lu",
				r, w[YOUNG], w[ENTERED], w[ADDED], want, w[VISITED]);
			return KSFT_FAIL;
		}
	}
	explain("cold walk: %lu of %lu tables entered, %lu entries visited, sentinel young",
		w[ENTERED], nr_regions, w[VISITED]);
	return KSFT_PASS;
}

static int hot_case(bool on)
{
	unsigned long hot = 0, whole = 0, w[NR_COUNTERS];
	struct lruvec v;
	int ret;

	ret = warm_up(&v, w);
	if (ret)
		return ret;
	drop_tlb(set, set_len);
	for (unsigned long r = 0; r < nr_regions; r++) {
		char *base = set + r * pmd_span;

		if (r % HOT_EVERY) {
			/* one page, its place varying from region to region */
			touch(base + (r * 37 % per_table) * page_size, 1);
			hot++;
		} else {
			touch(base, pmd_span);
			hot += per_table;
			whole++;
		}
	}
	ret = age(false, &v, w, "hot");
	if (ret)
		return ret;
	if (w[ENTERED] != nr_regions || w[ADDED] != whole ||
	    !near(w[YOUNG], hot, slack) || v.anon[FOUND] + slack < hot ||
	    v.anon[FOUND] > hot + OWN_SLACK ||
	    v.anon[FOUND + 1] + hot + OWN_SLACK < nr_pages) {
		explain("tables %lu/%lu (want %lu/%lu); %lu pages touched, %lu young; gens %lu/%lu",
			w[ENTERED], w[ADDED], nr_regions, whole, hot, w[YOUNG],
			v.anon[FOUND], v.anon[FOUND + 1]);
		return KSFT_FAIL;
	}
	explain("hot walk: all %lu tables entered, %lu added; %lu pages touched, %lu young",
		nr_regions, w[ADDED], hot, w[YOUNG]);
	return KSFT_PASS;
}

/* Keep KSM and THP away from [p, p + len), a part of the set. */
static void set_advice(char *p, size_t len)
{
	/* Without CONFIG_TRANSPARENT_HUGEPAGE there is nothing to refuse. */
	if (madvise(p, len, MADV_NOHUGEPAGE) && errno != EINVAL)
		ksft_exit_fail_msg("MADV_NOHUGEPAGE: %s\n", strerror(errno));
	/* Nor without CONFIG_KSM, but merging inherited is on for new VMAs. */
	if (madvise(p, len, MADV_UNMERGEABLE) && errno != EINVAL)
		ksft_exit_fail_msg("MADV_UNMERGEABLE: %s\n", strerror(errno));
}

/*
 * A PTE table made after the warm walk cleared the flags, in the place of
 * one it freed, and filled by MADV_POPULATE_WRITE: the CPU does not walk
 * it before the walk that is checked, so the table's flag is set only if
 * the kernel set it when it made the table. Without it, a walk with 0x0004
 * would skip pages just faulted in. The place is in the Bloom filter, which
 * is keyed by the PMD entry, not the table.
 */
static int new_table_case(bool on)
{
	char *region = set + (nr_regions / 3) * pmd_span;
	unsigned long w[NR_COUNTERS], want = on ? 1 : nr_regions;
	struct lruvec v;
	int ret;

	ret = warm_up(&v, w);
	if (ret)
		return ret;
	/* An unmapped PMD span, between two mappings, takes its table along. */
	if (munmap(region, pmd_span) ||
	    mmap(region, pmd_span, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0) != region) {
		explain("remapping one region of the set: %s", strerror(errno));
		return KSFT_FAIL;
	}
	set_advice(region, pmd_span);
	if (madvise(region, pmd_span, MADV_POPULATE_WRITE)) {
		explain("MADV_POPULATE_WRITE: %s", strerror(errno));
		return errno == EINVAL ? KSFT_SKIP : KSFT_FAIL;
	}
	drain();
	ret = age(false, &v, w, "new");
	if (ret)
		return ret;
	if (w[ENTERED] != want || w[ADDED] != 1 || !near(w[YOUNG], per_table, slack) ||
	    w[VISITED] < want * per_table || (on && w[VISITED] > per_table)) {
		explain("new table: young %lu of %zu, tables %lu/%lu (want %lu/1), visited %lu",
			w[YOUNG], per_table, w[ENTERED], w[ADDED], want, w[VISITED]);
		return KSFT_FAIL;
	}
	explain("new table: %lu of %lu tables entered, its %lu pages found young",
		w[ENTERED], nr_regions, w[YOUNG]);
	return KSFT_PASS;
}

/*
 * Which huge pages were found young: the walk moved those into generation
 * FOUND and left the others in FOUND + 1, and unmapping one takes its
 * pages out of the generation it is in. The test's own pages may come and
 * go meanwhile, by OWN_SLACK at most: far fewer than a huge page's.
 */
static int thp_which(unsigned int young)
{
	long hp = pmd_span / page_size, own, other;
	struct lruvec before, after;
	int gen;

	for (unsigned int i = 0; i < thp_count; i++) {
		if (read_lruvec(&before))
			return KSFT_FAIL;
		if (munmap(thp + i * pmd_span, pmd_span)) {
			explain("munmap: %s", strerror(errno));
			return KSFT_FAIL;
		}
		if (read_lruvec(&after))
			return KSFT_FAIL;
		if (after.max_seq != before.max_seq) {
			explain("someone else aged the memcg while huge pages were unmapped");
			seq_left = after.max_seq;
			return RETRY;
		}
		/* what left its own generation, and what left the other */
		gen = i < young ? FOUND : FOUND + 1;
		own = (long)(before.anon[gen] - after.anon[gen]);
		other = (long)(before.anon[2 * FOUND + 1 - gen] - after.anon[2 * FOUND + 1 - gen]);
		if (labs(own - hp) > OWN_SLACK || labs(other) > OWN_SLACK) {
			explain("huge page %u%s: %ld pages left its generation, %ld the other",
				i, i < young ? " (touched)" : "", own, other);
			return KSFT_FAIL;
		}
	}
	return 0;
}

/*
 * A walk takes the huge pages under one PMD table in a batch, under the
 * PMD lock, and leaves them all if another task holds it (one reading
 * /proc/PID/smaps): a walk that visited them and found none young.
 */
static int thp_walk(const char *what, struct lruvec *v, unsigned long *w,
		    unsigned int touched)
{
	int ret = age(false, v, w, what);

	if (ret)
		return ret;
	if (touched && !w[YOUNG] && w[VISITED] >= thp_count) {
		explain("the %s walk found none of %u touched huge pages: PMD lock busy",
			what, touched);
		return RETRY;
	}
	return 0;
}

static int thp_case(bool on)
{
	size_t half;
	unsigned long w[NR_COUNTERS];
	struct lruvec v;
	char *map;
	int ret = KSFT_FAIL;

	if (!thp_is_enabled()) {
		explain("THP is not enabled");
		return KSFT_SKIP;
	}
	thp_len = thp_count * pmd_span;
	half = thp_len / 2;
	map = mmap(NULL, thp_len + pmd_span, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		explain("mmap: %s", strerror(errno));
		return KSFT_FAIL;
	}
	thp = (char *)(((unsigned long)map + pmd_span - 1) & ~(pmd_span - 1));
	if (madvise(thp, thp_len, MADV_HUGEPAGE)) {
		explain("MADV_HUGEPAGE: %s", strerror(errno));
		goto out;
	}
	if (madvise(thp, thp_len, MADV_UNMERGEABLE) && errno != EINVAL) {
		explain("MADV_UNMERGEABLE: %s", strerror(errno));
		goto out;
	}
	fault_in(thp, thp_len);
	if (!check_huge_anon(thp, thp_count, pmd_span)) {
		explain("could not get %u huge pages", thp_count);
		ret = KSFT_SKIP;
		goto out;
	}
	drop_tlb(thp, thp_len);
	touch(thp, thp_len);
	ret = age(true, &v, w, "seed");
	if (ret)
		goto out;
	drop_tlb(thp, thp_len);
	touch(thp, thp_len);
	ret = thp_walk("warm", &v, w, thp_count);
	if (ret)
		goto out;
	ret = KSFT_FAIL;
	if (!near(w[YOUNG], thp_count, slack) ||
	    v.anon[FOUND] + slack < thp_len / page_size) {
		explain("warm walk: %lu young, %lu pages in the youngest generation",
			w[YOUNG], v.anon[FOUND]);
		goto out;
	}
	drop_tlb(thp, thp_len);
	touch(thp, half);
	ret = thp_walk("half", &v, w, thp_count / 2);
	if (ret)
		goto out;
	ret = KSFT_FAIL;
	if (w[YOUNG] != thp_count / 2 || v.anon[FOUND] < half / page_size ||
	    v.anon[FOUND] > half / page_size + OWN_SLACK ||
	    v.anon[FOUND + 1] < half / page_size) {
		explain("%u of %u THPs touched, %lu found young; generations %lu/%lu",
			thp_count / 2, thp_count, w[YOUNG], v.anon[FOUND],
			v.anon[FOUND + 1]);
		goto out;
	}
	ret = thp_which(thp_count / 2);
	if (ret)
		goto out;
	explain("%u of %u huge pages touched and found young, each the right one",
		thp_count / 2, thp_count);
	ret = KSFT_PASS;
out:
	munmap(map, thp_len + pmd_span);
	thp = NULL;
	return ret;
}

/*
 * Called before the child joins the memcg: the stack and stdio buffers it
 * uses, which later reads use again, stay charged outside.
 */
static void find_memcg_id(void)
{
	char line[PATH_MAX + 64], path[PATH_MAX];
	const char *want = strrchr(cg, '/');
	FILE *f = fopen(LRU_GEN, "r");
	size_t n;

	if (!f)
		ksft_exit_fail_msg("cannot open %s: %s\n", LRU_GEN, strerror(errno));
	/* lru_gen prints paths from the hierarchy's root, not the namespace's. */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "memcg %lu %4095s", &memcg_id, path) != 2)
			continue;
		n = strlen(path);
		if (n >= strlen(want) && !strcmp(path + n - strlen(want), want)) {
			fclose(f);
			return;
		}
	}
	fclose(f);
	ksft_exit_skip("%s does not list a cgroup named %s\n", LRU_GEN, want + 1);
}

/* Whether strict overcommit is why a mapping failed with @err */
static bool strict_overcommit(int err)
{
	char buf[16];

	return err == ENOMEM &&
	       read_text("/proc/sys/vm/overcommit_memory", buf, sizeof(buf)) > 0 &&
	       buf[0] == '2';
}

static void map_set(void)
{
	unsigned long w[NR_COUNTERS];
	struct lruvec v;
	char *map;
	int ret = RETRY;

	map = mmap(NULL, set_len + pmd_span, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED && strict_overcommit(errno))
		ksft_exit_skip("strict overcommit refuses %zu MiB: overcommit 0, or -s MiB\n",
			       (set_len + pmd_span) >> 20);
	if (map == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	set = (char *)(((unsigned long)map + pmd_span - 1) & ~(pmd_span - 1));
	if (set > map)
		munmap(map, set - map);
	munmap(set + set_len, map + pmd_span - set);
	set_advice(set, set_len);
	fault_in(set, set_len);
	/* The first walk after an mm joins a memcg is forced anyway. */
	mode = "";
	for (int try = 1; try <= TRIES && ret == RETRY; try++)
		ret = age(true, &v, w, "setup");
	if (ret == RETRY)
		ksft_exit_skip("others disturbed the first walk %d times: %s\n", TRIES, why);
	if (ret)
		ksft_exit_fail_msg("%s\n", why);
}

/*
 * A case is tried again where others disturbed it (RETRY), and skips,
 * with the last reason, after TRIES such tries.
 */
static int run_case(int (*fn)(bool on), bool on, const char *name)
{
	char first[sizeof(why)], last[sizeof(why)];
	int ret;

	for (int try = 1; try <= TRIES; try++) {
		why[0] = '\0';
		migrated_base = read_vmstat("pgmigrate_success");
		slack = 0;
		ret = fn(on);
		if (ret != RETRY) {
			if (try > 1 && ret == KSFT_PASS)
				ksft_print_msg("%s: passed on try %d of %d, after: %s\n",
					       name, try, TRIES, first);
			return ret;
		}
		ksft_print_msg("%s: try %d of %d disturbed: %s\n", name, try, TRIES, why);
		if (try == 1)
			memcpy(first, why, sizeof(first));
		memcpy(last, why, sizeof(last));
	}
	explain("disturbed by others in all %d tries; the last: %.400s", TRIES, last);
	return KSFT_SKIP;
}

static void __noreturn run_cases(void)
{
	static const struct {
		const char *name;
		int (*fn)(bool on);
		bool on;
	} tests[] = {
		{ "cold set, non-leaf young off: every table entered", cold_case, false },
		{ "cold set, non-leaf young on: only the touched table entered", cold_case, true },
		{ "hot regions, non-leaf young off: every table entered", hot_case, false },
		{ "hot regions, non-leaf young on: every table entered", hot_case, true },
		{ "new table, non-leaf young off: its pages found young", new_table_case, false },
		{ "new table, non-leaf young on: its pages found young", new_table_case, true },
		{ "THP, non-leaf young off: touched PMD leaves found young", thp_case, false },
		{ "THP, non-leaf young on: touched PMD leaves found young", thp_case, true },
	};
	int cpu = sched_getcpu();
	unsigned int on_passed = 0;
	cpu_set_t cpus;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		ksft_exit_fail_msg("lost the parent process\n");
	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	if (cpu < 0 || sched_setaffinity(0, sizeof(cpus), &cpus))
		ksft_exit_fail_msg("sched_setaffinity: %s\n", strerror(errno));
	/* Merging inherited from a parent (systemd's MemoryKSM=yes) */
	if (prctl(PR_GET_MEMORY_MERGE, 0, 0, 0, 0) > 0) {
		if (prctl(PR_SET_MEMORY_MERGE, 0, 0, 0, 0))
			ksft_exit_fail_msg("PR_SET_MEMORY_MERGE: %s\n", strerror(errno));
		ksft_print_msg("KSM merging inherited from the parent: off for the test\n");
	}
	bind_node();
	find_memcg_id();
	scratch = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (scratch == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	if (cg_enter_current(cg))
		ksft_exit_skip("cannot join %s\n", cg);
	map_set();

	ksft_set_plan(ARRAY_SIZE(tests));
	for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
		int ret;

		why[0] = '\0';
		mode = tests[i].on ? "on" : "off";
		if (tests[i].fn == thp_case && set) {
			munmap(set, set_len);
			set = NULL;
		}
		if (tests[i].on && !nonleaf_ok) {
			ret = KSFT_SKIP;
			explain("lru_gen/enabled does not keep 0x0004");
		} else if (!set_caps(tests[i].on ? CAPS_ON : CAPS_OFF)) {
			ret = KSFT_FAIL;
			explain("lru_gen/enabled does not keep what was written");
		} else {
			ret = run_case(tests[i].fn, tests[i].on, tests[i].name);
		}
		if (ret == KSFT_SKIP) {
			ksft_test_result_code(ret, tests[i].name, "%s", why);
			continue;
		}
		if (why[0])
			ksft_print_msg("%s: %s\n", tests[i].name, why);
		ksft_test_result(ret == KSFT_PASS, "%s\n", tests[i].name);
		on_passed += tests[i].on && ret == KSFT_PASS;
	}
	/*
	 * Non-leaf young is what the test is for: where no case of it passed
	 * (a kernel or CPU without it, or others disturbing every try), the
	 * test skips, as a test does where the feature it tests is absent,
	 * so that runners do not count it as a pass.
	 */
	if (!ksft_get_fail_cnt() && !on_passed) {
		ksft_print_msg("SKIP: no case with non-leaf young on ran and passed\n");
		ksft_print_cnts();
		exit(KSFT_SKIP);
	}
	ksft_finished();
}

int main(int argc, char **argv)
{
	unsigned long set_mib = 0;
	sigset_t sigs, old;
	char name[64];
	size_t need;
	int status, opt;

	/* -s MiB: a smaller set, for slow kernels such as KASAN under emulation */
	while ((opt = getopt(argc, argv, "s:")) != -1) {
		if (opt != 's')
			ksft_exit_fail_msg("usage: %s [-s MiB]\n", argv[0]);
		set_mib = strtoul(optarg, NULL, 0);
	}
	parent = getpid();
	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("needs root\n");
	if (access(ENABLED, F_OK))
		ksft_exit_skip("no multi-gen LRU\n");
	open_debugfs();
	check_format();
	if (cg_find_unified_root(root, sizeof(root), NULL) ||
	    cg_read_strstr(root, "cgroup.controllers", "memory"))
		ksft_exit_skip("no cgroup v2 with the memory controller\n");

	/* Where THP cannot tell, a PTE table is a page of 8-byte entries. */
	page_size = psize();
	pmd_span = read_pmd_pagesize() ?: page_size * (page_size / 8);
	per_table = pmd_span / page_size;
	set_len = set_mib << 20 ?: (pmd_span > (512UL << 20) ? 2 * pmd_span : 1UL << 30);
	/* Two tables at least: the sentinel's, and one a cold walk skips */
	if (set_len % pmd_span || set_len < 2 * pmd_span)
		ksft_exit_fail_msg("-s %lu: not two or more PMD spans of %zu MiB\n",
				   set_mib, pmd_span >> 20);
	nr_pages = set_len / page_size;
	nr_regions = set_len / pmd_span;
	thp_count = pmd_span > (256UL << 20) ? 2 : 4;
	need = set_len + nr_regions * page_size;
	if (need < thp_count * pmd_span)
		need = thp_count * pmd_span;
	choose_node(need + HEADROOM);
	if (read_text(ENABLED, caps_saved, sizeof(caps_saved)) <= 0)
		ksft_exit_fail_msg("cannot read %s\n", ENABLED);
	caps_saved[strcspn(caps_saved, "\n")] = '\0';

	/* Until the child can take them, these signals wait. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigprocmask(SIG_BLOCK, &sigs, &old);
	atexit(cleanup);
	if (!set_caps(CAPS_OFF))
		ksft_exit_skip("lru_gen/enabled does not keep 0x0003: no page table walks\n");
	nonleaf_ok = set_caps(CAPS_ON);
	pause_damon();
	if (cg_read_strstr(root, "cgroup.subtree_control", "memory")) {
		if (cg_write(root, "cgroup.subtree_control", "+memory"))
			ksft_exit_skip("cannot enable the memory controller in %s\n", root);
		subtree_changed = true;
	}
	snprintf(name, sizeof(name), "lru_gen_nonleaf.%d", parent);
	cg = cg_name(root, name);
	if (!cg || cg_create(cg)) {
		cg = NULL;	/* not ours to remove */
		ksft_exit_skip("cannot create the cgroup %s: %s\n", name, strerror(errno));
	}
	ksft_print_msg("%zu KiB pages, PMD span %zu MiB, set %zu MiB; caps %s%s\n",
		       page_size >> 10, pmd_span >> 20, set_len >> 20, caps_saved,
		       nonleaf_ok ? "" : ", 0x0004 not available");

	child = fork();
	if (child < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!child) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		run_cases();
	}
	signal(SIGINT, forward);
	signal(SIGTERM, forward);
	signal(SIGHUP, forward);
	sigprocmask(SIG_SETMASK, &old, NULL);
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
	child = 0;	/* reaped: its PID may be someone else's now */
	if (WIFSIGNALED(status)) {
		printf("Bail out! the test process was killed by signal %d\n",
		       WTERMSIG(status));
		return KSFT_FAIL;
	}
	return WEXITSTATUS(status);
}
