/**
 * Text into HTML (webview pages, the WeChat article): `& < > " '` as numeric character references,
 * so the result is safe both as element content and inside a quoted attribute value. Pure, no `vscode`.
 */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
