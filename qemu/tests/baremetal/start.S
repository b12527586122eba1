/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Entry, exception vectors and the EL3 -> EL2/EL1 call gate of the
 * bare-metal FEAT_TCR2/FEAT_HAFT checks (haft-test.c).
 *
 * QEMU starts the ELF at EL3 ("-M virt,secure=on,virtualization=on").
 * call_lower() runs a C function at EL2 or EL1 and comes back when it
 * returns: the function returns into lower_return, whose SMC lands in the
 * EL3 vector, which resumes call_lower's caller. Every other synchronous
 * exception, at any EL, goes to exc_handler() in C.
 */

	.section .text.boot, "ax"
	.global _start
_start:
	/*
	 * With "-M virt,secure=on" QEMU has no PSCI of its own, so every CPU
	 * starts here. CPU 1 (-smp 2, the race check) waits until CPU 0 has
	 * zeroed .bss and sets cpu1_go, then runs cpu1_main() at EL3.
	 */
	mrs	x0, mpidr_el1
	and	x0, x0, #0xff
	cbnz	x0, secondary
	ldr	x0, =stack_el3_top
	mov	sp, x0
	ldr	x0, =vectors_el3
	msr	vbar_el3, x0
	ldr	x0, =vectors_el2
	msr	vbar_el2, x0
	ldr	x0, =vectors_el1
	msr	vbar_el1, x0
	isb
	/* Zero .bss (page tables, stacks, logs). */
	ldr	x0, =__bss_start
	ldr	x1, =__bss_end
1:	cmp	x0, x1
	b.hs	2f
	str	xzr, [x0], #8
	b	1b
2:	bl	main
	bl	semihost_exit
3:	b	3b

secondary:
	ldr	x1, =cpu1_go
4:	wfe
	ldr	w0, [x1]
	cbz	w0, 4b
	ldr	x0, =stack_cpu1_top
	mov	sp, x0
	ldr	x0, =vectors_el3
	msr	vbar_el3, x0
	isb
	bl	cpu1_main
5:	wfe
	b	5b

/*
 * uint64_t call_lower(uint64_t (*fn)(uint64_t), uint64_t arg, uint64_t spsr)
 * EL3 only. Runs fn(arg) at the EL and SP selected by spsr; returns its
 * result.
 */
	.text
	.global call_lower
call_lower:
	ldr	x9, =el3_ctx
	stp	x19, x20, [x9, #0]
	stp	x21, x22, [x9, #16]
	stp	x23, x24, [x9, #32]
	stp	x25, x26, [x9, #48]
	stp	x27, x28, [x9, #64]
	stp	x29, x30, [x9, #80]
	mov	x10, sp
	str	x10, [x9, #96]
	msr	elr_el3, x0
	msr	spsr_el3, x2
	ldr	x10, =stack_el2_top
	msr	sp_el2, x10
	ldr	x10, =stack_el1_top
	msr	sp_el1, x10
	mov	x0, x1
	ldr	x30, =lower_return
	isb
	eret

lower_return:
	/*
	 * QEMU treats an SMC with a PSCI function ID in x0 as a PSCI call:
	 * pass the result in x1 and a harmless 0 in x0.
	 */
	mov	x1, x0
	mov	x0, #0
	smc	#0
	b	.

/* Save x0-x30 and call exc_handler(el, regs); x0-x30 come back as saved. */
.macro	handle el
	sub	sp, sp, #256
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x19, [sp, #144]
	stp	x20, x21, [sp, #160]
	stp	x22, x23, [sp, #176]
	stp	x24, x25, [sp, #192]
	stp	x26, x27, [sp, #208]
	stp	x28, x29, [sp, #224]
	str	x30, [sp, #240]
	mov	x0, #\el
	mov	x1, sp
	bl	exc_handler
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x19, [sp, #144]
	ldp	x20, x21, [sp, #160]
	ldp	x22, x23, [sp, #176]
	ldp	x24, x25, [sp, #192]
	ldp	x26, x27, [sp, #208]
	ldp	x28, x29, [sp, #224]
	ldr	x30, [sp, #240]
	add	sp, sp, #256
	eret
.endm

/* Anything but a synchronous exception is a bug in the test: stop. */
.macro	unexpected el, kind
	.balign	0x80
	mov	x0, #\el
	mov	x1, #\kind
	b	unexpected_exception
.endm

/* 16 entries; only synchronous exceptions from SP_ELx and lower ELs. */
.macro	vectors el
	.balign	0x800
vectors_el\el:
	unexpected \el, 0
	unexpected \el, 1
	unexpected \el, 2
	unexpected \el, 3
	.balign	0x80		/* current EL, SP_ELx: sync at 0x200 */
	b	sync_cur_el\el
	unexpected \el, 5
	unexpected \el, 6
	unexpected \el, 7
	.balign	0x80		/* lower EL, AArch64: sync at 0x400 */
	b	sync_low_el\el
	unexpected \el, 8
	unexpected \el, 9
	unexpected \el, 10
	unexpected \el, 11
	unexpected \el, 12
	unexpected \el, 13
	unexpected \el, 14
	.balign	0x80
.endm

	vectors 3
	vectors 2
	vectors 1

sync_cur_el3:
	handle 3
sync_cur_el2:
	handle 2
sync_cur_el1:
	handle 1
sync_low_el2:
	handle 2
sync_low_el1:
	handle 1		/* never: there is no EL0 code */

sync_low_el3:
	/* An SMC (EC 0x17) from lower_return ends call_lower. */
	stp	x9, x10, [sp, #-16]!
	mrs	x9, esr_el3
	lsr	x9, x9, #26
	cmp	x9, #0x17
	ldp	x9, x10, [sp], #16
	b.ne	1f
	ldr	x9, =el3_ctx
	ldp	x19, x20, [x9, #0]
	ldp	x21, x22, [x9, #16]
	ldp	x23, x24, [x9, #32]
	ldp	x25, x26, [x9, #48]
	ldp	x27, x28, [x9, #64]
	ldp	x29, x30, [x9, #80]
	ldr	x10, [x9, #96]
	mov	sp, x10
	mov	x0, x1
	ret
1:	handle 3

	/* In .data: CPU 1 reads it before CPU 0 has zeroed .bss. */
	.data
	.balign	8
	.global	cpu1_go
cpu1_go:
	.word	0

	.bss
	.balign	16
el3_ctx:
	.skip	112

	.balign	16
	.skip	16384
stack_el3_top:
	.skip	16384
stack_el2_top:
	.skip	16384
stack_el1_top:
	.skip	16384
stack_cpu1_top:
