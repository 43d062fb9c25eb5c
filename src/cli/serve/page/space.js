// The state space at a glance: the number of states at each depth (figure 3 of the 1987 report)
// with the board shown marked, and a heuristic's heat map of h against h* over every state.

import { call } from './api.js';

let app;
let $;
let stats = null;
let map = null;
let cell = 16;
let picked = null;
let loading = null;
const LEFT = 44;
const TOP = 40;

// viridis, light to dark reversed so that more states read darker on a white page
const RAMP = [[253, 231, 37], [122, 209, 81], [34, 168, 132], [42, 120, 142], [65, 68, 135], [68, 1, 84]];

function ramp(t) {
  const x = Math.max(0, Math.min(1, t)) * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(x));
  const f = x - i;
  const c = RAMP[i].map((v, k) => Math.round(v + f * (RAMP[i + 1][k] - v)));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

export function init(a) {
  app = a;
  $ = a.$;
  const refresh = () => {
    if (stats && (stats.shape !== app.state.shape || stats.goalName !== app.state.goal)) forget();
    if (app.state.tab === 'space') {
      if (stats) drawStats();
      else loadStats();
    }
  };
  app.onPosition(refresh);
  app.onState((state, before) => {
    if (state.tab !== before.tab || state.shape !== before.shape || state.goal !== before.goal
        || state.practice !== before.practice || state.reveal !== before.reveal) refresh();
  });
  $('heatmap-draw').addEventListener('click', drawHeatmap);
  $('heatmap').addEventListener('click', pick);
  $('example-play').addEventListener('click', async () => {
    const b = $('example-play').dataset.board;
    if (b && await app.newGame(b, { shape: $('example-play').dataset.shape })) app.showTab('play');
  });
}

/** Drops what was drawn for another shape or goal. */
function forget() {
  stats = null;
  map = null;
  picked = null;
  $('heatmap').hidden = true;
  $('heatmap-legend').hidden = true;
  for (const id of ['stats-summary', 'stats-here', 'heatmap-summary', 'heatmap-time', 'example-text']) $(id).textContent = '';
  $('example-play').hidden = true;
  const c = $('histogram');
  c.getContext('2d').clearRect(0, 0, c.width, c.height);
}

async function loadStats() {
  const { shape, goal } = app.state;
  const asked = `${shape}|${goal}`;
  if (loading === asked) return;
  loading = asked;
  if (!app.exact(shape)) {
    $('stats-summary').textContent = `The state space of the ${shape} board needs its perfect table: boards of up to 12 cells, `
      + 'built in memory up to 10 cells, or found in the table directory (`table build`).';
    return;
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
  $('stats-summary').textContent = `${s.shape}, goal ${goal}: ${s.states.toLocaleString('en-US')} states, `
    + `farthest ${s.max_depth} moves, mean ${s.mean.toFixed(2)}.`;
  drawStats();
}

function drawStats() {
  if (!stats) return;
  const c = $('histogram');
  const ctx = c.getContext('2d');
  const w = c.width;
  const h = c.height;
  ctx.clearRect(0, 0, w, h);
  const n = stats.histogram.length;
  const max = Math.max(...stats.histogram);
  const left = 10;
  const bottom = 36;
  const top = 22;
  const bw = (w - left - 10) / n;
  const here = app.pos && app.pos.shape === stats.shape && app.answers() ? app.pos.distance : null;
  ctx.font = '13px system-ui, sans-serif';
  ctx.textAlign = 'center';
  const every = bw >= 24 ? 1 : bw >= 12 ? 2 : 5;
  stats.histogram.forEach((count, d) => {
    const bh = ((h - top - bottom) * count) / max;
    const x = left + d * bw;
    ctx.fillStyle = d === here ? '#d9480f' : '#1c7ed6';
    ctx.fillRect(x, h - bottom - bh, Math.max(1, bw - 2), Math.max(count ? 1 : 0, bh));
    if (d % every === 0 || d === here) {
      ctx.fillStyle = d === here ? '#d9480f' : '#222';
      ctx.fillText(String(d), x + bw / 2, h - bottom + 15);
    }
    if (d === here) ctx.fillText(count.toLocaleString('en-US'), x + bw / 2, h - bottom - bh - 5);
  });
  ctx.fillStyle = '#222';
  ctx.fillText('distance from the goal (moves)', w / 2, h - 4);
  ctx.textAlign = 'left';
  ctx.fillText(`tallest bar: ${max.toLocaleString('en-US')} states`, left, 14);
  $('stats-here').textContent = here === null || here === undefined
    ? ''
    : `The board shown is ${here} moves from the goal (orange): ${stats.histogram[here].toLocaleString('en-US')} states share its depth.`;
}

async function drawHeatmap() {
  const t0 = performance.now();
  if (!stats) await loadStats();
  if (!stats) return;
  const heuristic = $('heatmap-heuristic').value;
  const m = await app.guard(() => call('/api/heatmap', { heuristic, shape: stats.shape, goal: stats.goalName }));
  if (!m) return;
  map = m;
  map.shape = stats.shape;
  picked = null;
  paint();
  const ms = performance.now() - t0;
  const over = m.overestimates;
  $('heatmap-summary').textContent = `${m.label}: exact (h = h*) on ${(100 * m.exact_share).toFixed(1)}% of the `
    + `${m.states.toLocaleString('en-US')} states; mean error h* - h = ${m.mean_error.toFixed(2)}; `
    + `overestimates (h > h*) on ${over.toLocaleString('en-US')} states${over ? ': not admissible' : ''}.`;
  $('heatmap-time').textContent = `drawn in ${Math.round(ms)} ms`;
  $('heatmap-time').dataset.ms = String(ms);
}

function paint() {
  const m = map;
  const rows = m.counts.length;
  const cols = Math.max(1, ...m.counts.map((r) => r.length), rows);
  cell = Math.max(6, Math.min(22, Math.floor(Math.min(620 / cols, 560 / rows))));
  const c = $('heatmap');
  c.hidden = false;
  Object.assign(c.dataset, { left: String(LEFT), top: String(TOP), cell: String(cell) });
  c.width = LEFT + cols * cell + 8;
  c.height = TOP + rows * cell + 8;
  const ctx = c.getContext('2d');
  ctx.clearRect(0, 0, c.width, c.height);
  let max = 1;
  for (const r of m.counts) for (const n of r) if (n > max) max = n;
  const logMax = Math.log(max);
  ctx.font = '12px system-ui, sans-serif';
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  const every = cell >= 14 ? 5 : 10;
  for (let d = 0; d < rows; d++) {
    const y = TOP + d * cell;
    m.counts[d].forEach((n, h) => {
      if (!n) return;
      const x = LEFT + h * cell;
      ctx.fillStyle = ramp(logMax > 0 ? Math.log(n) / logMax : 1);
      ctx.fillRect(x, y, cell - 1, cell - 1);
      if (h > d) {
        ctx.strokeStyle = '#e03131';
        ctx.lineWidth = 2;
        ctx.strokeRect(x + 1, y + 1, cell - 3, cell - 3);
      }
    });
    if (d % every === 0) {
      ctx.fillStyle = '#222';
      ctx.fillText(String(d), LEFT - 4, y + cell / 2);
    }
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = '#222';
  for (let h = 0; h < cols; h += every) ctx.fillText(String(h), LEFT + h * cell + cell / 2, TOP - 4);
  ctx.textAlign = 'left';
  ctx.font = 'bold 13px system-ui, sans-serif';
  ctx.fillText('h, the estimate \u2192', LEFT, 14);
  ctx.save();
  ctx.translate(14, TOP);
  ctx.rotate(Math.PI / 2);
  ctx.fillText('h*, the exact distance \u2192', 0, 0);
  ctx.restore();
  // the diagonal h = h*: exact estimates
  ctx.strokeStyle = '#000';
  ctx.lineWidth = 1.5;
  for (let d = 0; d < Math.min(rows, cols); d++) ctx.strokeRect(LEFT + d * cell - 0.5, TOP + d * cell - 0.5, cell, cell);
  if (picked) {
    ctx.strokeStyle = '#f08c00';
    ctx.lineWidth = 3;
    ctx.strokeRect(LEFT + picked.h * cell - 2, TOP + picked.d * cell - 2, cell + 3, cell + 3);
  }
  const scale = $('heatmap-scale');
  const sctx = scale.getContext('2d');
  for (let x = 0; x < scale.width; x++) {
    sctx.fillStyle = ramp(x / (scale.width - 1));
    sctx.fillRect(x, 0, 1, scale.height);
  }
  $('heatmap-max').textContent = `${max.toLocaleString('en-US')} states (log scale)`;
  $('heatmap-legend').hidden = false;
}

async function pick(e) {
  if (!map) return;
  const c = $('heatmap');
  const r = c.getBoundingClientRect();
  // the canvas may be drawn smaller than its pixels (max-width), so scale the click back
  const x = ((e.clientX - r.left) * c.width) / r.width;
  const y = ((e.clientY - r.top) * c.height) / r.height;
  const h = Math.floor((x - LEFT) / cell);
  const d = Math.floor((y - TOP) / cell);
  if (d < 0 || h < 0 || d >= map.counts.length || !(map.counts[d][h] > 0)) return;
  const ex = await app.guard(() => call('/api/heatmap/example',
    { heuristic: map.heuristic, exact: d, h, shape: map.shape, goal: stats.goalName }));
  if (!ex) return;
  picked = { d, h };
  paint();
  const kind = h === d ? 'exact' : h > d ? 'an overestimate' : `short by ${d - h}`;
  $('example-text').textContent = `h* = ${d}, ${map.heuristic} h = ${h}: ${kind} `
    + `(${map.counts[d][h].toLocaleString('en-US')} states). For example: ${ex.text}`;
  $('example-play').hidden = false;
  $('example-play').dataset.board = ex.text;
  $('example-play').dataset.shape = map.shape;
}
