/**
 * The recognition flow (src/recognition/flow.ts) wired to the shared connection and our own
 * download: the Recognize command's panels and the chat's recognition tool both run it, so a
 * picture is checked, shrunk, converted and (for a URL the platform cannot fetch) downloaded the
 * same way whoever asks.
 */
import type { Connection } from '../connection';
import { downloadImage } from '../../../recognition/download';
import { recognize, type FlowDeps, type FlowOutcome, type ImageSource } from '../../../recognition/flow';
import type { RecognitionType } from '../../../recognition/types';

/** What the caller adds to the flow: the shrinker, what it is told, and whether a rejected key offers "Set API Key". */
export type RecognizeHooks = Pick<FlowDeps, 'shrinker' | 'onNote' | 'onPreview'> & { offerSetKey?: boolean };

/** Runs one recognition of `source` through `connection`. */
export function recognizeThrough(
  connection: Connection,
  source: ImageSource,
  type: RecognitionType,
  hooks: RecognizeHooks,
  signal?: AbortSignal,
): Promise<FlowOutcome> {
  const { offerSetKey, ...rest } = hooks;
  const options = offerSetKey === undefined ? {} : { offerSetKey };
  return recognize(
    source,
    type,
    {
      call: (args, s) => connection.run((c) => c.recognizeCrop(args, s ? { signal: s } : {}), options),
      download: (url, s) => downloadImage(url, s ? { signal: s } : {}),
      ...rest,
    },
    signal,
  );
}
