// The page of `table serve` in a real browser: Debian's chromium driven by playwright-core (no
// browser download), against the real binary started on port 0. A failing test leaves a
// screenshot in target/browser-failures/; a passing run leaves target/serve-screenshot.png.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = process.env.TABLE_BIN || join(root, 'target', 'release', 'table');
const failures = join(root, 'target', 'browser-failures');

let server;
let base;
let browser;

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'slidetable-browser-'));
  server = spawn(bin, ['serve', '--port', '0', '--dir', dir], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
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
function pageTest(name, body) {
  test(name, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await body(page);
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

const distance = async (page) => Number(await page.getAttribute('#distance', 'data-distance'));

pageTest('play three moves and read the distances', async (page) => {
  await page.goto(`${base}/`);
  await page.fill('#depth', '14');
  await page.fill('#seed', '5');
  await page.click('#scramble');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '14');
  for (let i = 0; i < 3; i++) {
    // take the first movable tile, whatever its label; the board must then show that distance
    const tile = page.locator('.movable').first();
    const label = Number(await tile.locator('.badge').getAttribute('data-distance'));
    const before = await distance(page);
    assert.ok(label === before - 1 || label === before + 1, `a move changes the distance by one (${before} -> ${label})`);
    await tile.click();
    await page.waitForFunction((d) => document.querySelector('#distance').dataset.distance === String(d), label);
    assert.match(await page.textContent('#distance'), new RegExp(`distance: ${label}\\s+moves: ${i + 1}`));
  }
  await page.click('#undo');
  await page.waitForFunction(() => /moves: 2/.test(document.querySelector('#distance').textContent));
});

pageTest('hints come in stages', async (page) => {
  await page.goto(`${base}/?board=1+2+3+4+5+6+0+7+8&shape=3x3&goal=blank-last`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '2');
  await page.uncheck('#labels');
  assert.match(await page.textContent('#distance'), /distance: \?/);
  await page.click('#hint');
  assert.match(await page.textContent('#hint-text'), /2 moves away/);
  await page.click('#hint');
  assert.match(await page.textContent('#hint-text'), /Optimal: slide 7/);
  assert.equal(await page.locator('.optimal').count(), 1);
  await page.click('#hint');
  await page.waitForFunction(() => /An optimal solution, 2 moves/.test(document.querySelector('#hint-text').textContent));
  assert.match(await page.textContent('#hint-text'), /RR/);
});

pageTest('open a shareable URL', async (page) => {
  await page.goto(`${base}/?board=8+6+7+2+5+4+3+0+1&goal=blank-last`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '31');
  const tiles = await page.locator('#board .cell').evaluateAll((cells) => cells.map((c) => c.dataset.tile || '0'));
  assert.deepEqual(tiles, ['8', '6', '7', '2', '5', '4', '3', '0', '1']);
  // the inspector shows h beside h* = 31
  assert.equal(await page.textContent('tr[data-heuristic="manhattan"] td:nth-child(2)'), '21');
  assert.equal(await page.textContent('tr[data-heuristic="manhattan"] td:nth-child(3)'), '31');
  // after a move the URL names the new board
  await page.locator('.movable').first().click();
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '30');
  assert.ok(!page.url().includes('board=8+6+7+2+5+4+3+0+1'), page.url());
  // a bad board in a URL is said, not swallowed
  await page.goto(`${base}/?board=1+1+2&shape=3x3`);
  await page.waitForFunction(() => document.querySelector('#message').textContent.length > 0);
  assert.equal(await page.getAttribute('#message', 'class'), 'error');
});

pageTest('run A* step by step', async (page) => {
  await page.goto(`${base}/?board=1+2+3+0+4+6+7+5+8&shape=3x3`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '3');
  await page.click('nav button[data-tab="astar"]');
  await page.click('#astar-run');
  await page.waitForSelector('#astar-view:not([hidden])');
  assert.match(await page.textContent('#astar-summary'), /C\* = 3/);
  assert.equal(await page.locator('#astar-open tr').count(), 1);
  for (let i = 0; i < 2; i++) await page.click('#astar-forward');
  assert.equal(await page.getAttribute('#astar-step', 'data-step'), '2');
  const openAfter2 = Number(await page.getAttribute('#astar-counts', 'data-open'));
  assert.ok(openAfter2 > 1);
  const classes = await page.locator('#astar-open tr td:last-child').allTextContents();
  assert.ok(classes.every((c) => ['must', 'may', 'never'].includes(c)), classes.join(','));
  await page.click('#astar-back');
  assert.equal(await page.getAttribute('#astar-step', 'data-step'), '1');
  await page.click('#astar-last');
  assert.match(await page.textContent('#astar-summary'), /solution of 3 moves \(optimal\)/);
});

pageTest('stream and cancel a textbook run, then run another', async (page) => {
  await page.goto(`${base}/`);
  await page.click('nav button[data-tab="textbook"]');
  await page.fill('#textbook-depths', '2,4,22,24');
  await page.fill('#textbook-count', '2000');
  await page.click('#textbook-run');
  await page.waitForSelector('#textbook-rows tr');
  await page.click('#textbook-cancel');
  await page.waitForFunction(() => document.querySelector('#textbook-status').dataset.state === 'cancelled');
  const rows = await page.locator('#textbook-rows tr').count();
  assert.ok(rows >= 1 && rows < 4, `${rows} rows`);
  // the server let the job go: a new one is accepted
  // (the server gives a cancelled job a moment to wind down before refusing the next)
  await page.fill('#textbook-depths', '2,4');
  await page.fill('#textbook-count', '5');
  await page.click('#textbook-run');
  await page.waitForFunction(() => document.querySelector('#textbook-status').dataset.state === 'done');
  assert.equal(await page.locator('#textbook-rows tr').count(), 2);
  assert.match(await page.textContent('#textbook-rows tr:first-child'), /^2/);
});

pageTest('the 3x3 heat map is drawn within a second', async (page) => {
  await page.goto(`${base}/`);
  await page.click('nav button[data-tab="space"]');
  await page.waitForFunction(() => /181,440 states/.test(document.querySelector('#stats-summary').textContent));
  await page.selectOption('#heatmap-heuristic', 'linear-conflict');
  await page.click('#heatmap-draw');
  await page.waitForSelector('#heatmap-time[data-ms]');
  const ms = Number(await page.getAttribute('#heatmap-time', 'data-ms'));
  console.log(`3x3 heat map (linear conflict, cold) drawn in ${ms.toFixed(0)} ms`);
  assert.match(await page.textContent('#heatmap-summary'), /overestimates on 0 states/);
  // a click on a cell shows a board from it
  await page.click('#heatmap', { position: { x: 40 + 18 * 16 + 8, y: 20 + 20 * 16 + 8 } });
  await page.waitForFunction(() => /h\* = 20/.test(document.querySelector('#example-text').textContent));
});

pageTest('compare runs and keep a transcript', async (page) => {
  await page.goto(`${base}/?board=1+2+3+4+5+6+0+7+8&shape=3x3`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '2');
  await page.click('nav button[data-tab="compare"]');
  await page.click('#compare-run');
  await page.waitForFunction(() => document.querySelectorAll('#compare-rows tr').length === 6, null, { timeout: 20000 });
  const lengths = await page.locator('#compare-rows tr td:nth-child(6)').allTextContents();
  assert.deepEqual(lengths.slice(0, 3), ['2', '2', '2']);
  await page.click('#compare-clear');
  assert.equal(await page.locator('#compare-rows tr').count(), 0);
});

pageTest('screenshot of the page for the README', async (page) => {
  await page.goto(`${base}/`);
  await page.fill('#depth', '20');
  await page.fill('#seed', '7');
  await page.click('#scramble');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '20');
  await page.fill('#weight', '1.5');
  await page.dispatchEvent('#weight', 'input');
  await page.evaluate(() => window.scrollTo(0, 0));
  mkdirSync(join(root, 'target'), { recursive: true });
  await page.screenshot({ path: join(root, 'target', 'serve-screenshot.png') });
});
