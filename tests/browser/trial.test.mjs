// What a first trial of the page found, kept fixed: an instructor projecting at 1366 x 768 in
// presentation mode, a student on a phone at 390 x 844, and links made by hand (bad values,
// boards whose table is made at first use), reloads in the middle of the work.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { base, pageTest } from './harness.mjs';

const projector = { viewport: { width: 1366, height: 768 } };
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

const shown = (page) => page.waitForFunction(() => document.querySelector('#distance').dataset.distance);

/** The file a click on `selector` downloads, as bytes. */
async function downloaded(page, selector) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

pageTest('presentation at 1366: two A* runs side by side, each open list in a box of its own; stacked on a phone', async (page) => {
  await page.goto(`${base}/?tab=astar&shape=3x3&goal=blank-last&board=3+6+1+5+4+7+0+2+8&present=1&ah=hamming&ah2=manhattan`);
  await shown(page);
  await page.click('#astar-run');
  await page.waitForSelector('#astar-view:not([hidden])');
  await page.click('#astar-last');
  const runs = await page.$$eval('.astar-one', (els) => els.map((e) => e.getBoundingClientRect().toJSON()));
  assert.equal(runs.length, 2);
  assert.equal(Math.round(runs[0].top), Math.round(runs[1].top), 'side by side');
  assert.ok(runs[1].left >= runs[0].right && runs[1].right <= 1366, JSON.stringify(runs));
  const boxes = await page.$$eval('.open-scroll', (els) => els.map((e) => [e.clientHeight, e.scrollHeight, e.tabIndex, e.getAttribute('role')]));
  for (const [h, full, tab, role] of boxes) {
    assert.ok(h <= 768 * 0.6 && full > h, `the open list scrolls in its box: ${h} of ${full} px`);
    assert.equal(tab, 0, 'its box is reached by keyboard');
    assert.equal(role, 'region');
  }
  const tall = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(tall < 2400, `the page is ${tall} px tall`);
  const trees = await page.$$eval('.tree-box canvas', (cs) => cs.map((c) => c.getBoundingClientRect().width));
  for (const w of trees) assert.ok(w >= 600, `each tree takes its column's width: ${w}`);
  // a narrow screen stacks them
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => {
    const [a, b] = [...document.querySelectorAll('.astar-one')].map((e) => e.getBoundingClientRect());
    return b.top >= a.bottom - 1;
  });
}, { page: projector });

pageTest('presentation at 1366: the charts letter larger, and Compare fits with every column a switch away', async (page) => {
  await page.goto(`${base}/?tab=space&board=1+2+3+4+5+6+0+7+8&shape=3x3&present=1`);
  await shown(page);
  await page.waitForFunction(() => /181,440 states/.test(document.querySelector('#stats-summary').textContent));
  const chart = await page.$eval('#histogram', (c) => [c.width, c.getBoundingClientRect().width]);
  assert.ok(chart[0] > 580 && Math.abs(chart[0] - chart[1]) < 3, `the depth chart drawn at its size on screen: ${chart}`);
  await page.click('#tab-btn-compare');
  await page.click('#compare-run');
  await page.waitForFunction(() => document.querySelectorAll('#compare-rows tr').length >= 6, null, { timeout: 20000 });
  const right = await page.$eval('#compare-table', (t) => t.getBoundingClientRect().right);
  assert.ok(right <= 1366, `the table ends at ${right}`);
  assert.equal(await page.isVisible('#compare-table th.col-seconds'), false);
  await page.check('#compare-all');
  assert.equal(await page.isVisible('#compare-table th.col-seconds'), true);
  assert.equal(new URL(page.url()).searchParams.get('call'), '1');
  // the searches by the names the menus use, on screen and in the CSV
  const names = await page.$$eval('#compare-rows td.col-label', (tds) => tds.map((td) => td.textContent));
  assert.ok(names.includes('A* with misplaced tiles (h1)') && names.includes('weighted A* w=2 with Manhattan (h2)'), names.join('; '));
  const csv = (await downloaded(page, '#compare-csv')).bytes.toString();
  assert.doesNotMatch(csv, /\((hamming|manhattan|pdb|linear-conflict)\)/);
  assert.match(csv, /A\* with misplaced tiles \(h1\)/);
  // practice mode hides b* too: the nodes generated and b* give the depth
  await page.check('#practice');
  const ebf = await page.$$eval('#compare-rows td.col-ebf', (tds) => tds.map((td) => td.textContent));
  assert.ok(ebf.every((t) => t === 'hidden'), ebf.join(' '));
}, { page: projector, timeout: 40000 });

pageTest('Compare and Textbook keep their results over a reload, and say when a reload stopped a job', async (page) => {
  await page.goto(`${base}/?tab=compare&board=1+2+3+4+5+6+0+7+8&shape=3x3`);
  await shown(page);
  await page.click('#compare-run');
  await page.waitForFunction(() => document.querySelectorAll('#compare-rows tr').length >= 6, null, { timeout: 20000 });
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('#compare-rows tr').length >= 6);
  // a comparison stopped by a reload is said (the server held here: its answer never comes)
  await page.route('**/api/jobs/compare', () => {});
  await page.click('#compare-run');
  await page.waitForFunction(() => /compare: starting/.test(document.querySelector('#job-text').textContent));
  await page.reload();
  await page.waitForFunction(() => /stopped when the page reloaded/.test(document.querySelector('#compare-status').textContent));
  assert.match(await page.textContent('#message'), /comparison was stopped when the page reloaded/);
  assert.equal(await page.locator('#compare-rows tr').count(), 6, 'the rows before it are kept');
  await page.unroute('**/api/jobs/compare');
  // the textbook's table, and its run stopped by a reload
  await page.click('#tab-btn-textbook');
  await page.fill('#textbook-depths', '2,4');
  await page.fill('#textbook-count', '3');
  await page.click('#textbook-run');
  await page.waitForFunction(() => document.querySelector('#textbook-status').dataset.state === 'done', null, { timeout: 20000 });
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('#textbook-rows tr').length === 2);
  assert.equal(await page.inputValue('#textbook-depths'), '2,4', 'the settings are in the URL');
  await page.fill('#textbook-depths', '22,24');
  await page.fill('#textbook-count', '5000');
  await page.click('#textbook-run');
  await page.waitForFunction(() => /experiment: /.test(document.querySelector('#job-text').textContent)
    && !/starting/.test(document.querySelector('#job-text').textContent));
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#textbook-status').dataset.state === 'interrupted');
  assert.match(await page.textContent('#textbook-status'), /stopped when the page reloaded/);
}, { timeout: 60000 });

pageTest("Compare's job line names the search running and counts its own nodes", async (page) => {
  // the server's events, played: its count stays on the search before's last figure until the
  // next search reports
  const event = (name, data) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  const row = (index, algorithm, heuristic) => ({ index, label: 'x', algorithm, heuristic, weight: null, generated: 10, expanded: 5,
    length: 2, optimal_length: 2, ebf: 2, seconds: 0.1, optimal: true, error: null });
  const play = (body) => page.route('**/api/jobs/compare', (route) => route.fulfill({ status: 200, contentType: 'text/event-stream', body }));
  await page.goto(`${base}/?tab=compare&board=1+2+3+4+5+6+0+7+8&shape=3x3&cr=0.2`);
  await shown(page);
  // the page shows the last line of each piece of the stream: played in two runs, each cut where
  // the line is to be read
  const lineAfter = async (body) => {
    await page.unroute('**/api/jobs/compare');
    await play(body);
    await page.evaluate(() => {
      window.lines = [];
      new MutationObserver(() => window.lines.push(document.querySelector('#job-text').textContent))
        .observe(document.querySelector('#job-text'), { childList: true, characterData: true, subtree: true });
    });
    await page.click('#compare-run');
    await page.waitForFunction(() => /compare: done/.test(document.querySelector('#job-text').textContent));
    return page.evaluate(() => window.lines);
  };
  const first = event('started', { waited: 0 }) + event('progress', { generated: 4595358, seconds: 0.25 }) + event('run', row(0, 'bfs', null))
    + event('progress', { generated: 4595358, seconds: 0.5 });
  let lines = await lineAfter(first);
  assert.ok(lines.includes('compare: search 2 of 2, A* with misplaced tiles (h1): 0.3 s'), lines.join(' | '));
  lines = await lineAfter(`${first}${event('progress', { generated: 1200, seconds: 0.75 })}`);
  assert.ok(lines.includes('compare: search 2 of 2, A* with misplaced tiles (h1): 1,200 nodes, 0.5 s'), lines.join(' | '));
  lines = await lineAfter(event('started', { waited: 0 }) + event('progress', { generated: 4595358, seconds: 0.25 }));
  assert.ok(lines.includes('compare: search 1 of 2, BFS: 4,595,358 nodes, 0.3 s'), lines.join(' | '));
});

pageTest('on a phone the tree saved as PNG is drawn at 640 wide, its title wrapped, not cut', async (page) => {
  await page.goto(`${base}/?tab=astar&board=3+6+1+5+4+7+0+2+8&shape=3x3&ah=hamming`);
  await shown(page);
  await page.click('#astar-run');
  await page.waitForSelector('#astar-view:not([hidden])');
  const png = await downloaded(page, '.tree-box button:has-text("save tree as PNG")');
  const size = await page.evaluate(async (b64) => {
    const raw = atob(b64);
    const bmp = await createImageBitmap(new Blob([Uint8Array.from(raw, (ch) => ch.charCodeAt(0))], { type: 'image/png' }));
    return [bmp.width, bmp.height];
  }, png.bytes.toString('base64'));
  assert.equal(size[0], 1280, `twice 640 wide: ${size}`);
  assert.ok(size[1] >= 2 * (420 + 46), `the tree under its title and key: ${size}`);
}, { page: phone });

pageTest("a link to a board whose table is made at first use says so, and the menus show the link's choice", async (page) => {
  // a slow server (a 3x4 table takes about ten seconds), played here by holding the answers
  const slow = async (route) => {
    await new Promise((done) => setTimeout(done, 1500));
    await route.continue();
  };
  await page.route('**/api/position', slow);
  await page.route('**/api/scramble', slow);
  await page.goto(`${base}/?shape=2x5&goal=snail`);
  await page.waitForFunction(() => /^opening the 2x5 board \(snail\)/.test(document.querySelector('#message').textContent));
  assert.equal(await page.inputValue('#shape'), '2x5');
  assert.equal(await page.inputValue('#goal'), 'snail');
  await shown(page);
  assert.equal(await page.textContent('#message'), '');
  assert.equal(await page.inputValue('#shape'), '2x5');
});

pageTest('bad links are said on the page without a refused request, and the URL keeps what is used', async (page) => {
  const logged = [];
  page.on('console', (m) => { if (m.type() === 'error') logged.push(m.text()); });
  for (const [query, said] of [['board=1+2+3+4+5+6+7+8+0&goal=bogus', /goal `bogus`/], ['board=1+2+3+4+5+6+7+8+0&shape=9x9', /shape `9x9`/],
    ['board=1+2+3+4+5+6+7+8+8&shape=3x3', /tile 8 appears twice/]]) {
    await page.goto(`${base}/?${query}`);
    await shown(page);
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('#message').textContent), said.source);
  }
  assert.deepEqual(logged, [], 'no console error');
  await page.goto(`${base}/?tab=astar&board=1+2+3+4+5+6+0+7+8&shape=3x3&ah=bogus`);
  await shown(page);
  await page.waitForFunction(() => new URL(window.location.href).searchParams.get('ah') === null);
  assert.match(await page.textContent('#message'), /`bogus` is not a choice/);
  await page.goto(`${base}/?tab=compare&board=1+2+3+4+5+6+0+7+8&shape=3x3&cr=99.abc.2`);
  await shown(page);
  await page.waitForFunction(() => new URL(window.location.href).searchParams.get('cr') === '2');
  assert.match(await page.textContent('#message'), /cr=99\.abc\.2/);
});

pageTest('a tab switch is a history entry: Back returns to the tab before, the moves kept', async (page) => {
  await page.goto(`${base}/?board=1+2+3+4+5+6+0+7+8&shape=3x3`);
  await shown(page);
  await page.locator('#board .movable').first().click();
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '1');
  await page.click('#tab-btn-space');
  await page.waitForSelector('#tab-space:not([hidden])');
  await page.goBack();
  await page.waitForSelector('#tab-play:not([hidden])');
  assert.equal(await page.getAttribute('#distance', 'data-moves'), '1', 'Back undid the tab switch, not the move');
});
