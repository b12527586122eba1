// SPDX-License-Identifier: GPL-2.0
/*
 * kvload: load for a Redis or memcached server, for the agent guest's
 * key-value cache jobs: closed-loop clients, one request outstanding per
 * connection, every reply parsed and every value that a GET returns checked.
 *
 * Usage: kvload -P redis|memcache [-s ADDR] [-c CLIENTS] [-k KEYS]
 *               [-v BYTES] [-L] [-d DIST] [-w PCT] [-r OPS_PER_S]
 *               [-t SECS] [-o FILE] [-T TAG] [-S SEED]
 *   -P PROTO  redis (RESP arrays: SET, GET) or memcache (text protocol)
 *   -s ADDR   IPV4:PORT, or the path of a unix socket (starting with '/');
 *             default 127.0.0.1:6379 (redis), 127.0.0.1:11211 (memcache).
 *             Connecting is retried for up to 30 s.
 *   -c N      N connections (1..256, default 1), served in turn by one
 *             thread, each with one request outstanding
 *   -k KEYS   keys "key:" and a 10-digit number, 0..KEYS-1 (default
 *             100000, at most 1e9)
 *   -v BYTES  the value size (1..1 MiB, default 1024); a value repeats its
 *             key's number and a '.', so what a GET returns is checked
 *   -L        SET keys 0..KEYS-1 once, before the timed run
 *   -d DIST   the key of an operation (default zipf:0.99):
 *             zipf:S    rank r (1..KEYS) has weight 1/r^S; the ranks are
 *                       scattered over the keys by a fixed pseudo-random
 *                       permutation (the same in every run); a table
 *                       of 4 bytes a key
 *             uniform   any key alike
 *             recent:W  a feed or session store: a SET inserts a new key at
 *                       the head (KEYS, KEYS+1, ...: the key space grows); a
 *                       GET reads the key D before the newest key surely
 *                       stored, D exponential with mean W keys (modulo the
 *                       keys there are): keys go cold as the head moves on
 *   -w PCT    the share of SETs, in percent (default 10)
 *   -r RATE   at most RATE operations a second (default 0: no limit)
 *   -D MS     with -r, drop a request that is already MS milliseconds late
 *             when a connection is free for it: not sent, counted as
 *             skipped= and in the latency at MS (a lower bound), so that
 *             a run that fell behind does not carry its backlog on into
 *             every later interval (default 0: never drop)
 *   -t SECS   the length of the timed run (default 0: until SIGTERM/SIGINT)
 *   -o FILE   the timed run's operation count, as agent-job publishes it:
 *             8 bytes, native endian, made as FILE.new and renamed to FILE
 *             when the timed run starts, then updated after each operation
 *   -T TAG    a label for the output (default none)
 *   -S SEED   the random seed (default 1): runs with one seed repeat
 * A request's latency is from when it was due to the end of its reply
 * (CLOCK_MONOTONIC): with -r, the time the schedule gave it, however late
 * a busy connection let it go out, so that a stall counts for every
 * request it held back and not only the one in flight (as wrk2 measures);
 * without -r, the start of its send. It is kept in a log-linear histogram (32 sub-buckets
 * per power of two: within 3%) of GETs and SETs together; percentiles are
 * bucket middles. A GET that finds no value is a miss, counted (evicted,
 * or never written: without -L); a value of the wrong length or contents,
 * or any reply not expected, is an error.
 *
 * Output, after -L:
 *   KVLOAD loaded keys=KEYS
 * on each SIGUSR1, for the time since the previous one (or the start of
 * the timed run; one during -L is answered when the timed run starts), and
 * at the end with final=1 added:
 *   KVLOAD tag=TAG ops=.. secs=.. ops_per_s=.. p50_us=.. p99_us=..
 *          p999_us=.. max_us=.. misses=.. skipped=.. [final=1]
 * (one line each). Exit status: 0 when the time is up or on SIGTERM or
 * SIGINT, 1 on a connection, protocol or verification error, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "counter.h"
#include "opts.h"

#define MAX_CLIENTS 256
#define MAX_LINE 256 /* longest reply line taken */
#define NSEC 1000000000ULL
#define SUB_BITS 5 /* histogram: 32 sub-buckets per power of two */
#define NBUCKETS ((65 - SUB_BITS) << SUB_BITS)
#define LN2 0.6931471805599453

enum proto { REDIS, MEMCACHE };
enum dist { UNIFORM, ZIPF, RECENT };

struct conn {
	int fd;
	bool busy, set, insert; /* insert: a recent SET at the head */
	uint64_t key, t_sent, t_due; /* t_due: when -r scheduled it, else 0 */
	char name[32]; /* "key:" and the number */
	size_t name_len, in_len;
	char *in; /* the reply so far */
};

static enum proto proto;
static enum dist dist;
static const char *addr, *tag = "none";
static struct sockaddr_storage sa;
static socklen_t sa_len;
static struct conn conns[MAX_CLIENTS];
static int nconns = 1;
static uint64_t nkeys = 100000, head, rng;
static size_t vbytes = 1024, in_cap;
static double write_pct = 10, rate, dist_arg = 0.99;
static uint32_t *zipf_cdf; /* cumulative, scaled to 2^32 - 1 */
static unsigned int perm_half; /* bits of each half of the permutation */
static char *out_buf, *expect;

static volatile sig_atomic_t stop, report_due;
static volatile uint64_t *counter;
static uint64_t t_run, t_last, t_end, issued, ops, loaded;
static uint64_t iv_ops, iv_misses, iv_max, iv_skipped, hist[NBUCKETS];
static uint64_t drop_ns;

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fputs("kvload: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

/* splitmix64: the state steps by the golden ratio, the output is mixed */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ z >> 27) * 0x94d049bb133111ebULL;
	return z ^ z >> 31;
}

static uint64_t rnd(void)
{
	return mix64(rng += 0x9e3779b97f4a7c15ULL);
}

/* uniform in (0, 1] */
static double rnd_unit(void)
{
	return ((rnd() >> 11) + 1) * 0x1p-53;
}

/*
 * ln and exp without libm (the guest programs do not link it): ln takes
 * the exponent out of the double and sums atanh's series for the rest,
 * within [1/sqrt 2, sqrt 2]; exp takes out a multiple of ln 2 and sums
 * its own series for the rest, within +-ln 2 / 2.
 */
static double ln_(double x)
{
	uint64_t b;
	double m, y, y2, sum = 0;
	int e;

	memcpy(&b, &x, sizeof(b));
	e = (int)(b >> 52 & 0x7ff) - 1023;
	b = (b & ((1ULL << 52) - 1)) | 1023ULL << 52;
	memcpy(&m, &b, sizeof(m));
	if (m > 1.4142135623730951) {
		m /= 2;
		e++;
	}
	y = (m - 1) / (m + 1);
	y2 = y * y;
	for (int k = 1; k < 32; k += 2, y *= y2)
		sum += y / k;
	return 2 * sum + e * LN2;
}

static double exp_(double x)
{
	double r, term = 1, sum = 1, scale;
	uint64_t b;
	int n;

	if (x < -700) /* only x <= 0 is asked for */
		return 0;
	n = (int)(x / LN2 + (x < 0 ? -0.5 : 0.5));
	r = x - n * LN2;
	for (int k = 1; k < 18; k++) {
		term *= r / k;
		sum += term;
	}
	b = (uint64_t)(n + 1023) << 52;
	memcpy(&scale, &b, sizeof(scale));
	return sum * scale;
}

/*
 * Zipf ranks (0-based: rank r has weight 1/(r+1)^S) from a table of the
 * cumulative weights, by binary search.
 */
static void zipf_init(double s)
{
	double sum = 0, acc = 0;

	zipf_cdf = malloc(nkeys * sizeof(*zipf_cdf));
	if (!zipf_cdf)
		die("no memory for the Zipf table of %" PRIu64 " keys", nkeys);
	/* each weight as a float in its slot first, then the sum up to it */
	for (uint64_t r = 0; r < nkeys; r++) {
		float w = exp_(-s * ln_(r + 1));

		sum += w;
		memcpy(&zipf_cdf[r], &w, sizeof(w));
	}
	for (uint64_t r = 0; r < nkeys; r++) {
		float w;

		memcpy(&w, &zipf_cdf[r], sizeof(w));
		acc += w;
		zipf_cdf[r] = acc >= sum ? UINT32_MAX :
					   (uint32_t)(acc / sum * 4294967295.0);
	}
	zipf_cdf[nkeys - 1] = UINT32_MAX;
	while ((1ULL << 2 * perm_half) < nkeys)
		perm_half++;
}

static uint64_t zipf_rank(void)
{
	uint32_t u = rnd() >> 32;
	uint64_t lo = 0, hi = nkeys - 1;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (zipf_cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * rank -> key: a 4-round Feistel network over the smallest power of four
 * not below KEYS is a bijection; results of KEYS and more are fed back in
 * until one falls below (cycle walking: fewer than 4 passes on average).
 * The round keys are constants: the same ranks are on the same keys in
 * every run.
 */
static uint64_t permute(uint64_t r)
{
	uint64_t mask = (1ULL << perm_half) - 1;

	do {
		uint64_t l = r >> perm_half, x = r & mask;

		for (uint64_t i = 1; i <= 4; i++) {
			uint64_t t = l ^ (mix64(x + i * 0x2545f4914f6cdd1dULL) &
					  mask);

			l = x;
			x = t;
		}
		r = l << perm_half | x;
	} while (r >= nkeys);
	return r;
}

static void choose(struct conn *c)
{
	uint64_t stored = head, d;

	c->set = write_pct > 0 && rnd_unit() * 100 <= write_pct;
	c->insert = dist == RECENT && c->set;
	if (dist == UNIFORM) {
		c->key = rnd() % nkeys;
	} else if (dist == ZIPF) {
		c->key = permute(zipf_rank());
	} else if (c->insert) {
		c->key = head++;
	} else {
		/* every key below the oldest insert in flight is stored */
		for (int i = 0; i < nconns; i++)
			if (conns[i].busy && conns[i].insert &&
			    conns[i].key < stored)
				stored = conns[i].key;
		d = -dist_arg * ln_(rnd_unit());
		c->key = stored - 1 - d % stored;
	}
}

/* A key's value: its number in 10 digits and a '.', again and again. */
static void fill_value(char *v, uint64_t key)
{
	char unit[32];
	size_t n = snprintf(unit, sizeof(unit), "%010" PRIu64 ".", key);

	if (n > vbytes)
		n = vbytes;
	memcpy(v, unit, n);
	while (n < vbytes) {
		size_t more = n < vbytes - n ? n : vbytes - n;

		memcpy(v + n, v, more);
		n += more;
	}
}

static void send_request(struct conn *c)
{
	const char *cmd = c->set ? "SET" : "GET";
	size_t len;

	c->name_len =
		snprintf(c->name, sizeof(c->name), "key:%010" PRIu64, c->key);
	if (proto == REDIS && c->set)
		len = sprintf(out_buf,
			      "*3\r\n$3\r\nSET\r\n$%zu\r\n%s\r\n$%zu\r\n",
			      c->name_len, c->name, vbytes);
	else if (proto == REDIS)
		len = sprintf(out_buf, "*2\r\n$3\r\nGET\r\n$%zu\r\n%s\r\n",
			      c->name_len, c->name);
	else if (c->set)
		len = sprintf(out_buf, "set %s 0 0 %zu\r\n", c->name, vbytes);
	else
		len = sprintf(out_buf, "get %s\r\n", c->name);
	if (c->set) {
		fill_value(out_buf + len, c->key);
		memcpy(out_buf + len + vbytes, "\r\n", 2);
		len += vbytes + 2;
	}
	c->busy = true;
	c->in_len = 0;
	c->t_sent = now_ns();
	for (size_t done = 0; done < len;) {
		ssize_t n =
			send(c->fd, out_buf + done, len - done, MSG_NOSIGNAL);

		if (n < 0 && errno != EINTR)
			die("%s: %s %s: %s", addr, cmd, c->name,
			    strerror(errno));
		if (n > 0)
			done += n;
	}
}

/* An unexpected reply: fatal, with its first line (made printable). */
static void __attribute__((noreturn)) bad_reply(struct conn *c, const char *why)
{
	char shown[81];
	size_t k;

	for (k = 0; k < c->in_len && k + 1 < sizeof(shown); k++) {
		if (c->in[k] == '\r')
			break;
		shown[k] = c->in[k] >= ' ' && c->in[k] < 127 ? c->in[k] : '?';
	}
	shown[k] = '\0';
	die("%s: %s to %s %s (-P %s): \"%s\"", addr, why,
	    c->set ? "SET" : "GET", c->name,
	    proto == REDIS ? "redis" : "memcache", shown);
}

/* The length of the reply's first line (without CRLF), or -1 yet. */
static long line_len(struct conn *c)
{
	size_t lim = c->in_len < MAX_LINE ? c->in_len : MAX_LINE;

	for (size_t i = 0; i + 1 < lim; i++)
		if (c->in[i] == '\r' && c->in[i + 1] == '\n')
			return i;
	if (c->in_len >= MAX_LINE)
		bad_reply(c, "a reply line too long");
	return -1;
}

/* A value's length, checked as soon as its header is in, then itself. */
static void check_len(struct conn *c, unsigned long long n)
{
	if (n != vbytes)
		die("%s: GET %s: a value of %llu bytes, expected %zu", addr,
		    c->name, n, vbytes);
}

static void check_value(struct conn *c, const char *v)
{
	fill_value(expect, c->key);
	if (memcmp(v, expect, vbytes))
		for (size_t i = 0; i < vbytes; i++)
			if (v[i] != expect[i])
				die("%s: GET %s: wrong value, byte %zu is 0x%02x, expected 0x%02x (\"%.*s\"...)",
				    addr, c->name, i, (unsigned char)v[i],
				    (unsigned char)expect[i],
				    (int)(vbytes < 24 ? vbytes : 24), v);
}

/*
 * The reply to c's request, if all of it is in: its length, and *miss for
 * a GET that found nothing; 0 while it is incomplete.
 */
static size_t parse_reply(struct conn *c, bool *miss)
{
	long ll = line_len(c);
	char line[MAX_LINE + 1], key[64], *end;
	unsigned long long n;
	unsigned int flags;
	size_t need;
	int used = 0;

	*miss = false;
	if (ll < 0)
		return 0;
	memcpy(line, c->in, ll);
	line[ll] = '\0';
	if (strlen(line) != (size_t)ll)
		bad_reply(c, "a NUL in a reply line");
	if (c->set) {
		if (strcmp(line, proto == REDIS ? "+OK" : "STORED"))
			bad_reply(c, "unexpected reply");
		return ll + 2;
	}
	if (!strcmp(line, proto == REDIS ? "$-1" : "END")) {
		*miss = true;
		return ll + 2;
	}
	if (proto == REDIS) {
		if (line[0] != '$' || line[1] < '0' || line[1] > '9')
			bad_reply(c, "unexpected reply");
		n = strtoull(line + 1, &end, 10);
		if (*end)
			bad_reply(c, "unexpected reply");
		check_len(c, n);
		need = ll + 2 + n + 2;
		if (c->in_len < need)
			return 0;
		if (memcmp(c->in + need - 2, "\r\n", 2))
			bad_reply(c, "a value without CRLF after it");
	} else {
		if (sscanf(line, "VALUE %63s %u %llu%n", key, &flags, &n,
			   &used) != 3 ||
		    used != ll || strcmp(key, c->name) || flags)
			bad_reply(c, "unexpected reply");
		check_len(c, n);
		need = ll + 2 + n + 7;
		if (c->in_len < need)
			return 0;
		if (memcmp(c->in + need - 7, "\r\nEND\r\n", 7))
			bad_reply(c, "a value without CRLF END CRLF after it");
	}
	check_value(c, c->in + ll + 2);
	return need;
}

static unsigned int bucket(uint64_t v)
{
	unsigned int shift;

	if (v < 2 << SUB_BITS)
		return v;
	shift = 63 - __builtin_clzll(v) - SUB_BITS;
	return (shift << SUB_BITS) + (v >> shift);
}

/* the middle of the bucket, in ns */
static uint64_t bucket_mid(unsigned int i)
{
	unsigned int shift;

	if (i < 2 << SUB_BITS)
		return i;
	shift = (i >> SUB_BITS) - 1;
	return ((uint64_t)(i - (shift << SUB_BITS)) << shift) +
	       (1ULL << shift) / 2;
}

/* the latency at quantile q of the interval, in us */
static double quantile_us(double q)
{
	uint64_t all = iv_ops + iv_skipped, want = q * all, seen = 0;

	if (want < q * all || !want)
		want++;
	for (unsigned int i = 0; i < NBUCKETS; i++) {
		seen += hist[i];
		if (seen >= want) {
			uint64_t v = bucket_mid(i);

			return (v < iv_max ? v : iv_max) / 1e3;
		}
	}
	return iv_max / 1e3;
}

static void report(bool final)
{
	uint64_t now = now_ns();
	double secs = (now - t_last) / 1e9;

	bool any = iv_ops || iv_skipped;

	printf("KVLOAD tag=%s ops=%" PRIu64
	       " secs=%.3f ops_per_s=%.1f p50_us=%.1f p99_us=%.1f p999_us=%.1f max_us=%.1f misses=%" PRIu64
	       " skipped=%" PRIu64 "%s\n",
	       tag, iv_ops, secs, secs > 0 ? iv_ops / secs : 0,
	       any ? quantile_us(0.5) : 0, any ? quantile_us(0.99) : 0,
	       any ? quantile_us(0.999) : 0, iv_max / 1e3, iv_misses,
	       iv_skipped, final ? " final=1" : "");
	memset(hist, 0, sizeof(hist));
	iv_ops = iv_misses = iv_max = iv_skipped = 0;
	t_last = now;
}

/* Read what there is of c's reply; when it is all in, account for it. */
static void receive(struct conn *c, bool load)
{
	ssize_t n = read(c->fd, c->in + c->in_len, in_cap - c->in_len);
	uint64_t lat;
	size_t len;
	bool miss;

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n < 0)
		die("%s: reading the reply to %s: %s", addr, c->name,
		    strerror(errno));
	if (!n)
		die("%s: the server closed the connection (request %s %s)",
		    addr, c->set ? "SET" : "GET", c->name);
	c->in_len += n;
	len = parse_reply(c, &miss);
	if (!len) {
		if (c->in_len == in_cap)
			bad_reply(c, "a reply too long");
		return;
	}
	if (len != c->in_len)
		bad_reply(c, "more than one reply");
	c->busy = false;
	if (load)
		return;
	lat = now_ns() - (c->t_due ? c->t_due : c->t_sent);
	hist[bucket(lat)]++;
	if (lat > iv_max)
		iv_max = lat;
	iv_ops++;
	iv_misses += miss;
	ops++;
	if (counter)
		*counter = ops;
}

/*
 * Keep every connection busy (with -L, SETs of keys 0..KEYS-1 until all
 * are stored) until the end. The stop and report signals are taken only
 * in ppoll(), with @open as the mask.
 */
static void drive(bool load, const sigset_t *open)
{
	struct pollfd pfd[MAX_CLIENTS];
	int idx[MAX_CLIENTS];

	while (!stop) {
		uint64_t now = now_ns(), wait = UINT64_MAX;
		struct timespec ts;
		int n = 0;

		if (!load && report_due) {
			report_due = 0;
			report(false);
		}
		if (!load && t_end && now >= t_end)
			return;
		for (int i = 0; i < nconns && wait == UINT64_MAX; i++) {
			struct conn *c = &conns[i];

			if (c->busy || (load && loaded == nkeys))
				continue;
			if (load) {
				c->set = true;
				c->insert = false;
				c->key = loaded++;
			} else {
				uint64_t due =
					rate ? t_run + issued * 1e9 / rate : 0;

				now = now_ns();
				/* -D: what is already too late is dropped */
				while (rate && drop_ns && due + drop_ns < now) {
					hist[bucket(drop_ns)]++;
					if (drop_ns > iv_max)
						iv_max = drop_ns;
					iv_skipped++;
					issued++;
					due = t_run + issued * 1e9 / rate;
				}
				if (due > now) {
					wait = due - now;
					break;
				}
				choose(c);
				c->t_due = due;
				issued++;
			}
			send_request(c);
		}
		for (int i = 0; i < nconns; i++) {
			if (!conns[i].busy)
				continue;
			pfd[n].fd = conns[i].fd;
			pfd[n].events = POLLIN;
			idx[n++] = i;
		}
		if (load && !n)
			return;
		now = now_ns();
		if (!load && t_end && (t_end <= now || t_end - now < wait))
			wait = t_end > now ? t_end - now : 0;
		ts.tv_sec = wait / NSEC;
		ts.tv_nsec = wait % NSEC;
		if (ppoll(pfd, n, wait == UINT64_MAX ? NULL : &ts, open) < 0) {
			if (errno == EINTR)
				continue;
			die("ppoll: %s", strerror(errno));
		}
		for (int k = 0; k < n; k++)
			if (pfd[k].revents)
				receive(&conns[idx[k]], load);
	}
}

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		report_due = 1;
	else
		stop = 1;
}

static int parse_addr(const char *s)
{
	struct sockaddr_un *un = (struct sockaddr_un *)&sa;
	struct sockaddr_in *in = (struct sockaddr_in *)&sa;
	const char *colon = strrchr(s, ':');
	char host[INET_ADDRSTRLEN], *end;
	unsigned long port;

	memset(&sa, 0, sizeof(sa));
	if (s[0] == '/') {
		if (strlen(s) >= sizeof(un->sun_path))
			return -1;
		un->sun_family = AF_UNIX;
		memcpy(un->sun_path, s, strlen(s) + 1);
		sa_len = sizeof(*un);
		return 0;
	}
	if (!colon || colon == s || (size_t)(colon - s) >= sizeof(host))
		return -1;
	memcpy(host, s, colon - s);
	host[colon - s] = '\0';
	port = strtoul(colon + 1, &end, 10);
	if (colon[1] < '0' || colon[1] > '9' || *end || !port || port > 65535)
		return -1;
	in->sin_family = AF_INET;
	in->sin_port = htons(port);
	sa_len = sizeof(*in);
	return inet_pton(AF_INET, host, &in->sin_addr) == 1 ? 0 : -1;
}

/* A connection to the server, retried until @deadline; -1 on a stop. */
static int dial(uint64_t deadline)
{
	const struct timespec pause = { 0, 100 * 1000 * 1000 };
	int one = 1;

	for (;;) {
		int fd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0),
		    err;

		if (fd < 0)
			die("socket: %s", strerror(errno));
		if (!connect(fd, (struct sockaddr *)&sa, sa_len)) {
			if (sa.ss_family == AF_INET)
				setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one,
					   sizeof(one));
			return fd;
		}
		err = errno;
		close(fd);
		if (stop)
			return -1;
		if (now_ns() >= deadline)
			die("cannot connect to %s: %s", addr, strerror(err));
		nanosleep(&pause, NULL);
	}
}

static const char usage[] =
	"usage: kvload -P redis|memcache [-s IPV4:PORT|/UNIX_SOCKET] [-c CLIENTS] [-k KEYS]\n"
	"              [-v BYTES] [-L] [-d zipf:S|uniform|recent:W] [-w SET_PCT]\n"
	"              [-r OPS_PER_S [-D MS]] [-t SECS] [-o FILE] [-T TAG] [-S SEED]\n";

static void __attribute__((noreturn)) bad(const char *what, const char *val)
{
	fprintf(stderr, "kvload: bad %s: '%s'\n%s", what, val, usage);
	exit(2);
}

/* A number option's value, in [min, max] and whole if @whole. */
static double num(const char *s, const char *what, double min, double max,
		  bool whole)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !(v >= min && v <= max) ||
	    (whole && v != (double)(uint64_t)v))
		bad(what, s);
	return v;
}

int main(int argc, char **argv)
{
	const char *p = NULL, *s_c = "1", *s_k = "100000", *s_v = "1024",
		   *s_d = "zipf:0.99", *s_w = "10", *s_r = "0", *s_t = "0",
		   *s_s = "1", *s_D = "0", *out = NULL;
	bool load = false;
	const struct opt opts[] = {
		{ 'P', OPT_STR, &p },	{ 's', OPT_STR, &addr },
		{ 'c', OPT_STR, &s_c }, { 'k', OPT_STR, &s_k },
		{ 'v', OPT_STR, &s_v }, { 'L', OPT_FLAG, &load },
		{ 'd', OPT_STR, &s_d }, { 'w', OPT_STR, &s_w },
		{ 'r', OPT_STR, &s_r }, { 't', OPT_STR, &s_t },
		{ 'o', OPT_STR, &out }, { 'T', OPT_STR, &tag },
		{ 'S', OPT_STR, &s_s }, { 'D', OPT_STR, &s_D },
	};
	struct sigaction act = { .sa_handler = on_signal };
	sigset_t block, open;
	uint64_t deadline;
	char *end;

	if (parse_opts(argc, argv, opts, sizeof(opts) / sizeof(opts[0])) ||
	    optind < argc) {
		fputs(usage, stderr);
		return 2;
	}
	if (p && !strcmp(p, "redis"))
		proto = REDIS;
	else if (p && !strcmp(p, "memcache"))
		proto = MEMCACHE;
	else
		bad("or missing protocol (-P)", p ? p : "");
	if (!addr)
		addr = proto == REDIS ? "127.0.0.1:6379" : "127.0.0.1:11211";
	if (parse_addr(addr))
		bad("address (-s)", addr);
	nconns = num(s_c, "number of clients (-c)", 1, MAX_CLIENTS, true);
	nkeys = num(s_k, "number of keys (-k)", 1, 1e9, true);
	vbytes = num(s_v, "value size (-v)", 1, 1 << 20, true);
	write_pct = num(s_w, "SET percentage (-w)", 0, 100, false);
	rate = num(s_r, "rate (-r)", 0, 1e9, false);
	t_end = num(s_t, "run time (-t)", 0, 1e7, false) * 1e9;
	drop_ns = num(s_D, "drop age (-D)", 0, 1e7, false) * 1e6;
	errno = 0;
	rng = strtoull(s_s, &end, 0);
	if (s_s[0] < '0' || s_s[0] > '9' || *end || errno)
		bad("seed (-S)", s_s);
	if (!strcmp(s_d, "uniform"))
		dist = UNIFORM;
	else if (!strncmp(s_d, "zipf:", 5))
		dist = ZIPF;
	else if (!strncmp(s_d, "recent:", 7))
		dist = RECENT;
	else
		bad("distribution (-d)", s_d);
	if (dist != UNIFORM)
		dist_arg = num(strchr(s_d, ':') + 1,
			       "distribution parameter (-d)", 0,
			       dist == ZIPF ? 100 : 1e12, false);
	if (strpbrk(tag, " \t\n") || !tag[0])
		bad("tag (-T)", tag);

	setvbuf(stdout, NULL, _IOLBF, 0); /* stdout may be a file */
	sigaction(SIGTERM, &act, NULL);
	sigaction(SIGINT, &act, NULL);
	sigaction(SIGUSR1, &act, NULL);
	t_last = now_ns();
	in_cap = vbytes + 2 * MAX_LINE;
	out_buf = malloc(in_cap);
	expect = malloc(vbytes);
	if (!out_buf || !expect)
		die("no memory");
	if (dist == ZIPF)
		zipf_init(dist_arg);
	head = nkeys;
	deadline = now_ns() + 30 * NSEC;
	for (int i = 0; i < nconns && !stop; i++) {
		conns[i].in = malloc(in_cap);
		if (!conns[i].in)
			die("no memory");
		conns[i].fd = dial(deadline);
	}
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &open);
	if (load && !stop) {
		drive(true, &open);
		if (!stop)
			printf("KVLOAD loaded keys=%" PRIu64 "\n", nkeys);
	}
	if (!stop) {
		if (out)
			counter = counter_publish(out);
		t_run = t_last = now_ns();
		if (t_end)
			t_end += t_run;
		drive(false, &open);
	}
	report(true);
	return 0;
}
