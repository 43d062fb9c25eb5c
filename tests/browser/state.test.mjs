// State you can trust: every bug a new user found in the first version, as a regression test.
// Keys sent faster than the server answers, bad links, focus after a click, Back and Forward,
// reloads on every tab, pasted shapes, practice mode hiding every answer, the summary at the goal.

import assert from 'node:assert/strict';
import { base, browser, distance, pageTest, ready } from './harness.mjs';

const cellsOf = (page) => page.locator('#board [data-cell]').evaluateAll((cs) => cs.map((c) => Number(c.dataset.tile)));
/** Types `text` into the board box and loads it. */
async function paste(page, text) {
  await page.fill('#typed', text);
  await page.click('#load');
}

const moves = async (page) => Number(await page.getAttribute('#distance', 'data-moves'));

/** The blank's moves applied to `cells` (as the page and the server apply them). */
function apply(cells, cols, dirs) {
  const b = [...cells];
  let blank = b.indexOf(0);
  const rows = b.length / cols;
  const made = [];
  for (const d of dirs) {
    const [dr, dc] = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] }[d];
    const r = Math.floor(blank / cols) + dr;
    const c = (blank % cols) + dc;
    if (r < 0 || r >= rows || c < 0 || c >= cols) continue;
    const next = r * cols + c;
    b[blank] = b[next];
    b[next] = 0;
    blank = next;
    made.push(d);
  }
  return { cells: b, made: made.join('') };
}

// an arrow slides the tile on that side of the blank into it: the blank moves the other way
const BLANK = { ArrowUp: 'D', ArrowDown: 'U', ArrowLeft: 'R', ArrowRight: 'L' };

pageTest('keys sent without a pause give a board, a counter and a history that agree', async (page) => {
  await page.goto(`${base}/?board=1+2+3+4+5+6+7+8+0&shape=3x3`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '0');
  const keys = ['ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowUp', 'ArrowLeft', 'ArrowDown', 'ArrowRight'];
  // all eight in one go, inside the page, so none waits for the server's answer to the last
  await page.evaluate((ks) => {
    for (const key of ks) document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  }, keys);
  const expected = apply([1, 2, 3, 4, 5, 6, 7, 8, 0], 3, keys.map((k) => BLANK[k]));
  assert.equal(expected.made.length, 8, 'every key makes a legal move from the goal');
  assert.deepEqual(await cellsOf(page), expected.cells, 'the board is the start with every move made');
  assert.equal(await moves(page), 8, 'the counter counts every move');
  assert.equal(new URL(page.url()).searchParams.get('moves'), expected.made, 'the URL holds every move');
  // the distance shown is the board's own, once its answer arrives
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance !== '');
  const shown = await distance(page);
  const truth = await page.evaluate(async (b) => {
    const r = await fetch('/api/position', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ board: b, shape: '3x3' }) });
    return (await r.json()).distance;
  }, expected.cells.join(' '));
  assert.equal(shown, truth);
  assert.equal(await page.textContent('#distance'), `distance: ${truth}, moves: 8`);
  // Back walks through the moves one at a time, each board distinct: no board three times over
  const seen = [JSON.stringify(await cellsOf(page))];
  for (let i = 7; i >= 0; i--) {
    await page.goBack();
    await page.waitForFunction((n) => document.querySelector('#distance').dataset.moves === String(n), i);
    const b = await cellsOf(page);
    assert.deepEqual(b, apply([1, 2, 3, 4, 5, 6, 7, 8, 0], 3, expected.made.slice(0, i)).cells);
    seen.push(JSON.stringify(b));
  }
  await page.goForward();
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '1');
  assert.equal(await page.isDisabled('#redo'), false, 'what Back took can be redone');
});

pageTest('a bad link says what was wrong and falls back to a board of a valid shape', async (page) => {
  for (const [query, said, shape, goal] of [
    ['board=1+2+3+4+5+6+7+8+0&goal=bogus', /goal `bogus`/, '3x3', 'blank-last'],
    ['board=1+2+3+4+5+6+7+8+0&shape=9x9', /board shape `9x9`/, '3x3', 'blank-last'],
    ['shape=banana&goal=snail', /board shape `banana`/, '3x3', 'snail'],
    ['board=1+1+2&shape=3x3', /the link's board/, '3x3', 'blank-last'],
    ['board=1+2+3+4+5+6+7+8+0&moves=UUUU', /only the first 2 can be made/, '3x3', 'blank-last'],
    ['tab=nowhere', /tab `nowhere`/, '3x3', 'blank-last'],
  ]) {
    await page.goto(`${base}/?${query}`);
    await page.waitForFunction(() => document.querySelector('#message').textContent.length > 0
      && document.querySelector('#distance').dataset.distance);
    assert.match(await page.textContent('#message'), said, query);
    assert.equal(await page.getAttribute('#message', 'class'), 'error');
    const [r, c] = shape.split('x').map(Number);
    assert.equal((await cellsOf(page)).length, r * c, `${query}: a whole board is drawn`);
    assert.equal(await page.inputValue('#shape'), shape, `${query}: the board menu shows the board's shape`);
    assert.equal(await page.inputValue('#goal'), goal, `${query}: the goal menu shows the goal used`);
    // a scramble works at once, and clears the old error
    await page.fill('#depth', '5');
    await page.click('#scramble');
    await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '5');
    assert.equal(await page.textContent('#message'), '', `${query}: the error is cleared by the next success`);
  }
});

pageTest('keys keep working after a click on any control, and Enter on a tile keeps focus', async (page) => {
  await page.goto(`${base}/?board=1+2+3+4+5+6+7+8+0&shape=3x3`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '0');
  await page.click('#practice');
  await page.click('#practice');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '1');
  await page.click('#copy-link');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '2');
  await page.click('#hint');
  await page.keyboard.press('u');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '1');
  // h gives a hint after a click elsewhere too
  await page.click('#source');
  await page.keyboard.press('h');
  await page.waitForFunction(() => /hint 1 of 3/.test(document.querySelector('#hint-stage').textContent));
  // Tab to a movable tile, Enter moves it, focus stays on the board
  await page.locator('#board .movable').first().focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '2');
  assert.ok(await page.evaluate(() => Boolean(document.activeElement.closest('#board'))), 'focus stays on the board');
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '3');
});

pageTest('moves and scrambles are history entries; a reload restores the view on every tab', async (page) => {
  await page.goto(`${base}/?board=1+2+3+4+5+6+0+7+8&shape=3x3`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '2');
  const first = await cellsOf(page);
  await page.fill('#depth', '12');
  await page.fill('#seed', '3');
  await page.click('#scramble');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '12');
  const scrambled = await cellsOf(page);
  await page.locator('#board .movable').first().click();
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '1');
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '0');
  assert.deepEqual(await cellsOf(page), scrambled);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '2');
  assert.deepEqual(await cellsOf(page), first, 'Back before a scramble shows the board before it');
  assert.ok(page.url().startsWith(base), 'Back stays on the page');
  await page.goForward();
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '12');
  // every tab survives a reload, with the board and the moves
  await page.locator('#board .movable').first().click();
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '1');
  const board = await cellsOf(page);
  for (const tab of ['space', 'astar', 'compare', 'textbook', 'play']) {
    await page.click(`[role=tab][data-tab="${tab}"]`);
    await page.reload();
    await page.waitForFunction((t) => document.querySelector(`#tab-btn-${t}`).getAttribute('aria-selected') === 'true'
      && document.querySelector('#distance').dataset.distance, tab);
    assert.equal(await page.isHidden(`#tab-${tab}`), false, `${tab} shown after a reload`);
    assert.deepEqual(await cellsOf(page), board, `${tab}: the board survives the reload`);
    assert.equal(await moves(page), 1, `${tab}: the moves survive the reload`);
  }
});

pageTest('tabs are real tabs: arrow keys move between them', async (page) => {
  await page.goto(`${base}/`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance);
  await page.focus('#tab-btn-play');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('#tab-btn-space', 'aria-selected'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-btn-space');
  await page.keyboard.press('End');
  assert.equal(await page.getAttribute('#tab-btn-textbook', 'aria-selected'), 'true');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('#tab-btn-play', 'aria-selected'), 'true', 'the last wraps to the first');
  assert.equal(new URL(page.url()).searchParams.get('tab'), null);
});

pageTest('a pasted board with rows sets its shape; ragged rows are refused', async (page) => {
  await page.goto(`${base}/`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance);
  await paste(page, '1 2 3 4 / 5 6 7 0');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '0');
  assert.equal(await page.inputValue('#shape'), '2x4');
  assert.equal((await cellsOf(page)).length, 8);
  await paste(page, '1 2 3 / 4 5 / 6 7 8 0');
  await page.waitForFunction(() => /ragged/.test(document.querySelector('#message').textContent));
  assert.equal(await page.inputValue('#shape'), '2x4', 'a refused board changes nothing');
  await paste(page, '1 2 3\n4 5 6\n7 0 8');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '1');
  assert.equal(await page.inputValue('#shape'), '3x3');
  assert.equal(await page.textContent('#message'), '');
  // one tile between slashes is a list, as the server reads it; digits written together are rows
  await paste(page, '8/6/7/2/5/4/3/0/1');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '31');
  await paste(page, '123/456/7_8');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '1');
  assert.equal(await page.textContent('#message'), '');
  // a COS 226 file (its size, then that many rows), and two rows that only look like one's start
  await paste(page, '3\n 1  2  3\n 4  5  6\n 0  7  8\n');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.ready === '1 2 3 4 5 6 0 7 8');
  await paste(page, '3 1\n2 0');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.ready === '3 1 2 0');
  assert.equal(await page.inputValue('#shape'), '2x2');
  assert.equal(await page.textContent('#message'), '');
});

pageTest('practice mode hides every exact answer until asked', async (page) => {
  await page.goto(`${base}/?board=8+6+7+2+5+4+3+0+1&shape=3x3&practice=1`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.ready === '8 6 7 2 5 4 3 0 1');
  assert.equal(await page.isChecked('#practice'), true);
  const leaks = async () => page.evaluate(() => {
    const found = [];
    if (!/hidden/.test(document.querySelector('#distance').textContent)) found.push('the distance line');
    // nothing in the page's markup holds it either
    if (/\b3[012]\b/.test(document.querySelector('#tab-play').outerHTML.replace(/data-tile="\d+"|data-cell="\d+"|cols="\d+"/g, ''))) found.push('the markup');
    for (const b of document.querySelectorAll('#board .badge')) if (b.textContent) found.push(`badge ${b.textContent}`);
    for (const c of document.querySelectorAll('#board [aria-label]')) {
      if (/goal|optimal/.test(c.getAttribute('aria-label'))) found.push(`tile name ${c.getAttribute('aria-label')}`);
    }
    if (document.querySelectorAll('#board .optimal').length) found.push('an optimal outline');
    for (const td of document.querySelectorAll('#inspector-rows td:nth-child(3)')) if (td.textContent === '31') found.push('inspector h*');
    if (/31/.test(document.querySelector('#compare-board').textContent)) found.push("Compare's distance");
    return found;
  });
  assert.deepEqual(await leaks(), []);
  // a move keeps them hidden
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '1'
    && document.querySelector('#distance').dataset.ready.startsWith('8 6 7 2 5 4 3 1 0'));
  assert.deepEqual((await leaks()).filter((l) => !/31/.test(l)), []);
  assert.doesNotMatch(await page.textContent('#distance'), /\d+,/);
  // asked for: shown for this board
  await page.click('#reveal');
  await page.waitForSelector('#board .badge:not(:empty)');
  assert.match(await page.textContent('#distance'), /distance: \d+, moves: 1/);
  // the next move hides them again
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.moves === '2');
  assert.match(await page.textContent('#distance'), /hidden/);
  assert.equal(await page.locator('#board .badge:not(:empty)').count(), 0);
});

pageTest('at the goal, a summary: moves taken, the optimum, and the moves that were not optimal', async (page) => {
  await page.goto(`${base}/?board=1+2+3+4+5+6+7+0+8&shape=3x3&practice=1`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.ready === '1 2 3 4 5 6 7 0 8');
  // a move away (tile 5 down), back (tile 5 up), then the optimal one (tile 8 left)
  for (const key of ['ArrowDown', 'ArrowUp', 'ArrowLeft']) await page.keyboard.press(key);
  await page.waitForSelector('#won:not([hidden])');
  await page.waitForFunction(() => document.querySelector('#won').dataset.suboptimal !== undefined);
  assert.match(await page.textContent('#won-title'), /Solved in 3 moves/);
  assert.match(await page.textContent('#won-summary'), /1 move from the goal: you took 2 more than the optimum/);
  const listed = await page.locator('#won-moves li').allTextContents();
  assert.deepEqual(listed, ['move 1, slide 5: to distance 2 (from 1), one farther']);
  // an optimal game says so
  await page.goto(`${base}/?board=1+2+3+4+5+6+0+7+8&shape=3x3`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '2');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => /optimal solution/.test(document.querySelector('#won-summary').textContent));
  assert.equal(await page.locator('#won-moves li').count(), 0);
});

pageTest('a slower answer for an older board never replaces the board asked for since', async (page) => {
  await page.goto(`${base}/`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance);
  // the first board's answer held back for a second and a half
  let held = true;
  await page.route('**/api/position', async (route) => {
    if (held && (route.request().postData() || '').includes('5 6 0 7')) {
      held = false;
      await new Promise((r) => setTimeout(r, 1500));
    }
    await route.continue();
  });
  await paste(page, '1 2 3 4 / 5 6 0 7');
  await paste(page, '8 6 7 / 2 5 4 / 3 0 1');
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '31');
  await page.waitForTimeout(2500);
  assert.equal(await page.inputValue('#shape'), '3x3', 'the later board stays');
  assert.deepEqual(await cellsOf(page), [8, 6, 7, 2, 5, 4, 3, 0, 1]);
  assert.match(page.url(), /board=8\+6\+7/);
});

pageTest('bad settings are refused in words, and the runs shown say they are of the last good ones', async (page) => {
  await page.goto(`${base}/?board=1+2+3+4+5+6+0+7+8&shape=3x3&tab=astar&ah=bogus&acap=-5`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '2');
  // a menu given a value it does not offer shows its default, never a blank, and says so
  assert.equal(await page.inputValue('#astar-heuristic'), 'manhattan');
  assert.match(await page.textContent('#message'), /`bogus` is not a choice of "heuristic": Manhattan/);
  // a cap past the limits in a link is brought within them, and said (a run is made, not refused)
  assert.match(await page.textContent('#message'), /cap on expansions `-5` is not a whole number from 1 to 20,000: 20,000 instead/);
  assert.equal(await page.inputValue('#astar-cap'), '20000');
  // typed by hand, it is refused when the run is asked for
  await page.fill('#astar-cap', '-5');
  await page.click('#astar-run');
  await page.waitForFunction(() => /cap on expansions is a whole number/.test(document.querySelector('#message').textContent));
  assert.doesNotMatch(await page.textContent('#message'), /usize|JSON/);
  // an empty weight is plain A* (weight 1), never 0
  await page.fill('#astar-cap', '2000');
  await page.fill('#astar-weight', '');
  await page.click('#astar-run');
  await page.waitForSelector('#astar-view:not([hidden])');
  assert.equal(await page.inputValue('#astar-weight'), '1');
  assert.equal(await page.isHidden('#astar-stale'), true);
  await page.fill('#astar-cap', '0');
  await page.click('#astar-run');
  await page.waitForFunction(() => !document.querySelector('#astar-stale').hidden);
  assert.match(await page.textContent('#astar-stale-text'), /last settings that ran/);
  // a scramble's distance is checked in words too
  await page.click('[role=tab][data-tab="play"]');
  await page.fill('#depth', '-5');
  await page.click('#scramble');
  await page.waitForFunction(() => /whole number of moves/.test(document.querySelector('#message').textContent));
  assert.doesNotMatch(await page.textContent('#message'), /u32|JSON/);
});

pageTest("a link keeps Compare's searches ticked and its weight", async (page) => {
  await page.goto(`${base}/?board=1+2+3+4+5+6+0+7+8&shape=3x3&tab=compare`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.distance === '2');
  const ticked = () => page.locator('#compare-runs input').evaluateAll((cs) => cs.filter((c) => c.checked).map((c) => c.parentElement.textContent.trim()));
  const before = await ticked();
  assert.ok(before.includes('BFS') && !before.includes('IDS'), `the default searches: ${before}`);
  await page.uncheck('#compare-runs input[value="0"]');
  await page.check('#compare-runs input[value="1"]');
  await page.fill('#compare-weight', '3');
  await page.press('#compare-weight', 'Tab');
  const chosen = await ticked();
  assert.ok(!chosen.includes('BFS') && chosen.includes('IDS'));
  const url = page.url();
  const other = await browser.newPage();
  try {
    await other.goto(url);
    await other.waitForFunction(() => document.querySelector('#distance').dataset.distance === '2');
    await other.waitForSelector('#tab-compare:not([hidden])');
    const restored = await other.locator('#compare-runs input').evaluateAll((cs) => cs.filter((c) => c.checked).map((c) => c.parentElement.textContent.trim()));
    assert.deepEqual(restored, chosen);
    assert.equal(await other.inputValue('#compare-weight'), '3');
  } finally {
    await other.close();
  }
});

pageTest("practice mode hides the length a search finds too (an optimal search's is the optimum)", async (page) => {
  await page.goto(`${base}/?board=1+2+3+4+0+5+7+8+6&shape=3x3&practice=1&tab=compare`);
  await page.waitForFunction(() => document.querySelector('#distance').dataset.ready === '1 2 3 4 0 5 7 8 6');
  await page.waitForSelector('#tab-compare:not([hidden])');
  await page.click('#compare-run');
  await page.waitForFunction(() => document.querySelectorAll('#compare-rows tr').length === 6, null, { timeout: 20000 });
  const lengths = await page.locator('#compare-rows tr td:nth-child(6)').allTextContents();
  assert.deepEqual([...new Set(lengths)], ['hidden'], `lengths shown: ${lengths}`);
  await page.click('[role=tab][data-tab="astar"]');
  await page.click('#astar-run');
  await page.waitForSelector('#astar-view:not([hidden])');
  await page.click('#astar-last');
  const summary = await page.textContent('#astar-summary');
  assert.match(summary, /found a solution \(its length hidden/);
  assert.doesNotMatch(summary, /solution of/);
  // asked for: shown
  await page.click('[role=tab][data-tab="play"]');
  await page.click('#reveal');
  await page.click('[role=tab][data-tab="astar"]');
  await page.waitForFunction(() => /solution of 2 moves \(optimal\)/.test(document.querySelector('#astar-summary').textContent));
});

pageTest("a link's menu settings the page lacks are all named, and stay said", async (page) => {
  await page.goto(`${base}/?board=1+2+3+4+5+6+0+7+8&shape=3x3&tab=space&hh=nope&hh2=bogus`);
  await page.waitForFunction(() => /181,440 states/.test(document.querySelector('#stats-summary').textContent));
  const message = await page.textContent('#message');
  assert.match(message, /`nope` is not a choice of "left"/);
  assert.match(message, /`bogus` is not a choice of "right"/);
  assert.equal(await page.inputValue('#heatmap-heuristic'), 'manhattan');
  // a success later (the heat maps drawn) leaves the link's problems said
  await page.click('#heatmap-draw');
  await page.waitForFunction(() => document.querySelector('#heatmap-time').dataset.ms);
  assert.match(await page.textContent('#message'), /`nope`/);
});
