/**
 * Writes the e2e's phone photo to the path given: a 6 MB JPEG stored landscape (2528 × 1896 or so)
 * with EXIF orientation 6, four coloured quadrants under noise (test/unit/recognition/verdicts.ts),
 * so that the preview can be checked for showing it upright. Run by recognition.spec.mjs through
 * `node --import tsx`.
 */
import { writeFileSync } from 'node:fs';
import { photo } from '../unit/recognition/verdicts';

const out = process.argv[2];
if (!out) throw new Error('usage: node --import tsx test/e2e/phone-photo.ts <file.jpg>');
void photo('jpeg', 6, 6).then((p) => writeFileSync(out, p.bytes));
