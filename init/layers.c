/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "init.h"

/* The layers, applied in this order before execve.  eBPF seccomp goes
   after Landlock: a filter installed first could deny Landlock's system
   calls.  */
static void (*const layers[]) (const struct plan *) = {
  init_landlock,
  init_seccomp,
};

void
init_apply (const struct plan *p)
{
  for (size_t i = 0; i < sizeof (layers) / sizeof (layers[0]); i++)
    layers[i](p);
}

void
init_fail (int status, const char *fmt, ...)
{
  va_list ap;

  fputs ("entitle-init: ", stderr);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  exit (status);
}

bool
plan_has (const struct plan *p, enum rule_kind kind)
{
  for (size_t i = 0; i < p->n_rules; i++)
    if (p->rules[i].kind == kind)
      return true;
  return false;
}
