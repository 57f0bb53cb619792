/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loops: the static helper the benchmarks copy into the container's rootfs
 * as /loops.  It times itself (CPU time of this process, which includes
 * the kernel's seccomp and cgroup BPF work) and prints nanoseconds per
 * iteration as its last word.
 *
 *   loops getpid N         N getpid system calls
 *   loops connect N PORT   N times socket, connect to 127.0.0.1:PORT
 *                          (nothing listens: ECONNREFUSED), close
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double
cpu_ns (void)
{
  struct timespec t;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

int
main (int argc, char **argv)
{
  long n, i;
  double t0, t1;

  if (argc < 3)
    {
      fprintf (stderr, "usage: loops getpid N | loops connect N PORT\n");
      return 2;
    }
  n = atol (argv[2]);
  if (strcmp (argv[1], "getpid") == 0)
    {
      t0 = cpu_ns ();
      for (i = 0; i < n; i++)
        syscall (SYS_getpid);
      t1 = cpu_ns ();
    }
  else if (strcmp (argv[1], "connect") == 0 && argc > 3)
    {
      struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons (atoi (argv[3])) };

      sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
      t0 = cpu_ns ();
      for (i = 0; i < n; i++)
        {
          int fd = socket (AF_INET, SOCK_STREAM, 0);
          if (fd < 0 || connect (fd, (struct sockaddr *)&sa, sizeof sa) == 0 || errno != ECONNREFUSED)
            {
              fprintf (stderr, "loops: connect: expected ECONNREFUSED, got %s\n", strerror (errno));
              return 1;
            }
          close (fd);
        }
      t1 = cpu_ns ();
    }
  else
    {
      fprintf (stderr, "loops: unknown loop `%s`\n", argv[1]);
      return 2;
    }
  printf ("%.2f\n", (t1 - t0) / n);
  return 0;
}
