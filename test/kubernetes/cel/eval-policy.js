// SPDX-License-Identifier: GPL-2.0-or-later
//
// eval-policy.js POLICY.yaml OBJECT.json [OLD.json]: admit OBJECT (a
// Kubernetes object as the API server holds it, in JSON) as the API
// server would under the ValidatingAdmissionPolicies of POLICY.yaml that
// a ValidatingAdmissionPolicyBinding there binds: CREATE, or UPDATE from
// OLD.  The CEL is evaluated by @bufbuild/cel (package-lock.json beside
// this file pins it; `npm ci` here installs it), the YAML read by Debian's
// node-js-yaml (NODE_PATH=/usr/share/nodejs).
//
// Prints `allowed`, `allowed: not matched (WHY)`, or one line
// `refused: MESSAGE` per failed validation (exit 1).  An expression that
// fails to evaluate or gives the wrong type, or a policy this runner
// cannot follow, is one line on stderr and exit 2: the API server would
// refuse it (failurePolicy Fail) for another reason than the policy's.
//
// As the API server does, `object` and `oldObject` are untyped maps
// (integers are CEL ints), `oldObject` is null on CREATE, `params` is null
// (the policy has no paramKind) and `variables` are evaluated in order,
// each seeing those before it.  Not done here: the API server's type check
// against the OpenAPI schema (warnings in the policy's status), its cost
// limits and its own CEL libraries (the policy uses standard CEL only,
// which is what this evaluates).
'use strict';
const fs = require('fs');

let cel, yaml;
try {
  cel = require('@bufbuild/cel');
  yaml = require('js-yaml');
} catch (e) {
  console.error('eval-policy: ' + e.message.split('\n')[0] +
                ' (npm ci in test/kubernetes/cel; Debian package node-js-yaml, NODE_PATH=/usr/share/nodejs)');
  process.exit(2);
}

function fail(msg) {
  console.error('eval-policy: ' + msg);
  process.exit(2);
}

// JSON as CEL input: objects become maps, integral numbers ints.
function toCel(v) {
  if (Array.isArray(v))
    return v.map(toCel);
  if (v !== null && typeof v === 'object')
    return new Map(Object.entries(v).map(([k, x]) => [k, toCel(x)]));
  if (typeof v === 'number' && Number.isInteger(v))
    return BigInt(v);
  return v;
}

// The request's kind and resource: the plural of the kind, lowercased, is
// the resource of every kind the policy names.
function request(object, old) {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  const kind = { group, version, kind: object.kind };
  const resource = { group, version, resource: object.kind.toLowerCase() + 's' };
  const meta = object.metadata || {};
  return {
    kind, resource, subResource: '', requestKind: kind, requestResource: resource, requestSubResource: '',
    name: meta.name || '', namespace: meta.namespace || '', operation: old ? 'UPDATE' : 'CREATE',
    userInfo: { username: 'eval-policy' }, dryRun: false,
  };
}

const anyOf = (list, value) => (list || []).includes('*') || (list || []).includes(value);

function matches(constraints, req) {
  return (constraints.resourceRules || []).some((r) =>
    anyOf(r.apiGroups, req.resource.group) && anyOf(r.apiVersions, req.resource.version) &&
    anyOf(r.resources, req.resource.resource) && anyOf(r.operations, req.operation));
}

function evaluate(what, expr, activation, type) {
  let value;
  try {
    value = cel.run(expr, activation);
  } catch (e) {
    fail(what + ': ' + e.message);
  }
  if (cel.isCelError(value))
    fail(what + ': ' + value.message);
  if (type && typeof value !== type)
    fail(what + ': gives a ' + typeof value + ', not a ' + type);
  return value;
}

// One policy on one request: the messages of the validations that fail,
// or null when the policy does not match.
function admit(policy, req, activation) {
  const spec = policy.spec || {};
  const name = policy.metadata.name;
  if (spec.paramKind)
    fail(name + ': has a paramKind, which this runner does not follow');
  if (!matches(spec.matchConstraints || {}, req))
    return { skipped: name + ': ' + req.resource.resource + ' ' + req.operation + ' not in matchConstraints' };
  for (const c of spec.matchConditions || [])
    if (!evaluate(name + ' matchCondition ' + c.name, c.expression, activation, 'boolean'))
      return { skipped: name + ': matchCondition ' + c.name };
  const variables = new Map();
  activation.variables = variables;
  for (const v of spec.variables || [])
    variables.set(v.name, evaluate(name + ' variable ' + v.name, v.expression, activation));
  const refused = [];
  (spec.validations || []).forEach((v, i) => {
    if (evaluate(name + ' validation ' + i, v.expression, activation, 'boolean'))
      return;
    const message = v.messageExpression
      ? evaluate(name + ' validation ' + i + ' messageExpression', v.messageExpression, activation, 'string')
      : v.message;
    if (!message || /[\r\n]/.test(message))
      fail(name + ' validation ' + i + ': no one-line message');
    refused.push(message);
  });
  return { refused };
}

function main(argv) {
  if (argv.length < 2 || argv.length > 3)
    fail('usage: eval-policy.js POLICY.yaml OBJECT.json [OLD.json]');
  const docs = yaml.loadAll(fs.readFileSync(argv[0], 'utf8')).filter((d) => d);
  const read = (f) => JSON.parse(fs.readFileSync(f, 'utf8'));
  const object = read(argv[1]);
  const old = argv[2] ? read(argv[2]) : null;
  const req = request(object, old);
  const policies = new Map(docs.filter((d) => d.kind === 'ValidatingAdmissionPolicy')
    .map((d) => [d.metadata.name, d]));
  const bindings = docs.filter((d) => d.kind === 'ValidatingAdmissionPolicyBinding');
  if (bindings.length === 0)
    fail(argv[0] + ': no ValidatingAdmissionPolicyBinding');
  const refused = [], skipped = [];
  for (const b of bindings) {
    const policy = policies.get(b.spec.policyName);
    if (!policy)
      fail('binding ' + b.metadata.name + ' names no policy of ' + argv[0]);
    if (!(b.spec.validationActions || []).includes('Deny'))
      fail('binding ' + b.metadata.name + ' does not deny');
    if (b.spec.matchResources || b.spec.paramRef)
      fail('binding ' + b.metadata.name + ': matchResources and paramRef are not followed here');
    const activation = { object: toCel(object), oldObject: toCel(old), request: toCel(req), params: null };
    const result = admit(policy, req, activation);
    if (result.skipped)
      skipped.push(result.skipped);
    else
      refused.push(...result.refused);
  }
  if (refused.length > 0) {
    for (const m of refused)
      console.log('refused: ' + m);
    return 1;
  }
  console.log(skipped.length === bindings.length ? 'allowed: not matched (' + skipped.join('; ') + ')' : 'allowed');
  return 0;
}

process.exit(main(process.argv.slice(2)));
