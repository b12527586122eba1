# FEAT_HAFT lab: thin entry points; each step is a script in scripts/.
# Caches (ccache, QEMU source and build, guest packages) live in $(CACHE).
CACHE ?= /var/cache/haftlab
CPU ?= max
DURATION ?= 3600
VARIANT ?= default
export CACHE CPU

S := scripts

.PHONY: help deps tree kernel qemu kselftest initramfs build run shell test \
	harness-test check bench soak mm-selftests patches results reset-tree clean x86

help:
	@echo "FEAT_HAFT lab: targets"
	@echo "  make run         build everything, boot on CPU=$(CPU), run the boot, HAFT and kselftest suites, print the headline"
	@echo "  make test        everything that must pass (what CI runs); ends 'N passed, N failed'"
	@echo "  make harness-test  seconds: the step runner and log judge catch each crafted failure (make test runs it first)"
	@echo "  make check       slow gates (CHECKS=...): bisect builds, config variants, the debug and 16 KiB kernels, mainline, KVM, module ABI; each gate's result and time in results/check.json"
	@echo "  make x86         Debian's x86-64 kernels (6.12, current) on Debian's qemu-system-x86 (TCG): boot and kselftest (make test runs two of its rows)"
	@echo "  make soak        DURATION=$(DURATION) s of stress-ng, aging, lru_gen toggles and CPU1 hotplug, on max and max,haft=off"
	@echo "  make bench       the benchmark matrix (REPS=5): build/results/bench/bench.{md,csv,png}"
	@echo "  make shell       interactive guest shell on the serial console (Ctrl-A X quits)"
	@echo "  make patches     export build/linux commits on top of 'base' to patches/"
	@echo "  make results     publish the last make test into results/ (README.md, test.json) and the cover letter's numbers"
	@echo "  make deps | tree | kernel | qemu | kselftest | initramfs   single steps"
	@echo "  make reset-tree  drop build/linux and re-create it from patches/"
	@echo "  make clean       remove build/ (caches in $(CACHE) stay)"
	@echo "Boots: each boot of test, check, bench, soak and run is a row of ./boots (its comment says how to read it);"
	@echo "  scripts/boot.sh -b ROW runs one, -N prints its QEMU and kernel command lines without booting"
	@awk '/^## / { sub(/^## /, ""); print; next } /^#/ || NF == 0 { next } \
		{ d = $$2; if ($$1 !~ /^lab\./) gsub(/\+/, " ", d); m = $$0; \
		  sub(/^[^ ]+ +[^ ]+ +/, "", m); printf "  %-22s %s (default: %s)\n", $$1, m, d }' variables

deps:
	@$(S)/deps.sh
tree: deps
	@$(S)/kernel-tree.sh
kernel: tree
	@$(S)/kernel-build.sh $(VARIANT)
qemu: deps
	@$(S)/qemu-build.sh
# The mm kselftests the guest runs (lru_gen_nonleaf and a subset of the
# kernel's own), with the kselftest runner; mm-selftests is an old name.
kselftest: tree
	@$(S)/kselftest-build.sh
mm-selftests: kselftest
initramfs: deps kselftest
	@$(S)/initramfs.sh
build: kernel qemu initramfs

# The headline: cold, fully hot and worst-case aging walks of 1 GiB, 0x0003
# and 0x0007 alternated 5 times (agebench; the row 'run' of ./boots, ad hoc
# on another CPU or VARIANT); 'make bench' runs the matrix.
run: build
	@$(S)/boot.sh -b run -k $(VARIANT) -c $(CPU)
	@$(S)/bench-report.py --headline build/results/run.log || true

shell: build
	@$(S)/boot.sh -k $(VARIANT) -c $(CPU) -i

test:
	@$(S)/test.sh

harness-test:
	@$(S)/harness-test.sh

# The rows of ./boots for x86: Debian's amd64 kernels under TCG, with the
# kselftest and an initramfs built for x86-64 (LAB_ARCH=x86); results in
# build/results/x86, apart from make test's.
x86:
	@$(S)/test.sh x86

check: tree initramfs
	@$(S)/check.sh

bench: build
	@$(S)/bench.sh

soak: build
	@$(S)/soak.sh $(DURATION)

patches:
	@$(S)/export-patches.sh

# Publish the last 'make test' (build/results/) into results/test.json and
# regenerate results/README.md and the cover letter's numbers from it and
# results/bench.csv; refuses a run with failures.
results:
	@$(S)/results.py publish build/results

reset-tree:
	rm -rf build/linux build/linux.applied build/linux.base
	@$(S)/kernel-tree.sh

clean:
	rm -rf build
