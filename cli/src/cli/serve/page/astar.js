// A* (and IDA*) step by step on the board shown, one heuristic or two side by side, stepped
// together: the open list as small boards in A*'s order, the search tree laid out by depth g
// (zoom and pan, labels once there is room, nodes clickable), each node classed must/may/never by
// g + h against the exact C*, the tally of expanded nodes by class, the solution path drawn at
// the end, autoplay at a chosen speed. A step is applied to the open list in place (and a jump
// starts from the nearest of the snapshots kept every few hundred steps), so stepping costs the
// same at step 20,000 as at step 2.

import { call } from './api.js';
import { applyMoves } from './app.js';
import { download, downloadCanvas, heuristicName, miniBoard, tableSvg } from './draw.js';

let app;
let $;
/** The runs shown (one or two), each `{ model, view }`. */
let runs = [];
/** The step shown (shared by the runs). */
let step = 0;
let timer = null;
/** The board, shape, goal and settings the runs were made with. */
let made = null;
/** Whether the form's settings are being changed by hand (not by a link, Back or Forward). */
let typed = false;
/** Whether the run a link asked for (its `astep`) was made again already. */
let restored = false;

const SHOWN = 12;
/**
 * The cap on expansions the form starts with: the most the server allows, so that the lesson's
 * boards (12 to 16 moves) finish even with the zero heuristic (uniform cost expanded up to 14,313
 * nodes on 60 random 16-move 3x3 boards).
 */
const CAP = 20000;
const SNAPSHOT = 256;
/** The classes' colours; "plain" (practice mode, the classes hidden) is none of them. */
const COLOUR = { must: '#1864ab', may: '#b35c00', never: '#5c636a', plain: '#343a40' };
/** The solution's path in the tree (for IDA*, the path searched now). */
const PATH_COLOUR = '#2b8a3e';
const LETTER_STATUS = { n: 'new', b: 'better', r: 'reopened', w: 'worse', c: 'closed' };

export function init(a) {
  app = a;
  $ = a.$;
  settings = [['astar-algorithm', 'alg', 'astar'], ['astar-heuristic', 'ah', 'manhattan'], ['astar-heuristic2', 'ah2', ''],
    ['astar-weight', 'aw', '1'], ['astar-cap', 'acap', String(CAP)], ['astar-speed', 'aspeed', '3']];
  for (const [id, key, fallback] of settings) {
    setField(id, app.param(key, fallback), fallback, key);
    $(id).addEventListener('change', () => {
      typed = true;
      app.setParams({ [key]: $(id).value });
      typed = false;
      if (id === 'astar-speed' && timer) play();
      if (id === 'astar-algorithm') $('astar-weight-label').hidden = $(id).value === 'idastar';
    });
  }
  $('astar-weight-label').hidden = $('astar-algorithm').value === 'idastar';
  capFromLink();
  app.param('astep', '');
  $('astar-run').addEventListener('click', () => start(0));
  $('astar-rerun').addEventListener('click', () => start(0));
  $('astar-first').addEventListener('click', () => go(0));
  $('astar-back').addEventListener('click', () => go(step - 1));
  $('astar-forward').addEventListener('click', () => go(step + 1));
  $('astar-last').addEventListener('click', () => go(lastStep()));
  $('astar-play').addEventListener('click', () => (timer ? pause() : play()));
  document.addEventListener('keydown', (e) => {
    if (app.state.tab !== 'astar' || !runs.length || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(t.tagName) || t.getAttribute('role') === 'tab' || t.tagName === 'CANVAS') return;
    if (e.key === 'ArrowRight') {
      e.preventDefault();
      go(step + 1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      go(step - 1);
    }
  });
  app.onState((state, before) => {
    // the form shows the settings the state holds (a link, Back, a reload)
    for (const [id, key, fallback] of settings) {
      if (state.panel[key] !== undefined && $(id).value !== state.panel[key]) {
        setField(id, state.panel[key], fallback, key);
        // a cap that came from a link (or Back), not typed: brought within the limits
        if (id === 'astar-cap') capFromLink();
      }
    }
    $('astar-weight-label').hidden = $('astar-algorithm').value === 'idastar';
    if (state.tab === 'astar' && !runs.length && !restored && state.panel.astep !== '' && state.start) {
      // a reload (or a link) on this tab: the run again, at its step
      restored = true;
      start(Number(state.panel.astep) || 0);
    } else if (state.tab === 'astar' && runs.length && made && !typed && state.panel.astep !== ''
        && made.key === `${state.shape}|${state.goal}|${app.text()}` && made.settings !== settingsKey()) {
      // Back or Forward to settings other than the runs shown: those runs are made, as a reload
      // of the same link would make them (the form changed by hand waits for "run")
      start(Number(state.panel.astep) || 0);
    }
    if (state.present !== before.present) resizes += 1;
    if (state.practice !== before.practice || state.reveal !== before.reveal || state.present !== before.present) redraw();
    stale();
    // said before a click, not after: the step-by-step view classes nodes against the exact C*
    const exact = app.exact(state.shape);
    $('astar-run').disabled = !exact;
    $('astar-needs').hidden = exact;
    if (!exact) {
      $('astar-needs').textContent = `A* step by step needs the ${state.shape} board's perfect table (boards of up to 12 cells): `
        + 'pick a smaller board, or use Compare to run the searches on this one.';
    }
  });
  app.onPosition(stale);
  // a tree sized for the room it had is sized again for the room it has (a phone turned)
  let resized = null;
  window.addEventListener('resize', () => {
    clearTimeout(resized);
    resized = setTimeout(() => {
      resizes += 1;
      if (app.state.tab === 'astar') redraw();
    }, 150);
  });
}

/**
 * A link's cap on expansions past what the server allows (or not a whole number) is brought to the
 * nearest it allows, and said: the run it asks for is made, not refused into an empty panel.
 */
function capFromLink() {
  const text = $('astar-cap').value.trim();
  const max = CAP;
  if (text === '' || (/^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= max)) return;
  const to = /^\d+$/.test(text) && Number(text) > max ? max : CAP;
  $('astar-cap').value = String(to);
  queueMicrotask(() => app.setParams({ acap: String(to) }));
  app.linkProblem(`the link's cap on expansions \`${text.slice(0, 20)}\` is not a whole number from 1 to ${max.toLocaleString('en-US')}: `
    + `${to.toLocaleString('en-US')} instead`);
}

/** The form's fields kept in the URL: [element id, URL key, default]. */
let settings = [];

/** The settings read from the form. */
function readSettings() {
  return {
    algorithm: $('astar-algorithm').value,
    heuristics: [$('astar-heuristic').value, $('astar-heuristic2').value].filter((h, i) => i === 0 || h),
    weight: number('astar-weight', 1),
    cap: number('astar-cap', CAP),
  };
}

/** Sets field `id` to `value`; a menu given a value it does not offer (a bad link) shows `fallback`. */
function setField(id, value, fallback, key = null) {
  const el = $(id);
  if (el.tagName === 'SELECT') app.choose(el, value, fallback, key);
  else el.value = value;
}

/** What is wrong with the settings, in words, or null. */
function refused(s) {
  const max = app.info ? app.info.limits.astar_max_expansions : 1e6;
  if (!Number.isInteger(s.cap) || s.cap < 1 || s.cap > max) {
    return `the cap on expansions is a whole number from 1 to ${max.toLocaleString('en-US')}, not \`${$('astar-cap').value}\``;
  }
  if (s.algorithm === 'astar' && !(Number.isFinite(s.weight) && s.weight >= 0)) {
    return `the weight is a number, 0 or more (1 is plain A*), not \`${$('astar-weight').value}\``;
  }
  if (!s.heuristics[0]) return 'pick a heuristic for the run';
  return null;
}

/** The number in field `id`; an empty field takes (and shows) `fallback`, never 0. */
function number(id, fallback) {
  if ($(id).value.trim() === '') {
    $(id).value = String(fallback);
    // kept as the form's setting (the URL), as a change by hand would be
    $(id).dispatchEvent(new Event('change'));
  }
  return Number($(id).value);
}

/** Says beside the runs shown, if any, that they are not of the settings in the form (refused). */
function keptUnderRefusal() {
  if (!made) return;
  $('astar-stale').hidden = false;
  $('astar-stale-text').textContent = 'These runs are of the last settings that ran: the new ones were refused (see the message above).';
}

/** Says so when the runs shown were made on another board than the one shown. */
function stale() {
  if (!made) {
    $('astar-stale').hidden = true;
    return;
  }
  const now = `${app.state.shape}|${app.state.goal}|${app.text()}`;
  const board = made.key !== now;
  // the form's settings changed since the runs were made (a search, a heuristic, the weight)
  const settings = !board && made.settings !== settingsKey();
  $('astar-stale').hidden = !board && !settings;
  if (board) $('astar-stale-text').textContent = `These runs are on an earlier board (${made.text}), not the one shown now.`;
  else if (settings) $('astar-stale-text').textContent = 'These runs are of the settings before: the form now asks for another search.';
}

/** The settings a run is made of, as a key (an empty field reads as its default). */
function settingsKey() {
  const v = (id) => $(id).value.trim();
  const weight = v('astar-algorithm') === 'astar' ? (v('astar-weight') || '1') : '';
  return [v('astar-algorithm'), v('astar-heuristic'), v('astar-heuristic2'), weight, v('astar-cap') || String(CAP)].join('|');
}

async function start(at) {
  if (!app.state.start || starting) return;
  starting = true;
  try {
    await startRun(at);
  } finally {
    starting = false;
  }
}

/** A run being made (its answers awaited): another is not started meanwhile. */
let starting = false;

async function startRun(at) {
  pause();
  const s = readSettings();
  const bad = refused(s);
  if (bad) {
    app.say(bad, 'error');
    keptUnderRefusal();
    return;
  }
  const text = app.text();
  const { shape, goal } = app.state;
  const answers = await app.guard(() => Promise.all(s.heuristics.map((heuristic) => {
    const body = { board: text, shape, goal, heuristic, max_expansions: s.cap };
    if (s.algorithm === 'astar') body.weight = s.weight;
    return call(s.algorithm === 'idastar' ? '/api/idastar' : '/api/astar', body);
  })));
  if (!answers) {
    keptUnderRefusal();
    return;
  }
  const cols = app.dims().cols;
  const start0 = app.cells();
  made = { key: `${shape}|${goal}|${text}`, text, cols, start: start0, algorithm: s.algorithm, settings: settingsKey() };
  $('astar-pair').replaceChildren();
  runs = answers.map((answer, i) => {
    const model = s.algorithm === 'idastar' ? idaModel(answer, start0, cols) : astarModel(answer, start0, cols);
    const view = makeView(model, i);
    $('astar-pair').append(view.root);
    return { model, view };
  });
  $('astar-pair').classList.toggle('two', runs.length > 1);
  $('astar-view').hidden = false;
  stale();
  go(Math.min(at, lastStep()));
  // on a projector the class sees the controls, the open list and the tree at once
  // (not while the message line says something went wrong: it would scroll out of sight); on
  // other screens, brought into view when it starts below the window (a phone's long form)
  const top = $('astar-view').getBoundingClientRect().top;
  if (!$('message').classList.contains('error') && (presenting() ? window.innerWidth >= 900 : top > window.innerHeight - 80)) {
    $('astar-view').scrollIntoView({ block: 'start' });
  }
}

function lastStep() {
  return Math.max(0, ...runs.map((r) => r.model.steps));
}

function go(k) {
  if (!runs.length) return;
  step = Math.max(0, Math.min(k, lastStep()));
  $('astar-step').textContent = `step ${step} of ${lastStep()}`;
  $('astar-step').dataset.step = String(step);
  for (const r of runs) r.view.show(Math.min(step, r.model.steps));
  if (app.state.panel.astep !== String(step)) app.setParams({ astep: String(step) }, 'often');
  if (step >= lastStep()) pause();
}

function redraw() {
  if (runs.length) go(step);
}

function play() {
  clearInterval(timer);
  if (step >= lastStep()) go(0);
  const speed = Number($('astar-speed').value) || 3;
  timer = setInterval(() => go(step + 1), 1000 / speed);
  $('astar-play').textContent = 'pause';
}

function pause() {
  clearInterval(timer);
  timer = null;
  $('astar-play').textContent = 'play';
}

// ---- the runs as the page keeps them ----------------------------------------------------------

/**
 * A recorded A* run, from the server's compact answer (docs/serve-api.md): per node its parent, move
 * (the blank's, one letter), g, h, h* and status (what became of it when its parent was
 * expanded, one letter); per step the node expanded and the end of its children's ids (they
 * follow the step before's); for each better or reopening path, the node it replaced.
 */
function astarModel(a0, start, cols) {
  const a = Array.isArray(a0.nodes) ? legacy(a0) : a0;
  const n = a.nodes.g.length;
  const m = {
    kind: 'astar', answer: a, start: a.start || start, cols: a.cols || cols, n, cStar: a.c_star, weight: a.weight,
    heuristic: a.heuristic, ties: a.ties || 'first-seen',
    parent: Int32Array.from(a.nodes.parent, (p) => (p === null ? -1 : p)),
    move: a.nodes.move, g: Int32Array.from(a.nodes.g), h: Int32Array.from(a.nodes.h),
    hstar: Int32Array.from(a.nodes.hstar, (x) => (x === null ? -1 : x)),
    steps: a.steps.expand.length,
    expand: Int32Array.from(a.steps.expand),
    first: new Int32Array(a.steps.expand.length),
    count: new Int32Array(a.steps.expand.length),
    status: a.nodes.status,
    replaced: new Int32Array(n).fill(-1),
    solution: a.solution ? a.solution.path : null,
    boards: new Map(),
  };
  // children of step k are the ids after those of the step before, up to its end
  for (let k = 0; k < m.steps; k++) {
    m.first[k] = k === 0 ? 1 : a.steps.end[k - 1];
    m.count[k] = a.steps.end[k] - m.first[k];
  }
  a.replaced.child.forEach((child, q) => { m.replaced[child] = a.replaced.node[q]; });
  m.expandedAt = new Int32Array(n).fill(-1);
  for (let k = 0; k < m.steps; k++) m.expandedAt[m.expand[k]] = k;
  classes(m);
  // the tally of expanded nodes by class after each step
  m.tally = [new Int32Array(m.steps + 1), new Int32Array(m.steps + 1), new Int32Array(m.steps + 1)];
  for (let k = 0; k < m.steps; k++) {
    for (let c = 0; c < 3; c++) m.tally[c][k + 1] = m.tally[c][k] + (m.cls[m.expand[k]] === c ? 1 : 0);
  }
  // the open list every SNAPSHOT steps
  m.snapshots = [];
  const open = new Set([0]);
  for (let k = 0; k <= m.steps; k++) {
    if (k % SNAPSHOT === 0) m.snapshots.push(Int32Array.from(open));
    if (k < m.steps) forward(m, open, k);
  }
  m.cur = { k: 0, open: new Set([0]) };
  m.key = orderKeys(m);
  return m;
}

/** Each node's class against C*: 0 must (g + h < C*), 1 may (=), 2 never (>). */
function classes(m) {
  m.cls = new Uint8Array(m.n);
  for (let i = 0; i < m.n; i++) {
    const plain = m.g[i] + m.h[i];
    m.cls[i] = plain < m.cStar ? 0 : plain === m.cStar ? 1 : 2;
  }
}

/** The first server's format (a record per node with its board), as the compact one. */
function legacy(a) {
  const letter = { new: 'n', better: 'b', worse: 'w', closed: 'c' };
  const open = new Map([[a.nodes[0].board.join(), 0]]);
  const replaced = { child: [], node: [] };
  let status = '-';
  const end = [];
  let next = 1;
  for (const s of a.steps) {
    open.delete(a.nodes[s.expand].board.join());
    for (const c of s.children) {
      status += letter[c.status];
      const key = a.nodes[c.node].board.join();
      if (c.status === 'better') {
        replaced.child.push(c.node);
        replaced.node.push(open.get(key));
      }
      if (c.status === 'new' || c.status === 'better') open.set(key, c.node);
    }
    next += s.children.length;
    end.push(next);
  }
  return {
    ...a,
    ties: 'first-seen',
    nodes: {
      parent: a.nodes.map((x) => x.parent), move: a.nodes.map((x) => x.move || '-').join(''),
      g: a.nodes.map((x) => x.g), h: a.nodes.map((x) => x.h), hstar: a.nodes.map((x) => x.hstar), status,
    },
    steps: { expand: a.steps.map((x) => x.expand), end },
    replaced,
  };
}

/** The open list after step k, from that before it. */
function forward(m, open, k) {
  open.delete(m.expand[k]);
  for (let j = m.first[k]; j < m.first[k] + m.count[k]; j++) {
    const s = m.status[j];
    if (s === 'n' || s === 'r') open.add(j);
    else if (s === 'b') {
      open.delete(m.replaced[j]);
      open.add(j);
    }
  }
}

/** The open list before step k, from that after it. */
function backward(m, open, k) {
  for (let j = m.first[k]; j < m.first[k] + m.count[k]; j++) {
    const s = m.status[j];
    if (s === 'n' || s === 'r') open.delete(j);
    else if (s === 'b') {
      open.delete(j);
      open.add(m.replaced[j]);
    }
  }
  open.add(m.expand[k]);
}

/** The open list after `k` steps: from where it was, or from the nearest snapshot. */
function openAt(m, k) {
  const c = m.cur;
  if (Math.abs(k - c.k) > SNAPSHOT / 2) {
    const s = Math.min(Math.floor(k / SNAPSHOT), m.snapshots.length - 1);
    c.open = new Set(m.snapshots[s]);
    c.k = s * SNAPSHOT;
  }
  while (c.k < k) forward(m, c.open, c.k++);
  while (c.k > k) backward(m, c.open, --c.k);
  return c.open;
}

function f(m, i) {
  return m.g[i] + m.weight * m.h[i];
}

/**
 * The open list's order, as the library's: least f, then larger g, then (its `ties`) the node
 * generated last, or the node whose state was reached first; one number a node.
 */
function orderKeys(m) {
  const key = new Float64Array(m.n);
  const seen = new Int32Array(m.n);
  for (let i = 0; i < m.n; i++) {
    // a node that replaced another holds its state's place
    seen[i] = m.replaced[i] >= 0 ? seen[m.replaced[i]] : i;
    const tie = m.ties === 'last-generated' ? 999999 - i : seen[i];
    key[i] = (f(m, i) * 1e4 + (9999 - m.g[i])) * 1e6 + tie;
  }
  return key;
}

function before(m, a, b) {
  return m.key[a] - m.key[b];
}

/** The first `count` of `open` in A*'s order, without sorting all of it. */
function topOf(m, open, count) {
  const best = [];
  const key = m.key;
  let worst = Infinity;
  for (const id of open) {
    const k = key[id];
    if (k >= worst) continue;
    if (best.length === count) best.pop();
    let i = best.length;
    while (i > 0 && key[best[i - 1]] > k) i--;
    best.splice(i, 0, id);
    if (best.length === count) worst = key[best[count - 1]];
  }
  return best;
}

/** The board of node `i`: its parent's with its move made (kept for the nodes asked about). */
function boardOf(m, i) {
  const hit = m.boards.get(i);
  if (hit) return hit;
  const chain = [];
  let at = i;
  while (at > 0 && !m.boards.has(at)) {
    chain.push(at);
    at = m.parent[at];
  }
  let b = at === 0 ? m.start : m.boards.get(at);
  for (let x = chain.length - 1; x >= 0; x--) {
    b = applyMoves(b, m.cols, m.move[chain[x]]);
    if (m.boards.size < 5000) m.boards.set(chain[x], b);
  }
  return b;
}

/** Trees up to this many nodes are laid out afresh at each step (labels stay readable while the
 * tree is small); bigger ones keep the whole run's layout, so nodes stay put as the steps go. */
const RELAYOUT = 4000;

/**
 * Lays out the tree of the first `k` steps (or of the whole run): y is g; leaves take the next
 * slot from the left in depth-first order and a parent sits over its children, so no two edges
 * cross.
 */
function layout(m, k = m.steps) {
  const kids = new Map();
  for (let s = 0; s < k; s++) {
    const list = [];
    for (let j = m.first[s]; j < m.first[s] + m.count[s]; j++) list.push(j);
    kids.set(m.expand[s], list);
  }
  return layoutKids(m, kids);
}

/** Lays out the tree under the start whose children are `kids` (node -> its children, in order). */
function layoutKids(m, kids) {
  const x = new Float32Array(m.n);
  let slots = 0;
  let depth = 1;
  // iterative post-order: a stack of [node, next child index]
  const stack = [[0, 0]];
  while (stack.length) {
    const top = stack[stack.length - 1];
    const ch = kids.get(top[0]);
    if (m.g[top[0]] > depth) depth = m.g[top[0]];
    if (!ch || !ch.length) {
      x[top[0]] = slots++;
      stack.pop();
    } else if (top[1] < ch.length) {
      stack.push([ch[top[1]++], 0]);
    } else {
      x[top[0]] = (x[ch[0]] + x[ch[ch.length - 1]]) / 2;
      stack.pop();
    }
  }
  return { x, slots: Math.max(1, slots), depth, kids };
}

/** The layout to draw step `k` with. */
function layoutAt(m, k) {
  if (generatedAt(m, k) > RELAYOUT) {
    if (!m.whole) m.whole = layout(m);
    return m.whole;
  }
  if (!m.small || m.small.k !== k) m.small = { k, ...layout(m, k) };
  return m.small;
}

/** The nodes generated after `k` steps. */
function generatedAt(m, k) {
  return k === 0 ? 1 : m.first[k - 1] + m.count[k - 1];
}

// ---- a run's view -----------------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}


function makeView(m, index) {
  const suffix = index === 0 ? '' : String(index + 1);
  const id = (name) => `astar-${name}${suffix}`;
  const root = el('div', { class: 'astar-one' });
  const title = el('h2', { text: `${m.kind === 'idastar' ? 'IDA*' : 'A*'} with ${heuristicName(m.heuristic)}` });
  const summary = el('p', { id: id('summary') });
  const counts = el('p', { id: id('counts'), class: 'counts' });
  const tally = el('p', { id: id('tally'), class: 'tally' });
  const now = el('p', { id: id('now'), class: 'quiet' });
  const openBody = el('tbody', { id: id('open') });
  const head = el('tr');
  for (const t of ['node', 'board', 'g', 'h', 'f', 'h*', 'class']) head.append(el('th', { scope: 'col', text: t, ...(t === 'board' ? { class: 'col-board' } : {}) }));
  const table = el('table', { class: 'grid open-list' }, el('caption', { text: m.kind === 'idastar' ? 'The path being searched (the depth-first stack), root first' : "The open list, in A*'s order: the first is expanded next" }), el('thead', {}, head), openBody);
  const more = el('p', { id: id('more'), class: 'quiet' });
  const canvas = el('canvas', { id: id('tree'), width: '640', height: '420', tabindex: '0', role: 'img',
    'aria-label': 'the search tree, laid out by depth g; click a node for its board and values' });
  const zoomIn = el('button', { text: 'zoom in', type: 'button' });
  const zoomOut = el('button', { text: 'zoom out', type: 'button' });
  const fit = el('button', { text: 'whole tree', type: 'button' });
  const png = el('button', { text: 'save tree as PNG', type: 'button' });
  const svg = el('button', { text: 'save table as SVG', type: 'button' });
  const detail = el('div', { id: id('node'), class: 'node-detail', 'aria-live': 'polite' });
  const treeBox = el('div', { class: 'tree-box' },
    el('h3', { text: m.kind === 'idastar' ? 'Search tree of this iteration: filled expanded, ring on the path searched now, faint cut off by the bound' : 'Search tree: filled expanded, ring open, faint dropped; black ring the last expanded' }),
    el('p', { class: 'buttons' }, zoomIn, zoomOut, fit, png, svg), canvas, detail);
  // the open list in a box of its own, scrolled by keyboard too (a focusable, named region)
  const openBox = el('div', { class: 'scroll open-scroll', tabindex: '0', role: 'region',
    'aria-label': `${title.textContent}: ${m.kind === 'idastar' ? 'the path being searched' : 'the open list'} (scrolls)` }, table);
  root.append(title, summary, counts, tally, now, openBox, more, treeBox);
  const view = { root, m, k: 0, zoom: { scale: 1, ox: 0, oy: 0 }, selected: null };
  const dims = () => ({ w: canvas.width, h: canvas.height, pad: 16 });
  const toScreen = (i) => {
    const { w, h, pad } = dims();
    const z = view.zoom;
    const L = view.layout || { x: new Float32Array(m.n), slots: 1, depth: 1 };
    const sx = ((w - 2 * pad) / L.slots) * z.scale;
    const sy = ((h - 2 * pad - footRoom()) / L.depth) * rowZoom(z.scale);
    return [pad + (L.x[i] + 0.5) * sx - z.ox, pad + m.g[i] * sy - z.oy, sx, sy];
  };
  view.toScreen = toScreen;
  const zoomAt = (factor, cx, cy) => {
    const z = view.zoom;
    const before = z.scale;
    z.scale = Math.max(1, Math.min(Math.max(1, (view.layout ? view.layout.slots : 1) / 2), z.scale * factor));
    const k = z.scale / before;
    z.ox = (z.ox + cx) * k - cx;
    // the rows spread too (a deep tree in a short box: its levels readable)
    z.oy = rowZoom(z.scale) === rowZoom(before) ? z.oy : (z.oy + cy) * rowZoom(z.scale) / rowZoom(before) - cy;
    if (z.scale === 1) {
      z.ox = 0;
      z.oy = 0;
    }
    drawTree(view);
  };
  zoomIn.addEventListener('click', () => zoomAt(2, canvas.width / 2, canvas.height / 3));
  zoomOut.addEventListener('click', () => zoomAt(0.5, canvas.width / 2, canvas.height / 3));
  fit.addEventListener('click', () => {
    view.zoom = { scale: 1, ox: 0, oy: 0 };
    drawTree(view);
  });
  png.addEventListener('click', () => {
    // the picture says what it shows: the search, the heuristic, the board and the step, and
    // its key, wrapped to its width; at least 640 wide (a phone's tree is drawn again at that
    // size, not cut); twice the pixels of the screen: sharp on a projector
    const S = 2;
    const [w, h] = [canvas.width, canvas.height];
    const [ew, eh] = w >= 640 ? [w, h] : [640, 420];
    const font = (px, bold) => `${bold ? 'bold ' : ''}${px}px system-ui, "DejaVu Sans", sans-serif`;
    const measure = document.createElement('canvas').getContext('2d');
    const heading = `${title.textContent}, board ${m.start.join(' ')}, step ${view.k}`;
    const key = m.kind === 'idastar' ? 'filled: expanded; ring: on the path searched now; faint: cut off by the bound; green: the path'
      : `filled: expanded; ring: open; faint: dropped; black ring: the last expanded${view.k === m.steps && m.solution ? '; green: the solution' : ''}`;
    measure.font = font(14, true);
    const headLines = wrapText(measure, heading, ew - 12);
    measure.font = font(12);
    const keyLines = wrapText(measure, key, ew - 12);
    const top = 12 + headLines.length * 18 + keyLines.length * 16;
    const out = document.createElement('canvas');
    out.width = ew * S;
    out.height = (eh + top) * S;
    const ctx = out.getContext('2d');
    ctx.scale(S, S);
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, ew, eh + top);
    ctx.fillStyle = '#111';
    ctx.font = font(14, true);
    headLines.forEach((line, q) => ctx.fillText(line, 6, 19 + q * 18));
    // the key, as the heading above the tree on the page says it
    ctx.font = font(12);
    ctx.fillStyle = '#333';
    keyLines.forEach((line, q) => ctx.fillText(line, 6, 19 + headLines.length * 18 + q * 16));
    // the tree without the on-screen hint about zooming, which means nothing on a slide
    view.exporting = true;
    view.exportScale = S;
    canvas.width = ew * S;
    canvas.height = eh * S;
    drawTree(view);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(canvas, 0, top * S);
    view.exporting = false;
    canvas.width = w;
    canvas.height = h;
    drawTree(view);
    downloadCanvas(out, `${m.kind}-${m.heuristic}-step-${view.k}.png`);
  });
  svg.addEventListener('click', () => download(`astar-${m.heuristic}-step-${view.k}.svg`, 'image/svg+xml', tableSvgOf(view)));
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    zoomAt(e.deltaY < 0 ? 1.25 : 0.8, ((e.clientX - r.left) * canvas.width) / r.width, ((e.clientY - r.top) * canvas.height) / r.height);
  }, { passive: false });
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY, ox: view.zoom.ox, oy: view.zoom.oy, moved: false };
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const r = canvas.getBoundingClientRect();
    const k = canvas.width / r.width;
    const dx = (e.clientX - drag.x) * k;
    const dy = (e.clientY - drag.y) * k;
    if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
    if (drag.moved && view.zoom.scale > 1) {
      view.zoom.ox = drag.ox - dx;
      view.zoom.oy = drag.oy - dy;
      drawTree(view);
    }
  });
  canvas.addEventListener('pointerup', (e) => {
    const moved = drag && drag.moved;
    drag = null;
    if (moved) return;
    const r = canvas.getBoundingClientRect();
    const x = ((e.clientX - r.left) * canvas.width) / r.width;
    const y = ((e.clientY - r.top) * canvas.height) / r.height;
    const hit = nearest(view, x, y);
    if (hit !== null) select(view, hit);
  });
  canvas.addEventListener('keydown', (e) => {
    // the keyboard walks the tree: up to the parent, down to the first child, left and right among siblings
    const cur = view.selected ?? (m.kind === 'astar' && view.k > 0 ? m.expand[view.k - 1] : 0);
    let to = null;
    if (e.key === 'ArrowUp' && cur > 0) to = m.parent[cur];
    else if (e.key === 'ArrowDown') to = firstChild(view, cur);
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') to = sibling(view, cur, e.key === 'ArrowLeft' ? -1 : 1);
    else if (e.key === '+' || e.key === '=') zoomAt(2, canvas.width / 2, canvas.height / 3);
    else if (e.key === '-') zoomAt(0.5, canvas.width / 2, canvas.height / 3);
    else return;
    e.preventDefault();
    if (to !== null && to >= 0) select(view, to);
  });
  view.parts = { summary, counts, tally, now, openBody, more, canvas, detail, table };
  view.show = (k) => (m.kind === 'idastar' ? showIda(view, k) : showAstar(view, k));
  // in practice mode the length found is an answer too (with an admissible heuristic, the optimum)
  view.solText = (shown) => (m.solution ? (shown ? `found a solution of ${m.solution.length - 1} move${m.solution.length === 2 ? '' : 's'}`
    : 'found a solution (its length hidden: practice)') : m.answer.capped
    ? `stopped after ${m.answer.max_expansions} expansions without reaching the goal` : 'the goal cannot be reached');
  return view;
}

/** `text` cut into lines no wider than `width` in `ctx`'s font (at spaces; a longer word alone). */
function wrapText(ctx, text, width) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(next).width > width) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function answers() {
  return app.answers();
}

function fmt(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

function className(m, i) {
  return ['must', 'may', 'never'][m.cls[i]];
}

function showAstar(view, k) {
  const m = view.m;
  view.k = k;
  const p = view.parts;
  const shown = answers();
  const done = k === m.steps && m.solution;
  const open = openAt(m, k);
  const optimal = m.solution && m.solution.length - 1 === m.cStar;
  p.summary.textContent = `C* = ${shown ? m.cStar : 'hidden (practice)'}. ${m.steps} expansion${m.steps === 1 ? '' : 's'}, ${m.answer.generated} node${m.answer.generated === 1 ? '' : 's'} generated; `
    + `${view.solText(shown)}${m.solution && shown ? (optimal ? ' (optimal)' : ` (the optimum is ${m.cStar})`) : ''}.`;
  const closed = k;
  const openCount = open.size - (done ? 1 : 0);
  p.counts.replaceChildren(...[`open: ${openCount}`, `closed (expanded): ${closed}`, `generated: ${generatedAt(m, k)}`]
    .map((t) => el('span', { text: t })));
  p.counts.dataset.open = String(openCount);
  p.counts.dataset.closed = String(closed);
  if (shown) {
    const [a, b, c] = m.tally.map((t) => t[k]);
    p.tally.replaceChildren(el('span', { class: 'must', text: `must ${a}` }), ' ', el('span', { class: 'may', text: `may ${b}` }), ' ',
      el('span', { class: 'never', text: `never ${c}` }), ` of the ${k} expanded`);
    Object.assign(p.tally.dataset, { must: String(a), may: String(b), never: String(c) });
  } else {
    p.tally.textContent = 'must / may / never: hidden (practice)';
  }
  // what step k did: the node it expanded and its children; at the last step, then, the goal
  // taken off the open list
  let did = '';
  if (k > 0) {
    const e = m.expand[k - 1];
    const parts = [];
    for (let j = m.first[k - 1]; j < m.first[k - 1] + m.count[k - 1]; j++) {
      const s = LETTER_STATUS[m.status[j]];
      const what = {
        new: 'added to the open list',
        better: `replaces node ${m.replaced[j]} on the open list (a shorter path to its state)`,
        reopened: `reopens the state node ${m.replaced[j]} expanded (a shorter path to it)`,
        worse: 'dropped (its state is open by a path as short)',
        closed: 'dropped (its state was expanded by a path as short)',
      }[s];
      parts.push(`node ${j} ${what}`);
    }
    did = `Step ${k} expanded node ${e} (f = ${fmt(f(m, e))}): ${parts.join('; ')}.`;
  }
  if (done) {
    p.now.textContent = `${did ? `${did} Then the` : `Step ${k}: the`} goal (node ${m.solution[m.solution.length - 1]}) is taken off the open list: the search ends. The solution path is drawn in green.`;
  } else if (k > 0) {
    p.now.textContent = did;
  } else {
    p.now.textContent = 'Before the first step: the open list holds the start alone.';
  }
  const top = topOf(m, open, SHOWN + (done ? 1 : 0)).filter((i) => !(done && i === m.solution[m.solution.length - 1])).slice(0, SHOWN);
  fillRows(view, top, !done);
  p.more.textContent = openCount > SHOWN ? `and ${openCount - SHOWN} more on the open list` : '';
  drawTree(view);
  if (view.selected !== null) detail(view, view.selected);
}

/** Shows `ids` in the open-list table, reusing its rows (a step changes their text, not the table). */
function fillRows(view, ids, firstIsNext) {
  const m = view.m;
  const body = view.parts.openBody;
  const shown = answers();
  while (body.rows.length > ids.length) body.lastChild.remove();
  while (body.rows.length < ids.length) {
    const tr = el('tr');
    for (let c = 0; c < 7; c++) tr.append(el('td', c >= 2 && c <= 5 ? { class: 'num' } : c === 1 ? { class: 'col-board' } : {}));
    tr.addEventListener('click', () => select(view, Number(tr.dataset.node)));
    body.append(tr);
  }
  ids.forEach((i, r) => {
    const tr = body.rows[r];
    const cls = shown ? className(m, i) : '';
    const next = r === 0 && firstIsNext;
    tr.className = `${cls}${next ? ' next' : ''}`.trim();
    tr.title = next ? 'expanded next' : '';
    if (tr.dataset.node === String(i)) {
      tr.cells[5].textContent = shown ? (m.hstar[i] < 0 ? '?' : String(m.hstar[i])) : 'hidden';
      tr.cells[6].textContent = shown ? cls : 'hidden';
      return;
    }
    tr.dataset.node = String(i);
    const cells = [String(i), null, String(m.g[i]), String(m.h[i]), fmt(f(m, i)), shown ? (m.hstar[i] < 0 ? '?' : String(m.hstar[i])) : 'hidden', shown ? cls : 'hidden'];
    cells.forEach((v, c) => {
      if (c === 1) tr.cells[1].replaceChildren(miniBoard(boardOf(m, i), m.cols, { size: 1.05, title: `node ${i}` }));
      else tr.cells[c].textContent = v;
    });
  });
}

function tableSvgOf(view) {
  const rows = [...view.parts.openBody.querySelectorAll('tr')].map((tr) => {
    const i = Number(tr.dataset.node);
    const m = view.m;
    const board = boardOf(m, i).map((t) => (t === 0 ? '_' : t)).join(' ');
    return [...tr.children].map((td, c) => (c === 1 ? board : td.textContent));
  });
  const head = ['node', 'board', 'g', 'h', 'f', 'h*', 'class'];
  const more = view.parts.more.textContent ? ` (${view.parts.more.textContent})` : '';
  return tableSvg(head, rows, { title: `${view.m.kind === 'idastar' ? 'IDA*' : 'A*'} with ${heuristicName(view.m.heuristic)} on ${view.m.start.join(' ')}, ${view.parts.summary.textContent.split('.')[0]}, step ${view.k}${more}` });
}

/** Where node `i` stands after step k of an A* run. */
function fate(view, i) {
  const m = view.m;
  const k = view.k;
  if (m.kind === 'idastar') return idaFate(view, i);
  if (i >= generatedAt(m, k)) return 'not generated yet';
  if (m.expandedAt[i] >= 0 && m.expandedAt[i] < k) return `expanded at step ${m.expandedAt[i] + 1}`;
  if (m.cur.open.has(i)) return k === m.steps && m.solution && i === m.solution[m.solution.length - 1] ? 'the goal, taken: the search ends' : 'on the open list';
  const s = LETTER_STATUS[m.status[i]];
  if (s === 'closed') return 'dropped: its state was already expanded by a path as short';
  if (s === 'worse') return 'dropped: its state was open by a path at least as short';
  return 'left the open list: a shorter path to its state replaced it';
}

function select(view, i) {
  view.selected = i;
  detail(view, i);
  drawTree(view);
}

function detail(view, i) {
  const m = view.m;
  const box = view.parts.detail;
  if (i >= m.n) return;
  const shown = answers();
  const vals = `node ${i}${i > 0 ? ` (child of ${m.parent[i]}, the blank moved ${m.move[i]})` : ' (the start)'}: `
    + `g = ${m.g[i]}, h = ${m.h[i]}, f = ${fmt(f(m, i))}, h* = ${shown ? (m.hstar[i] < 0 ? '?' : m.hstar[i]) : 'hidden'}`
    + `${shown && m.cls ? `, ${className(m, i)}` : ''}; ${fate(view, i)}.`;
  box.replaceChildren(miniBoard(boardOf(m, i), m.cols, { size: 1.5, title: `node ${i}` }), el('p', { text: vals }));
}

function nearest(view, x, y) {
  const m = view.m;
  const n = view.m.kind === 'idastar' ? view.visible : generatedAt(m, view.k);
  let best = null;
  let bestD = 14 * 14;
  const limit = view.m.kind === 'idastar' ? view.visibleIds : null;
  const consider = (i) => {
    const [px, py] = view.toScreen(i);
    const d = (px - x) ** 2 + (py - y) ** 2;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  };
  if (limit) limit.forEach(consider);
  else for (let i = 0; i < n; i++) consider(i);
  return best;
}

function firstChild(view, i) {
  const m = view.m;
  if (m.kind === 'idastar') {
    const first = (view.layout.kids.get(i) || [])[0];
    return first !== undefined && first <= view.k ? first : null;
  }
  const k = m.expandedAt[i];
  return k >= 0 && k < view.k && m.count[k] ? m.first[k] : null;
}

function sibling(view, i, d) {
  const m = view.m;
  if (i === 0) return null;
  const p = m.parent[i];
  const list = m.kind === 'idastar' ? (view.layout.kids.get(p) || []).filter((j) => j <= view.k) : (() => {
    const k = m.expandedAt[p];
    const out = [];
    for (let j = m.first[k]; j < m.first[k] + m.count[k]; j++) out.push(j);
    return out;
  })();
  const at = list.indexOf(i);
  const to = list[at + d];
  return to === undefined ? null : to;
}

/** The colours of the groups a tree node is drawn in, as 0xAABBGGRR (the canvas's bytes). */
function abgr(hex) {
  const n = parseInt(hex.slice(1), 16);
  return (0xff << 24 | (n & 0xff) << 16 | (n & 0xff00) | (n >> 16)) >>> 0;
}
const CLASSES = ['must', 'may', 'never', 'plain'];
const STATES = ['closed', 'open', 'dropped'];

/** How much a zoom of `scale` (sideways) spreads the tree's rows: a little less, from x2 on. */
const rowZoom = (scale) => Math.max(1, scale * 0.75);

/** The room under the tree's last row: its labels, then the line about zooming. */
const footRoom = () => (presenting() ? 84 : 50);

/**
 * Sizes the tree's canvas to the room it has, in CSS pixels (640 by 420 at most; taller than
 * wide on a phone), so that its labels are drawn at their size, not shrunk with the canvas.
 */
function fitTree(c) {
  const room = c.parentElement ? c.parentElement.clientWidth : 0;
  // presentation mode takes all the room there is (a projector's width), for a class to read
  const most = presenting() ? 1400 : 640;
  const w = room > 0 ? Math.max(260, Math.min(most, Math.floor(room))) : 640;
  // taller than wide on a phone; else about two thirds as tall as wide, within the window
  let h = w < 520 ? Math.round(w * 1.2) : w <= 640 ? 420
    : Math.max(420, Math.min(Math.round(w * 0.66), Math.round(window.innerHeight * 0.8)));
  // (a projector's screen; presentation mode on a phone keeps the phone's layout)
  if (presenting() && window.innerWidth >= 900) {
    h = stageHeight(c, w);
  } else if (c.closest('.astar-pair')) {
    // out of presentation mode the open list's box takes its usual height again
    for (const box of c.closest('.astar-pair').querySelectorAll('.open-scroll')) box.style.height = '';
  }
  if (!(c.width === w && c.height === h && c.style.width)) {
    c.width = w;
    c.height = h;
    c.style.width = `${w}px`;
    c.style.height = `${h}px`;
  }
  return room > 0;
}

/**
 * In presentation mode, the tree's height: what is left of the window under the step controls
 * once they are scrolled to its top, so that the controls, the open list and the tree are seen
 * together on a projector. The open list of a single run (beside the tree) takes the same height.
 */
function stageHeight(c, w) {
  const controls = document.querySelector('.step-controls').getBoundingClientRect();
  const top = c.getBoundingClientRect().top - controls.top;
  const h = Math.max(220, Math.min(Math.round(w * 0.9), Math.floor(window.innerHeight - top - 8)));
  const one = c.closest('.astar-pair:not(.two)');
  if (one) {
    for (const box of one.querySelectorAll('.open-scroll')) {
      const t = box.getBoundingClientRect().top - controls.top;
      box.style.height = `${Math.max(160, Math.floor(window.innerHeight - t - 60))}px`;
    }
  } else {
    for (const box of c.closest('.astar-pair').querySelectorAll('.open-scroll')) box.style.height = '';
  }
  return h;
}

/** Whether the page is in presentation mode (large type for a projector). */
function presenting() {
  return document.body.classList.contains('present');
}

/** Counts the window's resizes: a tree measures its room again after one (not at every step:
 * reading the room forces a layout, a few milliseconds a step). */
let resizes = 0;

function drawTree(view) {
  const m = view.m;
  if (m.kind === 'astar') view.layout = layoutAt(m, view.k);
  const c = view.parts.canvas;
  if (!view.exporting && view.fitted !== resizes) view.fitted = fitTree(c) ? resizes : null;
  const ctx = c.getContext('2d');
  // drawn in the canvas's CSS pixels; an export for slides has S device pixels to one
  const S = view.exporting && view.exportScale ? view.exportScale : 1;
  const W = c.width / S;
  const H = c.height / S;
  ctx.setTransform(S, 0, 0, S, 0, 0);
  const shown = answers();
  const ids = m.kind === 'idastar' ? view.visibleIds : null;
  const n = ids ? ids.length : generatedAt(m, view.k);
  const at = ids ? (x) => ids[x] : (x) => x;
  // the transform from layout to canvas, once for the drawing
  const L = view.layout;
  const z = view.zoom;
  const pad = 16;
  const sx = ((W - 2 * pad) / L.slots) * z.scale;
  const sy = ((H - 2 * pad - footRoom()) / L.depth) * rowZoom(z.scale);
  const X = (i) => pad + (L.x[i] + 0.5) * sx - z.ox;
  const Y = (i) => pad + m.g[i] * sy - z.oy;
  const big = n > 3000 && sx < 3;
  const open = m.kind === 'astar' ? m.cur.open : null;
  const stateOf = (i) => (m.kind === 'idastar' ? STATES.indexOf(idaState(view, i))
    : m.expandedAt[i] >= 0 && m.expandedAt[i] < view.k ? 0 : open.has(i) || (i === 0 && view.k === 0) ? 1 : 2);
  const clsOf = (i) => (shown ? m.cls[i] : 3);
  const big2 = presenting();
  const r = Math.max(1.5, Math.min(big2 ? 11 : 8, sx / 2.5, sy / 3));
  if (big) {
    // tens of thousands of nodes: two pixels each, written straight into an image kept between
    // drawings (no paths to rasterize), at offsets kept while the layout and the zoom stay
    // in device pixels (an image ignores the transform)
    const PW = c.width;
    const PH = c.height;
    const sig = `${PW}x${PH}|${L.slots}|${L.depth}|${z.scale}|${z.ox}|${z.oy}|${ids ? view.k : ''}`;
    if (!view.pixels || view.pixels.sig !== sig) {
      const img = ctx.createImageData(PW, PH);
      const offset = new Int32Array(m.n).fill(-1);
      for (let x = 0; x < n; x++) {
        const i = at(x);
        const px = Math.round(X(i) * S);
        const py = Math.round(Y(i) * S);
        if (px >= 0 && px < PW - 1 && py >= 0 && py < PH - 1) offset[i] = py * PW + px;
      }
      view.pixels = { sig, img, buf: new Uint32Array(img.data.buffer), offset, upTo: n };
    }
    const { img, buf, offset } = view.pixels;
    if (view.pixels.upTo < n) {
      for (let x = view.pixels.upTo; x < n; x++) {
        const i = at(x);
        const px = Math.round(X(i) * S);
        const py = Math.round(Y(i) * S);
        if (px >= 0 && px < PW - 1 && py >= 0 && py < PH - 1) offset[i] = py * PW + px;
      }
      view.pixels.upTo = n;
    }
    buf.fill(0xffffffff);
    const colour = CLASSES.map((k) => abgr(COLOUR[k]));
    const faint = abgr('#ced4da');
    for (let x = 0; x < n; x++) {
      const i = at(x);
      const o = offset[i];
      if (o < 0) continue;
      const st = stateOf(i);
      const col = st === 2 ? faint : colour[clsOf(i)];
      buf[o] = col;
      if (st !== 2) {
        buf[o + 1] = col;
        buf[o + PW] = col;
        buf[o + PW + 1] = col;
      }
    }
    ctx.putImageData(img, 0, 0);
  } else {
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, W, H);
    // the edges darker on a projector, whose washed-out greys vanish
    ctx.strokeStyle = presenting() ? '#868e96' : '#ced4da';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let x = 1; x < n; x++) {
      const i = at(x);
      const x1 = X(m.parent[i]);
      const x2 = X(i);
      if ((x1 < -50 && x2 < -50) || (x1 > W + 50 && x2 > W + 50)) continue;
      ctx.moveTo(x1, Y(m.parent[i]));
      ctx.lineTo(x2, Y(i));
    }
    ctx.stroke();
    // one path a group (state and class), filled or stroked once
    const groups = [];
    for (let x = 0; x < n; x++) {
      const i = at(x);
      const px = X(i);
      const py = Y(i);
      if (px < -10 || px > W + 10 || py < -10 || py > H + 10) continue;
      const g = stateOf(i) * 4 + clsOf(i);
      (groups[g] || (groups[g] = [])).push(px, py);
    }
    groups.forEach((pts, g) => {
      if (!pts) return;
      const st = Math.floor(g / 4);
      const colour = COLOUR[CLASSES[g % 4]];
      ctx.beginPath();
      for (let q = 0; q < pts.length; q += 2) {
        ctx.moveTo(pts[q] + r, pts[q + 1]);
        ctx.arc(pts[q], pts[q + 1], r, 0, 2 * Math.PI);
      }
      if (st === 0) {
        ctx.fillStyle = colour;
        ctx.fill();
      } else if (st === 1) {
        ctx.fillStyle = '#fff';
        ctx.fill();
        ctx.strokeStyle = colour;
        ctx.lineWidth = 2.5;
        ctx.stroke();
      } else {
        ctx.strokeStyle = '#ced4da';
        ctx.lineWidth = 1;
        ctx.stroke();
      }
    });
  }
  // the solution, once reached (for IDA*, the path searched now), and the node just expanded
  const path = m.kind === 'idastar' ? view.path : view.k === m.steps && m.solution ? m.solution : null;
  if (path && path.length > 1) {
    // green, as the page's optimal moves are: the tree's orange-brown is "may"
    ctx.strokeStyle = PATH_COLOUR;
    ctx.lineWidth = 4;
    // round joins and caps: a mitred join at a sharp bend spikes far past the node
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    ctx.beginPath();
    path.forEach((i, q) => (q === 0 ? ctx.moveTo(X(i), Y(i)) : ctx.lineTo(X(i), Y(i))));
    ctx.stroke();
  }
  const ring = (i, colour, width, extra) => {
    ctx.beginPath();
    ctx.arc(X(i), Y(i), r + extra, 0, 2 * Math.PI);
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.stroke();
  };
  const last = m.kind === 'idastar' ? view.current : view.k > 0 ? m.expand[view.k - 1] : null;
  if (last !== null && last !== undefined) ring(last, '#000', 2, 3);
  if (view.selected !== null && view.selected < m.n) ring(view.selected, '#e8590c', 3, 5);
  // labels, where there is room for them: f, and the node's id under it
  if (sx >= (big2 ? 46 : 26) && sy >= (big2 ? 52 : 30)) {
    ctx.font = `${big2 ? 18 : 11}px system-ui, "DejaVu Sans", sans-serif`;
    ctx.textAlign = 'center';
    ctx.fillStyle = '#222';
    for (let x = 0; x < n; x++) {
      const i = at(x);
      const px = X(i);
      const py = Y(i);
      if (px < -20 || px > W + 20 || py < -20 || py > H + 20) continue;
      const lh = big2 ? 19 : 11;
      ctx.fillText(`f ${fmt(f(m, i))}`, px, py + r + 5 + lh);
      ctx.fillText(`#${i}`, px, py + r + 5 + 2 * lh);
    }
  }
  ctx.textAlign = 'left';
  // the line at the foot stays readable under a zoomed tree
  ctx.fillStyle = '#fff';
  const footH = big2 ? 28 : 20;
  ctx.fillRect(0, H - footH, W, footH);
  ctx.font = `${big2 ? 18 : 12}px system-ui, "DejaVu Sans", sans-serif`;
  ctx.fillStyle = '#495057';
  if (view.exporting) {
    ctx.fillText('g = 0 at the top, one row per move', 6, H - 6);
    return;
  }
  // the longest of these that fits the width (a projector's large lettering in a half-width tree)
  const foot = ['g = 0 at the top, one row per move; scroll or use the buttons to zoom', 'g = 0 at the top; the buttons zoom',
    'g = 0 at the top'].find((t) => ctx.measureText(t).width <= W - 12) || 'g = 0 at the top';
  ctx.fillText(z.scale > 1 ? `zoom x${z.scale.toFixed(1)}: drag to pan` : foot, 6, H - 6);
}

// ---- IDA* -------------------------------------------------------------------------------------

/**
 * A recorded IDA* run: per node (numbered in the order generated, which is depth-first order)
 * its parent, move, g, h, h* and kind (`e` expanded within the bound, `c` cut off: f above it,
 * `g` the goal); the iterations, each with its bound and its nodes' ids `first..end`. A step is
 * one node generated; step 0 is the start, before the first iteration's first child.
 */
function idaModel(a, start, cols) {
  const n = a.nodes.g.length;
  const m = {
    kind: 'idastar', answer: a, start: a.start || start, cols: a.cols || cols, n, cStar: a.c_star, weight: 1,
    heuristic: a.heuristic,
    parent: Int32Array.from(a.nodes.parent, (p) => (p === null ? -1 : p)),
    move: a.nodes.move, g: Int32Array.from(a.nodes.g), h: Int32Array.from(a.nodes.h),
    hstar: Int32Array.from(a.nodes.hstar, (x) => (x === null ? -1 : x)),
    nodeKind: a.nodes.kind,
    iterations: a.iterations,
    steps: Math.max(0, n - 1),
    solution: a.solution ? a.solution.path : null,
    boards: new Map(),
  };
  classes(m);
  // which iteration each node belongs to, and the expanded and cut nodes up to each node
  m.iterOf = new Int32Array(n);
  a.iterations.forEach((it, q) => { for (let i = it.first; i < it.end; i++) m.iterOf[i] = q; });
  m.expandedUpTo = new Int32Array(n);
  m.cutUpTo = new Int32Array(n);
  for (let i = 1; i < n; i++) {
    m.expandedUpTo[i] = m.expandedUpTo[i - 1] + (m.nodeKind[i] === 'e' ? 1 : 0);
    m.cutUpTo[i] = m.cutUpTo[i - 1] + (m.nodeKind[i] === 'c' ? 1 : 0);
  }
  m.layouts = new Map();
  return m;
}

/** The tree of one iteration (the start and its nodes), laid out once: nodes stay put as it grows. */
function idaLayout(m, q) {
  if (m.layouts.has(q)) return m.layouts.get(q);
  const it = m.iterations[q];
  const kids = new Map();
  for (let i = it.first; i < it.end; i++) {
    const p = m.parent[i];
    if (!kids.has(p)) kids.set(p, []);
    kids.get(p).push(i);
  }
  const L = layoutKids(m, kids);
  m.layouts.set(q, L);
  return L;
}

/** The iteration node `k` belongs to (the first for the start). */
function iterationAt(m, k) {
  return k === 0 ? 0 : m.iterOf[k];
}

function showIda(view, k) {
  const m = view.m;
  view.k = k;
  const p = view.parts;
  const shown = answers();
  const q = iterationAt(m, k);
  const it = m.iterations[q] || { bound: m.h[0], first: 1, end: 1, expanded: 0, generated: 0, next_bound: null };
  view.layout = idaLayout(m, q);
  // the nodes of this iteration generated so far, and the path to the node of this step
  const ids = [0];
  for (let i = it.first; i <= k && i < it.end; i++) ids.push(i);
  view.visibleIds = ids;
  const path = [];
  for (let i = k; i >= 0; i = m.parent[i]) {
    path.push(i);
    if (i === 0) break;
  }
  path.reverse();
  const kind = k === 0 ? 'e' : m.nodeKind[k];
  // a node cut off by the bound was tried, not entered: the path searched ends at its parent
  // (the node keeps the black ring of the one tried last, drawn faint as cut off)
  if (kind === 'c') path.pop();
  view.path = path;
  view.current = k;
  const found = kind === 'g';
  p.summary.textContent = `C* = ${shown ? m.cStar : 'hidden (practice)'}. ${m.iterations.length} iteration${m.iterations.length === 1 ? '' : 's'}, `
    + `${m.answer.expansions} expansion${m.answer.expansions === 1 ? '' : 's'} and ${m.answer.generated} node${m.answer.generated === 1 ? '' : 's'} generated in all; ${view.solText(shown)}.`;
  const upTo = (arr) => (k === 0 ? 0 : arr[k] - (it.first > 1 ? arr[it.first - 1] : 0));
  const expandedHere = upTo(m.expandedUpTo) + 1;
  p.counts.replaceChildren(...[`iteration ${q + 1} of ${m.iterations.length}`, `bound ${it.bound}`,
    `expanded in it: ${expandedHere}`, `cut off: ${upTo(m.cutUpTo)}`, `expanded in all: ${k === 0 ? q + 1 : m.expandedUpTo[k] + q + 1}`]
    .map((t) => el('span', { text: t })));
  p.counts.dataset.iteration = String(q + 1);
  p.counts.dataset.bound = String(it.bound);
  p.tally.replaceChildren(...idaIterationList(m, q));
  const fk = m.g[k] + m.h[k];
  if (k === 0) {
    p.now.textContent = `Iteration 1 starts at the start with bound ${it.bound} = h of the start: IDA* searches depth-first every path whose f = g + h stays within the bound.`;
  } else if (found) {
    p.now.textContent = `Node ${k} is the goal, reached within bound ${it.bound}: the search ends with a solution${shown ? ` of ${m.g[k]} move${m.g[k] === 1 ? '' : 's'}` : ''} (the green path).`;
  } else if (kind === 'c') {
    p.now.textContent = `Node ${k} (g ${m.g[k]} + h ${m.h[k]} = f ${fk}) is over the bound ${it.bound}: cut off, not expanded.`
      + ` The least f cut off in this iteration becomes the next bound${it.next_bound !== null && it.next_bound !== undefined ? ` (${it.next_bound})` : ''}.`;
  } else {
    p.now.textContent = `Node ${k} (g ${m.g[k]} + h ${m.h[k]} = f ${fk}) is within the bound ${it.bound}: expanded, its children tried next, depth first.`;
  }
  if (k === it.first && q > 0) p.now.textContent = `Iteration ${q + 1} starts again from the start, bound raised to ${it.bound}. ${p.now.textContent}`;
  fillRows(view, path, false);
  p.more.textContent = '';
  drawTree(view);
  if (view.selected !== null) detail(view, view.selected);
}

/** The iterations so far: bound, expanded, generated, the next bound; the current one marked. */
function idaIterationList(m, q) {
  const list = el('span', { class: 'iterations' });
  m.iterations.slice(0, q + 1).forEach((it, i) => {
    const done = i < q;
    list.append(el('span', { class: i === q ? 'iteration now' : 'iteration', text: `bound ${it.bound}${done ? `: ${it.expanded} expanded, ${it.generated} generated, next bound ${it.next_bound}` : ' (this one)'}` }));
  });
  return [list];
}

function idaFate(view, i) {
  const m = view.m;
  if (i === 0) return 'the start, the root of every iteration';
  const q = m.iterOf[i];
  const kind = { e: 'expanded (within the bound)', c: 'cut off (f above the bound)', g: 'the goal' }[m.nodeKind[i]];
  return `iteration ${q + 1} (bound ${m.iterations[q].bound}): ${i > view.k ? 'not generated yet' : kind}`;
}

function idaState(view, i) {
  const m = view.m;
  if (view.path && view.path.includes(i)) return 'open';
  return m.nodeKind[i] === 'c' ? 'dropped' : 'closed';
}
