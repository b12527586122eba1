/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The operation counter a guest program publishes for age-agent -j: 8
 * bytes, native endian, in a file made as PATH.new and renamed to PATH
 * once it holds a count, then updated in place through a shared mapping.
 */
#ifndef LAB_COUNTER_H
#define LAB_COUNTER_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * The counter at PATH, or NULL with errno set and *what naming the step
 * that failed.
 */
static inline volatile uint64_t *counter_publish(const char *path,
						 const char **what)
{
	volatile uint64_t *c;
	char tmp[512];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	*what = "creating the counter file";
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return NULL;
	if (ftruncate(fd, sizeof(uint64_t))) {
		close(fd);
		return NULL;
	}
	*what = "mapping the counter";
	c = mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 0);
	close(fd);
	if (c == MAP_FAILED)
		return NULL;
	*what = "renaming the counter file";
	if (rename(tmp, path))
		return NULL;
	return c;
}

#endif
