// SPDX-License-Identifier: GPL-2.0
/*
 * A module for make check's modabi gate (scripts/check.sh): built against
 * the unpatched 6.12.y base with CONFIG_MODVERSIONS and loaded into the
 * series' kernel. cpus_have_cap() is inline and reads system_cpucaps, so
 * the module records that symbol's CRC as the base exported it; the load
 * fails ("disagrees about version of symbol system_cpucaps") if the
 * series changed it.
 *
 * The capability number is a parameter, so that the compiler cannot fold
 * the test away and the reference to system_cpucaps stays.
 */
#include <linux/module.h>
#include <asm/cpufeature.h>

static uint cap = ARM64_HAS_TCR2;
module_param(cap, uint, 0444);
MODULE_PARM_DESC(cap, "capability number to test (default ARM64_HAS_TCR2)");

static int __init modabi_probe_init(void)
{
	pr_info("modabi_probe: built with ARM64_NCAPS %d, cpus_have_cap(%u) = %d\n",
		ARM64_NCAPS, cap, cpus_have_cap(cap));
	return 0;
}

static void __exit modabi_probe_exit(void)
{
}

module_init(modabi_probe_init);
module_exit(modabi_probe_exit);
MODULE_DESCRIPTION("Reads system_cpucaps through cpus_have_cap()");
MODULE_LICENSE("GPL");
