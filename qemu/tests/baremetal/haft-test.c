// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bare-metal checks of QEMU's FEAT_TCR2 and FEAT_HAFT (qemu/patches).
 *
 * Runs on "-M virt,secure=on,virtualization=on -semihosting", starting at
 * EL3. Builds its own page tables, runs short jobs at EL3, and at EL1 and
 * EL2 through call_lower() (start.S), and looks at what the table walker
 * wrote and which exceptions were taken. Prints TAP lines on the PL011 and
 * exits through semihosting with the number of failed checks.
 *
 * One source, one binary per CPU variant (-DVARIANT=):
 *   0  -cpu max               FEAT_TCR2 and FEAT_HAFT
 *   1  -cpu max,haft=off      FEAT_TCR2 only
 *   2  -cpu max,tcr2=off      neither
 *   3  -cpu max,x-haft-without-tcr2=on
 *                             test-only model: HAFDBS says FEAT_HAFT,
 *                             TCRX says no FEAT_TCR2; behaves as 2
 *   4  -cpu max -smp 2        only the race: CPU 1 updates other bits of
 *                             a table descriptor while CPU 0 walks through
 *                             it; no update of either may be lost
 *   5  -cpu max               only the debug walk: sets up stage 1 and 2
 *                             with HA and HAFT, prints the descriptors and
 *                             waits at EL1; run-tests.sh translates through
 *                             the monitor (a debug access) and checks that
 *                             no descriptor changed
 */
#include <stdbool.h>
#include <stdint.h>

#ifndef VARIANT
#error "build with -DVARIANT=0 (max), 1 (max,haft=off), 2 (max,tcr2=off), 3 (max,x-haft-without-tcr2=on), 4 (max, race), 5 (max, debug walk) or 6 (max, gdbstub)"
#endif
#define HAVE_TCR2	(VARIANT != 2 && VARIANT != 3)
#define HAVE_HAFT	(VARIANT == 0 || VARIANT == 4 || VARIANT == 5 || \
			 VARIANT == 6)
/* What ID_AA64MMFR1_EL1.HAFDBS claims; 3 does not make table AF work. */
#define HAFDBS		(VARIANT == 1 || VARIANT == 2 ? 2 : 3)
static const char *const variant_name[] = {
	"max", "max,haft=off", "max,tcr2=off", "max,x-haft-without-tcr2=on",
	"max -smp 2", "max (debug walk)", "max (gdbstub, mte=on)",
};

/* Registers the assembler may not know by name. */
#define TCR2_EL1		s3_0_c2_c0_3
#define TCR2_EL2		s3_4_c2_c0_3
#define TCR2_EL12		s3_5_c2_c0_3
#define HCRX_EL2		s3_4_c1_c2_2
#define ID_AA64MMFR3_EL1	s3_0_c0_c7_3
#define PIRE0_EL1		s3_0_c10_c2_2
#define PIR_EL1			s3_0_c10_c2_3
#define S2PIR_EL2		s3_4_c10_c2_5
#define ID_AA64PFR1_EL1		s3_0_c0_c4_1

#define str1(x) #x
#define str(x) str1(x)
#define read_sysreg(r) ({ uint64_t v_; \
	asm volatile("mrs %0, " str(r) : "=r"(v_)); v_; })
#define write_sysreg(r, v) \
	asm volatile("msr " str(r) ", %0" : : "r"((uint64_t)(v)) : "memory")
#define isb() asm volatile("isb" : : : "memory")

#define SCR_NS		(1UL << 0)
#define SCR_HCE		(1UL << 8)
#define SCR_RW		(1UL << 10)
#define SCR_EEL2	(1UL << 18)
#define SCR_HXEN	(1UL << 38)
#define SCR_TCR2EN	(1UL << 43)
#define SCR_PIEN	(1UL << 45)
#define HCR_VM		(1UL << 0)
#define HCR_E2H		(1UL << 34)
#define HCR_TRVM	(1UL << 30)
#define HCR_RW		(1UL << 31)
#define HCRX_TCR2EN	(1UL << 14)
#define TCR2_PIE	(1UL << 1)
#define TCR2_AIE	(1UL << 4)
#define TCR2_HAFT	(1UL << 11)
#define TCR2_AMEC	(3UL << 12)
/* What QEMU -cpu max implements of TCR2_ELx: S1PIE, AIE, MEC and HAFT */
#define TCR2_EL1_RW	(TCR2_PIE | TCR2_AIE | (HAVE_HAFT ? TCR2_HAFT : 0))
#define TCR2_EL2_RW	(TCR2_EL1_RW | TCR2_AMEC)
#define SPSR_EL1H	0x3c5UL		/* EL1, SP_EL1, DAIF masked */
#define SPSR_EL2H	0x3c9UL

/*
 * Stage 1 walks: 48-bit VA from TTBR0, 4K granule (4 levels), Normal WB
 * inner shareable walks, 40-bit output. TCR_EL1 disables TTBR1 (EPD1);
 * for TCR_EL2 (E2H 0) bits 31 and 23 are RES1.
 */
#define TCR_WALK	(16UL | (1UL << 8) | (1UL << 10) | (3UL << 12))
#define TCR_EL1_BASE	(TCR_WALK | (1UL << 23) | (2UL << 32))
#define TCR_EL1_HA	(1UL << 39)
#define TCR_EL1_HD	(1UL << 40)
#define TCR_EL2_BASE	(TCR_WALK | (2UL << 16) | (1UL << 23) | (1UL << 31))
#define TCR_EL2_HA	(1UL << 21)
/* TCR_EL3 has the TCR_EL2 (E2H 0) layout; HAFT is bit 42 */
#define TCR_EL3_HA	(1UL << 21)
#define TCR_EL3_HAFT	(1UL << 42)
#define MAIR_VALUE	0x00ffUL	/* Attr0 Normal WB, Attr1 Device */
#define SCTLR_EL1_OFF	0x30d00800UL	/* RES1 bits only */
#define SCTLR_EL2_OFF	0x30c50830UL
#define SCTLR_M		(1UL << 0)

/* Descriptors */
#define D_TABLE		3UL
#define D_BLOCK		1UL
#define D_PAGE		3UL
#define D_NORMAL	((0UL << 2) | (3UL << 8))	/* Attr0, inner shareable */
#define D_DEVICE	(1UL << 2)			/* Attr1 */
#define AF_SHIFT	10
#define AF		(1UL << AF_SHIFT)

/*
 * The tables. l0[0] -> l1_id maps the first 2 GiB flat for code, data,
 * stacks and the UART. The test VA has its own branch, l0[1] -> l1_t ->
 * l2_t -> l3_t; l0[2], l1_t[1] and l2_t[1] point to tables no walk uses.
 */
#define PT __attribute__((aligned(4096)))
static uint64_t l0[512] PT, l1_id[512] PT;
static uint64_t l1_t[512] PT, l2_t[512] PT, l3_t[512] PT;
static uint64_t l1_u[512] PT, l2_u[512] PT, l3_u[512] PT;
static uint64_t data_page[2][512] PT;

/*
 * Stage 2 for one check: the first 2 GiB of IPA map flat, and the page
 * holding l2_t is read-only, so the walker cannot write its descriptors.
 */
static uint64_t s2_l1[512] PT, s2_l2[512] PT, s2_l3[512] PT;
/* 39-bit IPA from level 1, 4K granule, WB inner shareable walks, 40-bit PA */
#define VTCR_VALUE	(25UL | (1UL << 6) | (1UL << 8) | (1UL << 10) | \
			 (3UL << 12) | (2UL << 16) | (1UL << 31))
#define S2_NORMAL	((0xfUL << 2) | (3UL << 8))	/* WB, inner shareable */
#define S2_DEVICE	(0x1UL << 2)			/* Device-nGnRE */
#define S2_RW		(3UL << 6)
#define S2_RO		(1UL << 6)
#define VTCR_HA		(1UL << 21)
#define VTCR_HAFT	(1UL << 44)
#define VTCR_HD		(1UL << 22)
#define VTCR_S2PIE	(1UL << 36)

/*
 * Stage 2 HAFT: IPA 0x80000000 (S2 L1[2]) has its own branch,
 * s2_l1[2] -> s2h_l2[0] -> s2h_l3[0] -> data_page[0]; s2h_l2[1] -> s2h_l3u
 * is a neighbour no walk uses. With stage 1 off, an EL1 read of that
 * address walks only this branch at stage 2.
 */
static uint64_t s2h_l2[512] PT, s2h_l3[512] PT, s2h_l3u[512] PT;
#define S2_TEST_IPA	0x80000000UL

#define TEST_VA		0x8000000000UL		/* L0[1] L1[0] L2[0] L3[0] */
#define TEST_VA_BLOCK	(TEST_VA + 0x400000UL)	/* L2[2]: 2 MiB block */
#define BLOCK_PA	0x47e00000UL		/* last 2 MiB of 128 MiB RAM */

/* Exceptions taken while a job runs, recorded by exc_handler(). */
struct exc {
	int el;
	uint64_t esr, far, hpfar;
};
static volatile int nexc;
static struct exc excs[4];

#define ESR_EC(esr)	((unsigned)((esr) >> 26) & 0x3f)
#define ESR_ISS(esr)	((esr) & 0x1ffffff)
#define EC_UNKNOWN	0x00
#define EC_SYSREG	0x18
#define EC_DABT_LOW	0x24
#define EC_DABT_CUR	0x25
#define ISS_DABT_MASK	0xbfU	/* S1PTW and DFSC */
#define ISS_S1PTW	0x80U
#define DFSC_AF_L3	0x0b	/* Access flag fault, level 3 */
#define DFSC_TRANS_L0	0x04	/* Translation fault, level 0 */
#define DFSC_TRANS_L3	0x07	/* Translation fault, level 3 */
#define DFSC_PERM	0x0c	/* Permission fault, level in bits [1:0] */
#define DFSC_LEVEL_MASK	0x03U
/* ISS of a trapped MRS/MSR, without Rt: Op0 Op2 Op1 CRn CRm Dir(1 = read) */
#define ISS_SYSREG(op1, crn, crm, op2, rd) \
	((3U << 20) | ((op2) << 17) | ((op1) << 14) | ((crn) << 10) | \
	 ((crm) << 1) | (rd))
#define ISS_RT_MASK	(0x1fU << 5)
#define ISS_TCR2_EL1(rd)	ISS_SYSREG(0, 2, 0, 3, rd)
#define ISS_TCR2_EL2(rd)	ISS_SYSREG(4, 2, 0, 3, rd)

uint64_t call_lower(uint64_t (*fn)(uint64_t), uint64_t arg, uint64_t spsr);
void exc_handler(int el, uint64_t *regs);
void unexpected_exception(int el, int kind);
void semihost_exit(int code);
int main(void);

/* GCC may call these even in freestanding code. */
void *memcpy(void *dst, const void *src, unsigned long n);
void *memset(void *dst, int c, unsigned long n);

void *memcpy(void *dst, const void *src, unsigned long n)
{
	char *d = dst;
	const char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memset(void *dst, int c, unsigned long n)
{
	char *d = dst;

	while (n--)
		*d++ = c;
	return dst;
}

/* Output: PL011 data register; QEMU's FIFO never fills. */
static void putch(char c)
{
	*(volatile uint32_t *)0x09000000UL = (uint8_t)c;
}

static void puts_(const char *s)
{
	while (*s)
		putch(*s++);
}

static void puthex(uint64_t v)
{
	int i = 60;

	puts_("0x");
	while (i > 0 && !(v >> i))
		i -= 4;
	for (; i >= 0; i -= 4)
		putch("0123456789abcdef"[(v >> i) & 0xf]);
}

void semihost_exit(int code)
{
	/* SYS_EXIT with ADP_Stopped_ApplicationExit and the exit code */
	uint64_t block[2] = { 0x20026, (uint64_t)code };
	register uint64_t x0 asm("x0") = 0x18;
	register uint64_t x1 asm("x1") = (uint64_t)block;

	asm volatile("hlt #0xf000" : : "r"(x0), "r"(x1) : "memory");
	for (;;)
		;
}

static void bail_out(const char *why, int el, uint64_t esr, uint64_t elr)
{
	puts_("Bail out! ");
	puts_(why);
	puts_(" at EL");
	putch('0' + el);
	puts_(", ESR ");
	puthex(esr);
	puts_(", ELR ");
	puthex(elr);
	putch('\n');
	semihost_exit(100);
}

void unexpected_exception(int el, int kind)
{
	bail_out("asynchronous or AArch32 exception (vector entry in ESR)",
		 el, kind, 0);
}

void exc_handler(int el, uint64_t *regs)
{
	uint64_t esr, elr, far, hpfar = 0;

	(void)regs;
	if (el == 3) {
		esr = read_sysreg(esr_el3);
		elr = read_sysreg(elr_el3);
		far = read_sysreg(far_el3);
	} else if (el == 2) {
		esr = read_sysreg(esr_el2);
		elr = read_sysreg(elr_el2);
		far = read_sysreg(far_el2);
		hpfar = read_sysreg(hpfar_el2);
	} else {
		esr = read_sysreg(esr_el1);
		elr = read_sysreg(elr_el1);
		far = read_sysreg(far_el1);
	}
	/* An instruction abort or a fault storm means the test is broken. */
	if (ESR_EC(esr) == 0x20 || ESR_EC(esr) == 0x21 || nexc >= 16)
		bail_out("unexpected exception", el, esr, elr);
	if (nexc < 4)
		excs[nexc] = (struct exc){ .el = el, .esr = esr, .far = far,
					   .hpfar = hpfar };
	nexc++;

	/* Resume after the trapped or faulting instruction. */
	if (el == 3)
		write_sysreg(elr_el3, elr + 4);
	else if (el == 2)
		write_sysreg(elr_el2, elr + 4);
	else
		write_sysreg(elr_el1, elr + 4);
}

/* TAP */
static int nfail;

static void result(bool ok, const char *what)
{
	puts_(ok ? "ok - " : "not ok - ");
	puts_(variant_name[VARIANT]);
	puts_(": ");
	puts_(what);
	if (!ok)
		nfail++;
}

static void check_eq(const char *what, uint64_t expected, uint64_t seen)
{
	result(expected == seen, what);
	if (expected != seen) {
		puts_(": expected ");
		puthex(expected);
		puts_(", seen ");
		puthex(seen);
	}
	putch('\n');
}

static void put_exc(int el, unsigned ec, uint64_t iss)
{
	if (!el) {
		puts_("no exception");
		return;
	}
	puts_("EL");
	putch('0' + el);
	puts_(" EC ");
	puthex(ec);
	puts_(" ISS ");
	puthex(iss);
}

/*
 * Check the single exception (want_el 0: none) the last job took. Only
 * S1PTW and the fault status code of a Data Abort ISS are compared, and
 * Rt is masked out of the ISS of a trapped MRS/MSR.
 */
static void check_exc_masked(const char *what, int want_el, unsigned want_ec,
			     uint64_t want_iss, uint64_t dabt_mask)
{
	int el = nexc ? excs[0].el : 0;
	unsigned ec = nexc ? ESR_EC(excs[0].esr) : 0;
	uint64_t iss = nexc ? ESR_ISS(excs[0].esr) : 0;
	bool ok;

	if (ec == EC_SYSREG)
		iss &= ~(uint64_t)ISS_RT_MASK;
	if (ec == EC_DABT_CUR || ec == EC_DABT_LOW)
		iss &= dabt_mask;
	ok = nexc <= 1 && el == want_el &&
	     (!want_el || (ec == want_ec && iss == want_iss));
	result(ok, what);
	if (!ok) {
		puts_(": expected ");
		put_exc(want_el, want_ec, want_iss);
		puts_(", seen ");
		put_exc(el, ec, iss);
		if (nexc > 1)
			puts_(" and more");
	}
	putch('\n');
}

static void check_exc(const char *what, int want_el, unsigned want_ec,
		      uint64_t want_iss)
{
	check_exc_masked(what, want_el, want_ec, want_iss, ISS_DABT_MASK);
}

/* AF of descriptors, one hex digit each, first argument leftmost. */
static uint64_t afs(int n, const uint64_t *const d[])
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = (v << 4) | ((*d[i] >> AF_SHIFT) & 1);
	return v;
}

/* The table descriptors a walk of TEST_VA uses: L0, L1, L2 */
static uint64_t table_afs(void)
{
	const uint64_t *const d[] = { &l0[1], &l1_t[0], &l2_t[0] };

	return afs(3, d);
}

/* Descriptors next to them that no walk here uses: L0, L1, L2, L3 */
static uint64_t unused_afs(void)
{
	const uint64_t *const d[] = { &l0[2], &l1_t[1], &l2_t[1], &l3_t[1] };

	return afs(4, d);
}

#define TABLES_SET	(HAVE_HAFT ? 0x111UL : 0)

static void build_tables(void)
{
	static uint64_t *const all[] = { l0, l1_id, l1_t, l2_t, l3_t,
					 l1_u, l2_u, l3_u };

	for (unsigned t = 0; t < sizeof(all) / sizeof(all[0]); t++)
		for (int i = 0; i < 512; i++)
			all[t][i] = 0;
	l0[0] = (uint64_t)l1_id | D_TABLE | AF;		/* code and data */
	l0[1] = (uint64_t)l1_t | D_TABLE;
	l0[2] = (uint64_t)l1_u | D_TABLE;
	l1_id[0] = 0x00000000UL | D_BLOCK | D_DEVICE | AF;
	l1_id[1] = 0x40000000UL | D_BLOCK | D_NORMAL | AF;
	l1_t[0] = (uint64_t)l2_t | D_TABLE;
	l1_t[1] = (uint64_t)l2_u | D_TABLE;
	l2_t[0] = (uint64_t)l3_t | D_TABLE;
	l2_t[1] = (uint64_t)l3_u | D_TABLE;
	l2_t[2] = BLOCK_PA | D_BLOCK | D_NORMAL;		/* AF clear */
	l3_t[0] = (uint64_t)data_page[0] | D_PAGE | D_NORMAL;	/* AF clear */
	l3_t[1] = (uint64_t)data_page[1] | D_PAGE | D_NORMAL;
}

static void build_stage2(void)
{
	uint64_t ro = (uint64_t)l2_t;

	for (int i = 0; i < 512; i++) {
		uint64_t blk = 0x40000000UL + ((uint64_t)i << 21);
		uint64_t pg = (ro & ~0x1fffffUL) + ((uint64_t)i << 12);

		s2_l1[i] = 0;
		s2_l2[i] = blk | D_BLOCK | S2_NORMAL | S2_RW | AF;
		s2_l3[i] = pg | D_PAGE | S2_NORMAL | AF |
			   (pg == ro ? S2_RO : S2_RW);
	}
	s2_l1[0] = 0x00000000UL | D_BLOCK | S2_DEVICE | S2_RW | AF;
	s2_l1[1] = (uint64_t)s2_l2 | D_TABLE;
	s2_l2[(ro - 0x40000000UL) >> 21] = (uint64_t)s2_l3 | D_TABLE;
	write_sysreg(vtcr_el2, VTCR_VALUE);
	write_sysreg(vttbr_el2, (uint64_t)s2_l1);
}

/*
 * What a job does: with these controls, read the VA once (or translate it
 * with AT S1E1R / AT S12E1R and return PAR_EL1).
 */
struct job {
	uint64_t tcr, tcr2;
	bool set_tcr2;		/* write tcr2 to TCR2_ELx from the job's EL */
	bool s1_off;		/* EL1: leave stage 1 off (stage 2 only) */
	bool at;		/* AT S1E1R (EL1) or AT S12E1R (EL2) */
	int access;		/* EL1: ACCESS_LOAD, _LOAD_STORE or _STORE */
	uint64_t va;
};
#define ACCESS_LOAD		0
#define ACCESS_LOAD_STORE	1
#define ACCESS_STORE		2
static struct job job;

static uint64_t el1_job(uint64_t arg)
{
	struct job *j = (struct job *)arg;
	uint64_t par = 0;

	write_sysreg(mair_el1, MAIR_VALUE);
	write_sysreg(tcr_el1, j->tcr);
	write_sysreg(ttbr0_el1, (uint64_t)l0);
	if (j->set_tcr2)
		write_sysreg(TCR2_EL1, j->tcr2);
	asm volatile("isb; tlbi vmalle1; dsb nsh; isb" : : : "memory");
	if (!j->s1_off) {
		write_sysreg(sctlr_el1, SCTLR_EL1_OFF | SCTLR_M);
		isb();
	}
	if (j->at) {
		asm volatile("at s1e1r, %0; isb" : : "r"(j->va) : "memory");
		par = read_sysreg(par_el1);
	} else {
		if (j->access != ACCESS_STORE)
			(void)*(volatile uint64_t *)j->va;
		if (j->access != ACCESS_LOAD)
			*(volatile uint64_t *)j->va = 1;
	}
	write_sysreg(sctlr_el1, SCTLR_EL1_OFF);
	isb();
	return par;
}

/*
 * The EL2 regime, or with HCR_EL2.E2H set (SCTLR_EL2 and TCR_EL2 then
 * have the EL1 layouts) the EL2&0 regime. With E2H, TCR2_EL2 is written
 * through the TCR2_EL1 encoding, which FEAT_VHE redirects to it.
 */
static uint64_t el2_job(uint64_t arg)
{
	struct job *j = (struct job *)arg;
	bool e2h = read_sysreg(hcr_el2) & HCR_E2H;
	uint64_t sctlr = e2h ? SCTLR_EL1_OFF : SCTLR_EL2_OFF;

	write_sysreg(mair_el2, MAIR_VALUE);
	write_sysreg(tcr_el2, j->tcr);
	write_sysreg(ttbr0_el2, (uint64_t)l0);
	if (j->set_tcr2 && e2h)
		write_sysreg(TCR2_EL1, j->tcr2);
	else if (j->set_tcr2)
		write_sysreg(TCR2_EL2, j->tcr2);
	asm volatile("isb; tlbi alle2; dsb nsh; isb" : : : "memory");
	write_sysreg(sctlr_el2, sctlr | SCTLR_M);
	isb();
	(void)*(volatile uint64_t *)j->va;
	write_sysreg(sctlr_el2, sctlr);
	isb();
	return 0;
}

/* AT S12E1R of j->va at EL2 (stage 1 of EL1&0 off, stage 2 on). */
static uint64_t el2_at_job(uint64_t arg)
{
	struct job *j = (struct job *)arg;

	asm volatile("tlbi alle1; dsb nsh; isb; at s12e1r, %0; isb"
		     : : "r"(j->va) : "memory");
	return read_sysreg(par_el1);
}

/* The trap controls of EL3 and EL2 for what runs below them. */
/* SCR_EL3 bits a check adds to what controls() writes (SCR_PIEN). */
static uint64_t scr_extra;
/* Run below EL3 in Secure state (SCR_EL3.NS 0, EEL2 1) instead. */
static bool secure_below;

static void controls(bool scr_tcr2en, bool hcrx_tcr2en, uint64_t hcr)
{
	write_sysreg(scr_el3, (secure_below ? SCR_EEL2 : SCR_NS) | SCR_HCE |
		     SCR_RW | SCR_HXEN | scr_extra |
		     (scr_tcr2en ? SCR_TCR2EN : 0));
	write_sysreg(hcr_el2, HCR_RW | hcr);
	write_sysreg(HCRX_EL2, hcrx_tcr2en ? HCRX_TCR2EN : 0);
	isb();
}

/* Run the job set up in 'job' below EL3, after invalidating the TLB. */
static uint64_t run_job(uint64_t (*fn)(uint64_t), uint64_t spsr)
{
	nexc = 0;
	asm volatile("tlbi alle1; dsb sy; isb" : : : "memory");
	return call_lower(fn, (uint64_t)&job, spsr);
}

static void run_el1(uint64_t tcr, uint64_t tcr2, bool set_tcr2, uint64_t va)
{
	job = (struct job){ .tcr = tcr, .tcr2 = tcr2,
			    .set_tcr2 = set_tcr2 && HAVE_TCR2, .va = va };
	run_job(el1_job, SPSR_EL1H);
}

static uint64_t el_read_tcr2_el1(uint64_t unused)
{
	uint64_t v = 0x5a5a;

	(void)unused;
	asm volatile("mrs %0, " str(TCR2_EL1) : "+r"(v));
	return v;
}

static uint64_t el_write_tcr2_el1(uint64_t v)
{
	write_sysreg(TCR2_EL1, v);
	return 0;
}

static uint64_t el_read_tcr2_el2(uint64_t unused)
{
	uint64_t v = 0x5a5a;

	(void)unused;
	asm volatile("mrs %0, " str(TCR2_EL2) : "+r"(v));
	return v;
}

static uint64_t lower(uint64_t (*fn)(uint64_t), uint64_t arg, uint64_t spsr)
{
	nexc = 0;
	return call_lower(fn, arg, spsr);
}

/* Who may access TCR2_ELx (FEAT_TCR2 present). */
static void test_tcr2_access(void)
{
	uint64_t v;

	controls(true, true, 0);
	nexc = 0;
	check_eq("TCR2_EL1 resets to 0", 0, read_sysreg(TCR2_EL1));
	check_eq("TCR2_EL2 resets to 0", 0, read_sysreg(TCR2_EL2));
	write_sysreg(TCR2_EL1, ~0UL);
	check_eq("TCR2_EL1 keeps PIE, AIE and HAFT (bit 11, if FEAT_HAFT), "
		 "other bits RES0", TCR2_EL1_RW, read_sysreg(TCR2_EL1));
	write_sysreg(TCR2_EL1, 0);
	write_sysreg(TCR2_EL2, ~0UL);
	check_eq("TCR2_EL2 keeps PIE, AIE, AMEC0/1 and HAFT (if FEAT_HAFT), "
		 "other bits RES0", TCR2_EL2_RW, read_sysreg(TCR2_EL2));
	write_sysreg(TCR2_EL2, 0);
	check_exc("EL3 reads and writes TCR2_EL1 and TCR2_EL2", 0, 0, 0);

	write_sysreg(TCR2_EL1, TCR2_HAFT);
	v = lower(el_read_tcr2_el1, 0, SPSR_EL1H);
	check_exc("EL1 reads TCR2_EL1 when SCR_EL3.TCR2En=1 and HCRX_EL2.TCR2En=1",
		  0, 0, 0);
	check_eq("EL1 reads back what EL3 wrote to TCR2_EL1",
		 HAVE_HAFT ? TCR2_HAFT : 0, v);
	write_sysreg(TCR2_EL1, 0);
	lower(el_write_tcr2_el1, TCR2_HAFT, SPSR_EL1H);
	check_exc("EL1 writes TCR2_EL1 when both enables are 1", 0, 0, 0);
	if (HAVE_HAFT)	/* else no bit of TCR2_EL1 is writable */
		check_eq("EL1 write reaches TCR2_EL1", TCR2_HAFT,
			 read_sysreg(TCR2_EL1));
	write_sysreg(TCR2_EL1, TCR2_HAFT);

	controls(false, true, 0);
	lower(el_read_tcr2_el1, 0, SPSR_EL1H);
	check_exc("SCR_EL3.TCR2En=0 traps EL1 reads of TCR2_EL1 to EL3",
		  3, EC_SYSREG, ISS_TCR2_EL1(1));
	lower(el_write_tcr2_el1, 0, SPSR_EL1H);
	check_exc("SCR_EL3.TCR2En=0 traps EL1 writes of TCR2_EL1 to EL3",
		  3, EC_SYSREG, ISS_TCR2_EL1(0));
	check_eq("a trapped write leaves TCR2_EL1 alone",
		 HAVE_HAFT ? TCR2_HAFT : 0, read_sysreg(TCR2_EL1));
	write_sysreg(TCR2_EL1, 0);

	controls(true, false, 0);
	lower(el_read_tcr2_el1, 0, SPSR_EL1H);
	check_exc("HCRX_EL2.TCR2En=0 traps EL1 reads of TCR2_EL1 to EL2",
		  2, EC_SYSREG, ISS_TCR2_EL1(1));
	lower(el_write_tcr2_el1, TCR2_HAFT, SPSR_EL1H);
	check_exc("HCRX_EL2.TCR2En=0 traps EL1 writes of TCR2_EL1 to EL2",
		  2, EC_SYSREG, ISS_TCR2_EL1(0));

	controls(false, false, 0);
	lower(el_read_tcr2_el1, 0, SPSR_EL1H);
	check_exc("with both enables 0 the EL2 trap wins",
		  2, EC_SYSREG, ISS_TCR2_EL1(1));

	controls(false, true, HCR_TRVM);
	lower(el_read_tcr2_el1, 0, SPSR_EL1H);
	check_exc("HCR_EL2.TRVM traps EL1 reads of TCR2_EL1 to EL2 first",
		  2, EC_SYSREG, ISS_TCR2_EL1(1));

	controls(true, false, 0);
	lower(el_read_tcr2_el1, 0, SPSR_EL2H);
	check_exc("HCRX_EL2.TCR2En does not trap EL2 reads of TCR2_EL1",
		  0, 0, 0);
	lower(el_read_tcr2_el2, 0, SPSR_EL2H);
	check_exc("EL2 reads TCR2_EL2 when SCR_EL3.TCR2En=1", 0, 0, 0);

	controls(false, false, 0);
	lower(el_read_tcr2_el1, 0, SPSR_EL2H);
	check_exc("SCR_EL3.TCR2En=0 traps EL2 reads of TCR2_EL1 to EL3",
		  3, EC_SYSREG, ISS_TCR2_EL1(1));
	lower(el_read_tcr2_el2, 0, SPSR_EL2H);
	check_exc("SCR_EL3.TCR2En=0 traps EL2 reads of TCR2_EL2 to EL3",
		  3, EC_SYSREG, ISS_TCR2_EL2(1));
}

/* The table walker (any variant: without HAFT nothing may change). */
static void test_walks(void)
{
	const uint64_t ha = TCR_EL1_BASE | TCR_EL1_HA;
	uint64_t leaf_iss;

	controls(true, true, 0);

	build_tables();
	run_el1(ha, TCR2_HAFT, true, TEST_VA);
	check_exc("HA=1 HAFT=1: the read takes no fault", 0, 0, 0);
	check_eq("HA=1 HAFT=1: AF set in the L0 L1 L2 table descriptors walked",
		 TABLES_SET, table_afs());
	check_eq("HA=1 HAFT=1: AF set in the L3 page descriptor", 1,
		 l3_t[0] >> AF_SHIFT & 1);
	check_eq("HA=1 HAFT=1: L0 L1 L2 L3 descriptors not walked keep AF clear",
		 0, unused_afs());

	l0[1] &= ~AF;
	l1_t[0] &= ~AF;
	l2_t[0] &= ~AF;
	l3_t[0] &= ~AF;
	run_el1(ha, TCR2_HAFT, true, TEST_VA);
	check_eq("HA=1 HAFT=1: table AF set again after software cleared it "
		 "and invalidated the TLB", TABLES_SET, table_afs());

	build_tables();
	run_el1(ha, TCR2_HAFT, true, TEST_VA_BLOCK);
	check_eq("HA=1 HAFT=1: 2 MiB block: AF set in L0 L1 tables, block, "
		 "not in the L2 table beside it",
		 (HAVE_HAFT ? 0x1100UL : 0) | 0x10,
		 afs(4, (const uint64_t *const[]){ &l0[1], &l1_t[0],
						    &l2_t[2], &l2_t[0] }));

	build_tables();
	run_el1(ha, 0, true, TEST_VA);
	check_eq("HA=1 HAFT=0: no table AF set", 0, table_afs());
	check_eq("HA=1 HAFT=0: page AF set (FEAT_HAFDBS as before)", 1,
		 l3_t[0] >> AF_SHIFT & 1);

	build_tables();
	run_el1(TCR_EL1_BASE, TCR2_HAFT, true, TEST_VA);
	check_eq("HA=0 HAFT=1: no table AF set (HAFT needs HA)", 0,
		 table_afs());
	check_exc("HA=0 HAFT=1: Access flag fault on the page, at EL1",
		  1, EC_DABT_CUR, DFSC_AF_L3);
	check_eq("HA=0 HAFT=1: page AF still clear", 0,
		 l3_t[0] >> AF_SHIFT & 1);

	build_tables();
	run_el1(TCR_EL1_BASE, 0, true, TEST_VA);
	check_exc("HA=0 HAFT=0: Access flag fault on the page, at EL1",
		  1, EC_DABT_CUR, DFSC_AF_L3);
	check_eq("HA=0 HAFT=0: no AF set anywhere", 0,
		 (table_afs() << 4) | (l3_t[0] >> AF_SHIFT & 1));

	/*
	 * A table descriptor the walker cannot write (read-only at stage 2)
	 * must fault as a leaf descriptor update does: a stage 2 Permission
	 * fault on the stage 1 walk (S1PTW), taken to EL2. First the leaf
	 * case, the 2 MiB block descriptor in the same read-only page
	 * (FEAT_HAFDBS, unchanged). The fault level is not compared with a
	 * constant: QEMU 7.2 reports the level of the stage 1 descriptor
	 * there (see qemu/README.md), the same for both.
	 */
	build_tables();
	build_stage2();
	controls(true, true, HCR_VM);
	l0[1] |= AF;
	l1_t[0] |= AF;
	run_el1(ha, 0, true, TEST_VA_BLOCK);
	check_exc_masked("HA=1, block descriptor read-only at stage 2: "
			 "Permission fault on the walk (S1PTW), at EL2",
			 2, EC_DABT_LOW, ISS_S1PTW | DFSC_PERM,
			 ISS_DABT_MASK & ~DFSC_LEVEL_MASK);
	leaf_iss = nexc ? ESR_ISS(excs[0].esr) & ISS_DABT_MASK : 0;

	build_tables();
	run_el1(ha, TCR2_HAFT, true, TEST_VA);
	if (HAVE_HAFT) {
		check_exc("HA=1 HAFT=1, L2 table read-only at stage 2: the "
			  "same fault as for the block", 2, EC_DABT_LOW,
			  leaf_iss);
		check_eq("... reported for the IPA of the L2 table (HPFAR_EL2)",
			 (uint64_t)l2_t >> 12 << 4, nexc ? excs[0].hpfar : 0);
		check_eq("... after setting AF in the L0 L1 tables before it",
			 0x110, table_afs());
	} else {
		check_exc("HA=1, L2 table read-only at stage 2: no fault "
			  "(nothing to write)", 0, 0, 0);
	}
	build_tables();
	l0[1] |= AF;
	l1_t[0] |= AF;
	l2_t[0] |= AF;
	run_el1(ha, TCR2_HAFT, true, TEST_VA);
	check_exc("HA=1 HAFT=1, L2 table read-only at stage 2, table AF "
		  "already set: no fault", 0, 0, 0);
	check_eq("... and the page AF is set", 1, l3_t[0] >> AF_SHIFT & 1);
	controls(true, true, 0);

	/*
	 * TCR2_EL1 written by EL3; the enables decide whether it counts.
	 * (Without FEAT_HAFT there is nothing that could count.)
	 */
	if (!HAVE_HAFT)
		return;
	write_sysreg(TCR2_EL1, TCR2_HAFT);
	build_tables();
	controls(true, false, 0);
	run_el1(ha, 0, false, TEST_VA);
	check_eq("HCRX_EL2.TCR2En=0: TCR2_EL1.HAFT ignored, no table AF set",
		 0, table_afs());

	build_tables();
	controls(false, true, 0);
	run_el1(ha, 0, false, TEST_VA);
	check_eq("SCR_EL3.TCR2En=0: TCR2_EL1.HAFT ignored, no table AF set",
		 0, table_afs());

	build_tables();
	controls(true, true, 0);
	run_el1(ha, 0, false, TEST_VA);
	check_eq("both enables 1: the same TCR2_EL1 value sets table AF",
		 TABLES_SET, table_afs());
	write_sysreg(TCR2_EL1, 0);
}

/* The EL2 regime, controlled by TCR_EL2.HA and TCR2_EL2.HAFT */
static void test_el2_walks(void)
{
	controls(true, true, 0);
	build_tables();
	job = (struct job){ .tcr = TCR_EL2_BASE | TCR_EL2_HA,
			    .tcr2 = TCR2_HAFT, .set_tcr2 = true,
			    .va = TEST_VA };
	lower(el2_job, (uint64_t)&job, SPSR_EL2H);
	check_exc("EL2 regime HA=1 HAFT=1: the read takes no fault", 0, 0, 0);
	check_eq("EL2 regime HA=1 HAFT=1: AF set in the tables walked",
		 TABLES_SET, table_afs());

	build_tables();
	job.tcr2 = 0;
	lower(el2_job, (uint64_t)&job, SPSR_EL2H);
	check_eq("EL2 regime HA=1 HAFT=0: no table AF set", 0, table_afs());
	check_eq("EL2 regime HA=1 HAFT=0: page AF set", 1,
		 l3_t[0] >> AF_SHIFT & 1);

	/* TCR2_EL2 written by EL3; only SCR_EL3.TCR2En gates it at EL2. */
	write_sysreg(TCR2_EL2, TCR2_HAFT);
	job = (struct job){ .tcr = TCR_EL2_BASE | TCR_EL2_HA, .va = TEST_VA };
	build_tables();
	controls(false, true, 0);
	lower(el2_job, (uint64_t)&job, SPSR_EL2H);
	check_eq("EL2 regime, SCR_EL3.TCR2En=0: TCR2_EL2.HAFT ignored",
		 0, table_afs());
	build_tables();
	controls(true, false, 0);
	lower(el2_job, (uint64_t)&job, SPSR_EL2H);
	check_eq("EL2 regime, HCRX_EL2.TCR2En=0: TCR2_EL2.HAFT still used",
		 TABLES_SET, table_afs());
	write_sysreg(TCR2_EL2, 0);
	controls(true, true, 0);
}

/*
 * A walk that faults below the tables: L3_t[0] invalid. Table AF is set
 * as each table descriptor is used, before the next level is read, so the
 * L0-L2 updates stay made although the walk ends in a Translation fault
 * (qemu/README.md: "Rules").
 */
static void test_fault_below(void)
{
	controls(true, true, 0);
	build_tables();
	l3_t[0] = 0;
	run_el1(TCR_EL1_BASE | TCR_EL1_HA, TCR2_HAFT, true, TEST_VA);
	check_exc("HA=1 HAFT=1, L3 descriptor invalid: Translation fault, "
		  "level 3, at EL1", 1, EC_DABT_CUR, DFSC_TRANS_L3);
	check_eq("HA=1 HAFT=1, L3 descriptor invalid: AF still set in the "
		 "L0 L1 L2 tables walked", TABLES_SET, table_afs());
}

/*
 * AT instructions: with table AF management on, an address translation
 * instruction must set AF in every table descriptor its walk uses
 * (R_FBZPR); only the leaf Access flag is optional for AT, and QEMU does
 * not set that one.
 */
static void test_at(void)
{
	uint64_t par;

	controls(true, true, 0);
	build_tables();
	job = (struct job){ .tcr = TCR_EL1_BASE | TCR_EL1_HA,
			    .tcr2 = TCR2_HAFT, .set_tcr2 = HAVE_TCR2,
			    .at = true, .va = TEST_VA };
	par = lower(el1_job, (uint64_t)&job, SPSR_EL1H);
	check_eq("AT S1E1R, HA=1 HAFT=1: PAR_EL1.F 0 and the page's PA",
		 (uint64_t)data_page[0], par & 0xfffffffff001UL);
	check_eq("AT S1E1R, HA=1 HAFT=1: AF set in the L0 L1 L2 table "
		 "descriptors walked (R_FBZPR)", TABLES_SET, table_afs());
	check_eq("AT S1E1R, HA=1 HAFT=1: page AF not set (optional for AT; "
		 "QEMU does not)", 0, l3_t[0] >> AF_SHIFT & 1);
	check_eq("AT S1E1R, HA=1 HAFT=1: descriptors not walked keep AF clear",
		 0, unused_afs());
}

/* The EL3 regime: TCR_EL3.HA and TCR_EL3.HAFT (bit 42) */
static void el3_walk(uint64_t tcr, uint64_t va)
{
	uint64_t sctlr = read_sysreg(sctlr_el3) & ~SCTLR_M;

	write_sysreg(mair_el3, MAIR_VALUE);
	write_sysreg(tcr_el3, tcr);
	write_sysreg(ttbr0_el3, (uint64_t)l0);
	asm volatile("isb; tlbi alle3; dsb nsh; isb" : : : "memory");
	nexc = 0;
	write_sysreg(sctlr_el3, sctlr | SCTLR_M);
	isb();
	(void)*(volatile uint64_t *)va;
	write_sysreg(sctlr_el3, sctlr);
	isb();
}

static void test_el3_walks(void)
{
	const uint64_t base = TCR_EL2_BASE | TCR_EL3_HA;

	build_tables();
	el3_walk(base | TCR_EL3_HAFT, TEST_VA);
	check_exc("EL3 regime HA=1 HAFT=1: the read takes no fault", 0, 0, 0);
	check_eq("EL3 regime HA=1 HAFT=1: AF set in the tables walked",
		 TABLES_SET, table_afs());
	check_eq("EL3 regime HA=1 HAFT=1: descriptors not walked keep AF "
		 "clear", 0, unused_afs());

	build_tables();
	el3_walk(base, TEST_VA);
	check_eq("EL3 regime HA=1 HAFT=0: no table AF set", 0, table_afs());
	check_eq("EL3 regime HA=1 HAFT=0: page AF set", 1,
		 l3_t[0] >> AF_SHIFT & 1);

	build_tables();
	l3_t[0] |= AF;
	el3_walk(TCR_EL2_BASE | TCR_EL3_HAFT, TEST_VA);
	check_eq("EL3 regime HA=0 HAFT=1: no table AF set (HAFT needs HA)",
		 0, table_afs());
	write_sysreg(tcr_el3, 0);
}

/* The EL2&0 regime (HCR_EL2.E2H=1), and TCR2_EL12 */
static uint64_t el2_write_tcr2_el12(uint64_t v)
{
	write_sysreg(TCR2_EL12, v);
	return 0;
}

static void test_e2h(void)
{
	controls(true, true, HCR_E2H);
	write_sysreg(TCR2_EL1, 0);
	write_sysreg(TCR2_EL2, 0);
	lower(el2_write_tcr2_el12, TCR2_HAFT, SPSR_EL2H);
	check_exc("E2H=1: EL2 writes TCR2_EL12", 0, 0, 0);
	check_eq("E2H=1: TCR2_EL12 at EL2 reaches TCR2_EL1, not TCR2_EL2",
		 HAVE_HAFT ? TCR2_HAFT << 16 : 0,
		 read_sysreg(TCR2_EL1) << 16 | read_sysreg(TCR2_EL2));
	write_sysreg(TCR2_EL1, 0);

	build_tables();
	job = (struct job){ .tcr = TCR_EL1_BASE | TCR_EL1_HA,
			    .tcr2 = TCR2_HAFT, .set_tcr2 = true,
			    .va = TEST_VA };
	lower(el2_job, (uint64_t)&job, SPSR_EL2H);
	check_exc("EL2&0 regime HA=1 HAFT=1: the read takes no fault",
		  0, 0, 0);
	check_eq("E2H=1: TCR2_EL1 at EL2 reaches TCR2_EL2",
		 HAVE_HAFT ? TCR2_HAFT << 16 : 0,
		 read_sysreg(TCR2_EL2) << 16 | read_sysreg(TCR2_EL1));
	check_eq("EL2&0 regime HA=1 HAFT=1: AF set in the tables walked",
		 TABLES_SET, table_afs());

	build_tables();
	job.tcr2 = 0;
	lower(el2_job, (uint64_t)&job, SPSR_EL2H);
	check_eq("EL2&0 regime HA=1 HAFT=0: no table AF set", 0, table_afs());

	build_tables();
	job.tcr = TCR_EL1_BASE;
	job.tcr2 = TCR2_HAFT;
	l3_t[0] |= AF;
	lower(el2_job, (uint64_t)&job, SPSR_EL2H);
	check_eq("EL2&0 regime HA=0 HAFT=1: no table AF set", 0, table_afs());

	/* Written by EL3: SCR_EL3.TCR2En=0 makes it count as 0. */
	build_tables();
	write_sysreg(TCR2_EL2, TCR2_HAFT);
	controls(false, true, HCR_E2H);
	job = (struct job){ .tcr = TCR_EL1_BASE | TCR_EL1_HA, .va = TEST_VA };
	lower(el2_job, (uint64_t)&job, SPSR_EL2H);
	check_eq("EL2&0 regime, SCR_EL3.TCR2En=0: TCR2_EL2.HAFT ignored",
		 0, table_afs());
	write_sysreg(TCR2_EL2, 0);
	controls(true, true, 0);
}

/* Stage 2: VTCR_EL2.HA and VTCR_EL2.HAFT (bit 44) */
static void build_stage2_haft(uint64_t vtcr)
{
	build_stage2();
	for (int i = 0; i < 512; i++)
		s2h_l2[i] = s2h_l3[i] = s2h_l3u[i] = 0;
	s2_l1[S2_TEST_IPA >> 30] = (uint64_t)s2h_l2 | D_TABLE;
	s2h_l2[0] = (uint64_t)s2h_l3 | D_TABLE;
	s2h_l2[1] = (uint64_t)s2h_l3u | D_TABLE;
	s2h_l3[0] = (uint64_t)data_page[0] | D_PAGE | S2_NORMAL | S2_RW;
	s2h_l3[1] = (uint64_t)data_page[1] | D_PAGE | S2_NORMAL | S2_RW;
	/* Everything else stage 2 maps has AF set already. */
	s2_l1[1] |= AF;
	s2_l2[((uint64_t)l2_t - 0x40000000UL) >> 21] |= AF;
	write_sysreg(vtcr_el2, VTCR_VALUE | vtcr);
}

static uint64_t s2_afs(void)
{
	const uint64_t *const d[] = { &s2_l1[S2_TEST_IPA >> 30], &s2h_l2[0],
				      &s2h_l3[0] };

	return afs(3, d);
}

/*
 * With the stage 2 tables as built: EL1, stage 1 off, accesses
 * S2_TEST_IPA, or (at) EL2 translates it with AT S12E1R and PAR_EL1 is
 * returned.
 */
static uint64_t s2_job(bool at, int access)
{
	uint64_t par;

	controls(true, true, HCR_VM);
	job = (struct job){ .tcr = TCR_EL1_BASE, .s1_off = true,
			    .access = access, .va = S2_TEST_IPA };
	par = run_job(at ? el2_at_job : el1_job, at ? SPSR_EL2H : SPSR_EL1H);
	controls(true, true, 0);
	return par;
}

static uint64_t run_s2(uint64_t vtcr, bool at)
{
	build_stage2_haft(vtcr);
	return s2_job(at, ACCESS_LOAD);
}

/*
 * FEAT_S1PIE's dirty state (not part of FEAT_HAFT; qemu/patches 0001):
 * with permission indirection the write permission comes from the
 * permission index, and bit 7 of a page descriptor is only nDirty. A
 * writable page with nDirty set is clean. A load must not leave a
 * translation behind that lets a later store through without the dirty
 * update (HA and HD: the walker clears nDirty) or the Permission fault
 * (HD clear) that the store needs. Linux runs this way on any CPU with
 * S1PIE; MADV_FREE and reclaim of clean swap-cache pages depend on it.
 * Every permission index is RWX at EL1 (PIR_EL1 0xe in each nibble:
 * the job runs its code through the same indirection), none at EL0; the
 * descriptor has DBM (bit 51), as Linux sets for writable pages.
 */
#define PTE_NDIRTY	(1UL << 7)
#define PTE_DBM		(1UL << 51)
#define PIR_ALL_RWX	0xeeeeeeeeeeeeeeeeUL
/* ESR_ELx.ISS2.DirtyBit: a Permission fault caused by the dirty state */
#define ESR_DIRTYBIT(esr)	((esr) >> 37 & 1)

static uint64_t first_exc_dirtybit(void)
{
	return nexc ? ESR_DIRTYBIT(excs[0].esr) : 0;
}

static uint64_t run_pie_dbm(uint64_t tcr, int access, uint64_t dbm)
{
	build_tables();
	l3_t[0] = (uint64_t)data_page[0] | D_PAGE | D_NORMAL | AF |
		  PTE_NDIRTY | dbm;
	write_sysreg(PIR_EL1, PIR_ALL_RWX);
	write_sysreg(PIRE0_EL1, 0);
	scr_extra = SCR_PIEN;
	controls(true, true, 0);
	job = (struct job){ .tcr = tcr, .tcr2 = TCR2_PIE, .set_tcr2 = true,
			    .access = access, .va = TEST_VA };
	run_job(el1_job, SPSR_EL1H);
	scr_extra = 0;
	controls(true, true, 0);
	return l3_t[0] & PTE_NDIRTY ? 1 : 0;
}

static uint64_t run_pie(uint64_t tcr, int access)
{
	return run_pie_dbm(tcr, access, PTE_DBM);
}

static void test_pie_dirty(void)
{
	const uint64_t hahd = TCR_EL1_BASE | TCR_EL1_HA | TCR_EL1_HD;
	uint64_t nd;

	nd = run_pie(hahd, ACCESS_STORE);
	check_exc("S1PIE HA=1 HD=1: a store to a clean page takes no fault",
		  0, 0, 0);
	check_eq("S1PIE HA=1 HD=1: a store clears nDirty", 0, nd);

	nd = run_pie(hahd, ACCESS_LOAD);
	check_eq("S1PIE HA=1 HD=1: a load leaves nDirty set", 1, nd);

	nd = run_pie(hahd, ACCESS_LOAD_STORE);
	check_exc("S1PIE HA=1 HD=1: load, then store: no fault", 0, 0, 0);
	check_eq("S1PIE HA=1 HD=1: load, then store: the store clears nDirty "
		 "(the load's translation does not carry write permission)",
		 0, nd);

	nd = run_pie(TCR_EL1_BASE | TCR_EL1_HA, ACCESS_LOAD_STORE);
	check_exc("S1PIE HA=1 HD=0: load, then store: the store takes a "
		  "Permission fault (dirty state), at EL1",
		  1, EC_DABT_CUR, DFSC_PERM | 3);
	check_eq("S1PIE HA=1 HD=0: load, then store: nDirty still set", 1, nd);
	check_eq("S1PIE HA=1 HD=0: the fault's ESR_EL1.ISS2.DirtyBit is 1", 1,
		 first_exc_dirtybit());

	/*
	 * DBM clear: the page is writable through its permission index, so
	 * the dirty state is still managed (the update is made for a page
	 * that is PIE-writable or has DBM set).
	 */
	nd = run_pie_dbm(hahd, ACCESS_STORE, 0);
	check_exc("S1PIE HA=1 HD=1, DBM clear: a store to a clean page takes "
		  "no fault", 0, 0, 0);
	check_eq("S1PIE HA=1 HD=1, DBM clear: a store clears nDirty "
		 "(PIE-writable page)", 0, nd);
	nd = run_pie_dbm(hahd, ACCESS_LOAD_STORE, 0);
	check_eq("S1PIE HA=1 HD=1, DBM clear: load, then store: the store "
		 "clears nDirty", 0, nd);
	nd = run_pie_dbm(TCR_EL1_BASE | TCR_EL1_HA, ACCESS_STORE, 0);
	check_exc("S1PIE HA=1 HD=0, DBM clear: a store takes a Permission "
		  "fault (dirty state), at EL1", 1, EC_DABT_CUR, DFSC_PERM | 3);
	check_eq("S1PIE HA=1 HD=0, DBM clear: nDirty still set", 1, nd);
	build_tables();
}

/*
 * The same for FEAT_S2PIE, where bit 7 of a stage 2 descriptor is Dirty
 * (set when dirty): EL1 with stage 1 off loads from and then stores to
 * S2_TEST_IPA, whose stage 2 page has DBM and Dirty clear; every stage 2
 * permission index is RWX (S2PIR_EL2 0xf in each nibble). Run on the
 * models with FEAT_TCR2, as the S1PIE checks.
 */
#define S2_DIRTY	(1UL << 7)

static uint64_t run_s2pie_dbm(uint64_t vtcr, uint64_t dbm)
{
	build_stage2_haft(VTCR_HA | VTCR_S2PIE | vtcr);
	s2h_l3[0] = (uint64_t)data_page[0] | D_PAGE | S2_NORMAL | AF |
		    S2_RO | dbm;
	write_sysreg(S2PIR_EL2, 0xffffffffffffffffUL);
	scr_extra = SCR_PIEN;
	s2_job(false, ACCESS_LOAD_STORE);
	scr_extra = 0;
	controls(true, true, 0);
	write_sysreg(vtcr_el2, VTCR_VALUE);
	isb();
	return s2h_l3[0] & S2_DIRTY ? 1 : 0;
}

static uint64_t run_s2pie(uint64_t vtcr)
{
	return run_s2pie_dbm(vtcr, PTE_DBM);
}

static void test_s2pie_dirty(void)
{
	uint64_t d;

	d = run_s2pie(VTCR_HD);
	check_eq("S2PIE HA=1 HD=1: load, then store: the store sets Dirty "
		 "(the load's translation does not carry write permission)",
		 1, d);

	d = run_s2pie(0);
	check_exc("S2PIE HA=1 HD=0: load, then store: the store takes a "
		  "stage 2 Permission fault (dirty state), at EL2",
		  2, EC_DABT_LOW, DFSC_PERM | 3);
	check_eq("S2PIE HA=1 HD=0: load, then store: Dirty still clear", 0, d);
	check_eq("S2PIE HA=1 HD=0: the fault's ESR_EL2.ISS2.DirtyBit is 1", 1,
		 first_exc_dirtybit());

	d = run_s2pie_dbm(VTCR_HD, 0);
	check_exc("S2PIE HA=1 HD=1, DBM clear: load, then store: no fault",
		  0, 0, 0);
	check_eq("S2PIE HA=1 HD=1, DBM clear: load, then store: the store "
		 "sets Dirty (PIE-writable page)", 1, d);
}

/*
 * The stage 1 walker's own descriptor writes, in a page that is writable
 * but clean at stage 2: the L3 leaf AF update (HAFT 0) in l3_t's page,
 * or the L2 table AF update (HAFT 1) in l2_t's page. The stage 2 page
 * has DBM set and bit 7 clear: without S2PIE S2AP[1] 0 (read-only until
 * HD marks it dirty), with S2PIE Dirty 0 under an RW permission index.
 * With VTCR_EL2.HD the write marks it dirty at stage 2; without, the walk
 * takes a stage 2 Permission fault (S1PTW) and writes nothing.
 */
static uint64_t *s2_leaf_of(const void *p)
{
	uint64_t pa = (uint64_t)p;

	if (pa >> 21 != (uint64_t)l2_t >> 21) {
		puts_("Bail out! l3_t is not in the 2 MiB of l2_t\n");
		semihost_exit(100);
	}
	return &s2_l3[(pa >> 12) & 511];
}

/* a then b, in a buffer that lasts until the next call */
static const char *cat(const char *a, const char *b)
{
	static char buf[256];
	unsigned k = 0;

	while (*a && k < sizeof(buf) - 1)
		buf[k++] = *a++;
	while (*b && k < sizeof(buf) - 1)
		buf[k++] = *b++;
	buf[k] = 0;
	return buf;
}

/*
 * One write of the stage 1 walker into a page that is clean at stage 2:
 * W_LEAF_AF (the L3 page AF update, in l3_t's page), W_LEAF_DIRTY (a
 * store through a stage 1 page with DBM set and AP[2] 1: the walker
 * clears AP[2] in l3_t's page) or W_TABLE_AF (HAFT: the L2 table AF
 * update, in l2_t's page). s2perm is the S2PIR_EL2 value of the stage 2
 * page's permission index (3: S2AP[0] and DBM set); every other index
 * stays RWX, and s2perm is ignored without S2PIE.
 */
#define W_LEAF_AF	0
#define W_LEAF_DIRTY	1
#define W_TABLE_AF	2
#define PTE_AP2_RO	(1UL << 7)

/* append b to buf (of size n), or start buf with it (first) */
static void app(char *buf, unsigned n, const char *b, bool first)
{
	unsigned k = 0;

	if (!first)
		while (buf[k])
			k++;
	while (*b && k < n - 1)
		buf[k++] = *b++;
	buf[k] = 0;
}

static uint64_t *walker_page(int what)
{
	return what == W_TABLE_AF ? l2_t : l3_t;
}

static void run_walker_write(bool s2pie, unsigned s2perm, bool hd, int what)
{
	uint64_t *page = walker_page(what);
	uint64_t *s2 = s2_leaf_of(page);

	build_tables();
	build_stage2();
	l0[1] |= AF;
	l1_t[0] |= AF;
	if (what == W_TABLE_AF)
		l3_t[0] |= AF;
	else
		l2_t[0] |= AF;
	if (what == W_LEAF_DIRTY)
		l3_t[0] |= AF | PTE_DBM | PTE_AP2_RO;
	*s2 = ((uint64_t)page & ~0xfffUL) | D_PAGE | S2_NORMAL | AF | S2_RO |
	      PTE_DBM;
	if (s2pie) {
		write_sysreg(S2PIR_EL2, ~(0xfUL << 12) | (uint64_t)s2perm << 12);
		scr_extra = SCR_PIEN;
	}
	write_sysreg(vtcr_el2, VTCR_VALUE | VTCR_HA | (hd ? VTCR_HD : 0) |
		     (s2pie ? VTCR_S2PIE : 0));
	controls(true, true, HCR_VM);
	job = (struct job){ .tcr = TCR_EL1_BASE | TCR_EL1_HA |
				   (what == W_LEAF_DIRTY ? TCR_EL1_HD : 0),
			    .tcr2 = what == W_TABLE_AF ? TCR2_HAFT : 0,
			    .set_tcr2 = HAVE_TCR2,
			    .access = what == W_LEAF_DIRTY ? ACCESS_STORE :
							     ACCESS_LOAD,
			    .va = TEST_VA };
	run_job(el1_job, SPSR_EL1H);
	scr_extra = 0;
	controls(true, true, 0);
	write_sysreg(vtcr_el2, VTCR_VALUE);
	isb();
}

static void run_walker_dirty(bool s2pie, bool hd, bool haft)
{
	run_walker_write(s2pie, 0xf, hd, haft ? W_TABLE_AF : W_LEAF_AF);
}

static void test_walker_dirty(void)
{
	static const char *const name[2][2] = {
		{ "stage 2 DBM, HD=0, S1 leaf AF update in a clean page",
		  "stage 2 DBM, HD=1, S1 leaf AF update in a clean page" },
		{ "S2PIE, HD=0, S1 leaf AF update in a clean page",
		  "S2PIE, HD=1, S1 leaf AF update in a clean page" },
	};
	for (int pie = 0; pie <= (HAVE_TCR2 ? 1 : 0); pie++) {
		for (int hd = 0; hd <= 1; hd++) {
			uint64_t *s2 = s2_leaf_of(l3_t);
			const char *what = name[pie][hd];

			run_walker_dirty(pie, hd, false);
			if (hd) {
				check_exc(cat(what, ": no fault"), 0, 0, 0);
				check_eq(cat(what, ": the page holding the L3 "
					     "table is dirty at stage 2 (bit 7)"),
					 1, *s2 >> 7 & 1);
				check_eq(cat(what, ": the L3 page AF is set"), 1,
					 l3_t[0] >> AF_SHIFT & 1);
			} else {
				check_exc(cat(what, ": stage 2 Permission fault "
					      "on the walk (S1PTW), at EL2"),
					  2, EC_DABT_LOW,
					  ISS_S1PTW | DFSC_PERM | 3);
				check_eq(cat(what, ": the page holding the L3 "
					     "table stays clean at stage 2"),
					 0, *s2 >> 7 & 1);
				check_eq(cat(what, ": the L3 page AF stays "
					     "clear"), 0,
					 l3_t[0] >> AF_SHIFT & 1);
			}
		}
	}
	if (!HAVE_HAFT)
		return;
	for (int pie = 0; pie <= 1; pie++) {
		uint64_t *s2 = s2_leaf_of(l2_t);
		const char *what = pie ?
			"S2PIE, HD=1, S1 table AF update (HAFT) in a clean page" :
			"stage 2 DBM, HD=1, S1 table AF update (HAFT) in a clean "
			"page";

		run_walker_dirty(pie, true, true);
		check_exc(cat(what, ": no fault"), 0, 0, 0);
		check_eq(cat(what, ": the page holding the L2 table is dirty "
			     "at stage 2 (bit 7)"), 1, *s2 >> 7 & 1);
		check_eq(cat(what, ": the L2 table AF is set"), 1,
			 l2_t[0] >> AF_SHIFT & 1);
	}
	build_stage2();
	build_tables();
}

/*
 * The stage 1 walker's writes under S2PIE into a page whose stage 2
 * permission is read-only for data but lets the stage 1 walker write:
 * MRO, MRO-TL1, MRO-TL0 and MRO-TL01 (S2PIR_EL2 values 2, 3, 6, 7; the
 * table walk column of QEMU's get_S2prot_indirect()). The page is clean
 * (Dirty 0). With VTCR_EL2.HD the write is made and marks the page dirty
 * at stage 2; with HD clear it takes the stage 2 Permission fault on the
 * walk (S1PTW), a fault of the dirty state (ISS2.DirtyBit), and writes
 * nothing (DDI0487 D8.4, Table D8-80: MRO* grant MMUWrite, not data
 * Write; pseudocode AArch64.S2CheckPermissions and AArch64.S2Translate).
 * A fix that checked the walker's write against the data column faults
 * with HD set as well; 10.2, which kept write permission for clean pages,
 * leaves the page clean with HD set and does not fault without.
 */
static void test_s2pie_mro(void)
{
	static const unsigned perms[] = { 2, 3, 6, 7 };
	static const char *const kind[] = {
		[W_LEAF_AF] = "S1 leaf AF update",
		[W_LEAF_DIRTY] = "S1 leaf dirty state update (DBM)",
		[W_TABLE_AF] = "S1 table AF update (HAFT)",
	};
	static char what[160];

	for (unsigned i = 0; i < sizeof(perms) / sizeof(perms[0]); i++) {
		const char digit[2] = { (char)('0' + perms[i]), 0 };

		for (int w = W_LEAF_AF; w <= W_TABLE_AF; w++) {
			if (w == W_TABLE_AF && !HAVE_HAFT)
				continue;
			for (int hd = 0; hd <= 1; hd++) {
				uint64_t *s2 = s2_leaf_of(walker_page(w));
				uint64_t done;

				run_walker_write(true, perms[i], hd, w);
				if (w == W_LEAF_DIRTY)
					done = !(l3_t[0] & PTE_AP2_RO);
				else if (w == W_TABLE_AF)
					done = l2_t[0] >> AF_SHIFT & 1;
				else
					done = l3_t[0] >> AF_SHIFT & 1;
				app(what, sizeof(what), "S2PIE, S2PIR_EL2 "
				    "value ", true);
				app(what, sizeof(what), digit, false);
				app(what, sizeof(what), hd ? ", HD=1, " :
				    ", HD=0, ", false);
				app(what, sizeof(what), kind[w], false);
				app(what, sizeof(what), " in a clean page",
				    false);
				if (hd) {
					check_exc(cat(what, ": no fault"), 0, 0,
						  0);
					check_eq(cat(what, ": the page is "
						     "dirty at stage 2"),
						 1, *s2 >> 7 & 1);
					check_eq(cat(what, ": the update is "
						     "made"), 1, done);
				} else {
					check_exc(cat(what, ": stage 2 "
						      "Permission fault on "
						      "the walk (S1PTW), at "
						      "EL2"),
						  2, EC_DABT_LOW,
						  ISS_S1PTW | DFSC_PERM | 3);
					check_eq(cat(what, ": the page stays "
						     "clean at stage 2"),
						 0, *s2 >> 7 & 1);
					check_eq(cat(what, ": nothing is "
						     "written"), 0, done);
					check_eq(cat(what, ": the fault's "
						     "ESR_EL2.ISS2.DirtyBit "
						     "is 1"), 1,
						 first_exc_dirtybit());
				}
			}
		}
	}
	build_stage2();
	build_tables();
}

/*
 * HAFT at both stages at once: EL1 with stage 1 (TCR2_EL1.HAFT) and
 * stage 2 (VTCR_EL2.HAFT); TEST_VA's page maps IPA S2_TEST_IPA, whose
 * stage 2 branch has AF clear. Both sets of tables get AF, and the stage
 * 1 tables' own page (l2_t's) is writable at stage 2 here.
 */
static void test_both_stages(void)
{
	build_tables();
	build_stage2_haft(VTCR_HA | VTCR_HAFT);
	*s2_leaf_of(l2_t) |= 1UL << 7;		/* S2AP[1]: writable */
	l3_t[0] = S2_TEST_IPA | D_PAGE | D_NORMAL;
	controls(true, true, HCR_VM);
	job = (struct job){ .tcr = TCR_EL1_BASE | TCR_EL1_HA,
			    .tcr2 = TCR2_HAFT, .set_tcr2 = HAVE_TCR2,
			    .va = TEST_VA };
	run_job(el1_job, SPSR_EL1H);
	controls(true, true, 0);
	write_sysreg(vtcr_el2, VTCR_VALUE);
	isb();
	check_exc("stage 1 and stage 2 HA=1 HAFT=1: the read takes no fault",
		  0, 0, 0);
	check_eq("stage 1 and stage 2 HA=1 HAFT=1: stage 1 L0 L1 L2 table AF "
		 "set", TABLES_SET, table_afs());
	check_eq("stage 1 and stage 2 HA=1 HAFT=1: stage 1 page AF set", 1,
		 l3_t[0] >> AF_SHIFT & 1);
	check_eq("stage 1 and stage 2 HA=1 HAFT=1: stage 2 L1 L2 table AF and "
		 "page AF set", HAVE_HAFT ? 0x111 : 0x001, s2_afs());
	build_stage2();
	build_tables();
}

/*
 * Secure stage 2: Secure EL1 (SCR_EL3.NS 0, Secure EL2 on) with stage 1
 * off accesses S2_TEST_IPA in the Secure IPA space, translated through
 * VSTTBR_EL2 and VSTCR_EL2 (the same tables; Secure walks and output,
 * SW and SA 0), while VTTBR_EL2 points to an empty table. VSTCR_EL2 has
 * no HA or HAFT of its own: VTCR_EL2's apply.
 */
#define VSTTBR_EL2	s3_4_c2_c6_0
#define VSTCR_EL2	s3_4_c2_c6_2
#define VSTCR_VALUE	(25UL | (1UL << 6))	/* 39-bit IPA from L1, 4K */

static void run_secure_s2(uint64_t vtcr)
{
	build_stage2_haft(vtcr);
	write_sysreg(VSTTBR_EL2, (uint64_t)s2_l1);
	write_sysreg(VSTCR_EL2, VSTCR_VALUE);
	/* Non-secure stage 2 maps nothing: a walk through it would fault. */
	write_sysreg(vttbr_el2, (uint64_t)s2h_l3u);
	secure_below = true;
	s2_job(false, ACCESS_LOAD);
	secure_below = false;
	controls(true, true, 0);
	write_sysreg(vtcr_el2, VTCR_VALUE);
	isb();
}

static void test_secure_stage2(void)
{
	run_secure_s2(VTCR_HA | VTCR_HAFT);
	check_exc("Secure stage 2 HA=1 HAFT=1: the read takes no fault",
		  0, 0, 0);
	check_eq("Secure stage 2 HA=1 HAFT=1 (VTCR_EL2's, shared with "
		 "VSTCR_EL2): AF set in the L1 L2 tables walked and the page",
		 HAVE_HAFT ? 0x111 : 0x001, s2_afs());
	run_secure_s2(VTCR_HA);
	check_eq("Secure stage 2 HA=1 HAFT=0: only the page AF set", 0x001,
		 s2_afs());
	build_stage2();
}

static void test_stage2(void)
{
	run_s2(VTCR_HA | VTCR_HAFT, false);
	check_exc("stage 2 HA=1 HAFT=1: the read takes no fault", 0, 0, 0);
	check_eq("stage 2 HA=1 HAFT=1: AF set in the L1 L2 tables walked "
		 "and the page", HAVE_HAFT ? 0x111 : 0x001, s2_afs());
	check_eq("stage 2 HA=1 HAFT=1: descriptors not walked keep AF clear",
		 0, (s2h_l2[1] >> AF_SHIFT & 1) << 4 |
		    (s2h_l3[1] >> AF_SHIFT & 1));

	run_s2(VTCR_HA, false);
	check_eq("stage 2 HA=1 HAFT=0: only the page AF set", 0x001,
		 s2_afs());

	run_s2(VTCR_HAFT, false);
	check_exc("stage 2 HA=0 HAFT=1: Access flag fault, at EL2",
		  2, EC_DABT_LOW, DFSC_AF_L3);
	check_eq("stage 2 HA=0 HAFT=1: no AF set (HAFT needs HA)", 0,
		 s2_afs());

	check_eq("AT S12E1R, stage 2 HA=1 HAFT=1: PAR_EL1.F 0 and the PA",
		 (uint64_t)data_page[0],
		 run_s2(VTCR_HA | VTCR_HAFT, true) & 0xfffffffff001UL);
	check_eq("AT S12E1R, stage 2 HA=1 HAFT=1: AF set in the stage 2 L1 "
		 "L2 tables walked (R_FBZPR), not in the page",
		 HAVE_HAFT ? 0x110 : 0, s2_afs());
	write_sysreg(vtcr_el2, VTCR_VALUE);
}

/*
 * The debug walk (VARIANT 5): a debug translation (gdbstub, the monitor's
 * gva2gpa or x) must not change guest memory, with HA and HAFT on at
 * both stages. DEBUG_VA goes through l0[3], whose next-level table is
 * l1_t read through an alias IPA (S2_TEST_IPA + 0x2000: s2_l1[2] ->
 * s2h_l2[0] -> s2h_l3[2]) that nothing else uses, then l2_t, l3_t and
 * data_page[0] as TEST_VA does. Every descriptor of that walk that only
 * a translation of DEBUG_VA can reach starts with AF clear; the program
 * prints their addresses, then waits at EL1 with both stages on, and
 * run-tests.sh (qemu/tests/debug-walk.py) translates DEBUG_VA through the
 * monitor and compares the descriptors before and after.
 */
#define DEBUG_VA	0x18000000000UL		/* L0[3] L1[0] L2[0] L3[0] */
#define DEBUG_L1_IPA	(S2_TEST_IPA + 0x2000UL)

static void put_desc(const char *name, const uint64_t *d)
{
	puts_("# debug-desc ");
	puts_(name);
	putch(' ');
	puthex((uint64_t)d);
	putch('\n');
}

/* At EL1: stage 1 on as the job says, then tell the host side. */
static void debug_mmu_on(const struct job *j, uint64_t mair)
{
	write_sysreg(mair_el1, mair);
	write_sysreg(tcr_el1, j->tcr);
	write_sysreg(ttbr0_el1, (uint64_t)l0);
	write_sysreg(TCR2_EL1, j->tcr2);
	asm volatile("isb; tlbi vmalle1; dsb nsh; isb" : : : "memory");
	write_sysreg(sctlr_el1, SCTLR_EL1_OFF | SCTLR_M);
	isb();
	puts_("# debug: ready\n");
}

static uint64_t debug_wait_job(uint64_t arg)
{
	struct job *j = (struct job *)arg;

	debug_mmu_on(j, MAIR_VALUE);
	for (;;)
		asm volatile("wfi");
	return 0;
}

static void debug_walk_setup(void)
{
	build_tables();
	build_stage2_haft(VTCR_HA | VTCR_HAFT);
	s2h_l3[2] = (uint64_t)l1_t | D_PAGE | S2_NORMAL | S2_RW;
	l0[3] = DEBUG_L1_IPA | D_TABLE;
	put_desc("l0[3]", &l0[3]);
	put_desc("l1_t[0]", &l1_t[0]);
	put_desc("l2_t[0]", &l2_t[0]);
	put_desc("l3_t[0]", &l3_t[0]);
	put_desc("s2_l1[2]", &s2_l1[S2_TEST_IPA >> 30]);
	put_desc("s2h_l2[0]", &s2h_l2[0]);
	put_desc("s2h_l3[2]", &s2h_l3[2]);
	puts_("# debug-va ");
	puthex(DEBUG_VA);
	puts_(" pa ");
	puthex((uint64_t)data_page[0]);
	putch('\n');
	controls(true, true, HCR_VM);
	job = (struct job){ .tcr = TCR_EL1_BASE | TCR_EL1_HA,
			    .tcr2 = TCR2_HAFT, .va = DEBUG_VA };
	run_job(debug_wait_job, SPSR_EL1H);
}

/*
 * The gdbstub (VARIANT 6, -M virt,mte=on): the walk of VARIANT 5, with
 * DEBUG_VA's page Tagged Normal memory (MAIR Attr2 0xf0) and writable
 * but clean at stage 1 (DBM set, AP[2] 1), HA and HD at stage 1, HA
 * and HAFT at both stages, every descriptor of the walk with AF clear.
 * The program waits at EL1 until gdb_done is set; meanwhile
 * qemu/tests/gdb-debug.py, through gdb-multiarch and the gdbstub, reads
 * and writes DEBUG_VA's memory and its allocation tags and then sets
 * gdb_done. The program then checks, itself, that no descriptor changed
 * (no AF at either stage, the page still clean) and that the debugger
 * left no TLB entry for DEBUG_VA: it makes l3_t[0] invalid without a
 * TLB invalidation and loads from DEBUG_VA, which must take the
 * Translation fault (a TLB entry filled by a debug access would let the
 * load through). What gdb wrote (data_page[0][0]) must be there: the
 * positive control that the debugger's accesses reached the page.
 */
volatile uint64_t gdb_done;
/* the descriptors of DEBUG_VA's walk when the debugger was done */
static uint64_t gdb_seen[7];
#define MAIR_TAGGED	(0xf0UL << 16)		/* Attr2 Tagged Normal */
#define D_TAGGED	((2UL << 2) | (3UL << 8))	/* Attr2, inner shareable */
#define GDB_WROTE	0x6764627772697465UL	/* what gdb-debug.py writes */

static uint64_t gdb_wait_job(uint64_t arg)
{
	struct job *j = (struct job *)arg;

	debug_mmu_on(j, MAIR_VALUE | MAIR_TAGGED);
	while (!gdb_done)
		asm volatile("yield" : : : "memory");
	gdb_seen[0] = l0[3];
	gdb_seen[1] = l1_t[0];
	gdb_seen[2] = l2_t[0];
	gdb_seen[3] = l3_t[0];
	gdb_seen[4] = s2_l1[S2_TEST_IPA >> 30];
	gdb_seen[5] = s2h_l2[0];
	gdb_seen[6] = s2h_l3[2];
	/*
	 * What the debugger saw must not have become a TLB entry: with the
	 * level 0 descriptor invalid, only a TLB entry lets the load through.
	 */
	l0[3] = 0;
	asm volatile("dsb ish; isb" : : : "memory");
	(void)*(volatile uint64_t *)j->va;
	write_sysreg(sctlr_el1, SCTLR_EL1_OFF);
	isb();
	return 0;
}

static void test_gdb(void)
{
	uint64_t leaf;

	build_tables();
	build_stage2_haft(VTCR_HA | VTCR_HAFT);
	s2h_l3[2] = (uint64_t)l1_t | D_PAGE | S2_NORMAL | S2_RW;
	l0[3] = DEBUG_L1_IPA | D_TABLE;
	l3_t[0] = (uint64_t)data_page[0] | D_PAGE | D_TAGGED | PTE_DBM |
		  PTE_AP2_RO;
	/*
	 * l2_t's page writable at stage 2 too, so that an ordinary walk of
	 * DEBUG_VA (what the tag packets made before qemu/patches 0005)
	 * completes, sets AF and fills the TLB, rather than faulting on
	 * the first table update it cannot make.
	 */
	*s2_leaf_of(l2_t) = ((uint64_t)l2_t & ~0xfffUL) | D_PAGE | S2_NORMAL |
			    AF | S2_RW;
	leaf = l3_t[0];
	data_page[0][0] = 0;
	puts_("# debug-va ");
	puthex(DEBUG_VA);
	puts_(" pa ");
	puthex((uint64_t)data_page[0]);
	puts_(" done ");
	puthex((uint64_t)&gdb_done);
	putch('\n');
	controls(true, true, HCR_VM);
	job = (struct job){ .tcr = TCR_EL1_BASE | TCR_EL1_HA | TCR_EL1_HD,
			    .tcr2 = TCR2_HAFT, .va = DEBUG_VA };
	run_job(gdb_wait_job, SPSR_EL1H);
	controls(true, true, 0);
	/* what the checks stand on, asserted rather than counted */
	if (data_page[0][0] != GDB_WROTE) {
		puts_("Bail out! the debugger's write did not reach the page\n");
		semihost_exit(100);
	}
	check_eq("gdb: l0[3] AF still clear", 0, gdb_seen[0] & AF);
	check_eq("gdb: l1_t[0] AF still clear", 0, gdb_seen[1] & AF);
	check_eq("gdb: l2_t[0] AF still clear", 0, gdb_seen[2] & AF);
	check_eq("gdb: the stage 1 page descriptor unchanged (AF clear, "
		 "still clean)", leaf, gdb_seen[3]);
	check_eq("gdb: stage 2 s2_l1[2] AF still clear", 0, gdb_seen[4] & AF);
	check_eq("gdb: stage 2 s2h_l2[0] AF still clear", 0,
		 gdb_seen[5] & AF);
	check_eq("gdb: stage 2 s2h_l3[2] (the alias of l1_t) AF still "
		 "clear", 0, gdb_seen[6] & AF);
	check_exc("gdb: no TLB entry for DEBUG_VA: the load after l0[3] "
		  "is made invalid takes a Translation fault, level 0", 1,
		  EC_DABT_CUR, DFSC_TRANS_L0);
	write_sysreg(vtcr_el2, VTCR_VALUE);
	build_stage2();
	build_tables();
}

/*
 * The race (VARIANT 4, -smp 2): CPU 1, at EL3 with its MMU off, adds 1
 * to the IGNORED bits [58:51] of l1_t[0] with CAS, as fast as it can,
 * while CPU 0 walks through that table descriptor at EL1, clearing its
 * AF with CAS before each walk. Every CPU 1 update must still be there
 * at the end, and every walk must have set AF. A walker that sets AF
 * with a plain read-modify-write store instead of a compare-and-swap
 * loses CPU 1's updates that fall between its read and its write.
 */
#define RACE_SHIFT	51
#define RACE_MASK	(0xffUL << RACE_SHIFT)
/*
 * Walks that CPU 1 overlapped (its count moved between the clearing of AF
 * and the check after the walk) needed, and the most walks tried: the
 * host decides when the two vCPU threads really run at the same time.
 */
#ifndef RACE_OVERLAPS
#define RACE_OVERLAPS	200000
#endif
#define RACE_WALKS	40000000
extern volatile uint32_t cpu1_go;
static volatile uint64_t cpu1_stop, cpu1_adds, cpu1_done, cpu1_progress;
/*
 * Counted exactly by CPU 1: each time it finds that its count in the
 * descriptor is not the value it last wrote (only CPU 1 changes those
 * bits, so something wrote back an old copy of the descriptor), and how
 * many of its updates that undid in all (the distance back, mod 256 each
 * time).
 */
static volatile uint64_t cpu1_lost_events, cpu1_lost_updates;
static uint64_t race_overlap, race_walks;
void cpu1_main(void);

static uint64_t cas64(volatile uint64_t *p, uint64_t old, uint64_t new)
{
	asm volatile(".arch_extension lse\n\tcasal %0, %2, [%1]"
		     : "+r"(old) : "r"(p), "r"(new) : "memory");
	return old;
}

void cpu1_main(void)
{
	volatile uint64_t *d = &l1_t[0];
	uint64_t n = 0, events = 0, lost = 0;
	uint64_t mine = *d & RACE_MASK;	/* what CPU 1 last wrote there */

	while (!cpu1_stop) {
		uint64_t v = *d;
		uint64_t next = (v + (1UL << RACE_SHIFT)) & RACE_MASK;

		if ((v & RACE_MASK) != mine) {
			events++;
			lost += ((mine - (v & RACE_MASK)) & RACE_MASK) >>
				RACE_SHIFT;
			mine = v & RACE_MASK;
		}
		if (cas64(d, v, (v & ~RACE_MASK) | next) == v) {
			mine = next;
			cpu1_progress = ++n;
		}
	}
	if ((*d & RACE_MASK) != mine) {
		events++;
		lost += ((mine - (*d & RACE_MASK)) & RACE_MASK) >> RACE_SHIFT;
	}
	cpu1_lost_events = events;
	cpu1_lost_updates = lost;
	cpu1_adds = n;
	cpu1_done = 1;
	for (;;)
		asm volatile("wfe");
}

static uint64_t race_job(uint64_t arg)
{
	volatile uint64_t *d = &l1_t[0];
	uint64_t missed = 0;

	(void)arg;
	write_sysreg(mair_el1, MAIR_VALUE);
	write_sysreg(tcr_el1, TCR_EL1_BASE | TCR_EL1_HA);
	write_sysreg(ttbr0_el1, (uint64_t)l0);
	write_sysreg(TCR2_EL1, TCR2_HAFT);
	isb();
	write_sysreg(sctlr_el1, SCTLR_EL1_OFF | SCTLR_M);
	isb();
	uint64_t overlaps = 0;

	race_walks = 0;
	for (int i = 0; i < RACE_WALKS && overlaps < RACE_OVERLAPS; i++) {
		/* CPU 1 not running at all: stop early, the check says so. */
		if (i == 1000000 && !overlaps)
			break;
		uint64_t v, before = cpu1_progress;

		do {
			v = *d;
		} while (cas64(d, v, v & ~AF) != v);
		asm volatile("dsb sy; tlbi vmalle1; dsb sy; isb" : : : "memory");
		(void)*(volatile uint64_t *)TEST_VA;
		if (!(*d & AF))
			missed++;
		overlaps += cpu1_progress != before;
		race_walks++;
	}
	write_sysreg(sctlr_el1, SCTLR_EL1_OFF);
	isb();
	race_overlap = overlaps;
	return missed;
}

static void test_race(void)
{
	uint64_t missed, seen;

	controls(true, true, 0);
	build_tables();
	l3_t[0] |= AF;
	asm volatile("dsb sy" : : : "memory");
	cpu1_go = 1;
	asm volatile("dsb sy; sev" : : : "memory");
	/* Let CPU 1 start adding before the first walk. */
	for (int i = 0; i < 100000 && !(l1_t[0] & RACE_MASK); i++)
		;
	missed = lower(race_job, 0, SPSR_EL1H);
	cpu1_stop = 1;
	for (int i = 0; i < 10000000 && !cpu1_done; i++)
		;
	check_eq("race: CPU 1 started and stopped when asked", 1, cpu1_done);
	seen = (l1_t[0] & RACE_MASK) >> RACE_SHIFT;
	puts_("# race: CPU 1 made ");
	puthex(cpu1_adds);
	puts_(" updates; CPU 0 made ");
	puthex(race_walks);
	puts_(" walks, ");
	puthex(race_overlap);
	puts_(" of them while CPU 1 made updates; CPU 1 found its count "
	      "undone ");
	puthex(cpu1_lost_events);
	puts_(" times (");
	puthex(cpu1_lost_updates);
	puts_(" updates lost)\n");
	check_exc("race: the walks take no fault", 0, 0, 0);
	check_eq("race: CPU 1 made updates during enough walks "
		 "(RACE_OVERLAPS)", 1, race_overlap >= RACE_OVERLAPS);
	check_eq("race: every walk set the table AF again", 0, missed);
	check_eq("race: no update of CPU 1 to the table descriptor was lost "
		 "(times CPU 1 found its last update undone, counted exactly)",
		 0, cpu1_lost_events);
	/*
	 * Not a check of its own: any write-back of an old copy that moved
	 * the count is one CPU 1 found (at the latest after its last add),
	 * so this agrees whenever the check above holds.
	 */
	puts_("# race: the descriptor's count ");
	puthex(seen);
	puts_(", CPU 1's less what was lost (mod 256) ");
	puthex((cpu1_adds - cpu1_lost_updates) & 0xff);
	putch('\n');
}

/*
 * What a guest reads in the ID registers: without FEAT_TCR2 nothing that
 * is controlled through TCR2_ELx, or requires such a feature, may be
 * left. FEAT_GCS requires FEAT_S1PIE, which requires FEAT_TCR2; FEAT_S2PIE
 * requires FEAT_S1PIE; FEAT_S1POE and FEAT_S2POE the PIE of their stage.
 * -cpu max has S1PIE, S2PIE, AIE, MEC and GCS. (It has no S1POE, S2POE,
 * D128 or THE, which tcr2=off clears too: no check here could fail.)
 */
static void check_field(const char *what, uint64_t reg, int shift,
			uint64_t expected)
{
	check_eq(what, expected, reg >> shift & 0xf);
}

static void test_id_regs(void)
{
	uint64_t mmfr3 = read_sysreg(ID_AA64MMFR3_EL1);
	uint64_t pfr1 = read_sysreg(ID_AA64PFR1_EL1);
	uint64_t with = HAVE_TCR2 ? 1 : 0;

	check_field("ID_AA64MMFR3_EL1.S1PIE (needs FEAT_TCR2)", mmfr3, 8, with);
	check_field("ID_AA64MMFR3_EL1.S2PIE (needs FEAT_S1PIE)", mmfr3, 12, with);
	check_field("ID_AA64MMFR3_EL1.AIE (needs FEAT_TCR2)", mmfr3, 24, with);
	check_field("ID_AA64MMFR3_EL1.MEC (needs FEAT_TCR2)", mmfr3, 28, with);
	check_field("ID_AA64PFR1_EL1.GCS (needs FEAT_S1PIE)", pfr1, 44, with);
}

int main(void)
{
	uint64_t el = read_sysreg(CurrentEL) >> 2;

	puts_("# QEMU FEAT_TCR2/FEAT_HAFT bare-metal checks, -cpu ");
	puts_(variant_name[VARIANT]);
	putch('\n');
	if (el != 3) {
		check_eq("started at EL3 (-M virt,secure=on)", 3, el);
		return nfail;
	}
	check_eq("ID_AA64MMFR1_EL1.HAFDBS", HAFDBS,
		 read_sysreg(id_aa64mmfr1_el1) & 0xf);
	check_eq("ID_AA64MMFR3_EL1.TCRX", HAVE_TCR2 ? 1 : 0,
		 read_sysreg(ID_AA64MMFR3_EL1) & 0xf);
	if (VARIANT == 4) {
		test_race();
		goto out;
	}
	if (VARIANT == 5) {
		debug_walk_setup();	/* does not return */
		goto out;
	}
	if (VARIANT == 6) {
		test_gdb();
		goto out;
	}
	test_id_regs();

	if (HAVE_TCR2) {
		test_tcr2_access();
	} else {
		controls(true, true, 0);
		lower(el_read_tcr2_el1, 0, SPSR_EL1H);
		check_exc("TCR2_EL1 is UNDEFINED at EL1 without FEAT_TCR2",
			  1, EC_UNKNOWN, 0);
		if (VARIANT == 3) {
			lower(el_write_tcr2_el1, TCR2_HAFT, SPSR_EL1H);
			check_exc("TCR2_EL1 writes are UNDEFINED at EL1 although "
				  "HAFDBS says FEAT_HAFT", 1, EC_UNKNOWN, 0);
			lower(el_read_tcr2_el2, 0, SPSR_EL2H);
			check_exc("TCR2_EL2 is UNDEFINED at EL2 although "
				  "HAFDBS says FEAT_HAFT", 2, EC_UNKNOWN, 0);
		}
	}
	test_walks();
	test_fault_below();
	test_at();
	if (HAVE_TCR2) {
		test_el2_walks();
		test_e2h();
		test_pie_dirty();
	}
	test_el3_walks();
	test_stage2();
	test_both_stages();
	test_secure_stage2();
	test_walker_dirty();
	if (HAVE_TCR2) {
		test_s2pie_dirty();
		test_s2pie_mro();
	}
out:
	puts_("# ");
	puts_(variant_name[VARIANT]);
	puts_(nfail ? ": some checks failed\n" : ": all checks passed\n");
	return nfail;
}
