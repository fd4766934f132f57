import * as assert from 'node:assert/strict';
import { pictureCandidates } from '../../../src/chat/picturePath';

describe('chat: where a picture path may be in the workspace', () => {
  it('one folder: the path in it', () => {
    assert.deepEqual(pictureCandidates([{ name: 'farm' }], 'photos/tea.jpg'), [{ folder: 0, path: 'photos/tea.jpg' }]);
  });

  it('several folders: each of them, in order, so a picture of the second folder is found', () => {
    assert.deepEqual(pictureCandidates([{ name: 'bulletins' }, { name: 'field' }], 'photos/tea.jpg'), [
      { folder: 0, path: 'photos/tea.jpg' },
      { folder: 1, path: 'photos/tea.jpg' },
    ]);
  });

  it('a path that starts with a folder name looks in that folder first', () => {
    assert.deepEqual(pictureCandidates([{ name: 'bulletins' }, { name: 'field' }], 'field/photos/tea.jpg'), [
      { folder: 1, path: 'photos/tea.jpg' },
      { folder: 0, path: 'field/photos/tea.jpg' },
      { folder: 1, path: 'field/photos/tea.jpg' },
    ]);
  });

  it('a leading slash is read as relative to the folders', () => {
    assert.deepEqual(pictureCandidates([{ name: 'farm' }], '/photos/tea.jpg'), [{ folder: 0, path: 'photos/tea.jpg' }]);
    // any number of them, and the folder name after them still leads
    const folders = [{ name: 'bulletins' }, { name: 'field' }];
    assert.deepEqual(
      pictureCandidates(folders, '//field/photos/tea.jpg'),
      pictureCandidates(folders, 'field/photos/tea.jpg'),
    );
  });

  it('only paths that stay inside their folder, normalised: a path climbing out is looked for nowhere', () => {
    assert.deepEqual(pictureCandidates([{ name: 'farm' }], 'photos/../tea.jpg'), [{ folder: 0, path: 'tea.jpg' }]);
    assert.deepEqual(pictureCandidates([{ name: 'farm' }], 'photos\\tea.jpg'), [{ folder: 0, path: 'photos/tea.jpg' }]);
    assert.deepEqual(pictureCandidates([{ name: 'farm' }, { name: 'field' }], '../secret.jpg'), []);
    assert.deepEqual(pictureCandidates([{ name: 'farm' }], 'farm/../../secret.jpg'), []);
  });

  it('no folder: nowhere to look', () => {
    assert.deepEqual(pictureCandidates([], 'photos/tea.jpg'), []);
  });
});
