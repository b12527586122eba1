#!/bin/bash
# Boot a lab kernel and initramfs under the lab's QEMU.
#   boot.sh -b ROW [-n NAME] [-k VARIANT|-K IMAGE] [-c CPU] [-i] [-N]
#   boot.sh [-k VARIANT|-K IMAGE] [-c CPU] [-a APPEND] [-r SUITES] [-t SECONDS]
#           [-e HAFT,CAPS] [-n NAME] [-i] [-N]
# -b runs a row of the table of boots ($TOP/boots): its kernel, CPU model,
# machine, command line, suites, timeout and expectation; -n renames the
# run (bench's guard rounds). Without -b the boot is ad hoc (make shell,
# interactive use): -r runs guest suites (comma separated, from
# guest/tests) and powers off. Either way the console goes to
# build/results/NAME.log and scripts/verdict.py judges it against the
# suites asked for; -i gives an interactive shell on the serial console
# instead, -N prints the QEMU command and the kernel command line without
# booting. -k, -K or -c with -b boot the row on another kernel or CPU
# model, ad hoc.
#
# The expectation handed to the guest (lab.expect_haft, lab.expect_caps)
# is the row's haft and caps. An ad-hoc boot expects, unless -e says
# otherwise (-e no,0x0001), HAFT in use (0x0007) when QEMU says the CPU
# model has FEAT_HAFT and FEAT_TCR2 and the command line does not turn it
# off, and a hardware Access flag without HAFT (0x0003) otherwise: a
# kernel without the series, or a CPU model without a hardware Access flag
# (cortex-a53/a57/a72: 0x0001), needs -e or a row. Either way, expecting
# HAFT on a CPU model QEMU says lacks FEAT_HAFT or FEAT_TCR2 stops the
# boot: the table (or -e) or the QEMU is wrong. lab.expect_release is the
# major.minor of the image's own 'Linux version' string.
#
# Kernels x86:6.12 and x86:current are Debian's amd64 kernels
# (LAB_ARCH=x86 scripts/stock-kernel.sh), booted with
# build/initramfs-x86.cpio on Debian's qemu-system-x86_64 (QEMU_X86),
# -accel tcg,thread=single -M q35, console ttyS0: /dev/kvm here is a paravirtual KVM
# that stock kernels fail under. x86 has no FEAT_HAFT (HAFT no, nothing
# asked of QEMU) and its CPUs set non-leaf Accessed bits: ad hoc, 0x0007.
#
# Environment (ad hoc, or a row's machine column leaves them): MEM (3G),
# NUMA=MIB0,MIB1, VIRT=1 (virtualization=on: the kernel starts at EL2, a
# KVM host), ICOUNT=1 (-icount shift=0,sleep=off: guest time counts
# instructions), INITRD= another initramfs.
. "$(dirname "$0")/lib.sh"

row= variant= cpu= append= run= tmo= name= interactive=0 dry=0 expect=
kernel=
usage="usage: boot.sh -b ROW [-n NAME] [-k VARIANT|-K IMAGE] [-c CPU] [-i] [-N], or boot.sh [-k VARIANT|-K IMAGE] [-c CPU] [-a APPEND] [-r SUITES] [-t SECONDS] [-e HAFT,CAPS] [-n NAME] [-i] [-N]"
while getopts b:k:K:c:a:r:t:e:n:iN opt; do
	case $opt in
	b) row=$OPTARG ;;
	k) variant=$OPTARG ;;
	K) kernel=$OPTARG ;;
	c) cpu=$OPTARG ;;
	a) append=$OPTARG ;;
	r) run=$OPTARG ;;
	t) tmo=$OPTARG ;;
	e) expect=$OPTARG ;;
	n) name=$OPTARG ;;
	i) interactive=1 ;;
	N) dry=1 ;;
	*) die "$usage" ;;
	esac
done
[ $OPTIND -gt $# ] || die "$usage"
mem=${MEM:-3G} numa_sizes=${NUMA:-} virt=${VIRT:-0} icount= initrd=${INITRD:-$BUILD/initramfs.cpio}
haft= caps= initrd_name=
if [ -n "$row" ]; then
	[ -z "$append$run$tmo$expect" ] || die "boot.sh -b $row: the row gives the command line, suites, timeout and expectation (no -a, -r, -t or -e)"
	boot_row "$row"
	# {VAR}: the caller's variable VAR (bench's REPS, soak's DURATION).
	subst() {
		local s=$1 v
		while [[ "$s" =~ \{([A-Z_][A-Z0-9_]*)\} ]]; do
			v=${BASH_REMATCH[1]}
			[ -n "${!v:-}" ] || die "row $row uses {$v}: set $v"
			s=${s//"{$v}"/${!v}}
		done
		printf '%s' "$s"
	}
	append=$(subst "$ROW_APPEND")
	tmo=$(subst "$ROW_TIMEOUT")
	[[ "$tmo" =~ ^[0-9+*/\ -]+$ ]] && tmo=$((tmo)) && [ "$tmo" -gt 0 ] ||
		die "row $row: timeout '$ROW_TIMEOUT' is not a positive number of seconds ('$tmo')"
	run=$ROW_SUITES
	for m in ${ROW_MACHINE//+/ }; do
		case $m in
		mem=*) mem=${m#mem=} ;;
		numa=*) numa_sizes=${m#numa=} ;;
		virt) virt=1 ;;
		icount) icount=0 ;;
		icount=*) icount=${m#icount=} ;;
		initrd=*) initrd_name=${m#initrd=} initrd=$BUILD/initramfs-${m#initrd=}.cpio ;;
		esac
	done
	name=${name:-$row}
	# Another kernel or CPU model than the row's: an ad-hoc boot.
	if [ -n "$kernel" ] || { [ -n "$variant" ] && [ "$variant" != "$ROW_KERNEL" ]; } ||
		{ [ -n "$cpu" ] && [ "$cpu" != "$ROW_CPU" ]; }; then
		say "boot[$name]: row $row on ${kernel:-${variant:-$ROW_KERNEL}}, -cpu ${cpu:-$ROW_CPU}: ad hoc, not the row's expectation"
		variant=${variant:-$ROW_KERNEL}
	else
		haft=$ROW_HAFT caps=$ROW_CAPS variant=$ROW_KERNEL
	fi
	cpu=${cpu:-$ROW_CPU}
else
	tmo=${tmo:-600}
	if [ -n "$expect" ]; then
		[[ "$expect" =~ ^(yes|no),(0x000[137])$ ]] || die "-e takes HAFT,CAPS: yes or no, and 0x0001, 0x0003 or 0x0007, not '$expect'"
		haft=${BASH_REMATCH[1]} caps=${BASH_REMATCH[2]}
	fi
fi
cpu=${cpu:-${CPU:-max}} variant=${variant:-default}
x86=0
if [ "${variant#x86:}" != "$variant" ]; then
	x86=1
	QEMU=${QEMU_X86:-/usr/bin/qemu-system-x86_64}
	[ -x "$QEMU" ] || die "$QEMU missing: apt-get install qemu-system-x86 (LAB_ARCH=x86 make deps)"
	[ "$virt" = 0 ] || die "virt (EL2) is for arm64 kernels, not $variant"
	# the x86 builds: initramfs-x86.cpio, a row's initrd=NAME initramfs-NAME-x86.cpio
	[ "$initrd" != "$BUILD/initramfs.cpio" ] || initrd=$BUILD/initramfs-x86.cpio
	[ -z "$initrd_name" ] || initrd=$BUILD/initramfs-$initrd_name-x86.cpio
	q_haft=- q_tcr2=- q_has=no
	[ -n "$haft" ] || haft=no caps=0x0007
else
	[ -x "$QEMU" ] || die "$QEMU missing: run 'make qemu'"
	"$QEMU" --version | grep -q haftlab || die "$QEMU is not the lab's QEMU build; refusing to run another emulator"
	# What QEMU itself says the CPU model has, for the whole -cpu string.
	read -r q_haft q_tcr2 <<<"$(qemu_cpu_props "$cpu" haft tcr2)" || true
	[ -n "${q_tcr2:-}" ] || die "$QEMU refuses -cpu $cpu (asked over QMP)"
	q_has=no
	[ "$q_haft" = on ] && [ "$q_tcr2" = on ] && q_has=yes
fi
if [ -z "$haft" ]; then
	haft=$q_has
	haft_off_by "$append" && haft=no
	caps=0x0003
	[ $haft = yes ] && caps=0x0007
fi
[ "$haft" = no ] || [ $q_has = yes ] ||
	die "${row:+row $row of ${BOOTS#"$TOP"/}: }expects FEAT_HAFT in use on -cpu $cpu, but QEMU says haft=$q_haft tcr2=$q_tcr2 there: the table or the QEMU is wrong"

case "$variant" in
stock:*) [ -n "$kernel" ] || kernel=$("$TOP/scripts/stock-kernel.sh" "${variant#stock:}") ||
	die "Debian's ${variant#stock:} kernel could not be fetched (scripts/stock-kernel.sh ${variant#stock:})" ;;
x86:*) [ -n "$kernel" ] || kernel=$(LAB_ARCH=x86 "$TOP/scripts/stock-kernel.sh" "${variant#x86:}") ||
	die "Debian's amd64 ${variant#x86:} kernel could not be fetched (LAB_ARCH=x86 scripts/stock-kernel.sh ${variant#x86:})" ;;
newest/*) kernel=${kernel:-$BUILD/newest/kernel-${variant#newest/}/arch/arm64/boot/Image} ;;
# Debian's mainline source without and with upstream/tcr2-fix (check.sh's
# mainline gate builds both).
mainline/*) kernel=${kernel:-$BUILD/kernel-mainline-${variant#mainline/}/arch/arm64/boot/Image} ;;
esac
kernel=${kernel:-$BUILD/kernel-$variant/arch/arm64/boot/Image}
[ -f "$kernel" ] || die "$kernel missing: run 'make kernel'"
mk='make'
[ $x86 = 0 ] || mk="LAB_ARCH=x86 make kselftest"
[ -f "$initrd" ] || die "$initrd missing: run '$mk initramfs'"

if [ $x86 = 1 ]; then
	machine=q35 qcpu=$cpu console=ttyS0
	# A bzImage: its version is in the setup header, which file(1) reads.
	release=$(file -bL "$kernel" | sed -n 's/.*, version \([0-9]*\.[0-9]*\).*/\1/p')
else
	machine=virt,gic-version=3 qcpu=$cpu console=ttyAMA0
	[ "$virt" = 1 ] && machine=$machine,virtualization=on
	# max is slow under TCG with the architected pointer-auth algorithm.
	case "$cpu" in max | max,*) qcpu="$cpu,pauth-impdef=on" ;; esac
	release=$(zcat -f "$kernel" 2>/dev/null | grep -a -m1 -o 'Linux version [0-9]*\.[0-9]*' | sed 's/^Linux version //') || true
fi
[ -n "$release" ] || warn "no 'Linux version' string in $kernel: expecting release 6.12"
haft01=0
[ "$haft" = yes ] && haft01=1

cmdline="console=$console panic=-1 lab.expect_caps=$caps lab.expect_haft=$haft01 lab.expect_release=${release:-6.12} lab.cpu=${cpu//,/+} $append"
# NUMA=SIZE0,SIZE1 (MiB) instead of MEM: two nodes, one CPU each; a size
# of 0 makes that node memory-less (its CPU allocates from the other).
numa=()
if [ -n "$numa_sizes" ]; then
	IFS=, read -ra sizes <<<"$numa_sizes"
	[[ ${#sizes[@]} = 2 && "${sizes[0]}" =~ ^[0-9]+$ && "${sizes[1]}" =~ ^[0-9]+$ &&
		$((sizes[0] + sizes[1])) -gt 0 ]] ||
		die "NUMA=SIZE0,SIZE1 takes two sizes in MiB, not '$numa_sizes'"
	mem=$((sizes[0] + sizes[1]))M
	for n in 0 1; do
		size=${sizes[$n]}
		if [ "$size" = 0 ]; then
			numa+=(-numa "node,nodeid=$n,cpus=$n")
		else
			numa+=(-object "memory-backend-ram,id=m$n,size=${size}M"
				-numa "node,nodeid=$n,cpus=$n,memdev=m$n")
		fi
	done
fi
# On x86 two cores of one socket share a cache, and the kernel warns when
# such siblings sit in two nodes: there each CPU is a socket of its own.
smp=2
[ $x86 = 0 ] || [ ${#numa[@]} = 0 ] || smp=2,sockets=2
Q=("$QEMU" -M "$machine" -cpu "$qcpu" -smp "$smp" -m "$mem" "${numa[@]}" -nic none
	-no-reboot -kernel "$kernel" -initrd "$initrd")
# ICOUNT=1 (a row's icount): the guest's clock counts the instructions it
# executes, 1 ns each (shift=0), and skips idle time (sleep=off), so the
# guest's own timings are instruction counts, the same on every run.
# icount=N (ICOUNT_SHIFT=N): 2^N ns per instruction, the same kind of
# clock running 2^N times faster, for guests that must sleep or spin for
# given times (the mm kselftest rows).
# icount holds the shift, empty without icount.
[ "${ICOUNT:-0}" = 0 ] || icount=${icount:-${ICOUNT_SHIFT:-0}}
[ -z "$icount" ] || [[ "$icount" =~ ^[0-9]$ ]] || die "icount shift '$icount' is not 0..9"
[ -z "$icount" ] || Q+=(-icount "shift=$icount,sleep=off")
# x86 runs single-threaded TCG (both vCPUs on one host thread): under
# Debian's QEMU 7.2 with a thread per vCPU, a CPU can run an int3 that
# text_poke_bp() has already taken out when the other flips a static key,
# and oopses ("Oops: int3" in folio_add_lru() or folio_mark_accessed(),
# the lru_gen_caps branches). CI's x86/6.12 row hit it once in the
# kselftest's "multi-gen LRU off" case; the textpoke suite (the multi-gen
# LRU core switched in a loop beside a tmpfs writer) oopses within seconds
# with X86_ACCEL=tcg and never with thread=single (docs/findings.md).
[ $x86 = 0 ] || Q+=(-accel "${X86_ACCEL:-tcg,thread=single}")

if [ $dry = 1 ]; then
	printf 'qemu:'
	printf ' %q' "${Q[@]}"
	printf '\nappend: %s\n' "$cmdline lab.run=$([ $interactive = 1 ] && echo shell || echo "$run")"
	exit 0
fi
if [ $interactive = 1 ]; then
	say "boot: interactive shell on $cpu (Ctrl-A X quits)"
	exec "${Q[@]}" -nographic -append "$cmdline lab.run=shell"
fi

[ -n "$run" ] || die "boot.sh: -r SUITES or -i required"
name=${name:-$run-${cpu//[,=]/_}}
log=$BUILD/results/$name.log
mkdir -p "$(dirname "$log")"
say "boot[$name]: $cpu, suites $run, timeout ${tmo}s, console in ${log#$TOP/}"
set +e
timeout --foreground -k 5 "$tmo" "${Q[@]}" -display none -monitor none -serial stdio \
	-append "$cmdline lab.run=$run" </dev/null 2>&1 | tee "$log" |
	grep --line-buffered -E '^LAB: |Kernel panic|Internal error' | sed -u "s|^|    [$name] |"
rc=${PIPESTATUS[0]}
set -e
[ "$rc" = 124 ] && echo "LAB-HOST: timeout after ${tmo}s" >>"$log"
[ "$rc" = 0 ] || [ "$rc" = 124 ] || echo "LAB-HOST: qemu exited with status $rc" >>"$log"
exec python3 "$TOP/scripts/verdict.py" guest "$name" "$log" --suites "$run"
