// SPDX-License-Identifier: GPL-2.0
/*
 * lru-gen: what the guest's shell suites need from debugfs lru_gen and
 * lru_gen_full, through the kselftest's helper
 * (guest/lib/lru_gen_util.c), so that no suite parses
 * those files itself.
 *
 * Usage: lru-gen COMMAND ARGS...
 *   id CGROUP          the memcg ID of CGROUP: its path in cgroupfs ("/",
 *                      "/a/b") or under /sys/fs/cgroup
 *   seqs ID NODE       "MIN_SEQ MAX_SEQ" of that lruvec (MIN_SEQ of anon)
 *   lruvecs            "ID NODE MIN_SEQ MAX_SEQ" for every lruvec listed
 *   memcgs             how many memcgs lru_gen lists
 *   counters ID NODE   "KIND TOTAL YOUNG FOUND ADDED", the page table walk
 *                      counters: KIND "last" (CONFIG_LRU_GEN_STATS: the
 *                      walk that made max_seq), "sums" (without: all
 *                      walks) or "none"
 *   age ID NODE SEQ SWAPPINESS FORCE_SCAN
 *                      age from SEQ and print "TOTAL YOUNG FOUND ADDED" of
 *                      that walk (leaf entries visited, young, PTE tables
 *                      found in and added to the Bloom filter)
 *   evict ID NODE SEQ SWAPPINESS NR_TO_RECLAIM
 *                      evict up to generation SEQ
 * Errors go to stderr, with exit status 1; 2 for a usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lru_gen_util.h"

#define CGROUP_ROOT	"/sys/fs/cgroup"

static const char usage[] =
	"usage: lru-gen id CGROUP | seqs ID NODE | lruvecs | memcgs | counters ID NODE |\n"
	"       age ID NODE SEQ SWAPPINESS FORCE_SCAN | evict ID NODE SEQ SWAPPINESS NR\n";

/* Argument @i as a number, or exit with the usage. */
static unsigned long arg(char **argv, int argc, int i)
{
	char *end;
	unsigned long v;

	if (i >= argc)
		goto bad;
	v = strtoul(argv[i], &end, 0);
	if (end != argv[i] && !*end)
		return v;
bad:
	fputs(usage, stderr);
	exit(2);
}

static int failed(void)
{
	fprintf(stderr, "lru-gen: %s\n", lru_gen_error());
	return 1;
}

static int print_lruvec(const struct lru_gen_lruvec *v, void *arg)
{
	(void)arg;
	printf("%u %d %lu %lu\n", v->memcg, v->node, v->min_seq, v->max_seq);
	return 0;
}

static int count_memcg(const struct lru_gen_lruvec *v, void *arg)
{
	unsigned long *n = arg;

	/* Each memcg's lruvecs are listed together, nodes in order. */
	if (!n[0] || v->memcg != n[1])
		n[0]++;
	n[1] = v->memcg;
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	struct lru_gen_lruvec v, before;
	struct lru_gen_counts c;
	unsigned int id;
	int node;

	if (!strcmp(cmd, "id") && argc == 3) {
		const char *path = argv[2];

		if (!strncmp(path, CGROUP_ROOT "/", strlen(CGROUP_ROOT) + 1))
			path += strlen(CGROUP_ROOT);
		else if (!strcmp(path, CGROUP_ROOT))
			path = "/";
		if (lru_gen_memcg_id(path, &id))
			return failed();
		printf("%u\n", id);
		return 0;
	}
	if (!strcmp(cmd, "lruvecs") && argc == 2)
		return lru_gen_for_each(print_lruvec, NULL) < 0 ? failed() : 0;
	if (!strcmp(cmd, "memcgs") && argc == 2) {
		unsigned long n[2] = { 0, 0 };

		if (lru_gen_for_each(count_memcg, n) < 0)
			return failed();
		printf("%lu\n", n[0]);
		return 0;
	}
	id = arg(argv, argc, 2);
	node = arg(argv, argc, 3);
	if (!strcmp(cmd, "seqs") && argc == 4) {
		if (lru_gen_read(id, node, &v))
			return failed();
		printf("%lu %lu\n", v.min_seq, v.max_seq);
		return 0;
	}
	if (!strcmp(cmd, "counters") && argc == 4) {
		static const char * const kind[] = {
			[LRU_GEN_NO_COUNTERS] = "none",
			[LRU_GEN_LAST_WALK] = "last",
			[LRU_GEN_ALL_WALKS] = "sums",
		};

		if (lru_gen_read(id, node, &v))
			return failed();
		printf("%s %lu %lu %lu %lu\n", kind[v.counters], v.walk.total,
		       v.walk.young, v.walk.found, v.walk.added);
		return 0;
	}
	if (!strcmp(cmd, "age") && argc == 7) {
		unsigned long seq = arg(argv, argc, 4);

		if (lru_gen_read(id, node, &before))
			return failed();
		/* The command names the max_seq it ages from. */
		before.max_seq = seq;
		if (lru_gen_age(id, node, seq, arg(argv, argc, 5), arg(argv, argc, 6)) ||
		    lru_gen_read(id, node, &v) || lru_gen_walk_counts(&before, &v, &c))
			return failed();
		printf("%lu %lu %lu %lu\n", c.total, c.young, c.found, c.added);
		return 0;
	}
	if (!strcmp(cmd, "evict") && argc == 7) {
		if (lru_gen_evict(id, node, arg(argv, argc, 4), arg(argv, argc, 5),
				  arg(argv, argc, 6)))
			return failed();
		return 0;
	}
	fputs(usage, stderr);
	return 2;
}
