/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line options of the lab's guest programs, from a table: each
 * option letter names its kind and where its value goes, so a program
 * lists its options once instead of writing a getopt() switch.
 */
#ifndef LAB_OPTS_H
#define LAB_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

enum opt_kind {
	OPT_INT, /* int, atoi() */
	OPT_ULONG, /* unsigned long, strtoul() with base 0 */
	OPT_DOUBLE, /* double, atof() */
	OPT_STR, /* const char *, the argument itself */
	OPT_FLAG, /* bool, set when the option is given */
};

struct opt {
	char name;
	enum opt_kind kind;
	void *dst;
};

/*
 * Parse the options from argv[optind] on into the table's destinations.
 * Returns 0, or -1 on an option the table does not have or one whose
 * argument is missing.
 */
static inline int parse_opts(int argc, char **argv, const struct opt *o,
			     size_t n)
{
	char spec[2 * 26 * 2 + 1];
	size_t k = 0;
	int c;

	for (size_t i = 0; i < n && k + 2 < sizeof(spec); i++) {
		spec[k++] = o[i].name;
		if (o[i].kind != OPT_FLAG)
			spec[k++] = ':';
	}
	spec[k] = '\0';
	while ((c = getopt(argc, argv, spec)) != -1) {
		const struct opt *p = NULL;

		for (size_t i = 0; i < n; i++)
			if (o[i].name == c)
				p = &o[i];
		if (!p)
			return -1;
		if (p->kind == OPT_INT)
			*(int *)p->dst = atoi(optarg);
		else if (p->kind == OPT_ULONG)
			*(unsigned long *)p->dst = strtoul(optarg, NULL, 0);
		else if (p->kind == OPT_DOUBLE)
			*(double *)p->dst = atof(optarg);
		else if (p->kind == OPT_STR)
			*(const char **)p->dst = optarg;
		else
			*(bool *)p->dst = true;
	}
	return 0;
}

#endif /* LAB_OPTS_H */
