/** The panel ↔ webview protocol (src/recognition/protocol.ts): the recognition types and the validation of the webview's untrusted messages. */
import * as assert from 'node:assert/strict';
import {
  RECOGNITION_TYPES,
  SHRINK_PART_BYTES,
  isRecognitionType,
  parseWebviewMessage,
} from '../../../src/recognition/protocol';

const NOT_OBJECTS: [string, unknown][] = [
  ['undefined', undefined],
  ['null', null],
  ['a string', 'ready'],
  ['a number', 1],
  ['a boolean', true],
  ['a function carrying a type', Object.assign(() => undefined, { type: 'ready' })],
];

describe('recognition: the panel ↔ webview protocol', () => {
  describe('recognition types', () => {
    it('offers the three models of crop_growth_recognize, in this order', () => {
      assert.deepEqual(RECOGNITION_TYPES, ['tea_count', 'tea_stage', 'wheat_stage']);
    });

    it('accepts exactly those names, nothing else', () => {
      for (const t of RECOGNITION_TYPES) assert.equal(isRecognitionType(t), true, t);
      for (const v of ['', 'TEA_COUNT', 'tea', 'rice_stage', 0, 1, null, undefined, ['tea_count'], {}])
        assert.equal(isRecognitionType(v), false, JSON.stringify(v));
    });
  });

  it('a picture to shrink travels in parts of 1 MiB', () => {
    assert.equal(SHRINK_PART_BYTES, 1024 * 1024);
  });

  describe('messages from the webview (untrusted)', () => {
    it('anything but an object is dropped', () => {
      for (const [what, m] of NOT_OBJECTS) assert.equal(parseWebviewMessage(m), undefined, what);
    });

    it('a message without a type, or of an unknown type, is dropped', () => {
      for (const m of [{}, { type: 'bogus' }, { type: 'READY' }, { type: 1 }, { type: ['ready'] }, { run: 1 }])
        assert.equal(parseWebviewMessage(m), undefined, JSON.stringify(m));
    });

    it('"ready", "insert", "save" and "retry" are taken as their type alone, other fields dropped', () => {
      for (const type of ['ready', 'insert', 'save', 'retry']) {
        assert.deepEqual(parseWebviewMessage({ type }), { type });
        assert.deepEqual(parseWebviewMessage({ type, extra: '<b>', run: 3 }), { type }, `${type} with extra fields`);
      }
    });

    it('"rendered" needs a numeric run, count of boxes and time', () => {
      const ok = { type: 'rendered', run: 2, boxes: 5, ms: 17 };
      assert.deepEqual(parseWebviewMessage({ ...ok, extra: 1 }), ok);
      for (const field of ['run', 'boxes', 'ms']) {
        assert.equal(parseWebviewMessage({ ...ok, [field]: undefined }), undefined, `${field} missing`);
        assert.equal(parseWebviewMessage({ ...ok, [field]: '2' }), undefined, `${field} a string`);
      }
    });

    it('"rerun" needs one of the recognition types', () => {
      for (const recognitionType of RECOGNITION_TYPES)
        assert.deepEqual(parseWebviewMessage({ type: 'rerun', recognitionType, extra: 1 }), {
          type: 'rerun',
          recognitionType,
        });
      for (const recognitionType of [undefined, 'bogus', 0])
        assert.equal(parseWebviewMessage({ type: 'rerun', recognitionType }), undefined, String(recognitionType));
    });

    it('"annotated" needs a numeric request id; it keeps a string PNG and a string error, drops them otherwise', () => {
      const table: [Record<string, unknown>, unknown][] = [
        [
          { requestId: 4, png: 'iVBO' },
          { type: 'annotated', requestId: 4, png: 'iVBO' },
        ],
        [
          { requestId: 4, error: 'no image' },
          { type: 'annotated', requestId: 4, error: 'no image' },
        ],
        [
          { requestId: 4, png: 'iVBO', error: 'partial' },
          { type: 'annotated', requestId: 4, png: 'iVBO', error: 'partial' },
        ],
        [{ requestId: 4 }, { type: 'annotated', requestId: 4 }],
        [
          { requestId: 4, png: 42, error: { message: 'x' } },
          { type: 'annotated', requestId: 4 },
        ],
        [{ requestId: '4', png: 'iVBO' }, undefined],
        [{ png: 'iVBO' }, undefined],
      ];
      for (const [fields, expected] of table)
        assert.deepEqual(parseWebviewMessage({ type: 'annotated', ...fields }), expected, JSON.stringify(fields));
    });

    it('"shrinking" needs a numeric request id and delivery', () => {
      assert.deepEqual(parseWebviewMessage({ type: 'shrinking', requestId: 3, delivery: 2, extra: 1 }), {
        type: 'shrinking',
        requestId: 3,
        delivery: 2,
      });
      for (const fields of [
        { delivery: 2 },
        { requestId: 3 },
        { requestId: '3', delivery: 2 },
        { requestId: 3, delivery: '2' },
      ])
        assert.equal(parseWebviewMessage({ type: 'shrinking', ...fields }), undefined, JSON.stringify(fields));
    });

    describe('"shrunk"', () => {
      const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 1]);
      const noPicture = (requestId: number, error = 'no picture in the answer'): unknown => ({
        type: 'shrunk',
        requestId,
        error,
      });

      it('without a numeric request id it is dropped', () => {
        for (const requestId of [undefined, '1', null])
          assert.equal(
            parseWebviewMessage({ type: 'shrunk', requestId, bytes: jpeg, width: 3, height: 2 }),
            undefined,
            String(requestId),
          );
      });

      it('bytes with a positive whole width and height are the picture (any error beside them is ignored)', () => {
        assert.deepEqual(parseWebviewMessage({ type: 'shrunk', requestId: 1, bytes: jpeg, width: 3, height: 2 }), {
          type: 'shrunk',
          requestId: 1,
          bytes: jpeg,
          width: 3,
          height: 2,
        });
        assert.deepEqual(
          parseWebviewMessage({ type: 'shrunk', requestId: 1, bytes: jpeg, width: 1, height: 1, error: 'ignored' }),
          { type: 'shrunk', requestId: 1, bytes: jpeg, width: 1, height: 1 },
        );
      });

      it('a Uint8Array is taken as it is; an ArrayBuffer or any other view as exactly its bytes', () => {
        const parsed = (bytes: unknown): Uint8Array | undefined => {
          const m = parseWebviewMessage({ type: 'shrunk', requestId: 1, bytes, width: 3, height: 2 });
          return m?.type === 'shrunk' ? m.bytes : undefined;
        };
        assert.equal(parsed(jpeg), jpeg, 'the same array, not a copy');
        const buffer = new Uint8Array([9, 8, 7, 6, 5, 4]).buffer;
        const table: [string, unknown, number[]][] = [
          ['an ArrayBuffer', buffer, [9, 8, 7, 6, 5, 4]],
          ['a DataView over part of a buffer', new DataView(buffer, 1, 3), [8, 7, 6]],
          ['an Int8Array over part of a buffer', new Int8Array(buffer, 2, 2), [7, 6]],
          ['a Uint16Array', new Uint16Array(buffer, 2, 1), [7, 6]],
        ];
        for (const [what, bytes, expected] of table) {
          const got = parsed(bytes);
          assert.ok(got instanceof Uint8Array, what);
          assert.deepEqual([...got], expected, what);
        }
      });

      it('no usable bytes, or a width or height that is not a positive whole number: an error, not a picture', () => {
        const table: [string, Record<string, unknown>][] = [
          ['no bytes', { width: 3, height: 2 }],
          ['bytes as base64', { bytes: 'AAAA', width: 3, height: 2 }],
          ['bytes as an array of numbers', { bytes: [255, 216], width: 3, height: 2 }],
          ['bytes as an object', { bytes: { length: 2 }, width: 3, height: 2 }],
          ['width 0', { bytes: jpeg, width: 0, height: 2 }],
          ['height 0', { bytes: jpeg, width: 3, height: 0 }],
          ['negative width', { bytes: jpeg, width: -3, height: 2 }],
          ['negative height', { bytes: jpeg, width: 3, height: -2 }],
          ['fractional width', { bytes: jpeg, width: 2.5, height: 2 }],
          ['fractional height', { bytes: jpeg, width: 3, height: 0.5 }],
          ['infinite width', { bytes: jpeg, width: Infinity, height: 2 }],
          ['NaN height', { bytes: jpeg, width: 3, height: NaN }],
          ['width as a string', { bytes: jpeg, width: '3', height: 2 }],
          ['no height', { bytes: jpeg, width: 3 }],
          ['no width', { bytes: jpeg, height: 2 }],
        ];
        for (const [what, fields] of table)
          assert.deepEqual(parseWebviewMessage({ type: 'shrunk', requestId: 5, ...fields }), noPicture(5), what);
      });

      it("without a picture, the webview's reason is kept when it is a string", () => {
        assert.deepEqual(
          parseWebviewMessage({ type: 'shrunk', requestId: 6, error: 'no OffscreenCanvas' }),
          noPicture(6, 'no OffscreenCanvas'),
        );
        assert.deepEqual(
          parseWebviewMessage({ type: 'shrunk', requestId: 6, bytes: jpeg, width: 0, height: 2, error: 'too big' }),
          noPicture(6, 'too big'),
        );
        assert.deepEqual(parseWebviewMessage({ type: 'shrunk', requestId: 6, error: { message: 'x' } }), noPicture(6));
      });
    });
  });
});
