// Play with exact arrows: the board, each legal move labelled with the distance it leads to,
// undo/redo, hints in stages, scrambles at an exact distance, typed boards, shareable links.

import { call } from './api.js';

let app;
let $;
let back = [];
let ahead = [];
let moves = 0;
let hint = 0;
let path = null;

const DEFAULT_DEPTH = { '4x4': 12, '5x5': 8 };
// the way the tile slides when the blank moves `dir`
const ARROW = { U: '\u2193', D: '\u2191', L: '\u2192', R: '\u2190' };
const STAGES = ['', 'hint 1 of 3: how far', 'hint 2 of 3: which moves are optimal', 'hint 3 of 3: the whole path'];

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
  app.onPosition(render);
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('hint').addEventListener('click', nextHint);
  $('labels').addEventListener('change', () => app.pos && render(app.pos));
  $('scramble').addEventListener('click', () => scramble());
  $('load').addEventListener('click', loadTyped);
  $('copy-link').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      app.say('link copied: it opens this board');
    } catch (_) {
      app.say(`copy this link: ${window.location.href}`);
    }
  });
  $('find-distance').addEventListener('click', findDistance);
  document.addEventListener('keydown', onKey);
}

/** A new game on `shape`: a scramble at the default depth. */
export async function reset(shape) {
  app.shape = shape;
  $('depth').value = DEFAULT_DEPTH[shape] || 20;
  $('seed').value = '';
  await scramble();
}

/** Starts counting moves from the board shown. */
export function begin() {
  back = [];
  ahead = [];
  moves = 0;
  clearHints();
  if (app.pos) render(app.pos);
}

function clearHints() {
  hint = 0;
  path = null;
  $('hint-text').textContent = '';
  $('hint-stage').textContent = '';
}

async function scramble() {
  const depth = Number($('depth').value);
  const body = { shape: app.shape, goal: app.goal, depth };
  if ($('seed').value !== '') body.seed = Number($('seed').value);
  const s = await app.guard(() => call('/api/scramble', body));
  if (!s) return;
  $('seed').value = s.seed;
  if (await app.show(s.board, { shape: app.shape, goal: app.goal })) begin();
}

async function loadTyped() {
  const text = $('typed').value.trim();
  if (!text) {
    app.say('type or paste a board first: numbers row by row, 0 or _ for the blank, or a COS 226 file', 'error');
    return;
  }
  const tokens = text.split(/[\s,/;]+/).filter((t) => t);
  const square = Number.isInteger(Math.sqrt(tokens.length)) || (tokens.length === 1 && Number.isInteger(Math.sqrt(text.length)));
  const shape = text.includes('\n') || square ? null : app.shape;
  if (await app.show(text, { shape, goal: app.goal })) begin();
}

async function move(m) {
  back.push(app.pos.text);
  ahead = [];
  moves += 1;
  clearHints();
  await app.show(m.board, { shape: app.pos.shape, goal: app.goal });
}

async function undo() {
  if (!back.length) return;
  ahead.push(app.pos.text);
  moves -= 1;
  clearHints();
  await app.show(back.pop(), { shape: app.pos.shape, goal: app.goal });
}

async function redo() {
  if (!ahead.length) return;
  back.push(app.pos.text);
  moves += 1;
  clearHints();
  await app.show(ahead.pop(), { shape: app.pos.shape, goal: app.goal });
}

function onKey(e) {
  const tag = (e.target && e.target.tagName) || '';
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(tag) || $('tab-play').hidden || !app.pos) return;
  // an arrow slides the tile on that side of the blank into it: the blank moves the other way
  const blank = { ArrowUp: 'D', ArrowDown: 'U', ArrowLeft: 'R', ArrowRight: 'L' }[e.key];
  if (blank) {
    const m = app.pos.moves.find((x) => x.dir === blank);
    if (m) move(m);
    e.preventDefault();
  } else if (e.key === 'u') undo();
  else if (e.key === 'r') redo();
  else if (e.key === 'h') nextHint();
}

async function nextHint() {
  const pos = app.pos;
  if (!pos) return;
  hint = Math.min(hint + 1, 3);
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
      const s = await app.guard(() => call('/api/solve', { board: pos.text, shape: pos.shape, goal: app.goal }));
      if (s) {
        path = s;
        text.textContent = pathText(pos, s.length, s.moves);
      }
    } else {
      text.textContent = 'Searching for an optimal solution (a long job)...';
      app.job('solve', '/api/jobs/solve', { board: pos.text, shape: pos.shape, goal: app.goal }, (name, data) => {
        if (name === 'result') {
          text.textContent = data.optimal ? pathText(pos, data.length, data.moves)
            : `A solution of ${data.length} moves (not proven optimal): ${data.moves}`;
        }
      });
    }
  }
  render(pos);
}

function findDistance() {
  const pos = app.pos;
  const out = $('distance');
  app.job('solve', '/api/jobs/solve', { board: pos.text, shape: pos.shape, goal: app.goal }, (name, data) => {
    if (name === 'result') {
      out.textContent = `distance: ${data.length}${data.optimal ? '' : ' (not proven optimal)'}  moves: ${moves}`;
    }
  });
}

function render(pos) {
  const board = $('board');
  board.replaceChildren();
  board.style.gridTemplateColumns = `repeat(${pos.cols}, var(--tile))`;
  board.dataset.cols = String(pos.cols);
  const labels = $('labels').checked;
  const byCell = new Map(pos.moves.map((m) => [m.from, m]));
  pos.board.forEach((tile, cell) => {
    const b = document.createElement('button');
    b.className = tile === 0 ? 'cell blank' : 'cell tile';
    b.dataset.cell = String(cell);
    if (tile !== 0) {
      b.textContent = String(tile);
      b.dataset.tile = String(tile);
      if (tile === pos.goal[cell]) b.classList.add('home');
    }
    const m = byCell.get(cell);
    if (m) {
      b.classList.add('movable');
      b.addEventListener('click', () => move(m));
      b.setAttribute('aria-label', `slide ${tile}${m.distance === null ? '' : `: distance ${m.distance} after`}`);
      if ((labels || hint >= 2) && m.optimal) b.classList.add('optimal');
      if (labels && m.distance !== null) {
        const badge = document.createElement('span');
        badge.className = `badge ${m.optimal ? 'good' : 'bad'}`;
        badge.dataset.distance = String(m.distance);
        badge.textContent = `${ARROW[m.dir]} ${m.distance}`;
        b.append(badge);
      }
    } else {
      b.tabIndex = -1;
    }
    board.append(b);
  });
  const shown = labels || hint >= 1;
  let d;
  if (!pos.solvable) d = 'unsolvable';
  else if (pos.distance === null) d = '?';
  else d = shown ? String(pos.distance) : '?';
  $('distance').textContent = `distance: ${d}  moves: ${moves}`;
  $('distance').dataset.distance = pos.distance === null ? '' : String(pos.distance);
  $('won').hidden = pos.distance !== 0;
  $('parity').textContent = pos.solvable ? '' : `This board cannot reach the goal: ${pos.parity}.`;
  $('source').textContent = `Distances: ${pos.source}.`;
  $('find-distance').hidden = !(pos.distance === null && pos.note);
  $('note').textContent = pos.note || '';
  $('depth-label').textContent = app.exact(pos.shape) ? 'scramble at exact distance' : 'scramble by a random walk of';
  $('undo').disabled = back.length === 0;
  $('redo').disabled = ahead.length === 0;
  if (path && hint === 3) $('hint-text').dataset.length = String(path.length);
}
