#!/usr/bin/env node
// Renders the extension's Marketplace icon, media/icon.png (128 × 128 PNG), from the SVG below:
// the sprout of the activity-bar icon (media/shunong.svg) growing from a page of a bulletin, with
// a footnote mark, on a green rounded square. Headless Chromium (Debian's, through playwright-core,
// as the tests use it) draws the SVG; the same Chromium gives the same bytes on every run.
// Run: `node scripts/make-icon.mjs` (writes media/icon.png; `--out <file>` writes elsewhere).

import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const i = process.argv.indexOf('--out');
const OUT = i >= 0 ? resolve(process.argv[i + 1]) : join(REPO, 'media', 'icon.png');
const SIZE = 128;

export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 128 128">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#43a047"/>
      <stop offset="1" stop-color="#1b5e20"/>
    </linearGradient>
  </defs>
  <rect x="4" y="4" width="120" height="120" rx="26" fill="url(#bg)"/>
  <!-- the page -->
  <path d="M30 22h50l18 18v66a6 6 0 0 1-6 6H30a6 6 0 0 1-6-6V28a6 6 0 0 1 6-6z" fill="#fbfbf4"/>
  <path d="M80 22v12a6 6 0 0 0 6 6h12z" fill="#c8e6c9"/>
  <!-- lines of text -->
  <g stroke="#a5b6a6" stroke-width="5" stroke-linecap="round">
    <path d="M36 40h30"/>
    <path d="M36 100h44"/>
  </g>
  <!-- the footnote mark, [1] -->
  <g fill="none" stroke="#2e7d32" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round" transform="translate(-8 -4)">
    <path d="M81 70h-4v18h4"/>
    <path d="M85 74l3-3v17"/>
    <path d="M93 70h4v18h-4"/>
  </g>
  <!-- the sprout -->
  <g fill="none" stroke="#2e7d32" stroke-width="6" stroke-linecap="round" stroke-linejoin="round">
    <path d="M60 88V56"/>
    <path d="M60 70c-13 0-20-8-20-20 12 0 20 7 20 20z" fill="#66bb6a"/>
    <path d="M60 60c0-12 8-20 20-20 0 12-8 20-20 20z" fill="#9ccc65"/>
    <path d="M42 88h26"/>
  </g>
</svg>`;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const browser = await chromium.launch({
    executablePath: process.env.SHUNONG_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--force-color-profile=srgb'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
    await page.setContent(`<html><body style="margin:0;background:transparent">${ICON_SVG}</body></html>`);
    const png = await page.locator('svg').screenshot({ omitBackground: true });
    writeFileSync(OUT, png);
    process.stdout.write(`${OUT} ${png.length} bytes\n`);
  } finally {
    await browser.close();
  }
}
