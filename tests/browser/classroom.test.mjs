// A class on one server, and what a page gives an instructor for slides: two students' jobs on
// a server that runs one at a time (the second is queued and says its place, never refused),
// and exports that decode (the board as SVG, the heat maps and the A* tree as PNG).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { base, browser, pageTest, serverArgs } from './harness.mjs';

serverArgs.push('--jobs', '1');

pageTest('a second student is queued with their place shown, then served; neither is refused', async (page) => {
  // two students: two browser contexts, so two client ids
  const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const second = await other.newPage();
  try {
    await page.goto(`${base}/?tab=textbook`);
    await page.waitForFunction(() => document.querySelector('#distance').dataset.distance);
    await page.fill('#textbook-depths', '22,24');
    await page.fill('#textbook-count', '5000');
    await page.click('#textbook-run');
    await page.waitForFunction(() => /experiment: /.test(document.querySelector('#job-text').textContent)
      && !/starting/.test(document.querySelector('#job-text').textContent));
    await second.goto(`${base}/?board=1+2+3+4+5+6+0+7+8&shape=3x3&tab=compare`);
    await second.waitForFunction(() => document.querySelector('#distance').dataset.distance === '2');
    await second.click('#compare-run');
    await second.waitForFunction(() => /waiting for a free core, number 1 in the queue/.test(document.querySelector('#job-text').textContent), null, { timeout: 5000 })
      .catch(async (e) => {
        throw new Error(`${e.message}; the second page's job line: ${await second.textContent('#job-text')}; message: ${await second.textContent('#message')}`);
      });
    assert.equal(await second.textContent('#message'), '', 'no error for the student waiting');
    // the first student's job ends: the second's starts and finishes
    await page.click('#textbook-cancel');
    await second.waitForFunction(() => document.querySelectorAll('#compare-rows tr').length === 6, null, { timeout: 20000 });
    assert.notEqual(await second.getAttribute('#message', 'class'), 'error', 'no error for the second student');
  } finally {
    await other.close();
  }
});

/** The file a click on `selector` downloads, as bytes. */
async function downloaded(page, selector) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

/** Whether the page's own browser decodes `bytes` as an image of type `type`; its size. */
function decode(page, bytes, type) {
  return page.evaluate(async ([b64, t]) => {
    // built here, not fetched: the page's CSP allows no data: fetches
    const raw = atob(b64);
    const blob = new Blob([Uint8Array.from(raw, (ch) => ch.charCodeAt(0))], { type: t });
    if (t === 'image/svg+xml') {
      const doc = new DOMParser().parseFromString(await blob.text(), t);
      if (doc.querySelector('parsererror')) return null;
      const img = new Image();
      img.src = URL.createObjectURL(blob);
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }
    const bmp = await createImageBitmap(blob);
    return [bmp.width, bmp.height];
  }, [bytes.toString('base64'), type]);
}

pageTest('exports for slides decode: the board as SVG, heat maps and the A* tree as PNG', async (page) => {
  await page.goto(`${base}/?board=8+6+7+2+5+4+3+0+1&shape=3x3`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '31');
  const svg = await downloaded(page, '#board-svg');
  assert.match(svg.name, /\.svg$/);
  const size = await decode(page, svg.bytes, 'image/svg+xml');
  assert.ok(size && size[0] > 100 && size[1] > 100, `the board's SVG decodes: ${size}`);
  assert.match(svg.bytes.toString(), /31 moves from the goal/);
  await page.click('#tab-btn-space');
  await page.waitForFunction(() => /181,440 states/.test(document.querySelector('#stats-summary').textContent));
  // the depth chart at three times its pixels, with a title above it
  const chart = await downloaded(page, '#histogram-png');
  const [cw, ch] = await page.evaluate(() => [document.getElementById('histogram').width, document.getElementById('histogram').height]);
  assert.deepEqual(await decode(page, chart.bytes, 'image/png'), [3 * cw, 3 * (ch + 30)]);
  await page.click('#heatmap-draw');
  await page.waitForFunction(() => document.querySelector('#heatmap-time').dataset.ms);
  const heat = await downloaded(page, '#heatmap-png');
  assert.deepEqual([...heat.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
  const hs = await decode(page, heat.bytes, 'image/png');
  // both maps side by side at three times the screen's pixels, with a title and the scale
  const [w, h] = await page.evaluate(() => [['heatmap', 'heatmap2'].map((id) => document.getElementById(id))
    .reduce((s, c) => s + c.width, 0), document.getElementById('heatmap').height]);
  assert.ok(hs[0] >= 3 * w && hs[1] >= 3 * (h + 60), `two maps side by side, for slides: ${hs} from ${w}x${h}`);
  await page.click('#tab-btn-astar');
  await page.click('#astar-run');
  await page.waitForSelector('#astar-view:not([hidden])');
  await page.click('#astar-last');
  const tree = await downloaded(page, '.tree-box button:has-text("save tree as PNG")');
  assert.deepEqual(await decode(page, tree.bytes, 'image/png'), [1280, 932], 'the tree at twice its pixels, with its title and key above it');
  const table = await downloaded(page, '.tree-box button:has-text("save table as SVG")');
  assert.ok(await decode(page, table.bytes, 'image/svg+xml'), 'the open list as SVG decodes');
});

pageTest('presentation mode: large type, and it stays on a reload', async (page) => {
  await page.goto(`${base}/?board=8+6+7+2+5+4+3+0+1&shape=3x3`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '31');
  const size = () => page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('#distance')).fontSize));
  const before = await size();
  await page.click('#present');
  assert.ok(await size() > before * 1.2, 'larger type');
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '31');
  assert.equal(await page.isChecked('#present'), true);
  // an optimal solution played at the fastest speed reaches the goal
  await page.selectOption('#autoplay-speed', '4');
  await page.click('#autoplay');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '0', null, { timeout: 20000 });
  assert.equal(Number(await page.getAttribute('#distance', 'data-moves')), 31);
  // ... and the summary says the page played it, not the student
  await page.waitForFunction(() => /the page played an optimal solution, 31 in all, the optimum/.test(document.querySelector('#won-summary').textContent));
}, { timeout: 40000 });
