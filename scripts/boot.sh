#!/bin/bash
# Boot the lab kernel and initramfs under the lab's QEMU.
#   boot.sh [-k VARIANT] [-c CPU] [-a APPEND] [-r SUITES] [-t SECONDS] [-n NAME] [-i]
# -r runs guest suites (comma separated, from guest/tests) and powers off;
# the console goes to build/results/NAME.log and scripts/verdict.py judges
# it against the suites asked for. -i gives an interactive shell on the
# serial console instead. Environment: VIRT=1 adds virtualization=on (the
# kernel starts at EL2: a KVM host), INITRD= another initramfs.
. "$(dirname "$0")/lib.sh"
shopt -s extglob

variant=default cpu=${CPU:-max} append= run= tmo=600 name= interactive=0
kernel=
while getopts k:K:c:a:r:t:n:i opt; do
	case $opt in
	k) variant=$OPTARG ;;
	K) kernel=$OPTARG ;;
	c) cpu=$OPTARG ;;
	a) append=$OPTARG ;;
	r) run=$OPTARG ;;
	t) tmo=$OPTARG ;;
	n) name=$OPTARG ;;
	i) interactive=1 ;;
	*) die "usage: boot.sh [-k VARIANT|-K IMAGE] [-c CPU] [-a APPEND] [-r SUITES] [-t SECONDS] [-n NAME] [-i]" ;;
	esac
done
kernel=${kernel:-$BUILD/kernel-$variant/arch/arm64/boot/Image}
initrd=${INITRD:-$BUILD/initramfs.cpio}
# VIRT=1: EL2 for the guest kernel (a KVM host, VHE on max).
machine=virt,gic-version=3
[ "${VIRT:-0}" = 1 ] && machine=$machine,virtualization=on
[ -x "$QEMU" ] || die "$QEMU missing: run 'make qemu'"
"$QEMU" --version | grep -q haftlab || die "$QEMU is not the lab's QEMU build; refusing to run another emulator"
[ -f "$kernel" ] || die "$kernel missing: run 'make kernel'"
[ -f "$initrd" ] || die "$initrd missing: run 'make initramfs'"

# max is slow under TCG with the architected pointer-auth algorithm.
qcpu=$cpu
case "$cpu" in max | max,*) qcpu="$cpu,pauth-impdef=on" ;; esac

# What lru_gen/enabled must read: 0x0001 without hardware AF, 0x0003 with
# it, 0x0007 when the kernel, the CPU model and the command line all allow
# HAFT. The test-only x-haft-without-tcr2 model claims HAFT without
# FEAT_TCR2, which the kernel must not use. Of the id_aa64mmfr1.hafdbs=
# overrides 1 and 2 turn HAFT off: the kernel rejects 0, and values above
# what the CPU has.
caps=0x0003
case "$cpu" in cortex-a53* | cortex-a57* | cortex-a72* | cortex-a35*) caps=0x0001 ;; esac
# The kernel's config: the build directory's .config for the lab's own
# kernels, the file Debian ships next to the image for -K (config-VERSION
# beside boot/vmlinuz-VERSION, or config beside usr/lib/modules/V/vmlinuz).
kdir=$(dirname "$kernel") kbase=$(basename "$kernel")
kconfig=
for f in "$kdir/../../../.config" "$kdir/config-${kbase#vmlinuz-}" "$kdir/config"; do
	[ -f "$f" ] && { kconfig=$f; break; }
done
[ -n "$kconfig" ] || warn "no kernel config found next to $kernel: expecting no FEAT_HAFT"
release=$(sed -n 's|^# Linux/arm64 \([0-9]*\.[0-9]*\)[^ ]* Kernel Configuration$|\1|p' "${kconfig:-/dev/null}" | head -1)
haft=0
if [ "$caps" = 0x0003 ] && grep -qs '^CONFIG_ARM64_HAFT=y' "$kconfig" &&
	[ "$(qemu_cpu_props max haft)" = on ] &&
	[[ "$cpu" == max* && "$cpu" != *haft=off* && "$cpu" != *tcr2=off* &&
		"$cpu" != *x-haft-without-tcr2=on* ]] &&
	[[ " $append " != *" arm64.nohaft "* && " $append " != *" id_aa64mmfr1.hafdbs="?(0x)[12]" "* ]]; then
	haft=1 caps=0x0007
fi

cmdline="console=ttyAMA0 panic=-1 lab.expect_caps=$caps lab.expect_haft=$haft lab.expect_release=${release:-6.12} lab.cpu=${cpu//,/+} $append"
# NUMA=SIZE0,SIZE1 (MiB) instead of MEM: two nodes, one CPU each; a size
# of 0 makes that node memory-less (its CPU allocates from the other).
mem=${MEM:-3G} numa=()
if [ -n "${NUMA:-}" ]; then
	IFS=, read -ra sizes <<<"$NUMA"
	[[ ${#sizes[@]} = 2 && "${sizes[0]}" =~ ^[0-9]+$ && "${sizes[1]}" =~ ^[0-9]+$ &&
		$((sizes[0] + sizes[1])) -gt 0 ]] ||
		die "NUMA=SIZE0,SIZE1 takes two sizes in MiB, not '$NUMA'"
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
Q=("$QEMU" -M "$machine" -cpu "$qcpu" -smp 2 -m "$mem" "${numa[@]}" -nic none
	-no-reboot -kernel "$kernel" -initrd "$initrd")

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
