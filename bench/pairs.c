/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pairs: run two to four commands interleaved (A B [C [D]] A B [C [D]] ...) and
 * print the per-round ratios A/B (and A/C, A/D) as median, quartiles and
 * min-max.
 *
 *   pairs [-n ROUNDS] [-w WARMUP] [-m cpu|wall|out] [-s] [-p SETUP]
 *         [-q CLEANUP] -- A... [:: B... [:: C... [:: D...]]]
 *
 * Every "@ID@" inside an argument becomes an id unique to the run
 * (containers need one).  SETUP and CLEANUP are sh -c strings, with @ID@
 * substituted too, run before and after each measured command and not
 * measured.  Metrics:
 *   cpu   user+system CPU time of the command's whole process tree
 *         (getrusage RUSAGE_CHILDREN; pairs is a child subreaper, so the
 *         orphans a runtime leaves behind are reaped and counted too)
 *   wall  elapsed CLOCK_MONOTONIC time
 *   out   the last number the command prints on stdout (a helper that
 *         times itself)
 * -s enters a private mount namespace with cgroup2 on /sys/fs/cgroup first
 * (crun 1.8.1 needs it on this hybrid host; see test/integration/run-crun.sh).
 *
 * Output, one line:
 *   medA medB [medC [medD]] r_med r_q1 r_q3 r_min r_max [the same for A/C [and A/D]]
 * or, with A alone, A's median, quartiles, min and max
 * with medians in the metric's unit (ms, or whatever "out" prints).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXV 4

enum metric
{
  M_CPU,
  M_WALL,
  M_OUT,
};

static char **cmds[MAXV];
static int ncmds;
static enum metric metric = M_CPU;
static const char *setup_sh, *cleanup_sh;
static unsigned long counter;

static void
die (const char *what)
{
  fprintf (stderr, "pairs: %s: %s\n", what, strerror (errno));
  exit (2);
}

static char *
subst (const char *s, const char *id)
{
  size_t n = strlen (s) + 1;
  const char *p;
  char *out, *o;

  for (p = s; (p = strstr (p, "@ID@")); p += 4)
    n += strlen (id);
  out = o = malloc (n);
  if (out == NULL)
    die ("malloc");
  while ((p = strstr (s, "@ID@")))
    {
      memcpy (o, s, p - s);
      o += p - s;
      o = stpcpy (o, id);
      s = p + 4;
    }
  strcpy (o, s);
  return out;
}

/* Reap the orphans that have exited (pairs is their subreaper); a
   container left running on purpose (by -p SETUP) is not waited for.  */
static void
reap_all (void)
{
  while (waitpid (-1, NULL, WNOHANG) > 0)
    ;
}

static void
run_sh (const char *sh, const char *id)
{
  char *s;
  int st;
  pid_t pid;

  if (sh == NULL)
    return;
  s = subst (sh, id);
  pid = fork ();
  if (pid < 0)
    die ("fork");
  if (pid == 0)
    {
      int null = open ("/dev/null", O_RDWR);
      dup2 (null, 0);
      dup2 (null, 1);
      execl ("/bin/sh", "sh", "-c", s, (char *)NULL);
      _exit (127);
    }
  if (waitpid (pid, &st, 0) < 0 || !WIFEXITED (st) || WEXITSTATUS (st))
    fprintf (stderr, "pairs: warning: `%s` failed\n", s);
  reap_all ();
  free (s);
}

static double
tv (const struct timeval *t)
{
  return t->tv_sec * 1e3 + t->tv_usec / 1e3;
}

/* Run command @v once; return its metric.  */
static double
measure (int v)
{
  char id[64], **argv;
  int i, n, st, fds[2] = { -1, -1 };
  struct rusage r0, r1;
  struct timespec t0, t1;
  double value = 0;
  pid_t pid;

  snprintf (id, sizeof id, "bench-%d-%lu", (int)getpid (), counter++);
  run_sh (setup_sh, id);
  for (n = 0; cmds[v][n]; n++)
    ;
  argv = calloc (n + 1, sizeof (char *));
  for (i = 0; i < n; i++)
    argv[i] = subst (cmds[v][i], id);
  if (metric == M_OUT && pipe (fds) < 0)
    die ("pipe");
  getrusage (RUSAGE_CHILDREN, &r0);
  clock_gettime (CLOCK_MONOTONIC, &t0);
  pid = fork ();
  if (pid < 0)
    die ("fork");
  if (pid == 0)
    {
      int null = open ("/dev/null", O_RDWR);
      dup2 (null, 0);
      dup2 (metric == M_OUT ? fds[1] : null, 1);
      if (fds[0] >= 0)
        close (fds[0]);
      execv (argv[0], argv);
      _exit (127);
    }
  if (metric == M_OUT)
    {
      char buf[4096], *last = NULL, *p;
      size_t len = 0;
      ssize_t r;

      close (fds[1]);
      while ((r = read (fds[0], buf + len, sizeof buf - 1 - len)) > 0 || (r < 0 && errno == EINTR))
        if (r > 0)
          len += r;
      close (fds[0]);
      buf[len] = '\0';
      for (p = strtok (buf, " \t\n"); p; p = strtok (NULL, " \t\n"))
        last = p;
      value = last ? strtod (last, NULL) : 0;
      if (last == NULL)
        fprintf (stderr, "pairs: `%s` printed nothing\n", argv[0]);
    }
  if (waitpid (pid, &st, 0) < 0)
    die ("waitpid");
  reap_all ();
  clock_gettime (CLOCK_MONOTONIC, &t1);
  getrusage (RUSAGE_CHILDREN, &r1);
  if (!WIFEXITED (st) || WEXITSTATUS (st))
    {
      fprintf (stderr, "pairs: `%s", argv[0]);
      for (i = 1; i < n; i++)
        fprintf (stderr, " %s", argv[i]);
      fprintf (stderr, "` failed (status %d)\n", st);
      exit (1);
    }
  if (metric == M_CPU)
    value = tv (&r1.ru_utime) - tv (&r0.ru_utime) + tv (&r1.ru_stime) - tv (&r0.ru_stime);
  else if (metric == M_WALL)
    value = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  for (i = 0; i < n; i++)
    free (argv[i]);
  free (argv);
  run_sh (cleanup_sh, id);
  return value;
}

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Quantile @q of sorted @v (linear interpolation).  */
static double
quantile (const double *v, int n, double q)
{
  double pos = q * (n - 1);
  int i = (int)pos;
  if (i + 1 >= n)
    return v[n - 1];
  return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

static void
cgroup_ns (void)
{
  if (unshare (CLONE_NEWNS) < 0)
    die ("unshare");
  if (mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
    die ("make / private");
  if (mount ("none", "/sys/fs/cgroup", "cgroup2", 0, NULL) < 0)
    die ("mount cgroup2");
}

int
main (int argc, char **argv)
{
  int rounds = 20, warmup = 2, opt, i, r, v;
  double *val[MAXV], *ratio[MAXV];

  while ((opt = getopt (argc, argv, "+n:w:m:sp:q:")) != -1)
    switch (opt)
      {
      case 'n':
        rounds = atoi (optarg);
        break;
      case 'w':
        warmup = atoi (optarg);
        break;
      case 'm':
        metric = strcmp (optarg, "wall") == 0 ? M_WALL : strcmp (optarg, "out") == 0 ? M_OUT
                                                                                     : M_CPU;
        break;
      case 's':
        cgroup_ns ();
        break;
      case 'p':
        setup_sh = optarg;
        break;
      case 'q':
        cleanup_sh = optarg;
        break;
      default:
        return 2;
      }
  if (optind >= argc || rounds < 1)
    {
      fprintf (stderr, "usage: pairs [options] -- A... :: B... [:: C... [:: D...]]\n");
      return 2;
    }
  cmds[ncmds++] = &argv[optind];
  for (i = optind; i < argc; i++)
    if (strcmp (argv[i], "::") == 0)
      {
        argv[i] = NULL;
        if (ncmds == MAXV)
          {
            fprintf (stderr, "pairs: at most %d commands\n", MAXV);
            return 2;
          }
        cmds[ncmds++] = &argv[i + 1];
      }
  if (prctl (PR_SET_CHILD_SUBREAPER, 1) < 0)
    die ("PR_SET_CHILD_SUBREAPER");
  for (v = 0; v < ncmds; v++)
    {
      val[v] = calloc (rounds, sizeof (double));
      ratio[v] = calloc (rounds, sizeof (double));
    }
  for (r = 0; r < warmup; r++)
    for (v = 0; v < ncmds; v++)
      measure (v);
  for (r = 0; r < rounds; r++)
    {
      /* Alternate which goes first, so that neither always runs on a
         cache the other warmed.  */
      for (i = 0; i < ncmds; i++)
        {
          v = (r & 1) ? (ncmds - 1 - i) : i;
          val[v][r] = measure (v);
        }
      for (v = 1; v < ncmds; v++)
        ratio[v][r] = val[0][r] / val[v][r];
    }
  if (ncmds == 1)
    {
      /* One command: its own median, quartiles and min-max.  */
      qsort (val[0], rounds, sizeof (double), cmp);
      printf ("%.4f %.4f %.4f %.4f %.4f\n", quantile (val[0], rounds, 0.5), quantile (val[0], rounds, 0.25),
              quantile (val[0], rounds, 0.75), val[0][0], val[0][rounds - 1]);
      return 0;
    }
  for (v = 0; v < ncmds; v++)
    {
      qsort (val[v], rounds, sizeof (double), cmp);
      printf ("%.4f ", quantile (val[v], rounds, 0.5));
    }
  for (v = 1; v < ncmds; v++)
    {
      qsort (ratio[v], rounds, sizeof (double), cmp);
      printf ("%.4f %.4f %.4f %.4f %.4f%s", quantile (ratio[v], rounds, 0.5), quantile (ratio[v], rounds, 0.25),
              quantile (ratio[v], rounds, 0.75), ratio[v][0], ratio[v][rounds - 1], v + 1 < ncmds ? " " : "\n");
    }
  return 0;
}
