// The state space at a glance: the number of states at each depth (figure 3 of the 1987 report)
// with the board shown marked, and two heuristics' heat maps of h against h* over every state,
// side by side, each readable by pointer and keyboard, with a board drawn from any cell.

import { call } from './api.js';
import { downloadCanvas, heuristicName as nameOf, miniBoard } from './draw.js';

let app;
let $;
let stats = null;
let loading = null;
/** The maps drawn, left and right: each `{ answer, canvas, cell, cursor }`. */
const maps = [null, null];
let picked = null;
let drawing = false;
/** The heat-map job running for the shape shown, if any: stopped when the shape or goal changes. */
let heatJob = null;
/** The heat maps' margins (room for the axes' labels), larger in presentation mode. */
let LEFT = 48;
let TOP = 44;
const CANVASES = ['heatmap', 'heatmap2'];
const SELECTS = ['heatmap-heuristic', 'heatmap2-heuristic'];
const HIST0 = { left: 74, right: 12, top: 24, bottom: 44 };
let HIST = HIST0;

/** How much larger the charts' lettering is drawn: 1.5 in presentation mode (read from the
 * back of a room), else 1. */
function big() {
  return document.body.classList.contains('present') ? 1.5 : 1;
}

/** A font of `px` pixels (times `big()`), bold or not. */
function font(px, bold = false) {
  return `${bold ? 'bold ' : ''}${Math.round(px * big())}px system-ui, "DejaVu Sans", sans-serif`;
}

// viridis, light to dark reversed so that more states read darker on a white page
const RAMP = [[253, 231, 37], [122, 209, 81], [34, 168, 132], [42, 120, 142], [65, 68, 135], [68, 1, 84]];

function ramp(t) {
  const x = Math.max(0, Math.min(1, t)) * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(x));
  const f = x - i;
  const c = RAMP[i].map((v, k) => Math.round(v + f * (RAMP[i + 1][k] - v)));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

const fmt = (n) => n.toLocaleString('en-US');

/** The tint of the overestimating side of a heat map (h > h*). */
const OVER_TINT = '#ffe3e3';

/** A share (0 to 1) as a percentage with two significant digits below 1% (0.048%, not 0.0%). */
function share(x) {
  const p = 100 * x;
  // short of all is never shown as all: 181,438 of 181,440 is 99.999%, not 100.0%
  if (x < 1 && p.toFixed(1) === '100.0') return `${(Math.floor(p * 1000) / 1000).toFixed(3)}%`;
  if (p === 0 || p >= 1) return `${p.toFixed(1)}%`;
  return `${p.toPrecision(2)}%`;
}

export function init(a) {
  app = a;
  $ = a.$;
  app.choose($('heatmap-heuristic'), app.param('hh', 'manhattan'), 'manhattan', 'hh');
  app.choose($('heatmap2-heuristic'), app.param('hh2', 'hamming'), 'hamming', 'hh2');
  app.param('heat', '');
  app.param('hlog', '0');
  $('histogram-log').checked = app.state.panel.hlog === '1';
  $('histogram-log').addEventListener('change', () => app.setParams({ hlog: $('histogram-log').checked ? '1' : '0' }));
  const refresh = () => {
    if (stats && (stats.shape !== app.state.shape || stats.goalName !== app.state.goal)) forget();
    if (app.state.tab !== 'space') return;
    if (stats) {
      drawStats();
      for (let i = 0; i < 2; i++) if (maps[i]) paint(i);
    } else {
      loadStats().then(() => {
        // a reload (or a link) that had the maps drawn draws them again
        if (stats && app.state.panel.heat === '1' && !maps[0] && !drawing) drawHeatmaps();
      });
    }
  };
  app.onPosition(refresh);
  app.onState((state, before) => {
    if (state.tab !== before.tab || state.shape !== before.shape || state.goal !== before.goal
        || state.present !== before.present || state.practice !== before.practice || state.reveal !== before.reveal) refresh();
    const p = state.panel;
    if (p.hh !== before.panel.hh) app.choose($('heatmap-heuristic'), p.hh, 'manhattan', 'hh');
    if (p.hh2 !== before.panel.hh2) app.choose($('heatmap2-heuristic'), p.hh2, 'hamming', 'hh2');
    if (p.hlog !== before.panel.hlog) {
      $('histogram-log').checked = p.hlog === '1';
      if (stats && state.tab === 'space') drawStats();
    }
  });
  // maps already drawn follow the menus: a map never stands under another heuristic's name
  const redrawn = () => (maps[0] || maps[1]) && drawHeatmaps();
  $('heatmap-heuristic').addEventListener('change', () => {
    app.setParams({ hh: $('heatmap-heuristic').value });
    redrawn();
  });
  $('heatmap2-heuristic').addEventListener('change', () => {
    app.setParams({ hh2: $('heatmap2-heuristic').value });
    redrawn();
  });
  $('heatmap-draw').addEventListener('click', drawHeatmaps);
  CANVASES.forEach((id, i) => {
    const c = $(id);
    c.addEventListener('click', (e) => {
      const at = cellAt(i, e);
      if (!at) return;
      maps[i].cursor = at;
      pick(i, at.d, at.h, 0);
    });
    c.addEventListener('mousemove', (e) => {
      const at = cellAt(i, e);
      if (at) readout(i, at.d, at.h);
    });
    c.addEventListener('keydown', (e) => onMapKey(i, e));
    c.addEventListener('focus', () => {
      const m = maps[i];
      // a click focuses the map too: only a keyboard's focus reads the cursor's cell
      if (!m || !c.matches(':focus-visible')) return;
      if (!m.cursor) m.cursor = { d: 0, h: 0 };
      paint(i);
      readout(i, m.cursor.d, m.cursor.h);
    });
    c.addEventListener('blur', () => maps[i] && paint(i));
  });
  // drawn again for the room it has after the window changes size (a projector, a phone turned)
  let resized = null;
  window.addEventListener('resize', () => {
    clearTimeout(resized);
    resized = setTimeout(() => {
      if (app.state.tab !== 'space' || !stats) return;
      drawStats();
      for (let i = 0; i < 2; i++) if (maps[i]) paint(i);
    }, 150);
  });
  $('histogram').addEventListener('mousemove', (e) => {
    const d = depthAt(e);
    if (d !== null) histReadout(d);
  });
  $('histogram').addEventListener('keydown', (e) => {
    if (!stats) return;
    const n = stats.histogram.length;
    const cur = histCursor ?? 0;
    const to = { ArrowRight: cur + 1, ArrowLeft: cur - 1, Home: 0, End: n - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    histCursor = Math.max(0, Math.min(n - 1, to));
    drawStats();
    histReadout(histCursor);
  });
  $('example-play').addEventListener('click', async () => {
    const b = $('example-play').dataset.board;
    if (b && await app.newGame(b, { shape: $('example-play').dataset.shape })) app.showTab('play');
  });
  $('example-next').addEventListener('click', () => {
    if (picked) pick(picked.i, picked.d, picked.h, picked.skip + 1);
  });
  $('histogram-png').addEventListener('click', () => downloadCanvas(histogramPicture(), `${app.state.shape}-depths.png`));
  $('heatmap-png').addEventListener('click', () => downloadCanvas(joined(), `${app.state.shape}-heatmaps.png`));
}

let histCursor = null;

/** Drops what was drawn for another shape or goal. */
function forget() {
  // a big map of the board left is of no use now: its job stops, and its progress line goes
  if (heatJob) heatJob.abort();
  heatJob = null;
  stats = null;
  maps[0] = null;
  maps[1] = null;
  picked = null;
  histCursor = null;
  for (const id of CANVASES) $(id).hidden = true;
  $('heatmap-legend').hidden = true;
  $('example').hidden = true;
  $('heatmap-png').disabled = true;
  for (const id of ['stats-summary', 'stats-here', 'stats-readout', 'heatmap-summary', 'heatmap2-summary', 'heatmap-time', 'heatmap-readout', 'example-text']) $(id).textContent = '';
  const c = $('histogram');
  c.getContext('2d').clearRect(0, 0, c.width, c.height);
}

async function loadStats() {
  const { shape, goal } = app.state;
  // no heat maps past 12 cells (they count every state): the button says why before a click
  const shown = app.info && app.info.shapes.find((x) => x.shape === shape);
  const noMaps = Boolean(shown && shown.heatmap === false && shown.exact);
  $('heatmap-draw').disabled = noMaps;
  $('heatmap-draw').title = noMaps ? `heat maps count every state: boards of up to 12 cells (the ${shape} has ${fmt(shown.states)})` : '';
  if (noMaps) $('heatmap-time').textContent = `Heat maps count every state of the board: boards of up to 12 cells (the ${shape} has ${fmt(shown.states)}).`;
  if (!app.exact(shape)) {
    $('stats-summary').textContent = `The state space of the ${shape} board needs its perfect table: boards of up to 12 cells, `
      + 'built in memory up to 10 cells, or found in the table directory (`table build`; 2x7 and 7x2 too, at 10.9 GB each).';
    return;
  }
  const asked = `${shape}|${goal}`;
  if (loading === asked) return;
  loading = asked;
  const states = (app.info && (app.info.shapes.find((s) => s.shape === shape) || {}).states) || 0;
  if (states > 2e7 && states < 1e9) {
    $('stats-summary').textContent = `Opening the ${shape} table (built in memory at first use: about ten seconds for 3x4 and 2x6)\u2026`;
  }
  const s = await app.guard(() => call('/api/stats', { shape, goal }));
  loading = null;
  if (app.state.shape !== shape || app.state.goal !== goal) return;
  if (!s) {
    stats = null;
    $('stats-summary').textContent = `The state space of the ${shape} board needs its perfect table (up to 12 cells, built or found in the table directory).`;
    return;
  }
  stats = s;
  stats.goalName = goal;
  $('stats-summary').textContent = `${s.shape}, goal ${goal}: ${fmt(s.states)} states, `
    + `farthest ${s.max_depth} moves, mean ${s.mean.toFixed(2)}.`;
  drawStats();
}

/** Round steps for an axis from 0 to `max`: 1, 2 or 5 times a power of ten, about five of them. */
function ticks(max) {
  const raw = max / 5;
  const p = 10 ** Math.floor(Math.log10(Math.max(1, raw)));
  const step = [1, 2, 5, 10].map((k) => k * p).find((s) => s >= raw) || p * 10;
  const out = [];
  for (let v = 0; v <= max; v += step) out.push(v);
  return out;
}

function shortNum(v) {
  if (v >= 1e9) return `${+(v / 1e9).toFixed(1)}G`;
  if (v >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (v >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  return String(v);
}

function here() {
  return app.pos && app.pos.shape === stats.shape && app.answers() ? app.pos.distance : null;
}

function drawStats() {
  if (!stats) return;
  const c = $('histogram');
  // presentation mode: as wide as its column, its lettering half as large again
  const k = big();
  HIST = Object.fromEntries(Object.entries(HIST0).map(([side, v]) => [side, Math.round(v * k)]));
  const room = c.parentElement ? c.parentElement.clientWidth : 0;
  // a phone's chart drawn at the width it has, not shrunk: its lettering stays at its size
  const w = room <= 0 ? 580 : k > 1 ? Math.max(580, Math.min(1000, room)) : Math.max(280, Math.min(580, room));
  // presentation mode: no taller than the window leaves under the header and the title
  const h = k > 1 ? Math.max(300, Math.min(Math.round(w * 0.55), window.innerHeight - 190))
    : w < 580 ? Math.max(240, Math.round(w * 0.7)) : 320;
  if (c.width !== w || c.height !== h) {
    c.width = w;
    c.height = h;
  }
  const mark = drawHistogram(c.getContext('2d'), c.width, c.height);
  if (mark === null || mark === undefined) {
    $('stats-here').textContent = '';
    return;
  }
  const [n, all] = [stats.histogram[mark], within(mark)];
  $('stats-here').textContent = `The board shown is ${mark} move${mark === 1 ? '' : 's'} from the goal (orange): ${fmt(n)} `
    + `state${n === 1 ? '' : 's'} ${n === 1 ? 'has' : 'share'} its depth, `
    + `and ${fmt(all)} ${all === 1 ? 'lies' : 'lie'} within ${mark} move${mark === 1 ? '' : 's'} `
    + `(${share(all / stats.states)} of all): what a search that looks at every board up to its depth may visit.`;
}

/** The depth chart for slides: three times the screen's pixels, with a title. */
function histogramPicture() {
  const SCALE = 3;
  const c = $('histogram');
  const titleH = 30;
  const out = document.createElement('canvas');
  out.width = c.width * SCALE;
  out.height = (c.height + titleH) * SCALE;
  const ctx = out.getContext('2d');
  ctx.scale(SCALE, SCALE);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, c.width, c.height + titleH);
  ctx.fillStyle = '#111';
  ctx.font = 'bold 15px system-ui, "DejaVu Sans", sans-serif';
  ctx.textBaseline = 'alphabetic';
  ctx.fillText(`${stats.shape} (${stats.goalName}): ${fmt(stats.states)} states by distance from the goal`, 8, 21);
  ctx.translate(0, titleH);
  drawHistogram(ctx, c.width, c.height);
  return out;
}

/** Draws the depth chart, `w` by `h`, with `ctx`; the depth of the board shown (or null). */
function drawHistogram(ctx, w, h) {
  ctx.clearRect(0, 0, w, h);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, w, h);
  const n = stats.histogram.length;
  const max = Math.max(...stats.histogram);
  const plotH = h - HIST.top - HIST.bottom;
  // the height of a count: linear, or on a log scale where 1 state is a tenth of a decade above
  // the axis (the handful of boards near the goal and at the far end show)
  const log = $('histogram-log').checked;
  const decades = Math.ceil(Math.log10(Math.max(10, max)));
  const height = (v) => (log ? (v > 0 ? (plotH * (Math.log10(v) + 1)) / (decades + 1) : 0) : (plotH * v) / max);
  const bw = (w - HIST.left - HIST.right) / n;
  const mark = here();
  ctx.font = font(13);
  // the y axis: states, with round ticks and faint grid lines
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  const marks = log ? Array.from({ length: decades + 1 }, (_, k) => 10 ** k) : ticks(max);
  for (const v of marks) {
    const y = h - HIST.bottom - height(v);
    ctx.strokeStyle = '#e9ecef';
    ctx.beginPath();
    ctx.moveTo(HIST.left, y);
    ctx.lineTo(w - HIST.right, y);
    ctx.stroke();
    ctx.fillStyle = '#222';
    ctx.fillText(shortNum(v), HIST.left - 6, y);
  }
  ctx.save();
  ctx.translate(14 * big(), HIST.top + plotH / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = 'center';
  ctx.fillText(log ? 'states (log scale)' : 'states', 0, 0);
  ctx.restore();
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  const every = bw >= 24 * big() ? 1 : bw >= 12 * big() ? 2 : 5;
  stats.histogram.forEach((count, d) => {
    const bh = height(count);
    const x = HIST.left + d * bw;
    ctx.fillStyle = d === mark ? '#c2410c' : d === histCursor ? '#0b3d6b' : '#1864ab';
    ctx.fillRect(x + 0.5, h - HIST.bottom - bh, Math.max(1, bw - 2), Math.max(count ? 1 : 0, bh));
    if (d % every === 0 || d === mark) {
      ctx.fillStyle = d === mark ? '#c2410c' : '#222';
      ctx.fillText(String(d), x + bw / 2, h - HIST.bottom + 15 * big());
    }
  });
  ctx.strokeStyle = '#222';
  ctx.beginPath();
  ctx.moveTo(HIST.left, HIST.top - 6);
  ctx.lineTo(HIST.left, h - HIST.bottom);
  ctx.lineTo(w - HIST.right, h - HIST.bottom);
  ctx.stroke();
  ctx.fillStyle = '#222';
  ctx.fillText('distance from the goal (moves)', HIST.left + (w - HIST.left) / 2, h - 6 * big());
  return mark;
}

function depthAt(e) {
  if (!stats) return null;
  const c = $('histogram');
  const r = c.getBoundingClientRect();
  const x = ((e.clientX - r.left) * c.width) / r.width;
  const bw = (c.width - HIST.left - HIST.right) / stats.histogram.length;
  const d = Math.floor((x - HIST.left) / bw);
  return d >= 0 && d < stats.histogram.length ? d : null;
}

/** The states within `d` moves of the goal (depths 0 to `d`): the running total. */
function within(d) {
  let sum = 0;
  for (let k = 0; k <= d && k < stats.histogram.length; k++) sum += stats.histogram[k];
  return sum;
}

function histReadout(d) {
  const n = stats.histogram[d];
  const all = within(d);
  $('stats-readout').textContent = `distance ${d}: ${fmt(n)} state${n === 1 ? '' : 's'} (${share(n / stats.states)} of all); `
    + `within ${d} move${d === 1 ? '' : 's'}: ${fmt(all)} (${share(all / stats.states)})`;
}

/** Draws the maps asked for, side by side; big tables take seconds, said as they go. */
async function drawHeatmaps() {
  if (drawing) return;
  const t0 = performance.now();
  if (!stats) await loadStats();
  if (!stats) return;
  const names = SELECTS.map((id) => $(id).value);
  const shown = app.info && app.info.shapes.find((x) => x.shape === stats.shape);
  if (shown && shown.heatmap === false) {
    $('heatmap-time').textContent = `A heat map counts every state of the board: boards of up to 12 cells (the ${stats.shape} has ${fmt(stats.states)}).`;
    return;
  }
  drawing = true;
  const button = $('heatmap-draw');
  button.disabled = true;
  const big = stats.states > 2e6;
  // a small table's maps come in a moment; a big one's say their progress as they go
  const timer = big ? null : setInterval(() => {
    $('heatmap-time').textContent = `computing the maps of ${fmt(stats.states)} states: ${((performance.now() - t0) / 1000).toFixed(0)} s`;
  }, 500);
  if (big) $('heatmap-time').textContent = `computing the maps of ${fmt(stats.states)} states\u2026`;
  try {
    const shape = stats.shape;
    const goal = stats.goalName;
    for (let i = 0; i < 2; i++) {
      if (!names[i]) {
        maps[i] = null;
        $(CANVASES[i]).hidden = true;
        $(`${CANVASES[i]}-summary`).textContent = '';
        continue;
      }
      const m = await app.guard(() => heatmapOf(names[i], shape, goal, i));
      if (!m || !stats || stats.shape !== shape) return;
      maps[i] = { answer: m, cursor: null, cell: 16 };
      summary(i);
    }
    picked = null;
    $('example').hidden = true;
    for (let i = 0; i < 2; i++) if (maps[i]) paint(i);
    const ms = performance.now() - t0;
    $('heatmap-time').textContent = `drawn in ${ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`}`;
    $('heatmap-time').dataset.ms = String(ms);
    $('heatmap-png').disabled = false;
    app.setParams({ heat: '1' });
  } finally {
    clearInterval(timer);
    drawing = false;
    button.disabled = false;
    // not drawn (cancelled, failed, or the board left): no progress line stays behind
    if (/^(computing|the (left|right) map)/.test($('heatmap-time').textContent)) $('heatmap-time').textContent = '';
  }
}

/**
 * The heat map of `heuristic`: asked for at once for a small table, run as a long job with its
 * progress for a big one (3x4 and 2x6: seconds of a core the first time; kept on disk after).
 */
function heatmapOf(heuristic, shape, goal, i) {
  if (stats.states <= 2e6) return call('/api/heatmap', { heuristic, shape, goal });
  const side = ['left', 'right'][i];
  return new Promise((done, fail) => {
    let result = null;
    const job = app.job('heat map', '/api/jobs/heatmap', { heuristic, shape, goal }, (name, data) => {
      // a job of a board left says nothing more
      if (heatJob !== job) return;
      if (name === 'progress' && data.total) {
        $('heatmap-time').textContent = `computing the ${side} map: ${Math.floor((100 * data.done) / data.total)}% of `
          + `${fmt(data.total)} states, ${data.seconds.toFixed(0)} s`;
      } else if (name === 'queued') {
        $('heatmap-time').textContent = `the ${side} map waits for a free core (number ${data.position} in the queue)`;
      } else if (name === 'result') {
        result = data;
      } else if (name === 'error') {
        fail(new Error(data.error));
      }
    });
    heatJob = job;
    job.done.then((aborted) => {
      const left = heatJob !== job;
      if (!left) heatJob = null;
      // stopped because the board was left: nothing to say
      if (left && !result) done(null);
      else if (result) done(result);
      else fail(new Error(aborted ? 'the heat map was cancelled' : 'the heat map stopped without a result'));
    }, fail);
  });
}

/** A map's heuristic as the menus name it. */
function heuristicName(a) {
  return nameOf(a.heuristic);
}

function summary(i) {
  const m = maps[i].answer;
  const over = m.overestimates;
  $(`${CANVASES[i]}-summary`).textContent = `${m.label}: exact (h = h*) on ${share(m.exact_share)} of the `
    + `${fmt(m.states)} states; mean error h* \u2212 h = ${m.mean_error.toFixed(2)}; `
    + `overestimates (h > h*) on ${fmt(over)} states${over ? ': not admissible' : ''}.`;
}

/** The largest count over both maps, so their colours mean the same. */
function maxCount() {
  let max = 1;
  for (const m of maps) if (m) for (const r of m.answer.counts) for (const n of r) if (n > max) max = n;
  return max;
}

/**
 * Draws map `i` on its canvas, or with `into` ({ ctx, x, y }: a picture for slides) at that place
 * of another canvas, with the cell size on screen; its width and height.
 */
function paint(i, into = null) {
  const m = maps[i];
  const a = m.answer;
  const rows = a.counts.length;
  // each map as wide as its own estimates go (Nilsson's reach past 60, misplaced tiles stop at
  // 8), its cells as wide as that allows; the rows (h*) as tall in both maps, so that a row
  // reads across from one to the other
  const colsOf = (mm) => Math.max(mm.answer.counts.length, ...mm.answer.counts.map((r) => r.length));
  const cols = colsOf(m);
  const c = $(CANVASES[i]);
  LEFT = Math.round(48 * big());
  TOP = Math.round(44 * big());
  if (!into) {
    const total = c.parentElement.parentElement.clientWidth || 600;
    // two maps side by side only where two fit (a phone stacks them, each the full width)
    const side = maps[0] && maps[1] && total >= 2 * 300 + 16;
    const room = Math.max(200, Math.min(560, side ? total / 2 - 16 : total - 8));
    const cwOf = (mm) => Math.max(4, Math.min(20, Math.floor((room - LEFT - 8) / colsOf(mm))));
    m.cw = cwOf(m);
    // rows no taller than lets a map fit the window (a projector's 720 px), and as tall in both
    const tall = big() > 1 ? Math.min(520, window.innerHeight - TOP - 140) : 520;
    m.ch = Math.max(5, Math.min(20, Math.floor(tall / rows), Math.max(...maps.filter(Boolean).map(cwOf))));
  }
  const { cw, ch } = m;
  const width = LEFT + cols * cw + 8;
  const height = TOP + rows * ch + 8;
  let ctx;
  if (into) {
    ctx = into.ctx;
    ctx.save();
    ctx.translate(into.x, into.y);
  } else {
    c.hidden = false;
    Object.assign(c.dataset, { left: String(LEFT), top: String(TOP), cw: String(cw), ch: String(ch) });
    c.width = width;
    c.height = height;
    // the figure as wide as its map (its caption wraps to it), never wider than the room
    if (c.parentElement) c.parentElement.style.width = `${width}px`;
    ctx = c.getContext('2d');
  }
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  const logMax = Math.log(maxCount());
  // the overestimating side (h > h*) tinted red behind the cells: each cell keeps its colour,
  // readable however small it is
  ctx.fillStyle = OVER_TINT;
  for (let d = 0; d < rows; d++) if (d + 1 < cols) ctx.fillRect(LEFT + (d + 1) * cw, TOP + d * ch, (cols - d - 1) * cw, ch);
  ctx.font = font(12);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  const everyRow = ch >= 14 ? 5 : 10;
  const everyCol = cw >= 14 ? 5 : cw >= 6 ? 10 : 20;
  for (let d = 0; d < rows; d++) {
    const y = TOP + d * ch;
    a.counts[d].forEach((n, h) => {
      if (!n) return;
      ctx.fillStyle = ramp(logMax > 0 ? Math.log(n) / logMax : 1);
      ctx.fillRect(LEFT + h * cw, y, Math.max(1, cw - 1), Math.max(1, ch - 1));
    });
    if (d % everyRow === 0) {
      ctx.fillStyle = '#222';
      ctx.fillText(String(d), LEFT - 4, y + ch / 2);
    }
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = '#222';
  for (let h = 0; h < cols; h += everyCol) ctx.fillText(String(h), LEFT + h * cw + cw / 2, TOP - 4);
  ctx.textAlign = 'left';
  ctx.font = font(13, true);
  // the axes' titles, shortened where the map is too small for the whole of them
  const fits = (texts, room) => texts.find((t) => ctx.measureText(t).width <= room) || texts[texts.length - 1];
  ctx.fillText(fits([`h, ${heuristicName(a)} \u2192`, `h, ${a.heuristic} \u2192`, 'h \u2192'], width - LEFT), LEFT, 16 * big());
  ctx.save();
  ctx.translate(16 * big(), TOP);
  ctx.rotate(Math.PI / 2);
  ctx.fillText(fits(['h*, the exact distance \u2192', 'h*, exact \u2192', 'h* \u2192'], height - TOP), 0, 0);
  ctx.restore();
  // the diagonal h = h*: exact estimates
  ctx.strokeStyle = '#000';
  ctx.lineWidth = 1.5;
  for (let d = 0; d < Math.min(rows, cols); d++) ctx.strokeRect(LEFT + d * cw - 0.5, TOP + d * ch - 0.5, cw, ch);
  const ring = (d, h, colour, lw) => {
    ctx.strokeStyle = colour;
    ctx.lineWidth = lw;
    ctx.strokeRect(LEFT + h * cw - 2, TOP + d * ch - 2, cw + 3, ch + 3);
  };
  // the board shown
  const mark = boardCell(a.heuristic);
  if (mark) {
    ring(mark.d, mark.h, '#e8590c', 3);
    ctx.beginPath();
    ctx.arc(LEFT + mark.h * cw + cw / 2, TOP + mark.d * ch + ch / 2, Math.max(3, Math.max(cw, ch) / 2 + 4), 0, 2 * Math.PI);
    ctx.stroke();
  }
  if (into) {
    ctx.restore();
    return { width, height };
  }
  if (picked && picked.i === i) ring(picked.d, picked.h, '#000', 3);
  if (m.cursor && document.activeElement === c) ring(m.cursor.d, m.cursor.h, '#1864ab', 3);
  legend();
  return { width, height };
}

/** Where the board shown falls on a map of `heuristic`: its h* and h, when both are known. */
function boardCell(heuristic) {
  const pos = app.pos;
  if (!pos || !stats || pos.shape !== stats.shape || !app.answers() || pos.distance === null) return null;
  const h = pos.heuristics.find((x) => x.name === heuristic);
  return h && h.value !== null ? { d: pos.distance, h: h.value } : null;
}

function legend() {
  const scale = $('heatmap-scale');
  const sctx = scale.getContext('2d');
  for (let x = 0; x < scale.width; x++) {
    sctx.fillStyle = ramp(x / (scale.width - 1));
    sctx.fillRect(x, 0, 1, scale.height);
  }
  $('heatmap-max').textContent = `${fmt(maxCount())} states (log scale)`;
  $('heatmap-legend').hidden = false;
}

function cellAt(i, e) {
  const m = maps[i];
  if (!m) return null;
  const c = $(CANVASES[i]);
  const r = c.getBoundingClientRect();
  // the canvas may be drawn smaller than its pixels (max-width), so scale the point back
  const x = ((e.clientX - r.left) * c.width) / r.width;
  const y = ((e.clientY - r.top) * c.height) / r.height;
  const h = Math.floor((x - LEFT) / m.cw);
  const d = Math.floor((y - TOP) / m.ch);
  if (d < 0 || h < 0 || d >= m.answer.counts.length || h > 2000) return null;
  return { d, h };
}

function describe(a, d, h) {
  const n = (a.counts[d] && a.counts[d][h]) || 0;
  const kind = h === d ? 'exact' : h > d ? `over by ${h - d}` : `short by ${d - h}`;
  return { n, text: `h* = ${d}, ${heuristicName(a)}: h = ${h} (${kind}): ${fmt(n)} state${n === 1 ? '' : 's'}` };
}

function readout(i, d, h) {
  const a = maps[i].answer;
  const here = boardCell(a.heuristic);
  const mine = here && here.d === d && here.h === h ? '; the board shown is one of them' : '';
  $('heatmap-readout').textContent = describe(a, d, h).text + mine;
}

function onMapKey(i, e) {
  const m = maps[i];
  if (!m) return;
  const cur = m.cursor || { d: 0, h: 0 };
  const rows = m.answer.counts.length;
  const cols = Math.max(rows, ...m.answer.counts.map((r) => r.length));
  const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
  if (step) {
    e.preventDefault();
    m.cursor = { d: Math.max(0, Math.min(rows - 1, cur.d + step[0])), h: Math.max(0, Math.min(cols - 1, cur.h + step[1])) };
    paint(i);
    readout(i, m.cursor.d, m.cursor.h);
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    pick(i, cur.d, cur.h, 0);
  }
}

async function pick(i, d, h, skip) {
  const m = maps[i];
  if (!m) return;
  const a = m.answer;
  const { n, text } = describe(a, d, h);
  if (!n) {
    $('heatmap-readout').textContent = `${text}: no board to show`;
    return;
  }
  const ex = await app.guard(() => call('/api/heatmap/example',
    { heuristic: a.heuristic, exact: d, h, skip: skip % n, shape: stats.shape, goal: stats.goalName }));
  if (!ex) return;
  picked = { i, d, h, skip: skip % n };
  for (let k = 0; k < 2; k++) if (maps[k]) paint(k);
  const cols = Number(stats.shape.split('x')[1]);
  const goalCells = app.pos ? app.pos.goal : null;
  $('example-board').replaceChildren(miniBoard(ex.board, cols, { size: 1.8, home: goalCells, title: 'example' }));
  $('example-text').textContent = `${text}. This board (${skip % n + 1} of ${fmt(n)}): ${ex.text}`;
  // the readout said the same of this cell: the example says it now, once
  if ($('heatmap-readout').textContent.startsWith(text)) $('heatmap-readout').textContent = '';
  $('example').hidden = false;
  // the board drawn is brought into view (it lies under the maps, below the fold of a projector
  // or a phone)
  $('example').scrollIntoView({ block: 'nearest' });
  $('example-next').hidden = n < 2;
  $('example-play').dataset.board = ex.text;
  $('example-play').dataset.shape = stats.shape;
}

/** Both maps on one canvas, for a slide. */
/**
 * The maps shown as one picture for slides: three times the pixels of the screen, with a title
 * (board, goal, heuristics, states), the colour scale and what the marks mean.
 */
function joined() {
  const SCALE = 3;
  const PAD = 16;
  const shown = [0, 1].filter((i) => maps[i] && !$(CANVASES[i]).hidden);
  const sizes = shown.map((i) => ({ width: $(CANVASES[i]).width, height: $(CANVASES[i]).height }));
  const titleH = 34;
  const keyH = 62;
  const names = shown.map((i) => heuristicName(maps[i].answer)).join(' (left) and ') + (shown.length > 1 ? ' (right)' : '');
  const title = `${stats.shape} (${stats.goalName}): h against the exact distance h*, ${names}; ${fmt(stats.states)} states`;
  const titleFont = 'bold 16px system-ui, "DejaVu Sans", sans-serif';
  const measure = document.createElement('canvas').getContext('2d');
  measure.font = titleFont;
  const width = Math.max(640, measure.measureText(title).width,
    sizes.reduce((w, s) => w + s.width, 0) + 20 * (shown.length - 1)) + 2 * PAD;
  const height = titleH + Math.max(...sizes.map((s) => s.height)) + keyH;
  const out = document.createElement('canvas');
  out.width = width * SCALE;
  out.height = height * SCALE;
  const ctx = out.getContext('2d');
  ctx.scale(SCALE, SCALE);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#111';
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'left';
  ctx.font = titleFont;
  ctx.fillText(title, PAD, 22);
  let x = PAD;
  shown.forEach((i, k) => {
    paint(i, { ctx, x, y: titleH });
    x += sizes[k].width + 20;
  });
  // the colour scale, as on the page, and the marks
  const y = titleH + Math.max(...sizes.map((s) => s.height)) + 10;
  ctx.font = '13px system-ui, "DejaVu Sans", sans-serif';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#111';
  ctx.fillText('1 state', PAD, y + 8);
  const barX = PAD + ctx.measureText('1 state').width + 8;
  for (let k = 0; k < 200; k++) {
    ctx.fillStyle = ramp(k / 199);
    ctx.fillRect(barX + k, y, 1, 16);
  }
  ctx.fillStyle = '#111';
  ctx.fillText(`${fmt(maxCount())} states (log scale)`, barX + 208, y + 8);
  const marked = shown.some((i) => boardCell(maps[i].answer.heuristic));
  ctx.fillText(`Black outline: h = h* (exact). Tinted red: h > h* (an overestimate).${marked ? ' Orange ring: the board shown.' : ''}`, PAD, y + 36);
  return out;
}

