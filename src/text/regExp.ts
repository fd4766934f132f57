/**
 * Text taken literally inside a regular expression: every character the pattern syntax gives a
 * meaning to (`. * + ? ^ $ { } ( ) | [ ] \`) is escaped, so the pattern matches exactly that text.
 * Pure.
 */

/** `text` as a pattern that matches exactly `text`, with or without the `u` flag. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
