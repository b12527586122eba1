#!/bin/bash
# Bare-metal checks of the emulator's FEAT_HAFT (and the FEAT_TCR2 it
# depends on): builds
# qemu/tests/baremetal once per CPU variant into build/qemu-tests/, runs each
# under the lab's QEMU at EL3 (-M virt,secure=on,virtualization=on), and
# prints their TAP lines, then the plan. Exits non-zero on any failure.
#   qemu/run-tests.sh            QEMU=... selects another binary
. "$(dirname "$0")/../scripts/lib.sh"
need "${CROSS}gcc" timeout python3

src=$TOP/qemu/tests/baremetal
out=$BUILD/qemu-tests
mkdir -p "$out"
[ -x "$QEMU" ] || die "$QEMU missing: run 'make qemu'"

# variant number (haft-test.c VARIANT) and the -cpu options it expects;
# HAFT_TEST_RUNS="N CPU;..." runs others (qemu/tests/mutants.sh does).
# Variant 4 is the race of two vCPUs on one table descriptor: -smp 2 with
# one host thread per vCPU (MTTCG).
# HAFT_SKIP_RACE=1 leaves it out (qemu/tests/mutants.sh, for the bugs
# that cannot affect it).
# Variant 5 sets up a walk and waits; the checks are made from the host
# through the monitor (qemu/tests/debug-walk.py): a debug translation
# must change no descriptor.
default="0 max;1 max,haft=off;2 max,tcr2=off;3 max,x-haft-without-tcr2=on;5 max;6 max"
[ "${HAFT_SKIP_RACE:-}" = 1 ] || default+=";4 max"
IFS=";" read -ra variants <<<"${HAFT_TEST_RUNS:-$default}"

n=0 failed=0
tap() { # LINE: pass one result line through, numbered in this run, and count it
	n=$((n + 1))
	case "$1" in
	"not ok"*)
		failed=$((failed + 1))
		printf 'not ok %d%s\n' "$n" "${1#not ok}"
		;;
	*) printf 'ok %d%s\n' "$n" "${1#ok}" ;;
	esac
}

pass_tap() { # FILE: pass its TAP and comment lines through
	local line
	while IFS= read -r line; do
		case "$line" in
		"ok "* | "not ok "*) tap "$line" ;;
		"#"* | "Bail out!"*) printf '%s\n' "$line" ;;
		esac
	done <"$1"
}

for v in "${variants[@]}"; do
	read -r num cpu <<<"$v"
	elf=$out/haft-test-$num.elf
	log=$out/haft-test-$num.log
	"${CROSS}gcc" -DVARIANT="$num" -ffreestanding -nostdlib -nostartfiles \
		-static -fno-pie -no-pie -O2 -g -Wall -Wextra -Werror \
		-mgeneral-regs-only -mbranch-protection=none \
		-Wl,--build-id=none -Wl,--no-warn-rwx-segments \
		-T "$src/haft-test.ld" -o "$elf" "$src/start.S" "$src/haft-test.c" ||
		die "could not build $elf"

	if [ "$num" = 5 ]; then
		sock=$out/debug-walk.qmp
		rm -f "$sock" "$log"
		timeout -k 5 60 "$QEMU" -M virt,secure=on,virtualization=on \
			-accel tcg -cpu "$cpu,pauth-impdef=on" -m 128M -nic none \
			-display none -monitor none -serial "file:$log" \
			-qmp "unix:$sock,server=on,wait=off" -semihosting \
			-kernel "$elf" </dev/null >"$log.qemu" 2>&1 &
		qpid=$!
		rc=0
		python3 "$TOP/qemu/tests/debug-walk.py" "$sock" "$log" \
			"$cpu (debug walk)" >"$log.tap" 2>&1 || rc=$?
		kill "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
		pass_tap "$log.tap"
		if [ "$rc" != 0 ]; then
			tap "not ok - $cpu (debug walk): the host-side checks ran: exit status $rc; log: ${log#"$TOP"/}"
			sed 's/^/#   /' "$log.tap" "$log.qemu" | tail -n 5
		fi
		continue
	fi

	# Variant 6: the program waits while gdb-debug.py works through the
	# gdbstub, then checks the descriptors and the TLB itself and exits.
	machine=virt,secure=on,virtualization=on
	if [ "$num" = 6 ]; then
		need gdb-multiarch
		machine+=",mte=on"
		sock=$out/gdb-debug.sock
		rm -f "$sock" "$log"
	fi
	# The race runs until enough of its walks overlapped CPU 1's updates,
	# which takes longer the busier the host is.
	smp=1 tmo=60
	[ "$num" = 4 ] && smp=2 tmo=600
	rc=0
	gdbopt=()
	[ "$num" = 6 ] && gdbopt=(-gdb "unix:$sock,server=on,wait=off")
	timeout -k 5 $tmo "$QEMU" -M "$machine" \
		-accel tcg,thread=multi -cpu "$cpu,pauth-impdef=on" -smp $smp \
		-m 128M -nic none "${gdbopt[@]}" \
		-display none -monitor none -serial stdio -semihosting \
		-kernel "$elf" </dev/null >"$log" 2>&1 &
	qpid=$!
	if [ "$num" = 6 ]; then
		grc=0
		python3 "$TOP/qemu/tests/gdb-debug.py" "$sock" "$log" \
			"$cpu (gdbstub)" >"$log.tap" 2>&1 || grc=$?
		pass_tap "$log.tap"
		if [ "$grc" != 0 ]; then
			tap "not ok - $cpu (gdbstub): gdb-debug.py ran its checks: exit status $grc"
			kill "$qpid" 2>/dev/null || true
		fi
	fi
	wait "$qpid" || rc=$?
	before=$failed
	while IFS= read -r line; do
		line=${line%$'\r'}
		case "$line" in
		"ok "* | "not ok "*) tap "$line" ;;
		"#"* | "Bail out!"*) printf '%s\n' "$line" ;;
		esac
	done <"$log"
	# The program exits with its number of failed checks; anything else
	# (no start, a crash, a timeout) is a failure of its own.
	if [ "$rc" != "$((failed - before))" ]; then
		why="exit status $rc"
		[ "$rc" = 124 ] && why="timed out after ${tmo}s"
		tap "not ok - $cpu: the test program ran to completion: expected exit status $((failed - before)) (its failed checks), seen $why; log: ${log#"$TOP"/}"
		grep -vE '^(ok|not ok|#)' "$log" | tail -n 5 | sed 's/^/#   /'
	fi
done

# The properties, on the host: contradictory combinations are refused
# with a message, and after realize the properties read what the CPU has.
refused() { # CPU WORDS...: QEMU must refuse -cpu CPU, saying all WORDS
	local cpu=$1 msg w ok=1
	shift
	msg=$(timeout 30 "$QEMU" -M virt -cpu "$cpu" -nodefaults -nic none -display none \
		-S -monitor none 2>&1 </dev/null) && ok=0
	for w in "$@"; do grep -q -- "$w" <<<"$msg" || ok=0; done
	msg=${msg//$'\n'/ }
	if [ $ok = 1 ]; then tap "ok - host: -cpu $cpu is refused, naming $*"; else
		tap "not ok - host: -cpu $cpu is refused, naming $*: expected an error, seen '${msg:-no error}'"; fi
	echo "#   $msg"
}
if [ -z "${HAFT_TEST_RUNS:-}" ]; then
	# The two series meant for upstream (qemu/fixes, then qemu/patches):
	# QEMU's own checkpatch, clean. It
	# warns about every patch that adds a file and leaves MAINTAINERS
	# alone; that one warning is accepted where MAINTAINERS already lists
	# a directory holding each added file (tests/tcg/aarch64/ is in "ARM
	# TCG CPUs"), as upstream accepts it, rather than adding F: lines
	# that say nothing new. And its rule that a bitfield's ':' takes no
	# spaces contradicts structs that align their bitfields (as
	# ARMVAParameters does, its pie and aie lines included): an added
	# line "bool NAME   : 1;" is accepted where the patch's own context
	# has a line of that form, and only that error.
	covered() { # covered PATCH: MAINTAINERS lists a directory of each file PATCH adds
		local f d
		for f in $(awk '/^--- \/dev\/null$/ { n = 1; next } n && sub(/^\+\+\+ b\//, "") { print } { n = 0 }' "$1"); do
			d=$f
			while [ "$d" != "${d%/*}" ]; do
				d=${d%/*}
				awk -v d="$d/" '$1 == "F:" && $2 == d { f = 1 } END { exit !f }' \
					"$QEMU_DIR/src/MAINTAINERS" && continue 2
			done
			return 1
		done
	}
	aligned_bitfields() { # aligned_bitfields OUT PATCH: OUT's errors are all about aligned bool bitfields PATCH's context has too
		local what
		grep -q "^ *bool [a-z_0-9]* *: 1;\$" <(sed -n 's/^ //p' "$2") || return 1
		[ "$(grep -c '^ERROR' <<<"$1")" = "$(grep -c "^ERROR: spaces prohibited around that ':' (ctx:WxW)" <<<"$1")" ] || return 1
		while IFS= read -r what; do
			grep -q '^+ *bool [a-z_0-9]* \+: 1;$' <<<"$what" || return 1
		done < <(grep -A2 "^ERROR: spaces prohibited around that ':'" <<<"$1" | grep '^+')
	}
	while IFS= read -r p; do
		out=$(perl "$QEMU_DIR/src/scripts/checkpatch.pl" "$p" 2>&1) && rc=0 || rc=$?
		if grep -q "^total: [1-9][0-9]* errors" <<<"$out" && aligned_bitfields "$out" "$p"; then
			out=$(sed -e "/^ERROR: spaces prohibited around that ':' (ctx:WxW)/d" \
				-e 's/^total: [0-9]* errors/total: 0 errors/' <<<"$out")
			grep -q '^WARNING' <<<"$out" || rc=0
		fi
		if grep -q '^total: 0 errors, 1 warnings' <<<"$out" &&
			[ "$(grep -c '^WARNING' <<<"$out")" = 1 ] &&
			grep -q '^WARNING: added, moved or deleted file(s)' <<<"$out" && covered "$p"; then
			rc=0 out="total: 0 errors, 0 warnings"
		fi
		if [ $rc = 0 ] && grep -q '^total: 0 errors, 0 warnings' <<<"$out"; then
			tap "ok - host: QEMU's checkpatch.pl: $(basename "$(dirname "$p")")/$(basename "$p")"
		else
			tap "not ok - host: QEMU's checkpatch.pl: $(basename "$(dirname "$p")")/$(basename "$p"): expected no errors or warnings"
			grep -E '^(ERROR|WARNING)' <<<"$out" | head -5 | sed 's/^/#   /'
		fi
	done < <(for q in ${HAFT_QEMU_PATCHES:-$TOP/qemu/fixes $TOP/qemu/patches}; do series_files "$q"; done)
	refused max,tcr2=off,haft=on haft tcr2
	refused max,x-haft-without-tcr2=on,haft=off x-haft-without-tcr2 haft=off
	for c in "max:on on" "max,haft=off:off on" "max,tcr2=off:off off" "max,x-haft-without-tcr2=on:on off"; do
		seen=$(qemu_cpu_props "${c%%:*}" haft tcr2)
		what="host: -cpu ${c%%:*}: haft and tcr2 read what is implemented (${c#*:})"
		if [ "$seen" = "${c#*:}" ]; then
			tap "ok - $what"
		else
			tap "not ok - $what: expected ${c#*:}, seen '$seen'"
		fi
	done
fi

echo "1..$n"
[ "$failed" = 0 ] || { echo "# $failed of $n checks failed" >&2; exit 1; }
