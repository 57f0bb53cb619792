/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <inttypes.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include "catalogue.h"
#include "caps.h"
#include "scmp.h"
#include "seccomp-rules.h"
#include "seccomp-profile.h"
#include "strset.h"
#include "utils.h"

/* One argument condition, and a rule as an AND of them on distinct
   indexes: the form both runc and crun read the same way (entitle's own
   rules need two at most; a custom row's may have one per argument).  */
struct cond
{
  unsigned index;
  enum scmp_compare op;
  uint64_t value, value_two;
};

struct rule
{
  unsigned n;
  struct cond c[ENTITLE_SYS_RULE_ARGS];
};

/* Rules built at run time (the complements below).  */
struct rules
{
  struct rule *v;
  size_t n, cap;
};

/* A syscall allowed only under conditions.  `allow` is used under a
   denying default action, `deny` under an allowing one (no `deny`:
   deny the call whatever its arguments).  Under a denying default whose
   action is not the restriction's (Podman's ENOSYS), the calls `allow`
   leaves out are denied by rules of their own: `deny`, where it is that
   complement, else what `rest` writes.  */
struct restriction
{
  unsigned fx;
  const char *name;
  unsigned errno_ret;
  const struct rule *allow;
  size_t nallow;
  const struct rule *deny;
  size_t ndeny;
  enum entitle_scmp_act action; /**< what a denied call gets: UNKNOWN is ERRNO (a custom rule's may differ) */
  void (*rest) (struct rules *out);
};

#define EQ(i, v)         \
  {                      \
    i, SCMP_CMP_EQ, v, 0 \
  }
#define NE(i, v)         \
  {                      \
    i, SCMP_CMP_NE, v, 0 \
  }
#define MASKED(i, m, v)         \
  {                             \
    i, SCMP_CMP_MASKED_EQ, m, v \
  }
#define R1(a) \
  {           \
    1, { a }  \
  }
#define R2(a, b) \
  {              \
    2, { a, b }  \
  }
#define N(x) (sizeof (x) / sizeof ((x)[0]))

enum
{
  AF_UNIX_ = 1,
  AF_INET_ = 2,
  AF_INET6_ = 10,
  AF_NETLINK_ = 16,
  AF_PACKET_ = 17,
  SOCK_TYPE_MASK = 0xf,
  SOCK_STREAM_ = 1,
  SOCK_DGRAM_ = 2,
  SOCK_RAW_ = 3,
  SOCK_SEQPACKET_ = 5,
  S_IFMT_ = 0170000,
  S_IFCHR_ = 0020000,
  S_IFBLK_ = 0060000,
  S_IFREG_ = 0100000,
  S_IFIFO_ = 0010000,
  S_IFSOCK_ = 0140000,
};

/* The bits of an int argument the kernel reads.  */
#define LOW32 0xffffffffULL

static const struct rule unix_only[] = { R1 (EQ (0, AF_UNIX_)) };
static const struct rule not_unix[] = { R1 (NE (0, AF_UNIX_)) };

/* network.user: unix and netlink sockets of any type; inet sockets of the
   stream, datagram and seqpacket types (never SOCK_RAW); nothing else.  */
#define INET_TYPES(f)                                          \
  R2 (EQ (0, f), MASKED (1, SOCK_TYPE_MASK, SOCK_STREAM_)),    \
      R2 (EQ (0, f), MASKED (1, SOCK_TYPE_MASK, SOCK_DGRAM_)), \
      R2 (EQ (0, f), MASKED (1, SOCK_TYPE_MASK, SOCK_SEQPACKET_))
static const struct rule user_sockets[] = { R1 (EQ (0, AF_UNIX_)), R1 (EQ (0, AF_NETLINK_)),
                                            INET_TYPES (AF_INET_), INET_TYPES (AF_INET6_) };
static const struct rule user_denied[] = { R1 (EQ (0, AF_PACKET_)),
                                           R2 (EQ (0, AF_INET_), MASKED (1, SOCK_TYPE_MASK, SOCK_RAW_)),
                                           R2 (EQ (0, AF_INET6_), MASKED (1, SOCK_TYPE_MASK, SOCK_RAW_)) };

#define NODE_TYPES(i)                                              \
  R1 (MASKED (i, S_IFMT_, 0)), R1 (MASKED (i, S_IFMT_, S_IFREG_)), \
      R1 (MASKED (i, S_IFMT_, S_IFIFO_)), R1 (MASKED (i, S_IFMT_, S_IFSOCK_))
static const struct rule mknod_ok[] = { NODE_TYPES (1) };
static const struct rule mknodat_ok[] = { NODE_TYPES (2) };
static const struct rule mknod_dev[] = { R1 (MASKED (1, S_IFMT_, S_IFCHR_)), R1 (MASKED (1, S_IFMT_, S_IFBLK_)) };
static const struct rule mknodat_dev[] = { R1 (MASKED (2, S_IFMT_, S_IFCHR_)), R1 (MASKED (2, S_IFMT_, S_IFBLK_)) };

/* PER_LINUX, and 0xffffffff, which only queries the persona.  */
static const struct rule per_linux[] = { R1 (EQ (0, 0)), R1 (EQ (0, 0xffffffffULL)) };

/* Under an allowing default, every other persona: the kernel reads the
   low 32 bits of the argument, and [1, 0xfffffffe] of them is a union of
   aligned blocks, each one masked comparison (a rule of one condition
   means the same to runc and crun; "not 0 and not ~0" would need two on
   one index, which runc ORs).  */
#define BLOCK(j)      (LOW32 ^ ((1ULL << (j)) - 1))
#define LOW_BLOCK(j)  R1 (MASKED (0, BLOCK (j), 1ULL << (j)))
#define HIGH_BLOCK(j) R1 (MASKED (0, BLOCK (j), (1ULL << 32) - (2ULL << (j))))
#define BLOCKS(F)                                                                               \
  F (0), F (1), F (2), F (3), F (4), F (5), F (6), F (7), F (8), F (9), F (10), F (11), F (12), \
      F (13), F (14), F (15), F (16), F (17), F (18), F (19), F (20), F (21), F (22), F (23),   \
      F (24), F (25), F (26), F (27), F (28), F (29), F (30)
static const struct rule not_per_linux[] = { BLOCKS (LOW_BLOCK), BLOCKS (HIGH_BLOCK) };

static const struct rule clone_no_ns[] = { R1 (MASKED (0, ENTITLE_CLONE_NS_FLAGS, 0)) };
/* Under an allowing default: one rule per namespace flag.  */
#define NS_FLAG(f) R1 (MASKED (0, f, f))
static const struct rule clone_ns[] = { NS_FLAG (CLONE_NEWNS), NS_FLAG (CLONE_NEWCGROUP), NS_FLAG (CLONE_NEWUTS),
                                        NS_FLAG (CLONE_NEWIPC), NS_FLAG (CLONE_NEWUSER), NS_FLAG (CLONE_NEWPID),
                                        NS_FLAG (CLONE_NEWNET) };

/* Rules for the calls that user_sockets and NODE_TYPES leave out, for a
   denying default whose errno is not EPERM (Podman's ENOSYS): blocks of
   values, each one masked comparison, as not_per_linux above.  The values
   below are those of the allowances (keep them together).  */

static void
push_rule (struct rules *out, const struct cond *first, struct cond c)
{
  if (out->n == out->cap)
    {
      out->cap = out->cap ? 2 * out->cap : 64;
      out->v = xrealloc (out->v, out->cap * sizeof (*out->v));
    }
  out->v[out->n++] = first ? (struct rule){ 2, { *first, c } } : (struct rule){ 1, { c } };
}

/* A field of an argument: the contiguous bits of @mask (fewer than 64),
   and the values of it (as the argument holds them) that are allowed.  */
struct field
{
  unsigned index;
  uint64_t mask;
  const uint64_t *keep;
  size_t nkeep;
};

/* The values of @f in the aligned block [@low, @low + 2^@bits) (in units
   of the field's lowest bit) that f->keep lacks, as blocks, each rule
   after the condition @first when there is one.  */
static void
complement_in (struct rules *out, const struct field *f, const struct cond *first, uint64_t low, unsigned bits)
{
  unsigned shift = (unsigned)__builtin_ctzll (f->mask);
  uint64_t above = ~((1ULL << bits) - 1);
  bool kept = false;
  size_t i;

  for (i = 0; i < f->nkeep; i++)
    kept |= ((f->keep[i] >> shift) & above) == low;
  if (!kept)
    push_rule (out, first, (struct cond){ f->index, SCMP_CMP_MASKED_EQ, ((f->mask >> shift) & above) << shift, low << shift });
  else if (bits > 0)
    {
      complement_in (out, f, first, low, bits - 1);
      complement_in (out, f, first, low | (1ULL << (bits - 1)), bits - 1);
    }
}

static void
complement (struct rules *out, const struct field *f, const struct cond *first)
{
  complement_in (out, f, first, 0, (unsigned)__builtin_popcountll (f->mask));
}

/* network.user: every family but unix, netlink, inet and inet6, and inet
   and inet6 sockets of every type but stream, datagram and seqpacket.  */
static void
user_rest (struct rules *out)
{
  static const uint64_t families[] = { AF_UNIX_, AF_NETLINK_, AF_INET_, AF_INET6_ };
  static const uint64_t types[] = { SOCK_STREAM_, SOCK_DGRAM_, SOCK_SEQPACKET_ };
  static const struct cond inet[] = { EQ (0, AF_INET_), EQ (0, AF_INET6_) };
  const struct field family = { 0, LOW32, families, N (families) };
  const struct field type = { 1, SOCK_TYPE_MASK, types, N (types) };
  size_t i;

  complement (out, &family, NULL);
  for (i = 0; i < N (inet); i++)
    complement (out, &type, &inet[i]);
}

/* host.devices.none: nodes of every type but NODE_TYPES's.  */
static const uint64_t node_types[] = { 0, S_IFREG_, S_IFIFO_, S_IFSOCK_ };

static void
mknod_rest (struct rules *out)
{
  const struct field mode = { 1, S_IFMT_, node_types, N (node_types) };
  complement (out, &mode, NULL);
}

static void
mknodat_rest (struct rules *out)
{
  const struct field mode = { 2, S_IFMT_, node_types, N (node_types) };
  complement (out, &mode, NULL);
}

static const struct restriction restrictions[] = {
  /* socketcall multiplexes socket() on 32-bit x86: it would bypass any
     rule on socket's arguments.  */
  { FX_SOCK_UNIX, "socket", EPERM, unix_only, N (unix_only), not_unix, N (not_unix), ENTITLE_ACT_UNKNOWN, NULL },
  { FX_SOCK_UNIX, "socketpair", EPERM, unix_only, N (unix_only), not_unix, N (not_unix), ENTITLE_ACT_UNKNOWN, NULL },
  { FX_SOCK_UNIX, "socketcall", EPERM, NULL, 0, NULL, 0, ENTITLE_ACT_UNKNOWN, NULL },
  { FX_SOCK_USER, "socket", EPERM, user_sockets, N (user_sockets), user_denied, N (user_denied), ENTITLE_ACT_UNKNOWN, user_rest },
  { FX_SOCK_USER, "socketcall", EPERM, NULL, 0, NULL, 0, ENTITLE_ACT_UNKNOWN, NULL },
  { FX_NO_DEV_MKNOD, "mknod", EPERM, mknod_ok, N (mknod_ok), mknod_dev, N (mknod_dev), ENTITLE_ACT_UNKNOWN, mknod_rest },
  { FX_NO_DEV_MKNOD, "mknodat", EPERM, mknodat_ok, N (mknodat_ok), mknodat_dev, N (mknodat_dev), ENTITLE_ACT_UNKNOWN, mknodat_rest },
  { FX_PERSONALITY, "personality", EPERM, per_linux, N (per_linux), not_per_linux, N (not_per_linux), ENTITLE_ACT_UNKNOWN, NULL },
};

/* glibc falls back from clone3 to clone on ENOSYS only.  */
static const struct restriction clone_restrictions[] = {
  { 0, "clone", EPERM, clone_no_ns, N (clone_no_ns), clone_ns, N (clone_ns), ENTITLE_ACT_UNKNOWN, NULL },
  { 0, "clone3", ENOSYS, NULL, 0, NULL, 0, ENTITLE_ACT_UNKNOWN, NULL },
};

static bool
default_allows (const json_t *seccomp)
{
  return entitle_scmp_act_allows (entitle_scmp_act_of (seccomp, "defaultAction"));
}

/* Does the rule @r of a profile let a call run?  */
static bool
rule_allows (const json_t *r)
{
  return entitle_scmp_act_allows (entitle_scmp_act_of (r, "action"));
}

static unsigned
default_errno (const json_t *seccomp)
{
  const json_t *v = json_get (seccomp, "defaultErrnoRet");
  return v && v->type == JSON_NUMBER ? (unsigned)strtoul (v->text, NULL, 10) : EPERM;
}

static json_t *
cond_json (const struct cond *c)
{
  json_t *o = json_new (JSON_OBJECT);
  json_set (o, "index", json_new_uint (c->index));
  json_set (o, "value", json_new_uint (c->value));
  if (c->value_two)
    json_set (o, "valueTwo", json_new_uint (c->value_two));
  json_set (o, "op", json_new_string (entitle_scmp_op_name (c->op)));
  return o;
}

/* Append {names:[name], action, errnoRet?, args?} unless an equal rule is
   there already.  */
/* Add the rule {@names (taken), @action, @errno_ret, @args (taken)},
   unless an equal one is there.  */
static void
add_names_rule (json_t *seccomp, json_t *names, enum entitle_scmp_act action, unsigned errno_ret, json_t *args)
{
  json_t *syscalls = json_get_or_add (seccomp, "syscalls", JSON_ARRAY);
  json_t *r = json_new (JSON_OBJECT);
  size_t i;

  json_set (r, "names", names);
  json_set (r, "action", json_new_string (entitle_scmp_act_name (action)));
  if (errno_ret)
    json_set (r, "errnoRet", json_new_uint (errno_ret));
  if (args)
    json_set (r, "args", args);
  for (i = 0; i < syscalls->n; i++)
    if (json_equal (syscalls->items[i], r))
      {
        json_free (r);
        return;
      }
  json_push (syscalls, r);
}

static void
add_rule (json_t *seccomp, const char *name, enum entitle_scmp_act action, unsigned errno_ret, json_t *args)
{
  json_t *names = json_new (JSON_ARRAY);

  json_push (names, json_new_string (name));
  add_names_rule (seccomp, names, action, errno_ret, args);
}

/* Remove @name from every allowing rule, whatever its arguments, but
   those @keep says are already as a restriction writes them (a config
   compiled before: left where they are, so that a second compile gives
   the same bytes); the rules it was removed from are returned as
   {action, args} for merging.  */
static json_t *
remove_allowing_but (json_t *seccomp, const char *name, bool (*keep) (const json_t *rule, const void *data),
                     const void *data)
{
  json_t *syscalls = json_get (seccomp, "syscalls"), *taken = json_new (JSON_ARRAY);
  size_t i;

  for (i = 0; syscalls && syscalls->type == JSON_ARRAY && i < syscalls->n;)
    {
      json_t *r = syscalls->items[i], *names = json_get (r, "names");
      long at = json_array_find_string (names, name);

      if (at < 0 || !rule_allows (r) || (keep && keep (r, data)))
        {
          i++;
          continue;
        }
      json_t *t = json_new (JSON_OBJECT);
      json_set (t, "action", json_clone (json_get (r, "action")));
      if (json_get (r, "args"))
        json_set (t, "args", json_clone (json_get (r, "args")));
      json_push (taken, t);
      while ((at = json_array_find_string (names, name)) >= 0)
        json_remove_at (names, (size_t)at);
      if (names->n == 0)
        json_remove_at (syscalls, i);
      else
        i++;
    }
  return taken;
}

static json_t *
remove_allowing (json_t *seccomp, const char *name)
{
  return remove_allowing_but (seccomp, name, NULL, NULL);
}

static bool
parse_u64 (const json_t *v, uint64_t *out)
{
  char *end;
  if (v == NULL)
    {
      *out = 0;
      return true;
    }
  if (v->type != JSON_NUMBER || v->text[0] == '-')
    return false;
  errno = 0;
  *out = strtoull (v->text, &end, 10);
  return errno == 0 && *end == '\0';
}

/* Does x satisfy the engine's condition @a?  False when @a cannot be read.  */
static bool
satisfies (const json_t *a, uint64_t x)
{
  uint64_t v, v2;

  if (!parse_u64 (json_get (a, "value"), &v) || !parse_u64 (json_get (a, "valueTwo"), &v2))
    return false;
  switch (entitle_scmp_op_parse (json_string (json_get (a, "op"))))
    {
    case SCMP_CMP_EQ:
      return x == v;
    case SCMP_CMP_NE:
      return x != v;
    case SCMP_CMP_LT:
      return x < v;
    case SCMP_CMP_LE:
      return x <= v;
    case SCMP_CMP_GT:
      return x > v;
    case SCMP_CMP_GE:
      return x >= v;
    case SCMP_CMP_MASKED_EQ:
      return (x & v) == v2;
    default:
      return false;
    }
}

static const struct cond *
cond_on (const struct rule *b, unsigned index)
{
  unsigned i;
  for (i = 0; i < b->n; i++)
    if (b->c[i].index == index)
      return &b->c[i];
  return NULL;
}

static bool
same_cond (const json_t *a, const struct cond *c)
{
  uint64_t v, v2;

  return entitle_scmp_op_parse (json_string (json_get (a, "op"))) == c->op && parse_u64 (json_get (a, "value"), &v)
         && parse_u64 (json_get (a, "valueTwo"), &v2) && v == c->value && v2 == c->value_two;
}

/* The AND of the engine's rule @old and entitle's rule @b, or NULL when
   it is empty or has no form both runtimes read alike (then the rule is
   dropped: denying more than asked, never less).  */
static json_t *
merge (const json_t *old, const struct rule *b)
{
  json_t *args = json_new (JSON_ARRAY);
  unsigned seen = 0, i;
  size_t k;

  for (i = 0; i < b->n; i++)
    json_push (args, cond_json (&b->c[i]));
  for (k = 0; old && old->type == JSON_ARRAY && k < old->n; k++)
    {
      const json_t *a = old->items[k];
      uint64_t index;
      const struct cond *c;

      if (!parse_u64 (json_get (a, "index"), &index) || index > 5 || (seen & (1u << index)))
        goto drop;
      seen |= 1u << index;
      c = cond_on (b, (unsigned)index);
      if (c == NULL)
        json_push (args, json_clone (a));
      else if (!same_cond (a, c) && (c->op != SCMP_CMP_EQ || !satisfies (a, c->value)))
        goto drop;
    }
  return args;
drop:
  json_free (args);
  return NULL;
}

static enum entitle_scmp_act
action_of (const struct restriction *r)
{
  return r->action ? r->action : ENTITLE_ACT_ERRNO;
}

/* Does the default action of @seccomp give a call @action (with @errno_ret
   for SCMP_ACT_ERRNO)?  */
static bool
default_is (const json_t *seccomp, enum entitle_scmp_act action, unsigned errno_ret)
{
  enum entitle_scmp_act d = entitle_scmp_act_of (seccomp, "defaultAction");

  return d != ENTITLE_ACT_UNKNOWN && d == action && (d != ENTITLE_ACT_ERRNO || default_errno (seccomp) == errno_ret);
}

/* Does the default action of @seccomp give a call what @r gives it?  */
static bool
default_gives (const json_t *seccomp, const struct restriction *r)
{
  return default_is (seccomp, action_of (r), r->errno_ret);
}

static json_t *
rule_args (const struct rule *b)
{
  json_t *args = json_new (JSON_ARRAY);
  unsigned i;

  for (i = 0; i < b->n; i++)
    json_push (args, cond_json (&b->c[i]));
  return args;
}

/* The rules that give a call @r's action, with its errno written out
   (runc and crun give a rule without one EPERM, whatever the default's):
   one without arguments, or one per rule of @deny.  */
static void
add_denials (json_t *seccomp, const struct restriction *r, const struct rule *deny, size_t ndeny)
{
  enum entitle_scmp_act action = action_of (r);
  unsigned e = action == ENTITLE_ACT_ERRNO ? r->errno_ret : 0;
  size_t j;

  if (ndeny == 0)
    add_rule (seccomp, r->name, action, e, NULL);
  for (j = 0; j < ndeny; j++)
    add_rule (seccomp, r->name, action, e, rule_args (&deny[j]));
}

/* Under a denying default: rules for every call @r's allowances leave
   out, disjoint from them (libseccomp gives overlapping rules of one
   syscall different actions by its own order).  */
static void
add_rest (json_t *seccomp, const struct restriction *r)
{
  struct rules rest = { 0 };

  if (r->rest == NULL)
    {
      add_denials (seccomp, r, r->deny, r->ndeny);
      return;
    }
  r->rest (&rest);
  add_denials (seccomp, r, rest.v, rest.n);
  free (rest.v);
}

/* Is @rule (an allowing rule that lists r->name) what restrict_denying
   writes: that name alone, and arguments that one of r's allowances
   leaves as they are?  */
static bool
restricted_already (const json_t *rule, const void *data)
{
  const struct restriction *r = data;
  const json_t *names = json_get (rule, "names"), *args = json_get (rule, "args");
  size_t j;

  if (names == NULL || names->n != 1 || args == NULL || args->type != JSON_ARRAY || args->n == 0)
    return false;
  for (j = 0; j < r->nallow; j++)
    {
      cleanup_json json_t *merged = merge (args, &r->allow[j]);
      if (merged && json_equal (merged, args))
        return true;
    }
  return false;
}

static void
restrict_denying (json_t *seccomp, const struct restriction *r)
{
  cleanup_json json_t *taken = remove_allowing_but (seccomp, r->name, restricted_already, r);
  size_t i, j;

  for (i = 0; i < taken->n; i++)
    for (j = 0; j < r->nallow; j++)
      {
        json_t *args = merge (json_get (taken->items[i], "args"), &r->allow[j]);
        if (args)
          add_rule (seccomp, r->name, entitle_scmp_act_of (taken->items[i], "action"), 0, args);
      }
  /* What the allowances leave out is the default's, where it gives what
     @r gives (Docker's and containerd's ERRNO/EPERM); elsewhere it is
     written out (Podman's default errno is ENOSYS, and entitlements(7)
     promises EPERM).  */
  if (!default_gives (seccomp, r))
    add_rest (seccomp, r);
}

static void
restrict_allowing (json_t *seccomp, const struct restriction *r)
{
  json_free (remove_allowing (seccomp, r->name));
  add_denials (seccomp, r, r->deny, r->ndeny);
}

static void
apply_restriction (json_t *seccomp, const struct restriction *r)
{
  if (default_allows (seccomp))
    restrict_allowing (seccomp, r);
  else
    restrict_denying (seccomp, r);
}

/* Is @name a syscall libseccomp can place in a filter for any of the
   profile's architectures?  Unknown names are ignored by the runtimes.  */
static bool
resolvable (const json_t *seccomp, const char *name)
{
  const json_t *archs = json_get (seccomp, "architectures");
  size_t i;

  if (seccomp_syscall_resolve_name (name) != __NR_SCMP_ERROR)
    return true;
  for (i = 0; archs && archs->type == JSON_ARRAY && i < archs->n; i++)
    {
      const char *a = json_string (archs->items[i]);
      uint32_t token = a && strncmp (a, "SCMP_ARCH_", 10) == 0 ? seccomp_arch_resolve_name (a + 10) : 0;
      if (token && seccomp_syscall_resolve_name_arch (token, name) != __NR_SCMP_ERROR)
        return true;
    }
  return false;
}

static bool
named_in (const json_t *item, void *set)
{
  return item->type == JSON_STRING && entitle_strset_has (set, item->text, item->len);
}

/* Take every name of @set out of the allowing rules of @seccomp, whatever
   their arguments, dropping a rule left with none: one pass over the
   profile however many names (a confined container denies about a
   hundred, Docker's profile allows some three hundred).  */
static void
remove_allowing_all (json_t *seccomp, const struct entitle_strset_s *set)
{
  json_t *syscalls = json_get (seccomp, "syscalls");
  size_t i;

  for (i = 0; syscalls && syscalls->type == JSON_ARRAY && i < syscalls->n;)
    {
      json_t *r = syscalls->items[i], *names = json_get (r, "names");
      if (names && names->type == JSON_ARRAY && rule_allows (r)
          && json_array_drop (names, named_in, (void *)set) > 0 && names->n == 0)
        json_remove_at (syscalls, i);
      else
        i++;
    }
}

/* Deny each name of @deny whatever its arguments, with EPERM: out of every
   allowing rule, and into one rule of its own where the default action
   would not give EPERM.  Under an allowing default a denial must name the
   syscall in a rule: one libseccomp cannot resolve is a restriction this
   host does not enforce.  */
static void
deny_all (json_t *seccomp, char *const *deny, struct entitle_outcome_s *out)
{
  cleanup_strset struct entitle_strset_s set = { 0 };
  json_t *names = json_new (JSON_ARRAY);
  bool allowing = default_allows (seccomp);
  size_t n = 0;

  for (char *const *d = deny; d && *d; d++)
    n++;
  entitle_strset_init (&set, n);
  for (; deny && *deny; deny++)
    {
      if (allowing && !resolvable (seccomp, *deny))
        {
          char what[128];
          snprintf (what, sizeof (what), "the denial of syscall `%s`", *deny);
          entitle_outcome_lack (out, what, "libseccomp %u.%u does not know it", seccomp_version ()->major,
                                seccomp_version ()->minor);
          continue;
        }
      if (entitle_strset_has (&set, *deny, strlen (*deny)))
        continue;
      entitle_strset_add (&set, *deny, strlen (*deny));
      json_push (names, json_new_string (*deny));
    }
  remove_allowing_all (seccomp, &set);
  if (names->n > 0 && !default_is (seccomp, ENTITLE_ACT_ERRNO, EPERM))
    add_names_rule (seccomp, names, ENTITLE_ACT_ERRNO, EPERM, NULL);
  else
    json_free (names);
}

/* Is @name in an allowing rule without argument conditions?  */
static bool
allowed_unconditionally (const json_t *seccomp, const char *name)
{
  const json_t *syscalls = json_get (seccomp, "syscalls");
  size_t i;

  for (i = 0; syscalls && syscalls->type == JSON_ARRAY && i < syscalls->n; i++)
    {
      const json_t *r = syscalls->items[i], *args = json_get (r, "args");
      if (rule_allows (r) && json_array_find_string (json_get (r, "names"), name) >= 0
          && (args == NULL || args->type != JSON_ARRAY || args->n == 0))
        return true;
    }
  return false;
}

/* Under a denying default, add one rule for what entitle allows: names
   already allowed without arguments, or denied by the plan, are left.  */
static void
allow_all (json_t *seccomp, const struct entitle_seccomp_plan_s *plan, struct entitle_outcome_s *out)
{
  json_t *names = json_new (JSON_ARRAY), *rule;

  for (char *const *p = plan->allow; p && *p; p++)
    {
      if (entitle_strv_has (plan->deny, *p) || allowed_unconditionally (seccomp, *p) || json_array_find_string (names, *p) >= 0)
        continue;
      if (!resolvable (seccomp, *p))
        {
          entitle_outcome_note (out, ENTITLE_LOG_DEBUG, "syscall `%s` is unknown to libseccomp: not allowed", *p);
          continue;
        }
      json_push (names, json_new_string (*p));
    }
  if (names->n == 0)
    {
      json_free (names);
      return;
    }
  rule = json_new (JSON_OBJECT);
  json_set (rule, "names", names);
  json_set (rule, "action", json_new_string (entitle_scmp_act_name (ENTITLE_ACT_ALLOW)));
  json_push (json_get_or_add (seccomp, "syscalls", JSON_ARRAY), rule);
}

/* Remove @name from every rule that denies it whatever its arguments
   (Podman's profile denies bpf, the module calls and more by name, ahead
   of its allow-list): an entitlement the admin granted allows them.  */
static void
lift_denial (json_t *seccomp, const char *name)
{
  json_t *syscalls = json_get (seccomp, "syscalls");
  size_t i;

  for (i = 0; syscalls && syscalls->type == JSON_ARRAY && i < syscalls->n;)
    {
      json_t *r = syscalls->items[i], *names = json_get (r, "names"), *args = json_get (r, "args");
      long at = json_array_find_string (names, name);

      if (at < 0 || rule_allows (r) || (args && args->type == JSON_ARRAY && args->n > 0))
        {
          i++;
          continue;
        }
      json_remove_at (names, (size_t)at);
      if (names->n == 0)
        json_remove_at (syscalls, i);
      else
        i++;
    }
}

/* CAP_SYS_ADMIN held: clone and clone3 without conditions, and no ENOSYS
   rule for clone3 left behind.  */
static void
allow_clone_ns (json_t *seccomp)
{
  json_t *syscalls = json_get (seccomp, "syscalls");
  size_t i;

  for (i = 0; syscalls && syscalls->type == JSON_ARRAY && i < syscalls->n;)
    {
      json_t *r = syscalls->items[i], *names = json_get (r, "names");
      long at = json_array_find_string (names, "clone3");
      if (at >= 0 && !rule_allows (r))
        {
          json_remove_at (names, (size_t)at);
          if (names->n == 0)
            {
              json_remove_at (syscalls, i);
              continue;
            }
        }
      i++;
    }
  /* Allowed already (compiling twice gives the same bytes).  */
  if (allowed_unconditionally (seccomp, "clone") && allowed_unconditionally (seccomp, "clone3"))
    return;
  json_free (remove_allowing (seccomp, "clone"));
  json_free (remove_allowing (seccomp, "clone3"));
  add_rule (seccomp, "clone", ENTITLE_ACT_ALLOW, 0, NULL);
  add_rule (seccomp, "clone3", ENTITLE_ACT_ALLOW, 0, NULL);
}

/* The calls a condition does not match, as rules of one condition each
   (their OR): what stays allowed where a custom rule denies under a
   denying default.  @out has room for 64.  */
static size_t
negate (const struct entitle_sys_arg_s *a, struct rule *out)
{
  static const enum scmp_compare opposite[_SCMP_CMP_MAX] = {
    [SCMP_CMP_EQ] = SCMP_CMP_NE,
    [SCMP_CMP_NE] = SCMP_CMP_EQ,
    [SCMP_CMP_LT] = SCMP_CMP_GE,
    [SCMP_CMP_GE] = SCMP_CMP_LT,
    [SCMP_CMP_LE] = SCMP_CMP_GT,
    [SCMP_CMP_GT] = SCMP_CMP_LE,
  };
  size_t n = 0;
  unsigned b;

  if ((unsigned)a->op < _SCMP_CMP_MAX && opposite[a->op])
    {
      out[0] = (struct rule){ 1, { { a->index, opposite[a->op], a->value, 0 } } };
      return 1;
    }
  /* (x & m) != v: some bit of the mask differs from v's.  */
  for (b = 0; b < 64; b++)
    if (a->value & (1ULL << b))
      out[n++] = (struct rule){ 1, { { a->index, SCMP_CMP_MASKED_EQ, 1ULL << b, (a->value_two ^ (1ULL << b)) & (1ULL << b) } } };
  return n;
}

/* A custom rule that allows: under a denying default, a rule of its own
   where the name is not allowed whatever its arguments already.  Under an
   allowing default there is nothing to add.  */
static void
allow_custom (json_t *seccomp, const struct entitle_sys_rule_s *cr, const struct rule *all)
{
  for (const char *const *n = cr->names; !default_allows (seccomp) && *n; n++)
    if (!allowed_unconditionally (seccomp, *n))
      add_rule (seccomp, *n, cr->action, 0, cr->n_args ? rule_args (all) : NULL);
}

/* A custom row's rule (entitle.json(5)), name by name, as entitle's own
   restrictions: under an allowing default the rule itself; under a
   denying one each call the engine allowed stays allowed for the
   arguments the rule does not match, and the rule's action is written
   out where the default would give another.  */
static void
apply_custom (json_t *seccomp, const struct entitle_sys_rule_s *cr)
{
  cleanup_free struct rule *allow = xcalloc (64 * ENTITLE_SYS_RULE_ARGS, sizeof (*allow));
  struct rule all = { cr->n_args, { { 0 } } };
  size_t nallow = 0;
  unsigned i;
  for (i = 0; i < cr->n_args; i++)
    {
      all.c[i] = (struct cond){ cr->args[i].index, cr->args[i].op, cr->args[i].value, cr->args[i].value_two };
      nallow += negate (&cr->args[i], allow + nallow);
    }
  if (cr->action == ENTITLE_ACT_ALLOW)
    {
      allow_custom (seccomp, cr, &all);
      return;
    }
  for (const char *const *n = cr->names; *n; n++)
    {
      struct restriction r = { 0, *n, cr->errno_ret, allow, nallow, &all, cr->n_args ? 1 : 0, cr->action, NULL };
      apply_restriction (seccomp, &r);
    }
}

static bool
custom_restricts (const struct entitle_seccomp_plan_s *plan)
{
  for (const struct entitle_sys_rule_s *const *r = plan->rules; r && *r; r++)
    if ((*r)->action != ENTITLE_ACT_ALLOW)
      return true;
  return false;
}

static bool
custom_allows (const struct entitle_seccomp_plan_s *plan)
{
  for (const struct entitle_sys_rule_s *const *r = plan->rules; r && *r; r++)
    if (entitle_scmp_act_allows ((*r)->action))
      return true;
  return false;
}

static bool
needs_profile (const struct entitle_seccomp_plan_s *plan)
{
  return (plan->deny && plan->deny[0]) || plan->fx || plan->clone_no_ns || custom_restricts (plan);
}

/* A rule on socket()'s arguments holds for the native ABI only: the 32-bit
   x86 socketcall multiplexer passes them in memory, where seccomp cannot
   look (libseccomp turns such a rule into one on socketcall that ignores
   the family).  So the profile lists the native architecture alone, and
   the kernel kills a 32-bit call (SIGSYS) before it runs.  */
static void
native_only (json_t *seccomp, const char *native)
{
  json_t *archs = json_get (seccomp, "architectures");

  if (archs == NULL || archs->type != JSON_ARRAY)
    return; /* the runtimes then build a filter for the native one */
  while (archs->n > 0)
    json_remove_at (archs, archs->n - 1);
  json_push (archs, json_new_string (native));
}

int
entitle_seccomp_apply (struct entitle_ctx_s *ctx, json_t *spec, const struct entitle_seccomp_plan_s *plan,
                       struct entitle_outcome_s *out, entitle_error_t *err)
{
  json_t *linux_ = json_get_or_add (spec, "linux", JSON_OBJECT);
  json_t *seccomp = json_get (linux_, "seccomp");
  const char *const *archs = entitle_seccomp_host_archs ();
  size_t i;

  if (archs == NULL && (needs_profile (plan) || (plan->allow && plan->allow[0]) || plan->clone_ns || plan->rules))
    return entitle_make_error (err, ENOTSUP, "entitle's seccomp rules do not cover this architecture (libseccomp's 0x%08x): see entitlements(7)",
                               seccomp_arch_native ());
  if (seccomp == NULL || seccomp->type != JSON_OBJECT)
    {
      /* No filter: everything is allowed already.  */
      if (!needs_profile (plan))
        return 0;
      seccomp = entitle_seccomp_generate (ctx, json_get (spec, "process"));
      json_set (linux_, "seccomp", seccomp);
    }
  for (i = 0; i < N (restrictions); i++)
    if (plan->fx & restrictions[i].fx)
      apply_restriction (seccomp, &restrictions[i]);
  if (plan->clone_no_ns)
    for (i = 0; i < N (clone_restrictions); i++)
      apply_restriction (seccomp, &clone_restrictions[i]);
  deny_all (seccomp, plan->deny, out);
  for (const struct entitle_sys_rule_s *const *r = plan->rules; r && *r; r++)
    apply_custom (seccomp, *r);
  if (out && ((plan->allow && plan->allow[0]) || plan->clone_ns || custom_allows (plan)))
    out->syscalls_allowed = true;
  if (plan->fx & (FX_SOCK_UNIX | FX_SOCK_USER))
    native_only (seccomp, archs[0]);
  for (char *const *p = plan->allow; p && *p; p++)
    if (!entitle_strv_has (plan->deny, *p))
      lift_denial (seccomp, *p);
  if (!default_allows (seccomp))
    {
      if (plan->clone_ns)
        allow_clone_ns (seccomp);
      allow_all (seccomp, plan, out);
    }
  return 0;
}

bool
entitle_seccomp_lets_through (const json_t *seccomp, const char *name)
{
  const json_t *syscalls = json_get (seccomp, "syscalls");
  bool listed = false;
  size_t i;

  if (seccomp == NULL || seccomp->type != JSON_OBJECT)
    return true;
  for (i = 0; syscalls && syscalls->type == JSON_ARRAY && i < syscalls->n; i++)
    {
      const json_t *r = syscalls->items[i];
      if (json_array_find_string (json_get (r, "names"), name) < 0)
        continue;
      if (rule_allows (r))
        return true;
      listed = true;
    }
  return !listed && default_allows (seccomp);
}

char **
entitle_seccomp_allowed_names (const json_t *seccomp)
{
  const json_t *syscalls = json_get (seccomp, "syscalls");
  size_t i, j, n = 0, cap = 16;
  char **out = xmalloc (cap * sizeof (char *));

  for (i = 0; syscalls && syscalls->type == JSON_ARRAY && i < syscalls->n; i++)
    {
      const json_t *r = syscalls->items[i], *names = json_get (r, "names");
      if (!rule_allows (r) || names == NULL)
        continue;
      for (j = 0; j < names->n; j++)
        {
          if (json_string (names->items[j]) == NULL)
            continue;
          if (n + 1 >= cap)
            out = xrealloc (out, (cap *= 2) * sizeof (char *));
          out[n++] = xstrdup (names->items[j]->text);
        }
    }
  entitle_strv_sort_uniq (out, n);
  return out;
}
