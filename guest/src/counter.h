/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The operation counter a guest program publishes for age-agent -j: 8
 * bytes, native endian, in a file made as PATH.new and renamed to PATH
 * once it holds a count, then updated in place through a shared mapping.
 */
#ifndef LAB_COUNTER_H
#define LAB_COUNTER_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * The counter at PATH. A program without its counter cannot be measured, so
 * a failure ends it: the step and the error on stderr, exit status 1.
 */
static inline volatile uint64_t *counter_publish(const char *path)
{
	const char *what = "creating";
	volatile uint64_t *c = MAP_FAILED;
	char tmp[512];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0 && !ftruncate(fd, sizeof(uint64_t))) {
		what = "mapping";
		c = mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE,
			 MAP_SHARED, fd, 0);
	}
	if (fd >= 0)
		close(fd);
	if (c != MAP_FAILED) {
		what = "renaming";
		if (!rename(tmp, path))
			return c;
	}
	fprintf(stderr, "%s: %s the counter file: %s\n", path, what,
		strerror(errno));
	exit(1);
}

#endif
