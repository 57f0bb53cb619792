/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <cmocka.h>
#include "unit.h"
#include "attach.h"
#include "catalogue.h"
#include "cgroup.h"
#include "cgroup-record.h"
#include "denial.h"
#include "entitlements.h"
#include "observe.h"
#include "propose.h"
#include "utils.h"

/* What a record of the cgroup programs, and a use entitle learn saw, mean
   in entitle's words (lib/read/denial.c, propose.c, observe.c), and the
   records of which container a cgroup was (lib/host/cgroup-record.c).  The
   expected words are written out here, never computed by the code under
   test.  */

static const struct entitle_entry_s *
row (const char *name)
{
  const struct entitle_entry_s *e = entitle_catalogue_find (NULL, name, strlen (name));
  assert_non_null (e);
  return e;
}

static struct entitle_event
event (unsigned rule, unsigned hook, unsigned family, unsigned type, const char *addr, unsigned port)
{
  struct entitle_event ev = { .rule = rule, .hook = hook, .family = family, .type = type, .port = port };
  if (addr)
    assert_int_equal (inet_pton (family, addr, ev.addr), 1);
  return ev;
}

/* The entitlement that would allow @ev denied by the row @denier, or "none".  */
static void
allowed_by (const char *denier, const struct entitle_event *ev, const char *want)
{
  cleanup_free char *got = entitle_event_allower (row (denier), ev);
  assert_string_equal (got ? got : "none", want);
}

/* Every rule bit is some row's, and every program that a row's bits run in
   writes records that name that row and an allower that is a row.  */
static void
test_every_rule_maps_to_a_row (void **state)
{
  size_t n, i;
  const struct entitle_entry_s *rows = entitle_catalogue_rows (NULL, &n);
  unsigned bit;

  (void)state;
  for (bit = 1; bit & POL_RULES; bit <<= 1)
    {
      cleanup_free char *names = entitle_rule_rows (bit);
      assert_true (strlen (names) > 0);
    }
  for (i = 0; i < n; i++)
    for (bit = 1; bit & POL_RULES; bit <<= 1)
      for (int p = 0; p < ATTACH_COUNT; p++)
        {
          struct entitle_request_s req = { .entry = &rows[i] };
          struct entitle_set_s set = { .items = &req, .n = 1 };
          struct entitle_event ev;
          cleanup_free char *allower = NULL;
          char text[200];

          if (!(rows[i].policy & bit) || !(rows[i].attach & ATTACH_BIT (p)) || !entitle_attach_points[p].program)
            continue;
          ev = event (bit, entitle_attach_points[p].type, AF_INET, SOCK_STREAM, "192.0.2.7", 443);
          assert_int_equal (entitle_event_point (&ev), p);
          entitle_event_describe (&ev, text, sizeof (text));
          assert_true (strlen (text) > 0);
          assert_ptr_equal (entitle_event_denier (&set, &ev), &req);
          allower = entitle_event_allower (&rows[i], &ev);
          if (allower)
            assert_non_null (entitle_catalogue_find (NULL, allower, strcspn (allower, "=")));
        }
}

static void
test_allowers (void **state)
{
  struct entitle_event inet = event (POL_SOCK_UNIX_ONLY, BPF_CGROUP_INET_SOCK_CREATE, AF_INET, SOCK_STREAM, NULL, 0);
  struct entitle_event raw = event (POL_SOCK_NO_RAW, BPF_CGROUP_INET_SOCK_CREATE, AF_INET, SOCK_RAW, NULL, 0);
  struct entitle_event conn = event (POL_EGRESS, BPF_CGROUP_INET4_CONNECT, AF_INET, SOCK_STREAM, "10.1.2.3", 443);
  struct entitle_event conn6 = event (POL_EGRESS, BPF_CGROUP_INET6_CONNECT, AF_INET6, SOCK_STREAM, "2001:db8::1", 443);
  struct entitle_event ping = event (POL_EGRESS, BPF_CGROUP_INET_EGRESS, AF_INET, 1, "10.1.2.3", 0);
  struct entitle_event routed = ping;
  struct entitle_event bind = event (POL_BIND, BPF_CGROUP_INET4_BIND, AF_INET, SOCK_STREAM, NULL, 8080);
  struct entitle_event in = event (POL_INGRESS, BPF_CGROUP_INET_INGRESS, AF_INET, 6, "192.0.2.9", 80);
  struct entitle_event in_port = event (POL_BIND, BPF_CGROUP_INET_INGRESS, AF_INET, 6, "192.0.2.9", 81);
  struct entitle_event sysctl = { .rule = POL_SYSCTL_RO, .hook = BPF_CGROUP_SYSCTL, .name = "net/ipv4/ip_forward" };
  char text[200];

  (void)state;
  routed.info = ENTITLE_EV_SOURCE_ROUTED;
  allowed_by ("network.none", &inet, "network.user");
  allowed_by ("network.none", &raw, "network.proxy");
  allowed_by ("network.user", &raw, "network.proxy");
  allowed_by ("network.egress", &raw, "none");
  allowed_by ("network.egress", &conn, "network.egress=10.1.2.3/32:443");
  allowed_by ("network.egress", &conn6, "network.egress=2001:db8::1/128:443");
  allowed_by ("network.egress", &ping, "network.egress=10.1.2.3/32");
  allowed_by ("network.egress", &routed, "none");
  allowed_by ("network.bind", &bind, "network.bind=8080");
  allowed_by ("network.ingress", &in, "network.ingress=192.0.2.9/32:80");
  allowed_by ("network.bind", &in_port, "network.bind=81");
  allowed_by ("security.confined", &sysctl, "security.view");
  entitle_event_describe (&conn, text, sizeof (text));
  assert_string_equal (text, "connect to 10.1.2.3:443 (tcp)");
  entitle_event_describe (&conn6, text, sizeof (text));
  assert_string_equal (text, "connect to [2001:db8::1]:443 (tcp)");
  entitle_event_describe (&inet, text, sizeof (text));
  assert_string_equal (text, "socket(AF_INET, SOCK_STREAM)");
  entitle_event_describe (&sysctl, text, sizeof (text));
  assert_string_equal (text, "write to sysctl net.ipv4.ip_forward");
  entitle_event_describe (&in, text, sizeof (text));
  assert_string_equal (text, "packet (tcp) from 192.0.2.9 to port 80");
}

static bool
denies (const char *name, const char *syscall, uint64_t a0, uint64_t a1, uint64_t a2)
{
  struct entitle_syscall_use_s s = { .name = syscall, .args = { a0, a1, a2 } };
  char how[200];
  return entitle_entry_denies_syscall (row (name), &s, how, sizeof (how));
}

static void
test_syscall_model (void **state)
{
  (void)state;
  assert_true (denies ("security.confined", "mount", 0, 0, 0));
  assert_true (denies ("security.view", "mount", 0, 0, 0));
  assert_false (denies ("security.admin", "mount", 0, 0, 0));
  assert_true (denies ("network.none", "socket", AF_INET, SOCK_STREAM, 0));
  assert_false (denies ("network.none", "socket", AF_UNIX, SOCK_STREAM, 0));
  assert_true (denies ("network.user", "socket", AF_PACKET, SOCK_RAW, 0));
  assert_true (denies ("network.user", "socket", AF_INET, SOCK_RAW, 0));
  assert_false (denies ("network.user", "socket", AF_INET, SOCK_STREAM, 0));
  assert_true (denies ("host.devices.none", "mknod", 0, S_IFCHR | 0600, 0));
  assert_false (denies ("host.devices.none", "mknod", 0, S_IFIFO | 0600, 0));
  assert_true (denies ("security.confined", "personality", 0x0006, 0, 0));
  assert_false (denies ("security.confined", "personality", 0, 0, 0));
  assert_true (denies ("security.confined", "clone", CLONE_NEWNET, 0, 0));
  assert_false (denies ("security.confined", "clone", SIGCHLD, 0, 0));
  /* Gated on a capability the rung keeps at most without it.  */
  assert_true (denies ("security.confined", "syslog", 0, 0, 0));
  assert_false (denies ("security.admin", "syslog", 0, 0, 0));
}

/* A syscall seccomp refused in a container of @list (`why --follow`): the
   entitlement that denied it, how, and the one that would allow it, as
   "DENIER (HOW); ALLOWER", or "none" where no row's seccomp part refuses it.  */
static void
seccomp_denial (const char *list, const char *syscall, uint64_t a0, uint64_t a1, const char *want)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  struct entitle_syscall_use_s s = { .name = syscall, .args = { a0, a1 } };
  const struct entitle_request_s *denier;
  entitle_error_t err = NULL;
  cleanup_free char *name = NULL, *allower = NULL;
  char how[200], got[400];

  assert_int_equal (entitle_parse_list (NULL, list, "test", &set, &err), 0);
  if ((denier = entitle_syscall_denier (&set, &s, how, sizeof (how))) == NULL)
    {
      assert_string_equal ("none", want);
      return;
    }
  name = entitle_denier_name (&set, denier);
  allower = entitle_syscall_allower (denier->entry, &s);
  snprintf (got, sizeof (got), "%s (%s); %s", name, how, allower ? allower : "none");
  assert_string_equal (got, want);
}

static void
test_seccomp_denials (void **state)
{
  (void)state;
  seccomp_denial ("network.none,security.confined", "socket", AF_INET, SOCK_STREAM,
                  "network.none (seccomp: socket() and socketpair() for AF_UNIX only); network.user");
  seccomp_denial ("network.none", "socket", AF_PACKET, SOCK_RAW,
                  "network.none (seccomp: socket() and socketpair() for AF_UNIX only); network.proxy");
  seccomp_denial ("network.user", "socket", AF_PACKET, SOCK_RAW,
                  "network.user (seccomp: no AF_PACKET, no raw inet sockets); network.proxy");
  seccomp_denial ("network.none,security.confined", "mount", 0, 0, "security.confined (seccomp); security.admin");
  seccomp_denial ("security.view", "mount", 0, 0, "security.view (seccomp); security.admin");
  seccomp_denial ("security.admin", "kexec_load", 0, 0, "security.admin (seccomp); security.insecure");
  /* Refused by the container's own profile: no row's seccomp part refuses
     these (syslog is only gated on a capability confined takes away).  */
  seccomp_denial ("network.none,security.confined", "socket", AF_UNIX, SOCK_STREAM, "none");
  seccomp_denial ("security.confined", "syslog", 0, 0, "none");
  seccomp_denial ("network.egress=10.0.0.0/8:443", "getppid", 0, 0, "none");
}

static void
test_watched (void **state)
{
  size_t n, i;
  cleanup_free const char **w = entitle_syscalls_watched (&n);

  (void)state;
  assert_true (n > 10);
  for (i = 1; i < n; i++)
    assert_true (strcmp (w[i - 1], w[i]) < 0);
  assert_null (w[n]);
  for (const char *const *s = (const char *const[]){ "mount", "socket", "clone", "io_uring_setup", "mknodat", NULL };
       *s; s++)
    {
      bool found = false;
      for (i = 0; i < n; i++)
        found |= strcmp (w[i], *s) == 0;
      assert_true (found);
    }
}

/* The proposal for @o, as a list, with the evidence of @name into @ev.  */
static char *
proposed (const struct entitle_observed_s *o, const char *name, char *ev, size_t len)
{
  struct entitle_proposal_s p;
  char *list;
  size_t i;

  entitle_propose (o, &p);
  list = entitle_proposal_list (&p);
  for (i = 0; ev && i < p.n; i++)
    if (strcmp (p.items[i].entitlement, name) == 0)
      snprintf (ev, len, "%s", p.items[i].evidence);
  entitle_proposal_free (&p);
  return list;
}

static void
test_propose (void **state)
{
  struct entitle_syscall_use_s sock = { .name = "socket", .args = { AF_INET, SOCK_STREAM } };
  struct entitle_syscall_use_s mnt = { .name = "mount" };
  struct entitle_event uses[3];
  char *keys[] = { (char *)"net.ipv4.ip_forward", NULL };
  struct entitle_observed_s o = { .syscalls_seen = true, .sysctl_keys = keys, .unprivileged_port = 1024 };
  char ev[300] = "";
  char *list;

  (void)state;
  list = proposed (&o, NULL, NULL, 0);
  assert_string_equal (list, "network.none,security.confined");
  free (list);

  o.syscalls = &sock;
  o.n_syscalls = 1;
  uses[0] = event (0, BPF_CGROUP_INET4_CONNECT, AF_INET, SOCK_STREAM, "10.1.2.3", 8080);
  uses[1] = event (0, BPF_CGROUP_INET4_CONNECT, AF_INET, SOCK_STREAM, "10.1.2.3", 8080);
  o.events = uses;
  o.n_events = 2;
  list = proposed (&o, "network.user", ev, sizeof (ev));
  assert_string_equal (list, "network.user,security.confined,network.egress=10.1.2.3/32:8080");
  assert_string_equal (ev, "socket(AF_INET, SOCK_STREAM): denied by network.none (seccomp: socket() and socketpair() for AF_UNIX only)");
  free (list);

  uses[0] = event (0, BPF_CGROUP_INET4_BIND, AF_INET, SOCK_STREAM, NULL, 8080);
  o.n_events = 1;
  list = proposed (&o, NULL, NULL, 0);
  assert_string_equal (list, "network.user,security.confined,network.bind=8080");
  free (list);

  /* A privileged port needs CAP_NET_BIND_SERVICE, which network.user takes.  */
  uses[0].port = 80;
  list = proposed (&o, "network.proxy", ev, sizeof (ev));
  assert_string_equal (list, "network.proxy,security.confined,network.bind=80");
  assert_contains (ev, "CAP_NET_BIND_SERVICE");
  free (list);

  /* network.egress contradicts network.proxy: not proposed.  */
  uses[1] = event (0, BPF_CGROUP_INET4_CONNECT, AF_INET, SOCK_STREAM, "10.1.2.3", 8080);
  o.n_events = 2;
  list = proposed (&o, NULL, NULL, 0);
  assert_string_equal (list, "network.proxy,security.confined,network.bind=80");
  free (list);

  o.syscalls = &mnt;
  o.n_events = 0;
  list = proposed (&o, "security.admin", ev, sizeof (ev));
  assert_string_equal (list, "network.none,security.admin");
  assert_string_equal (ev, "mount(): denied by security.confined and security.view (seccomp)");
  free (list);

  /* The runtime's sysctl writes (linux.sysctl) are not the workload's.  */
  o.n_syscalls = 0;
  uses[0] = (struct entitle_event){ .hook = BPF_CGROUP_SYSCTL, .name = "net/ipv4/ip_forward" };
  o.n_events = 1;
  list = proposed (&o, NULL, NULL, 0);
  assert_string_equal (list, "network.none,security.confined");
  free (list);
  snprintf (uses[0].name, sizeof (uses[0].name), "kernel/domainname");
  list = proposed (&o, NULL, NULL, 0);
  assert_string_equal (list, "network.none,security.view");
  free (list);
}

static const json_t *
rule_for (const json_t *rules, const char *name)
{
  size_t i;
  for (i = 0; i < rules->n; i++)
    if (json_array_find_string (json_get (rules->items[i], "names"), name) >= 0)
      return rules->items[i];
  return NULL;
}

static void
test_observe_config (void **state)
{
  cleanup_json json_t *spec
      = parse_ok ("{\"root\": {\"path\": \"rootfs\"}, \"hooks\": {\"prestart\": [{\"path\": \"/x\"}]}, \"mounts\": [{\"destination\": \"/d\", \"type\": \"bind\","
                  " \"source\": \"data\"}, {\"destination\": \"/proc\", \"type\": \"proc\", \"source\": \"proc\"}],"
                  " \"linux\": {\"cgroupsPath\": \"/pod/c\", \"seccomp\": {\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": ["
                  " {\"names\": [\"read\", \"socket\"], \"action\": \"SCMP_ACT_ALLOW\"},"
                  " {\"names\": [\"clone\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": [{\"index\": 0, \"value\": 2114060288,"
                  " \"op\": \"SCMP_CMP_MASKED_EQ\"}]},"
                  " {\"names\": [\"mount\"], \"action\": \"SCMP_ACT_ERRNO\"}]}}}");
  cleanup_json json_t *bare = parse_ok ("{\"root\": {\"path\": \"/abs\"}}");
  const json_t *sec = NULL, *rules = NULL, *r;

  (void)state;
  entitle_observe_config (spec, "/b", "/tmp/l.sock", json_new (JSON_OBJECT));
  assert_string_equal (json_string (json_get (json_get (spec, "root"), "path")), "/b/rootfs");
  assert_string_equal (json_string (json_get (json_get (spec, "mounts")->items[0], "source")), "/b/data");
  assert_string_equal (json_string (json_get (json_get (spec, "mounts")->items[1], "source")), "proc");
  sec = json_get (json_get (spec, "linux"), "seccomp");
  rules = json_get (sec, "syscalls");
  assert_string_equal (json_string (json_get (sec, "listenerPath")), "/tmp/l.sock");
  assert_string_equal (json_string (json_get (sec, "defaultAction")), "SCMP_ACT_ERRNO");
  r = rule_for (rules, "read");
  assert_int_equal (json_get (r, "names")->n, 1); /* socket left it */
  r = rule_for (rules, "socket");
  assert_string_equal (json_string (json_get (r, "action")), "SCMP_ACT_NOTIFY");
  r = rule_for (rules, "clone");
  assert_string_equal (json_string (json_get (r, "action")), "SCMP_ACT_NOTIFY");
  assert_non_null (json_get (r, "args")); /* only the calls it allowed */
  r = rule_for (rules, "mount");
  assert_string_equal (json_string (json_get (r, "action")), "SCMP_ACT_ERRNO"); /* denied stays denied */
  assert_null (rule_for (rules, "unshare"));                                    /* denied by default: not listed */
  assert_int_equal (json_get (json_get (spec, "hooks"), "createRuntime")->n, 1);
  assert_int_equal (json_get (spec, "hooks")->n, 1); /* the engine's prestart hook is not the run's */
  assert_null (json_get (json_get (spec, "linux"), "cgroupsPath"));

  /* No profile: one that allows everything, notifying what is watched.  */
  entitle_observe_config (bare, "/b", "/tmp/l.sock", json_new (JSON_OBJECT));
  sec = json_get (json_get (bare, "linux"), "seccomp");
  assert_string_equal (json_string (json_get (sec, "defaultAction")), "SCMP_ACT_ALLOW");
  assert_string_equal (json_string (json_get (rule_for (json_get (sec, "syscalls"), "unshare"), "action")),
                       "SCMP_ACT_NOTIFY");
  assert_string_equal (json_string (json_get (json_get (bare, "root"), "path")), "/abs");
}

/* The one file of @id's record under @dir, found by its name.  */
static void
record_file (const char *dir, uint64_t id, char *buf, size_t len)
{
  char pattern[PATH_MAX];
  glob_t g;

  snprintf (pattern, sizeof (pattern), "%s/containers/*/%" PRIu64, dir, id);
  assert_int_equal (glob (pattern, 0, NULL, &g), 0);
  assert_int_equal (g.gl_pathc, 1);
  snprintf (buf, len, "%s", g.gl_pathv[0]);
  globfree (&g);
}

static const char *
dirname_of (const char *path, char *buf)
{
  snprintf (buf, PATH_MAX, "%.*s", (int)(strrchr (path, '/') - path), path);
  return buf;
}

/* A record says where each entitlement came from; one written before the
   sources line is read as it was, saying nothing of them.  */
static void
test_cgroup_record_sources (void **state)
{
  char dir[] = "/tmp/entitle-test-sources-XXXXXX", path[PATH_MAX];
  struct entitle_cgroup_record_s w = { .cgroup_id = 77, .root = "", .id = "c", .bundle = "/b", .entitlements = "network.egress=10.0.0.0/8:443,security.confined", .sources = "env:network.egress=10.0.0.0/8:443,defaults:security.confined" };
  struct entitle_cgroup_record_s r;
  entitle_error_t err = NULL;
  FILE *f;

  (void)state;
  assert_non_null (mkdtemp (dir));
  assert_int_equal (entitle_cgroup_record_write (dir, &w, &err), 0);
  assert_true (entitle_cgroup_record_read (dir, 77, &r));
  assert_int_equal (entitle_cgroup_record_source (&r, "network.egress=10.0.0.0/8:443"), ENTITLE_SOURCE_ENV);
  assert_int_equal (entitle_cgroup_record_source (&r, "security.confined"), ENTITLE_SOURCE_DEFAULTS);
  assert_int_equal (entitle_cgroup_record_source (&r, "network.egress=10.0.0.0/8"), ENTITLE_SOURCE_NONE);
  assert_int_equal (entitle_cgroup_record_source (&r, "network.none"), ENTITLE_SOURCE_NONE);
  entitle_cgroup_record_free (&r);

  record_file (dir, 77, path, sizeof (path));
  f = fopen (path, "w");
  assert_non_null (f);
  fputs ("/r\nc\n/b\nnetwork.none\n", f);
  fclose (f);
  assert_true (entitle_cgroup_record_read (dir, 77, &r));
  assert_string_equal (r.entitlements, "network.none");
  assert_string_equal (r.sources, "");
  assert_int_equal (entitle_cgroup_record_source (&r, "network.none"), ENTITLE_SOURCE_NONE);
  entitle_cgroup_record_free (&r);
  unlink (path);
  *strrchr (path, '/') = '\0';
  rmdir (path);
  *strrchr (path, '/') = '\0';
  rmdir (path);
  rmdir (dir);
}

/* The first record makes the state directory (0700) where it is
   missing, never the directories above it: there it fails naming the
   directory it could not make.  */
static void
test_cgroup_record_makes_state_dir (void **state)
{
  char dir[] = "/tmp/entitle-test-state-XXXXXX", sd[PATH_MAX], path[PATH_MAX], want[PATH_MAX];
  struct entitle_cgroup_record_s w = { .cgroup_id = 5, .root = "", .id = "c", .bundle = "/b", .entitlements = "network.none" };
  struct entitle_cgroup_record_s r;
  entitle_error_t err = NULL;
  struct stat st;

  (void)state;
  assert_non_null (mkdtemp (dir));
  snprintf (sd, sizeof (sd), "%s/state", dir);
  assert_int_equal (entitle_cgroup_record_write (sd, &w, &err), 0);
  assert_int_equal (stat (sd, &st), 0);
  assert_int_equal (st.st_mode & 07777, 0700);
  assert_true (entitle_cgroup_record_read (sd, 5, &r));
  entitle_cgroup_record_free (&r);

  snprintf (path, sizeof (path), "%s/missing/state", dir);
  assert_true (entitle_cgroup_record_write (path, &w, &err) < 0);
  assert_int_equal (err->status, ENOENT);
  assert_int_equal (snprintf (want, sizeof (want), "mkdir `%s/containers/", path) > 0, 1);
  assert_non_null (strstr (err->msg, want));
  entitle_error_release (&err);
  assert_int_not_equal (stat (path, &st), 0);

  record_file (sd, 5, path, sizeof (path));
  unlink (path);
  *strrchr (path, '/') = '\0';
  rmdir (path);
  *strrchr (path, '/') = '\0';
  rmdir (path);
  rmdir (sd);
  rmdir (dir);
}

static void
test_cgroup_records (void **state)
{
  char dir[] = "/tmp/entitle-test-records-XXXXXX", path[PATH_MAX], other[PATH_MAX];
  char shard[PATH_MAX], shard2[PATH_MAX], mnt[256] = "";
  struct entitle_cgroup_record_s w = { .cgroup_id = UINT64_C (1) << 60, .root = "/r", .id = "c1", .bundle = "/b", .entitlements = "network.none" };
  struct entitle_cgroup_record_s r, *found;
  struct timeval old[2] = { { 1, 0 }, { 1, 0 } };
  entitle_error_t err = NULL;
  size_t n;

  (void)state;
  assert_non_null (mkdtemp (dir));
  assert_int_equal (entitle_cgroup_record_write (dir, &w, &err), 0);
  w.cgroup_id++;
  w.id = "c2";
  assert_int_equal (entitle_cgroup_record_write (dir, &w, &err), 0);
  assert_true (entitle_cgroup_record_read (dir, UINT64_C (1) << 60, &r));
  assert_string_equal (r.id, "c1");
  assert_string_equal (r.root, "/r");
  assert_string_equal (r.entitlements, "network.none");
  entitle_cgroup_record_free (&r);
  assert_false (entitle_cgroup_record_read (dir, 12345, &r));
  found = entitle_cgroup_record_find (dir, "/r", "c2", &n);
  assert_int_equal (n, 1);
  assert_int_equal (found[0].cgroup_id, (UINT64_C (1) << 60) + 1);
  entitle_cgroup_record_free (&found[0]);
  free (found);
  found = entitle_cgroup_record_find (dir, "/other", "c2", &n);
  assert_int_equal (n, 0);
  free (found);
  /* Gone cgroups: an old record goes, a young one stays (only root can
     tell a gone cgroup by its id); a create collects its own shard only.  */
  record_file (dir, UINT64_C (1) << 60, path, sizeof (path));
  record_file (dir, (UINT64_C (1) << 60) + 1, other, sizeof (other));
  assert_string_not_equal (dirname_of (path, shard), dirname_of (other, shard2));
  assert_int_equal (utimes (path, old), 0);
  assert_int_equal (utimes (other, old), 0);
  if (entitle_cgroup2_mount (mnt, sizeof (mnt), &err) < 0)
    entitle_error_release (&err); /* then nothing can be told gone */
  entitle_cgroup_record_collect (dir, mnt, UINT64_C (1) << 60);
  if (geteuid () == 0)
    assert_int_equal (access (path, F_OK), -1);
  assert_int_equal (access (other, F_OK), 0);
  unlink (path);
  unlink (other);
  rmdir (shard);
  rmdir (shard2);
  snprintf (path, sizeof (path), "%s/containers", dir);
  assert_int_equal (rmdir (path), 0); /* nothing else was written */
  rmdir (dir);
}

static void
test_denials_key (void **state)
{
  struct entitle_config_s cfg;
  entitle_error_t err = NULL;

  (void)state;
  config_from (&cfg, "{}");
  assert_false (cfg.denials_off);
  entitle_config_free (&cfg);
  config_from (&cfg, "{\"denials\": false}");
  assert_true (cfg.denials_off);
  entitle_config_free (&cfg);
  config_from (&cfg, "{\"denials\": true}");
  assert_false (cfg.denials_off);
  entitle_config_free (&cfg);
  memset (&cfg, 0, sizeof (cfg));
  assert_true (entitle_config_parse (&cfg, CONFIG_PATH, "{\"denials\": \"off\"}", 18, &err) < 0);
  assert_contains (err->msg, "`denials` must be true or false");
  entitle_error_release (&err);
  entitle_config_free (&cfg);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_every_rule_maps_to_a_row),
    cmocka_unit_test (test_allowers),
    cmocka_unit_test (test_syscall_model),
    cmocka_unit_test (test_seccomp_denials),
    cmocka_unit_test (test_watched),
    cmocka_unit_test (test_propose),
    cmocka_unit_test (test_observe_config),
    cmocka_unit_test (test_cgroup_records),
    cmocka_unit_test (test_cgroup_record_makes_state_dir),
    cmocka_unit_test (test_cgroup_record_sources),
    cmocka_unit_test (test_denials_key),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
