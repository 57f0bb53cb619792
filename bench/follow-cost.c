/* SPDX-License-Identifier: GPL-2.0-or-later */
/* follow-cost ROUNDS N: what the program `entitle why --follow` attaches
   (bpf/progs/seccomp-denials.bpf.c, fexit on __secure_computing) costs a
   syscall, in one process, A/B alternated: each round times N getppid
   with the program attached (A) and N with it detached (B), in the order
   A B, then B A; CPU time of this thread.  Twice: first without a seccomp
   filter (the kernel calls __secure_computing only for a task that has
   one: nothing to pay), then under network.none's socket rule (libseccomp,
   default allow), as a container's process would be.  getppid is allowed
   by the filter's cache, so the trampoline is all the difference: the
   worst case.  Prints each round's ns per call and, per phase, each
   side's median and the median, quartiles and min-max of A/B (the guest
   clock of an emulator under load gives outliers: read the medians).  bench/follow-cost.sh builds and
   runs it.  */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "seccomp-denials.skel.h"

static double
cpu_ns (void)
{
  struct timespec t;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static double
loop (long n)
{
  double t0 = cpu_ns ();
  for (long i = 0; i < n; i++)
    syscall (SYS_getppid);
  return (cpu_ns () - t0) / n;
}

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double
quantile (const double *v, int n, double q)
{
  return v[(int)(q * (n - 1) + 0.5)];
}

/* One side of a round: N calls, attached or not.  */
static double
side (struct seccomp_denials_bpf *skel, int attached, long n)
{
  double ns;

  if (attached && seccomp_denials_bpf__attach (skel) != 0)
    {
      perror ("follow-cost: attach");
      exit (1);
    }
  ns = loop (n);
  if (attached)
    {
      bpf_link__destroy (skel->links.entitle_seccomp_denial);
      skel->links.entitle_seccomp_denial = NULL;
    }
  return ns;
}

static void
phase (const char *name, struct seccomp_denials_bpf *skel, int rounds, long n)
{
  double *ratio = calloc (rounds, sizeof (double)), *as = calloc (rounds, sizeof (double)),
         *bs = calloc (rounds, sizeof (double));

  side (skel, 0, n); /* warm-up */
  side (skel, 1, n);
  for (int r = 0; r < rounds; r++)
    {
      double a, b;
      if (r % 2 == 0)
        a = side (skel, 1, n), b = side (skel, 0, n);
      else
        b = side (skel, 0, n), a = side (skel, 1, n);
      ratio[r] = a / b;
      as[r] = a;
      bs[r] = b;
      printf ("%s round %d: attached %.1f ns, not %.1f ns, %.3f\n", name, r + 1, a, b, a / b);
    }
  qsort (ratio, rounds, sizeof (double), cmp);
  qsort (as, rounds, sizeof (double), cmp);
  qsort (bs, rounds, sizeof (double), cmp);
  printf ("%s: median attached %.1f ns, not %.1f ns; attached/not: median %.3f, IQR %.3f-%.3f, min-max %.3f-%.3f\n",
          name, quantile (as, rounds, 0.5), quantile (bs, rounds, 0.5), quantile (ratio, rounds, 0.5),
          quantile (ratio, rounds, 0.25), quantile (ratio, rounds, 0.75), ratio[0], ratio[rounds - 1]);
  free (ratio);
  free (as);
  free (bs);
}

/* network.none's rule: socket() of AF_UNIX only, EPERM otherwise.  */
static void
filter (void)
{
  scmp_filter_ctx ctx = seccomp_init (SCMP_ACT_ALLOW);

  if (ctx == NULL
      || seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EPERM), SCMP_SYS (socket), 1, SCMP_A0 (SCMP_CMP_NE, AF_UNIX)) < 0
      || seccomp_load (ctx) < 0)
    {
      fprintf (stderr, "follow-cost: the seccomp filter could not be loaded\n");
      exit (1);
    }
  seccomp_release (ctx);
}

/* The program sees a denial: one inet socket, refused while attached.  */
static int
count (void *ctx, void *data, size_t size)
{
  (void)data;
  (void)size;
  ++*(int *)ctx;
  return 0;
}

static void
check_fires (struct seccomp_denials_bpf *skel)
{
  struct ring_buffer *rb;
  int seen = 0;

  rb = ring_buffer__new (bpf_map__fd (skel->maps.entitle_seccomp_denials), count, &seen, NULL);
  if (rb == NULL || seccomp_denials_bpf__attach (skel) != 0)
    exit (1);
  if (socket (AF_INET, SOCK_STREAM, 0) >= 0 || errno != EPERM)
    exit (1);
  ring_buffer__consume (rb);
  bpf_link__destroy (skel->links.entitle_seccomp_denial);
  skel->links.entitle_seccomp_denial = NULL;
  ring_buffer__free (rb);
  printf ("the program saw %d denial of socket(AF_INET)\n", seen);
}

int
main (int argc, char **argv)
{
  struct seccomp_denials_bpf *skel;
  int rounds;
  long n;

  if (argc != 3)
    {
      fprintf (stderr, "usage: follow-cost ROUNDS N\n");
      return 2;
    }
  rounds = atoi (argv[1]);
  n = atol (argv[2]);
  libbpf_set_print (NULL);
  skel = seccomp_denials_bpf__open_and_load ();
  if (skel == NULL)
    {
      perror ("follow-cost: the kernel refused the program");
      return 1;
    }
  phase ("no seccomp filter", skel, rounds, n);
  filter ();
  check_fires (skel);
  phase ("seccomp filter", skel, rounds, n);
  seccomp_denials_bpf__destroy (skel);
  return 0;
}
