/**
 * The one list of command ids (src/settings/commands.ts), which every registered command's id is
 * typed against, is the manifest's `contributes.commands`: the same ids both ways, each once.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMAND_IDS } from '../../../src/settings/commands';

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { commands: { command: string }[] };
};
const contributed = manifest.contributes.commands.map((c) => c.command);

describe('command ids: the list the registry is typed against and the manifest', () => {
  it('every contributed command is in the list', () => {
    assert.deepEqual(
      contributed.filter((id) => !(COMMAND_IDS as readonly string[]).includes(id)),
      [],
    );
  });

  it('every id of the list is contributed', () => {
    assert.deepEqual(
      COMMAND_IDS.filter((id) => !contributed.includes(id)),
      [],
    );
  });

  it('names each command once, in both', () => {
    assert.equal(new Set(COMMAND_IDS).size, COMMAND_IDS.length);
    assert.equal(new Set(contributed).size, contributed.length);
  });
});
