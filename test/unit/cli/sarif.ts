/**
 * The published SARIF 2.1.0 schema (OASIS, with its errata: test/fixtures/sarif/, JSON Schema
 * draft-04), compiled once by Ajv's draft-04 class with the formats it names (uri, uri-reference,
 * date-time), for the tests of `shunong check --format sarif`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

const SCHEMA = join(__dirname, '..', '..', 'fixtures', 'sarif', 'sarif-schema-2.1.0.json');

let compiled: ValidateFunction | undefined;

/** The schema's complaints about a document, one a line ('' when it is valid SARIF 2.1.0). */
export function sarifErrors(doc: unknown): string {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: true });
    addFormats(ajv);
    compiled = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
  }
  if (compiled(doc)) return '';
  return (compiled.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('\n');
}
