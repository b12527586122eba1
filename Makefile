# FEAT_HAFT lab: thin entry points; each step is a script in scripts/.
# Caches (ccache, QEMU source and build, guest packages) live in $(CACHE).
CACHE ?= /var/cache/haftlab
CPU ?= max
VARIANT ?= default
export CACHE CPU

S := scripts

.PHONY: help deps tree kernel qemu kselftest initramfs build run shell test \
	check patches reset-tree clean

help:
	@echo "FEAT_HAFT lab: targets"
	@echo "  make run         build everything, boot on CPU=$(CPU), run the boot, HAFT and kselftest suites, print the headline"
	@echo "  make test        everything that must pass (what CI runs); ends 'N passed, N failed'"
	@echo "  make check       slow compile-only gates: per-patch bisect builds, config variants"
	@echo "  make shell       interactive guest shell on the serial console (Ctrl-A X quits)"
	@echo "  make patches     export build/linux commits on top of 'base' to patches/"
	@echo "  make deps | tree | kernel | qemu | kselftest | initramfs   single steps"
	@echo "  make reset-tree  drop build/linux and re-create it from patches/"
	@echo "  make clean       remove build/ (caches in $(CACHE) stay)"
	@echo "Variables: CPU=$(CPU) (QEMU -cpu), VARIANT=$(VARIANT) (configs/VARIANT.config), CACHE=$(CACHE)"

deps:
	@$(S)/deps.sh
tree: deps
	@$(S)/kernel-tree.sh
kernel: tree
	@$(S)/kernel-build.sh $(VARIANT)
qemu: deps
	@$(S)/qemu-build.sh
kselftest: tree
	@$(S)/kselftest-build.sh
initramfs: deps kselftest
	@$(S)/initramfs.sh
build: kernel qemu initramfs

run: build
	@$(S)/boot.sh -k $(VARIANT) -c $(CPU) -r boot,haft,lru-nonleaf -n run
	@$(S)/headline.py build/results/run.log || true

shell: build
	@$(S)/boot.sh -k $(VARIANT) -c $(CPU) -i

test:
	@$(S)/test.sh

check: tree
	@$(S)/check.sh

patches:
	@$(S)/export-patches.sh

reset-tree:
	rm -rf build/linux build/linux.applied build/linux.base
	@$(S)/kernel-tree.sh

clean:
	rm -rf build
