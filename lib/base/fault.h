/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_FAULT_H
#define ENTITLE_FAULT_H

/* Test-only fault injection (./configure --enable-fault-injection): at
   ENTITLE_FAULT_POINT ("NAME"), a process whose environment holds
   ENTITLE_FAULT=NAME kills itself with SIGKILL, as a crash or an OOM kill
   would at that step.  Release builds compile the points to nothing.  */

#ifdef ENTITLE_FAULT_INJECTION
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static inline void
entitle_fault_point (const char *name)
{
  const char *want = getenv ("ENTITLE_FAULT");

  if (want && strcmp (want, name) == 0)
    raise (SIGKILL);
}

#define ENTITLE_FAULT_POINT(name) entitle_fault_point (name)
#else
#define ENTITLE_FAULT_POINT(name) \
  do                              \
    {                             \
    }                             \
  while (0)
#endif

#endif
