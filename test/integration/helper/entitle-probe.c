/* SPDX-License-Identifier: GPL-2.0-or-later */
/* entitle-probe: a static helper copied into test containers as /probe.

   Each subcommand tries one thing and prints "ok" (exit 0) or the name
   of the errno that stopped it (exit 1), so that bats tests can compare
   words instead of parsing messages.  Exit 2 is a usage error.

     socket inet|inet6|unix|packet|raw|netlink [stream|dgram]
     caps                 the Cap* lines of /proc/self/status
     nnp                  the NoNewPrivs value of /proc/self/status
     write PATH           open PATH for writing
     connect ADDR PORT    TCP connect (ECONNREFUSED means the packet got there)
     sendto ADDR PORT     send one UDP datagram
     bind PORT            bind a TCP socket to the port on every address
     sleep N              sleep N seconds  */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_ether.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#define EXIT_DENIED 1
#define EXIT_USAGE  2

static int
report (int ret)
{
  const char *name;

  if (ret >= 0)
    {
      puts ("ok");
      return EXIT_SUCCESS;
    }
  name = strerrorname_np (errno);
  if (name != NULL)
    puts (name);
  else
    printf ("errno %d\n", errno);
  return EXIT_DENIED;
}

static int
usage (void)
{
  fputs ("usage: probe socket|caps|nnp|write|connect|sendto|bind|sleep ARGS...\n", stderr);
  return EXIT_USAGE;
}

/* Map the family name and optional type name to socket() arguments.  */
static int
socket_args (const char *family, const char *type, int *domain, int *stype, int *proto)
{
  *proto = 0;
  *stype = SOCK_STREAM;
  if (strcmp (family, "inet") == 0)
    *domain = AF_INET;
  else if (strcmp (family, "inet6") == 0)
    *domain = AF_INET6;
  else if (strcmp (family, "unix") == 0)
    *domain = AF_UNIX;
  else if (strcmp (family, "packet") == 0)
    {
      *domain = AF_PACKET;
      *stype = SOCK_RAW;
      *proto = htons (ETH_P_ALL);
    }
  else if (strcmp (family, "raw") == 0)
    {
      *domain = AF_INET;
      *stype = SOCK_RAW;
      *proto = IPPROTO_ICMP;
    }
  else if (strcmp (family, "netlink") == 0)
    {
      *domain = AF_NETLINK;
      *stype = SOCK_RAW;
      *proto = NETLINK_ROUTE;
    }
  else
    return -1;

  if (type == NULL)
    return 0;
  if (strcmp (type, "stream") == 0)
    *stype = SOCK_STREAM;
  else if (strcmp (type, "dgram") == 0)
    *stype = SOCK_DGRAM;
  else
    return -1;
  return 0;
}

static int
do_socket (int argc, char **argv)
{
  int domain, type, proto;

  if (argc < 1 || socket_args (argv[0], argc > 1 ? argv[1] : NULL, &domain, &type, &proto) < 0)
    return usage ();
  return report (socket (domain, type, proto));
}

/* Print the lines of /proc/self/status that start with PREFIX; with
   VALUE_ONLY, print only what follows the tab.  */
static int
print_status (const char *prefix, int value_only)
{
  char line[256];
  size_t len = strlen (prefix);
  FILE *f = fopen ("/proc/self/status", "re");

  if (f == NULL)
    return report (-1);
  while (fgets (line, sizeof (line), f) != NULL)
    {
      char *tab = strchr (line, '\t');

      if (strncmp (line, prefix, len) != 0)
        continue;
      fputs (value_only && tab != NULL ? tab + 1 : line, stdout);
    }
  fclose (f);
  return EXIT_SUCCESS;
}

static int
do_write (int argc, char **argv)
{
  int fd;

  if (argc != 1)
    return usage ();
  fd = open (argv[0], O_WRONLY | O_CLOEXEC);
  if (fd >= 0)
    close (fd);
  return report (fd);
}

/* Fill SA with ADDR (v4 or v6) and PORT; return its length, or 0.  */
static socklen_t
make_addr (const char *addr, const char *port, struct sockaddr_storage *sa)
{
  struct sockaddr_in *in4 = (struct sockaddr_in *)sa;
  struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)sa;

  memset (sa, 0, sizeof (*sa));
  if (inet_pton (AF_INET, addr, &in4->sin_addr) == 1)
    {
      in4->sin_family = AF_INET;
      in4->sin_port = htons (atoi (port));
      return sizeof (*in4);
    }
  if (inet_pton (AF_INET6, addr, &in6->sin6_addr) == 1)
    {
      in6->sin6_family = AF_INET6;
      in6->sin6_port = htons (atoi (port));
      return sizeof (*in6);
    }
  return 0;
}

static int
do_net (int type, int argc, char **argv)
{
  struct sockaddr_storage sa;
  socklen_t len;
  int fd, ret;

  if (argc != 2 || (len = make_addr (argv[0], argv[1], &sa)) == 0)
    return usage ();
  fd = socket (sa.ss_family, type | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return report (fd);
  if (type == SOCK_STREAM)
    ret = connect (fd, (struct sockaddr *)&sa, len);
  else
    ret = sendto (fd, "x", 1, 0, (struct sockaddr *)&sa, len);
  return report (ret);
}

static int
do_bind (int argc, char **argv)
{
  struct sockaddr_in sa = { .sin_family = AF_INET };
  int fd;

  if (argc != 1)
    return usage ();
  sa.sin_addr.s_addr = htonl (INADDR_ANY);
  sa.sin_port = htons (atoi (argv[0]));
  fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return report (fd);
  return report (bind (fd, (struct sockaddr *)&sa, sizeof (sa)));
}

int
main (int argc, char **argv)
{
  const char *cmd;

  if (argc < 2)
    return usage ();
  cmd = argv[1];
  argc -= 2;
  argv += 2;

  if (strcmp (cmd, "socket") == 0)
    return do_socket (argc, argv);
  if (strcmp (cmd, "caps") == 0)
    return print_status ("Cap", 0);
  if (strcmp (cmd, "nnp") == 0)
    return print_status ("NoNewPrivs:", 1);
  if (strcmp (cmd, "write") == 0)
    return do_write (argc, argv);
  if (strcmp (cmd, "connect") == 0)
    return do_net (SOCK_STREAM, argc, argv);
  if (strcmp (cmd, "sendto") == 0)
    return do_net (SOCK_DGRAM, argc, argv);
  if (strcmp (cmd, "bind") == 0)
    return do_bind (argc, argv);
  if (strcmp (cmd, "sleep") == 0 && argc == 1)
    {
      sleep (atoi (argv[0]));
      return EXIT_SUCCESS;
    }
  return usage ();
}
