// SPDX-License-Identifier: GPL-2.0
/*
 * age-agent: what a job scheduler does with MGLRU for working-set
 * estimation and proactive reclaim: every interval it ages each of a set
 * of memcgs through debugfs lru_gen with force_scan=0 and, with -e, first
 * evicts the oldest generation of a memcg that has no room for a new one
 * (all four generations in use), to swap if there is any.
 *
 * Usage: age-agent [-c CAPS] [-p PAIR] [-r ROUNDS] [-w SETTLE] [-i MS]
 *                  [-e] [-f] [-m MODE] [-x PCT] [-s PCT] [-j DIR]
 *                  CGROUP... | -P PARENT
 *   -c CAPS    write CAPS to lru_gen/enabled first (default: leave it)
 *   -p PAIR    a label for the output (the pair of phases it belongs to)
 *   -r N       measured rounds (default 3)
 *   -w N       rounds before them, printed with settle=1 (default 1): the
 *              first walks after lru_gen/enabled changed
 *   -i MS      the interval between the starts of rounds (default 1000)
 *   -e         evict the oldest generation when there is no room
 *   -j DIR     jobs' operation counters: each file in DIR holds one
 *              native-endian 64-bit count, named after its job
 *   -P PARENT  age every child cgroup of PARENT (a directory of cgroupfs)
 *   -f         age with force_scan=1 (debugfs's documented default), which
 *              walks every mm and every table, used or not
 *   -m MODE    age (the default: the rounds above); watch: act on nothing,
 *              only count the walks the kernel's own reclaim made (a
 *              memory.max policy); reclaim: a pressure-driven proactive
 *              reclaimer in the style of senpai: each round, a memcg whose
 *              PSI "some" stall time grew by less than -x PCT of the
 *              interval since the last round is asked to reclaim
 *              through memory.reclaim; the amount starts at -s PCT of its
 *              memory.current and doubles with each round of low pressure
 *              in a row (at most 8 times), and falls back after a round of
 *              high pressure, when nothing is reclaimed
 *              senpai: senpai as published (facebookincubator/senpai,
 *              senpai.py, its defaults): each round is one of its 1 s
 *              ticks; the PSI "some" stall time since its last adjustment
 *              is the integral; above 10 ms it raises memory.high at once
 *              by up to 100% (by (integral / 10 ms / 20)^2 of it), and
 *              after 6 ticks without that it lowers memory.high by up to
 *              1% (by ((10 ms / integral) / 10)^2 of it), starting from
 *              memory.current, between 100 MiB and 100 GiB (its
 *              --min-size, --max-size; -M sets the floor); if someone
 *              else moved memory.high, it starts again from
 *              memory.current
 *   -M MIB     senpai's floor (--min-size; default 100)
 *   -S FILE    senpai's state (each memcg's limit, PSI total, integral
 *              and grace ticks): read at the start when FILE exists,
 *              written at the end, so that a senpai run in phases goes on
 *              where the last phase left it, as one senpai.py process
 *              would, instead of starting from memory.current each time
 *   -x PCT     reclaim's pressure target (default 0.1)
 *   -s PCT     reclaim's first step (default 0.5)
 * Memcgs whose names differ only by a trailing "-NUMBER" are reported as
 * one group ("svc-001", "svc-002" -> "svc", with n=).
 * Node 0 only: the lab's agent guest has one node. On a NUMA machine the
 * other nodes' lruvecs are neither aged nor counted; a scheduler there
 * would run a round per node.
 *
 * Per round, one line per memcg group and one for the round (memcg=ALL):
 *   AGENT caps=0x0007 pair=P round=R settle=0 memcg=kv n=1 aged=1 full=0
 *         ms=.. cpu_ms=.. visited=.. young=.. found=.. added=..
 *         mapped_kib=.. evict_cpu_ms=.. reclaimed_kib=..
 * ms and cpu_ms are the elapsed and this thread's CPU time of the aging
 * commands alone (the kernel's walks run in the writer's context);
 * visited/young/found/added the walks' counters (lru_gen_full: leaf
 * entries visited and young, PTE tables found in and added to the Bloom
 * filter); mapped_kib anon + file_mapped of memory.stat after the round;
 * evict_cpu_ms the CPU time of the evictions, reclaimed_kib what memory.stat
 * pgsteal says they took; full counts memcgs left without room. In watch,
 * reclaim and senpai modes nothing is aged here: walks counts the
 * generations the kernel made since the end of the last round (in the
 * first round, during it), reclaimed_kib what it took in that time, and
 * visited..added those of its walks:
 * all of them without CONFIG_LRU_GEN_STATS (lru_gen_full's counters are
 * sums then), the last one of each memcg with it (the counters are kept
 * per generation, and only the newest one's is read: uncounted= says how
 * many walks that left out); cpu_ms is then the CPU
 * time of the memory.reclaim writes (eviction and the aging it needs). The
 * round
 * line adds round_cpu_ms and round_ms, everything the round did (reading
 * lru_gen_full twice and memory.stat included).
 * Where the PMU counts retired instructions (QEMU under precise icount;
 * hardware), every line adds inst (this thread's instructions in the
 * aging commands or memory.reclaim writes, kernel included) and all_inst
 * (every CPU's over the same commands: whatever else ran meanwhile), and
 * the round line round_inst, round_all_inst and kswapd_inst (kswapd0's
 * instructions over the round: the walks that reclaim makes).
 * Per phase, one line per job counter of -j:
 *   AGENT-JOB caps=.. pair=P job=kv ops=.. secs=.. ops_per_s=..
 * over the measured rounds (from the start of the first measured round to
 * the end of the last interval), and one line for that span itself, in
 * microseconds of CLOCK_REALTIME, so that a load generator's own log
 * (pgbench's, whose timestamps are gettimeofday()'s) can be cut to it:
 *   AGENT-SPAN caps=.. pair=P start_us=.. end_us=..
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lru_gen_util.h"
#include "opts.h"

#define CG_ROOT "/sys/fs/cgroup"
#define SWAPPINESS 200
#define MAX_JOBS 32

struct memcg {
	char path[256]; /* in cgroupfs */
	char group[64]; /* the name without a trailing -NUMBER */
	unsigned int id;
	struct lru_gen_lruvec before, after;
	bool seen_before, seen_after, aged, full;
	double ms, cpu_ms, evict_cpu_ms;
	/* retired instructions of the aging command: this thread's, all CPUs' */
	unsigned long long inst, all_inst;
	unsigned long steal0, steal1, mapped_kib;
	/* reclaim mode: PSI "some" total (us) at the last round, the step */
	unsigned long long psi_us;
	unsigned int step_shift;
	/* senpai mode: its limit (memory.high), integral and grace ticks */
	unsigned long long limit, integral;
	int grace;
};

struct total {
	unsigned int n, aged, full, walks, uncounted;
	unsigned long long inst, all_inst;
	double ms, cpu_ms, evict_cpu_ms;
	unsigned long visited, young, found, added, mapped_kib, reclaimed_kib;
};

static struct memcg *cgs;
static unsigned int nr_cgs;
static char job_name[MAX_JOBS][64], job_path[MAX_JOBS][320];
static unsigned int nr_jobs;
static unsigned long page_kib;
static bool force_scan;
static enum { MODE_AGE, MODE_WATCH, MODE_RECLAIM, MODE_SENPAI } mode;
static double target_pct = 0.1, step_pct = 0.5, interval_ms;

/*
 * Retired instructions (the PMU's event 0x08 through perf): this thread,
 * kernel included (self), every online CPU (cpu[], all threads and
 * interrupts), and kswapd0. Under QEMU's precise icount they are exact
 * counts; without icount QEMU does not offer the event, the counters do
 * not open and the inst fields are left out.
 */
#define MAX_CPUS 64
static int pmu_self = -1, pmu_kswapd = -1, pmu_cpu[MAX_CPUS], nr_pmu_cpu;

static int pmu_open(pid_t pid, int cpu)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_hv = 1,
	};

	return syscall(SYS_perf_event_open, &a, pid, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

static unsigned long long pmu_read(int fd)
{
	unsigned long long v = 0;

	if (fd >= 0 && read(fd, &v, sizeof(v)) != sizeof(v))
		v = 0;
	return v;
}

static unsigned long long pmu_all(void)
{
	unsigned long long v = 0;

	for (int i = 0; i < nr_pmu_cpu; i++)
		v += pmu_read(pmu_cpu[i]);
	return v;
}

static pid_t find_kswapd(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t pid = -1;

	while (d && pid < 0 && (e = readdir(d))) {
		char path[300], comm[32] = "";
		FILE *f;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, "kswapd0\n"))
			pid = atoi(e->d_name);
		fclose(f);
	}
	if (d)
		closedir(d);
	return pid;
}

static void pmu_setup(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	pid_t k;

	pmu_self = pmu_open(0, -1);
	if (pmu_self < 0)
		return;
	for (int c = 0; c < n && c < MAX_CPUS; c++) {
		int fd = pmu_open(-1, c);

		if (fd >= 0)
			pmu_cpu[nr_pmu_cpu++] = fd;
	}
	k = find_kswapd();
	if (k > 0)
		pmu_kswapd = pmu_open(k, -1);
}

static void die(const char *what)
{
	printf("AGENT-ERROR %s\n", what);
	exit(1);
}

static double clock_ms(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double fmax_ms(double a, double b)
{
	return a > b ? a : b;
}

static void sleep_until_ms(double t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1e3),
			       .tv_nsec = (long)((t - (time_t)(t / 1e3) * 1e3) *
						 1e6) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

static void add_memcg(const char *path)
{
	char *name, *end;
	struct memcg *m;

	cgs = realloc(cgs, (nr_cgs + 1) * sizeof(*cgs));
	if (!cgs)
		die("out of memory");
	m = &cgs[nr_cgs++];
	memset(m, 0, sizeof(*m));
	snprintf(m->path, sizeof(m->path), "%s", path);
	name = strrchr(m->path, '/');
	snprintf(m->group, sizeof(m->group), "%.63s",
		 name ? name + 1 : m->path);
	end = m->group + strlen(m->group);
	while (end > m->group && isdigit((unsigned char)end[-1]))
		end--;
	if (end > m->group + 1 && end[-1] == '-' && *end)
		end[-1] = '\0';
	/* lru_gen names a memcg by its path below the cgroupfs root */
	if (strncmp(m->path, CG_ROOT "/", strlen(CG_ROOT) + 1) ||
	    lru_gen_memcg_id(m->path + strlen(CG_ROOT), &m->id)) {
		fprintf(stderr, "age-agent: %s: %s\n", m->path,
			lru_gen_error());
		die("a cgroup has no memcg listed in lru_gen");
	}
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct memcg *)a)->path,
		      ((const struct memcg *)b)->path);
}

static void add_children(const char *parent)
{
	DIR *d = opendir(parent);
	struct dirent *e;
	char path[512];
	struct stat st;

	if (!d)
		die("cannot open the parent cgroup");
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", parent, e->d_name);
		if (!stat(path, &st) && S_ISDIR(st.st_mode))
			add_memcg(path);
	}
	closedir(d);
	qsort(cgs, nr_cgs, sizeof(*cgs), cmp_path);
}

static void add_jobs(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		die("cannot open the job counter directory");
	while ((e = readdir(d)) && nr_jobs < MAX_JOBS) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(job_name[nr_jobs], sizeof(job_name[0]), "%.63s",
			 e->d_name);
		snprintf(job_path[nr_jobs], sizeof(job_path[0]), "%s/%s", dir,
			 e->d_name);
		nr_jobs++;
	}
	closedir(d);
}

static uint64_t job_ops(unsigned int j)
{
	uint64_t v = 0;
	int fd = open(job_path[j], O_RDONLY);

	if (fd >= 0) {
		if (pread(fd, &v, sizeof(v), 0) != sizeof(v))
			v = 0;
		close(fd);
	}
	return v;
}

/* memory.stat of @m: pgsteal, and anon + file_mapped in KiB */
static void read_stat(struct memcg *m, unsigned long *steal,
		      unsigned long *mapped_kib)
{
	char path[300], key[64];
	unsigned long long v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.stat", m->path);
	f = fopen(path, "r");
	*steal = 0;
	*mapped_kib = 0;
	if (!f)
		return;
	while (fscanf(f, "%63s %llu", key, &v) == 2) {
		if (!strcmp(key, "pgsteal"))
			*steal = v;
		else if (!strcmp(key, "anon") || !strcmp(key, "file_mapped"))
			*mapped_kib += v / 1024;
	}
	fclose(f);
}

static int take(const struct lru_gen_lruvec *v, void *arg)
{
	bool after = arg;

	if (v->node)
		return 0;
	for (unsigned int i = 0; i < nr_cgs; i++) {
		if (cgs[i].id != v->memcg)
			continue;
		if (after) {
			cgs[i].after = *v;
			cgs[i].seen_after = true;
		} else {
			cgs[i].before = *v;
			cgs[i].seen_before = true;
		}
	}
	return 0;
}

static void read_all(bool after)
{
	for (unsigned int i = 0; i < nr_cgs; i++) {
		if (after)
			cgs[i].seen_after = false;
		else
			cgs[i].seen_before = false;
	}
	if (lru_gen_read_each(take, after ? (void *)1 : NULL) < 0) {
		fprintf(stderr, "age-agent: %s\n", lru_gen_error());
		die("cannot read lru_gen_full");
	}
}

/* One memcg: make room if asked to, then age it from its max_seq. */
static void age_one(struct memcg *m, bool evict)
{
	struct lru_gen_lruvec *v = &m->before;
	double c0;

	m->aged = m->full = false;
	m->ms = m->cpu_ms = m->evict_cpu_ms = 0;
	m->inst = m->all_inst = 0;
	if (!m->seen_before)
		return;
	if (v->min_seq + LRU_GEN_NR_GENS - 1 <= v->max_seq) {
		if (!evict) {
			m->full = true;
			return;
		}
		c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
		/* all of the oldest generation: up to min_seq, any amount */
		if (lru_gen_evict(m->id, 0, v->min_seq, SWAPPINESS, ~0UL >> 2))
			fprintf(stderr, "age-agent: %s: %s\n", m->group,
				lru_gen_error());
		m->evict_cpu_ms = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
	}
	{
		double t0 = clock_ms(CLOCK_MONOTONIC);
		unsigned long long i0 = pmu_read(pmu_self), a0 = pmu_all();

		c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
		if (lru_gen_age(m->id, 0, v->max_seq, SWAPPINESS, force_scan)) {
			/* -ERANGE: the eviction could not make room */
			m->full = true;
			return;
		}
		m->cpu_ms = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
		m->ms = clock_ms(CLOCK_MONOTONIC) - t0;
		m->inst = pmu_read(pmu_self) - i0;
		m->all_inst = pmu_all() - a0;
	}
	m->aged = true;
}

/* A number following KEY in the file at @m's PATH/NAME, or @dflt */
static unsigned long long cg_value(const struct memcg *m, const char *name,
				   const char *key, unsigned long long dflt)
{
	char path[300], buf[512], *p;
	unsigned long long v = dflt;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", m->path, name);
	f = fopen(path, "r");
	if (!f)
		return dflt;
	while (fgets(buf, sizeof(buf), f)) {
		p = key ? strstr(buf, key) : buf;
		if (p) {
			v = strtoull(p + (key ? strlen(key) : 0), NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/* reclaim mode: one memcg, as a pressure-driven reclaimer would */
static void reclaim_one(struct memcg *m)
{
	unsigned long long psi = cg_value(m, "memory.pressure", "total=", 0);
	unsigned long long cur = cg_value(m, "memory.current", NULL, 0);
	unsigned long long stall = psi - m->psi_us, bytes;
	char path[300], arg[32];
	double c0, t0;
	int fd, len;

	m->aged = m->full = false;
	m->ms = m->cpu_ms = m->evict_cpu_ms = 0;
	m->inst = m->all_inst = 0;
	m->psi_us = psi;
	if (stall * 1e-3 >= interval_ms * target_pct / 100) {
		m->step_shift = 0;
		return;
	}
	bytes = (unsigned long long)(cur * step_pct / 100) << m->step_shift;
	if (m->step_shift < 3)
		m->step_shift++;
	if (bytes < 4096)
		return;
	snprintf(path, sizeof(path), "%s/memory.reclaim", m->path);
	len = snprintf(arg, sizeof(arg), "%llu", bytes);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		die("cannot open memory.reclaim");
	t0 = clock_ms(CLOCK_MONOTONIC);
	c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
	m->inst = pmu_read(pmu_self);
	m->all_inst = pmu_all();
	/* -EAGAIN: it reclaimed less than asked, which is an answer too */
	if (write(fd, arg, len) < 0 && errno != EAGAIN)
		fprintf(stderr, "age-agent: %s: memory.reclaim: %s\n", m->group,
			strerror(errno));
	m->cpu_ms = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
	m->ms = clock_ms(CLOCK_MONOTONIC) - t0;
	m->inst = pmu_read(pmu_self) - m->inst;
	m->all_inst = pmu_all() - m->all_inst;
	close(fd);
}

/*
 * senpai.py's defaults: --interval 6 (ticks of 1 s), --pressure 10000
 * (us of stall per interval), --max-probe 0.01, --max-backoff 1.0,
 * --coeff-probe 10, --coeff-backoff 20, --min-size 100 MiB.
 */
#define SENPAI_TICKS 6
#define SENPAI_PRESSURE_US 10000.0
#define SENPAI_MAX_PROBE 0.01
#define SENPAI_MAX_BACKOFF 1.0
#define SENPAI_COEFF_PROBE 10.0
#define SENPAI_COEFF_BACKOFF 20.0
static unsigned long long senpai_min_bytes = 100ULL << 20;
#define SENPAI_MAX_BYTES (100ULL << 30)

/* senpai mode: one tick of one memcg; the write of memory.high reclaims
 * down to it in this thread, which is the cost counted */
static void senpai_one(struct memcg *m)
{
	unsigned long long psi = cg_value(m, "memory.pressure", "total=", 0);
	unsigned long long high = cg_value(m, "memory.high", NULL, ~0ULL);
	double adj, err;
	char path[300], arg[32];
	int fd, len;

	m->aged = m->full = false;
	m->ms = m->cpu_ms = m->evict_cpu_ms = 0;
	m->inst = m->all_inst = 0;
	if (!m->limit) {
		/* senpai's start: memory.high to memory.current, the integral
		 * from here, a whole interval before the first probe */
		m->psi_us = psi;
		m->grace = SENPAI_TICKS;
		adj = 0;
	} else {
		/* a failed read (0) or a reset counter adds nothing */
		if (psi > m->psi_us)
			m->integral += psi - m->psi_us;
		m->psi_us = psi;
		if (m->integral > SENPAI_PRESSURE_US) {
			err = m->integral / SENPAI_PRESSURE_US;
			adj = (err / SENPAI_COEFF_BACKOFF) *
			      (err / SENPAI_COEFF_BACKOFF) * SENPAI_MAX_BACKOFF;
			if (adj > SENPAI_MAX_BACKOFF)
				adj = SENPAI_MAX_BACKOFF;
		} else if (m->grace) {
			m->grace--;
			return;
		} else {
			err = SENPAI_PRESSURE_US /
			      (m->integral > 1 ? (double)m->integral : 1.0);
			adj = (err / SENPAI_COEFF_PROBE) *
			      (err / SENPAI_COEFF_PROBE) * SENPAI_MAX_PROBE;
			adj = -(adj > SENPAI_MAX_PROBE ? SENPAI_MAX_PROBE :
							 adj);
		}
		m->grace = SENPAI_TICKS - 1;
	}
	m->integral = 0;
	/* the first tick, or someone else moved memory.high ("max" reads
	 * as 0): from memory.current, without the adjustment, as
	 * senpai.py's import_limit() does */
	if (!m->limit || high != m->limit)
		m->limit = cg_value(m, "memory.current", NULL, 0);
	else
		m->limit += (long long)(m->limit * adj);
	if (m->limit < senpai_min_bytes)
		m->limit = senpai_min_bytes;
	if (m->limit > SENPAI_MAX_BYTES)
		m->limit = SENPAI_MAX_BYTES;
	m->limit &= ~4095ULL;
	snprintf(path, sizeof(path), "%s/memory.high", m->path);
	len = snprintf(arg, sizeof(arg), "%llu", m->limit);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		die("cannot open memory.high");
	{
		double t0 = clock_ms(CLOCK_MONOTONIC),
		       c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
		unsigned long long i0 = pmu_read(pmu_self), a0 = pmu_all();

		if (write(fd, arg, len) < 0)
			fprintf(stderr, "age-agent: %s: memory.high: %s\n",
				m->group, strerror(errno));
		m->cpu_ms = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
		m->ms = clock_ms(CLOCK_MONOTONIC) - t0;
		m->inst = pmu_read(pmu_self) - i0;
		m->all_inst = pmu_all() - a0;
	}
	close(fd);
}

static void add_to(struct total *t, const struct memcg *m)
{
	struct lru_gen_counts c = { 0 };

	t->n++;
	t->full += m->full;
	t->ms += m->ms;
	t->cpu_ms += m->cpu_ms;
	t->inst += m->inst;
	t->all_inst += m->all_inst;
	t->evict_cpu_ms += m->evict_cpu_ms;
	t->mapped_kib += m->mapped_kib;
	t->reclaimed_kib += (m->steal1 - m->steal0) * page_kib;
	if (mode != MODE_AGE && m->seen_before && m->seen_after &&
	    m->after.max_seq > m->before.max_seq) {
		/* the kernel's walks: count the last one */
		unsigned long w = m->after.max_seq - m->before.max_seq;
		struct lru_gen_lruvec prev = m->before;

		t->walks += w;
		/* without CONFIG_LRU_GEN_STATS the counters are sums: all count */
		if (m->after.counters == LRU_GEN_LAST_WALK)
			t->uncounted += w - 1;
		prev.max_seq = m->after.max_seq - 1;
		if (lru_gen_walk_counts(&prev, &m->after, &c))
			return;
		t->visited += c.total;
		t->young += c.young;
		t->found += c.found;
		t->added += c.added;
		return;
	}
	if (!m->aged || !m->seen_after)
		return;
	t->walks++;
	if (lru_gen_walk_counts(&m->before, &m->after, &c)) {
		fprintf(stderr, "age-agent: %s: %s\n", m->group,
			lru_gen_error());
		return;
	}
	t->aged++;
	t->visited += c.total;
	t->young += c.young;
	t->found += c.found;
	t->added += c.added;
}

static void print_total(const char *head, const char *group,
			const struct total *t)
{
	printf("%s memcg=%s n=%u aged=%u full=%u ms=%.3f cpu_ms=%.3f visited=%lu young=%lu found=%lu added=%lu mapped_kib=%lu evict_cpu_ms=%.3f reclaimed_kib=%lu walks=%u uncounted=%u",
	       head, group, t->n, t->aged, t->full, t->ms, t->cpu_ms,
	       t->visited, t->young, t->found, t->added, t->mapped_kib,
	       t->evict_cpu_ms, t->reclaimed_kib, t->walks, t->uncounted);
	if (pmu_self >= 0)
		printf(" inst=%llu all_inst=%llu", t->inst, t->all_inst);
}

static void round_once(const char *head, bool evict)
{
	static bool last_round;
	double c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID),
	       t0 = clock_ms(CLOCK_MONOTONIC);
	unsigned long long k0 = pmu_read(pmu_kswapd), r0 = pmu_read(pmu_self),
			   ra0 = pmu_all();
	struct total all = { 0 };
	/*
	 * Where the kernel does the aging (watch, reclaim, senpai), a round
	 * counts from where the last one ended: this agent's own commands
	 * take a millisecond of the interval, and the generations and the
	 * reclaim the kernel made in the rest of it belong to the round too.
	 */
	bool carry = mode != MODE_AGE && last_round;

	if (!carry)
		read_all(false);
	for (unsigned int i = 0; i < nr_cgs; i++) {
		unsigned long mapped;

		if (carry) {
			cgs[i].before = cgs[i].after;
			cgs[i].seen_before = cgs[i].seen_after;
			cgs[i].steal0 = cgs[i].steal1;
		} else {
			read_stat(&cgs[i], &cgs[i].steal0, &mapped);
		}
		if (mode == MODE_AGE)
			age_one(&cgs[i], evict);
		else if (mode == MODE_RECLAIM)
			reclaim_one(&cgs[i]);
		else if (mode == MODE_SENPAI)
			senpai_one(&cgs[i]);
	}
	read_all(true);
	for (unsigned int i = 0; i < nr_cgs; i++)
		read_stat(&cgs[i], &cgs[i].steal1, &cgs[i].mapped_kib);
	last_round = true;
	/* one line per group, in the order of first appearance */
	for (unsigned int i = 0; i < nr_cgs; i++) {
		struct total t = { 0 };
		unsigned int j;

		for (j = 0; j < i && strcmp(cgs[j].group, cgs[i].group); j++)
			;
		if (j < i)
			continue;
		/* each memcg is in one group: ALL is the sum of the groups */
		for (j = i; j < nr_cgs; j++) {
			if (strcmp(cgs[j].group, cgs[i].group))
				continue;
			add_to(&t, &cgs[j]);
			add_to(&all, &cgs[j]);
		}
		print_total(head, cgs[i].group, &t);
		printf("\n");
	}
	print_total(head, "ALL", &all);
	printf(" round_ms=%.3f round_cpu_ms=%.3f",
	       clock_ms(CLOCK_MONOTONIC) - t0,
	       clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0);
	if (pmu_self >= 0)
		printf(" round_inst=%llu round_all_inst=%llu",
		       pmu_read(pmu_self) - r0, pmu_all() - ra0);
	if (pmu_kswapd >= 0)
		printf(" kswapd_inst=%llu", pmu_read(pmu_kswapd) - k0);
	printf("\n");
	fflush(stdout);
}

/* senpai mode: the state a previous phase left (-S); a memcg it does not
 * name starts anew */
static void senpai_load(const char *file)
{
	char path[256];
	unsigned long long limit, psi, integral;
	int grace;
	FILE *f = fopen(file, "r");

	if (!f)
		return;
	while (fscanf(f, "%255s %llu %llu %llu %d", path, &limit, &psi,
		      &integral, &grace) == 5) {
		for (unsigned int i = 0; i < nr_cgs; i++) {
			if (strcmp(cgs[i].path, path))
				continue;
			cgs[i].limit = limit;
			cgs[i].psi_us = psi;
			cgs[i].integral = integral;
			cgs[i].grace = grace;
		}
	}
	fclose(f);
}

static void senpai_save(const char *file)
{
	FILE *f = fopen(file, "w");

	if (!f)
		die("cannot write senpai's state file");
	for (unsigned int i = 0; i < nr_cgs; i++)
		fprintf(f, "%s %llu %llu %llu %d\n", cgs[i].path, cgs[i].limit,
			cgs[i].psi_us, cgs[i].integral, cgs[i].grace);
	if (fclose(f))
		die("cannot write senpai's state file");
}

static const char usage[] =
	"usage: age-agent [-c CAPS] [-p PAIR] [-r ROUNDS] [-w SETTLE] [-i MS] [-e] [-f]\n"
	"                 [-m age|watch|reclaim|senpai] [-x PCT] [-s PCT] [-M MIB] [-S FILE]\n"
	"                 [-j DIR] CGROUP... | -P PARENT\n";

int main(int argc, char **argv)
{
	int rounds = 3, settle = 1, pair = 0;
	unsigned long caps_arg = 0;
	unsigned int caps;
	const char *parent = NULL, *jobs = NULL, *mode_arg = "age";
	const char *state = NULL;
	int min_mib = 100;
	double interval = 1000, next, t_jobs = 0, span0 = 0;
	uint64_t ops0[MAX_JOBS];
	bool evict = false;
	long ps = sysconf(_SC_PAGESIZE);
	const struct opt opts[] = {
		{ 'c', OPT_ULONG, &caps_arg },
		{ 'p', OPT_INT, &pair },
		{ 'r', OPT_INT, &rounds },
		{ 'w', OPT_INT, &settle },
		{ 'i', OPT_DOUBLE, &interval },
		{ 'e', OPT_FLAG, &evict },
		{ 'j', OPT_STR, &jobs },
		{ 'P', OPT_STR, &parent },
		{ 'f', OPT_FLAG, &force_scan },
		{ 'm', OPT_STR, &mode_arg },
		{ 'x', OPT_DOUBLE, &target_pct },
		{ 's', OPT_DOUBLE, &step_pct },
		{ 'M', OPT_INT, &min_mib },
		{ 'S', OPT_STR, &state },
	};

	page_kib = ps > 0 ? (unsigned long)ps / 1024 : 4;
	if (parse_opts(argc, argv, opts, sizeof(opts) / sizeof(opts[0]))) {
		fputs(usage, stderr);
		return 2;
	}
	if (!strcmp(mode_arg, "watch"))
		mode = MODE_WATCH;
	else if (!strcmp(mode_arg, "reclaim"))
		mode = MODE_RECLAIM;
	else if (!strcmp(mode_arg, "senpai"))
		mode = MODE_SENPAI;
	else if (strcmp(mode_arg, "age"))
		rounds = 0;
	interval_ms = interval;
	senpai_min_bytes = (unsigned long long)min_mib << 20;
	if (rounds < 1 || settle < 0 || interval <= 0 || target_pct <= 0 ||
	    step_pct <= 0 || min_mib < 1 || (!parent && optind >= argc)) {
		fputs(usage, stderr);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	caps = caps_arg;
	if (caps && lru_gen_set_caps(caps) != caps)
		die("lru_gen/enabled does not take the setting");
	caps = lru_gen_caps();
	if (parent)
		add_children(parent);
	for (int a = optind; a < argc; a++)
		add_memcg(argv[a]);
	if (!nr_cgs)
		die("no memcgs to age");
	if (jobs)
		add_jobs(jobs);
	if (state && mode == MODE_SENPAI)
		senpai_load(state);
	pmu_setup();
	/* a round that overruns its interval delays the next ones */
	next = clock_ms(CLOCK_MONOTONIC);
	for (int r = 1 - settle; r <= rounds; r++) {
		char head[96];

		sleep_until_ms(next);
		if (r == 1) {
			span0 = clock_ms(CLOCK_REALTIME);
			t_jobs = clock_ms(CLOCK_MONOTONIC);
			for (unsigned int j = 0; j < nr_jobs; j++)
				ops0[j] = job_ops(j);
		}
		snprintf(head, sizeof(head),
			 "AGENT caps=0x%04x pair=%d round=%d settle=%d", caps,
			 pair, r, r < 1);
		round_once(head, evict);
		next = fmax_ms(next + interval, clock_ms(CLOCK_MONOTONIC));
	}
	sleep_until_ms(next);
	if (state && mode == MODE_SENPAI)
		senpai_save(state);
	for (unsigned int j = 0; j < nr_jobs; j++)
		ops0[j] = job_ops(j) - ops0[j];
	t_jobs = (clock_ms(CLOCK_MONOTONIC) - t_jobs) / 1e3;
	printf("AGENT-SPAN caps=0x%04x pair=%d start_us=%.0f end_us=%.0f\n",
	       caps, pair, span0 * 1e3, clock_ms(CLOCK_REALTIME) * 1e3);
	for (unsigned int j = 0; j < nr_jobs; j++) {
		uint64_t ops = ops0[j];
		double secs = t_jobs;

		printf("AGENT-JOB caps=0x%04x pair=%d job=%s ops=%llu secs=%.3f ops_per_s=%.1f\n",
		       caps, pair, job_name[j], (unsigned long long)ops, secs,
		       ops / secs);
	}
	return 0;
}
