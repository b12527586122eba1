/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the multi-gen LRU's debugfs files and driving its aging walks.
 *
 * /sys/kernel/debug/lru_gen lists, for each memcg ("memcg ID PATH", printed
 * before its first node) and each node (" node NID"), one line per
 * generation: "seq age_ms anon_pages file_pages". lru_gen_full lists the
 * last four sequence numbers instead, marks with 'x' a count whose type has
 * already left that generation (seq below the type's min_seq), and adds
 * tier lines and a line of page table walk counters under each generation:
 * leaf entries visited, leaf entries young, PTE tables found in the Bloom
 * filter, PTE tables added to it. With CONFIG_LRU_GEN_STATS those counters
 * are kept per generation, marked "tyfa", and the line under seq holds the
 * walk that aged from seq. Without it there is one set for the lruvec that
 * is never reset: the sums over all walks, under max_seq, marked "TYFA". A
 * walk's own figures are then the difference of the reads before and after
 * it; lru_gen_walk() hides which of the two the kernel does.
 *
 * Writing "+ MEMCG NODE MAX_SEQ SWAPPINESS FORCE_SCAN" to lru_gen ages the
 * lruvec from MAX_SEQ (it fails unless MAX_SEQ is current), "- MEMCG NODE
 * SEQ SWAPPINESS NR_TO_RECLAIM" evicts up to generation SEQ.
 *
 * The files are read a line at a time through a buffer that grows when a
 * line does not fit (a memcg line holds a cgroup path), so any number of
 * memcgs and nodes works. A program that must not have its own pages
 * charged to a memcg it moves into calls lru_gen_reserve() first.
 *
 * Functions return 0 on success and -1 on failure, lru_gen_walk() and
 * lru_gen_make_room() also 1 when there is no room for a walk; after any
 * non-zero return lru_gen_error() says what went wrong.
 */
#ifndef __LRU_GEN_UTIL_H
#define __LRU_GEN_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#define LRU_GEN_ENABLED		"/sys/kernel/mm/lru_gen/enabled"
#define LRU_GEN_DEBUGFS		"/sys/kernel/debug/lru_gen"
#define LRU_GEN_DEBUGFS_FULL	"/sys/kernel/debug/lru_gen_full"

/* The most generations a lruvec has (MAX_NR_GENS) */
#define LRU_GEN_NR_GENS		4

/* The page table walk counters of lru_gen_full */
struct lru_gen_counts {
	unsigned long total;	/* leaf entries visited */
	unsigned long young;	/* leaf entries found young */
	unsigned long found;	/* PTE tables found in the Bloom filter */
	unsigned long added;	/* PTE tables added to the Bloom filter */
};

/* What the walk counters of a lruvec hold */
enum lru_gen_counters {
	LRU_GEN_NO_COUNTERS,	/* none listed (or lru_gen, not lru_gen_full) */
	LRU_GEN_LAST_WALK,	/* "tyfa": the walk that made max_seq */
	LRU_GEN_ALL_WALKS,	/* "TYFA": the sums over all walks */
};

/* One lruvec (a memcg on a node) as listed */
struct lru_gen_lruvec {
	unsigned int memcg;
	int node;
	unsigned long max_seq;
	unsigned long min_seq;			/* of anonymous memory */
	unsigned long anon[LRU_GEN_NR_GENS];	/* indexed by max_seq - seq */
	unsigned long file[LRU_GEN_NR_GENS];
	enum lru_gen_counters counters;
	struct lru_gen_counts walk;
};

/* What lru_gen_walk() ages, and how */
struct lru_gen_target {
	unsigned int memcg;		/* its ID, from lru_gen_memcg_id() */
	int node;
	int swappiness;			/* 200 walks anon memory without swap */
	/*
	 * Before a walk without force_scan, lru_gen_make_room() evicts the
	 * generations that must go, if none holds more than @slack pages;
	 * @nr_to_reclaim is passed with the eviction.
	 */
	unsigned long slack;
	unsigned long nr_to_reclaim;
};

/* One walk made by lru_gen_walk() */
struct lru_gen_walk {
	unsigned long seq;		/* the max_seq it aged from */
	struct lru_gen_counts counts;	/* its own counters */
	/*
	 * Anonymous pages already in the youngest generation before a walk
	 * without force_scan: made young by the eviction that made room,
	 * whose rmap look-around moves a page's young neighbours up and
	 * clears their Access flags, so that the walk cannot count them.
	 */
	unsigned long early;
	double ms;			/* the aging command's elapsed time */
	/*
	 * Sleeps of 1 ms it took until the kernel had switched the caller out
	 * and back in (see lru_gen_walk()); more than 1 is worth reporting.
	 */
	unsigned int sleeps;
};

/* A line reader with a growing buffer; start from { .fd = -1 }. */
struct lru_gen_lines {
	int fd;
	int err;			/* errno that ended the reading early */
	char *buf;
	size_t size, start, end;
};

int lru_gen_lines_open(struct lru_gen_lines *l, const char *path);
/* The next line without its newline; NULL at the end or on an error. */
char *lru_gen_next_line(struct lru_gen_lines *l);
/* Returns 0, or the errno that ended the reading early; keeps the buffer. */
int lru_gen_lines_close(struct lru_gen_lines *l);
void lru_gen_lines_free(struct lru_gen_lines *l);

/* What the last call that failed found wrong */
const char *lru_gen_error(void);
/* Allocate and touch @size bytes of the buffer the functions below read with. */
int lru_gen_reserve(size_t size);

/* Read @path into @buf: at most @size - 1 bytes and a NUL; 0 unless it failed. */
int lru_gen_read_str(const char *path, char *buf, size_t size);
/* Write @s to @path with one write(); 0 when all of it was taken. */
int lru_gen_write_str(const char *path, const char *s);

/* lru_gen/enabled: what it reads (0 if it cannot be read); set and read back */
unsigned int lru_gen_caps(void);
unsigned int lru_gen_set_caps(unsigned int caps);

/* The ID of the memcg lru_gen lists as @path ("/" or "/a/b", as in cgroupfs). */
int lru_gen_memcg_id(const char *path, unsigned int *id);
/* The generations and walk counters of memcg @memcg on @node (lru_gen_full). */
int lru_gen_read(unsigned int memcg, int node, struct lru_gen_lruvec *v);
/*
 * Call @fn for every lruvec lru_gen lists (generations only, no counters),
 * until it returns non-zero; returns that, or -1 on an error.
 */
int lru_gen_for_each(int (*fn)(const struct lru_gen_lruvec *v, void *arg), void *arg);
/*
 * The same from lru_gen_full, with the walk counters: one read for all the
 * lruvecs an agent ages, where lru_gen_read() would read it once each.
 */
int lru_gen_read_each(int (*fn)(const struct lru_gen_lruvec *v, void *arg), void *arg);

/* Write an aging or an eviction command to debugfs lru_gen. */
int lru_gen_age(unsigned int memcg, int node, unsigned long max_seq,
		int swappiness, bool force_scan);
int lru_gen_evict(unsigned int memcg, int node, unsigned long seq,
		  int swappiness, unsigned long nr_to_reclaim);

/*
 * The counters of the one walk that aged @before (a read of a lruvec) into
 * @after (a read of it just after): those listed with CONFIG_LRU_GEN_STATS,
 * the difference of the sums without. Fails unless @after is one
 * generation younger and has counters.
 */
int lru_gen_walk_counts(const struct lru_gen_lruvec *before,
			const struct lru_gen_lruvec *after, struct lru_gen_counts *c);
/*
 * Make room for one more generation, which aging without force_scan needs
 * (it fails with -ERANGE at LRU_GEN_NR_GENS): evict the generations older
 * than max_seq - 2 when each holds at most @t->slack pages, never more, as
 * evicting a working set without swap would clear its Access flags through
 * the rmap. Returns 1 when they hold more, or still exist afterwards; @v
 * is read again after an eviction.
 */
int lru_gen_make_room(const struct lru_gen_target *t, struct lru_gen_lruvec *v);
/*
 * One aging walk of @t from its current max_seq, making room first when
 * !@force_scan, after a millisecond's sleep (a walk skips an mm that has
 * not run since the previous walk). On return @v holds the generations
 * after it and @w the walk's own counters, whichever way the kernel keeps
 * them.
 */
int lru_gen_walk(const struct lru_gen_target *t, bool force_scan,
		 struct lru_gen_lruvec *v, struct lru_gen_walk *w);

/*
 * Make the kernel drop the TLB entries of [@p, @p + @len), so that the next
 * access to each page goes through a table walk and sets the Access flags
 * an aging walk cleared without a flush: an mprotect() round trip through
 * PROT_NONE, which keeps the Access flags. Through PROT_READ the entries
 * stay valid and some translations were seen to survive. Returns
 * mprotect()'s result; the range is left readable and writable.
 */
int lru_gen_drop_translations(void *p, size_t len);

#endif /* __LRU_GEN_UTIL_H */
