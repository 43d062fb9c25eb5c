// What every browser test file shares: the real `table serve` binary started on port 0 in a
// fresh directory, Debian's chromium driven by playwright-core (no browser download), and
// `pageTest`, which runs a test on a fresh page and keeps a screenshot of a failure in
// target/browser-failures/. Each test file gets its own server and browser.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = process.env.TABLE_BIN || join(root, 'target', 'release', 'table');
const failures = join(root, 'target', 'browser-failures');

let server;
/** Arguments given to `table serve` beside `--port 0 --dir DIR`: a test file may add some. */
export const serverArgs = [];
export let base;
export let browser;

before(async () => {
  // the runner may start this hook while the test file is still being read: let it finish, so
  // the arguments it adds (serverArgs) are in
  await new Promise((done) => setImmediate(done));
  const dir = mkdtempSync(join(tmpdir(), 'slidetable-browser-'));
  server = spawn(bin, ['serve', '--port', '0', '--dir', dir, ...serverArgs], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise((ok, fail) => {
    const lines = createInterface({ input: server.stdout });
    lines.once('line', ok);
    server.once('exit', (code) => fail(new Error(`table serve exited with ${code} before listening`)));
  });
  const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(first);
  assert.ok(m, `first line: ${first}`);
  base = m[1];
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill();
});

/** Runs `body(page)` on a fresh page; on failure saves a screenshot named after the test. */
export function pageTest(name, body, options = {}) {
  test(name, { timeout: options.timeout || 30000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, ...(options.page || {}) });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      // stop a little before the runner's own time-out, so a hung test still leaves its screenshot
      const limit = (options.timeout || 30000) - 3000;
      let timer;
      await Promise.race([body(page), new Promise((_, fail) => {
        timer = setTimeout(() => fail(new Error(`no end after ${limit} ms`)), limit);
      })]).finally(() => clearTimeout(timer));
      assert.deepEqual(errors, [], 'errors in the page');
    } catch (e) {
      mkdirSync(failures, { recursive: true });
      await page.screenshot({ path: join(failures, `${name.replace(/[^a-z0-9]+/gi, '-')}.png`), fullPage: true });
      throw e;
    } finally {
      await page.close();
    }
  });
}

/** The distance the page shows (its data attribute), as a number. */
export const distance = async (page) => Number(await page.getAttribute('#distance', 'data-distance'));

/** Waits until the page shows a board with its distance known. */
export async function ready(page) {
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance !== undefined
    && document.querySelector('#distance').dataset.distance !== '');
}
