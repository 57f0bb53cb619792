// SPDX-License-Identifier: GPL-2.0-or-later
//
// validate-oci.js SCHEMA_DIR CONFIG...: validate each CONFIG against the
// OCI runtime-spec JSON schema in SCHEMA_DIR (config-schema.json and the
// files it refers to, draft-04), with Debian's node-ajv (ajv 6).  Prints
// one line per invalid CONFIG; exit status 1 if any is, 2 on a setup error.
'use strict';
const fs = require('fs');
const path = require('path');

let Ajv;
try {
  Ajv = require('ajv');
} catch (e) {
  console.error('validate-oci: no ajv (Debian package node-ajv; NODE_PATH=/usr/share/nodejs)');
  process.exit(2);
}

const dir = process.argv[2];
const ajv = new Ajv({ schemaId: 'id', meta: false, allErrors: true, unknownFormats: 'ignore',
                      extendRefs: true, logger: false });
const draft4 = require('ajv/lib/refs/json-schema-draft-04.json');
ajv.addMetaSchema(draft4);
ajv._opts.defaultMeta = draft4.id;
const read = (f) => JSON.parse(fs.readFileSync(f, 'utf8'));
for (const f of fs.readdirSync(dir))
  if (f.endsWith('.json') && f !== 'config-schema.json')
    ajv.addSchema(read(path.join(dir, f)), f);
const validate = ajv.compile(read(path.join(dir, 'config-schema.json')));

let bad = 0;
for (const file of process.argv.slice(3)) {
  let doc;
  try {
    doc = read(file);
  } catch (e) {
    console.log(`${file}: not JSON: ${e.message}`);
    bad = 1;
    continue;
  }
  if (!validate(doc)) {
    bad = 1;
    console.log(`${file}: ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
  }
}
process.exit(bad);
