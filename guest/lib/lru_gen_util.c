// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the multi-gen LRU's debugfs files and driving its aging walks:
 * see lru_gen_util.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "lru_gen_util.h"

#define LINE_MIN	8192

static char error[512];
static struct lru_gen_lines reader = { .fd = -1 };

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(error, sizeof(error), fmt, ap);
	va_end(ap);
}

const char *lru_gen_error(void)
{
	return error;
}

static int grow(struct lru_gen_lines *l, size_t size)
{
	char *buf;

	if (size <= l->size)
		return 0;
	buf = realloc(l->buf, size);
	if (!buf)
		return -1;
	l->buf = buf;
	l->size = size;
	return 0;
}

int lru_gen_reserve(size_t size)
{
	if (grow(&reader, size)) {
		fail("cannot allocate %zu bytes: %s", size, strerror(errno));
		return -1;
	}
	memset(reader.buf, 0, reader.size);
	return 0;
}

int lru_gen_lines_open(struct lru_gen_lines *l, const char *path)
{
	l->start = 0;
	l->end = 0;
	if (grow(l, LINE_MIN)) {
		l->fd = -1;
		l->err = ENOMEM;
		return -1;
	}
	l->fd = open(path, O_RDONLY);
	l->err = l->fd < 0 ? errno : 0;
	return l->fd < 0 ? -1 : 0;
}

char *lru_gen_next_line(struct lru_gen_lines *l)
{
	char *line, *nl;
	ssize_t n;

	for (;;) {
		line = l->buf + l->start;
		nl = memchr(line, '\n', l->end - l->start);
		if (nl) {
			*nl = '\0';
			l->start = nl + 1 - l->buf;
			return line;
		}
		memmove(l->buf, line, l->end - l->start);
		l->end -= l->start;
		l->start = 0;
		/* A line longer than the buffer: twice the room. */
		if (l->end == l->size - 1 && grow(l, 2 * l->size)) {
			l->err = ENOMEM;
			return NULL;
		}
		n = read(l->fd, l->buf + l->end, l->size - 1 - l->end);
		if (n < 0) {
			l->err = errno;
			return NULL;
		}
		if (!n)
			break;
		l->end += n;
	}
	if (!l->end)
		return NULL;
	/* The last line has no newline. */
	l->buf[l->end] = '\0';
	l->end = 0;
	return l->buf;
}

int lru_gen_lines_close(struct lru_gen_lines *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	return l->err;
}

void lru_gen_lines_free(struct lru_gen_lines *l)
{
	lru_gen_lines_close(l);
	free(l->buf);
	l->buf = NULL;
	l->size = 0;
}

int lru_gen_read_str(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return n < 0 ? -1 : 0;
}

int lru_gen_write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

unsigned int lru_gen_caps(void)
{
	char buf[32];

	if (lru_gen_read_str(LRU_GEN_ENABLED, buf, sizeof(buf)))
		return 0;
	return strtoul(buf, NULL, 0);
}

unsigned int lru_gen_set_caps(unsigned int caps)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "0x%04x", caps);
	if (lru_gen_write_str(LRU_GEN_ENABLED, buf))
		return 0;
	return lru_gen_caps();
}

/* "memcg ID PATH": the ID, and the path (the rest of the line) in @path. */
static bool memcg_line(char *line, unsigned int *id, char **path)
{
	char *end;

	if (strncmp(line, "memcg ", 6))
		return false;
	*id = strtoul(line + 6, &end, 10);
	if (end == line + 6)
		return false;
	if (*end == ' ')
		end++;
	*path = end;
	return true;
}

int lru_gen_memcg_id(const char *path, unsigned int *id)
{
	bool found = false;
	char *line, *name;

	if (lru_gen_lines_open(&reader, LRU_GEN_DEBUGFS)) {
		fail("cannot open %s: %s", LRU_GEN_DEBUGFS, strerror(reader.err));
		return -1;
	}
	while (!found && (line = lru_gen_next_line(&reader)))
		found = memcg_line(line, id, &name) && !strcmp(name, path);
	if (lru_gen_lines_close(&reader)) {
		fail("reading %s: %s", LRU_GEN_DEBUGFS, strerror(reader.err));
		return -1;
	}
	if (!found) {
		fail("%s does not list %s", LRU_GEN_DEBUGFS, path);
		return -1;
	}
	return 0;
}

/* A number, and the letter (or blank) printed right after it. */
static char *number(char *p, unsigned long *val, char *mark)
{
	char *end;

	while (*p == ' ')
		p++;
	*val = strtoul(p, &end, 10);
	if (end == p)
		return NULL;
	*mark = *end;
	return *end ? end + 1 : end;
}

/* The generations of one lruvec as they are listed, oldest first */
struct listing {
	unsigned int memcg;
	int node;
	int nr;
	struct {
		unsigned long seq, anon, file;
		bool anon_gone;
		enum lru_gen_counters counters;
		struct lru_gen_counts walk;
	} e[LRU_GEN_NR_GENS];
};

static void take_line(struct listing *s, char *line)
{
	unsigned long v[7];
	char m[7], *p = line;
	int n;

	for (n = 0; n < 7 && *p; n++) {
		p = number(p, &v[n], &m[n]);
		if (!p)
			break;
	}
	if (n != 4)
		return;
	if (m[0] == ' ' && m[1] == ' ' && s->nr < LRU_GEN_NR_GENS) {
		s->e[s->nr].seq = v[0];
		s->e[s->nr].anon = v[2];
		s->e[s->nr].file = v[3];
		s->e[s->nr].anon_gone = m[2] == 'x';
		s->e[s->nr].counters = LRU_GEN_NO_COUNTERS;
		s->nr++;
	} else if (s->nr && (!memcmp(m, "tyfa", 4) || !memcmp(m, "TYFA", 4))) {
		struct lru_gen_counts *w = &s->e[s->nr - 1].walk;

		w->total = v[0];
		w->young = v[1];
		w->found = v[2];
		w->added = v[3];
		s->e[s->nr - 1].counters = m[0] == 't' ? LRU_GEN_LAST_WALK :
							 LRU_GEN_ALL_WALKS;
	}
}

static void to_lruvec(const struct listing *s, struct lru_gen_lruvec *v)
{
	memset(v, 0, sizeof(*v));
	v->memcg = s->memcg;
	v->node = s->node;
	v->max_seq = s->e[s->nr - 1].seq;
	v->min_seq = v->max_seq;
	for (int i = s->nr - 1; i >= 0; i--) {
		unsigned long age = v->max_seq - s->e[i].seq;

		if (!s->e[i].anon_gone)
			v->min_seq = s->e[i].seq;
		v->anon[age] = s->e[i].anon;
		v->file[age] = s->e[i].file;
		if ((age == 1 && s->e[i].counters == LRU_GEN_LAST_WALK) ||
		    (age == 0 && s->e[i].counters == LRU_GEN_ALL_WALKS)) {
			v->walk = s->e[i].walk;
			v->counters = s->e[i].counters;
		}
	}
}

/*
 * Call @fn for each lruvec of @path with generations listed, until it
 * returns non-zero; returns that, 0, or -1 on an error.
 */
static int parse(const char *path, int (*fn)(const struct lru_gen_lruvec *v, void *arg),
		 void *arg)
{
	struct lru_gen_lruvec v;
	struct listing s = { .node = -1 };
	char *line, *name;
	int ret = 0;

	if (lru_gen_lines_open(&reader, path)) {
		fail("cannot open %s: %s", path, strerror(reader.err));
		return -1;
	}
	while (!ret) {
		unsigned int id;
		bool memcg;

		line = lru_gen_next_line(&reader);
		memcg = line && memcg_line(line, &id, &name);
		if (!line || memcg || !strncmp(line, " node ", 6)) {
			/* The end of the lruvec before */
			if (s.nr) {
				to_lruvec(&s, &v);
				ret = fn(&v, arg);
			}
			s.nr = 0;
			if (!line)
				break;
			if (memcg)
				s.memcg = id;
			else
				s.node = atoi(line + 6);
			continue;
		}
		take_line(&s, line);
	}
	if (lru_gen_lines_close(&reader)) {
		fail("reading %s: %s", path, strerror(reader.err));
		return -1;
	}
	return ret;
}

int lru_gen_for_each(int (*fn)(const struct lru_gen_lruvec *v, void *arg), void *arg)
{
	return parse(LRU_GEN_DEBUGFS, fn, arg);
}

int lru_gen_read_each(int (*fn)(const struct lru_gen_lruvec *v, void *arg),
		      void *arg)
{
	return parse(LRU_GEN_DEBUGFS_FULL, fn, arg);
}

static int take_match(const struct lru_gen_lruvec *v, void *arg)
{
	struct lru_gen_lruvec *want = arg;

	if (v->memcg != want->memcg || v->node != want->node)
		return 0;
	*want = *v;
	return 1;
}

int lru_gen_read(unsigned int memcg, int node, struct lru_gen_lruvec *v)
{
	int ret;

	memset(v, 0, sizeof(*v));
	v->memcg = memcg;
	v->node = node;
	ret = parse(LRU_GEN_DEBUGFS_FULL, take_match, v);
	if (ret < 0)
		return -1;
	if (!ret) {
		fail("memcg %u has no generations on node %d in %s", memcg, node,
		     LRU_GEN_DEBUGFS_FULL);
		return -1;
	}
	return 0;
}

static int command(const char *cmd)
{
	if (lru_gen_write_str(LRU_GEN_DEBUGFS, cmd)) {
		fail("'%s' > %s failed: %s", cmd, LRU_GEN_DEBUGFS, strerror(errno));
		return -1;
	}
	return 0;
}

int lru_gen_age(unsigned int memcg, int node, unsigned long max_seq,
		int swappiness, bool force_scan)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "+ %u %d %lu %d %d", memcg, node, max_seq,
		 swappiness, force_scan);
	return command(cmd);
}

int lru_gen_evict(unsigned int memcg, int node, unsigned long seq,
		  int swappiness, unsigned long nr_to_reclaim)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "- %u %d %lu %d %lu", memcg, node, seq,
		 swappiness, nr_to_reclaim);
	return command(cmd);
}

int lru_gen_make_room(const struct lru_gen_target *t, struct lru_gen_lruvec *v)
{
	unsigned long seq, last;

	if (v->min_seq + LRU_GEN_NR_GENS - 1 > v->max_seq)
		return 0;
	last = v->max_seq - (LRU_GEN_NR_GENS - 1);
	for (seq = v->min_seq; seq <= last; seq++) {
		unsigned long n = v->anon[v->max_seq - seq] + v->file[v->max_seq - seq];

		if (n > t->slack) {
			fail("generation %lu holds %lu pages: aging on would evict them",
			     seq, n);
			return 1;
		}
	}
	if (lru_gen_evict(t->memcg, t->node, last, t->swappiness, t->nr_to_reclaim) ||
	    lru_gen_read(t->memcg, t->node, v))
		return -1;
	if (v->min_seq + LRU_GEN_NR_GENS - 1 <= v->max_seq) {
		fail("eviction left min_seq %lu with max_seq %lu", v->min_seq,
		     v->max_seq);
		return 1;
	}
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int lru_gen_walk_counts(const struct lru_gen_lruvec *before,
			const struct lru_gen_lruvec *after, struct lru_gen_counts *c)
{
	if (after->max_seq != before->max_seq + 1) {
		fail("aging from %lu left max_seq at %lu", before->max_seq,
		     after->max_seq);
		return -1;
	}
	*c = after->walk;
	switch (after->counters) {
	case LRU_GEN_NO_COUNTERS:
		fail("%s has no page table walk counters for memcg %u",
		     LRU_GEN_DEBUGFS_FULL, after->memcg);
		return -1;
	case LRU_GEN_ALL_WALKS:
		c->total -= before->walk.total;
		c->young -= before->walk.young;
		c->found -= before->walk.found;
		c->added -= before->walk.added;
		break;
	case LRU_GEN_LAST_WALK:
		break;
	}
	return 0;
}

/* How many 1 ms sleeps switched_out_and_back() tries before it gives up. */
#define MAX_SLEEPS	1000

static long context_switches(void)
{
	struct rusage r;

	if (getrusage(RUSAGE_THREAD, &r))
		return -1;
	return r.ru_nvcsw + r.ru_nivcsw;
}

/*
 * Without force_scan, a walk skips an mm that nothing has switched to since
 * the last walk: the kernel marks an mm as used when it switches a task to it
 * (lru_gen_use_mm() in context_switch()), and the walk clears the mark. The
 * aging command runs in the caller's context, so the caller must have been
 * switched out and back in after it last touched its memory, or its walk
 * visits nothing. A sleep usually does that, but not always: if its timer has
 * expired by the time the task would block (a virtual CPU held up by a busy
 * host, say), nanosleep() returns without a switch. So sleep until this
 * thread's context switch counters say a switch happened, and count the
 * sleeps.
 */
static int switched_out_and_back(unsigned int *sleeps)
{
	long before = context_switches(), after = 0;

	for (*sleeps = 1; before >= 0 && *sleeps <= MAX_SLEEPS; (*sleeps)++) {
		usleep(1000);
		after = context_switches();
		if (after < 0)
			break;
		if (after != before)
			return 0;
	}
	if (before < 0 || after < 0)
		fail("getrusage(RUSAGE_THREAD): %s", strerror(errno));
	else
		fail("the kernel did not switch the test out in %d sleeps of 1 ms",
		     MAX_SLEEPS);
	return -1;
}

int lru_gen_walk(const struct lru_gen_target *t, bool force_scan,
		 struct lru_gen_lruvec *v, struct lru_gen_walk *w)
{
	struct lru_gen_lruvec before;
	double t0;
	int ret;

	memset(w, 0, sizeof(*w));
	if (lru_gen_read(t->memcg, t->node, v))
		return -1;
	if (!force_scan) {
		ret = lru_gen_make_room(t, v);
		if (ret)
			return ret;
		w->early = v->anon[0];
	}
	w->seq = v->max_seq;
	before = *v;
	if (switched_out_and_back(&w->sleeps))
		return -1;
	t0 = now_ms();
	if (lru_gen_age(t->memcg, t->node, w->seq, t->swappiness, force_scan))
		return -1;
	w->ms = now_ms() - t0;
	if (lru_gen_read(t->memcg, t->node, v))
		return -1;
	return lru_gen_walk_counts(&before, v, &w->counts);
}

int lru_gen_drop_translations(void *p, size_t len)
{
	if (mprotect(p, len, PROT_NONE))
		return -1;
	return mprotect(p, len, PROT_READ | PROT_WRITE);
}
