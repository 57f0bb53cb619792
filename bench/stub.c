/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stub: a runtime that does nothing, built static.  entitle execs it in
 * place of runc, so getrusage(RUSAGE_SELF).ru_maxrss, which the kernel
 * carries across execve, is the peak RSS of entitle (front and full) in
 * this process; the stub itself is far smaller.  Prints it in KiB.
 */
#include <stdio.h>
#include <sys/resource.h>

int
main (void)
{
  struct rusage r;
  getrusage (RUSAGE_SELF, &r);
  printf ("%ld\n", r.ru_maxrss);
  return 0;
}
