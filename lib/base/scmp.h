/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_SCMP_H
#define ENTITLE_SCMP_H

#include <seccomp.h>
#include <stdbool.h>
#include "json.h"

/* A seccomp rule's action as the OCI runtime spec names them
   ("SCMP_ACT_ERRNO", ...): read from text once, where a config.json or
   an admin's entitle.json is parsed, and written back as text only where
   a config.json is written.  Not libseccomp's values: SCMP_ACT_KILL and
   SCMP_ACT_KILL_THREAD are one there, two names here.  */
enum entitle_scmp_act
{
  ENTITLE_ACT_UNKNOWN = 0, /**< absent, or a name the spec does not have */
  ENTITLE_ACT_KILL,
  ENTITLE_ACT_KILL_PROCESS,
  ENTITLE_ACT_KILL_THREAD,
  ENTITLE_ACT_TRAP,
  ENTITLE_ACT_ERRNO,
  ENTITLE_ACT_TRACE,
  ENTITLE_ACT_ALLOW,
  ENTITLE_ACT_LOG,
  ENTITLE_ACT_NOTIFY,
  ENTITLE_ACT_COUNT_,
};

/* @name's action; ENTITLE_ACT_UNKNOWN for NULL or a name the spec lacks.  */
enum entitle_scmp_act entitle_scmp_act_parse (const char *name);

/* The action in @obj's member @key ("action", "defaultAction" of a
   config.json's linux.seccomp): the edge where the text is read.  */
enum entitle_scmp_act entitle_scmp_act_of (const json_t *obj, const char *key);

/* The spec's name of @act; NULL for ENTITLE_ACT_UNKNOWN.  */
const char *entitle_scmp_act_name (enum entitle_scmp_act act);

/* Does @act let the syscall run (ALLOW, LOG, TRACE, NOTIFY)?  */
bool entitle_scmp_act_allows (enum entitle_scmp_act act);

/* An argument's operator ("SCMP_CMP_EQ", ...) as libseccomp's own enum;
   0 (_SCMP_CMP_MIN) for NULL or a name the spec lacks.  */
enum scmp_compare entitle_scmp_op_parse (const char *name);

/* The spec's name of @op; NULL for one it lacks.  */
const char *entitle_scmp_op_name (enum scmp_compare op);

#endif
