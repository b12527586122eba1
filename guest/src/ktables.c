// SPDX-License-Identifier: GPL-2.0
/*
 * ktables: count the table descriptors of the kernel's page tables
 * (swapper_pg_dir, the TTBR1 half) whose Access flag (bit 10) is clear.
 *
 * With FEAT_HAFT in use, the CPU sets that flag in every table descriptor
 * it walks through, so a kernel table built with the flag clear is changed
 * by the hardware while the kernel may be reading it (arch/arm64/mm/mmu.c
 * BUG()s when a table descriptor changes between two of its reads). This
 * reads the tables through /proc/kcore, from user space, so that reading
 * them walks none of them.
 *
 * Usage: ktables [-v]
 * Prints "tables N af_clear M" and, with -v (or when M > 0, the first 16),
 * each table descriptor with the flag clear: its level, the first virtual
 * address it covers and its value. Exits 0 when it could walk the tables,
 * 1 when it could not (no /proc/kcore, no swapper_pg_dir in /proc/kallsyms:
 * CONFIG_PROC_KCORE and CONFIG_KALLSYMS_ALL), 2 on bad usage.
 *
 * The size of the kernel's half of the address space, and so the number of
 * levels, is the one in use (64 - TCR_EL1.T1SZ, from the VMCOREINFO note
 * /proc/kcore carries where the kernel has one; 48 bits otherwise, the lab's
 * own configurations), for 4, 16 and 64 KiB pages: Debian's kernels use
 * 52 bits, and 5 levels with 4 KiB pages on a CPU with FEAT_LPA2. Output
 * addresses below 2^50 are assumed (bits 9:8 of an LPA2 descriptor are
 * ignored). Descriptors are read as the CPU reads them, little-endian.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PA_MASK ((1ULL << 50) - 1)
#define DESC_AF (1ULL << 10)
#define MAX_SEGS 64
#define MAX_SHOWN 16

static int kcore = -1;
static Elf64_Phdr segs[MAX_SEGS];
static int nsegs;
static unsigned int page_shift, bits_per_level, va_bits = 48;
static const int last_level = 3;
static unsigned long tables, af_clear;
static int verbose;

/* The VA size in use, from the VMCOREINFO note's TCR_EL1_T1SZ, if any. */
static void read_notes(const Elf64_Phdr *ph)
{
	static char buf[1 << 16];
	size_t len = ph->p_filesz < sizeof(buf) - 1 ? ph->p_filesz : sizeof(buf) - 1;
	ssize_t got = pread(kcore, buf, len, ph->p_offset);
	char *t;

	if (got <= 0)
		return;
	buf[got] = 0;
	for (ssize_t i = 0; i < got; i++)
		if (!buf[i])
			buf[i] = '\n';
	t = strstr(buf, "NUMBER(TCR_EL1_T1SZ)=");
	if (t) {
		unsigned long t1sz = strtoul(t + strlen("NUMBER(TCR_EL1_T1SZ)="), NULL, 0);

		if (t1sz >= 12 && t1sz <= 39)
			va_bits = 64 - t1sz;
	}
}

static int read_segments(void)
{
	Elf64_Ehdr eh;

	if (pread(kcore, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64)
		return -1;
	for (int i = 0; i < eh.e_phnum && nsegs < MAX_SEGS; i++) {
		Elf64_Phdr ph;
		off_t at = eh.e_phoff + (off_t)i * eh.e_phentsize;

		if (pread(kcore, &ph, sizeof(ph), at) != sizeof(ph))
			return -1;
		if (ph.p_type == PT_LOAD)
			segs[nsegs++] = ph;
		else if (ph.p_type == PT_NOTE)
			read_notes(&ph);
	}
	return nsegs ? 0 : -1;
}

/* The file offset of a physical (phys) or virtual address, or -1. */
static off_t offset_of(uint64_t addr, int phys)
{
	for (int i = 0; i < nsegs; i++) {
		uint64_t base = phys ? segs[i].p_paddr : segs[i].p_vaddr;

		if (phys && base == (uint64_t)-1)
			continue;
		if (addr >= base && addr - base < segs[i].p_memsz)
			return segs[i].p_offset + (addr - base);
	}
	return -1;
}

static int read_table(uint64_t addr, int phys, uint64_t *t, size_t n)
{
	off_t at = offset_of(addr, phys);

	if (at < 0)
		return -1;
	return pread(kcore, t, n * 8, at) == (ssize_t)(n * 8) ? 0 : -1;
}

/*
 * Walk the n entries of the table at addr (physical, or virtual for the
 * root, which is in the kernel image), at level, covering va up.
 */
static int walk(uint64_t addr, int phys, int level, uint64_t va, size_t n)
{
	uint64_t t[8192];
	unsigned int shift = page_shift + (last_level - level) * bits_per_level;

	if (read_table(addr, phys, t, n)) {
		fprintf(stderr, "ktables: cannot read the level %d table at %#llx\n",
			level, (unsigned long long)addr);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t d = t[i], start = va + ((uint64_t)i << shift);

		/* bits 1:0 = 0b11 below the last level: a table descriptor */
		if (level == last_level || (d & 3) != 3)
			continue;
		tables++;
		if (!(d & DESC_AF)) {
			af_clear++;
			if (verbose || af_clear <= MAX_SHOWN)
				printf("level %d va %#llx desc %#llx: Access flag clear\n",
				       level, (unsigned long long)start,
				       (unsigned long long)d);
		}
		if (walk(d & PA_MASK & ~((1ULL << page_shift) - 1), 1,
			 level + 1, start, 1UL << bits_per_level))
			return -1;
	}
	return 0;
}

static int swapper_va(uint64_t *va)
{
	char line[256];
	FILE *f = fopen("/proc/kallsyms", "r");
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, name[128];

		if (sscanf(line, "%llx %c %127s", &a, &type, name) == 3 &&
		    !strcmp(name, "swapper_pg_dir") && a) {
			*va = a;
			found = 1;
		}
	}
	fclose(f);
	return found ? 0 : -1;
}

int main(int argc, char **argv)
{
	unsigned int levels, root_bits;
	uint64_t root;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "-v"))) {
		fprintf(stderr, "usage: ktables [-v]\n");
		return 2;
	}
	verbose = argc == 2;
	page_shift = __builtin_ctzl(sysconf(_SC_PAGESIZE));
	bits_per_level = page_shift - 3;

	kcore = open("/proc/kcore", O_RDONLY);
	if (kcore < 0 || read_segments()) {
		perror("ktables: /proc/kcore (CONFIG_PROC_KCORE, root)");
		return 1;
	}
	levels = (va_bits - page_shift + bits_per_level - 1) / bits_per_level;
	root_bits = va_bits - page_shift - (levels - 1) * bits_per_level;
	printf("va_bits %u levels %u page_size %lu\n", va_bits, levels,
	       1UL << page_shift);
	if (swapper_va(&root)) {
		fprintf(stderr,
			"ktables: no swapper_pg_dir in /proc/kallsyms (CONFIG_KALLSYMS_ALL, kptr_restrict)\n");
		return 1;
	}
	if (walk(root, 0, last_level + 1 - (int)levels, ~0ULL << va_bits,
		 1UL << root_bits))
		return 1;
	printf("tables %lu af_clear %lu\n", tables, af_clear);
	return 0;
}
