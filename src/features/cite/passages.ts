/** "Open the full passage" of a cited passage: the shared read-only passage document. */
import type { Command } from '../shared/commands';
import type { PassageDocs } from '../shared/passageDocs';

/** The `shunong.openPassage` command (a citation key, `doc#idx`, of the workspace cache). */
export function passageCommand(docs: PassageDocs): Command {
  return {
    id: 'shunong.openPassage',
    run: (key?: unknown) => (typeof key === 'string' ? docs.openCited(key) : undefined),
  };
}
