/**
 * Entry of the lazily loaded `dist/imaging.js` bundle: jimp, the WebP decoder and the shrinker.
 * Required by {@link loadShrinker} on the first image over the upload limit, never at activation.
 */
import * as jimp from 'jimp';
import type { Shrinker } from './image';
import { shrinkWith } from './resize';
import { decodeWebp } from './webp';

/** Shrinks an image under `maxBytes` (see {@link shrinkWith}). */
export const shrink: Shrinker = (bytes, format, maxBytes) => shrinkWith(jimp, bytes, format, maxBytes, (b) => decodeWebp(b));
