// The page in a lecture hall (issue 49): presentation mode at a projector's 1366 x 768 and
// 1280 x 720, where the class must see A*'s step controls, open list and tree together while the
// instructor steps; the 2x2 from the menu and a link; and the 50-minute lesson plan of
// docs/teaching.md walked through step by step, as an instructor would teach it.

import assert from 'node:assert/strict';
import { base, pageTest } from './harness.mjs';

const shown = (page) => page.waitForFunction(() => document.querySelector('#distance').dataset.distance);

/** A scramble at `depth` (seed `seed`) made on Play, the way the plan says to make one. */
async function scramble(page, depth, seed) {
  await page.click('#tab-btn-play');
  await page.fill('#depth', String(depth));
  await page.fill('#seed', String(seed));
  await page.click('#scramble');
  await page.waitForFunction((d) => document.querySelector('#distance').dataset.distance === String(d), depth);
}

/** What of the header, A*'s controls, its open lists and trees lies outside the window. */
function offScreen(page) {
  return page.evaluate(() => {
    // the header on one row from 1280 px; narrower (a 1024 projector), its tabs on a second
    const oneRow = window.innerWidth >= 1280;
    const out = [];
    const h = window.innerHeight;
    const w = window.innerWidth;
    const header = [...document.querySelectorAll('header h1, header .pickers > *, header .tabs [role=tab]')]
      .map((e) => e.getBoundingClientRect());
    const centres = header.map((r) => (r.top + r.bottom) / 2);
    if (oneRow && Math.max(...centres) - Math.min(...centres) > 20) out.push(`the header wraps: its items' centres ${Math.round(Math.min(...centres))}..${Math.round(Math.max(...centres))}`);
    const tabs = document.querySelector('header .tabs');
    if (tabs.scrollWidth > tabs.clientWidth + 1) out.push('the tabs scroll sideways');
    const controls = document.querySelector('.step-controls').getBoundingClientRect();
    if (controls.top < 0 || controls.bottom > h) out.push(`the step controls at ${controls.top}..${controls.bottom}`);
    if (controls.height > 60) out.push(`the step controls wrap: ${controls.height} px tall`);
    // each run's title below the controls, not under them
    document.querySelectorAll('.astar-one h2').forEach((t, i) => {
      if (t.getBoundingClientRect().top < controls.bottom - 1) out.push(`run ${i + 1}'s title under the controls`);
    });
    for (const [name, sel] of [['open list', '.open-scroll'], ['tree', '.tree-box canvas']]) {
      document.querySelectorAll(sel).forEach((e, i) => {
        const r = e.getBoundingClientRect();
        if (r.top < controls.bottom - 1 || r.bottom > h + 0.5 || r.right > w + 0.5 || r.height < 100) {
          out.push(`run ${i + 1}'s ${name} at ${Math.round(r.top)}..${Math.round(r.bottom)} (x to ${Math.round(r.right)}), window ${w}x${h}`);
        }
      });
    }
    return out;
  });
}

for (const [width, height] of [[1366, 768], [1280, 720], [1024, 768]]) {
  pageTest(`presentation at ${width}x${height}: A*'s (and IDA*'s) controls, open lists and trees on one screen, one run or two, all through the run`, async (page) => {
    await page.goto(`${base}/?present=1&ah=hamming&ah2=manhattan`);
    await shown(page);
    await scramble(page, 14, 3);
    for (const [algorithm, beside] of [['astar', 'manhattan'], ['astar', ''], ['idastar', 'manhattan'], ['idastar', '']]) {
      await page.click('#tab-btn-astar');
      await page.selectOption('#astar-algorithm', algorithm);
      await page.selectOption('#astar-heuristic2', beside);
      await page.click('#astar-run');
      await page.waitForSelector('#astar-view:not([hidden])');
      await page.waitForFunction((n) => document.querySelectorAll('.astar-one').length === n, beside ? 2 : 1);
      const problems = [];
      for (const [what, act] of [['at the start', null], ['after five steps', async () => {
        for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowRight');
      }], ['at the end', () => page.click('#astar-last')]]) {
        if (act) await act();
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
        for (const p of await offScreen(page)) problems.push(`${algorithm}, ${beside ? 'two runs' : 'one run'}, ${what}: ${p}`);
      }
      assert.deepEqual(problems, []);
      if (beside) {
        // two runs: each open list shows four rows or more (a row a line, its board on a click)
        const rows = await page.$$eval('.open-scroll', (boxes) => boxes.map((b) => {
          const top = b.getBoundingClientRect();
          return [...b.querySelectorAll('tbody tr')].filter((r) => r.getBoundingClientRect().bottom <= top.bottom + 1).length;
        }));
        assert.ok(rows.every((n) => n >= 4) || algorithm === 'idastar', `open list rows in view: ${rows}`);
      }
      // a node clicked in the tree: its values within the window, not under its edge
      const tree = await page.locator('.tree-box canvas').first().boundingBox();
      await page.mouse.click(tree.x + tree.width / 2, tree.y + 20);
      await page.keyboard.press('Enter').catch(() => {});
      const detail = await page.$eval('.node-detail', (d) => ({ text: d.textContent, bottom: d.getBoundingClientRect().bottom }));
      if (detail.text) assert.ok(detail.bottom <= height, `the node's values end at ${detail.bottom} of ${height}`);
    }
    // a setting changed after a run: said beside the controls, in view
    await page.selectOption('#astar-algorithm', 'astar');
    await page.waitForSelector('#astar-stale:not([hidden])');
    assert.match(await page.textContent('#astar-stale-text'), /settings before/);
    const notice = await page.$eval('#astar-stale', (e) => e.getBoundingClientRect().toJSON());
    assert.ok(notice.top >= 0 && notice.bottom <= height, `the notice at ${notice.top}..${notice.bottom}`);
    // Play: the board's bottom row above the fold; the inspector's last column not cut off
    await page.click('#tab-btn-play');
    const play = await page.evaluate(() => {
      const board = document.querySelector('#board').getBoundingClientRect();
      const inspector = document.querySelector('#tab-play .scroll');
      return { bottom: board.bottom + window.scrollY, h: window.innerHeight, cut: inspector.scrollWidth - inspector.clientWidth };
    });
    assert.ok(play.bottom <= play.h, `the board ends at ${play.bottom} of ${play.h}`);
    // (from 1280 px: at 1024 its box scrolls sideways, as on a phone)
    if (width >= 1280) assert.ok(play.cut <= 1, `the inspector's table is ${play.cut} px wider than its box`);
    // State space: the chart with its x-axis above the fold
    await page.click('#tab-btn-space');
    await page.waitForFunction(() => /181,440 states/.test(document.querySelector('#stats-summary').textContent));
    const chart = await page.$eval('#histogram', (c) => c.getBoundingClientRect().bottom + window.scrollY);
    assert.ok(chart <= height, `the depth chart ends at ${chart} of ${height}`);
    // and its readings (the running total the lesson asks for) and the log scale beside it
    for (const sel of ['#stats-here', '#stats-readout', '#histogram-log']) {
      const bottom = await page.$eval(sel, (e) => e.getBoundingClientRect().bottom + window.scrollY);
      assert.ok(bottom <= height, `${sel} ends at ${bottom} of ${height}`);
    }
  }, { page: { viewport: { width, height } }, timeout: 60000 });
}

pageTest('the 2x2 from the board menu and from a link: a board at its farthest distance (6), not an error', async (page) => {
  await page.goto(`${base}/`);
  await shown(page);
  await page.selectOption('#shape', '2x2');
  await page.waitForFunction(() => document.querySelector('#board').dataset.cols === '2');
  assert.equal(await page.inputValue('#shape'), '2x2', 'the menu stays on 2x2');
  assert.equal(await page.inputValue('#depth'), '6');
  assert.equal(await page.getAttribute('#distance', 'data-distance'), '6');
  assert.doesNotMatch(await page.textContent('#message'), /farthest/);
  // a distance typed by hand past the farthest is refused in words
  await page.fill('#depth', '20');
  await page.click('#scramble');
  await page.waitForFunction(() => /no 2x2 board is 20 moves from the goal: the farthest are 6/.test(document.querySelector('#message').textContent));
  await page.goto(`${base}/?shape=2x2`);
  await page.waitForFunction(() => document.querySelector('#board').dataset.cols === '2' && document.querySelector('#distance').dataset.distance === '6');
  assert.equal(await page.inputValue('#shape'), '2x2');
  assert.equal(await page.textContent('#message'), '');
});

pageTest('the lesson plan of docs/teaching.md, step by step, in presentation mode at 1366x768', async (page) => {
  await page.goto(`${base}/?present=1`);
  await shown(page);
  // 1. Breadth-first search and the whole state space: "how many boards does a 20-move problem
  // cost?" is read off the page (the running total), and the log scale shows depths 0 to 8
  await scramble(page, 20, 7);
  await page.click('#tab-btn-space');
  await page.waitForFunction(() => /181,440 states/.test(document.querySelector('#stats-summary').textContent));
  // depths 0 to 20 of the 8-puzzle (blank last): 1+2+4+8+16+20+39+62+116+152+286+396+748+1024+1893+2512+4485+5638+9529+10878+16993
  assert.match(await page.textContent('#stats-here'), /20 moves from the goal .*16,993 states share its depth, and 54,802 lie within 20 moves \(30\.2% of all\)/);
  await page.focus('#histogram');
  for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowRight');
  assert.match(await page.textContent('#stats-readout'), /^distance 3: 8 states \(0\.0044% of all\); within 3 moves: 15 \(0\.0083%\)$/);
  const heights = async () => page.$eval('#histogram', (c) => {
    // the bar of depth 5 (20 states): how many of its column's pixels are drawn in the bar's blue
    const ctx = c.getContext('2d');
    const n = 32;
    const left = Math.round(74 * 1.5);
    const bw = (c.width - left - Math.round(12 * 1.5)) / n;
    const x = Math.round(left + 5 * bw + bw / 2);
    const px = ctx.getImageData(x, 0, 1, c.height).data;
    let blue = 0;
    for (let y = 0; y < c.height; y++) if (px[4 * y] === 0x18 && px[4 * y + 1] === 0x64 && px[4 * y + 2] === 0xab) blue += 1;
    return blue;
  });
  const linear = await heights();
  await page.check('#histogram-log');
  await page.waitForFunction(() => /hlog=1/.test(window.location.search));
  const log = await heights();
  assert.ok(linear <= 1 && log > 30, `depth 5's bar: ${linear} px on the linear scale, ${log} px on the log scale`);
  // 2. Heuristics compared on the heat map: h1 and h2 admissible; Nilsson's overestimates
  await page.selectOption('#heatmap-heuristic', 'hamming');
  await page.selectOption('#heatmap2-heuristic', 'manhattan');
  await page.click('#heatmap-draw');
  await page.waitForFunction(() => /Manhattan/.test(document.querySelector('#heatmap2-summary').textContent));
  assert.match(await page.textContent('#heatmap-summary'), /overestimates \(h > h\*\) on 0 states\./);
  assert.match(await page.textContent('#heatmap2-summary'), /overestimates \(h > h\*\) on 0 states\./);
  // the two maps' tops level, their rows as tall
  const maps = await page.$$eval('#heatmap, #heatmap2', (cs) => cs.map((c) => ({ top: Math.round(c.getBoundingClientRect().top), ...c.dataset, w: c.width })));
  assert.equal(maps[0].top, maps[1].top, JSON.stringify(maps));
  assert.equal(maps[0].ch, maps[1].ch);
  await page.selectOption('#heatmap2-heuristic', 'nilsson');
  await page.click('#heatmap-draw');
  await page.waitForFunction(() => /not admissible/.test(document.querySelector('#heatmap2-summary').textContent));
  // each map as wide as its own estimates go: Nilsson's (past 60) no longer shrink Manhattan's cells
  const nilsson = await page.$eval('#heatmap2', (c) => Number(c.dataset.cw));
  const manhattan = await page.$eval('#heatmap', (c) => Number(c.dataset.cw));
  assert.ok(nilsson >= 6 && manhattan >= 12, `cells ${manhattan} px (left) and ${nilsson} px (Nilsson) wide`);
  // a menu changed redraws the maps drawn (never a map under another heuristic's name)
  await page.selectOption('#heatmap2-heuristic', 'linear-conflict');
  await page.waitForFunction(() => /^linear conflict/i.test(document.querySelector('#heatmap2-summary').textContent));
  // a cell clicked (h* = 20, misplaced tiles h = 6): the board drawn from it is brought into view
  const at = await page.$eval('#heatmap', (c) => {
    const r = c.getBoundingClientRect();
    const { left, top, cw, ch } = c.dataset;
    return { x: Number(left) + 6.5 * Number(cw), y: Number(top) + 20.5 * Number(ch), k: r.width / c.width };
  });
  await page.click('#heatmap', { position: { x: at.x * at.k, y: at.y * at.k } });
  await page.waitForSelector('#example:not([hidden])');
  await page.waitForFunction(() => {
    const r = document.querySelector('#example').getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });
  // 3. A* step by step: misplaced tiles beside Manhattan on a 14-move board; the definitions
  // open beside the run; the zero heuristic finishes with the form's own cap
  await scramble(page, 14, 3);
  await page.click('#tab-btn-astar');
  assert.equal(await page.getAttribute('#astar-terms', 'open'), '', 'the definitions are open');
  await page.selectOption('#astar-heuristic', 'hamming');
  await page.selectOption('#astar-heuristic2', 'manhattan');
  await page.click('#astar-run');
  await page.waitForSelector('#astar-view:not([hidden])');
  await page.click('#astar-last');
  // the last step says what it expanded, then that the goal comes off the open list
  assert.match(await page.textContent('#astar-now'), /^Step \d+ expanded node \d+ .*\. Then the goal \(node \d+\) is taken off the open list/);
  const tallies = await page.$$eval('.tally', (ts) => ts.map((t) => ({ ...t.dataset })));
  assert.ok(Number(tallies[0].must) + Number(tallies[0].may) > Number(tallies[1].must) + Number(tallies[1].may),
    `Manhattan expands fewer nodes: ${JSON.stringify(tallies)}`);
  await page.selectOption('#astar-heuristic', 'zero');
  await page.selectOption('#astar-heuristic2', '');
  await page.click('#astar-run');
  await page.waitForFunction(() => /found a solution of 14 moves \(optimal\)/.test(document.querySelector('#astar-summary').textContent), null, { timeout: 15000 });
  // 4. IDA* against A*: the same board, the path searched instead of the open list
  await page.selectOption('#astar-algorithm', 'idastar');
  await page.selectOption('#astar-heuristic', 'manhattan');
  await page.click('#astar-run');
  await page.waitForFunction(() => /IDA\*/.test(document.querySelector('.astar-one h2').textContent));
  await page.click('#astar-last');
  assert.match(await page.textContent('#astar-now'), /the green path/);
  await page.click('#tab-btn-compare');
  await page.click('#compare-run');
  await page.waitForFunction(() => document.querySelectorAll('#compare-rows tr').length >= 6, null, { timeout: 20000 });
  // 5. Practice: the answers hidden; a board the whole class shares by its seed
  await page.click('#tab-btn-play');
  await page.check('#practice');
  await page.fill('#depth', '10');
  await page.fill('#seed', '42');
  const before = page.url();
  await page.click('#scramble');
  await page.waitForFunction((u) => window.location.href !== u, before);
  assert.doesNotMatch(await page.textContent('#distance'), /distance: \d/);
  assert.equal(await page.$$eval('#board .badge', (bs) => bs.filter((b) => b.textContent.trim()).length), 0, 'no move labels');
}, { page: { viewport: { width: 1366, height: 768 } }, timeout: 90000 });

pageTest('on a phone, a run started below the fold is brought into view', async (page) => {
  await page.goto(`${base}/?tab=astar&board=1+2+3+4+5+6+0+7+8&shape=3x3`);
  await shown(page);
  await page.click('#astar-run');
  await page.waitForSelector('#astar-view:not([hidden])');
  await page.waitForFunction(() => {
    const r = document.querySelector('#astar-view').getBoundingClientRect();
    return r.top >= -1 && r.top < window.innerHeight / 2;
  });
}, { page: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } });

pageTest('Back to a link of other settings shows the run that link makes, as a reload of it does', async (page) => {
  await page.goto(`${base}/?tab=astar&board=4+1+8+7+3+2+0+6+5&shape=3x3&ah=hamming`);
  await shown(page);
  await page.click('#astar-run');
  await page.waitForSelector('#astar-view:not([hidden])');
  for (let k = 0; k < 3; k++) await page.click('#astar-forward');
  // the search changed by hand: the runs shown wait for "run", said
  await page.selectOption('#astar-algorithm', 'idastar');
  await page.waitForSelector('#astar-stale:not([hidden])');
  assert.match(await page.textContent('.astar-one h2'), /^A\* /);
  const link = page.url();
  assert.match(link, /alg=idastar/);
  // away (a new history entry) and Back: the link's settings are run, at its step
  await page.click('#tab-btn-play');
  await page.goBack();
  await page.waitForFunction(() => /^IDA\*/.test(document.querySelector('.astar-one h2').textContent));
  await page.waitForSelector('#astar-stale', { state: 'hidden' });
  const back = await page.textContent('#astar-step');
  await page.goto(link);
  await page.waitForFunction(() => /^IDA\*/.test((document.querySelector('.astar-one h2') || {}).textContent || ''));
  assert.equal(await page.textContent('#astar-step'), back);
});
