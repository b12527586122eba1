// SPDX-License-Identifier: GPL-2.0
/*
 * Keep a fixed set of anonymous pages busy, for a host that ages this
 * guest's memory (guest/tests/kvm-wait): map SIZE MiB once, then write one
 * word per page, pass after pass, until killed. After each pass the set is
 * made read-only and writable again: mprotect() invalidates the set's TLB
 * entries, so every pass walks the page tables again, stage 2 included,
 * and the hypervisor's Access flags for these pages are set anew after the
 * host cleared them. Without that an emulator's software TLB, far larger
 * than a real one, keeps the whole set translated and the host sees it
 * young only once. The pages stay the same: nothing is unmapped.
 *
 * Usage: busy-set [SIZE_MIB]   (default 64)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long size = (argc > 1 ? strtoul(argv[1], NULL, 0) : 64) << 20;
	long page = sysconf(_SC_PAGESIZE);
	volatile unsigned long *p;
	unsigned long pass, off;

	if (!size || page <= 0) {
		fprintf(stderr, "usage: %s [SIZE_MIB]\n", argv[0]);
		return 2;
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	madvise((void *)p, size, MADV_NOHUGEPAGE);
	for (pass = 1;; pass++) {
		for (off = 0; off < size; off += page)
			p[off / sizeof(*p)] = pass;
		if (mprotect((void *)p, size, PROT_READ) ||
		    mprotect((void *)p, size, PROT_READ | PROT_WRITE)) {
			perror("mprotect");
			return 1;
		}
	}
}
