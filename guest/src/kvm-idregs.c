// SPDX-License-Identifier: GPL-2.0
/*
 * kvm-idregs: can a VMM show a KVM guest a feature whose enable bit lives
 * in TCR2_EL1 (FEAT_HAFT, FEAT_S1PIE, FEAT_S1POE) without FEAT_TCR2, and
 * what does such a guest see? Run on a KVM host (the lab's kvm rows, guest
 * suite kvm-idregs). For each feature the host has, a fresh VM with one
 * vCPU:
 *
 *  1. KVM_SET_ONE_REG writes the feature's ID register with the feature
 *     present and ID_AA64MMFR3_EL1 with TCRX = 0, in both orders (the
 *     feature lowered first, then raised after TCRX is cleared);
 *  2. where KVM accepted that, the vCPU runs a few instructions at EL1
 *     (MMU off) that read the two ID registers and write TCR2_EL1, and
 *     report through MMIO: what the guest reads, and whether the write
 *     went through or took an exception (its ESR).
 *
 * KVM must take the writes, the guest must read TCRX 0 and its TCR2_EL1
 * write must be UNDEFINED. --shown LIST (haft,s1pie,s1poe, or none) names
 * the features KVM is expected to leave in such a VM's ID registers: all
 * three on 6.12; S1PIE and S1POE are taken out by 7.3's
 * kvm_idregs_enforce_dependencies(), and HAFT too with
 * upstream/tcr2-fix's KVM patch. A VM with TCRX = 0 and none of the three
 * runs first (the positive control). TAP on stdout.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__aarch64__)
#include <linux/kvm.h>

#define MMFR1 ARM64_SYS_REG(3, 0, 0, 7, 1)
#define MMFR3 ARM64_SYS_REG(3, 0, 0, 7, 3)
#define GUEST_RAM 0x10000000UL
#define GUEST_MMIO 0x20000000UL
#define RAM_SIZE 0x10000UL
#define CORE_REG(r)                                            \
	(KVM_REG_ARM64 | KVM_REG_SIZE_U64 | KVM_REG_ARM_CORE | \
	 (offsetof(struct kvm_regs, r) / sizeof(__u32)))

/* Fields of the ID registers (Arm ARM D24.2). */
#define HAFDBS_SHIFT 0 /* ID_AA64MMFR1_EL1 */
#define TCRX_SHIFT 0 /* ID_AA64MMFR3_EL1 */
#define S1PIE_SHIFT 8
#define S1POE_SHIFT 16

/*
 * The guest: x2 points at the MMIO page; each store there is an exit.
 * Offsets: 0 ID_AA64MMFR1_EL1, 8 ID_AA64MMFR3_EL1, 16 the TCR2_EL1 write
 * went through; an exception taken to the vector at guest_vectors + 0x200
 * (current EL, SP_ELx: the vCPU starts in EL1h; VBAR_EL1 is set through
 * KVM_SET_ONE_REG) reports 32 ELR_EL1, then 24 ESR_EL1. The labels are
 * global (and hidden): as local labels, C's references to them went
 * through one GOT slot, and every one of them read as guest_start.
 */
extern const uint32_t guest_start[], guest_tcr2_write[], guest_vectors[],
	guest_end[];
asm(".pushsection .rodata.kvm_idregs, \"a\"\n"
    ".globl guest_start, guest_tcr2_write, guest_vectors, guest_end\n"
    ".hidden guest_start, guest_tcr2_write, guest_vectors, guest_end\n"
    ".balign 2048\n"
    "guest_start:\n"
    "	movz	x2, #0x2000, lsl #16\n"
    "	mrs	x0, id_aa64mmfr1_el1\n"
    "	str	x0, [x2]\n"
    "	mrs	x1, s3_0_c0_c7_3\n"
    "	str	x1, [x2, #8]\n"
    "	mov	x3, #0\n"
    "guest_tcr2_write:\n"
    "	msr	s3_0_c2_c0_3, x3\n"
    "	isb\n"
    "	str	x3, [x2, #16]\n"
    "1:	b	1b\n"
    ".balign 2048\n"
    "guest_vectors:\n"
    "	.fill	128, 4, 0x14000000\n"
    "	movz	x2, #0x2000, lsl #16\n"
    "	mrs	x6, elr_el1\n"
    "	str	x6, [x2, #32]\n"
    "	mrs	x5, esr_el1\n"
    "	str	x5, [x2, #24]\n"
    "2:	b	2b\n"
    "guest_end:\n"
    ".popsection\n");

static int kvm = -1, tap_n, tap_fail;

static void result(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	tap_fail += !ok;
}

static void die(const char *what)
{
	tap_n++;
	printf("not ok %d - %s: %s\n1..%d\n", tap_n, what, strerror(errno),
	       tap_n);
	exit(1);
}

static unsigned int field(uint64_t reg, int shift)
{
	return (reg >> shift) & 0xf;
}

static uint64_t with(uint64_t reg, int shift, unsigned int val)
{
	return (reg & ~(0xfULL << shift)) | ((uint64_t)val << shift);
}

struct vm {
	int fd, vcpu;
	struct kvm_run *run;
};

static void vm_create(struct vm *vm)
{
	struct kvm_userspace_memory_region region = {
		.slot = 0,
		.guest_phys_addr = GUEST_RAM,
		.memory_size = RAM_SIZE,
	};
	struct kvm_vcpu_init init;
	long size;
	void *ram;

	vm->fd = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm->fd < 0)
		die("KVM_CREATE_VM");
	ram = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ram == MAP_FAILED)
		die("mmap guest RAM");
	memcpy(ram, guest_start, (guest_end - guest_start) * sizeof(uint32_t));
	region.userspace_addr = (uintptr_t)ram;
	if (ioctl(vm->fd, KVM_SET_USER_MEMORY_REGION, &region))
		die("KVM_SET_USER_MEMORY_REGION");
	vm->vcpu = ioctl(vm->fd, KVM_CREATE_VCPU, 0);
	if (vm->vcpu < 0)
		die("KVM_CREATE_VCPU");
	if (ioctl(vm->fd, KVM_ARM_PREFERRED_TARGET, &init))
		die("KVM_ARM_PREFERRED_TARGET");
	if (ioctl(vm->vcpu, KVM_ARM_VCPU_INIT, &init))
		die("KVM_ARM_VCPU_INIT");
	size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (size <= 0)
		die("KVM_GET_VCPU_MMAP_SIZE");
	vm->run = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, vm->vcpu,
		       0);
	if (vm->run == MAP_FAILED)
		die("mmap kvm_run");
}

static void vm_destroy(struct vm *vm)
{
	close(vm->vcpu);
	close(vm->fd);
}

static uint64_t get_reg(struct vm *vm, uint64_t id)
{
	uint64_t val;
	struct kvm_one_reg reg = { .id = id, .addr = (uintptr_t)&val };

	if (ioctl(vm->vcpu, KVM_GET_ONE_REG, &reg))
		die("KVM_GET_ONE_REG");
	return val;
}

/* 0, or the errno of a refused write */
static int set_reg(struct vm *vm, uint64_t id, uint64_t val)
{
	struct kvm_one_reg reg = { .id = id, .addr = (uintptr_t)&val };

	return ioctl(vm->vcpu, KVM_SET_ONE_REG, &reg) ? errno : 0;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* What the guest reported: values at the MMIO offsets, -1 when absent. */
struct seen {
	int64_t mmfr1, mmfr3, written, esr, elr;
};

/* ESR_EL1.EC 0 (unknown reason: UNDEFINED) at the guest's TCR2_EL1 write */
static int undef_at_tcr2(const struct seen *s)
{
	return s->esr >= 0 && (s->esr >> 26) == 0 &&
	       s->elr ==
		       (int64_t)(GUEST_RAM + (guest_tcr2_write - guest_start) *
						     sizeof(uint32_t));
}

static void vm_run(struct vm *vm, struct seen *s)
{
	uint64_t pc = GUEST_RAM;
	struct kvm_one_reg reg = { .id = CORE_REG(regs.pc),
				   .addr = (uintptr_t)&pc };

	s->mmfr1 = s->mmfr3 = s->written = s->esr = s->elr = -1;
	if (ioctl(vm->vcpu, KVM_SET_ONE_REG, &reg))
		die("KVM_SET_ONE_REG pc");
	pc = GUEST_RAM + (guest_vectors - guest_start) * sizeof(uint32_t);
	reg.id = ARM64_SYS_REG(3, 0, 12, 0, 0);
	if (ioctl(vm->vcpu, KVM_SET_ONE_REG, &reg))
		die("KVM_SET_ONE_REG vbar_el1");
	alarm(10);
	while (s->written < 0 && s->esr < 0) {
		struct kvm_run *r = vm->run;
		uint64_t data = 0;

		if (ioctl(vm->vcpu, KVM_RUN, 0)) {
			printf("# KVM_RUN: %s; pc %#llx pstate %#llx esr_el1 %#llx elr_el1 %#llx\n",
			       strerror(errno),
			       (unsigned long long)get_reg(vm,
							   CORE_REG(regs.pc)),
			       (unsigned long long)get_reg(
				       vm, CORE_REG(regs.pstate)),
			       (unsigned long long)get_reg(
				       vm, ARM64_SYS_REG(3, 0, 5, 2, 0)),
			       (unsigned long long)get_reg(vm,
							   CORE_REG(elr_el1)));
			break;
		}
		if (r->exit_reason != KVM_EXIT_MMIO || !r->mmio.is_write ||
		    r->mmio.len != 8) {
			printf("# unexpected exit %u\n", r->exit_reason);
			break;
		}
		memcpy(&data, r->mmio.data, 8);
		/* Offsets 0, 8, 16, 24, 32 (16: the write went through) */
		int64_t *slot[] = { &s->mmfr1, &s->mmfr3, &s->written, &s->esr,
				    &s->elr };
		uint64_t off = r->mmio.phys_addr - GUEST_MMIO;

		if (off % 8 || off / 8 >= sizeof(slot) / sizeof(slot[0])) {
			printf("# MMIO write at %#llx\n",
			       (unsigned long long)r->mmio.phys_addr);
			alarm(0);
			return;
		}
		*slot[off / 8] = off == 16 ? 1 : (int64_t)data;
	}
	alarm(0);
}

struct feature {
	const char *name;
	const char *key; /* its name in --shown */
	uint64_t reg;
	int shift;
	unsigned int want; /* the field's value that claims the feature */
};

static const struct feature features[] = {
	{ "FEAT_HAFT (ID_AA64MMFR1_EL1.HAFDBS=3)", "haft", MMFR1, HAFDBS_SHIFT,
	  3 },
	{ "FEAT_S1PIE (ID_AA64MMFR3_EL1.S1PIE=1)", "s1pie", MMFR3, S1PIE_SHIFT,
	  1 },
	{ "FEAT_S1POE (ID_AA64MMFR3_EL1.S1POE=1)", "s1poe", MMFR3, S1POE_SHIFT,
	  1 },
};

static uint64_t host1, host3;

/* A new VM's value of reg with every feature but f absent */
static uint64_t only(uint64_t reg, const struct feature *f)
{
	uint64_t v = reg == MMFR1 ? host1 : host3;
	size_t i;

	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		const struct feature *g = &features[i];

		if (g != f && g->reg == reg && field(v, g->shift) >= g->want)
			v = with(v, g->shift, g->want - 1);
	}
	return v;
}

/*
 * Claim feature f, and none of the others, with TCRX = 0 in a fresh VM.
 * tcrx_last: write the registers with f and FEAT_TCR2, then clear TCRX;
 * otherwise write them with TCRX = 0 and without f, then raise f.
 * Returns 0 when KVM took the writes, else the errno of the one it
 * refused.
 */
static int claim_without_tcr2(struct vm *vm, const struct feature *f,
			      int tcrx_last)
{
	uint64_t m1 = only(MMFR1, f), m3 = only(MMFR3, f);

	if (tcrx_last) {
		int err = set_reg(vm, MMFR1, m1);

		if (!err)
			err = set_reg(vm, MMFR3, m3);
		if (err)
			return err;
		return set_reg(vm, MMFR3, with(m3, TCRX_SHIFT, 0));
	}
	m3 = with(m3, TCRX_SHIFT, 0);
	int err = set_reg(vm, MMFR1,
			  f->reg == MMFR1 ? with(m1, f->shift, 0) : m1);

	if (!err)
		err = set_reg(vm, MMFR3,
			      f->reg == MMFR3 ? with(m3, f->shift, 0) : m3);
	if (!err)
		err = set_reg(vm, f->reg, f->reg == MMFR1 ? m1 : m3);
	return err;
}

/* Is key an element of the comma-separated list? */
static int listed(const char *list, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = list; p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (!strncmp(p, key, n) && (p[n] == ',' || !p[n]))
			return 1;
	}
	return 0;
}

/* Is every element of the list a feature's key, or the list "none"? */
static int valid_list(const char *list)
{
	const char *p = list;
	size_t i;

	if (!strcmp(list, "none"))
		return 1;
	while (*p) {
		size_t n = strcspn(p, ",");

		for (i = 0; i < sizeof(features) / sizeof(features[0]); i++)
			if (strlen(features[i].key) == n &&
			    !strncmp(p, features[i].key, n))
				break;
		if (i == sizeof(features) / sizeof(features[0]))
			return 0;
		p += n + (p[n] == ',');
	}
	return 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct vm vm;
	size_t i;

	if (argc != 3 || strcmp(argv[1], "--shown") || !valid_list(argv[2])) {
		fprintf(stderr,
			"usage: kvm-idregs --shown haft,s1pie,s1poe|none\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGALRM, &sa, NULL);
	kvm = open("/dev/kvm", O_RDWR);
	if (kvm < 0)
		die("open /dev/kvm");

	vm_create(&vm);
	host1 = get_reg(&vm, MMFR1);
	host3 = get_reg(&vm, MMFR3);
	vm_destroy(&vm);
	printf("# a new VM's ID_AA64MMFR1_EL1 %#llx (HAFDBS %u), ID_AA64MMFR3_EL1 %#llx (TCRX %u S1PIE %u S1POE %u)\n",
	       (unsigned long long)host1, field(host1, HAFDBS_SHIFT),
	       (unsigned long long)host3, field(host3, TCRX_SHIFT),
	       field(host3, S1PIE_SHIFT), field(host3, S1POE_SHIFT));
	result(field(host3, TCRX_SHIFT) >= 1,
	       "a new VM has FEAT_TCR2 (TCRX %u)", field(host3, TCRX_SHIFT));

	/* The positive control: TCRX = 0 with none of the three runs. */
	vm_create(&vm);
	{
		uint64_t m1 = only(MMFR1, NULL);
		uint64_t m3 = with(only(MMFR3, NULL), TCRX_SHIFT, 0);
		int e1 = set_reg(&vm, MMFR1, m1), e3 = set_reg(&vm, MMFR3, m3);
		struct seen s;

		result(!e1 && !e3,
		       "KVM takes TCRX=0 without HAFT, S1PIE and S1POE (%s, %s)",
		       strerror(e1), strerror(e3));
		vm_run(&vm, &s);
		result(s.mmfr1 == (int64_t)m1 && s.mmfr3 == (int64_t)m3,
		       "that guest runs and reads them (MMFR1 %#llx, MMFR3 %#llx)",
		       (unsigned long long)s.mmfr1,
		       (unsigned long long)s.mmfr3);
		result(undef_at_tcr2(&s),
		       "that guest's TCR2_EL1 write is UNDEFINED (ESR %#llx at %#llx)",
		       (unsigned long long)s.esr, (unsigned long long)s.elr);
	}
	vm_destroy(&vm);

	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		const struct feature *f = &features[i];
		uint64_t host = f->reg == MMFR1 ? host1 : host3;
		int shown = listed(argv[2], f->key);
		int order;

		if (field(host, f->shift) < f->want) {
			for (order = 0; order < 2; order++)
				printf("ok %d - %s without FEAT_TCR2, %s # SKIP the host does not have it\n",
				       ++tap_n, f->name,
				       order ? "feature last" : "TCRX last");
			continue;
		}
		for (order = 0; order < 2; order++) {
			const char *how = order ? "feature last" : "TCRX last";
			struct seen s;
			int err;

			vm_create(&vm);
			err = claim_without_tcr2(&vm, f, !order);
			result(!err, "KVM takes %s without FEAT_TCR2, %s (%s)",
			       f->name, how, err ? strerror(err) : "accepted");
			if (err) {
				vm_destroy(&vm);
				continue;
			}
			vm_run(&vm, &s);
			result(s.mmfr1 >= 0 && s.mmfr3 >= 0 &&
				       field(s.mmfr3, TCRX_SHIFT) == 0 &&
				       (field(f->reg == MMFR1 ? s.mmfr1 :
								s.mmfr3,
					      f->shift) >= f->want) == shown,
			       "the guest reads TCRX 0 and %s (MMFR1 %#llx, MMFR3 %#llx)",
			       shown ? "the feature: KVM leaves it" :
				       "no feature: KVM took it away",
			       (unsigned long long)s.mmfr1,
			       (unsigned long long)s.mmfr3);
			result(undef_at_tcr2(&s),
			       "the guest's TCR2_EL1 write is UNDEFINED (ESR %#llx at %#llx)",
			       (unsigned long long)s.esr,
			       (unsigned long long)s.elr);
			vm_destroy(&vm);
		}
	}
	printf("1..%d\n", tap_n);
	return tap_fail ? 1 : 0;
}
#else
int main(void)
{
	puts("1..0 # SKIP arm64 only");
	return 0;
}
#endif
