// Accessibility and small screens: axe-core (from npm, run inside the page) on every panel in a
// filled state with no critical or serious violation, and every panel at phone size (390 x 844,
// touch) with no sideways scroll and targets of at least 44 px.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { base, pageTest } from './harness.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Opens each panel with something in it; calls `check(tab)` on each. */
async function tour(page, check) {
  await page.goto(`${base}/?board=1+2+3+0+4+6+7+5+8&shape=3x3&moves=R`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '2');
  await page.locator('#board .movable').first().click();
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '2');
  await check('play');
  await page.click('#practice');
  await check('play (practice)');
  await page.click('#practice');
  await page.click('#tab-btn-space');
  await page.waitForFunction(() => /181,440 states/.test(document.querySelector('#stats-summary').textContent));
  await page.click('#heatmap-draw');
  await page.waitForFunction(() => document.querySelector('#heatmap-time').dataset.ms);
  await check('space');
  await page.click('#tab-btn-astar');
  await page.click('#astar-run');
  await page.waitForSelector('#astar-view:not([hidden])');
  await page.click('#astar-forward');
  await page.click('#astar-forward');
  await check('astar');
  await page.click('#tab-btn-compare');
  await page.click('#compare-run');
  await page.waitForFunction(() => document.querySelectorAll('#compare-rows tr').length >= 6, null, { timeout: 20000 });
  await check('compare');
  await page.click('#tab-btn-textbook');
  await page.fill('#textbook-depths', '2,4');
  await page.fill('#textbook-count', '3');
  await page.click('#textbook-run');
  await page.waitForFunction(() => document.querySelector('#textbook-status').dataset.state === 'done', null, { timeout: 20000 });
  // the columns named as the menus name the heuristics, not by their machine names
  const groups = await page.$$eval('#textbook-head th.group', (ths) => ths.map((t) => t.textContent));
  assert.ok(groups.some((g) => /misplaced tiles \(h1\)/.test(g)), `textbook columns: ${groups}`);
  assert.ok(!groups.some((g) => /hamming|manhattan/.test(g)), `textbook columns: ${groups}`);
  await check('textbook');
}

pageTest('axe-core finds no critical or serious violation on any panel', async (page) => {
  const found = [];
  await tour(page, async (tab) => {
    const result = await page.evaluate(async (src) => {
      if (!window.axe) (0, eval)(src);
      const r = await window.axe.run(document, { resultTypes: ['violations'] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + n.failureSummary) }));
    }, axeSource);
    for (const v of result) {
      if (v.impact === 'critical' || v.impact === 'serious') found.push({ tab, ...v });
    }
  });
  assert.deepEqual(found, [], JSON.stringify(found, null, 2));
}, { timeout: 90000, page: { bypassCSP: true } });

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

pageTest('at phone size no panel scrolls sideways, every target is at least 44 px, and what scrolls is focusable', async (page) => {
  const problems = [];
  await tour(page, async (tab) => {
    // what overflows on a phone (the inspector, the tables) is reached by keyboard too
    const scrolls = await page.evaluate(async (src) => {
      if (!window.axe) (0, eval)(src);
      const r = await window.axe.run(document, { runOnly: ['scrollable-region-focusable'], resultTypes: ['violations'] });
      return r.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ')));
    }, axeSource);
    for (const s of scrolls) problems.push(`${tab}: scrollable-region-focusable on ${s}`);
    const r = await page.evaluate(() => {
      const wide = document.documentElement.scrollWidth;
      const small = [];
      for (const el of document.querySelectorAll('button, select, [role=tab], input[type=checkbox], #board .movable')) {
        const box = el.getBoundingClientRect();
        if (!box.width || el.closest('[hidden]')) continue;
        // a checkbox counts with its label, which is the target a finger hits
        const target = el.type === 'checkbox' && el.closest('label') ? el.closest('label').getBoundingClientRect() : box;
        if (target.height < 43.5 || target.width < 43.5) small.push(`${el.id || el.textContent.trim().slice(0, 20)} ${Math.round(target.width)}x${Math.round(target.height)}`);
      }
      return { wide, small };
    });
    if (r.wide > 390) problems.push(`${tab}: the page is ${r.wide} px wide`);
    for (const s of r.small) problems.push(`${tab}: ${s}`);
  });
  assert.deepEqual(problems, []);
}, { timeout: 90000, page: { ...phone, bypassCSP: true } });

pageTest('on a touch screen the help speaks of taps and swipes, and a swipe moves a tile', async (page) => {
  await page.goto(`${base}/?board=1+2+3+4+5+6+7+8+0&shape=3x3`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '0');
  assert.equal(await page.isVisible('#help-touch'), true);
  assert.equal(await page.isVisible('#help-keys'), false);
  // swipe right: the tile left of the blank (8) slides right into it
  await page.evaluate(() => {
    const b = document.querySelector('#board').getBoundingClientRect();
    const at = (x, type) => new PointerEvent(type, { clientX: x, clientY: b.top + b.height / 2, bubbles: true, pointerType: 'touch' });
    document.querySelector('#board').dispatchEvent(at(b.left + 40, 'pointerdown'));
    document.querySelector('#board').dispatchEvent(at(b.left + 160, 'pointerup'));
  });
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '1');
  const cells = await page.locator('#board [data-cell]').evaluateAll((cs) => cs.map((c) => Number(c.dataset.tile)));
  assert.deepEqual(cells, [1, 2, 3, 4, 5, 6, 7, 0, 8]);
  // a tap on a tile next to the blank moves it
  await page.tap('#board [data-tile="8"]');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '2');
}, { page: phone });

pageTest('on a touch screen every tap right after a fast swipe moves its tile (the first one was lost)', async (page) => {
  await page.goto(`${base}/?board=1+2+3+4+5+6+7+8+0&shape=3x3`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '0');
  const b = await page.locator('#board').boundingBox();
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, x, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
  // a real touch swipe, fast: the tile left of the blank (8) slides right
  await touch('touchStart', b.x + 40, b.y + b.height / 2);
  await touch('touchMove', b.x + 160, b.y + b.height / 2);
  await touch('touchEnd');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '1');
  // then four taps, a tenth of a second apart, each on a tile beside the blank in its row
  for (let k = 0; k < 4; k++) {
    const box = await page.evaluate(() => {
      const cells = [...document.querySelectorAll('#board [data-cell]')];
      const blank = cells.findIndex((c) => !c.dataset.tile || c.dataset.tile === '0');
      const r = cells[blank % 3 === 0 ? blank + 1 : blank - 1].getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    });
    await touch('touchStart', box.x, box.y);
    await touch('touchEnd');
    await page.waitForTimeout(100);
  }
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '5', null, { timeout: 2000 })
    .catch(async () => assert.fail(`${await page.getAttribute('#distance', 'data-moves')} moves after a swipe and four taps, not 5`));
}, { page: phone });
