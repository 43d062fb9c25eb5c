// The page's entry and its one store of state. Everything shown comes from `app.state`: the tab,
// the shape and goal, the start board and the moves made from it (so the board, the move counter
// and the history cannot disagree), practice mode, and each panel's settings. The URL is a view
// of the state: every change writes it, a change of the board as a new history entry (so Back and
// Forward walk through moves and scrambles), and a reload or a shared link rebuilds the view from
// it. Positions (distances, estimates) are asked of the server per board and cached; a view never
// waits for one to show the board. Each panel is a module with `init(app)`; the four besides
// Play's are loaded after the first board of a bare link (`loadPanels`), before a link is read.

import { abortAll, call, stream } from './api.js';
import * as play from './play.js';
import * as inspect from './inspect.js';

const $ = (id) => document.getElementById(id);

const TABS = ['play', 'space', 'astar', 'compare', 'textbook'];
const MOVE = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };
/** Scramble depth a new game on a shape starts at. */
// the 2x2's twelve boards form one cycle: the farthest is 6 moves away whatever the goal
const DEFAULT_DEPTH = { '2x2': 6, '4x4': 12, '5x5': 8 };
/** Positions kept in the cache (a few hundred bytes each). */
const CACHE = 2000;

const positionListeners = [];
const stateListeners = [];
const cache = new Map();
/** Panel settings kept in the URL: key -> default. */
const panelKeys = new Map();

export const app = {
  info: null,
  /** The state: see the module comment. `panel` holds the panels' settings (strings). */
  state: {
    tab: 'play',
    shape: '3x3',
    goal: 'blank-last',
    start: null, // the start board's cells, row by row, 0 the blank
    moves: '', // the blank's moves made from the start (letters U D L R)
    ahead: '', // moves undone, to redo (not in the URL)
    practice: false,
    present: false, // presentation mode: large type, high contrast
    reveal: null, // the board whose answers were asked for in practice mode
    panel: {},
  },
  /** The position of the board shown (the answer of /api/position), or null until it arrives. */
  pos: null,
  /** The number of long jobs this page has running. */
  busy: 0,

  $,

  /** Whether `shape` has a perfect table here (so every lookup answers at once). */
  exact(shape) {
    const s = app.info && app.info.shapes.find((x) => x.shape === shape);
    return s ? Boolean(s.exact) : (Number(shape.split('x')[0]) * Number(shape.split('x')[1]) <= 12);
  },

  /** Rows and columns of the shape shown. */
  dims() {
    const [r, c] = app.state.shape.split('x').map(Number);
    return { rows: r, cols: c };
  },

  /** The board shown: the start with the moves made. */
  cells() {
    return applyMoves(app.state.start, app.dims().cols, app.state.moves);
  },

  /** The board shown as text (numbers separated by spaces), or '' before there is one. */
  text() {
    return app.state.start ? app.cells().join(' ') : '';
  },

  /** Whether exact answers may be shown now (not in practice mode, or asked for on this board). */
  answers() {
    return !app.state.practice || app.state.reveal === app.text();
  },

  /**
   * Shows `value` in the menu `select`, or `fallback` (saying so on the message line) when the
   * menu has no such choice: a link's setting that is not one of the page's.
   */
  choose(select, value, fallback, key = null) {
    select.value = value;
    if (select.value === value) return true;
    select.value = fallback;
    // the URL (and so "copy link") keeps the value used, not the bad one
    if (key) queueMicrotask(() => app.setParams({ [key]: fallback }));
    // the label's own words, not its menu's
    const label = select.labels && select.labels[0]
      ? [...select.labels[0].childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join(' ').trim()
      : select.id;
    const shown = select.selectedOptions[0] ? select.selectedOptions[0].textContent : fallback;
    app.linkProblem(`the link's \`${String(value).slice(0, 40)}\` is not a choice of "${label}": ${shown || 'the default'} instead`);
    return false;
  },

  /**
   * Shows `text` on the message line (`kind`: 'error', 'info', or 'link': an error in the link
   * the page was opened with, which a success does not clear, a new board does); empty clears it.
   */
  say(text, kind = 'info') {
    const m = $('message');
    m.textContent = text;
    m.className = text ? (kind === 'link' ? 'error' : kind) : '';
    m.dataset.link = kind === 'link' && text ? '1' : '';
  },

  /** Says what the link the page was opened with got wrong, beside what else it did. */
  linkProblem(text) {
    const m = $('message');
    if (m.dataset.link && m.textContent.includes(text)) return;
    app.say(m.dataset.link ? `${m.textContent}. ${text}` : text, 'link');
  },

  /** Clears the message line if it shows an error (called after an action succeeds). */
  ok() {
    const m = $('message');
    if (m.className === 'error' && !m.dataset.link) app.say('');
  },

  /** Runs `work`, showing its error on the message line, clearing an old error on success. */
  async guard(work) {
    try {
      const r = await work();
      app.ok();
      return r;
    } catch (e) {
      app.say(e.message, 'error');
      return undefined;
    }
  },

  /** Calls `fn(pos)` each time the position of the board shown arrives or changes. */
  onPosition(fn) {
    positionListeners.push(fn);
  },

  /** Calls `fn(state, before)` after every change of the state. */
  onState(fn) {
    stateListeners.push(fn);
  },

  /** Registers a panel setting kept in the URL as `key`, with its default; returns its value. */
  param(key, fallback) {
    panelKeys.set(key, fallback);
    if (!(key in app.state.panel)) app.state.panel[key] = fallback;
    return app.state.panel[key];
  },

  /** Sets panel settings (strings) without a new history entry. */
  /** Writes a put-off URL change now (before the URL is read: a link copied). */
  flushUrl() {
    flushOften(true);
  },

  setParams(values, history = 'replace') {
    app.update({ panel: { ...app.state.panel, ...values } }, history);
  },

  /**
   * Changes the state: `history` 'push' (a new entry: a move, a new board), 'replace' (a
   * setting) or 'none' (the URL already says it: Back or Forward).
   */
  update(change, history = 'replace') {
    const before = app.state;
    app.state = { ...before, ...change };
    const boardChanged = before.start !== app.state.start || before.moves !== app.state.moves
      || before.shape !== app.state.shape || before.goal !== app.state.goal;
    if (boardChanged && app.state.reveal !== app.text()) app.state.reveal = null;
    // a move or a new board between two tab switches makes the second its own entry
    if (history === 'push' && !('tab' in change)) lastTabSwitch = -Infinity;
    if (history !== 'none') writeUrl(history);
    // what the link got wrong stays said until the board it gave way to is left
    if (boardChanged && started && $('message').dataset.link) app.say('');
    if (boardChanged) {
      app.pos = cache.get(key(app.state.shape, app.state.goal, app.text())) || null;
    }
    for (const fn of stateListeners) fn(app.state, before);
    if (boardChanged) {
      if (app.pos) for (const fn of positionListeners) fn(app.pos);
      else if (app.state.start) fetchShown();
    }
  },

  /** The position of `text` (a board of the shape and goal shown), from the cache or the server. */
  position(text, shape = app.state.shape, goal = app.state.goal) {
    const k = key(shape, goal, text);
    const hit = cache.get(k);
    if (hit) return Promise.resolve(hit);
    return call('/api/position', { board: text, shape, goal }).then((pos) => remember(k, pos));
  },

  /** Keeps a position the server gave with another answer (a scramble's), for `position`. */
  remember(shape, goal, pos) {
    if (pos && pos.text) remember(key(shape, goal, pos.text), pos);
  },

  /** Makes the move `dir` (a blank move) if it is legal; false when it is not. */
  move(dir) {
    if (!app.state.start) return false;
    const { rows, cols } = app.dims();
    const cells = app.cells();
    const blank = cells.indexOf(0);
    const [dr, dc] = MOVE[dir];
    const r = Math.floor(blank / cols) + dr;
    const c = (blank % cols) + dc;
    if (r < 0 || r >= rows || c < 0 || c >= cols) return false;
    const ahead = app.state.ahead;
    app.update({ moves: app.state.moves + dir, ahead: ahead.startsWith(dir) ? ahead.slice(1) : '' }, 'push');
    return true;
  },

  undo() {
    const m = app.state.moves;
    if (!m) return;
    app.update({ moves: m.slice(0, -1), ahead: m.slice(-1) + app.state.ahead }, 'push');
  },

  redo() {
    const a = app.state.ahead;
    if (!a) return;
    app.update({ moves: app.state.moves + a[0], ahead: a.slice(1) }, 'push');
  },

  /**
   * A new game from `board` (text or cells; its shape read from it when `shape` is null),
   * checked by the server first; true when it could. A new history entry.
   */
  async newGame(board, { shape = app.state.shape, goal = app.state.goal } = {}) {
    const body = { board, goal };
    if (shape) body.shape = shape;
    const mine = app.askBoard();
    // a shape or goal not opened yet has its table made first: say so if it takes a while
    const slow = setTimeout(() => app.latestBoard(mine)
      && app.say('opening the board: a table is made the first time a shape or goal is used (3x4 and 2x6: about ten seconds)\u2026'), 400);
    const pos = await app.guard(() => call('/api/position', body)).finally(() => {
      clearTimeout(slow);
      if (/^opening the board:/.test($('message').textContent)) app.say('');
    });
    // a board asked for since (or Back, Forward) wins over this slower answer
    if (!pos || !app.latestBoard(mine)) return false;
    remember(key(pos.shape, goal, pos.text), pos);
    pickShape(pos.shape);
    pickGoal(goal);
    app.update({ shape: pos.shape, goal, start: pos.board, moves: '', ahead: '' }, 'push');
    return true;
  },

  /** How the page last came to be opened, in words for "... was stopped when the page ...". */
  leftBy() {
    const nav = performance.getEntriesByType('navigation')[0];
    return nav && nav.type === 'reload' ? 'reloaded' : 'was left';
  },

  /** Numbers a request for a new board; `latestBoard(n)` says whether none was made since. */
  askBoard() {
    boardAsks += 1;
    return boardAsks;
  },

  latestBoard(n) {
    return n === boardAsks;
  },

  /**
   * A new game on `shape`: a scramble at the shape's default depth, or its farthest when that is
   * nearer (`asked`: that scramble's answer already asked for, or null).
   */
  async reset(shape, goal = app.state.goal, history = 'push', asked = null) {
    $('depth').value = DEFAULT_DEPTH[shape] || 20;
    $('seed').value = '';
    return play.scramble(shape, goal, history, asked, true);
  },

  /**
   * Switches to tab `name`, a new history entry (Back returns to the tab before), except right
   * after another switch: tabs walked through with the arrow keys, or clicked in a row within
   * two seconds, make one entry, not one each.
   */
  showTab(name, focus = false) {
    if (!TABS.includes(name) || name === app.state.tab) {
      if (focus && TABS.includes(name)) $(`tab-btn-${name}`).focus();
      return;
    }
    const now = performance.now();
    const quick = now - lastTabSwitch < 2000;
    lastTabSwitch = now;
    app.update({ tab: name }, quick ? 'replace' : 'push');
    if (focus) $(`tab-btn-${name}`).focus();
  },

  /**
   * Starts a long job with its progress on the job line; resolves when it ends. `progress(data)`,
   * if given, words a progress event for the line (null: the default words).
   */
  job(kind, path, body, onEvent, { progress = null } = {}) {
    const line = $('job');
    const text = $('job-text');
    // one long job per student: the server replaces the one running; say so here
    if (current && !current.over) {
      const was = current.kind;
      current.job.abort();
      app.say(was === kind ? `your earlier ${kind} was stopped to start this one (one long job at a time each)`
        : `your ${was} was stopped to start the ${kind} (one long job at a time each)`);
    }
    line.hidden = false;
    $('job-cancel').hidden = false;
    text.textContent = `${kind}: starting`;
    app.busy += 1;
    let failed = null;
    const mine = { kind, job: null, over: false };
    current = mine;
    // the job line speaks of the page's newest job only
    const show = (t) => { if (current === mine) text.textContent = t; };
    const job = stream(path, body, (name, data) => {
      if (name === 'queued') {
        const ahead = data.ahead === 1 ? '1 job ahead' : `${data.ahead} jobs ahead`;
        show(`${kind}: waiting for a free core, number ${data.position} in the queue (${ahead})`);
      } else if (name === 'started') {
        show(`${kind}: started`);
      } else if (name === 'progress') {
        const nodes = data.generated ? `${data.generated.toLocaleString('en-US')} nodes, ` : '';
        const share = data.total ? `${Math.floor((100 * data.done) / data.total)}%, ` : '';
        show((progress && progress(data)) || `${kind}: ${share}${nodes}${data.seconds.toFixed(1)} s`);
      } else if (name === 'error') {
        failed = data.error;
        app.say(data.error, 'error');
      }
      onEvent(name, data);
    });
    job.done
      .then((aborted) => {
        show(aborted ? `${kind}: cancelled` : failed ? `${kind}: failed: ${failed}` : `${kind}: done`);
        if (!aborted && !failed) app.ok();
      })
      .catch((e) => {
        app.say(e.message, 'error');
        show(`${kind}: refused (${e.message})`);
      })
      .finally(() => {
        mine.over = true;
        app.busy -= 1;
        if (!app.busy) $('job-cancel').hidden = true;
        setTimeout(() => { if (!app.busy) line.hidden = true; }, 4000);
      });
    mine.job = job;
    return job;
  },
};

/** Requests for a new board made so far: only the latest one's answer is shown. */
let boardAsks = 0;

/** When the tab was last switched (performance.now()), or -Infinity; any other new history
 * entry resets it. */
let lastTabSwitch = -Infinity;

/** The long job this page started last: `{ kind, job, over }`. */
let current = null;

function key(shape, goal, text) {
  return `${shape}|${goal}|${text}`;
}

function remember(k, pos) {
  cache.delete(k);
  cache.set(k, pos);
  if (cache.size > CACHE) cache.delete(cache.keys().next().value);
  return pos;
}

/** Asks for the position of the board shown; shows it unless the board changed meanwhile. */
async function fetchShown() {
  const { shape, goal } = app.state;
  const text = app.text();
  try {
    const pos = await app.position(text, shape, goal);
    if (app.text() !== text || app.state.shape !== shape || app.state.goal !== goal) return;
    app.pos = pos;
    for (const fn of positionListeners) fn(pos);
  } catch (e) {
    if (app.text() === text) app.say(e.message, 'error');
  }
}

/** Makes the blank moves `moves` on `cells` (a copy), up to the first illegal one: the board
 * reached and how many moves were made. */
function walk(cells, cols, moves) {
  const b = [...cells];
  const rows = b.length / cols;
  let blank = b.indexOf(0);
  let made = 0;
  for (const m of moves) {
    const d = MOVE[m];
    if (!d) break;
    const r = Math.floor(blank / cols) + d[0];
    const c = (blank % cols) + d[1];
    if (r < 0 || r >= rows || c < 0 || c >= cols) break;
    const next = r * cols + c;
    b[blank] = b[next];
    b[next] = 0;
    blank = next;
    made += 1;
  }
  return { board: b, made };
}

/** `cells` with the blank moves `moves` made (illegal ones stop the walk). */
export function applyMoves(cells, cols, moves) {
  return walk(cells, cols, moves).board;
}

/** How many of `moves` are legal from `cells`, in a row from the first. */
function legalPrefix(cells, cols, moves) {
  return walk(cells, cols, moves).made;
}

function urlOf(state) {
  const url = new URL(window.location.href);
  url.search = '';
  const p = url.searchParams;
  if (state.tab !== 'play') p.set('tab', state.tab);
  p.set('shape', state.shape);
  p.set('goal', state.goal);
  if (state.start) p.set('board', state.start.join(' '));
  if (state.moves) p.set('moves', state.moves);
  if (state.practice) p.set('practice', '1');
  if (state.present) p.set('present', '1');
  for (const [k, fallback] of panelKeys) {
    const v = state.panel[k];
    if (v !== undefined && v !== null && v !== fallback) p.set(k, v);
  }
  return url;
}

/** A URL write put off until the page is idle (for a setting changed often: A*'s step). */
let pendingOften = null;

/**
 * Writes the state into the URL: `how` 'push' (a new history entry), 'replace', or 'often' (a
 * replace put off until the page is idle, after the frame: stepping at 20,000 nodes spent an
 * eighth of each step in `history.replaceState`, and the frame waited for it).
 */
function writeUrl(how) {
  if (how === 'often') {
    const idle = window.requestIdleCallback || ((f) => setTimeout(f, 50));
    pendingOften ||= idle(() => {
      pendingOften = null;
      writeUrl('replace');
    }, { timeout: 200 });
    return;
  }
  // any other write carries the state as it is now, the put-off one's change with it
  flushOften(false);
  const url = urlOf(app.state);
  if (url.href === window.location.href) return;
  try {
    if (how === 'push') history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  } catch (_) {
    // a browser that limits history calls (hundreds a second): keep the URL right at least
    try { history.replaceState(null, '', url); } catch (__) { /* nothing more to do */ }
  }
}

/** Cancels a put-off URL write, first making it (`write`) when the page is being left. */
function flushOften(write) {
  if (pendingOften === null) return;
  (window.cancelIdleCallback || clearTimeout)(pendingOften);
  pendingOften = null;
  if (write) writeUrl('replace');
}
// a page left right after a step keeps that step in its history entry (pagehide, not
// beforeunload, which would keep the page out of the back-forward cache)
window.addEventListener('pagehide', () => flushOften(true));

/** Shows `value` in the menu `id` (board or goal), adding it when the list lacks it (a goal
 * given as an arrangement, a shape only a link names). */
function pick(id, value) {
  const select = $(id);
  if (![...select.options].some((o) => o.value === value)) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = value;
    select.append(o);
  }
  select.value = value;
}

const pickGoal = (goal) => pick('goal', goal);
const pickShape = (shape) => pick('shape', shape);

function renderTabs(state) {
  for (const name of TABS) {
    const b = $(`tab-btn-${name}`);
    const on = name === state.tab;
    b.setAttribute('aria-selected', on ? 'true' : 'false');
    b.tabIndex = on ? 0 : -1;
    // a panel whose module has not loaded yet stays hidden (its controls would do nothing)
    $(`tab-${name}`).hidden = !on || (name !== 'play' && !panelsReady);
  }
  $('practice').checked = state.practice;
  $('present').checked = state.present;
  document.body.classList.toggle('practice', state.practice);
  document.body.classList.toggle('present', state.present);
  // the root's font size too (every control sized in rem grows with it)
  document.documentElement.classList.toggle('present', state.present);
  // a menu waiting for its new board keeps showing the choice made
  if (!$('shape').disabled) {
    pickShape(state.shape);
    pickGoal(state.goal);
  }
}

function initTabs() {
  const buttons = TABS.map((t) => $(`tab-btn-${t}`));
  for (const b of buttons) {
    b.addEventListener('click', () => app.showTab(b.dataset.tab));
    b.addEventListener('keydown', (e) => {
      const i = TABS.indexOf(b.dataset.tab);
      const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      app.showTab(TABS[(to + TABS.length) % TABS.length], true);
    });
  }
}

/** The cells of a shape `RxC` the page can ask for, or null (with `why`) when it cannot. */
function shapeCells(shape) {
  const m = /^(\d{1,3})x(\d{1,3})$/.exec(shape);
  if (!m) return { cells: null, why: 'a shape is rows x columns, like 3x3 or 3x4' };
  const [r, c] = [Number(m[1]), Number(m[2])];
  const most = (app.info && app.info.limits && app.info.limits.max_cells) || 25;
  if (r < 2 || c < 2) return { cells: null, why: 'a board needs at least 2 rows and 2 columns' };
  if (r * c > most) return { cells: null, why: `this server plays boards of up to ${most} cells` };
  return { cells: r * c, why: null };
}

/**
 * What is surely wrong with `text` as a board of `cells` cells (any square number of cells when
 * null), in words, or null when it may be right (the server has the last word). Checked here so
 * that a bad link gives its message without a refused request in the console.
 */
function boardProblem(text, cells) {
  const tokens = String(text).split(/[\s,/;[\]()]+/).filter((t) => t);
  // one run of digits is a board of one-digit tiles ("123456780"); else tiles are numbers
  const tiles = tokens.length === 1 && /^\d{4,}$/.test(tokens[0]) ? [...tokens[0]] : tokens;
  // a COS 226 file's text (its size on a line of its own) is the server's to read
  if (/\n/.test(text) || !tiles.length || !tiles.every((t) => /^\d+$/.test(t))) return null;
  const n = tiles.length;
  if (cells !== null && n !== cells) return `it has ${n} tile${n === 1 ? '' : 's'} (the blank counted), a board of this shape ${cells}`;
  if (cells === null && !(Number.isInteger(Math.sqrt(n)) && n >= 4)) return `its ${n} tiles make no square board (give its shape too)`;
  const seen = new Set();
  for (const t of tiles.map(Number)) {
    if (t >= n) return `tile ${t} is out of range (0 to ${n - 1}, 0 for the blank)`;
    if (seen.has(t)) return `tile ${t} appears twice`;
    seen.add(t);
  }
  return null;
}

/** Checks a link's shape and goal (on the page: no request); the ones to use and what was wrong. */
function checkLink(shape, goal) {
  const problems = [];
  let s = shape;
  let g = goal;
  const { cells, why } = shapeCells(s);
  if (!cells) {
    problems.push(`the link's board shape \`${s.slice(0, 20)}\`: ${why}; showing 3x3`);
    s = '3x3';
  }
  const named = app.info ? app.info.goals : ['blank-last', 'blank-first', 'snail'];
  if (!named.includes(g)) {
    const n = shapeCells(s).cells;
    const digits = String(g).split(/[\s,/;[\]()]+/).filter((t) => t).length >= 2 || /^\d{4,}$/.test(g);
    const wrong = digits ? boardProblem(g, n) : `not a goal: ${named.join(', ')}, or an arrangement of the tiles`;
    if (wrong) {
      problems.push(`the link's goal \`${String(g).slice(0, 40)}\`: ${wrong}; showing blank-last`);
      g = 'blank-last';
    }
  }
  return { shape: s, goal: g, problems };
}

/** The state a URL describes, checked; `problems` says what was wrong with it. */
async function fromUrl(search) {
  const p = new URLSearchParams(search);
  const problems = [];
  const tab = p.get('tab') || 'play';
  if (!TABS.includes(tab)) problems.push(`the link's tab \`${tab}\` is not one of ${TABS.join(', ')}`);
  // the defaults need no check (a round trip saved on the first load)
  const checked = p.get('shape') || p.get('goal')
    ? checkLink(p.get('shape') || '3x3', p.get('goal') || 'blank-last')
    : { shape: '3x3', goal: 'blank-last', problems: [] };
  problems.push(...checked.problems);
  let { shape } = checked;
  const { goal } = checked;
  let start = null;
  let moves = p.get('moves') || '';
  if (p.get('board')) {
    const body = { board: p.get('board'), goal };
    // a link without a shape reads it from the board (a square number of tiles)
    const withShape = p.get('shape') && !checked.problems.some((x) => x.includes('board shape'));
    if (withShape) body.shape = shape;
    try {
      const wrong = boardProblem(body.board, withShape ? shapeCells(shape).cells : null);
      if (wrong) throw new Error(wrong);
      const pos = await call('/api/position', body);
      remember(key(pos.shape, goal, pos.text), pos);
      shape = pos.shape;
      start = pos.board;
    } catch (e) {
      problems.push(`the link's board: ${e.message}; showing a new board`);
    }
  }
  if (start) {
    const [, cols] = shape.split('x').map(Number);
    const n = legalPrefix(start, cols, moves.toUpperCase());
    if (n < moves.length) {
      problems.push(`the link's moves \`${moves}\`: only the first ${n} can be made (moves are the blank's, U D L R)`);
    }
    moves = moves.toUpperCase().slice(0, n);
  } else {
    moves = '';
  }
  const panel = {};
  for (const [k, fallback] of panelKeys) panel[k] = p.get(k) ?? fallback;
  return {
    state: { tab: TABS.includes(tab) ? tab : 'play', shape, goal, start, moves, practice: p.get('practice') === '1',
      present: p.get('present') === '1', panel },
    problems,
  };
}

/** Whether the page has started: the link read, the first board shown. */
let started = false;

/** Whether the panels other than Play's have loaded and started. */
let panelsReady = false;
let panelsLoading = null;

/**
 * Loads the panels other than Play's (their scripts are most of the page's) and starts them;
 * resolves when they are. Started after the state is set, they are told it as it is, as though
 * their tab had just been chosen, and the position shown.
 */
function loadPanels() {
  panelsLoading ||= Promise.all([import('./space.js'), import('./astar.js'), import('./compare.js'), import('./textbook.js')])
    .then((panels) => {
      const fromState = stateListeners.length;
      const fromPosition = positionListeners.length;
      for (const m of panels) m.init(app);
      panelsReady = true;
      const before = { ...app.state, tab: '' };
      for (const fn of stateListeners.slice(fromState)) fn(app.state, before);
      if (app.pos) for (const fn of positionListeners.slice(fromPosition)) fn(app.pos);
      renderTabs(app.state);
    })
    .catch((e) => {
      panelsLoading = null;
      app.say(`the page's other tabs did not load (${e.message}): reload the page`, 'error');
    });
  return panelsLoading;
}

/** The 3x3 board the server wrote into the page (a scramble's answer with its position), or null. */
function firstBoard() {
  try {
    const a = JSON.parse($('first-board').textContent || 'null');
    return a && Array.isArray(a.board) && a.position && a.position.text === a.text ? a : null;
  } catch {
    return null;
  }
}

async function start() {
  initTabs();
  $('job-cancel').addEventListener('click', abortAll);
  // a plain link's first board is asked for beside the info, not after it: one round trip, not
  // two, before the board is drawn (on failure the scramble is asked for again, as any other)
  const plain = !['board', 'shape', 'goal'].some((k) => new URLSearchParams(window.location.search).has(k));
  // the server writes one into the page (no round trip at all); else it is asked for
  const given = plain ? firstBoard() : null;
  const first = !plain ? null : given ? Promise.resolve(given)
    : call('/api/scramble', { shape: '3x3', goal: 'blank-last', depth: DEFAULT_DEPTH['3x3'] || 20, position: true })
      .catch(() => null);
  // not app.guard: its success would clear a message the link's checks gave meanwhile
  const asked = call('/api/info').catch((e) => {
    app.say(e.message, 'error');
    return undefined;
  });
  const shapeSelect = $('shape');
  const goalSelect = $('goal');
  /** The menus, from the info (the page's own defaults without it), showing the state's choice. */
  const fillMenus = () => {
    shapeSelect.replaceChildren();
    for (const s of app.info ? app.info.shapes : [{ shape: '3x3', exact: true }]) {
      const o = document.createElement('option');
      o.value = s.shape;
      o.textContent = `${s.shape}${s.exact ? '' : ' (search)'}`;
      o.title = s.source || '';
      shapeSelect.append(o);
    }
    goalSelect.replaceChildren();
    for (const g of app.info ? app.info.goals : ['blank-last']) {
      const o = document.createElement('option');
      o.value = g;
      o.textContent = g;
      goalSelect.append(o);
    }
    pickShape(app.state.shape);
    pickGoal(app.state.goal);
  };
  // a plain link's board (3x3, written into the page) is drawn without waiting for the info;
  // a link's may need it (its shape's table), and waits
  if (!given) {
    app.info = await asked;
    fillMenus();
  }
  app.onState(renderTabs);
  for (const m of [play, inspect]) m.init(app);
  // a bare link (the first visit) shows Play's board first and loads the other tabs after it;
  // a link with settings in it needs their panels to read them
  // what a slow board is waiting for: a perfect table made at first use (up to 12 cells), or,
  // past that, the pattern tables its searches use
  const openingNote = (shape, goal) => {
    const [r, c] = String(shape).split('x').map(Number);
    const known = app.info && app.info.shapes.find((x) => x.shape === shape);
    if (r * c > 12 && known && known.exact) return `opening the ${shape} board (${goal}) and its table\u2026`;
    return r * c <= 12
      ? `opening the ${shape} board (${goal}): its table is made at first use (3x4 and 2x6: about ten seconds)\u2026`
      : `opening the ${shape} board (${goal}): it has no perfect table; its pattern tables are made at first use`
        + `${r === 4 && c === 4 ? ' (about 8 seconds on 2 cores)' : ''}\u2026`;
  };
  const bare = window.location.search === '';
  if (!bare) await loadPanels();
  // a new shape or goal may take seconds (a 3x4 table is built at first use): the menus wait
  // for it, saying so, so that nothing else is asked of the board being left meanwhile
  const change = async (shape, goal) => {
    shapeSelect.disabled = true;
    goalSelect.disabled = true;
    const slow = setTimeout(() => {
      app.say(openingNote(shape, goal));
      document.body.classList.add('opening');
    }, 400);
    try {
      if (await app.reset(shape, goal)) app.ok();
    } finally {
      clearTimeout(slow);
      document.body.classList.remove('opening');
      if (/^opening the/.test($('message').textContent)) app.say('');
      shapeSelect.disabled = false;
      goalSelect.disabled = false;
      pickShape(app.state.shape);
      pickGoal(app.state.goal);
    }
  };
  shapeSelect.addEventListener('change', () => change(shapeSelect.value, app.state.goal));
  goalSelect.addEventListener('change', () => change(app.state.shape, goalSelect.value));
  $('practice').addEventListener('change', () => app.update({ practice: $('practice').checked, reveal: null }, 'replace'));
  $('present').addEventListener('change', () => app.update({ present: $('present').checked }, 'replace'));
  window.addEventListener('popstate', () => {
    // the URL was written by this page: read it as it is, no round trip to the server
    const state = ownUrl(window.location.search);
    if (!state) return;
    // a board still on its way is not shown over the one Back or Forward brings
    app.askBoard();
    // what Back takes can be redone, and Forward redoes it
    const same = app.state.start && state.start.join() === app.state.start.join();
    const line = app.state.moves + app.state.ahead;
    const ahead = same && line.startsWith(state.moves) ? line.slice(state.moves.length) : '';
    app.update({ ...state, ahead }, 'none');
  });
  // a link to a shape or goal whose table is made at first use says so, as the menus do, and
  // the menus show the link's choice meanwhile (not the page's default)
  const linked = new URLSearchParams(window.location.search);
  const asks = checkLink(linked.get('shape') || '3x3', linked.get('goal') || 'blank-last');
  pickShape(asks.shape);
  pickGoal(asks.goal);
  shapeSelect.disabled = true;
  goalSelect.disabled = true;
  const slowLink = setTimeout(() => app.say(openingNote(asks.shape, asks.goal)), 400);
  let state;
  let problems;
  try {
    ({ state, problems } = await fromUrl(window.location.search));
    app.update({ ...state, start: null }, 'none');
    if (state.start) {
      app.update({ start: state.start, moves: state.moves }, 'replace');
    } else if (!(await app.reset(state.shape, state.goal, 'replace', first))) {
      // never a page without a board: the 3x3's goal at worst
      app.update({ shape: '3x3', goal: 'blank-last', start: [1, 2, 3, 4, 5, 6, 7, 8, 0], moves: '' }, 'replace');
    }
  } finally {
    clearTimeout(slowLink);
    if (/^opening the/.test($('message').textContent)) app.say('');
    shapeSelect.disabled = false;
    goalSelect.disabled = false;
    pickShape(app.state.shape);
    pickGoal(app.state.goal);
  }
  if (problems.length) app.linkProblem(problems.join('. '));
  started = true;
  const later = bare ? loadPanels() : null;
  if (given) {
    app.info = await asked;
    fillMenus();
  }
  await later;
}

/** The state of a URL this page wrote (Back, Forward), or null when it holds no board. */
function ownUrl(search) {
  const p = new URLSearchParams(search);
  const start = (p.get('board') || '').split(/\s+/).filter((t) => t).map(Number);
  const shape = p.get('shape') || '3x3';
  const [rows, cols] = shape.split('x').map(Number);
  if (!start.length || start.length !== rows * cols || start.some((n) => !Number.isInteger(n))) return null;
  const moves = (p.get('moves') || '').slice(0, legalPrefix(start, cols, p.get('moves') || ''));
  const panel = {};
  for (const [k, fallback] of panelKeys) panel[k] = p.get(k) ?? fallback;
  const tab = TABS.includes(p.get('tab')) ? p.get('tab') : 'play';
  return { tab, shape, goal: p.get('goal') || 'blank-last', start, moves, practice: p.get('practice') === '1',
    present: p.get('present') === '1', panel };
}

start();
