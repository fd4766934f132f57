/** Redaction of the API key from text (no other import: the features bundle uses it too). */

/** Replaces every occurrence of `secret` in `text` by `***` (no-op for an empty secret). */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret) return text;
  return text.split(secret).join('***');
}
