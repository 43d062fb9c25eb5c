// Play with exact arrows: the board (a grid of named cells, drawn from the store at once and
// labelled when its position arrives), each legal move labelled with the distance it leads to,
// undo/redo, hints in stages, practice mode (answers hidden until asked) and the summary at the
// goal, scrambles at an exact distance, typed boards, swipes on touch screens.

import { call } from './api.js';
import { applyMoves } from './app.js';
import { boardSvg, download } from './draw.js';

let app;
let $;
let built = '';
let hint = 0;
let hintFor = '';
let summaryFor = '';
/** Whether the last pointer gesture on the board was acted on (its click, if one follows, is not). */
let handled = false;
/** The optimal solution being played: `{ moves, next, expect, timer }`, or null. */
let autoplay = null;
/** The moves "play an optimal solution" made: `{ line, count }`, `line` the game's start and the
 * moves up to the last one it made (so the summary at the goal does not credit the student). */
let played = { line: '', count: 0 };

// the way the tile slides when the blank moves `dir`, and in words
const ARROW = { U: '\u2193', D: '\u2191', L: '\u2192', R: '\u2190' };
const SLIDES = { U: 'down', D: 'up', L: 'right', R: 'left' };
const STAGES = ['', 'hint 1 of 3: how far', 'hint 2 of 3: which moves are optimal', 'hint 3 of 3: the whole path'];
// an arrow key slides the tile on that side of the blank into it: the blank moves the other way
const KEY = { ArrowUp: 'D', ArrowDown: 'U', ArrowLeft: 'R', ArrowRight: 'L' };
const TEXT_INPUT = /^(text|number|search|range|email|url|password|tel)$/;

/** The tiles slid, in order, when the blank makes `moves` (letters U D L R) from `board`. */
function tilesOf(board, cols, moves) {
  const b = [...board];
  let blank = b.indexOf(0);
  const out = [];
  for (const m of moves) {
    const next = blank + { U: -cols, D: cols, L: -1, R: 1 }[m];
    out.push(b[next]);
    b[blank] = b[next];
    b[next] = 0;
    blank = next;
  }
  return out;
}

function pathText(pos, length, moves) {
  const tiles = tilesOf(pos.board, pos.cols, moves);
  return `An optimal solution, ${length} moves: slide ${tiles.join(', ')} (the blank moves ${moves || 'nowhere'}).`;
}

export function init(a) {
  app = a;
  $ = a.$;
  app.onState(onState);
  app.onPosition(renderPosition);
  $('undo').addEventListener('click', () => app.undo());
  $('redo').addEventListener('click', () => app.redo());
  $('hint').addEventListener('click', nextHint);
  $('reveal').addEventListener('click', () => app.update({ reveal: app.text() }, 'none'));
  $('scramble').addEventListener('click', () => scramble());
  $('load').addEventListener('click', loadTyped);
  $('copy-link').addEventListener('click', async () => {
    app.flushUrl();
    try {
      await navigator.clipboard.writeText(window.location.href);
      app.say('link copied: it opens this board, its moves and this view');
    } catch (_) {
      app.say(`copy this link: ${window.location.href}`);
    }
  });
  $('find-distance').addEventListener('click', findDistance);
  $('autoplay').addEventListener('click', () => (autoplay ? stopAutoplay() : startAutoplay()));
  $('autoplay-speed').addEventListener('change', () => {
    app.setParams({ speed: $('autoplay-speed').value });
    if (autoplay) restartTimer();
  });
  $('autoplay-speed').value = app.param('speed', '1');
  $('board-svg').addEventListener('click', saveSvg);
  document.addEventListener('keydown', onKey);
  const board = $('board');
  // Taps and swipes are read from pointer events: a touch screen's click comes late or not at
  // all after a fast swipe (taps in the second after one were lost). A click still moves a tile
  // when no pointer gesture made it (a screen reader's activation, a script's click()).
  board.addEventListener('click', (e) => {
    if (handled) {
      handled = false;
      return;
    }
    const cell = e.target.closest('[data-cell]');
    if (cell) clickCell(Number(cell.dataset.cell));
  });
  board.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const cell = e.target.closest('[data-cell]');
    if (!cell) return;
    e.preventDefault();
    clickCell(Number(cell.dataset.cell));
  });
  let from = null;
  board.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    from = { x: e.clientX, y: e.clientY, cell: e.target.closest('[data-cell]') };
    handled = false;
  });
  board.addEventListener('pointercancel', () => {
    from = null;
  });
  board.addEventListener('pointerup', (e) => {
    if (!from) return;
    const dx = e.clientX - from.x;
    const dy = e.clientY - from.y;
    const { cell } = from;
    from = null;
    // the click that ends this gesture (if one comes) is not another tap
    handled = true;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 30) {
      // a tap: on the tile it started on
      if (cell) clickCell(Number(cell.dataset.cell));
      return;
    }
    // a swipe slides the tile in the swipe's direction: the blank moves the other way
    const dir = Math.abs(dx) > Math.abs(dy) ? (dx < 0 ? 'R' : 'L') : (dy < 0 ? 'D' : 'U');
    stopAutoplay();
    app.move(dir);
  });
  const touch = window.matchMedia('(pointer: coarse)').matches;
  $('help-touch').hidden = !touch;
  $('help-keys').hidden = touch;
  $('help-keys-more').hidden = touch;
}

/**
 * A new board at the depth and seed asked for; true when it could. `asked`: the answer of this
 * scramble already asked for (a promise of it, null if it failed), or null.
 */
export async function scramble(shape = app.state.shape, goal = app.state.goal, history = 'push', asked = null, nearest = false) {
  const depthText = $('depth').value.trim();
  const seedText = $('seed').value.trim();
  // checked here, in words: the server's own refusal would speak of JSON and integer types
  if (!/^\d+$/.test(depthText)) {
    app.say(`the scramble's distance is a whole number of moves, 0 or more${depthText ? `, not \`${depthText}\`` : ''}`, 'error');
    return false;
  }
  if (seedText !== '' && !(/^\d+$/.test(seedText) && Number(seedText) <= Number.MAX_SAFE_INTEGER)) {
    app.say(`the seed is a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, or empty for a new one, not \`${seedText}\``, 'error');
    return false;
  }
  const depth = Number(depthText);
  // the answer carries the board's position: drawn without a second round trip
  const body = { shape, goal, depth, position: true };
  if (seedText !== '') body.seed = Number(seedText);
  const mine = app.askBoard();
  // a new game on a small board (the 2x2's farthest boards are 6 moves out) takes the farthest
  // distance there is when the default is past it; a distance the user typed is refused instead
  const ask = () => call('/api/scramble', body).catch((e) => {
    const farthest = /the farthest are (\d+)/.exec(e.message);
    if (!nearest || !farthest || Number(farthest[1]) >= depth) throw e;
    body.depth = Number(farthest[1]);
    $('depth').value = farthest[1];
    return call('/api/scramble', body);
  });
  const s = (asked && await asked) || await app.guard(ask);
  // a board asked for since (or Back, Forward) wins over this slower answer
  if (!s || !app.latestBoard(mine)) return false;
  $('seed').value = s.seed;
  app.remember(shape, goal, s.position);
  app.update({ shape, goal, start: s.board, moves: '', ahead: '' }, history);
  showBoard();
  return true;
}

/** Brings the board into view when a new one was made below it (a phone's narrow column). */
function showBoard() {
  const r = $('board').getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight) $('distance').scrollIntoView({ block: 'start' });
}

/** Reads the typed board: rows given by `/` or new lines set the shape; ragged rows refused. */
function readTyped(text) {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l);
  const first = lines[0].split(/\s+/);
  // a COS 226 file: its size on the first line, then the rows
  // (its size says how many rows follow: `3 1 / 2 0` on two lines is a 2x2 board, not a file)
  if (lines.length > 1 && first.length <= 2 && first.every((t) => /^\d+$/.test(t)) && Number(first[0]) === lines.length - 1) {
    return { board: text, shape: null };
  }
  const rows = text.split(/[/\n]/).map((r) => r.trim()).filter((r) => r);
  const tokens = (r) => r.split(/[\s,;]+/).filter((t) => t);
  const counts = rows.map((r) => {
    const t = tokens(r);
    // a row of single digits written together, like 123 or 3_1 (`_` the blank)
    return t.length === 1 && /^[\d_]+$/.test(t[0]) && t[0].length > 1 ? t[0].length : t.length;
  });
  // one tile between slashes (8/6/7/2/5/4/3/0/1) is a list, as the server reads it: no board
  // has rows of one tile
  if (rows.length > 1 && counts.some((n) => n > 1)) {
    const bad = counts.findIndex((n) => n !== counts[0]);
    if (bad >= 0) {
      return { error: `the rows are ragged: row 1 has ${counts[0]} numbers and row ${bad + 1} has ${counts[bad]}; every row needs as many` };
    }
    // sent with slashes: lines would be read by the server as a COS 226 file when they look like one
    return { board: rows.join(' / '), shape: `${rows.length}x${counts[0]}` };
  }
  const flat = text.split(/[\s,;/]+/).filter((t) => t);
  const n = flat.length === 1 && /^[\d_]+$/.test(flat[0]) ? flat[0].length : flat.length;
  const { rows: r, cols: c } = app.dims();
  if (n === r * c) return { board: text, shape: app.state.shape };
  if (Number.isInteger(Math.sqrt(n))) return { board: text, shape: null };
  return { error: `${n} numbers on one line: give the rows with / (like 1 2 3 / 4 5 6 / 7 8 0), or pick a board of ${n} cells first` };
}

async function loadTyped() {
  const text = $('typed').value.trim();
  if (!text) {
    app.say('type or paste a board first: numbers row by row, 0 or _ for the blank, or a COS 226 file', 'error');
    return;
  }
  const read = readTyped(text);
  if (read.error) {
    app.say(read.error, 'error');
    return;
  }
  if (await app.newGame(read.board, { shape: read.shape })) showBoard();
}

function clickCell(cell) {
  stopAutoplay();
  const cells = app.cells();
  const { cols } = app.dims();
  const blank = cells.indexOf(0);
  const [br, bc] = [Math.floor(blank / cols), blank % cols];
  const [r, c] = [Math.floor(cell / cols), cell % cols];
  if (Math.abs(br - r) + Math.abs(bc - c) !== 1) return;
  app.move(r < br ? 'U' : r > br ? 'D' : c < bc ? 'L' : 'R');
}

function onKey(e) {
  if (app.state.tab !== 'play' || !app.state.start || e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  const tag = (t && t.tagName) || '';
  if (tag === 'TEXTAREA' || tag === 'SELECT' || (tag === 'INPUT' && TEXT_INPUT.test(t.type)) || (t && t.isContentEditable)) return;
  if (t && t.getAttribute && t.getAttribute('role') === 'tab') return;
  const dir = KEY[e.key];
  if (dir || e.key === 'u' || e.key === 'r') stopAutoplay();
  if (dir) {
    app.move(dir);
    e.preventDefault();
  } else if (e.key === 'u') app.undo();
  else if (e.key === 'r') app.redo();
  else if (e.key === 'h') nextHint();
}

function onState(state, before) {
  if (!state.start) return;
  const text = app.text();
  if (hintFor !== text) {
    hint = 0;
    hintFor = text;
    $('hint-text').textContent = '';
    $('hint-stage').textContent = '';
    delete $('hint-text').dataset.length;
  }
  if (state.shape !== before.shape || state.start !== before.start || state.moves !== before.moves
      || state.goal !== before.goal || state.practice !== before.practice || state.reveal !== before.reveal || !built) {
    render();
  }
}

function renderPosition() {
  render();
}

/** Builds the grid for the shape shown, once per shape (cells are then updated in place, so a
 * focused cell keeps its focus across moves). */
function build(rows, cols) {
  const board = $('board');
  board.replaceChildren();
  board.dataset.cols = String(cols);
  board.setAttribute('aria-rowcount', String(rows));
  board.setAttribute('aria-colcount', String(cols));
  board.style.setProperty('--cols', String(cols));
  for (let r = 0; r < rows; r++) {
    const row = document.createElement('div');
    row.setAttribute('role', 'row');
    row.className = 'board-row';
    for (let c = 0; c < cols; c++) {
      const cell = document.createElement('div');
      cell.setAttribute('role', 'gridcell');
      cell.dataset.cell = String(r * cols + c);
      const number = document.createElement('span');
      number.className = 'number';
      const badge = document.createElement('span');
      badge.className = 'badge';
      badge.setAttribute('aria-hidden', 'true');
      cell.append(number, badge);
      row.append(cell);
    }
    board.append(row);
  }
  built = app.state.shape;
}

function render() {
  if (!app.state.start) return;
  const { rows, cols } = app.dims();
  if (built !== app.state.shape || $('board').querySelectorAll('[data-cell]').length !== rows * cols) build(rows, cols);
  const cells = app.cells();
  const text = app.text();
  const pos = app.pos && app.pos.text === text ? app.pos : null;
  const shown = app.answers();
  const practice = app.state.practice && !shown;
  const byCell = new Map(pos ? pos.moves.map((m) => [m.from, m]) : []);
  const blank = cells.indexOf(0);
  const [br, bc] = [Math.floor(blank / cols), blank % cols];
  for (const el of $('board').querySelectorAll('[data-cell]')) {
    const cell = Number(el.dataset.cell);
    const tile = cells[cell];
    const [r, c] = [Math.floor(cell / cols), cell % cols];
    const near = Math.abs(br - r) + Math.abs(bc - c) === 1;
    const where = `row ${r + 1}, column ${c + 1}`;
    const number = el.firstChild;
    const badge = el.lastChild;
    el.className = tile === 0 ? 'cell blank' : 'cell tile';
    if (tile !== 0 && pos && tile === pos.goal[cell]) el.classList.add('home');
    number.textContent = tile === 0 ? '' : String(tile);
    el.dataset.tile = String(tile);
    badge.textContent = '';
    badge.className = 'badge';
    delete badge.dataset.distance;
    if (tile === 0) {
      el.setAttribute('aria-label', `blank, ${where}`);
      el.tabIndex = -1;
      continue;
    }
    if (!near) {
      el.setAttribute('aria-label', `${tile}, ${where}`);
      el.tabIndex = -1;
      continue;
    }
    const dir = r < br ? 'U' : r > br ? 'D' : c < bc ? 'L' : 'R';
    const m = byCell.get(cell);
    el.classList.add('movable');
    el.tabIndex = 0;
    // the name starts with the text shown (the tile, then its badge), as speech input expects
    let name = `${tile}, slides ${SLIDES[dir]}, ${where}`;
    if (m && m.distance !== null && shown) {
      const label = `${ARROW[dir]} ${m.distance}`;
      name = `${tile} ${label}: slides ${SLIDES[dir]} to ${m.distance} moves from the goal${m.optimal ? ', optimal' : ''}, ${where}`;
      if (m.optimal) el.classList.add('optimal');
      badge.className = `badge ${m.optimal ? 'good' : 'bad'}`;
      badge.dataset.distance = String(m.distance);
      badge.textContent = label;
    } else if (m && m.optimal && hint >= 2) {
      el.classList.add('optimal');
      name = `${tile}, slides ${SLIDES[dir]}, optimal, ${where}`;
    }
    el.setAttribute('aria-label', name);
  }
  $('board').setAttribute('aria-label', `the board, ${rows} rows by ${cols} columns`);
  const moves = app.state.moves.length;
  let d;
  if (!pos) d = '\u2026';
  else if (!pos.solvable) d = 'unsolvable';
  else if (pos.distance === null) d = '?';
  else if (practice && hint < 1 && pos.distance !== 0) d = 'hidden';
  else d = String(pos.distance);
  $('distance').textContent = `distance: ${d}, moves: ${moves}`;
  // in practice mode the exact distance is nowhere in the page until asked (not even an attribute)
  $('distance').dataset.distance = pos && pos.distance !== null && (!practice || d !== 'hidden') ? String(pos.distance) : '';
  $('distance').dataset.ready = pos ? pos.text : '';
  $('distance').dataset.moves = String(moves);
  // for anyone timing the page: when the first board was drawn with its position
  if (pos && !performance.getEntriesByName('slidetable:first-board').length) performance.mark('slidetable:first-board');
  $('reveal').hidden = !app.state.practice || shown;
  $('help-arrows').hidden = app.state.practice;
  $('undo').disabled = moves === 0;
  $('redo').disabled = app.state.ahead.length === 0;
  if (!pos) return;
  $('parity').textContent = pos.solvable ? '' : `This board cannot reach the goal: ${pos.parity}.`;
  $('source').textContent = `Distances: ${pos.source}.`;
  $('find-distance').hidden = !(pos.distance === null && pos.note);
  $('note').textContent = pos.note || '';
  $('depth-label').textContent = app.exact(pos.shape) ? 'scramble at exact distance' : 'scramble by a random walk of';
  renderWon(pos);
}

/** At the goal: moves taken, the optimum from the start, and the moves that were not optimal. */
async function renderWon(pos) {
  const won = $('won');
  if (pos.distance !== 0) {
    won.hidden = true;
    summaryFor = '';
    return;
  }
  won.hidden = false;
  const key = `${app.state.shape}|${app.state.goal}|${app.state.start.join(' ')}|${app.state.moves}`;
  if (summaryFor === key) return;
  summaryFor = key;
  const n = app.state.moves.length;
  $('won-moves').replaceChildren();
  if (n === 0) {
    $('won-title').textContent = 'This is the goal.';
    $('won-summary').textContent = 'Scramble, or type a board, to play.';
    return;
  }
  $('won-title').textContent = `Solved in ${n} move${n === 1 ? '' : 's'}!`;
  $('won-summary').textContent = 'Checking your moves against the table\u2026';
  const { cols } = app.dims();
  const { start, moves, shape, goal } = app.state;
  const boards = [];
  for (let i = 0; i <= n; i++) boards.push(applyMoves(start, cols, moves.slice(0, i)).join(' '));
  let dist;
  try {
    if (app.exact(shape)) {
      dist = [];
      // a few at a time: a long game is hundreds of lookups, each a millisecond
      for (let i = 0; i < boards.length; i += 16) {
        const got = await Promise.all(boards.slice(i, i + 16).map((b) => app.position(b, shape, goal)));
        dist.push(...got.map((p) => p.distance));
      }
    } else {
      dist = [(await app.position(boards[0], shape, goal)).distance];
    }
  } catch (e) {
    if (summaryFor === key) $('won-summary').textContent = `Your moves could not be checked: ${e.message}`;
    return;
  }
  if (summaryFor !== key) return;
  const best = dist[0];
  if (best === null || best === undefined) {
    $('won-summary').textContent = `The start's exact distance is not known here (the ${shape} board has no perfect table), so your moves cannot be checked.`;
    return;
  }
  const extra = n - best;
  // the moves the page played (all of them, or the last ones) are not the student's
  const helped = played.line === `${start.join(' ')}|${moves}` ? played.count : 0;
  const by = helped === n ? 'the page played an optimal solution'
    : helped ? `you made ${n - helped} move${n - helped === 1 ? '' : 's'} and the page played the last ${helped}`
      : null;
  $('won-summary').textContent = `The start was ${best} move${best === 1 ? '' : 's'} from the goal: `
    + (by ? `${by}, ${n} in all${extra === 0 ? ', the optimum.' : `, ${extra} more than the optimum.`}`
      : extra === 0 ? 'you found an optimal solution.' : `you took ${extra} more than the optimum.`);
  $('won').dataset.optimum = String(best);
  if (dist.length !== boards.length) return;
  const tiles = tilesOf(start, cols, moves);
  const list = $('won-moves');
  let shownCount = 0;
  for (let i = 0; i < n; i++) {
    if (dist[i + 1] === dist[i] - 1) continue;
    shownCount += 1;
    if (shownCount > 50) continue;
    const li = document.createElement('li');
    li.textContent = `move ${i + 1}, slide ${tiles[i]}: to distance ${dist[i + 1]} (from ${dist[i]}), one farther`;
    list.append(li);
  }
  if (shownCount) {
    $('won-summary').textContent += ` ${shownCount} move${shownCount === 1 ? ' was' : 's were'} not optimal${shownCount > 50 ? ' (the first 50 listed)' : ''}:`;
  }
  $('won').dataset.suboptimal = String(shownCount);
}

async function nextHint() {
  const pos = app.pos && app.pos.text === app.text() ? app.pos : null;
  if (!pos) return;
  hint = Math.min(hint + 1, 3);
  hintFor = pos.text;
  $('hint-stage').textContent = STAGES[hint];
  const text = $('hint-text');
  if (!pos.solvable) {
    text.textContent = `This board cannot reach the goal: ${pos.parity}.`;
    return;
  }
  if (pos.distance === null) {
    text.textContent = pos.note || 'the distance is not known yet';
    return;
  }
  if (hint === 1) {
    text.textContent = pos.distance === 0 ? 'Solved!' : `The goal is ${pos.distance} moves away.`;
  } else if (hint === 2) {
    const best = pos.moves.filter((m) => m.optimal).map((m) => m.tile);
    const others = pos.moves.length - best.length;
    text.textContent = `Optimal: slide ${best.join(' or ')} (one closer).`
      + (others ? ` The other ${others === 1 ? 'move is' : `${others} moves are`} one farther.` : '');
  } else if (hint === 3) {
    if (app.exact(pos.shape)) {
      const s = await app.guard(() => call('/api/solve', { board: pos.text, shape: pos.shape, goal: app.state.goal }));
      if (s && hintFor === pos.text) {
        text.textContent = pathText(pos, s.length, s.moves);
        text.dataset.length = String(s.length);
      }
    } else {
      text.textContent = 'Searching for an optimal solution (a long job)...';
      app.job('solve', '/api/jobs/solve', { board: pos.text, shape: pos.shape, goal: app.state.goal }, (name, data) => {
        if (name === 'result' && hintFor === pos.text) {
          text.textContent = data.optimal ? pathText(pos, data.length, data.moves)
            : `A solution of ${data.length} moves (not proven optimal): ${data.moves}`;
        }
      });
    }
  }
  render();
  // the hint said where it can be seen (below the board on a short screen)
  const r = text.getBoundingClientRect();
  if (r.bottom > window.innerHeight) text.scrollIntoView({ block: 'nearest' });
}

function findDistance() {
  const pos = app.pos;
  if (!pos) return;
  const out = $('distance');
  app.job('solve', '/api/jobs/solve', { board: pos.text, shape: pos.shape, goal: app.state.goal }, (name, data) => {
    // the search's progress beside the button too, not only in the line at the top of the page
    if (name === 'progress' && app.text() === pos.text && data.generated !== undefined) {
      $('note').textContent = `searching: ${data.generated.toLocaleString('en-US')} nodes generated, ${data.seconds.toFixed(0)} s `
        + '(cancel in the line at the top)';
    }
    if (name === 'result' && app.text() === pos.text) {
      $('note').textContent = '';
      const d = app.state.practice && !app.answers() ? 'found (hidden)' : `${data.length}${data.optimal ? '' : ' (not proven optimal)'}`;
      out.textContent = `distance: ${d}, moves: ${app.state.moves.length}`;
    }
  });
}

/** Plays an optimal solution from the board shown, a move at a time at the speed chosen. */
async function startAutoplay() {
  const pos = app.pos && app.pos.text === app.text() ? app.pos : null;
  if (!pos) return;
  if (!pos.solvable) {
    app.say(`This board cannot reach the goal: ${pos.parity}.`, 'error');
    return;
  }
  const begin = (moves) => {
    if (app.text() !== pos.text) return;
    autoplay = { moves, next: 0, expect: pos.text, timer: null };
    $('autoplay').textContent = 'stop playing';
    restartTimer();
  };
  if (app.exact(pos.shape)) {
    const s = await app.guard(() => call('/api/solve', { board: pos.text, shape: pos.shape, goal: app.state.goal }));
    if (s) begin(s.moves);
  } else {
    app.job('solve', '/api/jobs/solve', { board: pos.text, shape: pos.shape, goal: app.state.goal }, (name, data) => {
      if (name === 'result') begin(data.moves);
    });
  }
}

function restartTimer() {
  clearInterval(autoplay.timer);
  const speed = Number($('autoplay-speed').value) || 1;
  autoplay.timer = setInterval(step, 1000 / speed);
}

function step() {
  // a board changed by hand (a key, Back) ends the play
  if (!autoplay || app.text() !== autoplay.expect || autoplay.next >= autoplay.moves.length) {
    stopAutoplay();
    return;
  }
  const before = `${app.state.start.join(' ')}|${app.state.moves}`;
  app.move(autoplay.moves[autoplay.next]);
  played = { line: `${app.state.start.join(' ')}|${app.state.moves}`, count: played.line === before ? played.count + 1 : 1 };
  autoplay.next += 1;
  autoplay.expect = app.text();
  if (autoplay.next >= autoplay.moves.length) stopAutoplay();
}

function stopAutoplay() {
  if (!autoplay) return;
  clearInterval(autoplay.timer);
  autoplay = null;
  $('autoplay').textContent = 'play an optimal solution';
}

function saveSvg() {
  if (!app.state.start) return;
  const pos = app.pos && app.pos.text === app.text() ? app.pos : null;
  const d = pos && pos.distance !== null && app.answers() ? `, ${pos.distance} moves from the goal` : '';
  const svg = boardSvg(app.cells(), app.dims().cols, { home: pos ? pos.goal : null, caption: `${app.state.shape}${d}` });
  download(`board-${app.cells().join('-')}.svg`, 'image/svg+xml', svg);
}
